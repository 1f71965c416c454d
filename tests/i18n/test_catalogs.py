"""The catalogs are current and complete: every marked text extracted, translated in every language with its
placeholders, Discord's limits kept; every game's long texts exist in every language."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.games import GAMES
from bot.i18n import cli
from bot.i18n.areas import all_areas
from bot.i18n.catalogs import LANGUAGES


def _ids(path):
    with path.open("rb") as f:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f) if m.id}


def test_the_templates_hold_every_marked_text_of_the_code():
    """``python -m bot i18n extract`` ran after the last text changed (else it is never translated)."""
    found = {}
    for area, items in cli.code_messages().items():
        for _rel, _line, message, context in items:
            msgid = message if isinstance(message, str) else message[0]
            found.setdefault(area, set()).add((context, msgid))
    for area in all_areas():
        if area == "commands":
            continue
        kept = _ids(cli.TEMPLATES / f"{area}.pot")
        missing = found.get(area, set()) - kept
        assert not missing, f"{area}.pot lacks {sorted(missing)[:10]}: run python -m bot i18n extract"


def test_the_command_template_holds_every_command_text():
    kept = {msgid for _ctx, msgid in _ids(cli.TEMPLATES / "commands.pot")}
    missing = {text for text, _kind in cli.command_messages()} - kept
    assert not missing, f"commands.pot lacks {sorted(missing)[:10]}: run python -m bot i18n extract"


def test_every_language_is_complete_with_its_placeholders_and_within_discords_limits():
    found = cli.problems()
    assert not found, f"{len(found)} problem(s):\n" + "\n".join(found[:40])


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("name", ["rules_text", "summary"])
def test_every_game_has_its_long_texts_in_every_language(lang, name):
    from importlib import resources

    for key, game in GAMES.items():
        module = game.module
        folder = resources.files(module.__name__ if hasattr(module, "__path__") else module.__package__ or "")
        english = folder / f"{name}.md"
        if not english.is_file():
            continue
        own = folder / f"{name}.{lang}.md"
        assert own.is_file(), f"{key}: {name}.{lang}.md is missing"
        heads = [re.findall(r"^#+ ", p.read_text(encoding="utf-8"), re.M) for p in (english, own)]
        assert heads[0] == heads[1], f"{key} {name}.{lang}.md: its headings differ from the English"
        assert "`" not in english.read_text(encoding="utf-8") or "`" in own.read_text(encoding="utf-8")
