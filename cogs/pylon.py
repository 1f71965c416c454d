"""``/pylon``: place pyramids, then stack them.

Board components (all within Discord's limits):
* placement: three size buttons (with how many are left); after a size, one or
  two selects of the empty squares (≤ 25 options each) — picking a square plays;
* stacking: one or two selects of the stacks that can move; after a source,
  the four direction buttons (only legal ones enabled) and Back;
* "Agree to end" for either player during stacking.
"""

from __future__ import annotations

import random
import re
from typing import Any

import discord
from discord import app_commands

from bot.errors import NotAPlayer, StaleBoard
from bot.games.pylon import wants_to_agree
from bot.games.pylon.notation import SIZE_LETTERS, SQUARE_NAMES, parse_square, size_word, step
from bot.i18n import N_, _, ngettext
from bot.matches.service import Match, Result
from bot.matches.workers import think
from bot.names import shown
from bot.storage import Status
from cogs import _views as v
from cogs._game import EXPIRY_CHOICES, FIRST_CHOICES, TURN_LIMITS, GameCog
from cogs._game.puzzle import PuzzleCog

ARROWS = {"N": "⬆️", "E": "➡️", "S": "⬇️", "W": "⬅️"}
WORDS = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
"""The directions' button words in English (look each up with ``_()``)."""
LEVELS = [app_commands.Choice(name=x, value=x) for x in ("easy", "medium", "hard")]


def stack_text(stack: tuple[tuple[int, int], ...], seat_names: tuple[str, ...]) -> str:
    """``Red large on top, height 3`` in the current language (``seat_names``: the sides' English names)."""
    owner, size = stack[-1]
    return _("{side} {size} on top, height {height}", side=_(seat_names[owner]), size=size_word(size),
             height=len(stack))


def size_button(size: int, left: int) -> str:
    """The label of a size's button: ``Large (5 left)``."""
    if size == 1:
        return ngettext("Small ({n} left)", "Small ({n} left)", left)
    if size == 2:
        return ngettext("Medium ({n} left)", "Medium ({n} left)", left)
    return ngettext("Large ({n} left)", "Large ({n} left)", left)


def agree_sentence(score: str, verdict: int, other: str, already: bool) -> str:
    """What "Agree to end" asks to confirm: ``verdict`` 1 a win, -1 a loss, 0 a draw at ``score`` (the
    reader's score first); ``already``: the other player (``other``) has agreed, else the computer answers."""
    if already:
        if verdict > 0:
            return _("End now at **{score}**? {player} has already agreed, so the game ends at once: you "
                     "would win {score}.", score=score, player=other)
        if verdict < 0:
            return _("End now at **{score}**? {player} has already agreed, so the game ends at once: you "
                     "would lose {score} ({player} wins).", score=score, player=other)
        return _("End now at **{score}**? {player} has already agreed, so the game ends at once: it would be "
                 "a {score} draw.", score=score, player=other)
    if verdict > 0:
        return _("End now at **{score}**? The computer answers at once, and if it accepts the game ends: you "
                 "would win {score}.", score=score)
    if verdict < 0:
        return _("End now at **{score}**? The computer answers at once, and if it accepts the game ends: you "
                 "would lose {score} ({player} wins).", score=score, player=other)
    return _("End now at **{score}**? The computer answers at once, and if it accepts the game ends: it "
             "would be a {score} draw.", score=score)


