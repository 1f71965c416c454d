"""Issue 30: ``/<game> rules`` starts with a labelled diagram (the game's renderer on a fixed position,
callouts on top) and a one-paragraph summary, privately, in one request; **Full rules** shows the whole
text privately. ``/help`` names what players can do."""

from __future__ import annotations

import pytest

from bot.i18n.pseudo import unpseudo
from cogs._game import rules as rules_mod

pytestmark = pytest.mark.e2e

GAMES = ["pylon", "fireandice", "eggcarton", "eof", "nomic"]


@pytest.mark.parametrize("game", GAMES)
async def test_rules_answer_privately_with_a_described_picture_a_summary_and_the_full_text(world, game):
    w = world
    mark = w.dd.mark()
    r = await w.alice.slash(w.chan, f"{game} rules")
    msg = await r.message()
    calls = w.dd.api_calls(mark)
    assert r.ephemeral and len(calls) == 1, [c.route for c in calls]  # one request
    assert len(msg.attachments) == 1 and msg.attachments[0].is_png
    att = msg.attachments[0]
    assert att.description and len(att.description) > 80  # alt text says what the picture shows
    assert att.image().width >= 400
    summary = unpseudo(rules_mod.summary_text(game) or "")  # (the same English in the pseudo-locale run)
    assert summary and summary in msg.text and len(summary.split()) <= 120
    assert "Full rules" in msg.button_labels()
    mark = w.dd.mark()
    full = await w.alice.click(msg, "Full rules")
    shown = await full.message()
    assert full.ephemeral and shown is not msg
    if game == "nomic":  # the rulebook in effect, paged, as /nomic rules showed it before
        assert "101. The player agreement" in shown.text and "Next" in shown.button_labels()
    else:
        head = unpseudo(rules_mod.rules_text(game)).strip().splitlines()[0].lstrip("# ").strip("*")[:30]
        assert head in shown.text


async def test_rules_of_a_second_request_reuse_the_drawn_picture(world, monkeypatch):
    w = world
    await w.alice.slash(w.chan, "pylon rules")
    drawn = []
    monkeypatch.setattr(rules_mod, "draw_diagram", lambda key: drawn.append(key))
    r = await w.bob.slash(w.chan, "pylon rules")
    assert (await r.message()).attachments and drawn == []


async def test_help_names_what_players_can_do(world):
    r = await world.alice.slash(world.chan, "help")
    text = (await r.message()).text
    for word in ("learn", "rules", "/notify", "/matches", "history", "/tournament", "Watch", "Rematch",
                 "board text:"):
        assert word in text, word
    assert r.ephemeral and "picture" in text
