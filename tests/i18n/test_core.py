"""The catalog machinery (bot/i18n): look-up, fallback, plurals, numbers, the pseudo-locale, languages."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.i18n import N_, _, format_number, ngettext, public, speaking
from bot.i18n.catalogs import catalog, discord_language
from bot.i18n.pseudo import pseudo, unpseudo, untranslated


def test_english_is_the_source_and_formats_its_placeholders():
    assert _("Your move, {name}.", name="Ana") == "Your move, Ana."
    assert N_("kept for later") == "kept for later"


def test_a_text_missing_from_a_catalog_falls_back_to_english_per_string():
    with speaking("es"):
        assert _("A sentence no catalog has, {x}.", x=1) == "A sentence no catalog has, 1."
    with speaking("xx"):  # a language with no catalog at all
        assert _("Still English.") == "Still English."


def test_a_translation_with_a_wrong_placeholder_gives_the_english(monkeypatch):
    monkeypatch.setitem(catalog("es"), (None, "Hello {name}."), "Hola {nombre}.")
    with speaking("es"):
        assert _("Hello {name}.", name="Ana") == "Hello Ana."
    monkeypatch.setitem(catalog("es"), (None, "Hello {name}."), "Hola {name}.")
    with speaking("es"):
        assert _("Hello {name}.", name="Ana") == "Hola Ana."


def test_plural_forms_follow_each_languages_rules(monkeypatch):
    assert ngettext("{n} game", "{n} games", 1) == "1 game"
    assert ngettext("{n} game", "{n} games", 0) == "0 games"
    monkeypatch.setitem(catalog("pt_BR"), (None, "{n} game"), ("{n} partida", "{n} partidas"))
    monkeypatch.setitem(catalog("es"), (None, "{n} game"), ("{n} partida", "{n} partidas"))
    with speaking("pt_BR"):  # Brazilian Portuguese: 0 and 1 are singular
        assert ngettext("{n} game", "{n} games", 0) == "0 partida"
        assert ngettext("{n} game", "{n} games", 2) == "2 partidas"
    with speaking("es"):  # Spanish: only 1 is singular
        assert ngettext("{n} game", "{n} games", 0) == "0 partidas"
        assert ngettext("{n} game", "{n} games", 1) == "1 partida"


def test_numbers_are_written_the_languages_way():
    assert format_number(1234567) == "1,234,567"
    with speaking("es"):
        assert format_number(1234567) == "1.234.567"
    with speaking("pt_BR"):
        assert format_number(12345.5) == "12.345,5"
    with speaking("es"):
        assert ngettext("{n} point", "{n} points", 12345) == "12.345 points"  # English text, Spanish number


def test_discord_locales_map_to_parlors_languages():
    assert discord_language("es-ES") == discord_language("es-419") == "es"
    assert discord_language("pt-BR") == "pt_BR"
    assert discord_language("en-GB") == discord_language("de") == "en"
    assert discord_language(None) is None


def test_the_interaction_sets_the_readers_and_the_servers_language():
    i18n.prefs.clear()
    try:
        i18n.enter_interaction({"locale": "pt-BR", "guild_locale": "es-ES", "guild_id": "5",
                                "member": {"user": {"id": "7"}}})
        assert i18n.language() == "pt_BR"
        with public():
            assert i18n.language() == "es"
        assert i18n.language_of_user(7) == "pt_BR"
        assert i18n.language_of_guild(5) == "es"
        i18n.prefs.users[7] = "en"  # the player's own setting wins over Discord's locale
        i18n.prefs.guilds[5] = "pt_BR"  # the admins' over the server's Discord locale
        i18n.enter_interaction({"locale": "pt-BR", "guild_locale": "es-ES", "guild_id": "5",
                                "member": {"user": {"id": "7"}}})
        assert i18n.language() == "en"
        with public(5):
            assert i18n.language() == "pt_BR"
    finally:
        i18n.prefs.clear()
        i18n._language.set("en")
        i18n._public.set(None)


@pytest.mark.parametrize("text", [
    "Your move, {name}: type `F6-C6` or **click**.",
    "# Heading\n- a list · with a dot\n<@123> <:e:1> https://x.y/z",
    "Ünïcode stays? ½ · —",
])
def test_the_pseudo_locale_is_reversible_and_keeps_what_discord_parses(text):
    p = pseudo(text)
    assert p != text and p.startswith("⟦") and p.endswith("⟧")
    assert unpseudo(p) == text
    assert "`F6-C6`" in p or "F6" not in text
    assert untranslated(p) == []


def test_the_pseudo_locale_finds_english_outside_the_catalog():
    assert untranslated(pseudo("Looked up") + " but not this") == ["but not this"]


def test_a_looked_up_text_can_be_said_again_in_another_language(monkeypatch):
    monkeypatch.setitem(catalog("es"), (None, "No piece on {square}."), "No hay pieza en {square}.")
    monkeypatch.setitem(catalog("es"), (None, "{n} game"), ("{n} partida", "{n} partidas"))
    from bot.i18n import again

    with public(None):  # made for the channel (English) ...
        refusal = _("No piece on {square}.", square="c3")
        count = ngettext("{n} game", "{n} games", 3)
    with speaking("es"):  # ... told to a Spanish reader
        assert again(refusal) == "No hay pieza en c3."
        assert again(count) == "3 partidas"
        assert again("plain text") == "plain text"
    assert refusal == "No piece on c3." and isinstance(refusal, str)


def test_a_text_without_placeholders_is_made_once_per_language_and_a_catalog_change_is_seen(monkeypatch):
    monkeypatch.setitem(catalog("es"), (None, "Kept once."), "Guardado una vez.")
    with speaking("es"):
        first = _("Kept once.")
        assert first == "Guardado una vez." and _("Kept once.") is first  # no new object on a move's path
    assert _("Kept once.") == "Kept once."  # each language its own
    monkeypatch.setitem(catalog("es"), (None, "Kept once."), "Otra vez.")  # (a test's patch, a reload)
    with speaking("es"):
        assert _("Kept once.") == "Otra vez."
        from bot.i18n import again
        with speaking("en"):
            assert again(first) == "Kept once."


def test_speaking_nests_and_restores_the_language_even_when_it_is_already_current():
    with speaking("es"):
        with speaking("es"), speaking(None):
            assert i18n.language() == "es"
        with public(None):
            assert i18n.language() == "en"
            with speaking("pt_BR"):
                assert i18n.language() == "pt_BR"
            assert i18n.language() == "en"
        assert i18n.language() == "es"
    assert i18n.language() == "en"
