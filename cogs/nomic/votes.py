"""Proposals and reaction votes: the proposal message, its tally, casting and withdrawing votes."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import ParlorError
from bot.games.base import GameError
from bot.games.nomic import notation as nomic_notation
from bot.games.nomic.moves import (
    Propose,
)
from bot.i18n import _
from bot.matches.service import Match
from bot.storage import Status
from bot.turns import Notice, Sent
from cogs._game import (
    NO_MENTIONS,
)
from cogs._votes import NO, UI_KEY, YES, vote_location
from cogs.nomic.common import (
    channel,
    log,
)
from cogs.nomic.movement import NOTICES, NomicMovement


class NomicVotes(NomicMovement):
    """Proposals and reaction votes: the proposal message, its tally, casting and withdrawing votes."""


    async def post_proposal(self, interaction: discord.Interaction, match: Match, move: Propose) -> None:
        """Play the proposal, post it as the reply (mentions off) and open the vote on it."""
        self.player_seat(match, interaction.user.id)
        self.judgment_waits(match)
        result = await self.service.play(match.id, interaction.user.id, nomic_notation.write(move))
        number = next(int(e.data["number"]) for e in result.events if e.kind == "propose")
        embed = self.proposal_embed(result.match, number)
        async with self.votes.posting():
            cb = await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
            message = cb.resource
            if isinstance(message, discord.InteractionMessage):
                result.match.rec.ui[UI_KEY] = await self.votes.post_vote(
                    match.id, message, interaction.channel_id or message.channel.id, number
                )
        # the board shows the open vote; a new one when it asks voters who take thread pings to vote
        # (its text links to the proposal), the same one edited otherwise; DMs follow (after_result)
        await self.refresh_board(result.match, result)
        await self.after_result(result.match, result)

    def turn_notice(self, match: Match) -> Notice | None:
        """Voters are asked to vote on the proposal, with a link to it (not "your turn" and the board)."""
        vote = self.open_vote(match)
        if vote is None:
            return None
        # one notice for the thread ping and every DM: the server's language (bot.turns builds the rest)
        with channel(match):
            return Notice(_("vote on proposal {number}", number=vote[0]), vote[1], _("the proposal"))

    async def notices_sent(self, match: Match, notice: Notice | None, sent: list[Sent]) -> None:
        """Vote notices (DMs, thread pings for closed DMs, reminders) are kept to be closed with the vote."""
        vote = self.open_vote(match)
        if notice is None or vote is None or not sent:
            return
        kept = [*self.vote_notices(match), *([ch, msg, vote[0]] for ch, msg in sent)]
        match.rec.ui[NOTICES] = kept
        await self.service.set_ui(match.id, {NOTICES: kept})

    def votes_cast(self, match: Match, ref: Any) -> dict[int, bool]:
        """For :mod:`cogs._votes`: the counted votes on the open proposal ``ref`` by user id."""
        if match.status != Status.RUNNING or match.state is None:
            return {}
        view = match.view(None)
        p = view.proposal
        if p is None or p.number != ref:
            return {}
        return {view.players[s].user_id: yes for seats, yes in ((p.yes, True), (p.no, False)) for s in seats}

    async def withdraw_vote(self, match: Match, ref: Any, user_id: int, yes: bool) -> None:
        """For :mod:`cogs._votes`: a removed reaction withdraws the vote it cast (held during a Judgment:
        the re-count after the ruling sees the reaction gone)."""
        if self.votes_cast(match, ref).get(user_id) is not yes or match.view(None).question is not None:
            return
        try:
            result = await self.service.play(match.id, user_id, "unvote")
        except (GameError, ParlorError) as exc:
            log.info("withdrawing the vote of %s on match %s refused: %s", user_id, match.id, exc)
            return
        await self.refresh_tally(result.match.id)

    def may_vote(self, match: Match, ref: Any, user_id: int) -> bool | None:
        """For :mod:`cogs._votes`: voters of the open proposal ``ref``; ``None`` once it is decided."""
        if match.status != Status.RUNNING or match.state is None:
            return None
        p = match.view(None).proposal
        if p is None or p.number != ref:
            return None
        seat = match.seat_of(user_id)
        return seat is not None and seat in p.voters

    async def cast_vote(self, match: Match, ref: Any, user_id: int, yes: bool, channel_id: int,
                        message_id: int) -> bool:
        """For :mod:`cogs._votes`: play the vote; a decided vote updates its message and posts the board.

        While a Judgment is pending the vote waits (the reaction stays and is counted after the ruling).
        """
        if self._vote_stands(match, ref, user_id, yes):
            return True
        changed = self.votes_cast(match, ref).get(user_id) is (not yes)
        try:
            notation = "vote yes" if yes else "vote no"  # not translated: notation
            result = await self.service.play(match.id, user_id, notation)
        except (GameError, ParlorError) as exc:
            fresh = await self.service.get(match.id)
            if self._vote_stands(fresh, ref, user_id, yes):  # counted meanwhile, or decided, or waiting
                return True
            log.info("vote by %s on match %s refused: %s", user_id, match.id, exc)
            return False
        if changed:  # the old reaction goes, so the message shows only the vote counted (withdraws nothing)
            await self.votes.remove(
                channel_id, message_id, discord.PartialEmoji(name=NO if yes else YES), user_id
            )
        if any(e.kind in ("adopt", "reject") for e in result.events):
            await self.present_change(result.match, result)
        else:
            await self.refresh_tally(match.id)
        return True

    async def refresh_tally(self, match_id: int) -> None:
        """The live tally on the vote message: one edit per vote, and votes that arrive while an edit is
        under way share the next one (the edit reads the match afresh)."""
        if match_id in self._tally_busy:
            self._tally_dirty.add(match_id)
            return
        self._tally_busy.add(match_id)
        try:
            while True:
                self._tally_dirty.discard(match_id)
                match = await self.service.get(match_id)
                loc = vote_location(match)
                if loc is None:
                    return
                try:
                    await self.bot.get_partial_messageable(loc[0]).get_partial_message(loc[1]).edit(
                        embed=self.proposal_embed(match, int(loc[2])))
                except discord.HTTPException:
                    log.info("could not update the tally of match %s", match_id, exc_info=True)
                if match_id not in self._tally_dirty:
                    return
        finally:
            self._tally_busy.discard(match_id)

    def _vote_stands(self, match: Match, ref: Any, user_id: int, yes: bool) -> bool:
        """Nothing to play: the vote is already counted, the proposal is decided, or a Judgment holds it."""
        if match.status != Status.RUNNING or match.state is None:
            return True
        view = match.view(None)
        p = view.proposal
        if p is None or p.number != ref or view.question is not None:
            return True
        seat = match.seat_of(user_id)
        return seat is not None and seat in (p.yes if yes else p.no)

    async def resync_votes(self) -> None:
        """Count reactions the listener missed while the bot was away (``on_ready``: start, reconnect).

        Each process re-reads the votes of the servers on its own shards (the others' processes do theirs).
        """
        for rec in await self.bot.store.active_matches():
            ours = rec.game == self.game_key and self.bot.config.serves(rec.guild_id)
            if ours and rec.status == Status.RUNNING and vote_location(Match(rec)):
                try:
                    await self.votes.resync(rec.id)
                except Exception:
                    log.exception("re-reading the votes of match %s failed", rec.id)