# Slash command descriptions and choice names are read from the command tree into the commands catalog and
# translated by discord.py's translator (bot/i18n/commands.py), not by _().
class Pylon(PuzzleCog, GameCog, group_name="pylon",
            group_description="Pylon: place pyramids, then stack them"):
    game_key = "pylon"

    @app_commands.command(
        name="new",
        description="Start a Pylon match (no opponent: open a lobby)",
    )
    @app_commands.describe(
        expires="How long the invitation stays open (default 15 minutes)",
        opponent="Who to challenge (pick me to play the computer)",
        first="Who places the first pyramid",
        turn_limit="Time per move",
        level="Computer strength (when playing me)",
    )
    @app_commands.choices(expires=EXPIRY_CHOICES,
                          first=FIRST_CHOICES, turn_limit=TURN_LIMITS, level=LEVELS)
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  first: app_commands.Choice[str] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None,
                  level: app_commands.Choice[str] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        options = {"first": first.value if first else "challenger"}
        await self.create_match(interaction, opponent=opponent, level=level.value if level else None,
                                options=options, turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    # ------------------------------------------------------------ components

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        view = match.view(None)
        mid, ver = match.id, match.version
        items: list[discord.ui.Item[Any]] = []
        if view.phase == "placement":
            chosen = int(state[1:]) if state.startswith("z") else None
            stash = view.stash[view.to_move]
            for size in (1, 2, 3):
                left = stash[size - 1]
                style = discord.ButtonStyle.primary if size == chosen else discord.ButtonStyle.secondary
                items.append(
                    v.button(
                        mid,
                        ver,
                        f"z{size}",
                        label=size_button(size, left),
                        style=style,
                        disabled=left == 0,
                        row=0,
                    )
                )
            if chosen is not None:
                empty = [SQUARE_NAMES[sq] for sq in view.empty]
                for i, part in enumerate(v.chunks(empty)):
                    opts = [discord.SelectOption(label=f"{SIZE_LETTERS[chosen]} {name}", value=name)
                            for name in part]
                    items.append(v.select(mid, ver, f"pl{chosen}.{i}", opts,
                                          placeholder=_("Place the {size} pyramid on… ({first}–{last})",
                                                        size=size_word(chosen), first=part[0], last=part[-1]),
                                          row=1 + i))
            return items
        if view.phase != "stacking":
            return items
        if state.startswith("src"):
            source = parse_square(state[3:])
            legal = dict(view.directions).get(source, ())
            for d in ("N", "E", "S", "W"):
                target = step(source, d)
                label = _(WORDS[d]) + (f" → {SQUARE_NAMES[target]}" if target is not None else "")
                items.append(v.button(mid, ver, f"m:{SQUARE_NAMES[source]}-{SQUARE_NAMES[target]}"
                                      if target is not None else f"off{d}", label=label, emoji=ARROWS[d],
                                      style=discord.ButtonStyle.primary, disabled=d not in legal, row=1))
            items.append(v.button(mid, ver, "back", label=_("Back"), row=1))
        else:
            sources = [sq for sq, _dirs in view.directions]
            for i, part in enumerate(v.chunks(sources)):
                opts = [discord.SelectOption(label=SQUARE_NAMES[sq],
                                             description=stack_text(view.board[sq], view.seat_names)[:100],
                                             value=SQUARE_NAMES[sq]) for sq in part]
                items.append(v.select(mid, ver, f"src.{i}", opts,
                                      placeholder=_("Move the stack on… ({first}–{last})",
                                                    first=SQUARE_NAMES[part[0]], last=SQUARE_NAMES[part[-1]]),
                                      row=1 + i))
        agreed = [match.seats[s].name for s in (0, 1) if view.agreed[s]]
        label = (_("Agree to end ({players} agreed)", players=", ".join(agreed)) if agreed
                 else _("Agree to end"))
        items.append(v.button(mid, ver, "agree?", label=label[:80], style=discord.ButtonStyle.danger, row=0))
        return items

    @staticmethod
    def agree_score(match: Match, seat: int) -> str:
        """The score as it stands, as ``seat`` reads it: their own score first ("14–16" when behind)."""
        scores = match.view(None).scores
        return f"{scores[seat]}–{scores[1 - seat]}"

    def agree_question(self, match: Match, seat: int) -> str | None:
        """What to confirm before ``seat`` agrees to end, when that may end the game at once (else None)."""
        view = match.view(None)
        other = match.seats[1 - seat]
        if not (view.agreed[other.seat] or other.is_ai):
            return None  # only an offer: the other player still decides
        mine, theirs = view.scores[seat], view.scores[other.seat]
        score = self.agree_score(match, seat)
        verdict = (mine > theirs) - (mine < theirs)
        return agree_sentence(score, verdict, shown(other.name), bool(view.agreed[other.seat]))

    def confirm_text(self, match: Match, notation: str) -> str | None:
        view = match.view(None)
        if notation == "agree" and view.to_move is not None:
            return self.agree_question(match, view.to_move)
        return None

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        if action == "agree?":  # either player, in turn or not
            await self.ask_to_agree(interaction, match, version)
            return
        if action == "agree-no":
            await interaction.response.edit_message(content=_("Not ended: play on."), view=None)
            return
        await self.check_picker(interaction, match, version)
        size_button = re.fullmatch(r"z[123]", action)
        place_select = re.fullmatch(r"pl([123])\.\d{1,2}", action)
        if size_button:
            await self.edit_board(interaction, match, action)
        elif place_select and values:
            size = int(place_select[1])
            await self.play_from_component(
                interaction, match.id, version, f"{SIZE_LETTERS[size]} {values[0]}", loaded=match
            )
        elif action.startswith("src") and values:
            await self.edit_board(interaction, match, f"src{values[0]}")
            view = match.view(None)
            source = parse_square(values[0])
            if view.to_move is not None:  # the next click is a direction: each one's board is drawn meanwhile
                targets = [step(source, d) for d in dict(view.directions).get(source, ())]
                self.draw_ahead(match, view.to_move, [f"{values[0]}-{SQUARE_NAMES[t]}" for t in targets
                                                      if t is not None])
        elif action == "back":
            await self.edit_board(interaction, match, "")
        else:
            raise StaleBoard(_("That button does nothing any more."))

    async def ask_to_agree(self, interaction: discord.Interaction, match: Match, version: int | None) -> None:
        """ "Agree to end": played at once when it is only an offer; confirmed first when it may end the
        game."""
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(_("You are not playing in this match."))
        if version is not None and version != match.version:
            raise StaleBoard(_("This board is out of date: the position has changed. Use the newest board."))
        question = self.agree_question(match, seat) if match.view(None).can_agree[seat] else None
        if question is None:
            await self.play_from_component(interaction, match.id, version, "agree")
            return
        score = self.agree_score(match, seat)
        yes = v.button(match.id, match.version, "cf:agree", label=_("Yes, end at {score}", score=score),
                       style=discord.ButtonStyle.danger)
        view = v.view_of(yes, v.button(match.id, match.version, "agree-no", label=_("No, play on")))
        await interaction.response.send_message(question, view=view, ephemeral=True)

    async def after_result(self, match: Match, result: Result) -> None:
        await super().after_result(match, result)
        # A human pressed "Agree to end" while the computer is not the one to move: ask the computer too.
        if match.status != Status.RUNNING or not result.moves or result.moves[-1].notation != "agree":
            return
        ai = next((s for s in match.seats if s.is_ai), None)
        if ai is None or ai.seat in match.to_act() or not match.view(None).can_agree[ai.seat]:
            return
        rng = random.Random(f"{match.rec.seed}:agree:{match.version}")
        if await think(wants_to_agree, match.state, ai.seat, rng, ai.ai_level):
            reply = await self.service.play(match.id, ai.user_id, "agree", seat=ai.seat)
            await self.refresh_board(reply.match, reply)
            await super().after_result(reply.match, reply)

    def extra_lines(self, match: Match, result: Any) -> list[str]:
        view = match.view(None)
        names = [self.seat_label(match, s) for s in (0, 1)]
        lines = [_("Score: {player} {score} – {other_score} {other}", player=names[0], score=view.scores[0],
                   other_score=view.scores[1], other=names[1])]
        if view.phase == "placement":
            lines.append(ngettext("Placement: {n} pyramid still to place.",
                                  "Placement: {n} pyramids still to place.", view.to_place))
        elif view.phase == "stacking" and any(view.agreed):
            who = ", ".join(shown(match.seats[s].name) for s in (0, 1) if view.agreed[s])
            lines.append(_("Agreed to end: {players} (the game ends when both agree).", players=who))
        return lines


async def setup(bot: Any) -> None:
    await bot.add_cog(Pylon(bot))
