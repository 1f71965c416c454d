"""Helpers for the EOF end-to-end tests (players acting through the Discord test double)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import Any

from bot.app import ParlorBot
from bot.config import Config
from bot.games.eof.pieces import VALID_ORIENTS, Instruction, Piece, pieces_of
from bot.games.eof.rules import EofState, Phase
from bot.matches import service as service_module
from bot.matches.service import Match
from bot.storage.sqlite import SqliteStore
from tests.discord_double import Channel, DiscordDouble, Message, SimUser

EXTENSIONS = ("cogs.errors", "cogs.eof")
ORIENT_LABELS = {"U": "Up", "D": "Down", "L": "Left", "R": "Right", "S": "Standing"}
INSTRUCTION = re.compile(r"\b[RYGB][1-3][UDLRS]\b")


class Clock:
    """A fake wall clock for the match service (deadlines, turn limits)."""

    def __init__(self, t: float = 1_900_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def fix_seed(monkeypatch: Any, seed: str) -> None:
    """Make the next matches' RNG seed ``seed`` (only the match service's ``secrets`` is replaced)."""
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(token_hex=lambda n=8: seed))


def make_bot(dd: DiscordDouble, path: str, clock: Clock) -> ParlorBot:
    return ParlorBot(Config(token=dd.token), SqliteStore(path), clock=clock, extensions=EXTENSIONS)


async def eof_world(dd: DiscordDouble, tmp_path: Any, clock: Clock, names: Sequence[str] = ("alice", "bob"),
                closed: Iterable[str] = ()) -> tuple[ParlorBot, Channel, list[SimUser]]:
    """A guild with a #games channel, the players as members (``closed``: DMs closed), the bot connected.

    Unlike ``conftest.world`` the bot syncs its commands globally (no ``command_guilds``): guild commands
    cannot be used in DMs, and EOF programs are typed there with ``/eof move``.
    """
    guild = dd.create_guild("Parlor Test")
    chan = guild.create_text_channel("games")
    users = [dd.create_user(n, dms_open=n not in set(closed)) for n in names]
    for u in users:
        guild.add_member(u)
    bot = make_bot(dd, str(tmp_path / "parlor.sqlite3"), clock)
    await dd.connect(bot)
    return bot, chan, users


def button_by_suffix(msg: Message, suffix: str) -> Any:
    for b in msg.buttons():
        if b.custom_id and b.custom_id.endswith(suffix):
            return b
    raise AssertionError(f"no button ending {suffix!r} in {[b.custom_id for b in msg.buttons()]}")


async def click_suffix(user: SimUser, msg: Message, suffix: str) -> Any:
    return await user.click(msg, custom_id=button_by_suffix(msg, suffix).custom_id)


async def latest_match_id(bot: ParlorBot) -> int:
    recs = await bot.store.active_matches()
    assert recs, "no active match"
    return recs[-1].id


def board_message(dd: DiscordDouble, match: Match) -> Message:
    assert match.rec.message_id is not None
    return dd.messages[match.rec.message_id]


def user_of(match: Match, users: Sequence[SimUser], seat: int) -> SimUser:
    uid = match.seats[seat].user_id
    return next(u for u in users if u.id == uid)


async def open_lobby(alice: SimUser, chan: Channel, **options: Any) -> Message:
    await alice.slash(chan, "eof new", **options)
    return await chan.wait_for(lambda m: "lobby" in (m.embed.title or "") and "Start" in m.button_labels())


async def start(dd: DiscordDouble, host: SimUser, lobby: Message) -> Channel:
    """Press Start; returns the match thread once the first board is there."""
    await host.click(lobby, "Start")
    await dd.settle()
    thread = lobby.thread
    assert thread is not None, "the match thread was not created"
    await thread.wait_for(lambda m: m.embed.title and m.embed.title.startswith("EOF"))
    return thread


def pick_size(state: EofState) -> str:
    """The size button to press: medium when there are any, else whatever is left."""
    from bot.games.eof.pieces import size_totals

    sizes = size_totals(state.bag)
    for letter, n in zip("MSL", (sizes[1], sizes[0], sizes[2]), strict=True):
        if n:
            return letter
    return "any"


async def deal_by_buttons(dd: DiscordDouble, bot: ParlorBot, mid: int, users: Sequence[SimUser],
                          choose: Callable[[EofState], str] = pick_size) -> Match:
    """Click the size buttons on the thread's board for whoever draws, until programming starts."""
    for _ in range(200):
        m = await bot.service.get(mid)
        s: EofState = m.state
        if s.phase is not Phase.DEAL:
            return m
        drawer = s.drawer
        assert drawer is not None
        board = board_message(dd, m)
        await click_suffix(user_of(m, users, drawer), board, f":m:{choose(s)}")
        await (
            dd.settle()
        )  # a draw that begins another player's turn moves the board down (a new, pinging one)
    raise AssertionError("the deal did not end")


async def builder_dm(user: SimUser, round_no: int = 1, since: Any = None) -> Message:
    return await user.wait_for_dm(lambda m: m.embed.title == f"Round {round_no}: your program", since=since)


def hand_from_select(msg: Message) -> list[str]:
    """The pieces the builder's select offers, with repeats (values like ``G2``; labels end in ``×n``)."""
    (sel,) = msg.selects()
    return [o.value for o in sel.options for _ in range(int(o.label.rsplit("×", 1)[1]))]


async def build_in(user: SimUser, msg: Message, program: Sequence[str], *, submit: bool = True) -> None:
    """Build ``program`` (instruction strings) in a builder message (DM or ephemeral) by clicks."""
    for ins in program:
        piece, orient = ins[:2], ins[2]
        await user.select(msg, [piece])
        label = ORIENT_LABELS[orient]
        names = msg.button_labels()
        # plain, "(crashes)" (impossible orientation) or "(would crash now)" (the dry run crashes)
        await user.click(msg, next(n for n in names if n == label or n.startswith(f"{label} (")))
    if submit:
        await user.click(msg, "Submit")
        await user.click(msg, "Confirm")


def some_program(hand: Sequence[str], length: int, first: Sequence[str] = ()) -> list[str]:
    """``first`` followed by instructions (valid orientations) from the rest of ``hand``."""
    rest = list(hand)
    out = list(first)
    for ins in first:
        rest.remove(ins[:2])
    for p in rest[:length - len(out)]:
        piece = Piece.parse(p)
        orient = "UDLRS"[min(VALID_ORIENTS[piece.colour])]
        out.append(f"{p}{orient}")
    return out


def hand_of(state: EofState, seat: int) -> list[str]:
    return [str(p) for p in pieces_of(state.hands[seat])]


def describe(ins: str) -> str:
    i = Instruction(Piece.parse(ins[:2]).colour, int(ins[1]), "UDLRS".index(ins[2]))
    return i.describe()


def public_texts(chan: Channel) -> list[tuple[Message, str]]:
    """Everything a bystander can read in ``chan`` and its threads: text, labels, options, file names."""
    out = []
    chans = [chan, *chan.threads]
    for ch in chans:
        for m in ch.public_messages:
            bits = [m.text, " ".join(b.label or "" for b in m.buttons())]
            for sel in m.selects():
                bits += [f"{o.label} {o.value} {o.description or ''}" for o in sel.options]
            bits += [a.filename for a in m.attachments]
            for old in m.edits:
                bits.append(str(old))
            out.append((m, "\n".join(bits)))
    return out
