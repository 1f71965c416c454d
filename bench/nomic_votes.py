"""Discord requests per Nomic World proposal round trip: propose, vote by reaction, adopt or reject.

The real bot (ParlorBot with the Nomic cog, real SQLite) runs against the in-process Discord
double (tests/discord_double). Each round trip is: the current player's ``/nomic propose``
(answered with the proposal message), every player's ✅ (the last one ❌ on odd trips), and what the
bot does: the live tally on the proposal edited after each vote that does not decide it, then, when
the last voter has voted, the proposal message edited with the result and the next turn's board
posted. The bench counts the bot's requests to Discord from the proposal to the new board, without
the reaction routes (the bot's own ✅/❌ and removals of outsiders' reactions); the budget is
6 + (players - 1) tally edits. On every third trip the players react all at once (a burst; tally
edits that would overlap are coalesced by the cog, but the double delivers the reactions one after
the other, so a burst costs the same here).

Run from the repository root: .venv/bin/python bench/nomic_votes.py [--players 3] [--trips 8]
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bot.app import ParlorBot
from bot.config import Config
from bot.storage.sqlite import SqliteStore
from tests.discord_double import DiscordDouble

BASE_BUDGET = 6
"""The proposal, the board that opens its vote (pinging the voters, linking to the proposal) and the
retired board before it, the decided message's edit, the next board and the retired vote board; plus
one tally edit per undecided vote (issue 27: it was 3, which left out the retired boards and the vote's
notice, and the board said "propose" during the vote)."""
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def is_board(m) -> bool:
    return bool(m.attachments) and "Nomic World" in m.text and "Match #" in m.text


async def run(players: int, trips: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    async with DiscordDouble() as dd:
        guild = dd.create_guild("Bench")
        chan = guild.create_text_channel("games")
        users = [dd.create_user(n) for n in NAMES[:players]]
        for u in users:
            guild.add_member(u)
        outsider = dd.create_user("outsider")
        guild.add_member(outsider)
        with tempfile.TemporaryDirectory() as tmp:
            db = pathlib.Path(tmp) / "bench.sqlite3"
            config = Config(token=dd.token, database=f"sqlite:///{db}", command_guilds=(guild.id,))
            bot = ParlorBot(config, SqliteStore(str(db)), extensions=("cogs.errors", "cogs.nomic"))
            await dd.connect(bot)
            await users[0].slash(chan, "nomic new")
            lobby = await chan.wait_for(lambda m: "Join" in m.button_labels())
            for u in users[1:]:
                await u.click(lobby, "Join")
            await users[0].click(lobby, "Start")
            await dd.settle()
            thread = guild.threads[-1]
            await thread.wait_for(is_board)
            mid = (await bot.store.active_matches())[-1].id
            by_id = {u.id: u for u in users}
            for trip in range(trips):
                m = await bot.service.get(mid)
                user = by_id[m.seats[m.state.current].user_id]
                r = await user.slash(thread, "nomic move", notation="N" * m.state.roll)
                await r.message()
                await dd.settle()
                reject = trip % 2 == 1
                mark = dd.mark()
                t0 = time.perf_counter()
                r = await user.slash(
                    thread, "nomic propose", action="enact", text=f"Bench rule {trip}: players say hello."
                )
                msg = await r.message()
                await dd.settle()
                await outsider.react(msg, "\u2705")  # removed: not a player
                await dd.settle()
                m = await bot.service.get(mid)
                voters = sorted(m.rules.to_act(m.state))
                burst = trip % 3 == 2
                for i, seat in enumerate(voters):
                    last = i == len(voters) - 1
                    await by_id[m.seats[seat].user_id].react(msg, "\u274c" if reject and last else "\u2705")
                    if not burst:
                        await dd.settle()
                await dd.settle()
                elapsed = time.perf_counter() - t0
                calls = dd.api_calls(since=mark)
                counted = [c for c in calls if "/reactions/" not in c.route]
                decided = (
                    "adopted" if "adopted" in msg.text else ("rejected" if "rejected" in msg.text else "open")
                )
                rows.append(
                    {
                        "trip": trip + 1,
                        "result": decided + (" (burst)" if burst else ""),
                        "requests": len(counted),
                        "reaction_requests": len(calls) - len(counted),
                        "routes": ", ".join(sorted({c.route for c in counted})),
                        "seconds": elapsed,
                    }
                )
            dd.assert_clean()
            await dd.disconnect()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--trips", type=int, default=8)
    args = ap.parse_args()
    rows = asyncio.run(run(max(2, min(args.players, len(NAMES))), max(1, args.trips)))
    players = max(2, min(args.players, len(NAMES)))
    budget = BASE_BUDGET + players - 1
    print(
        f"Nomic World proposal round trips, {players} players (budget: {budget} requests besides reactions)"
    )
    print(f"{'trip':>4} {'result':>17} {'requests':>8} {'reactions':>9} {'seconds':>8}  routes")
    for r in rows:
        print(
            f"{r['trip']:>4} {r['result']:>17} {r['requests']:>8} {r['reaction_requests']:>9} "
            f"{r['seconds']:>8.3f}  {r['routes']}"
        )
    worst = max(int(r["requests"]) for r in rows)  # type: ignore[call-overload]
    print(
        f"requests per round trip (excluding reaction routes): max {worst}, "
        f"mean {sum(int(r['requests']) for r in rows) / len(rows):.2f}  "  # type: ignore[call-overload]
        f"-> {'within' if worst <= budget else 'OVER'} the budget of {budget}"
    )


if __name__ == "__main__":
    main()
