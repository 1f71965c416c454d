"""Nomic World: the rule-change phase (rules 110-113): proposals and votes.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games.base import Event, IllegalMove, Seat
from bot.games.nomic.edits import clean, emit, need_current, need_running, noted, question_blocks, with_record
from bot.games.nomic.flow import count_votes
from bot.games.nomic.moves import ACTIONS, MAX_TEXT, Effect, Propose, Unvote, Vote, vote_word
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
    known_numbers,
    name,
    next_number,
    open_proposal,
    record,
    seats_with,
    setting_holder,
    settings,
    status_word,
)
from bot.i18n import N_, _, pgettext

# Refusing an effect a lower-numbered rule overrides, one whole sentence per setting.
_OVERRIDDEN = {
    "die": N_("Rule {rule} already sets the movement die and, having the lower number, takes precedence "
              "(rule 113): amend rule {rule} with this effect, or repeal it first."),
    "votes": N_("Rule {rule} already sets the votes needed and, having the lower number, takes precedence "
                "(rule 113): amend rule {rule} with this effect, or repeal it first."),
    "order": N_("Rule {rule} already sets the turn order and, having the lower number, takes precedence "
                "(rule 113): amend rule {rule} with this effect, or repeal it first."),
    "phases": N_("Rule {rule} already sets the phases of a turn and, having the lower number, takes "
                 "precedence (rule 113): amend rule {rule} with this effect, or repeal it first."),
}


def _rule_target(s: State, number: int | None, action: str) -> Record:
    """The rule a repeal or amendment may target, or a clear refusal."""
    if number is None:
        if action == "repeal":
            raise IllegalMove(_("Say which rule to repeal: give its number."))
        raise IllegalMove(_("Say which rule to amend: give its number."))
    rec = record(s, number)
    if rec is None:
        raise IllegalMove(_("There is no rule {number} (numbers so far: {known}).", number=number,
                            known=known_numbers(next_number(s) - 1)))
    if rec.kind in ("repeal", "amend"):
        texts = {
            ("repeal", "repeal"): N_("{number} is a proposal to repeal rule {rule}, not a rule: repeal rule "
                                     "{rule} itself."),
            ("repeal", "amend"): N_("{number} is a proposal to repeal rule {rule}, not a rule: amend rule "
                                    "{rule} itself."),
            ("amend", "repeal"): N_("{number} is a proposal to amend rule {rule}, not a rule: repeal rule "
                                    "{rule} itself."),
            ("amend", "amend"): N_("{number} is a proposal to amend rule {rule}, not a rule: amend rule "
                                   "{rule} itself."),
        }
        raise IllegalMove(_(texts[rec.kind, "repeal" if action == "repeal" else "amend"], number=number,
                            rule=rec.target))
    if rec.status == REPEALED:
        by = next((n.ref for n in reversed(rec.history) if n.what == "repealed"), None)
        if action == "repeal":
            text = (_("Rule {number} was repealed by {by}, so it can no longer be repealed; enact a new rule "
                      "instead.", number=number, by=by) if by else
                    _("Rule {number} was repealed, so it can no longer be repealed; enact a new rule "
                      "instead.", number=number))
        else:
            text = (_("Rule {number} was repealed by {by}, so it can no longer be amended; enact a new rule "
                      "instead.", number=number, by=by) if by else
                    _("Rule {number} was repealed, so it can no longer be amended; enact a new rule instead.",
                      number=number))
        raise IllegalMove(text)
    if rec.status != IN_EFFECT:
        raise IllegalMove(_("Proposal {number} was not adopted ({status}), so there is no rule {number}.",
                            number=number, status=status_word(rec.status)))
    return rec



def _dead_effect(s: State, effect: Effect | None, number: int) -> None:
    """Refuse an effect that a lower-numbered rule in effect overrides (rule 113)."""
    if effect is None or effect.kind == "end":
        return
    holder = setting_holder(s, effect.kind)
    if holder is not None and holder.number < number:
        raise IllegalMove(_(_OVERRIDDEN[effect.kind], rule=holder.number))


def _check_proposal(s: State, m: Propose) -> None:
    if m.action not in ACTIONS:
        raise IllegalMove(_("A rule-change is an enactment, a repeal or an amendment (rule 110), not {got}.",
                            got=repr(m.action)))
    if m.effect is not None and not isinstance(m.effect, Effect):
        raise IllegalMove(_("The effect is not one the bot knows."))
    number = next_number(s)
    if m.action == "enact":
        if m.rule is not None:
            raise IllegalMove(_("An enactment makes a new rule (it will be number {number}): give no rule "
                                "number, or amend rule {rule} instead.", number=number, rule=m.rule))
        clean(m.text, "enacted", MAX_TEXT)
        _dead_effect(s, m.effect, number)
        return
    target = _rule_target(s, m.rule, m.action)
    if m.action == "repeal":
        if m.effect is not None:
            raise IllegalMove(_("A repeal carries no effect: the repealed rule's effect simply stops."))
        clean(m.text, "reason", MAX_TEXT, required=False)
        return
    clean(m.text, "amended", MAX_TEXT)
    _dead_effect(s, m.effect, target.number)
    if m.text == target.text and m.effect in (None, target.effect):
        raise IllegalMove(_("That amendment would leave rule {rule} as it is: change its text or its effect.",
                            rule=target.number))


def apply_propose(s: State, seat: Seat, m: Propose, events: list[Event]) -> State:
    need_current(s, seat, PROPOSE, pgettext("infinitive", "propose"))
    _check_proposal(s, m)
    number = next_number(s)
    voters = seats_with(s, ACTIVE)
    rec = Record(number, m.action, m.text, OPEN, effect=m.effect, target=m.rule, proposer=seat, voters=voters)
    rec = noted(s, rec, "proposed", seat)
    s = replace(s, records=(*s.records, rec), phase=VOTE)
    emit(events, "propose", proposal_text(name(s, seat), number, m.action, m.rule,
                                          m.effect.describe() if m.effect else None, settings(s).votes),
         seat=seat, number=number, action=m.action, rule=m.rule)
    return s


def apply_vote(s: State, seat: Seat, m: Vote, events: list[Event]) -> State:
    need_running(s, pgettext("infinitive", "vote"))
    question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove(_("There is no proposal to vote on right now."))
    if seat not in p.voters:
        if 0 <= seat < len(s.players) and s.players[seat].status == PENDING:
            raise IllegalMove(_("You joined during round {round}: you vote from round {next} on.",
                                round=s.round, next=s.round + 1))
        raise IllegalMove(_("Only the players at the time of proposal {number} vote on it.", number=p.number))
    votes = dict(p.votes)
    if votes.get(seat) is m.yes:
        raise IllegalMove(_("You already voted yes on proposal {number}.", number=p.number) if m.yes else
                          _("You already voted no on proposal {number}.", number=p.number))
    changed = seat in votes
    votes[seat] = m.yes
    s = with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    texts = {(False, True): N_("{player} votes yes on {number}."),
             (False, False): N_("{player} votes no on {number}."),
             (True, True): N_("{player} changes their vote to yes on {number}."),
             (True, False): N_("{player} changes their vote to no on {number}.")}
    emit(events, "vote", _(texts[changed, m.yes], player=name(s, seat), number=p.number), seat=seat,
         number=p.number, yes=m.yes)
    return count_votes(s, events)


def apply_unvote(s: State, seat: Seat, m: Unvote, events: list[Event]) -> State:
    need_running(s, pgettext("infinitive", "withdraw a vote"))
    question_blocks(s)
    p = open_proposal(s)
    if p is None:
        raise IllegalMove(_("There is no proposal to vote on right now."))
    votes = dict(p.votes)
    if seat not in votes:
        raise IllegalMove(_("You have not voted on proposal {number}.", number=p.number))
    del votes[seat]
    s = with_record(s, replace(p, votes=tuple(sorted(votes.items()))))
    text = _("{player} withdraws their vote on {number}.", player=name(s, seat), number=p.number)
    emit(events, "unvote", text, seat=seat, number=p.number)
    return s


def proposal_text(player: str, number: int, action: str, rule: int | None, effect: str | None,
                  votes: str) -> str:
    """A proposal as announced, in the current language: ``Alice proposes 201: to repeal rule 104. Votes
    needed: unanimous.`` (``effect``: the effect described, or None)."""
    needed = vote_word(votes)
    if action == "enact":
        if effect is None:
            return _("{player} proposes {number}: to enact a new rule. Votes needed: {votes}.", player=player,
                     number=number, votes=needed)
        return _("{player} proposes {number}: to enact a new rule (effect: {effect}). Votes needed: {votes}.",
                 player=player, number=number, effect=effect, votes=needed)
    if action == "repeal":
        return _("{player} proposes {number}: to repeal rule {rule}. Votes needed: {votes}.", player=player,
                 number=number, rule=rule, votes=needed)
    if effect is None:
        return _("{player} proposes {number}: to amend rule {rule}. Votes needed: {votes}.", player=player,
                 number=number, rule=rule, votes=needed)
    return _("{player} proposes {number}: to amend rule {rule} (effect: {effect}). Votes needed: {votes}.",
             player=player, number=number, rule=rule, effect=effect, votes=needed)
