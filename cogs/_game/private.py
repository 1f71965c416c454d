"""Private messages (hidden hands, programs) and turn notices."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import NotAPlayer
from bot.i18n import _, language_of_guild, language_of_user, speaking
from bot.matches.service import Match, Result
from bot.turns import Notice, Sent
from cogs import _views as v

if TYPE_CHECKING:
    pass
from cogs._game.base import (
    NO_MENTIONS,
    in_channel,
)
from cogs._game.board import BoardCog, draw_off_loop_if_long
from cogs._game.describe import describe_board, last_in_words, text_boards_of, text_for

log = logging.getLogger(__name__)

PICTURE = "board.png"
"""The file name of a board drawn again for a DM in another language than the channel's (a still picture)."""


class PrivateCog(BoardCog):
    """Private messages (hidden hands, programs) and turn notices."""

    async def private_payload(self, match: Match, seat: int, key: str) -> dict[str, Any]:
        """What a private message (DM or its ephemeral fallback) shows; games override."""
        return {"content": _("Nothing private here.")}

    async def send_private(self, match: Match, seat: int, key: str, *, notice: str = "") -> bool:
        """DM a player (``key`` names what: "hand", "program", "permission"...).

        Every DM names its match and links back to it. When the player's DMs are
        closed (Discord error 50007) the match's place gets a message asking them
        to press a button that shows the same content ephemerally. Returns
        whether the DM went through. The DM is in the player's language, the message in the match's place
        in the server's.
        """
        rec = match.seats[seat]
        with speaking(language_of_user(rec.user_id, match.rec.guild_id)):
            payload = await self.private_payload(match, seat, key)
            header = _("**{game} #{match}** · [back to the match]({url})", game=self.spec.title,
                       match=match.id, url=self.jump_url(match))
        payload["content"] = (header + ("\n" + payload["content"] if payload.get("content") else ""))[:2000]
        try:
            user = self.bot.get_user(rec.user_id) or await self.bot.fetch_user(rec.user_id)
            await user.send(**payload, allowed_mentions=NO_MENTIONS)
            return True
        except discord.Forbidden:
            place = await self.place_of(match)
            if place is None:
                return False
            with in_channel(match):
                view = v.view_of(v.button(match.id, None, f"pv:{seat}:{key}", label=_("Show privately"),
                                          style=discord.ButtonStyle.primary, emoji="🔒"))
                mention = f"<@{rec.user_id}>"
                text = _("{player}, I cannot DM you (your DMs are closed). {what}", player=mention,
                         what=notice or _("Press the button to see it privately here."))
            await place.send(text[:2000], view=view,
                             allowed_mentions=discord.AllowedMentions(users=[discord.Object(rec.user_id)]))
            return False
        except discord.HTTPException:
            log.warning("DM to %s for match %s failed", rec.user_id, match.id, exc_info=True)
            return False

    async def show_private(self, interaction: discord.Interaction, match: Match, seat: int, key: str) -> None:
        """The ephemeral fallback of :meth:`send_private` (only for that player)."""
        if match.seat_of(interaction.user.id) != seat:
            raise NotAPlayer(_("That button is for another player."))
        payload = await self.private_payload(match, seat, key)
        await interaction.response.send_message(**payload, ephemeral=True)

    async def dms_open(self, user: discord.User | discord.Member, text: str) -> bool:
        """Try a DM now (on joining a game that uses DMs) and tell whether it went through."""
        try:
            await user.send(text[:2000], allowed_mentions=NO_MENTIONS)
            return True
        except discord.Forbidden:
            return False

    def by_language(self, match: Match, thread_seats: list[int],
                    dm_seats: list[int]) -> list[tuple[str, list[int], list[int]]]:
        """(language, thread seats, DM seats) for turn notices: the thread's ping in the server's language
        (with the DMs of players who read it too), each other language's DMs on their own."""
        guild = match.rec.guild_id
        channel_lang = language_of_guild(guild)
        groups: dict[str, list[int]] = {}
        for s in dm_seats:
            groups.setdefault(language_of_user(match.seats[s].user_id, guild), []).append(s)
        out = [(channel_lang, list(thread_seats), groups.pop(channel_lang, []))]
        out += [(lang, [], seats) for lang, seats in groups.items()]
        return [g for g in out if g[1] or g[2]]

    async def notify_turn(self, match: Match, result: Result) -> None:
        """Tell whoever was not told yet by the board itself (DMs; a thread ping when the board was
        edited): the thread's ping in the server's language, each DM in its reader's."""
        thread_seats, dm_seats = await self.pending_pings(match, result)
        if not thread_seats and not dm_seats:
            return
        result.notified.update(thread_seats + dm_seats)
        place = await self.place_of(match) if thread_seats or dm_seats else None
        sent: list[Sent] = []
        notice: Notice | None = None
        for lang, threads, dms in self.by_language(match, thread_seats, dm_seats):
            with speaking(lang):
                notice = self.turn_notice(match)
                last, picture = "", None
                texts: dict[int, tuple[str, str]] = {}
                if dms and notice is None:  # the DM says what the opponent played and shows the board
                    last = self.last_move_text(match, result)
                    picture = await self.dm_picture(match, result)
                    texts = await self.dm_texts(match, result, dms, picture[2] if picture else "")
                sent += await self.turns.deliver(match, threads, dms, self.spec.title, place, notice=notice,
                                                 last=last, picture=picture, texts=texts)
        await self.notices_sent(match, notice, sent)

    async def dm_picture(self, match: Match, result: Result) -> tuple[bytes, str, str] | None:
        """The board's picture for a DM turn notice in the current language: the one just drawn for the
        board, or, when the board was drawn in another language (the server's), drawn again in this one."""
        found = self.shown_picture(match)
        kept = (self._shown or {}).get(match.id)
        if found is not None or kept is None or kept[0] != match.version:
            return found
        data = await draw_off_loop_if_long(PICTURE, self._picture_bytes, match, result, PICTURE)
        return data, PICTURE, self.alt_text(match, result)

    async def dm_texts(self, match: Match, result: Result, seats: list[int],
                       alt: str) -> dict[int, tuple[str, str]]:
        """For the DM seats who chose text boards: the opponent's move in words and the board as text (their
        own view: the DM is theirs alone)."""
        users = await text_boards_of(self.bot).users(match.rec.guild_id)
        chosen = [s for s in seats if match.seats[s].user_id in users]
        if not chosen:
            return {}
        words = last_in_words(alt or describe_board(self.game_key, match, result))
        words = discord.utils.escape_markdown(words)
        return {s: (words, text_for(self.game_key, match, s, private=True)) for s in chosen}

    def turn_notice(self, match: Match) -> Notice | None:
        """What the players to act are asked to do when it is not a move on the board (a Nomic vote, on
        its proposal); ``None``: "your turn", with a link to the board."""
        return None

    async def notices_sent(self, match: Match, notice: Notice | None, sent: list[Sent]) -> None:
        """The turn notices (DMs, thread pings) just sent: a game whose notices go out of date before the
        next board (a vote closing) keeps them to edit."""

    async def remind(self, match: Match) -> None:
        """The scheduler's reminder: the players to move, each as they chose (once per turn)."""
        seats = [s for s in sorted(match.to_act()) if not match.seats[s].is_ai]
        thread_seats, dm_seats = await self.turns.split(match, seats)
        if not thread_seats and not dm_seats:
            return
        place = await self.place_of(match)
        sent: list[Sent] = []
        notice: Notice | None = None
        stamp = f"<t:{int(match.rec.deadline)}:R>" if match.rec.deadline else ""
        for lang, threads, dms in self.by_language(match, thread_seats, dm_seats):
            with speaking(lang):
                when = _("the turn ends {when}", when=stamp) if stamp else _("the turn ends soon")
                notice = self.turn_notice(match)
                sent += await self.turns.deliver(match, threads, dms, self.spec.title, place, reminder=when,
                                                 notice=notice)
        await self.notices_sent(match, notice, sent)
