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
from bot.i18n import _, pgettext


def apply_judge(s: State, seat: Seat, m: Judge, events: list[Event]) -> State:
    need_running(s, pgettext("infinitive", "invoke Judgment"))
    if not 0 <= seat < len(s.players) or s.players[seat].status != ACTIVE:
        raise IllegalMove(_("Only a player in this round can invoke Judgment."))
    question_blocks(s)
    clean(m.question, "question", MAX_QUESTION)
    judge = judge_of(s)
    assert judge is not None
    s = replace(s, question=Question(seat, judge, m.question))
    text = _("{player} invokes Judgment: \u201c{question}\u201d. The Judge is {judge} (rule 114); play waits "
             "for the ruling.", player=name(s, seat), question=m.question, judge=name(s, judge))
    emit(events, "judge", text, seat=seat, judge=judge)
    return s


def _need_judge(s: State, seat: Seat, what: str) -> Question:
    """``what``: the Judge's action, in the current language."""
    if s.status != RUNNING or s.question is None:
        raise IllegalMove(_("There is no question to {action}: invoke Judgment first (`judge <question>`).",
                            action=what))
    if seat != s.question.judge:
        raise IllegalMove(_("Only the Judge, {judge}, can {action} (rule 114).",
                            judge=name(s, s.question.judge), action=what))
    return s.question


def apply_ruling(s: State, seat: Seat, m: Ruling, events: list[Event]) -> State:
    q = _need_judge(s, seat, pgettext("infinitive", "rule on the question"))
    clean(m.text, "ruling", MAX_TEXT)
    number = next_number(s)
    rec = Record(number, JUDGMENT, m.text, IN_EFFECT, proposer=seat)
    rec = noted(s, noted(s, rec, "asked", q.asker, text=q.text), "ruled", seat)
    s = replace(s, records=(*s.records, rec), effect_order=(*s.effect_order, number), question=None)
    text = _("{player} rules on \u201c{question}\u201d. The ruling is rule {number}, adopted and in effect "
             "at once (rule 114).", player=name(s, seat), question=q.text[:80], number=number)
    emit(events, "ruling", text, seat=seat, number=number)
    return resume(s, events)


def apply_lapse(s: State, seat: Seat, m: Lapse, events: list[Event]) -> State:
    q = _need_judge(s, seat, pgettext("infinitive", "let the question lapse"))
    s = replace(s, question=None)
    text = _("The question \u201c{question}\u201d lapses without a ruling.", question=q.text[:80])
    emit(events, "lapse", text, judge=seat)
    return resume(s, events)
