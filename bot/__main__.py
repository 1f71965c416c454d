"""``python -m bot``: read the config, open storage, run the bot.

Also ``python -m bot migrate`` (apply the schema migrations to ``PARLOR_DATABASE`` and exit) and
``python -m bot copy-db SOURCE TARGET`` (copy a whole SQLite database into an empty PostgreSQL one).
A database that cannot be used stops the bot before it connects to Discord, with one line and exit 2.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

USAGE = (
    "usage: python -m bot                     run the bot\n"
    "       python -m bot migrate             apply database migrations to PARLOR_DATABASE and exit\n"
    "       python -m bot copy-db SOURCE TARGET   copy a SQLite database into an empty PostgreSQL one"
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("migrate", "copy-db"):
        return _tool(args)
    if args:
        print(USAGE, file=sys.stderr)
        return 2

    from bot.config import ConfigError, from_env, load_dotenv_file

    load_dotenv_file()
    try:
        config = from_env()
    except ConfigError as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from bot.app import create_bot
    from bot.storage import StorageError, open_store

    try:
        asyncio.run(_check_store(config.database))
        store = open_store(config.database)
    except (StorageError, ValueError) as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
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
    try:
        bot.run(config.token, log_handler=None)
    except StorageError as exc:  # e.g. another process took the database between the check and the start
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # discord.LoginFailure, PrivilegedIntentsRequired...
        import discord

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
