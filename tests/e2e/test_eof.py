"""EOF on Discord, end to end: players click, type and read DMs through the in-process Discord double.

Covers the lobby with colours, the deal by buttons, the DM program builder, ``/eof move`` in a DM and in
the thread, the ephemeral fallback for closed DMs (checked on joining), secrecy of programs in public,
the execution post with its GIF, a permission prompt answered by DM, turn-limit expiry (programs and
permission answers) and a whole match ending with ratings.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.games.eof.rules import Phase
from bot.i18n.pseudo import unpseudo  # (the pseudo-locale run: texts the test makes read as English)
from tests.e2e.eof_helpers import (
    INSTRUCTION,
    Clock,
    board_message,
    build_in,
    builder_dm,
    click_suffix,
    deal_by_buttons,
    eof_world,
    fix_seed,
    hand_from_select,
    hand_of,
    latest_match_id,
    make_bot,
    open_lobby,
    public_texts,
    some_program,
    start,
    user_of,
)

pytestmark = pytest.mark.e2e

PERMISSION_SEED = "0000000000000000"
"""With this seed, two players (red, yellow), blind draws: hands allow the permission scenario below."""


def assert_no_secrets(chan, *, allowed: set[str] = frozenset()) -> None:
    """No public message (text, labels, options, file names, earlier versions) shows an instruction or
    a hand picture, except the instructions in ``allowed`` (already executed)."""
    for msg, text in public_texts(chan):
        found = set(INSTRUCTION.findall(text)) - allowed
        assert not found, f"program text {found} in public message {msg!r}:\n{text}"
        assert not any(a.filename.startswith("hand") for a in msg.attachments), msg
        assert "Write my program" not in text or not msg.selects(), msg


def first_piece(hand: list[str], colour: str) -> str:
    return next(p for p in hand if p[0] == colour)


# ---------------------------------------------------------------------------------------------------------


async def test_lobby_colours_deal_builder_and_move_in_dm(dd, tmp_path):
    clock = Clock()
    bot, chan, (alice, bob, carol) = await eof_world(dd, tmp_path, clock, ("alice", "bob", "carol"))

    lobby = await open_lobby(alice, chan, colour="blue")
    assert "alice — 🟦 Blue" in lobby.text
    assert "Blue · alice" in lobby.button_labels()
    dm = await alice.wait_for_dm(lambda m: "You are in the lobby as 🟦 Blue" in m.text)
    assert "EOF #" in dm.text

    await bob.click(lobby, "Green")
    assert "bob — 🟩 Green" in lobby.text
    await bob.wait_for_dm(lambda m: "as 🟩 Green" in m.text)
    assert lobby.button("Blue · alice").disabled and lobby.button("Green · bob").disabled
    await carol.click(lobby, "Join")  # no choice: the first free colour
    assert "carol — 🟥 Red" in lobby.text
    await carol.click(lobby, "Yellow")  # switch
    assert "carol — 🟨 Yellow" in lobby.text and not lobby.button("Red").disabled
    await carol.click(lobby, "Leave")
    assert "carol" not in lobby.text

    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    m = await bot.service.get(mid)
    assert [m.state.colours[0], m.state.colours[1]] == [3, 2]  # blue, green, in seat order
    board = dd.messages[m.rec.message_id]
    assert any(b.label.startswith("Medium (") for b in board.buttons())
    # the player not drawing cannot choose
    other = user_of(m, [alice, bob], 1 - m.state.drawer)
    r = await click_suffix(other, board, ":m:M")
    assert r.ephemeral and "not your turn" in (await r.message()).text.lower()

    m = await deal_by_buttons(dd, bot, mid, [alice, bob])
    assert m.state.phase is Phase.PROGRAM
    assert all(len(d) == 9 for d in m.state.draws)
    board = dd.messages[m.rec.message_id]
    assert "Write my program" in board.button_labels()
    assert "draws" in board.text  # every draw is announced on the board

    # alice builds in DM: a piece, an orientation, the crash warning, undo, then a full program
    adm = await builder_dm(alice)
    assert adm.attachments and adm.attachments[0].filename == "hand.png" and adm.attachments[0].is_png
    assert "back to the match" in adm.text
    hand = hand_from_select(adm)
    assert len(hand) == 9
    piece = hand[0]
    await alice.select(adm, [piece])
    assert "choose its orientation" in adm.text
    bad = "Up" if piece[0] in "RYB" else "Standing"
    await alice.click(adm, f"{bad} (crashes)")
    assert "will crash" in adm.text and f"{piece}{bad[0]}" in adm.text
    await alice.click(adm, "Undo")
    assert "Program 0/5" in adm.text
    program_a = some_program(hand, 5)
    await build_in(alice, adm, program_a, submit=False)
    assert f"Program 5/5:** `{' '.join(program_a)}`" in adm.text
    await alice.click(adm, "Submit")
    assert "Submit this program?" in adm.text
    await alice.click(adm, "Confirm")
    assert "Submitted — waiting for bob" in adm.text
    await dd.settle()
    board = dd.messages[(await bot.service.get(mid)).rec.message_id]
    assert "Program in: 🟦 **alice**" in board.text
    assert_no_secrets(chan)

    # bob's history shows that alice submitted, not what
    r = await bob.slash(thread, "eof history")
    hist = await r.message()
    assert r.ephemeral and "alice: submitted a program" in hist.text and program_a[0] not in hist.text

    # bob: autocomplete from the hand, then /eof move in his DM
    bdm = await builder_dm(bob)
    bhand = hand_from_select(bdm)
    choices = await bob.autocomplete(bob.dm_channel(), "eof move", "notation", "")
    assert choices and all(c["value"][:2] in bhand for c in choices)
    program_b = some_program(bhand, 5)
    prefix = " ".join(program_b[:2])
    choices = await bob.autocomplete(bob.dm_channel(), "eof move", "notation", prefix + " ")
    assert all(c["value"].startswith(prefix) and len(c["value"].split()) == 3 for c in choices)
    # a crashing orientation is allowed after a warning
    last = program_b[-1]
    program_b[-1] = last[:2] + ("U" if last[0] in "RYB" else "S")
    r = await bob.slash(bob.dm_channel(), "eof move", notation=" ".join(program_b).lower())
    warning = await r.message()
    assert r.ephemeral and "will crash" in warning.text
    await bob.click(warning, "Submit anyway")
    assert "Submitted" in warning.text or "All programs are in" in warning.text

    # execution: the step log with the GIF, the scores, a fresh board at the bottom
    log_msg = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=10)
    gif = log_msg.attachments[0]
    assert gif.filename == "execution.gif" and gif.is_gif and gif.image().n_frames >= 2
    scores = await thread.wait_for(lambda m: m.embed.title == "Round 1 scores")
    assert "alice" in scores.text and "bob" in scores.text and "→" in scores.text
    await dd.settle()
    m = await bot.service.get(mid)
    new_board = dd.messages[m.rec.message_id]
    assert new_board.id > scores.id and m.state.round == 2
    # one size for every frame: the canvas holds the final still (the new round's board) uncropped
    anim = gif.image()
    sizes = set()
    for i in range(anim.n_frames):
        anim.seek(i)
        sizes.add(anim.size)
    board_png = new_board.attachments[0].image()
    assert len(sizes) == 1 and anim.size[0] == board_png.size[0] and anim.size[1] >= board_png.size[1]
    assert not board.buttons()  # the old board lost its buttons
    executed = {str(st.instruction) for st in m.state.last_round.steps}
    assert_no_secrets(chan, allowed=executed)

    # after the round, history shows the programs
    r = await bob.slash(thread, "eof history")
    hist = await r.message()
    assert f"`{' '.join(program_a)}`" in hist.text and f"`{' '.join(program_b)}`" in hist.text
    dd.assert_clean()


async def test_dms_closed_fallback_checked_on_join(dd, tmp_path):
    clock = Clock()
    bot, chan, (alice, bob) = await eof_world(dd, tmp_path, clock, closed=("bob",))
    lobby = await open_lobby(alice, chan, draw="blind")
    r = await bob.click(lobby, "Join")
    warn = await r.followup(0)
    assert warn.ephemeral and warn.ephemeral_to == bob.id and "cannot DM you" in warn.text
    assert "bob — 🟨 Yellow" in lobby.text

    thread = await start(dd, alice, lobby)  # blind: the whole deal happens at the start
    mid = await latest_match_id(bot)
    fallback = await thread.wait_for(lambda m: "Show privately" in m.button_labels())
    assert bob.id in [u.id for u in fallback.mentions] and "cannot DM you" in fallback.text
    await builder_dm(alice)  # alice's DMs work

    # somebody else cannot open bob's private button
    r = await alice.click(fallback, "Show privately")
    assert r.ephemeral and "another player" in (await r.message()).text

    r = await bob.click(fallback, "Show privately")
    eph = await r.message()
    assert eph.ephemeral_to == bob.id and eph.embed.title == "Round 1: your program"
    bhand = hand_from_select(eph)
    program_b = some_program(bhand, len(bhand[:5]))
    await build_in(bob, eph, program_b)
    assert "Submitted — waiting for alice" in eph.text
    assert eph.ephemeral

    # alice uses the board's button instead of her DM: an ephemeral builder in the thread
    m = await bot.service.get(mid)
    board = dd.messages[m.rec.message_id]
    r = await alice.click(board, "Write my program")
    aeph = await r.message()
    assert aeph.ephemeral_to == alice.id
    assert_no_secrets(chan)
    ahand = hand_from_select(aeph)
    await build_in(alice, aeph, some_program(ahand, 5))
    await thread.wait_for(lambda m: m.embed.title == "Round 1 scores", timeout=10)
    # the next round's builders: DM for alice, a new fallback button for bob
    await builder_dm(alice, 2)
    await thread.wait_for(lambda m: "Show privately" in m.button_labels() and m.id > fallback.id)
    dd.assert_clean()


async def permission_programs(bot, mid):
    """(first seat, its program, other seat, its program): the first player's third instruction deletes
    the record holding the other's pointer."""
    m = await bot.service.get(mid)
    s = m.state
    f, o = s.first, 1 - s.first
    hf, ho = hand_of(s, f), hand_of(s, o)
    pf = some_program(
        hf, 5, [first_piece(hf, "Y") + "R", first_piece(hf, "G") + "U", first_piece(hf, "R") + "R"]
    )
    po = some_program(ho, 5, [first_piece(ho, "Y") + "R", first_piece(ho, "G") + "U"])
    return f, pf, o, po


