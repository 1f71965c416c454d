"""The bot under test as a subprocess: start via the launcher, wait until ready, stop, kill -9."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional

from .errors import BotExited, WaitTimeout

if TYPE_CHECKING:  # pragma: no cover
    from .core import FakeDiscord

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_MINIMAL_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "VIRTUAL_ENV")


def _pdeathsig() -> None:  # pragma: no cover - runs in the child
    """Linux: kill the bot if the test process dies, so no orphan keeps running."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class BotProcess:
    """One bot process (one "incarnation" per start; ``tag`` identifies it in logs and records)."""

    def __init__(self, fd: "FakeDiscord", *, name: str, cwd: Path, module: Optional[str], script: Optional[str],
                 args: List[str], env: Dict[str, str], inherit_env: bool, python: Optional[str], fast_ready: bool,
                 incarnation: int = 1):
        self.fd = fd
        self.name = name
        self.cwd = Path(cwd).resolve()
        self.module = module
        self.script = script
        self.args = args
        self.env = env
        self.inherit_env = inherit_env
        self.python = python or sys.executable
        self.fast_ready = fast_ready
        self.incarnation = incarnation
        self.tag = f"{name}-{incarnation}"
        self.log_path = fd.log_dir / f"{name}.log"
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.started_at: Optional[float] = None
        self.ready_at: Optional[float] = None
        self._log_offset = 0
        self._log_file = None

    # -- state -------------------------------------------------------------------
    @property
    def pid(self) -> Optional[int]:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def returncode(self) -> Optional[int]:
        return self.proc.returncode if self.proc else None

    @property
    def ready(self) -> bool:
        return any(e.get("tag") == self.tag and e.get("event") == "ready" for e in self.fd.bot_events)

    @property
    def startup_seconds(self) -> Optional[float]:
        """Seconds from process start to on_ready."""
        if self.ready_at is None or self.started_at is None:
            return None
        return self.ready_at - self.started_at

    def command_line(self) -> List[str]:
        from .core import LAUNCH_PACKAGE

        cmd = [self.python, "-m", f"{LAUNCH_PACKAGE}.launch", "--api", self.fd.api_url, "--tag", self.tag]
        if self.fast_ready:
            cmd.append("--fast-ready")
        cmd.append("--")
        if self.script:
            cmd += [self.script, *self.args]
        else:
            cmd += ["-m", self.module or "bot", *self.args]
        return cmd

    def environment(self) -> Dict[str, str]:
        if self.inherit_env:
            env = dict(os.environ)
        else:
            env = {k: os.environ[k] for k in _MINIMAL_ENV if k in os.environ}
        for k in list(env):
            if k.startswith(("PYTEST_", "FAKECORD_")) or k in ("http_proxy", "https_proxy", "HTTP_PROXY",
                                                                 "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
                env.pop(k, None)
        pylib = str(self.fd._pylib)
        env["PYTHONPATH"] = pylib + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["PYTHONUNBUFFERED"] = "1"
        env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
        env.update({k: str(v) for k, v in self.env.items()})
        env["DISCORD_TOKEN"] = self.fd.token
        env["FAKECORD_API"] = self.fd.api_url
        return env

    # -- control ---------------------------------------------------------------------
    async def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_file = open(self.log_path, "ab")
        self._log_offset = self._log_file.tell()
        header = f"\n===== fakecord: start {self.tag} at {time.strftime('%H:%M:%S')}: {' '.join(self.command_line())}\n"
        self._log_file.write(header.encode())
        self._log_file.flush()
        kwargs = {}
        if sys.platform.startswith("linux"):
            kwargs["preexec_fn"] = _pdeathsig
        self.started_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *self.command_line(), cwd=str(self.cwd), env=self.environment(), stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log_file, stderr=asyncio.subprocess.STDOUT, start_new_session=True, **kwargs)
        asyncio.ensure_future(self._watch())

    async def _watch(self) -> None:
        proc = self.proc
        if proc is None:
            return
        await proc.wait()
        self.fd.hub.mark_tag_dead(self.tag)
        if self._log_file is not None:
            try:
                self._log_file.write(f"===== fakecord: {self.tag} exited with {proc.returncode}\n".encode())
                self._log_file.close()
            except ValueError:
                pass
        self.fd._changed()

    async def wait_ready(self, timeout: float = 30.0, settle: float = 0.3) -> None:
        """Until on_ready was dispatched in the bot and its HTTP traffic went quiet for ``settle`` s."""
        fd = self.fd

        def check():
            if self.ready:
                return True
            if not self.alive:
                raise BotExited(f"bot {self.tag} exited with code {self.returncode} before it was ready; log:\n"
                                f"{self.log_tail(40)}")
            return False

        try:
            await fd.wait_until(check, timeout=timeout, describe=lambda: f"bot {self.tag} never dispatched on_ready")
        except WaitTimeout:
            raise BotExited(f"bot {self.tag} not ready after {timeout:.0f}s; log:\n{self.log_tail(40)}") from None
        ev = next(e for e in fd.bot_events if e.get("tag") == self.tag and e.get("event") == "ready")
        self.ready_at = ev["time"]
        await self.wait_quiet(settle, timeout)

    async def wait_quiet(self, settle: float = 0.3, timeout: float = 10.0) -> None:
        """Until this process has no request in flight and made none for ``settle`` seconds."""
        fd = self.fd
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            inflight = fd._inflight.get(self.tag, 0)
            last = max(fd._last_request_end.get(self.tag, 0.0), self.ready_at or 0.0)
            idle = time.monotonic() - last
            if inflight <= 0 and idle >= settle:
                return
            if not self.alive:
                raise BotExited(f"bot {self.tag} exited with code {self.returncode}; log:\n{self.log_tail(40)}")
            if loop.time() > deadline:
                return
            await asyncio.sleep(min(0.05, max(0.01, settle - idle)))

    async def stop(self, timeout: float = 5.0) -> None:
        """Graceful stop: SIGINT (discord.py closes cleanly), then SIGKILL after ``timeout``."""
        if not self.alive:
            self._close_log()
            return
        assert self.proc is not None
        try:
            os.kill(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except asyncio.TimeoutError:
            await self.kill()
        self._kill_group()
        self.fd.hub.mark_tag_dead(self.tag)
        self._close_log()

    async def kill(self) -> None:
        """SIGKILL the bot (and anything it spawned): a crash at an arbitrary instant."""
        if self.proc is None:
            return
        self._kill_group()
        try:
            await asyncio.wait_for(self.proc.wait(), 5.0)
        except asyncio.TimeoutError:  # pragma: no cover
            pass
        self.fd.hub.mark_tag_dead(self.tag)
        self._close_log()

    def _kill_group(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # our own session/process group (start_new_session)
        except (ProcessLookupError, PermissionError):
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass

    def _close_log(self) -> None:
        if self._log_file is not None:
            try:
                self._log_file.flush()
            except ValueError:
                pass

    # -- logs -------------------------------------------------------------------------
    def log_text(self, *, all_runs: bool = False) -> str:
        """This incarnation's stdout+stderr (``all_runs``: the whole log file)."""
        try:
            with open(self.log_path, "rb") as f:
                if not all_runs:
                    f.seek(self._log_offset)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        text = _ANSI.sub("", self.log_text())
        return "\n".join(text.splitlines()[-lines:])

    def __repr__(self) -> str:
        return f"<BotProcess {self.tag} pid={self.pid} alive={self.alive}>"
