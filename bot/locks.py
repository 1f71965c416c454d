"""Per-key asyncio locks (a match's, a tournament's) that go away once nobody holds or waits on them."""

from __future__ import annotations

import asyncio
import weakref


class KeyedLocks:
    """``locks(key)``: the one :class:`asyncio.Lock` for ``key`` while anyone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: int) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
