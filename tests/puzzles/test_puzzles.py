"""The shipped puzzles hold: each is proved again by search, and answering follows the engine and the tree."""

from __future__ import annotations

import pytest

from bot.puzzles import PUZZLE_GAMES, all_puzzles, answer, choices, puzzles_of, verify
from bot.puzzles.games import SEARCHES
from bot.puzzles.generate import find
from bot.puzzles.search import Prover


def test_every_game_with_a_computer_opponent_has_puzzles_of_several_lengths():
    for game in PUZZLE_GAMES:
        found = puzzles_of(game)
        assert len(found) >= 20, game
        assert len({p.depth for p in found}) >= 3, game
    assert len({p.id for p in all_puzzles()}) == len(all_puzzles())


@pytest.mark.parametrize("p", all_puzzles(), ids=lambda p: p.id)
def test_each_shipped_puzzle_is_proved_again_by_search(p):
    verify(p)  # the same fewest moves, every winning move at every turn, legal on the engine, a real win


def test_a_puzzle_with_two_winning_first_moves_accepts_both():
    p = next(p for p in all_puzzles() if len(p.tree) >= 2)
    for move in choices(p.tree)[:2]:
        v = answer(p, (), move)
        assert v.ok, move


def test_a_legal_move_outside_the_tree_fails_and_an_illegal_one_changes_nothing():
    from bot.games import GAMES

    for game in PUZZLE_GAMES:
        p = puzzles_of(game)[0]
        rules = GAMES[game].rules
        state = rules.load(p.state)
        search = SEARCHES[game]
        s = search.to_search(state)
        wrong = next(search.name(s, m) for m in search.moves(s) if search.name(s, m) not in p.tree)
        v = answer(p, (), wrong)
        assert v.failed and not v.ok
        # and the search agrees it does not win within the puzzle's length
        prover = Prover(search, p.seat, 2_000_000)
        bad = next(m for m in search.moves(s) if search.name(s, m) == wrong)
        assert not prover.wins(search.play(s, bad), 14 if game == "pylon" else p.depth - 1)
        junk = answer(p, (), "zz9")
        assert not junk.ok and not junk.failed and junk.message


def test_the_finder_refuses_a_start_position_and_finds_a_known_puzzle_again():
    from bot.games import GAMES

    assert find("pylon", GAMES["pylon"].rules.initial({}, 2)) is None
    p = puzzles_of("fireandice")[0]
    again = find("fireandice", GAMES["fireandice"].rules.load(p.state))
    assert again is not None and again["tree"] == p.tree and again["depth"] == p.depth
