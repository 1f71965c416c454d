"""Fire and Ice and the Egg Carton Game as players use them (through the Discord double)."""

import pytest

from bot.i18n.pseudo import unpseudo  # (the pseudo-locale run: texts the test makes read as English)

pytestmark = pytest.mark.e2e


def is_board(m):
    return bool(m.attachments) and "To move" in m.text


async def challenge(w, game, *, accept="Accept", **opts):
    """alice challenges bob, who accepts (``accept``: the button's label in the server's language)."""
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bob, **opts)
    invite = await w.chan.wait_for(lambda m: accept in m.button_labels())
    await w.bob.click(invite, accept)
    await w.dd.settle()
    thread = w.thread()
    if accept == "Accept":
        return thread, await thread.wait_for(is_board)
    return thread, await thread.wait_for(lambda m: bool(m.attachments) and m.attachments[0].is_png)


# ------------------------------------------------------------------ Fire and Ice

def disc_colour(board, point):
    """The colour inside a point's disc on the picture the board's embed shows (above its number)."""
    from bot.games.fire_and_ice.notation import parse_point
    from bot.games.fire_and_ice.render import DISC_R, point_xy

    img = board.attachments[0].image().convert("RGB")
    x, y = point_xy(parse_point(point))
    return img.getpixel((x, y - DISC_R + 5))


async def test_fire_and_ice_piece_then_destination(world):
    from bot.games.fire_and_ice.render import ISLAND_FILL, TARGET_FILL

    w = world
    thread, board = await challenge(w, "fireandice")
    assert "Alice (Fire)" in board.text or "alice (Fire)" in board.text
    src = board.selects()[0]
    assert src.values == ["D4"]
    assert (
        src.placeholder == "Choose a Fire piece to move" and src.options[0].description == "12 destinations"
    )
    assert disc_colour(board, "A4") == ISLAND_FILL
    mark = w.dd.mark()
    await w.alice.select(board, ["D4"], custom_id=src.custom_id)
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    dst = board.selects()[0]
    assert "D4-A4" in dst.values and len(dst.values) == 12
    # the picture now marks the twelve destinations (white discs), and keeps the embed's text
    assert all(disc_colour(board, m.split("-")[1]) == TARGET_FILL for m in dst.values)
    assert disc_colour(board, "A1") == ISLAND_FILL and "To move" in board.text
    await w.alice.click(board, "Back")
    await w.dd.settle()
    assert disc_colour(board, "A4") == ISLAND_FILL  # back: the marks are gone
    src = board.selects()[0]
    await w.alice.select(board, ["D4"], custom_id=src.custom_id)
    dst = board.selects()[0]
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
    reply = await r.message()
    assert not r.ephemeral and "D4-D1" in reply.text
    assert "move 2 ·" in reply.embed.footer  # the picture says "after move 2" (header_layout's move line)
    assert reply.selects()[0].placeholder == "Choose a Fire piece to move"
    r = await w.alice.slash(thread, "fireandice move", notation="D1-C6")
    assert r.ephemeral and "D1" in (await r.message()).text
    w.dd.assert_clean()


async def test_fire_and_ice_footer_counts_moves_like_the_picture_with_a_handicap(world):
    from bot.games.fire_and_ice.render import move_line

    w = world
    thread, board = await challenge(w, "fireandice", handicap=2)
    match = (await w.bot.service.find_here(thread.id))[0]
    assert match.rec.ui["plies"] == 2                      # two handicap pieces were placed by chance…
    assert "move 0 ·" in board.embed.footer                # …but no move was played, as the picture says
    assert unpseudo(move_line(match.view(None))) == "no moves yet"


async def test_fire_and_ice_confirms_a_move_that_hands_the_win(world):
    w = world
    thread, _board = await challenge(w, "fireandice")
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
    board = await thread.wait_for(
        lambda m: is_board(m) and "Last:" in m.text
    )  # the computer (Fire) moved first
    assert "Ice" in board.text
    src = board.selects()[0]
    assert src.placeholder.startswith("Choose an Ice piece")
    assert all(o.description.endswith(("1 destination", "destinations")) for o in src.options)
    await w.alice.select(board, [src.values[0]], custom_id=src.custom_id)
    dst = board.selects()[0]
    await w.alice.select(board, [dst.values[0]], custom_id=dst.custom_id)
    await w.dd.settle()
    history = await w.alice.slash(thread, "fireandice history")
    assert "3." in (await history.message()).text


# ------------------------------------------------------------------ Egg Carton

