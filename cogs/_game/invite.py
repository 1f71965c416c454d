"""The challenge or lobby message (Accept/Decline/Cancel, Join/Leave/Start/Cancel) and what a match that
did not start says; how a match's options read in the current language."""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.i18n import N_, _, ngettext, pgettext
from bot.matches.service import Match
from bot.names import shown
from bot.render.text import player_range
from bot.storage import Status
from cogs import _views as v
from cogs._game.base import COLOUR_END, COLOUR_INFO, GameBase, human_seconds, in_channel

CLOSED = {
    Status.DECLINED: N_("The challenge was declined."),
    Status.CANCELLED: N_("Cancelled."),
    Status.EXPIRED: N_("Expired: nobody took it up in time."),
    Status.ABORTED: N_("Stopped by an admin."),
    Status.RUNNING: N_("The match has started."),
    Status.FINISHED: N_("The match is over."),
}
"""What a challenge or lobby that did not become a running match says (looked up with ``_``)."""

OPTION = "match option"  # not translated: a catalog context
"""The catalog context of match options' names and values (short words: "first", "random", "off")."""


def option_words() -> dict[str, str]:
    """The platform's match options and their values in the current language: who moves first, the
    animation speed, the tournament clock."""
    return {
        "first": pgettext("match option", "first"), "speed": pgettext("match option", "speed"),
        "clock": pgettext("match option", "clock"), "challenger": pgettext("match option", "challenger"),
        "opponent": pgettext("match option", "opponent"), "random": pgettext("match option", "random"),
        "slow": pgettext("match option", "slow"), "normal": pgettext("match option", "normal"),
        "fast": pgettext("match option", "fast"), "off": pgettext("match option", "off"),
    }


def option_text(name: str, value: object) -> str:
    """``first: challenger``: a match option and its value in the current language. The platform's are
    in this catalog; a game's own (``handicap``, ``draw: blind``) are looked up in the same context
    (``pgettext("match option", "blind")`` in the game's code puts them in its catalog); numbers and
    anything no catalog has stay as typed."""
    words = option_words()
    label = name.replace("_", " ")
    label = words.get(name) or pgettext(OPTION, label)
    shown_value = str(value)
    if shown_value and not shown_value.replace(".", "").isdigit():
        shown_value = words.get(shown_value) or pgettext(OPTION, shown_value)
    return f"{label}: {shown_value}"


class InviteCog(GameBase):
    """The challenge or lobby message, what a closed one says, and the match's options in words."""

    def closed_text(self, match: Match) -> str:
        return _(CLOSED.get(match.status, N_("Closed.")))

    def options_summary(self, match: Match) -> str:
        parts = [option_text(k, val) for k, val in sorted(match.options.items())]
        parts.append(_("turn limit: {time}", time=human_seconds(match.rec.turn_limit)))
        return " · ".join(parts)

    async def refresh_invite(self, match: Match) -> None:
        """Edit the match's challenge or lobby message to show its state now (skipped if it is gone). It
        lives in the channel the match was started from, never in a match thread."""
        if not match.rec.message_id or match.rec.thread_id is not None or match.status in (
                Status.RUNNING, Status.FINISHED):
            return  # started: its message is a board now (the header shows the result: show_result_on_header)
        embed, view = self.invite_message(match)
        channel = self.bot.get_partial_messageable(match.rec.channel_id, guild_id=match.rec.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(match.rec.message_id).edit(embed=embed, view=view, content=None)

    def invite_message(self, match: Match) -> tuple[discord.Embed, discord.ui.View]:
        """The challenge (Accept/Decline/Cancel) or lobby (Join/Leave/Start/Cancel) message: posted in the
        channel, so in the server's language whoever's click changes it."""
        with in_channel(match):
            return self._invite_message(match)

    def _invite_message(self, match: Match) -> tuple[discord.Embed, discord.ui.View]:
        rec = match.rec
        stamp = f"<t:{int(rec.deadline or 0)}:R>"
        if rec.status == Status.CHALLENGE:
            embed = discord.Embed(
                title=_("{game}: a challenge", game=self.spec.title),
                description=_("**{challenger}** challenges **{opponent}**.\nExpires {when}.",
                              challenger=shown(rec.seats[0].name), opponent=shown(rec.seats[1].name),
                              when=stamp),
                colour=COLOUR_INFO,
            )
            embed.set_footer(text=self.options_summary(match))
            view = v.view_of(
                v.button(rec.id, None, "accept", label=_("Accept"), style=discord.ButtonStyle.success),
                v.button(rec.id, None, "decline", label=_("Decline"), style=discord.ButtonStyle.danger),
                v.button(rec.id, None, "cancel", label=_("Cancel"), style=discord.ButtonStyle.secondary),
            )
            return embed, view
        spec = self.spec
        if rec.status == Status.LOBBY:
            need = spec.min_seats
            lines = [f"{i + 1}. {shown(s.name)}{self.seat_note(match, i)}" for i, s in enumerate(rec.seats)]
            embed = discord.Embed(
                title=_("{game}: lobby", game=spec.title),
                description=(
                    _("Hosted by **{host}** · {players}", host=shown(rec.seats[0].name) if rec.seats else "?",
                      players=player_range(need, spec.max_seats))
                    + "\n" + "\n".join(lines) + "\n\n"
                    + ngettext("The host starts once {n} has joined. Closes {when}.",
                               "The host starts once {n} have joined. Closes {when}.", need,
                               when=stamp)
                ),
                colour=COLOUR_INFO,
            )
            embed.set_footer(text=self.options_summary(match))
            full = spec.max_seats is not None and len(rec.seats) >= spec.max_seats
            view = v.view_of(
                v.button(
                    rec.id, None, "join", label=_("Join"), style=discord.ButtonStyle.success, disabled=full
                ),
                v.button(rec.id, None, "leave", label=_("Leave")),
                v.button(
                    rec.id,
                    None,
                    "start",
                    label=_("Start"),
                    style=discord.ButtonStyle.primary,
                    disabled=len(rec.seats) < need,
                ),
                v.button(rec.id, None, "cancel", label=_("Cancel"), style=discord.ButtonStyle.danger),
            )
            for item in self.lobby_extra_items(match):
                view.add_item(item)
            return embed, view
        embed = discord.Embed(title=f"{spec.title}", description=self.closed_text(match), colour=COLOUR_END)
        return embed, discord.ui.View(timeout=None)

    def seat_note(self, match: Match, seat: int) -> str:
        """Extra text after a lobby seat (EOF: the colour)."""
        return ""

    def lobby_extra_items(self, match: Match) -> list[discord.ui.Item[Any]]:
        return []
