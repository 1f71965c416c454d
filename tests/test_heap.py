"""Full garbage collections run between interactions (bot/heap.py), never on their own in a move."""

import asyncio
import gc
import time

from bot.heap import NEVER, IdleCollector


async def busy(heap, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        heap.touch()
        await asyncio.sleep(0.005)


async def test_full_collections_wait_for_a_quiet_moment(monkeypatch):
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(time.monotonic()) or 0)
    before = gc.get_threshold()
    heap = IdleCollector(every=0.01, quiet=0.05, wait=5.0)
    heap.start(freeze=False)
    try:
        assert gc.get_threshold() == (before[0], before[1], NEVER)  # none on the collector's own
        await busy(heap, 0.3)
        assert collected == []  # interactions kept coming
        quiet_from = time.monotonic()
        await asyncio.sleep(0.2)
        assert collected and collected[0] >= quiet_from
    finally:
        await heap.stop()
    assert gc.get_threshold() == before


async def test_a_collection_comes_even_if_it_is_never_quiet(monkeypatch):
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(1) or 0)
    heap = IdleCollector(every=0.01, quiet=0.05, wait=0.1)
    heap.start(freeze=False)
    try:
        await busy(heap, 0.4)
        assert len(collected) >= 2
    finally:
        await heap.stop()


async def test_each_collection_freezes_what_it_leaves_and_every_deep_one_scans_everything(monkeypatch):
    """Survivors are frozen (the next collection scans only what came since); every ``deep``-th collection
    unfreezes first, so cyclic garbage among frozen objects is freed too."""
    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    heap = IdleCollector(every=0.01, quiet=0.0, wait=0.1, deep=3)
    heap.start()
    try:
        assert calls == ["collect", "freeze"]  # the start-up heap
        while heap.collections < 6:
            await asyncio.sleep(0.01)
    finally:
        await heap.stop()
    light, deep = ["collect", "freeze"], ["unfreeze", "collect", "freeze"]
    assert calls[:16] == light + light + light + deep + light + light + deep


async def test_without_a_frozen_start_nothing_is_frozen(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    heap = IdleCollector(every=0.01, quiet=0.0, wait=0.1, deep=2)
    heap.start(freeze=False)
    try:
        while heap.collections < 4:
            await asyncio.sleep(0.01)
    finally:
        await heap.stop()
    assert set(calls) == {"collect"}


class Response:
    def __init__(self):
        self.done = False

    def is_done(self):
        return self.done


class Interaction:
    def __init__(self):
        self.response = Response()


async def test_a_collection_waits_for_the_answer_and_for_requests_under_way(monkeypatch):
    """Quiet is more than no new interaction: the last one answered and no request to Discord under way
    (a move's board being posted), so the collection lands between moves, not inside one."""
    collected = []
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(time.monotonic()) or 0)
    heap = IdleCollector(every=0.01, quiet=0.003, wait=5.0)
    heap.start(freeze=False)
    try:
        move = Interaction()
        heap.touch(move)
        await asyncio.sleep(0.1)
        assert collected == []  # not answered yet
        heap.request(True)  # the answer goes out
        move.response.done = True
        await asyncio.sleep(0.1)
        assert collected == []  # still under way
        heap.request(False)
        answered = time.monotonic()
        await asyncio.sleep(0.1)
        assert collected and collected[0] >= answered + 0.003
        heap.touch(Interaction())  # never answered: a collection comes after ``wait`` anyway, once
        heap.wait = 0.05
        await asyncio.sleep(0.02)
        before = len(collected)
        await asyncio.sleep(0.2)
        assert len(collected) > before
    finally:
        await heap.stop()
