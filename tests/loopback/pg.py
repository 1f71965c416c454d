"""A throw-away PostgreSQL database for loopback tests (PARLOR_TEST_POSTGRES, default the project's server).

No server answering: a failure with CI=true, otherwise a skip that says why. The PostgreSQL backend not
built (``open_store`` raises NotImplementedError): a skip that says so.
"""
from __future__ import annotations

import os

import pytest

DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def admin_url() -> str:
    return os.environ.get("PARLOR_TEST_POSTGRES", DEFAULT)


async def throwaway_database() -> tuple[str, str]:
    """(url, name) of a new empty database, or fail/skip as above."""
    from bot.storage import open_store
    from tests.loopback.load import create_database

    try:
        open_store(f"{admin_url().rsplit('/', 1)[0]}/probe")
    except NotImplementedError as exc:
        pytest.skip(f"PostgreSQL backend not available in this tree: {exc}")
    try:
        return await create_database(admin_url())
    except (OSError, Exception) as exc:  # asyncpg raises its own errors for refused/unknown servers
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL is required in CI (PARLOR_TEST_POSTGRES={admin_url()}): {exc}")
        pytest.skip(f"no PostgreSQL at {admin_url()}: {exc}")
        raise
