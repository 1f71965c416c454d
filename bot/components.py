"""Persistent components: every button and select carries its match, version and action.

``custom_id = "p:<match>:<version>:<action>"`` (buttons) or ``"s:..."`` (selects);
version ``-`` means "any version" (lobby buttons, private-view buttons; never a
move: ``bot.app`` refuses a ``-`` move as stale). :class:`MatchComponent` is
registered once in ``setup_hook``, so components on any message, however old,
keep working after a restart; a click on an outdated board is detected by the
version and answered ephemerally. Ids are parsed strictly (:func:`parse_custom_id`):
a malformed, oversized or foreign id gets a short private refusal, and
``ParlorBot.on_interaction`` answers the components no item claims at all.
The builders (buttons, selects) live in ``cogs/_views.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.errors import ParlorError
from bot.i18n import N_, _
from bot.matches import changes
from bot.replies import reply_error


class ComponentHandler(Protocol):
    """The client a component reports to (``ParlorBot.handle_component``)."""

    async def handle_component(self, interaction: discord.Interaction, cid: ComponentId,
                               values: list[str]) -> None: ...


VERSION_FREE = (
    "accept",
    "decline",
    "cancel",
    "join",
    "leave",
    "start",  # challenge and lobby messages
    "pv:",
    "resign!",
    "end!",
    "watch",
    "rematch",
    "record",  # private views, confirmations, after the match
    "hp:",  # the pages of /<game> history
    "col:",
    "open",
    "an:",
    "pb",
    "pk",
    "pc",  # EOF: colours, the private program builder, answers
    "rp:",
    "rj",
    "rg",
    "ru:",  # replays (cogs/_game/replay.py): a step, the jump select, the whole-game GIF, posting a step
    "rv",  # and the review of a finished match (bot/review.py)
)
"""The actions whose components may carry version ``-`` (they check their own situation). Any other action
with ``-`` is refused as a stale board, so a forged ``-`` can never skip the version check of a move."""

ANYWHERE = ("rp:", "rj", "rg", "ru:", "rv")
"""The actions that work in any channel of the match's server, not only where it is played: a replay is
looked at wherever it was asked for (never in another server)."""

MAX_ID = 2**63 - 1
"""Match ids and versions are 64-bit database integers; anything larger is not one of ours."""

ID_RE = re.compile(
    r"(?P<kind>[ps]):(?P<mid>[1-9][0-9]{0,18}):(?P<ver>0|[1-9][0-9]{0,18}|-):(?P<act>\S{1,80})"
)


@dataclass(frozen=True)
class ComponentId:
    """A parsed ``custom_id`` of a match component."""

    kind: str                 # "p" button, "s" select
    match_id: int
    version: int | None       # None: the component works on any version ("-")
    action: str


class BadComponent(ParlorError):
    """A custom id that no Parlor message carries (forged, truncated, from another bot...)."""


NOT_OURS = N_(
    "That control does not work (it is not one of mine, or it is broken). Use the match's newest board."
)
"""Looked up when raised (``BadComponent(_(NOT_OURS))``): the reader's language."""


def parse_custom_id(cid: str, component_type: int | None = None) -> ComponentId:
    """Strictly parse a match component id; :class:`BadComponent` for anything else.

    >>> parse_custom_id("p:12:3:m:c3-c4", 2)
    ComponentId(kind='p', match_id=12, version=3, action='m:c3-c4')
    """
    m = ID_RE.fullmatch(cid) if len(cid) <= 100 else None
    if m is None:
        raise BadComponent(_(NOT_OURS))
    mid = int(m["mid"])
    ver = None if m["ver"] == "-" else int(m["ver"])
    if mid > MAX_ID or (ver is not None and ver > MAX_ID):
        raise BadComponent(_(NOT_OURS))
    if component_type is not None and component_type != (2 if m["kind"] == "p" else 3):
        raise BadComponent(_(NOT_OURS))
    return ComponentId(m["kind"], mid, ver, m["act"])


class MatchComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]], template=re.compile(r"[ps]:.*", re.DOTALL)
):
    """Every ``p:``/``s:`` component, on any message however old; the id is checked strictly on use.

    The template is deliberately broad: a malformed id with our prefix still reaches
    :meth:`callback` and gets a private refusal instead of Discord's "This interaction failed".
    """

    def __init__(self, item: discord.ui.Item[Any], cid: str) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MatchComponent:
        return cls(item, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: ComponentHandler = interaction.client  # type: ignore[assignment]
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        changes.track()
        try:
            cid = parse_custom_id(self.cid, data.get("component_type"))
            values = offered_values(interaction, self.cid, data.get("values"))
        except Exception as exc:
            await reply_error(interaction, exc)
            return
        await bot.handle_component(interaction, cid, values)


def offered_values(interaction: discord.Interaction, cid: str, raw: Any) -> list[str]:
    """A select's picked values, each one that the menu on the message really offers (else BadComponent)."""
    if raw is None:
        return []
    menu = next((c for c in walk_components(interaction.message.components if interaction.message else ())
                 if getattr(c, "custom_id", None) == cid), None)
    offered = {o.value for o in getattr(menu, "options", None) or ()}
    if (
        not isinstance(raw, list)
        or len(raw) > 25
        or any(not isinstance(x, str) or x not in offered for x in raw)
    ):
        raise BadComponent(_("That choice is not on the menu (any more). Use the match's newest board."))
    return list(raw)


def walk_components(components: Any) -> list[Any]:
    """Every component on a message, rows and containers flattened."""
    out: list[Any] = []
    for comp in components or ():
        out.append(comp)
        out += walk_components(getattr(comp, "children", None) or getattr(comp, "components", None))
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            out.append(accessory)
    return out


def component_ids(components: Any) -> list[tuple[int, str]]:
    """(type, custom_id) of every component on a message (rows, v2 containers, accessories)."""
    return [(int(getattr(c.type, "value", c.type)), c.custom_id) for c in walk_components(components)
            if getattr(c, "custom_id", None) is not None]
