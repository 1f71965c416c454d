"""The catalogs: which languages there are, and each one's texts, read once and kept.

A language's texts are the union of its area catalogs (``bot/locales/<language>/LC_MESSAGES/*.mo``, or the
``.po`` sources where nothing was compiled). Keys are ``(context, msgid)``; a value is the translated text,
or a tuple of plural forms.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "pt_BR": "Português do Brasil",
}
"""The languages Parlor speaks: code → its own name (as the language setting offers it)."""

_DISCORD: dict[str, str] = {"es-ES": "es", "es-419": "es", "pt-BR": "pt_BR"}


def discord_language(locale: object) -> str | None:
    """Parlor's language for a Discord locale (``es-419`` → ``es``); English for the rest; None if absent."""
    if locale is None:
        return None
    value = str(getattr(locale, "value", locale))
    if not value:
        return None
    return _DISCORD.get(value, "en")


def discord_locales(lang: str) -> list[str]:
    """The Discord locales a language is sent to Discord as (command names and descriptions)."""
    return [loc for loc, code in _DISCORD.items() if code == lang]


Entry = str | tuple[str, ...]
Key = tuple[str | None, str]

SAID: dict[tuple[str, str | None, str], Any] = {}
"""Texts without placeholders already looked up, per (language, context, msgid): ``bot.i18n._`` answers them
from here with no look-up, formatting or new object. Forgotten when any catalog changes."""
SAID_KEPT = 8192
"""At most this many are kept (a text looked up from a variable cannot grow it without end)."""


def forget() -> None:
    SAID.clear()


class Catalog(dict[Key, Entry]):
    """A language's texts. Changing one (a test's ``monkeypatch.setitem``) forgets the texts said
    (:data:`SAID`)."""

    def __setitem__(self, key: Key, value: Entry) -> None:
        super().__setitem__(key, value)
        forget()

    def __delitem__(self, key: Key) -> None:
        super().__delitem__(key)
        forget()

    def update(self, *args: Any, **kw: Any) -> None:
        super().update(*args, **kw)
        forget()

    def pop(self, *args: Any) -> Any:
        forget()
        return super().pop(*args)

    def popitem(self) -> tuple[Key, Entry]:
        forget()
        return super().popitem()

    def setdefault(self, key: Key, default: Entry = "") -> Entry:
        forget()
        return super().setdefault(key, default)

    def clear(self) -> None:
        super().clear()
        forget()


def locales_root() -> Traversable:
    return resources.files("bot") / "locales"


def _read_mo(path: Traversable) -> tuple[dict[Key, Entry], Callable[[int], int] | None]:
    import io

    t = gettext.GNUTranslations(io.BytesIO(path.read_bytes()))
    out: dict[Key, Entry] = {}
    plurals: dict[Key, dict[int, str]] = {}
    raw: dict[Any, str] = t._catalog  # type: ignore[attr-defined]
    for k, v in raw.items():
        if k == "" or not v:
            continue
        if isinstance(k, tuple):  # (msgid, index): a plural form
            msgid, i = k
            ctx, _sep, mid = msgid.rpartition("\x04")
            plurals.setdefault((ctx or None, mid), {})[i] = v
        else:
            ctx, _sep, mid = k.rpartition("\x04")
            out[(ctx or None, mid)] = v
    for key, forms in plurals.items():
        out[key] = tuple(forms.get(i, "") for i in range(max(forms) + 1))
    return out, getattr(t, "plural", None)


def _read_po(path: Traversable) -> tuple[dict[Key, Entry], Callable[[int], int] | None]:
    import io

    from babel.messages.pofile import read_po

    cat = read_po(io.BytesIO(path.read_bytes()))
    out: dict[Key, Entry] = {}
    for m in cat:
        if not m.id or m.fuzzy or not m.string:
            continue
        if isinstance(m.id, tuple | list):
            out[(m.context, m.id[0])] = tuple(m.string)
        else:
            out[(m.context, m.id)] = str(m.string)
    return out, gettext.c2py(cat.plural_expr)


@cache
def _load(lang: str) -> tuple[Catalog, Callable[[int], int]]:
    texts = Catalog()
    plural: Callable[[int], int] | None = None
    folder = locales_root() / lang / "LC_MESSAGES"
    if folder.is_dir():
        files = {f.name: f for f in folder.iterdir()}
        for name in sorted(files):
            stem, _dot, ext = name.rpartition(".")
            if ext == "mo" or (ext == "po" and f"{stem}.mo" not in files):
                found, p = (_read_mo if ext == "mo" else _read_po)(files[name])
                texts.update(found)
                plural = plural or p
    return texts, plural or (lambda n: int(n != 1))


def catalog(lang: str) -> Catalog:
    return _load(lang)[0]


def plural_index(lang: str, n: int) -> int:
    return int(_load(lang)[1](n))


def preload() -> None:
    """Read every language's catalogs now (the bot does it in a thread at start: reading the ``.po``
    sources takes tens of milliseconds, which a first Spanish reader's click should not wait for)."""
    for lang in LANGUAGES:
        if lang != "en":
            _load(lang)


def reload() -> None:
    """Forget the catalogs read so far (after ``python -m bot i18n compile``, in tests)."""
    _load.cache_clear()
    forget()
