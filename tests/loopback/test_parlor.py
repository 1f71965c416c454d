"""The real ``python -m bot`` through the loopback Discord: a match, a kill -9, the board still works."""

from __future__ import annotations

from tests.loopback import FakeDiscord
from tests.loopback.helpers import is_board, start_parlor, start_pylon, two_players


async def test_real_process_plays_survives_kill_9(tmp_path):
    async with FakeDiscord(log_dir=tmp_path / "logs") as fd:
        guild, chan, alice, bob = two_players(fd)
        db = f"sqlite:///{tmp_path}/p.sqlite3"
        await start_parlor(fd, db, guild.id)
        thread, _board = await start_pylon(fd, chan, alice, bob)
        r = await alice.slash(thread, "pylon move", notation="S a1")
        new_board = await r.message()
        assert is_board(new_board) and "S a1" in new_board.text
        await fd.settle()
        await fd.restart_bot(kill=True)
        await fd.bot.wait_quiet()
        # the live board posted before the kill keeps working: bob places by its button and select
        live = [m for m in thread.messages if is_board(m) and not m.deleted and m.buttons()]
        assert live == [new_board]
        size = next(b for b in new_board.buttons() if b.label.startswith("Small"))
        await bob.click(new_board, custom_id=size.custom_id)
        sel = next(s for s in new_board.selects() if "b1" in s.values)
        await bob.select(new_board, ["b1"], custom_id=sel.custom_id)
        await thread.wait_for(lambda m: is_board(m) and "S b1" in m.text, timeout=10)
        r = await alice.slash(thread, "pylon move", notation="S c1")
        assert "S c1" in (await r.message()).text
        fd.assert_clean()
