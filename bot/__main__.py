"""``parlor`` (the installed command; ``python -m bot`` is the same): read the config, open storage, run the
bot.

Also ``parlor migrate`` (apply the schema migrations to ``PARLOR_DATABASE`` and exit), ``parlor copy-db SOURCE
TARGET`` (copy a whole SQLite database into an empty PostgreSQL one), ``parlor health`` (ask a running bot's
``/healthz`` on ``PARLOR_METRICS_PORT``: exit 0 when healthy), ``parlor puzzles`` (build the proved puzzle
file offline, :mod:`bot.puzzles.cli`) and ``parlor --version``.
A database that cannot be used stops the bot before it connects to Discord, with one line and exit 2.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

log = logging.getLogger("bot")

USAGE = (
    "usage: parlor                       run the bot (python -m bot is the same)\n"
    "       parlor migrate [DATABASE]    apply database migrations to PARLOR_DATABASE and exit\n"
    "       parlor copy-db SOURCE TARGET copy a SQLite database into an empty PostgreSQL one\n"
    "       parlor health                exit 0 if the bot here answers /healthz (PARLOR_METRICS_PORT)\n"
    "       parlor puzzles [--help]      build (or --verify) the proved puzzle file, offline\n"
    "       parlor i18n extract|update|compile|check   the translation catalogs (bot/locales)\n"
    "       parlor --version             print the version"
)


async def _check_store(url: str) -> None:
    """Open (check the file, take the lock, migrate) and close again, before Discord is involved."""
    from bot.storage import open_store

    store = open_store(url)
    await store.open()
    await store.close()


def _database_url() -> str:
    from bot.config import load_dotenv_file

    load_dotenv_file()
    return os.environ.get("PARLOR_DATABASE", "").strip() or "sqlite:///data/parlor.sqlite3"


def _tool(args: list[str]) -> int:
    """``migrate`` and ``copy-db``: no Discord token needed."""
    from bot.storage import StorageError
    from bot.storage.copy import copy_db, migrate_only

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args[0] == "migrate" and len(args) <= 2:
            url = args[1] if len(args) == 2 else _database_url()
            applied, version = asyncio.run(migrate_only(url))
            print(
                f"parlor: {url.split('@')[-1]} is at schema version {version}"
                + (f" (applied {', '.join(map(str, applied))})." if applied else " (nothing to apply).")
            )
            return 0
        if args[0] == "copy-db" and len(args) == 3:
            counts = asyncio.run(copy_db(args[1], args[2]))
            total = sum(counts.values())
            detail = ", ".join(f"{table} {n}" for table, n in counts.items())
            print(f"parlor: copied {total} rows, counts verified: {detail}.")
            return 0
    except (StorageError, ValueError) as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    print(USAGE, file=sys.stderr)
    return 2


def _health() -> int:
    """``parlor health``: 0 when the bot on this machine answers ``/healthz`` with 200 (the HEALTHCHECK)."""
    import urllib.error
    import urllib.request

    from bot.config import ConfigError, load_dotenv_file, parse_port

    load_dotenv_file()
    try:
        port = parse_port(os.environ.get("PARLOR_METRICS_PORT"))
    except ConfigError as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    if port is None:
        print("parlor: PARLOR_METRICS_PORT is not set: the health endpoint is served there.", file=sys.stderr)
        return 2
    url = f"http://127.0.0.1:{port}/healthz"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=5) as r:
            body, healthy = r.read().decode(), True
    except urllib.error.HTTPError as exc:
        body, healthy = exc.read().decode(errors="replace"), False
    except OSError as exc:
        body, healthy = f"no answer from {url} ({exc})", False
    print(f"parlor: {'healthy' if healthy else 'unhealthy'}: {body}")
    return 0 if healthy else 1


def _watch_health(bot: Any, store: Any) -> None:
    """``/healthz`` asks the bot's gateway connections and a one-row database read, on the bot's loop."""
    from bot import metrics

    def loop() -> asyncio.AbstractEventLoop | None:
        current = getattr(bot, "loop", None)  # discord.py's placeholder until the bot runs
        return current if isinstance(current, asyncio.AbstractEventLoop) else None

    metrics.watch_health(metrics.Health(lambda: metrics.gateway_connected(bot), store.next_deadline, loop))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("--version", "-V"):
        from bot.config import parlor_version

        print(f"parlor {parlor_version()}")
        return 0
    if args and args[0] in ("--help", "-h", "help"):
        print(USAGE)
        return 0
    if args and args[0] in ("migrate", "copy-db"):
        return _tool(args)
    if args == ["health"]:
        return _health()
    if args and args[0] == "i18n":
        from bot.i18n.cli import main as i18n_main

        return i18n_main(args[1:])
    if args and args[0] == "puzzles":
        from bot.puzzles.cli import main as puzzles_main

        return puzzles_main(args[1:])
    if args:
        print(USAGE, file=sys.stderr)
        return 2

    from bot.config import ConfigError, from_env, load_dotenv_file, parlor_version

    load_dotenv_file()
    try:
        config = from_env()
    except ConfigError as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import discord

    from bot.app import create_bot
    from bot.storage import StorageError, open_store

    try:
        asyncio.run(_check_store(config.database))
        store = open_store(config.database)
    except (StorageError, ValueError) as exc:
        print(f"parlor: {exc}", file=sys.stderr)  # one line, and nothing before it
        return 2
    from bot.games.pylon.boardscan import COMPILED

    log.info("Parlor %s starting (Python %s, discord.py %s, Pylon search: %s)", parlor_version(),
             sys.version.split()[0], discord.__version__, "compiled" if COMPILED else "pure Python")
    if config.metrics_port is not None:
        from bot import metrics

        try:
            metrics.serve(config.metrics_port)
        except OSError as exc:
            print(
                f"parlor: PARLOR_METRICS_PORT={config.metrics_port}: cannot listen there "
                f"({exc.strerror or exc}); "
                "choose a free port or unset it.",
                file=sys.stderr,
            )
            return 2
    bot = create_bot(config, store, freeze_heap=True)
    if config.metrics_port is not None:
        _watch_health(bot, store)
    try:
        bot.run(config.token, log_handler=None)
    except StorageError as exc:  # e.g. another process took the database between the check and the start
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # discord.LoginFailure, PrivilegedIntentsRequired...
        if isinstance(exc, discord.LoginFailure):
            print(
                "parlor: Discord rejected DISCORD_TOKEN (improper token). Reset it on the application's Bot "
                "page "
                "at https://discord.com/developers/applications and update DISCORD_TOKEN.",
                file=sys.stderr,
            )
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