async def test_permission_prompt_answered_by_dm(dd, tmp_path, monkeypatch):
    fix_seed(monkeypatch, PERMISSION_SEED)
    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan, draw="blind", locking="permission-nocrash")
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    f, pf, o, po = await permission_programs(bot, mid)
    m = await bot.service.get(mid)
    first, other = user_of(m, users, f), user_of(m, users, o)

    r = await first.slash(thread, "eof move", notation=" ".join(pf))  # in the thread: answered privately
    assert r.ephemeral and "Program submitted" in (await r.message()).text
    assert_no_secrets(chan)
    mark = dd.mark()
    await other.slash(other.dm_channel(), "eof move", notation=" ".join(po))

    paused = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=10)
    assert "⏸️" in paused.text and "allow or deny" in paused.text
    pause_line = next(x for x in paused.text.splitlines() if x.startswith("⏸️"))
    # players by name (with their colour square), not bare colours (issue 27)
    assert f"**{first.username}**" in pause_line and f"**{other.username}**" in pause_line
    assert not any(f"{c} " in pause_line for c in ("Red", "Yellow", "Green", "Blue")), pause_line
    prompt = await other.wait_for_dm(lambda m: "allow the deletion?" in (m.embed.title or ""), since=mark)
    assert "holds your pointer" in prompt.text and "back to the match" in prompt.text
    await dd.settle()
    m = await bot.service.get(mid)
    assert m.state.phase is Phase.PERMISSION
    board = dd.messages[m.rec.message_id]
    assert "Allow the deletion" in board.button_labels()
    # the deleting player cannot answer for the other
    r = await first.click(board, "Allow the deletion")
    assert r.ephemeral and "Only the players" in (await r.message()).text

    # a restart in between: the DM's buttons carry everything they need
    await dd.disconnect()
    bot = make_bot(dd, str(tmp_path / "parlor.sqlite3"), clock)
    await dd.connect(bot)
    await other.click(prompt, "Allow")
    assert "You allowed the deletion" in prompt.text and not prompt.buttons()
    cont = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution (continued)", timeout=10)
    assert cont.attachments and cont.attachments[0].is_gif
    assert f"`{pf[2]}`" in cont.text and "deleting R1" in cont.text  # the allowed deletion happened
    await thread.wait_for(lambda m: m.embed.title == "Round 1 scores")
    dd.assert_clean()


