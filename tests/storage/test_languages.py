"""Languages (migration 010) on both backends: players' and servers' choices stored, read whole, set back to
automatic; and an existing database at schema 9 gains the tables on open, its rows untouched."""

import pytest

import bot.storage.sql as sql
from bot.storage import GuildSettings
from tests.conftest import make_store


@pytest.fixture
def store(any_store):
    return any_store


async def test_languages_are_stored_read_whole_and_set_back_to_automatic(store):
    assert await store.user_languages() == {} and await store.guild_languages() == {}
    big = 2**62 + 5  # Discord ids are 64-bit
    await store.set_user_language(big, "es")
    await store.set_user_language(7, "pt_BR")
    await store.set_user_language(7, "en")  # changed, not added
    await store.set_guild_language(big, "pt_BR")
    assert await store.user_languages() == {big: "es", 7: "en"}
    assert await store.guild_languages() == {big: "pt_BR"}
    await store.set_user_language(big, None)  # automatic again: no row
    await store.set_guild_language(big, None)
    await store.set_guild_language(123, None)  # nothing to remove: fine
    assert await store.user_languages() == {7: "en"} and await store.guild_languages() == {}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_database_at_schema_9_gains_the_language_tables(kind, tmp_path, request, monkeypatch):
    before = [m for m in sql.migrations() if m[0] <= 9]
    with monkeypatch.context() as m:
        m.setattr(sql, "migrations", lambda: before)
        m.setattr(sql, "code_schema_version", lambda: 9)
        old = await make_store(kind, tmp_path, request)
        await old.open()
        assert await old.schema_version() == 9
        await old.save_guild_settings(GuildSettings(5, use_threads=False, turn_limit=300))
        await old.close()
    new = await make_store(kind, tmp_path, request)
    await new.open()
    try:
        assert new.applied_on_open == [10] and await new.schema_version() == 10
        assert await new.guild_settings(5) == GuildSettings(5, use_threads=False, turn_limit=300)
        await new.set_user_language(1, "es")
        await new.set_guild_language(5, "pt_BR")
        assert await new.user_languages() == {1: "es"} and await new.guild_languages() == {5: "pt_BR"}
    finally:
        await new.close()


async def test_a_shard_process_sees_a_language_chosen_in_another_process_within_the_refresh(store):
    """With several shard processes each keeps the choices in memory; another process's /language reaches
    it at the next read (ParlorBot.refresh_languages), including a choice set back to automatic."""
    import asyncio
    from types import SimpleNamespace

    from bot import i18n
    from bot.app import ParlorBot

    this = SimpleNamespace(store=store, LANGUAGES_REFRESH=0.01)
    kept_users, kept_guilds = dict(i18n.prefs.users), dict(i18n.prefs.guilds)
    i18n.prefs.users.clear()
    i18n.prefs.guilds.clear()
    task = asyncio.create_task(ParlorBot.refresh_languages(this))  # type: ignore[arg-type]
    try:
        await store.set_user_language(41, "es")  # chosen in the other process
        await store.set_guild_language(42, "pt_BR")
        for _ in range(200):
            if i18n.prefs.users.get(41) == "es" and i18n.prefs.guilds.get(42) == "pt_BR":
                break
            await asyncio.sleep(0.01)
        assert i18n.language_of_user(41) == "es" and i18n.language_of_guild(42) == "pt_BR"
        await store.set_user_language(41, None)  # back to automatic there
        for _ in range(200):
            if 41 not in i18n.prefs.users:
                break
            await asyncio.sleep(0.01)
        assert 41 not in i18n.prefs.users
    finally:
        task.cancel()
        i18n.prefs.users.clear()
        i18n.prefs.guilds.clear()
        i18n.prefs.users.update(kept_users)
        i18n.prefs.guilds.update(kept_guilds)
