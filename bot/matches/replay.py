"""The positions of a match, rebuilt from its move log: what a replay steps through.

The log is the record: every move in its canonical notation (``Rules.format``), chance outcomes as moves
of seat :data:`~bot.games.base.CHANCE`, and the options and seats the match was set up with. A replay is
``initial`` + ``parse`` + ``apply`` over it, exactly as the match was played -- never stored pictures and
never the stored state (a cache of the last position).

Steps: step 0 is the start (with the chance outcomes that set it up: who moves first, a deal), step ``n``
the position after the ``n``-th move of a player, together with the chance outcomes that followed it (the
board the players saw after that move showed them too).

Engine changes: the notation is the engines' stable interface (``parse(format(m)) == m`` is tested for
every game), so a match played under an older engine replays as long as its moves still read. When one no
longer does (a rule or notation change), the replay stops at the last position it could rebuild and says
so (:attr:`Replay.broken`); it never guesses.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import CHANCE, Event, Outcome, Seat
from bot.i18n import _, language, speaking
from bot.matches.match import Match, ended_view, engine_options
from bot.matches.workers import Worker
from bot.render.match_gif import MatchGif, match_gif
from bot.storage import MatchRecord, MoveRecord, Status

log = logging.getLogger(__name__)

KEPT = 32
"""Replays kept in memory (least recently used out): a replay is stepped through click by click, and a
finished match's positions never change."""


@dataclass(frozen=True)
class Step:
    """One position of a replay and how it was reached."""

    state: Any
    events: tuple[Event, ...] = ()
    moves: tuple[MoveRecord, ...] = ()
    """The log records of this step: a player's move first, then the chance outcomes after it."""

    @property
    def seat(self) -> Seat | None:
        """Who moved (None at the start)."""
        first = next((mv for mv in self.moves if mv.seat != CHANCE), None)
        return first.seat if first is not None else None

    @property
    def notation(self) -> str:
        first = next((mv for mv in self.moves if mv.seat != CHANCE), None)
        return first.notation if first is not None else ""

    @property
    def chance(self) -> tuple[str, ...]:
        return tuple(mv.notation for mv in self.moves if mv.seat == CHANCE)


@dataclass(frozen=True)
class Replay:
    """Every position of a match, from the start (step 0) to the last move (step ``len(self) - 1``)."""

    match_id: int
    version: int
    steps: tuple[Step, ...]
    broken: str | None = None
    """Why the log could not be replayed to its end (the engine changed since): the steps stop before it."""

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def last(self) -> int:
        """The number of the last move (the steps are 0..last)."""
        return len(self.steps) - 1

    def step(self, n: int) -> Step:
        """Step ``n``, clamped to the replay."""
        return self.steps[min(max(n, 0), self.last)]


def initial_state(match: Match) -> Any:
    """The match's start position, set up as it was (engine options; EOF's colours from the seats)."""
    engine_opts = engine_options(match.options)
    setup = getattr(match.game.module, "setup_options", None)
    seats = int(match.rec.ui.get("start_seats", len(match.seats)))
    if setup is not None:
        engine_opts = setup(engine_opts, match.rec.seats[:seats])
    return match.rules.initial(engine_opts, seats)


def positions(match: Match, moves: Sequence[MoveRecord]) -> Replay:
    """The steps of ``match`` from its log ``moves`` (see the module docstring)."""
    rules = match.rules
    state = initial_state(match)
    steps: list[Step] = []
    events: list[Event] = []
    records: list[MoveRecord] = []
    broken = None
    for mv in moves:
        if mv.seat != CHANCE:  # a player's move: the position before it is complete
            steps.append(Step(state, tuple(events), tuple(records)))
            events, records = [], []
        try:
            move = rules.parse(mv.notation, state, mv.seat)
            state, new = rules.apply(state, mv.seat, move)
        except ValueError as exc:  # GameError is a ValueError: the log no longer reads on this engine
            broken = _("Move {number} (`{move}`) does not replay on today's rules ({reason}); the replay "
                       "stops before it.", number=max(len(steps), 1), move=mv.notation, reason=exc)
            break
        events.extend(new)
        records.append(mv)
    if records or not steps:  # (a move that failed to replay left the last step complete already)
        steps.append(Step(state, tuple(events), tuple(records)))
    return Replay(match.id, match.version, tuple(steps), broken)


_kept: OrderedDict[tuple[int, int, str], Replay] = OrderedDict()
"""Kept per language too: the steps' event texts are written in the language the replay was built in."""


def kept(match: Match) -> Replay | None:
    """The replay of this version of the match, if built lately (in the current language)."""
    found = _kept.get((match.id, match.version, language()))
    if found is not None:
        _kept.move_to_end((match.id, match.version, language()))
    return found


