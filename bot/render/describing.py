"""Words shared by every game's ``describe.py``: a picture's alt text and the text board.

Each game's ``describe.py`` (beside its renderer) has ``alt_text(view, names, events) -> str`` (what a
screen reader announces for the board picture, at most :data:`ALT_LIMIT` characters) and
``text_board(view, names, legal) -> str`` (the position in short lines, for ``/<game> board text:``
and players who chose text boards). Both read the same view the picture is drawn from.

Shortening: the head (game, phase, who is to move) and the last move are always kept whole; the
position's list of items (stacks, islands, slots, records, tokens) is cut at a whole item and ends
with "and N more" (:func:`fit`). Engine event texts call players by their side ("Red", "Fire",
"Player 1"); :func:`named` puts the players' names in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.i18n import _, ngettext

ALT_LIMIT = 1024
"""Discord's limit for an attachment's description."""
TEXT_LIMIT = 1800
"""A text board fits a message's content (2,000) with a line of its own above it."""
LIST_LIMIT = 40
"""Legal moves listed one by one up to this many; more are counted."""
LIST_CHARS = 700
"""A list of legal moves longer than this (Nomic's sample proposals) is counted instead."""

Legal = Sequence[str] | int
"""The legal moves of the player the text board is for: their notation, or only how many there are."""


def seat_names(names: Sequence[str] | None, sides: Sequence[str]) -> list[str]:
    """Each seat's display name (the side's name where none is given)."""
    out = list(sides)
    for i, n in enumerate(names or ()):
        if i < len(out) and n:
            out[i] = str(n)
        elif i >= len(out):
            out.append(str(n))
    return out


def with_side(name: str, side: str) -> str:
    """``Alice (Red)``; a name with its own parentheses takes the side inside them: ``Parlor (easy, Red)``."""
    if name == side:
        return side
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {side})"
    return f"{name} ({side})"


def named(text: str, sides: Sequence[str], names: Sequence[str] | None) -> str:
    """``text`` (an engine's words, "Red places ...") with the seats' names ("Alice places ...")."""
    if not names:
        return text
    swap = {side: str(names[i]) for i, side in enumerate(sides) if i < len(names) and names[i]}
    swap = {k: v for k, v in swap.items() if k != v}
    if not swap:
        return text
    # (not \b: a side's word may start or end with a non-letter, e.g. the pseudo-locale's brackets)
    pattern = r"(?<!\w)(" + "|".join(re.escape(k) for k in sorted(swap, key=len, reverse=True)) + r")(?!\w)"
    return re.sub(pattern, lambda m: swap[m.group(1)], text)


def last_words(events: Sequence[Any], sides: Sequence[str], names: Sequence[str] | None,
               kinds: Sequence[str] | None = None, limit: int = 4) -> str:
    """The public events' texts with names ("Alice places a large pyramid on c3."), the last ``limit``."""
    texts = [e.text.strip() for e in events
             if e.visible_to is None and e.text and (kinds is None or e.kind in kinds)]
    if not texts:
        return ""
    more = "… " if len(texts) > limit else ""
    joined = " ".join(t if t.endswith((".", "!", "?", ")")) else t + "." for t in texts[-limit:])
    return more + named(joined, sides, names)


def fit(head: str, items: Sequence[str], tail: str = "", *, limit: int = ALT_LIMIT, sep: str = ", ",
        lead: str = "", end: str = ".") -> str:
    """``head``, then ``lead`` and as many whole ``items`` as fit (the rest said as "and N more"), then
    ``tail``: at most ``limit`` characters. The head and tail are kept whole unless they alone pass it."""
    fixed = len(head) + len(tail) + len(lead) + len(end) + 2
    room = limit - fixed
    shown: list[str] = []
    used = 0
    for i, item in enumerate(items):
        rest = len(items) - i - 1
        note = len(sep + _more(rest)) if rest else 0
        if used + len(item) + len(sep) + note > room:
            break
        shown.append(item)
        used += len(item) + len(sep)
    body = ""
    if items:
        body = lead + sep.join(shown)
        if len(shown) < len(items):
            body += (sep if shown else "") + _more(len(items) - len(shown))
        body += end
    text = " ".join(p for p in (head, body, tail) if p)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _more(n: int) -> str:
    """``and 3 more``: the items a list left out."""
    return ngettext("and {n} more", "and {n} more", n)


def fit_body(head: str, body: str, tail: str = "", *, limit: int = ALT_LIMIT) -> str:
    """``head body tail`` within ``limit``: the body (the position) is cut at its last ``"; "`` that
    fits, ending "; … (shortened)"; head and tail (who is to move, the last move) stay whole."""
    text = " ".join(p for p in (head, body, tail) if p)
    if len(text) <= limit:
        return text
    mark = "; " + _("… (shortened).")
    room = limit - len(head) - len(tail) - len(mark) - 2
    cut = body[:max(room, 0)]
    at = max(cut.rfind("; "), cut.rfind(". "))
    short = cut[:at] + mark if at > 0 else _("… (shortened).")
    return fit_body(head, short, tail, limit=limit) if short != body else text[: limit - 1] + "…"


def legal_lines(legal: Legal, who: str = "") -> list[str]:
    """The legal moves, listed (up to :data:`LIST_LIMIT`) or counted."""
    if isinstance(legal, int):
        return [_counted(legal, who)] if legal else []
    if not legal:
        return []
    moves = ", ".join(legal)
    if who:
        listed = _("Legal moves for {player} ({count}): {moves}.", player=who, count=len(legal), moves=moves)
    else:
        listed = _("Legal moves ({count}): {moves}.", count=len(legal), moves=moves)
    if len(legal) > LIST_LIMIT or len(listed) > LIST_CHARS:
        return [_counted(len(legal), who)]
    return [listed]


def _counted(count: int, who: str) -> str:
    if who:
        return _("Legal moves for {player}: {count}.", player=who, count=count)
    return _("Legal moves: {count}.", count=count)


def clip_lines(lines: Sequence[str], limit: int = TEXT_LIMIT) -> str:
    """Lines joined, cut at a whole line with "… (N more lines)" when longer than ``limit``."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = ngettext("… ({n} more line)", "… ({n} more lines)", len(lines) - i)
        note = len(more) + 1
        if used + len(line) + 1 + (note if i < len(lines) - 1 else 0) > limit:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)[:limit]


def plural(n: int, word: str) -> str:
    """English only (``3 stacks``): a translated text counts with ``ngettext``."""
    return f"{n} {word}{'' if n == 1 else 's'}"
