"""Nomic World: small pieces the move handlers share (events, edits of the state, the checks
every handler makes first).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.games.base import JSON, Event, IllegalMove, Seat
from bot.games.nomic.state import MOVE, PROPOSE, REVEAL, ROLL, RUNNING, VOTE, Note, Record, State, name, now
from bot.i18n import N_, _, ngettext


def emit(events: list[Event], kind: str, text: str, **data: JSON) -> None:
    events.append(Event(kind, text, data))


def with_player(s: State, seat: Seat, **changes: Any) -> State:
    players = list(s.players)
    players[seat] = replace(players[seat], **changes)
    return replace(s, players=tuple(players))


def with_record(s: State, rec: Record) -> State:
    records = list(s.records)
    for i in range(len(records) - 1, -1, -1):
        if records[i].number == rec.number:
            records[i] = rec
            return replace(s, records=tuple(records))
    raise KeyError(rec.number)


def noted(s: State, rec: Record, what: str, seat: Seat | None = None, ref: int | None = None,
           text: str = "") -> Record:
    r, t = now(s)
    return replace(rec, history=(*rec.history, Note(r, t, what, seat, ref, text)))


# What each text a player writes is called, in whole sentences (the word's gender changes them in other
# languages): its spaces, its emptiness, its length.
_TEXTS: dict[str, tuple[str, str, str]] = {
    "question": (N_("The question must not start or end with spaces."),
                 N_("The question is empty: write it out."),
                 N_("The question is {length} characters long; the limit is {limit}.")),
    "ruling": (N_("The ruling must not start or end with spaces."),
               N_("The ruling is empty: write it out."),
               N_("The ruling is {length} characters long; the limit is {limit}.")),
    "name": (N_("The display name must not start or end with spaces."),
             N_("The display name is empty: write it out."),
             N_("The display name is {length} characters long; the limit is {limit}.")),
    "enacted": (N_("The new rule's text must not start or end with spaces."),
                N_("The new rule's text is empty: write it out."),
                N_("The new rule's text is {length} characters long; the limit is {limit}.")),
    "reason": (N_("The reason must not start or end with spaces."),
               N_("The reason is empty: write it out."),
               N_("The reason is {length} characters long; the limit is {limit}.")),
    "amended": (N_("The amended text must not start or end with spaces."),
                N_("The amended text is empty: write it out."),
                N_("The amended text is {length} characters long; the limit is {limit}.")),
}


def clean(text: str, what: str, limit: int, *, required: bool = True) -> None:
    """Refuse a player's text (``what``: a key of ``_TEXTS``) with outer spaces, empty, or too long."""
    spaces, empty, long = _TEXTS[what]
    if text != text.strip():
        raise IllegalMove(_(spaces))
    if required and not text:
        raise IllegalMove(_(empty))
    if len(text) > limit:
        raise IllegalMove(_(long, length=len(text), limit=limit))


def need_running(s: State, verb: str) -> None:
    """``verb``: what the player tried, in the current language (``pgettext("infinitive", "vote")``)."""
    if s.status != RUNNING:
        raise IllegalMove(_("You can {verb} only once the game has started.", verb=verb))


def question_blocks(s: State) -> None:
    if s.question is not None:
        q = s.question
        raise IllegalMove(_("Judgment is pending: {judge}, the Judge, must first rule on "
                            "\u201c{question}\u201d (rule 114).", judge=name(s, q.judge),
                            question=q.text[:80]))


def need_current(s: State, seat: Seat, phase: str, verb: str) -> None:
    need_running(s, verb)
    question_blocks(s)
    if seat != s.current:
        raise IllegalMove(_("It is {player}'s turn: only the current player can {verb} (rule 103).",
                            player=name(s, s.current), verb=verb))
    if s.phase != phase:
        raise IllegalMove(_("You cannot {verb} now: {why}.", verb=verb, why=phase_text(s)))


def phase_text(s: State) -> str:
    """What the game waits for now, in the current language (the end of a sentence)."""
    who = name(s, s.current)
    if s.phase == ROLL:
        return _("the die is about to be rolled")
    if s.phase == MOVE:
        return ngettext("{player} must give a path of {n} step", "{player} must give a path of {n} steps",
                        s.roll or 0, player=who)
    if s.phase == REVEAL:
        return _("the space just landed on is being revealed")
    if s.phase == PROPOSE:
        return _("{player} must propose a rule-change", player=who)
    if s.phase == VOTE:
        return _("the players are voting on the proposal")
    return _("the game is not in a turn")
