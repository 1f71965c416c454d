"""Replays from the move log (issue #29): steps, chance outcomes folded into the move they follow, a log
that no longer reads on today's engine, and the GIF's last part for a game too long for one upload."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageSequence

from bot.games.base import CHANCE
from bot.matches.replay import GifJob, make_gif, positions
from bot.matches.service import Match
from bot.render.match_gif import match_gif
from bot.storage import MatchRecord, MoveRecord, SeatRecord, Status


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
    frames = tuple((m.rules.view(s.state, None), s.events) for s in replay.steps)
    gif = make_gif(GifJob("pylon", 0, frames, ("alice", "bob"), ("Start", "Move 1", "bob won")))
    durations = [f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif.data)))]
    assert durations == [1000, 1000, 5000]
