"""The Egg Carton Game in Spanish and Brazilian Portuguese: the alt text and text board, the engine's errors
and events, the picture's and the sowing's drawn words (kept per language) and the rules diagram follow the
current language; slot letters (the notation) do not."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.games.base import IllegalMove, InvalidNotation
from bot.games.egg_carton import RULES, ready_sowing, render, sowing_gif, sowings_ahead
from bot.games.egg_carton.describe import alt_text, text_board
from bot.games.egg_carton.render import CARTON_BOX, STRIP_BOTTOM, STRIP_TOP, WIDTH, ZONE_BOXES
from bot.i18n import _ as tr
from bot.i18n import pgettext, speaking
from bot.i18n.documents import read_document
from bot.render import font
from bot.render.callouts import MIN_PX, SHOWN_WIDTH

from .helpers import position

NAMES = ("Alice", "Bob")
LANGS = ("es", "pt_BR")


def _picked(letter: str = "C"):
    """Player 1 picks C from the start: a pick, two relays, and the last marble off the board (pick again)."""
    s = RULES.initial({}, 2)
    before = RULES.view(s, None)
    after, events = RULES.apply(s, 0, RULES.parse(letter, s, 0))
    return before, events, RULES.view(after, None)


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Egg Carton Game, turno 1, Alice (Jugador 1) vuelve a elegir.",
            "Lado de Bob I–N: I 4, J 4, K 0,",
            "Última jugada: Alice recoge 3 canicas de C, una en cada uno de D, E, F. "
            "Relevo: 4 canicas recogidas de F, una en cada uno de la zona final derecha, I, J, K.",
            "La última canica salió del tablero: Alice vuelve a elegir.")),
    ("pt_BR", ("Egg Carton Game, turno 1, Alice (Jogador 1) escolhe de novo.",
               "Lado de Bob I–N: I 4, J 4, K 0,",
               "Última jogada: Alice recolhe 3 bolinhas de C, uma em cada: D, E, F. "
               "Revezamento: 4 bolinhas recolhidas de F, uma em cada: a zona final direita, I, J, K.",
               "A última bolinha saiu do tabuleiro: Alice escolhe de novo.")),
])
def test_alt_text_tells_the_sowing_in_the_readers_language(lang, words):
    _before, _english_events, after = _picked()
    with speaking(lang):  # the move applied for the reader: its events' words are theirs
        _before, events, _after = _picked()
        alt = alt_text(after, NAMES, events)
    assert alt.startswith(words[0]), alt
    for w in words[1:]:
        assert w in alt, alt


@pytest.mark.parametrize(("lang", "line"), [
    ("es", "Fuera del tablero (en las zonas finales): 2 canicas."),
    ("pt_BR", "Fora do tabuleiro (nas zonas finais): 2 bolinhas."),
])
def test_text_board_in_the_readers_language(lang, line):
    _before, _events, after = _picked()
    with speaking(lang):
        board = text_board(after, NAMES, after.picks and [p for p, _n in after.picks])
    assert line in board
    assert "A 0" in board or "A 3" in board  # slot letters and counts as they are


def test_errors_in_the_readers_language_keep_the_slot_letters():
    s = RULES.initial({}, 2)
    with speaking("es"):
        with pytest.raises(IllegalMove) as e:
            RULES.parse("J", s, 0)
        assert str(e.value) == "J está en el lado de tu rival: elige uno de tus huecos, A–F."
        with pytest.raises(IllegalMove, match=r"^A: le toca elegir a Jugador 1, no a ti\.$"):
            RULES.parse("A", s, 1)
        with pytest.raises(InvalidNotation) as e:
            RULES.parse("G", s, 0)
        assert str(e.value) == "No existe el hueco G: los huecos son A–F (jugador 1) e I–N (jugador 2)."
    empty = position("- 3 3 3 3 3", "3 3 3 3 3 3")
    with speaking("pt_BR"):
        with pytest.raises(IllegalMove, match=r"^A está vazia: escolha uma casa sua que tenha bolinhas\.$"):
            RULES.parse("A", empty, 0)
        with pytest.raises(InvalidNotation) as e:
            RULES.parse("AB", s, 0)
        assert str(e.value) == ("Uma casa por jogada: jogue A primeiro. Quando a última bolinha dela sair do "
                                "tabuleiro, você escolhe de novo com uma nova jogada.")


def test_events_and_outcome_in_the_language_of_the_move():
    s = position("- - - - - 1", "3 3 3 3 3 3")  # F's one marble goes off the board: Player 1 wins
    with speaking("es"):
        after, events = RULES.apply(s, 0, RULES.parse("F", s, 0))
        detail = RULES.outcome(after).detail
    assert events[0].text == "Jugador 1 recoge 1 canica de F."
    assert events[-1].text == "¡Jugador 1 vació A–F y gana!"
    assert detail == "Jugador 1 vació A–F."
    _after, events = RULES.apply(s, 0, RULES.parse("F", s, 0))
    assert events[0].text == "Player 1 picks up 1 marble from F."


@pytest.mark.parametrize("lang", LANGS)
def test_the_picture_is_drawn_in_the_readers_language_where_its_words_are(lang):
    """The end zones' label and the strips' status change; the carton's slots, letters and counts do not."""
    _before, events, after = _picked()
    english = render(after, names=NAMES, events=events)
    with speaking(lang):
        other = render(after, names=NAMES, events=events)
    diff = ImageChops.difference(english.convert("RGB"), other.convert("RGB"))
    for x0, y0, x1, _y1 in ZONE_BOXES:
        assert diff.crop((x0, y0, x1, y0 + 44)).getbbox(), "the end zone still says 'off'"
    assert diff.crop(STRIP_BOTTOM).getbbox(), "the mover's strip still says 'picks again'"
    assert not diff.crop(CARTON_BOX).getbbox(), "the carton itself changed"
    assert not diff.crop(STRIP_TOP).getbbox(), "the other strip has no words to translate"