async def test_turn_limit_expiry(dd, tmp_path, monkeypatch):
    fix_seed(monkeypatch, PERMISSION_SEED)
    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan, draw="blind", locking="permission-nocrash", turn_limit=60)
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    f, pf, o, po = await permission_programs(bot, mid)
    m = await bot.service.get(mid)
    first, other = user_of(m, users, f), user_of(m, users, o)
    await first.slash(first.dm_channel(), "eof move", notation=" ".join(pf))
    await other.slash(other.dm_channel(), "eof move", notation=" ".join(po))
    await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=10)
    await dd.settle()

    # nobody answers the permission requests: each counts as Deny (the deletes stop: -nocrash)
    for _ in range(5):
        m = await bot.service.get(mid)
        if m.state.phase is not Phase.PERMISSION:
            break
        mark = dd.mark()
        clock.advance(61)
        results = await bot.scheduler.run_due()
        assert results and unpseudo(results[0].message) == "The turn limit passed."
        cont = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution (continued)", since=mark,
                                     timeout=10)
        assert "refused" in cont.text
        await dd.settle()
    assert m.state.round == 2
    await thread.wait_for(lambda m: m.embed.title == "Round 1 scores")

    # round 2: only one program comes in; the other becomes "no program"
    await dd.settle()
    adm = await builder_dm(first, 2)
    odm = await builder_dm(other, 2)
    hand = hand_from_select(adm)
    await first.slash(first.dm_channel(), "eof move", notation=" ".join(some_program(hand, 5)))
    await dd.settle()
    clock.advance(61)
    await bot.scheduler.run_due()
    scores = await thread.wait_for(lambda m: m.embed.title == "Round 2 scores", timeout=10)
    await dd.settle()
    # the late player's builder does not wait for a program any more
    assert "No program this round" in odm.text and not odm.selects() and "Program 0/5" not in odm.text
    line = next(x for x in scores.text.splitlines() if other.username in x)
    assert "no program" in line and "+0" in line
    r = await first.slash(thread, "eof history")
    assert "(turn limit)" in (await r.message()).text
    dd.assert_clean()


