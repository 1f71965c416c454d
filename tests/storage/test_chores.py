"""Discord chores (migration 006) on both backends: remembered, due in order, claimed once, delayed, done."""

import time

import pytest


@pytest.fixture
def store(any_store):
    return any_store


async def test_a_chore_is_remembered_claimed_once_delayed_and_finished(store):
    now = time.time()
    assert await store.next_chore() is None
    assert await store.pending_chores() == 0
    old = {"embeds": [{"title": "old"}], "components": []}
    first = await store.add_chore(7, "retire", 100, 555, old, now - 1)
    again = await store.add_chore(7, "retire", 100, 555, {"embeds": []}, now - 1)
    assert again == first  # a board waiting to be retired is remembered once
    ping = await store.add_chore(7, "ping", 100, None, {"content": "<@5> your turn."}, now + 30)
    assert ping != first
    assert await store.pending_chores() == 2
    assert await store.next_chore() == pytest.approx(now - 1)
    (due,) = await store.due_chores(now)
    assert (due.id, due.match_id, due.kind, due.channel_id, due.message_id) == (first, 7, "retire", 100, 555)
    assert due.payload == old
    assert due.attempts == 0
    stale = await store.due_chores(now)
    assert await store.claim_chore(due, now + 10)
    assert due.attempts == 1
    assert not await store.claim_chore(stale[0], now + 10)  # another process read it too: only one takes it
    assert await store.due_chores(now) == []
    await store.delay_chore(first, now - 5)
    (due,) = await store.due_chores(now)
    assert due.attempts == 1 and due.next_at == pytest.approx(now - 5)
    await store.finish_chore(first)
    assert await store.pending_chores() == 1
    assert [c.id for c in await store.due_chores(now + 60)] == [ping]
    assert (await store.due_chores(now + 60))[0].payload == {"content": "<@5> your turn."}
