"""Sharding: guilds are routed to the session whose shard owns them ((guild_id >> 22) % count)."""

from __future__ import annotations

from pathlib import Path

from tests.loopback import FakeDiscord

SCRIPT = str(Path(__file__).resolve().parent / "sharded_bot.py")


def two_guilds_on_two_shards(fd: FakeDiscord):
    by_shard = {}
    while len(by_shard) < 2:
        g = fd.create_guild(f"Guild {len(fd.guilds)}")
        by_shard.setdefault((g.id >> 22) % 2, g)
    alice = fd.create_user("alice")
    chans = {}
    for shard, g in by_shard.items():
        g.add_member(alice)
        chans[shard] = g.create_text_channel("games")
    return alice, chans


async def test_auto_sharded_client(tmp_path):
    async with FakeDiscord(shard_count=2, log_dir=tmp_path / "logs") as fd:
        alice, chans = two_guilds_on_two_shards(fd)
        await fd.start_bot(cwd=tmp_path, script=SCRIPT)
        assert sorted(s.shard_id for s in fd.hub.live_sessions()) == [0, 1]
        for shard, chan in chans.items():
            r = await alice.slash(chan, "whoami")
            assert (await r.message()).content.startswith(f"shard {shard} of 2")
            assert r.delivered_shard == shard
        r = await alice.slash(alice.dm_channel(), "whoami")  # DMs go to shard 0
        assert (await r.message()).content.startswith("DM of 2") and r.delivered_shard == 0
        fd.assert_clean()


async def test_one_process_per_shard(tmp_path):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        alice, chans = two_guilds_on_two_shards(fd)
        p0 = await fd.start_bot(cwd=tmp_path, script=SCRIPT, name="shard0", env={"SHARD_ID": "0"})
        p1 = await fd.start_bot(cwd=tmp_path, script=SCRIPT, name="shard1", env={"SHARD_ID": "1"})
        for shard, chan in chans.items():
            r = await alice.slash(chan, "whoami")
            text = (await r.message()).content
            assert text.startswith(f"shard {shard} of 2")
            assert f"pid {(p0, p1)[shard].pid}" in text and r.delivered_to == [(p0, p1)[shard].tag]
        # kill the process of shard 1: shard 0 keeps working, shard 1's interactions fail until restart
        await fd.restart_bot(name="shard1", kill=True)
        r = await alice.slash(chans[1], "whoami")
        assert r.delivered_to == ["shard1-2"]
        fd.assert_clean()