async def test_whole_match_updates_ratings(dd, tmp_path):
    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan, draw="blind", crash_penalty="on")
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    for rnd in range(1, 5):
        for u in users:
            dm = await builder_dm(u, rnd)
            hand = hand_from_select(dm)
            r = await u.slash(
                u.dm_channel(), "eof move", notation=" ".join(some_program(hand, min(5, len(hand))))
            )
            reply = (await r.message()).text
            assert "Program submitted" in reply, (rnd, u.username, reply)
            if rnd == 4 and u is alice:  # earlier rounds' programs are public now, this round's are not
                r = await bob.slash(thread, "eof history")
                text = (await r.message()).text
                round4 = text.split("**Round 4**")[1]
                assert "alice: submitted a program" in round4 and not INSTRUCTION.search(round4)
                assert INSTRUCTION.search(text.split("**Round 4**")[0])
        await thread.wait_for(lambda m, rnd=rnd: m.embed.title == f"Round {rnd} scores", timeout=10)
    over = await thread.wait_for(lambda m: m.embed.title == "EOF: match over", timeout=10)
    m = await bot.service.get(mid)
    assert m.status.value == "finished" and len(m.state.history) == 4
    assert any(f["name"] == "Ratings" for f in over.embed.fields)
    # the result said once, in the one wording (issue 27), with the others' totals after it
    from bot.games.eof.state import result_sentence
    labels = [f"{u.username} ({c})" for u, c in zip(users, ("Red", "Yellow"), strict=True)]
    said = unpseudo(result_sentence(m.state.scores, labels))
    assert over.embed.description.startswith(f"**{said}.**")
    assert "won" not in over.embed.description and over.embed.description.count(" with ") == 1
    rows = await bot.store.ratings(m.rec.guild_id, "eof", [alice.id, bob.id])
    assert set(rows) == {alice.id, bob.id} and all(r.games == 1 for r in rows.values())
    final = dd.messages[m.rec.message_id]
    assert not final.buttons()
    dd.assert_clean()


