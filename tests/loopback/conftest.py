"""Fixtures for the loopback server's own tests: a fake Discord and a small world."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.loopback import FakeDiscord


@pytest_asyncio.fixture
async def fd(tmp_path):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fake:
        yield fake


class World:
    def __init__(self, fd: FakeDiscord):
        self.fd = fd
        self.alice = fd.create_user("alice")
        self.bob = fd.create_user("bob", dms_open=False)
        self.carol = fd.create_user("carol")
        self.guild = fd.create_guild("Test Guild", owner=fd.create_user("owner"))
        self.chan = self.guild.create_text_channel("games")
        self.guild.add_member(self.alice)
        self.guild.add_member(self.bob)
        self.guild.add_member(self.carol, permissions=["manage_guild"])


@pytest.fixture
def world(fd) -> World:
    return World(fd)


@pytest.fixture(scope="session", autouse=True)
def _close_postgres():
    """Drop the loopback tests' PostgreSQL session database (and stop a throw-away cluster) at the end."""
    yield
    from tests.loopback import pg

    pg.close()
