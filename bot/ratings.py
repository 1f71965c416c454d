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
