"""Wording helpers for the words on pictures and in messages (no Discord imports).

They live under :mod:`bot.render` because engines' renderers may import only :mod:`bot.games.base`,
:mod:`bot.render` and their own package; the cogs use the same two.
"""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` with ``word`` in the right number.

    >>> plural(1, "pyramid"), plural(0, "game"), plural(2, "destination"), plural(3, "match", "matches")
    ('1 pyramid', '0 games', '2 destinations', '3 matches')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """``word`` with "a" or "an" (by its first letter, which is right for the words we use).

    >>> article("Ice piece"), article("Fire piece")
    ('an Ice piece', 'a Fire piece')
    """
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def player_range(least: int, most: int | None) -> str:
    """How many players a game takes, as a sentence says it.

    >>> player_range(2, 2), player_range(2, 4), player_range(3, None)
    ('2 players', '2 to 4 players', 'any number of players, at least 3')
    """
    if most is None:
        return f"any number of players, at least {least}"
    if most == least:
        return plural(least, "player")
    return f"{least} to {most} players"
