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

import asyncio
import dataclasses
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.errors import LobbyError, NotAPlayer, NotYourTurn, StaleBoard
from bot.games.base import CHANCE, Event, GameError, InvalidNotation
from bot.games.eof import setup_options
from bot.games.eof.notation import SKIP, Program, read_instruction
from bot.games.eof.pieces import (
    COLOUR_NAMES,
    ORIENT_NAMES,
    SIZE_LETTERS,
    VALID_ORIENTS,
    Instruction,
    Piece,
    counts_of,
    iter_kinds,
    parse_colour,
    size_totals,
    sub,
)
from bot.games.eof.render import PIECE_COLOURS, deal_progress
from bot.games.eof.rules import HAND, EofState, Phase, dry_run, program_warnings
from bot.games.eof.scoring import Configuration
from bot.matches.service import Match, Result
from bot.names import shown as safe
from bot.render import gif_bytes, png_bytes
from bot.storage import MoveRecord, Status
from cogs import _views as v
from cogs._game import COLOUR_INFO, EXPIRY_CHOICES, NO_MENTIONS, TURN_LIMITS, GameCog, picture_file

log = logging.getLogger(__name__)

COLOUR_EMOJI = ("🟥", "🟨", "🟩", "🟦")
ORIENT_EMOJI = ("⬆️", "⬇️", "⬅️", "➡️", "⏺️")
SIZE_WORDS = ("small", "medium", "large")
LOCKING_CHOICES = [
    app_commands.Choice(name="none: any record may be deleted", value="none"),
    app_commands.Choice(name="locks, crash: deleting a held record crashes", value="locks-crash"),
    app_commands.Choice(name="locks, no crash: the delete stops there", value="locks-nocrash"),
    app_commands.Choice(name="permission, crash: ask; a Deny crashes", value="permission-crash"),
    app_commands.Choice(name="permission, no crash: ask; a Deny stops it", value="permission-nocrash"),
]
PENALTY_CHOICES = [
    app_commands.Choice(name="off: a crash scores 0", value="off"),
    app_commands.Choice(name="on: -1 per instruction not run", value="on"),
]
DRAW_CHOICES = [
    app_commands.Choice(name="feel: choose the size of each draw", value="feel"),
    app_commands.Choice(name="blind: sizes are random too", value="blind"),
]
COLOUR_CHOICES = [app_commands.Choice(name=name, value=name) for name in COLOUR_NAMES]
EXECUTION_KINDS = frozenset({"execute", "step", "score"})
LOG_CHUNK = 3800
"""Characters of step log per embed (Discord allows 4096 per description, 6000 per message)."""
DMS_CLOSED = ("I cannot DM you (your DMs are closed for this server), so your hand, your program builder and "
              "permission questions will be behind a 🔒 **Show privately** button in the match thread — only you "
              "can open it. To get them in DMs instead, allow direct messages from server members.")


def _colour_name(c: int) -> str:
    return COLOUR_NAMES[c].capitalize()


def encode_draft(draft: Sequence[Instruction]) -> str:
    """``Y1R.G2L`` — the program being built, as kept in the builder's custom ids."""
    return ".".join(map(str, draft))


def decode_draft(code: str) -> tuple[Instruction, ...]:
    """The inverse of :func:`encode_draft`.

    Raises:
        InvalidNotation: not a draft.
    """
    return tuple(read_instruction(x) for x in code.split(".") if x)


def _move_kind(mv: MoveRecord) -> str:
    """``chance`` / ``size`` / ``answer`` / ``program`` for a logged EOF move."""
    if mv.seat == CHANCE:
        return "chance"
    text = mv.notation.strip().lower()
    if text.startswith("draw"):
        return "size"
    if text in ("allow", "deny"):
        return "answer"
    return "program"


