"""Languages in SQL (migration 010): each player's own language (``/language``, the same in every server)
and each server's language for its channels (``/parlor settings language:``). No row: automatic.

Read whole at start (``bot.i18n.prefs`` holds them in memory: no database read per text), written one at a
time when someone chooses."""

from __future__ import annotations

import time

from bot.storage.sqlbase import SqlBase

_TABLES = {"user_languages": "user_id", "guild_languages": "guild_id"}


class LanguageSql(SqlBase):
    """The languages part of :class:`bot.storage.sql.SqlStore`."""

    async def user_languages(self) -> dict[int, str]:
        """Every player's chosen language, by user id (players on automatic are left out)."""
        return await self._languages("user_languages")

    async def guild_languages(self) -> dict[int, str]:
        """Every server's chosen language, by guild id (servers on automatic are left out)."""
        return await self._languages("guild_languages")

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Choose a player's language; None: automatic (their Discord language)."""
        await self._set_language("user_languages", user_id, language)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose a server's language for its channels; None: automatic (its Discord community language)."""
        await self._set_language("guild_languages", guild_id, language)

    async def _languages(self, table: str) -> dict[int, str]:
        async with self._read() as db:
            rows = await db.fetch(f"SELECT {_TABLES[table]}, language FROM {table}")
        return {int(r[0]): str(r[1]) for r in rows}

    async def _set_language(self, table: str, key: int, language: str | None) -> None:
        column = _TABLES[table]
        async with self._write() as db:
            if language is None:
                await db.execute(f"DELETE FROM {table} WHERE {column} = ?", key)
                return
            await db.execute(
                f"INSERT INTO {table} ({column}, language, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT ({column}) DO UPDATE SET language = excluded.language, "
                "updated_at = excluded.updated_at",
                key, language, time.time(),
            )
