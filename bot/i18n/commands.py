"""Slash commands in the user's Discord language: discord.py's :class:`app_commands.Translator`.

discord.py asks for every command's name, description, option name and description and choice name for
each locale when the tree is synced; Discord then shows each user their own language by itself. Names
stay English: players type them, and every text and ``/help`` quotes them (``/pylon new opponent:``), like
game notation. Descriptions (at most 100 characters) and choice names are translated; a translation that
breaks Discord's limits is not sent (Discord would refuse the whole sync), English is shown for it, and
``python -m bot i18n check`` reports it.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import speaking
from bot.i18n.catalogs import LANGUAGES, catalog, discord_language
from bot.i18n.pseudo import pseudo

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
LIMITS = {"name": 32, "description": 100}
COMMAND_CONTEXT = "command"
"""The catalog context of every command text (a command name is not a sentence's word)."""

_NAMED = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def valid(kind: str, text: str) -> bool:
    if kind == "name":
        return bool(NAME_RE.fullmatch(text)) and text == text.lower()
    return 0 < len(text) <= LIMITS[kind]


def command_text(msgid: str, lang: str, kind: str) -> str | None:
    """The translation of a command's text, or None (Discord then shows the English)."""
    from bot.i18n import pseudo_mode

    found = catalog(lang).get((COMMAND_CONTEXT, msgid)) if lang != "en" else None
    text = found if isinstance(found, str) and found and valid(kind, found) else None
    if pseudo_mode():
        # the translation (or the English) wrapped; names stay valid names: accented, not wrapped
        text = pseudo(text or msgid)
        if kind == "name":
            text = text[1:-1].rstrip("‧")
        return text if valid(kind, text) else None
    return text


class ParlorTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = discord_language(locale)
        if lang is None or lang not in LANGUAGES:
            return None
        from bot.i18n import pseudo_mode

        if lang == "en" and not pseudo_mode():
            return None
        if context.location in _NAMED:
            return None  # names stay as they are typed (and as texts and help quote them), like notation
        kind = "description"
        if context.location is app_commands.TranslationContextLocation.choice_name:
            kind = "choice"
        with speaking(lang):
            if kind == "choice":
                text = command_text(string.message, lang, "description")
                return text if text is None or len(text) <= 100 else None
            return command_text(string.message, lang, kind)
