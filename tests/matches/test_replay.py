"""Replays from the move log (issue #29): steps, chance outcomes folded into the move they follow, a log
that no longer reads on today's engine, the GIF's last part for a game too long for one upload, and the GIF
job: the log, replayed where the GIF is drawn, gives the very bytes the views made beforehand gave."""

from __future__ import annotations

import dataclasses
import inspect
import io
import pickle
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageSequence

from bot.games import GAMES
from bot.games.base import CHANCE, Outcome, Reason
from bot.i18n import speaking
from bot.matches.match import ended_view
from bot.matches.replay import Replay, gif_job, make_gif, positions
from bot.matches.service import Match
from bot.render.match_gif import MAX_FRAMES, MatchGif, match_gif
from bot.storage import MatchRecord, MoveRecord, SeatRecord, Status
from tests.test_records import random_match

JOB_BYTES = 24_000
"""The most a GIF job may weigh pickled: the log of a long game (~10 KB for a 4-player EOF game of 160 moves,
where the views it replaced weighed ~130 KB; ~20 KB for a Nomic World game of 600 plies, the longest
notations)."""


def pylon_match() -> Match:
    rec = MatchRecord(id=7, game="pylon", guild_id=1, channel_id=2, thread_id=None, message_id=None,
                      status=Status.FINISHED, options={}, state=None, version=9, seed="0", host_id=10,
                      rated=False, turn_limit=3600, deadline=None, clocks=None, outcome=None, ui={},
                      created_at=0.0, updated_at=0.0, finished_at=0.0,
                      seats=[SeatRecord(0, 10, "alice"), SeatRecord(1, 11, "bob")])
    return Match(rec)


def log(*moves: tuple[int, str]) -> list[MoveRecord]:
    return [MoveRecord(i, seat, None, text, 0.0) for i, (seat, text) in enumerate(moves)]


def test_a_step_per_move_from_the_start():
    replay = positions(pylon_match(), log((0, "L c3"), (1, "S a1"), (0, "M b2")))
    assert replay.last == 3 and replay.broken is None
    assert [s.notation for s in replay.steps] == ["", "L c3", "S a1", "M b2"]
    assert [s.seat for s in replay.steps] == [None, 0, 1, 0]
    assert replay.step(99) is replay.steps[-1]  # clamped


def test_chance_outcomes_belong_to_the_move_they_follow():
    from bot.matches import replay as module

    m = pylon_match()
    moves = log((0, "L c3"), (CHANCE, "x"), (1, "S a1"))
    calls = []
    real = m.rules

    class Rules:  # pylon has no chance: a stand-in that accepts the outcome "x" and changes nothing
        def __getattr__(self, name):
            return getattr(real, name)

        def parse(self, text, state, seat):
            calls.append(text)
            return None if seat == CHANCE else real.parse(text, state, seat)

        def apply(self, state, seat, move):
            return (state, []) if seat == CHANCE else real.apply(state, seat, move)

    m.rules = Rules()
    replay = module.positions(m, moves)
    assert calls == ["L c3", "x", "S a1"]
    assert replay.last == 2
    assert replay.steps[1].chance == ("x",) and replay.steps[1].notation == "L c3"


def test_a_log_that_no_longer_reads_stops_before_that_move_and_says_so():
    replay = positions(pylon_match(), log((0, "L c3"), (1, "L c3"), (0, "M b2")))  # c3 is taken (rules now)
    assert replay.last == 1 and replay.steps[-1].notation == "L c3"
    assert replay.broken is not None and "Move 2" in replay.broken and "`L c3`" in replay.broken


def test_a_game_too_long_for_one_gif_gives_its_last_part():
    def draw(n: int) -> Image.Image:
        img = Image.new("RGB", (200, 120), (43, 45, 49))
        ImageDraw.Draw(img).rectangle((n % 10 * 20, 0, n % 10 * 20 + 19, 119), fill=(237, 66, 69))
        return img

    whole = match_gif(draw, lambda n: f"Move {n}", 40)
    assert whole.first == 0 and whole.frames == 41 and not whole.cut
    part = match_gif(draw, lambda n: f"Move {n}", 40, max_bytes=len(whole.data) // 3)
    assert part.cut and part.last == 40 and len(part.data) <= len(whole.data) // 3
    frames = list(ImageSequence.Iterator(Image.open(io.BytesIO(part.data))))
    assert len(frames) == part.frames == 41 - part.first
    few = match_gif(draw, lambda n: f"Move {n}", 40, max_frames=5)
    assert (few.first, few.frames) == (36, 5)


def test_the_gif_job_goes_by_steps():
    m = pylon_match()
    replay = positions(m, log((0, "L c3"), (1, "S a1")))
    gif = make_gif(gif_job(m, replay, ("Start", "Move 1", "bob won"), first=0, names=("alice", "bob"),
                           ended=None))
    durations = [f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif.data)))]
    assert durations == [1000, 1000, 5000]


