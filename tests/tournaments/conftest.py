"""Tournament storage runs on every backend: ``store_factory`` makes unopened stores on ONE database
(several = several processes), SQLite and PostgreSQL (``tests/pg.py``: with CI=true a missing
PostgreSQL fails the run, elsewhere that half is skipped with the reason)."""

import pytest

from bot.storage.sqlite import SqliteStore


@pytest.fixture(params=["sqlite", "postgresql"])
def store_factory(request, tmp_path):
    if request.param == "sqlite":
        return lambda: SqliteStore(str(tmp_path / "t.sqlite3"))
    from bot.storage.postgres import PostgresStore

    url = request.getfixturevalue("pg_url")
    return lambda: PostgresStore(url, max_size=10)
