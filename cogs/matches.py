"""``/matches``: the active matches in this server, the caller's own first, each saying whose turn it is.

One command, three parts: **Your move** (running matches waiting on you, and challenges waiting for your
answer; the one whose turn limit runs out first on top), **Your other matches** (waiting on someone else,
your lobbies and challenges), then **Elsewhere in this server**. Every line has the game, the players,
whose turn it is and a link. When the list is longer than one message holds, the server's matches are the
ones left out, and the message says how many.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import _, ngettext, pgettext
from bot.matches.match import Match
from bot.names import shown
from bot.storage import MatchRecord, Status

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

LIMIT = 3900
"""Characters of the listed lines (an embed description holds 4096: room for the "… more" line)."""


@dataclass(frozen=True)
class Listed:
    """One active match as ``/matches`` lists it for one member."""

    rec: MatchRecord
    mine: bool
    my_move: bool
    turn: str       # "bob to move", "lobby, open to join", ...


def describe(rec: MatchRecord, user_id: int) -> Listed:
    """Where ``rec`` stands for ``user_id``: is it theirs, is it their move, and whose turn it is in words."""
    mine = rec.seat_of(user_id) is not None
    if rec.status == Status.CHALLENGE:
        challenged = rec.seats[1] if len(rec.seats) > 1 else None
        yours = challenged is not None and challenged.user_id == user_id
        if yours:
            return Listed(rec, mine, yours, _("challenge: waiting for you to accept"))
        who = shown(challenged.name) if challenged else "?"
        return Listed(rec, mine, yours, _("challenge: waiting for {player} to accept", player=who))
    if rec.status == Status.LOBBY:
        return Listed(rec, mine, False, ngettext("lobby, open to join ({n} player so far)",
                                                 "lobby, open to join ({n} players so far)", len(rec.seats)))
    try:
        acting = sorted(Match(rec).to_act())
    except Exception:  # a record the engine cannot read: still listed, without a turn
        log.warning("could not read the state of match %s for /matches", rec.id, exc_info=True)
        acting = []
    if not acting:
        return Listed(rec, mine, False, pgettext("match status", "playing"))
    me = [rec.seats[s].user_id == user_id for s in acting]
    if me == [True]:
        return Listed(rec, mine, True, _("your move"))
    names = [pgettext("a player in a list", "you") if is_me else shown(rec.seats[s].name)
             for s, is_me in zip(acting, me, strict=True)]
    return Listed(rec, mine, any(me), _("{players} to move", players=", ".join(names)))


def line(item: Listed) -> str:
    rec = item.rec
    where = f"https://discord.com/channels/{rec.guild_id}/{rec.place_id}"
    if rec.message_id:
        where += f"/{rec.message_id}"
    title = GAMES[rec.game].spec.title if rec.game in GAMES else rec.game
    names = ", ".join(shown(s.name) for s in rec.seats) or _("nobody yet")
    link = pgettext("a link to a match", "open")
    return f"**{title}** #{rec.id} · {names} · {item.turn} · [{link}]({where})"


def sections(recs: list[MatchRecord], user_id: int) -> list[tuple[str, list[str]]]:
    """The three parts, in order, each with its lines (empty parts left out)."""
    listed = [describe(r, user_id) for r in recs]
    urgent = sorted((x for x in listed if x.my_move),
                    key=lambda x: (x.rec.deadline or float("inf"), x.rec.id))
    mine = [x for x in listed if x.mine and not x.my_move]
    rest = [x for x in listed if not x.mine and not x.my_move]
    parts = [(_("Your move"), urgent), (_("Your other matches"), mine), (_("Elsewhere in this server"), rest)]
    return [(name, [line(x) for x in items]) for name, items in parts if items]


def render(parts: list[tuple[str, list[str]]], limit: int = LIMIT) -> str:
    """The parts as one text of at most ``limit`` characters; lines that do not fit are counted, not cut."""
    out: list[str] = []
    size = 0
    left_out = 0
    for name, lines in parts:
        header = f"**{name} ({len(lines)})**"
        if out:
            header = "\n" + header
        if left_out or size + len(header) + 1 > limit:
            left_out += len(lines)
            continue
        out.append(header)
        size += len(header) + 1
        for i, text in enumerate(lines):
            if size + len(text) + 1 > limit:
                left_out += len(lines) - i
                break
            out.append(text)
            size += len(text) + 1
    if left_out:
        out.append(ngettext("… and {n} more match not listed: open the server's game channels to see them.",
                            "… and {n} more matches not listed: open the server's game channels to see them.",
                            left_out))
    return "\n".join(out)


class Matches(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="matches",
        description=("Active matches in this server: where it is your move first, "
                     "with links"),
    )
    @app_commands.guild_only()
    async def matches(self, interaction: discord.Interaction) -> None:
        recs = await self.bot.store.active_matches(guild_id=interaction.guild_id)
        if not recs:
            await interaction.response.send_message(
                _("No active matches here. Start one with `/<game> new`."), ephemeral=True)
            return
        parts = sections(recs, interaction.user.id)
        embed = discord.Embed(title=_("Active matches ({count})", count=len(recs)), description=render(parts),
                              colour=discord.Colour.blurple())
        await interaction.response.send_message(embed=embed, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Matches(bot))
