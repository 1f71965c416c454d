"""Budget: a button move within twice the floor -- p50 ≤ 2× the floor's p50 and p99 ≤ 3× the floor's p99,
with 200 matches active, for every game's typical move.

The real bot (ParlorBot: cogs, SQLite store, renderers) runs against the in-process Discord double.
200 matches are active at once, spread evenly over the five games; then, per round, each game's typical
button move is played on a random match of that game, and right after it the *floor* answers a click:

- the floor is the same discord.py client (gateway parsing, interaction dispatch, HTTP layer) answering a
  click on a button of its own with a ready answer -- the message Parlor just sent for that game (same
  embed, same number of buttons, the same picture bytes), with no store and no drawing. It is measured
  in the same run, interleaved move by move with Parlor, so both see the same machine load.

Latency = interaction delivered → the bot's request carrying the new board's picture received: the
interaction response, or -- when the move pings the next player and the new board is posted below the
clicked one (two requests) -- that new board. For the floor it is its one response.

With ``--loopback`` the same moves go through the loopback Discord of tests/loopback instead: the real
``python -m bot`` process over loopback sockets (latency = interaction sent → the bot's callback request
received, ``Interaction.ack_latency``), and the floor is a separate process, bench/floor_bot.py: a minimal
discord.py bot answering each click with the ready board (on a second loopback Discord in the same run,
so both bots are driven alternately by the same process).

Typical moves (the measured interaction):
  pylon       the square select after choosing a size (the move), players who chose no pings (/notify off):
              the board is edited in place (one request)
  pylon_ping  the same move where the next player is pinged in the thread (the default): the new board is
              posted below and the clicked one retired (two requests); timed to the new board's post
  fireandice  the destination select after choosing a piece (the move)
  eggcarton   a pick button (the default speed: the sowing is an animated GIF)
  eof         a size button of the deal (a draw)
  nomic       a direction button while building a path (redraws the map with the planned path)
  nomic_ok    the Confirm button that plays the path (the move)

With ``--compare=DIR`` (loopback only) a second Parlor -- the checkout in DIR, e.g. ``git worktree`` of main
before a change -- runs on its own loopback Discord in the same run, its moves interleaved with this
Parlor's and the floor's, so a before/after comparison sees the same machine load (rows ``before``).

``--phases`` (in-process only) also prints where the bot's time goes: p50 per call of the store (load, save),
the match service, drawing, encoding and the whole board (render + encode, run in a worker thread).

``--lang=es`` (or ``pt_BR``, ``en``) plays as readers of that language: every player's Discord client and the
server's community language are that language's (``es-ES``), so private answers and public boards are written
in it. The bench finds buttons and selects by their custom_id (the action Parlor encodes in it), never by
their words, so the same moves are played and timed in any language.

``--compare-lang=en`` (loopback only) runs a second Parlor from this checkout whose players and server read
that language, its moves interleaved with the first's and the floor's (rows labelled ``en``): two languages
compared in the same run, so the machine's drift between runs does not pass for a language's cost.

``--quiet=MS`` (loopback only; default 20) is how long the bot sends nothing before the next move is played.
The work the bot does ahead of a player's next click after answering (the Egg Carton's sowings, the boards of
EOF's size buttons and of Nomic's Confirm: bot/games/egg_carton/sowing.py, cogs/_game/board.py) then
overlaps the next moves of other matches: ``--quiet=1`` shows what that costs them on a busy bot.

``--thinking`` (loopback only) adds, on each Parlor, a player in a Pylon match against the ``hard`` computer
who answers each computer move at once (a random legal move, typed), match after match: the computer is
thinking through the whole run, and the rows show what that costs the other matches' moves. The computer
thinks in its own process (bot/matches/workers.py); a checkout from before that (``--compare``) thinks in a
thread of the bot.

Usage: python bench/move_floor.py [matches=200] [rounds=100] [--loopback [--compare=DIR] [--compare-lang=LANG]
                                  [--quiet=MS]
                                  [--thinking]] [--lang=es] [--profile] [--phases] [--debug]
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import json
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from _world import ROOT, make_bot, pct, wrap_timed

from tests.discord_double import DiscordDouble

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
MATCHES = int(ARGS[0]) if len(ARGS) > 0 else 200
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 100
PROFILE = "--profile" in sys.argv
PHASES = "--phases" in sys.argv
DEBUG = "--debug" in sys.argv
LOOPBACK = "--loopback" in sys.argv
COMPARE = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--compare=")]
GAMES = ("pylon", "fireandice", "eggcarton", "eof", "nomic")
QUIET = (
    0.002  # dd.settle quiet time between steps (the bot's follow-up work must be done before the next move)
)
LANG = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--lang=")), "en")
COMPARE_LANG = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--compare-lang=")]
THINKING = "--thinking" in sys.argv[1:]
LOOPBACK_QUIET = next(  # the same through the loopback server (it sees the bot's requests, not its tasks)
    (float(a.split("=", 1)[1]) / 1000 for a in sys.argv[1:] if a.startswith("--quiet=")), 0.02
)


# ------------------------------------------------------------------------------------------ the floor


@dataclass
class Ready:
    embed: dict[str, Any]
    data: bytes
    filename: str
    buttons: int


def discord_locale(lang: str) -> str:
    """The Discord locale the bench's players and server use for Parlor's language ``lang``."""
    from bot.i18n.catalogs import LANGUAGES, discord_locales

    if lang not in LANGUAGES:
        raise SystemExit(f"--lang={lang}: Parlor speaks {', '.join(LANGUAGES)}")
    return "en-US" if lang == "en" else discord_locales(lang)[0]


def action(item: Any) -> str:
    """The action of a match component (``p:<match>:<version>:<action>``, ``s:...`` for a select); "" for
    anything else. Buttons are found by it, not by their label, so the bench plays in any language."""
    cid = getattr(item, "custom_id", None) or ""
    parts = cid.split(":", 3)
    return parts[3] if len(parts) == 4 and parts[0] in ("p", "s") else ""


def with_action(msg: Any, want: Callable[[str], bool]) -> list[Any]:
    """The enabled buttons of ``msg`` whose action ``want`` accepts."""
    return [b for b in msg.buttons() if not b.disabled and want(action(b))]


READY: dict[str, Ready] = {}
PHASE_TIMES: dict[str, list[float]] = {}


def floor_view(game: str, n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i in range(max(1, n)):
        view.add_item(discord.ui.Button(label=f"Floor {i}", custom_id=f"floor:{game}:{i}"))
    return view


class FloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"floor:(?P<game>\w+):(?P<n>\d+)"):
    """The floor: answer the click with the ready-made board (embed, picture, buttons) and nothing else."""

    def __init__(self, item: discord.ui.Button[Any], game: str) -> None:
        super().__init__(item)
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: Any, /
    ) -> FloorButton:
        return cls(item, match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        r = READY[self.game]
        await interaction.response.edit_message(
            embed=discord.Embed.from_dict(r.embed),
            view=floor_view(self.game, r.buttons),
            attachments=[discord.File(io.BytesIO(r.data), r.filename)],
        )


# ------------------------------------------------------------------------------------------ the games


@dataclass
class Game:
    key: str
    matches: list[Any] = field(default_factory=list)  # per match: a dict (board message, players, match id)
    parlor: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    skipped: int = 0
    floor_msg: Any = None
    cpu: list[float] = field(default_factory=list)  # the bot process's CPU seconds per timed move (loopback)


class Bench:
    """Players acting on one Discord (the double or the loopback server) against Parlor."""

    def __init__(
        self,
        driver: Any,
        service: Any,
        store: Any,
        guild: Any,
        chan: Any,
        floor: Callable[[str], Awaitable[float]],
        quiet: float = QUIET,
        label: str = "Parlor",
        cpu: Callable[[], float] | None = None,
        lang: str = LANG,
    ) -> None:
        self.driver, self.service, self.store, self.guild, self.chan = driver, service, store, guild, chan
        self.label = label
        self.lang = lang  # the language of this Parlor's players and server
        self.cpu = cpu  # the bot process's CPU seconds so far (loopback), else None
        self.active = 0
        self.mark: Any = None  # the driver's mark just before the measured interaction
        self.floor = floor
        self.quiet = quiet
        self.rng = random.Random(7)
        self.users: list[Any] = []
        self.next_user = 0
        self.games = {g: Game(g) for g in GAMES}
        self.extra: dict[str, Game] = {"pylon_ping": Game("pylon_ping"), "nomic_ok": Game("nomic_ok")}
        self.thought = 0  # --thinking: the computer's moves during the run

    def players(self, n: int) -> list[Any]:
        out = []
        for _ in range(n):
            if self.next_user == len(self.users):
                u = self.driver.create_user(f"p{len(self.users)}", locale=discord_locale(self.lang))
                self.guild.add_member(u)
                self.users.append(u)
            out.append(self.users[self.next_user])
            self.next_user += 1
        return out

    async def settle(self) -> None:
        await self.driver.settle(quiet=self.quiet)

    def user(self, uid: int) -> Any:
        return next(u for u in self.users if u.id == uid)

    async def mover(self, mid: int) -> Any:
        m = await self.service.get(mid)
        return self.user(m.seats[min(m.to_act())].user_id)

    # -- new matches ----------------------------------------------------------------------------------
    async def new_match(self, game: str) -> dict[str, Any]:
        if game in ("eof", "nomic"):
            host, guest = self.players(2)
            mark = self.driver.mark()
            await host.slash(self.chan, f"{game} new")
            lobby = await self.chan.wait_for(
                lambda m: {"start", "join"} <= {action(b) for b in m.buttons()}, since=mark
            )
            await guest.click(lobby, custom_id=with_action(lobby, lambda a: a == "join")[0].custom_id)
            await host.click(lobby, custom_id=with_action(lobby, lambda a: a == "start")[0].custom_id)
        else:
            host, guest = self.players(2)
            quiet = game == "pylon" and len(self.games[game].matches) % 2 == 1
            if quiet:  # every other Pylon match: players who chose no pings ("pylon"; else "pylon_ping")
                for u in (host, guest):
                    await u.slash(self.chan, "notify", mode="off")
            await host.slash(self.chan, f"{game} new", opponent=guest)
            invite = await self.chan.wait_for(
                lambda m: any(action(b) == "accept" for b in m.buttons()) and str(guest.id) in m.content
            )
            await guest.click(invite, custom_id=with_action(invite, lambda a: a == "accept")[0].custom_id)
        await self.settle()
        # its players' (not merely the newest: with --thinking a match against the computer may be newer)
        mid = next(r.id for r in reversed(await self.store.active_matches())
                   if r.game == game and {host.id, guest.id} <= {s.user_id for s in r.seats})
        m = await self.service.get(mid)
        for _ in range(100):  # the loopback bot records the board's message id just after sending it
            if m.rec.message_id is not None and m.rec.message_id in self.driver.messages:
                break
            await asyncio.sleep(0.01)
            m = await self.service.get(mid)
        assert m.rec.message_id is not None, "no board"
        return {"mid": mid, "board": self.driver.messages[m.rec.message_id],
                "ping": game == "pylon" and not quiet}

    # -- --thinking: a match against the hard computer, kept thinking ------------------------------------
    async def keep_thinking(self) -> None:
        """Play Pylon against Parlor's ``hard`` computer, each answer typed as soon as it is this player's
        turn, one match after another (cancelled at the end of the run)."""
        (human,) = self.players(1)
        await human.slash(self.chan, "notify", mode="off")
        rng = random.Random(11)
        while True:
            known = {r.id for r in await self.store.active_matches()}
            await human.slash(self.chan, "pylon new", opponent=self.driver.bot_user, level="hard",
                              first="challenger")
            mid = None
            while mid is None:
                await asyncio.sleep(0.05)
                mid = next((r.id for r in await self.store.active_matches() if r.id not in known
                            and r.game == "pylon" and any(s.user_id == human.id for s in r.seats)), None)
            while True:
                m = await self.service.get(mid)
                if m.status.value != "running":
                    break
                seat = next(s.seat for s in m.seats if s.user_id == human.id)
                if seat not in m.to_act() or m.rec.thread_id is None:
                    await asyncio.sleep(0.02)
                    continue
                legal = [x for x in m.rules.legal_moves(m.state, seat)
                         if m.rules.format(x, m.state) != "agree"]
                await human.slash(self.driver.channels[m.rec.thread_id], "pylon move",
                                  notation=m.rules.format(rng.choice(legal), m.state))
                self.thought += 1
                for _ in range(100):  # the move is stored before the bot answers: wait until it is
                    if (await self.service.get(mid)).version > m.version:
                        break
                    await asyncio.sleep(0.02)

    # -- one typical move per game: prepare (not measured), then the measured interaction --------------
    async def move(self, game: str, rec: dict[str, Any]) -> tuple[str, Any] | None:
        """Play the game's typical move on ``rec``; (row, interaction) or None if the match has none left."""
        mid = rec["mid"]
        m = await self.service.get(mid)
        if m.status.value != "running" or m.rec.message_id not in self.driver.messages:
            return None
        board = rec["board"] = self.driver.messages[
            m.rec.message_id
        ]  # the live board (a new one after a ping)
        user = await self.mover(mid)
        if game == "pylon":
            sizes = with_action(board, lambda a: a in ("z1", "z2", "z3"))  # Small/Medium/Large (n left)
            if not sizes:
                return None
            await user.click(board, custom_id=self.rng.choice(sizes).custom_id)
            sel = self.rng.choice(board.selects())
            self.mark = self.driver.mark()
            row = "pylon_ping" if rec.get("ping") else game
            return row, await user.select(board, [self.rng.choice(sel.values)], custom_id=sel.custom_id)
        if game == "fireandice":
            selects = board.selects()
            if not selects:
                return None
            src = selects[0]
            await user.select(board, [self.rng.choice(src.values)], custom_id=src.custom_id)
            dst = board.selects()[0]
            self.mark = self.driver.mark()
            to = self.rng.choice(dst.values)
            inter = await user.select(board, [to], custom_id=dst.custom_id)
            # "Yes, play <move> (<side> wins)": the move's own button (not "m:pass" of a next board)
            yes = next(iter(with_action(board, lambda a: a == f"m:{to}")), None)
            if yes is None:
                return game, inter
            # the move hands the opponent the win: the board asks first, and the confirmation is the move
            await self.settle()
            self.mark = self.driver.mark()
            return game, await user.click(board, custom_id=yes.custom_id)
        if game == "eggcarton":
            picks = with_action(board, lambda a: a.startswith("m:"))  # "A · 4": a pit and its eggs
            if not picks:
                return None
            self.mark = self.driver.mark()
            return game, await user.click(board, custom_id=self.rng.choice(picks).custom_id)
        if game == "eof":
            if m.state.phase.name != "DEAL":
                return None
            sizes = with_action(board, lambda a: a.startswith("m:"))
            if not sizes:
                return None
            self.mark = self.driver.mark()
            return game, await user.click(board, custom_id=self.rng.choice(sizes).custom_id)
        if game == "nomic":
            # North/East/South/West are "pa:<plan><d>", Undo is "pa:<plan minus a step>", Confirm "m:<plan>"
            steps = [b for b in board.buttons() if action(b).startswith("pa:")]
            longest = max((len(action(b)) for b in steps), default=0)
            dirs = [b for b in steps if len(action(b)) == longest and not b.disabled]
            if dirs:
                self.mark = self.driver.mark()
                return game, await user.click(board, custom_id=self.rng.choice(dirs).custom_id)
            ok = next(iter(with_action(board, lambda a: a.startswith("m:"))), None)
            if ok is None:
                return None
            self.mark = self.driver.mark()
            return "nomic_ok", await user.click(board, custom_id=ok.custom_id)
        raise AssertionError(game)


