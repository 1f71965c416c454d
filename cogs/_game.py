"""The shape every game shares: ``/<game> new|move|board|resign|rules|history``.

A game cog subclasses :class:`GameCog`, declares its own ``new`` command (its
options differ) and, where the board needs more than "type a move", overrides
:meth:`GameCog.components` and :meth:`GameCog.on_action` for its buttons. The
flow is always: parse input → ``MatchService`` (commits) → render off the
event loop → one response.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import LobbyError, NoMatchHere, NotAPlayer, NotYourTurn, ParlorError, StaleBoard
from bot.games import GAMES
from bot.games.base import CHANCE
from bot.matches.service import Match, Player, Result
from bot.names import plain, shown
from bot.render import ACCENT, CARD, font, png_bytes
from bot.storage import Status
from bot.turns import Turns, mentions_of, newly_to_act
from cogs import _perms
from cogs import _views as v

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()

TURN_LIMITS = [
    app_commands.Choice(name="30 seconds", value=30),
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=21600),
    app_commands.Choice(name="24 hours", value=86400),
    app_commands.Choice(name="3 days", value=259200),
    app_commands.Choice(name="7 days", value=604800),
]
FIRST_CHOICES = [
    app_commands.Choice(name="me (the challenger)", value="challenger"),
    app_commands.Choice(name="my opponent", value="opponent"),
    app_commands.Choice(name="random", value="random"),
]
EXPIRY_CHOICES = [
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=21600),
    app_commands.Choice(name="24 hours", value=86400),
    app_commands.Choice(name="3 days", value=259200),
]
"""``expires`` of ``/<game> new``: how long the challenge or lobby waits (default 15 minutes)."""
AI_AT_ONCE = 1.5
"""Seconds a click or typed move waits for the computer's answer so that both go out in one reply."""
COLOUR_OK = discord.Colour.from_rgb(87, 242, 135)
COLOUR_OLD = discord.Colour.from_rgb(79, 84, 92)
COLOUR_INFO = discord.Colour.from_rgb(88, 101, 242)
COLOUR_END = discord.Colour.from_rgb(250, 166, 26)


def human_seconds(seconds: float) -> str:
    seconds = int(seconds)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"


def rules_text(game_key: str) -> str:
    path = Path(GAMES[game_key].module.__file__ or "").parent / "rules_text.md"  # next to the engine
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return "The rules text is missing."


