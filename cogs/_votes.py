"""Votes by reaction: ✅ / ❌ on a message the bot posted, counted for the match's voters only.

A cog posts the message to vote on, then calls :meth:`ReactionVotes.post_vote`:
the mapping *message → match* is stored in the match's ``ui`` dict (through
``MatchService.set_ui``, in the database, so a restart or another process
finds it again), and the bot adds its own ✅ and ❌ so players only have to
click. The listener (``on_raw_reaction_add``; the bot has the guild reactions
intent, not the message content one) then handles every reaction on that
message:

* the bot's own reactions and reactions on other messages are ignored (one
  database look-up, and only for reactions on the bot's own messages);
* someone who may not vote (not a player, joined too late, left) gets the
  reaction removed (``Manage Messages``), whatever the emoji;
* a voter's other emoji are left alone;
* a voter's ✅ / ❌ is handed to the owning cog (:class:`VoteOwner`), which
  plays the vote through the match service and may ask for the reaction to
  be removed when the rules refused it (so the message never shows a vote
  that was not counted).

Removing a reaction withdraws the vote it cast (``on_raw_reaction_remove``:
the owner's :meth:`VoteOwner.withdraw_vote`); a voter changes a vote by
reacting with the other emoji (the owner then removes the old reaction, and
that removal withdraws nothing because the vote no longer matches it).
Nothing is kept only in memory: the listener reads the mapping from the
match each time, and :meth:`ReactionVotes.resync` reads the reactions
themselves to count those the listener never saw, and withdraws counted
votes whose reaction is gone (the owner calls it: the Nomic cog on
``on_ready``, after a start or a reconnection, and when a Judgment that held
the votes is over).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.matches.service import Match

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

YES = "\u2705"
NO = "\u274c"
UI_KEY = "vote"
"""``match.rec.ui["vote"] = {"message": id, "channel": id, "ref": ...}``: the open vote's message."""


class VoteOwner(Protocol):
    """What a cog that collects votes by reaction provides."""

    def may_vote(self, match: Match, ref: Any, user_id: int) -> bool | None:
        """``True`` for a voter, ``False`` for someone whose reaction is removed, ``None`` when the vote
        ``ref`` is not open (reactions are then left as they are)."""
        ...

    async def cast_vote(self, match: Match, ref: Any, user_id: int, yes: bool, channel_id: int,
                        message_id: int) -> bool:
        """Play the vote (nothing when it is already counted); return whether the reaction stays
        (``False``: the rules refused it for good)."""
        ...

    async def withdraw_vote(self, match: Match, ref: Any, user_id: int, yes: bool) -> None:
        """The voter removed their ``yes`` (or no) reaction: withdraw that vote if it is the one counted."""
        ...

    def votes_cast(self, match: Match, ref: Any) -> dict[int, bool]:
        """The votes counted on ``ref`` now, by user id (``True`` = yes)."""
        ...


def vote_location(match: Match) -> tuple[int, int, Any] | None:
    """``(channel id, message id, ref)`` of the match's current vote message, if it has one."""
    info = match.rec.ui.get(UI_KEY)
    if not isinstance(info, dict):
        return None
    try:
        return int(info["channel"]), int(info["message"]), info.get("ref")
    except (KeyError, TypeError, ValueError):
        return None


