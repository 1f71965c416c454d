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