async def run(benches: list[Bench], latency: Latency, prof: cProfile.Profile | None = None) -> None:
    """Set up the matches, then play ROUNDS rounds of every game's typical move on each Parlor in turn, each
    move followed by a floor click."""
    t0 = time.perf_counter()
    per_game = max(1, MATCHES // len(GAMES))
    for b in benches:
        for game in GAMES:
            for _ in range(per_game):
                b.games[game].matches.append(await b.new_match(game))
        b.active = len(await b.store.active_matches())
    print(
        f"{benches[0].active} matches active ({per_game} per game) on each Parlor, set up in "
        f"{time.perf_counter() - t0:.0f} s"
    )
    for xs in PHASE_TIMES.values():
        xs.clear()  # only the measured rounds
    thinkers = [asyncio.create_task(b.keep_thinking()) for b in benches] if THINKING else []
    try:
        for _ in range(ROUNDS):
            for game in GAMES:
                for b in benches:
                    await one_move(b, game, latency, prof)
    finally:
        for t in thinkers:
            if t.done() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]
            t.cancel()
    if THINKING:
        print("computer moves made (Pylon hard) during the measured rounds: "
              + ", ".join(f"{b.label} {b.thought}" for b in benches))


async def one_move(b: Bench, game: str, latency: Latency, prof: cProfile.Profile | None) -> None:
    g = b.games[game]
    for _attempt in range(len(g.matches) + 1):
        if not g.matches:
            g.matches.append(await b.new_match(game))
        rec = b.rng.choice(g.matches)
        cpu0 = b.cpu() if b.cpu else 0.0
        if prof:
            prof.enable()
        done = await b.move(game, rec)
        if prof:
            prof.disable()
        if done is not None:
            break
        g.matches.remove(rec)  # nothing typical left in this match: it stays active, unused
        g.matches.append(await b.new_match(game))
    else:
        raise AssertionError(f"no {game} match could move")
    row, inter = done
    await b.settle()
    assert inter.response_name == "UPDATE_MESSAGE" and not inter.ephemeral, (
        row,
        inter.response_name,
        (await inter.message()).text,
    )
    m = await b.service.get(rec["mid"])
    msg = rec["board"] = b.driver.messages[m.rec.message_id]  # the clicked board, or the new one below it
    att = msg.attachments[0]
    READY.setdefault(row, Ready(msg.embeds[0], att.bytes, att.filename, max(1, len(msg.buttons()))))
    target = b.games.get(row) or b.extra[row]
    seconds = latency(inter, b.driver.api_calls(since=b.mark), msg.channel.id)
    if DEBUG:  # the requests this move made (method, path, whether it carried a picture)
        print(row, [(r.method, r.path[-30:], bool(r.files)) for r in b.driver.api_calls(since=b.mark)])
    for _ in range(150):  # a board posted below the clicked one comes after the (quick) response: wait for it
        if seconds is not None:
            break
        await asyncio.sleep(0.02)
        m = await b.service.get(rec["mid"])
        msg = rec["board"] = b.driver.messages.get(m.rec.message_id, msg)
        seconds = latency(inter, b.driver.api_calls(since=b.mark), msg.channel.id)
    if seconds is None:  # answered without a picture (the board asked something first): not a move to time
        target.skipped += 1
        return
    target.parlor.append(seconds * 1000)
    target.sizes.append(len(att.bytes))
    target.kinds.add(att.filename.rsplit(".", 1)[-1])
    if b.cpu:  # the move, its preparing clicks and the work it leaves for after (settled)
        target.cpu.append(b.cpu() - cpu0)
    target.floor.append(await b.floor(row))


