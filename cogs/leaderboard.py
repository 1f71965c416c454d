"""``/leaderboard`` and ``/stats``: per-server ratings (OpenSkill, conservative mu − 3σ), shown by
:func:`bot.ratings.rating_text` with :data:`bot.ratings.RATING_NOTE` once per message.

Both answers are posted in the channel for everyone to see, so they are written in the server's language
(:func:`bot.i18n.public`); what only the asker sees (nothing to show yet) is in the asker's."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

from bot.games import RATED, TITLES
from bot.i18n import _, ngettext, public
from bot.names import shown
from bot.ratings import RATING_NOTE, rating_text
from bot.render import ACCENT, CARD, INK, MUTED, font, png_bytes
from bot.storage import ComputerResult, MatchRecord, RatingRow, Status
from cogs._game import picture_file
from cogs._game.replay import summary

if TYPE_CHECKING:
    from bot.app import ParlorBot

RATED_GAMES = [app_commands.Choice(name=TITLES[k], value=k) for k in RATED]


def record_text(wins: int, losses: int, draws: int) -> str:
    """Wins, losses and draws as every ratings display writes them ("2W 1L 0D")."""
    return _("{wins}W {losses}L {draws}D", wins=wins, losses=losses, draws=draws)


def rated_matches(n: int) -> str:
    return ngettext("{n} rated match", "{n} rated matches", n)


def history_chart(points: list[tuple[float, float]], title: str) -> bytes:
    """A small line chart of the conservative rating after each rated match."""
    w, h, pad = 520, 220, 40
    img = Image.new("RGB", (w, h), CARD)
    d = ImageDraw.Draw(img)
    size = 16  # a long name or a longer language: a smaller title, then an ellipsis, never cut at the edge
    while size > 11 and font(size, bold=True).getlength(title) > w - pad - 10:
        size -= 1
    while len(title) > 1 and font(size, bold=True).getlength(title) > w - pad - 10:
        title = title[:-2] + "…"
    d.text((pad, 10), title, font=font(size, bold=True), fill=INK)
    values = [0.0] + [p[1] for p in points]
    lo, hi = min(values), max(values)
    if hi - lo < 1:
        hi, lo = hi + 1, lo - 1
    x0, y0, x1, y1 = pad, 40, w - 20, h - 30
    d.rectangle((x0, y0, x1, y1), outline=MUTED)
    d.text((6, y0), f"{hi:.0f}", font=font(12), fill=MUTED)
    d.text((6, y1 - 12), f"{lo:.0f}", font=font(12), fill=MUTED)
    n = len(values)
    pts = [(x0 + (x1 - x0) * i / max(1, n - 1), y1 - (y1 - y0) * (val - lo) / (hi - lo))
           for i, val in enumerate(values)]
    if len(pts) > 1:
        d.line(pts, fill=ACCENT, width=3)
    for p in pts:
        d.ellipse((p[0] - 3, p[1] - 3, p[0] + 3, p[1] + 3), fill=ACCENT)
    d.text((x0, y1 + 6), rated_matches(n - 1), font=font(12), fill=MUTED)
    return png_bytes(img)


def history_alt(points: list[tuple[float, float]], title: str) -> str:
    """The chart in words (what :func:`history_chart` draws): the title, how many rated matches, the
    rating the line starts from, ends on, and its lowest and highest points."""
    values = [0.0] + [p[1] for p in points]
    whole = [f"{v:.0f}" for v in values]
    low, high = f"{min(values):.0f}", f"{max(values):.0f}"
    return _("Line chart, {title}, after {matches}: from {first} to {last}, lowest {lowest}, highest "
             "{highest}. Rating after each match: {ratings}.", title=title,
             matches=rated_matches(len(points)), first=whole[0], last=whole[-1], lowest=low, highest=high,
             ratings=" ".join(whole[1:]))


class Leaderboard(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    # Slash command descriptions are read from the command tree into the commands catalog and translated by
    # discord.py's translator (bot/i18n/commands.py), not by _().
    @app_commands.command(
        name="leaderboard",
        description="The top 10 players of a game in this server",
    )
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=RATED_GAMES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        gid = interaction.guild_id or 0
        rows = await self.bot.store.top_ratings(gid, game.value, 10)
        title = TITLES[game.value]
        if not rows:
            await interaction.response.send_message(
                _("Nobody has a {game} rating here yet: finish a rated match against another member.",
                  game=title),
                ephemeral=True,
            )
            return
        mine = await self.bot.store.rating_rank(gid, game.value, interaction.user.id)
        with public(gid):  # posted in the channel
            lines = [f"**{i}.** <@{r.user_id}> — {rating_text(r)} · {record_text(r.wins, r.losses, r.draws)}"
                     for i, r in enumerate(rows, 1)]
            footer = (_("Your rank: {rank} of {total}", rank=mine[0], total=mine[1]) if mine
                      else _("You have no rating in this game yet."))
            embed = discord.Embed(title=_("{game} leaderboard", game=title), description="\n".join(lines),
                                  colour=discord.Colour.gold())
            embed.set_footer(text=f"{footer}\n{_(RATING_NOTE)}")
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name="stats",
        description="Ratings and records of a player in this server",
    )
    @app_commands.describe(
        user="Whose stats (default: yours)",
        game=("Chart the rating history of one game "
              "(default: the most played rated game)"),
    )
    @app_commands.choices(game=RATED_GAMES)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: app_commands.Choice[str] | None = None) -> None:
        target = user or interaction.user
        gid = interaction.guild_id or 0
        store = self.bot.store
        rows = await store.user_ratings(gid, target.id)
        counters = await store.counters(gid, target.id)
        computer = await store.computer_results(gid, target.id)
        ranks = {r.game: await store.rating_rank(gid, r.game, target.id) for r in rows}
        played = [r for r in await store.played_in_guild(gid, user_id=target.id, limit=8)
                  if r.status != Status.RUNNING][:5]
        chart_game = game.value if game else await self.most_played(gid, target.id, rows)
        points = await store.rating_history(gid, chart_game, target.id) if chart_game else []
        with public(gid):  # posted in the channel
            embed = self.stats_embed(target, rows, ranks, counters, computer_records(computer), played)
        if not embed.fields:  # nothing to show anyone: said to the asker alone
            text = (_("You have no finished matches in this server yet.") if target.id == interaction.user.id
                    else _("{player} has no finished matches in this server yet.",
                           player=shown(target.display_name)))
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
            return
        files = []
        with public(gid):
            embed.description = (_(RATING_NOTE) if rows else
                                 _("No rated matches yet: ratings count finished matches between members."))
            if chart_game and points:
                title = TITLES[chart_game]
                chart_title = _("{game} rating: {player}", game=title, player=target.display_name)
                data = await asyncio.to_thread(history_chart, points, chart_title)
                files.append(picture_file(data, "history.png", history_alt(points, chart_title)))
                embed.set_footer(text=_("Chart: {game} · pick `game:` to chart another", game=title) if game
                                 else _("Chart: {game} (the most played rated game) · pick `game:` to chart "
                                        "another", game=title))
            elif chart_game and game:
                embed.set_footer(text=_("No rated {game} matches to chart.", game=TITLES[chart_game]))
        await interaction.response.send_message(embed=embed, files=files,
                                                allowed_mentions=discord.AllowedMentions.none())

    def stats_embed(self, target: discord.abc.User, rows: list[RatingRow],
                    ranks: dict[str, tuple[int, int] | None], counters: dict[tuple[str, str], int],
                    vs_computer: list[str], played: list[MatchRecord]) -> discord.Embed:
        """The fields of ``/stats`` (none: nothing to show); the description and chart are the caller's."""
        embed = discord.Embed(title=_("Stats: {player}", player=shown(target.display_name)),
                              colour=discord.Colour.blurple())
        for r in rows:
            rank = ranks.get(r.game)
            rank_txt = " · " + _("rank {rank}/{total}", rank=rank[0], total=rank[1]) if rank else ""
            embed.add_field(name=TITLES.get(r.game, r.game),
                            value=_("Rating {rating}", rating=rating_text(r)) + f"{rank_txt}\n"
                                  + ngettext("{n} game", "{n} games", r.games) + " · "
                                  + record_text(r.wins, r.losses, r.draws))
        if vs_computer:
            embed.add_field(name=_("Against the computer (unrated)"), inline=False,
                            value="\n".join(vs_computer)[:1024])
        made, adopted = counters.get(("nomic", "proposals"), 0), counters.get(("nomic", "adopted"), 0)
        if made or adopted:
            embed.add_field(name="Nomic World",  # not translated: game title
                            value=ngettext("{n} proposal made", "{n} proposals made", made) + " · "
                                  + ngettext("{n} adopted", "{n} adopted", adopted))
        if played:  # by number: /<game> history match: replays them
            now = self.bot.service.clock()
            embed.add_field(name=_("Last matches (`/<game> history match:` replays one)"), inline=False,
                            value="\n".join(shown(summary(r, now)) for r in played)[:1024])
        return embed

    async def most_played(self, guild_id: int, user_id: int, rows: list[RatingRow]) -> str | None:
        """The rated game with the most rated matches; a tie goes to the one played most recently."""
        if not rows:
            return None
        top = max(r.games for r in rows)
        tied = [r.game for r in rows if r.games == top]
        if len(tied) == 1:
            return tied[0]
        latest = {}
        for g in tied:
            points = await self.bot.store.rating_history(guild_id, g, user_id)
            latest[g] = points[-1][0] if points else 0.0
        return max(tied, key=lambda g: (latest[g], g))


def computer_records(results: list[ComputerResult]) -> list[str]:
    """One line per game: "Pylon: 3 games · 2W 1L 0D (easy, hard)" from finished matches against the
    computer."""
    tally: dict[str, list[int]] = {}
    levels: dict[str, list[str]] = {}
    for res in results:
        if not res.outcome or res.outcome.get("reason") == "aborted":
            continue
        ranks = list(res.outcome.get("ranks") or [])
        if res.seat >= len(ranks):
            continue
        t = tally.setdefault(res.game, [0, 0, 0])
        if len(set(ranks)) == 1:
            t[2] += 1
        elif ranks[res.seat] == 0:
            t[0] += 1
        else:
            t[1] += 1
        if res.level not in levels.setdefault(res.game, []):
            levels[res.game].append(res.level)
    lines = []
    for g in sorted(tally, key=lambda k: list(TITLES).index(k) if k in TITLES else 99):
        w, lost, d = tally[g]
        games = ngettext("{n} game", "{n} games", w + lost + d)
        lines.append(f"{TITLES.get(g, g)}: {games} · {record_text(w, lost, d)} ({', '.join(levels[g])})")
    return lines


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Leaderboard(bot))
