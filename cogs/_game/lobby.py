"""Challenges and lobbies: creating a match, the invite, joining, starting, watching, rematch."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import LobbyError, NotAPlayer
from bot.i18n import _
from bot.matches.service import Match, Player, Result
from bot.names import plain, shown, versus
from bot.storage import Status
from bot.turns import mentions_of
from cogs import _perms

if TYPE_CHECKING:
    pass
from cogs._game.base import (
    COLOUR_OK,
    NO_MENTIONS,
    in_channel,
)
from cogs._game.play import PlayCog

log = logging.getLogger(__name__)


class LobbyCog(PlayCog):
    """Challenges and lobbies: creating a match, the invite, joining, starting, watching, rematch."""

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
            parent = f"<#{channel.parent_id}>" if channel.parent_id else _("the channel")
            raise LobbyError(_(
                "This thread belongs to {game} match #{match}, which is still on: one match per thread. "
                "Start a new match in {channel}.", game=m.game.rules.spec.title, match=m.id, channel=parent))

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
                    raise LobbyError(
                        _("{game} has no computer opponent; challenge a member instead.",
                          game=self.spec.title)
                    )
                lvl = level or self.default_level()
                opp = Player(opponent.id, f"{self.bot.user.display_name} ({lvl})", lvl)
            elif opponent.bot:
                raise LobbyError(
                    _("Bots cannot play here (except me: pick me as the opponent to play the computer).")
                )
            else:
                opp = await self.player_for(opponent)
        if interaction.guild_id is None:
            raise LobbyError(_("Start matches in a server channel."))
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

    async def _announce_start(self, interaction: discord.Interaction, match: Match, result: Result, *,
                              response: bool) -> None:
        """Post the started match: a header message, its thread (setting), the first board."""
        settings = await self.service.settings(match.rec.guild_id)
        with in_channel(match):  # posted in the channel: the server's language
            names = versus(shown(s.name) for s in match.seats)
        use_threads = settings.use_threads and not _perms.thread_blockers(interaction)
        note = settings.use_threads and not use_threads
        if response:
            with in_channel(match):  # the header is posted in the channel: the server's language
                header = discord.Embed(title=f"{self.spec.title}: {names}"[:256], colour=COLOUR_OK,
                                       description=self.options_summary(match))
                if note:
                    header.description = f"{header.description}\n{_perms.thread_note(interaction)}"
            cb = await interaction.response.send_message(embed=header, allowed_mentions=NO_MENTIONS)
            header_msg: discord.Message | None = (
                cb.resource if isinstance(cb.resource, discord.InteractionMessage) else None
            )
        else:
            with in_channel(match):  # the challenge or lobby message it was, in the channel
                embed, _view = self.invite_message(match)
                embed.description = _("Started: {players}.", players=names)
                if note:
                    embed.description += "\n" + _perms.thread_note(interaction)
            await interaction.response.edit_message(embed=embed, view=None, content=None)
            header_msg = interaction.message
        await self.open_match(interaction.channel, header_msg, match, result, use_threads=use_threads)

    async def open_match(
        self,
        channel: Any,
        header_msg: discord.Message | None,
        match: Match,
        result: Result,
        *,
        use_threads: bool,
    ) -> None:
        """The match's thread (from its header message), its players added to it, the first board."""
        place: discord.abc.Messageable | None = None
        if use_threads and header_msg is not None and isinstance(channel, discord.TextChannel):
            try:
                with in_channel(match):  # the thread's name is read in the server's language
                    thread_name = f"{self.spec.title}: " + versus(plain(s.name) for s in match.seats)
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
        if header_msg is not None:
            # The header (the challenge or lobby message once started) lives in the channel the match was
            # started from: not a board to retire through the thread; it shows the result at the end.
            if match.rec.message_id == header_msg.id:
                match.rec.message_id = None
            match.rec.ui["header"] = header_msg.id
            await self.service.set_ui(match.id, {"header": header_msg.id})
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

    async def do_watch(self, interaction: discord.Interaction, match: Match) -> None:
        """The board's Watch button: the user is added to the match thread."""
        if match.seat_of(interaction.user.id) is not None:
            await interaction.response.send_message(
                _("You are playing in this match: the thread is yours already."), ephemeral=True
            )
            return
        if match.rec.thread_id is None or not await self.add_to_thread(match, interaction.user.id):
            raise LobbyError(_("This match has no thread to watch; its board is in this channel."))
        await interaction.response.send_message(
            _("You are watching {game} #{match}: the thread shows in your channel list.",
              game=self.spec.title, match=match.id),
            ephemeral=True,
        )

    async def do_rematch(self, interaction: discord.Interaction, match: Match) -> None:
        """Same game, same options, seats swapped; offered in the channel where the match was started."""
        if match.status != Status.FINISHED:
            raise LobbyError(_("A rematch can be asked for once the match is over."))
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(_("Only the players of this match can ask for a rematch."))
        if match.rec.ui.get("rematch"):
            raise LobbyError(_("A rematch was already offered: {url}", url=match.rec.ui["rematch"]))
        channel = self.bot.get_channel(match.rec.channel_id) or await self.bot.fetch_channel(
            match.rec.channel_id
        )
        host = await self.player_for(interaction.user)
        options = dict(match.options)
        others = [s for s in match.seats if s.seat != seat]
        opp: Player | None = None
        if len(match.seats) == 2:
            o = others[0]
            opp = Player(o.user_id, o.name, o.ai_level)
            options["first"] = "challenger" if seat == 1 else "opponent"  # the other seat opens this time
        _perms.check_can_host(interaction, self.game_key, channel=channel)
        new = await self.service.create(
            self.game_key,
            guild_id=match.rec.guild_id,
            channel_id=channel.id,
            host=host,
            opponent=opp,
            options=options,
            turn_limit=match.rec.turn_limit,
        )
        if new.status == Status.RUNNING:  # against the computer: at once
            await interaction.response.edit_message(view=None)
            with in_channel(new):
                names = versus(shown(s.name) for s in new.seats)
                header = discord.Embed(title=_("{game}: {players} (rematch)", game=self.spec.title,
                                               players=names),
                                       colour=COLOUR_OK, description=self.options_summary(new))
            header_msg = await channel.send(embed=header, allowed_mentions=NO_MENTIONS)  # type: ignore[union-attr]
            settings = await self.service.settings(new.rec.guild_id)
            await self.open_match(
                channel,
                header_msg,
                new,
                Result(new, started=True),
                use_threads=settings.use_threads and not _perms.thread_blockers(interaction, channel),
            )
            url = header_msg.jump_url
        else:
            await interaction.response.edit_message(view=None)
            embed, view = self.invite_message(new)
            pinged = [s.user_id for s in others if not s.is_ai]
            with in_channel(new):
                asked = _("rematch of {game} #{match}?", game=self.spec.title, match=match.id)
            content = " ".join(f"<@{u}>" for u in pinged) + " " + asked
            msg = await channel.send(content=content.strip(), embed=embed, view=view,  # type: ignore[union-attr]
                                     allowed_mentions=mentions_of(pinged))
            await self.service.set_place(new.id, message_id=msg.id)
            url = msg.jump_url
        await self.service.set_ui(match.id, {"rematch": url})