Latency = Callable[[Any, list[Any], int], "float | None"]


def _board_request(inter: Any, requests: list[Any], channel_id: int, start: float, when: str) -> float | None:
    """When the first request carrying this move's board picture arrived: the interaction's own response, or
    -- when the move pings someone -- the new board posted in the match's channel after the click."""
    for r in requests:
        t = getattr(r, when)
        if r.files and t >= start and (r.interaction_id == inter.id or f"/channels/{channel_id}/" in r.path):
            return float(t)
    return None


def board_latency_double(inter: Any, requests: list[Any], channel_id: int) -> float | None:
    """Seconds from delivering the interaction to the request carrying the new board's picture."""
    sent = _board_request(inter, requests, channel_id, inter.dispatched_at, "time")
    return None if sent is None else sent - float(inter.dispatched_at)


def board_latency_loopback(inter: Any, requests: list[Any], channel_id: int) -> float | None:
    """The same through the loopback server: interaction sent → the request with the picture received."""
    sent = _board_request(inter, requests, channel_id, inter.created, "started")
    return None if sent is None else sent - float(inter.created)


def time_phases() -> None:
    """Wrap the bot's steps with timers (in-process runs only)."""

    import bot.render
    import cogs._game
    import cogs.egg_carton
    import cogs.eof
    import cogs.nomic
    from bot.games import GAMES as REGISTRY
    from bot.matches.service import MatchService
    from bot.storage.sqlite import SqliteStore

    def wrap(owner: Any, name: str, key: str) -> None:
        wrap_timed(owner, name, PHASE_TIMES.setdefault(key, []))

    wrap(SqliteStore, "load_match", "store: load a match")
    wrap(SqliteStore, "save_match", "store: save a move (one transaction)")
    wrap(MatchService, "play", "service.play (load, rules, save)")
    wrap(cogs._game.GameCog, "board_kwargs", "board: picture + embed + buttons")
    wrap(cogs.nomic.Nomic, "board_kwargs", "board: picture + embed + buttons")
    cog_modules = [m for name, m in sorted(sys.modules.items()) if name.startswith("cogs.")]  # packages too
    for mod in (bot.render, *cog_modules):
        if hasattr(mod, "png_bytes"):
            wrap(mod, "png_bytes", "encode: PNG")
        if hasattr(mod, "gif_bytes"):
            wrap(mod, "gif_bytes", "encode: GIF")
    for key, game in REGISTRY.items():
        wrap(game.module, "render", f"draw: {key}")
        if getattr(game.module, "animate", None):
            wrap(game.module, "animate", f"draw: {key} animation frames")


