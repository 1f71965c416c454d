"""The Egg Carton Game against the computer: the answer to a pick plays, in one GIF, the player's sowing and
then each of the computer's picks, in order and once each, ending on the new position (issue #27).

The GIF is decoded frame by frame and compared with the frames of each pick's sowing drawn on its own
(``animate``) from the positions the move log gives: its first frame is the board before the player's pick.
"""

import asyncio
import importlib
import io

import pytest

pytestmark = pytest.mark.e2e

SPEED = "fast"


def is_board(m):
    return bool(m.attachments) and "To move" in m.text


def predictable_computer(monkeypatch):
    """The computer picks the first slot that makes it pick again (rule A), else its first slot: with 3
    marbles, after alice's ``E`` it picks I, M, K; after her ``D``, ``C`` it picks I, J."""
    package = importlib.import_module("bot.games.egg_carton")
    rules = package.RULES

    def choose(state, seat, rng, level):
        legal = rules.legal_moves(state, seat)
        for move in legal:
            after, _ = rules.apply(state, seat, move)
            if rules.to_act(after) == frozenset({seat}) and rules.outcome(after) is None:
                return move
        return legal[0]

    monkeypatch.setattr(package, "choose", choose)


async def start(w):
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bot_member, level="novice", first="challenger",
                        speed=SPEED)
    await w.dd.settle()
    return await w.thread().wait_for(is_board)


async def live_board(w):
    match = (await w.bot.service.find_here(w.thread().id))[0]
    return match, w.dd.messages[match.rec.message_id]


async def pick(w, board, letter):
    """Alice picks ``letter``; (the match, its live board, how many moves were played before)."""
    match, _ = await live_board(w)
    before = len(await w.bot.service.history(match.id))
    label = next(b.label for b in board.buttons() if b.label.startswith(f"{letter} ·"))
    await w.alice.click(board, label)
    await w.dd.settle()
    await computer_done(w)
    match, board = await live_board(w)
    return match, board, before


async def computer_done(w, timeout=10.0):
    """Wait for the computer's turn to end and its board edit to be sent: ``settle`` alone watches the
    bot's requests and handlers, not a computer still thinking in its own task."""
    tasks = set(w.bot.game_cogs["eggcarton"]._ai_tasks)
    if tasks:
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout)
        await w.dd.settle()


def gif_frames(data):
    """The GIF's frames as shown (RGB) with their durations, leaving out the short first parts of a frame
    written in several (``PART_MS``): what a viewer sees, step by step."""
    from PIL import Image

    from bot.games.egg_carton.sowing import PART_MS

    gif = Image.open(io.BytesIO(data))
    out = []
    for i in range(gif.n_frames):
        gif.seek(i)
        if gif.info.get("duration") == PART_MS:
            continue
        out.append(gif.convert("RGB"))
    return out


async def plies_of_answer(w, match, first):
    """(view before, events, view after, who) of each move from the ``first``-th of the log on."""
    moves = await w.bot.service.history(match.id)
    rules = match.rules
    state = rules.initial({"marbles": "3"}, 2)
    out = []
    for i, mv in enumerate(moves):
        after, events = rules.apply(state, mv.seat, rules.parse(mv.notation, state, mv.seat))
        if i >= first:
            out.append((rules.view(state, None), events, rules.view(after, None), mv))
        state = after
    assert rules.dump(state) == rules.dump(match.state)
    return out


def difference(a, b, box=None):
    if box is not None:
        a, b = a.crop(box), b.crop(box)
    pixels = zip(a.tobytes(), b.tobytes(), strict=True)
    return sum(abs(x - y) for x, y in pixels) / len(a.tobytes())


