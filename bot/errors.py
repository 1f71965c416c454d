"""Errors whose ``str()`` is a short sentence for the user (shown ephemerally).

Engine errors (:class:`bot.games.base.GameError`: InvalidNotation, IllegalMove)
are user-facing too; ``bot/replies.py`` turns both into replies.
"""

from __future__ import annotations


class ParlorError(Exception):
    """Base for problems the user can understand and fix."""


class MatchError(ParlorError):
    """The action does not fit the match's current situation."""


class NoMatchHere(MatchError):
    pass


class NotAPlayer(MatchError):
    pass


class NotYourTurn(MatchError):
    pass


class MatchOver(MatchError):
    pass


class StaleBoard(MatchError):
    pass


class LobbyError(MatchError):
    pass


class Forbidden(ParlorError):
    """The user lacks the permission for an admin action."""


class NotSaved(ParlorError):
    """The database refused a write (disk full, read-only, I/O error): nothing changed."""
