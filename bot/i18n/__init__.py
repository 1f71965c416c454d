"""Parlor's languages: every text a player reads is looked up in the language of whoever reads it.

One catalog system, gettext through Babel: a ``.po`` catalog per language and area under
``bot/locales/<language>/LC_MESSAGES/<area>.po``, compiled to ``.mo`` when the package is built (the
source ``.po`` is read when no ``.mo`` is there, as in a checkout). ``python -m bot i18n`` extracts,
updates, compiles and checks them (``bot/i18n/cli.py``).

How code uses it::

    from bot.i18n import _, N_, ngettext

    _("Your move, {name}.", name=player)          # looked up, then formatted
    ngettext("{n} game", "{n} games", count)         # the language's plural rules; n formatted by locale
    NOT_YOURS = N_("That is not your match.")        # marked for extraction, looked up later with _()

Which language: a context variable, set for each interaction before discord.py starts the tasks that
handle it (:func:`install`), to the reader's language (their Parlor setting, else Discord's locale).
Text that goes to a channel is written inside :func:`public` (the server's language); a DM outside an
interaction inside :func:`speaking` with :func:`language_of_user`. Engines stay pure: they only mark.

Missing translations fall back to English per string, never to an error; a translation whose
placeholders do not match its English is ignored (English instead) and reported by the check.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from bot.i18n.catalogs import LANGUAGES, catalog, discord_language, plural_index
from bot.i18n.pseudo import OPEN, PSEUDO, pseudo

__all__ = [
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "Text",
    "_",
    "again",
    "capitalised",
    "discord_language",
    "format_number",
    "language",
    "language_of_guild",
    "language_of_user",
    "ngettext",
    "npgettext",
    "per_language",
    "pgettext",
    "prefs",
    "public",
    "speaking",
]

T = TypeVar("T")
ENGLISH = "en"
_language: ContextVar[str] = ContextVar("parlor_language", default=ENGLISH)
_public: ContextVar[str | None] = ContextVar("parlor_public_language", default=None)


_PSEUDO = os.environ.get("PARLOR_PSEUDO_LOCALE", "") not in ("", "0")


def pseudo_mode() -> bool:
    """``PARLOR_PSEUDO_LOCALE=1`` (read at start): every text is wrapped and accented (the end-to-end suite's
    check that nothing reaches a player untranslated, and nothing overflows)."""
    return _PSEUDO


def language() -> str:
    """The language the current text is written in."""
    return _language.get()


def _lookup(msgid: str, context: str | None = None) -> str:
    lang = _language.get()
    text = msgid
    if lang != ENGLISH:
        found = catalog(lang).get((context, msgid))
        if isinstance(found, str) and found:
            text = found
    return pseudo(text) if pseudo_mode() else text


def _format(text: str, fallback: str, kw: Mapping[str, Any]) -> str:
    if not kw:
        return text
    try:
        return text.format(**kw)
    except (KeyError, IndexError, ValueError):  # a translation with a wrong placeholder: English instead
        return fallback.format(**kw)


class Text(str):
    """A looked-up text that remembers what it was looked up from, so it can be said again in another
    language (:func:`again`): an engine's refusal is made while the move is applied for the channel, and
    told to the one player who made it in theirs."""

    source: tuple[str | None, str, str | None, int | None, dict[str, Any]]


def _text(value: str, source: tuple[str | None, str, str | None, int | None, dict[str, Any]]) -> Text:
    t = Text(value)
    t.source = source
    return t


def again(text: str) -> str:
    """``text`` in the current language, if it is a :class:`Text` (else unchanged)."""
    if not isinstance(text, Text):
        return text
    context, msgid, plural, n, kw = text.source
    if plural is not None and n is not None:
        return npgettext(context, msgid, plural, n, **kw)
    return pgettext(context, msgid, **kw) if context else _(msgid, **kw)


def _(msgid: str, /, **kw: Any) -> str:
    """``msgid`` in the current language, formatted with ``kw`` (``str.format`` placeholders)."""
    return _text(_format(_lookup(msgid), msgid, kw), (None, msgid, None, None, kw))


def pgettext(context: str, msgid: str, /, **kw: Any) -> str:
    """Like :func:`_`, for a text whose English is shared by different meanings (``context`` tells them
    apart for translators)."""
    return _text(_format(_lookup(msgid, context), msgid, kw), (context, msgid, None, None, kw))


def capitalised(text: str) -> str:
    """``text`` with its first letter upper-case (a looked-up phrase starting a sentence): unlike
    ``str.capitalize`` it leaves the rest as translated, and looks past the pseudo-locale's bracket."""
    i = 1 if text.startswith(OPEN) else 0
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def N_(msgid: str, /) -> str:
    """Marks ``msgid`` for extraction where it cannot be looked up yet (module constants); returns it."""
    return msgid


