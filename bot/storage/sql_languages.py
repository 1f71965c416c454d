"""Languages in SQL (migration 010): each player's own language (``/language``, the same in every server)
and each server's language for its channels (``/parlor settings language:``). No row: automatic.

Read whole at start (``bot.i18n.prefs`` holds them in memory: no database read per text), written one at a
time when someone chooses."""

from __future__ import annotations

import time

from bot.storage.sqlbase import SqlBase


class LanguageSql(SqlBase):
    """The languages part of :class:`bot.storage.sql.SqlStore`."""

    async def user_languages(self) -> dict[int, str]:
        """Every player's chosen language, by user id (players on automatic are left out)."""
        async with self._read() as db:
            rows = await db.fetch("SELECT user_id, language FROM user_languages")
        return {int(r[0]): str(r[1]) for r in rows}

    async def guild_languages(self) -> dict[int, str]:
        """Every server's chosen language, by guild id (servers on automatic are left out)."""
        async with self._read() as db:
            rows = await db.fetch("SELECT guild_id, language FROM guild_languages")
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Choose a player's language; None: automatic (their Discord language)."""
        async with self._write() as db:
            if language is None:
                await db.execute("DELETE FROM user_languages WHERE user_id = ?", user_id)
                return
            await db.execute(
                "INSERT INTO user_languages (user_id, language, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                user_id, language, time.time(),
            )

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose a server's language for its channels; None: automatic (its Discord community language)."""
        async with self._write() as db:
            if language is None:
                await db.execute("DELETE FROM guild_languages WHERE guild_id = ?", guild_id)
                return
            await db.execute(
                "INSERT INTO guild_languages (guild_id, language, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                guild_id, language, time.time(),
            )