@pytest.mark.parametrize("lang", LANGS)
def test_the_longest_translated_words_fit_the_picture_at_400_px(lang):
    """At 840 px drawn (shown 400 px wide): the end zone's label fits inside its zone, and a strip's side and
    longest status fit beside a short name and the clock with the room the English has, unshortened."""
    scale = SHOWN_WIDTH / WIDTH
    bold = font(24, True)
    x0, _y0, x1, _y1 = STRIP_BOTTOM
    room = (x1 - 120) - (x0 + 14)  # a strip with a clock
    for zone in ZONE_BOXES:
        with speaking(lang):
            label = pgettext("end zone", "off")
        assert bold.getlength(label) + 8 <= zone[2] - zone[0], label
    with speaking(lang):
        statuses = [tr("wins!"), tr("picks again"), tr("to pick"), tr("sowing…")]
    longest = max(statuses, key=bold.getlength)
    line = f"Alice (A–F)  ·  {longest}"
    assert bold.getlength(line) <= room, line
    assert round(24 * scale) >= MIN_PX
    _before, events, after = _picked()
    with speaking(lang):
        img = render(after, names=["W" * 24, "Bob"], events=events, clocks=[61_000, 9_000])
    assert img.size == (WIDTH, img.height)


def _forget_kept() -> None:
    import importlib

    r = importlib.import_module("bot.games.egg_carton.sowing")
    for kept in (r._TILES, r._FRAME_DATA, r._AHEAD, r._READY):
        kept.clear()


def test_sowing_pictures_are_kept_per_language():
    """The sowing GIF is put together from kept pictures of slots, end zones and strips: the Spanish GIF made
    after the English one (its pictures kept) is the Spanish GIF made from nothing, and not the English."""
    before, events, after = _picked()
    _forget_kept()
    english = sowing_gif(before, events, after, names=NAMES, speed="fast")
    with speaking("es"):
        warm = sowing_gif(before, events, after, names=NAMES, speed="fast")
    _forget_kept()
    with speaking("es"):
        cold = sowing_gif(before, events, after, names=NAMES, speed="fast")
    assert warm == cold != english


def test_a_sowing_encoded_ahead_is_taken_only_in_its_language():
    before = _picked()[0]
    s = RULES.initial({}, 2)
    picks = []
    for letter in "ABCDEF":
        nxt, evs = RULES.apply(s, 0, RULES.parse(letter, s, 0))
        picks.append((evs, RULES.view(nxt, None)))
    _forget_kept()
    with speaking("es"):
        for _step in sowings_ahead(before, picks, names=NAMES, speed="fast"):
            pass
    assert ready_sowing(before, *picks[2], names=NAMES, speed="fast") is None  # English: not the Spanish one
    with speaking("es"):
        assert ready_sowing(before, *picks[2], names=NAMES, speed="fast") is not None
    _forget_kept()


def test_the_rules_diagram_is_drawn_per_language():
    from bot.games.egg_carton.diagram import diagram

    english = diagram()
    with speaking("pt_BR"):
        portuguese = diagram()
        assert diagram() is portuguese  # drawn once per language
    assert portuguese is not english and diagram() is english
    assert portuguese.alt.startswith("A caixa de ovos no início")
    assert [t for t, _box in portuguese.labels] == ["1. semeie A → F", "2. fora", "3. depois I → N",
                                                     "4. fora"]
    with speaking("es"):
        spanish = diagram()
    assert [t for t, _box in spanish.labels] == ["1. siembra A → F", "2. fuera", "3. luego I → N", "4. fuera"]
    for d in (spanish, portuguese):
        assert ImageChops.difference(english.image.convert("RGB"), d.image.convert("RGB")).getbbox()
        boxes = [box for _text, box in d.labels]
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            assert 0 <= x0 < x1 <= d.image.width and 0 <= y0 < y1 <= d.image.height
            for b in boxes[i + 1:]:  # the callouts do not cover one another
                assert x1 <= b[0] or b[2] <= x0 or y1 <= b[1] or b[3] <= y0, ((x0, y0, x1, y1), b)


def test_rules_and_summary_documents_in_both_languages():
    for lang in LANGS:
        text = read_document("bot.games.egg_carton", "rules_text.md", lang)
        assert "||D E A B F C F D E||" in text and "`/eggcarton move notation:C`" in text
        assert len(text) <= 4096  # one embed
    assert read_document("bot.games.egg_carton", "summary.md", "es").startswith("Dos jugadores comparten")
