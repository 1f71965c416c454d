"""Languages end to end (issue 33): a player's own language (/language), the server's language for its
channels (/parlor settings language:, else its Discord community language), both kept across a restart."""

import pytest

from bot import i18n

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def _forget_languages():
    """The chosen languages live in bot.i18n.prefs (per process): leave none behind for other tests."""
    yield
    i18n.prefs.clear()


async def test_a_player_chooses_spanish_and_reads_parlor_in_it_until_back_on_automatic(world):
    w = world
    r = await w.alice.slash(w.chan, "language", language="es")
    said = (await r.message()).text
    assert r.ephemeral and said.startswith("Ahora Parlor te habla en Español")
    r = await w.alice.slash(w.chan, "matches")  # every reply only she sees
    assert r.ephemeral and "No hay partidas activas aquí" in (await r.message()).text
    r = await w.bob.slash(w.chan, "matches")  # others keep their own
    assert "No active matches here" in (await r.message()).text
    assert await w.bot.store.user_languages() == {w.alice.id: "es"}

    await w.restart()  # read back from the database
    r = await w.alice.slash(w.chan, "language")
    assert "Parlor te habla en Español (lo elegiste tú)" in (await r.message()).text
    r = await w.alice.slash(w.chan, "help")
    assert (await r.message()).embed.title == "Parlor: juegos de mesa en tu servidor"

    r = await w.alice.slash(w.chan, "language", language="auto")  # her Discord is in English
    assert (await r.message()).text.startswith("Parlor now follows your Discord language: English")
    r = await w.alice.slash(w.chan, "matches")
    assert "No active matches here" in (await r.message()).text
    assert await w.bot.store.user_languages() == {}


async def test_a_discord_client_in_portuguese_gets_portuguese_without_choosing(world):
    w = world
    ana = w.dd.create_user("ana", locale="pt-BR")
    w.guild.add_member(ana)
    r = await ana.slash(w.chan, "matches")
    assert "Nenhuma partida ativa aqui" in (await r.message()).text
    r = await ana.slash(w.chan, "language")
    said = (await r.message()).text
    assert "O Parlor segue o idioma do seu Discord: por enquanto, Português do Brasil" in said


async def test_an_admin_chooses_the_servers_language_for_its_posts(world):
    w = world
    r = await w.admin.slash(w.chan, "parlor settings", language="es")
    msg = await r.message()
    assert r.ephemeral and msg.embed.footer == "Saved."
    assert msg.embed.field("Language") == "Español (chosen by an admin)"
    r = await w.admin.slash(w.chan, "tournament new", game="pylon")  # a post in the channel: Spanish
    signup = await r.message()
    assert not r.ephemeral and signup.embed.title == "Torneo n.º 1: Pylon"
    assert signup.button_labels() == ["Unirme", "Salir", "Empezar (organizador)"]
    r = await w.alice.slash(w.chan, "tournament list")  # what only alice reads stays in her language
    assert r.ephemeral and "sign-up open" in (await r.message()).text

    await w.restart()
    await w.bob.click(signup, "Unirme")  # the sign-up post is redrawn after the restart: still Spanish
    assert "Jugadores (1)" in signup.text and "bob" in signup.text
    assert await w.bot.store.guild_languages() == {w.guild.id: "es"}

    r = await w.admin.slash(w.chan, "parlor settings", language="auto")  # the server's Discord language
    assert (await r.message()).embed.field("Language") == "English (automatic: the server's Discord language)"
    await w.carol.click(signup, "Unirme")
    assert "Players (2)" in signup.text and signup.button_labels()[0] == "Join"


async def test_the_servers_discord_language_is_followed_until_an_admin_chooses(world):
    w = world
    w.guild.set_locale("pt-BR")  # Server Settings → Community: GUILD_UPDATE
    await w.dd.settle()
    assert i18n.prefs.seen_guilds[w.guild.id] == "pt_BR"
    await w.restart()  # announced again when the bot connects
    assert i18n.prefs.seen_guilds[w.guild.id] == "pt_BR"
    r = await w.admin.slash(w.chan, "tournament new", game="pylon")
    signup = await r.message()
    assert signup.embed.title == "Torneio nº 1: Pylon" and "Entrar" in signup.button_labels()
    r = await w.admin.slash(w.chan, "parlor settings")  # the admin reads his own language: English
    field = (await r.message()).embed.field("Language")
    assert field == "Português do Brasil (automatic: the server's Discord language)"
    await w.admin.slash(w.chan, "parlor settings", language="en")
    await w.alice.click(signup, "Entrar")
    assert signup.embed.title == "Tournament #1: Pylon" and "Players (1)" in signup.text


def test_the_areas_texts_are_written_in_the_readers_language():
    from bot.i18n import speaking
    from bot.i18n.pseudo import unpseudo as read  # the same words in the pseudo-locale run
    from bot.storage import ComputerResult
    from cogs.leaderboard import computer_records
    from cogs.matches import render
    from cogs.tournament.signup import names_that_fit, swiss_rounds_text

    results = [ComputerResult("pylon", "easy", 0, {"ranks": r, "reason": "normal"}) for r in ([0, 1], [1, 0])]
    with speaking("pt_BR"):
        assert [read(x) for x in computer_records(results)] == ["Pylon: 2 partidas · 1V 1D 0E (easy)"]
        assert read(swiss_rounds_text(None, 4)) == "3 rodadas para 4 jogadores (aumenta com as inscrições)"
    with speaking("es"):
        shown = read(names_that_fit(["ann", "bo", "cyd", "dee"], limit=15))
        assert shown in ("ann, bo y 2 más", "ann y 3 más")  # the pseudo-locale's longer text fits one less
        assert read(render([("Tu turno", ["m" * 100] * 3)], limit=250)).endswith(
            "… y 1 partida más sin listar: abre los canales de juego del servidor para verla.")
    assert [read(x) for x in computer_records(results)] == ["Pylon: 2 games · 1W 1L 0D (easy)"]  # elsewhere
