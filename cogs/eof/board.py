"""The public board: status, events, history (programs hidden until executed), the deal buttons."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import NotAPlayer, NotYourTurn, StaleBoard
from bot.games.base import Event, Reason
from bot.games.eof.pieces import (
    SIZE_LETTERS,
    size_totals,
)
from bot.games.eof.render import deal_progress
from bot.games.eof.rules import HAND, ROUNDS, EofState, Phase
from bot.games.eof.state import result_sentence
from bot.games.eof.words import Said, colour_name
from bot.i18n import _, ngettext, pgettext
from bot.matches.service import Match, Result
from bot.names import shown as safe
from bot.storage import MoveRecord, Status
from cogs import _views as v
from cogs._game.base import seat_text
from cogs.eof.common import (
    COLOUR_EMOJI,
    EXECUTION_KINDS,
    _colour_name,
    _move_kind,
)
from cogs.eof.lobby import EofLobby


def size_button(size: int, left: int) -> str:
    """The deal's size button: ``Small (3 left)``."""
    if size == 1:
        return ngettext("Small ({n} left)", "Small ({n} left)", left)
    if size == 2:
        return ngettext("Medium ({n} left)", "Medium ({n} left)", left)
    return ngettext("Large ({n} left)", "Large ({n} left)", left)


