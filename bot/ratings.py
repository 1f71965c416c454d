"""Per-server ratings with OpenSkill (Plackett–Luce), for 2–4 players with ties.

Pure: given the players' current rows and their ranks, return the changes.
The match service stores them in the transaction that finishes the match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from openskill.models import PlackettLuce

from bot.i18n import N_, _, language
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
    before = [current.get(uid) or fresh(guild_id, game, uid) for uid, _rank in players]
    ranks: list[float] = [rank for _uid, rank in players]  # openskill wants floats; ints are kept as they are
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

RATING_NOTE = N_(
    "Ratings start at 0 and rise as you win and as your results show your skill more surely (an early "
    "loss can dip below 0); they are provisional for the first 5 rated games of a game."
)
"""The one explanation shown wherever ratings are (the leaderboard, /stats, a match's result); looked up where
shown (``_(RATING_NOTE)``). Its 5 is :data:`PROVISIONAL_GAMES` (a test checks they agree)."""


def signed(x: float, *, plus: bool = False) -> str:
    """One decimal with a real minus sign ("−1.8"); ``plus`` marks gains too ("+2.4", for changes).

    >>> signed(-1.84), signed(2.36, plus=True), signed(-0.01)
    ('−1.8', '+2.4', '0.0')
    """
    text = f"{x:.1f}"
    if text in ("-0.0", "0.0"):
        text = "0.0"
    elif text.startswith("-"):
        text = "−" + text[1:]
    elif plus:
        text = f"+{text}"
    return text if language() == "en" else text.replace(".", _decimal_symbol(language()))


@lru_cache(maxsize=8)
def _decimal_symbol(lang: str) -> str:
    """The decimal separator of ``lang`` ("," in Spanish and Portuguese)."""
    from babel.numbers import get_decimal_symbol

    try:
        return str(get_decimal_symbol(lang))
    except ValueError:  # a language Babel does not know (the pseudo-locale): as in English
        return "."


def rating_text(row: RatingRow) -> str:
    """A player's rating as every ratings display shows it: the number that ranks, marked while provisional.

    >>> rating_text(RatingRow(1, "pylon", 2, 22.4, 8.07, losses=1, games=1))
    '−1.8 (provisional, 1 of 5 games)'
    >>> rating_text(RatingRow(1, "pylon", 2, 30.0, 4.0, wins=6, games=6))
    '18.0'
    """
    if row.games < PROVISIONAL_GAMES:
        return _("{rating} (provisional, {games} of {total} games)", rating=signed(row.ordinal),
                 games=row.games, total=PROVISIONAL_GAMES)
    return signed(row.ordinal)


def rating_change_text(change: RatingChange) -> str:
    """A rating after a match, with how much it moved: "3.4 (+3.4, provisional, 1 of 5 games)"."""
    after = change.after
    delta = signed(after.ordinal - change.before.ordinal, plus=True)
    if after.games < PROVISIONAL_GAMES:
        return _("{rating} ({change}, provisional, {games} of {total} games)", rating=signed(after.ordinal),
                 change=delta, games=after.games, total=PROVISIONAL_GAMES)
    return f"{signed(after.ordinal)} ({delta})"
