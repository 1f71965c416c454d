"""``/<game> learn``: a private lesson on the real board pictures, with the board's own buttons.

Each step (``bot/lessons``) is an engine position. Its message is the game's picture of it and the very
components a match board offers there (:meth:`GameCog.components` on a stand-in match), their custom ids
rewritten from ``p:<match>:<version>:<action>`` to ``lesson:<game>:<step>:<action>`` so that clicks come
back here instead of to a match. A click that only opens a picker (Pylon's size, Fire and Ice's piece)
redraws the step with the picker open, like on a board; a click that makes a move goes to the lesson's
checker: right moves on (the position after it, then **Next**), wrong shows the hint on the same step.
Every click is answered by editing the one private message: one request per click. Progress (the step
reached) is stored per user and game, so ``/<game> learn`` resumes there, also after a restart. Lessons
never create matches (until the last button starts a real one) and never touch ratings.

A lesson is private: its texts (marked ``N_`` in ``bot/lessons/<game>.py``) are looked up here with ``_``, in
the learner's language, and everything kept of a step (its components, pictures, alt texts) is kept per
language.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import StaleBoard
from bot.games.base import Event
from bot.games.pylon.notation import SIZE_LETTERS
from bot.i18n import _, language, speaking
from bot.lessons import Lesson, Verdict, check, lesson_of, position
from bot.matches.service import Match
from bot.render import board_png
from bot.replies import reply_error
from bot.storage import MatchRecord, SeatRecord, Status
from cogs._game.base import COLOUR_INFO, COLOUR_OK, NO_MENTIONS, describer, picture_file
from cogs._game.board import BoardCog

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

LESSON_RE = re.compile(r"lesson:(?P<game>[a-z]{1,20}):(?P<step>[0-9]{1,2}):(?P<act>\S{1,80})")
LESSON_USER = 1  # the stand-in match's seat ids: no Discord user
CLICKS, PER_SECONDS = 15, 10.0
"""Per user: at most this many lesson actions in that many seconds (then a short private refusal); a
person reading the captions clicks about once every two seconds."""


class LessonComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=re.compile(r"lesson:.*")):
    """Every lesson button and select, on any lesson message however old (they survive restarts)."""

    def __init__(self, item: discord.ui.Item[Any], cid: str) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LessonComponent:
        return cls(item, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.components import offered_values

        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        try:
            m = LESSON_RE.fullmatch(self.cid)
            cog = interaction.client.game_cogs.get(m["game"]) if m else None  # type: ignore[attr-defined]
            if m is None or not isinstance(cog, LearnCog):
                raise StaleBoard(_("That lesson button does nothing any more: run the game's `learn` again."))
            values = offered_values(interaction, self.cid, data.get("values"))
            await cog.on_lesson(interaction, int(m["step"]), m["act"], values)
        except Exception as exc:
            await reply_error(interaction, exc)


class StepView(discord.ui.View):
    """The components of a lesson step as a payload built once (:func:`step_payload`), sent as often as
    the step is shown. Not put in the library's view store after an edit (every click comes back through
    :class:`LessonComponent`; a stored copy per lesson message, never timing out, would only grow)."""

    def __init__(self, payload: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._payload = payload

    def to_components(self) -> list[dict[str, Any]]:
        return self._payload

    def is_dispatchable(self) -> bool:
        return False


def step_payload(items: list[discord.ui.Item[Any]]) -> list[dict[str, Any]]:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view.to_components()


STEP_VIEWS: dict[tuple[str, int, str, str], tuple[str, list[dict[str, Any]]]] = {}
"""Per (game, step, picker state, language): the text under the caption and the components' payload (pure:
the step's position, the picker state and the language decide them; at most :data:`MOST_VIEWS`, then built
each time)."""
MOST_VIEWS = 512


def lesson_id(game: str, step: int, action: str) -> str:
    return f"lesson:{game}:{step}:{action}"


def _pylon_action(cog: LearnCog, match: Match, action: str, values: list[str]) -> tuple[str, str]:
    place = re.fullmatch(r"pl([123])\.\d{1,2}", action)
    if re.fullmatch(r"z[123]", action):
        return "ui", action
    if place and values:
        return "move", f"{SIZE_LETTERS[int(place[1])]} {values[0]}"
    if action.startswith("src") and values:
        return "ui", f"src{values[0]}"
    if action == "agree?":
        return "move", "agree"
    return "ui", ""


def _fire_and_ice_action(cog: LearnCog, match: Match, action: str, values: list[str]) -> tuple[str, str]:
    if action.startswith("src") and values:
        return "ui", f"src{values[0]}"
    if action == "dst" and values:
        warns = getattr(cog, "confirm_text", None)
        return ("ui", f"cf{values[0]}") if warns and warns(match, values[0]) else ("move", values[0])
    return "ui", ""


STEP_PICTURES: dict[tuple[str, int, str, str], bytes] = {}
"""The pictures of lesson steps as drawn, per (game, step, picker state, language: the words drawn on them)
(a few dozen per language, a few KB each: bounded by the lessons' size)."""
STEP_ALTS: dict[tuple[str, int, str], str] = {}
"""Each lesson step's picture description per language (its position never changes)."""
DONE_PICTURES: dict[tuple[str, int, str, str], bytes] = {}
"""The position after a right move, per (game, step, move, language): pure, so drawn once (at most
:data:`MOST_DONE`; the caption's own move is drawn ahead, in a worker thread, when its step is shown)."""
MOST_DONE = 512
PROGRESS_CACHED = 4096
"""Users whose lesson progress is kept in memory (write-through: the store stays the truth)."""

def _eof_action(cog: LearnCog, match: Match, action: str, values: list[str]) -> tuple[str, str]:
    """The program builder: a piece chosen (``code|piece``), an orientation laid (the new draft), and
    Submit, which plays the program (a lesson skips the builder's Confirm)."""
    m = re.fullmatch(r"(pb|pk|pc)\d{1,2}:([A-Za-z0-9.]{0,40})", action)
    if m is None:
        return "ui", ""
    if m[1] == "pb":
        return "ui", f"{m[2]}|{values[0]}" if values else m[2]
    return "move", m[2].replace(".", " ")


def _nomic_action(cog: LearnCog, match: Match, action: str, values: list[str]) -> tuple[str, str]:
    if action in ("pd0", "pd1") and values:
        return "ui", f"pa:{values[0]}"
    return ("ui", action) if re.fullmatch(r"pa:[NESW]{0,12}", action) else ("ui", "")


PICKERS = {"pylon": _pylon_action, "fireandice": _fire_and_ice_action, "eof": _eof_action,
           "nomic": _nomic_action}
"""A board's own picker clicks (not moves yet), read the way the game's ``on_action`` reads them."""


class LearnCog(BoardCog):
    """``/<game> learn`` and its components (mixed into :class:`cogs._game.GameCog`)."""

    _lesson_clicks: dict[int, deque[float]] | None = None
    _progress: dict[tuple[int, str], tuple[int, bool]] | None = None
    lesson_rate: tuple[int, float] = (CLICKS, PER_SECONDS)

    def __init__(self, bot: ParlorBot) -> None:
        super().__init__(bot)
        self._saves: set[asyncio.Task[None]] = set()  # progress written after the reply, not yet stored
        self._last_save: dict[tuple[int, str], asyncio.Task[None]] = {}  # per learner: the latest of them
        self._gates: dict[asyncio.Task[None], asyncio.Event] = {}  # set when its reply is sent
        if LessonComponent not in getattr(bot, "_component_templates", {}):  # one registration for all games
            bot.add_dynamic_items(LessonComponent)

    @app_commands.command(
        name="learn",
        description=(
            "A short private lesson: play your first moves, step by step"
        ),
    )
    async def learn(self, interaction: discord.Interaction) -> None:
        lesson = self.lesson()
        self.check_rate(interaction.user.id)
        await self.saved(interaction.user.id)  # a step written after its reply is in the store first
        found = await self.bot.store.lesson_step(interaction.user.id, self.game_key)  # the truth, each time
        step = 0 if found is None or found[1] or found[0] >= len(lesson) else found[0]
        note = _("Welcome back: here is where you left off.") if found and not found[1] and step else None
        if found is None or found[1]:
            await self.save_progress(interaction.user.id, 0, False)
        else:
            self.remember(interaction.user.id, found)
        await interaction.response.send_message(**self.step_message(lesson, step, note=note), ephemeral=True,
                                                allowed_mentions=NO_MENTIONS)
        self.draw_lesson_ahead(lesson, step)

    # ------------------------------------------------------------------ progress and drawing ahead

    def remember(self, user_id: int, found: tuple[int, bool]) -> None:
        if self._progress is None:
            self._progress = {}
        self._progress[(user_id, self.game_key)] = found
        if len(self._progress) > PROGRESS_CACHED:
            self._progress.pop(next(iter(self._progress)))

    async def progress(self, user_id: int) -> tuple[int, bool] | None:
        """The step reached and whether the lesson is done: kept in memory after the first read, so a
        click costs no store round trip (``learn`` reads the store every time)."""
        found = (self._progress or {}).get((user_id, self.game_key))
        if found is None:
            found = await self.bot.store.lesson_step(user_id, self.game_key)
            if found is not None:
                self.remember(user_id, found)
        return found

    async def save_progress(self, user_id: int, step: int, done: bool) -> None:
        self.remember(user_id, (step, done))
        await self.bot.store.save_lesson_step(user_id, self.game_key, step, done)

    def save_after(self, user_id: int, step: int, done: bool) -> asyncio.Event:
        """Store the step reached once the returned gate is set (the reply is sent): the click does not
        wait for the store. Memory has it at once (the next click reads it); ``learn`` and shutdown
        (:meth:`flush_lesson_saves`) wait for the write, and writes of one learner go in click order."""
        self.remember(user_id, (step, done))
        key = (user_id, self.game_key)
        gate, before = asyncio.Event(), self._last_save.get(key)

        async def write() -> None:
            await gate.wait()
            if before is not None:
                await asyncio.wait([before])  # an earlier step of this learner first (failed or not)
            try:
                await self.bot.store.save_lesson_step(user_id, self.game_key, step, done)
            except Exception:
                self.forget(user_id)  # memory must not claim what the store lacks: read it again
                log.exception("lesson progress of %s in %s not stored", user_id, self.game_key)

        task = asyncio.get_running_loop().create_task(write())
        self._saves.add(task)
        self._last_save[key] = task
        self._gates[task] = gate

        def finished(t: asyncio.Task[None]) -> None:
            self._saves.discard(t)
            self._gates.pop(t, None)
            if self._last_save.get(key) is t:
                del self._last_save[key]

        task.add_done_callback(finished)
        return gate

    def forget(self, user_id: int) -> None:
        (self._progress or {}).pop((user_id, self.game_key), None)

    async def saved(self, user_id: int) -> None:
        """Wait until the learner's progress written after a reply is in the store."""
        task = self._last_save.get((user_id, self.game_key))
        if task is not None:
            await asyncio.wait([task])

    async def flush_lesson_saves(self) -> None:
        """Write every pending progress now and wait for it (the cog is unloaded, the bot closes): a
        restart right after a click keeps the step."""
        for gate in list(self._gates.values()):
            gate.set()
        if self._saves:
            await asyncio.wait(list(self._saves))

    async def cog_unload(self) -> None:
        await self.flush_lesson_saves()
        await super().cog_unload()

    def draw_lesson_ahead(self, lesson: Lesson, step: int) -> None:
        """Draw, in a worker thread, the pictures the learner's next clicks at ``step`` need: the step's
        own, and the position after the move its caption asks for (both pure, cached), in the learner's
        language (the thread is given it: an executor does not carry the context over)."""
        lang = language()
        if step >= len(lesson):
            return
        if ((self.game_key, step, "", lang) in STEP_PICTURES
                and (self.game_key, step, lesson.steps[step].solution, lang) in DONE_PICTURES):
            return

        def work() -> None:
            with speaking(lang):
                key = (self.game_key, step, "", lang)
                if key not in STEP_PICTURES:
                    stand = self.stand_in(lesson, position(lesson, step))
                    STEP_PICTURES[key] = self.lesson_picture(stand, "")
                verdict = check(lesson, step, lesson.steps[step].solution)
                if verdict.ok:
                    self.done_picture(lesson, step, verdict)

        task = asyncio.get_running_loop().run_in_executor(None, work)
        task.add_done_callback(lambda t: t.exception())  # a failed drawing is drawn again when needed

    def done_picture(self, lesson: Lesson, step: int, verdict: Verdict) -> bytes:
        key = (self.game_key, step, verdict.notation, language())
        data = DONE_PICTURES.get(key)
        if data is None:
            data = self.lesson_picture(self.stand_in(lesson, verdict.after), "")
            if len(DONE_PICTURES) < MOST_DONE:
                DONE_PICTURES[key] = data
        return data

    def lesson(self) -> Lesson:
        lesson = lesson_of(self.game_key)
        if lesson is None:
            raise StaleBoard(_("{game} has no lesson yet: `/{command} rules` explains it.",
                               game=self.spec.title, command=self.game_key))
        return lesson

    def check_rate(self, user_id: int) -> None:
        """At most :data:`CLICKS` lesson actions per :data:`PER_SECONDS` per user (``lesson_rate``)."""
        if self._lesson_clicks is None:
            self._lesson_clicks = {}
        now = time.monotonic()
        clicks = self._lesson_clicks.setdefault(user_id, deque())
        most, seconds = self.lesson_rate
        while clicks and now - clicks[0] > seconds:
            clicks.popleft()
        if len(clicks) >= most:
            raise StaleBoard(_("Slow down a little: try again in a few seconds."))
        clicks.append(now)
        if len(self._lesson_clicks) > 4096:
            self._lesson_clicks.pop(next(iter(self._lesson_clicks)))

    # ------------------------------------------------------------------ the message of a step

    def stand_in(self, lesson: Lesson, state: Any) -> Match:
        """A match that exists only in memory, at ``state``: what the board's components and pictures
        are drawn from (never stored, never rated). The learner's name is in their language ("You")."""
        seats = [SeatRecord(i, LESSON_USER + i, _(name), ai_level=None if i == 0 else "lesson")
                 for i, name in enumerate(lesson.names)]
        rec = MatchRecord(id=1, game=self.game_key, guild_id=None, channel_id=0, thread_id=None,
                          message_id=None,
                          status=Status.RUNNING, options={}, state=None, version=1, seed="lesson", host_id=0,
                          rated=False, turn_limit=0, deadline=None, clocks=None, outcome=None, ui={},
                          created_at=0.0, updated_at=0.0, finished_at=None, seats=seats)
        match = Match(rec)
        match.state = state
        return match

    def lesson_title(self, lesson: Lesson, step: int) -> str:
        return _("{game} lesson · step {number} of {steps}", game=self.spec.title, number=step + 1,
                 steps=len(lesson))

    def lesson_view(self, match: Match, ui: str) -> tuple[str, list[discord.ui.Item[Any]]]:
        """Text shown under the caption and the components of a step (the board's own; a game whose
        lesson plays elsewhere, such as the EOF program builder, overrides this)."""
        return "", getattr(self, "components", lambda m, u: [])(match, ui)

    def lesson_items(self, match: Match, step: int, ui: str) -> tuple[str, list[discord.ui.Item[Any]]]:
        """:meth:`lesson_view` with the components' ids pointing at the lesson step (buttons that are
        not a match's, such as Nomic's rulebook pages, are left out)."""
        from bot.components import parse_custom_id

        text, found = self.lesson_view(match, ui)
        items = [i for i in found if not isinstance(i, discord.ui.DynamicItem)]
        labels = [_(label) for label, _notation in self.lesson().steps[step].choices]
        if labels and max(len(label) for label in labels) <= 20:
            items += [discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                        custom_id=lesson_id(self.game_key, step, f"ch{k}"))
                      for k, label in enumerate(labels)]
        elif labels:
            items.append(discord.ui.Select(
                custom_id=lesson_id(self.game_key, step, "ch"), placeholder=_("Choose what to propose"),
                options=[discord.SelectOption(label=label[:100], value=str(k))
                         for k, label in enumerate(labels)]))
        taken: set[str] = set()
        for item in items:
            if str(getattr(item, "custom_id", "")).startswith("lesson:"):
                continue
            cid = getattr(item, "custom_id", None)
            if cid:
                new = lesson_id(self.game_key, step, parse_custom_id(cid).action)
                while new in taken:  # a builder's select and its Undo may share an action: "#" tells apart
                    new += "#"
                taken.add(new)
                item.custom_id = new  # type: ignore[attr-defined]
        return text, items

    @staticmethod
    def picture_ui(ui: str) -> str:
        """The part of a step's picker state its picture shows (a piece picked, a path planned)."""
        return ui if ui.startswith(("src", "pa:")) else ""

    def lesson_picture(self, match: Match, ui: str) -> bytes:
        if ui.startswith("src") and hasattr(self, "render_selected"):
            return bytes(self.render_selected(match, ui[3:]))
        if ui.startswith("pa:") and hasattr(self, "render_plan"):
            return bytes(self.render_plan(match, None, ui[3:]))
        view = match.view(None)
        return board_png(lambda: self.game.render(view, names=match.names()), self.game_key)

    def lesson_alt(self, match: Match, events: Sequence[Event] = ()) -> str:
        """The lesson picture's description, as a match board's (whose move, the last move: ``events``)."""
        module = describer(self.game_key)
        if module is None:
            return self.alt_text(match, None)
        public = [e for e in events if e.visible_to is None]
        return str(module.alt_text(match.view(None), match.names(), public))

    def step_message(self, lesson: Lesson, step: int, *, ui: str = "", note: str | None = None,
                     state: Any = None) -> dict[str, Any]:
        """The message of ``step``: caption (and a note: the hint after a wrong try), picture, components,
        in the learner's language."""
        lang = language()
        key = (self.game_key, step, ui, lang)
        found = STEP_VIEWS.get(key) if state is None else None
        match = None if found else self.stand_in(lesson, position(lesson, step) if state is None else state)
        if found:
            extra, payload = found
        else:
            assert match is not None
            extra, items = self.lesson_items(match, step, ui)
            payload = step_payload(items)
            if state is None and len(STEP_VIEWS) < MOST_VIEWS:
                STEP_VIEWS[key] = extra, payload
        view = StepView(payload)
        text = _(lesson.steps[step].caption) + (f"\n\n{extra}" if extra else "")
        embed = discord.Embed(title=self.lesson_title(lesson, step),
                              description=(f"{note}\n\n{text}" if note else text)[:4000], colour=COLOUR_INFO)
        embed.set_footer(text=_("Only you see this lesson. /{command} learn resumes it any time.",
                                command=self.game_key))
        shown = self.picture_ui(ui)
        data = STEP_PICTURES.get((self.game_key, step, shown, lang)) if state is None else None
        alt = STEP_ALTS.get((self.game_key, step, lang)) if state is None else None
        if data is None or alt is None:
            stand = match or self.stand_in(lesson, position(lesson, step))
            data = data or self.lesson_picture(stand, shown)
            alt = alt or self.lesson_alt(stand)
            if state is None:  # a step's own position never changes: its pictures are drawn once per language
                STEP_PICTURES[(self.game_key, step, shown, lang)] = data
                STEP_ALTS[(self.game_key, step, lang)] = alt
        return {"embed": embed, "file": picture_file(data, "lesson.png", alt), "view": view}

    def done_message(self, lesson: Lesson, step: int, verdict: Verdict) -> dict[str, Any]:
        """A right move: the position after it, what it showed, and Next (or the way to a real game)."""
        last = step + 1 >= len(lesson)
        said = lesson.steps[step].choices
        chose = next((_(label) for label, notation in said if notation == verdict.notation), verdict.notation)
        after = lesson.steps[step].after
        showed = _(after) if after else ""
        text = f"✅ `{chose}`: {showed}"
        log = [e.text for e in verdict.events if e.kind in lesson.log_events and e.visible_to is None]
        if log:
            text += "\n\n" + "\n".join(f"• {line}" for line in log)
        if last:
            text += "\n\n" + _("**Lesson complete.** You know enough for your first {game} game.",
                                game=self.spec.title)
        embed = discord.Embed(title=self.lesson_title(lesson, step), description=text[:4000],
                              colour=COLOUR_OK)
        key = (self.game_key, step, "\0done", language())
        found = STEP_VIEWS.get(key)
        if found is None:
            found = "", step_payload([discord.ui.Button(
                label=_(lesson.finish) if last else _("Next step"),
                style=discord.ButtonStyle.success if last else discord.ButtonStyle.primary,
                emoji=None if last else "▶️",
                custom_id=lesson_id(self.game_key, step + 1, "finish" if last else "show"))])
            if len(STEP_VIEWS) < MOST_VIEWS:
                STEP_VIEWS[key] = found
        view = StepView(found[1])
        position_after = self.stand_in(lesson, verdict.after)
        picture = picture_file(self.done_picture(lesson, step, verdict), "lesson.png",
                               self.lesson_alt(position_after, verdict.events))
        return {"embed": embed, "attachments": [picture], "view": view}

    # ------------------------------------------------------------------ clicks

    async def on_lesson(self, interaction: discord.Interaction, step: int, action: str,
                        values: list[str]) -> None:
        lesson = self.lesson()
        self.check_rate(interaction.user.id)
        found = await self.progress(interaction.user.id)
        reached = 0 if found is None else len(lesson) if found[1] else found[0]
        if action == "finish" and reached >= len(lesson):
            await self.finish_lesson(interaction, lesson)
            return
        if found is None or step != min(reached, len(lesson) - 1) or reached >= len(lesson):
            raise StaleBoard(
                _("This lesson message is out of date: `/{command} learn` shows where you are.",
                  command=self.game_key))
        action = action.rstrip("#")
        if action == "show":
            await self.edit_step(interaction, lesson, step)
            self.draw_lesson_ahead(lesson, step)
            return
        match = self.stand_in(lesson, position(lesson, step))
        kind, what = self.read_action(match, action, values)
        choices = lesson.steps[step].choices
        pick = action[2:] if action.startswith("ch") and action[2:] else values[0] if values else ""
        if action.startswith("ch") and pick.isdigit() and int(pick) < len(choices):
            kind, what = "move", choices[int(pick)][1]
        if kind == "ui":
            await self.edit_step(interaction, lesson, step, ui=what)
            return
        verdict = check(lesson, step, what)
        if not verdict.ok:
            await self.edit_step(interaction, lesson, step, note=f"❌ {verdict.message}")
            return
        gate = self.save_after(interaction.user.id, step + 1, step + 1 >= len(lesson))  # stored once said;
        try:  # a restart waits for it (flush_lesson_saves)
            await interaction.response.edit_message(**self.done_message(lesson, step, verdict))
        finally:
            gate.set()
        self.draw_lesson_ahead(lesson, step + 1)

    def read_action(self, match: Match, action: str, values: list[str]) -> tuple[str, str]:
        """("move", notation) for a click that plays, ("ui", picker state) for one that opens a picker."""
        if action.startswith("m:"):
            return "move", action[2:]
        if action.startswith("cf:"):
            return "move", action[3:]
        if action == "mv" and values:
            return "move", values[0]
        picker = PICKERS.get(self.game_key)
        return picker(self, match, action, values) if picker else ("ui", "")

    async def edit_step(self, interaction: discord.Interaction, lesson: Lesson, step: int, *, ui: str = "",
                        note: str | None = None) -> None:
        kwargs = self.step_message(lesson, step, ui=ui, note=note)
        kwargs["attachments"] = [kwargs.pop("file")]
        await interaction.response.edit_message(**kwargs)

    async def finish_lesson(self, interaction: discord.Interaction, lesson: Lesson) -> None:
        """The last button: a real match against the computer (or a lobby), as ``/<game> new`` starts it."""
        new = getattr(self, "new", None)
        if new is None:
            raise StaleBoard(_("Use `/{command} new` to start a match.", command=self.game_key))
        if self.spec.ai_levels and self.bot.user is not None:
            await new.callback(self, interaction, opponent=self.bot.user)
        else:
            await new.callback(self, interaction)
