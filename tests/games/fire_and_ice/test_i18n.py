"""Fire and Ice in Spanish and Brazilian Portuguese: the alt text and text board, the engine's errors and
events, the picture's drawn words and the rules diagram follow the current language; notation does not."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.games.base import IllegalMove, InvalidNotation
from bot.games.fire_and_ice import render
from bot.games.fire_and_ice.describe import alt_text, text_board
from bot.games.fire_and_ice.render import HEADER, NUMBER_FONT, STATUS_GAP, WIDTH, header_layout
from bot.games.fire_and_ice.rules import RULES, make_view
from bot.i18n import speaking
from bot.render import font
from tests.games.fire_and_ice.util import position

OPENING = ("D4-A4", "D4-D1", "A4-A1")


def opened():
    s = RULES.initial({}, 2)
    events = []
    for text in OPENING:
        seat = next(iter(RULES.to_act(s)))
        s, events = RULES.apply(s, seat, RULES.parse(text, s, seat))
    return s, events


def won():
    """Fire holds A (1-4-6), D (1-2-5) and F (1-3-7): the line of islands A-D-F."""
    return position({"A": "F--F-F-", "D": "FF--F--", "F": "F-F---F", "B": "I-I-I--"}, to_move=1, ply=9,
                    last="F3-F1")


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Fire and Ice, jugada 4, turno de Bob (Hielo).", "Isla A: 1 Fuego",
            "Última jugada: Alice movió A4 a A1 y apareció una pieza de Hielo en A4.",
            "Alice (Fuego): 2 en el tablero, 23 en reserva.")),
    ("pt_BR", ("Fire and Ice, jogada 4, vez de Bob (Gelo).", "Ilha A: 1 Fogo",
               "Última jogada: Alice moveu A4 para A1 e uma peça de Gelo apareceu em A4.",
               "Alice (Fogo): 2 no tabuleiro, 23 na reserva.")),
])
def test_text_board_and_alt_text_in_the_readers_language(lang, words):
    s, _events = opened()
    view = RULES.view(s, None)
    with speaking(lang):
        board = text_board(view, ["Alice", "Bob"])
        alt = alt_text(view, ["Alice", "Bob"])
    for w in words:
        assert w in board
    assert words[0] in alt and words[2] in alt
    assert "A4-A2" in text_board(view, ["Alice", "Bob"], view.legal)  # notation stays as typed


def test_game_over_and_island_control_in_spanish():
    view = RULES.view(won(), None)
    with speaking("es"):
        alt = alt_text(view, ["Alice", "Bob"])
        detail = view.detail_text()
    assert alt.startswith("Fire and Ice, partida terminada: gana Alice (Fuego) con las islas A-D-F.")
    assert "A (la controla Alice, línea 1-4-6)" in alt
    assert detail == "Fuego controla A, D y F"
    with speaking("pt_BR"):
        assert view.detail_text() == "Fogo controla A, D e F"
    assert view.detail_text() == "Fire controls A, D and F"


def test_the_rules_words_follow_the_reader_not_the_language_the_view_was_built_in():
    with speaking("es"):
        view = make_view(RULES.initial({}, 2))
    assert view.detail == "Turno de Fuego"  # built in Spanish (a view is kept per state, not per language)
    assert view.detail_text() == "Fire to move"
    with speaking("pt_BR"):
        assert view.detail_text() == "Vez de Fogo"


@pytest.mark.parametrize(("lang", "said"), [
    ("es", "No se puede jugar D4-D4: una pieza tiene que moverse a otro punto."),
    ("pt_BR", "Não dá para jogar D4-D4: a peça precisa ir para outro ponto."),
])
def test_illegal_moves_are_explained_in_the_readers_language(lang, said):
    s = RULES.initial({}, 2)
    with speaking(lang), pytest.raises(IllegalMove) as e:
        RULES.parse("D4-D4", s, 0)
    assert str(e.value) == said


def test_errors_keep_the_notation_and_the_plural_rules():
    s = RULES.initial({}, 2)
    with speaking("es"):
        with pytest.raises(IllegalMove, match="Es el turno de Fuego, no de Hielo"):
            RULES.parse("D4-D1", s, 1)
        with pytest.raises(IllegalMove, match=r"tiene 12 jugadas legales\.$"):
            RULES.parse("pass", s, 0)
        with pytest.raises(IllegalMove, match=r"A1 está ocupado \(hay una pieza de Fuego\)"):
            RULES.parse("A4-A1", opened()[0], 1)
    with speaking("pt_BR"):
        with pytest.raises(InvalidNotation) as e:
            RULES.parse("H9-A1", s, 0)
        assert str(e.value) == "'H9' não é um ponto: não existe a ilha H (as ilhas são A–G)."
        with pytest.raises(InvalidNotation) as e:
            RULES.parse("", s, 0)
        assert str(e.value) == ("Jogada vazia. Escreva uma jogada como origem-destino, por exemplo F6-C6 "
                                "(ilha A–G, posição 1–7).")


def test_events_in_the_language_of_the_move():
    s = RULES.initial({}, 2)
    with speaking("pt_BR"):
        _state, events = RULES.apply(s, 0, RULES.parse("D4-A4", s, 0))
    assert events[0].text == "Fogo D4-A4; uma peça de Gelo aparece em D4."
    _state, events = RULES.apply(s, 0, RULES.parse("D4-A4", s, 0))
    assert events[0].text == "Fire D4-A4; an Ice piece appears on D4."


def test_spanish_labels_are_drawn_and_only_the_header_changes():
    s, events = opened()
    view = RULES.view(s, None)
    english = render(view, names=["Alice", "Bob"], events=events)
    with speaking("es"):
        spanish = render(view, names=["Alice", "Bob"], events=events)
    diff = ImageChops.difference(english.convert("RGB"), spanish.convert("RGB")).getbbox()
    assert diff is not None, "the Spanish picture has the English words"
    assert diff[3] <= HEADER, f"only the header's words differ, not the board ({diff})"


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
@pytest.mark.parametrize("case", ["playing", "chosen", "handicap", "won"])
def test_translated_header_fits_where_the_english_fits_at_400_px(lang, case):
    """At 900 px drawn (shown 400 px wide) the status row stays inside the picture and each side's counts
    line is whole (not shortened with …), with a turn clock of hours."""
    selected = None
    if case == "playing":
        view = RULES.view(opened()[0], None)
    elif case == "chosen":
        view, selected = RULES.view(opened()[0], None), "A4"
    elif case == "handicap":
        view = RULES.view(RULES.initial({"handicap": "6"}, 2), None)
    else:
        view = RULES.view(won(), None)
    clocks = (23 * 3600_000 + 59 * 60_000, 61_000)
    with speaking(lang):
        layout = header_layout(view, ["Alice", "Bob"], clocks, selected)
        img = render(view, names=["Alice", "Bob"], clocks=clocks, selected=selected)
    assert layout.centre[0] >= 0 and layout.centre[1] <= WIDTH, layout
    for side in layout.sides:
        assert "…" not in side.counts, side.counts
    small, big = font(NUMBER_FONT), font(26, bold=True)
    assert big.getlength(layout.status) + small.getlength(STATUS_GAP + layout.sub) <= WIDTH - 16
    assert img.size == (WIDTH, img.size[1])


def test_the_rules_diagram_is_drawn_per_language():
    from bot.games.fire_and_ice.diagram import diagram

    english = diagram()
    with speaking("es"):
        spanish = diagram()
        assert diagram() is spanish  # drawn once per language
    assert spanish is not english and diagram() is english
    assert spanish.alt.startswith("El tablero de Fire and Ice: siete islas triangulares")
    assert ImageChops.difference(english.image.convert("RGB"), spanish.image.convert("RGB")).getbbox()
    texts = [text for text, _box in spanish.labels]
    assert texts == ["una línea: A-D-F", "puntos 1–7", "7 islas, de A a G"]
    boxes = [box for _text, box in spanish.labels]
    for i, a in enumerate(boxes):  # the callouts do not cover one another
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
