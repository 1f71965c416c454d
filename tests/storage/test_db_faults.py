"""Database faults (issue 11): the bot refuses to start with one clear line and exit 2, the file untouched;
a full disk during a move tells the player the move was not saved and logs the real cause."""

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.errors import NotSaved
from bot.matches.service import MatchService, Player
from bot.storage.sql import code_schema_version
from bot.storage.sqlite import SqliteStore

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
ROOT = Path(__file__).resolve().parents[2]


async def make_db(path: Path) -> None:
    store = SqliteStore(str(path))
    await store.open()
    svc = MatchService(store)
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=Player(1, "a"), opponent=Player(2, "b"),
                         options={}, turn_limit=600)
    await svc.accept(m.id, 2)
    await store.close()


def snapshot(path: Path) -> tuple[bytes, int, int]:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_mode


def start(monkeypatch, path: Path, capsys) -> tuple[int, str]:
    """``python -m bot`` in-process (it fails before connecting to Discord); (exit code, stderr)."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("PARLOR_DATABASE", f"sqlite:///{path}")
    monkeypatch.chdir(path.parent)
    code = main([])
    return code, capsys.readouterr().err


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "data" / "parlor.sqlite3"
    asyncio.run(make_db(path))
    return path


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("parlor: "), err
    return err


def test_schema_newer_than_the_code_names_both_versions(db, monkeypatch, capsys):
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 0)")
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    assert code == 2
    assert "99" in one_line(err) and f"this Parlor's {code_schema_version()}" in err and str(db) in err
    assert snapshot(db) == before


def test_corrupt_database(db, monkeypatch, capsys):
    data = bytearray(db.read_bytes())
    data[:16] = b"this is not it!!"
    db.write_bytes(bytes(data))
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    assert code == 2 and "not a SQLite database" in one_line(err) and str(db) in err and "backup" in err
    assert snapshot(db) == before


def test_truncated_database(db, monkeypatch, capsys):
    data = db.read_bytes()
    assert len(data) >= 8192
    db.write_bytes(data[: len(data) // 2])
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    assert code == 2 and "truncated" in one_line(err) and str(db) in err and "backup" in err
    assert snapshot(db) == before


def test_damaged_pages_are_reported_as_corrupt(db, monkeypatch, capsys):
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xff" * (len(data) - page)  # every page after the first is garbage
    db.write_bytes(bytes(data))
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    assert code == 2 and "corrupt" in one_line(err) and str(db) in err
    assert snapshot(db) == before


def test_unreadable_database(db, monkeypatch, capsys):
    os.chmod(db, 0o000)
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    os.chmod(db, 0o644)
    assert code == 2 and "cannot read" in one_line(err) and str(db) in err
    assert snapshot(db)[:2] == before[:2]


def test_read_only_file(db, monkeypatch, capsys):
    os.chmod(db, 0o444)
    before = snapshot(db)
    code, err = start(monkeypatch, db, capsys)
    os.chmod(db, 0o644)
    assert code == 2 and "read-only" in one_line(err) and str(db) in err and "writable" in err
    assert snapshot(db)[:2] == before[:2]


def test_read_only_folder(db, monkeypatch, capsys):
    os.chmod(db.parent, 0o555)
    before = snapshot(db)
    try:
        code, err = start(monkeypatch, db, capsys)
    finally:
        os.chmod(db.parent, 0o755)
    assert code == 2 and "folder" in one_line(err) and "read-only" in err and str(db.parent) in err
    assert snapshot(db) == before


def test_second_process_on_the_same_file_is_refused(db):
    """A real `python -m bot` while this process holds the database: refused before connecting."""
    async def hold_and_try():
        store = SqliteStore(str(db))
        await store.open()
        try:
            env = {
                **os.environ,
                "DISCORD_TOKEN": TOKEN,
                "PARLOR_DATABASE": f"sqlite:///{db}",
                "PYTHONPATH": str(ROOT),
            }
            proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=db.parent, env=env,
                                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _out, err = await asyncio.wait_for(proc.communicate(), 60)
            return proc.returncode, err.decode()
        finally:
            await store.close()

    code, err = asyncio.run(hold_and_try())
    assert code == 2 and one_line(err) and "another Parlor process" in err and f"pid {os.getpid()}" in err


async def fill_disk(store: SqliteStore, svc: MatchService, match_id: int) -> None:
    """Let the database grow no more, then use up the last free bytes of its pages (a full disk)."""
    pages = (await (await store.db.execute("PRAGMA page_count")).fetchone())[0]
    await store.db.execute(f"PRAGMA max_page_count = {pages}")
    pad = ""
    for step in (4096, 512, 64, 8, 1):
        while True:
            try:
                await svc.set_ui(match_id, {"pad": pad + "x" * step})
            except NotSaved:
                break
            pad += "x" * step


async def test_disk_full_during_a_move_is_reported_and_logged(tmp_path, caplog):
    store = SqliteStore(str(tmp_path / "full.sqlite3"))
    await store.open()
    svc = MatchService(store)
    m = await svc.create("pylon", guild_id=9, channel_id=10, host=Player(1, "a"), opponent=Player(2, "b"),
                         options={"first": "challenger"}, turn_limit=600)
    m = (await svc.accept(m.id, 2)).match
    other = await svc.create("pylon", guild_id=9, channel_id=10, host=Player(3, "c"), opponent=Player(4, "d"),
                             options={}, turn_limit=600)
    await fill_disk(store, svc, other.id)
    caplog.clear()
    caplog.set_level(logging.ERROR)
    with pytest.raises(NotSaved, match="not saved"):
        await svc.play(m.id, 1, "L a1")
    assert "database or disk is full" in caplog.text and "cannot rollback" not in caplog.text
    assert (await svc.get(m.id)).version == m.version and await svc.history(m.id) == []  # nothing changed
    await store.db.execute(f"PRAGMA max_page_count = {10 ** 6}")  # space again: play goes on
    r = await svc.play(m.id, 1, "L a1")
    assert r.match.version == m.version + 1
    await store.close()
