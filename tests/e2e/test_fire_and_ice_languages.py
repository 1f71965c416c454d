"""Fire and Ice for a Spanish-speaking player (Discord locale es-ES) in an English server: the answers only
they see are in Spanish; the board in the channel stays in the server's language."""

import pytest

from tests.e2e.test_games import challenge

pytestmark = pytest.mark.e2e


async def test_a_spanish_player_reads_errors_in_spanish_and_the_channel_board_stays_english(world):
    w = world
    w.bob.locale = "es-ES"
    thread, _board = await challenge(w, "fireandice")
    await w.alice.slash(thread, "fireandice move", notation="D4-A4")
    await w.dd.settle()
    r = await w.bob.slash(thread, "fireandice move", notation="Z9")
    said = (await r.message()).text
    assert r.ephemeral and "'Z9' no es un punto: no existe la isla Z (las islas son A–G)." in said
    r = await w.bob.slash(thread, "fireandice move", notation="A4-A1")
    said = (await r.message()).text
    assert r.ephemeral and "A4 no es tuyo (tiene una pieza de Fuego). Mueve una de tus piezas de Hielo." in \
        said
    # bob chooses his piece on the channel's board: the redrawn board is the server's (English)
    board = thread.last_message
    src = board.selects()[0]
    assert src.placeholder == "Choose an Ice piece to move"
    await w.bob.select(board, ["D4"], custom_id=src.custom_id)
    await w.dd.settle()
    dst = board.selects()[0]
    assert dst.placeholder == "Move D4 to…"
    assert "Chosen: the piece on D4" in board.attachments[0].description
    w.dd.assert_clean()
