"""Pylon renderer: real pixels at known places (pieces, empty squares, highlight, badges, panels)."""

from __future__ import annotations

import pytest

from bot.games.base import Event
from bot.games.pylon.notation import parse_square
from bot.games.pylon.render import (
    FACE_SHADE,
    HEIGHT,
    MARKER_FILL,
    PANEL_FILL,
    PANEL_TOP,
    PIECE_SIDE,
    SEAT_COLOURS,
    SQUARE_FILL,
    WIDTH,
    render,
    shade,
    square_box,
    square_center,
)
from bot.games.pylon.rules import RULES
from bot.render import ACCENT, CARD, png_bytes
from tests.games.pylon.helpers import full_board, play_all, position

pytestmark = pytest.mark.golden

RED, BLUE = SEAT_COLOURS


def near(a: tuple[int, ...], b: tuple[int, ...], eps: int = 3) -> bool:
    return all(abs(x - y) <= eps for x, y in zip(a, b, strict=True))


def west_face(name: str, size: int) -> tuple[int, int]:
    """A point on the west face of the top pyramid (the face drawn in the owner's plain colour)."""
    cx, cy = square_center(parse_square(name))
    return cx - PIECE_SIDE[size] // 2 + 5, cy


def test_geometry() -> None:
    assert square_box(parse_square("a5"))[:2] == (48, 60)     # row 5 at the top left
    assert square_box(parse_square("a1"))[1] > square_box(parse_square("a2"))[1]
    assert square_center(parse_square("f1"))[0] > square_center(parse_square("e1"))[0]


def test_picture_size_and_card() -> None:
    img = render(RULES.view(RULES.initial({}, 2), None))
    assert img.size == (WIDTH, HEIGHT) == (720, 762)
    assert img.mode == "RGB"
    assert img.getpixel((2, 2)) == CARD


def test_empty_squares_are_plain() -> None:
    img = render(RULES.view(RULES.initial({}, 2), None))
    for name in ("a1", "c3", "f5"):
        assert img.getpixel(square_center(parse_square(name))) == SQUARE_FILL


def test_pieces_show_owner_colour_size_and_marker() -> None:
    s = play_all(RULES.initial({}, 2), "L c3", "S d4", "M a1")
    img = render(RULES.view(s, None))
    assert near(img.getpixel(west_face("c3", 3)), RED)
    assert near(img.getpixel(west_face("d4", 1)), BLUE)
    assert near(img.getpixel(west_face("a1", 2)), RED)
    # the north face is lit, the south face shaded
    cx, cy = square_center(parse_square("c3"))
    assert near(img.getpixel((cx, cy - 30)), shade(RED, FACE_SHADE["N"]))
    assert near(img.getpixel((cx, cy + 30)), shade(RED, FACE_SHADE["S"]))
    # apex markers are white on both colours
    assert img.getpixel(square_center(parse_square("c3"))) == MARKER_FILL
    assert img.getpixel(square_center(parse_square("d4"))) == MARKER_FILL
    # size is readable: a small leaves the square's corner area empty, a large covers it
    x0, y0, _, _ = square_box(parse_square("d4"))
    assert img.getpixel((x0 + 20, y0 + 50)) == SQUARE_FILL
    x0, y0, _, _ = square_box(parse_square("c3"))
    assert near(img.getpixel((x0 + 20, y0 + 50)), RED)