class EofBoard(EofLobby):
    """The public board: status, events, history (programs hidden until executed), the deal buttons."""


    def seat_label(self, match: Match, seat: int) -> str:
        cols = self.colours(match)
        return seat_text(safe(match.seats[seat].name), _colour_name(cols[seat]) if seat < len(cols) else "")

    def _who(self, match: Match, seat: int) -> str:
        """``🟥 **alice**`` for embeds (markdown in names escaped)."""
        cols = self.colours(match)
        emoji = COLOUR_EMOJI[cols[seat]] + " " if seat < len(cols) else ""
        return f"{emoji}**{safe(match.seats[seat].name)}**"

    def final_line(self, match: Match) -> str | None:
        """A game played to its end: the result once, in the wording of the picture and of the last move
        (:func:`result_sentence`: a tie names everyone in it), then the others' totals."""
        out = match.outcome
        s: EofState | None = match.state
        if (match.status != Status.FINISHED or out is None or out.reason is not Reason.NORMAL or s is None
                or len(s.scores) != len(match.seats)):
            return None
        said = result_sentence(s.scores, [self.seat_label(match, t) for t in range(s.seats)])
        best = max(s.scores)
        others = sorted((t for t in range(s.seats) if s.scores[t] != best), key=lambda t: -s.scores[t])
        rest = ", ".join(f"{self.seat_label(match, t)} {s.scores[t]}" for t in others)
        return f"**{said}.**" + (" " + _("Then {scores}.", scores=rest) if rest else "")

    def status_line(self, match: Match) -> str:
        final = self.final_line(match)
        if final is not None:
            return final
        if match.status != Status.RUNNING or match.state is None:
            return super().status_line(match)
        s: EofState = match.state
        when = f"<t:{int(match.rec.deadline)}:R>" if match.rec.deadline else ""
        deadline = " · " + _("turn ends {time}", time=when) if when else ""
        if s.phase is Phase.DEAL and s.drawer is not None:
            t = s.drawer
            k = len(s.draws[t])
            what = (_("choose the size of the next draw below") if s.feel and s.size_choice < 0
                    else _("drawing"))
            mention = f"<@{match.seats[t].user_id}>"
            return _("**Deal, round {round}:** {player} {progress}: {what}", round=s.round, player=mention,
                     progress=deal_progress(k), what=what) + deadline
        if s.phase is Phase.PROGRAM:
            waiting = ", ".join(
                f"<@{match.seats[t].user_id}>" for t in range(s.seats) if s.programs[t] is None
            )
            done = ", ".join(self._who(match, t) for t in range(s.seats) if s.programs[t] is not None)
            line = _("**Programming, round {round}:** waiting for {players}", round=s.round,
                     players=waiting or _("nobody")) + deadline
            return line + ("\n" + _("Program in: {players}", players=done) if done else "")
        if s.phase is Phase.PERMISSION:
            view = match.view(None)
            pd = view.pending
            if pd is not None:
                asked = ", ".join(f"<@{match.seats[t].user_id}>" for t in pd.asked if t not in pd.allowed)
                return _("**Execution paused:** {player} `{instruction}` wants to delete record {record} "
                         "({piece}); waiting for {players} to allow or deny",
                         player=self._who(match, pd.seat), instruction=str(pd.instruction),
                         record=pd.record + 1, piece=str(pd.piece), players=asked) + deadline
        return super().status_line(match)

    def last_move_text(self, match: Match, result: Result | None) -> str:
        """Public events only (never a move's notation: programs are secret until executed)."""
        if result is None:
            return ""
        said = self.final_line(match) is not None  # the status line says how it ended: once is enough
        texts = [e.text for e in result.events
                 if e.visible_to is None and e.text and e.kind not in EXECUTION_KINDS
                 and not (said and e.kind == "over")]
        if result.message:
            texts.insert(0, result.message)
        if not texts:
            return ""
        shown = texts[-4:]
        more = "… " if len(texts) > len(shown) else ""
        return _("Last: {events}", events=more + " ".join(self.named(match, t) for t in shown))

    def named(self, match: Match, text: str) -> str:
        """An engine text (which calls players by their colour, "Red draws Y2") in the current language
        with the players' names and colours ("🟥 **alice** draws Y2"), markdown-safe; colours nobody
        plays stay words. A text of the engine (:class:`~bot.games.eof.words.Said`) is written again with
        the names in it; any other text (the platform's) has the colour names replaced."""
        cols = self.colours(match)
        seat_of = {c: t for t, c in enumerate(cols) if t < len(match.seats)}
        if isinstance(text, Said):
            return text.write(lambda c: self._who(match, seat_of[c]) if c in seat_of else colour_name(c))
        who = {colour_name(c): self._who(match, t) for c, t in seat_of.items()}
        if not who:
            return safe(text)
        parts = re.split(r"\b(" + "|".join(re.escape(w) for w in who) + r")\b", text)
        return "".join(who[p] if i % 2 else safe(p) for i, p in enumerate(parts))

    async def picture(self, match: Match, result: Result | None) -> discord.File:
        """The board picture with its alt text, built from the view it is drawn from."""
        return await super().picture(match, result)  # described by bot/games/eof/describe.py

    def moves_played(self, match: Match) -> int:
        """Programs played (:meth:`EofState.programs_played`): the move log's draws are not moves."""
        s: EofState | None = match.state
        return s.programs_played() if s is not None else 0

    def extra_lines(self, match: Match, result: Result | None) -> list[str]:
        s: EofState | None = match.state
        if s is None:
            return []
        scores = " · ".join(f"{self._who(match, t)} {s.scores[t]}" for t in range(s.seats))
        if s.phase is Phase.OVER:
            return [_("Scores: {scores}", scores=scores)]
        return [_("Round {round}/{rounds} · Scores: {scores}", round=s.round, rounds=ROUNDS, scores=scores)]

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
            out.append(_("**Round {round}**", round=i + 1))
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
                    text = f"`{mv.notation}`" if revealed else _("submitted a program")
                    auto = " " + _("(turn limit)") if mv.user_id is None else ""
                    out.append(f"{name}: {text}{auto}")
                else:
                    out.append(f"{name}: `{mv.notation}`")
            if pending_size:
                out.append(pending_size)
        return out

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        s: EofState | None = match.state
        if s is None or match.status != Status.RUNNING:
            return []
        mid, ver = match.id, match.version
        items: list[discord.ui.Item[Any]] = []
        if s.phase is Phase.DEAL and s.feel and s.size_choice < 0 and s.drawer is not None:
            sizes = size_totals(s.bag)
            for i in range(3):
                items.append(
                    v.button(
                        mid,
                        ver,
                        f"m:{SIZE_LETTERS[i]}",
                        label=size_button(i + 1, sizes[i]),
                        style=discord.ButtonStyle.primary,
                        disabled=sizes[i] == 0,
                        row=0,
                    )
                )
            items.append(v.button(mid, ver, "m:any", label=_("Any size"), row=0))
            left = HAND - len(s.draws[s.drawer])
            if left > 1:
                items.append(
                    v.button(mid, ver, "rest", label=_("Draw the rest for me ({count})", count=left),
                             emoji="🎲", row=1)
                )
        elif s.phase is Phase.PROGRAM:
            items.append(v.button(mid, None, "open", label=_("Write my program"), emoji="📝",
                                  style=discord.ButtonStyle.primary))
        elif s.phase is Phase.PERMISSION:
            tag = f"{s.round}.{s.turn}"
            items.append(v.button(mid, None, f"an:{tag}:allow", label=_("Allow the deletion"),
                                  style=discord.ButtonStyle.success))
            items.append(
                v.button(mid, None, f"an:{tag}:deny", label=pgettext("button", "Deny"),
                         style=discord.ButtonStyle.danger)
            )
        return items

    async def after_result(self, match: Match, result: Result) -> None:
        await super().after_result(match, result)
        s: EofState | None = match.state
        if (match.status == Status.RUNNING and s is not None and s.phase is Phase.DEAL and s.feel
                and s.size_choice < 0 and s.drawer is not None and not match.seats[s.drawer].is_ai):
            # the next draw is one of the size buttons: each one's board is drawn while they choose
            sizes = size_totals(s.bag)
            choices = [SIZE_LETTERS[i] for i in range(len(sizes)) if sizes[i]]
            self.draw_ahead(match, s.drawer, [*choices, "any"])

    async def draw_rest(self, interaction: discord.Interaction, match: Match, version: int | None) -> None:
        """``draw: feel``: the drawing player's remaining draws of this round at random sizes, in one click
        (each draw is still a logged move); the board is edited once."""
        seat = self._player_seat(match, interaction)
        if version is not None and version != match.version:
            raise StaleBoard(_("This board is out of date: the position has changed. Use the newest board."))
        s: EofState = match.state
        if s is None or s.phase is not Phase.DEAL or s.drawer != seat:
            raise NotYourTurn(_("It is not your draw."))
        events: list[Event] = []
        moves: list[MoveRecord] = []
        result: Result | None = None
        current = match
        while True:
            st: EofState = current.state
            if (current.status != Status.RUNNING or st.phase is not Phase.DEAL or st.drawer != seat
                    or st.size_choice >= 0):
                break
            any_size = "draw any"  # not translated: notation
            result = await self.service.play(match.id, interaction.user.id, any_size)
            events += result.events
            moves += result.moves
            current = result.match
        assert result is not None
        merged = dataclasses.replace(result, events=events, moves=moves)
        kwargs = await self.board_kwargs(current, merged)
        file = kwargs.pop("file")
        await interaction.response.edit_message(**kwargs, attachments=[file])
        self.board_shown(current)
        await self.after_result(current, merged)

    def _player_seat(self, match: Match, interaction: discord.Interaction) -> int:
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotAPlayer(_("You are not playing in this match."))
        return seat

    def private_header(self, match: Match) -> str:
        back = _("[back to the match]({url})", url=self.jump_url(match))
        return f"**{self.spec.title} #{match.id}** · {back}"
