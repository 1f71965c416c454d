"""Nomic World: how a turn ends and the next begins (rules 102, 103, 111-113): counting the votes,
rejecting an open proposal, adopted changes taking effect, the next turn, the end of the game.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, Reason
from bot.games.nomic.edits import emit, noted, with_player, with_record
from bot.games.nomic.state import (
    ACTIVE,
    ADOPTED,
    APPLIED,
    IN_EFFECT,
    OVER,
    PENDING,
    PROPOSE,
    REJECTED,
    REPEALED,
    REVEAL,
    ROLL,
    VOTE,
    State,
    judge_of,
    name,
    open_proposal,
    record,
    seats_with,
    settings,
    sort_turns,
)


def tally(rule: str, voters: int, yes: int, no: int) -> str | None:
    """``"adopted"``, ``"rejected"`` or ``None`` (undecided) for a vote under ``rule``.

    >>> tally("unanimous", 3, 2, 0), tally("unanimous", 3, 2, 1), tally("majority", 4, 2, 2)
    (None, 'rejected', 'rejected')
    """
    if rule == "unanimous":
        return "rejected" if no else ("adopted" if yes >= voters else None)
    if rule == "majority":
        return "adopted" if 2 * yes > voters else ("rejected" if 2 * no >= voters else None)
    # two-thirds
    return "adopted" if 3 * yes >= 2 * voters else ("rejected" if 3 * (voters - no) < 2 * voters else None)


def reject_open(s: State, events: list[Event], reason: str) -> State:
    p = open_proposal(s)
    if p is None:
        return s
    s = with_record(s, noted(s, replace(p, status=REJECTED), "rejected", text=reason))
    emit(events, "reject", f"Proposal {p.number} is rejected: {reason}.", number=p.number)
    return s


def count_votes(s: State, events: list[Event]) -> State:
    """Decide the open proposal once every voter has voted (until then votes may change); a decided
    proposal ends the turn."""
    p = open_proposal(s)
    assert p is not None
    if {v for v, _ in p.votes} < set(p.voters):
        return s
    yes = sum(1 for _, y in p.votes if y)
    no = len(p.votes) - yes
    rule = settings(s).votes
    result = tally(rule, len(p.voters), yes, no)
    if result is None:
        return s
    score = f"{yes} yes, {no} no ({rule})"
    if result == "adopted":
        s = with_record(s, noted(s, replace(p, status=ADOPTED), "adopted", text=score))
        emit(events, "adopt", f"Proposal {p.number} is adopted: {score}. It takes effect at the beginning "
                               "of the next turn (rule 111).", number=p.number)
    else:
        s = with_record(s, noted(s, replace(p, status=REJECTED), "rejected", text=score))
        emit(events, "reject", f"Proposal {p.number} is rejected: {score}.", number=p.number)
    return next_turn(s, events)


def take_effect(s: State, events: list[Event]) -> tuple[State, int | None]:
    """Adopted changes take effect (rule 111); returns the state and an adopted rule that ends the game."""
    ender = None
    for p in s.records:
        if p.status != ADOPTED:
            continue
        if p.kind == "enact":
            s = with_record(s, noted(s, replace(p, status=IN_EFFECT), "took effect"))
            s = replace(s, effect_order=(*s.effect_order, p.number))
            emit(events, "effect", f"Rule {p.number} takes effect.", number=p.number)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
            continue
        assert p.target is not None
        target = record(s, p.target)
        assert target is not None
        if target.status != IN_EFFECT:
            s = with_record(s, noted(s, replace(p, status=APPLIED), "took effect",
                                       text=f"rule {p.target} was no longer in effect"))
            continue
        if p.kind == "repeal":
            s = with_record(s, noted(s, replace(target, status=REPEALED), "repealed", ref=p.number))
            s = replace(s, effect_order=tuple(n for n in s.effect_order if n != p.target))
            emit(events, "effect", f"Proposal {p.number} takes effect: rule {p.target} is repealed.",
                  number=p.number, rule=p.target)
        else:
            effect = p.effect if p.effect is not None else target.effect
            amended = replace(target, text=p.text, effect=effect)
            s = with_record(s, noted(s, amended, "amended", ref=p.number, text=target.text))
            emit(events, "effect", f"Proposal {p.number} takes effect: rule {p.target} is amended.",
                  number=p.number, rule=p.target)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
        s = with_record(s, noted(s, replace(p, status=APPLIED), "took effect"))
    return s, ender


def finish_game(s: State, events: list[Event], reason: Reason, detail: str) -> State:
    s = reject_open(s, events, "the game ended")
    if s.phase == REVEAL and s.current is not None:
        s = with_player(s, s.current, pos=s.path[-1])
    s = replace(s, status=OVER, current=None, phase="", roll=None, question=None, end_reason=reason.value,
                end_detail=detail)
    emit(events, "end", f"The game is over. {detail}", reason=reason.value)
    return s


def next_turn(s: State, events: list[Event]) -> State:
    """End the current turn (if any) and begin the next, starting a new round when everybody has played."""
    done = s.done if s.current is None else (*s.done, s.current)
    s = replace(s, done=done, current=None, phase="", roll=None)
    active = seats_with(s, ACTIVE)
    remaining = [i for i in active if i not in s.done]
    if s.round == 0 or not remaining:
        pending = seats_with(s, PENDING)
        for i in pending:
            s = with_player(s, i, status=ACTIVE)
        s = replace(s, round=s.round + 1, done=())
        joined = ""
        if pending:
            verb = "joins" if len(pending) == 1 else "join"
            joined = f" {', '.join(name(s, i) for i in pending)} {verb} the game."
        emit(events, "round", f"Round {s.round} begins.{joined}", round=s.round)
        active = seats_with(s, ACTIVE)
        remaining = list(active)
    s, ender = take_effect(s, events)
    if ender is not None:
        return finish_game(s, events, Reason.AGREEMENT, f"Rule {ender} ended the game.")
    if len(active) < 2:
        return finish_game(s, events, Reason.ABORTED, "Fewer than two players remain.")
    rules = settings(s)
    current = sort_turns(s, remaining, rules.order)[0]
    phase = ROLL if rules.phases in ("both", "movement") else PROPOSE
    s = replace(s, current=current, phase=phase)
    first = "movement" if phase == ROLL else "rule-change"
    emit(events, "turn", f"Round {s.round}, turn {len(s.done) + 1}: {name(s, current)}'s turn "
                          f"({first} phase). Judge: {name(s, judge_of(s))}.", seat=current, round=s.round)
    return s


def resume(s: State, events: list[Event]) -> State:
    """Count the open proposal again once no question holds play (votes may have settled it meanwhile)."""
    if s.question is None and s.phase == VOTE:
        return count_votes(s, events)
    return s
