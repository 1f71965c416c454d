"""The computer thinks in its own process, not in a thread of the bot (bot/matches/workers.py)."""

from __future__ import annotations

import os
import random
import threading

import pytest

from bot.games.pylon import RULES, choose
from bot.matches import workers


def _where(_: object = None) -> tuple[int, int]:
    return os.getpid(), threading.get_ident()


async def test_a_computer_move_is_chosen_in_another_process() -> None:
    assert await workers.think(_where) != (os.getpid(), threading.get_ident())
    pid, _ = await workers.think(_where)
    assert pid != os.getpid()
    s = RULES.initial({}, 2)
    # medium: its move depends on the seed only (hard's could depend on a busy machine's clock)
    move = await workers.think(choose, s, 0, random.Random("seed:ai:0"), "medium")
    assert move == choose(s, 0, random.Random("seed:ai:0"), "medium")  # the same move as in the bot's process
    assert move in RULES.legal_moves(s, 0)


async def test_a_function_made_at_run_time_is_run_in_a_thread_instead() -> None:
    made = lambda: _where()  # noqa: E731  (cannot be pickled)
    pid, tid = await workers.think(made)
    assert pid == os.getpid() and tid != threading.get_ident()
    pid, _ = await workers.think(_where)
    assert pid != os.getpid()  # the process is still used for the next job


async def test_an_error_in_the_computer_reaches_the_caller() -> None:
    s = RULES.initial({}, 2)
    with pytest.raises(ValueError, match="no move"):
        await workers.think(choose, s, 1, random.Random(0), "hard")  # not seat 1's turn


def test_a_worker_ends_when_the_bots_process_is_killed(tmp_path) -> None:
    """kill -9 of the bot leaves no computer process behind waiting for work forever."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "killed_bot.py"
    script.write_text(
        "import asyncio, os\n"
        "from bot.matches import workers\n"
        "async def main():\n"
        "    print(await workers.think(os.getpid), flush=True)\n"
        "    os.kill(os.getpid(), 9)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=root,
                         env={**os.environ, "PYTHONPATH": root}, timeout=60)
    assert out.returncode == -signal.SIGKILL, out.stderr
    worker = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    raise AssertionError("the computer process outlived the bot's")
