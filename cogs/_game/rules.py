"""``/<game> rules``: a labelled diagram of the game (its renderer on a fixed position, callouts on top),
a one-paragraph summary, and a **Full rules** button that shows the whole rules text privately.

The diagram is ``bot/games/<game>/diagram.py`` (``diagram() -> bot.render.callouts.Diagram``) and the
summary ``summary.md`` beside ``rules_text.md``; a game without a summary answers with its full text as
before. Diagrams are pure functions of fixed positions, so each is drawn and encoded once per process and
language (its callouts are words) and its bytes kept (:data:`PICTURES`): the reply is one request with no
drawing after the first.

The reply is private, so in its reader's language: the summary and the full text are the translated
documents beside the English (``summary.es.md``, ``rules_text.pt_BR.md``: :mod:`bot.i18n.documents`).
"""

from __future__ import annotations

import asyncio
import importlib
import re
from typing import Any

import discord
from discord import app_commands

from bot.errors import StaleBoard
from bot.games import GAMES
from bot.i18n import _, language, speaking
from bot.i18n.documents import read_document
from bot.render import png_bytes
from bot.replies import reply_error
from cogs._game.base import COLOUR_INFO, NO_MENTIONS, game_package, picture_file, rules_text
from cogs._game.board import BoardCog

PICTURE = "rules.png"
PICTURES: dict[tuple[str, str], tuple[bytes, str] | None] = {}
"""Per (game, language): the diagram's PNG bytes and alt text (``None``: the game has no diagram)."""


def summary_text(game_key: str) -> str | None:
    """The game's short summary (``summary.md`` beside its engine) in the current language, or ``None``."""
    try:
        return read_document(game_package(game_key), "summary.md").strip()
    except OSError:
        return None


def draw_diagram(game_key: str) -> tuple[bytes, str] | None:
    """The game's diagram as PNG bytes and alt text (in the current language), or ``None`` when it has no
    ``diagram`` module."""
    package = game_package(game_key)
    try:
        diagrams = importlib.import_module(f"{package}.diagram")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.diagram":
            raise
        return None
    d = diagrams.diagram()
    return png_bytes(d.image, optimize=True), d.alt


def _draw_in(lang: str, game_key: str) -> tuple[bytes, str] | None:
    with speaking(lang):
        return draw_diagram(game_key)


async def diagram_of(game_key: str) -> tuple[bytes, str] | None:
    """The diagram in the current language: drawn once per language, in a worker thread."""
    key = (game_key, language())
    if key not in PICTURES:
        PICTURES[key] = await asyncio.to_thread(_draw_in, key[1], game_key)
    return PICTURES[key]


def full_rules_embed(game_key: str) -> discord.Embed:
    """The whole rules text (the current language's) as an embed."""
    title = GAMES[game_key].spec.title
    return discord.Embed(title=_("{game}: rules", game=title), description=rules_text(game_key)[:4096],
                         colour=COLOUR_INFO)


class FullRulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"rules:(?P<game>[a-z0-9_]{1,20})"):
    """**Full rules** under ``/<game> rules``: the whole text, privately (survives restarts)."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label=_("Full rules"), emoji="\U0001f4d6",
                                           style=discord.ButtonStyle.primary, custom_id=f"rules:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> FullRulesButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.game not in GAMES:
                raise StaleBoard(_("That button does nothing any more."))
            await interaction.response.send_message(embed=full_rules_embed(self.game), ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)
        except Exception as exc:
            await reply_error(interaction, exc)


class RulesCog(BoardCog):
    """``/<game> rules`` (mixed into :class:`cogs._game.GameCog`)."""

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        if FullRulesButton not in getattr(bot, "_component_templates", {}):  # one registration for all games
            bot.add_dynamic_items(FullRulesButton)

    @app_commands.command(
        name="rules",
        description="How to play: a picture, a summary, and the full rules",
    )
    async def rules_cmd(self, interaction: discord.Interaction) -> None:
        await self.send_rules(interaction, FullRulesButton(self.game_key))

    async def send_rules(self, interaction: discord.Interaction, full: discord.ui.Item[Any]) -> None:
        """The diagram, the summary and ``full`` (the button to the whole text): one private reply."""
        summary = summary_text(self.game_key)
        if summary is None:  # a game without a summary: its full text, as it always was
            await interaction.response.send_message(embed=full_rules_embed(self.game_key), ephemeral=True)
            return
        content = (_("**{game}: how to play**", game=self.spec.title) + f"\n{summary}\n-# "
                   + _("**Full rules**: the whole text, with the notation \u00b7 `/help`: everything else"))
        view = discord.ui.View(timeout=None)
        view.add_item(full)
        kwargs: dict[str, Any] = {}
        picture = await diagram_of(self.game_key)
        if picture is not None:  # the attachment itself, not an embed's image: its description is read out
            kwargs["file"] = picture_file(picture[0], PICTURE, picture[1])
        await interaction.response.send_message(content, view=view, ephemeral=True,
                                                allowed_mentions=NO_MENTIONS, **kwargs)
