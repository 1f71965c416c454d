"""The lookups every part of a game cog uses: its match here, its place, links, seat labels."""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import NoMatchHere
from bot.games import GAMES
from bot.i18n import _, ngettext, public, speaking
from bot.i18n.documents import read_document
from bot.locks import KeyedLocks
from bot.matches.service import Match
from bot.names import shown
from bot.render import ACCENT, CARD, font, png_bytes
from bot.storage import Status
from bot.turns import Turns

if TYPE_CHECKING:
    from bot.app import ParlorBot

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()

# Choice names are slash command texts: the commands catalog translates them (bot/i18n/commands.py).
TURN_LIMITS: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name="30 seconds", value=30),
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=21600),
    app_commands.Choice(name="24 hours", value=86400),
    app_commands.Choice(name="3 days", value=259200),
    app_commands.Choice(name="7 days", value=604800),
]
FIRST_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name="me (the challenger)", value="challenger"),
    app_commands.Choice(name="my opponent", value="opponent"),
    app_commands.Choice(name="random", value="random"),
]
EXPIRY_CHOICES: list[app_commands.Choice[Any]] = [
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="6 hours", value=21600),
    app_commands.Choice(name="24 hours", value=86400),
    app_commands.Choice(name="3 days", value=259200),
]
"""``expires`` of ``/<game> new``: how long the challenge or lobby waits (default 15 minutes)."""
COLOUR_OK = discord.Colour.from_rgb(87, 242, 135)
COLOUR_OLD = discord.Colour.from_rgb(79, 84, 92)
COLOUR_INFO = discord.Colour.from_rgb(88, 101, 242)
COLOUR_END = discord.Colour.from_rgb(250, 166, 26)


