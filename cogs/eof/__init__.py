"""``/eof``: 2–4 players write secret programs that edit one shared file.

How the match runs on Discord:

* **Lobby** (``/eof new``): Join / Leave / Start / Cancel plus one button per
  colour — a free colour joins you in it (or switches you to it); plain Join
  takes the first free one. Colours live in the lobby seats' data and become
  the engine's ``colours`` option at start (``bot.games.eof.setup_options``).
  Joining tries a DM at once and says so if DMs are closed (the player then
  gets 🔒 "Show privately" buttons in the thread instead).
* **Deal**: the board in the match thread carries Small / Medium / Large (with
  how many are left; greyed when none), Any, and "Draw the rest for me" (the
  player's remaining draws at random sizes, one click, one board edit) for the
  drawing player; the service draws the piece, and the board shows every draw.
* **Programming**: each player gets the builder in DM (ephemeral fallback):
  the hand picture, a select of the unused pieces (each saying which
  orientations would run now), the five orientations of the chosen piece,
  each with a dry run (:func:`bot.games.eof.rules.dry_run`): what it would do
  to the file as it stands if it ran first, and after the player's own
  instructions so far; impossible and crashing-now ones are marked, still
  allowed. Undo, Submit → Confirm. The draft lives in the custom ids
  (``pb<round>:Y1R.G2L``), so the builder needs no memory and survives
  restarts. ``/eof move`` submits a whole program (in DM or the thread; the
  reply is always ephemeral); the DM builder (remembered, or found in the
  DM's recent messages) then shows the program as submitted, as it does
  when the turn limit turns a missing program into none. The thread only
  learns who has submitted.
* **Execution**: when the last program is in, the thread gets the step log
  with the animation (GIF), then the round's scores with each player's
  configurations, then a fresh board. A delete that needs permission DMs the
  asked players Allow / Deny (also on the board) and waits.
* **Time**: the platform's turn limit: a missing program becomes no program, an
  unanswered permission request a Deny, a size not chosen a random-size draw.

Program text never reaches a channel before that round's execution: the board
shows public events only, ``/eof history`` hides programs until their round is
over, and ``/eof move`` answers ephemerally.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.errors import LobbyError, StaleBoard
from bot.games.base import InvalidNotation
from bot.games.eof.notation import Program, read_instruction
from bot.games.eof.pieces import (
    SIZE_LETTERS,
    Instruction,
    counts_of,
    iter_kinds,
    parse_colour,
    size_totals,
    sub,
)
from bot.games.eof.rules import EofState, Phase, program_warnings
from bot.i18n import _
from bot.matches.service import Match
from bot.storage import Status
from cogs import _views as v
from cogs._game import EXPIRY_CHOICES, NO_MENTIONS, TURN_LIMITS
from cogs.eof.common import (
    COLOUR_CHOICES,
    DRAW_CHOICES,
    LOCKING_CHOICES,
    PENALTY_CHOICES,
    encode_draft,
)
from cogs.eof.execution import EofExecution

__all__ = ["Eof", "decode_draft", "encode_draft"]


class Eof(EofExecution, group_name="eof",
          group_description="EOF: secret programs edit a shared file"):
    """``/eof``: the slash commands (new, move) on top of the parts in this package."""

    @app_commands.command(name="new",
                          description="Open an EOF lobby (2-4 players)")
    @app_commands.describe(
        locking="Deleting a record that holds another player's pointer",
        crash_penalty="Does a crashed program lose points?",
        draw="feel: pick the size of each draw; blind: random sizes",
        turn_limit="Time per turn (a missing program becomes no program)",
        colour="Your colour (the others choose theirs when they join)",
        expires="How long the lobby stays open (default 15 minutes)",
    )
    @app_commands.choices(locking=LOCKING_CHOICES, crash_penalty=PENALTY_CHOICES, draw=DRAW_CHOICES,
                          turn_limit=TURN_LIMITS, colour=COLOUR_CHOICES, expires=EXPIRY_CHOICES)
    async def new(self, interaction: discord.Interaction, locking: app_commands.Choice[str] | None = None,
                  crash_penalty: app_commands.Choice[str] | None = None,
                  draw: app_commands.Choice[str] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None,
                  colour: app_commands.Choice[str] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        if interaction.guild_id is None:
            raise LobbyError(_("Start matches in a server channel."))
        await self.check_one_per_thread(interaction)
        options = {"locking": locking.value if locking else "none",
                   "crash_penalty": crash_penalty.value if crash_penalty else "off",
                   "draw": draw.value if draw else "feel"}
        host = await self.player_for(interaction.user)
        match = await self.service.create(
            self.game_key,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host=host,
            opponent=None,
            options=options,
            turn_limit=turn_limit.value if turn_limit else None,
            expires=expires.value if expires else None,
        )
        if colour is not None:
            match = await self.service.update_seat_data(match.id, host.user_id, {"colour": colour.value})
        embed, view = self.invite_message(match)
        cb = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_place(match.id, message_id=cb.resource.id)
            match.rec.message_id = cb.resource.id
        await self.check_can_join(interaction, match)

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        if action.startswith("col:"):
            try:
                colour = parse_colour(action[4:])
            except ValueError:
                raise StaleBoard(_("That button does nothing any more.")) from None
            await self.join_in_colour(interaction, match, colour)
            return
        if action == "rest":
            await self.draw_rest(interaction, match, version)
            return
        if action == "open":
            seat = self._player_seat(match, interaction)
            await interaction.response.send_message(**await self.builder_payload(match, seat), ephemeral=True)
            return
        m = re.fullmatch(r"(pb|pk|pc)(\d+):([A-Za-z0-9.]*)", action)
        if m:
            await self.on_builder(interaction, match, m[1], int(m[2]), m[3], values)
            return
        m = re.fullmatch(r"an:(\d+)\.(\d+):(allow|deny)", action)
        if m:
            await self.on_answer(interaction, match, int(m[1]), int(m[2]), m[3])
            return
        raise StaleBoard(_("That button does nothing any more."))

    async def match_here(self, interaction: discord.Interaction, *, running: bool = True) -> Match:
        match = await super().match_here(interaction, running=running)
        if interaction.guild_id is None:  # in DMs: prefer a match waiting for this player
            found = await self.service.find_for_user(interaction.user.id, game=self.game_key)
            for m in found:
                seat = m.seat_of(interaction.user.id)
                if m.status == Status.RUNNING and seat is not None and seat in m.to_act():
                    return m
        return match

    @app_commands.command(
        name="move",
        description=("Submit your program (only you see the reply), "
                     "or draw S/M/L, allow, deny"),
    )
    @app_commands.describe(
        notation=('Five instructions, e.g. "Y1R G2L B3S R1R G1U"; '
                  "or draw S / M / L, allow, deny"),
    )
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:  # type: ignore[override]  # discord.py types a command by its cog class, so every override 'differs'
        match = await self.match_here(interaction)
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if s.phase is Phase.PROGRAM and seat in match.to_act():
            move = match.rules.parse(notation, s, seat)
            if isinstance(move, Program) and not move.skip and program_warnings(move):
                warn = "\n".join(f"⚠️ {w}" for w in program_warnings(move))
                view = v.view_of(v.button(match.id, None, f"pc{s.round}:{encode_draft(move.instructions)}",
                                          label=_("Submit anyway"), style=discord.ButtonStyle.danger))
                await interaction.response.send_message(f"`{move}`\n{warn}\n" + _("Submit it anyway?"),
                                                        view=view, ephemeral=True)
                return
        result = await self.service.play(match.id, interaction.user.id, notation)
        played = next((mv.notation for mv in result.moves if mv.seat == seat), notation)
        submitted = (
            s.phase is Phase.PROGRAM and not played.startswith("draw") and played not in ("allow", "deny")
        )
        if submitted:
            text = (_("No program this round (skip).") if played == "skip"
                    else _("Program submitted for round {round}: `{program}`", round=s.round, program=played))
        else:
            text = _("Played `{move}`.", move=played)
        await interaction.response.send_message(text, ephemeral=True)
        if submitted:
            prog = match.rules.parse(played, s, seat)
            await self.close_builder(
                result.match, seat, s.round, prog if isinstance(prog, Program) else Program(())
            )
        await self.present(result.match, result)

    @move.autocomplete("notation")
    async def eof_move_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        return await self.move_choices(interaction, current)

    def suggestions(self, match: Match, seat: int, current: str) -> list[str]:
        return [value for _label, value in self.suggestion_pairs(match, seat, current)]

    def suggestion_pairs(self, match: Match, seat: int, current: str) -> list[tuple[str, str]]:
        """(label, notation) suggestions built from the hand, never from the millions of legal programs."""
        s: EofState = match.state
        cur = current.strip()
        if s.phase is Phase.DEAL:
            sizes = size_totals(s.bag)
            opts = [f"draw {SIZE_LETTERS[i]}" for i in range(3) if sizes[i]]  # not translated: notation
            opts.append("draw any")  # not translated: notation
            return [(o, o) for o in opts if o.lower().startswith(cur.lower()) or not cur]
        if s.phase is Phase.PERMISSION:
            return [(o, o) for o in ("allow", "deny") if o.startswith(cur.lower())]
        if s.phase is not Phase.PROGRAM:
            return []
        parts = [p for p in re.split(r"[\s,;]+", cur.upper()) if p]
        # glued instructions ("Y1RG2L") count as separate ones
        tokens: list[str] = []
        for p in parts:
            tokens += [p[i:i + 3] for i in range(0, len(p), 3)]
        partial = ""
        if tokens and ((current[-1:] not in (" ", ",", ";") and len(tokens[-1]) < 3) or
                       not re.fullmatch(r"[RYGB][1-3][UDLRS]", tokens[-1])):
            partial = tokens.pop()
        try:
            done = [read_instruction(t) for t in tokens]
        except InvalidNotation:
            return []
        hand = s.hands[seat]
        use = counts_of(i.piece for i in done)
        if any(a > b for a, b in zip(use, hand, strict=True)):
            return []
        need = s.required_length(seat)
        prefix = " ".join(map(str, done))
        if len(done) >= need:
            if len(done) == need and not partial:
                return [(_("{program} — submit this program", program=prefix), prefix)]
            return []
        left = sub(hand, use)
        valid: list[tuple[str, str]] = []
        invalid: list[tuple[str, str]] = []
        for piece, _n in iter_kinds(left):
            for o in range(5):
                ins = Instruction(piece.colour, piece.size, o)
                if partial and not str(ins).startswith(partial):
                    continue
                text = f"{prefix} {ins}".strip()
                label = f"{text} — {ins.describe()}"
                (valid if ins.is_valid else invalid).append((label, text))
        return valid + invalid


async def setup(bot: Any) -> None:
    await bot.add_cog(Eof(bot))
