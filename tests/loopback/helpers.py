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


def two_players(fd: Any) -> tuple[Any, Any, Any, Any]:
    """A server with a #games channel and two members: (guild, channel, alice, bob)."""
    guild = fd.create_guild("Parlor Test")
    chan = guild.create_text_channel("games")
    alice, bob = fd.create_user("alice"), fd.create_user("bob")
    guild.add_member(alice)
    guild.add_member(bob)
    return guild, chan, alice, bob


async def start_parlor(
    fd: Any, database: str, *guild_ids: int, name: str = "bot", env: dict | None = None, **kwargs: Any
) -> Any:
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
                if (
                    is_board(m)
                    and alice.global_name in m.text
                    and bob.global_name in m.text
                    and not m.deleted
                    and ((c.is_thread and c.parent is chan) or c is chan)
                ):
                    return (c, m)
        return None

    return await fd.wait_until(find_board, timeout=10, describe=lambda: "no Pylon board appeared")


def guild_on_shard(fd: Any, shard: int, count: int, name: str = "Parlor Test") -> Any:
    """A new guild whose id routes to ``shard`` of ``count`` ((guild_id >> 22) % count)."""
    while True:
        g = fd.create_guild(f"{name} {len(fd.guilds)}")
        if (g.id >> 22) % count == shard:
            return g


def hand_from_select(msg: Any) -> list[str]:
    """The pieces an EOF builder's select offers, with repeats (values like ``G2``; labels end in ``×n``)."""
    (sel,) = msg.selects()
    return [o.value for o in sel.options for _ in range(int(o.label.rsplit("×", 1)[1]))]


def some_program(hand: list[str], length: int = 5) -> list[str]:
    """``length`` instructions from ``hand``, each piece in an orientation its colour allows."""
    from bot.games.eof.pieces import VALID_ORIENTS, Piece

    out = []
    for p in hand[:length]:
        piece = Piece.parse(p)
        out.append(f"{p}{'UDLRS'[min(VALID_ORIENTS[piece.colour])]}")
    return out


async def eof_round_one_by_dm(
    fd: Any, chan: Any, alice: Any, bob: Any, builders: list[Any] | None = None
) -> tuple[Any, list[Any]]:
    """Two players open and start an EOF match (blind draw: the deal needs no clicks), then write their
    programs with ``/eof move`` in their DMs. Returns (the match thread, the two DM interactions); the
    program builders the bot sent by DM are appended to ``builders``."""
    mark = fd.mark()
    await alice.slash(chan, "eof new", draw="blind")
    lobby = await chan.wait_for(lambda m: "Start" in m.button_labels(), since=mark, timeout=10)
    await bob.click(lobby, "Join")
    await alice.click(lobby, "Start")
    thread = await fd.wait_until(lambda: lobby.thread, timeout=10, describe=lambda: "no EOF thread")
    dms = []
    for user in (alice, bob):
        dm = await user.wait_for_dm(lambda m: m.embed.title == "Round 1: your program", timeout=10)
        if builders is not None:
            builders.append(dm)
        program = some_program(hand_from_select(dm))
        r = await user.slash(user.dm_channel(), "eof move", notation=" ".join(program))
        reply = await r.message(timeout=10)
        if "Submit anyway" in reply.button_labels():
            await user.click(reply, "Submit anyway")
        dms.append(r)
    return thread, dms
