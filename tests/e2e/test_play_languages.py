"""Issue 33, the game screens: a private answer is in its reader's language, a board in its server's.

A Spanish reader (Discord locale ``es-ES``) on an English server: their refusals, their private board,
history, lesson and puzzle are Spanish; the board in the channel stays English, also when it is edited
as the answer to their own click. A Brazilian reader's ``/pylon rules`` comes back in Portuguese.
"""

from __future__ import annotations

from importlib import resources

import pytest

from bot import i18n
from cogs._game import learn as learn_mod
from tests.discord_double import pseudo

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def _languages():
    if pseudo.active():
        pytest.skip("the pseudo-locale replaces every language")
    i18n.prefs.clear()
    yield
    i18n.prefs.clear()  # the languages seen are process-wide: no other test inherits these readers


def is_board(m):
    return bool(m.attachments) and m.attachments[0].is_png and "Match #" in m.text


async def join(w, name, locale):
    user = w.dd.create_user(name, locale=locale)
    w.guild.add_member(user)
    return user


async def test_a_spanish_reader_is_refused_in_spanish_while_the_english_servers_board_stays_english(world):
    w = world
    sofia = await join(w, "sofia", "es-ES")
    await w.alice.slash(w.chan, "pylon new", opponent=sofia)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    assert "a challenge" in invite.text
    await sofia.click(invite, "Accept")  # her click edits the channel's invite: the server's language
    await w.dd.settle()
    assert "Started:" in invite.text and "Comenzó" not in invite.text
    thread = w.thread()
    board = await thread.wait_for(is_board)
    assert "To move" in board.text and "Turno de" not in board.text

    r = await sofia.click(board, "Small (5 left)")  # alice (the challenger) moves first
    refusal = await r.message()
    assert r.ephemeral and refusal.text == "No es tu turno."

    await w.alice.click(board, "Small (5 left)")
    sel = next(s for s in board.selects() if "a1" in s.values)
    await w.alice.select(board, ["a1"], custom_id=sel.custom_id)
    await w.dd.settle()
    board = next(m for m in reversed(thread.public_messages) if is_board(m) and m.buttons())
    # sofia's own move: the answer to her click edits the board she clicked (it moved on: alice is pinged
    # with a new one) and the new board is posted: both are the channel's
    r = await sofia.click(board, "Small (5 left)")  # the picker opens on the board itself
    assert not r.ephemeral
    sel = next(s for s in board.selects() if "b2" in s.values)
    r = await sofia.select(board, ["b2"], custom_id=sel.custom_id)
    await w.dd.settle()
    assert not r.ephemeral and "Moved on: see the latest board" in board.text, board.text
    latest = next(m for m in reversed(thread.public_messages) if is_board(m) and m.buttons())
    assert "Last: sofia: `S b2`" in latest.text and "To move:" in latest.text, latest.text
    for text in (board.text, latest.text):
        assert "Partida #" not in text and "Última jugada" not in text and "Turno de" not in text

    # what only she reads is hers: the board for her eyes, the moves so far
    r = await sofia.slash(thread, "pylon board")
    mine = await r.message()
    assert r.ephemeral and "Turno de:" in mine.text and "Partida #" in mine.text, mine.text
    r = await sofia.slash(thread, "pylon history")
    moves = await r.message()
    assert r.ephemeral and "jugadas" in moves.text and "S b2" in moves.text
    # and alice, who reads English, still gets English
    r = await w.alice.slash(thread, "pylon board")
    assert "To move:" in (await r.message()).text


async def test_a_lesson_and_a_puzzle_are_in_their_readers_language_and_kept_per_language(world):
    w = world
    sofia = await join(w, "sofia", "es-ES")
    r = await sofia.slash(w.chan, "pylon learn")
    step = await r.message()
    assert r.ephemeral and "Lección de Pylon · paso 1 de" in step.text
    assert "Solo tú ves esta lección" in step.text
    r = await w.alice.slash(w.chan, "pylon learn")
    english = await r.message()
    assert "Pylon lesson · step 1 of" in english.text and "Lección" not in english.text
    langs = {key[-1] for key in learn_mod.STEP_VIEWS if key[0] == "pylon"}
    assert {"es", "en"} <= langs  # each language's step kept apart
    r = await sofia.slash(w.chan, "pylon puzzle")
    puzzle = await r.message()
    assert r.ephemeral and "Problema de Pylon #" in puzzle.text
    assert "Escribir jugada" in puzzle.button_labels()
    assert "Solo tú ves este problema" in puzzle.text


async def test_pylon_rules_for_a_brazilian_reader_are_in_portuguese(world):
    w = world
    joao = await join(w, "joao", "pt-BR")
    r = await joao.slash(w.chan, "pylon rules")
    msg = await r.message()
    assert r.ephemeral and "**Pylon: como jogar**" in msg.text and "Regras completas" in msg.text
    assert "Regras completas" in msg.button_labels()
    full = await joao.click(msg, "Regras completas")
    shown = await full.message()
    assert full.ephemeral and "Pylon: regras" in shown.text
    folder = resources.files("bot.games.pylon")
    own = folder / "rules_text.pt_BR.md"
    if own.is_file():  # the game's translated rules (written with the game): the whole text is Portuguese
        head = own.read_text(encoding="utf-8").strip().splitlines()[0].lstrip("# ").strip("*")[:30]
        assert head in shown.text
        summary = (folder / "summary.pt_BR.md").read_text(encoding="utf-8").strip()
        assert summary in msg.text
    # an English reader right after gets English (the diagram and texts are kept per language)
    r = await w.alice.slash(w.chan, "pylon rules")
    assert "**Pylon: how to play**" in (await r.message()).text


async def test_a_turn_dm_speaks_its_readers_language_with_the_board_drawn_for_it(world):
    w = world
    sofia = await join(w, "sofia", "es-ES")
    await sofia.slash(w.chan, "notify", mode="dm")
    await w.alice.slash(w.chan, "pylon new", opponent=sofia)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await sofia.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    await w.alice.click(board, "Small (5 left)")
    sel = next(s for s in board.selects() if "a1" in s.values)
    await w.alice.select(board, ["a1"], custom_id=sel.custom_id)
    await w.dd.settle()
    dm = sofia.dm_channel().last_message
    assert "Última jugada: alice: `S a1`" in dm.text, dm.text  # what alice played, in sofia's words
    assert dm.attachments and dm.attachments[0].is_png and dm.attachments[0].description
    assert "Last: alice: `S a1`" in board.text  # the board in the thread stays the server's
