"""Nomic World: small pieces the move handlers share (events, edits of the state, the checks
every handler makes first).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.games.base import JSON, Event, IllegalMove, Seat
from bot.games.nomic.state import MOVE, PROPOSE, REVEAL, ROLL, RUNNING, VOTE, Note, Record, State, name, now


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


def clean(text: str, what: str, limit: int, *, required: bool = True) -> None:
    if text != text.strip():
        raise IllegalMove(f"The {what} must not start or end with spaces.")
    if required and not text:
        raise IllegalMove(f"The {what} is empty: write it out.")
    if len(text) > limit:
        raise IllegalMove(f"The {what} is {len(text)} characters long; the limit is {limit}.")


def need_running(s: State, verb: str) -> None:
    if s.status != RUNNING:
        raise IllegalMove(f"You can {verb} only once the game has started.")


def question_blocks(s: State) -> None:
    if s.question is not None:
        q = s.question
        raise IllegalMove(f"Judgment is pending: {name(s, q.judge)}, the Judge, must first rule on "
                          f"\u201c{q.text[:80]}\u201d (rule 114).")


def need_current(s: State, seat: Seat, phase: str, verb: str) -> None:
    need_running(s, verb)
    question_blocks(s)
    if seat != s.current:
        raise IllegalMove(f"It is {name(s, s.current)}'s turn: only the current player can {verb} "
                          "(rule 103).")
    if s.phase != phase:
        raise IllegalMove(f"You cannot {verb} now: {phase_text(s)}.")


def phase_text(s: State) -> str:
    who = name(s, s.current)
    return {ROLL: "the die is about to be rolled", MOVE: f"{who} must give a path of {s.roll} steps",
            REVEAL: "the space just landed on is being revealed",
            PROPOSE: f"{who} must propose a rule-change",
            VOTE: "the players are voting on the proposal"}.get(s.phase, "the game is not in a turn")
