"""``/fireandice``: move on seven islands; three controlled islands in a line win.

Board components: a select of your movable pieces; after one is chosen, a
select of its legal destinations (moves that hand the opponent the win are
marked and need a confirmation click; winning moves are marked too) and Back.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord import app_commands

from bot.errors import StaleBoard
from bot.games.fire_and_ice.geometry import FIRE, SIDE_NAMES
from bot.i18n import _, ngettext
from bot.matches.service import Match
from bot.render import board_png
from cogs import _views as v
from cogs._game import EXPIRY_CHOICES, TURN_LIMITS, GameCog, draw_off_loop_if_long, picture_file
from cogs._game.base import in_channel
from cogs._game.puzzle import PuzzleCog

# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
SIDES = [app_commands.Choice(name="Fire (moves first)", value="fire"),
         app_commands.Choice(name="Ice", value="ice"),
         app_commands.Choice(name="random", value="random")]
HANDICAPS = [app_commands.Choice(name="none", value=0)] + [
    app_commands.Choice(name=f"{n} extra Fire piece{'s' if n > 1 else ''}",
                        value=n) for n in range(1, 7)]
LEVELS = [app_commands.Choice(name=x, value=x) for x in ("easy", "medium", "hard")]


class FireAndIce(
    PuzzleCog, GameCog, group_name="fireandice",
    group_description="Fire and Ice: islands, lines and a twist",
):
    game_key = "fireandice"

    @app_commands.command(
        name="new",
        description="Start a Fire and Ice match (no opponent: open a lobby)",
    )
    @app_commands.describe(
        expires="How long the invitation stays open (default 15 minutes)",
        opponent="Who to challenge (pick me to play the computer)",
        side="Your side (against me: random unless you choose)",
        handicap="Extra Fire pieces placed at random before the start",
        turn_limit="Time per move",
        level="Computer strength (when playing me)",
    )
    @app_commands.choices(expires=EXPIRY_CHOICES,
                          side=SIDES, handicap=HANDICAPS, turn_limit=TURN_LIMITS, level=LEVELS)
    async def new(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        side: app_commands.Choice[str] | None = None,
        handicap: app_commands.Choice[int] | None = None,
        turn_limit: app_commands.Choice[int] | None = None,
        level: app_commands.Choice[str] | None = None,
        expires: app_commands.Choice[int] | None = None,
    ) -> None:
        vs_bot = opponent is not None and self.bot.user is not None and opponent.id == self.bot.user.id
        chosen = side.value if side else ("random" if vs_bot else "fire")
        first = {"fire": "challenger", "ice": "opponent", "random": "random"}[chosen]
        options = {"first": first, "handicap": str(handicap.value if handicap else 0)}
        await self.create_match(interaction, opponent=opponent, level=level.value if level else None,
                                options=options, turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    def confirm_text(self, match: Match, notation: str) -> str | None:
        view = match.view(None)
        if view.to_move is not None and view.is_losing(notation):
            return _("⚠️ `{move}` hands {side} the win: the {side} piece left on the vacated point completes "
                     "their line of islands. Play it anyway?", move=notation,
                     side=_(SIDE_NAMES[1 - view.to_move]))
        return None

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        view = match.view(None)
        mid, ver = match.id, match.version
        if view.to_move is None:
            return []
        if view.must_pass:
            return [
                v.button(mid, ver, "m:pass", label=_("Pass (no legal move)"),
                         style=discord.ButtonStyle.primary)
            ]
        items: list[discord.ui.Item[Any]] = []
        if state.startswith("cf"):
            move = state[2:]
            other = _(SIDE_NAMES[1 - view.to_move])
            items.append(v.button(mid, ver, f"m:{move}", label=_("Yes, play {move} ({side} wins)", move=move,
                                                                 side=other),
                                  style=discord.ButtonStyle.danger))
            items.append(v.button(mid, ver, "back", label=_("Back")))
            return items
        if state.startswith("src"):
            src = state[3:]
            opts = []
            for dst in view.destinations(src):
                move = f"{src}-{dst}"
                if view.is_losing(move):
                    desc = _("⚠ hands {side} the win", side=_(SIDE_NAMES[1 - view.to_move]))
                elif move in view.winning_moves:
                    desc = _("🏆 wins the game")
                else:
                    desc = None
                opts.append(discord.SelectOption(label=move, value=move, description=desc))
            items.append(v.select(mid, ver, "dst", opts, placeholder=_("Move {point} to…", point=src), row=0))
            items.append(v.button(mid, ver, "back", label=_("Back"), row=1))
            return items
        pieces = list(view.movable)
        choose = (_("Choose a Fire piece to move") if view.to_move == FIRE
                  else _("Choose an Ice piece to move"))
        for i, part in enumerate(v.chunks(pieces)):
            span = f" ({part[0]}–{part[-1]})" if len(pieces) > 25 else ""
            opts = [
                discord.SelectOption(
                    label=p, value=p,
                    description=ngettext("{n} destination", "{n} destinations", len(view.destinations(p))),
                )
                for p in part
            ]
            items.append(v.select(mid, ver, f"src.{i}", opts,
                                  placeholder=choose + span, row=i))
        return items

    def moves_played(self, match: Match) -> int:
        return int(match.view(None).ply)  # the picture's "after move n" (handicap pieces are not moves)

    def warm_draws(self, view: Any, names: tuple[str, ...], events: Any) -> list[Callable[[], Any]]:
        """Also the board with a piece chosen (its destinations marked): every move shows one."""
        draws = super().warm_draws(view, names, events)
        if view.movable:
            draws.append(partial(self.game.render, view, names=names, selected=view.movable[0]))
        return draws

    def render_selected(self, match: Match, selected: str | None) -> bytes:
        """The board with the chosen piece ringed and its destinations marked (PNG bytes)."""
        view, names, clocks = match.view(None), match.names(), match.clocks_ms(self.service.clock())
        return board_png(lambda: self.game.render(view, names=names, clocks=clocks, selected=selected),
                         self.game_key)

    async def edit_board(self, interaction: discord.Interaction, match: Match, state: str) -> None:
        """Choosing a piece (or going back) redraws the picture too: the piece's destinations are marked
        on it. The board is the channel's: its picture, alt text and components are in the server's
        language."""
        if not (state.startswith("src") or state == ""):
            await super().edit_board(interaction, match, state)
            return
        with in_channel(match):
            name = self.picture_name(match, None)
            selected = state[3:] or None
            alt = self.alt_text(match, None)
            if selected:
                to = ", ".join(match.view(None).destinations(selected))
                alt = _("Chosen: the piece on {point}, which can move to {destinations}. {alt}",
                        point=selected, destinations=to, alt=alt)
            data = await draw_off_loop_if_long(name, self.render_selected, match, selected)
            file = picture_file(data, name, alt)
            shown = interaction.message
            embed = (shown.embeds[0].copy() if shown and shown.embeds else self.board_embed(match, None))
            embed.set_image(url=None)  # the picture is the attachment itself: its alt text is read
            components = v.view_of(*self.components(match, state))
        await interaction.response.edit_message(embed=embed, view=components, attachments=[file])
        view = match.view(None)
        if selected and view.to_move is not None:
            # the next click is one of the piece's destinations: each one's board is drawn while they
            # choose (not a move the click asks to confirm first: see on_action)
            moves = [f"{selected}-{dst}" for dst in view.destinations(selected)]
            self.draw_ahead(match, view.to_move, [m for m in moves if self.confirm_text(match, m) is None])

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        await self.check_picker(interaction, match, version)
        if action.startswith("src") and values:
            if values[0] not in match.view(None).movable:
                raise StaleBoard(_("That piece cannot move now. Use the newest board."))
            await self.edit_board(interaction, match, f"src{values[0]}")
        elif action == "dst" and values:
            move = values[0]
            if self.confirm_text(match, move):
                await self.edit_board(interaction, match, f"cf{move}")
            else:
                await self.play_from_component(interaction, match.id, version, move, loaded=match)
        elif action == "back":
            await self.edit_board(interaction, match, "")
        else:
            raise StaleBoard(_("That button does nothing any more."))

    def extra_lines(self, match: Match, result: Any) -> list[str]:
        view = match.view(None)
        lines = [_("Pieces left to add: Fire {fire} · Ice {ice}", fire=view.supply[0], ice=view.supply[1])]
        owned = {0: [], 1: []}  # type: dict[int, list[str]]
        for island, who in zip("ABCDEFG", view.controllers, strict=True):
            if who in (0, 1):
                owned[who].append(island)
        if owned[0] or owned[1]:
            held = " · ".join(f"{_(SIDE_NAMES[s])} {', '.join(owned[s]) or '—'}" for s in (0, 1))
            lines.append(_("Islands: {held}", held=held))
        if view.to_move is not None and view.handing_win:
            lines.append(ngettext("⚠️ {n} of your moves would hand the opponent the win.",
                                  "⚠️ {n} of your moves would hand the opponent the win.",
                                  len(view.handing_win)))
        return lines


async def setup(bot: Any) -> None:
    await bot.add_cog(FireAndIce(bot))
