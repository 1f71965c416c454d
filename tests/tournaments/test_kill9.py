"""The real ``python -m bot`` through the loopback Discord: killed (SIGKILL) just as a round ends,
the restarted process starts the next round once — one round row, one set of pairings, one thread each."""

from __future__ import annotations

import sqlite3

import pytest

from tests.loopback import FakeDiscord
from tests.loopback.helpers import is_board, start_parlor

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def test_kill_9_as_a_round_ends_starts_the_next_round_once(tmp_path):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild = fd.create_guild("Parlor Test")
        chan = guild.create_text_channel("events")
        admin = fd.create_user("organiser")
        guild.add_member(admin, permissions=["manage_guild"])
        players = [fd.create_user(n) for n in ("alice", "bob", "carol", "dave")]
        for u in players:
            guild.add_member(u)
        by_name = {u.global_name: u for u in players}
        path = tmp_path / "p.sqlite3"
        await start_parlor(fd, f"sqlite:///{path}", guild.id)
        r = await admin.slash(chan, "tournament new", game="pylon", rounds=2)
        signup = await r.message()
        for u in players:
            await u.click(signup, "Join")
        await admin.click(signup, "Start (organiser)")

        def boards_in(n):
            found = [(th, m) for th in guild.threads for m in th.messages if is_board(m)]
            return found if len({th.id for th, _ in found}) >= n else None

        round1 = await fd.wait_until(lambda: boards_in(2), timeout=20, describe=lambda: "round 1 not posted")
        threads = {th.id: th for th, _ in round1}
        for th in threads.values():
            names = [n for n in by_name if n in th.name]
            loser = by_name[max(names)]
            r = await loser.slash(th, "pylon resign")
            await loser.click(await r.message(), "Yes, resign")
        await fd.restart_bot(kill=True)        # SIGKILL right after the round's last game ended
        def state():
            db = sqlite3.connect(path)
            out = (db.execute("SELECT id, status, current_round, version, data FROM tournaments").fetchall(),
                   db.execute("SELECT * FROM tournament_pairings").fetchall(),
                   db.execute("SELECT id, status, message_id, thread_id FROM matches").fetchall())
            db.close()
            return f"round 2 not posted after restart: {out}"
        def round2_boards():
            new = [th for th in guild.threads if th.id not in threads]
            return len(new) == 2 and all(any(is_board(m) for m in th.messages) for th in new)
        await fd.wait_until(round2_boards, timeout=30, describe=state)
        await chan.wait_for(lambda m: "round 2 of 2" in m.text, timeout=10)
        assert sum("round 2 of 2" in m.text for m in chan.messages) == 1
        assert len(guild.threads) == 4
        db = sqlite3.connect(path)
        assert db.execute("SELECT COUNT(*) FROM tournament_rounds").fetchone()[0] == 2
        assert db.execute("SELECT COUNT(*) FROM tournament_pairings WHERE round = 2").fetchone()[0] == 2
        assert db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 4
        db.close()
