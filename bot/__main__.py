"""``python -m bot``: read the config, open storage, run the bot."""

from __future__ import annotations

import logging
import sys


def main() -> int:
    from bot.config import ConfigError, from_env, load_dotenv_file

    load_dotenv_file()
    try:
        config = from_env()
    except ConfigError as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from bot import sqlite_lock
    from bot.app import create_bot
    from bot.storage import open_store

    try:
        held = sqlite_lock.acquire(config.database)  # kept open (and locked) until the process ends
    except sqlite_lock.DatabaseInUse as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    try:
        store = open_store(config.database)
    except (NotImplementedError, ValueError) as exc:
        print(f"parlor: {exc}", file=sys.stderr)
        return 2
    if config.metrics_port is not None:
        from bot import metrics

        try:
            metrics.serve(config.metrics_port)
        except OSError as exc:
            print(f"parlor: PARLOR_METRICS_PORT={config.metrics_port}: cannot listen there ({exc.strerror or exc}); "
                  "choose a free port or unset it.", file=sys.stderr)
            return 2
    bot = create_bot(config, store)
    try:
        bot.run(config.token, log_handler=None)
    except Exception as exc:  # discord.LoginFailure, PrivilegedIntentsRequired...
        import discord

        if isinstance(exc, discord.LoginFailure):
            print("parlor: Discord rejected DISCORD_TOKEN (improper token). Reset it on the application's Bot page "
                  "at https://discord.com/developers/applications and update DISCORD_TOKEN.", file=sys.stderr)
            return 2
        raise
    del held
    return 0


if __name__ == "__main__":
    sys.exit(main())
