"""Nomic World: players joining (rule 101), starting the game, skipping a turn, leaving, and ending
the game.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, IllegalMove, Reason, Seat
from bot.games.nomic.edits import clean, emit, need_running, question_blocks, with_player, with_record
from bot.games.nomic.flow import finish_game, next_turn, reject_open, resume
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


def apply_join(s: State, seat: Seat, m: Join, events: list[Event]) -> State:
    if seat != len(s.players):
        raise IllegalMove(f"A new player takes seat {len(s.players)} (the next free one), not seat {seat}.")
    if type(m.user_id) is not int or not 0 < m.user_id < 2**64:
        raise IllegalMove("A player's user id is a positive number.")
    for i, p in enumerate(s.players):
        if p.user_id == m.user_id:
            if p.status == LEFT:
                raise IllegalMove(f"{p.name} left this game and cannot rejoin it.")
            raise IllegalMove(f"{p.name} is already in this game (seat {i}).")
    clean(m.name, "display name", MAX_NAME)
    if any(c in m.name for c in "\n\r\t"):
        raise IllegalMove("A display name is one line.")
    status = ACTIVE if s.status == LOBBY else PENDING
    s = replace(s, players=(*s.players, Player(m.user_id, m.name, status, ORIGIN)))
    when = "joins the game" if status == ACTIVE else f"joins and plays from round {s.round + 1} (rule 101)"
    emit(events, "join", f"{m.name} {when}.", seat=seat, pending=status == PENDING)
    return s


def apply_start(s: State, seat: Seat, m: Start, events: list[Event]) -> State:
    if s.status != LOBBY:
        raise IllegalMove("The game has already started.")
    active = seats_with(s, ACTIVE)
    if seat not in active:
        raise IllegalMove("Only a player in the lobby can start the game.")
    if len(s.players) < s.seats:
        raise IllegalMove(f"Waiting for {s.seats - len(s.players)} more player(s) to join.")
    if len(active) < 2:
        raise IllegalMove("Nomic World needs at least two players to start.")
    s = replace(s, status=RUNNING)
    emit(events, "start", f"The game begins with {len(active)} players; the Initial Set (rules 101-115) "
                           "is in effect.")
    return next_turn(s, events)


def apply_skip(s: State, seat: Seat, m: Skip, events: list[Event]) -> State:
    need_running(s, "end a turn")
    question_blocks(s)
    if seat != s.current:
        raise IllegalMove(f"Only the current player, {name(s, s.current)}, can end the turn.")
    if s.phase not in (MOVE, PROPOSE, VOTE):
        raise IllegalMove("The turn cannot end while the bot rolls or reveals.")
    lost = {MOVE: "moving or proposing", PROPOSE: "a proposal", VOTE: "a complete vote"}[s.phase]
    if s.phase == MOVE and settings(s).phases == "movement":
        lost = "moving"
    emit(events, "skip", f"{name(s, seat)}'s turn ends without {lost}.", seat=seat)
    s = reject_open(s, events, "the turn ended before the vote was complete")
    return next_turn(s, events)


def apply_leave(s: State, seat: Seat, m: Leave, events: list[Event]) -> State:
    if not 0 <= seat < len(s.players) or s.players[seat].status == LEFT:
        raise IllegalMove("You are not in this game.")
    s = with_player(s, seat, status=LEFT)
    emit(events, "leave", f"{name(s, seat)} leaves the game.", seat=seat)
    if s.status == LOBBY:
        return s
    if len(seats_with(s, ACTIVE, PENDING)) < 2:
        return finish_game(s, events, Reason.ABORTED, "Fewer than two players remain.")
    if s.question is not None and s.question.judge == seat:
        emit(events, "lapse", f"The question \u201c{s.question.text[:80]}\u201d lapses: the Judge left.")
        s = replace(s, question=None)
    if seat == s.current:  # the turn ends; a pending question still waits for its Judge
        if s.phase == REVEAL:
            s = with_player(s, seat, pos=s.path[-1])
        s = reject_open(s, events, "the proposer left the game")
        return next_turn(s, events)
    p = open_proposal(s)
    if p is not None and seat in p.voters:
        s = with_record(s, replace(p, voters=tuple(v for v in p.voters if v != seat),
                                    votes=tuple(v for v in p.votes if v[0] != seat)))
    return resume(s, events)


def apply_end(s: State, seat: Seat, m: End, events: list[Event]) -> State:
    detail = "Stopped by the host." if m.by == "host" else "Stopped by an admin."
    return finish_game(s, events, Reason.ABORTED, detail)
