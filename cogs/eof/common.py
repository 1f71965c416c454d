"""What the parts of ``/eof`` share: choices, emoji, the draft code in custom ids, move kinds."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from discord import app_commands

from bot.games.base import CHANCE
from bot.games.eof.notation import read_instruction
from bot.games.eof.pieces import (
    COLOUR_NAMES,
    Instruction,
)
from bot.games.eof.words import colour_name
from bot.i18n import N_
from bot.storage import MoveRecord

log = logging.getLogger(__name__)


COLOUR_EMOJI = ("🟥", "🟨", "🟩", "🟦")


ORIENT_EMOJI = ("⬆️", "⬇️", "⬅️", "➡️", "⏺️")


# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
LOCKING_CHOICES = [
    app_commands.Choice(name="none: any record may be deleted", value="none"),
    app_commands.Choice(name="locks, crash: deleting a held record crashes",
                        value="locks-crash"),
    app_commands.Choice(name="locks, no crash: the delete stops there",
                        value="locks-nocrash"),
    app_commands.Choice(name="permission, crash: ask; a Deny crashes",
                        value="permission-crash"),
    app_commands.Choice(name="permission, no crash: ask; a Deny stops it",
                        value="permission-nocrash"),
]


PENALTY_CHOICES = [
    app_commands.Choice(name="off: a crash scores 0", value="off"),
    app_commands.Choice(name="on: -1 per instruction not run", value="on"),
]


DRAW_CHOICES = [
    app_commands.Choice(name="feel: choose the size of each draw",
                        value="feel"),
    app_commands.Choice(name="blind: sizes are random too", value="blind"),
]


COLOUR_CHOICES = [app_commands.Choice(name=name, value=name) for name in COLOUR_NAMES]


EXECUTION_KINDS = frozenset({"execute", "step", "score"})


LOG_CHUNK = 3800


"""Characters of step log per embed (Discord allows 4096 per description, 6000 per message)."""


DMS_CLOSED = N_(
    "I cannot DM you (your DMs are closed for this server), so your hand, your program builder and "
    "permission questions will be behind a 🔒 **Show privately** button in the match thread — only you "
    "can open it. To get them in DMs instead, allow direct messages from server members."
)


def _colour_name(c: int) -> str:
    """A colour as its player's name, in the current language (``Blue``, ``Azul``)."""
    return colour_name(c)


def encode_draft(draft: Sequence[Instruction]) -> str:
    """``Y1R.G2L`` — the program being built, as kept in the builder's custom ids."""
    return ".".join(map(str, draft))


def decode_draft(code: str) -> tuple[Instruction, ...]:
    """The inverse of :func:`encode_draft`.

    Raises:
        InvalidNotation: not a draft.
    """
    return tuple(read_instruction(x) for x in code.split(".") if x)


def _move_kind(mv: MoveRecord) -> str:
    """``chance`` / ``size`` / ``answer`` / ``program`` for a logged EOF move."""
    if mv.seat == CHANCE:
        return "chance"
    text = mv.notation.strip().lower()
    if text.startswith("draw"):
        return "size"
    if text in ("allow", "deny"):
        return "answer"
    return "program"


