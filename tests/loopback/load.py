"""Load against the real ``python -m bot`` through the loopback Discord: P players moving continuously
across M Pylon matches for S seconds, optionally with a kill -9 of a bot process every K seconds, then an
audit of the move log. Used by ``bench/load.py``, ``bench/shards.py`` and the multi-process tests.

What counts:
- sent: a player typed ``/pylon move`` (one attempt);
- acknowledged: the bot answered with the new board showing that move (the player saw it played);
- refused: an ephemeral answer (by reason) or no answer at all (``no answer``: the interaction failed,
  e.g. the process was killed with the move in flight; the move may or may not have been stored);
- stored: the move is in the match's move log at the end;
- lost: acknowledged but not stored; duplicated: stored more often than it was sent.

Matches are created in the database before the processes start (through the same MatchService the bot
uses), one text channel each, spread over guilds so that every shard has some. Each player knows the
positions of its matches (updated on every acknowledged move, re-read from the database when an answer
was not the expected board) and only moves where it is its turn, so two moves never race in one match:
what is measured is moves of *different* matches at the same time, and kills.
"""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.loopback import FakeDiscord
from tests.loopback.helpers import guild_on_shard, start_parlor

GAME = "pylon"


@dataclass
class LoadConfig:
    players: int = 20
    matches: int = 100
    seconds: float = 60.0
    kill_every: float | None = 10.0  # None: no kills
    database: str | None = None      # None: a fresh SQLite file; or a postgresql:// URL (an empty database)
    processes: int = 1               # >1: one shard per process (PARLOR_SHARD_COUNT = processes)
    guilds: int = 0                  # 0: two per shard
    seed: int = 1
    answer_timeout: float = 10.0
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class LoadReport:
    config: LoadConfig
    sent: int = 0
    acked: int = 0
    stored: int = 0
    lost: int = 0
    duplicated: int = 0
    kills: int = 0
    elapsed: float = 0.0
    refusals: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    lost_moves: list[tuple[int, int, str]] = field(default_factory=list)
    duplicated_moves: list[tuple[int, int, str]] = field(default_factory=list)
    bot_errors: list[str] = field(default_factory=list)

    @property
    def moves_per_second(self) -> float:
        return self.acked / self.elapsed if self.elapsed else 0.0

    def pct(self, p: float) -> float:
        xs = sorted(self.latencies)
        if not xs:
            return float("nan")
        return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

    def lines(self) -> list[str]:
        c = self.config
        kill = f"kill -9 every {c.kill_every:g} s ({self.kills} kills)" if c.kill_every else "no kills"
        out = [
            f"players={c.players} matches={c.matches} seconds={c.seconds:g} processes={c.processes} {kill} "
            f"database={'postgresql' if (c.database or '').startswith('postgres') else 'sqlite'}",
            f"moves sent          {self.sent}",
            f"moves acknowledged  {self.acked}  ({self.moves_per_second:.1f}/s)",
            f"moves stored        {self.stored}  (players' moves in the move logs, acknowledged or not)",
            f"lost                {self.lost}  (acknowledged, not stored)",
            f"duplicated          {self.duplicated}  (stored more often than sent)",
            f"refusals            {sum(self.refusals.values())}"
            + "".join(f"\n  {n:6d}  {reason}" for reason, n in self.refusals.most_common()),
            f"latency (typed move -> board received, acknowledged moves) "
            f"p50 {self.pct(50) * 1000:.1f} ms  p99 {self.pct(99) * 1000:.1f} ms",
        ]
        if self.bot_errors:
            out.append(f"errors logged by the bot: {len(self.bot_errors)}; first: {self.bot_errors[0][:300]}")
        return out


def classify(text: str) -> str:
    low = text.lower()
    for key, reason in (("something went wrong", "something went wrong (internal error)"),
                        ("not saved", "not saved (database)"),
                        ("out of date", "stale board"),
                        ("someone else acted", "version conflict"),
                        ("not your turn", "not your turn"),
                        ("is over", "match over"),
                        ("illegal", "illegal move"),
                        ("no match", "no match here")):
        if key in low:
            return reason
    return "other: " + " ".join(text.split())[:60]


class _Local:
    """A player's view of one match: the engine state as of the last move it knows of."""

    def __init__(self, mid: int, chan: Any, rules: Any, state: Any, seat_users: list[int]) -> None:
        self.mid = mid
        self.chan = chan
        self.rules = rules
        self.state = state
        self.seat_users = seat_users
        self.busy = False
        self.over = False

    def to_move(self) -> int | None:
        if self.over:
            return None
        who = self.rules.to_act(self.state)
        if not isinstance(who, frozenset) or len(who) != 1:
            return None
        return self.seat_users[next(iter(who))]


