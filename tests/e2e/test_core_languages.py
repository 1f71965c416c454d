"""The core's words end to end (issue 33): in a server whose admins chose Spanish, a match's turn pings and
result in its thread are Spanish whoever acted, while a refusal only the actor sees is in theirs."""

import pytest

from bot import i18n
from tests.e2e.test_games import challenge

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def _forget_languages():
    yield
    i18n.prefs.clear()


async def test_a_spanish_servers_thread_reads_spanish_and_a_portuguese_player_reads_portuguese(world):
    w = world
    await w.admin.slash(w.chan, "parlor settings", language="es")
    w.bob.locale = "pt-BR"
    thread, _board = await challenge(w, "fireandice", accept="Aceptar")  # the invite is the channel's
    r = await w.bob.slash(thread, "fireandice move", notation="D4-A4")  # not his turn: told in Portuguese
    assert r.ephemeral and "Não é a sua vez: aguardando alice." in (await r.message()).text
    await w.alice.slash(thread, "fireandice move", notation="D4-A4")  # alice reads English
    await thread.wait_for(lambda m: m.text.startswith(f"<@{w.bob.id}> tu turno."))  # the thread's ping
    r = await w.bob.slash(thread, "fireandice resign")
    await w.bob.click(await r.message(), "Sim, desistir")  # his own confirmation: Portuguese
    await w.dd.settle()
    result = await thread.wait_for(lambda m: "bob abandonó." in m.text)  # the channel's: Spanish
    assert "bob resigned" not in result.text and "bob desistiu" not in result.text
    assert await w.bot.store.active_matches() == []
