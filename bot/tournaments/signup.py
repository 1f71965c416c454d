"""Creating an event and its sign-up: create, join, leave, and the start (by the organiser or the clock)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from bot.games import GAMES, two_player
from bot.i18n import _, ngettext, public
from bot.matches.service import Player
from bot.storage.tournaments import EntrantRecord, TournamentChange, TournamentRecord
from bot.tournaments import pairing as pairing_math
from bot.tournaments.core import (
    MAX_PLAYERS,
    MAX_ROUND_TIME,
    MIN_PLAYERS,
    MIN_ROUND_TIME,
    TournamentError,
    Transition,
)
from bot.tournaments.model import Format
from bot.tournaments.rounds import Rounds


class Signup(Rounds):
    """The tournament service's creation, sign-up and start actions."""

    async def create(self, *, guild_id: int, channel_id: int, organiser: Player, game: str, fmt: Format,
                     rounds: int | None, round_time: int, turn_limit: int | None, rated: bool,
                     starts_in: int) -> TournamentRecord:
        if game not in two_player():
            title = GAMES[game].spec.title if game in GAMES else game
            titles = [GAMES[k].spec.title for k in two_player()]
            raise TournamentError(
                _("{game} is not a 2-player game: tournaments are for {games} and {last} (events for more "
                  "players come later).", game=title, games=", ".join(titles[:-1]), last=titles[-1])
            )
        if not MIN_ROUND_TIME <= round_time <= MAX_ROUND_TIME:
            raise TournamentError(_("The round time must be between 1 minute and 14 days."))
        if rounds is not None and not 1 <= rounds <= 50:
            raise TournamentError(_("The number of rounds must be between 1 and 50."))
        if fmt.is_round_robin and rounds is not None:
            raise TournamentError(_("A round robin has as many rounds as it needs; leave `rounds` empty."))
        if not 0 <= starts_in <= 30 * 86400:
            raise TournamentError(_("The start must be within 30 days."))
        settings = await self.matches.settings(guild_id)
        limit = self.matches.check_turn_limit(turn_limit if turn_limit is not None else settings.turn_limit)
        limit = min(limit, round_time)
        now = self.clock()
        t = TournamentRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, message_id=None, organiser_id=organiser.user_id,
            game=game, format=fmt.value, rounds=rounds, round_time=round_time, turn_limit=limit, rated=rated,
            status="signup", current_round=0, starts_at=now + starts_in, deadline=now + starts_in,
            seed=secrets.token_hex(8), version=0, data={"organiser_name": organiser.name}, created_at=now,
            updated_at=now,
        )
        await self.store.create_tournament(t)
        self.on_deadline_change()
        return t

    async def join(self, tid: int, player: Player) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != "signup":
                raise TournamentError(_("Sign-up is closed: this tournament has already started or ended."))
            entrants = await self.store.entrants(tid)
            if any(e.user_id == player.user_id for e in entrants):
                raise TournamentError(_("You have already joined this tournament."))
            if len(entrants) >= MAX_PLAYERS:
                raise TournamentError(_("This tournament is full ({count} players).", count=MAX_PLAYERS))
            _settings, most = await self.store.tournament_settings(t.guild_id)
            mine = await self.store.active_tournaments_of_user(t.guild_id, player.user_id)
            if len(mine) >= most:
                raise TournamentError(ngettext(
                    "You are already in {n} event on this server (the most is {most}); withdraw from one "
                    "first.",
                    "You are already in {n} events on this server (the most is {most}); withdraw from one "
                    "first.",
                    len(mine), most=most))
            seed = max((e.seed for e in entrants), default=0) + 1
            entrant = EntrantRecord(player.user_id, player.name, seed, None, self.clock())
            await self._save(t, TournamentChange(add_entrants=[entrant]))
            return t

    async def leave(self, tid: int, user_id: int) -> TournamentRecord:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != "signup":
                raise TournamentError(_("The tournament has started: use `/tournament withdraw` instead."))
            if not any(e.user_id == user_id for e in await self.store.entrants(tid)):
                raise TournamentError(_("You have not joined this tournament."))
            await self._save(t, TournamentChange(remove_entrants=[user_id]))
            return t

    async def start(self, tid: int, user_id: int | None, *, is_admin: bool = False) -> Transition:
        """Start now: by the organiser (``user_id``), or by the start time (``None``).

        At the start time with fewer than 3 players the event is cancelled; the organiser's Start
        with fewer than 3 is refused and changes nothing.
        """
        async with self.lock(tid):
            t = await self.get(tid)
            if user_id is not None:
                self._check_organiser(t, user_id, is_admin)
            if t.status != "signup":
                raise TournamentError(_("This tournament has already started or ended."))
            entrants = await self.store.entrants(tid)
            if len(entrants) < MIN_PLAYERS:
                if user_id is not None:
                    raise TournamentError(_("A tournament needs at least {least} players to start ({count} "
                                            "signed up).", least=MIN_PLAYERS, count=len(entrants)))
                with public(t.guild_id):
                    reason = ngettext(
                        "Cancelled: only {n} player signed up by the start time (at least {least} are "
                        "needed).",
                        "Cancelled: only {n} players signed up by the start time (at least {least} are "
                        "needed).",
                        len(entrants), least=MIN_PLAYERS)
                tr = await self._cancel_locked(t, reason)
            else:
                tr = await self._start_event_locked(t, entrants)
        await self._after(tr)
        return tr

    async def _start_event_locked(self, t: TournamentRecord, entrants: list[EntrantRecord]) -> Transition:
        if True:
            fmt = Format(t.format)
            order = await self._seeding(t, entrants)
            n = len(order)
            if fmt.is_round_robin:
                t.rounds = pairing_math.round_robin_rounds(n, fmt is Format.DOUBLE_ROUND_ROBIN)
            else:
                t.rounds = min(
                    t.rounds or pairing_math.default_swiss_rounds(n), pairing_math.max_swiss_rounds(n)
                )
            t.data["order"] = order
            t.status = "running"
            return await self._start_round(t, 1)

    async def _seeding(self, t: TournamentRecord, entrants: Sequence[EntrantRecord]) -> list[int]:
        """Best rated first (conservative rating); the unrated after them in a seeded random order."""
        ids = pairing_math.seed_order([e.user_id for e in entrants], t.seed)
        ratings = await self.store.ratings(t.guild_id, t.game, ids)
        rank = {uid: i for i, uid in enumerate(ids)}
        return sorted(
            ids, key=lambda u: (-(ratings[u].ordinal if u in ratings and ratings[u].games else -1e9), rank[u])
        )
