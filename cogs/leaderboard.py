"""``/leaderboard`` and ``/stats``: per-server ratings (OpenSkill, conservative mu − 3σ), shown by
:func:`bot.ratings.rating_text` with :data:`bot.ratings.RATING_NOTE` once per message."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

from bot.games import RATED, TITLES
from bot.names import shown
from bot.ratings import RATING_NOTE, rating_text
from bot.render import ACCENT, CARD, INK, MUTED, font, png_bytes
from bot.render.text import plural
from bot.storage import ComputerResult, RatingRow, Status
from cogs._game import picture_file
from cogs._game.replay import summary

if TYPE_CHECKING:
    from bot.app import ParlorBot

RATED_GAMES = [app_commands.Choice(name=TITLES[k], value=k) for k in RATED]


def history_chart(points: list[tuple[float, float]], title: str) -> bytes:
    """A small line chart of the conservative rating after each rated match."""
    w, h, pad = 520, 220, 40
    img = Image.new("RGB", (w, h), CARD)
    d = ImageDraw.Draw(img)
    d.text((pad, 10), title, font=font(16, bold=True), fill=INK)
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
    d.text((x0, y1 + 6), plural(n - 1, "rated match", "rated matches"), font=font(12), fill=MUTED)
    return png_bytes(img)


def history_alt(points: list[tuple[float, float]], title: str) -> str:
    """The chart in words (what :func:`history_chart` draws): the title, how many rated matches, the
    rating the line starts from, ends on, and its lowest and highest points."""
    values = [0.0] + [p[1] for p in points]
    ratings = " ".join(f"{v:.0f}" for v in values[1:])
    return (f"Line chart, {title}, after {plural(len(points), 'rated match', 'rated matches')}: from "
            f"{values[0]:.0f} to {values[-1]:.0f}, lowest {min(values):.0f}, highest {max(values):.0f}. "
            f"Rating after each match: {ratings}.")


class Leaderboard(commands.Cog):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The top 10 players of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=RATED_GAMES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        gid = interaction.guild_id or 0
        rows = await self.bot.store.top_ratings(gid, game.value, 10)
        title = TITLES[game.value]
        if not rows:
            await interaction.response.send_message(
                f"Nobody has a {title} rating here yet: finish a rated match against another member.",
                ephemeral=True,
            )
            return
        lines = []
        for i, r in enumerate(rows, 1):
            lines.append(f"**{i}.** <@{r.user_id}> — {rating_text(r)} · {r.wins}W {r.losses}L {r.draws}D")
        mine = await self.bot.store.rating_rank(gid, game.value, interaction.user.id)
        footer = (f"Your rank: {mine[0]} of {mine[1]}" if mine else "You have no rating in this game yet.")
        embed = discord.Embed(title=f"{title} leaderboard", description="\n".join(lines),
                              colour=discord.Colour.gold())
        embed.set_footer(text=f"{footer}\n{RATING_NOTE}")
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="stats", description="Ratings and records of a player in this server")
    @app_commands.describe(user="Whose stats (default: yours)",
                           game="Chart the rating history of one game (default: the most played rated game)")
    @app_commands.choices(game=RATED_GAMES)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: app_commands.Choice[str] | None = None) -> None:
        target = user or interaction.user
        gid = interaction.guild_id or 0
        store = self.bot.store
        rows = await store.user_ratings(gid, target.id)
        counters = await store.counters(gid, target.id)
        vs_computer = computer_records(await store.computer_results(gid, target.id))
        embed = discord.Embed(title=f"Stats: {shown(target.display_name)}", colour=discord.Colour.blurple())
        for r in rows:
            rank = await store.rating_rank(gid, r.game, target.id)
            rank_txt = f" · rank {rank[0]}/{rank[1]}" if rank else ""
            embed.add_field(name=TITLES.get(r.game, r.game),
                            value=f"Rating {rating_text(r)}{rank_txt}\n"
                                  f"{plural(r.games, 'game')} · {r.wins}W {r.losses}L {r.draws}D")
        if vs_computer:
            embed.add_field(name="Against the computer (unrated)", inline=False,
                            value="\n".join(vs_computer)[:1024])
        made, adopted = counters.get(("nomic", "proposals"), 0), counters.get(("nomic", "adopted"), 0)
        if made or adopted:
            embed.add_field(name="Nomic World", value=f"{plural(made, 'proposal')} made · {adopted} adopted")
        played = [r for r in await store.played_in_guild(gid, user_id=target.id, limit=8)
                  if r.status != Status.RUNNING][:5]
        if played:  # by number: /<game> history match: replays them
            now = self.bot.service.clock()
            embed.add_field(name="Last matches (`/<game> history match:` replays one)", inline=False,
                            value="\n".join(shown(summary(r, now)) for r in played)[:1024])
        if not embed.fields:  # nothing to show anyone: said to the asker alone
            await interaction.response.send_message(
                f"{'You have' if target.id == interaction.user.id else f'{shown(target.display_name)} has'} "
                "no finished matches in this server yet.",
                ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
            return
        embed.description = (RATING_NOTE if rows else
                             "No rated matches yet: ratings count finished matches between members.")
        chart_game = game.value if game else await self.most_played(gid, target.id, rows)
        files = []
        if chart_game:
            points = await store.rating_history(gid, chart_game, target.id)
            if points:
                chart_title = f"{TITLES[chart_game]} rating: {target.display_name}"
                data = await asyncio.to_thread(history_chart, points, chart_title)
                files.append(picture_file(data, "history.png", history_alt(points, chart_title)))
                why = "" if game else " (the most played rated game)"
                embed.set_footer(text=f"Chart: {TITLES[chart_game]}{why} · pick `game:` to chart another")
            elif game:
                embed.set_footer(text=f"No rated {TITLES[chart_game]} matches to chart.")
        await interaction.response.send_message(embed=embed, files=files,
                                                allowed_mentions=discord.AllowedMentions.none())

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
        lines.append(f"{TITLES.get(g, g)}: {plural(w + lost + d, 'game')} · {w}W {lost}L {d}D "
                     f"({', '.join(levels[g])})")
    return lines


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(Leaderboard(bot))
