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
    "Create an application at https://discord.com/developers/applications, open its Bot page, "
    "click 'Reset Token' and put the token in DISCORD_TOKEN (environment or a .env file)."
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

    @property
    def application_id(self) -> int | None:
        """The bot's user id, read from the token's first part."""
        try:
            part = self.token.split(".")[0]
            return int(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode())
        except (ValueError, UnicodeDecodeError):
            return None


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
        raise ConfigError(f"DISCORD_TOKEN does not look like a bot token (three dot-separated parts). {TOKEN_HELP}")
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
            raise ConfigError(f"PARLOR_COMMAND_GUILDS must be comma-separated server ids; {part!r} is not a number.")
        guilds.append(int(part))
    level = (env.get("LOG_LEVEL", "INFO").strip() or "INFO").upper()
    if level not in logging.getLevelNamesMapping():
        raise ConfigError(f"LOG_LEVEL={level!r} is not a log level (use DEBUG, INFO, WARNING or ERROR).")
    return Config(token=token, database=database, command_guilds=tuple(guilds), log_level=level)
