"""Nomic World: judgment (rule 114): a question, the Judge's ruling, a lapse.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, IllegalMove, Seat
from bot.games.nomic.edits import clean, emit, need_running, noted, question_blocks
from bot.games.nomic.flow import resume
from bot.games.nomic.moves import MAX_QUESTION, MAX_TEXT, Judge, Lapse, Ruling
from bot.games.nomic.state import (
    ACTIVE,
    IN_EFFECT,
    JUDGMENT,
    RUNNING,
    Question,
    Record,
    State,
    judge_of,
    name,
    next_number,
)


def apply_judge(s: State, seat: Seat, m: Judge, events: list[Event]) -> State:
    need_running(s, "invoke Judgment")
    if not 0 <= seat < len(s.players) or s.players[seat].status != ACTIVE:
        raise IllegalMove("Only a player in this round can invoke Judgment.")
    question_blocks(s)
    clean(m.question, "question", MAX_QUESTION)
    judge = judge_of(s)
    assert judge is not None
    s = replace(s, question=Question(seat, judge, m.question))
    emit(events, "judge", f"{name(s, seat)} invokes Judgment: \u201c{m.question}\u201d. The Judge is "
                           f"{name(s, judge)} (rule 114); play waits for the ruling.", seat=seat, judge=judge)
    return s


def _need_judge(s: State, seat: Seat, what: str) -> Question:
    if s.status != RUNNING or s.question is None:
        raise IllegalMove(f"There is no question to {what}: invoke Judgment first (`judge <question>`).")
    if seat != s.question.judge:
        raise IllegalMove(f"Only the Judge, {name(s, s.question.judge)}, can {what} (rule 114).")
    return s.question


def apply_ruling(s: State, seat: Seat, m: Ruling, events: list[Event]) -> State:
    q = _need_judge(s, seat, "rule on the question")
    clean(m.text, "ruling", MAX_TEXT)
    number = next_number(s)
    rec = Record(number, JUDGMENT, m.text, IN_EFFECT, proposer=seat)
    rec = noted(s, noted(s, rec, "asked", q.asker, text=q.text), "ruled", seat)
    s = replace(s, records=(*s.records, rec), effect_order=(*s.effect_order, number), question=None)
    emit(events, "ruling", f"{name(s, seat)} rules on \u201c{q.text[:80]}\u201d. The ruling is rule "
                            f"{number}, adopted and in effect at once (rule 114).", seat=seat, number=number)
    return resume(s, events)


def apply_lapse(s: State, seat: Seat, m: Lapse, events: list[Event]) -> State:
    q = _need_judge(s, seat, "let the question lapse")
    s = replace(s, question=None)
    emit(events, "lapse", f"The question \u201c{q.text[:80]}\u201d lapses without a ruling.", judge=seat)
    return resume(s, events)
