"""The pseudo-locale: every text wrapped in ⟦…⟧, its letters accented and padded by a third.

Run the bot with ``PARLOR_PSEUDO_LOCALE=1`` and any English a player can read was never looked up (it is
outside the catalog), and any text that would overflow a picture or a Discord limit once translated shows
up as overflowing. It is reversible (:func:`unpseudo`), so the end-to-end tests read the same English.

Placeholders (``{name}``), code spans (```F6-C6```), mentions and emoji (``<@1>``), links and markdown
markers are left as they are: what players type and what Discord parses stays the same.
"""

from __future__ import annotations

import re

PSEUDO = "qps"
OPEN, CLOSE, PAD = "⟦", "⟧", "‧"

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "ȧƀċḋėḟġḣїĵķŀṁṅȯṗʠṙṡṫǔṿẇẋẏżȦƁĊḊĖḞĠḢЇĴĶĿṀṄȮṖǪṘṠṪǓṼẆẊẎŻ"
_TO = str.maketrans(_PLAIN, _ACCENTED)
_FROM = str.maketrans(_ACCENTED + "ɃṾ", _PLAIN + "BV", OPEN + CLOSE + PAD)  # (+ ƀ, ṿ upper-cased by code)
assert len(set(_ACCENTED)) == len(_PLAIN)

# kept as they are: placeholders, code spans, <...> (mentions, emoji, timestamps), links, markdown markers
_KEEP = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>\s]*>|https?://\S+|\*\*|__|~~|\|\||^#+ |^- |\n")


def pseudo(text: str) -> str:
    if not text or text.startswith(OPEN):
        return text
    out: list[str] = []
    pos = 0
    letters = 0
    for m in _KEEP.finditer(text):
        chunk = text[pos:m.start()]
        letters += sum(c.isalpha() for c in chunk)
        out.append(chunk.translate(_TO))
        out.append(m.group())
        pos = m.end()
    chunk = text[pos:]
    letters += sum(c.isalpha() for c in chunk)
    out.append(chunk.translate(_TO))
    return OPEN + "".join(out) + PAD * ((letters + 2) // 3) + CLOSE


def unpseudo(text: str) -> str:
    """The English again (what a test reads); text that was never wrapped is returned unchanged."""
    return text.translate(_FROM)


def untranslated(text: str) -> list[str]:
    """The runs of English letters outside ⟦…⟧ in a text a player reads (names are the caller's to allow)."""
    inner = re.compile(re.escape(OPEN) + r"[^" + re.escape(OPEN + CLOSE) + r"]*" + re.escape(CLOSE))
    outside, before = text, None
    while outside != before:  # innermost first: a text may quote another (⟦… ⟦Red⟧ …⟧)
        before, outside = outside, inner.sub(" ", outside)
    outside = re.sub(r"`[^`]*`|<[^<>\s]*>|https?://\S+|\{[^{}]*\}", " ", outside)
    return re.findall(r"[A-Za-z][A-Za-z']+(?: [A-Za-z][A-Za-z']+)*", outside)
