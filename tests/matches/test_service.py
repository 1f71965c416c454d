"""The match service: lifecycle, turn checks, version checks, time, ratings —
on real SQLite and PostgreSQL."""

import pytest

from bot.errors import LobbyError, MatchOver, NotAPlayer, NotYourTurn, StaleBoard
from bot.games.base import IllegalMove, InvalidNotation
from bot.matches.match import Ply
from bot.matches.service import MatchService, Player
from bot.storage import Status
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")


class Clock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture
async def env(any_store, tmp_path):
    store = any_store
    clock = Clock()
    svc = MatchService(store, clock=clock)
    yield svc, clock, tmp_path


async def challenge(svc, **opts):
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB,
                         options={"first": "challenger", **opts}, turn_limit=60)
    return (await svc.accept(m.id, BOB.user_id)).match


async def test_challenge_accept_starts_with_challenger_first(env):
    svc, _, _ = env
    m = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=60
    )
    assert m.status == Status.CHALLENGE
    with pytest.raises(NotAPlayer):
        await svc.accept(m.id, CAROL.user_id)
    with pytest.raises(NotAPlayer):
        await svc.accept(m.id, ALICE.user_id)
    r = await svc.accept(m.id, BOB.user_id)
    assert r.started and r.match.status == Status.RUNNING
    assert r.match.to_act() == {0} and r.match.seats[0].user_id == ALICE.user_id


async def test_first_opponent_swaps_seats(env):
    svc, _, _ = env
    m = await challenge(svc, first="opponent")
    assert m.seats[0].user_id == BOB.user_id


async def test_decline_and_cancel(env):
    svc, _, _ = env
    m = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=60
    )
    with pytest.raises(NotAPlayer):
        await svc.cancel(m.id, BOB.user_id)
    assert (await svc.decline(m.id, BOB.user_id)).match.status == Status.DECLINED
    with pytest.raises(LobbyError):
        await svc.accept(m.id, BOB.user_id)
    m2 = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=60
    )
    assert (await svc.cancel(m2.id, ALICE.user_id)).match.status == Status.CANCELLED


async def test_lobby_join_leave_start(env):
    svc, _, _ = env
    m = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=None, options={}, turn_limit=60
    )
    with pytest.raises(LobbyError, match="at least 2"):
        await svc.start(m.id, ALICE.user_id)
    await svc.join(m.id, BOB)
    with pytest.raises(LobbyError, match="already"):
        await svc.join(m.id, BOB)
    with pytest.raises(LobbyError, match="full"):
        await svc.join(m.id, CAROL)
    await svc.leave(m.id, BOB.user_id)
    await svc.join(m.id, CAROL)
    with pytest.raises(NotAPlayer, match="host"):
        await svc.start(m.id, CAROL.user_id)
    r = await svc.start(m.id, ALICE.user_id)
    assert [s.name for s in r.match.seats] == ["alice", "carol"]


async def test_turn_checks_and_illegal_moves_change_nothing(env):
    svc, _, _ = env
    m = await challenge(svc)
    with pytest.raises(NotYourTurn, match="alice"):
        await svc.play(m.id, BOB.user_id, "L a1")
    with pytest.raises(NotAPlayer):
        await svc.play(m.id, CAROL.user_id, "L a1")
    with pytest.raises(InvalidNotation):
        await svc.play(m.id, ALICE.user_id, "Lz9")
    r = await svc.play(m.id, ALICE.user_id, "L a1")
    with pytest.raises(IllegalMove):
        await svc.play(m.id, BOB.user_id, "S a1")
    after = await svc.get(m.id)
    assert after.version == r.match.version
    assert [mv.notation for mv in await svc.history(m.id)] == ["L a1"]


async def test_stale_version_is_refused(env):
    svc, _, _ = env
    m = await challenge(svc)
    v = m.version
    await svc.play(m.id, ALICE.user_id, "L a1", expected_version=v)
    with pytest.raises(StaleBoard, match="out of date"):
        await svc.play(m.id, BOB.user_id, "L a2", expected_version=v)


async def test_double_click_applies_once(env):
    import asyncio

    svc, _, _ = env
    m = await challenge(svc)
    results = await asyncio.gather(*(svc.play(m.id, ALICE.user_id, "L a1", expected_version=m.version)
                                     for _ in range(2)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, StaleBoard) for r in results)
    assert len(await svc.history(m.id)) == 1


async def test_resign_rates_the_leaver_last_once(env):
    svc, _, _ = env
    m = await challenge(svc)
    r = await svc.resign(m.id, ALICE.user_id)
    assert r.finished and r.match.outcome.winners == {1}
    top = await svc.store.top_ratings(9, "pylon")
    assert [row.user_id for row in top] == [BOB.user_id, ALICE.user_id]
    with pytest.raises(MatchOver):
        await svc.resign(m.id, BOB.user_id)
    assert (await svc.store.ratings(9, "pylon", [BOB.user_id]))[BOB.user_id].games == 1


async def test_turn_limit_forfeits_the_player_to_move(env):
    svc, clock, _ = env
    m = await challenge(svc)
    await svc.play(m.id, ALICE.user_id, "L a1")
    clock.t += 30
    assert await svc.expire(m.id) is None  # not due yet
    clock.t += 31
    r = await svc.expire(m.id)
    assert r.finished and r.match.outcome.winners == {0}
    assert "bob did not move" in r.match.outcome.detail


async def test_challenge_expires(env):
    svc, clock, _ = env
    # a challenge waits for its own time (default 15 minutes), not the turn limit (issue 12)
    m = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=60
    )
    clock.t += 61
    assert await svc.store.due_matches(clock()) == []
    clock.t += 15 * 60
    assert await svc.store.due_matches(clock()) == [m.id]
    r = await svc.expire(m.id)
    assert r.match.status == Status.EXPIRED