class Eof(GameCog, group_name="eof", group_description="EOF: secret programs edit a shared file"):
    game_key = "eof"

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self._builders: dict[tuple[int, int, int], tuple[int, int]] = {}
        """(match, seat, round) -> (DM channel, message) of the program builders sent this process."""

    # ================================================================ creating and the lobby

    @app_commands.command(name="new", description="Open an EOF lobby (2-4 players)")
    @app_commands.describe(locking="Deleting a record that holds another player's pointer",
                           crash_penalty="Does a crashed program lose points?",
                           draw="feel: pick the size of each draw; blind: random sizes",
                           turn_limit="Time per turn (a missing program becomes no program)",
                           colour="Your colour (the others choose theirs when they join)",
                           expires="How long the lobby stays open (default 15 minutes)")
    @app_commands.choices(locking=LOCKING_CHOICES, crash_penalty=PENALTY_CHOICES, draw=DRAW_CHOICES,
                          turn_limit=TURN_LIMITS, colour=COLOUR_CHOICES, expires=EXPIRY_CHOICES)
    async def new(self, interaction: discord.Interaction, locking: app_commands.Choice[str] | None = None,
                  crash_penalty: app_commands.Choice[str] | None = None,
                  draw: app_commands.Choice[str] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None,
                  colour: app_commands.Choice[str] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        if interaction.guild_id is None:
            raise LobbyError("Start matches in a server channel.")
        await self.check_one_per_thread(interaction)
        options = {"locking": locking.value if locking else "none",
                   "crash_penalty": crash_penalty.value if crash_penalty else "off",
                   "draw": draw.value if draw else "feel"}
        host = await self.player_for(interaction.user)
        match = await self.service.create(self.game_key, guild_id=interaction.guild_id,
                                          channel_id=interaction.channel_id or 0, host=host, opponent=None,
                                          options=options, turn_limit=turn_limit.value if turn_limit else None,
                                          expires=expires.value if expires else None)
        if colour is not None:
            match = await self.service.update_seat_data(match.id, host.user_id, {"colour": colour.value})
        embed, view = self.invite_message(match)
        cb = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_place(match.id, message_id=cb.resource.id)
            match.rec.message_id = cb.resource.id
        await self.check_can_join(interaction, match)

    def lobby_colours(self, match: Match) -> list[int]:
        """The colour of each lobby seat: its choice, or the first free one (what the start will use)."""
        opts = setup_options({}, list(match.seats))
        return [parse_colour(c) for c in opts["colours"].split(",")] if match.seats else []

    def colours(self, match: Match) -> list[int]:
        if match.state is not None:
            return list(match.state.colours)
        return self.lobby_colours(match)

    def seat_note(self, match: Match, seat: int) -> str:
        cols = self.lobby_colours(match)
        if seat >= len(cols):
            return ""
        return f" — {COLOUR_EMOJI[cols[seat]]} {_colour_name(cols[seat])}"

    def lobby_extra_items(self, match: Match) -> list[discord.ui.Item[Any]]:
        cols = self.lobby_colours(match)
        items: list[discord.ui.Item[Any]] = []
        for c, name in enumerate(COLOUR_NAMES):
            holder = next((match.seats[i].name for i, x in enumerate(cols) if x == c), None)
            label = _colour_name(c) if holder is None else f"{_colour_name(c)} · {holder}"
            items.append(v.button(match.id, None, f"col:{name}", label=label[:80], emoji=COLOUR_EMOJI[c],
                                  disabled=holder is not None, row=1))
        return items

    async def on_lobby_action(self, interaction: discord.Interaction, match: Match, action: str) -> None:
        if action == "join":
            await self.join_in_colour(interaction, match, None)
            return
        await super().on_lobby_action(interaction, match, action)

    async def join_in_colour(self, interaction: discord.Interaction, match: Match, colour: int | None) -> None:
        """Join the lobby in ``colour`` (None: the first free one), or switch to it if already seated."""
        if match.status != Status.LOBBY:
            raise LobbyError("This lobby is closed.")
        uid = interaction.user.id
        cols = self.lobby_colours(match)
        seat = match.seat_of(uid)
        if seat is not None:
            if colour is None:
                raise LobbyError("You are already in this lobby.")
            if cols[seat] == colour:
                raise LobbyError(f"You already play {_colour_name(colour)}.")
            if colour in cols:
                raise LobbyError(f"{_colour_name(colour)} is taken; pick a free colour.")
            m = await self.service.update_seat_data(match.id, uid, {"colour": COLOUR_NAMES[colour]})
            embed, view = self.invite_message(m)
            await interaction.response.edit_message(embed=embed, view=view, content=None)
            return
        free = [c for c in range(len(COLOUR_NAMES)) if c not in cols]
        if colour is not None and colour not in free:
            raise LobbyError(f"{_colour_name(colour)} is taken; pick a free colour.")
        if colour is None and free:
            colour = free[0]
        result = await self.service.join(match.id, await self.player_for(interaction.user))
        m = result.match
        if colour is not None:
            m = await self.service.update_seat_data(match.id, uid, {"colour": COLOUR_NAMES[colour]})
        embed, view = self.invite_message(m)
        await interaction.response.edit_message(embed=embed, view=view, content=None)
        await self.check_can_join(interaction, m)

    async def check_can_join(self, interaction: discord.Interaction, match: Match) -> None:
        """Try a DM right away; if DMs are closed, say so (ephemerally) at once."""
        cols = self.lobby_colours(match)
        seat = match.seat_of(interaction.user.id)
        colour = f" as {COLOUR_EMOJI[cols[seat]]} {_colour_name(cols[seat])}" if seat is not None else ""
        text = (f"**{self.spec.title} #{match.id}** · [back to the lobby]({self.jump_url(match)})\n"
                f"You are in the lobby{colour}. Your hand, your program builder and any permission questions "
                "will come here, in DMs.")
        ok = await self.dms_open(interaction.user, text)
        interaction.extras["dms_open"] = ok
        if not ok:
            await interaction.followup.send(DMS_CLOSED, ephemeral=True, allowed_mentions=NO_MENTIONS)

    # ================================================================ labels and the board text

    def seat_label(self, match: Match, seat: int) -> str:
        cols = self.colours(match)
        name = safe(match.seats[seat].name)
        return f"{name} ({_colour_name(cols[seat])})" if seat < len(cols) else name

    def _who(self, match: Match, seat: int) -> str:
        """``🟥 **alice**`` for embeds (markdown in names escaped)."""
        cols = self.colours(match)
        emoji = COLOUR_EMOJI[cols[seat]] + " " if seat < len(cols) else ""
        return f"{emoji}**{safe(match.seats[seat].name)}**"

    def status_line(self, match: Match) -> str:
        if match.status != Status.RUNNING or match.state is None:
            return super().status_line(match)
        s: EofState = match.state
        deadline = f" · turn ends <t:{int(match.rec.deadline)}:R>" if match.rec.deadline else ""
        if s.phase is Phase.DEAL and s.drawer is not None:
            t = s.drawer
            k = len(s.draws[t])
            what = "choose the size of the next draw below" if s.feel and s.size_choice < 0 else "drawing"
            return f"**Deal, round {s.round}:** <@{match.seats[t].user_id}> {deal_progress(k)}: {what}{deadline}"
        if s.phase is Phase.PROGRAM:
            waiting = ", ".join(f"<@{match.seats[t].user_id}>" for t in range(s.seats) if s.programs[t] is None)
            done = ", ".join(self._who(match, t) for t in range(s.seats) if s.programs[t] is not None)
            line = f"**Programming, round {s.round}:** waiting for {waiting or 'nobody'}{deadline}"
            return line + (f"\nProgram in: {done}" if done else "")
        if s.phase is Phase.PERMISSION:
            view = match.view(None)
            pd = view.pending
            if pd is not None:
                asked = ", ".join(f"<@{match.seats[t].user_id}>" for t in pd.asked if t not in pd.allowed)
                return (f"**Execution paused:** {self._who(match, pd.seat)} `{pd.instruction}` wants to delete "
                        f"record {pd.record + 1} ({pd.piece}); waiting for {asked} to allow or deny{deadline}")
        return super().status_line(match)

    def last_move_text(self, match: Match, result: Result | None) -> str:
        """Public events only (never a move's notation: programs are secret until executed)."""
        if result is None:
            return ""
        texts = [e.text for e in result.events
                 if e.visible_to is None and e.text and e.kind not in EXECUTION_KINDS]
        if result.message:
            texts.insert(0, result.message)
        if not texts:
            return ""
        shown = texts[-4:]
        more = "… " if len(texts) > len(shown) else ""
        return "Last: " + more + " ".join(safe(t) for t in shown)

    def extra_lines(self, match: Match, result: Result | None) -> list[str]:
        s: EofState | None = match.state
        if s is None:
            return []
        scores = " · ".join(f"{self._who(match, t)} {s.scores[t]}" for t in range(s.seats))
        rnd = "" if s.phase is Phase.OVER else f"Round {s.round}/4 · "
        return [f"{rnd}Scores: {scores}"]

    def history_lines(self, match: Match, moves: Sequence[Any]) -> list[str]:
        """Moves by round; a program shows as "submitted a program" until its round has been executed."""
        rounds: list[list[MoveRecord]] = [[]]
        programmed = False
        for mv in moves:
            kind = _move_kind(mv)
            if kind in ("chance", "size") and programmed:
                rounds.append([])
                programmed = False
            if kind in ("program", "answer"):
                programmed = True
            rounds[-1].append(mv)
        over = match.status != Status.RUNNING
        out: list[str] = []
        for i, group in enumerate(rounds):
            if not group:
                continue
            revealed = over or i < len(rounds) - 1
            out.append(f"**Round {i + 1}**")
            pending_size = ""
            for mv in group:
                kind = _move_kind(mv)
                name = (safe(match.seats[mv.seat].name) if 0 <= mv.seat < len(match.seats)
                        else "🎲")
                if kind == "size":
                    pending_size = f"{name}: `{mv.notation}`"
                    continue
                if kind == "chance":
                    if pending_size:
                        out.append(f"{pending_size} → `{mv.notation}`")
                    elif out and out[-1].startswith("🎲"):  # blind draws: one line
                        out[-1] += f" `{mv.notation}`"
                    else:
                        out.append(f"🎲 `{mv.notation}`")
                    pending_size = ""
                    continue
                if kind == "program":
                    text = f"`{mv.notation}`" if revealed else "submitted a program"
                    auto = " (turn limit)" if mv.user_id is None else ""
                    out.append(f"{name}: {text}{auto}")
                else:
                    out.append(f"{name}: `{mv.notation}`")
            if pending_size:
                out.append(pending_size)
        return out

    # ================================================================ board components

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        s: EofState | None = match.state
        if s is None or match.status != Status.RUNNING:
            return []
        mid, ver = match.id, match.version
        items: list[discord.ui.Item[Any]] = []
        if s.phase is Phase.DEAL and s.feel and s.size_choice < 0 and s.drawer is not None:
            sizes = size_totals(s.bag)
            for i, word in enumerate(SIZE_WORDS):
                items.append(v.button(mid, ver, f"m:{SIZE_LETTERS[i]}", label=f"{word.capitalize()} ({sizes[i]} left)",
                                      style=discord.ButtonStyle.primary, disabled=sizes[i] == 0, row=0))
            items.append(v.button(mid, ver, "m:any", label="Any size", row=0))
            left = HAND - len(s.draws[s.drawer])
            if left > 1:
                items.append(v.button(mid, ver, "rest", label=f"Draw the rest for me ({left})", emoji="🎲", row=1))
        elif s.phase is Phase.PROGRAM:
            items.append(v.button(mid, None, "open", label="Write my program", emoji="📝",
                                  style=discord.ButtonStyle.primary))
        elif s.phase is Phase.PERMISSION:
            tag = f"{s.round}.{s.turn}"
            items.append(v.button(mid, None, f"an:{tag}:allow", label="Allow the deletion",
                                  style=discord.ButtonStyle.success))
            items.append(v.button(mid, None, f"an:{tag}:deny", label="Deny", style=discord.ButtonStyle.danger))
        return items

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        if action.startswith("col:"):
            try:
                colour = parse_colour(action[4:])
            except ValueError:
                raise StaleBoard("That button does nothing any more.") from None
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
        raise StaleBoard("That button does nothing any more.")

    async def draw_rest(self, interaction: discord.Interaction, match: Match, version: int | None) -> None:
        """``draw: feel``: the drawing player's remaining draws of this round at random sizes, in one click
        (each draw is still a logged move); the board is edited once."""
        seat = self._player_seat(match, interaction)
        if version is not None and version != match.version:
            raise StaleBoard("This board is out of date: the position has changed. Use the newest board.")
        s: EofState = match.state
        if s is None or s.phase is not Phase.DEAL or s.drawer != seat:
            raise NotYourTurn("It is not your draw.")
        events: list[Event] = []
        moves: list[MoveRecord] = []
        result: Result | None = None
        current = match
        while True:
            st: EofState = current.state
            if (current.status != Status.RUNNING or st.phase is not Phase.DEAL or st.drawer != seat
                    or st.size_choice >= 0):
                break
            result = await self.service.play(match.id, interaction.user.id, "draw any")
            events += result.events
            moves += result.moves
            current = result.match
        assert result is not None
        merged = dataclasses.replace(result, events=events, moves=moves)
        kwargs = await self.board_kwargs(current, merged)
        file = kwargs.pop("file")
        await interaction.response.edit_message(**kwargs, attachments=[file])
        await self.after_result(current, merged)

    def _player_seat(self, match: Match, interaction: discord.Interaction) -> int:
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer("You are not playing in this match.")
        return seat

    # ================================================================ private messages

    def private_header(self, match: Match) -> str:
        return f"**{self.spec.title} #{match.id}** · [back to the match]({self.jump_url(match)})"

    async def send_private(self, match: Match, seat: int, key: str, *, notice: str = "") -> bool:
        """As the platform's, and the program builder's DM is remembered (in memory; after a restart it is
        found again in the DM's recent messages) so that a program submitted elsewhere (``/eof move``, the
        thread's button, the turn limit) can close it. No database write: a write here would coincide with
        the player's first click in the DM."""
        if key != "prog":
            return await super().send_private(match, seat, key, notice=notice)
        rec = match.seats[seat]
        payload = await self.private_payload(match, seat, key)
        content = payload.get("content")
        payload["content"] = (self.private_header(match) + ("\n" + content if content else ""))[:2000]
        try:
            user = self.bot.get_user(rec.user_id) or await self.bot.fetch_user(rec.user_id)
            msg = await user.send(**payload, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:  # the platform posts the "Show privately" button
            return await super().send_private(match, seat, key, notice=notice)
        except discord.HTTPException:
            log.warning("DM to %s for match %s failed", rec.user_id, match.id, exc_info=True)
            return False
        for old in [k for k in self._builders if k[:2] == (match.id, seat)]:
            del self._builders[old]
        self._builders[(match.id, seat, match.state.round)] = (msg.channel.id, msg.id)
        return True

    async def _find_builder(self, match: Match, seat: int, rnd: int) -> tuple[int, int] | None:
        """``(channel id, message id)`` of ``seat``'s DM builder of round ``rnd``: remembered, or the newest
        one among the DM's recent messages (after a restart)."""
        known = self._builders.get((match.id, seat, rnd))
        if known is not None:
            return known
        try:
            user = self.bot.get_user(match.seats[seat].user_id) or await self.bot.fetch_user(match.seats[seat].user_id)
            channel = user.dm_channel or await user.create_dm()
            me = self.bot.user.id if self.bot.user is not None else 0
            tag = f"**{self.spec.title} #{match.id}**"
            async for msg in channel.history(limit=25):
                titles = {e.title for e in msg.embeds}
                if msg.author.id == me and tag in msg.content and f"Round {rnd}: your program" in titles:
                    return channel.id, msg.id
        except discord.HTTPException:
            log.info("could not look for the program builder of match %s", match.id, exc_info=True)
        return None

    async def close_builder(self, match: Match, seat: int, rnd: int, prog: Program, *,
                            clicked: int | None = None) -> None:
        """Show "program submitted" in ``seat``'s DM builder of round ``rnd`` (unless that is the message
        ``clicked``, which its own interaction edits)."""
        where = await self._find_builder(match, seat, rnd)
        self._builders.pop((match.id, seat, rnd), None)
        if where is None or where[1] == clicked:
            return
        s: EofState | None = match.state
        if match.status == Status.RUNNING and s is not None and s.phase is Phase.PROGRAM and s.round == rnd:
            payload = await self.builder_payload(match, seat)
        else:
            payload = self._submitted_payload(match, seat, prog)
        file = payload.get("file")
        try:
            await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(
                content=self.private_header(match), embed=payload.get("embed"), view=payload.get("view"),
                attachments=[file] if file is not None else [])
        except discord.HTTPException:
            log.info("could not update the program builder of match %s", match.id, exc_info=True)

    async def private_payload(self, match: Match, seat: int, key: str) -> dict[str, Any]:
        if key == "perm":
            return self.permission_payload(match, seat)
        return await self.builder_payload(match, seat)

    def permission_payload(self, match: Match, seat: int) -> dict[str, Any]:
        s: EofState = match.state
        pd = match.view(None).pending if s is not None and s.phase is Phase.PERMISSION else None
        if pd is None or seat not in pd.asked:
            return {"content": "No permission request is waiting for you."}
        if seat in pd.allowed:
            return {"content": "You have allowed this deletion; waiting for the others."}
        if s.locking.endswith("-crash"):
            deny = "If you deny, their program crashes."
        else:
            deny = "If you deny, their delete stops at your record."
        deadline = f" No answer <t:{int(match.rec.deadline)}:R> counts as Deny." if match.rec.deadline else ""
        embed = discord.Embed(
            title=f"Round {s.round}: allow the deletion?",
            description=(f"{self._who(match, pd.seat)} runs `{pd.instruction}` and wants to delete record "
                         f"{pd.record + 1} ({pd.piece}), which holds your pointer. If it goes, your pointer "
                         f"goes to BOF. {deny}{deadline}"),
            colour=discord.Colour.from_rgb(*PIECE_COLOURS[s.colours[seat]]))
        tag = f"{s.round}.{s.turn}"
        view = v.view_of(
            v.button(match.id, None, f"an:{tag}:allow", label="Allow", style=discord.ButtonStyle.success),
            v.button(match.id, None, f"an:{tag}:deny", label="Deny", style=discord.ButtonStyle.danger))
        return {"content": "", "embed": embed, "view": view}

    # ---------------------------------------------------------------- the program builder

    def _check_draft(self, s: EofState, seat: int, draft: Sequence[Instruction]) -> None:
        need = s.required_length(seat)
        use = counts_of(i.piece for i in draft)
        if len(draft) > need or any(a > b for a, b in zip(use, s.hands[seat], strict=True)):
            raise StaleBoard("This builder does not match your hand any more; press **Write my program** on the "
                             "board for a fresh one.")

    async def builder_payload(self, match: Match, seat: int, draft: Sequence[Instruction] = (),
                              chosen: Piece | None = None, confirm: bool = False) -> dict[str, Any]:
        """The builder message for ``seat``: text, hand picture and components (DM or ephemeral)."""
        s: EofState = match.state
        if match.status != Status.RUNNING or s is None:
            return {"content": "This match is not running any more."}
        if s.phase is not Phase.PROGRAM:
            if s.phase in (Phase.FIRST, Phase.DEAL):
                return {"content": f"Round {s.round}: the deal is still going; your builder comes when it ends."}
            return {"content": f"Round {s.round} is being executed; follow it in the match thread."}
        colour = discord.Colour.from_rgb(*PIECE_COLOURS[s.colours[seat]])
        prog = s.programs[seat]
        if prog is not None:
            embed = discord.Embed(title=f"Round {s.round}: program submitted",
                                  description=self._submitted_text(match, seat, prog), colour=colour)
            file = await self._hand_file(match, seat, ())
            embed.set_image(url=f"attachment://{file.filename}")
            return {"content": "", "embed": embed, "file": file, "view": discord.ui.View(timeout=None)}
        draft = tuple(draft)
        self._check_draft(s, seat, draft)
        need = s.required_length(seat)
        r, code = s.round, encode_draft(draft)
        lines = []
        if draft:
            lines.append(f"**Program {len(draft)}/{need}:** `{' '.join(map(str, draft))}`")
            lines += [f"{k}. `{ins}` — {ins.describe()}" for k, ins in enumerate(draft, 1)]
        else:
            lines.append(f"**Program 0/{need}.** Choose your first piece below; each instruction is a piece of "
                         "your hand laid in an orientation. The pieces you leave out go back into the bag.")
        for w in program_warnings(Program(draft)):
            lines.append(f"⚠️ {w}")
        items: list[discord.ui.Item[Any]] = []
        if confirm and len(draft) == need:
            lines.append("\n**Submit this program?** You cannot change it afterwards; nobody sees it before "
                         "it runs.")
            items.append(v.button(match.id, None, f"pc{r}:{code}", label="Confirm", emoji="✅",
                                  style=discord.ButtonStyle.success, row=0))
            items.append(v.button(match.id, None, f"pb{r}:{code}", label="Back", row=0))
        else:
            left = sub(s.hands[seat], counts_of(i.piece for i in draft))
            if len(draft) < need:
                opts = []
                for piece, n in iter_kinds(left):
                    valid = sorted(VALID_ORIENTS[piece.colour])
                    runs = [o for o in valid if not dry_run(s, seat, Instruction(piece.colour, piece.size, o)).crash]
                    runs_now = ("now: " + "/".join(ORIENT_NAMES[o].capitalize() for o in runs) + " would run"
                                if runs else "now: would crash in every orientation")
                    works = "/".join(ORIENT_NAMES[o].capitalize() for o in valid)
                    opts.append(discord.SelectOption(
                        label=f"{piece} · {COLOUR_NAMES[piece.colour]} {SIZE_WORDS[piece.size - 1]} ×{n}",
                        value=str(piece), description=f"works {works} · {runs_now}"[:100], default=piece == chosen))
                if opts:
                    items.append(v.select(match.id, None, f"pb{r}:{code}", opts,
                                          placeholder=f"Instruction {len(draft) + 1} of {need}: choose a piece",
                                          row=0))
                if chosen is not None:
                    lines.append(f"\n**{chosen}: choose its orientation.** *Now:* what it would do to the file "
                                 f"as it stands (your pointer on {self._where(s, s.pointers[seat])}) if it ran "
                                 "first; the others' instructions may change that.")
                    for o in range(5):
                        ins = Instruction(chosen.colour, chosen.size, o)
                        line = f"{ORIENT_EMOJI[o]} {ORIENT_NAMES[o].capitalize()}: {ins.describe()}"
                        now = dry_run(s, seat, ins) if ins.is_valid else None
                        if now is not None and now.crash:
                            line += f"\n  ↳ *Now:* 💥 would crash: {now.crash}"
                        elif now is not None:
                            line += f"\n  ↳ *Now:* {now.text}"
                        later = dry_run(s, seat, ins, draft) if ins.is_valid and draft else None
                        if later is not None and now is not None and (later.text, later.crash) != (now.text, now.crash):
                            said = f"💥 would crash: {later.crash}" if later.crash else later.text
                            mine = "instruction 1" if len(draft) == 1 else f"instructions 1–{len(draft)}"
                            line += f"\n  ↳ *After your {mine}:* {said}"
                        lines.append(line)
                        label = ORIENT_NAMES[o].capitalize() + (
                            " (crashes)" if not ins.is_valid else " (would crash now)" if now and now.crash else "")
                        items.append(v.button(match.id, None, f"pb{r}:{encode_draft((*draft, ins))}", label=label,
                                              emoji=ORIENT_EMOJI[o], row=1,
                                              style=discord.ButtonStyle.primary if now is not None and not now.crash
                                              else discord.ButtonStyle.secondary))
            else:
                lines.append("\nYour program is complete: **Submit** it, or Undo to change it.")
            items.append(v.button(match.id, None, f"pb{r}:{encode_draft(draft[:-1])}", label="Undo", emoji="↩️",
                                  disabled=not draft, row=2))
            items.append(v.button(match.id, None, f"pk{r}:{code}", label="Submit", emoji="📨",
                                  style=discord.ButtonStyle.success, disabled=len(draft) < need, row=2))
        pool = " ".join(f"{SIZE_LETTERS[i]}×{s.pool[s.colours[seat] * 3 + i]}" for i in range(3))
        lines.append(f"\n-# Data pool, your colour: {pool}. Type a whole program with `/eof move` if you prefer.")
        embed = discord.Embed(title=f"Round {s.round}: your program", description="\n".join(lines)[:4096],
                              colour=colour)
        file = await self._hand_file(match, seat, draft)
        embed.set_image(url=f"attachment://{file.filename}")
        return {"content": "", "embed": embed, "file": file, "view": v.view_of(*items)}

    @staticmethod
    def _where(s: EofState, p: int) -> str:
        n = len(s.file)
        return "BOF/EOF (empty file)" if not n else "BOF" if p == 0 else "EOF" if p == n + 1 else f"record {p}"

    def _submitted_text(self, match: Match, seat: int, prog: Program) -> str:
        s: EofState = match.state
        waiting = [match.seats[t].name for t in range(s.seats) if s.programs[t] is None]
        text = "No program this round." if prog.skip else f"Your program: `{prog}`"
        warn = "".join(f"\n⚠️ {w}" for w in program_warnings(prog))
        tail = (f"\nSubmitted — waiting for {safe(', '.join(waiting))}." if waiting
                else "\nAll programs are in: execution runs in the match thread.")
        return text + warn + tail

    async def _hand_file(self, match: Match, seat: int, draft: Sequence[Instruction]) -> discord.File:
        view = match.view(seat)
        names = match.names()

        def work() -> bytes:
            return png_bytes(self.game.module.render_hand(view, names=names, program=tuple(draft)), key="eof hand")

        data = await asyncio.to_thread(work)
        return picture_file(data, "hand.png")

    async def _edit_private(self, interaction: discord.Interaction, match: Match, payload: dict[str, Any]) -> None:
        """Edit the builder/permission message the click came from (DM or ephemeral)."""
        content = payload.get("content") or ""
        header = self.private_header(match)
        kwargs: dict[str, Any] = {"content": (header + ("\n" + content if content else ""))[:2000],
                                  "embed": payload.get("embed"), "view": payload.get("view")}
        file = payload.get("file")
        kwargs["attachments"] = [file] if file is not None else []
        await interaction.response.edit_message(**kwargs)

    async def on_builder(self, interaction: discord.Interaction, match: Match, kind: str, rnd: int, code: str,
                         values: list[str]) -> None:
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if match.status != Status.RUNNING or s is None or s.round != rnd or s.phase is not Phase.PROGRAM:
            raise StaleBoard(f"This builder is for round {rnd}, whose programming is over.")
        if s.programs[seat] is not None:
            await self._edit_private(interaction, match, await self.builder_payload(match, seat))
            return
        try:
            draft = decode_draft(code)
        except GameError:
            raise StaleBoard("That button does nothing any more.") from None
        self._check_draft(s, seat, draft)
        if kind == "pb":
            chosen = None
            if values:
                try:
                    chosen = Piece.parse(values[0])
                except ValueError:
                    chosen = None
                left = sub(s.hands[seat], counts_of(i.piece for i in draft))
                if chosen is None or not left[chosen.index] or len(draft) >= s.required_length(seat):
                    raise StaleBoard("That piece is not left in your hand; press **Write my program** on the "
                                     "board for a fresh builder.")
            await self._edit_private(interaction, match, await self.builder_payload(match, seat, draft, chosen))
            return
        if kind == "pk":
            await self._edit_private(interaction, match,
                                     await self.builder_payload(match, seat, draft, confirm=True))
            return
        # pc: confirmed — play it
        result = await self.service.play(match.id, interaction.user.id, " ".join(map(str, draft)))
        after = result.match
        same_round = (after.status == Status.RUNNING and after.state.phase is Phase.PROGRAM
                      and after.state.round == rnd)
        payload = (await self.builder_payload(after, seat) if same_round
                   else self._submitted_payload(after, seat, Program(draft)))
        await self._edit_private(interaction, after, payload)
        clicked = interaction.message.id if interaction.message is not None else None
        await self.close_builder(after, seat, rnd, Program(draft), clicked=clicked)
        await self.present(after, result)

    def _submitted_payload(self, match: Match, seat: int, prog: Program) -> dict[str, Any]:
        text = "No program this round." if prog.skip else f"Your program: `{prog}`"
        embed = discord.Embed(title="Program submitted",
                              description=f"{text}\nAll programs are in: execution runs in the match thread.",
                              colour=discord.Colour.from_rgb(*PIECE_COLOURS[self.colours(match)[seat]]))
        return {"content": "", "embed": embed, "view": discord.ui.View(timeout=None)}

    # ---------------------------------------------------------------- permission answers

    async def on_answer(self, interaction: discord.Interaction, match: Match, rnd: int, turn: int,
                        answer: str) -> None:
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if (match.status != Status.RUNNING or s is None or s.phase is not Phase.PERMISSION or s.round != rnd
                or s.turn != turn):
            raise StaleBoard("That permission request has already been settled.")
        if seat not in s.asked:
            raise NotYourTurn("Only the players whose pointer is on that record can answer.")
        result = await self.service.play(match.id, interaction.user.id, answer)
        verb = "allowed" if answer == "allow" else "denied"
        on_board = interaction.message is not None and interaction.message.id == match.rec.message_id
        if on_board or interaction.message is None:
            await interaction.response.send_message(f"You {verb} the deletion.", ephemeral=True)
        else:
            await self._edit_private(interaction, result.match, {"content": f"You {verb} the deletion.",
                                                                 "view": discord.ui.View(timeout=None)})
        await self.present(result.match, result)

    # ================================================================ after moves

    @staticmethod
    def executed(result: Result) -> bool:
        return any(e.kind in EXECUTION_KINDS for e in result.events)

    async def present(self, match: Match, result: Result) -> None:
        """Show a move not made on the board message: the board edited (or, after an execution, the log,
        the scores and a fresh board), then DMs and the end of the match."""
        if not self.executed(result):
            await self.refresh_board(match, result)
        await self.after_result(match, result)

    async def present_timeout(self, result: Result) -> None:
        if result.match.status == Status.EXPIRED:
            await super().present_timeout(result)
            return
        before: EofState | None = result.before
        if before is not None and before.phase is Phase.PROGRAM:  # missing programs became "no program"
            for mv in result.moves:
                if 0 <= mv.seat < before.seats and _move_kind(mv) == "program" and before.programs[mv.seat] is None:
                    await self.close_builder(result.match, mv.seat, before.round, SKIP)
        await self.present(result.match, result)

    def private_notices(self, match: Match, result: Result) -> set[int]:
        """The program builder and the permission prompt (sent below) are these players' turn notices."""
        s: EofState | None = match.state
        if match.status != Status.RUNNING or s is None:
            return set()
        kinds = {e.kind for e in result.events}
        if s.phase is Phase.PROGRAM and "pool" in kinds:
            return {t for t in range(s.seats) if s.programs[t] is None}
        if s.phase is Phase.PERMISSION and ("permission" in kinds or "execute" in kinds):
            return {t for t in s.asked if t not in s.allowed}
        return set()

    async def after_move_private(self, match: Match, result: Result) -> None:
        if self.executed(result):
            try:
                await self.post_execution(match, result)
            except discord.HTTPException:
                log.warning("posting the execution of match %s failed", match.id, exc_info=True)
        s: EofState | None = match.state
        if match.status != Status.RUNNING or s is None:
            return
        kinds = {e.kind for e in result.events}
        if s.phase is Phase.PROGRAM and "pool" in kinds:
            waiting = [t for t in range(s.seats) if s.programs[t] is None and not match.seats[t].is_ai]
            await asyncio.gather(*(self.send_private(match, t, "prog", notice=(
                "Press the button to write your round "
                f"{s.round} program privately here.")) for t in waiting))
        elif s.phase is Phase.PERMISSION and ("permission" in kinds or "execute" in kinds):
            asked = [t for t in s.asked if t not in s.allowed]
            await asyncio.gather(*(self.send_private(match, t, "perm", notice=(
                "A delete needs your permission: press the button to answer privately, or use the board's "
                "buttons.")) for t in asked))

    async def post_execution(self, match: Match, result: Result) -> None:
        """The step log with the animation, the round's scores, then a fresh board at the bottom."""
        place = await self.place_of(match)
        if place is None:
            return
        steps = [e for e in result.events if e.kind == "step"]
        scored = [e for e in result.events if e.kind == "score"]
        before: EofState | None = result.before
        rnd = int(scored[0].data.get("round", 0)) if scored else (before.round if before else match.state.round)
        lines = []
        for e in steps:
            d = e.data
            seat = int(d["seat"])
            head = f"`{int(d['index']) + 1}` {self._who(match, seat)} `{d['instruction']}`"
            if d.get("crash"):
                result_text = str(d.get("result") or "")
                gone = result_text.removeprefix("deleted ")
                said = result_text in ("", "crashed") or gone in str(d["crash"])
                done = "" if said else f" ({result_text})"
                lines.append(f"{head} — 💥 **crash**: {d['crash']}{done}")
            else:
                lines.append(f"{head} — {d.get('result', '')}")
        for e in result.events:
            if e.kind == "permission" and e.visible_to is None:
                lines.append(f"⏸️ {safe(e.text)}")
        if not lines:
            lines.append("No instructions ran (no programs).")
        chunks: list[str] = []
        for line in lines:
            if chunks and len(chunks[-1]) + len(line) + 1 <= LOG_CHUNK:
                chunks[-1] += "\n" + line
            else:
                chunks.append(line[:LOG_CHUNK])
        resumed = before is not None and bool(before.steps)
        title = f"Round {rnd}: execution" + (" (continued)" if resumed else "")
        gif = await self._execution_gif(match, result) if steps else None
        for i, chunk in enumerate(chunks):
            embed = discord.Embed(title=title if i == 0 else f"{title}, part {i + 1}", description=chunk,
                                  colour=COLOUR_INFO)
            if gif is not None and i == len(chunks) - 1:
                embed.set_image(url="attachment://execution.gif")
                await place.send(embed=embed, file=picture_file(gif, "execution.gif"),
                                 allowed_mentions=NO_MENTIONS)
            else:
                await place.send(embed=embed, allowed_mentions=NO_MENTIONS)
        for e in scored:
            await place.send(embed=self.score_embed(match, e), allowed_mentions=NO_MENTIONS)
        await self.post_board(place, match, result)  # the new board; the old one is retired by it

    async def _execution_gif(self, match: Match, result: Result) -> bytes | None:
        if result.before is None or self.game.animate is None:
            return None
        before = match.rules.view(result.before, None)
        after = match.view(None)
        names = match.names()

        def work() -> bytes:
            frames = self.game.animate(before, result.events, after, names=names)
            return gif_bytes([f for f, _ in frames], [d for _, d in frames])

        return await asyncio.to_thread(work)

    def score_embed(self, match: Match, event: Event) -> discord.Embed:
        d = event.data
        s: EofState = match.state
        rnd = int(d.get("round", 0))
        points = list(d.get("points", []))
        totals = list(d.get("totals", []))
        configs = list(d.get("configurations", []))
        lr = s.last_round if s.last_round is not None and s.last_round.round == rnd else None
        lines = []
        for t in range(len(points)):
            if lr is not None and lr.skipped[t]:
                how = "no program"
            elif lr is not None and lr.crashed[t]:
                how = "crashed" + (" (penalty)" if points[t] < 0 else "")
            else:
                cfg = [Configuration.load(c).describe() for c in (configs[t] if t < len(configs) else [])]
                how = ", ".join(cfg) or "no configuration"
            total = totals[t] if t < len(totals) else "?"
            lines.append(f"{self._who(match, t)} **{points[t]:+d}** → {total} · {how}")
        return discord.Embed(title=f"Round {rnd} scores", description="\n".join(lines)[:4096],
                             colour=discord.Colour.from_rgb(250, 166, 26))

    # ================================================================ /eof move, autocomplete

    async def match_here(self, interaction: discord.Interaction, *, running: bool = True) -> Match:
        match = await super().match_here(interaction, running=running)
        if interaction.guild_id is None:  # in DMs: prefer a match waiting for this player
            found = await self.service.find_for_user(interaction.user.id, game=self.game_key)
            for m in found:
                seat = m.seat_of(interaction.user.id)
                if m.status == Status.RUNNING and seat is not None and seat in m.to_act():
                    return m
        return match

    @app_commands.command(name="move", description="Submit your program (only you see the reply), or draw S/M/L, "
                                                    "allow, deny")
    @app_commands.describe(notation='Five instructions, e.g. "Y1R G2L B3S R1R G1U"; or draw S / M / L, allow, deny')
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:
        match = await self.match_here(interaction)
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if s.phase is Phase.PROGRAM and seat in match.to_act():
            move = match.rules.parse(notation, s, seat)
            if isinstance(move, Program) and not move.skip and program_warnings(move):
                warn = "\n".join(f"⚠️ {w}" for w in program_warnings(move))
                view = v.view_of(v.button(match.id, None, f"pc{s.round}:{encode_draft(move.instructions)}",
                                          label="Submit anyway", style=discord.ButtonStyle.danger))
                await interaction.response.send_message(f"`{move}`\n{warn}\nSubmit it anyway?", view=view,
                                                        ephemeral=True)
                return
        result = await self.service.play(match.id, interaction.user.id, notation)
        played = next((mv.notation for mv in result.moves if mv.seat == seat), notation)
        submitted = s.phase is Phase.PROGRAM and not played.startswith("draw") and played not in ("allow", "deny")
        if submitted:
            text = ("No program this round (skip)." if played == "skip"
                    else f"Program submitted for round {s.round}: `{played}`")
        else:
            text = f"Played `{played}`."
        await interaction.response.send_message(text, ephemeral=True)
        if submitted:
            prog = match.rules.parse(played, s, seat)
            await self.close_builder(result.match, seat, s.round, prog if isinstance(prog, Program) else Program(()))
        await self.present(result.match, result)

    @move.autocomplete("notation")
    async def eof_move_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        return await self.move_choices(interaction, current)

    def suggestions(self, match: Match, seat: int, current: str) -> list[str]:
        return [value for _, value in self.suggestion_pairs(match, seat, current)]

    def suggestion_pairs(self, match: Match, seat: int, current: str) -> list[tuple[str, str]]:
        """(label, notation) suggestions built from the hand, never from the millions of legal programs."""
        s: EofState = match.state
        cur = current.strip()
        if s.phase is Phase.DEAL:
            sizes = size_totals(s.bag)
            opts = [f"draw {SIZE_LETTERS[i]}" for i in range(3) if sizes[i]] + ["draw any"]
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
        if tokens and (current[-1:] not in (" ", ",", ";") and len(tokens[-1]) < 3 or
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
            return [(f"{prefix} — submit this program", prefix)] if len(done) == need and not partial else []
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

__all__ = ["Eof", "decode_draft", "encode_draft"]


async def setup(bot: Any) -> None:
    await bot.add_cog(Eof(bot))
