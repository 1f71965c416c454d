"""Fire and Ice and the Egg Carton Game as players use them (through the Discord double)."""

import pytest

pytestmark = pytest.mark.e2e


def is_board(m):
    return bool(m.attachments) and "To move" in m.text


async def challenge(w, game, **opts):
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bob, **opts)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    return thread, await thread.wait_for(is_board)


# ------------------------------------------------------------------ Fire and Ice

async def test_fire_and_ice_piece_then_destination(world):
    w = world
    thread, board = await challenge(w, "fireandice")
    assert "Alice (Fire)" in board.text or "alice (Fire)" in board.text
    src = board.selects()[0]
    assert src.values == ["D4"]
    await w.alice.select(board, ["D4"], custom_id=src.custom_id)
    dst = board.selects()[0]
    assert "D4-A4" in dst.values and len(dst.values) == 12
    mark = w.dd.mark()
    await w.alice.select(board, ["D4-A4"], custom_id=dst.custom_id)
    await w.dd.settle()
    # bob's turn begins: the clicked board moves on and a new board pings bob (issue 12; was 1 request)
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1,
                                            "POST /channels/{channel_id}/messages": 1}
    assert "Moved on" in board.text
    board = thread.last_message
    assert "D4-A4" in board.text and [u.id for u in board.notified] == [w.bob.id]
    r = await w.bob.slash(thread, "fireandice move", notation="d4 - d1")
    assert not r.ephemeral and "D4-D1" in (await r.message()).text
    r = await w.alice.slash(thread, "fireandice move", notation="D1-C6")
    assert r.ephemeral and "D1" in (await r.message()).text
    w.dd.assert_clean()


async def test_fire_and_ice_confirms_a_move_that_hands_the_win(world):
    w = world
    thread, board = await challenge(w, "fireandice")
    match = (await w.bot.service.find_here(thread.id))[0]
    # Put the match in a position where Fire's only piece, on G7, leaves an Ice piece behind when it moves:
    # Ice already controls A (A1 A2 A5) and C (C1 C3 C7) and holds G1 and G3, so Ice on G7 completes G
    # (line 1-3-7) and with it the island line A-C-G.
    from dataclasses import replace

    from bot.games.fire_and_ice.notation import parse_point

    board_pts = [-1] * 49
    for p in ("A1", "A2", "A5", "C1", "C3", "C7", "G1", "G3"):
        board_pts[parse_point(p)] = 1
    board_pts[parse_point("G7")] = 0
    state = replace(match.state, board=tuple(board_pts), supply=(24, 17))
    match.rec.state = match.rules.dump(state)
    await w.bot.store.save_match(match.rec, match.version)
    r = await w.alice.slash(thread, "fireandice move", notation="G7-G5")
    msg = await r.message()
    assert r.ephemeral and "hands Ice the win" in msg.text
    await w.alice.click(msg, "Yes, play G7-G5")
    await w.dd.settle()
    result = await thread.wait_for(lambda m: "match over" in m.text)
    assert "bob" in result.text


async def test_fire_and_ice_against_the_computer(world):
    w = world
    await w.alice.slash(w.chan, "fireandice new", opponent=w.bot_member, side="ice", level="easy")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(lambda m: is_board(m) and "Last:" in m.text)  # the computer (Fire) moved first
    assert "Ice" in board.text
    src = board.selects()[0]
    await w.alice.select(board, [src.values[0]], custom_id=src.custom_id)
    dst = board.selects()[0]
    await w.alice.select(board, [dst.values[0]], custom_id=dst.custom_id)
    await w.dd.settle()
    history = await w.alice.slash(thread, "fireandice history")
    assert "3." in (await history.message()).text


# ------------------------------------------------------------------ Egg Carton

async def test_egg_carton_buttons_gif_and_pick_again(world):
    w = world
    thread, board = await challenge(w, "eggcarton", speed="fast")
    labels = board.button_labels()
    assert labels == ["A · 3", "B · 3", "C · 3", "D · 3", "E · 3", "F · 3", "Watch"]
    mark = w.dd.mark()
    await w.alice.click(board, "D · 3")
    await w.dd.settle()
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    att = board.attachments[0]
    assert att.is_gif and att.size < 2_000_000 if hasattr(att, "size") else att.is_gif
    assert "picks again" in board.text  # D with 3 marbles ends off the board: rule A
    assert board.button("D · 0").disabled
    await w.alice.click(board, "E · 4")
    await w.dd.settle()
    assert "Last: alice: `E`" in board.text and "alice picks again" in board.text  # D E … of a winning line
    r = await w.bob.click(board, "A · 4")
    assert r.ephemeral and "not your turn" in (await r.message()).text


async def test_egg_carton_clock_runs_out(world):
    w = world
    thread, board = await challenge(w, "eggcarton", clock="1m", speed="off")
    assert "Clocks" in board.text and "1:00" in board.text
    await w.alice.click(board, "A · 3")
    await w.dd.settle()
    assert board.attachments[0].is_png
    results = await w.expire(61)
    assert results
    result = await thread.wait_for(lambda m: "match over" in m.text)
    assert "ran out of time on the clock" in result.text


async def test_egg_carton_clock_survives_restart(world):
    w = world
    thread, board = await challenge(w, "eggcarton", clock="3m", speed="off")
    w.clock.advance(100)
    await w.restart()
    await w.alice.click(board, "A · 3")
    await w.dd.settle()
    assert "Clocks: alice 1:20" in board.text or "alice 1:19" in board.text


async def test_egg_carton_computer_replies(world):
    w = world
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bot_member, level="novice", first="challenger",
                        speed="off")
    await w.dd.settle()
    board = await w.thread().wait_for(is_board)
    await w.alice.click(board, "A · 3")
    await w.dd.settle()
    for _ in range(12):  # alice's turn goes on while her last marble drops off the board (rule A)
        if "alice picks again" not in board.text:
            break
        await w.alice.click(board, next(b.label for b in board.buttons() if not b.disabled))
        await w.dd.settle()
    await w.thread().wait_for(lambda m: is_board(m) and "Parlor (novice): `" in m.text, timeout=10)
    history = await w.alice.slash(w.thread(), "eggcarton history")
    assert "Parlor (novice)" in (await history.message()).text
