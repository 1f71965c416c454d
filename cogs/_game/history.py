"""``/<game> history`` of any length: pages of whole lines with ◀ ▶, and the whole game as a .txt file.

An embed holds 4096 characters, so a long game (four players, four EOF rounds; a long Nomic game) cannot
be one message. Nothing is cut: the lines are grouped into pages without splitting one (a line longer
than a page, which no game writes today, is wrapped with a visible "↪"), the reply opens on the newest
page, and once there is more than one page the full history rides along as a text file in the same
request. The ◀ ▶ buttons are match components (``p:<match>:-:hp:<page>``, see ``bot/components.py``), so
they keep working after a restart; a page is recomputed from the log on each click, and since pages are
counted from the first move, a page's moves stay the same as the game goes on.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import _
from cogs import _views as v

PAGE_CHARS = 4000
"""Characters per page (Discord allows 4096 in an embed description; some room for the last line)."""

ACTION = "hp:"
"""The component action of a page button: ``hp:<page>`` (1-based)."""

CONTINUED = "↪ "


def pages_of(lines: Sequence[str], limit: int = PAGE_CHARS) -> list[list[str]]:
    """``lines`` grouped into pages of at most ``limit`` characters (joined by newlines), no line split.

    A single line longer than a page is wrapped into pieces, each continuation marked with "↪ ".

    >>> pages_of(["aaaa", "bbbb", "cc"], limit=9)
    [['aaaa', 'bbbb'], ['cc']]
    >>> pages_of(["x" * 12], limit=8)
    [['xxxxxxxx'], ['↪ xxxx']]
    """
    pieces: list[str] = []
    for line in lines:
        head, rest = line[:limit], line[limit:]
        pieces.append(head)
        while rest:
            step = limit - len(CONTINUED)
            pieces.append(CONTINUED + rest[:step])
            rest = rest[step:]
    pages: list[list[str]] = [[]]
    size = 0
    for piece in pieces:
        extra = len(piece) + (1 if pages[-1] else 0)
        if pages[-1] and size + extra > limit:
            pages.append([])
            size, extra = 0, len(piece)
        pages[-1].append(piece)
        size += extra
    return pages


def plain(line: str) -> str:
    r"""A history line for a text file: bold and code marks dropped, escapes undone.

    >>> plain("3. al\\_ice: `b2` **Round 2**")
    '3. al_ice: b2 Round 2'
    """
    line = re.sub(r"(?<!\\)(\*\*|`)", "", line)
    return re.sub(r"\\(.)", r"\1", line).replace("\u200b", "")


def page_embed(title: str, pages: list[list[str]], page: int, colour: discord.Colour) -> discord.Embed:
    """Page ``page`` (1-based, clamped) of the history; the title says which page, the footer how to move."""
    page = min(max(page, 1), len(pages))
    many = len(pages) > 1
    heading = title
    if many:
        heading = _("{title} (page {page} of {pages})", title=title, page=page, pages=len(pages))
    embed = discord.Embed(title=heading, description="\n".join(pages[page - 1]), colour=colour)
    if many:
        embed.set_footer(text=_("◀ ▶ turn the pages (the first page has the first moves); "
                                "the attached file has the whole game."))
    return embed


def page_view(match_id: int, pages: int, page: int) -> discord.ui.View | None:
    """◀ ▶ for a history of several pages (none for one page)."""
    if pages <= 1:
        return None
    page = min(max(page, 1), pages)
    return v.view_of(
        v.button(match_id, None, f"{ACTION}{page - 1}", emoji="◀",
                 disabled=page <= 1),
        v.button(match_id, None, f"{ACTION}{page + 1}", emoji="▶", disabled=page >= pages),
    )


def history_file(match_id: int, title: str, lines: Sequence[str]) -> discord.File:
    """The whole history as ``history-<match>.txt``."""
    text = title + "\n\n" + "\n".join(plain(x) for x in lines) + "\n"
    return discord.File(io.BytesIO(text.encode()), filename=f"history-{match_id}.txt")


def reply_kwargs(match_id: int, title: str, lines: Sequence[str], colour: discord.Colour) -> dict[str, Any]:
    """The ``/history`` reply: the newest page, its buttons and, when there are several pages, the file."""
    pages = pages_of(lines)
    kwargs: dict[str, Any] = {"embed": page_embed(title, pages, len(pages), colour)}
    view = page_view(match_id, len(pages), len(pages))
    if view is not None:
        kwargs["view"] = view
        kwargs["file"] = history_file(match_id, title, lines)
    return kwargs
