"""TournamentService on a real SQLite store: restarts, kills and two processes never start or pair
a round twice."""

import asyncio

import pytest

from bot.matches.service import MatchService, Player
from bot.storage import Status, VersionConflict
from bot.tournaments.model import Format
from bot.tournaments.service import TournamentError, TournamentService

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


async def open_service(make, clock):
    store = make()
    await store.open()
    matches = MatchService(store, clock=clock)
    svc = TournamentService(matches)
    matches.on_match_end = svc.match_ended
    return store, matches, svc


async def signed_up(svc, n=5, fmt=Format.SWISS, rounds=3):
    t = await svc.create(guild_id=1, channel_id=2, organiser=Player(99, "org"), game="pylon", fmt=fmt,
                         rounds=rounds, round_time=600, turn_limit=None, rated=True, starts_in=60)
    for i in range(n):
        await svc.join(t.id, Player(100 + i, f"p{i}"))
    return t


async def test_refusals_change_nothing(store_factory):
    clock = Clock()
    store, _, svc = await open_service(store_factory, clock)
    with pytest.raises(TournamentError, match="2-player"):
        await svc.create(guild_id=1, channel_id=2, organiser=Player(99, "o"), game="nomic", fmt=Format.SWISS,
                         rounds=None, round_time=600, turn_limit=None, rated=True, starts_in=60)
    t = await signed_up(svc, 2)
    before = (await svc.get(t.id)).version
    with pytest.raises(TournamentError, match="already joined"):
        await svc.join(t.id, Player(100, "p0"))
    with pytest.raises(TournamentError, match="at least 3"):
        await svc.start(t.id, 99)
    with pytest.raises(TournamentError, match="organiser"):
        await svc.start(t.id, 100)
    assert (await svc.get(t.id)).version == before and (await svc.get(t.id)).status == "signup"
    await store.close()


async def test_two_processes_start_the_event_once(store_factory):
    clock = Clock()
    a = await open_service(store_factory, clock)
    b = await open_service(store_factory, clock)
    t = await signed_up(a[2])
    clock.now += 61
    results = await asyncio.gather(a[2].run_due(), b[2].run_due())
    assert sum(len(r) for r in results) == 1
    assert len(await a[0].pairings(t.id, 1)) == 3
    async with a[0]._read() as db:
        assert await db.fetchval("SELECT COUNT(*) FROM tournament_rounds WHERE tournament_id = ?", t.id) == 1
    # both "processes" post: each pairing gets exactly one match
    made = await asyncio.gather(a[2].materialise(t.id), b[2].materialise(t.id))
    ids = [s.match.id for group in made for s in group]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 2   # each match claimed for posting by one process
    assert len(await a[0].active_matches()) == 2
    for s in (a, b):
        await s[0].close()


async def test_a_round_row_is_written_once(store_factory):
    clock = Clock()
    store, _, svc = await open_service(store_factory, clock)
    t = await signed_up(svc)
    await svc.start(t.id, 99)
    t = await svc.get(t.id)
    with pytest.raises(VersionConflict):
        async with svc.lock(t.id):
            await svc._start_round(t, 1)
    assert len(await store.pairings(t.id, 1)) == 3
    await store.close()


async def test_kill_before_matches_were_created_or_started(store_factory):
    """Round 1 committed, then killed: the restart creates each match once and starts it."""
    clock = Clock()
    store, _, svc = await open_service(store_factory, clock)
    t = await signed_up(svc)
    await svc.start(t.id, 99)  # pairs round 1; matches not created yet (the cog does that)
    pairs = [p for p in await store.pairings(t.id, 1) if p.black_id]
    # killed half way: one match inserted and linked but never started
    from bot.tournaments.service import TournamentService as TS
    rec = TS._match_record(svc, await svc.get(t.id), pairs[0], {})
    await store.create_pairing_match(t.id, 1, pairs[0].board, rec)
    await store.close()
    store, _matches, svc = await open_service(store_factory, clock)   # the restart
    started = await svc.resume_all()
    assert len(started) == 2 and all(s.match.status == Status.RUNNING for s in started)
    assert await svc.resume_all() == []             # handed out for posting already
    for st in started:
        svc.done_posting(st.match.id)                 # ... the presenter failed to post them
    again = await svc.resume_all()                  # not yet posted, so listed again, but no new match
    assert {s.match.id for s in again} == {s.match.id for s in started}
    assert len(await store.active_matches()) == 2
    await store.close()


