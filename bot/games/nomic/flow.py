"""Nomic World: how a turn ends and the next begins (rules 102, 103, 111-113): counting the votes,
rejecting an open proposal, adopted changes taking effect, the next turn, the end of the game.
"""

from __future__ import annotations

import re
from dataclasses import replace

from bot.games.base import Event, Reason
from bot.games.nomic.edits import emit, noted, with_player, with_record
from bot.games.nomic.moves import vote_word
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
from bot.i18n import N_, _, ngettext

# The texts a game keeps in its state (a rule's history, the end of the game) are English, whatever the
# language of whoever made the move: a state is the same whoever plays it. They are shown translated
# (:func:`stored_text`, :func:`end_text`).
TOOK_EFFECT = "took effect"  # not translated: a history note's kind (state)
GAME_ENDED = N_("the game ended")
TURN_ENDED = N_("the turn ended before the vote was complete")
PROPOSER_LEFT = N_("the proposer left the game")
RULE_ENDED = N_("Rule {number} ended the game.")
TOO_FEW = N_("Fewer than two players remain.")
BY_HOST = N_("Stopped by the host.")
BY_ADMIN = N_("Stopped by an admin.")
_FIXED = {t: t for t in (GAME_ENDED, TURN_ENDED, PROPOSER_LEFT, TOO_FEW, BY_HOST, BY_ADMIN)}
_SCORE = re.compile(r"(\d+) yes, (\d+) no \(([a-z-]+)\)")
_NO_LONGER = re.compile(r"rule (\d+) was no longer in effect")
_RULE_ENDED = re.compile(r"Rule (\d+) ended the game\.")


def score(yes: int, no: int, rule: str) -> str:
    """A decided vote in the current language: ``2 yes, 0 no (unanimous)``."""
    return _("{yes} yes, {no} no ({rule})", yes=yes, no=no, rule=vote_word(rule))


def stored_text(text: str) -> str:
    """A text the state keeps (a history note's reason or score) in the current language; a player's own
    words (a previous rule text, a question) as they are."""
    if text in _FIXED:
        return _(_FIXED[text])
    m = _SCORE.fullmatch(text)
    if m:
        return score(int(m[1]), int(m[2]), m[3])
    m = _NO_LONGER.fullmatch(text)
    if m:
        return _("rule {number} was no longer in effect", number=m[1])
    return text


def end_text(detail: str) -> str:
    """How the game ended (the state's English ``end_detail``) in the current language."""
    if detail in _FIXED:
        return _(_FIXED[detail])
    m = _RULE_ENDED.fullmatch(detail)
    if m:
        return _(RULE_ENDED, number=m[1])
    return detail


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
    emit(events, "reject", _("Proposal {number} is rejected: {reason}.", number=p.number,
                             reason=stored_text(reason)), number=p.number)
    return s


def count_votes(s: State, events: list[Event]) -> State:
    """Decide the open proposal once every voter has voted (until then votes may change); a decided
    proposal ends the turn."""
    p = open_proposal(s)
    assert p is not None
    if {v for v, _yes in p.votes} < set(p.voters):
        return s
    yes = sum(1 for _seat, y in p.votes if y)
    no = len(p.votes) - yes
    rule = settings(s).votes
    result = tally(rule, len(p.voters), yes, no)
    if result is None:
        return s
    kept = f"{yes} yes, {no} no ({rule})"  # not translated: the history's record (shown by stored_text)
    if result == "adopted":
        s = with_record(s, noted(s, replace(p, status=ADOPTED), "adopted", text=kept))
        emit(events, "adopt", _("Proposal {number} is adopted: {score}. It takes effect at the beginning of "
                                "the next turn (rule 111).", number=p.number, score=score(yes, no, rule)),
             number=p.number)
    else:
        s = with_record(s, noted(s, replace(p, status=REJECTED), "rejected", text=kept))
        emit(events, "reject", _("Proposal {number} is rejected: {score}.", number=p.number,
                                 score=score(yes, no, rule)), number=p.number)
    return next_turn(s, events)


