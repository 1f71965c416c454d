"""Pictures: real pixels of the static board and of the sowing animation."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.games.egg_carton import RULES, Pick, animate, render
from bot.games.egg_carton.notation import SLOT_INDEX
from bot.games.egg_carton.render import (
    CARTON,
    CUP,
    CUP_R,
    END_ZONE,
    HEIGHT,
    MARBLE,
    MAX_FRAMES,
    SPEEDS,
    STRIP_BOTTOM,
    STRIP_TOP,
    WIDTH,
    ZONE_BOXES,
    clock_text,
    slot_centre,
)
from bot.render import ACCENT, CARD, INK, PLAYER_COLOURS, gif_bytes, png_bytes

from .helpers import position

pytestmark = pytest.mark.golden

EXAMPLE = position("7 3 4 1 - 1", "4 2 1 - 6 1", off=(3, 3))


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def px(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    return img.convert("RGB").getpixel(xy)  # type: ignore[return-value]


def centre(letter: str) -> tuple[int, int]:
    return slot_centre(SLOT_INDEX[letter])


def test_board_size_and_mode():
    img = render(RULES.view(RULES.initial({}, 2), None))
    assert img.size == (WIDTH, HEIGHT) and img.mode == "RGB"
    assert 600 <= WIDTH <= 900
    assert px(img, (2, 2)) == CARD        # opaque card behind everything


def test_slot_layout_follows_the_original():
    # bottom row A..F left to right; top row N..I left to right (I above F, N above A)
    assert centre("A")[0] < centre("F")[0] and centre("A")[1] > centre("N")[1]
    assert centre("I")[0] == centre("F")[0] and centre("N")[0] == centre("A")[0]
    assert ZONE_BOXES[0][0] > centre("F")[0] and ZONE_BOXES[1][2] < centre("A")[0]


def test_marbles_and_empty_cups():
    img = render(RULES.view(EXAMPLE, None))
    assert close(px(img, centre("D")), MARBLE)          # D holds 1 marble, drawn at the centre
    assert px(img, centre("E")) == CUP                   # E is empty
    assert px(img, centre("K")) == CUP
    x, y = centre("A")
    assert close(px(img, (x, y - 19)), MARBLE)          # A holds 7: the inner ring is filled
    x, y = centre("L")                                   # 1 marble: the ring is empty
    assert px(img, (x, y - 30)) == CUP


def test_end_zones_are_green_and_hold_marbles():
    img = render(RULES.view(EXAMPLE, None))
    x0, y0, x1, y1 = ZONE_BOXES[0]
    assert px(img, ((x0 + x1) // 2, y0 + 110)) == END_ZONE
    assert close(px(img, (x0 + 22, y1 - 22)), MARBLE)  # the first off-board marble, bottom left


def test_player_to_move_is_lit_in_their_colour():
    img = render(RULES.view(EXAMPLE, None))
    assert px(img, (STRIP_BOTTOM[2] - 20, STRIP_BOTTOM[1] + 10)) == PLAYER_COLOURS[0]
    assert px(img, (STRIP_TOP[2] - 20, STRIP_TOP[1] + 10)) != PLAYER_COLOURS[1]
    s, _ = RULES.apply(EXAMPLE, 0, Pick(1))
    img = render(RULES.view(s, None))
    assert px(img, (STRIP_TOP[2] - 20, STRIP_TOP[1] + 10)) == PLAYER_COLOURS[1]


def test_last_move_is_highlighted():
    s, events = RULES.apply(EXAMPLE, 0, Pick(0))     # A: ... relay from I, last marble in K
    img = render(RULES.view(s, None), events=events)
    x, y = centre("K")
    assert px(img, (x + CUP_R + 2, y)) == ACCENT
    x, y = centre("A")
    assert px(img, (x + CUP_R + 2, y)) == INK       # the slot the player picked
    x, y = centre("C")                              # untouched by the highlight: plain carton
    assert px(img, (x + CUP_R + 2, y)) == px(img, (x + CUP_R + 8, y)) == CARTON


def test_last_marble_off_the_board_highlights_the_end_zone():
    s, events = RULES.apply(EXAMPLE, 0, Pick(2))     # C: last marble into the right zone
    img = render(RULES.view(s, None), events=events)
    x0, y0, _x1, y1 = ZONE_BOXES[0]
    assert px(img, (x0 + 2, (y0 + y1) // 2)) == ACCENT


def test_clocks_are_drawn_when_on():
    view = RULES.view(EXAMPLE, None)
    plain = render(view)
    timed = render(view, clocks=[272_000, 9_400], names=["alice", "bob"])
    box_pixel = (STRIP_BOTTOM[2] - 100, STRIP_BOTTOM[1] + 8)
    assert px(plain, box_pixel) == PLAYER_COLOURS[0]
    assert px(timed, box_pixel) == CARD
    assert render(view, clocks={0: 1000, 1: None}).size == (WIDTH, HEIGHT)
    assert clock_text(272_000) == "4:32" and clock_text(9_450) == "0:09.4" and clock_text(-1) == "0:00"


def test_many_marbles_show_a_number():
    s = position("30 1 1 1 1 1", "1 1 1 1 1 1", marbles=6)
    img = render(RULES.view(s, None))
    assert px(img, centre("A")) != MARBLE                # the count badge covers the centre


def test_render_is_pure_and_png_encodes():
    view = RULES.view(EXAMPLE, None)
    a, b = render(view), render(view)
    assert a.tobytes() == b.tobytes()
    assert png_bytes(a)[:8] == b"\x89PNG\r\n\x1a\n"


# -- animation -----------------------------------------------------------------------

def animate_move(s, letter, **kw):
    move = Pick(SLOT_INDEX[letter])
    t, events = RULES.apply(s, s.to_move, move)
    return animate(RULES.view(s, None), events, RULES.view(t, None), **kw), t, events


def test_animation_follows_the_sowing():
    frames, _t, _events = animate_move(EXAMPLE, "B", speed="normal")
    # before, pick, 3 drops, 4 flash frames, final
    assert len(frames) == 1 + 1 + 3 + 4 + 1
    first, _ = frames[0]
    assert close(px(first, centre("B")), MARBLE)
    pick_frame, _ = frames[1]
    assert close(px(pick_frame, centre("B")), CUP)                  # picked up: B is empty
    x, y = centre("C")
    assert close(px(frames[2][0], (x + CUP_R + 2, y)), ACCENT)     # the marble just dropped in C
    # the last slot (E) flashes: filled with the accent colour, then not
    x, y = centre("E")
    flash_on, flash_off = frames[-5][0], frames[-4][0]
    assert close(px(flash_on, (x + 30, y + 5)), ACCENT)
    assert close(px(flash_off, (x + 30, y + 5)), CUP)
    final, ms = frames[-1]
    assert ms >= 2500
    assert close(px(final, centre("E")), MARBLE)


def test_animation_speeds():
    slow = [ms for _, ms in animate_move(EXAMPLE, "B", speed="slow")[0]]
    fast = [ms for _, ms in animate_move(EXAMPLE, "B", speed="fast")[0]]
    assert slow[2] == SPEEDS["slow"] and fast[2] == SPEEDS["fast"] and sum(slow) > sum(fast)
    with pytest.raises(ValueError, match="speed"):
        animate_move(EXAMPLE, "B", speed="off")


def test_long_relay_is_capped_and_the_gif_is_small():
    s = position("7 - - 1 1 9", "9 9 9 2 2 3", to_move=1, off=(4, 4), marbles=5)
    frames, _t, events = animate_move(s, "N", speed="fast", names=["a", "b"], clocks=[60_000, 30_000])
    drops = sum(e.kind in ("drop", "off") for e in events)
    assert drops == 23 and len(frames) <= MAX_FRAMES
    # the last marble's slot (I) still flashes
    x, y = centre("I")
    assert any(close(px(f, (x + 30, y + 5)), ACCENT) for f, _ in frames[-5:-1])
    data = gif_bytes([f for f, _ in frames], [ms for _, ms in frames])
    assert data[:6] == b"GIF89a" and len(data) < 2_000_000


def test_very_long_sowing_is_merged_to_the_frame_cap():
    s = position("40 1 1 1 1 1", "1 1 1 1 1 1", marbles=6, off=(0, 0))
    frames, _, events = animate_move(s, "A", speed="normal")
    assert sum(e.kind in ("drop", "off") for e in events) > 40
    assert len(frames) <= MAX_FRAMES
    assert all(f.mode == "P" for f, _ in frames)


def test_incremental_frames_equal_full_redraws():
    from bot.games.egg_carton.render import _draw, _moments, _palette, _to_palette

    s = position("7 - - 1 1 9", "9 9 9 2 2 3", to_move=1, off=(4, 4), marbles=5)
    t, events = RULES.apply(s, 1, Pick(SLOT_INDEX["N"]))
    before = RULES.view(s, None)
    frames = animate(before, events, RULES.view(t, None), names=["a", "b"], speed="fast", clocks=[5_000, 0])
    moments = _moments(before, events, SPEEDS["fast"])
    assert len(frames) == len(moments) + 1
    for (img, ms), (frame, want_ms, _) in zip(frames, moments, strict=False):
        full = _to_palette(_draw(frame, ["a", "b"], [5_000, 0]), _palette())
        assert img.tobytes() == full.tobytes() and ms == want_ms


def test_end_zones_show_no_count():
    """Marbles off the board never matter, so no number is drawn there (it read like a score)."""
    few = render(RULES.view(position("7 3 4 1 - 1", "4 2 1 - 6 1", off=(0, 0)), None))
    many = render(RULES.view(position("7 3 4 1 - 1", "4 2 1 - 6 1", off=(1, 1)), None))
    lots = render(RULES.view(position("7 3 4 1 - 1", "4 2 1 - 6 1", off=(9, 12)), None))
    for x0, y0, x1, _ in ZONE_BOXES:
        top = (x0, y0, x1, y0 + 120)  # everything above the pile of marbles
        assert few.crop(top).tobytes() == many.crop(top).tobytes() == lots.crop(top).tobytes()


def test_sowing_gif_plays_once_and_ends_on_the_new_position():
    import io

    frames, t, _ = animate_move(EXAMPLE, "B", speed="fast")
    once = gif_bytes([f for f, _ in frames], [ms for _, ms in frames], loop=None)
    looped = gif_bytes([f for f, _ in frames], [ms for _, ms in frames])
    assert b"NETSCAPE2.0" not in once          # no looping extension at all: viewers play it once
    assert b"NETSCAPE2.0" in looped            # (the default still loops, for comparison)
    gif = Image.open(io.BytesIO(once))
    assert gif.info.get("loop") is None and gif.n_frames == len(frames)
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    board = render(RULES.view(t, None))
    diff = sum(abs(a - b) for a, b in zip(last.tobytes(), board.tobytes(), strict=True)) / len(
        board.tobytes()
    )
    assert diff < 3  # the last frame is the new position (up to the GIF palette)


# -- the sowing GIF as the bot sends it (sowing_gif: kept pictures of slots, kept encoded changes) ----------

def _sample_sowings():
    from bot.games.samples import sample_plays

    return [play for seed in (3, 4) for play in sample_plays(RULES, 2, seed)[::3]]


def _gif_frames(data: bytes) -> list[bytes]:
    import io

    from PIL import ImageSequence

    return [f.convert("RGB").tobytes() for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]


def _module():
    import importlib

    return importlib.import_module("bot.games.egg_carton.sowing")


def _forget_kept() -> None:
    r = _module()
    for kept in (r._TILES, r._FRAME_DATA, r._AHEAD, r._READY):
        kept.clear()


def test_sowing_gif_shows_exactly_the_animation_frames():
    """Frame for frame, the GIF the bot sends is animate()'s frames (each drawn whole and mapped: see
    test_incremental_frames_equal_full_redraws), with their times; so is the generic encoder's GIF."""
    from bot.games.egg_carton import sowing_gif

    r = _module()
    _forget_kept()
    split = 0
    for before, events, after in _sample_sowings()[:12]:
        kw = {"names": ["alice", "bob"], "speed": "fast", "clocks": [61_000, 9_000]}
        frames = animate(before, events, after, **kw)
        data = sowing_gif(before, events, after, **kw)
        assert data[:6] == b"GIF89a" and b"NETSCAPE2.0" not in data
        want = [f.convert("RGB").tobytes() for f, _ in frames]
        assert _gif_frames(gif_bytes([f for f, _ in frames], [ms for _, ms in frames], loop=None)) == want
        gif = Image.open(__import__("io").BytesIO(data))
        times = []
        for i in range(gif.n_frames):
            gif.seek(i)
            times.append(gif.info["duration"])
        # A change far apart is written in parts, all but the last shown PART_MS (one screen refresh): the
        # frames that stay longer are animate()'s, and the parts' times add up to the frame's.
        shown, parts = _gif_frames(data), []
        assert len(shown) == len(times)
        kept, spent = [], 0
        for picture, ms in zip(shown, times, strict=True):
            if ms == r.PART_MS:
                parts.append(picture)
                spent += ms
                continue
            kept.append((picture, ms + spent))
            spent = 0
        assert [p for p, _ in kept] == want
        assert [ms for _, ms in kept] == [ms // 10 * 10 for _, ms in frames]  # GIF keeps hundredths
        split += len(parts)
    assert split, "no sample ends with both strips changing"


def test_kept_pictures_and_changes_do_not_change_the_gif():
    """The second time round every slot picture and most changes are kept: the same bytes as from nothing."""
    from bot.games.egg_carton import sowing_gif

    plays = _sample_sowings()
    _forget_kept()
    cold = []
    for before, events, after in plays:
        cold.append(sowing_gif(before, events, after, names=["a", "b"]))
        _forget_kept()
    warm = [sowing_gif(b, e, a, names=["a", "b"]) for b, e, a in plays]
    again = [sowing_gif(b, e, a, names=["a", "b"]) for b, e, a in plays]
    assert warm == cold and again == cold


def test_first_frame_encoded_ahead_is_used_and_changes_nothing(monkeypatch):
    """prepare_sowing (called when a person's turn begins) encodes the whole first frame; the pick's GIF
    then takes it instead of encoding it again, and is byte for byte the GIF made without it."""
    from bot.games.egg_carton import prepare_sowing, sowing_gif

    r = _module()
    before, events, after = _sample_sowings()[5]
    _forget_kept()
    plain = sowing_gif(before, events, after, names=["a", "b"], speed="slow")
    _forget_kept()
    prepare_sowing(before, names=["a", "b"], speed="slow")
    whole = []
    real = r.gif_frame
    monkeypatch.setattr(r, "gif_frame", lambda img, box, ms: whole.append(box == (0, 0, WIDTH, HEIGHT))
                        or real(img, box, ms))
    assert sowing_gif(before, events, after, names=["a", "b"], speed="slow") == plain
    assert whole and not any(whole)  # no whole frame was encoded for the pick
    whole.clear()
    sowing_gif(before, events, after, names=["a", "b"], speed="fast")  # another speed: its own first frame
    assert any(whole)


# -- every pick's sowing encoded while the player thinks (sowings_ahead) ------------------------------------

def _picks(view_before):
    """(events, view after) of every pick the player to move can make from ``view_before``'s position."""
    from bot.games.samples import sample_plays

    for seed in (3, 4):
        state = RULES.initial({}, 2)
        for play in sample_plays(RULES, 2, seed):
            if play[0] == view_before:
                break
            seat = play[0].to_move
            state = RULES.apply(state, seat, RULES.parse(_picked(play[1]), state, seat))[0]
        else:
            continue
        seat = view_before.to_move
        return [(events, RULES.view(after, None)) for after, events in
                (RULES.apply(state, seat, RULES.parse(letter, state, seat))
                 for letter, count in view_before.side(seat) if count)]
    raise AssertionError("not a sampled position")


def _picked(events) -> str:
    return next(e.data["slot"] for e in events if e.kind == "pick")


def _run(steps) -> None:
    for _ in steps:
        pass


def test_sowings_encoded_ahead_are_the_sowings_and_are_taken_without_encoding(monkeypatch):
    """sowings_ahead encodes every pick's sowing; the pick's sowing_gif is then that GIF, byte for byte the
    one encoded from nothing, with nothing encoded on the pick; the other picks' sowings go with it."""
    from bot.games.egg_carton import ready_sowing, sowing_gif, sowings_ahead

    r = _module()
    before = _sample_sowings()[5][0]
    picks = _picks(before)
    assert len(picks) > 2
    _forget_kept()
    cold = []
    for events, after in picks:
        cold.append(sowing_gif(before, events, after, names=["a", "b"], speed="fast"))
        _forget_kept()
    steps = 0
    for _ in sowings_ahead(before, picks, names=["a", "b"], speed="fast"):
        steps += 1
    assert steps > 3 * len(picks)  # a frame at a time, so the event loop runs in between
    encoded = []
    monkeypatch.setattr(r, "gif_frame", lambda *a: encoded.append(a) or [])
    events, after = picks[1]
    assert ready_sowing(before, events, after, names=["a", "b"], speed="normal") is None  # another speed
    assert ready_sowing(before, events, after, names=["a", "c"], speed="fast") is None     # other names
    assert ready_sowing(before, events, after, names=["a", "b"], speed="fast",
                        clocks=[60_000, 60_000]) is None                                      # a clock shown
    assert sowing_gif(before, events, after, names=["a", "b"], speed="fast") == cold[1]
    assert not encoded
    assert ready_sowing(before, *picks[0], names=["a", "b"], speed="fast") is None  # taken with the pick
    assert not r._READY.items


def test_sowings_ahead_stopped_halfway_keep_nothing():
    """A pick made before every sowing is encoded (the generator is dropped) is drawn as usual."""
    from bot.games.egg_carton import ready_sowing, sowing_gif, sowings_ahead

    before = _sample_sowings()[5][0]
    picks = _picks(before)
    _forget_kept()
    steps = sowings_ahead(before, picks, names=["a", "b"])
    for _ in range(5):
        next(steps)
    steps.close()
    assert not _module()._READY.items
    events, after = picks[0]
    assert ready_sowing(before, events, after, names=["a", "b"]) is None
    assert sowing_gif(before, events, after, names=["a", "b"])[:6] == b"GIF89a"


def test_ready_sowings_are_kept_within_their_bound(monkeypatch):
    """Sowings encoded ahead are kept up to READY_BYTES, the positions least recently encoded out first."""
    from bot.games.egg_carton import ready_sowing, sowings_ahead

    r = _module()
    monkeypatch.setattr(r, "_READY", r.Kept(150_000, r._READY.size))
    plays = _sample_sowings()
    _forget_kept()
    for before, _events, _after in plays[2:8]:
        _run(sowings_ahead(before, _picks(before), names=["a", "b"]))
    assert 0 < r._READY.used <= 150_000
    first, last = plays[2][0], plays[7][0]
    assert ready_sowing(first, *_picks(first)[0], names=["a", "b"]) is None
    assert ready_sowing(last, *_picks(last)[0], names=["a", "b"]) is not None
