"""Which catalog (area) each source file's texts go to: one ``.po`` per area and language, so texts of one
part of the bot are translated (and reviewed) together. The first matching pattern wins."""

from __future__ import annotations

from fnmatch import fnmatch

AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pylon", ("bot/games/pylon/*", "cogs/pylon.py", "bot/lessons/pylon.py")),
    ("egg_carton", ("bot/games/egg_carton/*", "cogs/egg_carton.py", "bot/lessons/egg_carton.py")),
    ("fire_and_ice", ("bot/games/fire_and_ice/*", "cogs/fire_and_ice.py", "bot/lessons/fire_and_ice.py")),
    ("eof", ("bot/games/eof/*", "cogs/eof/*", "bot/lessons/eof.py")),
    ("nomic", ("bot/games/nomic/*", "cogs/nomic/*", "bot/lessons/nomic.py")),
    ("play", ("cogs/_game/*", "bot/lessons/*")),
    ("cogs", ("cogs/*",)),
    ("core", ("bot/*",)),
)
COMMANDS = "commands"
"""The slash commands' names, descriptions, options and choices (read from the command tree)."""

NOT_EXTRACTED = ("bot/i18n/*", "bot/__main__.py", "bot/puzzles/cli.py", "bot/storage/copy.py",
                 "bot/games/nomic/initial_set.py")
"""Operator tools (command-line output, English like the logs), the catalog code itself, and Nomic World's
initial rule set: the rulebook is the game's state, amended word by word by the players' proposals, so it
stays in the words the players write (like notation); Parlor's own texts around it are translated."""


def area_of(path: str) -> str | None:
    if any(fnmatch(path, p) for p in NOT_EXTRACTED):
        return None
    for area, patterns in AREAS:
        if any(fnmatch(path, p) for p in patterns):
            return area
    return None


def all_areas() -> list[str]:
    return [a for a, _ in AREAS] + [COMMANDS]
