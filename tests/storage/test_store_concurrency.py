"""Many actions at once (issues 11 and 19): different matches never interfere, rated finishes of the same
players chain their ratings, and no reader ever sees a half-written match."""

import asyncio
import itertools
import time

import pytest

from bot.matches.service import MatchService, Player
from bot.storage import Status
from bot.storage.sql import SqlStore

ALICE, BOB = Player(1, "alice"), Player(2, "bob")


@pytest.fixture(params=["sqlite", "sqlite-readers", "postgresql"])
async def any_store(request, tmp_path):
    """Here also SQLite with separate read connections (the option the bench compares)."""
    from tests.conftest import make_store

    s = await make_store(request.param, tmp_path, request)
    await s.open()
    yield s
    await s.close()


def race_after_first_read(svc, other):
    """``other(match_id)`` (another process's write) runs right after ``svc``'s next read of a match."""
    real_get = svc.get
    raced = False

    async def get_then_race(match_id):
        nonlocal raced
        got = await real_get(match_id)
        if not raced:
            raced = True
            await other(match_id)
        return got

    svc.get = get_then_race


async def started(svc, host, opponent, **opts):
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=host, opponent=opponent,
                         options={"first": "challenger", **opts}, turn_limit=3600)
    return (await svc.accept(m.id, opponent.user_id)).match


