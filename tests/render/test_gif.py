"""Animations are written frame by frame as the boxes that changed (bot.render.palette.gif_bytes): every
decoded frame must be the frame that was drawn, with its duration, looping only when asked."""

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageSequence

from bot.render import gif_bytes


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    gif = Image.open(io.BytesIO(data))
    return [(f.convert("RGB"), f.info.get("duration")) for f in ImageSequence.Iterator(gif)]


def moving_dot(n: int, seed: int = 1) -> list[Image.Image]:
    """Palette frames of one palette: a dot that moves, a frame that does not change, a corner that does."""
    rng = random.Random(seed)
    base = Image.new("RGB", (120, 80), (43, 45, 49))
    ImageDraw.Draw(base).rectangle((10, 10, 110, 70), fill=(62, 66, 74))
    palette = base.quantize(colors=16)
    out = []
    for i in range(n):
        img = base.copy()
        d = ImageDraw.Draw(img)
        if i != 2:  # frame 2 repeats frame 1
            x, y = rng.randrange(10, 100), rng.randrange(10, 60)
            d.ellipse((x, y, x + 12, y + 12), fill=(250, 166, 26))
        if i == n - 1:
            d.rectangle((0, 0, 3, 3), fill=(237, 66, 69))  # the very corner
        out.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    out[2] = out[1].copy()
    return out


@pytest.mark.parametrize("loop", [None, 0])
def test_every_frame_comes_back_as_drawn_with_its_time(loop):
    frames = moving_dot(7)
    times = [100, 120, 140, 160, 180, 200, 2500]
    data = gif_bytes(frames, times, loop=loop)
    back = frames_of(data)
    assert len(back) == len(frames)
    for (got, ms), want, t in zip(back, frames, times, strict=True):
        assert ImageChops.difference(got, want.convert("RGB")).getbbox() is None
        assert ms == t
    assert ("loop" in Image.open(io.BytesIO(data)).info) == (loop is not None)


def test_only_what_changed_is_written_after_the_first_frame():
    frames = moving_dot(12)
    assert len(gif_bytes(frames, 100)) < 0.5 * 12 * len(gif_bytes(frames[:1], 100))


def test_rgb_frames_each_with_its_own_palette_come_back_too():
    rgb = [f.convert("RGB") for f in moving_dot(4)]
    back = frames_of(gif_bytes(rgb, 100))  # quantised one by one: palettes differ, Pillow's writer
    assert len(back) == 4
    for (got, _), want in zip(back, rgb, strict=True):
        assert ImageChops.difference(got, want).getbbox() is None


def test_durations_must_match_the_frames():
    with pytest.raises(ValueError):
        gif_bytes(moving_dot(3), [100, 100])
