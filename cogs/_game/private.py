"""Private messages (hidden hands, programs) and turn notices."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import NotAPlayer
from bot.matches.service import Match, Result
from bot.turns import Notice, Sent
from cogs import _views as v

if TYPE_CHECKING:
    pass
from cogs._game.base import (
    NO_MENTIONS,
)
from cogs._game.board import BoardCog
from cogs._game.describe import describe_board, last_in_words, text_boards_of, text_for

log = logging.getLogger(__name__)


class PrivateCog(BoardCog):
    """Private messages (hidden hands, programs) and turn notices."""

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

    async def dms_open(self, user: discord.User | discord.Member, text: str) -> bool:
        """Try a DM now (on joining a game that uses DMs) and tell whether it went through."""
        try:
            await user.send(text[:2000], allowed_mentions=NO_MENTIONS)
            return True
        except discord.Forbidden:
            return False

    async def notify_turn(self, match: Match, result: Result) -> None:
        """Tell whoever was not told yet by the board itself (DMs; a thread ping when the board was
        edited)."""
        thread_seats, dm_seats = await self.pending_pings(match, result)
        if not thread_seats and not dm_seats:
            return
        result.notified.update(thread_seats + dm_seats)
        place = await self.place_of(match) if thread_seats or dm_seats else None
        notice = self.turn_notice(match)
        last, picture = "", None
        texts: dict[int, tuple[str, str]] = {}
        if dm_seats and notice is None:  # the DM says what the opponent played and shows the board
            last = self.last_move_text(match, result)
            picture = self.shown_picture(match)
            texts = await self.dm_texts(match, result, dm_seats, picture[2] if picture else "")
        sent = await self.turns.deliver(match, thread_seats, dm_seats, self.spec.title, place, notice=notice,
                                        last=last, picture=picture, texts=texts)
        await self.notices_sent(match, notice, sent)

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
        when = (
            f"the turn ends <t:{int(match.rec.deadline)}:R>" if match.rec.deadline else "the turn ends soon"
        )
        place = await self.place_of(match)
        notice = self.turn_notice(match)
        sent = await self.turns.deliver(match, thread_seats, dm_seats, self.spec.title, place, reminder=when,
                                        notice=notice)
        await self.notices_sent(match, notice, sent)
