"""Golden-image checks: real pixels at known places of the EOF pictures."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.games.base import Event
from bot.games.eof.pieces import Instruction
from bot.games.eof.render import (
    CRASH,
    FINAL_MS,
    NUM_H,
    PIECE_COLOURS,
    STRIP,
    WIDTH,
    animate,
    board_height,
    piece_point,
    pointer_point,
    position_box,
    render,
    render_hand,
)
from bot.games.eof.rules import RULES, EofState, EofView
from bot.render import ACCENT, CARD, CARD_LIGHT, gif_bytes, png_bytes
from tests.games.eof.helpers import program_state, run, steps

pytestmark = pytest.mark.golden

RED, YELLOW, GREEN, BLUE = PIECE_COLOURS


def px(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    return img.convert("RGB").getpixel(xy)  # type: ignore[return-value]


def board_state() -> EofState:
    return program_state("R1 R2 R3 Y2 Y1", colours="red,yellow", pointers=(2, 6),
                         hands={0: "B1 G2 Y3", 1: "G1 G1"})


def test_board_shows_pyramids_in_their_colours_markers_and_pointers() -> None:
    v = RULES.view(board_state(), None)
    img = render(v)
    assert img.size == (WIDTH, board_height(v)) and img.mode == "RGB"
    assert px(img, piece_point(v, 0)) == RED
    assert px(img, piece_point(v, 2)) == RED
    assert px(img, piece_point(v, 3)) == YELLOW
    assert px(img, pointer_point(v, 0)) == RED      # red pointer under record 2
    assert px(img, pointer_point(v, 1)) == YELLOW   # yellow pointer under EOF
    x0, y0, x1, y1 = position_box(v, 0)
    assert px(img, (x0 + 8, y1 - 10)) == CARD_LIGHT  # BOF marker
    x0, y0, x1, y1 = position_box(v, 6)
    assert px(img, (x0 + 8, y1 - 10)) == CARD_LIGHT  # EOF marker
    x0, y0, x1, y1 = position_box(v, 1)
    assert px(img, (x0 + 4, y0 + 4)) == STRIP  # above a small pyramid: the file strip
    x0, y0, x1, y1 = position_box(v, 9)
    assert px(img, ((x0 + x1) // 2, (y0 + y1) // 2)) == CARD  # past EOF: nothing drawn
    assert pointer_point(v, 1)[0] == (position_box(v, 6)[0] + position_box(v, 6)[2]) // 2


def test_bigger_pyramids_are_taller() -> None:
    v = RULES.view(board_state(), None)
    img = render(v)
    for rec, size in ((0, 1), (1, 2), (2, 3)):
        x0, _y0, x1, y1 = position_box(v, rec + 1)
        cx = (x0 + x1) // 2 - 1
        tall = {1: 26, 2: 40, 3: 54}[size]
        assert px(img, (cx, y1 - 4 - tall + 6)) in (RED, tuple(round(c * 0.72) for c in RED))
        assert px(img, (cx, y1 - 4 - tall - 3)) == STRIP


def test_empty_file_has_one_bof_eof_marker() -> None:
    v = RULES.view(program_state("", hands={0: "G1"}), None)
    img = render(v)
    x0, _y0, x1, y1 = position_box(v, 0)
    assert px(img, (x0 + 6, y1 - 8)) == CARD_LIGHT
    x0, _y0, x1, y1 = position_box(v, 1)
    assert px(img, ((x0 + x1) // 2, y1 - 10)) == CARD  # no second marker


def test_last_step_is_outlined_and_its_pointer_marked() -> None:
    s = program_state("R1 R2 Y1", pointers=(2, 0), hands={0: "Y3", 1: "G1 G2"})
    s2, ev = run(s, {0: "Y3R", 1: "G1U G2D"})
    first = steps(ev)[0]  # red inserts R3 after record 2 -> record 3
    assert first.data["touched"] == [2]
    v = RULES.view(s2, None)
    img = render(v, events=(first,))
    x0, y0, _x1, y1 = position_box(v, 3)
    assert px(img, (x0 + 2, (y0 + y1) // 2)) == ACCENT
    x0, y0, _x1, y1 = position_box(v, 1)
    assert px(img, (x0 + 2, (y0 + y1) // 2)) == STRIP  # untouched record
    cx, cy = pointer_point(v, 0)
    assert px(img, (cx + 9, cy)) == ACCENT


def test_crash_marks_the_pointer_red() -> None:
    s = program_state("Y1", pointers=(0, 0), hands={0: "R1", 1: "G1"})
    s2, ev = run(s, {0: "R1R", 1: "G1U"})
    crash = steps(ev)[0]
    assert crash.data["crash"]
    v = RULES.view(s2, None)
    cx, cy = pointer_point(v, 0)
    assert px(render(v, events=(crash,)), (cx + 9, cy)) == CRASH


def test_scored_round_underlines_configurations_in_the_players_colour() -> None:
    s = program_state("R1 R2 Y1 Y1 Y1", pointers=(2, 0), hands={0: "Y3", 1: "G1"})
    s2, ev = run(s, {0: "Y3R", 1: "G1U"})
    v = RULES.view(s2, None)
    img = render(v, events=ev)
    for rec, colour in ((0, RED), (2, RED), (3, YELLOW), (5, YELLOW)):
        x0, _, x1, y1 = position_box(v, rec + 1)
        assert px(img, ((x0 + x1) // 2, y1 + NUM_H + 2)) == colour
    x0, _, x1, y1 = position_box(v, 7)  # EOF: no bar
    assert px(img, ((x0 + x1) // 2, y1 + NUM_H + 2)) == STRIP


def test_long_file_wraps_into_rows() -> None:
    file = " ".join(["R2", "Y2", "G2", "B2", "R3", "Y3", "G3", "B3"] * 5)
    s = program_state(file, colours="red,yellow,green,blue", pointers=(40, 41, 0, 17), hands={0: "G1"})
    v = RULES.view(s, None)
    img = render(v)
    assert position_box(v, 20)[1] > position_box(v, 10)[1]
    assert px(img, piece_point(v, 39)) == BLUE
    assert px(img, piece_point(v, 17)) == YELLOW
    assert px(img, pointer_point(v, 3)) == BLUE
    assert img.height == board_height(v)


def test_names_and_clocks_are_accepted() -> None:
    v = RULES.view(board_state(), None)
    img = render(v, names=["Alice", "Bob with a very long display name indeed"], clocks=[61_000, None])
    assert img.size[0] == WIDTH


def test_hand_picture_shows_pieces_and_the_draft_program() -> None:
    s = board_state()
    v = RULES.view(s, 0)
    img = render_hand(v, program=[Instruction(3, 1, 4)])  # B1 standing
    assert img.mode == "RGB"
    # pieces sorted: Y3 G2 B1 at slots 0, 1, 2 (slot 64 px from x=24); B1 is used -> dimmed
    assert px(img, (24 + 32 + 64 - 3, 124 - 8)) == GREEN
    assert px(img, (24 + 32 - 3, 124 - 8)) == YELLOW
    assert px(img, (24 + 32 + 128 - 3, 124 - 6)) not in (BLUE, STRIP)
    assert px(img, (76 - 12, 236 - 3)) == BLUE  # the standing instruction square
    with pytest.raises(ValueError, match="public view"):
        render_hand(RULES.view(s, None))


def test_hand_picture_after_submission_shows_the_program() -> None:
    s = board_state()
    s, _ = RULES.apply(s, 0, RULES.parse("Y3R G2U B1S", s, 0))
    img = render_hand(RULES.view(s, 0))
    assert px(img, (76 - 6, 236 + 6)) == YELLOW  # Y3R: a yellow triangle pointing right


def _round() -> tuple[EofView, list[Event], EofView]:
    s = program_state("R1 R2 Y1", pointers=(2, 0), hands={0: "Y3 G1", 1: "G1 G2"})
    s, _ = RULES.apply(s, 0, RULES.parse("Y3R G1U", s, 0))
    before = RULES.view(s, None)
    s2, ev = RULES.apply(s, 1, RULES.parse("G1U G2D", s, 1))
    return before, ev, RULES.view(s2, None)


def test_animation_has_a_frame_per_step_and_a_final_still() -> None:
    before, ev, after = _round()
    frames = animate(before, ev, after)
    assert len(frames) == len(steps(ev)) + 1 == 5
    assert [ms for _, ms in frames] == [1100] * 4 + [FINAL_MS]
    assert all(f.mode == "P" for f, _ in frames)
    first = frames[0][0].convert("RGB")
    # frame 1: red inserted R3 as record 3 (outlined) before yellow moved
    fv = RULES.view(program_state("R1 R2 R3 Y1", pointers=(3, 0), hands={0: "G1"}), None)
    x0, y0, _x1, y1 = position_box(fv, 3)
    assert first.getpixel((x0 + 2, (y0 + y1) // 2)) == ACCENT
    assert first.getpixel(piece_point(fv, 2)) == RED
    assert animate(before, ev, after, speed="off")[0][1] == FINAL_MS
    assert len(animate(before, ev, after, speed="off")) == 1
    with pytest.raises(ValueError):
        animate(before, ev, after, speed="warp")
    data = gif_bytes([f for f, _ in frames], [ms for _, ms in frames])
    assert data[:6] == b"GIF89a"


def test_png_encoding_of_the_board() -> None:
    assert png_bytes(render(RULES.view(board_state(), None)))[:8] == b"\x89PNG\r\n\x1a\n"


def test_views_at_every_phase_render(tmp_path: object) -> None:
    import random

    from tests.games.eof.helpers import pick
    rng = random.Random(3)
    s = RULES.initial({"locking": "permission-crash"}, 3)
    seen = set()
    while RULES.outcome(s) is None:
        seat, move = pick(rng, s)
        s, ev = RULES.apply(s, seat, move)  # type: ignore[arg-type]
        if s.phase not in seen or (ev and ev[-1].kind == "score"):
            seen.add(s.phase)
            render(RULES.view(s, None), events=ev)
            if s.phase.value == "program" and RULES.to_act(s):
                render_hand(RULES.view(s, min(RULES.to_act(s))))  # type: ignore[type-var]
    render(RULES.view(s, None))
    assert len(seen) >= 4


def test_permission_wait_outlines_the_record_asked_about() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(1, 2), hands={0: "R2", 1: "G1"}, locking="permission-crash")
    s, _ = run(s, {0: "R2R", 1: "G1L"})
    v = RULES.view(s, None)
    assert v.pending is not None and v.pending.record == 0  # Y1 went, Y2 (yellow's) is now record 1
    img = render(v)
    x0, y0, _x1, y1 = position_box(v, 1)
    assert px(img, (x0 + 2, (y0 + y1) // 2)) == ACCENT


def test_animation_resumes_after_a_permission_answer() -> None:
    s = program_state("Y1 Y2 Y3", pointers=(1, 1), hands={0: "R1 G1", 1: "G2"}, locking="permission-crash")
    s, _ = run(s, {0: "R1R G1U", 1: "G2R"})
    before = RULES.view(s, None)
    s2, ev = RULES.apply(s, 1, RULES.parse("allow", s, 1))
    frames = animate(before, ev, RULES.view(s2, None), speed="fast")
    assert [ms for _, ms in frames] == [600] * len(steps(ev)) + [FINAL_MS]
    assert len(steps(ev)) == 3  # red's delete, yellow's move, red's move


# --- colour-blind safety, legibility at Discord's size, the final picture, one GIF size (issue 13) ------

DISCORD_WIDTH = 400
"""Discord shows an embed's image at most 400 px wide."""
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
"""Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1.0, applied to RGB."""


