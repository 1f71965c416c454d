"""``/tournament``: Swiss and round-robin events in the 2-player games; every pairing is an ordinary match.

Thin: the commands and the sign-up buttons call :class:`TournamentService`; this cog is also its
presenter (posts pairings, opens one thread per pairing through the game cog's normal board
posting, standings pictures, the final podium). Thread creation for a round is paced so that a
round of 64 pairings stays inside Discord's rate limits instead of collecting 429s.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import deque
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import TITLES
from bot.matches.service import Player, Result
from bot.render import png_bytes
from bot.replies import reply_error
from bot.storage.tournaments import TournamentRecord
from bot.tournaments.model import Format
from bot.tournaments.render import render_standings
from bot.tournaments.service import Started, TournamentError, TournamentService
from bot.tournaments.standings import text_table
from cogs._game import TURN_LIMITS, game_cog, human_seconds, picture_file

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
COLOUR = discord.Colour.from_rgb(88, 101, 242)
COLOUR_END = discord.Colour.from_rgb(250, 166, 26)

GAME_CHOICES = [app_commands.Choice(name=TITLES[k], value=k) for k in ("pylon", "fireandice", "eggcarton", "eof",
                                                                       "nomic")]
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value=Format.SWISS.value),
    app_commands.Choice(name="round robin", value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name="double round robin", value=Format.DOUBLE_ROUND_ROBIN.value),
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
STATUS_WORDS = {"signup": "sign-up open", "running": "running", "paused": "paused", "finished": "finished",
                "cancelled": "cancelled"}


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


class SignupButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"t:(?P<tid>\d{1,18}):(?P<act>join|leave|start)"):
    """Join / Leave / Start on a sign-up message; the id carries the event, so it survives restarts."""

    def __init__(self, tid: int, act: str, *, disabled: bool = False) -> None:
        label, style = {"join": ("Join", discord.ButtonStyle.success), "leave": ("Leave", discord.ButtonStyle.secondary),
                        "start": ("Start (organiser)", discord.ButtonStyle.primary)}[act]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"t:{tid}:{act}", disabled=disabled))
        self.tid, self.act = tid, act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> SignupButton:
        return cls(int(match["tid"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: TournamentCog | None = interaction.client.get_cog("TournamentCog")  # type: ignore[attr-defined]
        try:
            if cog is None:
                raise TournamentError("Tournaments are not available right now.")
            await cog.on_button(interaction, self.tid, self.act)
        except Exception as exc:  # noqa: BLE001 - every click gets an answer
            await reply_error(interaction, exc)


class TournamentCog(commands.GroupCog, group_name="tournament",
                    group_description="Swiss and round-robin tournaments in the 2-player games"):
    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.service, presenter=self)
        self.pacer = Pacer()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._resumed = False
        self._announcing: set[tuple[int, int]] = set()
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignupButton)
        self.bot.service.on_match_end = self.service.match_ended
        self.service.on_deadline_change = self.bot.scheduler.poke
        self.bot.scheduler.sources.append(self.service)

    async def cog_unload(self) -> None:
        if self.service in self.bot.scheduler.sources:
            self.bot.scheduler.sources.remove(self.service)
        for task in list(self._tasks):
            task.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self._resumed:
            return
        self._resumed = True
        self.spawn(self._resume())

    async def _resume(self) -> None:
        """After a (re)start: results recorded meanwhile, rounds advanced, unposted pairings posted."""
        started = await self.service.resume_all()
        for tid in await self.bot.store.running_tournaments():  # a round started but never announced (a crash)
            t = await self.service.get(tid)
            if t.status == "running" and int(t.data.get("announced", 0)) < t.current_round:
                await self._post_round(tid, t.current_round, after_crash=True)
        await self.post_pairings(started)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def wait_idle(self) -> None:
        """Until posting and result recording are done (tests and benches)."""
        while self._tasks or self.service._tasks:
            await asyncio.gather(*list(self._tasks), *list(self.service._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ lookups and checks

    async def is_organiser(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        if perms.manage_guild or perms.administrator:
            return True
        role, _ = await self.bot.store.tournament_settings(interaction.guild_id or 0)
        roles = getattr(interaction.user, "roles", [])
        return role is not None and any(r.id == role for r in roles)

    async def find(self, interaction: discord.Interaction, event: int | None, *,
                   active_only: bool = True) -> TournamentRecord:
        gid = interaction.guild_id
        if gid is None:
            raise TournamentError("Tournaments live in servers.")
        if event is not None:
            t = await self.bot.store.load_tournament(event)
            if t is None or t.guild_id != gid:
                raise TournamentError(f"There is no tournament #{event} on this server.")
            return t
        here = interaction.channel_id
        parent = getattr(interaction.channel, "parent_id", None)
        found = await self.bot.store.tournaments_in_guild(gid, active_only=active_only)
        if not found and not active_only:
            found = []
        if not found and active_only:
            found = await self.bot.store.tournaments_in_guild(gid, active_only=False, limit=5)
        local = [t for t in found if t.channel_id in (here, parent)]
        if local:
            return local[0]
        if len(found) == 1:
            return found[0]
        if not found:
            raise TournamentError("There is no tournament on this server yet. Start one with `/tournament new`.")
        raise TournamentError("Several tournaments are running: give `event:` (see `/tournament list`).")

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="new", description="Open a tournament in this channel (sign-up with Join/Leave)")
    @app_commands.describe(game="The game (2-player games)", format="Swiss (default) or round robin",
                           rounds="Swiss rounds (default: ⌈log2 players⌉ + 1)", round_time="Time for each round",
                           turn_limit="Time per move (default: the server's turn limit)",
                           rated="Count for the leaderboard (default yes)", starts="When the first round starts")
    @app_commands.rename(round_time="round-time", turn_limit="turn-limit")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, round_time=ROUND_TIMES, turn_limit=TURN_LIMITS,
                          starts=STARTS)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  format: app_commands.Choice[str] | None = None,
                  rounds: app_commands.Range[int, 1, 50] | None = None,
                  round_time: app_commands.Choice[int] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None, rated: bool = True,
                  starts: app_commands.Choice[int] | None = None) -> None:
        if not await self.is_organiser(interaction):
            raise TournamentError("Only members with Manage Server (or the server's tournament organiser role) "
                                  "can open a tournament.")
        if interaction.channel_id is None or getattr(interaction.channel, "parent_id", None) is not None:
            raise TournamentError("Open tournaments in a text channel (not a thread): each pairing gets a thread.")
        user = interaction.user
        t = await self.service.create(
            guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id,
            organiser=Player(user.id, getattr(user, "display_name", user.name)), game=game.value,
            fmt=Format(format.value if format else Format.SWISS.value), rounds=rounds,
            round_time=round_time.value if round_time else 86400,
            turn_limit=turn_limit.value if turn_limit else None, rated=rated,
            starts_in=starts.value if starts else 3600,
        )
        embed, view = await self.signup_message(t)
        cb = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_message(t.id, cb.resource.id)

    @app_commands.command(name="standings", description="The standings of a tournament")
    @app_commands.describe(event="The tournament number (default: the one in this channel)",
                           page="Page of the table (32 players a page)")
    @app_commands.guild_only()
    async def standings_cmd(self, interaction: discord.Interaction, event: int | None = None,
                            page: app_commands.Range[int, 1, 40] = 1) -> None:
        t = await self.find(interaction, event, active_only=False)
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, file = await self.standings_post(t, page=page)
        await interaction.followup.send(embed=embed, file=file, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="withdraw", description="Leave a tournament you are playing in")
    @app_commands.describe(event="The tournament number (default: the one in this channel)")
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        tr = await self.service.withdraw(t.id, interaction.user.id)
        extra = ("; " + "; ".join(sorted(set(tr.notes)))) if tr.notes else ""
        await interaction.response.send_message(f"You withdrew from tournament #{t.id}{extra}.", ephemeral=True)
        name = esc(getattr(interaction.user, "display_name", interaction.user.name))
        await self.say(t, f"{name} withdrew from the tournament.")
        if t.status == "signup":
            await self.signup_changed(await self.service.get(t.id))

    @app_commands.command(name="list", description="This server's tournaments")
    @app_commands.guild_only()
    async def list_cmd(self, interaction: discord.Interaction) -> None:
        found = await self.bot.store.tournaments_in_guild(interaction.guild_id or 0, active_only=False, limit=15)
        if not found:
            await interaction.response.send_message("No tournaments on this server yet. Start one with "
                                                    "`/tournament new`.", ephemeral=True)
            return
        lines = []
        for t in found:
            n = len(await self.bot.store.entrants(t.id))
            rnd = f" · round {t.current_round}/{t.rounds}" if t.current_round else ""
            lines.append(f"**#{t.id}** {TITLES[t.game]} · {Format(t.format).value} · {n} players · "
                         f"{STATUS_WORDS.get(t.status, t.status)}{rnd} · <#{t.channel_id}>")
        embed = discord.Embed(title="Tournaments", description="\n".join(lines)[:4000], colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="pause", description="Organiser: pause a tournament (the round clock stops)")
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.pause(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(f"Tournament #{t.id} is paused.", ephemeral=True)
        await self.say(t, "The tournament is paused by the organiser: the round clock stopped "
                          "(games in progress go on).")

    @app_commands.command(name="resume", description="Organiser: resume a paused tournament")
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.resume(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(f"Tournament #{t.id} resumed.", ephemeral=True)
        t = await self.service.get(t.id)
        if t.status == "running" and t.deadline:
            await self.say(t, f"The tournament resumed: round {t.current_round} ends <t:{int(t.deadline)}:R>.")

    @app_commands.command(name="remove", description="Organiser: remove a player from a tournament")
    @app_commands.guild_only()
    async def remove(self, interaction: discord.Interaction, player: discord.User, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.withdraw(t.id, player.id, by=interaction.user.id,
                                    is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(f"Removed {esc(player.display_name)} from tournament #{t.id}.",
                                                ephemeral=True, allowed_mentions=NO_MENTIONS)
        await self.say(t, f"{esc(player.display_name)} was removed from the tournament by the organiser.")
        if t.status == "signup":
            await self.signup_changed(await self.service.get(t.id))

    @app_commands.command(name="cancel", description="Organiser: cancel a tournament")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.cancel(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(f"Tournament #{t.id} is cancelled.", ephemeral=True)

    @app_commands.command(name="settings", description="Manage Server: who may open tournaments, events per player")
    @app_commands.describe(organiser_role="Members with this role may open and run tournaments",
                           max_events="How many events a player may be in at once (default 3)")
    @app_commands.rename(organiser_role="organiser-role", max_events="max-events")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction, organiser_role: discord.Role | None = None,
                       max_events: app_commands.Range[int, 1, 20] | None = None) -> None:
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            raise TournamentError("You need the Manage Server permission for that.")
        gid = interaction.guild_id or 0
        role, most = await self.bot.store.tournament_settings(gid)
        role = organiser_role.id if organiser_role is not None else role
        most = max_events if max_events is not None else most
        await self.bot.store.save_tournament_settings(gid, role, most)
        await interaction.response.send_message(
            f"Tournament organisers: Manage Server{f' and <@&{role}>' if role else ''}. "
            f"A player may be in {most} events at once.", ephemeral=True, allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------------ sign-up

    async def signup_message(self, t: TournamentRecord) -> tuple[discord.Embed, discord.ui.View]:
        entrants = await self.bot.store.entrants(t.id)
        fmt = Format(t.format)
        n = len(entrants)
        if fmt.is_round_robin:
            rounds = "one round per opponent" + (", twice" if fmt is Format.DOUBLE_ROUND_ROBIN else "")
        else:
            rounds = f"{t.rounds} rounds" if t.rounds else "⌈log2 players⌉ + 1 rounds"
        lines = [
            f"**{TITLES[t.game]}** · {'Swiss' if fmt is Format.SWISS else fmt.value.replace('-', ' ')} · {rounds}",
            (f"Round time {human_seconds(t.round_time)} · turn limit {human_seconds(t.turn_limit)} · "
            f"{'rated' if t.rated else 'casual (unrated)'}"),
            ("Win 1, draw ½, bye 1. A game still running at the round's end is lost by the player to move; "
            "a game never started counts as a forfeit."),
            f"Organiser: {esc(str(t.data.get('organiser_name', '?')))}",
        ]
        if t.status == "signup":
            lines.append(f"Starts <t:{int(t.starts_at)}:R> (at least 3 players), or when the organiser presses Start.")
        else:
            lines.append(f"Sign-up closed: {STATUS_WORDS.get(t.status, t.status)}.")
        names = ", ".join(esc(e.name) for e in entrants[:60]) + (f" and {n - 60} more" if n > 60 else "")
        embed = discord.Embed(title=f"Tournament #{t.id}: {TITLES[t.game]}", description="\n".join(lines),
                              colour=COLOUR)
        embed.add_field(name=f"Players ({n})", value=names[:1024] or "nobody yet", inline=False)
        view = discord.ui.View(timeout=None)
        if t.status == "signup":
            for act in ("join", "leave", "start"):
                view.add_item(SignupButton(t.id, act))
        return embed, view

    async def on_button(self, interaction: discord.Interaction, tid: int, act: str) -> None:
        user = interaction.user
        if act == "join":
            if user.bot:
                raise TournamentError("Bots cannot play in tournaments.")
            t = await self.service.join(tid, Player(user.id, getattr(user, "display_name", user.name)))
        elif act == "leave":
            t = await self.service.leave(tid, user.id)
        else:
            tr = await self.service.start(tid, user.id, is_admin=await self.is_organiser(interaction))
            t = tr.tournament
        embed, view = await self.signup_message(t)
        await interaction.response.edit_message(embed=embed, view=view)

    async def signup_changed(self, t: TournamentRecord) -> None:
        if t.message_id is None:
            return
        channel = await self.channel_of(t)
        if channel is None:
            return
        embed, view = await self.signup_message(t)
        try:
            await channel.get_partial_message(t.message_id).edit(embed=embed, view=view)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.info("could not update the sign-up message of tournament %s", t.id)

    # ------------------------------------------------------------------ presenter

    async def channel_of(self, t: TournamentRecord) -> discord.abc.Messageable | None:
        ch = self.bot.get_channel(t.channel_id)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(t.channel_id)
            except discord.HTTPException:
                return None
        return ch  # type: ignore[return-value]

    async def say(self, t: TournamentRecord, text: str) -> None:
        channel = await self.channel_of(t)
        if channel is not None:
            try:
                await channel.send(text[:2000], allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                log.info("could not post to tournament %s's channel", t.id)

    async def standings_post(self, t: TournamentRecord, *, title: str | None = None,
                             page: int = 1) -> tuple[discord.Embed, discord.File]:
        """The table as a picture (32 players a page, so it stays readable in Discord) and as text."""
        st = await self.service.standing(t.id)
        pages = max(1, -(-len(st.rows) // PAGE))
        page = min(max(1, page), pages)
        rows = st.rows[(page - 1) * PAGE:]
        done = t.current_round if t.status in ("finished", "cancelled") else max(0, t.current_round - 1)
        sub = f"{TITLES[t.game]} · after round {done} of {t.rounds or '?'}" + (
            f" · page {page} of {pages}" if pages > 1 else "")
        heading = title or f"Tournament #{t.id} standings"
        img = await asyncio.to_thread(render_standings, rows, st.names, st.format, title=heading, subtitle=sub,
                                      limit=PAGE)
        data = await asyncio.to_thread(png_bytes, img)
        table = text_table(rows, st.names, st.format, limit=PAGE)
        embed = discord.Embed(title=heading, description=f"{sub}\n```\n{table[:3900]}\n```", colour=COLOUR)
        embed.set_image(url="attachment://standings.png")
        return embed, picture_file(data, "standings.png")

    async def round_started(self, t: TournamentRecord, round_no: int) -> None:
        """Post (in the background: a big round takes a while when paced) the round and its matches."""
        self.spawn(self._post_round(t.id, round_no))

    async def _post_round(self, tid: int, round_no: int, *, after_crash: bool = False) -> None:
        if (tid, round_no) in self._announcing:  # this process is posting that round already
            return
        self._announcing.add((tid, round_no))
        try:
            await self._post_round_once(tid, round_no, after_crash)
        finally:
            self._announcing.discard((tid, round_no))

    async def _already_announced(self, channel: Any, tid: int, round_no: int) -> bool:
        """Whether the round's header is among the channel's last messages (sent just before a crash)."""
        title = f"Tournament #{tid}: round {round_no} of "
        try:
            async for m in channel.history(limit=50):
                if self.bot.user and m.author.id == self.bot.user.id and any(
                        (e.title or "").startswith(title) for e in m.embeds):
                    return True
        except discord.HTTPException:
            return False
        return False

    async def _post_round_once(self, tid: int, round_no: int, after_crash: bool) -> None:
        t = await self.service.get(tid)
        channel = await self.channel_of(t)
        if round_no == 1:
            await self.signup_changed(t)
        if after_crash and channel is not None and await self._already_announced(channel, tid, round_no):
            await self.service.mark_announced(tid, round_no)
            t = await self.service.get(tid)
        if channel is not None and t.data.get("announced", 0) < round_no:
            if round_no > 1:
                embed, file = await self.standings_post(t)
                await channel.send(embed=embed, file=file, allowed_mentions=NO_MENTIONS)
            st = await self.service.standing(tid)
            pairs = await self.bot.store.pairings(tid, round_no)
            lines = []
            for p in pairs:
                w = esc(st.names.get(p.white_id, "?"))
                if p.black_id is None:
                    lines.append(f"Bye: **{w}** (1 point)" if p.result == "bye" else f"{w}: no game")
                else:
                    b = esc(st.names.get(p.black_id, "?"))
                    note = "" if p.result is None else f" · {p.result} (forfeit)"
                    lines.append(f"{p.board}. **{w}** vs **{b}**{note}")
            text = "\n".join(lines)
            if len(text) > 4000:
                text = text[:3990].rsplit("\n", 1)[0] + "\n…"
            embed = discord.Embed(title=f"Tournament #{tid}: round {round_no} of {t.rounds}",
                                  description=f"{text}\n\nEnds <t:{int(t.deadline or 0)}:R>. Each game has its own "
                                              "thread; the first named moves first.", colour=COLOUR)
            await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)
            await self.service.mark_announced(tid, round_no)
        started = await self.service.materialise(tid)
        await self.post_pairings(started)

    async def post_started(self, started: list[Started]) -> None:
        self.spawn(self.post_pairings(started))

    async def post_pairings(self, started: list[Started]) -> None:
        for s in started:
            try:
                # claimed again right before posting: a big paced round takes a while, and another
                # process may have taken over a claim that grew old meanwhile
                if await self.service.claim_posting(s.match):
                    await self.post_pairing(s)
            except Exception:
                log.exception("posting the match of pairing %s/%s failed", s.pairing.round, s.pairing.board)
            finally:
                self.service.done_posting(s.match.id)

    async def post_pairing(self, s: Started) -> None:
        """The pairing's match, as any match: its own thread, a greeting that pings both, the live board."""
        m = s.match
        cog = game_cog(self.bot, m.rec.game)
        if cog is None:
            return
        settings = await self.bot.service.settings(m.rec.guild_id)
        parent = self.bot.get_channel(m.rec.channel_id)
        place: Any = None
        if m.rec.thread_id is not None:
            place = await cog.place_of(m)
        elif settings.use_threads and isinstance(parent, discord.TextChannel):
            await self.pacer.wait(parent.id)
            names = " vs ".join(x.name for x in m.seats)
            try:
                place = await parent.create_thread(
                    name=f"R{s.pairing.round} · {names}"[:100], type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440)
                await self.bot.service.set_place(m.id, thread_id=place.id)
                m.rec.thread_id = place.id
            except discord.HTTPException as exc:
                log.info("thread creation refused (%s); playing in the channel", exc)
                place = None
        if place is None:
            place = parent
            await self.pacer.wait(m.rec.channel_id)
        white, black = m.seats[0], m.seats[1]
        tid = m.rec.ui.get("tournament")
        turns = getattr(cog, "turns", None)
        if turns is not None:  # each player's /parlor notify choice: the board pings the first mover (or DMs)
            thread_seats, _ = await turns.split(m, [s.seat for s in m.seats if s.seat not in m.to_act()])
            pinged = [m.seats[s].user_id for s in thread_seats]
        else:
            pinged = [white.user_id, black.user_id]
        await place.send(
            f"Tournament #{tid}, round {s.pairing.round}, board {s.pairing.board}: <@{white.user_id}> (moves first) "
            f"vs <@{black.user_id}>. Good luck!",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged], everyone=False,
                                                     roles=False))
        await cog.post_board(place, m, s.result)
        notify = getattr(cog, "notify_turn", None)
        if notify is not None:
            await notify(m, s.result)

    async def match_decided(self, result: Result) -> None:
        cog = self.bot.game_cogs.get(result.match.rec.game)
        if cog is not None:
            await cog.present_timeout(result)

    async def event_finished(self, t: TournamentRecord) -> None:
        self.spawn(self._post_final(t.id))

    async def _post_final(self, tid: int) -> None:
        t = await self.service.get(tid)
        channel = await self.channel_of(t)
        if channel is None:
            return
        st = await self.service.standing(tid)
        embed, file = await self.standings_post(t, title=f"Tournament #{tid}: final standings")
        podium = [r for r in st.rows if r.place <= 3][:3]
        medals = {1: "🥇 1st", 2: "🥈 2nd", 3: "🥉 3rd"}
        winners = [r for r in st.rows if r.place == 1]
        lead = " and ".join(f"**{esc(st.names.get(r.player, '?'))}**" for r in winners)
        lines = [f"🏆 Winner: {lead} with {winners[0].points_text} points!" if winners else "No winner."]
        lines += [f"{medals[r.place]}: {esc(st.names.get(r.player, '?'))} ({r.points_text})" for r in podium]
        await channel.send(content="\n".join(lines)[:2000], embed=embed, file=file, allowed_mentions=NO_MENTIONS)
        await self.signup_changed(t)

    async def event_cancelled(self, t: TournamentRecord, reason: str) -> None:
        await self.say(t, f"Tournament #{t.id} ({TITLES[t.game]}): {reason}")
        await self.signup_changed(t)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(TournamentCog(bot))

