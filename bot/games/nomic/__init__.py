"""Nomic World: the rule-changing map game of the Initial Set (rules 101-115).

The platform uses ``RULES`` (the engine) and ``render`` (the map picture);
there is no computer opponent. The cog also uses the move classes to build
moves, :func:`next_steps` for the direction buttons, :func:`read_effect` for
the ``effect`` option, and :mod:`.rulebook` to page the rulebook into embeds.
"""

from __future__ import annotations

from bot.games.nomic.moves import (
    EFFECT_KINDS,
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
from bot.games.nomic.view import NomicView, PlayerView, ProposalView, QuestionView, RuleView

__all__ = [
    "EFFECT_KINDS", "RESOURCES", "RULES", "Effect", "End", "Join", "Judge", "Lapse", "Leave", "NomicRules",
    "NomicView", "Path", "PlayerView", "Propose", "ProposalView", "QuestionView", "Reveal", "Roll",
    "RuleView", "Ruling", "Skip", "Start", "Vote", "next_steps", "read_effect", "render", "rule_detail",
    "rulebook_pages",
]
