"""Settings from the environment (and a ``.env`` file in the working directory).

Every error names the variable and says how to fix it, in one line, because
``python -m bot`` prints it and exits.
"""

from __future__ import annotations

import base64
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, open its Bot page, click 'Reset "
    "Token' and put the token in DISCORD_TOKEN (environment or a .env file)."  # not translated: console
)
# A bot token is three base64url parts: the bot's id, a timestamp, an HMAC.
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


@dataclass(frozen=True)
class Config:
    token: str
    database: str = "sqlite:///data/parlor.sqlite3"
    command_guilds: tuple[int, ...] = ()
    log_level: str = "INFO"
    shard_count: int | None = None  # PARLOR_SHARD_COUNT: None = one unsharded client (the default)
    shard_ids: tuple[int, ...] | None = None  # PARLOR_SHARD_IDS: the shards this process runs
    metrics_port: int | None = None  # PARLOR_METRICS_PORT: Prometheus endpoint, off when None

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def syncs_commands(self) -> bool:
        """Only the process running shard 0 (or the only process) uploads the slash commands."""
        return self.shard_ids is None or 0 in self.shard_ids

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (``None``: direct messages, shard 0), as
        Discord routes guilds: ``(guild_id >> 22) % shard_count``."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids

    @property
    def application_id(self) -> int | None:
        """The bot's user id, read from the token's first part."""
        try:
            part = self.token.split(".")[0]
            return int(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode())
        except (ValueError, UnicodeDecodeError):
            return None


DISTRIBUTION = "parlor"


def parlor_version() -> str:
    """The installed distribution's version: ``version`` in pyproject.toml, the one place it is written
    (``parlor --version``, the first log line). ``0+unknown`` when the code runs without being installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


def load_dotenv_file(path: Path = Path(".env")) -> None:
    """Read ``.env`` (KEY=value lines) into the environment without overriding it."""
    if not path.is_file():
        return
    try:
        from dotenv import load_dotenv
    except ImportError:  # pragma: no cover - python-dotenv is a dependency
        return
    load_dotenv(path, override=False)


def validate_token(token: str | None) -> str:
    """Return the token or raise :class:`ConfigError` saying what to do."""
    if not token or not token.strip():
        raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
    token = token.strip()
    if token.lower().startswith("bot "):
        token = token[4:].strip()
    if not _TOKEN_RE.match(token):
        raise ConfigError(
            f"DISCORD_TOKEN does not look like a bot token (three dot-separated parts). {TOKEN_HELP}"
        )
    return token


def from_env(env: Mapping[str, str] | None = None) -> Config:
    """Build the config from ``env`` (default: ``os.environ``)."""
    env = os.environ if env is None else env
    token = validate_token(env.get("DISCORD_TOKEN"))
    database = env.get("PARLOR_DATABASE", "").strip() or "sqlite:///data/parlor.sqlite3"
    if not (database.startswith("sqlite:///") or database.startswith(("postgresql://", "postgres://"))):
        raise ConfigError(
            f"PARLOR_DATABASE={database!r} is not supported: use sqlite:///path/to/file.sqlite3 "
            "(default sqlite:///data/parlor.sqlite3) or a postgresql:// URL."
        )
    guilds: list[int] = []
    for part in env.get("PARLOR_COMMAND_GUILDS", "").split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit():
            raise ConfigError(
                f"PARLOR_COMMAND_GUILDS must be comma-separated server ids; {part!r} is not a number."
            )
        guilds.append(int(part))
    level = (env.get("LOG_LEVEL", "INFO").strip() or "INFO").upper()
    if level not in logging.getLevelNamesMapping():
        raise ConfigError(f"LOG_LEVEL={level!r} is not a log level (use DEBUG, INFO, WARNING or ERROR).")
    shard_count, shard_ids = parse_shards(env.get("PARLOR_SHARD_COUNT"), env.get("PARLOR_SHARD_IDS"))
    metrics_port = parse_port(env.get("PARLOR_METRICS_PORT"))
    return Config(
        token=token,
        database=database,
        command_guilds=tuple(guilds),
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=metrics_port,
    )


MAX_SHARDS = 65_536


def parse_shards(count_text: str | None, ids_text: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``PARLOR_SHARD_COUNT`` and ``PARLOR_SHARD_IDS`` (``0-3``, ``4,5``, ``0-1,6``) -> (count, ids).

    Neither set: (None, None), one unsharded client as always. Only the count: this process runs every
    shard. Ids need the count; each id is in ``0 .. count-1`` and named once.
    """
    count_text = (count_text or "").strip()
    ids_text = (ids_text or "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "PARLOR_SHARD_IDS needs PARLOR_SHARD_COUNT (the total number of shards of the bot)."
            )
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ConfigError(f"PARLOR_SHARD_COUNT={count_text!r} must be a whole number of shards, 1 or more.")
    count = int(count_text)
    if not ids_text:
        return count, tuple(range(count))
    ids: list[int] = []
    for part in ids_text.split(","):
        part = part.strip()
        lo_text, dash, hi_text = part.partition("-")
        lo_text, hi_text = lo_text.strip(), hi_text.strip()
        if not lo_text.isdigit() or (dash and not hi_text.isdigit()):
            raise ConfigError(
                f"PARLOR_SHARD_IDS={ids_text!r}: {part!r} is not a shard id or a range like 0-3 "
                "(use e.g. 0-3 or 4,5)."
            )
        lo = int(lo_text)
        hi = int(hi_text) if dash else lo
        if hi < lo:
            raise ConfigError(f"PARLOR_SHARD_IDS={ids_text!r}: the range {part!r} runs backwards.")
        if hi >= count:
            raise ConfigError(
                f"PARLOR_SHARD_IDS={ids_text!r}: shard {hi} does not exist with "
                f"PARLOR_SHARD_COUNT={count} (ids run from 0 to {count - 1})."
            )
        for i in range(lo, hi + 1):
            if i in ids:
                raise ConfigError(f"PARLOR_SHARD_IDS={ids_text!r} names shard {i} twice.")
            ids.append(i)
    return count, tuple(sorted(ids))


def parse_port(text: str | None) -> int | None:
    """``PARLOR_METRICS_PORT``: unset or empty = no metrics endpoint; 0 = any free port."""
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 65535:
        raise ConfigError(
            f"PARLOR_METRICS_PORT={text!r} must be a TCP port number (e.g. 9108), or unset for none."
        )
    return int(text)
