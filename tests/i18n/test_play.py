"""Issue 33, the game screens' own texts (cogs/_game, bot/lessons/core.py) in Spanish and Portuguese: the
words around a lesson's answer, the times and dates of lists, the alt text's "Last:" that turn notices
read back, and the footer tag that finds old boards in any language."""

from __future__ import annotations

from bot.i18n import speaking
from bot.lessons import LESSONS, check
from cogs._game.base import human_seconds, match_tag, match_tags
from cogs._game.describe import last_in_words
from cogs._game.replay import ago, kind_words


def test_times_are_counted_in_each_language():
    assert human_seconds(300) == "5 minutes" and human_seconds(86400) == "1 day"
    with speaking("es"):
        assert human_seconds(300) == "5 minutos" and human_seconds(86400) == "1 día"
        assert human_seconds(3 * 3600) == "3 horas" and human_seconds(30) == "30 segundos"
    with speaking("pt_BR"):
        assert human_seconds(60) == "1 minuto" and human_seconds(259200) == "3 dias"


def test_a_lists_days_and_review_words_are_translated():
    assert ago(0, 4 * 86400) == "4 days ago"
    with speaking("es"):
        assert (ago(0, 3600), ago(0, 90000), ago(0, 4 * 86400)) == ("hoy", "ayer", "hace 4 días")
        assert kind_words("blunder") == "error grave"
    with speaking("pt_BR"):
        assert (ago(0, 3600), ago(0, 90000), ago(0, 4 * 86400)) == ("hoje", "ontem", "há 4 dias")
        assert kind_words("inaccuracy") == "imprecisão"


def test_a_lessons_answer_to_a_wrong_try_is_in_the_learners_language():
    lesson = LESSONS["pylon"]
    step = lesson.steps[0]
    english = check(lesson, 0, step.wrong)
    assert not english.ok and "is legal, but not what this step asks" in english.message
    with speaking("es"):
        wrong = check(lesson, 0, step.wrong)
        assert "es legal, pero no es lo que pide este paso" in wrong.message
        unreadable = check(lesson, 0, "zz9")
        assert unreadable.message.startswith("No del todo: ")
    with speaking("pt_BR"):
        assert "é válida, mas não é o que este passo pede" in check(lesson, 0, step.wrong).message


def test_the_last_move_is_found_in_the_alt_text_of_its_language_or_in_english():
    with speaking("es"):
        alt = "Pylon, turno de Bob. Última jugada: Alice jugó c3."
        assert last_in_words(alt) == "Última jugada: Alice jugó c3."
        assert last_in_words("Pylon. Last: Alice played c3.") == "Last: Alice played c3."  # untranslated game
    with speaking("pt_BR"):
        assert last_in_words("Pylon. Última jogada: Alice jogou c3.") == "Última jogada: Alice jogou c3."


def test_a_boards_footer_tag_is_known_in_every_language():
    with speaking("es"):
        assert match_tag(12) == "Partida #12"
    assert set(match_tags(12)) == {"Match #12 ·", "Partida #12 ·"}


def test_spanish_says_e_not_y_before_the_sound_i():
    from bot.render.text import in_words

    assert in_words(["Ana", "Isabel"]) == "Ana and Isabel"
    with speaking("es"):
        assert in_words(["Ana", "Bea", "Isabel"]) == "Ana, Bea e Isabel"
        assert in_words(["Ana", "hilda"]) == "Ana e hilda" and in_words(["Ana", "Íñigo"]) == "Ana e Íñigo"
        assert in_words(["Ana", "Hielo"]) == "Ana y Hielo" and in_words(["Isabel", "Ana"]) == "Isabel y Ana"
        assert in_words(["Ana", "\\*Iris"]) == "Ana e \\*Iris"  # a name as shown (markdown escaped)
    with speaking("pt_BR"):
        assert in_words(["Ana", "Isabel"]) == "Ana e Isabel"
