"""What the parts of ``/nomic`` share: choices, texts, the how-to pages, the rulebook button."""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.games.nomic import RULES, NomicView, read_effect
from bot.games.nomic.moves import (
    DIRECTIONS,
)
from bot.i18n import N_, _, speaking
from bot.i18n.documents import read_document
from bot.matches.service import Match
from bot.names import shown
from bot.replies import reply_error
from cogs._game.base import in_channel

log = logging.getLogger(__name__)


ARROWS = {"N": "\u2b06\ufe0f", "E": "\u27a1\ufe0f", "S": "\u2b07\ufe0f", "W": "\u2b05\ufe0f"}


WORDS = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
"""The direction buttons' labels (looked up with ``_()`` where used)."""


# Slash command choice names are read from the command tree into the commands catalog and translated by
# discord.py's translator (bot/i18n/commands.py), not by _().
ACTIONS = [app_commands.Choice(name="enact a new rule", value="enact"),
           app_commands.Choice(name="repeal a rule", value="repeal"),
           app_commands.Choice(name="amend a rule", value="amend")]


EFFECT_VALUES: tuple[str, ...] = (
    "die=4", "die=8", "die=10", "die=12", "die=20", "votes=majority", "votes=two-thirds", "votes=unanimous",
    "order=alphabetical", "order=join", "order=reverse", "phases=both", "phases=movement",
    "phases=rule-change", "end")
"""The effects ``/nomic propose effect:`` suggests, as typed."""
ENDS_WHEN_IN_EFFECT = N_("the game ends when it takes effect")


def effects() -> list[tuple[str, str]]:
    """(value as typed, what it does in the current language) of every suggested effect."""
    out = []
    for value in EFFECT_VALUES:
        effect = read_effect(value)
        what = _(ENDS_WHEN_IN_EFFECT) if effect is None or effect.kind == "end" else effect.describe()
        out.append((value, what))
    return out


COLOUR_REJECTED = discord.Colour.from_rgb(237, 66, 69)


MAX_EVENT_LINES = 8


PICTURE = "nomic.png"


HOWTO_NOTE = N_(
    "**Votes by reaction.** React \u2705 or \u274c on the proposal; the proposal shows the tally "
    "as it stands. Until every player has voted you can change your vote (react with the other emoji) "
    "or withdraw it (remove your reaction); the vote is decided when the last player votes."
)
"""The how-to's last paragraph (looked up with ``_()`` where used)."""


def channel(match: Match) -> speaking:
    """Write what goes to the match's channel or thread (its board, the proposal and its tally, the
    Judgment, the result) in the server's language, also when it answers someone's click; a private
    ``/nomic board`` in its reader's (``with channel(match):``, :func:`cogs._game.base.in_channel`)."""
    return in_channel(match)


def nomic_view(match: Match | None) -> NomicView:
    """The match's view, or the Initial Set before any game (no match, or a lobby)."""
    if match is None or match.state is None:
        return RULES.view(RULES.initial({}, 0), None)
    return match.view(None)


def _md(text: str) -> str:
    return shown(text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _path_points(start: tuple[int, int], steps: str) -> tuple[tuple[int, int], ...]:
    points = [start]
    for c in steps:
        dx, dy = DIRECTIONS[c]
        points.append((points[-1][0] + dx, points[-1][1] + dy))
    return tuple(points)


def _example_path(roll: int) -> str:
    return "N" * ((roll + 1) // 2) + "E" * (roll // 2)


def _howto_pages() -> list[str]:
    """``rules_text.md`` (in the current language) and the note on votes, in pages of an embed."""
    try:
        text = read_document("bot.games.nomic", "rules_text.md")
    except OSError:
        text = _("The rules text is missing.")
    text += "\n\n" + _(HOWTO_NOTE)
    pages: list[str] = []
    cur = ""
    for para in text.split("\n\n"):
        if cur and len(cur) + 2 + len(para) > 3900:
            pages.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur:
        pages.append(cur[:4000])
    return pages


class RulebookOwner(Protocol):
    """The cog that shows rulebook pages (Nomic's)."""

    async def show_rulebook(self, interaction: discord.Interaction, match_id: int, page: int, *, edit: bool,
                            howto: bool = False) -> None: ...


class RulebookButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"nomic:rb:(?P<mid>[0-9]{1,18}):(?P<page>[0-9]{1,4}):(?P<mode>[ne])(?P<tag>[a-z]?)"):
    """A page of ``/nomic rules``: ``mode`` n = a new ephemeral message, e = edit this one.

    Owned by the cog (not the match platform) so it works without a match (the Initial Set).
    """

    def __init__(self, mid: int, page: int, mode: str, tag: str = "", *, label: str = "Rulebook",
                 emoji: str | None = None, disabled: bool = False, row: int | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, emoji=emoji, disabled=disabled, row=row, style=style,
                                           custom_id=f"nomic:rb:{mid}:{page}:{mode}{tag}"))
        self.mid, self.page, self.mode, self.tag = mid, page, mode, tag

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RulebookButton:
        return cls(int(match["mid"]), int(match["page"]), match["mode"], match["tag"],
                   label=getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog = cast(RulebookOwner, getattr(interaction.client, "game_cogs", {})["nomic"])
            await cog.show_rulebook(
                interaction, self.mid, self.page, edit=self.mode == "e", howto=self.tag == "h"
            )
        except Exception as exc:
            await reply_error(interaction, exc)
