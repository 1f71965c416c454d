"""Issue 31: every picture the bot sends carries a description a screen reader announces (within Discord's
1,024 characters, naming who is to move and the last move), shown as the attachment itself (an embed's
image has none); ``/<game> board text:`` and ``/notify boards:text`` give the position as text."""

from __future__ import annotations

import pytest

from tests.e2e.test_quiet_computer import play_whole_game

pytestmark = pytest.mark.e2e


def sent_pictures(w, since):
    """(file name, description, payload) of every picture uploaded since ``since``."""
    out = []
    for r in w.dd.api_calls(since):
        if not r.files:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        data = body.get("data", body) if "type" in body else body
        atts = {a.get("filename"): a for a in data.get("attachments") or []}
        for name, _ in r.files:
            out.append((name, (atts.get(name) or {}).get("description"), data))
    return out


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_every_picture_of_a_whole_game_has_a_description(world, game):
    w = world
    mark = w.dd.mark()
    g = await play_whole_game(w, game, "easy" if game != "eggcarton" else "novice", seed=3)
    pictures = [p for p in sent_pictures(w, mark) if p[0].endswith((".png", ".gif"))]
    assert len(pictures) >= 3
    for i, (name, alt, data) in enumerate(pictures):
        assert alt and len(alt) <= 1024, (name, alt)
        assert "alice" in alt or "Parlor" in alt, alt  # the player to move (or the winner) by name
        if any("Last: " in (a or "") for _, a, _ in pictures[:i]):
            assert "Last: " in alt, alt  # and, once there is one, the move that led here
        for embed in data.get("embeds") or []:  # never hidden in an embed (its description is not read)
            assert not str((embed.get("image") or {}).get("url", "")).startswith("attachment://")
    board = g["board"]
    assert board.attachments[0].description and board.embed.image() is None


async def test_board_text_and_the_text_boards_setting(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    r = await w.alice.slash(thread, "pylon board", text=True)
    msg = await r.message()
    assert msg.ephemeral_to is not None
    assert "Row 5:" in msg.text and "Legal moves" in msg.text and msg.attachments[0].description
    # bob turns text boards on: the board he is to move on carries the position as text
    r = await w.bob.slash(w.chan, "notify", boards="text")
    assert "as text" in (await r.message()).text
    await w.alice.slash(thread, "pylon move", notation="L c3")
    await w.dd.settle()
    board = next(m for m in reversed(thread.public_messages) if m.attachments)
    assert "Row 3:" in board.text and "c3 alice large" in board.text
    assert "Last: alice placed a large pyramid on c3." in board.text
    w.dd.assert_clean()