async def main_double() -> None:
    """Parlor and the floor in one process against the in-process Discord double."""
    if PHASES:
        time_phases()
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            guild.set_locale(discord_locale(LANG))  # the server's community language: its boards' language
            chan = guild.create_text_channel("games")
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            await dd.connect(bot)
            bot.add_dynamic_items(FloorButton)
            floor_msgs: dict[str, Any] = {}

            async def floor(row: str) -> float:
                if row not in floor_msgs:
                    r = READY[row]
                    sent = await bot.get_channel(chan.id).send(
                        embed=discord.Embed.from_dict(r.embed),
                        view=floor_view(row, r.buttons),
                        file=discord.File(io.BytesIO(r.data), r.filename),
                    )
                    await dd.settle(quiet=QUIET)
                    floor_msgs[row] = dd.messages[sent.id]
                msg = floor_msgs[row]
                inter = await b.users[b.rng.randrange(len(b.users))].click(
                    msg, custom_id=msg.buttons()[0].custom_id
                )
                await dd.settle(quiet=QUIET)
                return float(inter.latency) * 1000

            b = Bench(dd, bot.service, bot.store, guild, chan, floor)
            prof = cProfile.Profile() if PROFILE else None
            await run([b], board_latency_double, prof)
            dd.assert_clean()
            report([b], "the in-process Discord double")
            if PHASES:
                print("where the bot's time goes (p50 per call, all moves of the run):")
                for name, xs in PHASE_TIMES.items():
                    if xs:
                        print(
                            f"  {name:<40} {pct(xs, 50):6.2f} ms  (p99 {pct(xs, 99):6.2f}, {len(xs)} calls)"
                        )
            if prof:
                pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
            await dd.disconnect()


