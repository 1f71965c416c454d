"""Time-based, strictly increasing snowflakes; Discord-shaped timestamps and tokens."""

from __future__ import annotations

import base64
import datetime as _dt
import secrets
import string
import time
from collections.abc import Callable

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Snowflakes whose timestamp part follows ``clock`` (epoch seconds), strictly increasing."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._last = 0
        self._increment = 0

    def __call__(self) -> int:
        ms = int(self.clock() * 1000) - DISCORD_EPOCH_MS
        self._increment = (self._increment + 1) & 0xFFF
        value = (max(ms, 0) << 22) | (1 << 17) | (1 << 12) | self._increment
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def snowflake_time(snowflake: int) -> _dt.datetime:
    ms = (int(snowflake) >> 22) + DISCORD_EPOCH_MS
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.UTC)


def iso(when: float | None = None) -> str:
    """ISO-8601 timestamp like Discord's (``2024-05-01T12:00:00.123000+00:00``)."""
    when = time.time() if when is None else when
    return _dt.datetime.fromtimestamp(when, tz=_dt.UTC).isoformat(timespec="microseconds")


_ALPHABET = string.ascii_letters + string.digits + "_-"


def bot_token(user_id: int) -> str:
    """Shaped like a real bot token: base64(user id) . 6 chars . 38 chars."""
    first = base64.b64encode(str(user_id).encode()).decode().rstrip("=")
    second = "".join(secrets.choice(_ALPHABET) for _ in range(6))
    third = "".join(secrets.choice(_ALPHABET) for _ in range(38))
    return f"{first}.{second}.{third}"


def interaction_token() -> str:
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
