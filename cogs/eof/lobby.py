"""The lobby: colours, joining in a colour, the DM check on joining."""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import LobbyError
from bot.games.eof import setup_options
from bot.games.eof.pieces import (
    COLOUR_NAMES,
    parse_colour,
)
from bot.i18n import _
from bot.matches.service import Match
from bot.storage import Status
from cogs import _views as v
from cogs._game import NO_MENTIONS, GameCog
from cogs.eof.common import (
    COLOUR_EMOJI,
    DMS_CLOSED,
    _colour_name,
)


class EofLobby(GameCog):
    """The lobby: colours, joining in a colour, the DM check on joining."""

    game_key = "eof"

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self._builders: dict[tuple[int, int, int], tuple[int, int]] = {}
        """(match, seat, round) -> (DM channel, message) of the program builders sent this process."""

    def lobby_colours(self, match: Match) -> list[int]:
        """The colour of each lobby seat: its choice, or the first free one (what the start will use)."""
        opts = setup_options({}, list(match.seats))
        return [parse_colour(c) for c in opts["colours"].split(",")] if match.seats else []

    def colours(self, match: Match) -> list[int]:
        if match.state is not None:
            return list(match.state.colours)
        return self.lobby_colours(match)

    def seat_note(self, match: Match, seat: int) -> str:
        cols = self.lobby_colours(match)
        if seat >= len(cols):
            return ""
        return f" — {COLOUR_EMOJI[cols[seat]]} {_colour_name(cols[seat])}"

    def lobby_extra_items(self, match: Match) -> list[discord.ui.Item[Any]]:
        cols = self.lobby_colours(match)
        items: list[discord.ui.Item[Any]] = []
        for c, name in enumerate(COLOUR_NAMES):
            holder = next((match.seats[i].name for i, x in enumerate(cols) if x == c), None)
            label = _colour_name(c) if holder is None else f"{_colour_name(c)} · {holder}"
            items.append(v.button(match.id, None, f"col:{name}", label=label[:80], emoji=COLOUR_EMOJI[c],
                                  disabled=holder is not None, row=1))
        return items

    async def on_lobby_action(self, interaction: discord.Interaction, match: Match, action: str) -> None:
        if action == "join":
            await self.join_in_colour(interaction, match, None)
            return
        await super().on_lobby_action(interaction, match, action)

    async def join_in_colour(
        self, interaction: discord.Interaction, match: Match, colour: int | None
    ) -> None:
        """Join the lobby in ``colour`` (None: the first free one), or switch to it if already seated."""
        if match.status != Status.LOBBY:
            raise LobbyError(_("This lobby is closed."))
        uid = interaction.user.id
        cols = self.lobby_colours(match)
        seat = match.seat_of(uid)
        if seat is not None:
            if colour is None:
                raise LobbyError(_("You are already in this lobby."))
            if cols[seat] == colour:
                raise LobbyError(_("You already play {colour}.", colour=_colour_name(colour)))
            if colour in cols:
                raise LobbyError(_("{colour} is taken; pick a free colour.", colour=_colour_name(colour)))
            m = await self.service.update_seat_data(match.id, uid, {"colour": COLOUR_NAMES[colour]})
            embed, view = self.invite_message(m)
            await interaction.response.edit_message(embed=embed, view=view, content=None)
            return
        free = [c for c in range(len(COLOUR_NAMES)) if c not in cols]
        if colour is not None and colour not in free:
            raise LobbyError(_("{colour} is taken; pick a free colour.", colour=_colour_name(colour)))
        if colour is None and free:
            colour = free[0]
        result = await self.service.join(match.id, await self.player_for(interaction.user))
        m = result.match
        if colour is not None:
            m = await self.service.update_seat_data(match.id, uid, {"colour": COLOUR_NAMES[colour]})
        embed, view = self.invite_message(m)
        await interaction.response.edit_message(embed=embed, view=view, content=None)
        await self.check_can_join(interaction, m)

    async def check_can_join(self, interaction: discord.Interaction, match: Match) -> None:
        """Try a DM right away; if DMs are closed, say so (ephemerally) at once."""
        cols = self.lobby_colours(match)
        seat = match.seat_of(interaction.user.id)
        back = _("[back to the lobby]({url})", url=self.jump_url(match))
        header = f"**{self.spec.title} #{match.id}** · {back}"
        if seat is not None:
            colour = f"{COLOUR_EMOJI[cols[seat]]} {_colour_name(cols[seat])}"
            said = _("You are in the lobby as {colour}. Your hand, your program builder and any permission "
                     "questions will come here, in DMs.", colour=colour)
        else:
            said = _("You are in the lobby. Your hand, your program builder and any permission questions "
                     "will come here, in DMs.")
        ok = await self.dms_open(interaction.user, f"{header}\n{said}")  # the joiner's DM: their language
        interaction.extras["dms_open"] = ok
        if not ok:
            await interaction.followup.send(_(DMS_CLOSED), ephemeral=True, allowed_mentions=NO_MENTIONS)
