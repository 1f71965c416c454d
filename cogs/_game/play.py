"""After a move: the board and notices, the computer's answer (at once or as a task), recovery, timeouts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.chores import FAILURES, transient
from bot.matches.service import Match, Result
from bot.storage import Status

if TYPE_CHECKING:
    pass
from cogs._game.base import in_channel, match_tags
from cogs._game.private import PrivateCog

log = logging.getLogger(__name__)

AI_AT_ONCE = 0.25
"""Seconds a click or typed move waits for the computer's answer so that both go out in one reply. A
computer that needs longer does not hold the answer up: the player's own move is shown at once (the
board says the computer is thinking) and the computer's move edits that board when it is ready."""

COMPUTER_TASK = "parlor-computer: "
"""The name prefix of the tasks in which the computer thinks and presents its move (logs, tests)."""

STRAY_LOOKBACK = 50
"""Messages of a thread read at start-up for live boards the store lost track of (:meth:`retire_strays`)."""

ANSWER_WITHIN = 2.0
"""Seconds a click waits for its new board to be posted before it is answered anyway (Discord allows 3)."""


class PlayCog(PrivateCog):
    """After a move: the board and notices, the computer's answer (at once or as a task), recovery,
    timeouts."""

    async def play_from_component(self, interaction: discord.Interaction, match_id: int, version: int | None,
                                  text: str, *, loaded: Match | None = None) -> None:
        """A move from a board button: one request (the board edited in the interaction response).

        ``loaded``: the match as the click's handler read it (saves reading it again). The new board's
        picture is drawn (in a worker thread) while the move's transaction commits, unless the computer
        answers next (its move would change the picture)."""
        # Boards still being drawn ahead for the choice this click makes: those drawn are kept (the move's
        # own may be among them), the next would only keep the loop from this move (bench/move_floor.py).
        self.stop_ahead(match_id)
        early: asyncio.Future[discord.File] | None = None

        def applied(provisional: Result) -> None:
            nonlocal early
            if early is not None:
                early.cancel()
            early = None if provisional.ai_next else asyncio.ensure_future(
                self.picture(provisional.match, provisional))

        try:
            result = await self.service.play(match_id, interaction.user.id, text, expected_version=version,
                                             loaded=loaded, on_applied=applied)
        except BaseException:
            if early is not None:
                early.cancel()
            raise
        answered = await self.ai_at_once(result)
        if answered is not result and early is not None:
            early.cancel()
            early = None
        result = answered
        match = result.match
        thread_seats, _dms = await self.pending_pings(match, result)
        clicked = interaction.message.id if interaction.message is not None else None
        try:
            if thread_seats and clicked is not None:
                # someone is pinged: the new board goes to the bottom (its content is the ping) and the
                # clicked board becomes an earlier position, in the interaction's own response. The new board
                # goes out first (what the player waits for), then the clicked one is retired -- at once if
                # posting is slow (rate limits), so the click is always answered in time.
                embed = self.retired_embed(match, self.place_url(match))
                posting = asyncio.ensure_future(self._post_new_board(match, result, clicked, early,
                                                                     thread_seats))
                await asyncio.wait({posting}, timeout=ANSWER_WITHIN)
                token_gone = False
                try:
                    await interaction.response.edit_message(embed=embed, view=None, content=None)
                    self._retired.add(clicked)
                except discord.HTTPException:
                    token_gone = True
                finally:
                    await posting
                place = await self.place_of(match) if token_gone else None
                if place is not None:  # the click's token is gone: retire its board by an ordinary edit
                    await self.retire(place, match, clicked, self.jump_url(match))
            else:  # the clicked board is the channel's: the server's language, not the clicker's
                with in_channel(match):
                    kwargs = await self.board_kwargs(match, result, picture=early)
                file = kwargs.pop("file")
                kwargs["content"] = kwargs.get("content")  # an earlier "your turn" line goes
                await interaction.response.edit_message(**kwargs, attachments=[file])
                self.board_shown(match)
        except discord.HTTPException:
            log.warning(
                "the reply to a move in match %s failed; re-posting its board", match.id, exc_info=True
            )
            await self.recover_later(match.id, result)
        await self.after_result(match, result)

    async def _post_new_board(self, match: Match, result: Result, clicked: int,
                              picture: Awaitable[discord.File] | None, pings: list[int]) -> None:
        await self.post_board(None, match, result, retire=match.rec.message_id != clicked,
                              prepared=await self.board_kwargs(match, result, picture=picture), pings=pings)

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
            done, _pending = await asyncio.wait({task}, timeout=max(0.0, end - time.monotonic()))
            if not done:
                shown = self._answered.setdefault(match_id, asyncio.Event())
                follow = asyncio.create_task(self._ai_follow(match_id, task, result, shown),
                                             name=f"{COMPUTER_TASK}match {match_id}")
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
            result = result.then(reply)  # every move stays shown: the human's, then each of the computer's
        return result

    async def _ai_follow(self, match_id: int, task: asyncio.Future[Result | None],
                         earlier: Result | None = None, shown: asyncio.Event | None = None) -> None:
        """Present a computer move that took longer than :data:`AI_AT_ONCE` (and the computer's further
        moves of the same turn, in the same answer), once the human's move it answers (``earlier``) has been
        shown (``shown``: the board it edits must not be overwritten by that answer). The board names the
        human's move too, but plays only the computer's: the human's was shown already."""
        try:
            result = await task
        except Exception:
            log.exception("computer move in match %s failed", match_id)
            return
        finally:
            self._ai_running.discard(match_id)
        if shown is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(shown.wait(), ANSWER_WITHIN * 3)
        if result is None:
            return
        while result.ai_next and not result.finished:  # a repick: the rest of the computer's turn goes too
            try:
                more = await self.service.ai_move(match_id)
            except Exception:
                log.exception("computer move in match %s failed", match_id)
                break
            if more is None:
                break
            result = result.then(more)
        if earlier is not None:  # "Last:" names the human's move (and no ping for who just moved)
            result.moves = earlier.moves + result.moves
        try:
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
        except Exception as exc:
            await self.present_later(match_id, exc)

    async def after_result(self, match: Match, result: Result) -> None:
        """Result message at the end, private follow-ups, and the computer's reply."""
        shown = self._answered.pop(match.id, None)
        if shown is not None:  # the move is shown: a computer answer still thinking may edit its board
            shown.set()
        await self.after_move_private(match, result)
        await self.notify_turn(match, result)
        if result.finished and match.status == Status.FINISHED:
            await self.announce_result(match, result)
        elif result.ai_next:  # the computer moves again (a repick): its run goes on from these moves
            self.schedule_ai(match.id, result.moves)
        await self.bot.store.set_board_version(match.id, match.version)

    async def after_move_private(self, match: Match, result: Result) -> None:
        """Games with hidden information send DMs here."""

    def schedule_ai(self, match_id: int, earlier: list[Any] | None = None) -> None:
        """Let the computer move as a task; ``earlier``: the moves of the result it follows (the human's move
        and the computer's picks so far), so that its board names them and does not ping a present player."""
        if match_id in self._ai_running:
            return
        self._ai_running.add(match_id)
        task = asyncio.create_task(self._ai_turn(match_id, list(earlier or [])),
                                   name=f"{COMPUTER_TASK}match {match_id}")
        self._ai_tasks.add(task)
        task.add_done_callback(self._ai_tasks.discard)

    async def _ai_turn(self, match_id: int, earlier: list[Any] | None = None) -> None:
        try:
            try:
                result = await self.service.ai_move(match_id)
            finally:
                self._ai_running.discard(match_id)
            if result is None:
                return
            result.moves = list(earlier or []) + result.moves
            await self.refresh_board(result.match, result)
            await self.after_result(result.match, result)
        except Exception as exc:
            await self.present_later(match_id, exc)

    async def present_later(self, match_id: int, exc: Exception) -> None:
        """A move is stored but its board could not be shown: during a Discord incident (5xx, no answer) the
        board is brought up to date later, with backoff (bot/chores.py); anything else is logged."""
        if transient(exc):
            try:
                await self.bot.chores.later(match_id, "board", 0, None, {}, exc)
            except Exception:
                log.exception("could not remember the board of match %s to bring up to date", match_id)
        else:
            log.error("presenting a move in match %s failed", match_id, exc_info=exc)

    async def present_timeout(self, result: Result) -> None:
        """The scheduler's expiry of a challenge, lobby, turn or clock."""
        match = result.match
        if match.status == Status.EXPIRED:
            await self.refresh_invite(match)
            return
        try:
            await self.refresh_board(match, result)
            await self.after_result(match, result)
        except Exception as exc:
            await self.present_later(match.id, exc)

    async def recover(self, match: Match, result: Result | None = None) -> None:
        """Bring the live board up to date after a move whose presentation never reached Discord.

        With the move's ``result`` (a reply that just failed) its pings go out with the new board; at
        start-up everyone to act is pinged, as the notice of the lost reply may never have gone out.
        """
        log.info("bringing the board of match %s up to date (version %s)", match.id, match.version)
        await self.retire_strays(match)
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

    async def retire_strays(self, match: Match) -> None:
        """Boards of the match still live that the store no longer knows (the process died between posting a
        new board and retiring the one before it) are retired: one read of the thread's latest messages."""
        place = await self.place_of(match)
        me = self.bot.user
        if place is None or me is None or not hasattr(place, "history"):
            return
        tags = match_tags(match.id)  # a board's footer begins so, in whichever language it was posted
        try:
            async for msg in place.history(limit=STRAY_LOOKBACK):
                if (msg.author.id == me.id and msg.components and msg.id != match.rec.message_id
                        and any(tag in (e.footer.text or "") for e in msg.embeds for tag in tags)):
                    await self.retire(place, match, msg.id, self.jump_url(match))
        except FAILURES as exc:
            log.info("could not look for stray boards of match %s: %s", match.id, exc)

    async def recover_later(self, match_id: int, result: Result | None = None) -> None:
        """After a failed reply: bring the board of the match up to date (errors only logged)."""
        try:
            match = await self.service.get(match_id)
            if result is not None and result.match.version == match.version:
                match = result.match
            else:
                result = None
            await self.recover(match, result)
        except Exception as exc:
            await self.present_later(match_id, exc)
