"""Match records (``docs/record-format.md``): the **Record** button under a finished match's end-of-match
message sends its record as a ``.txt`` file, privately; ``/<game> import record:`` replays such a file
through the engine and shows its final position, privately, storing nothing.

The record comes from the stored move log through the engine (:func:`bot.records.from_match`). An import
refuses, with a short private answer naming the line or the move and the engine's reason, a file that is
too large, not text, malformed, of another game or with a move that is not legal where it stands.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot import records
from bot.config import parlor_version
from bot.errors import LobbyError
from bot.games import GAMES
from bot.games.base import CHANCE
from bot.i18n import _, ngettext
from bot.matches.service import Match, Result
from bot.names import shown, versus
from bot.storage import MatchRecord, SeatRecord, Status
from cogs import _views as v
from cogs._game.base import COLOUR_END, COLOUR_INFO, NO_MENTIONS, match_tag, picture_file
from cogs._game.board import BoardCog
from cogs._game.invite import option_text

RECORD_ACTION = "record"
"""The component action of the Record button (version-free: it works on any old end-of-match message)."""
PICTURE = "board.png"


class RecordsCog(BoardCog):
    """The Record button and ``/<game> import``."""

    # -- export ----------------------------------------------------------------------------------------

    async def record_text(self, match: Match) -> str:
        """The record of ``match`` from its stored move log (only once it is over: no hidden move leaks)."""
        if match.status.is_active:
            raise LobbyError(_("The record can be downloaded once the match is over."))
        return records.dumps(records.from_match(match.rec, await self.service.history(match.id),
                                                parlor=parlor_version()))

    async def record_file(self, match: Match) -> discord.File:
        """The record as ``<game>-<match>.txt``, e.g. for a reply that offers the whole game."""
        data = (await self.record_text(match)).encode()
        return discord.File(io.BytesIO(data), filename=f"{self.game_key}-{match.id}.txt")

    def rematch_view(self, match: Match) -> discord.ui.View:
        """The end-of-match message's buttons, and **Record** after them (tournament pairings too)."""
        view = super().rematch_view(match)
        view.add_item(v.button(match.id, None, RECORD_ACTION, label=_("Record"), emoji="📄"))
        return view

    async def send_record(self, interaction: discord.Interaction, match: Match) -> None:
        """The Record button: the file, only for whoever clicked (1 request)."""
        file = await self.record_file(match)
        await interaction.response.send_message(
            _("The record of {game} #{match}: replay it with `/{command} import`.", game=self.spec.title,
              match=match.id, command=self.game_key),
            file=file, ephemeral=True, allowed_mentions=NO_MENTIONS)

    # -- import ----------------------------------------------------------------------------------------

    @app_commands.command(
        name="import",
        description="Replay a record file and see its final position "
                    "(only you see it; nothing is stored)",
    )
    @app_commands.describe(
        record=(
            "A record (.txt) from the Record button under a finished match"
        ),
    )
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment) -> None:
        if record.size > records.MAX_BYTES:  # refused before downloading anything
            raise records.RecordError(_("The record is too large: {size} KB (at most {most} KB).",
                                        size=record.size // 1024, most=records.MAX_BYTES // 1024))
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await record.read()
        embed, png = await asyncio.to_thread(self.imported, data)
        await interaction.followup.send(embed=embed, file=picture_file(png, PICTURE), ephemeral=True,
                                        allowed_mentions=NO_MENTIONS)

    def imported(self, data: bytes) -> tuple[discord.Embed, bytes]:
        """Worker thread: read, check and replay a record; its final position as an embed and a picture.

        Raises:
            RecordError: what is wrong with the file (see :func:`bot.records.loads` and ``replay``).
        """
        record = records.loads(data)
        if record.game != self.game_key:
            other = GAMES[record.game].spec.title
            raise records.RecordError(_("That is a record of {other}, not {game}: use `/{command} import` "
                                        "for it.", other=other, game=self.spec.title, command=record.game))
        done = records.replay(record)
        match = self.replayed_match(done)
        result: Result | None = Result(match, events=list(done.events))
        if not self.picture_name(match, result).endswith(".png"):  # an animation: the still board instead
            result = None
        return self.record_embed(match, done), self._picture_bytes(match, result, PICTURE)

    def replayed_match(self, done: records.Replayed) -> Match:
        """An unsaved match holding the replayed position, so the board is drawn exactly as a match's is."""
        record = done.record
        rules = done.game.rules
        over = done.outcome is not None
        rec = MatchRecord(
            id=int(record.match) if record.match.isdigit() else 0, game=record.game, guild_id=None,
            channel_id=0, thread_id=None, message_id=None,
            status=Status.FINISHED if over else Status.RUNNING,
            options={**record.options, **record.platform}, state=rules.dump(done.state), version=0,
            seed=record.seed, host_id=0, rated=False, turn_limit=0, deadline=None, clocks=None,
            outcome=done.outcome.dump() if done.outcome is not None else None,
            ui={"plies": done.plies, "start_seats": record.start_seats}, created_at=0.0, updated_at=0.0,
            finished_at=None, seats=[SeatRecord(i, 0, name) for i, name in enumerate(record.players)],
        )
        return Match(rec)

    def record_embed(self, match: Match, done: records.Replayed) -> discord.Embed:
        record = done.record
        names = versus(self.seat_label(match, s.seat) for s in match.seats)
        if match.status == Status.FINISHED:
            state = self.status_line(match)
        else:
            who = self.rules.to_act(match.state)
            seats = sorted(who) if isinstance(who, frozenset) else []
            waiting = ", ".join(self.seat_label(match, s) for s in seats if s < len(match.seats))
            state = (_("Not finished: {players} to move.", players=waiting) if waiting
                     else _("Not finished."))
        chances = sum(1 for mv in record.moves if mv.seat == CHANCE)
        if chances:
            outcomes = ngettext("{n} chance outcome", "{n} chance outcomes", chances)
            replayed = ngettext("Replayed {n} move ({outcomes}) through the engine: the final position. "
                                "Nothing was stored.",
                                "Replayed {n} moves ({outcomes}) through the engine: the final position. "
                                "Nothing was stored.", done.plies, outcomes=outcomes)
        else:
            replayed = ngettext("Replayed {n} move through the engine: the final position. Nothing was "
                                "stored.",
                                "Replayed {n} moves through the engine: the final position. Nothing was "
                                "stored.", done.plies)
        lines = [state, replayed]
        lines += [_("Note: {note}", note=shown(note)) for note in record.notes[:3]]
        embed = discord.Embed(title=_("{game} record · {players}", game=self.spec.title, players=names)[:256],
                              description="\n".join(lines)[:4000],
                              colour=COLOUR_END if match.status == Status.FINISHED else COLOUR_INFO)
        facts = [match_tag(record.match) if record.match else "", record.date,
                 " · ".join(option_text(k, v) for k, v in record.options.items())]
        embed.set_footer(text=" · ".join(f for f in facts if f)[:2048] or None)
        return embed
