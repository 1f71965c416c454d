"""Nomic World map: real pixels at known places (spaces, tokens, path, highlight, legend)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.base import CHANCE, Event
from bot.games.nomic import RULES, End, render
from bot.games.nomic.render import (
    GRID,
    INK_DARK,
    MIN_CELL,
    ORIGIN_FILL,
    RESOURCE_COLOURS,
    TOKEN_MIN_R,
    UNKNOWN,
    geometry,
    token_colour,
    token_spots,
)
from bot.render import ACCENT, CARD

from .helpers import game, play, roll, turn

pytestmark = pytest.mark.golden


def played():
    """alice walks EE onto Water, Bob NNN onto Wood, Carol S onto Food (her path is the last)."""
    s = game()
    s = roll(s, 2)
    s, _ = play(s, 0, "EE")
    s, _ = play(s, CHANCE, "reveal Water")
    s = turn(s, yes=False)
    s = roll(s, 3)
    s, _ = play(s, 1, "NNN")
    s, _ = play(s, CHANCE, "reveal Wood")
    s = turn(s, yes=False)
    s = roll(s, 1)
    s, _ = play(s, 2, "S")
    s, events = play(s, CHANCE, "reveal Food")
    return s, events


def px(img, xy):
    return img.getpixel((int(xy[0]), int(xy[1])))


def test_spaces_show_unknown_revealed_and_origin_colours():
    s, _ = played()
    view = RULES.view(s, None)
    img = render(view)
    g = geometry(view)
    assert img.size == (g.width, g.height) and img.mode == "RGB"
    assert 600 <= img.width <= 900

    def corner(p):
        left, top, _, _ = g.box(p)
        return left + 4, top + 4
    assert px(img, corner((1, 0))) == UNKNOWN      # passed through: still unknown
    assert px(img, corner((2, 0))) == RESOURCE_COLOURS["Water"]
    assert px(img, corner((0, 3))) == RESOURCE_COLOURS["Wood"]
    assert px(img, corner((0, -1))) == RESOURCE_COLOURS["Food"]
    assert px(img, corner((0, 0))) == ORIGIN_FILL
    assert px(img, corner((-1, -1))) == UNKNOWN
    left, top, _, _ = g.box((1, 1))
    assert px(img, (left, top + g.cell // 2)) == GRID  # grid line between spaces
    assert px(img, (2, 2)) == CARD                      # the opaque card


def test_tokens_sit_on_their_spaces_in_seat_colours():
    s, _ = played()
    view = RULES.view(s, None)
    img = render(view)
    g = geometry(view)
    rad = g.cell * 0.38
    for seat, pos in ((0, (2, 0)), (1, (0, 3)), (2, (0, -1))):
        cx, cy = g.centre(pos)
        assert px(img, (cx, cy - rad * 0.75)) == token_colour(seat), seat


def test_last_path_is_drawn_and_the_landing_space_highlighted_by_events():
    s, events = played()
    view = RULES.view(s, None)
    g = geometry(view)
    plain = render(view)
    lit = render(view, events=events)
    (ax, ay), (bx, by) = g.centre((0, 0)), g.centre((0, -1))
    mid = ((ax + bx) / 2, (ay + by) / 2)
    assert px(plain, mid) == ACCENT and px(lit, mid) == ACCENT
    left, top, _, _ = g.box((0, -1))
    edge = (left + 2, top + g.cell // 4)
    assert px(lit, edge) == ACCENT
    assert px(plain, edge) == RESOURCE_COLOURS["Food"]
    # an older move's events do not highlight
    assert px(render(view, events=[Event("vote", "x")]), edge) == RESOURCE_COLOURS["Food"]


def test_players_on_one_space_share_it_side_by_side():
    s = game()
    view = RULES.view(s, None)
    img = render(view)
    g = geometry(view)
    left, top, _, _ = g.box((0, 0))
    size = g.cell / 2  # three tokens: two on top, one below
    colours = {px(img, (left + size / 2, top + size / 2 - size * 0.2)),
               px(img, (left + 1.5 * size, top + size / 2 - size * 0.2))}
    assert colours == {token_colour(0), token_colour(1)}
    assert px(img, (left + size / 2, top + 1.5 * size - size * 0.2)) == token_colour(2)


def test_player_in_movement_is_not_drawn():
    s = roll(game(["a", "b"]), 1)
    s, _ = play(s, 0, "E")
    assert s.players[0].pos is None
    view = RULES.view(s, None)
    img = render(view)
    g = geometry(view)
    cx, cy = g.centre((1, 0))
    assert px(img, (cx, cy - g.cell * 0.3)) == UNKNOWN  # destination not revealed, nobody there yet
    left, top, _, _ = g.box((0, 0))
    # only b (seat 1) remains on the origin, alone and centred
    assert px(img, (left + g.cell / 2, top + g.cell / 2 - g.cell * 0.3)) == token_colour(1)


def test_ten_players_spread_over_forty_by_forty_fit_a_phone_sized_picture():
    s = game([f"P{i}" for i in range(10)])
    spots = [(-20, -20), (20, 20), (-20, 20), (20, -20), (0, 7), (5, -9), (-13, 2), (11, 11), (-3, -17),
             (16, 0)]
    s = replace(s, players=tuple(replace(p, pos=spots[i]) for i, p in enumerate(s.players)),
                revealed=tuple(sorted(((x, y), "Metal") for x, y in spots)))
    view = RULES.view(s, None)
    g = geometry(view)
    assert (g.x0, g.x1, g.y0, g.y1) == (-21, 21, -21, 21)
    assert g.cell >= MIN_CELL and g.width <= 900
    img = render(view)
    for seat, pos in enumerate(spots):
        [(_, cx, cy, rad)] = token_spots(view, g)[pos]
        assert rad >= TOKEN_MIN_R  # big enough for its letter, though it overflows the 16 px space
        assert px(img, (cx, cy - rad * 0.75)) == token_colour(seat)
        assert px(img, (cx, cy)) == INK_DARK or INK_DARK in {
            c for _, c in img.crop((int(cx - rad / 2), int(cy - rad / 2), int(cx + rad / 2),
                                    int(cy + rad / 2))).getcolors(4096) or []}  # its letter


def test_names_clocks_lobby_and_finished_views_render():
    s, _ = played()
    view = RULES.view(s, None)
    a = render(view)
    b = render(view, names=["Alicia", None, "Caroline the Magnificent of Somewhere"],
               clocks=[65_000, 3_600_000, 0])
    assert a.size == b.size and a.tobytes() != b.tobytes()
    lobby = RULES.initial({}, 2)
    lobby, _ = play(lobby, 0, "join 5 Solo")
    assert render(RULES.view(lobby, None)).size[0] >= 600
    over, _ = RULES.apply(s, 0, End())
    assert render(RULES.view(over, None)).mode == "RGB"


# --- issue 13: contrast, resource labels under tokens, one size per match ---------------------------------

def luminance(c):
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(x) for x in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_a_token_reads_on_every_space_and_never_hides_the_resource():
    from bot.games.nomic.render import BAND, INK, INK_DARK

    s, _ = played()  # carol (seat 2, the green token) stands on Food
    view = RULES.view(s, None)
    img = render(view)
    g = geometry(view)
    assert contrast(token_colour(2), RESOURCE_COLOURS["Food"]) < 2  # the problem: green on green
    left, _top, right, bottom = g.box((0, -1))
    a_left, a_top, a_right, a_bottom = g.token_area((0, -1), True)
    cx = (a_left + a_right) / 2
    # walking down from the token's centre: token colour, its dark ring, a white halo, then the space
    column = [px(img, (cx, y)) for y in range(int(a_bottom) - 1, int(a_top), -1)]  # upwards from the band
    assert column[0] == RESOURCE_COLOURS["Food"]
    reach = column.index(token_colour(2))
    seen = column[:reach]
    assert INK in seen and INK_DARK in seen and seen.index(INK) < seen.index(INK_DARK)  # halo, then ring
    assert contrast(INK_DARK, token_colour(2)) > 7 and contrast(INK, RESOURCE_COLOURS["Food"]) > 2
    # the resource's name along the bottom, below the token (and its halo)
    band_top = bottom - g.band
    assert a_bottom == band_top and g.band >= 12
    strip = [px(img, (x, band_top + g.band // 2)) for x in range(left + 2, right - 2)]
    assert BAND in strip and any(contrast(c, BAND) > 7 for c in strip)  # light letters on the dark band
    assert token_colour(2) not in strip and INK not in [px(img, (left + 3, band_top + 2))]
    # every revealed space is labelled, with or without a token
    for pos in ((2, 0), (0, 3)):
        l2, _, r2, b2 = g.box(pos)
        strip = [px(img, (x, b2 - g.band // 2)) for x in range(l2 + 2, r2 - 2)]
        assert BAND in strip and any(contrast(c, BAND) > 7 for c in strip), pos


def test_one_picture_size_for_a_whole_match():
    from .helpers import move, propose, vote_all

    s = game()
    sizes = {render(RULES.view(s, None)).size}
    for path in ("E", "NN", "WWW", "SSSS", "EEEEE", "NNNNNN", "W", "SS"):
        s = move(s, path)
        sizes.add(render(RULES.view(s, None)).size)
        s = vote_all(propose(s, "enact Walk on."), False)
        sizes.add(render(RULES.view(s, None)).size)
    assert len(sizes) == 1, sizes  # it changed between turns (e.g. 698x858 and 802x802)
