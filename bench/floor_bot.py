"""The floor for bench/move_floor.py --loopback: a minimal discord.py bot that answers each click with a
ready-made board and does nothing else (no store, no drawing).

``/floor game:<key>`` posts the ready board of that game; a click on any of its buttons is answered with
one UPDATE_MESSAGE carrying the same embed, the same picture bytes and the same number of buttons -- the
message Parlor sent for that game, which the bench writes to ``$FLOOR_DIR/<key>.json`` and ``<key>.bin``
before it first asks. Run by the loopback Discord (``DISCORD_TOKEN``, ``FLOOR_GUILD`` in the environment).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

READY_DIR = Path(os.environ.get("FLOOR_DIR", "."))


class FloorBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        self.ready_answers: dict[str, tuple[dict[str, Any], bytes, str, int]] = {}

    def answer(self, game: str) -> dict[str, Any]:
        if game not in self.ready_answers:
            meta = json.loads((READY_DIR / f"{game}.json").read_text())
            self.ready_answers[game] = (
                meta["embed"],
                (READY_DIR / f"{game}.bin").read_bytes(),
                meta["filename"],
                meta["buttons"],
            )
        embed, data, filename, buttons = self.ready_answers[game]
        view = discord.ui.View(timeout=None)
        for i in range(buttons):
            view.add_item(discord.ui.Button(label=f"Floor {i}", custom_id=f"floor:{game}:{i}"))
        return {
            "embed": discord.Embed.from_dict(embed),
            "file": discord.File(io.BytesIO(data), filename),
            "view": view,
        }

    async def setup_hook(self) -> None:
        guild = discord.Object(int(os.environ["FLOOR_GUILD"]))

        @self.tree.command(name="floor", description="Post the ready board of a game", guild=guild)
        async def floor(interaction: discord.Interaction, game: str) -> None:
            await interaction.response.send_message(**self.answer(game))

        await self.tree.sync(guild=guild)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        cid = (interaction.data or {}).get("custom_id", "")
        if interaction.type is discord.InteractionType.component and cid.startswith("floor:"):
            kwargs = self.answer(cid.split(":")[1])
            file = kwargs.pop("file")
            await interaction.response.edit_message(**kwargs, attachments=[file])


FloorBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
