"""Two processes on one SQLite file are refused; the lock dies with its holder, kill -9 included."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import sqlite_lock
from bot.sqlite_lock import DatabaseInUse

REPO = Path(__file__).resolve().parents[2]
HOLD = "import sys, time; from bot import sqlite_lock; f = sqlite_lock.acquire(sys.argv[1]); print('held', flush=True); time.sleep(60)"


def holder(url: str) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", HOLD, url], cwd=REPO, stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    return p


def test_second_process_refused_until_the_first_is_killed(tmp_path):
    url = f"sqlite:///{tmp_path}/data/p.sqlite3"
    p = holder(url)
    try:
        with pytest.raises(DatabaseInUse) as err:
            sqlite_lock.acquire(url)
        text = str(err.value)
        assert f"pid {p.pid}" in text and "p.sqlite3" in text and "PostgreSQL" in text and "\n" not in text
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
    # the lock file is still there (stale), but nobody holds it: a restart goes ahead
    assert (tmp_path / "data" / "p.sqlite3.lock").exists()
    f = sqlite_lock.acquire(url)
    assert f is not None
    f.close()


def test_postgres_and_memory_need_no_lock(tmp_path):
    assert sqlite_lock.acquire("postgresql://postgres@127.0.0.1/x") is None
    assert sqlite_lock.acquire("sqlite:///:memory:") is None


def test_python_m_bot_refuses_a_second_process(tmp_path):
    url = f"sqlite:///{tmp_path}/p.sqlite3"
    p = holder(url)
    try:
        env = dict(os.environ, DISCORD_TOKEN="MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB",
                   PARLOR_DATABASE=url)
        t = time.monotonic()
        r = subprocess.run([sys.executable, "-m", "bot"], check=False, cwd=REPO, env=env, capture_output=True, text=True,
                           timeout=30)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "already in use by another Parlor process" in lines[0]
        assert time.monotonic() - t < 20
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
