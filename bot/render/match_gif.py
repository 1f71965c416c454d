"""A whole match as one animated GIF: each move a frame, a caption band below the board, the result on
the last frame; plays once.

The frames are the boards of the replay (:mod:`bot.matches.replay`), drawn by the game's renderer and
passed in as a function of the step, so this module knows no game. They are encoded as they are drawn,
one frame kept at a time: all frames share one palette (made from the first and the last frame, which
between them show every colour a board of the match uses: the pieces, the last-move mark, the caption's
ink and the result's amber), and each frame after the first is only the box where it differs from the
one before (the same encoding as the sowing animations, :func:`bot.render.palette.gif_frame`).

A game too long for one upload (Discord takes 10 MiB; :data:`MAX_BYTES` leaves room) or for
:data:`MAX_FRAMES` frames gives its last part: the frames from a later move to the end, and
:attr:`MatchGif.first` says from which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from bot.render import ACCENT, CARD, INK, font
from bot.render.palette import GIF_END, gif_frame, gif_header

MAX_BYTES = 9 * 1024 * 1024
"""The largest GIF made: Discord's upload limit is 10 MiB; the rest is room for the message around it."""
MAX_FRAMES = 300
"""The most moves in one GIF (five minutes at a second a move); a longer game gives its last part."""
MOVE_MS = 1000
"""How long each move is shown."""
LAST_MS = 5000
"""How long the final position stays before the GIF stops (it plays once and stays on its last frame)."""


@dataclass(frozen=True)
class MatchGif:
    """The GIF and what it holds."""

    data: bytes
    first: int
    """The first step shown (0: the start; later when the game was too long and this is its last part)."""
    last: int
    """The last step shown (the end of the match)."""
    durations: tuple[int, ...]

    @property
    def frames(self) -> int:
        return len(self.durations)

    @property
    def cut(self) -> bool:
        return self.first > 0


def band_height(board: Image.Image) -> int:
    return max(36, board.height // 14)


def framed(board: Image.Image, caption: str, *, final: bool,
           size: tuple[int, int] | None = None) -> Image.Image:
    """``board`` (RGB) with the caption band below it (the result in amber on the final frame), on a
    canvas of ``size`` (boards that grow during a game keep the first frame's canvas)."""
    band = band_height(board)
    w, h = size if size is not None else (board.width, board.height + band)
    out = Image.new("RGB", (w, h), CARD)
    out.paste(board.convert("RGB"), (0, 0))
    draw = ImageDraw.Draw(out)
    top = h - band
    if final:
        draw.rectangle((0, top, w, top + 3), fill=ACCENT)
    size_px = max(12, band // 2)
    fnt = font(size_px, bold=final)
    while size_px > 9 and draw.textlength(caption, font=fnt) > w - 16:
        size_px -= 1
        fnt = font(size_px, bold=final)
    draw.text((w / 2, top + band / 2 + 1), caption, font=fnt, fill=ACCENT if final else INK, anchor="mm")
    return out


def match_gif(draw: Callable[[int], Image.Image], caption: Callable[[int], str], last: int, *,
              move_ms: int = MOVE_MS, last_ms: int = LAST_MS, max_bytes: int = MAX_BYTES,
              max_frames: int = MAX_FRAMES) -> MatchGif:
    """The GIF of steps ``0..last``: ``draw(n)`` is the board after move ``n`` (RGB), ``caption(n)`` its
    line (the last one: the result).

    Raises:
        ValueError: ``last`` is negative.
    """
    if last < 0:
        raise ValueError("a match has at least its start position")
    first = max(0, last - max_frames + 1)
    while True:
        out = _encode(draw, caption, first, last, move_ms, last_ms)
        size = sum(len(c) for chunk in out for c in chunk)
        if size <= max_bytes or first == last:
            break
        # too big: keep the last frames that fit (the frame sizes so far say about how many)
        per = [sum(len(c) for c in chunk) for chunk in out[1:]]
        room, keep = max_bytes - len(b"".join(out[0])) * 2, 0
        for n in reversed(per):
            if room - n < 0:
                break
            room -= n
            keep += 1
        first = max(first + 1, last - keep + 1)
    durations = tuple(last_ms if n == last else move_ms for n in range(first, last + 1))
    return MatchGif(b"".join(c for chunk in out for c in chunk), first, last, durations)


def _encode(draw: Callable[[int], Image.Image], caption: Callable[[int], str], first: int, last: int,
            move_ms: int, last_ms: int) -> list[list[bytes]]:
    """Chunks: the header with the first frame whole, then one list per later frame, then the trailer."""
    start_rgb = framed(draw(first), caption(first), final=first == last)
    size = start_rgb.size
    end_rgb = start_rgb if first == last else framed(draw(last), caption(last), final=True, size=size)
    both = Image.new("RGB", (size[0], size[1] * 2))
    both.paste(start_rgb, (0, 0))
    both.paste(end_rgb, (0, size[1]))
    palette = both.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)

    def mapped(rgb: Image.Image) -> Image.Image:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)

    before = mapped(start_rgb)
    ms0 = last_ms if first == last else move_ms
    chunks: list[list[bytes]] = [[*gif_header(before, ms0, None), *gif_frame(before, (0, 0, *size), ms0)]]
    for n in range(first + 1, last + 1):
        rgb = end_rgb if n == last else framed(draw(n), caption(n), final=False, size=size)
        frame = mapped(rgb)
        chunks.append(_frame_data(before, frame, last_ms if n == last else move_ms))
        before = frame
    chunks.append([GIF_END])
    return chunks


CLEAR = 255
"""The palette index left free for "unchanged" (the palette has 255 colours): a later frame is the box where
it differs from the one before, its unchanged pixels transparent, so the box's runs compress to little."""


def _frame_data(before: Image.Image, frame: Image.Image, ms: int) -> list[bytes]:
    """``frame`` as the next GIF frame after ``before``: the changed box, unchanged pixels in it clear."""
    diff = ImageChops.difference(before, frame)
    box = diff.getbbox()
    if box is None:
        return list(GifImagePlugin.getdata(frame.crop((0, 0, 1, 1)), offset=(0, 0), duration=ms,
                                           disposal=1))
    part = frame.crop(box)
    same = diff.crop(box).point(_SAME, "1")  # set where the pixel did not change
    part.paste(CLEAR, mask=same)
    return list(GifImagePlugin.getdata(part, offset=box[:2], duration=ms, disposal=1, transparency=CLEAR))


_SAME = [255] + [0] * 255
