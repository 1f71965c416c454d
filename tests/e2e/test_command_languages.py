"""The commands the bot registers with Discord carry their Spanish and Portuguese descriptions: a
Spanish-speaking member's client shows ``/pylon new`` described in Spanish, under its English name."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def subcommand(cmds, group, name):
    top = next(c for c in cmds if c["name"] == group)
    return top, next(o for o in top.get("options") or [] if o["name"] == name)


async def test_the_registered_schema_describes_pylon_new_in_spanish_and_portuguese(world):
    top, new = subcommand(world.dd.registered_commands(world.guild), "pylon", "new")
    assert new["description"] == "Start a Pylon match (no opponent: open a lobby)"
    said = new["description_localizations"]
    assert said["es-ES"] == said["es-419"] == "Empieza una partida de Pylon (sin rival: abre una sala)"
    assert said["pt-BR"] == "Comece uma partida de Pylon (sem adversário: abre uma sala)"
    assert top["description_localizations"]["es-ES"] == "Pylon: coloca pirámides y luego apílalas"
    assert not top.get("name_localizations") and not new.get("name_localizations")  # typed as /pylon new
    opponent = next(o for o in new["options"] if o["name"] == "opponent")
    assert opponent["description_localizations"]["pt-BR"].startswith("Quem desafiar")
    assert not opponent.get("name_localizations")