async def test_against_the_bot_starts_at_once_and_is_unrated(env):
    svc, _, _ = env
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=ALICE,
                         opponent=Player(99, "Parlor (easy)", "easy"), options={}, turn_limit=60)
    assert m.status == Status.RUNNING and not m.rec.rated
    await svc.play(m.id, ALICE.user_id, "L a1")
    r = await svc.ai_move(m.id)
    assert r is not None and r.actor == 1
    assert len(await svc.history(m.id)) == 2


async def test_a_move_and_the_computers_replies_combined_keep_every_ply_in_order(env):
    """Result.then (the human's move and the computer's answer sent as one): every ply's state before and
    events stay, in order, for pictures that play them all; events/before/actor are the last ply's."""
    svc, _, _ = env
    m = await svc.create("eggcarton", guild_id=9, channel_id=10, host=ALICE,
                         opponent=Player(99, "Parlor (novice)", "novice"), options={"first": "challenger"},
                         turn_limit=60)
    mine = await svc.play(m.id, ALICE.user_id, "E")  # relays, then ends in an empty slot: the turn ends
    assert mine.steps() == [Ply(0, mine.before, mine.events)]
    combined, replies = mine, []
    while combined.ai_next:
        reply = await svc.ai_move(m.id)
        assert reply is not None
        replies.append(reply)
        combined = combined.then(reply)
    assert replies
    assert [p.actor for p in combined.steps()] == [0] + [1] * len(replies)
    assert [p.before for p in combined.steps()] == [mine.before] + [r.before for r in replies]
    assert [p.events for p in combined.steps()] == [mine.events] + [r.events for r in replies]
    assert combined.moves == mine.moves + [mv for r in replies for mv in r.moves]
    last = replies[-1]
    assert (combined.events, combined.before, combined.actor, combined.match) == (
        last.events, last.before, last.actor, last.match)


async def test_restart_continues_from_the_database(env):
    svc, clock, _tmp = env
    m = await challenge(svc)
    await svc.play(m.id, ALICE.user_id, "L a1")
    other = (
        SqliteStore(svc.store.path) if isinstance(svc.store, SqliteStore) else PostgresStore(svc.store.url)
    )
    await other.open()
    svc2 = MatchService(other, clock=clock)
    r = await svc2.play(m.id, BOB.user_id, "S b1")
    assert r.match.version == m.version + 2
    replayed = await svc2.replay(m.id)
    assert replayed == r.match.state
    await other.close()


async def test_bad_turn_limit_and_self_challenge(env):
    svc, _, _ = env
    with pytest.raises(LobbyError, match="turn limit"):
        await svc.create(
            "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=5
        )
    with pytest.raises(LobbyError, match="yourself"):
        await svc.create("pylon", guild_id=9, channel_id=10, host=ALICE, opponent=ALICE, options={},
                         turn_limit=60)


async def test_tournament_clock_charges_each_pick_once(env):
    svc, clock, _ = env
    m = await svc.create("eggcarton", guild_id=9, channel_id=10, host=ALICE, opponent=BOB,
                         options={"clock": "3m", "first": "challenger"}, turn_limit=86400)
    m = (await svc.accept(m.id, BOB.user_id)).match
    assert m.rec.deadline == clock() + 180
    clock.t += 100
    r = await svc.play(m.id, ALICE.user_id, "D")  # ends off the board: alice picks again (rule A)
    assert r.match.to_act() == {0}
    assert r.match.clocks_ms(clock()) == [80_000, 180_000]
    clock.t += 30
    r = await svc.play(m.id, ALICE.user_id, "E")
    assert r.match.clocks_ms(clock()) == [50_000, 180_000]
    assert r.match.rec.deadline == clock() + 50


async def test_clock_running_out_loses_even_before_the_scheduler(env):
    svc, clock, _ = env
    m = await svc.create("eggcarton", guild_id=9, channel_id=10, host=ALICE, opponent=BOB,
                         options={"clock": "1m", "first": "challenger"}, turn_limit=86400)
    m = (await svc.accept(m.id, BOB.user_id)).match
    clock.t += 61
    r = await svc.play(m.id, ALICE.user_id, "A")
    assert r.finished and r.match.outcome.winners == {1} and "clock" in r.match.outcome.detail


async def test_preview_is_the_move_without_making_it(env):
    """preview gives the state and events playing would give -- dice included (Nomic's next roll is a chance
    node resolved with the match's seeded RNG) -- and changes neither the match nor the store."""
    svc, _, _ = env
    m = await svc.create("nomic", guild_id=9, channel_id=10, host=ALICE, opponent=None, options={},
                         turn_limit=3600)
    await svc.join(m.id, BOB)
    m = (await svc.start(m.id, ALICE.user_id)).match
    for _ in range(3):
        view = m.view(None)
        seat = view.current
        plan = "E" * view.roll
        before = (m.version, m.state, dict(m.rec.ui), m.rec.state)
        ahead, events = svc.preview(m, seat, plan)
        assert (m.version, m.state, dict(m.rec.ui), m.rec.state) == before
        stored = await svc.get(m.id)
        assert (stored.version, stored.state) == (m.version, m.state)
        result = await svc.play(m.id, m.seats[seat].user_id, plan)
        assert (ahead.state, ahead.version) == (result.match.state, result.match.version)
        assert events == result.events
        assert ahead.rec.ui == result.match.rec.ui
        m = result.match
        while m.view(None).phase != "move":  # the proposal phase: skip it
            r = await svc.play(m.id, m.seats[m.view(None).current].user_id, "skip")
            m = r.match
    with pytest.raises(IllegalMove):
        svc.preview(m, m.view(None).current, "E" * 9)
