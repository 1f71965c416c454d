"""The board: its embed, picture and buttons; posting it, retiring old boards, editing it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.chores import FAILURES, message_payload, transient
from bot.games.base import CHANCE, GameError
from bot.games.samples import sample_positions
from bot.i18n import _, language, ngettext
from bot.matches.match import ended_view
from bot.matches.service import Match, Result
from bot.names import shown, versus
from bot.ratings import RATING_NOTE, rating_change_text
from bot.render import board_png, png_bytes
from bot.render.kept import Kept
from bot.storage import Status
from bot.turns import mentions_of, newly_to_act
from cogs import _views as v

if TYPE_CHECKING:
    pass
from cogs._game.base import (
    COLOUR_END,
    COLOUR_OK,
    COLOUR_OLD,
    NO_MENTIONS,
    in_channel,
    match_tag,
    picture_file,
    result_band,
)
from cogs._game.describe import describe_board, text_boards_of, text_for
from cogs._game.invite import InviteCog

log = logging.getLogger(__name__)

DRAWN_AHEAD_BYTES = 1 << 23
"""Bytes of boards drawn ahead of a click (:meth:`BoardCog.draw_ahead`) kept per game: 8 MB (about a
hundred matches' choices), least recently used first out."""


async def draw_off_loop_if_long(name: str, draw: Callable[..., bytes], *args: Any) -> bytes:
    """``draw(*args)``: a board picture (PNG, drawn straight onto its palette in about 2 ms) right here, an
    animation (GIF: a few ms put together from kept pictures, tens for a long sowing) in a worker thread.

    A worker thread buys nothing for a board: drawing holds the GIL, so the event loop (and the move's
    database trips, which it would overlap) waits for it anyway, and the hand-overs between the threads
    cost more than they save (bench/move_floor.py). An animation is long enough that the loop should keep
    running between its frames."""
    if name.endswith(".png"):
        return draw(*args)
    return await asyncio.to_thread(draw, *args)


class BoardCog(InviteCog):
    """The board: its embed, picture and buttons; posting it, retiring old boards, editing it."""

    def status_line(self, match: Match) -> str:
        if match.status == Status.FINISHED:
            out = match.outcome
            if out is None:
                return _("The match is over.")
            detail = shown(self.outcome_detail(match))
            head = detail + " " if detail and out.reason.value in ("resignation", "timeout") else ""
            if out.is_draw:
                return (head + _("**Draw.**") + " " + (detail if not head else "")).strip()
            winners = ", ".join(self.seat_label(match, s) for s in sorted(out.winners))
            tail = "" if head else (f" {detail}" if detail else "")
            return head + _("**{winners} won.**", winners=winners) + tail
        if match.status != Status.RUNNING:
            return self.closed_text(match)
        to_act = sorted(match.to_act())
        if to_act and all(match.seats[s].is_ai for s in to_act):
            return _("To move: {players}, thinking…",
                     players=", ".join(shown(match.seats[s].name) for s in to_act))
        who = ", ".join(
            f"<@{match.seats[s].user_id}>" if not match.seats[s].is_ai else shown(match.seats[s].name)
            for s in to_act
        )
        if match.rec.deadline:
            stamp = f"<t:{int(match.rec.deadline)}:R>"
            return _("To move: {players} · turn ends {when}", players=who, when=stamp)
        return _("To move: {players}", players=who)

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
                code = f"`{notation}`"
                parts[-1] += _(", then {move}", move=code)
            else:
                who = (
                    "🎲"
                    if seat == CHANCE
                    else shown(match.seats[seat].name)
                    if seat < len(match.seats)
                    else "?"
                )
                parts.append(f"{who}: `{notation}`")
            prev = seat
        return _("Last: {moves}", moves=", ".join(parts))

    def board_embed(self, match: Match, result: Result | None) -> discord.Embed:
        lines = [self.status_line(match)]
        last = self.last_move_text(match, result)
        if last:
            lines.insert(0, last)
        lines.extend(self.extra_lines(match, result))
        colour = COLOUR_END if match.status == Status.FINISHED else COLOUR_OK
        seats = versus(self.seat_label(match, s.seat) for s in match.seats)
        embed = discord.Embed(title=f"{self.spec.title} · {seats}"[:256], description="\n".join(lines)[:4000],
                              colour=colour)
        # no embed image: Discord reads an attachment's description (alt text) only for a picture shown as
        # the attachment itself, never for one an embed shows, so the board is the message's attachment
        # the footer starts with the match's tag ("Match #12 ·": how retire_strays finds a board)
        if match.status == Status.RUNNING:
            embed.set_footer(text=match_tag(match.id) + " · " + _(
                "move {number} · /{command} move to type a move", number=self.moves_played(match),
                command=self.game_key))
        else:
            embed.set_footer(text=match_tag(match.id) + " · " + ngettext(
                "final position after {n} move · /{command} board and /{command} history show it",
                "final position after {n} moves · /{command} board and /{command} history show it",
                self.moves_played(match), command=self.game_key))
        return embed

    def moves_played(self, match: Match) -> int:
        """The move number in the board's footer (games whose picture counts moves make the two agree)."""
        return int(match.rec.ui.get("plies", 0))

    def extra_lines(self, match: Match, result: Result | None) -> list[str]:
        return []

    def picture_name(self, match: Match, result: Result | None) -> str:
        return "board.png"

    def render_picture(self, match: Match, result: Result | None) -> bytes:
        """The board as PNG bytes (on the event loop: see :func:`draw_off_loop_if_long`)."""
        view = match.view(None)
        return board_png(lambda: self.game.render(view, names=match.names(),
                                                  events=result.events if result else (),
                                                  clocks=match.clocks_ms(self.service.clock())),
                         self.game_key)

    WARM_NAMES = ("Alice", "Bob", "Carol", "Dave")

    def warm_draws(self, view: Any, names: tuple[str, ...], events: Any) -> list[Callable[[], Any]]:
        """The boards :meth:`warm_pictures` draws for one sample position (a game whose moves show other
        looks of its board adds them)."""
        return [partial(self.game.render, view, names=names, events=events)]

    def warm_pictures(self) -> None:
        """Worker thread, at start-up: draw the boards of a few seeded random games so the game's picture
        family has its palette (built from what its boards look like) before the first move -- otherwise
        the first moves of a fresh process each pay for learning it (about 10 ms a board: the p99 of
        bench/move_floor.py)."""
        spec = self.game.spec
        seats = max(spec.min_seats, min(spec.max_seats or 4, 4))
        names = self.WARM_NAMES[:seats]
        plies = (0, 2, 6, 12, 25, 40, 80)
        for seed in (1, 2):
            for view, events in sample_positions(self.game.rules, seats, seed, plies):
                for draw in self.warm_draws(view, names, events):
                    board_png(draw, self.game_key)

    async def picture(self, match: Match, result: Result | None) -> discord.File:
        """The board's picture and alt text, in the channel's language (:func:`channel`; also when drawn
        early, in a task started from the mover's click)."""
        with in_channel(match):
            name = self.picture_name(match, result)
            data: bytes | None = None
            if result is not None:
                self.stop_ahead(match.id)  # the position it was for is gone
                data = self.taken_ahead(match, result) if name.endswith(".png") else None
            if data is None:
                data = await draw_off_loop_if_long(name, self._picture_bytes, match, result, name)
            return self.described(match, result, data, name)

    def described(self, match: Match, result: Result | None, data: bytes, name: str) -> discord.File:
        """The board's picture as an attachment with its alt text (:meth:`alt_text`, in the channel's
        language), kept for the DM turn notice that may follow it."""
        with in_channel(match):
            alt = self.alt_text(match, result)
            self._keep_shown(match, data, name, alt)
        return picture_file(data, name, alt)

    def alt_text(self, match: Match, result: Result | None) -> str:
        """The picture's description for screen readers, from the view it is drawn from: the game's
        ``describe.alt_text`` (the platform adds how a resigned or timed-out match ended, and the last
        move from the log where the game's words have none); at most 1,024 characters."""
        return describe_board(self.game_key, match, result, self.result_words(match)
                              if self.ended_by_platform(match) else "")

    _shown: dict[int, tuple[int, bytes, str, str, str]] | None = None
    SHOWN_KEPT = 256
    """Matches whose last board picture is kept (for the turn notice by DM that follows it)."""

    def _keep_shown(self, match: Match, data: bytes, name: str, alt: str = "") -> None:
        if self._shown is None:
            self._shown = {}
        self._shown.pop(match.id, None)
        self._shown[match.id] = (match.version, data, name, alt, language())
        while len(self._shown) > self.SHOWN_KEPT:
            del self._shown[next(iter(self._shown))]

    def shown_picture(self, match: Match) -> tuple[bytes, str, str] | None:
        """The picture of the board just drawn for this position of the match (bytes, file name, alt text),
        if any was drawn in the current language (its words are drawn in the picture)."""
        kept = (self._shown or {}).get(match.id)
        if kept is None or kept[0] != match.version or kept[4] != language():
            return None
        return kept[1], kept[2], kept[3]

    # -- boards drawn while the player chooses ------------------------------------------------------------
    _drawn_ahead: Kept | None = None
    _drawn_in: dict[int, str] | None = None  # per match: the language its boards drawn ahead are in
    _drawing_ahead: dict[int, asyncio.Task[None]] | None = None

    AHEAD_MOST = 4
    """Moves whose boards :meth:`draw_ahead` draws at most: EOF's sizes, a Pylon stack's directions, a Fire
    and Ice piece with few destinations. A piece with a dozen would cost the bot more drawing than the one
    click it saves (bench/move_floor.py: a busy bot's other moves wait for it).

    Not kept (stop 49): every move's engine step, view and board in an idle worker process, up to a Pylon
    pyramid's 30 squares. The bench's next click came 4-12 ms after the choice, before the worker's first
    boards were back (1 hit in about 280 clicks), and the worker slowed the bot's moves (with the computer
    thinking, Pylon 2.6 and Fire and Ice 2.4-2.7 times the floor, against 1.8-2.3 without it)."""

    def draw_ahead(self, match: Match, seat: int, texts: Sequence[str]) -> None:
        """While ``seat`` chooses among the moves ``texts`` (a handful, each played by one click), draw the
        board each of them would give (:meth:`MatchService.preview`), so that the click's answer only sends
        it: on the event loop, after the answer that offered them, one move at a time (its engine step, then
        its picture: 2-4 ms), each one kept as soon as it is drawn. A click before its board is drawn is
        drawn as usual; nothing is drawn ahead with a tournament clock (the picture shows the time left), or
        for more than :data:`AHEAD_MOST` moves."""
        if match.rec.clocks or match.status != Status.RUNNING or not 0 < len(texts) <= self.AHEAD_MOST:
            self.stop_ahead(match.id)
            return
        self.run_ahead(match.id, self._draw_ahead(match, seat, list(texts)))

    def run_ahead(self, match_id: int, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (done ahead of the match's next click) as a task, instead of any still running for
        the match; it is cancelled when the match's position changes (:meth:`picture`)."""
        self.stop_ahead(match_id)
        if self._drawing_ahead is None:
            self._drawing_ahead = {}
        task = asyncio.create_task(work)
        self._drawing_ahead[match_id] = task
        task.add_done_callback(partial(self._ran_ahead, match_id))

    async def _draw_ahead(self, match: Match, seat: int, texts: list[str]) -> None:
        drawn = []
        lang = ""
        for text in texts:
            await asyncio.sleep(0)  # the loop's other work goes first
            try:
                ahead, events = self.service.preview(match, seat, text)
            except GameError:
                continue
            await asyncio.sleep(0)
            try:
                with in_channel(match):  # the words drawn on it are the channel's
                    png = self.render_picture(ahead, Result(ahead, events=events, actor=seat,
                                                            before=match.state))
                    lang = language()
            except Exception:  # only a head start: the click draws its board anyway
                log.exception("drawing the boards of match %s ahead failed", match.id)
                return
            drawn.append((ahead.view(None), events, png))
            store = self._ahead_store()
            store.drop(match.id)  # (the boards drawn so far, or another choice's: a piece chosen before)
            store.put(match.id, list(drawn))
            if self._drawn_in is None:
                self._drawn_in = {}
            self._drawn_in.pop(match.id, None)
            self._drawn_in[match.id] = lang  # the words drawn on them: taken only for a board in it
            while len(self._drawn_in) > 4096:  # (matches that ended without taking theirs)
                del self._drawn_in[next(iter(self._drawn_in))]

    def _ahead_store(self) -> Kept:
        if self._drawn_ahead is None:
            self._drawn_ahead = Kept(DRAWN_AHEAD_BYTES, lambda drawn: sum(len(d[2]) + 4_000 for d in drawn))
        return self._drawn_ahead

    def _ran_ahead(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._drawing_ahead is not None and self._drawing_ahead.get(match_id) is task:
            del self._drawing_ahead[match_id]

    def stop_ahead(self, match_id: int) -> None:
        task = self._drawing_ahead.pop(match_id, None) if self._drawing_ahead is not None else None
        if task is not None:
            task.cancel()

    def taken_ahead(self, match: Match, result: Result) -> bytes | None:
        """The board drawn ahead (:meth:`draw_ahead`) for the position and events the move gave, if any;
        the match's other boards drawn ahead go (the move is made)."""
        store = self._ahead_store()
        drawn = store.get(match.id)
        if drawn is None:
            return None
        store.drop(match.id)
        if (self._drawn_in or {}).get(match.id, language()) != language():
            return None  # drawn in another language than the board's (the server's changed since)
        view = match.view(None)
        for ahead_view, events, png in drawn:
            if ahead_view == view and events == result.events:
                data: bytes = png
                return data
        return None

    def stop_all_ahead(self) -> None:
        """Cancel all work done ahead (the cog is unloaded)."""
        for task in list((self._drawing_ahead or {}).values()):
            task.cancel()

    async def cog_unload(self) -> None:
        self.stop_all_ahead()
        await super().cog_unload()

    def _picture_bytes(self, match: Match, result: Result | None, name: str) -> bytes:
        if name.endswith(".png") and self.ended_by_platform(match) and match.outcome is not None:
            try:  # the engine's picture of a finished game (no "to move"), with the result below it
                img = self.game.render(ended_view(match.view(None), match.outcome), names=match.names(),
                                       clocks=match.clocks_ms(self.service.clock()))
                data = png_bytes(img)
            except Exception:
                data = self.render_picture(match, result)
            return result_band(data, self.result_words(match))
        return self.render_picture(match, result)

    def ended_by_platform(self, match: Match) -> bool:
        """Finished by resignation, timeout or an admin: the engine's own picture still shows the turn."""
        return (match.status in (Status.FINISHED, Status.ABORTED) and match.state is not None
                and match.rules.outcome(match.state) is None)

    def outcome_detail(self, match: Match) -> str:
        """How the match ended, in the current language: the engine's words for its final position (the
        stored outcome's are in the language of the channel that saw the end), else the stored words (a
        resignation, a timeout, an admin's stop)."""
        own = match.rules.outcome(match.state) if match.state is not None else None
        if own is not None and own.detail:
            return own.detail
        out = match.outcome
        return out.detail if out is not None and out.detail else ""

    def result_words(self, match: Match) -> str:
        """The end of the match in plain words (for the picture)."""
        out = match.outcome
        if out is None:
            return _("The match is over.")
        winners = ", ".join(match.seats[s].name for s in sorted(out.winners))
        head = self.outcome_detail(match)
        if out.is_draw:
            return (head + " " + _("Draw.")).strip()
        return (head + " " + _("{winners} won.", winners=winners)).strip() if winners else head

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        """The board's buttons/selects for the current position (``state`` for multi-step pickers)."""
        return []

    async def board_kwargs(self, match: Match, result: Result | None, state: str = "", *,
                           picture: Awaitable[discord.File] | None = None) -> dict[str, Any]:
        """The board message's parts; ``picture`` is its picture when already being drawn. In the channel's
        language (:func:`channel`), whoever's click or command it answers."""
        with in_channel(match):
            file = await (picture if picture is not None else self.picture(match, result))
            # nothing to click while only the computer is to move (it is thinking: the board is edited soon)
            thinking = match.status == Status.RUNNING and all(match.seats[s].is_ai for s in match.to_act())
            items = self.components(match, state) if match.status == Status.RUNNING and not thinking else []
            view = v.view_of(*items)
            if match.status == Status.RUNNING and match.rec.thread_id is not None:
                # spectators join the thread from the board (skipped when the board's rows are full)
                with contextlib.suppress(ValueError):
                    view.add_item(v.button(match.id, None, "watch", label=_("Watch"), emoji="👀", row=4))
            parts: dict[str, Any] = {"embed": self.board_embed(match, result), "file": file, "view": view}
            text = await self.text_for_players(match, result)
            if text:
                parts["content"] = text
            return parts

    async def text_for_players(self, match: Match, result: Result | None) -> str:
        """The board as text in the board message itself (no extra request) when a player to move on it
        chose text boards (``/notify boards:text``): built for the first of them, from the channel's view."""
        to_act = [s for s in sorted(match.to_act()) if not match.seats[s].is_ai]
        if not to_act or match.rec.guild_id is None:
            return ""
        users = await text_boards_of(self.bot).users(match.rec.guild_id)
        chosen = [s for s in to_act if match.seats[s].user_id in users]
        return text_for(self.game_key, match, chosen[0], result=result) if chosen else ""

    # -- one board at a time, never an older one over a newer ---------------------------------------------
    BOARD_VERSIONS_KEPT = 4096

    def outdated(self, match: Match) -> bool:
        """Whether a newer position of the match has already been shown on its board: the older one's edit
        or post is then dropped (it would bring back a retired board, or the position before the last)."""
        return match.version < self._board_versions.get(match.id, -1)

    def board_shown(self, match: Match) -> None:
        """Remember that the board now shows ``match``'s version (a bounded record, newest matches kept)."""
        shown = max(match.version, self._board_versions.pop(match.id, -1))
        self._board_versions[match.id] = shown
        while len(self._board_versions) > self.BOARD_VERSIONS_KEPT:
            del self._board_versions[next(iter(self._board_versions))]

    async def post_board(self, place: discord.abc.Messageable | None, match: Match, result: Result | None, *,
                         retire: bool = True, prepared: dict[str, Any] | None = None,
                         pings: list[int] | None = None) -> None:
        """Send a fresh board message and make it the match's one live board.

        It pings (in its content) the players whose turn just began and who chose thread pings; the
        previous board is edited in the same step to say it moved on (no "to move", no controls).
        ``prepared`` is the board's :meth:`board_kwargs` when the caller has drawn it already, ``pings``
        the thread seats of :meth:`pending_pings` when the caller has read them already.
        """
        async with self.board_lock(match.id):
            if self.outdated(match):
                log.info("board of match %s: version %s is older than the one shown; not posted", match.id,
                         match.version)
                return
            await self._post_board(place, match, result, retire=retire, prepared=prepared, pings=pings)

    async def _post_board(self, place: discord.abc.Messageable | None, match: Match, result: Result | None, *,
                          retire: bool, prepared: dict[str, Any] | None, pings: list[int] | None) -> None:
        if place is None:
            place = await self.place_of(match)
        if place is None:
            return
        with in_channel(match):
            kwargs = prepared if prepared is not None else await self.board_kwargs(match, result)
            thread_seats = pings if pings is not None else (await self.pending_pings(match, result))[0]
            content = self.turn_content(match, thread_seats, kwargs.pop("content", None))
        users = [match.seats[s].user_id for s in thread_seats]
        old = match.rec.message_id
        try:
            msg = await place.send(content=content, **kwargs, allowed_mentions=mentions_of(users))
        except discord.NotFound as exc:
            if exc.code != 10003:
                raise
            await self.bot.place_gone(match)  # deleted without our noticing (10003): abort it, unrated
            return
        if result is not None:
            result.notified.update(thread_seats)
        self.board_shown(match)
        await self.service.set_place(match.id, message_id=msg.id)
        match.rec.message_id = msg.id
        if retire and old and old != msg.id:
            await self.retire(place, match, old, msg.jump_url)

    def retired_embed(self, match: Match, url: str) -> discord.Embed:
        """What an earlier board says once a newer one exists (in the channel's language)."""
        with in_channel(match):
            seats = versus(self.seat_label(match, s.seat) for s in match.seats)
            embed = discord.Embed(
                title=f"{self.spec.title} · {seats}"[:256],
                description=_("Moved on: see the latest board ↓\n[Jump to the latest board]({url})", url=url),
                colour=COLOUR_OLD,
            )
            embed.set_footer(text=match_tag(match.id) + " · " + _("an earlier position"))
        return embed

    async def retire(self, place: Any, match: Match, message_id: int, url: str) -> None:
        """Edit an earlier board: no "to move", no controls, a link to the latest (its picture stays)."""
        if message_id in self._retired:
            return
        try:
            await place.get_partial_message(message_id).edit(embed=self.retired_embed(match, url), view=None,
                                                             content=None)
            self._retired.add(message_id)
        except FAILURES as exc:
            if not transient(exc):
                log.info("could not retire board %s of match %s", message_id, match.id)
                return
            # a Discord incident: retried from the store until it answers (unless it is live again by then)
            payload = message_payload(embed=self.retired_embed(match, url), view=None, content=None)
            await self.bot.chores.later(match.id, "retire", place.id, message_id, payload, exc)

    async def edit_board(self, interaction: discord.Interaction, match: Match, state: str) -> None:
        """Show a different step of a multi-step picker (no move; no new picture): the board's components,
        in the channel's language."""
        with in_channel(match):
            view = v.view_of(*self.components(match, state))
        await interaction.response.edit_message(view=view)

    async def refresh_board(self, match: Match, result: Result | None) -> None:
        """Edit the stored board message (moves not made by a click: AI, timeouts).

        When the change begins someone's turn and they take thread pings, a new board is posted
        instead (edits never notify) and this one retired. Nothing is sent when a newer position of the
        match has been shown meanwhile (:meth:`outdated`).
        """
        async with self.board_lock(match.id):
            if self.outdated(match):
                log.info("board of match %s: version %s is older than the one shown; not edited", match.id,
                         match.version)
                return
            await self._refresh_board(match, result)

    async def _refresh_board(self, match: Match, result: Result | None) -> None:
        place = await self.place_of(match)
        thread_seats, _dms = await self.pending_pings(match, result)
        if (
            place is None
            or match.rec.message_id is None
            or thread_seats
            or match.rec.message_id in self._retired
        ):
            await self._post_board(place, match, result, retire=True, prepared=None, pings=None)
            return
        with in_channel(match):
            kwargs = await self.board_kwargs(match, result)
        file = kwargs.pop("file")
        kwargs["content"] = kwargs.get("content")  # an earlier "your turn" line goes
        msg = place.get_partial_message(match.rec.message_id)  # type: ignore[attr-defined]
        try:
            await msg.edit(**kwargs, attachments=[file])
        except discord.NotFound:
            await self._post_board(place, match, result, retire=True, prepared=None, pings=None)
            return
        self.board_shown(match)

    async def announce_result(self, match: Match, result: Result) -> None:
        place = await self.place_of(match)
        if place is None:
            return
        with in_channel(match):
            embed = discord.Embed(title=_("{game}: match over", game=self.spec.title),
                                  description=self.status_line(match), colour=COLOUR_END)
            if result.ratings:
                lines = [f"<@{ch.user_id}> {rating_change_text(ch)}" for ch in result.ratings]
                note = "*" + _(RATING_NOTE) + "*"
                embed.add_field(name=_("Ratings"), value="\n".join([*lines, note])[:1024])
            elif not match.rec.rated or any(s.is_ai for s in match.seats):
                embed.set_footer(text=_("Unrated match."))
            view = self.rematch_view(match)
        try:
            await place.send(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        except FAILURES as exc:
            if not transient(exc):
                raise
            payload = message_payload(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
            await self.bot.chores.later(match.id, "result", match.rec.place_id, None, payload, exc)
        await self.show_result_on_header(match)

    async def show_result_on_header(self, match: Match) -> None:
        """The post in the channel the match was started from (its header: the challenge, lobby or start
        message) shows the result with a link to the final board: the thread is archived an hour later."""
        header = match.rec.ui.get("header")
        if not header or not match.rec.thread_id:
            return  # no header, or the match was played in that channel itself (the result is right there)
        with in_channel(match):
            names = versus(shown(s.name) for s in match.seats)
            embed = discord.Embed(
                title=f"{self.spec.title}: {names}"[:256],
                description=(self.status_line(match) + "\n"
                             + _("[See the final board]({url})", url=self.jump_url(match)))[:4000],
                colour=COLOUR_END,
            )
            embed.set_footer(text=f"{match_tag(match.id)} · {self.options_summary(match)}"[:2048])
        channel = self.bot.get_partial_messageable(match.rec.channel_id, guild_id=match.rec.guild_id)
        try:
            await channel.get_partial_message(int(str(header))).edit(embed=embed, view=None, content=None)
        except discord.HTTPException:
            log.info("could not show the result of match %s on its header", match.id)

    async def pending_pings(self, match: Match, result: Result | None) -> tuple[list[int], list[int]]:
        """(seats to ping in the thread, seats to DM) for the turn that ``result`` began, not yet told."""
        private = self.private_notices(match, result) if result is not None else set()
        return await self.turns.split(match, [s for s in newly_to_act(match, result) if s not in private])

    def private_notices(self, match: Match, result: Result) -> set[int]:
        """Seats the game itself tells privately about this result (EOF: the program builder by DM, or its
        button in the thread when DMs are closed): that message is their turn notice."""
        return set()

    def rematch_view(self, match: Match) -> discord.ui.View:
        if "tournament" in match.rec.ui:  # a tournament pairing: the event decides who plays next
            return v.view_of()
        return v.view_of(v.button(match.id, None, "rematch", label=_("Rematch"), emoji="🔁",
                                  style=discord.ButtonStyle.primary))

    def default_level(self) -> str:
        levels = self.spec.ai_levels
        return levels[len(levels) // 2] if levels else ""
