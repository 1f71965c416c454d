"""The sign-up message and its buttons."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.games import TITLES
from bot.i18n import _, ngettext, pgettext, public
from bot.matches.service import Player
from bot.replies import reply_error
from bot.storage.tournaments import EntrantRecord, TournamentRecord
from bot.tournaments.core import MIN_PLAYERS
from bot.tournaments.model import Format
from bot.tournaments.pairing import default_swiss_rounds
from bot.tournaments.service import TournamentError
from cogs._game import human_seconds

if TYPE_CHECKING:
    pass
from cogs.tournament.base import TournamentBase
from cogs.tournament.common import COLOUR, FORMAT_NAMES, esc, log, status_word


def swiss_rounds_text(rounds: int | None, players: int) -> str:
    """A Swiss event's rounds as a reader counts them: the number set, or the default for the sign-ups so
    far ("3 rounds for 4 players (grows with sign-ups)"; before there are enough, the fewest to start)."""
    if rounds:
        return ngettext("{n} round", "{n} rounds", rounds)
    n = max(players, MIN_PLAYERS)
    return ngettext("{n} round for {players} players (grows with sign-ups)",
                    "{n} rounds for {players} players (grows with sign-ups)", default_swiss_rounds(n),
                    players=n)


def names_that_fit(names: list[str], limit: int = 1024) -> str:
    """As many whole names as fit in ``limit`` characters, then "and N more" (a field value holds 1024).

    >>> names_that_fit(["ann", "bo", "cyd"], limit=16), names_that_fit(["ann", "bo", "cyd", "dee"], limit=15)
    ('ann, bo, cyd', 'ann and 3 more')
    """
    for shown_count in range(len(names), -1, -1):
        more = len(names) - shown_count
        text = ", ".join(names[:shown_count])
        if more and shown_count:
            text = _("{names} and {count} more", names=text, count=more)
        if not shown_count and more:
            text = ngettext("{n} player", "{n} players", more)
        if len(text) <= limit:
            return text
    return ""


class TournamentSignup(TournamentBase):
    """The sign-up message and its buttons."""


    async def signup_message(self, t: TournamentRecord) -> tuple[discord.Embed, discord.ui.View]:
        """The sign-up post and its buttons: in the channel, so in the server's language."""
        entrants = await self.bot.store.entrants(t.id)
        with public(t.guild_id):
            return self._signup_message(t, entrants)

    def _signup_message(self, t: TournamentRecord,
                        entrants: list[EntrantRecord]) -> tuple[discord.Embed, discord.ui.View]:
        fmt = Format(t.format)
        n = len(entrants)
        if fmt.is_round_robin:
            rounds = (_("one round per opponent, twice") if fmt is Format.DOUBLE_ROUND_ROBIN
                      else _("one round per opponent"))
        else:
            rounds = swiss_rounds_text(t.rounds, n)
        lines = [
            f"**{TITLES[t.game]}** · {_(FORMAT_NAMES[fmt])} · {rounds}",
            _("Round time {round_time} · turn limit {turn_limit} · {rated}",
              round_time=human_seconds(t.round_time), turn_limit=human_seconds(t.turn_limit),
              rated=pgettext("tournament", "rated") if t.rated
              else pgettext("tournament", "casual (unrated)")),
            _("Win 1, draw ½, bye 1. A game still running at the round's end is lost by the player to move; "
              "a game never started counts as a forfeit."),
            _("Organiser: {name}", name=esc(str(t.data.get("organiser_name", "?")))),
        ]
        if t.status == "signup":
            starts = f"<t:{int(t.starts_at)}:R>"
            lines.append(_("Starts {time} (at least 3 players), or when the organiser presses Start.",
                           time=starts))
        else:
            lines.append(_("Sign-up closed: {status}.", status=status_word(t.status)))
        names = names_that_fit([esc(e.name) for e in entrants])
        embed = discord.Embed(title=_("Tournament #{id}: {game}", id=t.id, game=TITLES[t.game]),
                              description="\n".join(lines), colour=COLOUR)
        embed.add_field(name=_("Players ({count})", count=n), value=names or _("nobody yet"), inline=False)
        view = discord.ui.View(timeout=None)
        if t.status == "signup":
            for act in ("join", "leave", "start"):
                view.add_item(SignupButton(t.id, act))
        return embed, view

    async def on_button(self, interaction: discord.Interaction, tid: int, act: str) -> None:
        user = interaction.user
        if act == "join":
            if user.bot:
                raise TournamentError(_("Bots cannot play in tournaments."))
            t = await self.service.join(tid, Player(user.id, getattr(user, "display_name", user.name)))
        elif act == "leave":
            t = await self.service.leave(tid, user.id)
        else:
            tr = await self.service.start(tid, user.id, is_admin=await self.is_organiser(interaction))
            t = tr.tournament
        embed, view = await self.signup_message(t)
        await interaction.response.edit_message(embed=embed, view=view)

    async def signup_changed(self, t: TournamentRecord) -> None:
        if t.message_id is None:
            return
        channel = await self.channel_of(t)
        if channel is None:
            return
        embed, view = await self.signup_message(t)
        try:
            await channel.get_partial_message(t.message_id).edit(embed=embed, view=view)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.info("could not update the sign-up message of tournament %s", t.id)



class SignupButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"t:(?P<tid>\d{1,18}):(?P<act>join|leave|start)"):
    """Join / Leave / Start on a sign-up message; the id carries the event, so it survives restarts."""

    def __init__(self, tid: int, act: str, *, disabled: bool = False) -> None:
        """Built for the sign-up post, in its language (a button rebuilt from a click only answers it)."""
        label, style = {
            "join": (_("Join"), discord.ButtonStyle.success),
            "leave": (_("Leave"), discord.ButtonStyle.secondary),
            "start": (_("Start (organiser)"), discord.ButtonStyle.primary),
        }[act]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"t:{tid}:{act}", disabled=disabled)
        )
        self.tid, self.act = tid, act

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SignupButton:
        return cls(int(match["tid"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        get_cog = getattr(interaction.client, "get_cog", None)
        cog = get_cog("TournamentCog") if get_cog is not None else None
        try:
            if not isinstance(cog, TournamentSignup):
                raise TournamentError(_("Tournaments are not available right now."))
            await cog.on_button(interaction, self.tid, self.act)
        except Exception as exc:
            await reply_error(interaction, exc)

