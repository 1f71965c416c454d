"""The pseudo-locale run (``PARLOR_PSEUDO_LOCALE=1``): the double checks what the bot sends, then reads it
as English so the tests' own assertions hold.

Every text a user would read (message content, embeds, buttons, menus, modals, alt texts, thread names,
autocomplete choices) must be wrapped ⟦…⟧ by the bot's catalog look-up: English outside the brackets was
never looked up (it is outside the catalog). Names (users, servers, channels), game titles and what players
type (notation, ``/commands``, ``option:``) may stay outside. And the wrapped text, a third longer than
English, must still fit Discord's limits: a translation that long would too.
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n.pseudo import CLOSE, OPEN, unpseudo, untranslated

TITLES = {"pylon", "fire", "and", "ice", "the", "egg", "carton", "game", "eof", "nomic", "world", "parlor"}
LIMITS = {  # Discord's limits on what a user reads, by field
    "content": 2000, "title": 256, "description": 4096, "label": 80, "placeholder": 150, "text": 2048,
}
_TYPED = re.compile(r"https?://\S+|/[a-z]+(?: [a-z]+){0,2}|\b[a-z_]+:|\b[A-Z]{1,4}\b|\b[A-Za-z]\d+\b")


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


def check(route: str, body: Any, names: set[str]) -> list[str]:
    """What in ``body`` is English a user reads, or would overflow once translated."""
    findings = []
    if "/commands" in route:
        return findings  # command names stay English; descriptions are checked by the translator's tests
    for path, text in _visible(body):
        field = path.rsplit(".", 1)[-1].split("[")[0]
        limit = LIMITS.get(field)
        if field == "content" and ".components" in path:
            limit = 4000
        if field == "label" and ".components" in path and "[" in path and "options" in path:
            limit = 100
        if limit is not None and len(text) > limit:
            findings.append(f"{route} {path}: {len(text)} > {limit} characters once translated")
        left = _TYPED.sub(" ", text)
        for run in untranslated(left):
            words = [w for w in run.split() if w.lower().strip("'") not in TITLES and w not in names
                     and w.lower() not in names]
            if words:
                findings.append(f"{route} {path}: untranslated {' '.join(words)!r} in {text[:120]!r}")
    return findings


def to_english(node: Any) -> Any:
    if isinstance(node, str):
        return unpseudo(node) if OPEN in node or CLOSE in node or any(ord(c) > 127 for c in node) else node
    if isinstance(node, dict):
        return {k: to_english(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_english(v) for v in node]
    return node
