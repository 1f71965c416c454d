"""Nomic World: players joining (rule 101), starting the game, skipping a turn, leaving, and ending
the game.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, IllegalMove, Reason, Seat
from bot.games.nomic.edits import clean, emit, need_running, question_blocks, with_player, with_record
from bot.games.nomic.flow import (
    BY_ADMIN,
    BY_HOST,
    PROPOSER_LEFT,
    TOO_FEW,
    TURN_ENDED,
    finish_game,
    next_turn,
    reject_open,
    resume,
)
from bot.games.nomic.moves import MAX_NAME, End, Join, Leave, Skip, Start
from bot.games.nomic.state import (
    ACTIVE,
    LEFT,
    LOBBY,
    MOVE,
    ORIGIN,
    PENDING,
    PROPOSE,
    REVEAL,
    RUNNING,
    VOTE,
    Player,
    State,
    name,
    open_proposal,
    seats_with,
    settings,
)
from bot.i18n import _, ngettext, pgettext


def apply_join(s: State, seat: Seat, m: Join, events: list[Event]) -> State:
    if seat != len(s.players):
        raise IllegalMove(_("A new player takes seat {free} (the next free one), not seat {seat}.",
                            free=len(s.players), seat=seat))
    if type(m.user_id) is not int or not 0 < m.user_id < 2**64:
        raise IllegalMove(_("A player's user id is a positive number."))
    for i, p in enumerate(s.players):
        if p.user_id == m.user_id:
            if p.status == LEFT:
                raise IllegalMove(_("{player} left this game and cannot rejoin it.", player=p.name))
            raise IllegalMove(_("{player} is already in this game (seat {seat}).", player=p.name, seat=i))
    clean(m.name, "name", MAX_NAME)
    if any(c in m.name for c in "\n\r\t"):
        raise IllegalMove(_("A display name is one line."))
    status = ACTIVE if s.status == LOBBY else PENDING
    s = replace(s, players=(*s.players, Player(m.user_id, m.name, status, ORIGIN)))
    if status == ACTIVE:
        text = _("{player} joins the game.", player=m.name)
    else:
        text = _("{player} joins and plays from round {round} (rule 101).", player=m.name, round=s.round + 1)
    emit(events, "join", text, seat=seat, pending=status == PENDING)
    return s


def apply_start(s: State, seat: Seat, m: Start, events: list[Event]) -> State:
    if s.status != LOBBY:
        raise IllegalMove(_("The game has already started."))
    active = seats_with(s, ACTIVE)
    if seat not in active:
        raise IllegalMove(_("Only a player in the lobby can start the game."))
    if len(s.players) < s.seats:
        raise IllegalMove(ngettext("Waiting for {n} more player to join.",
                                   "Waiting for {n} more players to join.",
                                   s.seats - len(s.players)))
    if len(active) < 2:
        raise IllegalMove(_("Nomic World needs at least two players to start."))
    s = replace(s, status=RUNNING)
    emit(events, "start", ngettext("The game begins with {n} player; the Initial Set (rules 101-115) is in "
                                   "effect.", "The game begins with {n} players; the Initial Set (rules "
                                   "101-115) is in effect.", len(active)))
    return next_turn(s, events)


def apply_skip(s: State, seat: Seat, m: Skip, events: list[Event]) -> State:
    need_running(s, pgettext("infinitive", "end a turn"))
    question_blocks(s)
    if seat != s.current:
        raise IllegalMove(_("Only the current player, {player}, can end the turn.",
                            player=name(s, s.current)))
    if s.phase not in (MOVE, PROPOSE, VOTE):
        raise IllegalMove(_("The turn cannot end while the bot rolls or reveals."))
    who = name(s, seat)
    if s.phase == MOVE and settings(s).phases == "movement":
        text = _("{player}'s turn ends without moving.", player=who)
    elif s.phase == MOVE:
        text = _("{player}'s turn ends without moving or proposing.", player=who)
    elif s.phase == PROPOSE:
        text = _("{player}'s turn ends without a proposal.", player=who)
    else:
        text = _("{player}'s turn ends without a complete vote.", player=who)
    emit(events, "skip", text, seat=seat)
    s = reject_open(s, events, TURN_ENDED)
    return next_turn(s, events)


def apply_leave(s: State, seat: Seat, m: Leave, events: list[Event]) -> State:
    if not 0 <= seat < len(s.players) or s.players[seat].status == LEFT:
        raise IllegalMove(_("You are not in this game."))
    s = with_player(s, seat, status=LEFT)
    emit(events, "leave", _("{player} leaves the game.", player=name(s, seat)), seat=seat)
    if s.status == LOBBY:
        return s
    if len(seats_with(s, ACTIVE, PENDING)) < 2:
        return finish_game(s, events, Reason.ABORTED, TOO_FEW)
    if s.question is not None and s.question.judge == seat:
        emit(events, "lapse", _("The question \u201c{question}\u201d lapses: the Judge left.",
                                question=s.question.text[:80]))
        s = replace(s, question=None)
    if seat == s.current:  # the turn ends; a pending question still waits for its Judge
        if s.phase == REVEAL:
            s = with_player(s, seat, pos=s.path[-1])
        s = reject_open(s, events, PROPOSER_LEFT)
        return next_turn(s, events)
    p = open_proposal(s)
    if p is not None and seat in p.voters:
        s = with_record(s, replace(p, voters=tuple(v for v in p.voters if v != seat),
                                    votes=tuple(v for v in p.votes if v[0] != seat)))
    return resume(s, events)


def apply_end(s: State, seat: Seat, m: End, events: list[Event]) -> State:
    detail = BY_HOST if m.by == "host" else BY_ADMIN
    return finish_game(s, events, Reason.ABORTED, detail)