async def test_40_simultaneous_moves_in_40_matches_are_all_played(any_store):
    svc = MatchService(any_store)
    players = [(Player(100 + 2 * i, f"p{2 * i}"), Player(101 + 2 * i, f"p{2 * i + 1}")) for i in range(40)]
    matches = [await started(svc, a, b) for a, b in players]
    results = await asyncio.gather(
        *(svc.play(m.id, a.user_id, "L a1") for m, (a, _) in zip(matches, players, strict=False)),
        return_exceptions=True,
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    for m in matches:
        assert [mv.notation for mv in await svc.history(m.id)] == ["L a1"]
        assert (await svc.get(m.id)).version == m.version + 1


async def test_10_rated_matches_of_the_same_players_resigned_at_once(any_store):
    svc = MatchService(any_store)
    matches = [await started(svc, ALICE, BOB) for _ in range(10)]
    results = await asyncio.gather(
        *(svc.resign(m.id, ALICE.user_id) for m in matches), return_exceptions=True
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert all(len(r.ratings) == 2 for r in results)
    rows = await any_store.ratings(9, "pylon", [ALICE.user_id, BOB.user_id])
    assert rows[ALICE.user_id].games == 10 and rows[ALICE.user_id].losses == 10
    assert rows[BOB.user_id].games == 10 and rows[BOB.user_id].wins == 10
    async with any_store._read() as db:
        for uid in (ALICE.user_id, BOB.user_id):
            chain = await db.fetch(
                "SELECT mu_before, sigma_before, mu_after, sigma_after FROM rating_history "
                "WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY id",
                9,
                "pylon",
                uid,
            )
            assert len(chain) == 10
            for prev, row in itertools.pairwise(chain):
                assert (row[0], row[1]) == pytest.approx((prev[2], prev[3]))  # each before = previous after
            assert (chain[-1][2], chain[-1][3]) == pytest.approx((rows[uid].mu, rows[uid].sigma))


async def test_readers_never_see_a_match_being_saved(any_store, monkeypatch):
    """A delay inside the save path (between the seat upsert and the rest) is invisible to readers."""
    svc = MatchService(any_store)
    lobby = await svc.create(
        "nomic", guild_id=9, channel_id=10, host=Player(1, "a"), opponent=None, options={}, turn_limit=3600
    )
    for uid in (2, 3):
        await svc.join(lobby.id, Player(uid, f"p{uid}"))
    original = SqlStore._write_seats

    async def slow_write_seats(db, match, *, fresh=False):
        await asyncio.sleep(0.01)
        await original(db, match, fresh=fresh)
        await asyncio.sleep(0.01)

    monkeypatch.setattr(SqlStore, "_write_seats", staticmethod(slow_write_seats))
    seen: list[int] = []
    stop = False

    async def reader():
        while not stop:
            rec = await any_store.load_match(lobby.id)
            seen.append(len(rec.seats))
            for m in await any_store.matches_in_place(10):
                seen.append(len(m.seats))
            await asyncio.sleep(0)

    readers = [asyncio.create_task(reader()) for _ in range(3)]
    for i in range(10):
        await svc.update_seat_data(lobby.id, 1 + i % 3, {"colour": i})
    stop = True
    await asyncio.gather(*readers)
    assert len(seen) > 20 and set(seen) == {3}


async def test_a_typed_move_that_loses_a_race_with_another_process_is_tried_again(any_store):
    """Another process (here: a second service on the same store) commits first; the typed move is re-read
    and played on the new position instead of being refused."""
    a = MatchService(any_store)
    m = await started(a, ALICE, BOB)
    await a.play(m.id, ALICE.user_id, "L a1")

    async def other_process(match_id):
        rec = await any_store.load_match(match_id)  # another process commits a change first
        rec.version += 1
        rec.ui["other"] = True
        await any_store.save_match(rec, rec.version - 1)

    race_after_first_read(a, other_process)
    r = await a.play(m.id, BOB.user_id, "S b1")
    assert [mv.notation for mv in await a.history(m.id)] == ["L a1", "S b1"]
    assert r.match.version == m.version + 3 and r.match.rec.ui["other"] is True


async def test_claims_have_one_owner_until_the_lease_lapses(any_store):
    assert await any_store.claim("deadline", 7, "p1", 0.2)
    assert not await any_store.claim("deadline", 7, "p2", 0.2)
    assert await any_store.claim("deadline", 7, "p1", 0.2)  # the owner renews
    assert await any_store.lapsed_claims("deadline", time.time()) == []
    await asyncio.sleep(0.25)
    assert await any_store.lapsed_claims("deadline", time.time()) == [7]
    assert await any_store.claim("deadline", 7, "p2", 5)  # p1 died: p2 takes over
    await any_store.release("deadline", 7, "p1")  # not p1's any more: nothing happens
    assert not await any_store.claim("deadline", 7, "p1", 5)
    await any_store.release("deadline", 7, "p2")
    assert await any_store.claim("deadline", 7, "p1", 5)


async def test_a_computer_move_left_by_a_dead_process_is_taken_over(any_store):
    dead, alive = MatchService(any_store), MatchService(any_store)
    m = await dead.create("pylon", guild_id=9, channel_id=10, host=ALICE,
                          opponent=Player(99, "Parlor (easy)", "easy"), options={"first": "challenger"},
                          turn_limit=3600)
    await dead.play(m.id, ALICE.user_id, "L a1")  # the computer is to move: `dead` holds the claim and dies
    assert await alive.ai_move(m.id) is None  # the lease still runs
    async with any_store.transaction() as db:  # let the lease lapse
        await db.execute("UPDATE claims SET expires_at = ? WHERE kind = 'ai'", time.time() - 1)
    assert await any_store.lapsed_claims("ai", time.time()) == [m.id]
    r = await alive.ai_move(m.id)
    assert r is not None and r.actor == 1
    assert await any_store.lapsed_claims("ai", time.time()) == []
    assert (await alive.get(m.id)).status == Status.RUNNING


async def test_cancelled_actions_never_leave_a_transaction_open(any_store):
    """Handlers are cancelled at any await (a timeout, the scheduler stopping): the store stays usable."""
    svc = MatchService(any_store)
    m = await started(svc, ALICE, BOB)
    for delay in range(40):
        task = asyncio.create_task(svc.set_ui(m.id, {"n": delay}))
        reader = asyncio.create_task(any_store.matches_in_place(10))
        for _ in range(delay % 8):
            await asyncio.sleep(0)
        task.cancel()
        reader.cancel()
        await asyncio.gather(task, reader, return_exceptions=True)
    r = await svc.play(m.id, ALICE.user_id, "L a1")
    assert r.match.version == m.version + 1 and len(await any_store.matches_in_place(10)) == 1


async def test_a_move_read_before_another_process_wrote_the_row_does_not_undo_that_write(any_store):
    """Writes that keep the version (the vote message in ``ui``, the board's message id) bump the row's
    revision: a click read before them is played on the row as it is now, and keeps them."""
    a, b = MatchService(any_store), MatchService(any_store)
    m = await started(a, ALICE, BOB)
    clicked = await a.get(m.id)  # the click's handler reads the match ...
    await b.set_ui(m.id, {"votes": [123, 456]})  # ... another process records a vote message meanwhile
    await b.set_place(m.id, message_id=789)
    r = await a.play(m.id, ALICE.user_id, "L a1", expected_version=clicked.version, loaded=clicked)
    stored = await a.get(m.id)
    assert [mv.notation for mv in await a.history(m.id)] == ["L a1"] and r.match.version == m.version + 1
    assert stored.rec.ui["votes"] == [123, 456] and stored.rec.message_id == 789


async def test_two_processes_adding_presentation_data_at_once_keep_both(any_store):
    a, b = MatchService(any_store), MatchService(any_store)
    m = await started(a, ALICE, BOB)
    race_after_first_read(a, lambda match_id: b.set_ui(match_id, {"from_b": 1}))  # b commits in between
    await a.set_ui(m.id, {"from_a": 2})
    ui = (await b.get(m.id)).rec.ui
    assert ui["from_a"] == 2 and ui["from_b"] == 1


async def test_a_write_read_before_a_reminder_was_sent_cannot_bring_the_reminder_back(any_store):
    from bot.storage import VersionConflict

    a = MatchService(any_store)
    m = await started(a, ALICE, BOB)
    stale = await any_store.load_match(m.id)
    assert stale.remind_at is not None
    assert await any_store.claim_reminder(m.id, stale.remind_at)  # the reminder is sent
    stale.ui["note"] = 1
    with pytest.raises(VersionConflict):
        await any_store.save_match(stale, stale.version)
    assert (await any_store.load_match(m.id)).remind_at is None
