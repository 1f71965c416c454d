"""Lessons: a few prepared positions per game, each asking the learner to do the one thing it teaches.

A lesson is data (:class:`Lesson`, :class:`Step`) plus one pure checker (:func:`check`); no discord. A
step's position is a real engine state, built by a small set-up function (directly, or by playing moves
from the start), so the lesson shows it with the game's own renderer and offers the game's own moves.
The learner's try goes through the engine (``parse`` + ``apply``: an illegal try is refused with the
engine's reason and the step's hint), then through the step's test of the taught rule (``accepts``:
a legal try that does something else gets the hint). Either way the step stays; a right try moves on.

Lessons never touch matches or ratings; progress (the step reached) is stored per user and game
(:mod:`bot.storage.sql_lessons`).
"""

from __future__ import annotations

from bot.games import GAMES
from bot.lessons import egg_carton, eof, fire_and_ice, nomic, pylon
from bot.lessons.core import Accepts, Lesson, Step, Verdict, check, position

LESSONS: dict[str, Lesson] = {
    lesson.game: lesson
    for lesson in (pylon.LESSON, fire_and_ice.LESSON, egg_carton.LESSON, eof.LESSON, nomic.LESSON)
}
"""Every lesson by game key."""


def lesson_of(game: str) -> Lesson | None:
    """The lesson of ``game`` (None for a game without one, or one not installed)."""
    return LESSONS.get(game) if game in GAMES else None


__all__ = ["LESSONS", "Accepts", "Lesson", "Step", "Verdict", "check", "lesson_of", "position"]