async def main_loopback() -> None:
    """The real ``python -m bot`` and the floor bot (bench/floor_bot.py) as processes over loopback sockets;
    with ``--compare=DIR`` also the Parlor checked out in DIR (e.g. main before a change), interleaved."""
    from contextlib import AsyncExitStack

    from bot.matches.service import MatchService
    from bot.storage.sql_matches import MATCH_COLUMNS, _row_to_match
    from bot.storage.sqlite import SqliteStore

    class BenchReader(SqliteStore):
        """A read-only view of the bot process's SQLite file: no process lock (the bot holds it), no
        migrations, no claims cleared -- the bench only looks up matches and whose turn it is."""

        async def open(self) -> None:
            self._db = await self._connect(read_only=True)
            columns = await self._db.execute_fetchall("PRAGMA table_info(matches)")
            # --compare may run a Parlor from before migration 005 (no revision column)
            self.rev = "rev" if any(c[1] == "rev" for c in columns) else "0 AS rev"

        async def _select_matches(self, where: str, params: Any) -> list[Any]:
            async with self._read() as db:
                query = f"SELECT {MATCH_COLUMNS}, {self.rev} FROM matches WHERE {where}"
                rows = await db.fetch(query, *params)
                return await self._attach_seats(db, [_row_to_match(r) for r in rows])

    from tests.loopback import FakeDiscord
    from tests.loopback.helpers import parlor_env

    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "floor"
        ready.mkdir()
        async with AsyncExitStack() as stack:
            ff = await stack.enter_async_context(FakeDiscord(log_dir=Path(tmp) / "flogs"))
            fguild = ff.create_guild("Floor")
            fchan = fguild.create_text_channel("floor")
            fuser = ff.create_user("floorplayer")
            fguild.add_member(fuser)
            await ff.start_bot(
                cwd=ROOT,
                module=None,
                script=str(ROOT / "bench" / "floor_bot.py"),
                name="floor",
                env={"FLOOR_DIR": str(ready), "FLOOR_GUILD": str(fguild.id)},
                wait_commands=True,
            )
            floor_msgs: dict[str, Any] = {}

            async def floor(row: str) -> float:
                if row not in floor_msgs:
                    r = READY[row]
                    (ready / f"{row}.bin").write_bytes(r.data)
                    (ready / f"{row}.json").write_text(
                        json.dumps({"embed": r.embed, "filename": r.filename, "buttons": r.buttons})
                    )
                    inter = await fuser.slash(fchan, "floor", game=row)
                    floor_msgs[row] = await inter.message()
                msg = floor_msgs[row]
                inter = await fuser.click(msg, custom_id=msg.buttons()[0].custom_id)
                await ff.settle(quiet=LOOPBACK_QUIET)
                return float(inter.ack_latency) * 1000

            benches: list[Bench] = []
            parlors = [("Parlor", ROOT, LANG), *(("before", Path(d), LANG) for d in COMPARE),
                       *((lang[:7], ROOT, lang) for lang in COMPARE_LANG)]
            for label, cwd, lang in parlors:
                fd = await stack.enter_async_context(FakeDiscord(log_dir=Path(tmp) / f"logs-{len(benches)}"))
                guild = fd.create_guild("Bench")
                guild.set_locale(discord_locale(lang))
                chan = guild.create_text_channel("games")
                db = Path(tmp) / f"bench-{len(benches)}.sqlite3"
                proc = await fd.start_bot(
                    cwd=cwd,
                    module="bot",
                    name="bot",
                    env=parlor_env(f"sqlite:///{db}", guild.id),
                    wait_commands=True,
                    timeout=60,
                )
                store = BenchReader(str(db), readers=0)  # reads the bot's database (WAL: never blocks it)
                await store.open()
                stack.push_async_callback(store.close)
                benches.append(
                    Bench(
                        fd, MatchService(store), store, guild, chan, floor, quiet=LOOPBACK_QUIET, label=label,
                        cpu=process_cpu(proc.pid), lang=lang,
                    )
                )
            await run(benches, board_latency_loopback)
            ff.assert_clean()
            for b in benches:
                b.driver.assert_clean()
            report(benches, "the loopback Discord (python -m bot and the floor bot as processes)")