def keep(replay: Replay) -> Replay:
    _kept[(replay.match_id, replay.version, language())] = replay
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return replay


_ended: OrderedDict[int, Match] = OrderedDict()


def ended_match(match_id: int) -> Match | None:
    """A match that had ended when its replay was last built (kept: an ended match's record and log never
    change again), so a replay's click needs no database read; None if not kept."""
    found = _ended.get(match_id)
    if found is not None:
        _ended.move_to_end(match_id)
    return found


async def replay_of(service: Any, match: Match) -> Replay:
    """The replay of ``match`` (kept, or rebuilt from its log: a few ms for the longest games)."""
    if match.status in (Status.FINISHED, Status.ABORTED):
        _ended[match.id] = match
        while len(_ended) > KEPT:
            _ended.popitem(last=False)
    found = kept(match)
    if found is not None:
        return found
    moves = await service.history(match.id)
    return keep(positions(match, moves))


# -- the whole game as one GIF, made in another process ------------------------------------------------


@dataclass(frozen=True)
class GifJob:
    """What the GIF of a match is drawn from, as plain data for another process: the match's log, replayed
    where the GIF is drawn (:func:`positions`: the loop does not build ~160 views and pickle ~130 KB of them
    for a 4-player EOF game, the job is ~10 KB), the first step shown, the names, each frame's caption (the
    last: the result) and how the last frame ends. The pictures are the channel's views (``view(None)``):
    nothing hidden appears, whether the match is on or over."""

    rec: MatchRecord
    """The match's record without its state (a cache of the last position) or clocks: the game, and the
    options and seats :func:`initial_state` sets the start up from."""
    moves: tuple[tuple[Seat, str], ...]
    """The log, ``(seat, notation)`` per move: every move of the replay the job is made from (those that
    replay). Not the records: their user ids and times would triple the job's size and draw nothing."""
    first: int
    """The step of the first frame (0, or later for a game longer than one GIF holds)."""
    names: tuple[str, ...] | None
    captions: tuple[str, ...]
    """One per frame, steps ``first`` to the last."""
    ended: Outcome | None = None
    """The outcome the last frame shows the match ended with, when the platform ended it (a resignation, a
    timeout: the engine's view still has someone to move); None when the engine's own view says it."""
    lang: str = field(default_factory=language)
    """The language the pictures' words are drawn in (where the job is made); passed, as the worker process
    does not share the bot's context."""

    @property
    def game(self) -> str:
        return self.rec.game


def gif_job(match: Match, replay: Replay, captions: Sequence[str], *, first: int,
            names: Sequence[str] | None, ended: Outcome | None) -> GifJob:
    """The job of the GIF of ``replay``'s steps ``first`` to the last, captioned ``captions``."""
    rec = dataclasses.replace(match.rec, state=None, clocks=None,
                              ui={k: v for k, v in match.rec.ui.items() if k == "start_seats"})
    moves = tuple((mv.seat, mv.notation) for step in replay.steps for mv in step.moves)
    return GifJob(rec, moves, first, tuple(names) if names is not None else None, tuple(captions), ended)


def make_gif(job: GifJob) -> MatchGif:
    """The GIF of ``job`` (:func:`bot.render.match_gif.match_gif`), in the job's language: its log replayed
    (the events' words too), each step's channel view drawn; ``first``/``last`` count steps."""
    with speaking(job.lang):
        return _make_gif(job)


def _make_gif(job: GifJob) -> MatchGif:
    match = Match(job.rec)
    replay = positions(match, [MoveRecord(i, seat, None, notation, 0.0)
                               for i, (seat, notation) in enumerate(job.moves)])
    render = match.game.render
    last = len(job.captions) - 1

    def draw(i: int) -> Any:
        step = replay.step(job.first + i)
        view = match.rules.view(step.state, None)
        if i == last and job.ended is not None:
            view = ended_view(view, job.ended)
        if job.names is None:
            return render(view, events=step.events)
        return render(view, names=job.names, events=step.events)

    gif = match_gif(draw, lambda i: job.captions[i], last)
    return dataclasses.replace(gif, first=gif.first + job.first, last=gif.last + job.first)


_GIFS = Worker("GIF")


async def gif_off_loop(job: GifJob) -> MatchGif:
    """:func:`make_gif` in a worker process (one, started on first use): drawing a long game takes about a
    second of CPU, and in a thread of this process it would hold the GIL against every other match's moves
    (bench/replay.py measures both). If the process cannot be used, a worker thread does it."""
    return await _GIFS.run(make_gif, job)


def stop_gif_process() -> None:
    """Stop the GIF worker process (the bot is closing)."""
    _GIFS.stop()