def human_seconds(seconds: float) -> str:
    """A whole number of days, hours or minutes, else seconds, in the current language."""
    seconds = int(seconds)
    if seconds >= 86400 and seconds % 86400 == 0:
        return ngettext("{n} day", "{n} days", seconds // 86400)
    if seconds >= 3600 and seconds % 3600 == 0:
        return ngettext("{n} hour", "{n} hours", seconds // 3600)
    if seconds >= 60 and seconds % 60 == 0:
        return ngettext("{n} minute", "{n} minutes", seconds // 60)
    return ngettext("{n} second", "{n} seconds", seconds)


def match_tag(match_id: int | str) -> str:
    """``Match #12``: how a board's footer begins (in the current language)."""
    return _("Match #{match}", match=match_id)


def match_tags(match_id: int | str) -> list[str]:
    """``Match #12 ·`` in every language: how a board's footer begins, whatever language it was posted in."""
    from bot.i18n import LANGUAGES

    out = []
    for lang in LANGUAGES:
        with speaking(lang):
            tag = match_tag(match_id) + " ·"
        if tag not in out:
            out.append(tag)
    return out


def game_package(game_key: str) -> str:
    """The package of the game's engine (where its ``rules_text.md`` and ``summary.md`` are)."""
    module = GAMES[game_key].module
    return module.__name__ if hasattr(module, "__path__") else module.__package__ or ""


def rules_text(game_key: str) -> str:
    """The game's full rules (``rules_text.md`` beside the engine) in the current language."""
    try:
        return read_document(game_package(game_key), "rules_text.md")
    except OSError:
        return _("The rules text is missing.")


_FOR_READER: ContextVar[bool] = ContextVar("parlor_board_for_reader", default=False)


@contextmanager
def for_reader() -> Iterator[None]:
    """Build a board for the one person reading it (an ephemeral ``/<game> board``): inside,
    :func:`in_channel` keeps the reader's language instead of the server's."""
    token = _FOR_READER.set(True)
    try:
        yield
    finally:
        _FOR_READER.reset(token)


def in_channel(match: Match) -> speaking:
    """Write a match's board (its content, embed, components, picture and alt text) for its channel: the
    server's language (:func:`bot.i18n.public` with the match's guild), also when the board is the answer
    to someone's click; inside :func:`for_reader` the reader's own language. A match of no server (the
    stand-in of a lesson, a puzzle or an imported record: only its reader sees it) keeps the current one.
    (``with in_channel(match):``; a plain context manager: a move's board enters it a dozen times.)"""
    if _FOR_READER.get() or match.rec.guild_id is None:
        return speaking(None)
    return public(match.rec.guild_id)


def result_band(png: bytes, text: str) -> bytes:
    """The picture with a band below it saying how the match ended (resignation, timeout, abort)."""
    from PIL import Image, ImageDraw

    img = Image.open(io.BytesIO(png)).convert("RGB")
    band = max(40, img.height // 12)
    out = Image.new("RGB", (img.width, img.height + band), CARD)
    out.paste(img, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, img.height, img.width, img.height + 3), fill=ACCENT)
    size = max(14, band // 2)
    fnt = font(size, bold=True)
    while size > 10 and draw.textlength(text, font=fnt) > img.width - 20:
        size -= 1
        fnt = font(size, bold=True)
    draw.text((img.width / 2, img.height + band / 2 + 2), text, font=fnt, fill=ACCENT, anchor="mm")
    return png_bytes(out)


def seat_text(name: str, side: str) -> str:
    """A player and their side or colour, in parentheses once: ``Alice (Red)``; a name that ends in its
    own parentheses takes the side inside them, ``Parlor (easy, Blue)``, not ``Parlor (easy) (Blue)``."""
    if not side:
        return name
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {side})"
    return f"{name} ({side})"


ALT_LIMIT = 1024
"""Discord's limit for an attachment's description (what a screen reader announces for the picture)."""


def picture_file(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """Encoded picture bytes as an attachment, with its alt text (``description``, cut to 1,024)."""
    alt = description.strip()[:ALT_LIMIT] if description else None
    return discord.File(fp=io.BytesIO(data), filename=filename, description=alt or None)


_DESCRIBERS: dict[str, ModuleType | None] = {}


def describer(game_key: str) -> ModuleType | None:
    """The game's ``describe`` module beside its renderer (``alt_text``, ``text_board``), or ``None``
    for a game without one (a generic alt text is used)."""
    if game_key not in _DESCRIBERS:
        module = GAMES[game_key].module
        package = module.__name__ if hasattr(module, "__path__") else module.__package__ or ""
        try:
            _DESCRIBERS[game_key] = importlib.import_module(f"{package}.describe")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.describe":
                raise
            _DESCRIBERS[game_key] = None
    return _DESCRIBERS[game_key]


class GameBase(commands.GroupCog):
    """Shared subcommands and presentation for one game."""

    game_key: ClassVar[str] = ""

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.game = GAMES[self.game_key]
        self.rules = self.game.rules
        self.spec = self.rules.spec
        self._ai_tasks: set[asyncio.Task[Any]] = set()
        self._ai_running: set[int] = set()      # matches whose computer move is being computed here
        self._answered: dict[int, asyncio.Event] = {}  # set once the human's move is shown (the computer's
        #                                                slow answer waits for it, so it is never overwritten)
        self._retired: set[int] = set()         # board messages already marked "moved on" by this process
        self.board_lock = KeyedLocks()
        """Per match, held while its board is drawn and sent by :meth:`refresh_board` or :meth:`post_board`,
        so that two moves shown at once (a program typed in a DM while the other player's ends the round) go
        out one after the other."""
        self._board_versions: dict[int, int] = {}  # per match: the newest version its board has shown
        self.turns: Turns = getattr(bot, "turns", None) or Turns(bot)
        super().__init__()

    async def match_here(self, interaction: discord.Interaction, *, running: bool = True) -> Match:
        """The caller's match in this thread/channel (their own first)."""
        place = interaction.channel_id or 0
        if interaction.guild_id is None:  # in a DM: the caller's own match of this game
            found = await self.service.find_for_user(interaction.user.id, game=self.game_key)
        else:
            found = await self.service.find_here(place, interaction.user.id, game=self.game_key,
                                                 active_only=running)
        if running:
            found = [m for m in found if m.status == Status.RUNNING]
        if not found:
            if running:
                raise NoMatchHere(_("There is no running {game} match here. Use `/{command} new` to start "
                                    "one, or run this in the match's thread.", game=self.spec.title,
                                    command=self.game_key))
            raise NoMatchHere(_("There is no {game} match here. Use `/{command} new` to start one, or run "
                                "this in the match's thread.", game=self.spec.title, command=self.game_key))
        return found[0]

    async def place_of(self, match: Match) -> discord.abc.Messageable | None:
        cid = match.rec.place_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            try:
                ch = await self.bot.fetch_channel(cid)
            except discord.NotFound as exc:
                if exc.code == 10003:  # deleted while we were not looking: abort it, unrated
                    await self.bot.place_gone(match)
                return None
            except discord.HTTPException:
                return None
        return ch  # type: ignore[return-value]

    def jump_url(self, match: Match) -> str:
        url = f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{match.rec.place_id}"
        return url + (f"/{match.rec.message_id}" if match.rec.message_id else "")

    def place_url(self, match: Match) -> str:
        return f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{match.rec.place_id}"

    def seat_label(self, match: Match, seat: int) -> str:
        names = self.spec.seat_names  # marked N_ by each game: looked up here, in the current language
        return seat_text(shown(match.seats[seat].name), _(names[seat]) if seat < len(names) else "")

    @staticmethod
    def join_content(*parts: str | None) -> str | None:
        text = "\n".join(p for p in parts if p)
        return text[:2000] or None

    def turn_content(self, match: Match, seats: list[int], content: str | None) -> str | None:
        """A new board's text: the turn ping for ``seats`` and the game's own line (``content``), each
        player addressed once -- a player the game's line already mentions is not told "your turn" again
        (it said "<@a> your turn.\n<@a>, your turn.")."""
        rest = [s for s in seats if f"<@{match.seats[s].user_id}>" not in (content or "")]
        ping = self.turns.ping_text(match, rest, self.spec.title) if rest else None
        return self.join_content(ping, content)
