"""Pylon in Spanish and Brazilian Portuguese: the alt text and text board, the engine's errors and events,
the picture's drawn words and the rules diagram follow the current language; notation does not."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import ImageChops

from bot.games.base import IllegalMove, InvalidNotation
from bot.games.pylon.describe import alt_text, text_board
from bot.games.pylon.render import BOARD_W, HEADER, MARGIN_X, PANEL_TOP, headline_lines, render
from bot.games.pylon.rules import RULES
from bot.i18n import _ as tr
from bot.i18n import ngettext, speaking
from bot.i18n.documents import read_document
from bot.render import font
from bot.render.callouts import MIN_PX, SHOWN_WIDTH
from tests.games.pylon.helpers import full_board, play_all, position

NAMES = ("Alice", "Bob")
LANGS = ("es", "pt_BR")


def _placing():
    """Red placed a large on c3; Bob (Blue) is to place, 29 pyramids left."""
    s = RULES.initial({}, 2)
    return RULES.apply(s, 0, RULES.parse("L c3", s, 0))


def _agreed_end():
    """Both agreed after three stackings: Blue wins 16–14 by agreement."""
    s = play_all(full_board(), "a1-a2", "b1-b2", "d1-d2")
    return RULES.view(dataclasses.replace(s, agreed=(True, True)), None)


def _over():
    """No stacking is left: Blue tops 6 stacks and wins 12–6."""
    s = position({"a1": "R3 R2 B1", "c1": "B3 B2 B1 R1", "e1": "B3", "a3": "R3", "c3": "B2", "e3": "B3 B1",
                  "a5": "R1", "c5": "B2 B1", "e5": "B3 B3 B1"})
    return RULES.view(s, None)


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Pylon, fase de colocación, coloca Bob (Azul); quedan 29 pirámides por colocar.",
            "Última jugada: Alice colocó una pirámide grande en c3.",
            "Fila 3: a3 vacía; b3 vacía; c3 Alice grande;",
            "Bob (Azul): puntuación 0; por colocar: pequeñas 5, medianas 5, grandes 5.")),
    ("pt_BR", ("Pylon, fase de colocação, vez de Bob (Azul) colocar; faltam 29 pirâmides para colocar.",
               "Última jogada: Alice colocou uma pirâmide grande em c3.",
               "Linha 3: a3 vazia; b3 vazia; c3 Alice grande;",
               "Alice (Vermelho): pontuação 1; a colocar: pequenas 5, médias 5, grandes 4.")),
])
def test_text_board_and_alt_text_in_the_readers_language(lang, words):
    s, events = _placing()
    view = RULES.view(s, None)
    with speaking(lang):
        board = text_board(view, NAMES, view.legal)
        alt = alt_text(view, NAMES, events)
    for w in words:
        assert w in board, board
    assert alt.startswith(words[0]) and words[1] in alt
    stacking = RULES.view(position({"a1": "R1", "b1": "B3 B2", "e5": "R3"}), None)
    with speaking(lang):
        assert "a1-b1" in text_board(stacking, NAMES, stacking.legal)  # the legal moves stay in notation


def test_game_over_and_stacks_in_the_readers_language():
    view = _agreed_end()
    with speaking("es"):
        alt = alt_text(view, NAMES)
    assert alt.startswith("Pylon, partida terminada de mutuo acuerdo: gana Bob (Azul), 16 a 14.")
    assert "Bob está en la cima de" in alt and "2 de alto, pequeña arriba" in alt
    with speaking("pt_BR"):
        alt = alt_text(_over(), NAMES)
    assert alt.startswith("Pylon, partida encerrada: Bob (Azul) vence, 12 a 6.")
    assert "Bob está no topo de 6 pilhas, pontuação 12:" in alt


@pytest.mark.parametrize(("lang", "said"), [
    ("es", "c3-c4: el apilamiento empieza cuando estén colocadas las 30 pirámides (faltan 29 por colocar)."),
    ("pt_BR", "c3-c4: o empilhamento começa quando as 30 pirâmides estiverem colocadas "
              "(faltam 29 para colocar)."),
])
def test_illegal_moves_are_explained_in_the_readers_language(lang, said):
    s, _events = _placing()
    with speaking(lang), pytest.raises(IllegalMove) as e:
        RULES.parse("c3-c4", s, 1)
    assert str(e.value) == said
    assert e.value.legal  # the legal moves still come along, in notation


def test_errors_keep_the_notation_sizes_and_sides():
    s, _events = _placing()
    with speaking("es"):
        with pytest.raises(IllegalMove, match=r"^M c3: c3 está ocupada por una pirámide grande de Rojo; "):
            RULES.parse("M c3", s, 1)
        with pytest.raises(IllegalMove, match=r"^L a1: es el turno de Azul, no de Rojo\.$"):
            RULES.parse("L a1", s, 0)
        with pytest.raises(InvalidNotation) as e:
            RULES.parse("c9", s, 1)
        assert str(e.value) == ("'c9' no es una jugada de Pylon: coloca con un tamaño y una casilla "
                                "(`L c3`, `3c3`), apila con dos casillas (`c3-c4`) o escribe `agree`.")
    stacking = position({"a1": "R1", "b1": "B3", "c1": "R2"})
    with speaking("pt_BR"):
        with pytest.raises(IllegalMove) as e:
            RULES.parse("b1-c1", stacking, stacking.to_move)
        assert str(e.value) == ("b1-c1: uma pilha não pode ir para cima de uma pirâmide menor: base 3 > "
                                "topo 2.")
        with pytest.raises(InvalidNotation, match=r"^a1 W sairia do tabuleiro$"):
            RULES.parse("a1 W", stacking, stacking.to_move)


def test_events_in_the_language_of_the_move():
    s = RULES.initial({}, 2)
    with speaking("pt_BR"):
        _state, events = RULES.apply(s, 0, RULES.parse("L c3", s, 0))
    assert events[0].text == "Vermelho coloca uma pirâmide grande em c3."
    _state, events = RULES.apply(s, 0, RULES.parse("L c3", s, 0))
    assert events[0].text == "Red places a large pyramid on c3."
    s = position({"a1": "R1", "b1": "B3 B2", "e5": "R3"})
    with speaking("es"):
        _state, events = RULES.apply(s, s.to_move, RULES.parse("a1-b1", s, s.to_move))
    assert events[0].text == ("Rojo mueve a1 sobre b1: una pila de 3 coronada por una pirámide pequeña de "
                              "Rojo (Rojo le quita 2 a Azul).")


@pytest.mark.parametrize("lang", LANGS)
def test_the_picture_is_drawn_in_the_readers_language_where_its_words_are(lang):
    """The headline and the panels' status words change; the board between them does not."""
    view = _over()
    english = render(view, names=NAMES)
    with speaking(lang):
        other = render(view, names=NAMES)
    diff = ImageChops.difference(english.convert("RGB"), other.convert("RGB"))
    assert diff.crop((0, 0, english.width, HEADER)).getbbox(), "the headline is still English"
    panels = diff.crop((0, PANEL_TOP, english.width, english.height)).getbbox()
    assert panels, "the panels' words are still English"
    assert not diff.crop((0, HEADER, english.width, PANEL_TOP)).getbbox(), "the board itself changed"


