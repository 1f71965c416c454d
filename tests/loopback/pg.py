"""A throw-away PostgreSQL database per loopback test, from the storage tests' server or cluster
(``tests/pg.py``: PARLOR_TEST_POSTGRES, default the project's server, else an initdb cluster).

No PostgreSQL: a failure with CI=true, otherwise a skip that says why.
"""

from __future__ import annotations

import pytest

from tests import pg

_session: pg.PgSession | None = None
_why = ""


def session() -> pg.PgSession:
    global _session, _why
    if _session is None and not _why:
        _session, _why = pg.start_session()
    if _session is None:
        if pg.in_ci():
            pytest.fail(f"PostgreSQL is required in CI: {_why}")
        pytest.skip(f"PostgreSQL half skipped: {_why}")
    return _session


def close() -> None:
    global _session
    if _session is not None:
        _session.close()
        _session = None


async def throwaway_database() -> tuple[str, str]:
    """(url, name) of a new empty database (drop it with :func:`drop`)."""
    return session().fresh_database_url()


async def drop(name: str) -> None:
    session().drop_database(name)
