"""What the tournament service asks to be shown: rounds, pairings (each a match), standings, the end."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.games import TITLES
from bot.i18n import LANGUAGES, N_, _, ngettext, public, speaking
from bot.matches.service import Result
from bot.render import png_bytes
from bot.storage.tournaments import TournamentRecord
from bot.tournaments.render import render_standings
from bot.tournaments.service import Started
from bot.tournaments.standings import Row, text_table
from cogs._game import game_cog, picture_file

if TYPE_CHECKING:
    pass
from bot.render.text import in_words
from cogs.tournament.common import COLOUR, NO_MENTIONS, PAGE, esc, log, mention
from cogs.tournament.signup import TournamentSignup

MEDALS = {1: ("🥇", N_("1st")), 2: ("🥈", N_("2nd")), 3: ("🥉", N_("3rd"))}


def points_count(half_points: int) -> int:
    """The number a points text agrees with: whole points as they are, a half (1½) always "points"."""
    return half_points // 2 if half_points % 2 == 0 else 2


def record(r: Row) -> str:
    """Wins-draws-losses, as the standings write them ("3-1-0")."""
    return f"{r.wins}-{r.draws}-{r.losses}"


def timestamp(when: float) -> str:
    """A time Discord shows relative to its reader ("in 2 hours")."""
    return f"<t:{int(when)}:R>"


def standings_alt(heading: str, sub: str, rows: Sequence[Row], names: dict[int, str]) -> str:
    """The standings picture in words, from the rows it draws: place, player, points, wins-draws-losses."""
    said = "; ".join(
        ngettext("{place} {player}, {points} point, {record}", "{place} {player}, {points} points, {record}",
                 points_count(r.points), place=r.place, player=names.get(r.player, "?"), points=r.points_text,
                 record=record(r))
        + (" " + _("(withdrew)") if r.withdrawn else "") for r in rows)
    return _("{heading}, {details}. Place, player, points, wins-draws-losses: {rows}.", heading=heading,
             details=sub, rows=said or _("nobody yet"))


def round_titles(tid: int, round_no: int) -> list[str]:
    """How a round's header post starts, in every language (the server's may have changed since)."""
    out = []
    for lang in LANGUAGES:
        with speaking(lang):
            out.append(_("Tournament #{id}: round {round} of {rounds}", id=tid, round=round_no,
                         rounds="\x00").split("\x00")[0])
    return out


class TournamentPresenter(TournamentSignup):
    """What the tournament service asks to be shown: rounds, pairings (each a match), standings, the end."""


    async def say(self, t: TournamentRecord, text: str, /, **kw: object) -> None:
        """Post ``text`` (marked with ``N_``, filled with ``kw``) in the event's channel, in the server's
        language."""
        channel = await self.channel_of(t)
        with public(t.guild_id):
            text = _(text, **kw)
        if channel is not None:
            try:
                await channel.send(text[:2000], allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                log.info("could not post to tournament %s's channel", t.id)

    async def standings_post(self, t: TournamentRecord, *, title: str | None = None,
                             page: int = 1) -> tuple[discord.Embed, discord.File]:
        """The table as a picture (32 players a page, so it stays readable in Discord) and as text."""
        st = await self.service.standing(t.id)
        pages = max(1, -(-len(st.rows) // PAGE))
        page = min(max(1, page), pages)
        rows = st.rows[(page - 1) * PAGE:]
        done = t.current_round if t.status in ("finished", "cancelled") else max(0, t.current_round - 1)
        sub = _("{game} · after round {done} of {rounds}", game=TITLES[t.game], done=done,
                rounds=t.rounds or "?")
        if pages > 1:
            sub += " · " + _("page {page} of {pages}", page=page, pages=pages)
        heading = title or _("Tournament #{id} standings", id=t.id)
        img = await asyncio.to_thread(
            render_standings, rows, st.names, st.format, title=heading, subtitle=sub, limit=PAGE
        )
        data = await asyncio.to_thread(png_bytes, img)
        table = text_table(rows, st.names, st.format, limit=PAGE)
        embed = discord.Embed(title=heading, description=f"{sub}\n```\n{table[:3900]}\n```", colour=COLOUR)
        return embed, picture_file(data, "standings.png", standings_alt(heading, sub, rows[:PAGE], st.names))

    async def round_started(self, t: TournamentRecord, round_no: int) -> None:
        """Post (in the background: a big round takes a while when paced) the round and its matches."""
        self.spawn(self._post_round(t.id, round_no))

    async def _post_round(self, tid: int, round_no: int, *, after_crash: bool = False) -> None:
        if (tid, round_no) in self._announcing:  # this process is posting that round already
            return
        self._announcing.add((tid, round_no))
        try:
            await self._post_round_once(tid, round_no, after_crash)
        finally:
            self._announcing.discard((tid, round_no))

    async def _already_announced(self, channel: Any, tid: int, round_no: int) -> bool:
        """Whether the round's header is among the channel's last messages (sent just before a crash)."""
        titles = tuple(round_titles(tid, round_no))
        try:
            async for m in channel.history(limit=50):
                if self.bot.user and m.author.id == self.bot.user.id and any(
                        (e.title or "").startswith(titles) for e in m.embeds):
                    return True
        except discord.HTTPException:
            return False
        return False

    async def _post_round_once(self, tid: int, round_no: int, after_crash: bool) -> None:
        t = await self.service.get(tid)
        channel = await self.channel_of(t)
        if round_no == 1:
            await self.signup_changed(t)
        if after_crash and channel is not None and await self._already_announced(channel, tid, round_no):
            await self.service.mark_announced(tid, round_no)
            t = await self.service.get(tid)
        if channel is not None and t.data.get("announced", 0) < round_no:
            await self._announce_round(channel, t, round_no)
            await self.service.mark_announced(tid, round_no)
        started = await self.service.materialise(tid)
        await self.post_pairings(started)

    async def _announce_round(self, channel: Any, t: TournamentRecord, round_no: int) -> None:
        """The standings so far (from round 2) and the round's pairings, in the server's language."""
        with public(t.guild_id):
            if round_no > 1:
                embed, file = await self.standings_post(t)
                await channel.send(embed=embed, file=file, allowed_mentions=NO_MENTIONS)
            st = await self.service.standing(t.id)
            pairs = await self.bot.store.pairings(t.id, round_no)
            lines = []
            for p in pairs:
                w = esc(st.names.get(p.white_id, "?"))
                if p.black_id is None:
                    lines.append(_("Bye: **{player}** (1 point)", player=w) if p.result == "bye"
                                 else _("{player}: no game", player=w))
                else:
                    b = esc(st.names.get(p.black_id, "?"))
                    note = "" if p.result is None else " · " + _("{result} (forfeit)", result=p.result)
                    pairing = _("{board}. **{white}** vs **{black}**", board=p.board, white=w, black=b)
                    lines.append(pairing + note)
            text = "\n".join(lines)
            if len(text) > 4000:
                text = text[:3990].rsplit("\n", 1)[0] + "\n…"
            embed = discord.Embed(
                title=_("Tournament #{id}: round {round} of {rounds}", id=t.id, round=round_no,
                        rounds=t.rounds),
                description=text + "\n\n" + _("Ends {time}. Each game has its own thread; the first named "
                                               "moves first.", time=timestamp(t.deadline or 0)),
                colour=COLOUR,
            )
            await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)

    async def post_started(self, started: list[Started]) -> None:
        self.spawn(self.post_pairings(started))

    async def post_pairings(self, started: list[Started]) -> None:
        for s in started:
            try:
                # claimed again right before posting: a big paced round takes a while, and another
                # process may have taken over a claim that grew old meanwhile
                if await self.service.claim_posting(s.match):
                    await self.post_pairing(s)
            except Exception:
                log.exception("posting the match of pairing %s/%s failed", s.pairing.round, s.pairing.board)
            finally:
                self.service.done_posting(s.match.id)

    async def post_pairing(self, s: Started) -> None:
        """The pairing's match, as any match: its own thread, a greeting that pings both, the live board."""
        m = s.match
        cog = game_cog(self.bot, m.rec.game)
        if cog is None:
            return
        settings = await self.bot.service.settings(m.rec.guild_id)
        parent = self.bot.get_channel(m.rec.channel_id)
        place: Any = None
        if m.rec.thread_id is not None:
            place = await cog.place_of(m)
        elif settings.use_threads and isinstance(parent, discord.TextChannel):
            await self.pacer.wait(parent.id)
            with public(m.rec.guild_id):
                name = _("R{round} · {white} vs {black}", round=s.pairing.round, white=m.seats[0].name,
                         black=m.seats[1].name)
            try:
                place = await parent.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440)
                await self.bot.service.set_place(m.id, thread_id=place.id)
                m.rec.thread_id = place.id
            except discord.HTTPException as exc:
                log.info("thread creation refused (%s); playing in the channel", exc)
                place = None
        if place is None:
            place = parent
            await self.pacer.wait(m.rec.channel_id)
        white, black = m.seats[0], m.seats[1]
        tid = m.rec.ui.get("tournament")
        turns = getattr(cog, "turns", None)
        if turns is not None:  # each player's /parlor notify choice: the board pings the first mover (or DMs)
            thread_seats, _dm = await turns.split(m, [s.seat for s in m.seats if s.seat not in m.to_act()])
            pinged = [m.seats[s].user_id for s in thread_seats]
        else:
            pinged = [white.user_id, black.user_id]
        with public(m.rec.guild_id):
            greeting = _("Tournament #{id}, round {round}, board {board}: {white} (moves first) vs {black}. "
                         "Good luck!", id=tid, round=s.pairing.round, board=s.pairing.board,
                         white=mention(white.user_id), black=mention(black.user_id))
        await place.send(
            greeting,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in pinged], everyone=False, roles=False
            ),
        )
        await cog.post_board(place, m, s.result)
        notify = getattr(cog, "notify_turn", None)
        if notify is not None:
            await notify(m, s.result)

    async def match_decided(self, result: Result) -> None:
        cog = self.bot.game_cogs.get(result.match.rec.game)
        if cog is not None:
            await cog.present_timeout(result)

    async def event_finished(self, t: TournamentRecord) -> None:
        self.spawn(self._post_final(t.id))

    async def _post_final(self, tid: int) -> None:
        t = await self.service.get(tid)
        channel = await self.channel_of(t)
        if channel is None:
            return
        st = await self.service.standing(tid)
        with public(t.guild_id):
            embed, file = await self.standings_post(t, title=_("Tournament #{id}: final standings", id=tid))
            podium = [r for r in st.rows if r.place <= 3][:3]
            winners = [r for r in st.rows if r.place == 1]
            lead = in_words([f"**{esc(st.names.get(r.player, '?'))}**" for r in winners])
            top = winners[0] if winners else None
            lines = ["🏆 " + ngettext("Winner: {players} with {points} point!",
                                     "Winner: {players} with {points} points!",
                                     points_count(top.points), players=lead, points=top.points_text)
                     if top is not None else _("No winner.")]
            lines += [f"{MEDALS[r.place][0]} {_(MEDALS[r.place][1])}: {esc(st.names.get(r.player, '?'))} "
                      f"({r.points_text})" for r in podium]
        await channel.send(
            content="\n".join(lines)[:2000], embed=embed, file=file, allowed_mentions=NO_MENTIONS
        )
        await self.signup_changed(t)

    async def event_cancelled(self, t: TournamentRecord, reason: str) -> None:
        with public(t.guild_id):  # the service's reasons are marked N_ (English here when they are not)
            reason = _(reason)
        await self.say(t, N_("Tournament #{id} ({game}): {reason}"), id=t.id, game=TITLES[t.game],
                       reason=reason)
        await self.signup_changed(t)
