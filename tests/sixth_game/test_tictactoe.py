"""The sixth game's engine on its own: lines, draws, notation, bad input, and the computer player."""

import random

import pytest

from bot.games.base import IllegalMove, InvalidNotation, Reason
from tests import sixth_game
from tests.sixth_game.tictactoe import RULES, choose


def play(*squares):
    s = RULES.initial({}, 2)
    for text in squares:
        s, _ = RULES.apply(s, s.to_move, RULES.parse(text, s, s.to_move))
    return s


def test_three_in_a_row_wins_and_ends_the_game():
    s = play("a1", "a2", "b2", "a3", "c3")
    out = RULES.outcome(s)
    assert out is not None and out.winners == {0} and out.reason == Reason.NORMAL and "a1–c3" in out.detail
    assert RULES.to_act(s) is None and RULES.legal_moves(s, 1) == []
    view = RULES.view(s, None)
    assert view.to_move is None and view.winner == 0 and view.line == (0, 4, 8)


def test_a_full_grid_without_a_line_is_a_draw():
    s = play("b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3")
    assert RULES.outcome(s).is_draw and RULES.view(s, None).is_draw


def test_notation_and_bad_input():
    s = play("b2")
    assert RULES.parse(" C 3 ", s, 1) == 8 and RULES.format(8, s) == "c3"
    with pytest.raises(InvalidNotation, match="not a square"):
        RULES.parse("d4", s, 1)
    with pytest.raises(IllegalMove, match="b2 is taken") as err:
        RULES.parse("B2", s, 1)
    assert "b2" not in err.value.legal and len(err.value.legal) == 8
    with pytest.raises(ValueError):
        RULES.initial({"size": "4"}, 2)


def test_the_perfect_computer_never_loses_against_random_play():
    for seed in range(30):
        rng = random.Random(seed)
        s = RULES.initial({}, 2)
        perfect = seed % 2
        while RULES.outcome(s) is None:
            seat = s.to_move
            move = choose(s, seat, rng, "perfect" if seat == perfect else "random")
            s, _ = RULES.apply(s, seat, move)
        assert RULES.outcome(s).ranks[perfect] == 0


def test_registered_only_while_a_test_asks():
    from bot.games import GAMES, TITLES

    assert sixth_game.KEY not in GAMES
    game = sixth_game.register()
    try:
        assert GAMES[sixth_game.KEY] is game and TITLES[sixth_game.KEY] == "Tic-tac-toe"
        with pytest.raises(ValueError, match="already"):
            sixth_game.register()
    finally:
        sixth_game.unregister()
    assert sixth_game.KEY not in GAMES and sixth_game.KEY not in TITLES


def test_the_picture_shows_the_marks_the_last_move_and_the_line():
    from bot.render import ACCENT, CARD, PLAYER_COLOURS
    from tests.sixth_game.tictactoe import render
    from tests.sixth_game.tictactoe.render import cell_box, centre

    s, events = RULES.initial({}, 2), []
    for text in ("a1", "a2", "b2", "a3"):
        s, events = RULES.apply(s, s.to_move, RULES.parse(text, s, s.to_move))
    img = render(RULES.view(s, None), names=("alice", "bob"), events=events)
    assert img.size == (600, 680)
    assert img.getpixel(centre(4)) == PLAYER_COLOURS[0]  # the X on b2 crosses in the middle
    x, y = centre(3)
    assert img.getpixel((x, y - 40)) == PLAYER_COLOURS[1]  # the O's ring on a2
    assert img.getpixel(centre(8)) == CARD  # c3 is empty
    x0, y0, _, _ = cell_box(6)
    assert img.getpixel((x0 + 8, y0 + 40)) == ACCENT  # a3, the last move, is framed
    s, events = RULES.apply(s, 0, RULES.parse("c3", s, 0))
    img = render(RULES.view(s, None), names=("alice", "bob"), events=events)
    (ax, ay), (bx, by) = centre(0), centre(4)
    assert img.getpixel(((ax + bx) // 2, (ay + by) // 2)) == ACCENT  # the winning line runs a1–c3


def test_one_short_cog_and_the_product_does_not_know_the_game():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    cog = Path(__file__).with_name("cog.py")
    assert len(cog.read_text(encoding="utf-8").splitlines()) < 80
    product = [p for d in ("bot", "cogs") for p in (root / d).rglob("*.py")]
    assert product
    for path in product:
        text = path.read_text(encoding="utf-8").lower()
        assert "tictactoe" not in text and "sixth_game" not in text, path
