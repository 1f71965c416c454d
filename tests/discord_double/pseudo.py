"""The pseudo-locale run (``PARLOR_PSEUDO_LOCALE=1``): the double checks what the bot sends, then reads it
as English so the tests' own assertions hold.

Every text a user would read (message content, embeds, buttons, menus, modals, alt texts, thread names,
autocomplete choices) must be wrapped ⟦…⟧ by the bot's catalog look-up: English outside the brackets was
never looked up (it is outside the catalog). Names (users, servers, channels), game titles and what players
type (notation, ``/commands``, ``option:``) may stay outside. And the wrapped text, a third longer than
English, must still fit Discord's limits: a translation that long would too.

Not the bot's words, so allowed as they are: what players typed (slash option values, modal fields, messages:
the double records them in ``typed``) and Nomic World's Initial Set (the rulebook is game state the players
amend, shown word for word). The double stores and shows the tests English, but gives the bot back what it
sent (:func:`as_sent`), as Discord would.
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n.pseudo import CLOSE, OPEN, unpseudo, untranslated

TITLES = {"pylon", "fire", "and", "ice", "the", "egg", "carton", "game", "eof", "nomic", "world", "parlor"}
LIMITS = {  # Discord's limits on what a user reads, by field
    "content": 2000, "title": 256, "description": 4096, "label": 80, "placeholder": 150, "text": 2048,
}
_TYPED = re.compile(r"https?://\S+|/[a-z]+(?: [a-z]+){0,2}|\b[a-z_]+:|\b[A-Z]{1,4}\b|\b[NESW]+\b"
                    r"|\b[A-Za-z]\d+\b")


def active() -> bool:
    from bot.i18n import pseudo_mode

    return pseudo_mode()


def _visible(node: Any, path: str = "") -> list[tuple[str, str]]:
    """(path, text) of every string a user reads in a request body."""
    out: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            p = f"{path}.{k}" if path else k
            if isinstance(v, str):
                if k in ("content", "title", "description", "label", "placeholder", "value", "text", "name"):
                    if k == "value" and ".fields" not in p:
                        continue  # a select option's value, a text input's prefilled value: ids/typed
                    if k == "name" and not (".fields" in p or ".author" in p or p == "name"
                                            or ".choices" in p):
                        continue
                    out.append((p, v))
            else:
                out.extend(_visible(v, p))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_visible(v, f"{path}[{i}]"))
    return out


def add_typed(text: str, into: set[str]) -> None:
    """A player's words, whole and line by line (the bot may quote one line of them)."""
    for t in (text, *text.splitlines()):
        if len(t.strip()) >= 3:
            into.add(t.strip())