def deuteranopia(img: Image.Image) -> Image.Image:
    m = [c for row in DEUTERANOPIA for c in (*row, 0.0)]
    return img.convert("RGB").convert("RGB", m)  # type: ignore[arg-type]


def ink_box(
    img: Image.Image, box: tuple[int, int, int, int], threshold: int = 200
) -> tuple[int, int, int, int] | None:
    """The bounding box (in ``img``) of light text pixels inside ``box``."""
    crop = img.convert("L").crop(box).point(lambda v: 255 if v >= threshold else 0)
    bb = crop.getbbox()
    return None if bb is None else (bb[0] + box[0], bb[1] + box[1], bb[2] + box[0], bb[3] + box[1])


def label_box(v: EofView, record: int) -> tuple[int, int, int, int]:
    x0, _, x1, y1 = position_box(v, record + 1)
    return x0 + 2, y1, x1 - 2, y1 + NUM_H


def differs(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ clearly between two equal-size crops."""
    pa, pb = a.convert("L").load(), b.convert("L").load()
    n = sum(1 for x in range(a.width) for y in range(a.height) if abs(pa[x, y] - pb[x, y]) > 60)
    return n / (a.width * a.height)


def test_every_piece_in_the_file_and_the_pool_carries_its_letter_and_size() -> None:
    s = program_state("R2 Y2 G2 B2 R1 R3", colours="red,yellow,green,blue", pointers=(1, 2, 3, 4),
                      hands={0: "G1"})
    v = RULES.view(s, None)
    img = render(v)
    sim = deuteranopia(img)
    crops = [sim.crop(label_box(v, r)) for r in range(6)]
    for r in range(6):
        assert ink_box(img, label_box(v, r)) is not None, f"record {r + 1} has no label"
    # under deuteranopia the four medium pieces are still told apart by their labels, and sizes too
    for a in range(4):
        for b in range(a + 1, 4):
            assert differs(crops[a], crops[b]) > 0.03, (a, b)
    assert differs(crops[0], crops[4]) > 0.01 and differs(crops[0], crops[5]) > 0.01
    # the same label reads the same: R2 here equals R2 drawn for another record of a new picture
    v2 = RULES.view(program_state("B1 R2", colours="red,yellow,green,blue", hands={0: "G1"}), None)
    assert differs(deuteranopia(render(v2)).crop(label_box(v2, 1)), crops[0]) < 0.01
    # pointers carry their player's letter next to the triangle
    for seat in range(4):
        cx, cy = pointer_point(v, seat)
        assert ink_box(img, (cx + 10, cy - 14, cx + 31, cy + 14)) is not None
    # the pool: a label beside each of the twelve kinds (text to the right of each small pyramid), and
    # the labels of one size differ under deuteranopia (their letters do, not just their pyramids' colour)
    from bot.games.eof.drawing import POOL_ROW, pool_slot
    pool = {}
    for c in range(4):
        for size in (1, 2, 3):
            cx, y = pool_slot(v, c, size)
            box = (cx + 14, y + 4, cx + 100, y + POOL_ROW - 4)
            assert ink_box(img, box, threshold=120) is not None, (c, size)
            pool[c, size] = sim.crop(box)
    for a in range(4):
        for b in range(a + 1, 4):
            assert differs(pool[a, 2], pool[b, 2]) > 0.03, (a, b)


def test_hand_labels_every_piece() -> None:
    s = program_state("R1", colours="red,yellow", hands={0: "R2 G2 Y2", 1: "G1"})
    img = render_hand(RULES.view(s, 0))
    sim = deuteranopia(img)
    crops = [sim.crop((24 + k * 64, 132, 24 + (k + 1) * 64, 152)) for k in range(3)]
    assert all(ink_box(img, (24 + k * 64, 132, 24 + (k + 1) * 64, 152)) for k in range(3))
    assert differs(crops[0], crops[1]) > 0.03 and differs(crops[1], crops[2]) > 0.03


def test_file_strip_reads_at_discords_400_px() -> None:
    s = program_state("R1 Y2 G3 B2 R3 Y1 G1 B3 R2 Y3 G2 B1 R1 Y1", colours="red,yellow,green,blue",
                      pointers=(1, 5, 9, 15), hands={0: "G1"})
    v = RULES.view(s, None)
    img = render(v)
    scale = DISCORD_WIDTH / img.width
    for r in (0, 3, 13):  # labels, also on the second row
        bb = ink_box(img, label_box(v, r))
        assert bb is not None and (bb[3] - bb[1]) * scale >= 9, (r, bb)
    for r in (0, 8):  # record numbers above the pyramids (grey)
        x0, y0, x1, _ = position_box(v, r + 1)
        bb = ink_box(img, (x0 + 2, y0 - 30, x1 - 2, y0), threshold=120)
        assert bb is not None and (bb[3] - bb[1]) * scale >= 9, (r, bb)
    cx, cy = pointer_point(v, 2)
    bb = ink_box(img, (cx + 10, cy - 14, cx + 31, cy + 14))
    assert bb is not None and (bb[3] - bb[1]) * scale >= 8
    # each player's score in the players panel
    from bot.games.eof.drawing import PANEL_HEAD, panels_top, player_row_height
    top = panels_top(v)
    for seat in range(4):
        y = top + PANEL_HEAD + seat * player_row_height(v)
        bb = ink_box(img, (WIDTH - 100, y, WIDTH - 30, y + 36))
        assert bb is not None and (bb[3] - bb[1]) * scale >= 9, (seat, bb)
    # the same measure on the old layout's 13 px numbers would have given under 5 px
    assert 13 * 0.73 * scale < 5


def finished_state() -> EofState:
    import random

    from tests.games.eof.helpers import pick
    rng = random.Random(11)
    s = RULES.initial({}, 2)
    while RULES.outcome(s) is None:
        seat, move = pick(rng, s)
        s, _ = RULES.apply(s, seat, move)  # type: ignore[arg-type]
    return s


def test_final_picture_names_the_winner_and_the_final_scores() -> None:
    from bot.games.eof.render import _marks, _status, headline

    s = finished_state()
    v = RULES.view(s, None)
    names = ["Alice", "Bob"]
    best = max(v.scores)
    winners = [names[t] for t in range(2) if v.scores[t] == best]
    title = headline(v, names)
    assert title.startswith("EOF · Final · ") and " and ".join(winners) in title and f"with {best}" in title
    # the last events (the round 4 score) do not hide the final scores
    score_event = Event("score", "", {"round": 4})
    text, _ = _status(v, names, _marks(v, [score_event]))
    assert text == f"Final scores: Alice {v.scores[0]} · Bob {v.scores[1]}"
    img = render(v, names=names, events=[score_event])
    title_px = [img.getpixel((x, y)) for x in range(24, 400) for y in range(14, 40)]
    assert ACCENT in title_px  # the title is drawn in the accent colour


def test_every_frame_of_an_execution_gif_has_one_size() -> None:
    # 11 records fill the first row with BOF and EOF; red's insert makes a second row
    file = "G1 G2 G3 B1 B2 B3 G1 G2 G3 B1 B2"
    s = program_state(file, colours="red,yellow", pointers=(1, 2), hands={0: "Y1 G1", 1: "G2 G1"})
    before = RULES.view(s, None)
    s2, ev = run(s, {0: "Y1R G1U", 1: "G2R G1U"})
    after = RULES.view(s2, None)
    assert board_height(after) > board_height(before)
    frames = animate(before, ev, after)
    assert len({f.size for f, _ in frames}) == 1
    assert frames[0][0].size == (WIDTH, board_height(after))
    data = gif_bytes([f for f, _ in frames], [ms for _, ms in frames])
    import io
    gif = Image.open(io.BytesIO(data))
    sizes = set()
    for i in range(gif.n_frames):
        gif.seek(i)
        sizes.add(gif.size)
    assert sizes == {(WIDTH, board_height(after))}
    # the first frame (one row) is padded with the card colour below, not stretched
    first = frames[0][0].convert("RGB")
    pad = first.getpixel((WIDTH // 2, first.height - 3))
    assert max(abs(a - b) for a, b in zip(pad, CARD, strict=True)) <= 6  # (the GIF palette's nearest)


def test_every_players_colour_badge_carries_its_letter() -> None:
    # issue 31: the players panel pairs each name with a square of its colour and the colour's letter in
    # dark ink; under deuteranopia the four badges still differ (by the letters)
    from bot.games.eof.drawing import PANEL_HEAD, panels_top, player_row_height
    from bot.render import INK_DARK

    s = program_state("R1", colours="red,yellow,green,blue", hands={0: "G1"})
    v = RULES.view(s, None)
    img = render(v)
    sim = deuteranopia(img)
    top = panels_top(v)
    badges = []
    for seat in range(4):
        cy = top + PANEL_HEAD + seat * player_row_height(v) + 18
        box = (24 + 32 - 12, cy - 12, 24 + 32 + 12, cy + 12)
        crop = img.crop(box)
        assert INK_DARK in {c for _, c in crop.getcolors(4096) or []}, seat
        assert PIECE_COLOURS[v.players[seat].colour] in {c for _, c in crop.getcolors(4096) or []}, seat
        badges.append(sim.crop(box))
    for a in range(4):
        for b in range(a + 1, 4):
            assert differs(badges[a], badges[b]) > 0.03, (a, b)
