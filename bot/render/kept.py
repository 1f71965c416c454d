"""Pictures and encoded bytes kept by key, within a memory bound."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Kept:
    """Pictures (or encoded bytes) kept by key up to ``limit`` units of ``size`` (pixels by default), least
    recently used first out; safe to share between the event loop and worker threads."""

    def __init__(self, limit: int, size: Callable[[Any], int] = lambda im: im.width * im.height) -> None:
        self.items: OrderedDict[Hashable, Any] = OrderedDict()
        self.limit, self.size, self.used = limit, size, 0
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def drop(self, key: Hashable) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.used -= self.size(old)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.used = 0

    def put(self, key: Hashable, value: Any) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = value
            self.used += self.size(value)
            while self.used > self.limit and len(self.items) > 1:
                _, old = self.items.popitem(last=False)
                self.used -= self.size(old)