def collect_typed(node: Any, into: set[str]) -> None:
    """Every string value a player typed in an interaction's data (options, modal fields)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "value" and isinstance(v, str):
                add_typed(v, into)
            else:
                collect_typed(v, into)
    elif isinstance(node, list):
        for v in node:
            collect_typed(v, into)


def _game_state_texts() -> list[str]:
    from bot.games.nomic.initial_set import INITIAL_SET

    out: list[str] = []
    for rule in INITIAL_SET:
        out.append(rule.title)
        out.extend(line.strip() for line in rule.text.splitlines() if len(line.strip()) >= 3)
    return out


_GAME_STATE: list[str] = []
_STATE_BLOB: list[str] = []


def _game_state_line(line: str) -> bool:
    """A line quoting the Initial Set, maybe cut (``…``) or numbered and in bold (``**113. Title**``)."""
    core = re.sub(r"^[*_\s]*(\d+\.\s*)?", "", line).rstrip("*… ").strip()
    if len(core) < 8:
        return False
    if not _STATE_BLOB:
        _STATE_BLOB.append("\n".join(_game_state_texts()))
    return core in _STATE_BLOB[0]


def _game_titles() -> set[str]:
    """The words of every registered game's title (a test's own sixth game too): titles stay English."""
    from bot.games import GAMES

    return {w.lower() for g in GAMES.values() for w in re.split(r"[\s-]+", g.spec.title)}


def check(route: str, body: Any, names: set[str],
          typed: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """What in ``body`` is English a user reads, or would overflow once translated."""
    findings = []
    if "/commands" in route:
        return findings  # command names stay English; descriptions are checked by the translator's tests
    if not _GAME_STATE:
        _GAME_STATE.extend(sorted(_game_state_texts(), key=len, reverse=True))
    quoted = sorted(typed, key=len, reverse=True)
    titles = TITLES | _game_titles()
    whole = [n for n in names if len(n) >= 2]
    named = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(whole, key=len, reverse=True)))
                       + r")(?!\w)") if whole else None
    for path, text in _visible(body):
        field = path.rsplit(".", 1)[-1].split("[")[0]
        limit = LIMITS.get(field)
        if field == "content" and ".components" in path:
            limit = 4000
        if field == "label" and ".components" in path and "[" in path and "options" in path:
            limit = 100
        if limit is not None and len(text) > limit:
            findings.append(f"{route} {path}: {len(text)} > {limit} characters once translated")
        left = text.replace("\\", "").replace("\u200b", "")  # (names are shown markdown-escaped)
        left = "\n".join(line for line in left.split("\n") if not _game_state_line(line))
        for q in (*_GAME_STATE, *quoted):
            if q in left:
                left = re.sub(r"(?<!\w)" + re.escape(q) + r"(?!\w)", " ", left)
        if named is not None:
            left = named.sub(" ", left)
        left = _TYPED.sub(" ", left)
        for run in untranslated(left):
            words = [w for w in run.split() if w.lower().strip("'") not in titles and w not in names
                     and w.lower() not in names]
            if words:
                findings.append(f"{route} {path}: untranslated {' '.join(words)!r} in {text[:120]!r}")
    return findings


def to_english(node: Any, sent: dict[str, str] | None = None) -> Any:
    """``node`` read as English; ``sent`` keeps each changed string's original (see :func:`as_sent`)."""
    if isinstance(node, str):
        if OPEN in node or CLOSE in node or any(ord(c) > 127 for c in node):
            english = unpseudo(node)
            if sent is not None and english != node:
                sent[english] = node
            return english
        return node
    if isinstance(node, dict):
        return {k: to_english(v, sent) for k, v in node.items()}
    if isinstance(node, list):
        return [to_english(v, sent) for v in node]
    return node


def as_sent(node: Any, sent: dict[str, str]) -> Any:
    """A stored (English) payload as the bot sent it: what Discord gives back when the bot reads a message
    (history, events, a clicked message), so a bot that finds its own messages by their words finds them."""
    if isinstance(node, str):
        return sent.get(node, node)
    if isinstance(node, dict):
        return {k: as_sent(v, sent) for k, v in node.items()}
    if isinstance(node, list):
        return [as_sent(v, sent) for v in node]
    return node


# -- pictures: no drawn text may run off its picture ------------------------------------------------------

OFF_PICTURE: list[str] = []
"""Texts drawn (partly) outside their picture since the last :func:`watch_pictures` reset."""


def watch_pictures() -> None:
    """Record every text ``ImageDraw.text`` draws past its picture's edge (in the pseudo-locale run the
    words are a third longer than English, as a long translation would be). Installed once per process."""
    from PIL import ImageDraw

    if getattr(ImageDraw.ImageDraw.text, "_parlor_watched", False):
        return
    original = ImageDraw.ImageDraw.text

    def text(self: Any, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None,
             *args: Any, **kwargs: Any) -> Any:
        out = original(self, xy, text, fill, font, anchor, *args, **kwargs)
        try:
            box = self.textbbox(xy, text, font=font, anchor=anchor,
                                **{k: v for k, v in kwargs.items()
                                   if k in ("spacing", "align", "direction", "features", "language",
                                            "stroke_width")})
            width, height = self.im.size
        except Exception:  # (a bitmap font, a text it cannot measure: not this check's business)
            return out
        if box[0] < -1 or box[1] < -1 or box[2] > width + 1 or box[3] > height + 1:
            OFF_PICTURE.append(f"picture {width}x{height}: {str(text)[:80]!r} drawn at {tuple(box)}")
        return out

    text._parlor_watched = True  # type: ignore[attr-defined]
    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
