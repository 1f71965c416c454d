"""Names people chose, made safe to put into Discord text.

A display name is typed by its owner and may hold markdown (``**x**``, ``_x_``,
``[link](…)``) or mention syntax (``@everyone``, ``<@123>``). Every place that
writes a name into a message, an embed, a thread name or an error text goes
through :func:`shown` (markdown and mentions neutralised: the name reads
exactly as typed) or, where Discord renders no markdown (thread and channel
names), :func:`plain`. Pictures draw the raw name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from discord.utils import escape_markdown, escape_mentions

from bot.i18n import _, pgettext

ZWSP = "\u200b"

_COMPUTER = re.compile(r"(.+) \((easy|medium|hard|novice|beginner|intermediate|expert)\)")
"""A computer seat's name as stored: the bot's name and its level (``Parlor (easy)``)."""


def named(name: str) -> str:
    """``name`` with a computer's level in the current language (``Parlor (fácil)``); any other name as is.

    The stored name keeps the English level (it is also the level's choice value in the commands)."""
    found = _COMPUTER.fullmatch(name) if name.endswith(")") else None
    if found is None:
        return name
    return f"{found[1]} ({pgettext('command', found[2])})"


def _no_mentions(text: str) -> str:
    # escape_mentions covers @everyone, @here and 17-20 digit ids; "<" before "@", "#", ":" or "t:"
    # also breaks short ids, channel links, custom emoji and timestamps.
    text = escape_mentions(text)
    return text.replace("<", "<" + ZWSP)


def shown(name: str) -> str:
    """``name`` for markdown text (messages, embeds): shown literally, pinging and linking nobody.

    >>> shown("**@everyone** <@123> _x_")
    '\\\\*\\\\*@\\u200beveryone\\\\*\\\\* <\\u200b@123> \\\\_x\\\\_'
    """
    return _no_mentions(escape_markdown(named(name)))


def plain(name: str) -> str:
    """``name`` where Discord renders no markdown (thread names): only mention syntax neutralised."""
    return _no_mentions(" ".join(named(name).split()))


def versus(names: Iterable[str]) -> str:
    """``alice vs bob`` (``alice vs bob vs carol``): the players of a match, in the current language."""
    out = ""
    for name in names:
        out = _("{first} vs {second}", first=out, second=name) if out else name
    return out
