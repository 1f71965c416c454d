"""Sharded Parlor through the loopback Discord: guilds reach the process of their shard
((guild_id >> 22) % shard_count), DMs reach shard 0, and a DM advances a match on another shard."""

from __future__ import annotations

from tests.loopback import FakeDiscord
from tests.loopback.helpers import eof_round_one_by_dm, guild_on_shard, start_parlor


async def test_one_process_two_shards_dm_on_shard_0_advances_a_match_on_shard_1(tmp_path):
    async with FakeDiscord(shard_count=2, log_dir=tmp_path / "logs") as fd:
        guild = guild_on_shard(fd, 1, 2)
        chan = guild.create_text_channel("games")
        alice, bob = fd.create_user("alice"), fd.create_user("bob")
        guild.add_member(alice)
        guild.add_member(bob)
        # no PARLOR_COMMAND_GUILDS: global commands, so /eof move can be typed in DMs
        await start_parlor(fd, f"sqlite:///{tmp_path}/p.sqlite3", env={"PARLOR_SHARD_COUNT": "2"})
        assert sorted(s.shard_id for s in fd.hub.live_sessions()) == [0, 1]
        thread, dms = await eof_round_one_by_dm(fd, chan, alice, bob)
        assert [r.delivered_shard for r in dms] == [0, 0]
        await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=15)
        fd.assert_clean()
