"""A full disk during a move, as the player sees it: a private 'not saved', the board unchanged, and the
log naming the real cause (not 'cannot rollback - no transaction is active')."""

import logging

import pytest

from tests.storage.test_db_faults import fill_disk

pytestmark = pytest.mark.e2e


async def test_disk_full_move_is_reported_to_the_player(world, caplog):
    w = world
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bob, first="challenger", speed="off")
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    mid = (await w.bot.store.active_matches())[-1].id
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.carol)  # a second match to fill the disk with
    await w.dd.settle()
    other = (await w.bot.store.active_matches())[-1].id
    svc = w.bot.service
    for _attempt in range(10):  # a move may still fit in a page's last bytes: fill again until none does
        await fill_disk(w.bot.store, svc, other)
        caplog.clear()
        caplog.set_level(logging.ERROR)
        m = await svc.get(mid)
        user = w.alice if m.seats[sorted(m.to_act())[0]].user_id == w.alice.id else w.bob
        slot = next(b.label for b in (await thread.wait_for(lambda b: bool(b.attachments) and any(
            not x.disabled for x in b.buttons()))).buttons() if not b.disabled).split(" ")[0]
        r = await user.slash(thread, "eggcarton move", notation=slot)
        text = (await r.message()).text
        if not r.ephemeral:  # it fitted and was stored
            assert (await svc.get(mid)).version == m.version + 1
            await w.dd.settle()
            continue
        assert "not saved" in text and "went wrong" not in text, text
        assert "database or disk is full" in caplog.text and "cannot rollback" not in caplog.text
        assert (await svc.get(mid)).version == m.version
        break
    else:
        pytest.fail("the disk never filled up")
    await w.bot.store.db.execute("PRAGMA max_page_count = 1000000")
    r = await user.slash(thread, "eggcarton move", notation=slot)
    assert not r.ephemeral
