"""Wording helpers (on pictures and in messages): numbers agree with their nouns, "a"/"an"."""

import pytest

from bot.render.text import article, plural

pytestmark = pytest.mark.unit


def test_plural() -> None:
    assert plural(1, "pyramid") == "1 pyramid"
    assert plural(0, "game") == "0 games"
    assert plural(2, "destination") == "2 destinations"
    assert plural(1, "match", "matches") == "1 match"
    assert plural(3, "match", "matches") == "3 matches"


def test_article() -> None:
    assert article("Ice piece") == "an Ice piece"
    assert article("Fire piece") == "a Fire piece"
