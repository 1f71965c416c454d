"""What the parts of ``/tournament`` share: choices, colours, the per-channel pacer."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games import TITLES, two_player
from bot.i18n import N_, pgettext
from bot.tournaments.model import Format

if TYPE_CHECKING:
    pass


log = logging.getLogger(__name__)


NO_MENTIONS = discord.AllowedMentions.none()


COLOUR = discord.Colour.from_rgb(88, 101, 242)


COLOUR_END = discord.Colour.from_rgb(250, 166, 26)


GAME_CHOICES = [app_commands.Choice(name=TITLES[k], value=k) for k in two_player()]
"""Only the games a tournament can pair (exactly two players): offering others to refuse them misleads."""


# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value=Format.SWISS.value),
    app_commands.Choice(name="round robin", value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name="double round robin",
                        value=Format.DOUBLE_ROUND_ROBIN.value),
]


ROUND_TIMES = [
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=21600),
    app_commands.Choice(name="12 hours", value=43200),
    app_commands.Choice(name="24 hours", value=86400),
    app_commands.Choice(name="2 days", value=172800),
    app_commands.Choice(name="3 days", value=259200),
    app_commands.Choice(name="7 days", value=604800),
]


STARTS = [
    app_commands.Choice(name="in 5 minutes", value=300),
    app_commands.Choice(name="in 15 minutes", value=900),
    app_commands.Choice(name="in 1 hour", value=3600),
    app_commands.Choice(name="in 3 hours", value=10800),
    app_commands.Choice(name="in 12 hours", value=43200),
    app_commands.Choice(name="in 24 hours", value=86400),
    app_commands.Choice(name="in 3 days", value=259200),
    app_commands.Choice(name="in 7 days", value=604800),
]


PAGE = 32


"""Players per standings picture (a taller picture is unreadable in Discord's preview)."""


FORMAT_NAMES = {Format.SWISS: N_("Swiss"), Format.ROUND_ROBIN: N_("round robin"),
                Format.DOUBLE_ROUND_ROBIN: N_("double round robin")}
"""A format as the sign-up message names it."""
FORMAT_WORDS = {Format.SWISS: N_("swiss"), Format.ROUND_ROBIN: N_("round-robin"),
                Format.DOUBLE_ROUND_ROBIN: N_("double-round-robin")}
"""A format as ``/tournament list`` names it (short)."""


def status_word(status: str) -> str:
    """A tournament's status in words, in the current language (a context of its own: the words agree with
    "tournament", whose gender differs from a match's in Spanish and Portuguese)."""
    words = {
        "signup": pgettext("tournament status", "sign-up open"),
        "running": pgettext("tournament status", "running"),
        "paused": pgettext("tournament status", "paused"),
        "finished": pgettext("tournament status", "finished"),
        "cancelled": pgettext("tournament status", "cancelled"),
    }
    return words.get(status, status)




def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def esc(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


class Pacer:
    """At most ``burst`` thread creations per ``per`` seconds in one channel (a sliding window).

    Discord limits creating threads (and posting) per channel; a round of 64 pairings sent at
    once would run into 429s. Pacing keeps every request inside the window instead.
    """

    def __init__(self, burst: int = 5, per: float = 5.0) -> None:
        self.burst, self.per = burst, per
        self._sent: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def wait(self, channel_id: int) -> None:
        if self.burst <= 0:
            return
        async with self._locks.setdefault(channel_id, asyncio.Lock()):  # channels do not wait for each other
            sent = self._sent.setdefault(channel_id, deque())
            now = time.monotonic()
            while sent and now - sent[0] >= self.per:
                sent.popleft()
            if len(sent) >= self.burst:
                await asyncio.sleep(self.per - (now - sent[0]) + 0.01)
                now = time.monotonic()
                while sent and now - sent[0] >= self.per:
                    sent.popleft()
            sent.append(time.monotonic())