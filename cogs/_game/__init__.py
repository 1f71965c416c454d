"""The shape every game shares: ``/<game> new|move|board|resign|rules|history``.

A game cog subclasses :class:`GameCog`, declares its own ``new`` command (its
options differ) and, where the board needs more than "type a move", overrides
:meth:`GameCog.components` and :meth:`GameCog.on_action` for its buttons. The
flow is always: parse input → ``MatchService`` (commits) → render off the
event loop → one response.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import LobbyError, NoMatchHere, NotAPlayer, NotYourTurn, ParlorError, StaleBoard
from bot.games.base import CHANCE
from bot.i18n import _
from bot.matches.service import Match, Result
from bot.names import shown
from bot.storage import Status
from bot.turns import mentions_of
from cogs import _views as v

if TYPE_CHECKING:
    from bot.app import ParlorBot
from cogs._game import history as history_pages
from cogs._game import replay as replays
from cogs._game.base import (
    COLOUR_END,
    COLOUR_INFO,
    COLOUR_OK,
    COLOUR_OLD,
    EXPIRY_CHOICES,
    FIRST_CHOICES,
    NO_MENTIONS,
    TURN_LIMITS,
    for_reader,
    human_seconds,
    in_channel,
    picture_file,
    result_band,
    rules_text,
)
from cogs._game.board import draw_off_loop_if_long
from cogs._game.describe import text_for
from cogs._game.learn import LearnCog
from cogs._game.records import RECORD_ACTION, RecordsCog
from cogs._game.replay import ReplayCog
from cogs._game.rules import RulesCog

log = logging.getLogger(__name__)

__all__ = [
    "AI_AT_ONCE",
    "COLOUR_END",
    "COLOUR_INFO",
    "COLOUR_OK",
    "COLOUR_OLD",
    "EXPIRY_CHOICES",
    "FIRST_CHOICES",
    "NO_MENTIONS",
    "TURN_LIMITS",
    "GameCog",
    "draw_off_loop_if_long",
    "game_cog",
    "human_seconds",
    "picture_file",
    "result_band",
    "rules_text",
]


class GameCog(RecordsCog, ReplayCog, LearnCog, RulesCog):
    """Shared subcommands and presentation for one game: playing (components, text moves, the computer)
    and the
    subcommands; the parts below it are in this package (base, board, private, play, lobby)."""

    def __init__(self, bot: ParlorBot) -> None:
        super().__init__(bot)
        bot.game_cogs[self.game_key] = self  # how the client reaches this game (bot.app.GameFrontend)

    async def on_component(self, interaction: discord.Interaction, match: Match, version: int | None,
                           action: str, values: list[str]) -> None:
        if action in ("accept", "decline", "cancel", "join", "leave", "start"):
            await self.on_lobby_action(interaction, match, action)
            return
        if action.startswith("pv:"):
            pv = re.fullmatch(r"pv:(\d{1,3}):(\w{1,20})", action)
            if pv is None:
                raise StaleBoard(_("That button does nothing any more."))
            await self.show_private(interaction, match, int(pv[1]), pv[2])
            return
        if action.startswith(replays.ACTIONS):
            await self.on_replay_action(interaction, match, action, values)
            return
        if action.startswith(history_pages.ACTION):
            await self.history_page(interaction, match, action)
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
        if action == RECORD_ACTION:
            await self.send_record(interaction, match)
            return
        if action.startswith("m:"):
            await self.play_from_component(interaction, match.id, version, action[2:], loaded=match)
            return
        if action.startswith("cf:"):  # confirmed from an ephemeral warning: the board is another message
            result = await self.service.play(
                match.id, interaction.user.id, action[3:], expected_version=version
            )
            result = await self.ai_at_once(result)
            await interaction.response.edit_message(content=_("Played `{move}`.", move=action[3:]), view=None)
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
            return
        if action == "mv" and values:
            await self.play_from_component(interaction, match.id, version, values[0], loaded=match)
            return
        await self.on_action(interaction, match, version, action, values)

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        raise LobbyError(_("That button does nothing any more."))

    # Command descriptions: the commands catalog translates them (bot/i18n/commands.py), not _().
    @app_commands.command(name="move",
                          description="Play a move in the game's notation")
    @app_commands.describe(notation="Your move, e.g. as shown in /rules")
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:
        match = await self.match_here(interaction)
        seat = match.seat_of(interaction.user.id)
        if seat is not None and seat in match.to_act():
            move = match.rules.parse(notation, match.state, seat)
            canonical = match.rules.format(move, match.state)
            warning = self.confirm_text(match, canonical)
            if warning:
                view = v.view_of(
                    v.button(
                        match.id,
                        match.version,
                        f"cf:{canonical}",
                        label=_("Yes, play {move}", move=canonical),
                        style=discord.ButtonStyle.danger,
                    )
                )
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
        with in_channel(match):  # the board is the channel's, though it answers the player's command
            kwargs = await self.board_kwargs(match, result)
            thread_seats, _dms = await self.pending_pings(match, result)
            content = self.turn_content(match, thread_seats, kwargs.pop("content", None))
        users = [match.seats[s].user_id for s in thread_seats]
        try:
            cb = await interaction.response.send_message(content=content, **kwargs,
                                                         allowed_mentions=mentions_of(users))
        except discord.HTTPException:
            log.warning(
                "the reply to a move in match %s failed; re-posting its board", match.id, exc_info=True
            )
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
            raise StaleBoard(_("This board is out of date: the position has changed. Use the newest board."))
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(_("You are not playing in this match."))
        if seat not in match.to_act():
            raise NotYourTurn(_("It is not your turn."))
        return seat

    def confirm_text(self, match: Match, notation: str) -> str | None:
        """A warning to confirm before playing ``notation`` (Fire and Ice: it hands the opponent the win)."""
        return None

    def suggestions(self, match: Match, seat: int, current: str) -> list[str]:
        moves = match.rules.legal_moves(match.state, seat)
        texts = [match.rules.format(mv, match.state) for mv in moves]
        cur = current.strip().lower().replace(" ", "")
        return [t for t in texts if t.lower().replace(" ", "").startswith(cur)]

    @app_commands.command(
        name="board",
        description=(
            "Show the board of the match here (or of the last one that ended)"
        ),
    )
    @app_commands.describe(
        public=(
            "Post it for everyone (a running match's board moves down here) "
            "instead of only for you"
        ),
        text=(
            "Also give the position as text "
            "(for screen readers, or if you prefer text)"
        ),
    )
    async def board(self, interaction: discord.Interaction, public: bool = False, text: bool = False) -> None:
        try:
            match = await self.match_here(interaction)
        except NoMatchHere:
            found = await self.service.latest_finished(interaction.channel_id or 0, self.game_key)
            if found is None:
                raise
            match = found
        if public and match.status == Status.RUNNING:  # a re-post: the new live board, the old one retired
            old = match.rec.message_id
            with in_channel(match):
                kwargs = await self.board_kwargs(match, None)
                if text:
                    kwargs["content"] = text_for(self.game_key, match, match.seat_of(interaction.user.id))
            cb = await interaction.response.send_message(**kwargs, allowed_mentions=NO_MENTIONS)
            if isinstance(cb.resource, discord.InteractionMessage):
                await self.service.set_place(match.id, message_id=cb.resource.id)
                match.rec.message_id = cb.resource.id
                if old and old != cb.resource.id and interaction.channel is not None:
                    await self.retire(interaction.channel, match, old, cb.resource.jump_url)
            return
        # posted: the server's language; only for the caller: theirs
        with in_channel(match) if public else for_reader():
            kwargs = await self.board_kwargs(match, None)
            kwargs.pop("view")
            kwargs.pop("content", None)
            if text:  # the caller's own view when only they see it (their hand in EOF), else the channel's
                seat = match.seat_of(interaction.user.id)
                kwargs["content"] = text_for(self.game_key, match, seat,
                                             private=not public and seat is not None)
        await interaction.response.send_message(**kwargs, ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="resign",
        description="Resign the match here (asks to confirm)",
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        if match.seat_of(interaction.user.id) is None:
            raise NotAPlayer(_("You are not playing in this match."))
        view = v.view_of(v.button(match.id, None, "resign!", label=_("Yes, resign"),
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message(_("Resign this match? It counts as a loss."), view=view,
                                                ephemeral=True)

    async def do_resign(self, interaction: discord.Interaction, match: Match) -> None:
        result = await self.service.resign(match.id, interaction.user.id)
        await interaction.response.edit_message(content=_("You resigned."), view=None)
        await self.refresh_board(result.match, result)
        await self.after_result(result.match, result)

    @app_commands.command(
        name="history",
        description="The moves of the match here, or replay any match of "
                    "this server by its number",
    )
    @app_commands.describe(
        match=(
            "A match's number (shown on its boards): replay it, move by move"
        ),
        move="With match: the move to open the replay at (0 = the start)",
    )
    async def history(self, interaction: discord.Interaction, match: app_commands.Range[int, 1] | None = None,
                      move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        if match is not None:
            await self.replay_command(interaction, match, move)
            return
        try:
            found_match = await self.match_here(interaction)
        except NoMatchHere:
            found = await self.service.latest_finished(interaction.channel_id or 0, self.game_key)
            found_match = found if found is not None else await self.match_here(interaction, running=False)
        lines = await self.history_of(found_match)
        await interaction.response.send_message(
            **history_pages.reply_kwargs(found_match.id, self.history_title(found_match), lines, COLOUR_INFO),
            ephemeral=True, allowed_mentions=NO_MENTIONS)

    @history.autocomplete("match")
    async def history_match_autocomplete(self, interaction: discord.Interaction,
                                         current: str) -> list[app_commands.Choice[int]]:
        return await replays.match_choices(self.bot, interaction, current, self.game_key)

    async def history_page(self, interaction: discord.Interaction, match: Match, action: str) -> None:
        """◀ ▶ under a long history: that page, recomputed from the log (1 request)."""
        page = re.fullmatch(r"hp:(\d{1,4})", action)
        if page is None or int(page[1]) < 1:
            raise StaleBoard(_("That button does nothing any more."))
        pages = history_pages.pages_of(await self.history_of(match))
        n = min(int(page[1]), len(pages))
        await interaction.response.edit_message(
            embed=history_pages.page_embed(self.history_title(match), pages, n, COLOUR_INFO),
            view=history_pages.page_view(match.id, len(pages), n))

    async def history_of(self, match: Match) -> list[str]:
        return self.history_lines(match, await self.service.history(match.id)) or [_("No moves yet.")]

    def history_title(self, match: Match) -> str:
        return _("{game} #{match}: moves", game=self.spec.title, match=match.id)

    def history_lines(self, match: Match, moves: Sequence[Any]) -> list[str]:
        out = []
        n = 0
        for mv in moves:
            if mv.seat == CHANCE:
                out.append(f"   🎲 `{mv.notation}`")
                continue
            n += 1
            out.append(
                f"{n}. {shown(match.seats[mv.seat].name) if mv.seat < len(match.seats) else '?'}: "
                f"`{mv.notation}`"
            )
        return out


def game_cog(bot: ParlorBot, game: str) -> GameCog | None:
    """The loaded cog of ``game`` (the client keeps them only as :class:`bot.app.GameFrontend`)."""
    cog = bot.game_cogs.get(game)
    return cog if isinstance(cog, GameCog) else None
