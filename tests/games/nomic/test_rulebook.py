"""The rulebook as embed text, and the /nomic rules text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.base import GameError
from bot.games.nomic import RULES, rule_detail, rulebook_pages

from .helpers import BOB, game, play, turn

pytestmark = pytest.mark.unit

RULES_TEXT = Path(__file__).resolve().parents[3] / "bot" / "games" / "nomic" / "rules_text.md"


def history_state():
    s = turn(game(), proposal='{"action": "amend", "rule": 109, "text": "A d8 is rolled.", "effect": "d8"}')
    s = turn(s, proposal="enact Hats are worn.", yes=False)
    s = turn(s, proposal="repeal 104")
    s, _ = play(s, BOB, "judge Are hats required?")
    s, _ = play(s, s.question.judge, "ruling No, rule 202 was rejected.")
    return s


def test_pages_list_the_rules_in_effect_in_order_within_the_limit():
    view = RULES.view(history_state(), None)
    pages = rulebook_pages(view, limit=1000)
    assert len(pages) > 1 and all(len(p) <= 1000 for p in pages)
    text = "\n\n".join(pages)
    numbers = [int(n) for n in re.findall(r"^\*\*(\d{3})", text, flags=re.M)]
    assert numbers == list(view.in_effect) and 104 not in numbers and 204 in numbers
    assert "lowest number wins (rule 113)" in pages[0]
    assert "Die: d8 (rule 109)" in pages[0]
    assert "**109. Phase: Movement** *(amended)*\nA d8 is rolled.\n\u2699 Bot: movement die: d8" in text


def test_default_pages_fit_an_embed_and_huge_rules_are_split():
    s = turn(game(), proposal="enact " + "word " * 290 + "end.")
    view = RULES.view(s, None)
    pages = rulebook_pages(view)
    assert all(len(p) <= 3800 for p in pages)
    tiny = rulebook_pages(view, limit=300)
    assert all(len(p) <= 300 for p in tiny)


def test_rule_detail_shows_status_votes_and_history():
    view = RULES.view(history_state(), None)
    detail = rule_detail(view, 109)
    assert detail.startswith("**Rule 109 \u2014 Phase: Movement** \u00b7 in effect \u00b7 amended")
    assert "Amended by 201 (round 1, turn 2). Previous text: 1. A d6 is rolled." in detail
    rejected = rule_detail(view, 202)
    assert rejected.startswith("**Proposal 202: enact a new rule** \u00b7 rejected")
    assert "\u274c alice" in rejected and "Proposed by Bob" in rejected
    repeal = rule_detail(view, 203)
    assert repeal.startswith("**Proposal 203: repeal rule 104** \u00b7 adopted and applied")
    assert "Repealed by 203" in rule_detail(view, 104)
    judgment = rule_detail(view, 204)
    assert judgment.startswith("**Judgment 204** \u00b7 in effect") and "Are hats required?" in judgment


def test_rule_detail_of_an_unknown_number_says_which_exist():
    view = RULES.view(history_state(), None)
    with pytest.raises(GameError, match="numbers so far: 101-115 and 201-204"):
        rule_detail(view, 250)


def test_rules_text_fits_an_embed_and_uses_discord_markdown_only():
    text = RULES_TEXT.read_text(encoding="utf-8")
    assert len(text) <= 3800
    assert not re.search(r"^#{4,}", text, flags=re.M)
    assert "|" not in text.replace("`", "")  # no tables
    for needle in ("NNE", "vote yes", "propose", "judge", "ruling", "201", "rule 113", "die=8"):
        assert needle in text