def process_cpu(pid: int | None) -> Callable[[], float] | None:
    """The CPU seconds process ``pid`` has used so far, all its threads (drawing runs in threads), read from
    /proc (Linux: each thread's schedstat, in nanoseconds), or None where there is none."""
    tasks = Path(f"/proc/{pid}/task")
    if pid is None or not tasks.is_dir():
        return None

    def used() -> float:
        ns = 0
        for t in tasks.iterdir():
            try:
                ns += int((t / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):  # a thread that just ended
                continue
        return ns / 1e9

    return used


def report(benches: list[Bench], where: str) -> None:
    print(
        f"button move latency through {where}, Parlor vs the floor in the same run, "
        f"{benches[0].active} matches "
        f"active, players and server in {discord_locale(LANG)}"
        f"{' (rows labelled with a language: in that one)' if COMPARE_LANG else ''} "
        f"(interaction sent → the request carrying the new board received):"
    )
    print(
        f"  {'':<7}{'game':<11} {'moves':>5}  {'bot p50':>10} {'p99':>7}  {'floor p50':>9} {'p99':>7}  "
        f"{'ratio p50':>9} {'p99':>6}  {'picture':>14}  verdict"
    )
    ok_all = True
    rows = [(b.label, g) for b in benches for g in [*b.games.values(), *b.extra.values()]]
    for label, g in rows:
        if not g.parlor:
            continue
        p50, p99 = pct(g.parlor, 50), pct(g.parlor, 99)
        f50, f99 = pct(g.floor, 50), pct(g.floor, 99)
        r50, r99 = p50 / f50, p99 / f99
        ok = r50 <= 2 and r99 <= 3
        if label == "Parlor":
            ok_all &= ok
        size = f"{sum(g.sizes) / len(g.sizes) / 1024:.1f} KB {'/'.join(sorted(g.kinds))}"
        print(
            f"  {label:<7}{g.key:<11} {len(g.parlor):>5}  {p50:>7.2f} ms {p99:>7.2f}  {f50:>6.2f} ms "
            f"{f99:>7.2f}  "
            f"{r50:>8.2f}× {r99:>5.2f}×  {size:>14}  {'OK' if ok else 'OVER BUDGET'}"
            + (f"  ({g.skipped} answered without a picture, not timed)" if g.skipped else "")
        )
    for b in benches:
        rows = [g for g in [*b.games.values(), *b.extra.values()] if g.cpu]
        if rows:  # not load-sensitive like the latencies: a before/after comparison's steadier figure
            print(f"  {b.label} process CPU per move (mean ms, with preparing clicks and follow-up work): "
                  + ", ".join(f"{g.key} {1000 * sum(g.cpu) / len(g.cpu):.2f}" for g in rows))
    print(
        f"budget: Parlor p50 ≤ 2× the floor's p50 and p99 ≤ 3× the floor's p99, every game: "
        f"{'OK' if ok_all else 'OVER BUDGET'}"
    )


if __name__ == "__main__":
    asyncio.run(main_loopback() if LOOPBACK else main_double())
