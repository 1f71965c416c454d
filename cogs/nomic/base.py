"""The cog's life (vote registry, rulebook button) and the lookups every part uses."""

from __future__ import annotations

import discord

from bot.errors import NotAPlayer, NotYourTurn, ParlorError
from bot.i18n import _
from bot.matches.service import Match
from bot.storage import Status
from cogs._game import (
    GameCog,
)
from cogs._votes import ReactionVotes
from cogs.nomic.common import (
    _cut,
    _md,
)


class NomicBase(GameCog):
    """The cog's life (vote registry, rulebook button) and the lookups every part uses."""

    game_key = "nomic"
    votes: ReactionVotes
    _tally_busy: set[int]    # matches whose tally message is being edited (set in cog_load)
    _tally_dirty: set[int]   # matches whose tally changed meanwhile

    def player_seat(self, match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None or match.state is None:
            raise NotAPlayer(_("You are not playing in this game: `/nomic join` to join it."))
        if match.state.players[seat].status == "left":
            raise NotAPlayer(_("You left this game."))
        return seat

    @staticmethod
    def judgment_waits(match: Match) -> None:
        """While a Judgment is pending, play waits for the Judge (not for the player whose turn it is)."""
        if match.state is None or match.status != Status.RUNNING:
            return
        view = match.view(None)
        q = view.question
        if q is not None:
            raise NotYourTurn(_("Play waits for the Judge, {judge}, to rule on \u201c{question}\u201d with "
                                "`/nomic ruling` (rule 114).", judge=_md(view.name(q.judge)),
                                question=_md(_cut(q.question, 80))))

    async def match_or_none(self, interaction: discord.Interaction) -> Match | None:
        try:
            return await self.match_here(interaction, running=False)
        except ParlorError:
            return None

    async def place_of(self, match: Match) -> discord.abc.Messageable | None:
        """The match's thread or channel, without a request (a partial channel when not cached)."""
        cid = match.rec.place_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            return self.bot.get_partial_messageable(cid, guild_id=match.rec.guild_id)
        return ch  # type: ignore[return-value]
