"""Helpers for driving the real ``python -m bot`` through the loopback Discord (tests and benches)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


def is_board(message: Any) -> bool:
    try:
        return bool(message.attachments) and message.attachments[0].is_png and bool(message.components)
    except (AttributeError, IndexError, KeyError, TypeError):
        return False


def parlor_env(database: str, *guild_ids: int, **extra: str) -> dict[str, str]:
    """Environment for a Parlor process: its database, instant guild commands, quiet logs."""
    env = {"PARLOR_DATABASE": database, "LOG_LEVEL": "WARNING"}
    if guild_ids:
        env["PARLOR_COMMAND_GUILDS"] = ",".join(str(g) for g in guild_ids)
    env.update(extra)
    return env


async def start_parlor(fd: Any, database: str, *guild_ids: int, name: str = "bot", env: dict | None = None,
                       **kwargs: Any) -> Any:
    """Start ``python -m bot`` from the repository root against ``fd`` and wait until it is ready."""
    full = parlor_env(database, *guild_ids)
    full.update(env or {})
    kwargs.setdefault("timeout", 60)
    return await fd.start_bot(cwd=REPO_ROOT, module="bot", name=name, env=full, wait_commands=True, **kwargs)


async def start_pylon(fd: Any, chan: Any, alice: Any, bob: Any) -> tuple[Any, Any]:
    """alice challenges bob in ``chan``; bob accepts; returns (thread or channel, board message)."""
    mark = fd.mark()
    await alice.slash(chan, "pylon new", opponent=bob)
    invite = await chan.wait_for(lambda m: "Accept" in m.button_labels(), since=mark, timeout=10)
    await bob.click(invite, "Accept")

    def find_board():
        for c in [*chan.guild.threads, chan]:
            for m in reversed(c.messages):
                if is_board(m) and alice.global_name in m.text and bob.global_name in m.text and not m.deleted:
                    if c.is_thread and c.parent is chan or c is chan:
                        return (c, m)
        return None

    return await fd.wait_until(find_board, timeout=10, describe=lambda: "no Pylon board appeared")