async def create_database(admin_url: str) -> tuple[str, str]:
    """A throw-away PostgreSQL database next to ``admin_url``'s: returns (its URL, its name)."""
    import asyncpg

    name = f"parlor_load_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base = admin_url.rsplit("/", 1)[0]
    return f"{base}/{name}", name


async def drop_database(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def seed(url: str, fd: FakeDiscord, cfg: LoadConfig, users: list[Any], guilds: list[Any]) -> list[_Local]:
    """Create and start ``cfg.matches`` Pylon matches (one channel each) in the database."""
    from bot.matches.service import MatchService, Player
    from bot.storage import open_store

    store = open_store(url)
    await store.open()
    try:
        svc = MatchService(store)
        out = []
        n = len(users)
        for i in range(cfg.matches):
            guild = guilds[i % len(guilds)]
            chan = guild.create_text_channel(f"m{i}")
            a = users[i % n]
            b = users[(i + 1 + (i // n) % (n - 1)) % n]
            m = await svc.create(GAME, guild_id=guild.id, channel_id=chan.id, host=Player(a.id, a.global_name),
                                 opponent=Player(b.id, b.global_name), options={}, turn_limit=None)
            result = await svc.accept(m.id, b.id)
            rm = result.match
            out.append(_Local(rm.id, chan, rm.rules, rm.state, [s.user_id for s in rm.seats]))
        return out
    finally:
        await store.close()


async def sql_rows(url: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read-only SQL against the bot's database while its processes run (``?`` placeholders). Not through
    the Store: a SQLite store takes the one-process lock, which the running bot holds."""
    if url.startswith("sqlite:///"):
        import sqlite3

        path = url.removeprefix("sqlite:///")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            return [tuple(r) for r in conn.execute(query, params).fetchall()]
        finally:
            conn.close()
    import asyncpg

    n = 0

    def number(_m: Any) -> str:
        nonlocal n
        n += 1
        return f"${n}"

    import re

    pg_query = re.sub(r"\?", number, query)
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(pg_query, *params)]
    finally:
        await conn.close()


async def read_positions(url: str, ids: list[int]) -> dict[int, tuple[str, Any]]:
    """match id -> (status, engine state) for ``ids``."""
    out: dict[int, tuple[str, Any]] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ",".join("?" * len(chunk))
        for mid, status, state in await sql_rows(url, f"SELECT id, status, state FROM matches WHERE id IN ({marks})",
                                                 tuple(chunk)):
            out[mid] = (status, state)
    return out


async def read_moves(url: str, ids: list[int]) -> list[tuple[int, int, int | None, str]]:
    """(match id, seat, user id, notation) of every logged move of ``ids``."""
    out: list[tuple[int, int, int | None, str]] = []
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ",".join("?" * len(chunk))
        out += await sql_rows(url, f"SELECT match_id, seat, user_id, notation FROM moves WHERE match_id IN ({marks}) "
                              "ORDER BY match_id, ply",
                              tuple(chunk))
    return out


async def run_load(cfg: LoadConfig, workdir: Path, *, on_start: Any = None) -> LoadReport:
    """Run the load described by ``cfg`` (logs under ``workdir``) and audit the move log."""
    workdir.mkdir(parents=True, exist_ok=True)
    url = cfg.database or f"sqlite:///{workdir}/load-{secrets.token_hex(4)}.sqlite3"
    report = LoadReport(cfg)
    rng = random.Random(cfg.seed)
    shards = max(1, cfg.processes)
    async with FakeDiscord(shard_count=shards, log_dir=workdir / "logs", ack_deadline=3.0) as fd:
        guilds = [guild_on_shard(fd, i % shards, shards, "Load") for i in range(cfg.guilds or 2 * shards)]
        users = [fd.create_user(f"p{i}") for i in range(cfg.players)]
        for g in guilds:
            for u in users:
                g.add_member(u)
        locals_ = await seed(url, fd, cfg, users, guilds)
        by_user: dict[int, list[_Local]] = {u.id: [] for u in users}
        for loc in locals_:
            for uid in set(loc.seat_users):
                by_user[uid].append(loc)
        names = []
        for i in range(cfg.processes):
            env = dict(cfg.env)
            if cfg.processes > 1:
                env.update(PARLOR_SHARD_COUNT=str(shards), PARLOR_SHARD_IDS=str(i))
            name = f"bot{i}"
            await start_parlor(fd, url, *(g.id for g in guilds), name=name, env=env)
            names.append(name)
        if on_start is not None:
            await on_start(fd)

        attempts: Counter[tuple[int, int, str]] = Counter()
        acked: Counter[tuple[int, int, str]] = Counter()
        up = asyncio.Event()
        up.set()
        loop = asyncio.get_running_loop()
        t_start = loop.time()
        t_end = t_start + cfg.seconds
        resync: set[int] = set()

        async def refresh(locs: list[_Local]) -> None:
            found = await read_positions(url, [loc.mid for loc in locs])
            for loc in locs:
                got = found.get(loc.mid)
                if got is not None:
                    status, state = got
                    if isinstance(state, str):
                        state = json.loads(state)
                    loc.state = loc.rules.load(state) if state is not None else None
                    loc.over = (status != "running" or loc.state is None
                                or loc.rules.outcome(loc.state) is not None)

        async def play(user: Any) -> None:
            mine = by_user[user.id]
            while loop.time() < t_end:
                await up.wait()
                stale = [loc for loc in mine if loc.mid in resync and not loc.busy]
                if stale:
                    for loc in stale:
                        resync.discard(loc.mid)
                    await refresh(stale)
                ready = [loc for loc in mine if not loc.busy and loc.to_move() == user.id and loc.mid not in resync]
                if not ready:
                    await asyncio.sleep(0.02)
                    continue
                loc = rng.choice(ready)
                seat = loc.seat_users.index(user.id)
                moves = [mv for mv in loc.rules.legal_moves(loc.state, seat)
                         if loc.rules.format(mv, loc.state) != "agree"]
                if not moves:
                    loc.over = True
                    continue
                move = rng.choice(moves)
                notation = loc.rules.format(move, loc.state)
                key = (loc.mid, user.id, notation)
                loc.busy = True
                attempts[key] += 1
                report.sent += 1
                t0 = time.perf_counter()
                try:
                    r = await user.slash(loc.chan, "pylon move", notation=notation, check=False)
                    if r.failed:
                        report.refusals["no answer (" + (r.failure_reason or "failed").split(" (")[0][:60] + ")"] += 1
                        resync.add(loc.mid)
                        await asyncio.sleep(0.2)  # as a person would, before trying again
                        continue
                    msg = await r.message(timeout=cfg.answer_timeout)
                    elapsed = time.perf_counter() - t0
                    # the new board (a picture; the last one of a match has no buttons) showing the move
                    if not r.ephemeral and msg.attachments and msg.attachments[0].is_png and notation in msg.text:
                        acked[key] += 1
                        report.acked += 1
                        report.latencies.append(elapsed)
                        loc.state, _ = loc.rules.apply(loc.state, seat, move)
                        if loc.rules.outcome(loc.state) is not None:
                            loc.over = True
                    else:
                        report.refusals[classify(msg.text)] += 1
                        resync.add(loc.mid)
                except Exception as exc:  # noqa: BLE001 - a timeout or a failed interaction is a refusal
                    report.refusals[f"no answer ({type(exc).__name__})"] += 1
                    resync.add(loc.mid)
                finally:
                    loc.busy = False

        async def killer() -> None:
            if not cfg.kill_every:
                return
            turn = 0
            while True:
                await asyncio.sleep(cfg.kill_every)
                if loop.time() >= t_end:
                    return
                name = names[turn % len(names)]
                turn += 1
                if cfg.processes == 1:
                    up.clear()  # players wait for the restart (with several, the other shards carry on)
                try:
                    await fd.bots[name].kill()
                    report.kills += 1
                    await fd.restart_bot(kill=True, name=name, timeout=60)
                finally:
                    up.set()

        kill_task = asyncio.create_task(killer())
        await asyncio.gather(*(play(u) for u in users))
        report.elapsed = loop.time() - t_start
        await asyncio.wait_for(kill_task, 90)  # a restart under way finishes (it stops at t_end)
        await asyncio.sleep(0.5)
        report.bot_errors = [e.get("message", "") for e in fd.bot_errors]

        stored: Counter[tuple[int, int, str]] = Counter()
        for mid, seat, user_id, notation in await read_moves(url, [loc.mid for loc in locals_]):
            if user_id is not None and seat >= 0:
                stored[(mid, user_id, notation)] += 1
        report.stored = sum(stored.values())
        for key, n in acked.items():
            if stored[key] < n:
                report.lost += n - stored[key]
                report.lost_moves.append(key)
        for key, n in stored.items():
            if n > attempts[key]:
                report.duplicated += n - attempts[key]
                report.duplicated_moves.append(key)
    return report