async def test_egg_carton_buttons_gif_and_pick_again(world):
    w = world
    _thread, board = await challenge(w, "eggcarton", speed="fast")
    labels = board.button_labels()
    assert labels == ["A · 3", "B · 3", "C · 3", "D · 3", "E · 3", "F · 3", "Watch"]
    from bot.games.egg_carton.sowing import _AHEAD as ahead

    ahead.clear()
    mark = w.dd.mark()
    await w.alice.click(board, "D · 3")
    await w.dd.settle()
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    att = board.attachments[0]
    assert att.is_gif and att.size < 2_000_000 if hasattr(att, "size") else att.is_gif
    assert b"NETSCAPE2.0" not in att.bytes  # the sowing plays once and stays on the new position
    gif = att.image()
    assert gif.info.get("loop") is None and gif.n_frames > 3
    assert "picks again" in board.text  # D with 3 marbles ends off the board: rule A
    assert board.button("D · 0").disabled
    assert ahead.items, "alice's next sowing was not prepared while she thinks"
    await w.alice.click(board, "E · 4")
    await w.dd.settle()
    assert (
        "Last: alice: `D`, then `E`" in board.text and "alice picks again" in board.text
    )  # one turn, both picks
    r = await w.bob.click(board, "A · 4")
    assert r.ephemeral and "not your turn" in (await r.message()).text


async def test_egg_carton_sowings_are_encoded_while_the_player_thinks(world, monkeypatch):
    """After a move, every sowing the next player can pick is encoded bit by bit on the event loop; their
    click then sends the ready GIF (nothing drawn on the click), which shows the sowing and the new board."""
    import asyncio
    import importlib

    from bot.games.egg_carton import render

    r = importlib.import_module("bot.games.egg_carton.sowing")
    w = world
    thread, board = await challenge(w, "eggcarton", speed="fast")
    r._READY.clear()
    mark = w.dd.mark()
    await w.alice.click(board, "A · 3")
    await w.dd.settle()
    board = await thread.wait_for(lambda m: is_board(m) and m.attachments[0].is_gif, since=mark)
    mover = w.alice if "alice picks again" in board.text else w.bob
    cog = w.bot.game_cogs["eggcarton"]
    for _ in range(200):  # the next player thinks
        if not cog._drawing_ahead:
            break
        await asyncio.sleep(0.01)
    assert not cog._drawing_ahead and len(r._READY.items) == 1
    ((position, ready),) = r._READY.items.items()
    picks = [b for b in board.buttons() if "·" in (b.label or "") and not b.disabled]
    assert len(ready) == len(picks) > 1  # one sowing for each slot they can pick
    drawn = []
    real = r._encode
    monkeypatch.setattr(r, "_encode", lambda pictures, *a: drawn.append(pictures[0][0]) or real(pictures, *a))
    await mover.click(board, picks[-1].label)
    await w.dd.settle()
    (att,) = [m.attachments[0] for m in thread.public_messages
              if m.attachments and m.attachments[0].is_gif
              and m.attachments[0].bytes in {gif for gif, _last_frame in ready.values()}]
    assert position[0] not in drawn  # the pick's sowing was not encoded again (only the next player's)
    assert position not in r._READY.items  # the other picks' sowings are dropped
    gif = att.image()
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    match = (await w.bot.service.find_here(board.channel.id))[0]
    still = render(match.view(None), names=match.names(), events=())
    pixels = zip(last.tobytes(), still.tobytes(), strict=True)
    diff = sum(abs(a - b) for a, b in pixels) / len(still.tobytes())
    assert diff < 3  # up to the GIF palette (and the ring of the last pick, drawn only on the GIF)


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
    _thread, board = await challenge(w, "eggcarton", clock="3m", speed="off")
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


async def test_egg_carton_rules_hide_the_winning_chain_behind_a_spoiler(world):
    r = await world.alice.slash(world.chan, "eggcarton rules")
    full = await world.alice.click(await r.message(), "Full rules")  # the summary first, then the text
    r, text = full, (await full.message()).text
    assert r.ephemeral and "first player can force a win" in text and "3 marbles" in text
    chain = "D E A B F C F D E"
    assert text.count(chain) == 1 and f"||{chain}||" in text  # the fact stays, the sequence is a spoiler


async def test_egg_carton_against_the_expert_the_human_picks_first_by_default(world):
    w = world
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bot_member, level="expert", speed="off")
    await w.dd.settle()
    board = await w.thread().wait_for(is_board)
    match = (await w.bot.service.find_here(w.thread().id))[0]
    assert match.seats[0].user_id == w.alice.id and match.options["first"] == "challenger"
    assert (
        f"To move: <@{w.alice.id}>" in board.text and "Last:" not in board.text
    )  # nothing played before her
    assert board.button_labels() == ["A · 3", "B · 3", "C · 3", "D · 3", "E · 3", "F · 3", "Watch"]


async def wait_drawn_ahead(w, cog, mid):
    """The boards drawn while a player chooses (cogs/_game/board.py draw_ahead), once all are drawn."""
    import asyncio

    await w.dd.settle()
    for _ in range(500):
        task = (cog._drawing_ahead or {}).get(mid)
        if task is None:
            break
        await asyncio.wait({task}, timeout=0.05)
    return cog._ahead_store().get(mid)


def a_piece_with_few_destinations(rules, most):
    """A seeded random game's first position where Fire is to move and has a piece with 2..``most``
    destinations, none handing Ice the win; and that piece."""
    import random

    rng = random.Random(3)
    state = rules.initial({}, 2)
    while True:
        view = rules.view(state, None)
        if view.to_move == 0 and not view.must_pass:
            for p in view.movable:
                dsts = list(view.destinations(p))
                if 1 < len(dsts) <= most and not any(view.is_losing(f"{p}-{d}") for d in dsts):
                    return state, p
        (seat,) = rules.to_act(state)
        state, _events = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))


