"""Replays: any played match of the server, found by its number, stepped through move by move, or
watched whole as one GIF.

``/<game> history match:<n> [move:<k>]`` (and ``/replay``, :mod:`cogs.replay`) answers privately with the
board at move ``k`` (the end unless given) and ⏮ ◀ ▶ ⏭, a select to jump, 🎞 for the whole game as a
GIF and 📢 to post the position shown in the channel. Each click edits that private message (one request).
The positions come from the move log through the engine (:mod:`bot.matches.replay`), the pictures from
the same renderer and arguments as the boards the players saw, so step ``k`` is the board they saw after
move ``k``.

The buttons are match components (``p:<match>:-:rp:<step>``, ``rj`` the select, ``rg`` the GIF, ``ru:<step>``
post): they keep working after a restart, and unlike a board's controls they work in any channel of the
match's server (:data:`bot.components.ANYWHERE`), never in another server.

Hidden information: the pictures are always the channel's view. While the match is on, that is all; once
it is over, the caption also shows every seat's private view at that step (EOF: each hand and program of
each round).

Languages: the replay is private, in its reader's language (its kept pictures and GIFs are kept per
language); a position posted with 📢 is the channel's, in the server's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import inspect
import io
import re
import time
from typing import Any

import discord
from discord import app_commands

from bot.errors import MatchError
from bot.games import GAMES, TITLES
from bot.games.base import CHANCE
from bot.i18n import N_, _, capitalised, language, ngettext, pgettext, public
from bot.matches.replay import (
    GifJob,
    Replay,
    Step,
    gif_job,
    gif_off_loop,
    make_gif,
    replay_of,
    stop_gif_process,
)
from bot.matches.service import Match, Result
from bot.names import shown, versus
from bot.render import board_png
from bot.render.kept import Kept
from bot.render.match_gif import MAX_FRAMES, MatchGif
from bot.review import REVIEWED, Review, how, job_of, kept_review, review_once, stop_review_process
from bot.storage import MatchRecord, Status
from cogs import _views as v
from cogs._game.base import COLOUR_END, COLOUR_INFO, NO_MENTIONS, match_tag, picture_file
from cogs._game.lobby import LobbyCog

STEP = "rp:"
JUMP = "rj"
GIF = "rg"
POST = "ru:"
REVIEW = "rv"
ACTIONS = (STEP, JUMP, GIF, POST, REVIEW)
MARKS_SHOWN = 20
"""Marks listed in a review's answer (the biggest swings first past that, in move order)."""
PICTURE = "replay.png"
STEPS_KEPT = 1 << 23
"""Bytes of replay step pictures kept (drawn ahead of the next click, or shown lately): 8 MB."""
GIFS_KEPT = 1 << 25
"""Bytes of whole-game GIFs kept (a second request for one, e.g. after its player posts it): 32 MB."""
KINDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""A review mark's kind (:mod:`bot.review`) in words (looked up with ``_``)."""
SECRETS = {"hand": N_("hand"), "program": N_("program")}
"""The private parts of a seat's view a finished replay shows, in words (looked up with ``_``)."""


def kind_words(kind: str) -> str:
    """A review mark's kind in the current language ("blunder")."""
    return _(KINDS[kind]) if kind in KINDS else kind


