"""The core's registry that the Discord layer fills: the component dispatcher answers errors through
``bot.error_reply`` and reaches games through ``bot.game_cogs`` (bot/ never imports cogs/ for them)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import ParlorBot
from bot.config import Config
from bot.errors import LobbyError
from bot.matches.service import Match, Player
from bot.storage.sqlite import SqliteStore


class FakeGame:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int | None, str, list[str]]] = []

    async def on_component(self, interaction: Any, match: Match, version: int | None, action: str,
                           values: list[str]) -> None:
        self.calls.append((match.id, version, action, values))
        if action == "boom":
            raise LobbyError("boom")


@pytest.fixture
async def bot(tmp_path):
    b = ParlorBot(Config(token="x"), SqliteStore(str(tmp_path / "p.sqlite3")), extensions=(),
                  sync_commands=False)
    await b.store.open()
    yield b
    await b.store.close()


async def test_components_reach_the_registered_game_and_errors_the_registered_reply(bot) -> None:
    game = FakeGame()
    bot.game_cogs["pylon"] = game  # type: ignore[assignment]
    told: list[BaseException] = []

    async def reply(interaction: Any, error: BaseException) -> None:
        told.append(error)

    bot.error_reply = reply
    m = await bot.service.create("pylon", guild_id=1, channel_id=2, host=Player(10, "ann"),
                                 opponent=Player(11, "bob"), options={}, turn_limit=None)
    await bot.handle_component(object(), m.id, 0, "accept", [])
    assert game.calls == [(m.id, 0, "accept", [])] and told == []
    await bot.handle_component(object(), m.id, None, "boom", ["v"])
    assert [str(e) for e in told] == ["boom"]
    await bot.handle_component(object(), 9999, None, "accept", [])  # no such match: told, not raised
    assert isinstance(told[-1], LobbyError)


async def test_without_a_registered_reply_the_error_is_not_swallowed(bot) -> None:
    bot.error_reply = None
    with pytest.raises(LobbyError):
        await bot.handle_component(object(), 9999, None, "accept", [])
