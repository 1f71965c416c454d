"""Presenting changes: a new board or an edited one, the vote message, timeouts, the result."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games.base import Event
from bot.i18n import _, ngettext
from bot.matches.service import Match, Result
from bot.storage import Status
from cogs._game import (
    COLOUR_END,
    NO_MENTIONS,
)
from cogs._votes import vote_location
from cogs.nomic.board import NomicBoard
from cogs.nomic.common import (
    _cut,
    _md,
    channel,
    log,
    nomic_view,
)

NOTICES = "vote_notices"
"""``match.rec.ui["vote_notices"]``: ``[channel id, message id, proposal number]`` of each vote notice sent
(DMs, thread pings), edited once that vote is closed."""


class NomicMovement(NomicBoard):
    """Presenting changes: a new board or an edited one, the vote message, timeouts, the result."""


    async def present_change(self, match: Match, result: Result) -> None:
        """After an action: the vote message when a vote was decided, then the board (a new, pinging
        one when a turn began; the old one edited otherwise), then the end of the game if it ended.
        Votes held while a Judgment was pending are counted once it is over."""
        if any(e.kind in ("adopt", "reject") for e in result.events):
            await self.update_vote_message(match, result.events)
        if match.status == Status.RUNNING and any(e.kind == "turn" for e in result.events):
            await self.replace_board(match, result)
        else:
            await self.refresh_board(match, result)
        await self.after_result(match, result)
        state = match.state
        if (state is not None and match.status == Status.RUNNING and state.phase == "vote"
                and state.question is None and any(e.kind in ("ruling", "lapse") for e in result.events)):
            await self.votes.resync(match.id)

    async def replace_board(self, match: Match, result: Result) -> None:
        """Post the next turn's board (it pings the player); the old one loses stale path buttons."""
        place = await self.place_of(match)
        await self.post_board(place, match, result)  # the old board is retired by post_board

    async def update_vote_message(self, match: Match, events: Sequence[Event]) -> None:
        """The decided proposal's message shows the result; the notices that asked for its votes close."""
        decided = {int(e.data["number"]): "adopted" if e.kind == "adopt" else "rejected"
                   for e in events if e.kind in ("adopt", "reject")}
        await self.close_vote_notices(match, decided)
        loc = vote_location(match)
        if loc is None:
            return
        channel_id, message_id, ref = loc
        if ref not in {e.data.get("number") for e in events if e.kind in ("adopt", "reject")}:
            return
        embed = self.proposal_embed(match, int(ref))
        try:
            await (
                self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(embed=embed)
            )
        except discord.HTTPException:
            log.info("could not update the vote message %s of match %s", message_id, match.id, exc_info=True)

    @staticmethod
    def vote_notices(match: Match) -> list[list[int]]:
        stored = match.rec.ui.get(NOTICES)
        return [list(map(int, n)) for n in stored if len(n) == 3] if isinstance(stored, list) else []

    async def close_vote_notices(self, match: Match, decided: dict[int, str]) -> None:
        """Once a vote is decided (adopted, rejected, or the game ended), the notices that asked for it are
        edited to say so: no message still asks for a vote that is closed (one edit per notice)."""
        notices = self.vote_notices(match)
        done = [n for n in notices if n[2] in decided]
        if not done:
            return
        for channel_id, message_id, number in done:
            with channel(match):  # a thread ping or a DM: one text for every reader, the server's language
                text = (_("\U0001f5f3\ufe0f Proposal {number} was adopted; its vote is closed.",
                          number=number)
                        if decided[number] == "adopted" else
                        _("\U0001f5f3\ufe0f Proposal {number} was rejected; its vote is closed.",
                          number=number))
            try:
                await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                    content=text, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                log.info("could not close the vote notice %s of match %s", message_id, match.id)
        rest = [n for n in notices if n not in done]
        match.rec.ui[NOTICES] = rest
        await self.service.set_ui(match.id, {NOTICES: rest})

    async def present_timeout(self, result: Result) -> None:
        match = result.match
        if match.status not in (Status.RUNNING, Status.FINISHED) or match.state is None:
            await super().present_timeout(result)
            return
        if result.events:
            with channel(match):
                result.message = _("\u23f0 The turn limit passed.")
        await self.present_change(match, result)

    async def announce_result(self, match: Match, result: Result) -> None:
        place = await self.place_of(match)
        if place is None:
            return
        with channel(match):
            view = nomic_view(match)
            embed = discord.Embed(title=_("Nomic World: game over"), description=self.status_line(match),
                                  colour=COLOUR_END)
            lines = [self.player_line(_md(p.name), p.proposals, p.adopted, p.rulings) for p in view.players]
            if lines:
                embed.add_field(name=_("Players"), value=_cut("\n".join(lines), 1024), inline=False)
            embed.set_footer(text=ngettext("Unrated game \u00b7 {n} rule was in effect at the end",
                                           "Unrated game \u00b7 {n} rules were in effect at the end",
                                           len(view.in_effect)))
            rematch = self.rematch_view(match)
        await place.send(embed=embed, view=rematch, allowed_mentions=NO_MENTIONS)

    @staticmethod
    def player_line(player: str, proposals: int, adopted: int, rulings: int) -> str:
        """``alice: 3 proposals, 1 adopted, 2 rulings`` (the rulings only when there are some)."""
        made = ngettext("{n} proposal", "{n} proposals", proposals)
        passed = ngettext("{n} adopted", "{n} adopted", adopted)
        if not rulings:
            return _("{player}: {proposals}, {adopted}", player=player, proposals=made, adopted=passed)
        return _("{player}: {proposals}, {adopted}, {rulings}", player=player, proposals=made, adopted=passed,
                 rulings=ngettext("{n} ruling", "{n} rulings", rulings))