async def test_fire_and_ice_destination_boards_are_drawn_while_the_player_chooses(world, monkeypatch):
    """Once a piece with a handful of destinations is chosen, the board each destination would give is
    drawn while the player chooses: the destination's click sends that picture (nothing is drawn on the
    click), and it is the board drawn afresh for the position the move gave. A piece with a dozen
    destinations draws nothing ahead (it would cost more than the click it saves)."""
    from bot.render import MAX_PALETTE_ERROR

    w = world
    thread, board = await challenge(w, "fireandice")
    cog = w.bot.game_cogs["fireandice"]
    mid = (await w.bot.service.find_here(thread.id))[0].id
    await w.alice.select(board, ["D4"], custom_id=board.selects()[0].custom_id)
    assert len(board.selects()[0].values) == 12 > cog.AHEAD_MOST
    assert await wait_drawn_ahead(w, cog, mid) is None
    # a position a few moves on where Fire (alice) has a piece with a handful of destinations
    match = await w.bot.service.get(mid)
    state, piece = a_piece_with_few_destinations(match.rules, cog.AHEAD_MOST)
    match.rec.state = match.rules.dump(state)
    await w.bot.store.save_match(match.rec, match.version)
    await cog.refresh_board(await w.bot.service.get(mid), None)
    await w.dd.settle()
    board = thread.last_message
    calls: list[object] = []
    real = cog.game.render
    monkeypatch.setattr(type(cog.game), "render",
                        property(lambda g: lambda view, **k: calls.append(view) or real(view, **k)))
    await w.alice.select(board, [piece], custom_id=board.selects()[0].custom_id)
    drawn = await wait_drawn_ahead(w, cog, mid)
    dst = board.selects()[0]
    assert drawn is not None and len(drawn) == len(dst.values)
    calls.clear()
    await w.alice.select(board, [dst.values[-1]], custom_id=dst.custom_id)
    await w.dd.settle()
    m = await w.bot.service.get(mid)
    new = thread.last_message
    assert dst.values[-1] in new.text
    sent = new.attachments[0].bytes
    events = [ev for view, ev, png in drawn if view == m.view(None) and png == sent]
    assert events  # the picture sent is the one drawn ahead for this move
    assert m.view(None) not in calls  # and it was not drawn again on the click
    shown = new.attachments[0].image().convert("RGB").tobytes()
    fresh = real(m.view(None), names=m.names(), events=events[0]).tobytes()
    assert max(abs(a - b) for a, b in zip(shown, fresh, strict=True)) <= MAX_PALETTE_ERROR
    w.dd.assert_clean()


def draw_other_looks(seed):
    """A process's first Fire and Ice boards, of random looks (positions along random games, a piece chosen
    or the last move's events, clocks, names in several scripts, three languages): the family's palette is
    built from them, and the colours they bring take its free entries."""
    import random

    from bot.games import GAMES
    from bot.i18n import speaking
    from bot.render.canvas import board_png

    game = GAMES["fireandice"]
    rules = game.rules
    names = [("alice", "bob"), ("Alice", "Bob"), ("Alexandrina the Magnificent", "B"), ("Zoë", "Ω mega"),
             ("Computer (hard)", "carol"), ("محمد", "李雷")]
    rng = random.Random(seed)
    for _ in range(rng.choice([1, 2, 5, 20])):
        state, events = rules.initial({}, 2), ()
        for _ in range(rng.randrange(0, 40)):
            if not (acts := rules.to_act(state)):
                break
            (seat,) = acts
            state, events = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
        view = rules.view(state, None)
        kw: dict = {"names": rng.choice(names)}
        r = rng.random()
        if r < 0.3 and view.movable:
            kw["selected"] = rng.choice(view.movable)
        elif r < 0.7:
            kw["events"] = events
        if rng.random() < 0.3:
            kw["clocks"] = [rng.randrange(0, 600_000), rng.randrange(0, 600_000)]
        with speaking(rng.choice(["en", "es", "pt_BR"])):
            board_png(lambda: game.render(view, **kw), "fireandice")  # noqa: B023  # drawn at once


@pytest.mark.parametrize("seed", [4, 50, 67])
async def test_boards_drawn_ahead_are_the_boards_drawn_afresh_on_a_palette_built_from_other_looks(
        world, monkeypatch, seed):
    """The test above, on a palette built from other boards (these seeds' looks hold the status line's
    ground 3 levels off): its labels are blended onto the ground's own colour, as the RGB drawing blends
    them, not onto the palette's (9-11 levels off the RGB board where they were)."""
    from bot.render import palette as P

    monkeypatch.setattr(P, "_families", type(P._families)())
    monkeypatch.setattr(P, "_earlier", {})
    draw_other_looks(seed)
    await test_fire_and_ice_destination_boards_are_drawn_while_the_player_chooses(world, monkeypatch)
