"""The standings picture: real pixels, readable at 400 px, no colour-only meaning."""

import pytest
from PIL import ImageChops

from bot.tournaments import render as R
from bot.tournaments.model import Format, Pairing, Result
from bot.tournaments.standings import standings

pytestmark = pytest.mark.golden


def table(n=10, withdrawn=()):
    players = list(range(1, n + 1))
    games = [Pairing(1, i, players[2 * i], players[2 * i + 1], Result.WHITE_WINS) for i in range(n // 2)]
    rows = standings(players, games, Format.SWISS, withdrawn=withdrawn)
    return rows, {p: f"player{p}" for p in players}


def test_readable_at_400_px():
    rows, names = table()
    img = R.render_standings(rows, names, Format.SWISS, title="T")
    scale = 400 / img.width
    assert img.width == R.WIDTH
    assert R.BODY_SIZE * scale >= 12          # body text at least 12 px tall when shown 400 px wide
    assert R.ROW * scale >= 18
    assert img.height == R.HEAD + R.ROW * len(rows) + 16


def test_colour_pairs_have_contrast_without_hue():
    for bg in (R.BACKGROUND, R.STRIPE):
        assert R.contrast(R.INK, bg) >= 4.5
        assert R.contrast(R.MUTED, bg) >= 4.5
    for medal in R.MEDALS:
        assert R.contrast(R.MEDAL_INK, medal) >= 4.5
    assert len(set(R.MARKS)) == 3             # the podium is told by shapes and numbers too


def test_every_row_is_drawn_and_podium_marked():
    rows, names = table(8)
    img = R.render_standings(rows, names, Format.SWISS, title="T").convert("L")
    for i, _ in enumerate(rows):
        mid = R.HEAD + i * R.ROW + R.ROW // 2
        band = img.crop((96, mid - 10, 300, mid + 10))
        assert band.getextrema()[1] > 150     # the name's ink is there
        medal = img.getpixel((24 + 15, mid - 12))
        if rows[i].place <= 3:
            assert medal > 120                # a filled disc (light in grey too)
        else:
            assert medal < 80


def test_withdrawn_player_is_written_not_coloured():
    rows, names = table(4, withdrawn=[4])
    img = R.render_standings(rows, names, Format.SWISS, title="T")
    plain = R.render_standings(standings(list(range(1, 5)), [], Format.SWISS), names, Format.SWISS, title="T")
    assert ImageChops.difference(img, plain).getbbox() is not None
    from bot.tournaments.standings import text_table
    assert "(withdrew)" in text_table(rows, names, Format.SWISS)


def test_more_than_128_rows_are_counted():
    rows, names = table(130)
    img = R.render_standings(rows, names, Format.SWISS, title="T")
    assert img.height == R.HEAD + R.ROW * 129 + 16
