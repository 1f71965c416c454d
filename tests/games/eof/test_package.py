"""The package as the platform sees it: registry entry, exports, the rules text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.games.eof as eof
from bot.games import GAMES

pytestmark = pytest.mark.unit

RULES_TEXT = Path(eof.__file__).with_name("rules_text.md")


def test_registry_finds_the_engine_and_pictures() -> None:
    game = GAMES["eof"]
    assert game.rules is eof.RULES and game.spec.key == "eof"
    assert game.render is eof.render and game.animate is eof.animate
    assert game.choose is None  # no computer opponent


def test_rules_text_fits_a_discord_embed() -> None:
    text = RULES_TEXT.read_text(encoding="utf-8")
    assert len(text) <= 3800
    assert not re.search(r"^#{4,}", text, re.M)  # no headings deeper than ###
    assert not re.search(r"^\s*\|.*\|\s*$", text, re.M)  # no tables
    for needle in ("Y1R G2L B3S R1R G1U", "skip", "draw S", "allow", "permission", "crash_penalty", "hill"):
        assert needle in text
