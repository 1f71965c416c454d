"""Thread creation pacing: at most ``burst`` per window in one channel; other channels do not wait."""

import time

import pytest

from cogs.tournament import Pacer

pytestmark = pytest.mark.unit


async def test_pacer_keeps_a_sliding_window_per_channel():
    pacer = Pacer(burst=3, per=0.3)
    t0 = time.monotonic()
    for _ in range(3):
        await pacer.wait(1)
    assert time.monotonic() - t0 < 0.1          # a burst goes at once
    await pacer.wait(2)                          # another channel is not held up
    assert time.monotonic() - t0 < 0.1
    await pacer.wait(1)                          # the 4th in channel 1 waits for the window
    assert time.monotonic() - t0 >= 0.29
