"""Several real bot processes (or one, killed and restarted) through the loopback Discord.

- kill -9 under load: every acknowledged move is stored exactly once (SQLite x1; PostgreSQL x2 shards);
- a turn deadline fires once, across a kill and with two processes whose schedulers both see it;
- PostgreSQL x2: an EOF program written in DMs (shard 0's process) advances a match on shard 1's process.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.matches.scheduler import CLAIM_LEASE
from tests.loopback import FakeDiscord
from tests.loopback.helpers import eof_round_one_by_dm, guild_on_shard, is_board, start_parlor
from tests.loopback.load import LoadConfig, read_moves, run_load, sql_rows
from tests.loopback.pg import drop, throwaway_database


@pytest.fixture(params=["sqlite-x1", "postgresql-x2"])
async def backend(request, tmp_path):
    """(database URL, processes)."""
    if request.param == "sqlite-x1":
        yield f"sqlite:///{tmp_path}/p.sqlite3", 1
        return
    url, name = await throwaway_database()
    try:
        yield url, 2
    finally:
        await drop(name)


async def test_kill_9_under_load_no_move_lost_or_doubled(backend, tmp_path):
    url, procs = backend
    cfg = LoadConfig(players=4, matches=8, seconds=5.0, kill_every=2.0, database=url, processes=procs)
    report = await run_load(cfg, tmp_path)
    text = "\n".join(report.lines())
    assert report.kills >= 1 and report.acked >= 10, text
    assert report.lost == 0 and report.duplicated == 0, text
    assert report.stored >= report.acked, text
    # the only refusals are moves in flight at a kill (or sent to a shard whose process was down)
    assert all(reason.startswith("no answer") for reason in report.refusals), text


async def seed_due_match(url: str, guild, chan, a, b, lead: float) -> int:
    """A running Pylon match whose turn deadline passes ``lead`` seconds from now."""
    from bot.matches.service import MatchService, Player
    from bot.storage import open_store

    store = open_store(url)
    await store.open()
    try:
        svc = MatchService(store, clock=lambda: time.time() - 30 + lead)
        m = await svc.create(
            "pylon",
            guild_id=guild.id,
            channel_id=chan.id,
            host=Player(a.id, a.global_name),
            opponent=Player(b.id, b.global_name),
            options={},
            turn_limit=30,
        )
        await svc.accept(m.id, b.id)
        return m.id
    finally:
        await store.close()


async def match_status(url: str, mid: int) -> str:
    ((status,),) = await sql_rows(url, "SELECT status FROM matches WHERE id = ?", (mid,))
    return status


async def test_deadline_fires_once_across_a_kill_and_processes(backend, tmp_path):
    url, procs = backend
    async with FakeDiscord(shard_count=procs, log_dir=tmp_path / "logs") as fd:
        guild = guild_on_shard(fd, procs - 1, procs)
        chan = guild.create_text_channel("games")
        a, b = fd.create_user("alice"), fd.create_user("bob")
        guild.add_member(a)
        guild.add_member(b)
        # Long enough for both processes to start on a busy CI machine before the deadline; a kill that
        # still lands after a process claimed the deadline is covered by waiting out the claim's lease.
        mid = await seed_due_match(url, guild, chan, a, b, lead=8.0)
        names = []
        for i in range(procs):
            env = {"PARLOR_SHARD_COUNT": str(procs), "PARLOR_SHARD_IDS": str(i)} if procs > 1 else {}
            await start_parlor(fd, url, guild.id, name=f"bot{i}", env=env)
            names.append(f"bot{i}")
        await fd.restart_bot(kill=True, name=names[-1])  # a kill -9 before the deadline
        over = await chan.wait_for(lambda m: "match over" in (m.embed.title or ""), timeout=15 + CLAIM_LEASE)
        await asyncio.sleep(1.5)  # time for a second (wrong) expiry from another scheduler or the restart
        endings = [m for m in chan.messages if "match over" in (m.embed.title or "")]
        assert endings == [over]
        assert "did not move within the turn limit" in over.text
        assert await match_status(url, mid) == "finished"
        fd.assert_clean()


async def test_dm_on_shard_0_advances_match_on_shard_1_in_another_process(tmp_path):
    url, name = await throwaway_database()
    try:
        async with FakeDiscord(shard_count=2, log_dir=tmp_path / "logs") as fd:
            guild = guild_on_shard(fd, 1, 2)
            chan = guild.create_text_channel("games")
            alice, bob = fd.create_user("alice"), fd.create_user("bob")
            guild.add_member(alice)
            guild.add_member(bob)
            p0 = await start_parlor(
                fd, url, name="shard0", env={"PARLOR_SHARD_COUNT": "2", "PARLOR_SHARD_IDS": "0"}
            )
            p1 = await start_parlor(
                fd, url, name="shard1", env={"PARLOR_SHARD_COUNT": "2", "PARLOR_SHARD_IDS": "1"}
            )
            builders: list = []
            thread, dms = await eof_round_one_by_dm(fd, chan, alice, bob, builders)
            assert [r.delivered_to for r in dms] == [[p0.tag], [p0.tag]]  # DMs: shard 0's process
            # the builders were sent by shard 1's process (the Start click); shard 0's closed them
            for dm in builders:
                await fd.wait_until(
                    lambda dm=dm: dm.edit_count > 0 and "Submit" not in dm.button_labels(),
                    timeout=10,
                    describe=lambda: "a DM builder was not closed",
                )
            log = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=15)
            assert log.attachments and log.attachments[0].is_gif
            # the guild's own interactions go to shard 1's process, which sees the round played by shard 0's
            r = await alice.slash(thread, "eof history")
            hist = await r.message()
            assert r.delivered_to == [p1.tag] and r.ephemeral and "Round 1" in hist.text
            fd.assert_clean()
    finally:
        await drop(name)


async def lapse_claims(url: str) -> None:
    import sqlite3

    conn = sqlite3.connect(url.removeprefix("sqlite:///"))
    with conn:
        conn.execute("UPDATE claims SET expires_at = 0")
    conn.close()


async def test_owed_computer_move_is_made_after_the_process_died(tmp_path):
    """The human's move was committed (with the computer's move claimed by its process), then that process
    died before the computer moved: once the claim lapses the restarted process makes the move."""
    from bot.matches.service import MatchService, Player
    from bot.storage import open_store

    url = f"sqlite:///{tmp_path}/p.sqlite3"
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild = fd.create_guild("Parlor Test")
        chan = guild.create_text_channel("games")
        alice = fd.create_user("alice")
        guild.add_member(alice)
        store = open_store(url)
        await store.open()
        try:
            svc = MatchService(store)
            m = await svc.create(
                "pylon",
                guild_id=guild.id,
                channel_id=chan.id,
                host=Player(alice.id, alice.global_name),
                opponent=Player(fd.bot_user.id, "Parlor (easy)", "easy"),
                options={},
                turn_limit=None,
            )
            if m.ai_to_act() is None:  # alice opens: she moves, the computer's reply is owed
                seat = m.seat_of(alice.id)
                move = m.rules.format(m.rules.legal_moves(m.state, seat)[0], m.state)
                m = (await svc.play(m.id, alice.id, move)).match
            assert m.ai_to_act() is not None
            plies = len(await store.moves(m.id))
        finally:
            await store.close()
        # the process that owed it died long enough ago: its claim on the computer move has lapsed
        await lapse_claims(url)
        await start_parlor(fd, url, guild.id)
        board = await chan.wait_for(is_board, timeout=10)
        moves = [(seat, uid, notation) for _mid, seat, uid, notation in await read_moves(url, [m.id])]
        assert len(moves) == plies + 1 and moves[-1][1] == fd.bot_user.id
        assert moves[-1][2] in board.text
        fd.assert_clean()


async def test_deadline_set_elsewhere_is_served_within_seconds_postgresql(tmp_path):
    """A deadline written by another process after this one last looked (that process then died) fires
    within seconds: with a shared database the scheduler re-reads the earliest deadline every 5 s."""
    url, name = await throwaway_database()
    try:
        async with FakeDiscord(shard_count=2, log_dir=tmp_path / "logs") as fd:
            guild = guild_on_shard(fd, 1, 2)
            chan = guild.create_text_channel("games")
            a, b = fd.create_user("alice"), fd.create_user("bob")
            guild.add_member(a)
            guild.add_member(b)
            await start_parlor(
                fd, url, guild.id, name="shard0", env={"PARLOR_SHARD_COUNT": "2", "PARLOR_SHARD_IDS": "0"}
            )
            await asyncio.sleep(0.5)  # its scheduler has looked and found nothing
            await seed_due_match(url, guild, chan, a, b, lead=1.0)  # "the other process", gone already
            t = time.monotonic()
            over = await chan.wait_for(lambda m: "match over" in (m.embed.title or ""), timeout=10)
            assert time.monotonic() - t < 8 and "turn limit" in over.text
            fd.assert_clean()
    finally:
        await drop(name)
