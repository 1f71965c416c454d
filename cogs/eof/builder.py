"""The private program builder: pieces, orientations with dry runs, undo, submit, confirm."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import StaleBoard
from bot.games.base import GameError
from bot.games.eof.notation import Program
from bot.games.eof.pieces import (
    COLOUR_NAMES,
    ORIENT_NAMES,
    SIZE_LETTERS,
    VALID_ORIENTS,
    Instruction,
    Piece,
    counts_of,
    iter_kinds,
    sub,
)
from bot.games.eof.render import PIECE_COLOURS
from bot.games.eof.rules import EofState, Phase, dry_run, program_warnings
from bot.matches.service import Match
from bot.names import shown as safe
from bot.render import png_bytes
from bot.storage import Status
from cogs import _views as v
from cogs._game import picture_file
from cogs.eof.board import EofBoard
from cogs.eof.common import (
    ORIENT_EMOJI,
    SIZE_WORDS,
    encode_draft,
)


class EofBuilder(EofBoard):
    """The private program builder: pieces, orientations with dry runs, undo, submit, confirm."""


    def _check_draft(self, s: EofState, seat: int, draft: Sequence[Instruction]) -> None:
        need = s.required_length(seat)
        use = counts_of(i.piece for i in draft)
        if len(draft) > need or any(a > b for a, b in zip(use, s.hands[seat], strict=True)):
            raise StaleBoard(
                "This builder does not match your hand any more; press **Write my program** on the "
                "board for a fresh one."
            )

    async def builder_payload(self, match: Match, seat: int, draft: Sequence[Instruction] = (),
                              chosen: Piece | None = None, confirm: bool = False) -> dict[str, Any]:
        """The builder message for ``seat``: text, hand picture and components (DM or ephemeral)."""
        s: EofState = match.state
        if match.status != Status.RUNNING or s is None:
            return {"content": "This match is not running any more."}
        if s.phase is not Phase.PROGRAM:
            if s.phase in (Phase.FIRST, Phase.DEAL):
                return {
                    "content": f"Round {s.round}: the deal is still going; your builder comes when it ends."
                }
            return {"content": f"Round {s.round} is being executed; follow it in the match thread."}
        colour = discord.Colour.from_rgb(*PIECE_COLOURS[s.colours[seat]])
        prog = s.programs[seat]
        if prog is not None:
            embed = discord.Embed(title=f"Round {s.round}: program submitted",
                                  description=self._submitted_text(match, seat, prog), colour=colour)
            file = await self._hand_file(match, seat, ())
            return {"content": "", "embed": embed, "file": file, "view": discord.ui.View(timeout=None)}
        lines, items = self.builder_parts(match, seat, draft, chosen, confirm)
        embed = discord.Embed(title=f"Round {s.round}: your program", description="\n".join(lines)[:4096],
                              colour=colour)
        file = await self._hand_file(match, seat, draft)
        return {"content": "", "embed": embed, "file": file, "view": v.view_of(*items)}

    def builder_parts(self, match: Match, seat: int, draft: Sequence[Instruction] = (),
                      chosen: Piece | None = None,
                      confirm: bool = False) -> tuple[list[str], list[discord.ui.Item[Any]]]:
        """The builder's text lines and components while ``seat`` programs (no picture: the lessons
        show these under the board)."""
        s: EofState = match.state
        draft = tuple(draft)
        self._check_draft(s, seat, draft)
        need = s.required_length(seat)
        r, code = s.round, encode_draft(draft)
        lines = []
        if draft:
            lines.append(f"**Program {len(draft)}/{need}:** `{' '.join(map(str, draft))}`")
            lines += [f"{k}. `{ins}` — {ins.describe()}" for k, ins in enumerate(draft, 1)]
        else:
            lines.append(
                f"**Program 0/{need}.** Choose your first piece below; each instruction is a piece of "
                "your hand laid in an orientation. The pieces you leave out go back into the bag."
            )
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
                    runs = [
                        o
                        for o in valid
                        if not dry_run(s, seat, Instruction(piece.colour, piece.size, o)).crash
                    ]
                    runs_now = ("now: " + "/".join(ORIENT_NAMES[o].capitalize() for o in runs) + " would run"
                                if runs else "now: would crash in every orientation")
                    works = "/".join(ORIENT_NAMES[o].capitalize() for o in valid)
                    opts.append(
                        discord.SelectOption(
                            label=f"{piece} · {COLOUR_NAMES[piece.colour]} {SIZE_WORDS[piece.size - 1]} ×{n}",
                            value=str(piece),
                            description=f"works {works} · {runs_now}"[:100],
                            default=piece == chosen,
                        )
                    )
                if opts:
                    items.append(
                        v.select(
                            match.id,
                            None,
                            f"pb{r}:{code}",
                            opts,
                            placeholder=f"Instruction {len(draft) + 1} of {need}: choose a piece",
                            row=0,
                        )
                    )
                if chosen is not None:
                    lines.append(
                        f"\n**{chosen}: choose its orientation.** *Now:* what it would do to the file "
                        f"as it stands (your pointer on {self._where(s, s.pointers[seat])}) if it ran "
                        "first; the others' instructions may change that."
                    )
                    for o in range(5):
                        ins = Instruction(chosen.colour, chosen.size, o)
                        line = f"{ORIENT_EMOJI[o]} {ORIENT_NAMES[o].capitalize()}: {ins.describe()}"
                        now = dry_run(s, seat, ins) if ins.is_valid else None
                        if now is not None and now.crash:
                            line += f"\n  ↳ *Now:* 💥 would crash: {now.crash}"
                        elif now is not None:
                            line += f"\n  ↳ *Now:* {now.text}"
                        later = dry_run(s, seat, ins, draft) if ins.is_valid and draft else None
                        if (
                            later is not None
                            and now is not None
                            and (later.text, later.crash) != (now.text, now.crash)
                        ):
                            said = f"💥 would crash: {later.crash}" if later.crash else later.text
                            mine = "instruction 1" if len(draft) == 1 else f"instructions 1–{len(draft)}"
                            line += f"\n  ↳ *After your {mine}:* {said}"
                        lines.append(line)
                        label = ORIENT_NAMES[o].capitalize() + (
                            " (crashes)"
                            if not ins.is_valid
                            else " (would crash now)"
                            if now and now.crash
                            else ""
                        )
                        items.append(
                            v.button(
                                match.id,
                                None,
                                f"pb{r}:{encode_draft((*draft, ins))}",
                                label=label,
                                emoji=ORIENT_EMOJI[o],
                                row=1,
                                style=discord.ButtonStyle.primary
                                if now is not None and not now.crash
                                else discord.ButtonStyle.secondary,
                            )
                        )
            else:
                lines.append("\nYour program is complete: **Submit** it, or Undo to change it.")
            items.append(
                v.button(
                    match.id,
                    None,
                    f"pb{r}:{encode_draft(draft[:-1])}",
                    label="Undo",
                    emoji="↩️",
                    disabled=not draft,
                    row=2,
                )
            )
            items.append(v.button(match.id, None, f"pk{r}:{code}", label="Submit", emoji="📨",
                                  style=discord.ButtonStyle.success, disabled=len(draft) < need, row=2))
        pool = " ".join(f"{SIZE_LETTERS[i]}×{s.pool[s.colours[seat] * 3 + i]}" for i in range(3))
        lines.append(
            f"\n-# Data pool, your colour: {pool}. Type a whole program with `/eof move` if you prefer."
        )
        return lines, items

    def lesson_view(self, match: Match, ui: str) -> tuple[str, list[discord.ui.Item[Any]]]:
        """A lesson step: the builder of seat 0 for the draft ``ui`` (``Y1R.G2L`` or ``Y1R|G2``: a
        piece chosen), its text without the ``/eof move`` footnote."""
        from cogs.eof.common import decode_draft

        code, _, piece = ui.partition("|")
        try:
            draft, chosen = decode_draft(code), Piece.parse(piece) if piece else None
        except (GameError, ValueError):
            raise StaleBoard("That lesson button does nothing any more.") from None
        lines, items = self.builder_parts(match, 0, draft, chosen)
        return "\n".join(lines[:-1]), items

    @staticmethod
    def _where(s: EofState, p: int) -> str:
        n = len(s.file)
        return (
            "BOF/EOF (empty file)" if not n else "BOF" if p == 0 else "EOF" if p == n + 1 else f"record {p}"
        )

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
            return png_bytes(
                self.game.module.render_hand(view, names=names, program=tuple(draft)), key="eof hand"
            )

        data = await asyncio.to_thread(work)
        # the hand is this player's alone: this picture goes only to their DM or an ephemeral answer
        hand = " ".join(str(p) for p in view.hand or ()) or "empty"
        prog = f" Program so far: {' '.join(str(i) for i in draft)}." if draft else ""
        return picture_file(data, "hand.png", f"Your EOF hand, round {view.round}: {hand}.{prog}")

    async def _edit_private(
        self, interaction: discord.Interaction, match: Match, payload: dict[str, Any]
    ) -> None:
        """Edit the builder/permission message the click came from (DM or ephemeral)."""
        content = payload.get("content") or ""
        header = self.private_header(match)
        kwargs: dict[str, Any] = {"content": (header + ("\n" + content if content else ""))[:2000],
                                  "embed": payload.get("embed"), "view": payload.get("view")}
        file = payload.get("file")
        kwargs["attachments"] = [file] if file is not None else []
        await interaction.response.edit_message(**kwargs)

    def _submitted_payload(self, match: Match, seat: int, prog: Program) -> dict[str, Any]:
        text = "No program this round." if prog.skip else f"Your program: `{prog}`"
        embed = discord.Embed(title="Program submitted",
                              description=f"{text}\nAll programs are in: execution runs in the match thread.",
                              colour=discord.Colour.from_rgb(*PIECE_COLOURS[self.colours(match)[seat]]))
        return {"content": "", "embed": embed, "view": discord.ui.View(timeout=None)}
