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
from collections.abc import Callable, Mapping
from contextvars import ContextVar, Token
from typing import Any, TypeVar

from bot.i18n.catalogs import LANGUAGES, SAID, SAID_KEPT, catalog, discord_language, plural_index
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


def _lookup(msgid: str, context: str | None, lang: str) -> str:
    text = msgid
    if lang != ENGLISH:
        found = catalog(lang).get((context, msgid))
        if isinstance(found, str) and found:
            text = found
    return pseudo(text) if _PSEUDO else text


def _format(text: str, fallback: str, kw: Mapping[str, Any]) -> str:
    if not kw:
        return text
    try:
        return text.format(**kw)
    except (KeyError, IndexError, ValueError):  # a translation with a wrong placeholder: English instead
        return fallback.format(**kw)


_NO_KW: dict[str, Any] = {}  # the (never changed) placeholders of a text said without any


def _say(context: str | None, msgid: str, kw: dict[str, Any]) -> Text:
    """``msgid`` looked up in the current language and formatted. On a move's path (dozens per board): a text
    without placeholders is made once per language and kept (:data:`bot.i18n.catalogs.SAID`)."""
    lang = _language.get()
    if not kw:
        key = (lang, context, msgid)
        said: Text | None = SAID.get(key)
        if said is None:
            said = _text(_lookup(msgid, context, lang), (context, msgid, None, None, _NO_KW))
            if len(SAID) < SAID_KEPT:
                SAID[key] = said
        return said
    text = msgid if lang == ENGLISH and not _PSEUDO else _lookup(msgid, context, lang)
    try:
        value = text.format(**kw)
    except (KeyError, IndexError, ValueError):  # a translation with a wrong placeholder: English instead
        value = msgid.format(**kw)
    t = Text(value)
    t.source = (context, msgid, None, None, kw)
    return t


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
    return _say(None, msgid, kw)


def pgettext(context: str, msgid: str, /, **kw: Any) -> str:
    """Like :func:`_`, for a text whose English is shared by different meanings (``context`` tells them
    apart for translators)."""
    return _say(context, msgid, kw)


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
    if _PSEUDO:
        text = pseudo(text)
    number = str(n) if type(n) is int and -1000 < n < 1000 else format_number(n)  # (format_number's own)
    return _text(_format(text, english, {"n": number, **kw}), (context, singular, plural, n, kw))


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


class speaking:  # lower-case: used like a function, ``with speaking("es"):``
    """Write the texts inside in ``lang`` (None: leave the current language).

    A plain class, not a generator context manager: a board is drawn inside a dozen of these, and a language
    already current is not set again."""

    __slots__ = ("lang", "token")

    def __init__(self, lang: str | None) -> None:
        self.lang = lang
        self.token: Token[str] | None = None

    def __enter__(self) -> None:
        if self.lang is not None and self.lang != _language.get():
            self.token = _language.set(self.lang)

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _language.reset(self.token)
            self.token = None


def public(guild_id: int | None = None) -> speaking:
    """Write the texts inside for a channel: the server's language (``with public(guild_id):``).

    Inside an interaction the server is the interaction's (``guild_id`` may be left out)."""
    lang = language_of_guild(guild_id) if guild_id is not None else _public.get()
    return speaking(lang or ENGLISH)


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


def _languages_of(data: Mapping[str, Any]) -> tuple[str, str | None] | None:
    """The reader's and the channel's language of an interaction's raw payload (None if it names no user or
    server properly), remembering the Discord locales it tells."""
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    try:
        user_id = int(user.get("id", 0))
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
    except (TypeError, ValueError):
        return None
    seen = discord_language(data.get("locale"))
    if seen is not None and user_id:
        prefs.seen_users[user_id] = seen
    guild_seen = discord_language(data.get("guild_locale"))
    if guild_seen is not None and guild_id is not None:
        prefs.seen_guilds[guild_id] = guild_seen
    return (prefs.users.get(user_id) or seen or ENGLISH,
            language_of_guild(guild_id) if guild_id is not None else None)


def enter_interaction(data: Mapping[str, Any]) -> None:
    """Set the languages for an interaction from its raw payload (before discord.py parses it)."""
    langs = _languages_of(data)
    if langs is not None:
        _language.set(langs[0])
        _public.set(langs[1])


def install(client: Any) -> None:
    """Wrap the client's INTERACTION_CREATE parser: every task discord.py starts for an interaction
    (command, autocomplete, button, select, modal, the on_interaction event) inherits its language."""
    parsers: dict[str, Any] = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    if getattr(parse, "__parlor_i18n__", False):
        return

    def parse_interaction_create(data: Any) -> None:
        langs = _languages_of(data) if isinstance(data, dict | Mapping) else None
        if langs is None:  # nothing to set: the languages stay as they are
            parse(data)
            return
        t1, t2 = _language.set(langs[0]), _public.set(langs[1])
        try:
            parse(data)
        finally:
            _language.reset(t1)
            _public.reset(t2)

    parse_interaction_create.__parlor_i18n__ = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse_interaction_create