def check_answer(match, board, plies, gif=None):
    """The answer's GIF (``gif``: its bytes, else the board's): the frames of each pick's sowing, in
    order, once each; it starts on the board before the first of ``plies`` and ends after the last."""
    from bot.games.egg_carton import animate, render
    from bot.games.egg_carton.render import _tile

    if gif is None:
        att = board.attachments[0]
        assert att.is_gif
        gif = att.bytes
    shown = gif_frames(gif)
    names = match.names()
    expected = []
    for view_before, events, view_after, _mv in plies:
        expected += [img.convert("RGB") for img, _ms in animate(view_before, events, view_after, names=names,
                                                                 speed=SPEED)]
    assert len(shown) == len(expected), (len(shown), len(expected))
    for n, (got, want) in enumerate(zip(shown, expected, strict=True)):
        assert difference(got, want) < 0.5, f"frame {n} of {len(shown)} differs"
    # in the board's own terms: every slot as before the player's pick first, the new position last
    view_before, _events, view_after, _mv = plies[0]
    before, after = render(view_before, names=names), render(view_after, names=names)
    for slot in range(12):
        as_before = difference(shown[0], before, _tile(slot))
        assert as_before < 1, f"slot {slot} is not as before the pick"
        if view_before.slots[slot] != view_after.slots[slot]:  # (and not as after it)
            assert difference(shown[0], after, _tile(slot)) > 2 * as_before + 1
    assert difference(shown[-1], render(plies[-1][2], names=names, events=plies[-1][1])) < 3


async def settle_ahead(w):
    """Wait until the sowings of the player's possible picks are encoded (while they think)."""
    cog = w.bot.game_cogs["eggcarton"]
    for _ in range(300):
        if not cog._drawing_ahead:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the sowings ahead were not encoded")


async def test_the_answer_plays_the_players_pick_then_each_of_the_computers_picks(world, monkeypatch):
    w = world
    predictable_computer(monkeypatch)
    board = await start(w)
    match, board, before = await pick(w, board, "E")
    plies = await plies_of_answer(w, match, before)
    assert [p[3].notation for p in plies] == ["E", "I", "M", "K"]  # alice's pick, then the computer's three
    assert [p[3].seat for p in plies] == [0, 1, 1, 1]
    assert "Last: alice: `E`, Parlor" in board.text and "`K`" in board.text
    check_answer(match, board, plies)


async def test_a_repick_is_animated_and_its_sowing_encoded_ahead_is_used(world, monkeypatch):
    sowing = importlib.import_module("bot.games.egg_carton.sowing")
    w = world
    predictable_computer(monkeypatch)
    board = await start(w)
    sowing._READY.clear()
    match, board, before = await pick(w, board, "D")  # three marbles: E, F, off the board -- rule A
    assert "alice picks again" in board.text
    check_answer(match, board, await plies_of_answer(w, match, before))  # her pick alone
    await settle_ahead(w)
    ((_position, ready),) = sowing._READY.items.items()  # each of her picks, encoded while she thinks
    match, board, before = await pick(w, board, "C")
    plies = await plies_of_answer(w, match, before)
    assert [p[3].notation for p in plies] == ["C", "I", "J"]  # her repick, then the computer's two picks
    check_answer(match, board, plies)
    gif = board.attachments[0].bytes
    # the sowing of her pick was taken as encoded ahead (all but its last frame, held shorter here)
    assert any(gif.startswith(data[:last_at]) and last_at > 1000 for data, last_at in ready.values())


async def test_a_computer_slower_than_the_click_still_shows_the_players_pick(world, monkeypatch):
    """When the computer takes longer than the click may wait, the click's answer plays the player's pick
    at once (the computer thinking), and the computer's answer then edits that same board playing its own
    pick: each pick once, in order, on one board."""
    play = importlib.import_module("cogs._game.play")
    package = importlib.import_module("bot.games.egg_carton")
    monkeypatch.setattr(play, "AI_AT_ONCE", 0.0)  # the click never waits for the computer
    monkeypatch.setattr(package, "choose", lambda state, seat, rng, level:
                        package.RULES.legal_moves(state, seat)[0])
    w = world
    clicked = await start(w)
    mark = w.dd.mark()
    match, board, before = await pick(w, clicked, "B")
    assert board.id == clicked.id  # no new board below: the clicked one was edited twice
    plies = await plies_of_answer(w, match, before)
    assert [p[3].notation for p in plies] == ["B", "J"]  # her pick, then the computer's one pick
    calls = [c for c in w.dd.api_calls(since=mark) if c.files]
    assert len(calls) == 2 and calls[0].interaction_id is not None  # the click's answer, then the edit
    check_answer(match, board, plies[:1], gif=calls[0].files[0][1])  # the answer plays her pick
    check_answer(match, board, plies[1:])  # the edit plays the computer's pick, once
    assert "Last: alice: `B`, Parlor" in board.text
