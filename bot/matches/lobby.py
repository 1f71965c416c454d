"""Creating matches and running their lobby: challenge, accept/decline, join/leave, start."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

from bot.errors import LobbyError, NotAPlayer
from bot.games import GAMES
from bot.games.base import Event
from bot.i18n import _, ngettext, public
from bot.matches.changes import note as note_changed
from bot.matches.core import ServiceCore
from bot.matches.match import (
    CHALLENGE_EXPIRY,
    CLOCKS,
    MAX_TURN_LIMIT,
    MIN_TURN_LIMIT,
    Match,
    Player,
    Result,
    engine_options,
)
from bot.storage import MatchRecord, MoveRecord, SeatRecord, Status


class Lobby(ServiceCore):
    """The match service's creation and lobby actions."""

    @staticmethod
    def check_turn_limit(seconds: int) -> int:
        if not MIN_TURN_LIMIT <= seconds <= MAX_TURN_LIMIT:
            raise LobbyError(_("The turn limit must be between {least} seconds and 14 days.",
                               least=MIN_TURN_LIMIT))
        return seconds

    @staticmethod
    def check_expiry(seconds: int | None) -> int:
        if seconds is None:
            return CHALLENGE_EXPIRY
        if not 60 <= seconds <= MAX_TURN_LIMIT:
            raise LobbyError(_("An invitation must stay open between 1 minute and 14 days."))
        return seconds

    async def create(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: Player,
        opponent: Player | None,
        options: Mapping[str, str],
        turn_limit: int | None,
        expires: int | None = None,
    ) -> Match:
        """A direct challenge (``opponent`` given) or an open lobby (no opponent).

        Against the bot (``opponent.ai_level`` set) the match starts at once. The invitation waits
        ``expires`` seconds (default 15 minutes), independent of the turn limit.
        """
        g = GAMES[game]
        spec = g.rules.spec
        settings = await self.settings(guild_id)
        limit = self.check_turn_limit(turn_limit if turn_limit is not None else settings.turn_limit)
        if opponent is not None:
            if opponent.user_id == host.user_id and opponent.ai_level is None:
                raise LobbyError(_("You cannot challenge yourself; leave `opponent` empty to open a lobby."))
            if opponent.ai_level is not None and opponent.ai_level not in spec.ai_levels:
                if not spec.ai_levels:
                    raise LobbyError(_("{game} has no computer opponent.", game=spec.title))
                raise LobbyError(_("Unknown level {level}; choose {levels}.", level=repr(opponent.ai_level),
                                   levels=", ".join(spec.ai_levels)))
            if spec.min_seats > 2:
                raise LobbyError(
                    _("{game} needs at least {least} players: open a lobby instead.", game=spec.title,
                      least=spec.min_seats)
                )
        # validate the engine options now, so a bad option never creates a match
        engine_opts = engine_options(options)
        try:
            g.rules.initial(engine_opts, max(spec.min_seats, 2))
        except ValueError as exc:
            raise LobbyError(str(exc)) from None
        now = self.clock()
        seats = [SeatRecord(0, host.user_id, host.name)]
        if opponent is not None:
            seats.append(SeatRecord(1, opponent.user_id, opponent.name, opponent.ai_level))
        vs_bot = opponent is not None and opponent.ai_level is not None
        rec = MatchRecord(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            message_id=None,
            status=Status.CHALLENGE if opponent is not None else Status.LOBBY,
            options=dict(options),
            state=None,
            version=0,
            seed=secrets.token_hex(8),
            host_id=host.user_id,
            rated=not vs_bot and g.spec.rated,
            turn_limit=limit,
            deadline=now + self.check_expiry(expires),
            clocks=None,
            outcome=None,
            ui={},
            created_at=now,
            updated_at=now,
            finished_at=None,
            seats=seats,
        )
        await self.store.create_match(rec)
        note_changed(rec.id)
        await self.store.set_board_version(rec.id, rec.version)
        m = Match(rec)
        self.on_deadline_change()
        if vs_bot:
            result = await self.start(m.id, host.user_id)
            return result.match
        return m

    async def accept(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.CHALLENGE:
                raise LobbyError(_("This challenge is no longer open."))
            if len(m.seats) < 2 or m.seats[1].user_id != user_id:
                raise NotAPlayer(_("Only the challenged player can accept."))
            return await self._start(m)

    async def decline(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.CHALLENGE:
                raise LobbyError(_("This challenge is no longer open."))
            if m.seats[1].user_id != user_id:
                raise NotAPlayer(_("Only the challenged player can decline."))
            with public(m.rec.guild_id):
                said = _("{player} declined.", player=m.seats[1].name)
            return await self._close(m, Status.DECLINED, said)

    async def cancel(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if not m.status.is_open:
                raise LobbyError(_("This match has already started or ended."))
            if m.rec.host_id != user_id:
                raise NotAPlayer(_("Only the player who opened it can cancel."))
            with public(m.rec.guild_id):
                said = _("{player} cancelled.", player=m.seats[0].name)
            return await self._close(m, Status.CANCELLED, said)

    async def join(self, match_id: int, player: Player) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            spec = m.spec
            if m.status == Status.RUNNING and spec.max_seats is None:
                return await self._join_running(m, player)
            if m.status != Status.LOBBY:
                raise LobbyError(_("This lobby is closed."))
            if m.seat_of(player.user_id) is not None:
                raise LobbyError(_("You are already in this lobby."))
            if spec.max_seats is not None and len(m.seats) >= spec.max_seats:
                raise LobbyError(ngettext("This lobby is full ({n} player).",
                                          "This lobby is full ({n} players).", spec.max_seats))
            expected = m.version
            m.rec.seats.append(SeatRecord(len(m.seats), player.user_id, player.name, None))
            m.rec.version += 1
            await self._save(m, expected)
            with public(m.rec.guild_id):
                said = _("{player} joined.", player=player.name)
            return Result(m, message=said)

    async def _join_running(self, m: Match, player: Player) -> Result:
        """Open-ended games (Nomic World) take new players while running, through a join move."""
        if m.seat_of(player.user_id) is not None:
            raise LobbyError(_("You are already playing in this match."))
        expected = m.version
        seat = len(m.seats)
        m.rec.seats.append(SeatRecord(seat, player.user_id, player.name, None))
        join = getattr(m.game.module, "join_move", None)
        if join is None:
            raise LobbyError(_("This game does not take players once it has started."))
        return await self._apply(
            m, seat, join(m.state, seat, player.user_id, player.name), expected, user_id=player.user_id
        )

    async def leave(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.LOBBY:
                raise LobbyError(_("The match has started: use resign instead."))
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(_("You are not in this lobby."))
            if user_id == m.rec.host_id:
                with public(m.rec.guild_id):
                    said = _("{player} (the host) left; lobby closed.", player=m.seats[seat].name)
                return await self._close(m, Status.CANCELLED, said)
            expected = m.version
            name = m.seats[seat].name
            del m.rec.seats[seat]
            for i, s in enumerate(m.rec.seats):
                s.seat = i
            m.rec.version += 1
            await self._save(m, expected)
            with public(m.rec.guild_id):
                said = _("{player} left.", player=name)
            return Result(m, message=said)

    async def update_seat_data(self, match_id: int, user_id: int, data: Mapping[str, Any]) -> Match:
        """Store per-seat lobby choices (e.g. an EOF colour)."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status != Status.LOBBY:
                raise LobbyError(_("The lobby is closed."))
            seat = m.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(_("Join the lobby first."))
            expected = m.version
            m.seats[seat].data.update(data)
            m.rec.version += 1
            await self._save(m, expected)
            return m

    async def start(self, match_id: int, user_id: int) -> Result:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status == Status.RUNNING:
                raise LobbyError(_("This match has already started."))
            if not m.status.is_open:
                raise LobbyError(_("This lobby is closed."))
            if user_id != m.rec.host_id:
                raise NotAPlayer(_("Only the host can start the match."))
            if len(m.seats) < m.spec.min_seats:
                raise LobbyError(_("{game} needs at least {least} players to start.", game=m.spec.title,
                                   least=m.spec.min_seats))
            return await self._start(m)

    async def begin(self, match_id: int) -> Result:
        """Start a match whose seats were filled by the platform (a tournament pairing), in seat order.

        Idempotent: an already running match is returned as it is (``started`` False).
        """
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.status == Status.RUNNING:
                return Result(m)
            if m.status != Status.LOBBY:
                raise LobbyError(_("This match can no longer start."))
            return await self._start(m)

    async def _start(self, m: Match) -> Result:
        expected = m.version
        rng = random.Random(f"{m.rec.seed}:seating")
        first = m.options.get("first", "challenger")
        seats = list(m.rec.seats)
        if len(seats) == 2 and (first == "opponent" or (first == "random" and rng.random() < 0.5)):
            seats.reverse()
        for i, s in enumerate(seats):
            s.seat = i
        m.rec.seats = seats
        engine_opts = engine_options(m.options)
        setup = getattr(m.game.module, "setup_options", None)
        if setup is not None:  # games that need the seats in their options (EOF colours, Nomic names)
            engine_opts = setup(engine_opts, m.rec.seats)
        try:
            m.state = m.rules.initial(engine_opts, len(seats))
        except ValueError as exc:
            raise LobbyError(str(exc)) from None
        m.rec.status = Status.RUNNING
        m.rec.ui["start_seats"] = len(seats)
        m.rec.version += 1
        now = self.clock()
        clock = m.options.get("clock")
        if clock in CLOCKS:
            m.rec.clocks = {"remaining": [CLOCKS[clock]] * len(seats), "running": None, "since": None}
        moves: list[MoveRecord] = []
        events: list[Event] = []
        opening = getattr(m.game.module, "opening_moves", None)
        if opening is not None:  # games whose engine learns its players by moves (Nomic World's joins)
            for seat, text in opening(m.rec.seats):
                move = m.rules.parse(text, m.state, seat)
                before = m.state
                m.state, evs = self._engine_apply(m, seat, move)
                events.extend(evs)
                moves.append(
                    MoveRecord(
                        len(moves),
                        seat,
                        m.rec.seats[seat].user_id if seat >= 0 else None,
                        m.rules.format(move, before),
                        now,
                    )
                )
        events += self._settle(m, moves, now)
        self._arm(m, now)
        rate = self._finish_if_over(m)
        await self._save(m, expected, moves=moves, rate=rate)
        return Result(m, events=events, moves=moves, started=True, finished=m.status == Status.FINISHED)
