"""Persistent components: every button and select carries its match, version and action.

``custom_id = "p:<match>:<version>:<action>"`` (buttons) or ``"s:..."`` (selects);
version ``-`` means "any version" (lobby buttons, private-view buttons; never a
move: ``bot.app`` refuses a ``-`` move as stale). :class:`MatchComponent` is
registered once in ``setup_hook``, so components on any message, however old,
keep working after a restart; a click on an outdated board is detected by the
version and answered ephemerally. Ids are parsed strictly (:func:`parse_custom_id`):
a malformed, oversized or foreign id gets a short private refusal, and
``ParlorBot.on_interaction`` answers the components no item claims at all.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.components import (  # the id side lives in the platform; re-exported for the cogs and their tests
    ID_RE,
    MAX_ID,
    NOT_OURS,
    VERSION_FREE,
    BadComponent,
    ComponentId,
    MatchComponent,
    component_ids,
    offered_values,
    parse_custom_id,
    walk_components,
)

__all__ = [
    "ID_RE",
    "MAX_ID",
    "NOT_OURS",
    "VERSION_FREE",
    "BadComponent",
    "ComponentId",
    "MatchComponent",
    "button",
    "chunks",
    "component_ids",
    "custom_id",
    "offered_values",
    "parse_custom_id",
    "select",
    "view_of",
    "walk_components",
]


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
