"""Which matches the current action changed: so an error reply never claims "unchanged" falsely.

An interaction handler calls :func:`track` when it starts; :class:`MatchService` calls
:func:`note` after every commit (a new match, a saved action). The set lives in a context
variable, so each interaction (its own asyncio task, and the tasks it starts) sees its own.
"""

from __future__ import annotations

from contextvars import ContextVar

_changed: ContextVar[set[int] | None] = ContextVar("parlor_changed_matches", default=None)


def track() -> set[int]:
    """Start a fresh record for the current task (the start of an interaction)."""
    changed: set[int] = set()
    _changed.set(changed)
    return changed


def note(match_id: int) -> None:
    """A commit changed ``match_id`` (no-op outside a tracked interaction)."""
    changed = _changed.get()
    if changed is not None:
        changed.add(match_id)


def changed() -> frozenset[int]:
    """The matches changed since :func:`track` in this task (empty if not tracked)."""
    return frozenset(_changed.get() or ())
