"""What the parts of ``/nomic`` share: choices, texts, the how-to pages, the rulebook button."""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.games.nomic import RULES, NomicView
from bot.games.nomic.moves import (
    DIRECTIONS,
)
from bot.matches.service import Match
from bot.names import shown
from bot.replies import reply_error
from cogs._game import (
    rules_text,
)

log = logging.getLogger(__name__)


ARROWS = {"N": "\u2b06\ufe0f", "E": "\u27a1\ufe0f", "S": "\u2b07\ufe0f", "W": "\u2b05\ufe0f"}


WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


ACTIONS = [app_commands.Choice(name="enact a new rule", value="enact"),
           app_commands.Choice(name="repeal a rule", value="repeal"),
           app_commands.Choice(name="amend a rule", value="amend")]


EFFECTS: tuple[tuple[str, str], ...] = (
    ("die=4", "movement die: d4"), ("die=8", "movement die: d8"), ("die=10", "movement die: d10"),
    ("die=12", "movement die: d12"), ("die=20", "movement die: d20"),
    ("votes=majority", "votes needed: majority"), ("votes=two-thirds", "votes needed: two-thirds"),
    ("votes=unanimous", "votes needed: unanimous"),
    ("order=alphabetical", "turn order: alphabetical"), ("order=join", "turn order: order of joining"),
    ("order=reverse", "turn order: reverse alphabetical"),
    ("phases=both", "phases: movement, then rule-change"), ("phases=movement", "phases: movement only"),
    ("phases=rule-change", "phases: rule-change only"), ("end", "the game ends when it takes effect"),
)


COLOUR_REJECTED = discord.Colour.from_rgb(237, 66, 69)


MAX_EVENT_LINES = 8


PICTURE = "nomic.png"


HOWTO_NOTE = (
    "\n\n**Votes by reaction.** React \u2705 or \u274c on the proposal; the proposal shows the tally "
    "as it stands. Until every player has voted you can change your vote (react with the other emoji) "
    "or withdraw it (remove your reaction); the vote is decided when the last player votes."
)


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
    text = rules_text("nomic") + HOWTO_NOTE
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
