"""A Hypothesis state machine drives the match service (join/leave/start/move/resign/timeout/double clicks)
against real SQLite and PostgreSQL and checks the platform's invariants after every step:

* the version strictly increases with every accepted action and never changes on a refused one;
* the stored state is exactly the replay of the append-only move log;
* a finished rated match has exactly one rating-history row per player, written once;
* refused actions (wrong player, stale version, closed lobby...) change nothing.
"""

import asyncio
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bot.errors import ParlorError
from bot.games.base import GameError
from bot.matches.service import MatchService, Player
from bot.storage import Status
from bot.storage.sqlite import SqliteStore

PLAYERS = [Player(i, f"p{i}") for i in range(1, 5)]


class Clock:
    t = 1_000_000.0

    def __call__(self):
        return self.t


class ServiceMachine(RuleBasedStateMachine):
    @initialize(game=st.sampled_from(["pylon", "eggcarton", "fireandice"]), started=st.booleans())
    def setup(self, game, started):
        self.loop = asyncio.new_event_loop()
        self.dir = tempfile.TemporaryDirectory()
        self.store = self.make_store()
        self.run(self.store.open())
        self.clock = Clock()
        self.svc = MatchService(self.store, clock=self.clock)
        m = self.run(self.svc.create(game, guild_id=1, channel_id=2, host=PLAYERS[0], opponent=None,
                                     options={}, turn_limit=60))
        self.match_id = m.id
        if started:  # most runs should spend their steps in a running match
            self.run(self.svc.join(m.id, PLAYERS[1]))
            self.run(self.svc.start(m.id, PLAYERS[0].user_id))
        self.version = self.current().version
        self.rng = random.Random(0)

    def make_store(self):
        return SqliteStore(str(Path(self.dir.name) / "m.sqlite3"))

    def teardown(self):
        if hasattr(self, "loop"):
            self.run(self.store.close())
            self.loop.close()
            self.dir.cleanup()

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    def current(self):
        return self.run(self.svc.get(self.match_id))

    def attempt(self, coro):
        """Run an action; accepted → version grew; refused → nothing changed."""
        before = self.current()
        try:
            self.run(coro)
        except (ParlorError, GameError):
            after = self.current()
            assert after.version == before.version
            assert after.rec.state == before.rec.state
            return False
        after = self.current()
        assert after.version > before.version
        self.version = after.version
        return True

    @rule(p=st.sampled_from(PLAYERS))
    def join(self, p):
        self.attempt(self.svc.join(self.match_id, p))

    @rule(p=st.sampled_from(PLAYERS))
    def leave(self, p):
        self.attempt(self.svc.leave(self.match_id, p.user_id))

    @rule(p=st.sampled_from(PLAYERS))
    def start(self, p):
        self.attempt(self.svc.start(self.match_id, p.user_id))

    @precondition(lambda self: self.current().status == Status.RUNNING)
    @rule(data=st.data())
    def legal_move(self, data):
        m = self.current()
        seat = sorted(m.to_act())[0]
        moves = m.rules.legal_moves(m.state, seat)
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        assert self.attempt(self.svc.play(self.match_id, m.seats[seat].user_id, m.rules.format(move, m.state),
                                          expected_version=m.version))

    @precondition(lambda self: self.current().status == Status.RUNNING)
    @rule(p=st.sampled_from(PLAYERS), text=st.sampled_from(["L a1", "c3-c4", "A", "N", "D4-A4", "zz", ""]))
    def any_move(self, p, text):
        self.attempt(self.svc.play(self.match_id, p.user_id, text or "?"))

    @precondition(lambda self: self.current().status == Status.RUNNING and self.current().version > 1)
    @rule()
    def stale_click(self):
        m = self.current()
        seat = sorted(m.to_act())[0]
        move = m.rules.legal_moves(m.state, seat)[0]
        assert not self.attempt(
            self.svc.play(
                self.match_id,
                m.seats[seat].user_id,
                m.rules.format(move, m.state),
                expected_version=m.version - 1,
            )
        )

    @rule(p=st.sampled_from(PLAYERS))
    def resign(self, p):
        self.attempt(self.svc.resign(self.match_id, p.user_id))

    @rule(seconds=st.sampled_from([10, 61]))
    def time_passes(self, seconds):
        self.clock.t += seconds
        before = self.current()
        result = self.run(self.svc.expire(self.match_id))
        after = self.current()
        if result is None:
            assert after.version == before.version
        else:
            assert after.version > before.version

    @invariant()
    def log_replays_to_the_stored_state(self):
        if not hasattr(self, "svc"):
            return
        m = self.current()
        event(f"status {m.status.value}")
        if m.state is not None:
            assert self.run(self.svc.replay(self.match_id)) == m.state

    @invariant()
    def finished_means_rated_once(self):
        if not hasattr(self, "svc"):
            return
        m = self.current()

        async def rows():
            async with self.store._read() as db:
                return [r[0] for r in await db.fetch("SELECT user_id FROM rating_history WHERE match_id = ?",
                                                     self.match_id)]

        got = self.run(rows())
        if m.status == Status.FINISHED and m.rec.rated:
            assert sorted(got) == sorted(s.user_id for s in m.seats)
        else:
            assert got == []


class PgServiceMachine(ServiceMachine):
    """The same machine on PostgreSQL (a fresh schema per example)."""

    session = None

    def make_store(self):
        from bot.storage.postgres import PostgresStore

        url, _ = self.session.fresh_schema_url()
        return PostgresStore(url, max_size=4)


TestServiceMachine = ServiceMachine.TestCase
TestServiceMachine.settings = settings(max_examples=40, stateful_step_count=30, deadline=None,
                                       suppress_health_check=[HealthCheck.too_slow])
TestPgServiceMachine = PgServiceMachine.TestCase
TestPgServiceMachine.settings = settings(max_examples=20, stateful_step_count=30, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def _postgres_for_the_pg_machine(request):
    if request.cls is TestPgServiceMachine:
        PgServiceMachine.session = request.getfixturevalue("pg_session")
pytestmark = pytest.mark.property