def test_last_placement_is_outlined_in_amber() -> None:
    s = play_all(RULES.initial({}, 2), "L c3", "S d4")
    img = render(RULES.view(s, None))
    x0, y0, _x1, y1 = square_box(parse_square("d4"))
    assert img.getpixel((x0 + 3, (y0 + y1) // 2)) == ACCENT
    x0, y0, _x1, y1 = square_box(parse_square("c3"))
    assert img.getpixel((x0 + 3, (y0 + y1) // 2)) != ACCENT


def test_stacking_highlight_arrow_badge_and_lower_rings() -> None:
    s = full_board()
    # Blue moves the Red small on a1 onto the Blue medium on b1
    s2, events = RULES.apply(s, s.to_move, RULES.parse("a1-b1", s, s.to_move))
    img = render(RULES.view(s2, None), events=events)
    a1, b1 = parse_square("a1"), parse_square("b1")
    # source: empty, with a thin amber frame and the arrow starting at its centre
    assert img.getpixel(square_center(a1)) == ACCENT
    x0, y0, _, y1 = square_box(a1)
    assert img.getpixel((x0 + 4, (y0 + y1) // 2 - 30)) == ACCENT
    assert img.getpixel((x0 + 20, y0 + 20)) == SQUARE_FILL
    # target: thick amber frame, Red small on top, Blue medium ring around it, badge "2"
    x0, y0, x1, y1 = square_box(b1)
    assert img.getpixel((x0 + 3, y1 - 10)) == ACCENT
    assert near(img.getpixel(west_face("b1", 1)), RED)
    assert near(img.getpixel(west_face("b1", 2)), BLUE)
    badge = (x1 - 22, y0 + 22 - 10)
    assert img.getpixel(badge) == (250, 250, 250)
    # without events the view's last move is highlighted the same way
    assert render(RULES.view(s2, None)).tobytes() == img.tobytes()


def test_events_override_the_highlight() -> None:
    s = play_all(RULES.initial({}, 2), "L c3", "S d4")
    img = render(RULES.view(s, None), events=(Event("place", data={"square": "c3"}),))
    x0, y0, _, y1 = square_box(parse_square("c3"))
    assert img.getpixel((x0 + 3, (y0 + y1) // 2)) == ACCENT


def test_panel_of_the_player_to_move_is_framed() -> None:
    img = render(RULES.view(RULES.initial({}, 2), None))  # Red to move
    red_edge = (48 + 100, PANEL_TOP + 1)
    blue_edge = (720 - 48 - 100, PANEL_TOP + 1)
    assert img.getpixel(red_edge) == ACCENT
    assert img.getpixel(blue_edge) in (PANEL_FILL, CARD)


def test_finished_game_renders_without_turn_frame() -> None:
    s = position({"c3": "R1", "c4": "B2", "a1": "B3", "f5": "R2"})
    s, events = RULES.apply(s, s.to_move, RULES.parse("c3-c4", s, s.to_move))
    img = render(RULES.view(s, None), names=["Alice", "Bob"], events=events, clocks=[90_000, None])
    assert img.getpixel((48 + 100, PANEL_TOP + 1)) != ACCENT
    assert img.getpixel((720 - 48 - 100, PANEL_TOP + 1)) != ACCENT
    assert len(png_bytes(img)) > 1000


def test_render_is_deterministic_and_pure() -> None:
    v = RULES.view(play_all(full_board(), "a1-b1", "b1-c1"), None)
    a = render(v, names=("A very long display name indeed", "B"))
    b = render(v, names=("A very long display name indeed", "B"))
    assert a.tobytes() == b.tobytes()


LONGEST = ("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Parlor (medium)")
"""The widest 32-character display name Discord allows, and the computer at its longest level name."""


def _ended_by_agreement():
    import dataclasses

    s = play_all(full_board(), "a1-a2", "b1-b2", "d1-d2")  # Blue leads 16–14
    return RULES.view(dataclasses.replace(s, agreed=(True, True)), None)


def _ink_columns(img, y0: int, y1: int) -> list[int]:
    """x of every pixel in rows y0..y1 that is not the card colour."""
    px = img.load()
    return [x for x in range(img.width) for y in range(y0, y1) if px[x, y] != CARD]


@pytest.mark.parametrize("names", [LONGEST, LONGEST[::-1], ("alice", "Parlor (medium)")])
def test_final_headline_is_never_cut(names) -> None:
    from bot.games.pylon.render import BOARD_W, MARGIN_X, headline_lines
    from bot.render import font

    view = _ended_by_agreement()
    lines = headline_lines(view, names)
    text = " ".join(t for t, _ in lines)
    assert "wins 16–14" in text and "ended by agreement" in text  # the result and the reason always show
    winner = names[1]                                               # Blue (seat 1) won
    assert text.startswith(winner if len(winner) < 20 else winner[:12])  # a shortened name keeps its start
    for t, size in lines:
        assert font(size, bold=True).getlength(t) <= BOARD_W
    img = render(view, names=names)
    ink = _ink_columns(img, 0, 58)                                  # the header band, above the board
    assert ink and max(ink) <= MARGIN_X + BOARD_W and min(ink) >= MARGIN_X - 2


def test_headline_counts_pyramids_in_the_singular() -> None:
    from bot.games.pylon.render import headline_lines

    s = position({"a1": "R1"}, stash=((0, 0, 0), (1, 0, 0)))  # one pyramid left to place
    lines = headline_lines(RULES.view(s, None), ("Alice", "Bob"))
    assert lines == [("Bob to place · 1 pyramid left", 28)]
    s = position({}, stash=((1, 0, 0), (1, 0, 0)))
    assert "2 pyramids left" in headline_lines(RULES.view(s, None), ("Alice", "Bob"))[0][0]
