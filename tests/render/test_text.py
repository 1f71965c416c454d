"""The wording helpers drawn on pictures."""

from bot.render.text import article, plural


def test_plural() -> None:
    assert plural(1, "pyramid") == "1 pyramid"
    assert plural(0, "game") == "0 games"
    assert plural(3, "match", "matches") == "3 matches"


def test_article() -> None:
    assert article("Ice piece") == "an Ice piece"
    assert article("Fire piece") == "a Fire piece"
