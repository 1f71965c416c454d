"""``/<game> history`` of a long game (issue #27): nothing cut; pages of whole lines with ◀ ▶ that survive a
restart, and the whole game as a text file."""

from __future__ import annotations

import pytest

from bot.storage import MoveRecord
from tests.e2e.test_platform import start_pylon

pytestmark = pytest.mark.e2e

MOVES = 400


async def long_game(w):
    """A running Pylon match whose log holds ``MOVES`` moves (written to the store: the history reads the
    log as it is; 400 lines of ~25 characters are about 10,000 characters, three pages)."""
    thread, _board = await start_pylon(w)
    match = (await w.bot.service.find_here(thread.id))[0]
    col = "abcdef"
    moves = [MoveRecord(ply=i, seat=i % 2, user_id=match.seats[i % 2].user_id,
                        notation=f"L {col[i % 6]}{1 + i % 5}-{col[i % 6]}{2 + i % 4}", created_at=0.0)
             for i in range(MOVES)]
    await w.bot.store.save_match(match.rec, match.version, new_moves=moves)
    expected = [f"{i + 1}. {('alice', 'bob')[i % 2]}: `{mv.notation}`" for i, mv in enumerate(moves)]
    return thread, expected


async def test_a_long_history_pages_with_buttons_and_comes_whole_as_a_file(world):
    w = world
    thread, expected = await long_game(w)
    mark = w.dd.mark()
    r = await w.bob.slash(thread, "pylon history")
    msg = await r.message()
    assert r.ephemeral and len(w.dd.api_calls(since=mark)) == 1  # one request, file included
    # the newest moves first, as whole lines; the title says where we are
    assert msg.embed.title.endswith("(page 3 of 3)")
    shown_lines = msg.embed.description.split("\n")
    assert shown_lines[-1] == expected[-1] and all(line in expected for line in shown_lines)
    assert "…" not in msg.embed.description
    # the whole game in the file: every move, the first included, in plain text
    (att,) = msg.attachments
    text = att.bytes.decode()
    assert att.filename.startswith("history-") and att.filename.endswith(".txt")
    assert [ln for ln in text.splitlines() if ln[:1].isdigit()] == [ln.replace("`", "") for ln in expected]
    # ◀ back to the start: the pages together are the whole history, each line once and in order
    seen = [shown_lines]
    assert msg.button(None, emoji="▶").disabled
    for _ in range(2):
        await w.bob.click(msg, emoji="◀")
        seen.insert(0, msg.embed.description.split("\n"))
    assert msg.embed.title.endswith("(page 1 of 3)") and msg.button(None, emoji="◀").disabled
    assert [ln for page in seen for ln in page] == expected
    assert all(len("\n".join(page)) <= 4096 for page in seen)


async def test_history_pages_turn_after_a_restart(world):
    w = world
    thread, expected = await long_game(w)
    r = await w.alice.slash(thread, "pylon history")
    msg = await r.message()
    await w.alice.click(msg, emoji="◀")
    assert msg.embed.title.endswith("(page 2 of 3)")
    await w.restart()
    await w.alice.click(msg, emoji="◀")  # the old message's buttons still work
    assert msg.embed.title.endswith("(page 1 of 3)") and msg.embed.description.startswith(expected[0])
    await w.alice.click(msg, emoji="▶")
    assert msg.embed.title.endswith("(page 2 of 3)")
    w.dd.assert_clean()


async def test_a_short_history_is_one_page_without_buttons_or_file(world):
    w = world
    thread, _board = await start_pylon(w)
    await w.alice.slash(thread, "pylon move", notation="S a1")
    r = await w.bob.slash(thread, "pylon history")
    msg = await r.message()
    assert msg.embed.description == "1. alice: `S a1`" and msg.embed.title.endswith(": moves")
    assert not msg.buttons() and not msg.attachments
