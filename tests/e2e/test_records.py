"""Match records through the Discord double (issue #29): a finished Pylon match's record comes from the
Record button under its end-of-match message; ``/pylon import`` of that file shows the same final board,
pixel for pixel, privately and storing nothing; bad files get a short private answer saying what is wrong."""

from __future__ import annotations

import random

import pytest

from bot.games.pylon.rules import RULES
from tests.e2e.test_platform import start_pylon

pytestmark = pytest.mark.e2e


def final_board(thread):
    """The match's last board message: its picture and "final position" in the footer."""
    return next(m for m in reversed(thread.public_messages)
                if m.attachments and m.attachments[0].is_png and "final position" in m.text)


def pixels(att):
    img = att.image().convert("RGBA")
    return img.size, img.tobytes()


async def finished_pylon(w):
    """alice and bob play a whole Pylon game by typed moves (seeded random legal moves, no agreeing)."""
    thread, _board = await start_pylon(w)
    rng = random.Random(29)
    users = {s: u for s, u in enumerate((w.alice, w.bob))}
    for _ in range(200):
        match = (await w.bot.service.find_here(thread.id, active_only=False))[0]
        if match.status.value != "running":
            break
        (seat,) = match.to_act()
        moves = [RULES.format(m, match.state) for m in RULES.legal_moves(match.state, seat)]
        moves = [m for m in moves if m != "agree"]
        r = await users[seat].slash(thread, "pylon move", notation=rng.choice(moves))
        assert not r.ephemeral
    await w.dd.settle()
    assert match.status.value == "finished"
    return thread, match


async def test_a_finished_matchs_record_imports_to_the_same_final_board(world):
    w = world
    thread, match = await finished_pylon(w)
    final = final_board(thread)
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert over.button_labels() == ["Rematch", "Whole game (GIF)", "Record"]

    r = await w.carol.click(over, "Record")  # anyone watching may take the record of a finished match
    reply = await r.message()
    assert r.ephemeral and reply.visible_to(w.carol) and not reply.visible_to(w.alice)
    (att,) = reply.attachments
    assert att.filename == f"pylon-{match.id}.txt"
    text = att.bytes.decode()
    assert text.startswith('[Format "1"]\n[Game "Pylon"]\n[Players "alice" "bob"]\n')
    moves = await w.bot.service.history(match.id)
    written = [ln.split(" ", 2)[2] for ln in text.splitlines() if ln[:1].isdigit()]
    assert written == [m.notation for m in moves]
    out = match.outcome
    assert f'[Result "{"-".join(str(x + 1) for x in out.ranks)}"]' in text

    before = await w.bot.store.moves(match.id), len(thread.public_messages), len(w.chan.public_messages)
    r = await w.dave.slash(w.chan, "pylon import", record=(att.filename, att.bytes))
    shown = await r.message()
    assert r.ephemeral and shown.visible_to(w.dave) and not shown.visible_to(w.alice)
    assert "Pylon record · alice (Red) vs bob (Blue)" in shown.text and "won" in shown.text
    assert f"Replayed {len(moves)} moves" in shown.text and "Nothing was stored" in shown.text
    assert shown.attachments[0].filename == "board.png"
    assert pixels(shown.attachments[0]) == pixels(final.attachments[0])  # the real final board, exactly
    after = await w.bot.store.moves(match.id), len(thread.public_messages), len(w.chan.public_messages)
    assert after == before
    assert len(await w.bot.service.find_here(w.chan.id, active_only=False)) == 0  # no match was created
    w.dd.assert_clean()


async def test_bad_record_files_are_answered_privately_and_change_nothing(world):
    w = world
    thread, match = await finished_pylon(w)
    over = await thread.wait_for(lambda m: "match over" in m.text)
    good = (await (await w.alice.click(over, "Record")).message()).attachments[0].bytes.decode()
    lines = good.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("1. "))
    square = lines[first].split()[-1]
    illegal = [*lines[:first + 1], f"2. P2 S {square}", *lines[first + 2:]]  # onto the first pyramid
    cases = [
        ("pylon import", ("big.txt", b"; padding\n" * 30_000),
         "The record is too large: 292 KB (at most 256 KB)."),
        ("pylon import", ("junk.png", b"\x89PNG\r\n\x1a\n\xff\xfe"),
         "The record is not UTF-8 text (byte 1 is not)."),
        ("pylon import", ("notes.txt", b"hello there\n"), "Line 1: not a move line"),
        ("fireandice import", ("pylon.txt", good.encode()),
         "That is a record of Pylon, not Fire and Ice: use `/pylon import` for it."),
        ("pylon import", ("bad.txt", "\n".join(illegal).encode()),
         f"Move 2 (`P2 S {square}`) is not legal: "),
    ]
    stored = await w.bot.store.moves(match.id)
    public = len(thread.public_messages), len(w.chan.public_messages)
    for command, file, expected in cases:
        r = await w.bob.slash(w.chan, command, record=file)
        answer = await r.message()
        assert r.ephemeral and answer.visible_to(w.bob) and not answer.visible_to(w.alice), command
        assert answer.text.startswith(expected), (expected, answer.text)
        assert not answer.attachments and not answer.mentions
    assert await w.bot.store.moves(match.id) == stored
    assert (len(thread.public_messages), len(w.chan.public_messages)) == public
    assert len(await w.bot.service.find_here(w.chan.id, active_only=False)) == 0
    w.dd.assert_clean()
