"""A PostgreSQL server for the tests, or a loud reason why there is none.

``PARLOR_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``) names a server the tests
may create databases on. Where none answers, a throw-away cluster is started with ``initdb``/``pg_ctl``
when those are installed. With ``CI=true`` a missing PostgreSQL is a failure, never a silent skip.

Each test session creates its own database (``parlor_test_<random>``, dropped at the end); each test gets
its own schema in it (``t_<random>``, selected through the URL's ``search_path``), so tests and helpers
running at the same time never see each other's rows.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


def run(coro):  # type: ignore[no-untyped-def]
    """Run ``coro`` to completion on its own loop in a thread
    (fixtures may be set up inside a running loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


async def _answers(url: str) -> str | None:
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=3)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A throw-away cluster started by the tests (stopped at the end of the session)."""

    datadir: Path
    port: int
    run_as: list[str]

    def stop(self) -> None:
        subprocess.run([*self.run_as, "pg_ctl", "-D", str(self.datadir), "-m", "immediate", "stop"],
                       capture_output=True, check=False)
        shutil.rmtree(self.datadir.parent, ignore_errors=True)


def _start_cluster() -> tuple[Cluster | None, str]:
    if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
        return None, "initdb/pg_ctl are not installed"
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        if shutil.which("runuser") is None:
            return None, "running as root and runuser is missing"
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return None, "running as root and there is no 'postgres' user to run initdb"
        run_as = ["runuser", "-u", "postgres", "--"]
    base = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
    os.chmod(base, 0o777)
    datadir, port = base / "data", _free_port()
    init = subprocess.run(
        [*run_as, "initdb", "-D", str(datadir), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
        capture_output=True,
        text=True,
        check=False,
    )
    if init.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        return None, f"initdb failed: {init.stderr.strip()[:200]}"
    start = subprocess.run([*run_as, "pg_ctl", "-D", str(datadir), "-w", "-l", str(base / "log"), "-o",
                            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                           capture_output=True, text=True, check=False)
    if start.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        return None, f"pg_ctl start failed: {start.stderr.strip()[:200]}"
    return Cluster(datadir, port, run_as), ""


@dataclass
class PgSession:
    admin_url: str           # a database on the server to issue CREATE/DROP DATABASE from
    url: str                 # this session's own database
    name: str
    cluster: Cluster | None = None

    def fresh_schema_url(self) -> tuple[str, str]:
        schema = f"t_{uuid.uuid4().hex[:12]}"
        run(self._sql(self.url, f'CREATE SCHEMA "{schema}"'))
        return f"{self.url}?search_path={schema}", schema

    def fresh_database_url(self) -> tuple[str, str]:
        name = f"parlor_test_{uuid.uuid4().hex[:12]}"
        run(self._sql(self.admin_url, f'CREATE DATABASE "{name}"'))
        return self.admin_url.rsplit("/", 1)[0] + f"/{name}", name

    def drop_database(self, name: str) -> None:
        run(self._sql(self.admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    @staticmethod
    async def _sql(url: str, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(url, timeout=5)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def close(self) -> None:
        try:
            self.drop_database(self.name)
        finally:
            if self.cluster is not None:
                self.cluster.stop()


def start_session() -> tuple[PgSession | None, str]:
    """A session database on the configured server or a throw-away cluster; or (None, why not)."""
    url = os.environ.get("PARLOR_TEST_POSTGRES", "").strip() or DEFAULT
    why = run(_answers(url))
    cluster = None
    if why is not None:
        cluster, why_cluster = _start_cluster()
        if cluster is None:
            return None, f"no PostgreSQL at {url} ({why}) and no throw-away cluster ({why_cluster})"
        url = f"postgresql://postgres@127.0.0.1:{cluster.port}/postgres"
    name = f"parlor_test_{uuid.uuid4().hex[:12]}"
    session = PgSession(url, url.rsplit("/", 1)[0] + f"/{name}", name, cluster)
    run(session._sql(url, f'CREATE DATABASE "{name}"'))
    return session, ""
