"""What the tournament service asks to be shown: rounds, pairings (each a match), standings, the end."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.games import TITLES
from bot.matches.service import Result
from bot.render import png_bytes
from bot.storage.tournaments import TournamentRecord
from bot.tournaments.render import render_standings
from bot.tournaments.service import Started
from bot.tournaments.standings import Row, text_table
from cogs._game import game_cog, picture_file

if TYPE_CHECKING:
    pass
from cogs.tournament.common import COLOUR, NO_MENTIONS, PAGE, esc, log
from cogs.tournament.signup import TournamentSignup


def standings_alt(heading: str, sub: str, rows: Sequence[Row], names: dict[int, str]) -> str:
    """The standings picture in words, from the rows it draws: place, player, points, wins-draws-losses."""
    said = "; ".join(f"{r.place} {names.get(r.player, '?')}, {r.points_text} "
                     f"point{'' if r.points == 2 else 's'}, {r.wins}-{r.draws}-{r.losses}"
                     f"{' (withdrew)' if r.withdrawn else ''}" for r in rows)
    return f"{heading}, {sub}. Place, player, points, wins-draws-losses: {said or 'nobody yet'}."


class TournamentPresenter(TournamentSignup):
    """What the tournament service asks to be shown: rounds, pairings (each a match), standings, the end."""


    async def say(self, t: TournamentRecord, text: str) -> None:
        channel = await self.channel_of(t)
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
        sub = f"{TITLES[t.game]} · after round {done} of {t.rounds or '?'}" + (
            f" · page {page} of {pages}" if pages > 1 else "")
        heading = title or f"Tournament #{t.id} standings"
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
        title = f"Tournament #{tid}: round {round_no} of "
        try:
            async for m in channel.history(limit=50):
                if self.bot.user and m.author.id == self.bot.user.id and any(
                        (e.title or "").startswith(title) for e in m.embeds):
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
            if round_no > 1:
                embed, file = await self.standings_post(t)
                await channel.send(embed=embed, file=file, allowed_mentions=NO_MENTIONS)
            st = await self.service.standing(tid)
            pairs = await self.bot.store.pairings(tid, round_no)
            lines = []
            for p in pairs:
                w = esc(st.names.get(p.white_id, "?"))
                if p.black_id is None:
                    lines.append(f"Bye: **{w}** (1 point)" if p.result == "bye" else f"{w}: no game")
                else:
                    b = esc(st.names.get(p.black_id, "?"))
                    note = "" if p.result is None else f" · {p.result} (forfeit)"
                    lines.append(f"{p.board}. **{w}** vs **{b}**{note}")
            text = "\n".join(lines)
            if len(text) > 4000:
                text = text[:3990].rsplit("\n", 1)[0] + "\n…"
            embed = discord.Embed(
                title=f"Tournament #{tid}: round {round_no} of {t.rounds}",
                description=f"{text}\n\nEnds <t:{int(t.deadline or 0)}:R>. Each game has its own "
                "thread; the first named moves first.",
                colour=COLOUR,
            )
            await channel.send(embed=embed, allowed_mentions=NO_MENTIONS)
            await self.service.mark_announced(tid, round_no)
        started = await self.service.materialise(tid)
        await self.post_pairings(started)

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
            names = " vs ".join(x.name for x in m.seats)
            try:
                place = await parent.create_thread(
                    name=f"R{s.pairing.round} · {names}"[:100], type=discord.ChannelType.public_thread,
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
            thread_seats, _ = await turns.split(m, [s.seat for s in m.seats if s.seat not in m.to_act()])
            pinged = [m.seats[s].user_id for s in thread_seats]
        else:
            pinged = [white.user_id, black.user_id]
        await place.send(
            f"Tournament #{tid}, round {s.pairing.round}, board {s.pairing.board}: <@{white.user_id}> "
            "(moves first) "
            f"vs <@{black.user_id}>. Good luck!",
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
        embed, file = await self.standings_post(t, title=f"Tournament #{tid}: final standings")
        podium = [r for r in st.rows if r.place <= 3][:3]
        medals = {1: "🥇 1st", 2: "🥈 2nd", 3: "🥉 3rd"}
        winners = [r for r in st.rows if r.place == 1]
        lead = " and ".join(f"**{esc(st.names.get(r.player, '?'))}**" for r in winners)
        lines = [f"🏆 Winner: {lead} with {winners[0].points_text} points!" if winners else "No winner."]
        lines += [f"{medals[r.place]}: {esc(st.names.get(r.player, '?'))} ({r.points_text})" for r in podium]
        await channel.send(
            content="\n".join(lines)[:2000], embed=embed, file=file, allowed_mentions=NO_MENTIONS
        )
        await self.signup_changed(t)

    async def event_cancelled(self, t: TournamentRecord, reason: str) -> None:
        await self.say(t, f"Tournament #{t.id} ({TITLES[t.game]}): {reason}")
        await self.signup_changed(t)
