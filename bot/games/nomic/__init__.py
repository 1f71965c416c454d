"""Nomic World: the rule-changing map game of the Initial Set (rules 101-115).

The platform uses ``RULES`` (the engine) and ``render`` (the map picture);
there is no computer opponent. The cog also uses the move classes to build
moves, :func:`next_steps` for the direction buttons, :func:`read_effect` for
the ``effect`` option, and :mod:`.rulebook` to page the rulebook into embeds.

Platform hooks (``MatchService`` looks them up here): :func:`opening_moves`
(the lobby's players join, then the first round starts), :func:`join_move`
(a player joining a running game) and :func:`counters` (``/stats``: proposals
made and adopted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Event
from bot.games.nomic.moves import (
    EFFECT_KINDS,
    MAX_NAME,
    RESOURCES,
    Effect,
    End,
    Join,
    Judge,
    Lapse,
    Leave,
    Path,
    Propose,
    Reveal,
    Roll,
    Ruling,
    Skip,
    Start,
    Vote,
)
from bot.games.nomic.notation import next_steps, read_effect
from bot.games.nomic.render import render
from bot.games.nomic.rulebook import rule_detail, rulebook_pages
from bot.games.nomic.rules import RULES, NomicRules
from bot.games.nomic.state import State, record
from bot.games.nomic.view import NomicView, PlayerView, ProposalView, QuestionView, RuleView

__all__ = [
    "EFFECT_KINDS",
    "RESOURCES",
    "RULES",
    "Effect",
    "End",
    "Join",
    "Judge",
    "Lapse",
    "Leave",
    "NomicRules",
    "NomicView",
    "Path",
    "PlayerView",
    "ProposalView",
    "Propose",
    "QuestionView",
    "Reveal",
    "Roll",
    "RuleView",
    "Ruling",
    "Skip",
    "Start",
    "Vote",
    "counters",
    "join_move",
    "next_steps",
    "opening_moves",
    "player_name",
    "read_effect",
    "render",
    "rule_detail",
    "rulebook_pages",
]


# ---------------------------------------------------------------- platform hooks

def player_name(name: str, seat: int) -> str:
    """A Discord display name as the engine takes it: one line, no outer spaces, at most 32 characters
    (``Player <n>`` when nothing is left)."""
    clean = " ".join(str(name).split())[:MAX_NAME].strip()
    return clean or f"Player {seat + 1}"


def opening_moves(seats: Sequence[Any]) -> list[tuple[int, str]]:
    """Platform hook, played right after ``initial`` at start: every lobby seat joins in seat order
    (``join <user id> <name>``), then the host (seat 0) starts the first round."""
    moves = [(i, f"join {s.user_id} {player_name(s.name, i)}") for i, s in enumerate(seats)]
    return [*moves, (0, "start")]


def join_move(state: State, seat: int, user_id: int, name: str) -> Join:
    """Platform hook for ``MatchService.join`` while the game runs: the newcomer's ``join`` move
    (they play from the next round on, rule 101)."""
    return Join(user_id, player_name(name, seat))


def counters(state: State, events: Sequence[Event]) -> list[tuple[int, str, int]]:
    """Platform hook, stored with the move: ``(seat, "proposals", 1)`` for a proposal made and
    ``(seat, "adopted", 1)`` for the proposer of a proposal adopted (``/stats`` shows both)."""
    out: list[tuple[int, str, int]] = []
    for e in events:
        if e.kind == "propose" and isinstance(e.data.get("seat"), int):
            out.append((e.data["seat"], "proposals", 1))
        elif e.kind == "adopt" and isinstance(e.data.get("number"), int):
            rec = record(state, e.data["number"])
            if rec is not None and rec.proposer is not None:
                out.append((rec.proposer, "adopted", 1))
    return out

