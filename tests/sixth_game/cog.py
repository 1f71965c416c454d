"""``/tictactoe``: the sixth game's whole Discord side, on top of :class:`cogs._game.GameCog`.

The platform gives ``move``, ``board``, ``resign``, ``rules`` and ``history``, challenges and lobbies,
turn limits and pings, rematches and restarts; a game declares its ``new`` command (its options) and the
buttons of its board. A button whose action is ``m:<notation>`` plays that move.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.matches.service import Match
from cogs import _views as v
from cogs._game import EXPIRY_CHOICES, FIRST_CHOICES, TURN_LIMITS, GameCog

from .tictactoe.notation import square_name
from .tictactoe.rules import LEVELS, MARKS

LEVEL_CHOICES = [app_commands.Choice(name=x, value=x) for x in LEVELS]


class TicTacToe(GameCog, group_name="tictactoe", group_description="Tic-tac-toe: three in a row"):
    game_key = "tictactoe"

    @app_commands.command(name="new", description="Start a tic-tac-toe match (no opponent: open a lobby)")
    @app_commands.describe(opponent="Who to challenge (pick me to play the computer)",
                           first="Who plays X (moves first)", turn_limit="Time per move",
                           level="Computer strength (when playing me)",
                           expires="How long the invitation stays open (default 15 minutes)")
    @app_commands.choices(first=FIRST_CHOICES, level=LEVEL_CHOICES)  # one decorator per value type (mypy)
    @app_commands.choices(turn_limit=TURN_LIMITS, expires=EXPIRY_CHOICES)
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  first: app_commands.Choice[str] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None,
                  level: app_commands.Choice[str] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        await self.create_match(interaction, opponent=opponent, level=level.value if level else None,
                                options={"first": first.value if first else "challenger"},
                                turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        """Nine buttons, top row first; an empty square plays itself, a marked one is disabled."""
        view = match.view(None)
        items: list[discord.ui.Item[Any]] = []
        for row in range(3):
            for col in range(3):
                square = (2 - row) * 3 + col
                mark = view.cells[square]
                items.append(v.button(match.id, match.version, f"m:{square_name(square)}",
                                      label=square_name(square) if mark is None else MARKS[mark],
                                      style=discord.ButtonStyle.primary if mark is None
                                      else discord.ButtonStyle.secondary,
                                      disabled=mark is not None or view.to_move is None, row=row))
        return items


async def setup(bot: Any) -> None:
    await bot.add_cog(TicTacToe(bot))