# -- the GIF job: the log, replayed in the worker, against the views made beforehand ----------------------


def frames_gif(game: str, first: int, frames: list[tuple[Any, tuple[Any, ...]]],
               names: tuple[str, ...] | None, captions: list[str]) -> MatchGif:
    """The GIF the way it was made before the job carried the log: every step's view made first (where the
    job was made), then drawn (bot.matches.replay._make_gif of then)."""
    render = GAMES[game].render

    def draw(i: int) -> Any:
        view, events = frames[i]
        if names is None:
            return render(view, events=events)
        return render(view, names=names, events=events)

    gif = match_gif(draw, lambda i: captions[i], len(frames) - 1)
    return dataclasses.replace(gif, first=gif.first + first, last=gif.last + first)


def views_beforehand(match: Match, replay: Replay, captions: list[str], first: int,
                     names: tuple[str, ...] | None, ended: Outcome | None) -> MatchGif:
    frames = []
    for n in range(first, replay.last + 1):
        view = match.rules.view(replay.step(n).state, None)
        if n == replay.last and ended is not None:
            view = ended_view(view, ended)
        frames.append((view, tuple(replay.step(n).events)))
    return frames_gif(match.rec.game, first, frames, names, captions)


def names_for(game: str, match: Match) -> tuple[str, ...] | None:
    return tuple(match.names()) if "names" in inspect.signature(GAMES[game].render).parameters else None


@pytest.mark.parametrize("game", sorted(GAMES.builtin()))
def test_the_gif_from_the_log_is_the_gif_from_the_views_for_every_game(game):
    """Seeded random games of every game: played to the end (the engine's own end; Nomic World may be cut
    and resigned), and stopped half-way by the platform (a resignation: the last view is ended) with only
    its last part shown; in two languages. The job goes through pickle, as to the worker process, and
    weighs little."""
    seen_ended = 0
    for seed, cut, lang in ((1, False, "en"), (2, True, "es")):
        rec, moves, _states = random_match(game, seed)
        if cut:  # resigned half-way
            moves = moves[: len(moves) // 2]
            rec.outcome = Outcome.forfeit(0, len(rec.seats), Reason.RESIGNATION).dump()
        match = Match(rec)
        with speaking(lang):
            replay = positions(match, moves)
            assert replay.broken is None
            state = replay.steps[-1].state
            ended = match.outcome if match.rules.outcome(state) is None else None
            seen_ended += ended is not None
            first = max(0, replay.last - MAX_FRAMES + 1) if not cut else replay.last // 3  # (a last part)
            captions = [f"{game} {seed} step {n}" for n in range(first, replay.last + 1)]
            names = names_for(game, match)
            job = gif_job(match, replay, captions, first=first, names=names, ended=ended)
            before = views_beforehand(match, replay, captions, first, names, ended)
        data = pickle.dumps(job)
        assert len(data) < JOB_BYTES, (game, seed, len(data))
        with speaking("pt_BR"):  # the worker draws in the job's language, whatever is current there
            after = make_gif(pickle.loads(data))
        assert after == before, (game, seed)
        assert (after.first, after.last) == (first, replay.last)
    assert seen_ended  # the ended view was drawn


def test_a_running_match_with_hidden_information_sends_nothing_hidden_to_be_drawn():
    """A running EOF match: the frames are the channel's views (the same bytes as those views drawn)."""
    rec, moves, _states = random_match("eof", 3)
    cut = next(i for i, mv in enumerate(moves) if mv.seat != CHANCE and i > 10)
    rec.status, rec.outcome = Status.RUNNING, None
    match = Match(rec)
    replay = positions(match, moves[: cut + 1])
    captions = [str(n) for n in range(replay.last + 1)]
    job = gif_job(match, replay, captions, first=0, names=names_for("eof", match), ended=None)
    channel = views_beforehand(match, replay, captions, 0, job.names, None)
    assert make_gif(job) == channel
    seat = moves[cut].seat  # that seat's own view of the last position differs from the channel's
    assert match.rules.view(replay.steps[-1].state, seat) != match.rules.view(replay.steps[-1].state, None)
