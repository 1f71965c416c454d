"""Per-server settings and per-member notification choices in SQL."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.storage.records import (
    GuildSettings,
    NotifyMode,
)
from bot.storage.sqlbase import SqlBase, marks


class SettingsSql(SqlBase):
    """The settings part of :class:`bot.storage.sql.SqlStore`."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT use_threads, turn_limit FROM guild_settings WHERE guild_id = ?", guild_id
            )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, bool(row[0]), int(row[1]))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, use_threads, turn_limit, updated_at) VALUES (?, ?, "
                "?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET use_threads = excluded.use_threads, "
                "turn_limit = excluded.turn_limit, updated_at = excluded.updated_at",
                settings.guild_id,
                int(settings.use_threads),
                settings.turn_limit,
                time.time(),
            )

    async def notify_modes(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, NotifyMode]:
        """The stored choices of these members (members without one are left out: the default applies)."""
        if not user_ids:
            return {}
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id, mode FROM notify_prefs WHERE guild_id = ? AND user_id IN "
                f"({marks(len(user_ids))})",
                guild_id,
                *user_ids,
            )
        return {r[0]: NotifyMode(r[1]) for r in rows}

    async def set_notify_mode(
        self, guild_id: int, user_id: int, mode: NotifyMode, dm_channel_id: int | None = None
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO notify_prefs (guild_id, user_id, mode, dm_channel_id, updated_at) VALUES (?, "
                "?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode, "
                "dm_channel_id = COALESCE(excluded.dm_channel_id, notify_prefs.dm_channel_id), "
                "updated_at = excluded.updated_at",
                guild_id,
                user_id,
                mode.value,
                dm_channel_id,
                time.time(),
            )

    async def text_board_users(self, guild_id: int) -> list[int]:
        """The members of this server who chose text boards (``/notify boards:text``)."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id FROM notify_prefs WHERE guild_id = ? AND text_boards = 1", guild_id)
        return [int(r[0]) for r in rows]

    async def set_text_boards(self, guild_id: int, user_id: int, on: bool) -> None:
        """Turn text boards on or off for a member here (their notify mode stays as it was)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO notify_prefs (guild_id, user_id, mode, dm_channel_id, updated_at, text_boards) "
                "VALUES (?, ?, ?, NULL, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET text_boards = excluded.text_boards, "
                "updated_at = excluded.updated_at",
                guild_id,
                user_id,
                NotifyMode.THREAD.value,
                time.time(),
                int(on),
            )

    async def dm_channel(self, user_id: int) -> int | None:
        """The member's DM channel with the bot, if one was recorded (opening one costs a request)."""
        async with self._read() as db:
            value = await db.fetchval(
                "SELECT dm_channel_id FROM notify_prefs WHERE user_id = ? AND dm_channel_id IS NOT NULL "
                "LIMIT 1",
                user_id,
            )
        return None if value is None else int(value)