async def test_result_missed_by_a_crash_is_recorded_on_restart_and_the_round_advances(store_factory):
    clock = Clock()
    store, matches, svc = await open_service(store_factory, clock)
    t = await signed_up(svc, 4, rounds=2)
    await svc.start(t.id, 99)
    started = await svc.materialise(t.id)
    matches.on_match_end = lambda m: None           # the process dies before the hook records anything
    for s in started:
        await matches.resign(s.match.id, s.match.seats[1].user_id)
    await store.close()
    store, matches, svc = await open_service(store_factory, clock)
    await svc.resume_all()
    assert all(p.result == "1-0" for p in await store.pairings(t.id, 1))
    t = await svc.get(t.id)
    assert t.current_round == 2 and len(await store.pairings(t.id, 2)) == 2
    # rated: the four players have ratings now
    assert len(await store.ratings(1, "pylon", [100, 101, 102, 103])) == 4
    await store.close()


async def test_round_deadline_decides_running_games_and_absent_players_forfeit(store_factory):
    clock = Clock()
    store, matches, svc = await open_service(store_factory, clock)
    t = await signed_up(svc, 4, rounds=1)
    await svc.start(t.id, 99)
    started = await svc.materialise(t.id)
    first = started[0].match
    await matches.play(first.id, first.seats[0].user_id, "S a1")    # white moved; black never does
    clock.now += 601
    await svc.run_due()
    await svc.wait_idle()
    res = {p.match_id: p.result for p in await store.pairings(t.id, 1)}
    assert res[first.id] == "+-"                  # black absent: a forfeit
    assert res[started[1].match.id] == "-+"       # white never moved: a forfeit
    assert (await svc.get(t.id)).status == "finished"
    await store.close()


async def test_withdraw_pause_resume(store_factory):
    clock = Clock()
    store, matches, svc = await open_service(store_factory, clock)
    t = await signed_up(svc, 4, rounds=2)
    await svc.start(t.id, 99)
    started = await svc.materialise(t.id)
    victim = started[0].match.seats[0].user_id
    tr = await svc.withdraw(t.id, victim)
    assert "forfeit" in " ".join(tr.notes)
    assert (await matches.get(started[0].match.id)).status == Status.ABORTED
    await svc.pause(t.id, 99)
    assert (await svc.get(t.id)).deadline is None
    clock.now += 10_000
    assert await svc.run_due() == []
    await svc.resume(t.id, 99)
    t2 = await svc.get(t.id)
    assert t2.status == "running" and t2.deadline == pytest.approx(clock.now + 600)
    await matches.resign(started[1].match.id, started[1].match.seats[0].user_id)
    await svc.wait_idle()
    t2 = await svc.get(t.id)
    assert t2.current_round == 2
    r2 = await store.pairings(t.id, 2)
    assert victim not in {x for p in r2 for x in (p.white_id, p.black_id)}
    await store.close()


async def test_a_stored_round_can_be_recomputed_and_checked(store_factory):
    from bot.tournaments import pairing
    from bot.tournaments.service import to_pairing

    clock = Clock()
    store, matches, svc = await open_service(store_factory, clock)
    t = await signed_up(svc, 6, rounds=3)
    await svc.start(t.id, 99)
    with pytest.raises(TournamentError, match="Sign-up is closed"):
        await svc.join(t.id, Player(555, "late"))
    for s in await svc.materialise(t.id):
        await matches.resign(s.match.id, s.match.seats[1].user_id)
    await svc.wait_idle()
    t = await svc.get(t.id)
    assert t.current_round == 2
    history = [to_pairing(p) for p in await store.pairings(t.id, 1)]
    again = pairing.swiss_round(t.data["order"], history, 2, t.seed, last_round=t.rounds)
    assert [(p.white, p.black) for p in again] == [
        (p.white_id, p.black_id) for p in await store.pairings(t.id, 2)
    ]
    await store.close()


async def test_round_robin_withdrawal_forfeits_the_remaining_games(store_factory):
    clock = Clock()
    store, matches, svc = await open_service(store_factory, clock)
    t = await signed_up(svc, 4, fmt=Format.ROUND_ROBIN, rounds=None)
    await svc.start(t.id, 99)
    started = await svc.materialise(t.id)
    quitter = started[0].match.seats[1].user_id
    await svc.withdraw(t.id, quitter)               # before moving: this round's game is a forfeit
    await matches.resign(started[1].match.id, started[1].match.seats[0].user_id)
    await svc.wait_idle()
    t = await svc.get(t.id)
    assert t.current_round == 2
    r2 = await store.pairings(t.id, 2)
    theirs = next(p for p in r2 if quitter in (p.white_id, p.black_id))
    assert theirs.result in ("+-", "-+") and theirs.match_id is None
    assert len(await svc.materialise(t.id)) == 1      # only the other game is played
    st = await svc.standing(t.id)
    assert next(r for r in st.rows if r.player == quitter).withdrawn
    await store.close()
