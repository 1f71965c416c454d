"""The slash commands as discord.py sends them to Discord, through Parlor's translator: every description
(command, subcommand, option) and choice name in Spanish (es-ES, es-419) and Brazilian Portuguese (pt-BR),
within Discord's 100 characters; names never localized (players type them, texts quote them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n.commands import ParlorTranslator

LOCALES = ("es-ES", "es-419", "pt-BR")
COMMAND, GROUP = 1, 2  # option types: subcommand, subcommand group


@pytest.fixture
async def payloads() -> Any:
    """The translated payload of every top-level command of the real bot's tree (as ``tree.sync`` sends)."""
    from bot.app import EXTENSIONS, ParlorBot
    from bot.config import Config
    from bot.storage import open_store

    bot = ParlorBot(Config(token="x"), open_store("sqlite:///:memory:"), sync_commands=False)
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    translator = ParlorTranslator()
    await bot.tree.set_translator(translator)
    try:
        yield [await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()]
    finally:
        await bot.close()


def nodes(payloads: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path, kind, payload) of every command, subcommand (group), option and choice."""

    def walk(path: str, node: dict[str, Any], kind: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        yield path, kind, node
        for opt in node.get("options") or []:
            sub = "command" if opt.get("type") in (COMMAND, GROUP) else "option"
            yield from walk(f"{path} {opt['name']}", opt, sub)
        for choice in node.get("choices") or []:
            yield f"{path}={choice['value']}", "choice", choice

    for cmd in payloads:
        yield from walk(f"/{cmd['name']}", cmd, "command")


async def test_every_command_and_option_is_described_in_spanish_and_portuguese(payloads):
    missing = []
    for path, kind, node in nodes(payloads):
        if kind == "choice":
            continue
        locs = node.get("description_localizations") or {}
        missing += [f"{path} ({kind}): {loc}" for loc in LOCALES if not locs.get(loc)]
    assert not missing, "\n".join(missing)


async def test_every_choice_is_named_in_spanish_and_portuguese(payloads):
    missing = [f"{path}: {loc}" for path, kind, node in nodes(payloads) if kind == "choice"
               for loc in LOCALES if not (node.get("name_localizations") or {}).get(loc)]
    assert not missing, "\n".join(missing)


async def test_localized_texts_fit_discords_100_characters(payloads):
    long = []
    for path, kind, node in nodes(payloads):
        field = "name_localizations" if kind == "choice" else "description_localizations"
        long += [f"{path} {loc}: {text!r}" for loc, text in (node.get(field) or {}).items()
                 if len(text) > 100]
    assert not long, "\n".join(long)


async def test_command_and_option_names_are_never_localized(payloads):
    named = [path for path, kind, node in nodes(payloads)
             if kind != "choice" and node.get("name_localizations")]
    assert not named, "\n".join(named)


async def test_spanish_and_portuguese_read_their_own_words(payloads):
    fire = next(p for p in payloads if p["name"] == "fireandice")
    new = next(o for o in fire["options"] if o["name"] == "new")
    said = new["description_localizations"]
    assert said["es-ES"] == said["es-419"] == "Empieza una partida de Fire and Ice (sin rival: abre una sala)"
    assert said["pt-BR"].startswith("Comece uma partida de Fire and Ice")
    side = next(o for o in new["options"] if o["name"] == "side")
    ice = next(c for c in side["choices"] if c["value"] == "ice")
    assert ice["name"] == "Ice" and ice["name_localizations"] == {"es-ES": "Hielo", "es-419": "Hielo",
                                                                   "pt-BR": "Gelo"}