# --- issue 13: the builder's dry run, typed programs close the DM builder, draw counts, draw the rest ------

async def test_builder_dry_run_and_a_typed_program_closes_the_dm_builder(dd, tmp_path):
    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan, draw="blind")
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    adm = await builder_dm(alice)
    hand = hand_from_select(adm)
    # the file is empty in round 1: a green piece laid Right would pass EOF now, Up is fine
    piece = next((p for p in hand if p[0] == "G"), None) or next(p for p in hand if p[0] in "RB")
    descriptions = {o.value: o.description for o in adm.selects()[0].options}
    assert all(" · now: " in d for d in descriptions.values())  # the pieces say what would run now too
    if any(p[0] in "RB" for p in hand):  # nothing to delete or swap in an empty file
        rb = next(p for p in hand if p[0] in "RB")
        assert descriptions[rb].endswith("would crash in every orientation")
    await alice.select(adm, [piece])
    assert "*Now:*" in adm.text and "as it stands" in adm.text and "BOF/EOF (empty file)" in adm.text
    assert "💥 would crash:" in adm.text
    assert "Right (would crash now)" in adm.button_labels()
    if piece[0] == "G":
        assert "Up" in adm.button_labels() and "pointer now on" in adm.text
    # a program typed in the thread: the DM builder no longer says "Program 0/5" (even after a restart:
    # the bot then finds the builder among the DM's recent messages)
    assert "Program 0/5" in adm.text
    await dd.disconnect()
    bot = make_bot(dd, str(tmp_path / "parlor.sqlite3"), clock)
    await dd.connect(bot)
    program = some_program(hand, 5)
    r = await alice.slash(thread, "eof move", notation=" ".join(program))
    assert r.ephemeral
    await dd.settle()
    assert adm.embed.title == "Round 1: program submitted" and "Program 0/5" not in adm.text
    assert f"`{' '.join(program)}`" in adm.text and not adm.selects()
    # bob's last program, submitted in his DM by typing: the round runs, his builder says so too
    bdm = await builder_dm(bob)
    bprog = some_program(hand_from_select(bdm), 5)
    await bob.slash(bob.dm_channel(), "eof move", notation=" ".join(bprog))
    await thread.wait_for(lambda m: m.embed.title == "Round 1 scores", timeout=10)
    await dd.settle()
    assert bdm.embed.title == "Program submitted" and "All programs are in" in bdm.text and not bdm.buttons()
    m = await bot.service.get(mid)
    assert m.state.round == 2
    dd.assert_clean()


async def test_draw_count_agrees_and_draw_the_rest_for_me(dd, tmp_path):
    from bot.games.eof.render import _marks, _status

    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan)  # draw: feel
    await bob.click(lobby, "Join")
    await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    m = await bot.service.get(mid)
    drawer = m.state.drawer
    board = dd.messages[m.rec.message_id]
    assert "draws (1/9)" in board.text
    picture_text, _ = _status(m.view(None), m.names(), _marks(m.view(None), ()))
    assert "draws (1/9)" in unpseudo(picture_text)  # the picture and the embed count the same draw
    user = user_of(m, users, drawer)
    await click_suffix(user, board, ":m:M")
    m = await bot.service.get(mid)
    board = dd.messages[m.rec.message_id]
    assert "draws (2/9)" in board.text
    assert "draws (2/9)" in unpseudo(_status(m.view(None), m.names(), _marks(m.view(None), ()))[0])
    # the other player cannot draw for the drawer
    other = user_of(m, users, 1 - drawer)
    r = await other.click(board, "Draw the rest for me (8)")
    assert r.ephemeral
    mark = dd.mark()
    await user.click(board, "Draw the rest for me (8)")
    await dd.settle()
    m = await bot.service.get(mid)
    assert len(m.state.draws[drawer]) == 9
    assert m.state.drawer == 1 - drawer or m.state.phase is Phase.PROGRAM
    summary = dd.api_summary(since=mark)
    assert summary.get("POST /interactions/{interaction_id}/{token}/callback") == 1
    assert not any("PATCH /channels" in k and "messages" in k for k in summary), (
        summary
    )  # no extra board edit
    board = dd.messages[m.rec.message_id]
    assert "draws (1/9)" in board.text and "Draw the rest for me (9)" in board.button_labels()
    dd.assert_clean()


