"""``/eggcarton``: relay sowing; empty your side first.

One button per own slot (label = letter and count, disabled when empty) — six
slots in two rows of three, because Discord allows at most five buttons in a
row. A pick under rule A is simply the same player's next click. The sowing is
shown as an animated GIF (``speed`` option; ``off`` = a still picture), and in
tournament mode each player's clock is drawn on the board.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.games.egg_carton import picks_gif, prepare_sowing, ready_sowing, sowing_gif, sowings_ahead
from bot.games.samples import sample_plays
from bot.i18n import _, public
from bot.matches.service import Match, Result
from bot.names import shown
from bot.render import board_png
from bot.storage import Status
from cogs import _views as v
from cogs._game import EXPIRY_CHOICES, FIRST_CHOICES, TURN_LIMITS, GameCog
from cogs._game.base import in_channel
from cogs._game.puzzle import PuzzleCog

log = logging.getLogger(__name__)

LEVELS = [app_commands.Choice(name=x, value=x) for x in ("novice", "beginner", "intermediate", "expert")]
# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
MARBLES = [app_commands.Choice(name=f"{n} per slot", value=n)
           for n in range(1, 7)]
CLOCKS = [app_commands.Choice(name="off", value="off")] + [
    app_commands.Choice(name=f"{n} minute{'s' if n > 1 else ''} each",
                        value=f"{n}m") for n in (1, 3, 5, 10)]
SPEEDS = [app_commands.Choice(name=x, value=x) for x in ("slow", "normal", "fast", "off")]


class EggCarton(PuzzleCog, GameCog, group_name="eggcarton",
                group_description="The Egg Carton Game: relay sowing"):
    game_key = "eggcarton"

    @app_commands.command(
        name="new",
        description="Start an Egg Carton match (no opponent: open a lobby)",
    )
    @app_commands.describe(
        expires="How long the invitation stays open (default 15 minutes)",
        opponent="Who to challenge (pick me to play the computer)",
        marbles="Marbles in each slot at the start",
        level="Computer strength (when playing me)",
        clock="Tournament clock: a time bank per player",
        speed="Animation of the sowing",
        first="Who picks first (default: you, also against me)",
        turn_limit="Time per move",
    )
    @app_commands.choices(expires=EXPIRY_CHOICES,
                          marbles=MARBLES, level=LEVELS, clock=CLOCKS, speed=SPEEDS, first=FIRST_CHOICES,
                          turn_limit=TURN_LIMITS)
    async def new(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        marbles: app_commands.Choice[int] | None = None,
        level: app_commands.Choice[str] | None = None,
        clock: app_commands.Choice[str] | None = None,
        speed: app_commands.Choice[str] | None = None,
        first: app_commands.Choice[str] | None = None,
        turn_limit: app_commands.Choice[int] | None = None,
        expires: app_commands.Choice[int] | None = None,
    ) -> None:
        options = {
            "marbles": str(marbles.value if marbles else 3),
            "first": first.value
            if first
            else "challenger",  # against me too: the human moves first by default
            "speed": speed.value if speed else "normal",
        }
        if clock and clock.value != "off":
            options["clock"] = clock.value
        await self.create_match(interaction, opponent=opponent, level=level.value if level else None,
                                options=options, turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    def default_level(self) -> str:
        return "beginner"

    async def after_result(self, match: Match, result: Result) -> None:
        await super().after_result(match, result)
        try:
            self.prepare_next_sowing(match)
        except Exception:  # only a head start: the pick draws its sowing anyway
            log.exception("preparing the next sowing of match %s failed", match.id)

    def prepare_next_sowing(self, match: Match) -> None:
        """After a move's answer is out, when a person is to pick next: encode the first frame of their
        sowing now (the whole board, the same whichever slot they pick), then, bit by bit while they think,
        the whole sowing of every pick they can make, so that their click's answer only has to send it.

        The sowings are encoded on the event loop a frame at a time (about a tenth of a millisecond each),
        so a move of another match waits at most that long for them; a pick made before they are done is
        drawn as usual. Not with a running tournament clock (the picture shows it, so it is not known
        ahead) or without animation. The sowing is the channel's: drawn in the server's language."""
        self.stop_ahead(match.id)
        speed = match.options.get("speed", "normal")
        view = match.view(None)
        if (match.status != Status.RUNNING or speed == "off" or view.to_move is None
                or match.seats[view.to_move].is_ai or match.rec.clocks):
            return
        names = match.names()
        guild_id = match.rec.guild_id
        with public(guild_id):
            prepare_sowing(view, names=names, speed=speed)
            picks = []
            for letter, count in view.side(view.to_move):
                if count:
                    after, events = self.service.preview(match, view.to_move, letter)
                    picks.append((events, after.view(None)))
        self.run_ahead(match.id, self._encode_ahead(match.id, view, picks, names, speed, guild_id))

    async def _encode_ahead(self, match_id: int, view: Any, picks: list[tuple[Any, Any]], names: Any,
                            speed: str, guild_id: int | None = None) -> None:
        try:
            with public(guild_id):  # this task's own context: the language stays while it waits
                for _step in sowings_ahead(view, picks, names=names, speed=speed):
                    await asyncio.sleep(0)  # the loop's other work goes first
        except Exception:  # only a head start: the pick draws its sowing anyway
            log.exception("encoding the sowings of match %s ahead failed", match_id)

    async def picture(self, match: Match, result: Result | None) -> discord.File:
        """The pick's sowing as encoded ahead when it is ready (no worker thread needed), else drawn. Picks
        in a row (the computer's after the player's) are put together in a worker thread, the first one's
        sowing taken as encoded ahead if it was (:func:`picks_gif`)."""
        self.stop_ahead(match.id)  # the position they were for is gone
        if result is not None and self._animated(match, result):
            with in_channel(match):
                picks = self._sowings(match, result)
                data = ready_sowing(*picks[0], **self._sowing_options(match)) if len(picks) == 1 else None
                if data is not None:
                    return self.described(match, result, data, "sowing.gif")
        return await super().picture(match, result)

    WARM_GAMES = 6

    def warm_pictures(self) -> None:
        """Also the sowings of a few seeded games: an animation is put together from kept pictures of its
        slots (bot/games/egg_carton/sowing.py), and the first moves of a fresh process would otherwise
        draw most of them."""
        super().warm_pictures()
        names = self.WARM_NAMES[:2]
        for seed in range(1, self.WARM_GAMES + 1):
            for before, events, after in sample_plays(self.game.rules, 2, seed):
                sowing_gif(before, events, after, names=names)

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        view = match.view(None)
        if view.to_move is None:
            return []
        items: list[discord.ui.Item[Any]] = []
        for i, (letter, count) in enumerate(view.side(view.to_move)):
            items.append(v.button(match.id, match.version, f"m:{letter}", label=f"{letter} · {count}",
                                  style=discord.ButtonStyle.primary, disabled=count == 0, row=i // 3))
        return items

    def _animated(self, match: Match, result: Result | None) -> bool:
        return (
            match.options.get("speed", "normal") != "off"
            and result is not None
            and any(ply.before is not None and _sows(ply.events) for ply in result.steps())
            and self.game.animate is not None
        )

    @staticmethod
    def _sowings(match: Match, result: Result) -> list[tuple[Any, Any, Any]]:
        """(view before, events, view after) of each pick the answer shows, in order: the player's, then
        each of the computer's picks that came with it (``Result.then``)."""
        plies = [ply for ply in result.steps() if ply.before is not None]
        views = [match.rules.view(ply.before, None) for ply in plies] + [match.view(None)]
        return [(views[i], ply.events, views[i + 1]) for i, ply in enumerate(plies) if _sows(ply.events)]

    def _sowing_options(self, match: Match) -> dict[str, Any]:
        return {"names": match.names(), "speed": match.options.get("speed", "normal"),
                "clocks": match.clocks_ms(self.service.clock())}

    def picture_name(self, match: Match, result: Result | None) -> str:
        return "sowing.gif" if self._animated(match, result) else "board.png"

    def render_picture(self, match: Match, result: Result | None) -> bytes:
        with in_channel(match):  # the picture's words are the channel's
            return self._render_picture(match, result)

    def _render_picture(self, match: Match, result: Result | None) -> bytes:
        names = match.names()
        clocks = match.clocks_ms(self.service.clock())
        if result is not None and self._animated(match, result):
            # every sowing of the answer in order, played once and ending on the new position
            return picks_gif(self._sowings(match, result), **self._sowing_options(match))
        view, events = match.view(None), result.events if result else ()
        return board_png(lambda: self.game.render(view, names=names, events=events, clocks=clocks),
                         self.game_key)

    def extra_lines(self, match: Match, result: Any) -> list[str]:
        view = match.view(None)
        lines = []
        if view.again and match.status == Status.RUNNING and view.to_move is not None:
            lines.append(_("**{player} picks again** (the last marble went off the board).",
                           player=shown(match.seats[view.to_move].name)))
        clocks = match.clocks_ms(self.service.clock())
        if clocks:
            each = " · ".join(f"{shown(s.name)} {ms // 60000}:{ms // 1000 % 60:02d}"
                              for s, ms in zip(match.seats, clocks, strict=True))
            lines.append(_("Clocks: {clocks}", clocks=each))
        return lines


def _sows(events: Any) -> bool:
    return any(e.kind in ("drop", "off") for e in events)


async def setup(bot: Any) -> None:
    await bot.add_cog(EggCarton(bot))
