"""Nomic World: the rule-change phase (rules 110-113): proposals and votes.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, IllegalMove, Seat
from bot.games.nomic.edits import clean, emit, need_current, need_running, noted, question_blocks, with_record
from bot.games.nomic.flow import count_votes
from bot.games.nomic.moves import ACTIONS, MAX_TEXT, Effect, Propose, Unvote, Vote
from bot.games.nomic.state import (
    ACTIVE,
    IN_EFFECT,
    OPEN,
    PENDING,
    PROPOSE,
    REPEALED,
    VOTE,
    Record,
    State,
    name,
    next_number,
    open_proposal,
    record,
    seats_with,
    setting_holder,
    settings,
)

_KIND_WHAT = {"die": "the movement die", "votes": "the votes needed", "order": "the turn order",
              "phases": "the phases of a turn"}


def _rule_target(s: State, number: int | None, action: str) -> Record:
    """The rule a repeal or amendment may target, or a clear refusal."""
    if number is None:
        raise IllegalMove(f"Say which rule to {action}: give its number.")
    rec = record(s, number)
    if rec is None:
        last = next_number(s) - 1
        known = "101-115" + (f" and 201-{last}" if last >= 201 else "")
        raise IllegalMove(f"There is no rule {number} (numbers so far: {known}).")
    if rec.kind in ("repeal", "amend"):
        raise IllegalMove(f"{number} is a proposal to {rec.kind} rule {rec.target}, not a rule: "
                          f"{action} rule {rec.target} itself.")
    if rec.status == REPEALED:
        by = next((n.ref for n in reversed(rec.history) if n.what == "repealed"), None)
        raise IllegalMove(f"Rule {number} was repealed{f' by {by}' if by else ''}, so it can no longer be "
                          f"{'repealed' if action == 'repeal' else 'amended'}; enact a new rule instead.")
    if rec.status != IN_EFFECT:
        raise IllegalMove(f"Proposal {number} was not adopted ({rec.status}), so there is no rule {number}.")
    return rec


def _dead_effect(s: State, effect: Effect | None, number: int) -> None:
    """Refuse an effect that a lower-numbered rule in effect overrides (rule 113)."""
    if effect is None or effect.kind == "end":
        return
    holder = setting_holder(s, effect.kind)
    if holder is not None and holder.number < number:
        raise IllegalMove(
            f"Rule {holder.number} already sets {_KIND_WHAT[effect.kind]} and, having the lower number, "
            f"takes precedence (rule 113): amend rule {holder.number} with this effect, or repeal it first.")


def _check_proposal(s: State, m: Propose) -> None:
    if m.action not in ACTIONS:
        raise IllegalMove(f"A rule-change is an enactment, a repeal or an amendment (rule 110), "
                          f"not {m.action!r}.")
    if m.effect is not None and not isinstance(m.effect, Effect):
        raise IllegalMove("The effect is not one the bot knows.")
    number = next_number(s)
    if m.action == "enact":
        if m.rule is not None:
            raise IllegalMove(f"An enactment makes a new rule (it will be number {number}): give no rule "
                              f"number, or amend rule {m.rule} instead.")
        clean(m.text, "new rule's text", MAX_TEXT)
        _dead_effect(s, m.effect, number)
        return
    target = _rule_target(s, m.rule, m.action)
    if m.action == "repeal":
        if m.effect is not None:
            raise IllegalMove("A repeal carries no effect: the repealed rule's effect simply stops.")
        clean(m.text, "reason", MAX_TEXT, required=False)
        return
    clean(m.text, "amended text", MAX_TEXT)
    _dead_effect(s, m.effect, target.number)
    if m.text == target.text and m.effect in (None, target.effect):
        raise IllegalMove(f"That amendment would leave rule {target.number} as it is: change its text or "
                          "its effect.")


def apply_propose(s: State, seat: Seat, m: Propose, events: list[Event]) -> State:
    need_current(s, seat, PROPOSE, "propose")
    _check_proposal(s, m)
    number = next_number(s)
    voters = seats_with(s, ACTIVE)
    rec = Record(number, m.action, m.text, OPEN, effect=m.effect, target=m.rule, proposer=seat, voters=voters)
    rec = noted(s, rec, "proposed", seat)
    s = replace(s, records=(*s.records, rec), phase=VOTE)
    what = {"enact": "to enact a new rule", "repeal": f"to repeal rule {m.rule}",
            "amend": f"to amend rule {m.rule}"}[m.action]
    extra = f" (effect: {m.effect.describe()})" if m.effect else ""
    emit(events, "propose", f"{name(s, seat)} proposes {number}: {what}{extra}. Votes needed: "
                             f"{settings(s).votes}.", seat=seat, number=number, action=m.action, rule=m.rule)
    return s


def apply_vote(s: State, seat: Seat, m: Vote, events: list[Event]) -> State:
    need_running(s, "vote")
    question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove("There is no proposal to vote on right now.")
    if seat not in p.voters:
        if 0 <= seat < len(s.players) and s.players[seat].status == PENDING:
            raise IllegalMove(f"You joined during round {s.round}: you vote from round {s.round + 1} on.")
        raise IllegalMove(f"Only the players at the time of proposal {p.number} vote on it.")
    votes = dict(p.votes)
    if votes.get(seat) is m.yes:
        raise IllegalMove(f"You already voted {'yes' if m.yes else 'no'} on proposal {p.number}.")
    changed = seat in votes
    votes[seat] = m.yes
    s = with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    emit(events, "vote", f"{name(s, seat)} {'changes their vote to' if changed else 'votes'} "
                          f"{'yes' if m.yes else 'no'} on {p.number}.", seat=seat, number=p.number, yes=m.yes)
    return count_votes(s, events)


def apply_unvote(s: State, seat: Seat, m: Unvote, events: list[Event]) -> State:
    need_running(s, "withdraw a vote")
    question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove("There is no proposal to vote on right now.")
    votes = dict(p.votes)
    if seat not in votes:
        raise IllegalMove(f"You have not voted on proposal {p.number}.")
    del votes[seat]
    s = with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    emit(events, "unvote", f"{name(s, seat)} withdraws their vote on {p.number}.", seat=seat, number=p.number)
    return s
