"""Private messages: the DM that holds a player's builder or a permission question."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.eof.notation import Program
from bot.games.eof.render import PIECE_COLOURS
from bot.games.eof.rules import EofState, Phase
from bot.i18n import LANGUAGES, _, pgettext, speaking
from bot.matches.service import Match
from bot.storage import Status
from cogs import _views as v
from cogs._game import NO_MENTIONS
from cogs.eof.builder import EofBuilder, builder_title
from cogs.eof.common import (
    log,
)


class EofPrivate(EofBuilder):
    """Private messages: the DM that holds a player's builder or a permission question."""


    async def send_private(self, match: Match, seat: int, key: str, *, notice: str = "") -> bool:
        """As the platform's, and the program builder's DM is remembered (in memory; after a restart it is
        found again in the DM's recent messages) so that a program submitted elsewhere (``/eof move``, the
        thread's button, the turn limit) can close it. No database write: a write here would coincide with
        the player's first click in the DM."""
        if key != "prog":
            return await super().send_private(match, seat, key, notice=notice)
        rec = match.seats[seat]
        payload = await self.private_payload(match, seat, key)
        content = payload.get("content")
        with speaking(self.reader(match, seat)):
            header = self.private_header(match)
        payload["content"] = (header + ("\n" + content if content else ""))[:2000]
        try:
            user = self.bot.get_user(rec.user_id) or await self.bot.fetch_user(rec.user_id)
            msg = await user.send(**payload, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:  # the platform posts the "Show privately" button
            return await super().send_private(match, seat, key, notice=notice)
        except discord.HTTPException:
            log.warning("DM to %s for match %s failed", rec.user_id, match.id, exc_info=True)
            return False
        for old in [k for k in self._builders if k[:2] == (match.id, seat)]:
            del self._builders[old]
        self._builders[(match.id, seat, match.state.round)] = (msg.channel.id, msg.id)
        return True

    async def _find_builder(self, match: Match, seat: int, rnd: int) -> tuple[int, int] | None:
        """``(channel id, message id)`` of ``seat``'s DM builder of round ``rnd``: remembered, or the newest
        one among the DM's recent messages (after a restart)."""
        known = self._builders.get((match.id, seat, rnd))
        if known is not None:
            return known
        try:
            user = self.bot.get_user(match.seats[seat].user_id) or await self.bot.fetch_user(
                match.seats[seat].user_id
            )
            channel = user.dm_channel or await user.create_dm()
            me = self.bot.user.id if self.bot.user is not None else 0
            tag = f"**{self.spec.title} #{match.id}**"
            wanted = set()
            for lang in LANGUAGES:  # whichever language the player read when it was sent
                with speaking(lang):
                    wanted.add(builder_title(rnd))
            async for msg in channel.history(limit=25):
                titles = {e.title for e in msg.embeds}
                if msg.author.id == me and tag in msg.content and titles & wanted:
                    return channel.id, msg.id
        except discord.HTTPException:
            log.info("could not look for the program builder of match %s", match.id, exc_info=True)
        return None

    async def close_builder(self, match: Match, seat: int, rnd: int, prog: Program, *,
                            clicked: int | None = None) -> None:
        """Show "program submitted" in ``seat``'s DM builder of round ``rnd`` (unless that is the message
        ``clicked``, which its own interaction edits)."""
        where = await self._find_builder(match, seat, rnd)
        self._builders.pop((match.id, seat, rnd), None)
        if where is None or where[1] == clicked:
            return
        s: EofState | None = match.state
        if match.status == Status.RUNNING and s is not None and s.phase is Phase.PROGRAM and s.round == rnd:
            payload = await self.builder_payload(match, seat)
        else:
            payload = self._submitted_payload(match, seat, prog)
        file = payload.get("file")
        with speaking(self.reader(match, seat)):
            header = self.private_header(match)
        try:
            await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(
                content=header, embed=payload.get("embed"), view=payload.get("view"),
                attachments=[file] if file is not None else [])
        except discord.HTTPException:
            log.info("could not update the program builder of match %s", match.id, exc_info=True)

    async def private_payload(self, match: Match, seat: int, key: str) -> dict[str, Any]:
        if key == "perm":
            return self.permission_payload(match, seat)
        return await self.builder_payload(match, seat)

    def permission_payload(self, match: Match, seat: int) -> dict[str, Any]:
        """The permission question for ``seat`` (DM or ephemeral), in the player's language."""
        with speaking(self.reader(match, seat)):
            return self._permission_payload(match, seat)

    def _permission_payload(self, match: Match, seat: int) -> dict[str, Any]:
        s: EofState = match.state
        pd = match.view(None).pending if s is not None and s.phase is Phase.PERMISSION else None
        if pd is None or seat not in pd.asked:
            return {"content": _("No permission request is waiting for you.")}
        if seat in pd.allowed:
            return {"content": _("You have allowed this deletion; waiting for the others.")}
        if s.locking.endswith("-crash"):
            deny = _("If you deny, their program crashes.")
        else:
            deny = _("If you deny, their delete stops at your record.")
        if match.rec.deadline:
            when = f"<t:{int(match.rec.deadline)}:R>"
            deny += " " + _("No answer {time} counts as Deny.", time=when)
        embed = discord.Embed(
            title=_("Round {round}: allow the deletion?", round=s.round),
            description=_("{player} runs `{instruction}` and wants to delete record {record} ({piece}), "
                          "which holds your pointer. If it goes, your pointer goes to BOF. {deny}",
                          player=self._who(match, pd.seat), instruction=str(pd.instruction),
                          record=pd.record + 1, piece=str(pd.piece), deny=deny),
            colour=discord.Colour.from_rgb(*PIECE_COLOURS[s.colours[seat]]))
        tag = f"{s.round}.{s.turn}"
        view = v.view_of(
            v.button(match.id, None, f"an:{tag}:allow", label=pgettext("button", "Allow"),
                     style=discord.ButtonStyle.success),
            v.button(match.id, None, f"an:{tag}:deny", label=pgettext("button", "Deny"),
                     style=discord.ButtonStyle.danger))
        return {"content": "", "embed": embed, "view": view}
