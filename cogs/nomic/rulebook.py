"""The rulebook pages (with the how-to) and their buttons."""

from __future__ import annotations

import discord

from bot.errors import StaleBoard
from bot.games.nomic import rulebook_pages
from bot.i18n import _
from cogs import _views as v
from cogs._game import (
    COLOUR_INFO,
)
from cogs.nomic.common import (
    RulebookButton,
    _howto_pages,
    nomic_view,
)
from cogs.nomic.judgments import NomicJudgments


class NomicRulebook(NomicJudgments):
    """The rulebook pages (with the how-to) and their buttons."""


    async def show_rulebook(self, interaction: discord.Interaction, match_id: int, page: int, *, edit: bool,
                            howto: bool = False) -> None:
        match = await self.service.get(match_id) if match_id else None
        if match is not None and match.rec.game != self.game_key:
            raise StaleBoard(_("That button does nothing any more."))
        view = nomic_view(match)
        rules = rulebook_pages(view)
        howtos = _howto_pages()
        pages = rules + howtos
        if howto:
            page = len(rules)
        page = max(0, min(page, len(pages) - 1))
        in_rules = page < len(rules)
        if in_rules:
            title = _("Nomic World \u00b7 the rules in effect (page {page} of {pages})", page=page + 1,
                      pages=len(pages))
        else:
            title = _("Nomic World \u00b7 how to play (page {page} of {pages})", page=page + 1,
                      pages=len(pages))
        embed = discord.Embed(title=title, description=pages[page], colour=COLOUR_INFO)
        where = _("Match #{id}", id=match_id) if match_id else _("No game here: the Initial Set")
        embed.set_footer(text=_("{where} \u00b7 /nomic rule number: shows one rule with its history",
                                where=where))
        mid = match_id
        items = [
            RulebookButton(mid, max(0, page - 1), "e", "p", label=_("Previous"), emoji="\u25c0\ufe0f",
                           disabled=page == 0),
            RulebookButton(mid, min(len(pages) - 1, page + 1), "e", "n", label=_("Next"),
                           emoji="\u25b6\ufe0f", disabled=page >= len(pages) - 1),
            (RulebookButton(mid, 0, "e", "r", label=_("Rules in effect"), emoji="\U0001f4dc") if not in_rules
             else RulebookButton(mid, len(rules), "e", "h", label=_("How to play"), emoji="\u2753")),
        ]
        if edit:
            await interaction.response.edit_message(embed=embed, view=v.view_of(*items))
        else:
            await interaction.response.send_message(embed=embed, view=v.view_of(*items), ephemeral=True)
