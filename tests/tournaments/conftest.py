"""Tournament storage fixtures: ``store_factory`` makes unopened stores on ONE database (several =
several processes). SQLite here; PostgreSQL joins once the shared-SQL backends are on main."""

import pytest

from bot.storage.sqlite import SqliteStore


@pytest.fixture(params=["sqlite"])
def store_factory(request, tmp_path):
    return lambda: SqliteStore(str(tmp_path / "t.sqlite3"))
