"""The private program builder: pieces, orientations with dry runs, undo, submit, confirm."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import StaleBoard
from bot.games.base import GameError
from bot.games.eof.execution import where
from bot.games.eof.notation import Program
from bot.games.eof.pieces import (
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
from bot.games.eof.words import orientation_name, piece_colour, size_word, tr
from bot.i18n import _, language_of_user, speaking
from bot.matches.service import Match
from bot.names import shown as safe
from bot.render import png_bytes
from bot.storage import Status
from cogs import _views as v
from cogs._game import picture_file
from cogs.eof.board import EofBoard
from cogs.eof.common import (
    ORIENT_EMOJI,
    encode_draft,
)


def builder_title(rnd: int) -> str:
    """The builder's title, in the current language (the DM's messages are found again by it)."""
    return _("Round {round}: your program", round=rnd)


class EofBuilder(EofBoard):
    """The private program builder: pieces, orientations with dry runs, undo, submit, confirm."""


    def _check_draft(self, s: EofState, seat: int, draft: Sequence[Instruction]) -> None:
        need = s.required_length(seat)
        use = counts_of(i.piece for i in draft)
        if len(draft) > need or any(a > b for a, b in zip(use, s.hands[seat], strict=True)):
            raise StaleBoard(_(
                "This builder does not match your hand any more; press **Write my program** on the "
                "board for a fresh one."
            ))

    def reader(self, match: Match, seat: int) -> str:
        """The language of ``seat``'s player: their DMs (builder, permission question) are written in it,
        whoever's move or turn limit sends or edits them."""
        return language_of_user(match.seats[seat].user_id, match.rec.guild_id)

    async def builder_payload(self, match: Match, seat: int, draft: Sequence[Instruction] = (),
                              chosen: Piece | None = None, confirm: bool = False) -> dict[str, Any]:
        """The builder message for ``seat``: text, hand picture and components (DM or ephemeral), in the
        player's language."""
        with speaking(self.reader(match, seat)):
            return await self._builder_payload(match, seat, draft, chosen, confirm)

    async def _builder_payload(self, match: Match, seat: int, draft: Sequence[Instruction],
                               chosen: Piece | None, confirm: bool) -> dict[str, Any]:
        s: EofState = match.state
        if match.status != Status.RUNNING or s is None:
            return {"content": _("This match is not running any more.")}
        if s.phase is not Phase.PROGRAM:
            if s.phase in (Phase.FIRST, Phase.DEAL):
                return {
                    "content": _("Round {round}: the deal is still going; your builder comes when it ends.",
                                 round=s.round)
                }
            return {"content": _("Round {round} is being executed; follow it in the match thread.",
                                 round=s.round)}
        colour = discord.Colour.from_rgb(*PIECE_COLOURS[s.colours[seat]])
        prog = s.programs[seat]
        if prog is not None:
            embed = discord.Embed(title=_("Round {round}: program submitted", round=s.round),
                                  description=self._submitted_text(match, seat, prog), colour=colour)
            file = await self._hand_file(match, seat, ())
            return {"content": "", "embed": embed, "file": file, "view": discord.ui.View(timeout=None)}
        lines, items = self.builder_parts(match, seat, draft, chosen, confirm)
        embed = discord.Embed(title=builder_title(s.round), description="\n".join(lines)[:4096],
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
            lines.append(_("**Program {count}/{total}:** `{program}`", count=len(draft), total=need,
                           program=" ".join(map(str, draft))))
            lines += [f"{k}. `{ins}` — {ins.describe()}" for k, ins in enumerate(draft, 1)]
        else:
            lines.append(_(
                "**Program 0/{total}.** Choose your first piece below; each instruction is a piece of "
                "your hand laid in an orientation. The pieces you leave out go back into the bag.", total=need
            ))
        for w in program_warnings(Program(draft)):
            lines.append(f"⚠️ {w}")
        items: list[discord.ui.Item[Any]] = []
        if confirm and len(draft) == need:
            lines.append("\n" + _("**Submit this program?** You cannot change it afterwards; nobody sees it "
                                  "before it runs."))
            items.append(v.button(match.id, None, f"pc{r}:{code}", label=_("Confirm"), emoji="✅",
                                  style=discord.ButtonStyle.success, row=0))
            items.append(v.button(match.id, None, f"pb{r}:{code}", label=_("Back"), row=0))
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
                    works = "/".join(orientation_name(o) for o in valid)
                    if runs:
                        said = _("works {orientations} · now: {running} would run", orientations=works,
                                 running="/".join(orientation_name(o) for o in runs))
                    else:
                        said = _("works {orientations} · now: would crash in every orientation",
                                 orientations=works)
                    opts.append(
                        discord.SelectOption(
                            label=_("{piece} · {colour} {size} ×{count}", piece=str(piece),
                                    colour=piece_colour(piece.colour),
                                    size=size_word(piece.size), count=n),
                            value=str(piece),
                            description=said[:100],
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
                            placeholder=_("Instruction {number} of {total}: choose a piece",
                                          number=len(draft) + 1, total=need),
                            row=0,
                        )
                    )
                if chosen is not None:
                    lines.append("\n" + _(
                        "**{piece}: choose its orientation.** *Now:* what it would do to the file "
                        "as it stands (your pointer on {where}) if it ran "
                        "first; the others' instructions may change that.", piece=str(chosen),
                        where=tr(where(s.pointers[seat], len(s.file)))
                    ))
                    for o in range(5):
                        ins = Instruction(chosen.colour, chosen.size, o)
                        name = orientation_name(o)  # as in notation: Y1 Right
                        line = f"{ORIENT_EMOJI[o]} {name}: {ins.describe()}"
                        now = dry_run(s, seat, ins) if ins.is_valid else None
                        if now is not None and now.crash:
                            line += "\n  ↳ " + _("*Now:* 💥 would crash: {reason}", reason=now.crash)
                        elif now is not None:
                            line += "\n  ↳ " + _("*Now:* {result}", result=now.text)
                        later = dry_run(s, seat, ins, draft) if ins.is_valid and draft else None
                        if (
                            later is not None
                            and now is not None
                            and (later.text, later.crash) != (now.text, now.crash)
                        ):
                            said = (_("💥 would crash: {reason}", reason=later.crash) if later.crash
                                    else later.text)
                            if len(draft) == 1:
                                line += "\n  ↳ " + _("*After your instruction 1:* {result}", result=said)
                            else:
                                line += "\n  ↳ " + _("*After your instructions 1–{last}:* {result}",
                                                     last=len(draft), result=said)
                        lines.append(line)
                        if not ins.is_valid:
                            label = _("{orientation} (crashes)", orientation=name)
                        elif now and now.crash:
                            label = _("{orientation} (would crash now)", orientation=name)
                        else:
                            label = name
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
                lines.append("\n" + _("Your program is complete: **Submit** it, or Undo to change it."))
            items.append(
                v.button(
                    match.id,
                    None,
                    f"pb{r}:{encode_draft(draft[:-1])}",
                    label=_("Undo"),
                    emoji="↩️",
                    disabled=not draft,
                    row=2,
                )
            )
            items.append(v.button(match.id, None, f"pk{r}:{code}", label=_("Submit"), emoji="📨",
                                  style=discord.ButtonStyle.success, disabled=len(draft) < need, row=2))
        pool = " ".join(f"{SIZE_LETTERS[i]}×{s.pool[s.colours[seat] * 3 + i]}" for i in range(3))
        lines.append("\n" + _(
            "-# Data pool, your colour: {pieces}. Type a whole program with `/eof move` if you prefer.",
            pieces=pool
        ))
        return lines, items

    def lesson_view(self, match: Match, ui: str) -> tuple[str, list[discord.ui.Item[Any]]]:
        """A lesson step: the builder of seat 0 for the draft ``ui`` (``Y1R.G2L`` or ``Y1R|G2``: a
        piece chosen), its text without the ``/eof move`` footnote."""
        from cogs.eof.common import decode_draft

        code, _bar, piece = ui.partition("|")
        try:
            draft, chosen = decode_draft(code), Piece.parse(piece) if piece else None
        except (GameError, ValueError):
            raise StaleBoard(_("That lesson button does nothing any more.")) from None
        lines, items = self.builder_parts(match, 0, draft, chosen)
        return "\n".join(lines[:-1]), items

    def _submitted_text(self, match: Match, seat: int, prog: Program) -> str:
        s: EofState = match.state
        waiting = [match.seats[t].name for t in range(s.seats) if s.programs[t] is None]
        text = _("No program this round.") if prog.skip else _("Your program: `{program}`", program=str(prog))
        warn = "".join(f"\n⚠️ {w}" for w in program_warnings(prog))
        tail = "\n" + (_("Submitted — waiting for {players}.", players=safe(", ".join(waiting))) if waiting
                       else _("All programs are in: execution runs in the match thread."))
        return text + warn + tail

    async def _hand_file(self, match: Match, seat: int, draft: Sequence[Instruction]) -> discord.File:
        view = match.view(seat)
        names = match.names()

        def work() -> bytes:
            return png_bytes(
                self.game.module.render_hand(view, names=names, program=tuple(draft)),
                key="eof hand",  # not translated: a palette key
            )

        data = await asyncio.to_thread(work)
        # the hand is this player's alone: this picture goes only to their DM or an ephemeral answer
        hand = " ".join(str(p) for p in view.hand or ()) or _("empty")
        if draft:
            alt = _("Your EOF hand, round {round}: {pieces}. Program so far: {program}.", round=view.round,
                    pieces=hand, program=" ".join(str(i) for i in draft))
        else:
            alt = _("Your EOF hand, round {round}: {pieces}.", round=view.round, pieces=hand)
        return picture_file(data, "hand.png", alt)

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
        """The builder once its round's programming is over, in the player's language."""
        with speaking(self.reader(match, seat)):
            text = (_("No program this round.") if prog.skip
                    else _("Your program: `{program}`", program=str(prog)))
            tail = _("All programs are in: execution runs in the match thread.")
            embed = discord.Embed(title=_("Program submitted"), description=f"{text}\n{tail}",
                                  colour=discord.Colour.from_rgb(*PIECE_COLOURS[self.colours(match)[seat]]))
        return {"content": "", "embed": embed, "view": discord.ui.View(timeout=None)}
