"""Permission answers and execution: the step log with its animation, the scores, the notices."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import discord

from bot.errors import NotYourTurn, StaleBoard
from bot.games.base import Event, GameError
from bot.games.eof.execution import done_before_crash
from bot.games.eof.notation import SKIP, Program
from bot.games.eof.pieces import (
    Piece,
    counts_of,
    sub,
)
from bot.games.eof.render import winners_text
from bot.games.eof.rules import EofState, Phase
from bot.games.eof.scoring import Configuration
from bot.games.eof.state import round_summary
from bot.games.eof.words import tr
from bot.i18n import _, ngettext, public
from bot.matches.service import Match, Result
from bot.render import gif_bytes
from bot.render.describing import fit_body
from bot.storage import Status
from cogs._game import COLOUR_INFO, NO_MENTIONS, picture_file
from cogs.eof.common import (
    EXECUTION_KINDS,
    LOG_CHUNK,
    _move_kind,
    decode_draft,
    log,
)
from cogs.eof.private import EofPrivate


def _text(value: object) -> str:
    """An event's text part (a :class:`~bot.games.eof.words.Said`, kept as it is), "" when absent."""
    return value if isinstance(value, str) else "" if value is None else str(value)


class EofExecution(EofPrivate):
    """Permission answers and execution: the step log with its animation, the scores, the notices."""


    async def on_builder(self, interaction: discord.Interaction, match: Match, kind: str, rnd: int, code: str,
                         values: list[str]) -> None:
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if match.status != Status.RUNNING or s is None or s.round != rnd or s.phase is not Phase.PROGRAM:
            raise StaleBoard(_("This builder is for round {round}, whose programming is over.", round=rnd))
        if s.programs[seat] is not None:
            await self._edit_private(interaction, match, await self.builder_payload(match, seat))
            return
        try:
            draft = decode_draft(code)
        except GameError:
            raise StaleBoard(_("That button does nothing any more.")) from None
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
                    raise StaleBoard(_("That piece is not left in your hand; press **Write my program** on "
                                       "the board for a fresh builder."))
            await self._edit_private(
                interaction, match, await self.builder_payload(match, seat, draft, chosen)
            )
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

    async def on_answer(self, interaction: discord.Interaction, match: Match, rnd: int, turn: int,
                        answer: str) -> None:
        seat = self._player_seat(match, interaction)
        s: EofState = match.state
        if (match.status != Status.RUNNING or s is None or s.phase is not Phase.PERMISSION or s.round != rnd
                or s.turn != turn):
            raise StaleBoard(_("That permission request has already been settled."))
        if seat not in s.asked:
            raise NotYourTurn(_("Only the players whose pointer is on that record can answer."))
        result = await self.service.play(match.id, interaction.user.id, answer)
        said = _("You allowed the deletion.") if answer == "allow" else _("You denied the deletion.")
        on_board = interaction.message is not None and interaction.message.id == match.rec.message_id
        if on_board or interaction.message is None:
            await interaction.response.send_message(said, ephemeral=True)
        else:
            await self._edit_private(interaction, result.match, {"content": said,
                                                                 "view": discord.ui.View(timeout=None)})
        await self.present(result.match, result)

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
                if (
                    0 <= mv.seat < before.seats
                    and _move_kind(mv) == "program"
                    and before.programs[mv.seat] is None
                ):
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
        with public(match.rec.guild_id):  # a notice is posted in the thread only when the DM cannot go
            program_notice = _("Press the button to write your round {round} program privately here.",
                               round=s.round)
            permission_notice = _("A delete needs your permission: press the button to answer privately, or "
                                  "use the board's buttons.")
        if s.phase is Phase.PROGRAM and "pool" in kinds:
            waiting = [t for t in range(s.seats) if s.programs[t] is None and not match.seats[t].is_ai]
            await asyncio.gather(*(self.send_private(match, t, "prog", notice=program_notice)
                                   for t in waiting))
        elif s.phase is Phase.PERMISSION and ("permission" in kinds or "execute" in kinds):
            asked = [t for t in s.asked if t not in s.allowed]
            await asyncio.gather(*(self.send_private(match, t, "perm", notice=permission_notice)
                                   for t in asked))

    async def post_execution(self, match: Match, result: Result) -> None:
        """The step log with the animation, the round's scores, then a fresh board at the bottom: posts in
        the match thread, in the server's language."""
        place = await self.place_of(match)
        if place is None:
            return
        with public(match.rec.guild_id):
            await self._post_execution(place, match, result)

    async def _post_execution(self, place: discord.abc.Messageable, match: Match, result: Result) -> None:
        steps = [e for e in result.events if e.kind == "step"]
        scored = [e for e in result.events if e.kind == "score"]
        before: EofState | None = result.before
        rnd = (
            int(scored[0].data.get("round", 0)) if scored else (before.round if before else match.state.round)
        )
        lines = []
        for e in steps:
            d = e.data
            seat = int(d["seat"])
            head = f"`{int(d['index']) + 1}` {self._who(match, seat)} `{d['instruction']}`"
            if d.get("crash"):
                crash = self.named(match, _text(d["crash"]))
                done = done_before_crash(_text(d.get("result")), _text(d["crash"]))
                if done:
                    lines.append(head + " — " + _("💥 **crash**: {reason} ({done})", reason=crash,
                                                  done=self.named(match, done)))
                else:
                    lines.append(head + " — " + _("💥 **crash**: {reason}", reason=crash))
            else:
                lines.append(f"{head} — {self.named(match, _text(d.get('result')))}")
        for e in result.events:
            if e.kind == "permission" and e.visible_to is None:
                lines.append(f"⏸️ {self.named(match, e.text)}")
        if not lines:
            lines.append(_("No instructions ran (no programs)."))
        chunks: list[str] = []
        for line in lines:
            if chunks and len(chunks[-1]) + len(line) + 1 <= LOG_CHUNK:
                chunks[-1] += "\n" + line
            else:
                chunks.append(line[:LOG_CHUNK])
        resumed = before is not None and bool(before.steps)
        title = (_("Round {round}: execution (continued)", round=rnd) if resumed
                 else _("Round {round}: execution", round=rnd))
        gif = await self._execution_gif(match, result) if steps else None
        for i, chunk in enumerate(chunks):
            part = title if i == 0 else _("{title}, part {part}", title=title, part=i + 1)
            embed = discord.Embed(title=part, description=chunk, colour=COLOUR_INFO)
            if gif is not None and i == len(chunks) - 1:
                file = picture_file(gif, "execution.gif")  # shown as itself: its alt text is read
                file.description = self.execution_alt(match, rnd, len(steps), steps)
                await place.send(embed=embed, file=file, allowed_mentions=NO_MENTIONS)
            else:
                await place.send(embed=embed, allowed_mentions=NO_MENTIONS)
        for e in scored:
            await place.send(embed=self.score_embed(match, e), allowed_mentions=NO_MENTIONS)
        await self.post_board(place, match, result)  # the new board; the old one is retired by it

    def execution_alt(self, match: Match, rnd: int, steps: int, events: Sequence[Event] = ()) -> str:
        """The execution GIF's alt text: what it shows (each instruction and what it did, in order, as many
        as fit), and the result it stops on (in the current language: the thread's)."""
        view = match.view(None)
        names = match.names()
        end = (_("stopping on the final result: {result}", result=winners_text(view, names)) if view.finished
               else _("stopping on the round {round} scores", round=rnd))
        said = []
        for e in events:
            d = e.data
            seat = int(d.get("seat", -1))
            who = names[seat] if 0 <= seat < len(names) else "?"
            what = (_("crash, {reason}", reason=tr(_text(d.get("crash")))) if d.get("crash")
                    else tr(_text(d.get("result"))))
            said.append(f"{int(d.get('index', 0)) + 1} {who} {d.get('instruction')}: {what}")
        head = ngettext("EOF round {round} execution, {n} instruction one frame each, {end}.",
                        "EOF round {round} execution, {n} instructions one frame each, {end}.", steps,
                        round=rnd, end=end)
        return fit_body(head, "; ".join(said) + "." if said else "")

    async def _execution_gif(self, match: Match, result: Result) -> bytes | None:
        animate = self.game.animate
        if result.before is None or animate is None:
            return None
        before = match.rules.view(result.before, None)
        after = match.view(None)
        names = match.names()

        def work() -> bytes:
            frames = animate(before, result.events, after, names=names)
            # played once, stopping on the last frame: the result of the round (or of the game)
            return gif_bytes([f for f, _ms in frames], [d for _f, d in frames], loop=None)

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
            cfg = [Configuration.load(c) for c in (configs[t] if t < len(configs) else [])]
            how = tr(round_summary(lr is not None and lr.skipped[t], lr is not None and lr.crashed[t],
                                   points[t] < 0, cfg))
            total = totals[t] if t < len(totals) else "?"
            lines.append(f"{self._who(match, t)} **{points[t]:+d}** → {total} · {how}")
        return discord.Embed(title=_("Round {round} scores", round=rnd), description="\n".join(lines)[:4096],
                             colour=discord.Colour.from_rgb(250, 166, 26))
