"""Issue 33's proof: whole matches played by Spanish and Brazilian players, and a mixed server.

- A Spanish server (Discord community locale ``es-ES``) where a Spanish player plays a whole Pylon game
  against the computer by typing moves: every post in the thread (board, alt text, turn line, result) and
  the channel's header are Spanish, her private answers are Spanish, and the registered commands describe
  themselves in Spanish. The same for a Brazilian server and player with Fire and Ice.
- A mixed English server: the English and the Spanish player each get private answers in their own
  language; what is posted for everyone is in the server's English.
"""

from __future__ import annotations

import random
import re

import pytest

from bot import i18n
from bot.games import GAMES
from bot.i18n import _, speaking
from tests.discord_double import pseudo

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ENGLISH_WORDS = re.compile(r"\b(To move|Match #|match over|Last:|your move|won|Watch|Resign)\b")


@pytest.fixture(autouse=True)
def _languages():
    if pseudo.active():
        pytest.skip("the pseudo-locale replaces every language")
    i18n.prefs.clear()
    yield
    i18n.prefs.clear()


def _in(lang: str, msgid: str, **kw: object) -> str:
    with speaking(lang):
        return _(msgid, **kw)


async def _play_by_typing(w, user, game: str, command: str, rng: random.Random, limit: int = 400):
    """``user`` types a legal move (the engine's own list) whenever it is their turn, until the end."""
    thread = w.thread()
    match = (await w.bot.service.find_here(thread.id, active_only=False))[0]
    rules = GAMES[game].rules
    for _i in range(limit):
        match = await w.bot.service.get(match.id)
        if match.status.value != "running":
            break
        state = rules.load(match.rec.state)
        acting = rules.to_act(state)
        mine = next(s for s, seat in enumerate(match.seats) if seat.user_id == user.id)
        if not isinstance(acting, frozenset) or mine not in acting:
            await w.dd.settle()  # the computer is thinking
            continue
        move = rng.choice(list(rules.legal_moves(state, mine)))
        await user.slash(thread, f"{command} move", notation=rules.format(move, state))
        await w.dd.settle()
    match = await w.bot.service.get(match.id)
    assert match.status.value == "finished"
    return thread, match


@pytest.mark.parametrize(("lang", "locale", "game", "command"), [
    ("es", "es-ES", "pylon", "pylon"),
    ("pt_BR", "pt-BR", "fireandice", "fireandice"),
])
async def test_a_whole_match_in_the_players_and_the_servers_language(world, lang, locale, game, command):
    w = world
    w.guild.locale = locale
    w.alice.locale = locale
    # the commands describe themselves in the player's language (Discord shows them by itself)
    registered = {c["name"]: c for c in w.dd.registered_commands(w.guild)}
    assert registered[command]["description_localizations"][locale] != registered[command]["description"]

    # a move typed outside any match: a private answer in her language
    r = await w.alice.slash(w.chan, f"{command} move", notation="zz")
    said = (await r.message()).text
    assert r.ephemeral and not ENGLISH_WORDS.search(said) and said.strip(), said

    await w.alice.slash(w.chan, f"{command} new", opponent=w.bot_member, level="easy")
    await w.dd.settle()
    thread, _match = await _play_by_typing(w, w.alice, game, command, random.Random(7))

    posts = list(thread.public_messages)
    assert posts, "the thread holds the board and the result"
    title = _in(lang, "{game}: match over", game=GAMES[game].rules.spec.title)
    assert any(title in m.text for m in posts), [m.text[:200] for m in posts]
    for m in posts:
        assert not ENGLISH_WORDS.search(m.text), m.text[:300]
        for a in m.attachments:
            assert a.description and not ENGLISH_WORDS.search(a.description), a.description
    header = [m for m in w.chan.public_messages if m.text]
    assert header and all(not ENGLISH_WORDS.search(m.text) for m in header), [m.text[:200] for m in header]

    # a refused move inside the finished match's thread: private, and hers
    r = await w.alice.slash(thread, f"{command} move", notation="zz")
    said = (await r.message()).text
    assert r.ephemeral and not ENGLISH_WORDS.search(said), said


async def test_a_mixed_server_answers_each_reader_in_theirs_and_posts_in_the_servers(world):
    w = world
    w.bob.locale = "es-ES"  # alice and the server stay English
    await w.alice.slash(w.chan, "fireandice new", opponent=w.bob)
    await w.dd.settle()
    invite = next(m for m in reversed(w.chan.public_messages) if m.buttons())
    assert not any(b.label and re.search(r"[áéíóúñ¿¡]", b.label) for b in invite.buttons())  # English post
    accept = next(b for b in invite.buttons() if b.label == "Accept")
    await w.bob.click(invite, custom_id=accept.custom_id)
    await w.dd.settle()
    thread = w.thread()
    board = next(m for m in thread.public_messages if m.attachments)
    assert "To move" in board.text  # the server's language, though the Spanish player's click began it

    match = (await w.bot.service.find_here(thread.id, active_only=False))[0]
    rules = GAMES["fireandice"].rules
    state = rules.load(match.rec.state)
    first = next(iter(rules.to_act(state)))
    mover, waiter = (w.alice, w.bob) if match.seats[first].user_id == w.alice.id else (w.bob, w.alice)
    # the player who must wait is told so in their own language
    r = await waiter.slash(thread, "fireandice move", notation="A1-B2")
    r2 = await mover.slash(thread, "fireandice move", notation="not a move")
    assert r.ephemeral and r2.ephemeral
    texts = {waiter.id: (await r.message()).text, mover.id: (await r2.message()).text}
    for user, lang in ((w.alice, "en"), (w.bob, "es")):
        said = texts[user.id]
        if user is waiter:  # "It is not your turn", in the waiting reader's own language
            assert said == _in(lang, "It is not your turn: waiting for {players}.",
                               players=mover.global_name or mover.username), (lang, said)
        spanish = bool(re.search(r"[áéíóúñ¿¡]|\b(es|la|el|no|un|una|de)\b", said))
        assert spanish == (lang == "es"), (lang, said)
    # the board in the thread is still the server's English after both readers' commands
    board = next(m for m in thread.public_messages if m.id == match.rec.message_id)
    assert "To move" in board.text
