"""Storage on both backends (SQLite and PostgreSQL): migrations, version checks, seats, ratings queries."""

import time

import pytest

from bot.storage import GuildSettings, MatchRecord, MoveRecord, SeatRecord, Status, VersionConflict
from bot.storage.sql import code_schema_version
from bot.storage.sqlite import SqliteStore, migrations


def record(**kw):
    now = time.time()
    base = dict(
        id=0,
        game="pylon",
        guild_id=1,
        channel_id=10,
        thread_id=None,
        message_id=None,
        status=Status.RUNNING,
        options={},
        state={"v": 1},
        version=0,
        seed="ab",
        host_id=5,
        rated=True,
        turn_limit=60,
        deadline=now + 60,
        clocks=None,
        outcome=None,
        ui={},
        created_at=now,
        updated_at=now,
        finished_at=None,
        seats=[SeatRecord(0, 5, "alice"), SeatRecord(1, 6, "bob")],
    )
    base.update(kw)
    return MatchRecord(**base)


@pytest.fixture
def store(any_store):
    return any_store


async def test_migrations_are_recorded_and_idempotent(store):
    assert await store.migrate() == []
    async with store._read() as db:
        assert [r[0] for r in await db.fetch("SELECT version FROM schema_version ORDER BY version")] == [
            n for n, _ in migrations()]
    assert await store.schema_version() == code_schema_version()
    if not isinstance(store, SqliteStore):
        return
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store.db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1


