"""Issue 12's stored timers and choices: reminders, thread archiving, stale boards, /notify modes
(real SQLite)."""

import pytest

from bot.errors import LobbyError
from bot.matches.service import ARCHIVE_AFTER, MatchService, Player, reminder_time
from bot.storage import NotifyMode, Status
from bot.storage.sqlite import SqliteStore

ALICE, BOB = Player(1, "alice"), Player(2, "bob")


class Clock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture
async def env(tmp_path):
    store = SqliteStore(str(tmp_path / "p.sqlite3"))
    await store.open()
    clock = Clock()
    yield MatchService(store, clock=clock), clock, store
    await store.close()


async def running(svc, turn_limit):
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB,
                         options={"first": "challenger"}, turn_limit=turn_limit)
    return (await svc.accept(m.id, BOB.user_id)).match


def test_reminder_time_is_20_percent_before_the_end_at_most_a_day():
    assert reminder_time(0, 3599) is None
    assert reminder_time(0, 3600) == 3600 - 720
    assert reminder_time(100, 86400) == 100 + 86400 - 17280
    assert reminder_time(0, 7 * 86400) == 6 * 86400  # 20% would be 33.6 h: capped at 24 h


async def test_a_reminder_is_claimed_once_and_rearmed_by_the_next_move(env):
    svc, clock, store = env
    m = await running(svc, 3600)
    assert m.rec.remind_at == pytest.approx(clock.t + 2880)
    assert await store.next_timer() == pytest.approx(m.rec.remind_at)
    assert await svc.remind(m.id) is None  # not due
    clock.t += 2881
    assert await store.due_reminders(clock.t) == [m.id]
    reminded = await svc.remind(m.id)
    assert reminded is not None and reminded.version == m.version  # not an action: the board stays valid
    assert await svc.remind(m.id) is None and await store.due_reminders(clock.t) == []
    played = await svc.play(m.id, ALICE.user_id, "S a1")
    assert played.match.rec.remind_at == pytest.approx(clock.t + 2880)  # bob's turn has its own reminder


async def test_short_limits_have_no_reminder_and_challenges_wait_their_own_time(env):
    svc, clock, _ = env
    m = await running(svc, 900)
    assert m.rec.remind_at is None
    c = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=30
    )
    assert c.rec.deadline == pytest.approx(clock.t + 15 * 60)
    c = await svc.create(
        "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=30, expires=3600
    )
    assert c.rec.deadline == pytest.approx(clock.t + 3600)
    with pytest.raises(LobbyError):
        await svc.create(
            "pylon", guild_id=9, channel_id=10, host=ALICE, opponent=BOB, options={}, turn_limit=30, expires=5
        )


async def test_the_thread_is_archived_an_hour_after_the_end(env):
    svc, clock, store = env
    m = await running(svc, 3600)
    await svc.set_place(m.id, thread_id=77)
    r = await svc.resign(m.id, ALICE.user_id)
    assert r.match.rec.archive_at == pytest.approx(clock.t + ARCHIVE_AFTER) and r.match.rec.remind_at is None
    assert await store.due_archives(clock.t + ARCHIVE_AFTER - 1) == []
    assert await store.due_archives(clock.t + ARCHIVE_AFTER) == [m.id]
    await svc.archived(m.id)
    assert await store.due_archives(clock.t + ARCHIVE_AFTER) == []
    assert (await svc.latest_finished(77)).id == m.id and (await svc.latest_finished(77, "eof")) is None


async def test_stale_boards_are_those_behind_their_match(env):
    svc, _, store = env
    m = await running(svc, 3600)
    await svc.set_place(m.id, message_id=5)
    await store.set_board_version(m.id, m.version)
    assert await store.stale_boards() == []
    await svc.play(m.id, ALICE.user_id, "S a1")
    assert await store.stale_boards() == [m.id]


async def test_notify_modes_per_server_and_the_dm_channel(env):
    _, _, store = env
    assert await store.notify_modes(9, [1, 2]) == {}
    await store.set_notify_mode(9, 1, NotifyMode.DM, 555)
    await store.set_notify_mode(8, 1, NotifyMode.OFF)
    await store.set_notify_mode(9, 1, NotifyMode.DM)  # the DM channel is kept
    assert await store.notify_modes(9, [1, 2]) == {1: NotifyMode.DM}
    assert await store.notify_modes(8, [1]) == {1: NotifyMode.OFF}
    assert await store.dm_channel(1) == 555 and await store.dm_channel(2) is None
    assert Status.FINISHED.value == "finished"


async def test_two_processes_finding_the_same_reminder_send_it_once(tmp_path):
    path = str(tmp_path / "shared.sqlite3")
    a, b = SqliteStore(path), SqliteStore(path)
    await a.open()
    await b.open()
    clock = Clock()
    svc_a, svc_b = MatchService(a, clock=clock), MatchService(b, clock=clock)
    m = await running(svc_a, 3600)
    clock.t += 3000
    claimed = [await svc_a.remind(m.id), await svc_b.remind(m.id)]
    assert sum(x is not None for x in claimed) == 1
    await a.close()
    await b.close()
