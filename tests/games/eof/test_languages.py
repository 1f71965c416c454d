"""EOF in Spanish and Brazilian Portuguese: the words a reader gets (text board, alt text, engine errors,
plurals), the engine's step log written in the reader's language whoever made the move, and the picture's
words fitting where the English fits when Discord shows the board 400 px wide."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.games.base import IllegalMove, InvalidNotation
from bot.games.eof.describe import alt_text, text_board
from bot.games.eof.drawing import TEXT_FONT, WIDTH, fit_text, pool_top
from bot.games.eof.pieces import Instruction
from bot.games.eof.render import render, render_hand, title_layout
from bot.games.eof.rules import RULES, EofState
from bot.games.eof.state import Step
from bot.games.eof.words import colour_word, tr
from bot.i18n import _, speaking
from bot.render import font
from cogs.eof.board import size_button
from tests.games.eof.helpers import program_state

DISCORD_WIDTH = 400


def executed() -> tuple[EofState, EofState, list]:
    """Red deletes the record Yellow's pointer is on and Yellow denies (permission-nocrash): the state
    before the answer, after it (round 2), and the answer's events (the round's step log)."""
    s = program_state("Y1 R1 Y2 R2 R3", pointers=(3, 3), hands={0: "R1 G1 B2 Y3 G2", 1: "G1 G2 G3 B1 B2"},
                      locking="permission-nocrash", crash_penalty=True)
    s, _e = RULES.apply(s, 1, RULES.parse("G1U G2R G3L B1S B2L", s, 1))
    asking, _e = RULES.apply(s, 0, RULES.parse("R1R G1U B2S Y3R G2L", s, 0))
    after, events = RULES.apply(asking, 1, RULES.parse("deny", asking, 1))
    return asking, after, events


# --- what a reader gets --------------------------------------------------------------------------------

def test_text_board_and_alt_text_in_spanish_and_portuguese() -> None:
    s = program_state("Y1 R1 Y2 R2 R3", pointers=(3, 0), hands={0: "R1", 1: "G1 G2"})
    view = RULES.view(s, 0)
    with speaking("es"):
        board = text_board(view, ["alice", "bob"])
        alt = alt_text(RULES.view(s, None), ["alice", "bob"])
    assert "EOF, Ronda 1 de 4 · Programación." in board
    assert "Archivo (5 registros): 1 Y1, 2 R1, 3 Y2, 4 R2, 5 R3." in board
    assert "alice (rojo): 0 puntos, puntero en el registro 3, 1 pieza en la mano." in board
    assert "bob (amarillo): 0 puntos, puntero en BOF, 2 piezas en la mano." in board
    assert "Tu mano: R1." in board
    assert "Archivo de 5 registros: Y1 R1 Y2 R2 R3." in alt
    assert "Puntos: alice (Rojo) 0, bob (Amarillo) 0." in alt
    with speaking("pt_BR"):
        board = text_board(view, ["alice", "bob"])
    assert "Arquivo (5 registros)" in board and "Sua mão: R1." in board
    assert "alice (vermelho): 0 pontos, ponteiro em registro 3, 1 peça na mão." in board
    assert "bob (amarelo): 0 pontos, ponteiro em BOF, 2 peças na mão." in board


def test_engine_errors_are_in_the_readers_language() -> None:
    s = program_state("R1", hands={0: "Y1", 1: "G1 G2 G3 B1 B2"})
    with speaking("es"):
        with pytest.raises(IllegalMove, match=r"tu programa debe tener 1 instrucción \(diste 2\)"):
            RULES.parse("Y1R G1U", s, 0)
        with pytest.raises(IllegalMove, match=r"tu programa debe tener 5 instrucciones \(diste 1\)"):
            RULES.parse("G1U", s, 1)
        with pytest.raises(InvalidNotation, match="No pude leer 'XYZ': una instrucción es color R/Y/G/B"):
            RULES.parse("xyz", s, 0)
    with speaking("pt_BR"):
        with pytest.raises(IllegalMove, match=r"seu programa precisa ter 1 instrução \(você deu 2\)"):
            RULES.parse("Y1R G1U", s, 0)
        with pytest.raises(IllegalMove, match="usa Y2 1 vezes, mas sua mão não tem nenhuma"):
            RULES.parse("Y2R", s, 0)


def test_plurals_of_pieces_and_records() -> None:
    with speaking("es"):
        assert size_button(1, 1) == "Pequeña (queda 1)" and size_button(3, 4) == "Grande (quedan 4)"
        assert Instruction(0, 1, 3).describe() == "borrar 1 registro hacia la derecha"
        assert Instruction(0, 3, 2).describe() == "borrar 3 registros hacia la izquierda"
    with speaking("pt_BR"):
        assert size_button(2, 1) == "Média (resta 1)" and size_button(2, 5) == "Média (restam 5)"
        assert Instruction(0, 2, 3).describe() == "apagar 2 registros para a direita"
    with speaking("en"):
        assert size_button(1, 1) == "Small (1 left)" and Instruction(0, 1, 3).describe() == (
            "delete 1 record going right")
    _asking, _after, events = executed()
    start = next(e for e in events if e.kind == "round")
    with speaking("es"):
        assert tr(start.text).endswith("vuelven a la bolsa (52 piezas).")
    with speaking("pt_BR"):
        assert tr(start.text).endswith("voltam para o saco (52 peças).")


def test_the_step_log_is_written_for_its_reader_whoever_made_the_move() -> None:
    with speaking("pt_BR"):  # a Portuguese player's answer runs the round
        _asking, _after, events = executed()
    steps = [e for e in events if e.kind == "step"]
    assert steps[0].text.startswith("Vermelho R1R: não apagou nada")  # as made, for its mover
    with speaking("es"):  # the thread of a Spanish server
        assert tr(steps[0].text) == ("Rojo R1R: no borró nada: se detuvo, el borrado del registro 3 (Y2) fue "
                                     "denegado por Amarillo; puntero en el registro 3.")
        assert tr(steps[0].text, lambda c: ["alice", "bob"][c]).startswith("alice R1R: no borró nada")
        crash = next(e for e in steps if e.data["crash"])
        assert tr(crash.data["crash"]) == "no hay registro actual que reemplazar en BOF"
        score = next(e for e in events if e.kind == "score")
        assert tr(score.text).startswith("Puntos de la ronda 1: Rojo +4 (trío espaciado en 3, 5, 6: 4) → 4;")
    with speaking("en"):
        assert tr(crash.text) == "Yellow B1S: CRASH — no current record to replace at BOF."


def test_a_stored_step_log_keeps_its_parts_and_an_older_one_reads_as_english() -> None:
    _asking, after, _events = executed()
    with speaking("es"):
        stored = RULES.dump(after)
    steps = stored["last_round"]["steps"]  # type: ignore[index]
    assert steps[0]["text"].startswith("deleted nothing: stopped")  # English beside the parts
    loaded = RULES.load(stored)
    assert loaded == after
    with speaking("pt_BR"):
        assert tr(loaded.last_round.steps[0].text).startswith("não apagou nada: parou")
    older = Step.load({k: v for k, v in steps[0].items() if k != "said"})  # a state from before the parts
    with speaking("es"):
        assert tr(older.text) == steps[0]["text"]


def test_the_rules_diagram_is_drawn_once_per_language() -> None:
    from bot.games.eof.diagram import diagram

    with speaking("es"):
        es = diagram()
        assert diagram() is es
    with speaking("en"):
        en = diagram()
    assert es.alt.startswith("EOF en la ronda 2") and en.alt.startswith("EOF in round 2")
    assert es.image.tobytes() != en.image.tobytes()


# --- the picture's words at 400 px -------------------------------------------------------------------------

def ink_columns(img: Image.Image, box: tuple[int, int, int, int], threshold: int = 110) -> list[int]:
    """The x of every column of ``box`` holding text (pixels brighter than ``threshold``)."""
    grey = img.convert("L").crop(box)
    w, h = grey.size
    data = grey.load()
    return [box[0] + x for x in range(w) if any(data[x, y] > threshold for y in range(h))]


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_spanish_and_portuguese_picture_words_fit_at_400_px(lang: str) -> None:
    asking, after, events = executed()
    with speaking(lang):
        title, size = title_layout(RULES.view(after, None))
        assert "…" not in title and size == 30  # the round's title whole, at its full size
        # the pool panel's heading and the options beside it: both whole, with room between them
        view = RULES.view(after, None)
        head = _("Data pool · {count}", count=sum(view.pool))
        opts = " · ".join([view.locking, _("crash penalty")])
        assert fit_text(opts, TEXT_FONT, WIDTH - 76 - int(font(TEXT_FONT, True).getlength(head))) == opts
        img = render(view, names=["alice", "bob"], events=events, clocks=[7_205_000, 61_000])
        top = pool_top(view)
        gap_from = 24 + 14 + int(font(TEXT_FONT, True).getlength(head)) + 4
        inked = ink_columns(img, (24, top + 6, WIDTH - 24, top + 38))
        assert not [x for x in inked if gap_from <= x < gap_from + 16], "the options run into the heading"
        # the players' status lines with their clocks, and the hand picture's lines (640 px, 18 px text)
        for said in (_("hand {count} · ✓ program in", count=5), _("hand {count} · programming…", count=5)):
            line = said + " · " + _("{time} left", time="2:00:05")
            assert font(TEXT_FONT).getlength(line) <= WIDTH - 48 - 76, line
        hand = render_hand(RULES.view(asking, 0))
        pool_line = _("Pool has {colour}: {pieces}", colour=colour_word(0), pieces="R1×2 R2×4 R3×4")
        for line in (pool_line, _("(for yellow inserts and blue updates)")):
            assert font(18).getlength(line) <= hand.width - 48, line
    scale = DISCORD_WIDTH / img.width
    assert TEXT_FONT * scale >= 11  # the smallest words stay readable once Discord shrinks the board
