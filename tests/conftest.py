"""Storage fixtures: ``any_store`` runs a test against every backend — SQLite, and PostgreSQL (see
``tests/pg.py`` for how a server is found; with CI=true a missing PostgreSQL fails the run, elsewhere the
PostgreSQL half is skipped with the reason)."""

import pytest

from bot.storage.sqlite import SqliteStore
from tests import pg


@pytest.fixture(scope="session")
def pg_session():
    session, why = pg.start_session()
    if session is None:
        if pg.in_ci():
            pytest.fail(f"PostgreSQL is required in CI (CI=true): {why}", pytrace=False)
        pytest.skip(f"POSTGRESQL TESTS SKIPPED: {why}. Set PARLOR_TEST_POSTGRES or install PostgreSQL.")
    yield session
    session.close()


@pytest.fixture
def pg_url(pg_session):
    """A fresh, empty schema of the session database, as a URL."""
    url, _schema = pg_session.fresh_schema_url()
    yield url


async def make_store(kind: str, tmp_path, request):
    if kind == "sqlite":
        return SqliteStore(str(tmp_path / "db" / "p.sqlite3"))
    if kind == "sqlite-readers":  # the separate-read-connection option (not the default; see the bench)
        return SqliteStore(str(tmp_path / "db" / "p.sqlite3"), readers=2)
    from bot.storage.postgres import PostgresStore

    return PostgresStore(request.getfixturevalue("pg_url"), max_size=20)


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_store(request, tmp_path):
    s = await make_store(request.param, tmp_path, request)
    await s.open()
    yield s
    await s.close()
