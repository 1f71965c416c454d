"""Pylon through the Discord double: agreeing to end (confirmed when it ends the game) and the
"Last:" line."""

import dataclasses

import pytest

from tests.e2e.test_games import challenge, wait_drawn_ahead
from tests.games.pylon.helpers import full_board, play_all

pytestmark = pytest.mark.e2e


def is_board(m):
    return bool(m.attachments) and m.attachments[0].is_png and "Score:" in m.text


async def set_state(w, thread, state):
    """Put the thread's match in ``state`` and repaint its board (same version: the buttons stay valid)."""
    match = (await w.bot.service.find_here(thread.id))[0]
    match.rec.state = match.rules.dump(state)
    await w.bot.store.save_match(match.rec, match.version)
    match = await w.bot.service.get(match.id)
    await w.bot.game_cogs["pylon"].refresh_board(match, None)
    await w.dd.settle()
    return match


async def between_members(w):
    """alice challenges bob, who accepts: the match's thread and its board."""
    thread, _first = await challenge(w, "pylon")
    return thread, await thread.wait_for(is_board)


async def vs_computer(w):
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    return thread, await thread.wait_for(is_board)


async def test_agree_to_end_against_the_computer_asks_first(world):
    w = world
    thread, board = await vs_computer(w)
    await set_state(w, thread, play_all(full_board(), "a1-a2", "b1-b2", "d1-d2"))  # Blue (the computer) 16–14
    assert "Score: alice (Red) 14 – 16 Parlor (easy, Blue)" in board.text

    r = await w.alice.click(board, "Agree to end")
    ask = await r.message()
    # alice has 14: she reads her own score first, as on a scoreboard seen from her seat
    assert r.ephemeral and "End now at **14–16**?" in ask.text and "you would lose 14–16" in ask.text
    assert "16–14" not in ask.text
    assert ask.button_labels() == ["Yes, end at 14–16", "No, play on"]
    await w.alice.click(ask, "No, play on")
    await w.dd.settle()
    assert "Not ended" in ask.text and not ask.buttons()
    match = (await w.bot.service.find_here(thread.id))[0]
    assert match.status.value == "running" and not any(match.view(None).agreed)  # nothing was played

    r = await w.alice.click(board, "Agree to end")
    ask = await r.message()
    await w.alice.click(ask, "Yes, end at 14–16")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert "Parlor (easy, Blue) won" in over.text
    w.dd.assert_clean()


async def test_agree_is_an_offer_between_members_and_confirmed_once_the_other_agreed(world):
    w = world
    thread, board = await between_members(w)
    await set_state(w, thread, play_all(full_board(), "a1-a2", "b1-b2", "d1-d2"))
    r = await w.alice.click(board, "Agree to end")  # only an offer: played at once, on the board itself
    assert not r.ephemeral and r.response_name == "UPDATE_MESSAGE"
    await w.dd.settle()
    assert "Agreed to end: alice" in board.text
    r = await w.bob.click(board, "Agree to end (alice agreed)")  # this one ends the game: asked first
    ask = await r.message()
    assert r.ephemeral and "alice has already agreed" in ask.text and "you would win 16–14" in ask.text
    assert "End now at **16–14**?" in ask.text  # bob has 16: his own score first
    await w.bob.click(ask, "Yes, end at 16–14")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert "bob (Blue) won" in over.text


async def test_last_line_shows_both_moves_when_the_computer_moves_twice(world):
    w = world
    thread, board = await vs_computer(w)
    full = full_board()
    board_sq = list(full.board)
    board_sq[24] = ()   # a5 (Red small) and f5 (Blue large) still to place
    board_sq[29] = ()
    state = dataclasses.replace(full, board=tuple(board_sq), stash=((1, 0, 0), (0, 0, 1)))
    await set_state(w, thread, state)
    assert "Placement: 2 pyramids still to place." in board.text
    r = await w.alice.slash(thread, "pylon move", notation="S a5")
    assert not r.ephemeral
    # The computer places the 30th pyramid and then makes the first stacking move: the board names both.
    # (the computer answered at once, so alice's move and its run are one reply: "Last: alice: …, Parlor …")
    after = await thread.wait_for(lambda m: is_board(m) and "Parlor (easy): `L f5`, then `" in m.text)
    assert "To move: <@" in after.text


async def test_one_pyramid_left_is_singular(world):
    w = world
    thread, board = await vs_computer(w)
    full = full_board()
    squares = list(full.board)
    squares[29] = ()  # only f5 (Blue large) left to place, by the computer
    await set_state(w, thread, dataclasses.replace(full, board=tuple(squares), stash=((0, 0, 0), (0, 0, 1))))
    assert "Placement: 1 pyramid still to place." in board.text


async def test_agree_to_end_shows_the_losing_member_their_own_score_first(world):
    w = world
    thread, board = await between_members(w)
    await set_state(w, thread, play_all(full_board(), "a1-a2", "b1-b2", "d1-d2"))  # alice 14, bob 16
    await w.bob.click(board, "Agree to end")  # bob offers; alice, behind, decides
    await w.dd.settle()
    r = await w.alice.click(board, "Agree to end (bob agreed)")
    ask = await r.message()
    assert "End now at **14–16**?" in ask.text and "you would lose 14–16 (bob wins)" in ask.text
    assert ask.button_labels() == ["Yes, end at 14–16", "No, play on"]
    w.dd.assert_clean()


async def test_each_direction_s_board_is_drawn_while_the_player_chooses(world, monkeypatch):
    """Stacking: once a stack is chosen, the board each legal direction would give is drawn while the
    player chooses; the direction's click sends that picture without drawing it again."""
    from bot.render import MAX_PALETTE_ERROR

    w = world
    thread, board = await between_members(w)
    match = await set_state(w, thread, full_board())
    cog = w.bot.game_cogs["pylon"]
    (seat,) = match.to_act()
    mover = w.alice if match.seats[seat].user_id == w.alice.id else w.bob
    calls: list[object] = []
    real = cog.game.render
    monkeypatch.setattr(type(cog.game), "render",
                        property(lambda g: lambda view, **k: calls.append(view) or real(view, **k)))
    src = board.selects()[0]
    await mover.select(board, ["b2"], custom_id=src.custom_id)
    drawn = await wait_drawn_ahead(w, cog, match.id)
    arrows = [b for b in board.buttons() if b.custom_id and ":m:b2-" in b.custom_id and not b.disabled]
    assert drawn is not None and len(drawn) == len(arrows) >= 2
    calls.clear()
    await mover.click(board, custom_id=arrows[0].custom_id)
    await w.dd.settle()
    m = await w.bot.service.get(match.id)
    new = thread.last_message
    sent = new.attachments[0].bytes
    events = [ev for view, ev, png in drawn if view == m.view(None) and png == sent]
    assert events and m.view(None) not in calls
    shown = new.attachments[0].image().convert("RGB").tobytes()
    fresh = real(m.view(None), names=m.names(), events=events[0]).tobytes()
    assert max(abs(a - b) for a, b in zip(shown, fresh, strict=True)) <= MAX_PALETTE_ERROR
    w.dd.assert_clean()