def _panel_texts(view):
    """The panels' status lines as drawn (with a two-digit count of stacks), in the current language."""
    texts = []
    for seat in (0, 1):
        tops = sum(1 for st in view.board if st and st[-1][0] == seat)
        status = ngettext("on top of {n} stack", "on top of {n} stacks", max(tops, 15))
        texts += [status, tr("winner · {status}", status=status), tr("✓ agreed to end")]
    return texts


@pytest.mark.parametrize("lang", LANGS)
def test_the_longest_translated_words_fit_the_picture_at_400_px(lang):
    """At 720 px drawn (shown 400 px wide): every headline fits the board's width in one or two lines, with
    the longest names; a panel's status line (two-digit counts, winner) fits inside its panel where the
    English one does, and no drawn text is smaller than the callouts' minimum once shown."""
    gap = 16
    room = (BOARD_W - gap) // 2 - 20 - 4  # from the panel's text start to inside its border
    scale = SHOWN_WIDTH / (2 * MARGIN_X + BOARD_W)
    for view in (_agreed_end(), _over(), RULES.view(RULES.initial({}, 2), None)):
        english_panel = max(font(21).getlength(t) for t in _panel_texts(view))
        for names in (NAMES, ("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Parlor (medium)")):
            with speaking(lang):
                lines = headline_lines(view, names)
                panel = max(font(21).getlength(t) for t in _panel_texts(view))
            for text, size in lines:
                assert font(size, bold=True).getlength(text) <= BOARD_W, (text, size)
                assert round(size * scale) >= MIN_PX, size  # 20 px drawn shows as 11 px
            assert len(lines) <= 2
        assert panel <= max(room, english_panel), (lang, panel, room)


def test_the_headline_keeps_the_result_and_the_reason_in_spanish():
    with speaking("es"):
        assert headline_lines(_agreed_end(), NAMES) == [("Gana Bob 16–14 · de mutuo acuerdo", 28)]
        placing = RULES.view(_placing()[0], None)
        assert headline_lines(placing, NAMES) == [("Coloca Bob · quedan 29 pirámides", 28)]
    with speaking("pt_BR"):
        lines = headline_lines(_agreed_end(), ("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Parlor (medium)"))
    assert "vence 16–14" in lines[0][0] and lines[-1][0].endswith("por acordo")


def test_default_names_are_the_sides_in_the_readers_language():
    view = RULES.view(_placing()[0], None)
    with speaking("pt_BR"):
        assert headline_lines(view, ("Vermelho", "Azul"))[0][0].startswith("Azul coloca")
        translated = render(view)
        named = render(view, names=("Vermelho", "Azul"))
    assert translated.tobytes() == named.tobytes()


def test_the_rules_diagram_is_drawn_per_language():
    from bot.games.pylon.diagram import diagram

    english = diagram()
    with speaking("es"):
        spanish = diagram()
        assert diagram() is spanish  # drawn once per language
    with speaking("pt_BR"):
        portuguese = diagram()
    assert spanish is not english and diagram() is english
    assert spanish.alt.startswith("Un tablero de Pylon tras las 30 colocaciones")
    assert [t for t, _box in spanish.labels] == ["Rojo arriba: suma 3", "una pila de 3"]
    assert [t for t, _box in portuguese.labels] == ["Vermelho no topo: marca 3", "uma pilha de 3"]
    for d in (spanish, portuguese):
        assert ImageChops.difference(english.image.convert("RGB"), d.image.convert("RGB")).getbbox()
        for _text, (x0, y0, x1, y1) in d.labels:  # each callout whole inside the picture
            assert 0 <= x0 < x1 <= d.image.width and 0 <= y0 < y1 <= d.image.height


def test_rules_and_summary_documents_in_both_languages():
    es = read_document("bot.games.pylon", "rules_text.md", "es")
    pt = read_document("bot.games.pylon", "summary.md", "pt_BR")
    assert "**Acordar terminar**" in es and "`L c3`" in es and "`c3-c4`" in es
    assert pt.startswith("Dois jogadores, Vermelho e Azul")
    assert len(read_document("bot.games.pylon", "rules_text.md", "pt_BR")) <= 4096  # one embed
