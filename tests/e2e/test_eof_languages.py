"""EOF in two languages at once, end to end: a Brazilian player (Discord locale pt-BR) in an English server
reads her lobby DM, her program builder, her hand picture's alt text and her own ephemeral replies in
Portuguese, while her English opponent's DMs stay English and the match thread's posts (the execution log
with its animation, the scores, the fresh board) stay in the server's language, English, even though it
was her program that started the execution."""

from __future__ import annotations

import pytest

from bot.games.eof.rules import Phase
from bot.i18n import prefs
from tests.e2e.eof_helpers import (
    Clock,
    hand_of,
    latest_match_id,
    make_bot,
    open_lobby,
    some_program,
    start,
)

pytestmark = pytest.mark.e2e

PORTUGUESE = ("Rodada", "rodada", "ponteiro", "registro", "Pontos", "arquivo", "Vermelho", "Amarelo",
              "travou")
"""Words of the Portuguese catalog that have no place in the English thread."""


@pytest.fixture(autouse=True)
def _forget_languages():
    """The languages seen belong to this test's users only (user ids repeat from one world to the next)."""
    prefs.clear()
    yield
    prefs.clear()


async def test_a_portuguese_players_dms_are_portuguese_and_the_english_thread_stays_english(dd, tmp_path):
    guild = dd.create_guild("Parlor Test")  # an English server
    chan = guild.create_text_channel("games")
    alice = dd.create_user("alice", locale="pt-BR")  # her Discord client speaks Brazilian Portuguese
    bob = dd.create_user("bob")
    for u in (alice, bob):
        guild.add_member(u)
    bot = make_bot(dd, str(tmp_path / "parlor.sqlite3"), Clock())
    await dd.connect(bot)

    lobby = await open_lobby(alice, chan, draw="blind")  # blind: the whole deal happens at the start
    joined = await alice.wait_for_dm(lambda m: "Você está na sala como" in m.text)
    assert "[voltar para a sala]" in joined.text
    await bob.click(lobby, "Join")
    await bob.wait_for_dm(lambda m: "You are in the lobby as" in m.text)

    thread = await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    m = await bot.service.get(mid)
    assert m.state.phase is Phase.PROGRAM

    # the builders: each in its reader's language, whoever's click sent them (alice pressed Start)
    adm = await alice.wait_for_dm(lambda m: m.embed.title == "Rodada 1: seu programa")
    assert "**Programa 0/5.** Escolha abaixo sua primeira peça" in adm.text
    assert "[voltar para a partida]" in adm.text
    assert adm.attachments[0].description.startswith("Sua mão de EOF, rodada 1:")
    assert "Escrever meu programa" not in adm.text
    bdm = await bob.wait_for_dm(lambda m: m.embed.title == "Round 1: your program")
    assert "**Program 0/5.** Choose your first piece below" in bdm.text
    assert bdm.attachments[0].description.startswith("Your EOF hand, round 1:")

    # bob submits first; alice's program, typed in her DM, starts the execution
    seat_a, seat_b = m.seat_of(alice.id), m.seat_of(bob.id)
    program_b = " ".join(some_program(hand_of(m.state, seat_b), 5))
    r = await bob.slash(bob.dm_channel(), "eof move", notation=program_b)
    assert "Program submitted for round 1" in (await r.message()).text
    program_a = " ".join(some_program(hand_of(m.state, seat_a), 5))
    r = await alice.slash(alice.dm_channel(), "eof move", notation=program_a)
    mine = await r.message()
    assert r.ephemeral and f"Programa enviado para a rodada 1: `{program_a}`" in mine.text

    # the thread: the execution log, the scores and the fresh board in the server's language
    log_msg = await thread.wait_for(lambda m: m.embed.title == "Round 1: execution", timeout=10)
    gif = log_msg.attachments[0]
    assert gif.description.startswith("EOF round 1 execution,")
    scores = await thread.wait_for(lambda m: m.embed.title == "Round 1 scores")
    await dd.settle()
    m = await bot.service.get(mid)
    board = dd.messages[m.rec.message_id]
    assert board.id > scores.id and "Round 2/4 · Scores:" in board.text
    for msg in (log_msg, scores, board):
        said = " ".join([msg.text, *(a.description or "" for a in msg.attachments)])
        found = [w for w in PORTUGUESE if w in said]
        assert not found, f"Portuguese {found} in the English thread: {said}"
    assert any(w in log_msg.text for w in ("pointer", "record", "crash", "inserted", "deleted", "swapped",
                                            "replaced"))
    dd.assert_clean()
