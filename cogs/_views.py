"""Persistent components: every button and select carries its match, version and action.

``custom_id = "p:<match>:<version>:<action>"`` (buttons) or ``"s:..."`` (selects);
version ``-`` means "any version" (lobby buttons, private-view buttons). The
classes are registered once in ``setup_hook``, so components on any message,
however old, keep working after a restart; a click on an outdated board is
detected by the version and answered ephemerally.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import ParlorBot


def custom_id(kind: str, match_id: int, version: int | None, action: str) -> str:
    cid = f"{kind}:{match_id}:{'-' if version is None else version}:{action}"
    if len(cid) > 100:
        raise ValueError(f"custom_id too long: {cid}")
    return cid


def button(match_id: int, version: int | None, action: str, *, label: str | None = None,
           style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
           disabled: bool = False, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, emoji=emoji, disabled=disabled, row=row,
                             custom_id=custom_id("p", match_id, version, action))


def select(match_id: int, version: int | None, action: str, options: list[discord.SelectOption], *,
           placeholder: str, disabled: bool = False, row: int | None = None) -> discord.ui.Select[Any]:
    return discord.ui.Select(custom_id=custom_id("s", match_id, version, action), options=options,
                             placeholder=placeholder, disabled=disabled, row=row, min_values=1, max_values=1)


def chunks(items: list[Any], size: int = 25) -> list[list[Any]]:
    """Split ``items`` into as few, as even parts of at most ``size`` as possible (select menus hold 25)."""
    n = max(1, -(-len(items) // size))
    per = max(1, -(-len(items) // n))
    return [items[i:i + per] for i in range(0, len(items), per)] or [[]]


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    for item in items:
        v.add_item(item)
    return v


async def _dispatch(interaction: discord.Interaction, match: re.Match[str], values: list[str]) -> None:
    bot: ParlorBot = interaction.client  # type: ignore[assignment]
    ver = match["ver"]
    await bot.handle_component(interaction, int(match["mid"]), None if ver == "-" else int(ver), match["act"],
                               values)


class MatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"p:(?P<mid>\d+):(?P<ver>\d+|-):(?P<act>\S{1,80})"):
    def __init__(self, item: discord.ui.Button[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.m = match

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> MatchButton:
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.m, [])


class MatchSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"s:(?P<mid>\d+):(?P<ver>\d+|-):(?P<act>\S{1,80})"):
    def __init__(self, item: discord.ui.Select[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.m = match

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str], /) -> MatchSelect:
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _dispatch(interaction, self.m, values)