def ago(then: float, now: float) -> str:
    """``today``, ``yesterday``, ``3 days ago`` or the date, for a match's line in a list.

    >>> ago(0, 3600), ago(0, 90000), ago(0, 4 * 86400)
    ('today', 'yesterday', '4 days ago')
    """
    days = int((now - then) // 86400)
    if days <= 0:
        return _("today")
    if days == 1:
        return _("yesterday")
    if days < 30:
        return ngettext("{n} day ago", "{n} days ago", days)
    return time.strftime("%Y-%m-%d", time.gmtime(then))


def summary(rec: MatchRecord, now: float) -> str:
    """``#412 Pylon · Alice vs Bob · Alice won 17–13 · yesterday`` (plain text: autocomplete, /stats)."""
    names = versus(s.name for s in rec.seats)
    match = Match(rec) if rec.state is not None else None
    out = match.outcome if match is not None else None
    if rec.status == Status.RUNNING:
        result = _("running, move {number}", number=int(rec.ui.get("plies", 0)))
    elif rec.status == Status.ABORTED:
        result = _("stopped")
    elif out is None:
        result = _("over")
    else:
        scores = "–".join(str(x) for x in out.scores) if out.scores else ""
        if out.is_draw:
            result = _("draw {scores}", scores=scores).strip()
        else:
            winners = ", ".join(rec.seats[s].name for s in sorted(out.winners))
            result = _("{winners} won {scores}", winners=winners, scores=scores).strip()
    when = ago(rec.finished_at or rec.updated_at, now)
    return f"#{rec.id} {TITLES.get(rec.game, rec.game)} · {names} · {result} · {when}"


async def played_match(bot: Any, interaction: discord.Interaction, number: int) -> Match:
    """Match ``number`` if it may be replayed here; else a short private answer saying what is wrong."""
    rec = await bot.store.load_match(number) if 0 < number < 2**63 else None
    if rec is None:
        raise MatchError(_("There is no match #{match}. Pick one from the list as you type the number.",
                           match=number))
    if interaction.guild_id is None or rec.guild_id != interaction.guild_id:
        raise MatchError(_("Match #{match} was not played in this server: a server's matches are shown "
                           "only there.", match=number))
    if rec.state is None or rec.status not in (Status.RUNNING, Status.FINISHED, Status.ABORTED):
        raise MatchError(_("Match #{match} never started, so there is nothing to replay.", match=number))
    return Match(rec)


async def match_choices(bot: Any, interaction: discord.Interaction, current: str,
                        game: str | None = None) -> list[app_commands.Choice[int]]:
    """Autocomplete for ``match:``: the caller's recent matches of this server first, then the server's."""
    gid = interaction.guild_id
    if gid is None:
        return []
    mine = await bot.store.played_in_guild(gid, user_id=interaction.user.id, game=game, limit=25)
    theirs = await bot.store.played_in_guild(gid, game=game, limit=25)
    seen: set[int] = set()
    now = bot.service.clock()
    want = current.strip().lstrip("#").lower()
    out: list[app_commands.Choice[int]] = []
    for rec in [*mine, *theirs]:
        if rec.id in seen:
            continue
        seen.add(rec.id)
        name = summary(rec, now)
        if want and not (str(rec.id).startswith(want) or want in name.lower()):
            continue
        out.append(app_commands.Choice(name=name[:100], value=rec.id))
    return out[:25]


class ReplayCog(LobbyCog):
    """Replays of this game's matches (see the module docstring)."""

    _gifs: Kept | None = None
    _step_pngs: Kept | None = None
    _ahead_tasks: set[asyncio.Task[None]] = set()  # noqa: RUF012  (only holds the tasks until they end)

    # -- the step message ---------------------------------------------------------------------------------

    async def show_replay(self, interaction: discord.Interaction, match: Match, move: int | None) -> None:
        """The private replay message at ``move`` (the end when None)."""
        replay = await replay_of(self.service, match)
        n = replay.last if move is None else move
        if not 0 <= n <= replay.last:
            raise MatchError(_("Match #{match} has moves 0 to {last}: there is no move {number}.",
                               match=match.id, last=replay.last, number=n))
        await interaction.response.send_message(**self.step_kwargs(match, replay, n), ephemeral=True,
                                                allowed_mentions=NO_MENTIONS)
        self.draw_steps_ahead(match, replay, n)

    async def on_replay_action(self, interaction: discord.Interaction, match: Match, action: str,
                               values: list[str]) -> None:
        replay = await replay_of(self.service, match)
        if action == GIF:
            await self.send_gif(interaction, match, replay)
            return
        if action == REVIEW:
            await self.send_review(interaction, match, replay)
            return
        found = re.fullmatch(r"(rp:|ru:)(\d{1,6})(:[se])?", action)  # ⏮ ⏭ are :s :e (ids differ)
        if action == JUMP and values and values[0].isdigit():
            n = int(values[0])
        elif found is not None:
            n = int(found[2])
        else:
            raise MatchError(_("That button does nothing any more."))
        n = min(n, replay.last)
        if action.startswith(POST):  # posted in the channel: the server's language
            with public(match.rec.guild_id):
                kwargs = self.step_kwargs(match, replay, n)
                kwargs.pop("view")
                kwargs["embed"].set_footer(text=(match_tag(match.id) + " · " + _(
                    "a replay posted by {player}", player=interaction.user.display_name))[:2048])
            await interaction.response.send_message(**kwargs, allowed_mentions=NO_MENTIONS)
            return
        kwargs = self.step_kwargs(match, replay, n)
        await interaction.response.edit_message(embed=kwargs["embed"], view=kwargs["view"],
                                                attachments=[kwargs["file"]])
        self.draw_steps_ahead(match, replay, n)

    def step_kwargs(self, match: Match, replay: Replay, n: int) -> dict[str, Any]:
        data, text, alt = self.step_drawn(match, replay, n)
        rv = kept_review((match.id, match.version))
        mark = rv.at(n) if rv is not None else None
        if mark is not None:  # (not in the drawn step: a review may come in after the step was drawn)
            text = f"{text}\n🔎 **{capitalised(kind_words(mark.kind))}** · `{mark.better}` {mark.why}"[:4096]
        seats = versus(self.seat_label(match, s.seat) for s in match.seats)
        embed = discord.Embed(title=f"{self.spec.title} #{match.id} · {seats}"[:256], description=text,
                              colour=COLOUR_END if match.status != Status.RUNNING else COLOUR_INFO)
        embed.set_footer(text=match_tag(match.id) + " · " + _(
            "move {number} of {last} · ◀ ▶ one move, ⏮ ⏭ start and end, or pick a move below · only you see "
            "this until you post it", number=n, last=replay.last))
        view = self.replay_view(match, replay, n)
        return {"embed": embed, "file": picture_file(data, PICTURE, alt), "view": view}

    def step_drawn(self, match: Match, replay: Replay, n: int) -> tuple[bytes, str, str]:
        """The picture, caption and alt text of step ``n``: drawn ahead (:meth:`draw_steps_ahead`) or now,
        kept per language (the words on the picture and in the caption)."""
        if self._step_pngs is None:
            self._step_pngs = Kept(STEPS_KEPT, lambda d: len(d[0]) + len(d[1]) + len(d[2]))
        key = (match.id, match.version, n, language())
        drawn: tuple[bytes, str, str] | None = self._step_pngs.get(key)
        if drawn is None:
            at = self.match_at(match, replay, n)
            step = replay.step(n)  # the picture's description: the board's own, at this step
            alt = self.alt_text(at, Result(match, events=list(step.events), actor=step.seat))
            drawn = (self.replay_png(at, step), "\n".join(self.step_lines(match, at, replay, n))[:4000], alt)
            self._step_pngs.put(key, drawn)
        return drawn

    def draw_steps_ahead(self, match: Match, replay: Replay, n: int) -> None:
        """After answering step ``n``: draw the steps one click away (▶ then ◀) on the loop, one at a time,
        so the next click only sends its picture (as boards are drawn ahead of a move's click); the task
        carries the reader's language."""
        async def ahead() -> None:
            for k in (n + 1, n - 1):
                await asyncio.sleep(0)  # the loop's other work goes first
                if 0 <= k <= replay.last:
                    self.step_drawn(match, replay, k)

        task = asyncio.create_task(ahead())
        self._ahead_tasks.add(task)
        task.add_done_callback(self._ahead_tasks.discard)

    def step_lines(self, match: Match, at: Match, replay: Replay, n: int) -> list[str]:
        step = replay.step(n)
        head = (_("**Move {number} of {last}**", number=n, last=replay.last) if n
                else _("**Start** (move 0 of {last})", last=replay.last))
        lines = [f"{head} · {self.step_text(match, step)}" if step.seat is not None or step.chance else head]
        with contextlib.suppress(Exception):  # a game's lines may read more than the position: then none
            lines += self.extra_lines(at, None)
        if n == replay.last and match.status != Status.RUNNING:
            lines.append(self.status_line(match))
        if match.status == Status.RUNNING:
            lines.append(_("*The match is still on: this shows only what the channel has seen so far.*"))
        elif self.spec.hidden_information:
            lines += self.secret_lines(match, step)
        if replay.broken:
            lines.append(f"⚠️ {replay.broken}")
        return lines

    def step_text(self, match: Match, step: Step) -> str:
        """Who moved what (the chance outcomes after it with 🎲). EOF programs are shown once the match is
        over (the replay of a running match only comes this far when the round has been executed)."""
        parts = []
        for mv in step.moves:
            if mv.seat == CHANCE:
                parts.append(f"🎲 `{mv.notation}`")
            else:
                who = shown(match.seats[mv.seat].name) if mv.seat < len(match.seats) else "?"
                secret = match.status == Status.RUNNING and self.spec.hidden_information
                parts.append(f"{who}: " + (_("moved") if secret else f"`{mv.notation}`"))
        return " ".join(parts)[:1500]

    def secret_lines(self, match: Match, step: Step) -> list[str]:
        """Every seat's private view at this step (hands, programs): shown once the match is over."""
        out = []
        for seat in range(len(match.seats)):
            try:
                view = match.rules.view(step.state, seat)
            except Exception:
                continue
            bits = []
            for name, words in SECRETS.items():
                value = getattr(view, name, None)
                if value:
                    text = " ".join(str(x) for x in value) if isinstance(value, tuple | list) else str(value)
                    bits.append(f"{_(words)} `{text}`")
            if bits:
                out.append(f"{shown(match.seats[seat].name)}: " + ", ".join(bits))
        return [_("**Hidden during the game:** {views}", views=" · ".join(out))] if out else []

    def replay_view(self, match: Match, replay: Replay, n: int) -> discord.ui.View:
        last = replay.last
        view = v.view_of(
            v.button(match.id, None, f"{STEP}0:s", emoji="⏮", disabled=n <= 0),
            v.button(match.id, None, f"{STEP}{max(n - 1, 0)}", emoji="◀", disabled=n <= 0),
            v.button(match.id, None, f"{STEP}{min(n + 1, last)}", emoji="▶", disabled=n >= last),
            v.button(match.id, None, f"{STEP}{last}:e", emoji="⏭", disabled=n >= last),
            v.button(match.id, None, GIF, emoji="🎞", label=_("Whole game")),
        )
        marks = sorted({0, last, n, *(round(i * last / 22) for i in range(1, 22))})
        start = pgettext("replay position", "Start")
        options = [discord.SelectOption(label=_("Move {number}", number=k) if k else start, value=str(k),
                                        default=k == n)
                   for k in marks][:25]
        if last > 0:
            view.add_item(v.select(match.id, None, JUMP, options, placeholder=_("Jump to a move"), row=1))
        view.add_item(v.button(match.id, None, f"{POST}{n}", emoji="📢", label=_("Post this position here"),
                               row=2))
        if self.reviewable(match):
            view.add_item(v.button(match.id, None, REVIEW, emoji="🔎", label=_("Where it turned"), row=2))
        return view

    # -- the review (bot/review.py): the strongest level's marks, made in a worker process ------------------

    def reviewable(self, match: Match) -> bool:
        """Offered for finished matches of the games whose strongest level is measured strong."""
        return self.game_key in REVIEWED and match.status == Status.FINISHED

    async def send_review(self, interaction: discord.Interaction, match: Match, replay: Replay) -> None:
        if not self.reviewable(match):
            raise MatchError(_("A review is offered only for finished matches of Fire and Ice and the Egg "
                               "Carton Game (the games whose strongest computer level is measured strong)."))
        await interaction.response.defer(ephemeral=True, thinking=True)
        rv = await review_once((match.id, match.version), lambda: job_of(self.game_key, replay.steps))
        view = v.view_of(*(v.button(match.id, None, f"{STEP}{m.step}",
                                    label=_("Move {number}", number=m.step))
                           for m in self.marks_shown(rv)[:5]))
        await interaction.followup.send(content=self.review_text(match, rv, replay), view=view,
                                        ephemeral=True, allowed_mentions=NO_MENTIONS)

    @staticmethod
    def marks_shown(rv: Review) -> list[Any]:
        worst = sorted(rv.marks, key=lambda m: ("inaccuracy", "mistake", "blunder").index(m.kind),
                       reverse=True)[:MARKS_SHOWN]
        return sorted(worst, key=lambda m: m.step)

    def review_text(self, match: Match, rv: Review, replay: Replay) -> str:
        lines = [_("🔎 **Where it turned** · {game} #{match}", game=self.spec.title, match=match.id)]
        for m in self.marks_shown(rv):
            who = shown(match.seats[m.seat].name) if m.seat < len(match.seats) else "?"
            lines.append(_("move {number} · {player} `{played}` · **{kind}**: `{better}` {why}",
                           number=m.step, player=who, played=m.played, kind=kind_words(m.kind),
                           better=m.better, why=m.why))
        if not rv.marks:
            lines.append(_("No move swung the evaluation past the marks: a clean game, as far as the engine "
                           "sees."))
        elif len(rv.marks) > MARKS_SHOWN:
            lines.append(ngettext("… and {n} smaller one.", "… and {n} smaller ones.",
                                  len(rv.marks) - MARKS_SHOWN))
        if replay.broken:
            lines.append(_("⚠️ The log no longer replays to its end on today's rules: only the moves before "
                           "that."))
        lines.append("-# " + _("{how} The marks are only as good as the engine.", how=how(rv)))
        return "\n".join(lines)[:2000]

    # -- positions and pictures ---------------------------------------------------------------------------

    def match_at(self, match: Match, replay: Replay, n: int) -> Match:
        """``match`` as it stood after move ``n``: its state then, "running" before the last move (so the
        picture is the one drawn then), no tournament clock (its time is not in the log)."""
        final = n == replay.last and match.status != Status.RUNNING and replay.broken is None
        at = copy.copy(match)
        at.rec = dataclasses.replace(match.rec, clocks=None,
                                     status=match.rec.status if final else Status.RUNNING)
        at.state = replay.step(n).state
        at._views = {}
        return at

    def replay_png(self, at: Match, step: Step) -> bytes:
        """The board after this step, as the players saw it (the game's own picture of a position)."""
        result = Result(at, events=list(step.events), actor=step.seat)
        if self.picture_name(at, result).endswith(".png"):
            return self._picture_bytes(at, result, "board.png")
        view = at.view(None)  # an animated move (a sowing): its final position, still
        return board_png(lambda: self.game.render(view, names=at.names(), events=step.events), self.game_key)

    def gif_job(self, match: Match, replay: Replay) -> GifJob:
        """What the GIF of the match is drawn from: its log, replayed in the GIF process, which draws the
        channel's views (nothing hidden appears); here only the captions, the names and whether the last
        frame shows the match ended by the platform (a resignation, a timeout)."""
        first = max(0, replay.last - MAX_FRAMES + 1)
        at = self.match_at(match, replay, replay.last)
        ended = at.outcome if at.outcome is not None and self.ended_by_platform(at) else None
        takes_names = "names" in inspect.signature(self.game.render).parameters
        captions = [self.gif_caption(match, replay, n) for n in range(first, replay.last + 1)]
        return gif_job(match, replay, captions, first=first, names=match.names() if takes_names else None,
                       ended=ended)

    def gif_caption(self, match: Match, replay: Replay, n: int) -> str:
        if n == replay.last and match.status != Status.RUNNING:
            return self.result_words(match)[:120]
        if n == 0:
            return ngettext("Start · {n} player", "Start · {n} players", len(match.seats))
        step = replay.step(n)
        who = match.seats[step.seat].name if step.seat is not None and step.seat < len(match.seats) else ""
        secret = match.status == Status.RUNNING and self.spec.hidden_information
        what = f" · {who}: {step.notation}" if who and not secret else (f" · {who}" if who else "")
        return (_("Move {number} of {last}", number=n, last=replay.last) + what)[:120]

    def whole_game(self, match: Match, replay: Replay) -> MatchGif:
        """The GIF of the match, here (tests, bench); the button makes it in the GIF process."""
        return make_gif(self.gif_job(match, replay))

    async def send_gif(self, interaction: discord.Interaction, match: Match, replay: Replay) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if self._gifs is None:
            self._gifs = Kept(GIFS_KEPT, lambda g: len(g.data))
        key = (match.id, match.version, language())  # its captions are in the reader's language
        gif = self._gifs.get(key)
        if gif is None:
            gif = await gif_off_loop(self.gif_job(match, replay))
            self._gifs.put(key, gif)
        note = (_("The game is too long for one picture: this is its last part, from move {first} to move "
                  "{last}.", first=gif.first, last=gif.last) if gif.cut
                else ngettext("{n} move, a second long.", "All {n} moves, a second each.", replay.last))
        file = discord.File(io.BytesIO(gif.data), filename=f"match-{match.id}.gif",
                            description=_("{game} #{match}, moves {first} to {last}", game=self.spec.title,
                                          match=match.id, first=gif.first, last=gif.last))
        await interaction.followup.send(content=f"**{self.spec.title} #{match.id}** · {note}", file=file,
                                        ephemeral=True, allowed_mentions=NO_MENTIONS)

    def rematch_view(self, match: Match) -> discord.ui.View:
        """The end-of-match message: Rematch, and the whole game as one GIF (made when asked: privately)."""
        view = super().rematch_view(match)
        view.add_item(v.button(match.id, None, GIF, emoji="🎞", label=_("Whole game (GIF)")))
        return view

    async def cog_unload(self) -> None:
        stop_gif_process()  # (started again on the next GIF)
        stop_review_process()  # (and on the next review)
        await super().cog_unload()

    # -- commands -----------------------------------------------------------------------------------------

    async def replay_command(self, interaction: discord.Interaction, number: int, move: int | None) -> None:
        """``history match:``: the replay, by the cog of the match's own game."""
        match = await played_match(self.bot, interaction, number)
        cog = self.bot.game_cogs.get(match.rec.game)
        if not isinstance(cog, ReplayCog):
            raise MatchError(_("{game} is not available right now.", game=GAMES[match.rec.game].spec.title))
        await cog.show_replay(interaction, match, move)
