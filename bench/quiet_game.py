"""Budget (issue 27): a whole game against the computer holds about one board and one ping.

Plays games of Pylon against the computer (level ``easy`` unless given) through the in-process Discord
double, as a player who clicks what the board offers (seeded), and prints per game: the human's moves,
the messages in the match thread, the pings the human got, the boards posted, the "Moved on" stubs and the
requests sent. Run it in an older checkout to compare (the script only uses the double and the bot).

Usage: python bench/quiet_game.py [games=3] [level=easy] [game=pylon]
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from _world import make_bot

from tests.discord_double import DiscordDouble

ARGS = sys.argv[1:]
GAMES = int(ARGS[0]) if ARGS else 3
LEVEL = ARGS[1] if len(ARGS) > 1 else "easy"
GAME = ARGS[2] if len(ARGS) > 2 else "pylon"
SKIP = ("Watch", "Back", "Resign")


def over(msg) -> bool:
    return "won" in msg.text or "Draw" in msg.text or "match over" in msg.text


async def board_of(bot, thread):
    match = (await bot.service.find_here(thread.id, active_only=False))[0]
    return next(m for m in thread.public_messages if m.id == match.rec.message_id), match


async def one_game(seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    async with DiscordDouble() as dd:
        guild = dd.create_guild("Bench")
        chan = guild.create_text_channel("games")
        alice = dd.create_user("alice")
        guild.add_member(alice)
        with tempfile.TemporaryDirectory() as tmp:
            bot = make_bot(dd, Path(tmp) / "p.sqlite3", guild.id)
            await dd.connect(bot)
            opts = {"speed": "off"} if GAME == "eggcarton" else {}
            await alice.slash(chan, f"{GAME} new", opponent=dd.bot_user, level=LEVEL, **opts)
            await dd.settle()
            thread = guild.threads[-1]
            board, match = await board_of(bot, thread)
            mark = dd.mark()
            clicks = 0
            while not over(board) and clicks < 600:
                choices = [("b", b) for b in board.buttons() if not b.disabled and b.label not in SKIP
                           and not (b.label or "").startswith("Agree")]
                choices += [("s", s) for s in board.selects() if not s.disabled]
                if not choices:
                    choices = [("b", b) for b in board.buttons() if (b.label or "").startswith("Agree")
                               and not b.disabled]
                if not choices:  # the computer is thinking
                    await asyncio.sleep(0.05)
                    await dd.settle()
                    board, match = await board_of(bot, thread)
                    continue
                kind, item = rng.choice(choices)
                if kind == "b":
                    r = await alice.click(board, custom_id=item.custom_id)
                else:
                    r = await alice.select(board, [rng.choice(item.options).value], custom_id=item.custom_id)
                if r.ephemeral:
                    msg = await r.message()
                    yes = [b for b in msg.buttons() if (b.label or "").startswith("Yes")]
                    if yes:
                        await alice.click(msg, custom_id=yes[0].custom_id)
                await dd.settle()
                board, match = await board_of(bot, thread)
                clicks += 1
            msgs = thread.public_messages
            out = {
                "human moves": sum(
                    1 for mv in await bot.service.history(match.id) if mv.seat == match.seat_of(alice.id)),
                "thread messages": len(msgs),
                "pings": sum(1 for m in msgs if alice.id in m.notified_ids),
                "boards posted": sum(1 for m in msgs if m.attachments),
                "moved-on stubs": sum(1 for m in msgs if "Moved on" in m.text),
                "requests": len(dd.api_calls(since=mark)),
            }
            await dd.disconnect()
            return out


async def main() -> None:
    print(f"{GAME} against the computer ({LEVEL}), {GAMES} games")
    for seed in range(GAMES):
        row = await one_game(seed)
        print("  " + " · ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    asyncio.run(main())
