"""Per-server ratings with OpenSkill (Plackett–Luce), for 2–4 players with ties.

Pure: given the players' current rows and their ranks, return the changes.
The match service stores them in the transaction that finishes the match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from openskill.models import PlackettLuce

from bot.storage import RatingChange, RatingRow

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3


@lru_cache(maxsize=1)
def model() -> PlackettLuce:
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def fresh(guild_id: int, game: str, user_id: int) -> RatingRow:
    return RatingRow(guild_id, game, user_id, DEFAULT_MU, DEFAULT_SIGMA)


def rate(guild_id: int, game: str, players: Sequence[tuple[int, int]],
         current: Mapping[int, RatingRow]) -> list[RatingChange]:
    """New ratings for ``players`` = [(user_id, rank)], rank 0 best, equal ranks tie.

    W/L/D: a player with the best rank wins unless everybody tied (a draw);
    everybody else loses.
    """
    if len(players) < 2:
        return []
    m = model()
    before = [current.get(uid) or fresh(guild_id, game, uid) for uid, _ in players]
    ranks: list[float] = [rank for _, rank in players]  # openskill wants floats; ints are kept as they are
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    result = m.rate(teams, ranks=ranks)
    best = min(ranks)
    everyone_tied = len(set(ranks)) == 1
    changes = []
    for (uid, rank), old, new in zip(players, before, result, strict=True):
        won = rank == best and not everyone_tied
        after = RatingRow(
            guild_id, game, uid, new[0].mu, new[0].sigma,
            wins=old.wins + int(won), losses=old.losses + int(not won and not everyone_tied),
            draws=old.draws + int(everyone_tied), games=old.games + 1,
        )
        changes.append(RatingChange(uid, rank, old, after))
    return changes


PROVISIONAL_GAMES = 5
"""Rated games in one game before a player's rating there loses its "provisional" mark."""

RATING_NOTE = (
    "Ratings start at 0 and rise as you win and as your results show your skill more surely (an early "
    f"loss can dip below 0); they are provisional for the first {PROVISIONAL_GAMES} rated games of a game."
)
"""The one explanation shown wherever ratings are (the leaderboard, /stats, a match's result)."""


def signed(x: float, *, plus: bool = False) -> str:
    """One decimal with a real minus sign ("−1.8"); ``plus`` marks gains too ("+2.4", for changes).

    >>> signed(-1.84), signed(2.36, plus=True), signed(-0.01)
    ('−1.8', '+2.4', '0.0')
    """
    text = f"{x:.1f}"
    if text in ("-0.0", "0.0"):
        return "0.0"
    if text.startswith("-"):
        return "−" + text[1:]
    return f"+{text}" if plus else text


def rating_text(row: RatingRow) -> str:
    """A player's rating as every ratings display shows it: the number that ranks, marked while provisional.

    >>> rating_text(RatingRow(1, "pylon", 2, 22.4, 8.07, losses=1, games=1))
    '−1.8 (provisional, 1 of 5 games)'
    >>> rating_text(RatingRow(1, "pylon", 2, 30.0, 4.0, wins=6, games=6))
    '18.0'
    """
    if row.games < PROVISIONAL_GAMES:
        return f"{signed(row.ordinal)} (provisional, {row.games} of {PROVISIONAL_GAMES} games)"
    return signed(row.ordinal)


def rating_change_text(change: RatingChange) -> str:
    """A rating after a match, with how much it moved: "3.4 (+3.4, provisional, 1 of 5 games)"."""
    after = rating_text(change.after)
    delta = signed(change.after.ordinal - change.before.ordinal, plus=True)
    if "(" in after:
        return after.replace("(", f"({delta}, ", 1)
    return f"{after} ({delta})"
