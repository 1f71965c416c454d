"""Budget: move handling inside the bot (interaction received → response request sent, render included)
p50 ≤ 25 ms, p99 ≤ 100 ms with 200 matches active at once; at most two HTTP requests per move when the next
player is pinged (issue 12: the clicked board retired in the response + the new board that pings), one when
nobody is (see bench/requests_per_move.py for every kind of move).

Runs the real bot (cogs, SQLite, renderer) against the in-process Discord double: 200 Pylon matches are
challenged and accepted through slash commands and buttons, then random moves are played by clicking the
board's size button and choosing the square (the move is the select interaction).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from _world import make_bot, pct

from tests.discord_double import DiscordDouble

MATCHES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 600
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


async def main() -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        async with DiscordDouble() as dd:
            guild = dd.create_guild("Bench")
            chan = guild.create_text_channel("games")
            users = [dd.create_user(f"player{i}") for i in range(2 * MATCHES)]
            for u in users:
                guild.add_member(u)
            bot = make_bot(dd, Path(tmp) / "bench.sqlite3", guild.id)
            await dd.connect(bot)
            boards = []
            for i in range(MATCHES):
                a, b = users[2 * i], users[2 * i + 1]
                await a.slash(chan, "pylon new", opponent=b)
                invite = await chan.wait_for(
                    lambda m, b=b: "Accept" in m.button_labels() and str(b.id) in m.content
                )
                await b.click(invite, "Accept")
                await dd.settle()
                board = await guild.threads[-1].wait_for(
                    lambda m: bool(m.attachments) and "To move" in m.text
                )
                boards.append((board, a, b))
            print(f"{MATCHES} matches running")
            latencies: list[float] = []
            button_requests: list[int] = []
            for _ in range(MOVES):
                board, a, b = rng.choice(boards)
                match = (await bot.service.find_here(board.channel.id))[0]
                board = dd.messages[match.rec.message_id]  # the one live board
                mover = a if f"<@{a.id}>" in board.text.split("To move")[-1] else b
                sizes = [x for x in board.buttons() if not x.disabled and "left" in x.label]
                if not sizes:
                    continue
                await mover.click(board, rng.choice(sizes).label)
                selects = board.selects()
                sel = rng.choice(selects)
                mark = dd.mark()
                r = await mover.select(board, [rng.choice(sel.values)], custom_id=sel.custom_id)
                await dd.settle()
                latencies.append(r.latency * 1000)
                button_requests.append(sum(dd.api_summary(since=mark).values()))
            # slash moves
            slash_requests = []
            for board, a, b in boards[:50]:
                thread = board.channel
                match = (await bot.service.find_here(thread.id))[0]
                board = dd.messages[match.rec.message_id]
                mover = a if f"<@{a.id}>" in board.text.split("To move")[-1] else b
                view = None
                match = (await bot.service.find_here(thread.id))[0]
                view = match.view(None)
                if not view.empty or not view.sizes_left:
                    continue
                sq = "abcdef"[view.empty[0] % 6] + str(view.empty[0] // 6 + 1)
                mark = dd.mark()
                r = await mover.slash(thread, "pylon move", notation=f"{'SML'[view.sizes_left[0] - 1]} {sq}")
                await dd.settle()
                assert not r.ephemeral, (await r.message()).text
                slash_requests.append(sum(dd.api_summary(since=mark).values()))
            dd.assert_clean()
            print(
                f"button move latency over {len(latencies)} moves with {MATCHES} active: "
                f"p50={pct(latencies, 50):.1f} ms p99={pct(latencies, 99):.1f} ms "
                f"max={max(latencies):.1f} ms "
                f"(budget p50 ≤ 25 ms, p99 ≤ 100 ms)"
            )
            print(
                f"requests per button move (next player pinged): max={max(button_requests)} (budget 2); "
                f"per slash move: max={max(slash_requests)} over {len(slash_requests)} (budget ≤ 2)"
            )
            await dd.disconnect()


asyncio.run(main())