async def test_each_size_draws_board_is_drawn_while_the_drawer_chooses(dd, tmp_path, monkeypatch):
    """After a draw, the board each size button would give is drawn while the drawer chooses (the draw is
    the match's seeded dice, so it is known): the click's answer sends that picture, drawn for the position
    the draw really gave, and nothing is drawn on the click."""
    import asyncio

    from bot.render import MAX_PALETTE_ERROR

    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock)
    alice, bob = users
    lobby = await open_lobby(alice, chan)
    await bob.click(lobby, "Join")
    await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    cog = bot.game_cogs["eof"]
    calls: list[object] = []
    real = cog.game.render
    monkeypatch.setattr(type(cog.game), "render",
                        property(lambda g: lambda view, **k: calls.append(view) or real(view, **k)))
    for _ in range(2):
        for _ in range(300):
            if not cog._drawing_ahead:
                break
            await asyncio.sleep(0.01)
        m = await bot.service.get(mid)
        drawn = cog._ahead_store().get(mid)
        assert drawn is not None and len(drawn) == 4  # small, medium, large, any size
        calls.clear()
        await click_suffix(user_of(m, users, m.state.drawer), dd.messages[m.rec.message_id], ":m:M")
        await dd.settle()
        m = await bot.service.get(mid)
        board = dd.messages[m.rec.message_id]
        # the medium draw's board (the "any size" draw may have given the same position)
        sent = board.attachments[0].bytes
        sent_for = [ev for view, ev, png in drawn if view == m.view(None) and png == sent]
        assert sent_for
        events = sent_for[0]
        assert m.view(None) not in calls  # not drawn for the click (only the next draws' boards, ahead)
        shown = board.attachments[0].image().convert("RGB").tobytes()
        fresh = real(m.view(None), names=m.names(), events=events).tobytes()
        assert max(abs(a - b) for a, b in zip(shown, fresh, strict=True)) <= MAX_PALETTE_ERROR
    dd.assert_clean()


@pytest.mark.parametrize("held_in", ["refresh_board", "board_kwargs"])
async def test_a_board_edit_that_lost_a_race_never_brings_back_an_earlier_position(dd, tmp_path, monkeypatch,
                                                                                   held_in):
    """alice's program edits the board ("waiting for bob"), but that edit is held up (before it starts, or
    while its picture is drawn) until bob's program has ended the round: the round's log, its scores and a
    fresh board go out, and the old board says "Moved on". alice's late edit must not bring the old board
    back (its buttons, an earlier position below the round's scores), whatever the order."""
    bot, chan, users = await eof_world(dd, tmp_path, Clock())
    alice, bob = users
    lobby = await open_lobby(alice, chan, draw="blind")
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    cog = bot.game_cogs["eof"]
    gate = asyncio.Event()
    held: list[int] = []
    original = getattr(type(cog), held_in)

    async def slow(self, match, result, *args, **kwargs):
        if result is not None and not held and any(m.seat == 0 for m in result.moves):
            held.append(match.version)  # alice's edit: let go only once bob's program is in
            await gate.wait()
        return await original(self, match, result, *args, **kwargs)

    monkeypatch.setattr(type(cog), held_in, slow)
    old = board_message(dd, await bot.service.get(await latest_match_id(bot)))
    for u in users:
        hand = hand_from_select(await builder_dm(u, 1))
        r = await u.slash(u.dm_channel(), "eof move", notation=" ".join(some_program(hand, 5)))
        reply = await r.message()
        if "Submit anyway" in reply.button_labels():
            await u.click(reply, "Submit anyway")
    await thread.wait_for(lambda m: m.embed.title == "Round 1 scores", timeout=10)
    await dd.settle()
    assert held, "alice's board edit was not held"
    gate.set()
    for _ in range(3):
        await dd.settle()
        await asyncio.sleep(0.1)
    assert "Moved on" in old.text and old.buttons() == [], old.text  # retired, and it stays so
    boards = [m for m in thread.public_messages if m.attachments and m.attachments[0].filename == "board.png"]
    live = [m for m in boards if m.buttons()]
    assert live == [boards[-1]], live  # one live board: the newest, below the round's scores
    assert "Round 2" in boards[-1].attachments[0].description, boards[-1].attachments[0].description
