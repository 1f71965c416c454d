"""Several picks in one GIF (picks_gif): a player's pick and the computer's answer, each sowing in order."""

from __future__ import annotations

import importlib
import io

import pytest
from PIL import Image

from bot.games.egg_carton import RULES, animate, picks_gif, sowing_gif, sowings_ahead
from bot.games.egg_carton.render import SPEEDS
from bot.games.samples import sample_plays

sowing = importlib.import_module("bot.games.egg_carton.sowing")
NAMES = ["alice", "bob"]


def forget() -> None:
    for kept in (sowing._TILES, sowing._FRAME_DATA, sowing._AHEAD, sowing._READY):
        kept.clear()


def runs(n: int = 3) -> list[list[tuple]]:
    """Runs of ``n`` moves in a row of seeded random games (each one's view after is the next one's view
    before)."""
    plays = sample_plays(RULES, 2, 5)
    return [plays[i:i + n] for i in range(0, len(plays) - n, 7)][:6]


def shown(data: bytes) -> list[tuple[bytes, int]]:
    """The GIF's frames as a viewer sees them (RGB) and how long: a frame written in parts counted once."""
    gif = Image.open(io.BytesIO(data))
    out, spent = [], 0
    for i in range(gif.n_frames):
        gif.seek(i)
        ms = gif.info["duration"]
        if ms == sowing.PART_MS:
            spent += ms
            continue
        out.append((gif.convert("RGB").tobytes(), ms + spent))
        spent = 0
    return out


@pytest.mark.parametrize("speed", ["fast", "normal"])
def test_each_pick_is_played_in_order_once_ending_on_the_new_position(speed):
    pause = SPEEDS[speed] * sowing.PAUSE_STEPS
    for run in runs():
        data = picks_gif(run, names=NAMES, speed=speed)
        want = []
        for n, (before, events, after) in enumerate(run):
            frames = animate(before, events, after, names=NAMES, speed=speed)
            if n < len(run) - 1:  # the new position held for a pause, then the next pick's sowing
                frames[-1] = (frames[-1][0], pause)
            want += [(f.convert("RGB").tobytes(), ms // 10 * 10) for f, ms in frames]
        assert shown(data) == want
        assert b"NETSCAPE2.0" not in data  # played once


def test_one_pick_is_its_sowing():
    (before, events, after), *_ = runs()[0]
    assert picks_gif([(before, events, after)], names=NAMES) == sowing_gif(before, events, after, names=NAMES)
    with pytest.raises(ValueError, match="No pick"):
        picks_gif([], names=NAMES)


def test_the_first_pick_encoded_ahead_is_taken_and_changes_nothing(monkeypatch):
    """While the player thinks every pick's sowing is encoded (sowings_ahead); when the computer answers
    their pick, its picks are appended to that pick's sowing as encoded -- the same bytes as from nothing."""
    real, resumed = sowing._encode, []

    def encode(*args, resume=None):
        resumed.append(resume)
        return real(*args, resume=resume)

    for run in runs()[:3]:
        forget()
        cold = picks_gif(run, names=NAMES, speed="fast")
        forget()
        before = run[0][0]
        state = RULES.initial({}, 2)  # the position of run[0]'s view: found by replaying the sample game
        for play in sample_plays(RULES, 2, 5):
            if play[0] == before:
                break
            seat = play[0].to_move
            picked = next(e.data["slot"] for e in play[1] if e.kind == "pick")
            state = RULES.apply(state, seat, RULES.parse(picked, state, seat))[0]
        seat = before.to_move
        picks = [(events, RULES.view(after, None)) for after, events in
                 (RULES.apply(state, seat, RULES.parse(letter, state, seat))
                  for letter, count in before.side(seat) if count)]
        for _ in sowings_ahead(before, picks, names=NAMES, speed="fast"):
            pass
        ((_position, ready),) = sowing._READY.items.items()
        resumed.clear()
        monkeypatch.setattr(sowing, "_encode", encode)
        data = picks_gif(run, names=NAMES, speed="fast")
        monkeypatch.setattr(sowing, "_encode", real)
        assert data == cold
        ((start, head),) = resumed  # the rest only, after the ready part
        assert head in [gif[:last_at] for gif, last_at in ready.values()] and data.startswith(head)
        assert start == len(animate(*run[0], names=NAMES, speed="fast")) - 1
        assert not sowing._READY.items  # the pick is made: the other picks' sowings go
