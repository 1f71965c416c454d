"""Tiebreaks against tables computed by hand."""

import pytest

from bot.tournaments.model import Format, Pairing, Result, format_points
from bot.tournaments.standings import standings, text_table

pytestmark = pytest.mark.unit

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def test_swiss_points_buchholz_sonneborn_berger():
    # A=1 B=2 C=3 D=4, first named moves first.
    games = [
        Pairing(1, 1, 1, 2, W), Pairing(1, 2, 3, 4, D),      # A beats B; C draws D
        Pairing(2, 1, 1, 3, D), Pairing(2, 2, 2, 4, B),      # A draws C; D beats B
        Pairing(3, 1, 4, 1, B), Pairing(3, 2, 2, 3, W),      # A beats D; B beats C
    ]
    rows = standings([1, 2, 3, 4], games, Format.SWISS)
    # By hand: points A 2½, D 1½, B 1, C 1.
    # Buchholz: A = B1 + C1 + D1½ = 3½; B = A2½ + D1½ + C1 = 5;
    #           C = D1½ + A2½ + B1 = 5; D = C1 + B1 + A2½ = 4½.
    # SB: A = B1 + ½·C1 + D1½ = 3; B = C1 = 1; C = ½·D1½ + ½·A2½ = 2; D = ½·C1 + B1 = 1½.
    # B and C tie on points and Buchholz; C's SB is higher.
    table = [(r.place, r.player, format_points(r.points), r.buchholz_text, r.sb_text) for r in rows]
    assert table == [
        (1, 1, "2½", "3½", "3"),
        (2, 4, "1½", "4½", "1.5"),
        (3, 3, "1", "5", "2"),
        (4, 2, "1", "5", "1"),
    ]


def test_byes_and_forfeits_give_points_but_no_tiebreak():
    games = [Pairing(1, 1, 1, 2, Result.WHITE_FORFEIT_WIN), Pairing(1, 2, 3, None, Result.BYE),
             Pairing(2, 1, 3, 1, W), Pairing(2, 2, 2, None, Result.BYE)]
    rows = {r.player: r for r in standings([1, 2, 3], games, Format.SWISS)}
    assert rows[1].points == 2 and rows[3].points == 4 and rows[2].points == 2
    # 1's forfeit win names no opponent; 1's only game over the board is the loss to 3 (2 points)
    assert rows[1].buchholz == 4 and rows[1].sb == 0
    assert rows[3].buchholz == 2 and rows[3].sb == 2 * 2  # beat 1 (1 point = 2 half) → 1 point of SB


def test_round_robin_sonneborn_berger_then_head_to_head():
    # 1-2 1-0, 1-3 1-0, 1-4 ½, 2-3 ½, 2-4 1-0, 3-4 0-1
    games = [Pairing(1, 1, 1, 2, W), Pairing(1, 2, 3, 4, B), Pairing(2, 1, 1, 3, W), Pairing(2, 2, 2, 4, W),
             Pairing(3, 1, 1, 4, D), Pairing(3, 2, 2, 3, D)]
    rows = standings([1, 2, 3, 4], games, Format.ROUND_ROBIN)
    # By hand: points 1: 2½, 2: 1½, 4: 1½, 3: ½.
    # SB 1: 2·... = beat 2 (1½) + beat 3 (½) + ½·4 (1½) = 2.75; 2: ½·3 (½) + beat 4 (1½) = 1.75;
    # 4: ½·1 (2½) + beat 3 (½) = 1.75; 3: ½·2 (1½) = 0.75. 2 and 4 tie on SB: 2 beat 4 head to head.
    table = [(r.place, r.player, r.points_text, r.sb_text, format_points(r.h2h)) for r in rows]
    assert table == [(1, 1, "2½", "2.75", "0"), (2, 2, "1½", "1.75", "1"), (3, 4, "1½", "1.75", "0"),
                     (4, 3, "½", "0.75", "0")]


def test_complete_ties_share_the_place():
    games = [
        Pairing(1, 1, 1, 2, W),
        Pairing(2, 1, 2, 3, W),
        Pairing(3, 1, 3, 1, W),
        Pairing(1, 2, 3, None, Result.BYE),
        Pairing(2, 2, 1, None, Result.BYE),
        Pairing(3, 2, 2, None, Result.BYE),
    ]
    rows = standings([1, 2, 3], games, Format.ROUND_ROBIN)
    assert [r.place for r in rows] == [1, 1, 1] and [r.player for r in rows] == [1, 2, 3]


def test_undecided_games_do_not_count_and_text_table():
    games = [Pairing(1, 1, 1, 2, W), Pairing(2, 1, 2, 1, None)]
    rows = standings([1, 2], games, Format.SWISS, withdrawn=[2])
    assert rows[0].points == 2 and rows[0].played == 1
    text = text_table(rows, {1: "alice", 2: "bob"}, Format.SWISS)
    assert "alice" in text and "(withdrew)" in text and "Buch" in text