class GameCog(commands.GroupCog):
    """Shared subcommands and presentation for one game."""

    game_key: ClassVar[str] = ""

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.game = GAMES[self.game_key]
        self.rules = self.game.rules
        self.spec = self.rules.spec
        self._ai_tasks: set[asyncio.Task[Any]] = set()
        self._ai_running: set[int] = set()      # matches whose computer move is being computed here
        self._retired: set[int] = set()         # board messages already marked "moved on" by this process
        self.turns: Turns = getattr(bot, "turns", None) or Turns(bot)
        bot.game_cogs[self.game_key] = self
        super().__init__()

    # ---------------------------------------------------------------- lookups

    async def match_here(self, interaction: discord.Interaction, *, running: bool = True) -> Match:
        """The caller's match in this thread/channel (their own first)."""
        place = interaction.channel_id or 0
        if interaction.guild_id is None:  # in a DM: the caller's own match of this game
            found = await self.service.find_for_user(interaction.user.id, game=self.game_key)
        else:
            found = await self.service.find_here(place, interaction.user.id, game=self.game_key,
                                                 active_only=running)
        if running:
            found = [m for m in found if m.status == Status.RUNNING]
        if not found:
            raise NoMatchHere(
                f"There is no {'running ' if running else ''}{self.spec.title} match here. "
                f"Use `/{self.game_key} new` to start one, or run this in the match's thread."
            )
        return found[0]

    # ---------------------------------------------------------------- creating

    async def player_for(self, user: discord.abc.User) -> Player:
        return Player(user.id, getattr(user, "display_name", user.name))

    async def check_one_per_thread(self, interaction: discord.Interaction) -> None:
        """``/<game> new`` inside the thread of an active match is refused (typed moves would go astray)."""
        channel = interaction.channel
        if not isinstance(channel, discord.Thread):
            return
        active = await self.service.find_here(channel.id)
        if active:
            m = active[0]
            parent = f"<#{channel.parent_id}>" if channel.parent_id else "the channel"
            raise LobbyError(f"This thread belongs to {m.game.rules.spec.title} match #{m.id}, which is still on: "
                             f"one match per thread. Start a new match in {parent}.")

    async def create_match(self, interaction: discord.Interaction, *, opponent: discord.abc.User | None,
                           level: str | None, options: dict[str, str], turn_limit: int | None,
                           expires: int | None = None) -> None:
        """``/<game> new``: a challenge, a lobby, or a match against the bot."""
        await self.check_one_per_thread(interaction)
        host = await self.player_for(interaction.user)
        opp: Player | None = None
        if opponent is not None:
            if self.bot.user is not None and opponent.id == self.bot.user.id:
                if not self.spec.ai_levels:
                    raise LobbyError(f"{self.spec.title} has no computer opponent; challenge a member instead.")
                lvl = level or self.default_level()
                opp = Player(opponent.id, f"{self.bot.user.display_name} ({lvl})", lvl)
            elif opponent.bot:
                raise LobbyError("Bots cannot play here (except me: pick me as the opponent to play the computer).")
            else:
                opp = await self.player_for(opponent)
        if interaction.guild_id is None:
            raise LobbyError("Start matches in a server channel.")
        _perms.check_can_host(interaction, self.game_key)
        match = await self.service.create(
            self.game_key, guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, host=host,
            opponent=opp, options=options, turn_limit=turn_limit, expires=expires,
        )
        if match.status == Status.RUNNING:
            await self._announce_start(interaction, match, Result(match, started=True), response=True)
        else:
            embed, view = self.invite_message(match)
            mention = discord.AllowedMentions(users=True) if opp is not None else NO_MENTIONS
            content = f"<@{opp.user_id}>" if opp is not None else None
            cb = await interaction.response.send_message(content=content, embed=embed, view=view,
                                                         allowed_mentions=mention)
            if isinstance(cb.resource, discord.InteractionMessage):
                await self.service.set_place(match.id, message_id=cb.resource.id)

    def default_level(self) -> str:
        levels = self.spec.ai_levels
        return levels[len(levels) // 2] if levels else ""

    def options_summary(self, match: Match) -> str:
        parts = [f"{k.replace('_', ' ')}: {val}" for k, val in sorted(match.options.items())]
        parts.append(f"turn limit: {human_seconds(match.rec.turn_limit)}")
        return " · ".join(parts)

    def invite_message(self, match: Match) -> tuple[discord.Embed, discord.ui.View]:
        """The challenge (Accept/Decline/Cancel) or lobby (Join/Leave/Start/Cancel) message."""
        rec = match.rec
        if rec.status == Status.CHALLENGE:
            embed = discord.Embed(
                title=f"{self.spec.title}: a challenge",
                description=(f"**{shown(rec.seats[0].name)}** challenges **{shown(rec.seats[1].name)}**.\n"
                             f"Expires <t:{int(rec.deadline or 0)}:R>."),
                colour=COLOUR_INFO,
            )
            embed.set_footer(text=self.options_summary(match))
            view = v.view_of(
                v.button(rec.id, None, "accept", label="Accept", style=discord.ButtonStyle.success),
                v.button(rec.id, None, "decline", label="Decline", style=discord.ButtonStyle.danger),
                v.button(rec.id, None, "cancel", label="Cancel", style=discord.ButtonStyle.secondary),
            )
            return embed, view
        spec = self.spec
        if rec.status == Status.LOBBY:
            need = spec.min_seats
            most = f"{spec.max_seats}" if spec.max_seats else "any number of"
            lines = [f"{i + 1}. {shown(s.name)}{self.seat_note(match, i)}" for i, s in enumerate(rec.seats)]
            embed = discord.Embed(
                title=f"{spec.title}: lobby",
                description=(f"Hosted by **{shown(rec.seats[0].name) if rec.seats else '?'}** · {need} to {most} players\n"
                             + "\n".join(lines)
                             + f"\n\nThe host starts once {need} have joined. Closes <t:{int(rec.deadline or 0)}:R>."),
                colour=COLOUR_INFO,
            )
            embed.set_footer(text=self.options_summary(match))
            full = spec.max_seats is not None and len(rec.seats) >= spec.max_seats
            view = v.view_of(
                v.button(rec.id, None, "join", label="Join", style=discord.ButtonStyle.success, disabled=full),
                v.button(rec.id, None, "leave", label="Leave"),
                v.button(rec.id, None, "start", label="Start", style=discord.ButtonStyle.primary,
                         disabled=len(rec.seats) < need),
                v.button(rec.id, None, "cancel", label="Cancel", style=discord.ButtonStyle.danger),
            )
            for item in self.lobby_extra_items(match):
                view.add_item(item)
            return embed, view
        embed = discord.Embed(title=f"{spec.title}", description=self.closed_text(match), colour=COLOUR_END)
        return embed, discord.ui.View(timeout=None)

    def seat_note(self, match: Match, seat: int) -> str:
        """Extra text after a lobby seat (EOF: the colour)."""
        return ""

    def lobby_extra_items(self, match: Match) -> list[discord.ui.Item[Any]]:
        return []

    def closed_text(self, match: Match) -> str:
        return {
            Status.DECLINED: "The challenge was declined.",
            Status.CANCELLED: "Cancelled.",
            Status.EXPIRED: "Expired: nobody took it up in time.",
            Status.ABORTED: "Stopped by an admin.",
            Status.RUNNING: "The match has started.",
            Status.FINISHED: "The match is over.",
        }.get(match.status, "Closed.")

    async def _announce_start(self, interaction: discord.Interaction, match: Match, result: Result, *,
                              response: bool) -> None:
        """Post the started match: a header message, its thread (setting), the first board."""
        settings = await self.service.settings(match.rec.guild_id)
        names = " vs ".join(shown(s.name) for s in match.seats)
        header = discord.Embed(title=f"{self.spec.title}: {names}"[:256], colour=COLOUR_OK,
                               description=self.options_summary(match))
        use_threads = settings.use_threads and not _perms.thread_blockers(interaction)
        if settings.use_threads and not use_threads:
            header.description = f"{header.description}\n{_perms.thread_note(interaction)}"
        if response:
            cb = await interaction.response.send_message(embed=header, allowed_mentions=NO_MENTIONS)
            header_msg = cb.resource if isinstance(cb.resource, discord.InteractionMessage) else None
        else:
            embed, _ = self.invite_message(match)
            embed.description = f"Started: {names}."
            if settings.use_threads and not use_threads:
                embed.description += "\n" + _perms.thread_note(interaction)
            cb = await interaction.response.edit_message(embed=embed, view=None, content=None)
            header_msg = interaction.message
        await self.open_match(interaction.channel, header_msg, match, result, use_threads=use_threads)

    async def open_match(self, channel: Any, header_msg: discord.Message | None, match: Match, result: Result, *,
                         use_threads: bool) -> None:
        """The match's thread (from its header message), its players added to it, the first board."""
        place: discord.abc.Messageable | None = None
        if use_threads and header_msg is not None and isinstance(channel, discord.TextChannel):
            try:
                thread_name = f"{self.spec.title}: " + " vs ".join(plain(s.name) for s in match.seats)
                thread = await header_msg.create_thread(name=thread_name[:100],
                                                        auto_archive_duration=1440)
                place = thread
                await self.service.set_place(match.id, thread_id=thread.id)
                match.rec.thread_id = thread.id
                for s in match.seats:
                    if not s.is_ai:
                        await self.add_to_thread(match, s.user_id)
            except discord.HTTPException as exc:
                log.info("thread creation refused (%s); playing in the channel", exc)
        if place is None:
            place = channel
        if result.ai_next:  # the computer opens: its first move is on the first board
            result = await self.ai_at_once(result, budget=5.0)
            match = result.match
        await self.post_board(place, match, result)
        await self.after_result(match, result)

    async def add_to_thread(self, match: Match, user_id: int) -> bool:
        """Add a player (or a spectator) to the match thread; False if there is none or Discord refused."""
        if match.rec.thread_id is None:
            return False
        try:
            await self.bot.http.add_user_to_thread(match.rec.thread_id, user_id)
            return True
        except discord.HTTPException as exc:
            log.info("could not add %s to the thread of match %s: %s", user_id, match.id, exc)
            return False

    async def post_board(self, place: discord.abc.Messageable | None, match: Match, result: Result | None, *,
                         retire: bool = True) -> None:
        """Send a fresh board message and make it the match's one live board.

        It pings (in its content) the players whose turn just began and who chose thread pings; the
        previous board is edited in the same step to say it moved on (no "to move", no controls).
        """
        if place is None:
            place = await self.place_of(match)
        if place is None:
            return
        kwargs = await self.board_kwargs(match, result)
        thread_seats, _ = await self.pending_pings(match, result)
        users = [match.seats[s].user_id for s in thread_seats]
        content = self.join_content(self.turns.ping_text(match, thread_seats, self.spec.title) if users else None,
                                    kwargs.pop("content", None))
        old = match.rec.message_id
        try:
            msg = await place.send(content=content, **kwargs, allowed_mentions=mentions_of(users))
        except discord.NotFound as exc:
            if exc.code != 10003:
                raise
            await self.bot.place_gone(match)  # deleted without our noticing (10003): abort it, unrated
            return
        if result is not None:
            result.notified.update(thread_seats)
        await self.service.set_place(match.id, message_id=msg.id)
        match.rec.message_id = msg.id
        if retire and old and old != msg.id:
            await self.retire(place, match, old, msg.jump_url)

    @staticmethod
    def join_content(*parts: str | None) -> str | None:
        text = "\n".join(p for p in parts if p)
        return text[:2000] or None

    def retired_embed(self, match: Match, url: str) -> discord.Embed:
        """What an earlier board says once a newer one exists."""
        seats = " vs ".join(self.seat_label(match, s.seat) for s in match.seats)
        embed = discord.Embed(title=f"{self.spec.title} · {seats}"[:256],
                              description=f"Moved on: see the latest board ↓\n[Jump to the latest board]({url})",
                              colour=COLOUR_OLD)
        embed.set_footer(text=f"Match #{match.id} · an earlier position")
        return embed

    async def retire(self, place: Any, match: Match, message_id: int, url: str) -> None:
        """Edit an earlier board: no "to move", no controls, a link to the latest (its picture stays)."""
        if message_id in self._retired:
            return
        try:
            await place.get_partial_message(message_id).edit(embed=self.retired_embed(match, url), view=None,
                                                             content=None)
            self._retired.add(message_id)
        except discord.HTTPException:
            log.info("could not retire board %s of match %s", message_id, match.id)

    async def pending_pings(self, match: Match, result: Result | None) -> tuple[list[int], list[int]]:
        """(seats to ping in the thread, seats to DM) for the turn that ``result`` began, not yet told."""
        private = self.private_notices(match, result) if result is not None else set()
        return await self.turns.split(match, [s for s in newly_to_act(match, result) if s not in private])

    def private_notices(self, match: Match, result: Result) -> set[int]:
        """Seats the game itself tells privately about this result (EOF: the program builder by DM, or its
        button in the thread when DMs are closed): that message is their turn notice."""
        return set()

    async def notify_turn(self, match: Match, result: Result) -> None:
        """Tell whoever was not told yet by the board itself (DMs; a thread ping when the board was edited)."""
        thread_seats, dm_seats = await self.pending_pings(match, result)
        if not thread_seats and not dm_seats:
            return
        result.notified.update(thread_seats + dm_seats)
        place = await self.place_of(match) if thread_seats or dm_seats else None
        await self.turns.deliver(match, thread_seats, dm_seats, self.spec.title, place)

    async def remind(self, match: Match) -> None:
        """The scheduler's reminder: the players to move, each as they chose (once per turn)."""
        seats = [s for s in sorted(match.to_act()) if not match.seats[s].is_ai]
        thread_seats, dm_seats = await self.turns.split(match, seats)
        if not thread_seats and not dm_seats:
            return
        when = f"the turn ends <t:{int(match.rec.deadline)}:R>" if match.rec.deadline else "the turn ends soon"
        place = await self.place_of(match)
        await self.turns.deliver(match, thread_seats, dm_seats, self.spec.title, place, reminder=when)

    async def recover(self, match: Match, result: Result | None = None) -> None:
        """Bring the live board up to date after a move whose presentation never reached Discord.

        With the move's ``result`` (a reply that just failed) its pings go out with the new board; at
        start-up everyone to act is pinged, as the notice of the lost reply may never have gone out.
        """
        log.info("bringing the board of match %s up to date (version %s)", match.id, match.version)
        if match.status == Status.RUNNING:
            if result is None:
                last = [mv for mv in (await self.service.history(match.id))[-1:] if mv.seat >= 0]
                result = Result(match, started=True, moves=last)
            await self.post_board(None, match, result)
            if match.ai_to_act() is not None:
                self.schedule_ai(match.id)
        elif match.status == Status.FINISHED:
            await self.refresh_board(match, None)
            await self.announce_result(match, Result(match, finished=True))
        await self.bot.store.set_board_version(match.id, match.version)

    async def recover_later(self, match_id: int, result: Result | None = None) -> None:
        """After a failed reply: bring the board of the match up to date (errors only logged)."""
        try:
            match = await self.service.get(match_id)
            if result is not None and result.match.version == match.version:
                match = result.match
            else:
                result = None
            await self.recover(match, result)
        except Exception:
            log.exception("bringing the board of match %s up to date failed", match_id)

    async def place_of(self, match: Match) -> discord.abc.Messageable | None:
        cid = match.rec.place_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(cid)
            except discord.NotFound as exc:
                if exc.code == 10003:  # deleted while we were not looking: abort it, unrated
                    await self.bot.place_gone(match)
                return None
            except discord.HTTPException:
                return None
        return ch  # type: ignore[return-value]

    # ---------------------------------------------------------------- the board

    def seat_label(self, match: Match, seat: int) -> str:
        names = self.spec.seat_names
        side = f" ({names[seat]})" if seat < len(names) else ""
        return f"{shown(match.seats[seat].name)}{side}"

    def status_line(self, match: Match) -> str:
        if match.status == Status.FINISHED:
            out = match.outcome
            if out is None:
                return "The match is over."
            detail = shown(out.detail) if out.detail else ""
            if detail and out.reason.value in ("resignation", "timeout"):
                head = detail + " "
            else:
                head = ""
            if out.is_draw:
                return f"{head}**Draw.** {detail if not head else ''}".strip()
            winners = ", ".join(self.seat_label(match, s) for s in sorted(out.winners))
            tail = "" if head else (f" {detail}" if detail else "")
            return f"{head}**{winners} won.**{tail}"
        if match.status != Status.RUNNING:
            return self.closed_text(match)
        to_act = sorted(match.to_act())
        who = ", ".join(f"<@{match.seats[s].user_id}>" if not match.seats[s].is_ai else shown(match.seats[s].name)
                        for s in to_act)
        deadline = f" · turn ends <t:{int(match.rec.deadline)}:R>" if match.rec.deadline else ""
        return f"To move: {who}{deadline}"

    def last_move_text(self, match: Match, result: Result | None) -> str:
        """"Last: …" with every ply of the mover's run (one side moving twice in a row shows both)."""
        if result is None or not result.moves:
            return ""
        plies = [(mv.seat, mv.notation) for mv in result.moves]
        run = [(int(s), str(n)) for s, n in match.rec.ui.get("turn") or ()]
        if len(run) > len(plies) and run[-len(plies):] == plies:
            plies = run
        parts: list[str] = []
        prev = None
        for seat, notation in plies:
            if seat == prev and seat != CHANCE:
                parts[-1] += f", then `{notation}`"
            else:
                who = "🎲" if seat == CHANCE else shown(match.seats[seat].name) if seat < len(match.seats) else "?"
                parts.append(f"{who}: `{notation}`")
            prev = seat
        return "Last: " + ", ".join(parts)

    def board_embed(self, match: Match, result: Result | None) -> discord.Embed:
        lines = [self.status_line(match)]
        last = self.last_move_text(match, result)
        if last:
            lines.insert(0, last)
        lines.extend(self.extra_lines(match, result))
        colour = COLOUR_END if match.status == Status.FINISHED else COLOUR_OK
        seats = " vs ".join(self.seat_label(match, s.seat) for s in match.seats)
        embed = discord.Embed(title=f"{self.spec.title} · {seats}"[:256], description="\n".join(lines)[:4000],
                              colour=colour)
        embed.set_image(url=f"attachment://{self.picture_name(match, result)}")
        if match.status == Status.RUNNING:
            embed.set_footer(text=f"Match #{match.id} · move {self.moves_played(match)} · "
                                  f"/{self.game_key} move to type a move")
        else:
            embed.set_footer(text=f"Match #{match.id} · final position after {self.moves_played(match)} moves · "
                                  f"/{self.game_key} board and /{self.game_key} history show it")
        return embed

    def moves_played(self, match: Match) -> int:
        """The move number in the board's footer (games whose picture counts moves make the two agree)."""
        return int(match.rec.ui.get("plies", 0))

    def extra_lines(self, match: Match, result: Result | None) -> list[str]:
        return []

    def picture_name(self, match: Match, result: Result | None) -> str:
        return "board.png"

    def render_picture(self, match: Match, result: Result | None) -> bytes:
        """Runs in a worker thread: the board as PNG bytes."""
        view = match.view(None)
        img = self.game.render(view, names=match.names(), events=result.events if result else (),
                               clocks=match.clocks_ms(self.service.clock()))
        return png_bytes(img, key=self.game_key)

    async def picture(self, match: Match, result: Result | None) -> discord.File:
        name = self.picture_name(match, result)
        data = await asyncio.to_thread(self._picture_bytes, match, result, name)
        return picture_file(data, name)

    def _picture_bytes(self, match: Match, result: Result | None, name: str) -> bytes:
        if name.endswith(".png") and self.ended_by_platform(match) and match.outcome is not None:
            try:  # the engine's picture of a finished game (no "to move"), with the result below it
                img = self.game.render(ended_view(match.view(None), match.outcome), names=match.names(),
                                       clocks=match.clocks_ms(self.service.clock()))
                data = png_bytes(img)
            except Exception:  # noqa: BLE001 - a view this cannot finish: the last picture, still with the band
                data = self.render_picture(match, result)
            return result_band(data, self.result_words(match))
        return self.render_picture(match, result)

    def ended_by_platform(self, match: Match) -> bool:
        """Finished by resignation, timeout or an admin: the engine's own picture still shows the turn."""
        return (match.status in (Status.FINISHED, Status.ABORTED) and match.state is not None
                and match.rules.outcome(match.state) is None)

    def result_words(self, match: Match) -> str:
        """The end of the match in plain words (for the picture)."""
        out = match.outcome
        if out is None:
            return "The match is over."
        winners = ", ".join(match.seats[s].name for s in sorted(out.winners))
        head = out.detail or ""
        if out.is_draw:
            return f"{head} Draw.".strip()
        return f"{head} {winners} won.".strip() if winners else head

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        """The board's buttons/selects for the current position (``state`` for multi-step pickers)."""
        return []

    async def board_kwargs(self, match: Match, result: Result | None, state: str = "") -> dict[str, Any]:
        file = await self.picture(match, result)
        items = self.components(match, state) if match.status == Status.RUNNING else []
        view = v.view_of(*items)
        if match.status == Status.RUNNING and match.rec.thread_id is not None:
            try:  # spectators join the thread from the board (skipped when the board's rows are full)
                view.add_item(v.button(match.id, None, "watch", label="Watch", emoji="👀", row=4))
            except ValueError:
                pass
        return {"embed": self.board_embed(match, result), "file": file, "view": view}

    # ---------------------------------------------------------------- components

    async def on_component(self, interaction: discord.Interaction, match: Match, version: int | None,
                           action: str, values: list[str]) -> None:
        if action in ("accept", "decline", "cancel", "join", "leave", "start"):
            await self.on_lobby_action(interaction, match, action)
            return
        if action.startswith("pv:"):
            pv = re.fullmatch(r"pv:(\d{1,3}):(\w{1,20})", action)
            if pv is None:
                raise StaleBoard("That button does nothing any more.")
            await self.show_private(interaction, match, int(pv[1]), pv[2])
            return
        if action == "resign!":
            await self.do_resign(interaction, match)
            return
        if action == "watch":
            await self.do_watch(interaction, match)
            return
        if action == "rematch":
            await self.do_rematch(interaction, match)
            return
        if action.startswith("m:"):
            await self.play_from_component(interaction, match.id, version, action[2:])
            return
        if action.startswith("cf:"):  # confirmed from an ephemeral warning: the board is another message
            result = await self.service.play(match.id, interaction.user.id, action[3:], expected_version=version)
            result = await self.ai_at_once(result)
            await interaction.response.edit_message(content=f"Played `{action[3:]}`.", view=None)
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
            return
        if action == "mv" and values:
            await self.play_from_component(interaction, match.id, version, values[0])
            return
        await self.on_action(interaction, match, version, action, values)

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        raise LobbyError("That button does nothing any more.")

    async def on_lobby_action(self, interaction: discord.Interaction, match: Match, action: str) -> None:
        uid = interaction.user.id
        svc = self.service
        if action in ("accept", "start"):
            _perms.check_can_host(interaction, self.game_key)
        if action == "accept":
            result = await svc.accept(match.id, uid)
            await self._announce_start(interaction, result.match, result, response=False)
            return
        if action == "start":
            result = await svc.start(match.id, uid)
            await self._announce_start(interaction, result.match, result, response=False)
            return
        if action == "decline":
            result = await svc.decline(match.id, uid)
        elif action == "cancel":
            result = await svc.cancel(match.id, uid)
        elif action == "join":
            await self.check_can_join(interaction, match)
            result = await svc.join(match.id, await self.player_for(interaction.user))
        else:
            result = await svc.leave(match.id, uid)
        embed, view = self.invite_message(result.match)
        await interaction.response.edit_message(embed=embed, view=view, content=None)
        await self.after_lobby_change(result)

    async def check_can_join(self, interaction: discord.Interaction, match: Match) -> None:
        """Games that need DMs check them here (EOF)."""

    async def after_lobby_change(self, result: Result) -> None:
        pass

    async def play_from_component(self, interaction: discord.Interaction, match_id: int, version: int | None,
                                  text: str) -> None:
        """A move from a board button: one request (the board edited in the interaction response)."""
        result = await self.service.play(match_id, interaction.user.id, text, expected_version=version)
        result = await self.ai_at_once(result)
        match = result.match
        thread_seats, _ = await self.pending_pings(match, result)
        clicked = interaction.message.id if interaction.message is not None else None
        thinking = result.ai_next and match.id in self._ai_running  # its board comes below when it is ready
        try:
            if (thread_seats or thinking) and clicked is not None:
                # someone is pinged: the new board goes to the bottom (its content is the ping) and the
                # clicked board becomes an earlier position, in the interaction's own response
                embed = self.retired_embed(match, self.place_url(match))
                if thinking:
                    embed.description = ("Moved on: the computer is answering; the next board comes below ↓\n"
                                         f"[Jump to the latest board]({self.place_url(match)})")
                await interaction.response.edit_message(embed=embed, view=None, content=None)
                self._retired.add(clicked)
                if not thinking:
                    await self.post_board(None, match, result, retire=match.rec.message_id != clicked)
            else:
                kwargs = await self.board_kwargs(match, result)
                file = kwargs.pop("file")
                kwargs["content"] = kwargs.get("content")  # an earlier "your turn" line goes
                await interaction.response.edit_message(**kwargs, attachments=[file])
        except discord.HTTPException:
            log.warning("the reply to a move in match %s failed; re-posting its board", match.id, exc_info=True)
            await self.recover_later(match.id, result)
        await self.after_result(match, result)

    def place_url(self, match: Match) -> str:
        return f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{match.rec.place_id}"

    async def ai_at_once(self, result: Result, *, budget: float | None = None) -> Result:
        """Let the computer answer within ``budget`` seconds so that its move goes out with the human's.

        Returns the combined result (both moves; the turn it began pings the human). If the computer
        needs longer it keeps thinking and its move is presented on its own when ready.
        """
        end = time.monotonic() + (AI_AT_ONCE if budget is None else budget)
        while result.ai_next and not result.finished:
            match_id = result.match.id
            if match_id in self._ai_running:
                break
            self._ai_running.add(match_id)
            task = asyncio.ensure_future(self.service.ai_move(match_id))
            done, _ = await asyncio.wait({task}, timeout=max(0.0, end - time.monotonic()))
            if not done:
                follow = asyncio.create_task(self._ai_follow(match_id, task, result.moves))
                self._ai_tasks.add(follow)
                follow.add_done_callback(self._ai_tasks.discard)
                break
            self._ai_running.discard(match_id)
            try:
                reply = task.result()
            except Exception:
                log.exception("computer move in match %s failed", match_id)
                break
            if reply is None:
                break
            result = Result(reply.match, events=reply.events, moves=result.moves + reply.moves, actor=reply.actor,
                            before=reply.before, started=result.started, finished=reply.finished,
                            ratings=reply.ratings, message=reply.message, notified=set(result.notified))
        return result

    async def _ai_follow(self, match_id: int, task: asyncio.Future[Result | None],
                         earlier: list[Any] | None = None) -> None:
        try:
            result = await task
        except Exception:
            log.exception("computer move in match %s failed", match_id)
            return
        finally:
            self._ai_running.discard(match_id)
        if result is None:
            return
        result.moves = list(earlier or []) + result.moves  # "Last:" names the human's move too
        try:
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
        except Exception:
            log.exception("presenting the computer's move in match %s failed", match_id)

    async def edit_board(self, interaction: discord.Interaction, match: Match, state: str) -> None:
        """Show a different step of a multi-step picker (no move; no new picture)."""
        view = v.view_of(*self.components(match, state))
        await interaction.response.edit_message(view=view)

    # ---------------------------------------------------------------- after a move

    async def after_result(self, match: Match, result: Result) -> None:
        """Result message at the end, private follow-ups, and the computer's reply."""
        await self.after_move_private(match, result)
        await self.notify_turn(match, result)
        if result.finished and match.status == Status.FINISHED:
            await self.announce_result(match, result)
        elif result.ai_next:
            self.schedule_ai(match.id)
        await self.bot.store.set_board_version(match.id, match.version)

    async def after_move_private(self, match: Match, result: Result) -> None:
        """Games with hidden information send DMs here."""

    def schedule_ai(self, match_id: int) -> None:
        if match_id in self._ai_running:
            return
        self._ai_running.add(match_id)
        task = asyncio.create_task(self._ai_turn(match_id))
        self._ai_tasks.add(task)
        task.add_done_callback(self._ai_tasks.discard)

    async def _ai_turn(self, match_id: int) -> None:
        try:
            try:
                result = await self.service.ai_move(match_id)
            finally:
                self._ai_running.discard(match_id)
            if result is None:
                return
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
        except Exception:
            log.exception("computer move in match %s failed", match_id)

    async def refresh_board(self, match: Match, result: Result | None) -> None:
        """Edit the stored board message (moves not made by a click: AI, timeouts).

        When the change begins someone's turn and they take thread pings, a new board is posted
        instead (edits never notify) and this one retired.
        """
        place = await self.place_of(match)
        thread_seats, _ = await self.pending_pings(match, result)
        if place is None or match.rec.message_id is None or thread_seats or match.rec.message_id in self._retired:
            await self.post_board(place, match, result)
            return
        kwargs = await self.board_kwargs(match, result)
        file = kwargs.pop("file")
        kwargs["content"] = kwargs.get("content")  # an earlier "your turn" line goes
        msg = place.get_partial_message(match.rec.message_id)  # type: ignore[attr-defined]
        try:
            await msg.edit(**kwargs, attachments=[file])
        except discord.NotFound:
            await self.post_board(place, match, result)

    async def announce_result(self, match: Match, result: Result) -> None:
        place = await self.place_of(match)
        if place is None:
            return
        embed = discord.Embed(title=f"{self.spec.title}: match over", description=self.status_line(match),
                              colour=COLOUR_END)
        if result.ratings:
            lines = []
            for ch in result.ratings:
                delta = ch.after.ordinal - ch.before.ordinal
                lines.append(f"<@{ch.user_id}> {ch.after.ordinal:.1f} ({delta:+.1f})")
            embed.add_field(name="Ratings", value="\n".join(lines)[:1024])
        elif not match.rec.rated or any(s.is_ai for s in match.seats):
            embed.set_footer(text="Unrated match.")
        await place.send(embed=embed, view=self.rematch_view(match), allowed_mentions=NO_MENTIONS)

    def rematch_view(self, match: Match) -> discord.ui.View:
        if "tournament" in match.rec.ui:  # a tournament pairing: the event decides who plays next
            return v.view_of()
        return v.view_of(v.button(match.id, None, "rematch", label="Rematch", emoji="🔁",
                                  style=discord.ButtonStyle.primary))

    async def do_watch(self, interaction: discord.Interaction, match: Match) -> None:
        """The board's Watch button: the user is added to the match thread."""
        if match.seat_of(interaction.user.id) is not None:
            await interaction.response.send_message("You are playing in this match: the thread is yours already.",
                                                    ephemeral=True)
            return
        if match.rec.thread_id is None or not await self.add_to_thread(match, interaction.user.id):
            raise LobbyError("This match has no thread to watch; its board is in this channel.")
        await interaction.response.send_message(
            f"You are watching {self.spec.title} #{match.id}: the thread shows in your channel list.", ephemeral=True)

    async def do_rematch(self, interaction: discord.Interaction, match: Match) -> None:
        """Same game, same options, seats swapped; offered in the channel where the match was started."""
        if match.status != Status.FINISHED:
            raise LobbyError("A rematch can be asked for once the match is over.")
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer("Only the players of this match can ask for a rematch.")
        if match.rec.ui.get("rematch"):
            raise LobbyError(f"A rematch was already offered: {match.rec.ui['rematch']}")
        channel = self.bot.get_channel(match.rec.channel_id) or await self.bot.fetch_channel(match.rec.channel_id)
        host = await self.player_for(interaction.user)
        options = dict(match.options)
        others = [s for s in match.seats if s.seat != seat]
        opp: Player | None = None
        if len(match.seats) == 2:
            o = others[0]
            opp = Player(o.user_id, o.name, o.ai_level)
            options["first"] = "challenger" if seat == 1 else "opponent"  # the other seat opens this time
        _perms.check_can_host(interaction, self.game_key, channel=channel)
        new = await self.service.create(self.game_key, guild_id=match.rec.guild_id, channel_id=channel.id,
                                        host=host, opponent=opp, options=options, turn_limit=match.rec.turn_limit)
        if new.status == Status.RUNNING:  # against the computer: at once
            await interaction.response.edit_message(view=None)
            names = " vs ".join(shown(s.name) for s in new.seats)
            header = discord.Embed(title=f"{self.spec.title}: {names} (rematch)", colour=COLOUR_OK,
                                   description=self.options_summary(new))
            header_msg = await channel.send(embed=header, allowed_mentions=NO_MENTIONS)  # type: ignore[union-attr]
            settings = await self.service.settings(new.rec.guild_id)
            await self.open_match(channel, header_msg, new, Result(new, started=True),
                                  use_threads=settings.use_threads and not _perms.thread_blockers(interaction, channel))
            url = header_msg.jump_url
        else:
            await interaction.response.edit_message(view=None)
            embed, view = self.invite_message(new)
            pinged = [s.user_id for s in others if not s.is_ai]
            content = " ".join(f"<@{u}>" for u in pinged) + f" rematch of {self.spec.title} #{match.id}?"
            msg = await channel.send(content=content.strip(), embed=embed, view=view,  # type: ignore[union-attr]
                                     allowed_mentions=mentions_of(pinged))
            await self.service.set_place(new.id, message_id=msg.id)
            url = msg.jump_url
        await self.service.set_ui(match.id, {"rematch": url})

    async def present_timeout(self, result: Result) -> None:
        """The scheduler's expiry of a challenge, lobby, turn or clock."""
        match = result.match
        if match.status == Status.EXPIRED:
            place = await self.place_of(match)
            if place is not None and match.rec.message_id is not None:
                embed, view = self.invite_message(match)
                try:
                    await place.get_partial_message(match.rec.message_id).edit(  # type: ignore[attr-defined]
                        embed=embed, view=view, content=None)
                except discord.HTTPException:
                    pass
            return
        await self.refresh_board(match, result)
        await self.after_result(match, result)

    # ---------------------------------------------------------------- private channels

    def jump_url(self, match: Match) -> str:
        url = f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{match.rec.place_id}"
        return url + (f"/{match.rec.message_id}" if match.rec.message_id else "")

    async def private_payload(self, match: Match, seat: int, key: str) -> dict[str, Any]:
        """What a private message (DM or its ephemeral fallback) shows; games override."""
        return {"content": "Nothing private here."}

    async def send_private(self, match: Match, seat: int, key: str, *, notice: str = "") -> bool:
        """DM a player (``key`` names what: "hand", "program", "permission"...).

        Every DM names its match and links back to it. When the player's DMs are
        closed (Discord error 50007) the match's place gets a message asking them
        to press a button that shows the same content ephemerally. Returns
        whether the DM went through.
        """
        rec = match.seats[seat]
        payload = await self.private_payload(match, seat, key)
        header = f"**{self.spec.title} #{match.id}** · [back to the match]({self.jump_url(match)})"
        payload["content"] = (header + ("\n" + payload["content"] if payload.get("content") else ""))[:2000]
        try:
            user = self.bot.get_user(rec.user_id) or await self.bot.fetch_user(rec.user_id)
            await user.send(**payload, allowed_mentions=NO_MENTIONS)
            return True
        except discord.Forbidden:
            place = await self.place_of(match)
            if place is None:
                return False
            view = v.view_of(v.button(match.id, None, f"pv:{seat}:{key}", label="Show privately",
                                      style=discord.ButtonStyle.primary, emoji="🔒"))
            text = (f"<@{rec.user_id}>, I cannot DM you (your DMs are closed). "
                    f"{notice or 'Press the button to see it privately here.'}")
            await place.send(text[:2000], view=view,
                             allowed_mentions=discord.AllowedMentions(users=[discord.Object(rec.user_id)]))
            return False
        except discord.HTTPException:
            log.warning("DM to %s for match %s failed", rec.user_id, match.id, exc_info=True)
            return False

    async def show_private(self, interaction: discord.Interaction, match: Match, seat: int, key: str) -> None:
        """The ephemeral fallback of :meth:`send_private` (only for that player)."""
        if match.seat_of(interaction.user.id) != seat:
            raise NotAPlayer("That button is for another player.")
        payload = await self.private_payload(match, seat, key)
        await interaction.response.send_message(**payload, ephemeral=True)

    async def dms_open(self, user: discord.abc.User, text: str) -> bool:
        """Try a DM now (on joining a game that uses DMs) and tell whether it went through."""
        try:
            await user.send(text[:2000], allowed_mentions=NO_MENTIONS)
            return True
        except discord.Forbidden:
            return False

    # ---------------------------------------------------------------- shared subcommands

    @app_commands.command(name="move", description="Play a move in the game's notation")
    @app_commands.describe(notation="Your move, e.g. as shown in /rules")
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:
        match = await self.match_here(interaction)
        seat = match.seat_of(interaction.user.id)
        if seat is not None and seat in match.to_act():
            move = match.rules.parse(notation, match.state, seat)
            canonical = match.rules.format(move, match.state)
            warning = self.confirm_text(match, canonical)
            if warning:
                view = v.view_of(v.button(match.id, match.version, f"cf:{canonical}", label=f"Yes, play {canonical}",
                                          style=discord.ButtonStyle.danger))
                await interaction.response.send_message(warning, view=view, ephemeral=True)
                return
        old_message = match.rec.message_id
        result = await self.service.play(match.id, interaction.user.id, notation)
        result = await self.ai_at_once(result)
        await self.reply_with_board(interaction, result, old_message)
        await self.after_result(result.match, result)

    async def reply_with_board(self, interaction: discord.Interaction, result: Result,
                               old_message: int | None) -> None:
        """A typed move's answer: the new board as the reply, pinging whoever's turn began (1 request); the
        old board becomes an earlier position with a link to the new one (1)."""
        match = result.match
        kwargs = await self.board_kwargs(match, result)
        thread_seats, _ = await self.pending_pings(match, result)
        users = [match.seats[s].user_id for s in thread_seats]
        content = self.join_content(self.turns.ping_text(match, thread_seats, self.spec.title) if users else None,
                                    kwargs.pop("content", None))
        try:
            cb = await interaction.response.send_message(content=content, **kwargs,
                                                         allowed_mentions=mentions_of(users))
        except discord.HTTPException:
            log.warning("the reply to a move in match %s failed; re-posting its board", match.id, exc_info=True)
            await self.recover_later(match.id, result)  # the move stands: its board goes out another way
            return
        result.notified.update(thread_seats)
        url = self.place_url(match)
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_place(match.id, message_id=cb.resource.id)
            match.rec.message_id = cb.resource.id
            url = cb.resource.jump_url
        if old_message and old_message != match.rec.message_id and interaction.channel is not None:
            await self.retire(interaction.channel, match, old_message, url)

    @move.autocomplete("notation")
    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await self.move_choices(interaction, current)

    async def move_choices(self, interaction: discord.Interaction, current: str, *,
                           only_to_act: bool = True) -> list[app_commands.Choice[str]]:
        """Autocomplete for ``move``: suggestions for the caller's match here (games override suggestions)."""
        try:
            match = await self.match_here(interaction)
        except ParlorError:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or (only_to_act and seat not in match.to_act()):
            return []
        return [app_commands.Choice(name=name[:100], value=value[:100])
                for name, value in self.suggestion_pairs(match, seat, current)[:25]]

    def suggestion_pairs(self, match: Match, seat: int, current: str) -> list[tuple[str, str]]:
        return [(s, s) for s in self.suggestions(match, seat, current)]

    async def check_picker(self, interaction: discord.Interaction, match: Match, version: int | None) -> int:
        """Before a multi-step picker changes: the board is current and the clicker is the one to move."""
        if version is None or version != match.version:  # a board control always carries its version
            raise StaleBoard("This board is out of date: the position has changed. Use the newest board.")
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer("You are not playing in this match.")
        if seat not in match.to_act():
            raise NotYourTurn("It is not your turn.")
        return seat

    def confirm_text(self, match: Match, notation: str) -> str | None:
        """A warning to confirm before playing ``notation`` (Fire and Ice: it hands the opponent the win)."""
        return None

    def suggestions(self, match: Match, seat: int, current: str) -> list[str]:
        moves = match.rules.legal_moves(match.state, seat)
        texts = [match.rules.format(mv, match.state) for mv in moves]
        cur = current.strip().lower().replace(" ", "")
        return [t for t in texts if t.lower().replace(" ", "").startswith(cur)]

    @app_commands.command(name="board", description="Show the board of the match here (or of the last one that ended)")
    @app_commands.describe(public="Post it for everyone (a running match's board moves down here) instead of "
                                  "only for you")
    async def board(self, interaction: discord.Interaction, public: bool = False) -> None:
        try:
            match = await self.match_here(interaction)
        except NoMatchHere:
            found = await self.service.latest_finished(interaction.channel_id or 0, self.game_key)
            if found is None:
                raise
            match = found
        if public and match.status == Status.RUNNING:  # a re-post: the new live board, the old one retired
            old = match.rec.message_id
            kwargs = await self.board_kwargs(match, None)
            cb = await interaction.response.send_message(**kwargs, allowed_mentions=NO_MENTIONS)
            if isinstance(cb.resource, discord.InteractionMessage):
                await self.service.set_place(match.id, message_id=cb.resource.id)
                match.rec.message_id = cb.resource.id
                if old and old != cb.resource.id and interaction.channel is not None:
                    await self.retire(interaction.channel, match, old, cb.resource.jump_url)
            return
        kwargs = await self.board_kwargs(match, None)
        kwargs.pop("view")
        kwargs.pop("content", None)
        await interaction.response.send_message(**kwargs, ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="resign", description="Resign the match here (asks to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        if match.seat_of(interaction.user.id) is None:
            raise NotAPlayer("You are not playing in this match.")
        view = v.view_of(v.button(match.id, None, "resign!", label="Yes, resign",
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message("Resign this match? It counts as a loss.", view=view,
                                                ephemeral=True)

    async def do_resign(self, interaction: discord.Interaction, match: Match) -> None:
        result = await self.service.resign(match.id, interaction.user.id)
        await interaction.response.edit_message(content="You resigned.", view=None)
        await self.refresh_board(result.match, result)
        await self.after_result(result.match, result)

    @app_commands.command(name="rules", description="How to play, in short (with our rulings and the notation)")
    async def rules_cmd(self, interaction: discord.Interaction) -> None:
        text = rules_text(self.game_key)
        embed = discord.Embed(title=f"{self.spec.title}: rules", description=text[:4096], colour=COLOUR_INFO)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The moves of the match here so far")
    async def history(self, interaction: discord.Interaction) -> None:
        try:
            match = await self.match_here(interaction)
        except NoMatchHere:
            found = await self.service.latest_finished(interaction.channel_id or 0, self.game_key)
            match = found if found is not None else await self.match_here(interaction, running=False)
        moves = await self.service.history(match.id)
        lines = self.history_lines(match, moves)
        if not lines:
            lines = ["No moves yet."]
        text = "\n".join(lines)
        if len(text) > 4000:
            text = "…\n" + text[-3990:]
        embed = discord.Embed(title=f"{self.spec.title} #{match.id}: moves", description=text, colour=COLOUR_INFO)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    def history_lines(self, match: Match, moves: Sequence[Any]) -> list[str]:
        out = []
        n = 0
        for mv in moves:
            if mv.seat == CHANCE:
                out.append(f"   🎲 `{mv.notation}`")
                continue
            n += 1
            out.append(f"{n}. {shown(match.seats[mv.seat].name) if mv.seat < len(match.seats) else '?'}: `{mv.notation}`")
        return out



def ended_view(view: Any, outcome: Any) -> Any:
    """A game's view as if its engine had ended the game with ``outcome`` (resignation, timeout, abort):
    nobody to move, the winner set, where the view has such fields (Pylon, Fire and Ice, the Egg Carton
    Game); other views are returned unchanged."""
    if not dataclasses.is_dataclass(view):
        return view
    names = {f.name for f in dataclasses.fields(view)}
    winners = sorted(outcome.winners)
    changes: dict[str, Any] = {}
    if "to_move" in names:
        changes["to_move"] = None
    if "winner" in names:
        changes["winner"] = winners[0] if len(winners) == 1 else None
    if "is_over" in names:
        changes["is_over"] = True
    if "is_draw" in names:
        changes["is_draw"] = outcome.is_draw
    if "again" in names:
        changes["again"] = False
    if "detail" in names and isinstance(getattr(view, "detail", None), str):
        changes["detail"] = (outcome.detail or "").rstrip(".")
    if "phase" in names and "outcome" in names:
        changes["phase"], changes["outcome"] = "over", outcome
    return dataclasses.replace(view, **changes)


def result_band(png: bytes, text: str) -> bytes:
    """The picture with a band below it saying how the match ended (resignation, timeout, abort)."""
    from PIL import Image, ImageDraw

    img = Image.open(io.BytesIO(png)).convert("RGB")
    band = max(40, img.height // 12)
    out = Image.new("RGB", (img.width, img.height + band), CARD)
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, img.height, img.width, img.height + 3), fill=ACCENT)
    size = max(14, band // 2)
    fnt = font(size, bold=True)
    while size > 10 and draw.textlength(text, font=fnt) > img.width - 20:
        size -= 1
        fnt = font(size, bold=True)
    draw.text((img.width / 2, img.height + band / 2 + 2), text, font=fnt, fill=ACCENT, anchor="mm")
    return png_bytes(out)


def picture_file(data: bytes, filename: str) -> discord.File:
    """Encoded picture bytes as an attachment."""
    return discord.File(fp=io.BytesIO(data), filename=filename)


def game_cog(bot: ParlorBot, game: str) -> GameCog | None:
    """The loaded cog of ``game`` (the client keeps them only as :class:`bot.app.GameFrontend`)."""
    cog = bot.game_cogs.get(game)
    return cog if isinstance(cog, GameCog) else None
