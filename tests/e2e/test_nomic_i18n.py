"""Nomic World in the reader's language: a Spanish player's private answers are in Spanish while the
game's thread stays in the server's language; on a Spanish server the board (and what an English player's
move did) is in Spanish while the English player's own answers stay English."""

import pytest

from bot.i18n import pseudo_mode
from tests.e2e.nomic_helpers import match, propose, roll, start_game, walk

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(pseudo_mode(), reason="reads real Spanish: the pseudo-locale run replaces it"),
]


async def test_a_spanish_players_private_answers_are_in_spanish(world):
    w = world
    sofia = w.dd.create_user("sofia", locale="es-ES")
    w.guild.add_member(sofia)
    thread, board, mid = await start_game(w, players=(w.alice, w.bob, sofia))
    n = await roll(w, mid)
    assert f"rolled **{n}** on the d6" in board.text  # the thread's board: the server's language

    r = await sofia.click(board, "North")  # alice plays first (alphabetical)
    assert r.ephemeral and (await r.message()).text == "Es el turno de alice para moverse."
    r = await sofia.slash(thread, "nomic rule", number=109)
    rule = await r.message()
    assert r.ephemeral and rule.embed.title == "Nomic World · regla 109"
    assert "**Regla 109 — Phase: Movement** · en vigor" in rule.text
    assert "1. A d6 is rolled." in rule.text  # the rulebook's rules stay as they were written
    assert "**Historial**" in rule.text and "Del Conjunto Inicial" in rule.text
    r = await sofia.slash(thread, "nomic move", notation="propose amend")
    assert r.ephemeral and (await r.message()).text == "Di qué regla enmendar: `amend <number> <text>`."

    await walk(w, thread, mid)
    proposal = await propose(w, thread, mid, action="enact", text="Hats on Tuesdays.")
    assert "Proposal 201: enact a new rule" in proposal.text  # posted in the thread: English
    r = await sofia.slash(thread, "nomic move", notation="vote yes")
    assert r.ephemeral and (await r.message()).text == "Tu voto en la propuesta 201 se ha contado: sí."
    await w.dd.settle()
    assert "Still to vote: alice, bob" in proposal.text
    r = await sofia.slash(thread, "nomic map")
    shown = await r.message()
    assert r.ephemeral and shown.embed.title == f"Nomic World · el mapa (partida #{mid})"
    assert shown.attachments[0].description.startswith("Nomic World, ronda 1")  # the picture's alt text
    w.dd.assert_clean()


def is_spanish_board(m):
    return bool(m.attachments) and "Nomic World" in m.text and "Partida #" in m.text


async def test_on_a_spanish_server_the_board_is_spanish_and_an_english_players_answers_english(world):
    w = world
    w.guild.locale = "es-ES"
    await w.alice.slash(w.chan, "nomic new")
    # the lobby is a post in the channel: the server's Spanish
    lobby = await w.chan.wait_for(lambda m: "Unirme" in m.button_labels() and "Nomic World" in m.text)
    for p in (w.bob, w.carol):
        await p.click(lobby, "Unirme")
    await w.alice.click(lobby, "Empezar")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_spanish_board)
    mid = (await w.bot.store.active_matches())[-1].id
    n = await roll(w, mid)
    assert board.embed.title == "Nomic World · ronda 1, turno 1"
    assert f"sacó **{n}** con el d6" in board.text and "Juez: carol" in board.text
    assert board.button_labels()[:4] == ["Norte", "Este", "Sur", "Oeste"]  # the thread's buttons
    r = await w.bob.click(board, "Norte")
    assert r.ephemeral and (await r.message()).text == "It is alice's turn to move."  # bob reads English
    new_board = await walk(w, thread, mid)  # alice (English) moves: the thread reads it in Spanish
    assert is_spanish_board(new_board) and f"alice recorre {'N' * n} de (0, 0) a (0, {n})" in new_board.text
    assert "propón un cambio de reglas" in new_board.text
    assert new_board.attachments[0].description.startswith("Nomic World, ronda 1, turno 1")
    m = await match(w, mid)
    assert m.state.players[0].pos == (0, n)
    proposal = await propose(w, thread, mid, action="enact", text="Hats on Tuesdays.")  # alice, in English
    assert "Propuesta 201: promulgar una regla nueva" in proposal.text
    assert "Hats on Tuesdays." in proposal.text  # the rule's words as written
    r = await w.alice.slash(thread, "nomic move", notation="vote yes")
    assert r.ephemeral and (await r.message()).text == "Your vote on proposal 201 is counted: yes."
    await w.dd.settle()
    assert "Falta por votar: bob, carol" in proposal.text  # the tally the thread reads
    w.dd.assert_clean()
