"""The lesson shapes and the one pure checker (the package docstring says how lessons work).

A lesson's texts (captions, hints, what a step showed, the choices' labels, the last button, the
learner's name) are written in ``bot/lessons/<game>.py`` marked with ``N_``: they are looked up with
``_`` when shown, in the reader's language (:func:`check` does so for its answers)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import GAMES
from bot.games.base import CHANCE, Chance, Event, GameError
from bot.i18n import N_, _

Accepts = Callable[[Any, Any, str], bool]
"""``accepts(before, after, notation)``: whether the learner's legal move did what the step teaches."""


@dataclass(frozen=True)
class Step:
    """One lesson step: a position, what it says, what it asks and how it helps.

    ``solution`` is a move the caption asks for (tests play it; :func:`check` does not look at it);
    ``wrong`` a try that is not what the step asks (tests play it to see the hint). ``after`` says,
    once the step is done, what the move showed (the taught rule in one sentence)."""

    caption: str
    hint: str
    setup: Callable[[], Any]
    accepts: Accepts
    solution: str
    wrong: str
    after: str = ""
    seat: int = 0
    chances: Sequence[str] = ()
    """Chance outcomes (notation) played, in order, right after the learner's move (a Nomic reveal)."""
    choices: Sequence[tuple[str, str]] = ()
    """(label, notation): the prepared moves offered for a move no board component makes (a Nomic
    proposal from a select, a vote from buttons standing for the reactions)."""


@dataclass(frozen=True)
class Lesson:
    game: str
    steps: tuple[Step, ...]
    finish: str
    """The last button: "Play the computer now" or "Start a lobby"."""
    names: tuple[str, ...] = (N_("You"), "Parlor")
    """The seats' names on the pictures (marked ``N_``, looked up when drawn; "Parlor" is a name)."""
    log_events: tuple[str, ...] = ()
    """Kinds of public events of a right try listed under it (EOF: the execution log and the scores)."""

    def __len__(self) -> int:
        return len(self.steps)


@dataclass(frozen=True)
class Verdict:
    """The answer to one try: ``ok`` moves the lesson on; otherwise ``message`` says why and hints."""

    ok: bool
    message: str
    after: Any = None
    events: list[Event] = field(default_factory=list)
    notation: str = ""


def position(lesson: Lesson, index: int) -> Any:
    """The engine state of step ``index``: set-ups are pure, so each is built once per process."""
    key = (lesson.game, index)
    state = _POSITIONS.get(key)
    if state is None:
        state = _POSITIONS[key] = lesson.steps[index].setup()
    return state


_POSITIONS: dict[tuple[str, int], Any] = {}
"""Built step positions (frozen engine states; a few dozen, bounded by the lessons' size)."""


def check(lesson: Lesson, index: int, text: str) -> Verdict:
    """The learner's try ``text`` (the game's notation) at step ``index``.

    Illegal or unreadable: the engine's reason plus the hint. Legal but not what the step teaches: the
    hint. Right: ``ok`` with the position after it (chance outcomes of the step played) and its events.
    """
    step = lesson.steps[index]
    rules = GAMES[lesson.game].rules
    before = position(lesson, index)
    try:
        move = rules.parse(text, before, step.seat)
        notation = rules.format(move, before)
        after, events = rules.apply(before, step.seat, move)
        for outcome in step.chances:
            if isinstance(rules.to_act(after), Chance):
                after, more = rules.apply(after, CHANCE, rules.parse(outcome, after, CHANCE))
                events = [*events, *more]
    except GameError as exc:
        return Verdict(False, _("Not quite: {reason}. {hint}", reason=str(exc).rstrip("."),
                                hint=_(step.hint)))
    if not step.accepts(before, after, notation):
        return Verdict(False, _("`{move}` is legal, but not what this step asks. {hint}", move=notation,
                                hint=_(step.hint)))
    return Verdict(True, _(step.after) if step.after else "", after, events, notation)
