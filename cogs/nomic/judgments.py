"""Judgments and rulings, resigning and ending the game."""

from __future__ import annotations

import discord

from bot.errors import LobbyError, NotAPlayer
from bot.i18n import _
from bot.matches.service import Match
from bot.storage import Status
from cogs._game import (
    COLOUR_INFO,
    COLOUR_OK,
    NO_MENTIONS,
)
from cogs.nomic.common import (
    _cut,
    _md,
    channel,
)
from cogs.nomic.votes import NomicVotes


class NomicJudgments(NomicVotes):
    """Judgments and rulings, resigning and ending the game."""


    async def do_judge(self, interaction: discord.Interaction, match: Match, question: str) -> None:
        self.player_seat(match, interaction.user.id)
        result = await self.service.play(match.id, interaction.user.id, f"judge {' '.join(question.split())}")
        view = result.match.view(None)
        q = view.question
        if q is None:  # cannot happen: a judgment always waits for its Judge
            raise LobbyError(_("The question did not open a Judgment."))
        judge_id = view.players[q.judge].user_id
        with channel(match):  # a post in the game's thread
            embed = discord.Embed(
                title=_("\u2696\ufe0f Judgment invoked (rule 114)"),
                description=_cut(q.question, 4000),
                colour=COLOUR_INFO,
            )
            embed.add_field(name=_("Asked by"), value=_md(view.name(q.asker)))
            embed.add_field(name=_("The Judge"), value=f"<@{judge_id}>")
            embed.set_footer(text=_("The Judge answers with /nomic ruling; the ruling becomes a rule at "
                                    "once. Play waits; at the turn limit the question lapses."))
            mention = f"<@{judge_id}>"
            content = _("{judge}, you are the Judge.", judge=mention)
        await interaction.response.send_message(
            content=content, embed=embed,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(judge_id)], everyone=False,
                                                     roles=False, replied_user=False))
        result.notified.add(q.judge)  # the message above was the Judge's ping
        await self.present_change(result.match, result)

    async def do_ruling(self, interaction: discord.Interaction, match: Match, text: str) -> None:
        view = match.view(None)
        q = view.question
        if q is None:
            raise LobbyError(_("No Judgment is pending: any player can invoke one with `/nomic judge`."))
        if match.seat_of(interaction.user.id) != q.judge:
            raise NotAPlayer(
                _("Only the Judge, {judge}, can rule on this question (rule 114).",
                  judge=_md(view.name(q.judge)))
            )
        result = await self.service.play(match.id, interaction.user.id, f"ruling {text.strip()}")
        number = next(int(e.data["number"]) for e in result.events if e.kind == "ruling")
        with channel(match):  # a post in the game's thread
            embed = discord.Embed(
                title=_("\u2696\ufe0f Rule {number}: a Judgment", number=number),
                description=_cut(text.strip(), 4000),
                colour=COLOUR_OK,
            )
            embed.add_field(name=_("Question"), value=_cut(q.question, 1024), inline=False)
            embed.add_field(name=_("Judge"), value=_md(view.name(q.judge)))
            embed.set_footer(text=_("Adopted and in effect at once (rule 114). /nomic rule number:{number} "
                                    "shows it.", number=number))
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
        await self.present_change(result.match, result)

    async def do_resign(self, interaction: discord.Interaction, match: Match) -> None:
        result = await self.service.play(match.id, interaction.user.id, "leave")
        await interaction.response.edit_message(content=_("You left the game."), view=None)
        await self.present_change(result.match, result)

    def can_end(self, interaction: discord.Interaction, match: Match) -> bool:
        perms = interaction.permissions
        return bool(perms.manage_guild or perms.administrator or interaction.user.id == match.rec.host_id)

    async def do_end(self, interaction: discord.Interaction, match: Match) -> None:
        if not self.can_end(interaction, match):
            raise NotAPlayer(_("Only the host or someone with Manage Server can end the game."))
        by_host = interaction.user.id == match.rec.host_id
        if match.status == Status.LOBBY:
            with channel(match):  # the reason is shown on the lobby's message
                reason = _("Ended by the host.") if by_host else _("Ended by an admin.")
            result = await self.service.abort(match.id, reason)
            await interaction.response.edit_message(content=_("The lobby is closed."), view=None)
            await self.refresh_invite(result.match)
            return
        seat = match.seat_of(interaction.user.id)
        notation = "end host" if by_host else "end"  # not translated: notation
        result = await self.service.play(match.id, interaction.user.id, notation,
                                         seat=seat if seat is not None else 0)
        await interaction.response.edit_message(content=_("The game is over."), view=None)
        await self.present_change(result.match, result)
