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


@pytest.mark.parametrize("key", ["pylon", "fireandice", "eggcarton"])
def test_how_a_match_ended_is_said_in_the_readers_language_not_the_one_stored(world, key):
    """The stored outcome's words are the channel's language when the match ended; a Spanish reader of the
    finished board (/<game> board, a replay) reads them in Spanish, from the engine's final position."""
    from bot.games import GAMES
    from bot.matches.match import Match
    from tests.test_records import random_match

    rules = GAMES[key].rules
    seed = next(s for s in range(50) if rules.outcome(random_match(key, s)[2][-1]) is not None)
    rec, _log, states = random_match(key, seed)
    with i18n.speaking("en"):
        english = rules.outcome(states[-1]).detail
        rec.outcome = rules.outcome(states[-1]).dump()  # stored in English
    rec.state = rules.dump(states[-1])
    match = Match(rec)
    cog = world.bot.game_cogs[key]
    with i18n.speaking("es"):
        spanish = rules.outcome(states[-1]).detail
        said, words = cog.status_line(match), cog.result_words(match)
    assert english and spanish and english != spanish
    assert spanish.split()[0] in said and english not in said and spanish in words and english not in words