def take_effect(s: State, events: list[Event]) -> tuple[State, int | None]:
    """Adopted changes take effect (rule 111); returns the state and an adopted rule that ends the game."""
    ender = None
    for p in s.records:
        if p.status != ADOPTED:
            continue
        if p.kind == "enact":
            s = with_record(s, noted(s, replace(p, status=IN_EFFECT), TOOK_EFFECT))
            s = replace(s, effect_order=(*s.effect_order, p.number))
            emit(events, "effect", _("Rule {number} takes effect.", number=p.number), number=p.number)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
            continue
        assert p.target is not None
        target = record(s, p.target)
        assert target is not None
        if target.status != IN_EFFECT:
            gone = f"rule {p.target} was no longer in effect"  # not translated: kept (stored_text shows it)
            s = with_record(s, noted(s, replace(p, status=APPLIED), TOOK_EFFECT, text=gone))
            continue
        if p.kind == "repeal":
            s = with_record(s, noted(s, replace(target, status=REPEALED), "repealed", ref=p.number))
            s = replace(s, effect_order=tuple(n for n in s.effect_order if n != p.target))
            emit(events, "effect", _("Proposal {number} takes effect: rule {rule} is repealed.",
                                     number=p.number, rule=p.target), number=p.number, rule=p.target)
        else:
            effect = p.effect if p.effect is not None else target.effect
            amended = replace(target, text=p.text, effect=effect)
            s = with_record(s, noted(s, amended, "amended", ref=p.number, text=target.text))
            emit(events, "effect", _("Proposal {number} takes effect: rule {rule} is amended.",
                                     number=p.number, rule=p.target), number=p.number, rule=p.target)
            if p.effect is not None and p.effect.kind == "end":
                ender = p.number
        s = with_record(s, noted(s, replace(p, status=APPLIED), TOOK_EFFECT))
    return s, ender


def finish_game(s: State, events: list[Event], reason: Reason, detail: str) -> State:
    """End the game; ``detail`` is kept in English (one of this module's constants) and shown translated."""
    s = reject_open(s, events, GAME_ENDED)
    if s.phase == REVEAL and s.current is not None:
        s = with_player(s, s.current, pos=s.path[-1])
    s = replace(s, status=OVER, current=None, phase="", roll=None, question=None, end_reason=reason.value,
                end_detail=detail)
    emit(events, "end", _("The game is over. {detail}", detail=end_text(detail)), reason=reason.value)
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
        text = _("Round {round} begins.", round=s.round)
        if pending:
            text += " " + ngettext("{players} joins the game.", "{players} join the game.", len(pending),
                                   players=", ".join(name(s, i) for i in pending))
        emit(events, "round", text, round=s.round)
        active = seats_with(s, ACTIVE)
        remaining = list(active)
    s, ender = take_effect(s, events)
    if ender is not None:
        return finish_game(s, events, Reason.AGREEMENT,
                           RULE_ENDED.format(number=ender))  # not translated: kept (end_text shows it)
    if len(active) < 2:
        return finish_game(s, events, Reason.ABORTED, TOO_FEW)
    rules = settings(s)
    current = sort_turns(s, remaining, rules.order)[0]
    phase = ROLL if rules.phases in ("both", "movement") else PROPOSE
    s = replace(s, current=current, phase=phase)
    if phase == ROLL:
        text = _("Round {round}, turn {turn}: {player}'s turn (movement phase). Judge: {judge}.",
                 round=s.round, turn=len(s.done) + 1, player=name(s, current), judge=name(s, judge_of(s)))
    else:
        text = _("Round {round}, turn {turn}: {player}'s turn (rule-change phase). Judge: {judge}.",
                 round=s.round, turn=len(s.done) + 1, player=name(s, current), judge=name(s, judge_of(s)))
    emit(events, "turn", text, seat=current, round=s.round)
    return s


def resume(s: State, events: list[Event]) -> State:
    """Count the open proposal again once no question holds play (votes may have settled it meanwhile)."""
    if s.question is None and s.phase == VOTE:
        return count_votes(s, events)
    return s