class ReactionVotes:
    """One per bot (see :func:`votes_of`); cogs register as the owner of their game's votes."""

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.owners: dict[str, VoteOwner] = {}
        self._posting = asyncio.Lock()

    def register(self, game_key: str, owner: VoteOwner) -> None:
        self.owners[game_key] = owner

    def unregister(self, game_key: str) -> None:
        self.owners.pop(game_key, None)

    @asynccontextmanager
    async def posting(self) -> AsyncIterator[None]:
        """Hold while posting a vote message and storing it: reactions wait until it is known."""
        async with self._posting:
            yield

    async def post_vote(
        self, match_id: int, message: discord.abc.Snowflake, channel_id: int, ref: Any
    ) -> dict[str, Any]:
        """Store ``message`` as ``match_id``'s vote ``ref`` and add the bot's ✅ and ❌ to it; returns what
        was stored (``match.rec.ui["vote"]``, for a match object the caller holds).

        Call it inside :meth:`posting` together with sending the message.
        """
        info = {"message": message.id, "channel": channel_id, "ref": ref}
        await self.bot.service.set_ui(match_id, {UI_KEY: info})
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message.id)
        for emoji in (YES, NO):
            try:
                await partial.add_reaction(emoji)
            except discord.HTTPException as exc:
                log.info("could not add %s to vote message %s: %s", emoji, message.id, exc)
        return info

    async def find(self, channel_id: int, message_id: int) -> tuple[Match, Any] | None:
        """The active match whose vote message this is, with the vote's ``ref``."""
        for match in await self.bot.service.find_here(channel_id):
            loc = vote_location(match)
            if loc is not None and loc[1] == message_id and match.rec.game in self.owners:
                return match, loc[2]
        return None

    async def remove(
        self, channel_id: int, message_id: int, emoji: discord.PartialEmoji, user_id: int
    ) -> None:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await partial.remove_reaction(emoji, discord.Object(user_id))
        except discord.HTTPException as exc:  # no Manage Messages here: the reaction stays, uncounted
            log.info("could not remove a reaction on %s: %s", message_id, exc)

    async def reaction_users(self, channel_id: int, message_id: int) -> dict[str, set[int]]:
        """Who has reacted ✅ and who ❌ on a message now (the bot left out); reaction routes only."""
        me = self.bot.user.id if self.bot.user is not None else 0
        out: dict[str, set[int]] = {}
        for emoji in (YES, NO):
            users: set[int] = set()
            after: int | None = None
            while True:
                page = await self.bot.http.get_reaction_users(channel_id, message_id, emoji, 100, after=after)
                users.update(int(u["id"]) for u in page)
                if len(page) < 100:
                    break
                after = int(page[-1]["id"])
            users.discard(me)
            out[emoji] = users
        return out

    async def resync(self, match_id: int) -> None:
        """Count the reactions the listener did not see (the bot was offline, or the vote waited for
        something): every voter with exactly one of ✅ / ❌ gets that vote; outsiders' reactions go."""
        match = await self.bot.service.get(match_id)
        loc = vote_location(match)
        owner = self.owners.get(match.rec.game)
        if loc is None or owner is None or owner.may_vote(match, loc[2], 0) is None:  # user 0: asks if open
            return
        channel_id, message_id, ref = loc
        try:
            users = await self.reaction_users(channel_id, message_id)
        except discord.HTTPException as exc:
            log.info("could not read the reactions on vote message %s: %s", message_id, exc)
            return
        yes, no = users[YES], users[NO]
        for uid, was_yes in sorted(owner.votes_cast(match, ref).items()):
            if uid not in (yes if was_yes else no):  # the reaction went while nobody listened
                await owner.withdraw_vote(match, ref, uid, was_yes)
                match = await self.bot.service.get(match_id)
        for uid in sorted(yes | no):
            match = await self.bot.service.get(match_id)  # a vote counted just now may have decided it
            allowed = owner.may_vote(match, ref, uid)
            if allowed is None:
                return
            if not allowed:
                for emoji, who in ((YES, yes), (NO, no)):
                    if uid in who:
                        await self.remove(channel_id, message_id, discord.PartialEmoji(name=emoji), uid)
                continue
            if uid in yes and uid in no:
                continue  # both: which came last is unknown, so the voter settles it
            emoji = YES if uid in yes else NO
            if not await owner.cast_vote(match, ref, uid, emoji == YES, channel_id, message_id):
                await self.remove(channel_id, message_id, discord.PartialEmoji(name=emoji), uid)

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        me = self.bot.user
        if me is None or payload.user_id == me.id or payload.guild_id is None:
            return
        if payload.message_author_id is not None and payload.message_author_id != me.id:
            return
        async with self._posting:  # a vote message being posted right now is stored first
            pass
        try:
            found = await self.find(payload.channel_id, payload.message_id)
            if found is None:
                return
            match, ref = found
            owner = self.owners[match.rec.game]
            allowed = owner.may_vote(match, ref, payload.user_id)
            if allowed is False:  # decide a removal only on the match with no action of it under way
                match = await self.bot.service.get_settled(match.id)
                allowed = owner.may_vote(match, ref, payload.user_id)
            if allowed is None:
                return
            if not allowed:
                await self.remove(payload.channel_id, payload.message_id, payload.emoji, payload.user_id)
                return
            emoji = str(payload.emoji)
            if emoji not in (YES, NO):
                return
            keep = await owner.cast_vote(match, ref, payload.user_id, emoji == YES, payload.channel_id,
                                         payload.message_id)
            if not keep:
                await self.remove(payload.channel_id, payload.message_id, payload.emoji, payload.user_id)
        except Exception:
            log.exception("handling a vote reaction on message %s failed", payload.message_id)

    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        """A voter took their ✅ / ❌ back: the owner withdraws the vote (if it is the one counted)."""
        me = self.bot.user
        emoji = str(payload.emoji)
        if me is None or payload.user_id == me.id or payload.guild_id is None or emoji not in (YES, NO):
            return
        async with self._posting:
            pass
        try:
            found = await self.find(payload.channel_id, payload.message_id)
            if found is None:
                return
            match, ref = found
            owner = self.owners[match.rec.game]
            if owner.may_vote(match, ref, payload.user_id):
                await owner.withdraw_vote(match, ref, payload.user_id, emoji == YES)
        except Exception:
            log.exception("handling a removed vote reaction on message %s failed", payload.message_id)


def votes_of(bot: ParlorBot) -> ReactionVotes:
    """The bot's :class:`ReactionVotes`, created (and its listener added) on first use."""
    votes = getattr(bot, "reaction_votes", None)
    if votes is None:
        votes = ReactionVotes(bot)
        bot.reaction_votes = votes  # type: ignore[attr-defined]
        bot.add_listener(votes.on_raw_reaction_add, "on_raw_reaction_add")
        bot.add_listener(votes.on_raw_reaction_remove, "on_raw_reaction_remove")
    return votes