async def test_match_round_trip_with_seats(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    assert m.seats[1].name == "bob" and m.state == {"v": 1} and m.status == Status.RUNNING


async def test_save_checks_the_version_and_appends_moves(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version = 1
    await store.save_match(m, 0, new_moves=[MoveRecord(0, 0, 5, "L a1", time.time())])
    stale = await store.load_match(mid)
    stale.version = 2
    with pytest.raises(VersionConflict):
        await store.save_match(stale, 0, new_moves=[MoveRecord(1, 1, 6, "S a2", time.time())])
    assert [mv.notation for mv in await store.moves(mid)] == ["L a1"]


async def test_move_log_is_append_only(store):
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version = 1
    await store.save_match(m, 0, new_moves=[MoveRecord(0, 0, 5, "L a1", time.time())])
    m.version = 2
    # the same ply twice is refused by the primary key
    with pytest.raises(Exception):  # noqa: B017 - sqlite3 and asyncpg errors share no narrower base
        await store.save_match(m, 1, new_moves=[MoveRecord(0, 0, 5, "S a1", time.time())])
    assert (await store.load_match(mid)).version == 1


async def test_a_refused_save_changes_nothing_and_the_next_one_works(store):
    """The statements of a save that need no answer (seats, moves, counters) may be queued together
    (SQLite): one of them failing must still undo every other, queued before or after it."""
    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version = 1
    await store.save_match(m, 0, new_moves=[MoveRecord(0, 0, 5, "L a1", time.time())])
    m.version = 2
    m.seats[1].name = "renamed"
    with pytest.raises(Exception):  # noqa: B017 - sqlite3 and asyncpg errors share no narrower base
        await store.save_match(m, 1, new_moves=[MoveRecord(1, 1, 6, "S a2", time.time()),
                                                MoveRecord(0, 0, 5, "again", time.time())],
                               counters=[(5, "wins", 1)])
    kept = await store.load_match(mid)
    assert kept.version == 1 and kept.seats[1].name == "bob"
    assert [mv.notation for mv in await store.moves(mid)] == ["L a1"]
    kept.version = 2
    await store.save_match(kept, 1, new_moves=[MoveRecord(1, 1, 6, "S a2", time.time())])
    assert [mv.notation for mv in await store.moves(mid)] == ["L a1", "S a2"]


async def test_deadlines(store):
    now = time.time()
    a = await store.create_match(record(deadline=now - 1))
    await store.create_match(record(deadline=now + 100))
    await store.create_match(record(deadline=now - 5, status=Status.FINISHED))
    assert await store.due_matches(now) == [a]
    assert await store.next_deadline() == pytest.approx(now - 1)


async def test_guild_settings_default_and_saved(store):
    assert await store.guild_settings(7) == GuildSettings(7, True, 86400)
    await store.save_guild_settings(GuildSettings(7, False, 300))
    assert await store.guild_settings(7) == GuildSettings(7, False, 300)


async def test_matches_in_place_prefers_thread(store):
    a = await store.create_match(record(channel_id=10, thread_id=99))
    b = await store.create_match(record(channel_id=10))
    assert [m.id for m in await store.matches_in_place(99)] == [a]
    assert [m.id for m in await store.matches_in_place(10)] == [b]


async def test_seats_are_updated_in_place_and_only_leavers_deleted(store):
    mid = await store.create_match(record(seats=[SeatRecord(0, 5, "alice"), SeatRecord(1, 6, "bob"),
                                                 SeatRecord(2, 7, "carol")]))
    m = await store.load_match(mid)
    m.seats = [SeatRecord(0, 5, "alice", data={"colour": "red"}), SeatRecord(1, 7, "carol")]
    m.version = 1
    await store.save_match(m, 0)
    again = await store.load_match(mid)
    assert [(s.seat, s.user_id, s.name, s.data) for s in again.seats] == [(0, 5, "alice", {"colour": "red"}),
                                                                        (1, 7, "carol", {})]


async def test_big_ids_and_json_round_trip(store):
    big = 1_234_567_890_123_456_789  # Discord snowflakes need 64 bits
    mid = await store.create_match(
        record(
            guild_id=big,
            channel_id=big + 1,
            thread_id=big + 2,
            host_id=big + 3,
            seats=[SeatRecord(0, big + 3, "ä ö 🎲", data={"k": [1, "x"]})],
            clocks={"remaining": [1, 2], "running": None, "since": None},
        )
    )
    m = await store.load_match(mid)
    assert (m.guild_id, m.thread_id, m.seats[0].user_id, m.seats[0].name) == (big, big + 2, big + 3, "ä ö 🎲")
    assert m.clocks == {"remaining": [1, 2], "running": None, "since": None} and (
        m.seats[0].data == {"k": [1, "x"]}
    )
    assert [r.id for r in await store.active_matches_of_user(big + 3)] == [mid]
    assert [r.id for r in await store.active_matches(guild_id=big)] == [mid]


async def test_ratings_counters_and_reset(store):
    from bot.ratings import rate
    from bot.storage import RatingUpdate

    mid = await store.create_match(record())
    m = await store.load_match(mid)
    m.version, m.status = 1, Status.FINISHED
    changes = await store.save_match(
        m, 0, rate=RatingUpdate(1, "pylon", (5, 6), lambda cur: rate(1, "pylon", [(5, 0), (6, 1)], cur)),
        counters=[(5, "wins_by_x", 2), (5, "wins_by_x", 1)])
    assert [c.user_id for c in changes] == [5, 6] and changes[0].after.wins == 1
    assert [r.user_id for r in await store.top_ratings(1, "pylon")] == [5, 6]
    assert await store.rating_rank(1, "pylon", 6) == (2, 2)
    assert [r.game for r in await store.user_ratings(1, 5)] == ["pylon"]
    assert len(await store.rating_history(1, "pylon", 5)) == 1
    assert await store.counters(1, 5) == {("pylon", "wins_by_x"): 3}
    assert await store.reset_ratings(1, "pylon") == 2
    assert await store.top_ratings(1, "pylon") == [] and await store.rating_rank(1, "pylon", 5) is None


async def test_set_place_keeps_the_version(store):
    mid = await store.create_match(record())
    await store.set_place(mid, thread_id=77, message_id=88)
    m = await store.load_match(mid)
    assert (m.thread_id, m.message_id, m.version) == (77, 88, 0)
    assert [r.id for r in await store.matches_in_place(77, active_only=False)] == [mid]


async def test_computer_results(store):
    done = record(status=Status.FINISHED, rated=False, outcome={"ranks": [0, 1]},
                  seats=[SeatRecord(0, 5, "alice"), SeatRecord(1, 99, "Parlor (hard)", "hard")])
    await store.create_match(done)
    await store.create_match(record(seats=[SeatRecord(0, 5, "alice"), SeatRecord(1, 99, "Parlor", "easy")]))
    got = await store.computer_results(1, 5)
    assert [(r.game, r.level, r.seat, r.outcome) for r in got] == [("pylon", "hard", 0, {"ranks": [0, 1]})]


async def test_timers_boards_and_notify_choices(store):
    from bot.storage import NotifyMode

    now = time.time()
    a = await store.create_match(record(deadline=now + 100, remind_at=now - 5, message_id=55))
    b = await store.create_match(record(status=Status.FINISHED, deadline=None, archive_at=now - 1,
                                        finished_at=now, thread_id=99))
    assert await store.due_reminders(now) == [a] and await store.due_archives(now) == [b]
    assert await store.next_timer() == pytest.approx(now - 5)
    assert await store.claim_reminder(a, (await store.load_match(a)).remind_at)
    assert not await store.claim_reminder(a, now - 5)  # already taken: only one process sends it
    await store.clear_archive(b)
    assert await store.due_reminders(now) == [] and await store.due_archives(now) == []
    assert (await store.latest_finished_in_place(99)).id == b
    await store.set_board_version(a, 0)
    m = await store.load_match(a)
    m.version = 1
    await store.save_match(m, 0)
    assert await store.stale_boards() == [a]
    await store.set_notify_mode(1, 5, NotifyMode.DM, dm_channel_id=1234)
    await store.set_notify_mode(1, 5, NotifyMode.OFF)
    assert await store.notify_modes(1, [5, 6]) == {5: NotifyMode.OFF} and await store.dm_channel(5) == 1234


async def test_seats_are_read_with_their_members_notify_choice_in_the_matchs_server(store):
    from bot.storage import NotifyMode

    here = await store.create_match(record())  # guild 1: alice (5) and bob (6)
    elsewhere = await store.create_match(record(guild_id=2))
    fresh = await store.load_match(here)
    # nothing stored: the default
    assert [s.notify for s in fresh.seats] == [NotifyMode.THREAD, NotifyMode.THREAD]
    await store.set_notify_mode(1, 6, NotifyMode.DM, dm_channel_id=77)
    await store.set_notify_mode(2, 5, NotifyMode.OFF)  # another server's choice is not this match's
    m = await store.load_match(here)
    assert [s.notify for s in m.seats] == [NotifyMode.THREAD, NotifyMode.DM]
    other = await store.load_match(elsewhere)
    assert [s.notify for s in other.seats] == [NotifyMode.OFF, NotifyMode.THREAD]
    listed = {r.id: r for r in await store.active_matches()}
    assert [s.notify for s in listed[here].seats] == [NotifyMode.THREAD, NotifyMode.DM]
    assert m.seats == fresh.seats  # the choice is not part of what a seat is
    assert SeatRecord(0, 5, "alice").notify is None  # a seat not read from the store: ask the store


async def test_a_daily_puzzle_post_claimed_and_given_back_on_an_incident(store):
    await store.set_daily_puzzle(7, 70, 1000.0)
    assert await store.due_daily_puzzles(1000.0) == [(7, 70, 1000.0)]
    assert await store.claim_daily_puzzle(7, 1000.0, 5, 2000.0)
    assert not await store.claim_daily_puzzle(7, 1000.0, 5, 2000.0)  # taken: once
    assert await store.due_daily_puzzles(1500.0) == []
    await store.retry_daily_puzzle(7, 5, 1010.0)  # the post failed on an incident
    assert await store.due_daily_puzzles(1010.0) == [(7, 70, 1010.0)]
    assert await store.claim_daily_puzzle(7, 1010.0, 5, 2000.0)  # the same day can be claimed again
    assert await store.next_daily_puzzle() == 2000.0
