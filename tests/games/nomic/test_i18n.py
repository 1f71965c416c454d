"""Nomic World in Spanish and Portuguese: events, refusals, plurals, the rulebook (its rules kept as
written), the view read in any language, and the map's words fitting at 400 px."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from bot.games.base import CHANCE, IllegalMove, InvalidNotation
from bot.games.nomic import RULES, render, rule_detail, rulebook_pages
from bot.games.nomic.describe import alt_text, text_board
from bot.games.nomic.moves import Path
from bot.games.nomic.render import PAD, geometry
from bot.i18n import speaking
from bot.render import board_png

from .helpers import ALICE, BOB, CAROL, game, move, play, propose, roll, run, turn

pytestmark = pytest.mark.unit


def test_events_are_written_in_the_current_language():
    s = roll(game(), 2)
    with speaking("es"):
        s2, events = play(s, ALICE, "EE")
        s2, revealed = play(s2, CHANCE, "reveal Water")
    assert [e.text for e in events] == ["alice recorre EE de (0, 0) a (2, 0)."]
    assert revealed[0].text == "alice llega a (2, 0), que da Agua."
    with speaking("pt_BR"):
        _s3, events = play(s2, ALICE, "propose enact Hats are worn.")
    assert events[0].text == ("alice propõe a 201: promulgar uma regra nova. Votos necessários: unânime.")


def test_the_state_is_the_same_whatever_the_language_it_was_played_in():
    moves = ((CHANCE, "roll 2"), (ALICE, "EE"), (CHANCE, "reveal Water"), (ALICE, "propose enact Hats."),
             (ALICE, "vote no"), (BOB, "vote yes"), (CAROL, "vote yes"))
    states = []
    for lang in ("en", "es", "pt_BR"):
        with speaking(lang):
            states.append(RULES.dump(run(game(), *moves)))
    assert states[0] == states[1] == states[2]
    notes = [note for r in states[0]["rules"] if r["number"] == 201 for note in r["history"]]
    assert ["rejected", None, None, "2 yes, 1 no (unanimous)"] in [n[2:] for n in notes]  # shown translated


@pytest.mark.parametrize(("lang", "yes", "no"), [
    ("es", "Ya votaste sí a la propuesta 201.", "Un camino solo usa las letras N, E, S, W"),
    ("pt_BR", "Você já votou sim na proposta 201.", "Um caminho usa só as letras N, E, S, W"),
])
def test_refusals_are_in_the_readers_language(lang, yes, no):
    s = propose(move(game(), "N"), "enact Hats are worn.")
    s, _ = play(s, BOB, "vote yes")
    with speaking(lang), pytest.raises(IllegalMove) as refused:
        RULES.apply(s, BOB, RULES.parse("vote yes", s, BOB))
    assert str(refused.value) == yes
    with speaking(lang), pytest.raises(InvalidNotation) as unreadable:
        RULES.apply(roll(game(), 3), ALICE, Path("NX1"))
    assert str(unreadable.value).startswith(no)


def test_a_wrong_number_of_steps_is_refused_with_the_right_plural():
    s = roll(game(), 1)
    with speaking("es"), pytest.raises(IllegalMove) as one:
        RULES.parse("NE", s, ALICE)
    assert str(one.value).startswith("NE tiene 2 pasos, pero el dado marca 1: da exactamente 1 (regla 109).")
    s = roll(game(), 3)
    with speaking("pt_BR"), pytest.raises(IllegalMove) as three:
        RULES.parse("N", s, ALICE)
    assert str(three.value).startswith("N tem 1 passo, mas o dado mostra 3")


def test_decided_votes_and_their_counts():
    s = propose(move(game(), "N"), "enact Hats are worn.")
    with speaking("es"):
        s, _ = play(s, ALICE, "vote yes")
        s, _ = play(s, BOB, "vote yes")
        s, events = play(s, CAROL, "vote no")
    assert events[1].text == "La propuesta 201 es rechazada: 2 sí, 1 no (unánime)."
    view = RULES.view(s, None)
    with speaking("pt_BR"):
        detail = rule_detail(view, 201)
    assert "Rejeitada: 2 sim, 1 não (unânime) (rodada 1, turno 1)." in detail


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("es", "1 votante", "3 votantes"), ("pt_BR", "1 votante", "3 votantes"), ("en", "1 voter", "3 voters")])
def test_the_pictures_vote_line_counts_voters(lang, one, many):
    from dataclasses import replace

    from bot.games.nomic.render import _header

    view = RULES.view(propose(move(game(), "N"), "enact Hats are worn."), None)
    names = [p.name for p in view.players]
    with speaking(lang):
        assert many in _header(view, names)[1]
        lone = replace(view, proposal=replace(view.proposal, voters=(ALICE,)))
        assert one in _header(lone, names)[1]


def test_the_rulebook_translates_its_frame_and_keeps_the_rules_as_written():
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "A d8 is rolled.", "effect": "d8"}')
    view = RULES.view(s, None)
    with speaking("es"):
        text = "\n\n".join(rulebook_pages(view))
        detail = rule_detail(view, 109)
    assert text.startswith("15 reglas en vigor, en el orden en que entraron en vigor.")
    assert "Dado: d8 (regla 109)" in text
    rule = "**109. Phase: Movement** *(enmendada)*\nA d8 is rolled.\n\u2699 Bot: dado de movimiento: d8"
    assert rule in text
    assert "**101. The player agreement**" in text  # the Initial Set as written
    assert detail.startswith("**Regla 109 \u2014 Phase: Movement** \u00b7 en vigor \u00b7 enmendada")
    assert "Enmendada por la 201 (ronda 1, turno 2). Texto anterior: 1. A d6 is rolled." in detail


def test_one_view_reads_in_every_language():
    """A match keeps one view per seat for everyone: its texts are written when they are read."""
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "A d8 is rolled.", "effect": "d8"}')
    view = RULES.view(s, None)
    r = view.rule(201)
    with speaking("es"):
        es = (r.effect_text, r.history[0])
    with speaking("pt_BR"):
        pt = (r.effect_text, r.history[0])
    assert es == ("dado de movimiento: d8", "Propuesta por alice (ronda 1, turno 1).")
    assert pt == ("dado de movimento: d8", "Proposta por alice (rodada 1, turno 1).")
    assert (r.effect_text, r.history[0]) == ("movement die: d8", "Proposed by alice (round 1, turn 1).")


def test_alt_text_and_text_board_in_spanish():
    s = roll(game(), 2)
    s, _ = play(s, ALICE, "EE")
    s, events = play(s, CHANCE, "reveal Water")
    view = RULES.view(s, None)
    with speaking("es"):
        alt = alt_text(view, None, events)
        board = text_board(view, None)
    assert alt.startswith("Nomic World, ronda 1, turno 1: alice propone un cambio de reglas.")
    assert "alice en 2,0 Agua" in alt and "1 casilla revelada: 2,0 Agua." in alt
    assert "Último camino de alice: 0,0 a 1,0 a 2,0." in alt
    assert "Bob en 0,0 sin explorar, el origen. Alrededor: norte 0,1 sin explorar" in board
    assert "Ajustes: d6, votos necesarios unánime, orden de turnos alfabético." in board


def test_the_end_of_the_game_is_kept_in_english_and_shown_translated():
    s, _events = RULES.apply(game(), ALICE, RULES.parse("end host", game(), ALICE))
    assert s.end_detail == "Stopped by the host."
    with speaking("es"):
        assert RULES.outcome(s).detail == "Detenida por el anfitrión."
        assert RULES.view(s, None).result_text == "Detenida por el anfitrión."
    with speaking("pt_BR"), pytest.raises(IllegalMove, match=r"A partida terminou\."):
        RULES.apply(s, BOB, RULES.parse("leave", game(), BOB))


def _drawn(monkeypatch):
    drawn = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, t, *args, **kw):
        drawn.append((xy, str(t), kw.get("font"), kw.get("anchor")))
        return original(self, xy, t, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_the_maps_legend_fits_at_400_px(lang, monkeypatch):
    """The legend's words are drawn whole and end inside the picture (which is shown 400 px wide); the
    header's title is not shortened either."""
    s = roll(game(["Alejandra", "Bob", "Carol"]), 2)
    s, _ = play(s, ALICE, "EE")
    s, _ = play(s, CHANCE, "reveal Water")
    view = RULES.view(s, None)
    drawn = _drawn(monkeypatch)
    with speaking(lang):
        img = render(view, clocks=[3723000, 59000, 12000])
    g = geometry(view)
    unknown = [(xy, t, f) for xy, t, f, a in drawn if t == "oculta"]
    assert len(unknown) == 1, [t for _xy, t, _f, _a in drawn]
    (x, _y), word, fnt = unknown[0]
    assert x + fnt.getlength(word) <= g.width - PAD
    title = "Nomic World \u00b7 " + ("ronda" if lang == "es" else "rodada")
    assert any(t.startswith(title) and "\u2026" not in t for _xy, t, _f, _a in drawn)
    assert min(f.size for _xy, _t, f, _a in drawn if f is not None) * 400 / img.width >= 11
    legend = [t for _xy, t, _f, _a in drawn if "Alejandra" in t or "Alej" in t]
    assert legend and not legend[0].startswith("\u25b6 \u2026")  # some of the name is still shown


def test_the_legend_kept_for_one_language_is_not_drawn_in_another():
    view = RULES.view(game(), None)
    with speaking("en"):
        english = board_png(lambda: render(view), "nomic")
    with speaking("es"):
        spanish = board_png(lambda: render(view), "nomic")
    with speaking("en"):
        again = board_png(lambda: render(view), "nomic")
    assert spanish != english and again == english


def test_the_rules_diagram_is_drawn_per_language():
    from bot.games.nomic.diagram import diagram

    with speaking("es"):
        es = diagram()
    with speaking("pt_BR"):
        pt = diagram()
    assert es.alt.startswith("Un mapa de Nomic World con 3 jugadores.")
    assert pt.alt.startswith("Um mapa de Nomic World com 3 jogadores.")
    assert {t for t, _box in es.labels} >= {"inicio", "el mapa: casillas grises sin explorar"}
    assert diagram().alt.startswith("A Nomic World map")
