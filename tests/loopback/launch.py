"""Launcher: run an unmodified discord.py bot against fakecord.

    python -m parlor_loopback.launch --api http://127.0.0.1:PORT [--tag T] [--fast-ready] -- -m bot [args...]
    python -m parlor_loopback.launch --api http://127.0.0.1:PORT -- path/to/script.py [args...]

Before running the target exactly like ``python -m bot`` (runpy, ``__main__``, same argv shape),
it points discord.py at the fake server:

- ``discord.http.Route.BASE`` -> ``<api>/api/v10`` (REST, and interaction webhooks)
- ``DiscordWebSocket.DEFAULT_GATEWAY`` -> ``ws://.../gateway`` (discord.py 2.x connects there
  without asking ``/gateway/bot``; resume URLs come from READY)
- ``discord.Asset.BASE`` -> ``<api>/cdn`` (avatars etc. are served as small PNGs)
- the HTTP user agent gets ``fakecord-tag/<tag>`` so requests are attributed to this process

and it reports to the server (a side channel, not recorded as bot traffic) when the client
dispatches ``ready``/``resumed``/``connect``/``disconnect``, and every log record at WARNING or
above (tracebacks from event handlers, views, app commands...). Nothing of the bot is changed.
``--fast-ready`` lowers ``guild_ready_timeout`` from 2 s to 0.1 s unless the bot passes its own, and drops
discord.py's 5 s pause before each IDENTIFY after the first (several shards in one process).
"""

from __future__ import annotations

import argparse
import atexit
import json
import logging
import os
import queue
import runpy
import sys
import threading
import traceback
import urllib.request


class _Notifier:
    def __init__(self, url: str, tag: str):
        self.url = url
        self.tag = tag
        self.q: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="fakecord-notify", daemon=True)
        self.thread.start()
        atexit.register(self.flush)

    def send(self, data: dict) -> None:
        data.setdefault("tag", self.tag)
        data.setdefault("pid", os.getpid())
        self.q.put(data)

    def _run(self) -> None:
        while True:
            data = self.q.get()
            try:
                req = urllib.request.Request(
                    self.url,
                    data=json.dumps(data, default=str).encode(),
                    headers={"Content-Type": "application/json"},
                    method="POST",
                )
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                opener.open(req, timeout=3).close()
            except Exception:
                pass
            finally:
                self.q.task_done()

    def flush(self, timeout: float = 1.5) -> None:
        done = threading.Event()

        def wait():
            self.q.join()
            done.set()

        threading.Thread(target=wait, daemon=True).start()
        done.wait(timeout)


def install(api: str, tag: str = "", *, fast_ready: bool = False, notify: bool = True) -> None:
    """Patch discord.py (in this process) to talk to the fake server at ``api``."""
    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    api = api.rstrip("/")
    discord.http.Route.BASE = f"{api}/api/v10"
    ws = api.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/gateway"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws)
    discord.asset.Asset.BASE = f"{api}/cdn"

    if tag:
        orig_http_init = discord.http.HTTPClient.__init__

        def http_init(self, *args, **kwargs):
            orig_http_init(self, *args, **kwargs)
            self.user_agent = f"{self.user_agent} fakecord-tag/{tag}"

        discord.http.HTTPClient.__init__ = http_init

    if fast_ready:
        orig_state_init = discord.state.ConnectionState.__init__

        def state_init(self, *args, **options):
            orig_state_init(self, *args, **options)
            if "guild_ready_timeout" not in options:
                self.guild_ready_timeout = 0.1

        discord.state.ConnectionState.__init__ = state_init

        # discord.py waits 5 s before every IDENTIFY but the first (Discord's identify rate limit, which
        # the loopback server does not have): several shards in one process connect at once here.
        # (Parlor addition; a bot overriding before_identify_hook keeps its own.)
        async def before_identify_hook(self, shard_id, *, initial=False):
            return None

        if discord.Client.before_identify_hook.__module__ == "discord.client":
            discord.Client.before_identify_hook = before_identify_hook

    if not notify:
        return
    notifier = _Notifier(f"{api}/__fakecord/notify", tag)
    orig_dispatch = discord.Client.dispatch

    def dispatch(self, event, /, *args, **kwargs):
        if event in ("ready", "resumed", "connect", "disconnect", "shard_ready"):
            notifier.send({"event": event})
        return orig_dispatch(self, event, *args, **kwargs)

    discord.Client.dispatch = dispatch

    orig_call_handlers = logging.Logger.callHandlers

    def call_handlers(self, record):
        if record.levelno >= logging.WARNING and not record.name.startswith("fakecord"):
            try:
                text = record.getMessage()
                if record.exc_info:
                    text += "\n" + "".join(traceback.format_exception(*record.exc_info))
                notifier.send(
                    {"event": "log", "level": record.levelname, "logger": record.name, "message": text}
                )
            except Exception:
                pass
        return orig_call_handlers(self, record)

    logging.Logger.callHandlers = call_handlers

    orig_excepthook = sys.excepthook

    def excepthook(tp, value, tb):
        if not issubclass(tp, (KeyboardInterrupt, SystemExit)):
            notifier.send(
                {
                    "event": "log",
                    "level": "CRITICAL",
                    "logger": "uncaught",
                    "message": "".join(traceback.format_exception(tp, value, tb)),
                }
            )
            notifier.flush()
        orig_excepthook(tp, value, tb)

    sys.excepthook = excepthook


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" in argv:
        i = argv.index("--")
        own, target = argv[:i], argv[i + 1 :]
    else:
        own, target = argv, []
    parser = argparse.ArgumentParser(prog="python -m parlor_loopback.launch")
    parser.add_argument(
        "--api", required=True, help="base URL of the fake server, e.g. http://127.0.0.1:8123"
    )
    parser.add_argument("--tag", default=os.environ.get("FAKECORD_TAG", ""))
    parser.add_argument("--fast-ready", action="store_true")
    parser.add_argument("--no-notify", action="store_true")
    opts = parser.parse_args(own)
    if not target:
        parser.error("give the bot after '--': -m bot [args] or script.py [args]")
    install(opts.api, opts.tag, fast_ready=opts.fast_ready, notify=not opts.no_notify)
    if target[0] == "-m":
        if len(target) < 2:
            parser.error("-m needs a module name")
        module = target[1]
        sys.argv = [module, *target[2:]]
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        script = target[0]
        sys.argv = [script, *target[1:]]
        sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
