"""The real ``python -m bot`` through the loopback Discord during a Discord incident (issue #28): message
posts and edits in the thread fail with 5xx for a while as two players keep typing moves. Every move is
stored once, every player gets an answer, and afterwards the thread converges to exactly one live board
(the retirements that failed are retried from the store, across a kill -9 too)."""

from __future__ import annotations

import sqlite3

import pytest

from tests.loopback import FakeDiscord
from tests.loopback.helpers import is_board, start_parlor, start_pylon, two_players

MOVES = ["S a1", "S b1", "S c1", "S a2", "S b2"]


def live_boards(thread):
    return [m for m in thread.messages if is_board(m) and not m.deleted]


def stored_moves(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*), COUNT(DISTINCT ply) FROM moves").fetchone()


def pending_chores(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM discord_chores").fetchone()[0]


@pytest.mark.parametrize("status,kill", [(503, False), (502, False), (503, True)])
async def test_the_thread_converges_to_one_live_board_after_an_incident(tmp_path, status, kill):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild, chan, alice, bob = two_players(fd)
        path = tmp_path / "p.sqlite3"
        await start_parlor(fd, f"sqlite:///{path}", guild.id)
        thread, _board = await start_pylon(fd, chan, alice, bob)
        await fd.settle()
        for route in ("POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/"):
            fd.ratelimits.outage(route, status=status, seconds=12.0)
        players = [alice, bob]
        for i, notation in enumerate(MOVES):
            r = await players[i % 2].slash(thread, "pylon move", notation=notation)
            reply = await r.message(timeout=20)
            assert notation in reply.text  # every player is answered while Discord fails
            if kill and i == 2:
                await fd.restart_bot(kill=True)  # in the middle of the incident
                await fd.bot.wait_quiet()
        assert fd.ratelimits.failed, "the outage never hit the bot"
        assert len(live_boards(thread)) > 1  # the incident left several live boards
        await fd.wait_until(lambda: len(live_boards(thread)) == 1, timeout=60,
                            describe=lambda: f"{len(live_boards(thread))} live boards")
        (live,) = live_boards(thread)
        assert "S b2" in live.text
        assert stored_moves(path) == (5, 5)  # every acknowledged move stored once
        # every turn's ping delivered once: alice's at the start and after bob's two moves, bob's after
        # each of alice's three (a restart re-tells the player to move once: its lost reply may not have gone)
        pings = {u.username: sum(1 for m in thread.messages if u.id in m.notified_ids) for u in players}
        extra = 1 if kill else 0
        assert pings["bob"] in range(3, 4 + extra) and pings["alice"] in range(3, 4 + extra), pings
        await fd.wait_until(lambda: pending_chores(path) == 0, timeout=10, describe=lambda: "chores left")
