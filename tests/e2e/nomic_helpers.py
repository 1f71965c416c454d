"""Helpers for the Nomic World end-to-end tests (players acting through the Discord test double)."""

from __future__ import annotations

from typing import Any

from bot.matches.service import Match

REACTION_ROUTES = "/reactions/"


def is_board(m: Any) -> bool:
    return bool(m.attachments) and m.attachments[0].is_png and "Nomic World" in m.text and "Match #" in m.text


def non_reaction_calls(dd: Any, since: Any) -> list[Any]:
    """The bot's requests since ``since``, without the reaction routes (add / remove a reaction)."""
    return [r for r in dd.api_calls(since=since) if REACTION_ROUTES not in r.route]


async def start_game(w: Any, players: tuple[Any, ...] | None = None, **opts: Any) -> tuple[Any, Any, int]:
    """``/nomic new`` by the first player, the others join, the host starts.

    Returns (thread, first board, match id)."""
    players = players or (w.alice, w.bob, w.carol)
    host, *others = players
    await host.slash(w.chan, "nomic new", **opts)
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels() and "Nomic World" in m.text)
    for p in others:
        await p.click(lobby, "Join")
    await host.click(lobby, "Start")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    recs = await w.bot.store.active_matches()
    return thread, board, recs[-1].id


async def match(w: Any, mid: int) -> Match:
    return await w.bot.service.get(mid)


async def roll(w: Any, mid: int) -> int:
    m = await match(w, mid)
    assert m.state.phase == "move", m.state.phase
    return int(m.state.roll)


def user_of(w: Any, m: Match, seat: int) -> Any:
    uid = m.seats[seat].user_id
    return next(u for u in (w.alice, w.bob, w.carol, w.dave, w.admin) if u.id == uid)


async def current(w: Any, mid: int) -> Any:
    """The SimUser whose turn it is."""
    m = await match(w, mid)
    return user_of(w, m, m.state.current)


async def walk(w: Any, thread: Any, mid: int, path: str | None = None) -> Any:
    """The current player moves with ``/nomic move`` (north all the way unless ``path``); the new board."""
    user = await current(w, mid)
    r = await user.slash(thread, "nomic move", notation=path or "N" * await roll(w, mid))
    assert not r.ephemeral, (await r.message()).text
    board = await r.message()
    await w.dd.settle()
    return board


async def propose(w: Any, thread: Any, mid: int, **options: Any) -> Any:
    """The current player (in the rule-change phase) proposes; returns the proposal message."""
    user = await current(w, mid)
    r = await user.slash(thread, "nomic propose", **options)
    msg = await r.message()
    assert not r.ephemeral, msg.text
    await w.dd.settle()
    return msg


async def vote_all(w: Any, mid: int, msg: Any, emoji: str = "\u2705", *, skip: tuple[Any, ...] = ()) -> None:
    """Every voter still to vote reacts ``emoji`` on the proposal ``msg``."""
    m = await match(w, mid)
    voters = sorted(m.rules.to_act(m.state))
    for seat in voters:
        u = user_of(w, m, seat)
        if u in skip:
            continue
        await u.react(msg, emoji)
        await w.dd.settle()
