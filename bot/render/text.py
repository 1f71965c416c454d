"""Wording helpers for the words on pictures and in messages (no Discord imports), and the one way names
are shortened on pictures (:func:`shorten`, at a grapheme boundary).

They live under :mod:`bot.render` because engines' renderers may import only :mod:`bot.games.base`,
:mod:`bot.render` and their own package; the cogs use the same two.
"""

from __future__ import annotations

import re
import unicodedata

from PIL import ImageFont

from bot.i18n import _, ngettext, pgettext

_I_SOUND = re.compile(r"[^\w]*h?[ií](?![aeiouáéíóú])", re.IGNORECASE)
"""A word that starts with the sound /i/ (Isabel, Hilda, Ícaro; not Hielo, Yolanda): Spanish says "e", not
"y", before it."""


def in_words(items: list[str], sep: str = ", ") -> str:
    """Items as a list in words, in the current language: "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    names, last = sep.join(items[:-1]), items[-1]
    if _I_SOUND.match(last):
        return pgettext("the last item starts with the sound i", "{names} and {last}", names=names, last=last)
    return _("{names} and {last}", names=names, last=last)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` with ``word`` in the right number, in English (a translated text counts with ``ngettext``).

    >>> plural(1, "pyramid"), plural(0, "game"), plural(2, "destination"), plural(3, "match", "matches")
    ('1 pyramid', '0 games', '2 destinations', '3 matches')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """``word`` with "a" or "an" (by its first letter, which is right for the words we use), in English.

    >>> article("Ice piece"), article("Fire piece")
    ('an Ice piece', 'a Fire piece')
    """
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def player_range(least: int, most: int | None) -> str:
    """How many players a game takes, as a sentence says it.

    >>> player_range(2, 2), player_range(2, 4), player_range(3, None)
    ('2 players', '2 to 4 players', 'any number of players, at least 3')
    """
    if most is None:
        return _("any number of players, at least {least}", least=least)
    if most == least:
        return ngettext("{n} player", "{n} players", least)
    return _("{least} to {most} players", least=least, most=most)


ELLIPSIS = "\u2026"


def _extends(prev: str, c: str) -> bool:
    """Whether ``c`` continues the grapheme ``prev`` ends (no break between them)."""
    o, p = ord(c), ord(prev)
    if unicodedata.category(c) in ("Mn", "Mc", "Me"):  # combining marks (accents, Indic vowel signs)
        return True
    if o in (0x200C, 0x200D, 0x20E3) or 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF:
        return True  # joiners, keycap, variation selectors
    if 0x1F3FB <= o <= 0x1F3FF or 0xE0020 <= o <= 0xE007F:
        return True  # emoji skin tones, tag sequences (subdivision flags)
    if p == 0x200D:
        return True  # the emoji after a zero-width joiner
    # Hangul conjoining jamo: a vowel or final consonant continues the syllable before it
    return (0x1160 <= o <= 0x11FF or 0xD7B0 <= o <= 0xD7FF) and (
        0x1100 <= p <= 0x11FF or 0xAC00 <= p <= 0xD7A3 or 0xD7B0 <= p <= 0xD7FF)


def graphemes(text: str) -> list[str]:
    """``text`` cut into the characters a reader sees (user-perceived characters, close to Unicode's
    extended grapheme clusters): a letter with its combining marks, an emoji with its skin tone, variation
    selector or zero-width-joined partners, a flag's two regional indicators.

    >>> [len(g) for g in graphemes("e\\u0301a")], graphemes("👍🏽🇯🇵🇫🇷")
    ([2, 1], ['👍🏽', '🇯🇵', '🇫🇷'])
    >>> len(graphemes("👨\\u200d👩\\u200d👧!"))
    2
    """
    out: list[str] = []
    pending_flag = False  # the last cluster is a lone regional indicator
    for c in text:
        regional = 0x1F1E6 <= ord(c) <= 0x1F1FF
        if out and (_extends(out[-1][-1], c) or (regional and pending_flag)):
            out[-1] += c
            pending_flag = False
            continue
        out.append(c)
        pending_flag = regional
    return out


def shorten(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` as it fits ``width`` pixels in ``fnt``: whole, or cut at a grapheme boundary (never inside
    an emoji sequence, a flag or a letter's accents) and ended with "…". Every picture shortens names so.
    """
    if fnt.getlength(text) <= width:
        return text
    parts = graphemes(text)
    lo, hi = 0, len(parts) - 1  # the most graphemes kept that fit with the ellipsis: in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength("".join(parts[:mid]).rstrip() + ELLIPSIS) <= width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(parts[:lo]).rstrip() + ELLIPSIS


def clip(text: str, most: int) -> str:
    """``text`` with at most ``most`` graphemes, the last one "…" when it was cut (a count, not pixels)."""
    parts = graphemes(text)
    return text if len(parts) <= most else "".join(parts[:most - 1]).rstrip() + ELLIPSIS
