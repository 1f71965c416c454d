"""OpenSkill updates: winners gain, losers lose, ties share, W/L/D counted."""

from bot import ratings


def test_two_player_win():
    ch = ratings.rate(1, "pylon", [(10, 0), (20, 1)], {})
    by = {c.user_id: c for c in ch}
    assert by[10].after.mu > 25 > by[20].after.mu
    assert (by[10].after.wins, by[20].after.losses) == (1, 1)
    assert by[10].after.ordinal > by[10].before.ordinal


def test_draw_counts_as_draw_for_both():
    ch = ratings.rate(1, "pylon", [(10, 0), (20, 0)], {})
    assert all(c.after.draws == 1 and c.after.wins == 0 and c.after.losses == 0 for c in ch)


def test_four_players_with_a_tie():
    ch = ratings.rate(1, "eof", [(1, 0), (2, 1), (3, 1), (4, 2)], {})
    mu = {c.user_id: c.after.mu for c in ch}
    assert mu[1] > mu[2] == mu[3] > mu[4]
    assert [c.after.wins for c in ch] == [1, 0, 0, 0]


def test_existing_ratings_are_used():
    first = {c.user_id: c.after for c in ratings.rate(1, "pylon", [(10, 0), (20, 1)], {})}
    second = ratings.rate(1, "pylon", [(10, 0), (20, 1)], first)
    assert second[0].before == first[10] and second[0].after.games == 2
