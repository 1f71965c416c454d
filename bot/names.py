"""Names people chose, made safe to put into Discord text.

A display name is typed by its owner and may hold markdown (``**x**``, ``_x_``,
``[link](…)``) or mention syntax (``@everyone``, ``<@123>``). Every place that
writes a name into a message, an embed, a thread name or an error text goes
through :func:`shown` (markdown and mentions neutralised: the name reads
exactly as typed) or, where Discord renders no markdown (thread and channel
names), :func:`plain`. Pictures draw the raw name.
"""

from __future__ import annotations

from discord.utils import escape_markdown, escape_mentions

ZWSP = "\u200b"


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
    return _no_mentions(escape_markdown(name))


def plain(name: str) -> str:
    """``name`` where Discord renders no markdown (thread names): only mention syntax neutralised."""
    return _no_mentions(" ".join(name.split()))
