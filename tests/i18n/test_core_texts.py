"""The core's texts in Spanish and Brazilian Portuguese (issue #33): a reply or error in its reader's
language, what goes to a channel in the server's, a DM in its reader's, counted texts with each language's
plural forms, and the worker processes' pictures and words in the language they were asked in."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from discord import app_commands

from bot import i18n
from bot.errors import NotAPlayer
from bot.games.base import Event, GameError, IllegalMove
from bot.i18n import _, language, ngettext, speaking
from bot.matches import replay as replays
from bot.matches.core import ServiceCore
from bot.matches.service import MatchService, Player
from bot.ratings import PROVISIONAL_GAMES, RATING_NOTE, rating_change_text, rating_text
from bot.records import RecordError, loads
from bot.render.describing import clip_lines, fit, legal_lines
from bot.render.text import player_range
from bot.replies import user_message
from bot.review import ReviewJob, classify, kind_text, review
from bot.storage import RatingChange, RatingRow
from bot.storage.sqlite import SqliteStore
from bot.turns import Notice, Turns
from tests.matches.test_replay import pylon_match

GUILD = 9
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


@pytest.fixture
def spanish_server(monkeypatch):
    """Server 9 chose Spanish (``/parlor settings language:``)."""
    monkeypatch.setitem(i18n.prefs.guilds, GUILD, "es")


# -- replies and errors: the reader's language ---------------------------------------------------------------


def test_a_refusal_is_in_its_readers_language():
    error = app_commands.MissingPermissions(["manage_guild"])
    assert user_message(error) == "You need the Manage Server permission for that."
    with speaking("es"):
        assert user_message(error) == "Necesitas el permiso Gestionar servidor para eso."
    with speaking("pt_BR"):
        assert user_message(error) == "Você precisa da permissão Gerenciar servidor para isso."


def test_an_engine_error_lists_the_legal_moves_in_the_readers_language():
    error = IllegalMove("x", legal=[f"m{i}" for i in range(15)])
    with speaking("pt_BR"):
        assert error.user_text().endswith(
            "\nJogadas válidas: m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11 (e mais 3)")
    with speaking("es"):
        assert IllegalMove("x", legal=["a1"]).user_text() == "x\nJugadas legales: a1"


def test_an_error_written_in_another_language_is_said_again_in_its_readers():
    with speaking("es"):  # e.g. made while a move was applied for a Spanish server's channel
        refusal = IllegalMove(_("It is not your turn."), legal=["a1"])
        over = NotAPlayer(_("You are not playing in this match."))
    with speaking("pt_BR"):
        assert refusal.user_text() == "Não é a sua vez.\nJogadas válidas: a1"
        assert user_message(over) == "Você não está jogando nesta partida."


def test_a_records_error_names_the_line_in_the_readers_language():
    with speaking("pt_BR"), pytest.raises(RecordError) as caught:
        loads('[Format "2"]\n')
    assert str(caught.value) == "Linha 1: não leio o formato de registro `2` (leio o formato 1)."
    with speaking("es"), pytest.raises(RecordError) as caught:
        loads('[Format "1"]\n[Game "Chess"]\n')
    assert str(caught.value).startswith("Línea 2: `[Game]` no nombra ningún juego que conozca: `Chess`")


# -- plurals -------------------------------------------------------------------------------------------------


def test_counts_take_each_languages_plural_forms():
    with speaking("es"):
        assert [player_range(1, 1), player_range(2, 2), player_range(2, 4)] == [
            "1 jugador", "2 jugadores", "de 2 a 4 jugadores"]
        assert ngettext("{n} player", "{n} players", 0) == "0 jugadores"  # Spanish: only 1 is singular
        assert clip_lines(["x" * 30] * 3, limit=50).endswith("… (2 líneas más)")
    with speaking("pt_BR"):
        assert [player_range(1, 1), player_range(3, 3)] == ["1 jogador", "3 jogadores"]
        assert ngettext("{n} player", "{n} players", 0) == "0 jogador"  # Brazilian Portuguese: 0 is singular
        assert fit("Head.", ["item one", "item two", "item three"], limit=30) == "Head. item one, e mais 2."
        assert legal_lines(list("ab"), "Ana") == ["Jogadas válidas de Ana (2): a, b."]


def test_ratings_read_in_the_readers_language_with_its_decimal_comma():
    row = RatingRow(1, "pylon", 2, 22.4, 8.07, losses=1, games=1)
    assert rating_text(row) == "−1.8 (provisional, 1 of 5 games)"
    with speaking("es"):
        assert rating_text(row) == "−1,8 (provisional, 1 de 5 partidas)"
    change = RatingChange(2, 1, RatingRow(1, "pylon", 2, 25.0, 25 / 3), row)
    with speaking("pt_BR"):
        assert rating_change_text(change) == "−1,8 (−1,8, provisória, 1 de 5 partidas)"
    assert rating_change_text(change) == "−1.8 (−1.8, provisional, 1 of 5 games)"


def test_the_rating_note_counts_the_provisional_games():
    assert f"first {PROVISIONAL_GAMES} rated games" in RATING_NOTE
    with speaking("es"):
        assert f"{PROVISIONAL_GAMES} primeras partidas puntuables" in _(RATING_NOTE)


# -- the match service: errors for the reader, results for the channel ---------------------------------------


@pytest.fixture
async def service(tmp_path):
    store = SqliteStore(str(tmp_path / "p.sqlite3"))
    await store.open()
    yield MatchService(store, clock=lambda: 1_000_000.0)
    await store.close()


async def test_a_result_is_worded_for_the_server_and_a_refusal_for_the_reader(service, spanish_server):
    m = await service.create("pylon", guild_id=GUILD, channel_id=10, host=ALICE, opponent=BOB,
                             options={"first": "challenger"}, turn_limit=60)
    with speaking("pt_BR"):  # a Brazilian player clicks in a Spanish server
        with pytest.raises(NotAPlayer) as caught:
            await service.accept(m.id, 3)
        assert str(caught.value) == "Só o jogador desafiado pode aceitar."
        await service.accept(m.id, BOB.user_id)
        result = await service.resign(m.id, BOB.user_id)
    assert result.message == "bob abandonó."
    assert result.match.outcome is not None and result.match.outcome.detail == "bob abandonó."


async def test_an_expired_challenge_is_worded_for_its_server(service, spanish_server):
    m = await service.create("pylon", guild_id=GUILD, channel_id=10, host=ALICE, opponent=BOB, options={},
                             turn_limit=60, expires=60)
    service.clock = lambda: 1_000_000.0 + 61
    result = await service.expire(m.id)  # the scheduler: no interaction, English by default
    assert result is not None and result.message == "El desafío caducó: nadie lo aceptó a tiempo."


def test_an_engines_events_are_for_the_channel_and_its_refusals_for_the_player(spanish_server):
    class Rules:
        def apply(self, state, seat, move):
            if move == "bad":
                raise GameError(f"refused in {language()}")
            return state, [Event("move", f"told in {language()}")]

    m = SimpleNamespace(rules=Rules(), state=object(), rec=SimpleNamespace(guild_id=GUILD))
    with speaking("pt_BR"):
        _state, events = ServiceCore._engine_apply(m, 0, "good")  # type: ignore[arg-type]
        with pytest.raises(GameError) as caught:
            ServiceCore._engine_apply(m, 0, "bad")  # type: ignore[arg-type]
    assert events[0].text == "told in es"
    assert str(caught.value) == "refused in pt_BR"


# -- turn notices: the thread in the server's language, a DM in its reader's ---------------------------------


def _match():
    seats = [SimpleNamespace(user_id=1, name="alice"), SimpleNamespace(user_id=2, name="bob")]
    rec = SimpleNamespace(guild_id=GUILD, place_id=11, message_id=12)
    return SimpleNamespace(id=5, seats=seats, rec=rec)


def test_a_ping_is_in_the_servers_language_and_a_dm_in_its_readers(spanish_server):
    m = _match()
    with speaking("pt_BR"):  # whoever's action it was
        assert Turns.ping_text(m, [1], "Pylon") == "<@2> tu turno."  # type: ignore[arg-type]
        dm = Turns.dm_text(m, "Pylon")  # type: ignore[arg-type]
        notice = Turns.dm_text(m, "Nomic World", notice=Notice("votar", "https://x"))  # type: ignore[arg-type]
    assert dm == ("Sua vez em **Pylon #5** (alice vs bob): "
                  "[ir ao tabuleiro](https://discord.com/channels/9/11/12)")
    assert notice == "Votar em **Nomic World #5** (alice vs bob): [ir até lá](https://x)"


# -- the review and the whole-game GIF: made elsewhere, in the language they were asked in -------------------


def test_the_reviews_words_follow_the_language_it_was_asked_in(monkeypatch):
    with speaking("es"):
        assert classify(0.0, -10_000.0, None, 1000.0) == ("blunder", "evita la derrota forzada")
        assert kind_text("blunder") == "error grave"
        job = ReviewJob("eggcarton", (), None)  # made in a Spanish reader's click
    assert job.lang == "es"
    seen = []
    monkeypatch.setattr("bot.review._egg_carton", lambda j: seen.append(language()))
    review(job)  # in the worker process: nothing of the bot's context but the job
    assert seen == ["es"]


def test_the_gif_is_drawn_in_the_language_it_was_asked_in(monkeypatch):
    with speaking("pt_BR"):
        job = replays.GifJob(pylon_match().rec, (), 0, None, ())
    seen = []
    monkeypatch.setattr(replays, "_make_gif", lambda j: seen.append(language()))
    replays.make_gif(job)
    assert job.lang == "pt_BR" and seen == ["pt_BR"]


def test_a_replay_is_kept_per_language():
    match = SimpleNamespace(id=424242, version=3)
    built = replays.Replay(match.id, match.version, ())
    with speaking("es"):
        replays.keep(built)
        assert replays.kept(match) is built  # type: ignore[arg-type]
    assert replays.kept(match) is None  # type: ignore[arg-type]  (its events are worded in Spanish)
