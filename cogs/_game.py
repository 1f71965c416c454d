"""The shape every game shares: ``/<game> new|move|board|resign|rules|history``.

A game cog subclasses :class:`GameCog`, declares its own ``new`` command (its
options differ) and, where the board needs more than "type a move", overrides
:meth:`GameCog.components` and :meth:`GameCog.on_action` for its buttons. The
flow is always: parse input → ``MatchService`` (commits) → render off the
event loop → one response.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
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
from bot.render import png_bytes
from bot.storage import Status
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
COLOUR_OK = discord.Colour.from_rgb(87, 242, 135)
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
    pkg = GAMES[game_key].package
    path = Path(__file__).resolve().parent.parent / "bot" / "games" / pkg / "rules_text.md"
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

    async def create_match(self, interaction: discord.Interaction, *, opponent: discord.abc.User | None,
                           level: str | None, options: dict[str, str], turn_limit: int | None) -> None:
        """``/<game> new``: a challenge, a lobby, or a match against the bot."""
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
            opponent=opp, options=options, turn_limit=turn_limit,
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
        place: discord.abc.Messageable | None = None
        if use_threads and header_msg is not None and isinstance(interaction.channel, discord.TextChannel):
            try:
                thread_name = f"{self.spec.title}: " + " vs ".join(plain(s.name) for s in match.seats)
                thread = await header_msg.create_thread(name=thread_name[:100],
                                                        auto_archive_duration=1440)
                place = thread
                await self.service.set_place(match.id, thread_id=thread.id)
                match.rec.thread_id = thread.id
            except discord.HTTPException as exc:
                log.info("thread creation refused (%s); playing in the channel", exc)
        if place is None:
            place = interaction.channel  # type: ignore[assignment]
        await self.post_board(place, match, result)
        await self.after_result(match, result)

    async def post_board(self, place: discord.abc.Messageable | None, match: Match, result: Result | None) -> None:
        """Send a fresh board message and remember it as the match's board."""
        if place is None:
            place = await self.place_of(match)
        if place is None:
            return
        kwargs = await self.board_kwargs(match, result)
        mention = self.turn_mentions(match)
        try:
            msg = await place.send(**kwargs, allowed_mentions=mention)
        except discord.NotFound as exc:
            if exc.code != 10003:
                raise
            await self.bot.place_gone(match)  # deleted without our noticing (10003): abort it, unrated
            return
        await self.service.set_place(match.id, message_id=msg.id)
        match.rec.message_id = msg.id

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

    def turn_mentions(self, match: Match) -> discord.AllowedMentions:
        return discord.AllowedMentions(users=[discord.Object(s.user_id) for s in match.seats
                                              if s.seat in match.to_act() and not s.is_ai],
                                       everyone=False, roles=False, replied_user=False)

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
        embed.set_footer(text=f"Match #{match.id} · move {self.moves_played(match)} · "
                              f"/{self.game_key} move to type a move")
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
        return png_bytes(img)

    async def picture(self, match: Match, result: Result | None) -> discord.File:
        data = await asyncio.to_thread(self.render_picture, match, result)
        return picture_file(data, self.picture_name(match, result))

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        """The board's buttons/selects for the current position (``state`` for multi-step pickers)."""
        return []

    async def board_kwargs(self, match: Match, result: Result | None, state: str = "") -> dict[str, Any]:
        file = await self.picture(match, result)
        items = self.components(match, state) if match.status == Status.RUNNING else []
        return {"embed": self.board_embed(match, result), "file": file, "view": v.view_of(*items)}

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
        if action.startswith("m:"):
            await self.play_from_component(interaction, match.id, version, action[2:])
            return
        if action.startswith("cf:"):  # confirmed from an ephemeral warning: the board is another message
            result = await self.service.play(match.id, interaction.user.id, action[3:], expected_version=version)
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
        kwargs = await self.board_kwargs(result.match, result)
        file = kwargs.pop("file")
        await interaction.response.edit_message(**kwargs, attachments=[file])
        await self.after_result(result.match, result)

    async def edit_board(self, interaction: discord.Interaction, match: Match, state: str) -> None:
        """Show a different step of a multi-step picker (no move; no new picture)."""
        view = v.view_of(*self.components(match, state))
        await interaction.response.edit_message(view=view)

    # ---------------------------------------------------------------- after a move

    async def after_result(self, match: Match, result: Result) -> None:
        """Result message at the end, private follow-ups, and the computer's reply."""
        await self.after_move_private(match, result)
        if result.finished and match.status == Status.FINISHED:
            await self.announce_result(match, result)
        elif result.ai_next:
            self.schedule_ai(match.id)

    async def after_move_private(self, match: Match, result: Result) -> None:
        """Games with hidden information send DMs here."""

    def schedule_ai(self, match_id: int) -> None:
        task = asyncio.create_task(self._ai_turn(match_id))
        self._ai_tasks.add(task)
        task.add_done_callback(self._ai_tasks.discard)

    async def _ai_turn(self, match_id: int) -> None:
        try:
            result = await self.service.ai_move(match_id)
            if result is None:
                return
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
        except Exception:
            log.exception("computer move in match %s failed", match_id)

    async def refresh_board(self, match: Match, result: Result | None) -> None:
        """Edit the stored board message (moves not made by a click: AI, timeouts)."""
        place = await self.place_of(match)
        if place is None or match.rec.message_id is None:
            await self.post_board(place, match, result)
            return
        kwargs = await self.board_kwargs(match, result)
        file = kwargs.pop("file")
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
        await place.send(embed=embed, allowed_mentions=NO_MENTIONS)

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
        await self.reply_with_board(interaction, result, old_message)
        await self.after_result(result.match, result)

    async def reply_with_board(self, interaction: discord.Interaction, result: Result,
                               old_message: int | None) -> None:
        """A typed move's answer: the new board as the reply (1 request); the old board loses its buttons (1)."""
        kwargs = await self.board_kwargs(result.match, result)
        cb = await interaction.response.send_message(**kwargs, allowed_mentions=self.turn_mentions(result.match))
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_place(result.match.id, message_id=cb.resource.id)
            result.match.rec.message_id = cb.resource.id
        if old_message and interaction.channel is not None:
            try:  # the old board keeps its picture but loses its (now stale) buttons
                await interaction.channel.get_partial_message(old_message).edit(view=None)  # type: ignore[union-attr]
            except discord.HTTPException:
                pass

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

    @app_commands.command(name="board", description="Show the current board of the match here")
    async def board(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        kwargs = await self.board_kwargs(match, None)
        kwargs.pop("view")
        await interaction.response.send_message(**kwargs, ephemeral=True)

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
        match = await self.match_here(interaction, running=False)
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



def picture_file(data: bytes, filename: str) -> discord.File:
    """Encoded picture bytes as an attachment."""
    return discord.File(fp=io.BytesIO(data), filename=filename)