def ngettext(singular: str, plural: str, n: int, /, **kw: Any) -> str:
    """The form for ``n`` under the current language's plural rules; ``{n}`` is the locale's number."""
    return npgettext(None, singular, plural, n, **kw)


def npgettext(context: str | None, singular: str, plural: str, n: int, /, **kw: Any) -> str:
    lang = _language.get()
    english = singular if n == 1 else plural
    text = english
    if lang != ENGLISH:
        forms = catalog(lang).get((context, singular))
        if isinstance(forms, tuple):
            i = plural_index(lang, n)
            if i < len(forms) and forms[i]:
                text = forms[i]
    if pseudo_mode():
        text = pseudo(text)
    return _text(_format(text, english, {"n": format_number(n), **kw}), (context, singular, plural, n, kw))


def format_number(n: float) -> str:
    """``n`` written the way the current language writes numbers (1,234 / 1.234)."""
    if type(n) is int and -1000 < n < 1000:  # the same in every language Parlor speaks (and 50x faster)
        return str(n)
    from babel.numbers import format_decimal

    return str(format_decimal(n, locale=_language.get()))


def per_language(make: Callable[[], T]) -> Callable[[], T]:
    """``make()`` computed once per language and kept (a rules diagram: its words are the reader's)."""
    kept: dict[str, T] = {}

    def in_current_language() -> T:
        lang = _language.get()
        if lang not in kept:
            kept[lang] = make()
        return kept[lang]

    in_current_language.__doc__ = make.__doc__
    return in_current_language


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Write the texts inside in ``lang`` (None: leave the current language)."""
    if lang is None:
        yield
        return
    token = _language.set(lang)
    try:
        yield
    finally:
        _language.reset(token)


@contextmanager
def public(guild_id: int | None = None) -> Iterator[None]:
    """Write the texts inside for a channel: the server's language.

    Inside an interaction the server is the interaction's (``guild_id`` may be left out)."""
    lang = language_of_guild(guild_id) if guild_id is not None else _public.get()
    with speaking(lang or ENGLISH):
        yield


class Preferences:
    """Who reads which language: the settings players and admins chose, and what Discord last told us.

    Held in memory (a dictionary look-up per text, no database read on a move); the store keeps the
    chosen settings and loads them here at start."""

    def __init__(self) -> None:
        self.users: dict[int, str] = {}  # /language: a player's own choice
        self.guilds: dict[int, str] = {}  # /parlor settings language: a server's choice
        self.seen_users: dict[int, str] = {}  # the Discord locale of a user's last interaction
        self.seen_guilds: dict[int, str] = {}  # a server's Discord locale (guild_locale / preferred_locale)

    def clear(self) -> None:
        self.__init__()  # type: ignore[misc]


prefs = Preferences()


def language_of_user(user_id: int, guild_id: int | None = None) -> str:
    """A player's language outside an interaction (a DM): their setting, else their last Discord locale,
    else the server's."""
    return (prefs.users.get(user_id) or prefs.seen_users.get(user_id)
            or (language_of_guild(guild_id) if guild_id is not None else ENGLISH))


def language_of_guild(guild_id: int | None) -> str:
    """A server's language for its channels: the admins' setting, else Discord's community locale."""
    if guild_id is None:
        return ENGLISH
    return prefs.guilds.get(guild_id) or prefs.seen_guilds.get(guild_id) or ENGLISH


def enter_interaction(data: Mapping[str, Any]) -> None:
    """Set the languages for an interaction from its raw payload (before discord.py parses it)."""
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    try:
        user_id = int(user.get("id", 0))
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
    except (TypeError, ValueError):
        return
    seen = discord_language(data.get("locale"))
    if seen is not None and user_id:
        prefs.seen_users[user_id] = seen
    guild_seen = discord_language(data.get("guild_locale"))
    if guild_seen is not None and guild_id is not None:
        prefs.seen_guilds[guild_id] = guild_seen
    _language.set(prefs.users.get(user_id) or seen or ENGLISH)
    _public.set(language_of_guild(guild_id) if guild_id is not None else None)


def install(client: Any) -> None:
    """Wrap the client's INTERACTION_CREATE parser: every task discord.py starts for an interaction
    (command, autocomplete, button, select, modal, the on_interaction event) inherits its language."""
    parsers: dict[str, Any] = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    if getattr(parse, "__parlor_i18n__", False):
        return

    def parse_interaction_create(data: Any) -> None:
        t1, t2 = _language.set(_language.get()), _public.set(_public.get())
        try:
            if isinstance(data, Mapping):
                enter_interaction(data)
            parse(data)
        finally:
            _language.reset(t1)
            _public.reset(t2)

    parse_interaction_create.__parlor_i18n__ = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse_interaction_create
