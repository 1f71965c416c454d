"""TournamentService: sign-up, rounds, results and standings — everything kept in the store.

Life of an event: ``signup`` (Join/Leave) → ``running`` (rounds; ``paused`` on request) →
``finished`` or ``cancelled``. Each transition is one versioned transaction
(:meth:`Store.save_tournament`), so double clicks, restarts, ``kill -9`` and other shard
processes can never apply one twice; starting round *r* also inserts the unique
``(tournament, r)`` row together with the round's pairings, so no round is started or paired twice.

Each pairing is an ordinary match: created with its two seats (first mover first) and linked to
its pairing in one transaction (:meth:`Store.create_pairing_match`), then started through
:meth:`MatchService.begin`. Results come back through :attr:`MatchService.on_match_end`; a
restart re-reads finished matches (:meth:`resume`), so a result noticed by nobody is recorded
anyway. Discord is not known here: a :class:`Presenter` (the cog) is told what happened.

The service is assembled from one part per job: :mod:`bot.tournaments.core` (records, errors, load, lock,
save, shared bookkeeping), :mod:`bot.tournaments.signup` (create, join, leave, start),
:mod:`bot.tournaments.rounds` (pairing, matches, posting claims, advancing), :mod:`bot.tournaments.results`
(recording results, standings), :mod:`bot.tournaments.organiser` (withdrawals and organiser controls) and
:mod:`bot.tournaments.deadlines` (start times, round time limits, restarts).
"""

from __future__ import annotations

from bot.tournaments.core import (
    MAX_PLAYERS,
    MAX_ROUND_TIME,
    MIN_PLAYERS,
    MIN_ROUND_TIME,
    POST_CLAIM_TTL,
    Presenter,
    Standing,
    Started,
    TournamentConflict,
    TournamentError,
    Transition,
    _Quiet,
    to_pairing,
)
from bot.tournaments.deadlines import Deadlines
from bot.tournaments.organiser import Organiser

__all__ = [
    "MAX_PLAYERS", "MAX_ROUND_TIME", "MIN_PLAYERS", "MIN_ROUND_TIME", "POST_CLAIM_TTL",
    "Presenter", "Standing", "Started", "TournamentConflict", "TournamentError", "TournamentService",
    "Transition", "_Quiet", "to_pairing",
]


class TournamentService(Deadlines, Organiser):
    """All tournament actions."""
