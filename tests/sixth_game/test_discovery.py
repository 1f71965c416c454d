"""A new game is found, not listed: its folder in ``bot/games/`` and one file in ``cogs/`` are all it takes.

The test copies tic-tac-toe into the two places a product game would live (``bot/games/tictactoe/`` and
``cogs/tictactoe.py``, by extending the two packages' search paths to a temporary folder, so the
checkout is untouched) and, in a fresh interpreter, checks that the registry, every list of games and
the bot's extensions pick it up with no other line changed anywhere.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent

PROBE = textwrap.dedent("""
    import asyncio, sys
    import bot.games, cogs
    bot.games.__path__.append(sys.argv[1] + "/games")
    cogs.__path__.append(sys.argv[1] + "/cogs")

    from bot.games import GAMES, RATED, TITLES, two_player
    from bot.app import EXTENSIONS, ParlorBot
    from bot.config import Config
    from bot.storage.sqlite import SqliteStore

    assert GAMES["tictactoe"].spec.title == "Tic-tac-toe", list(GAMES)
    assert list(TITLES)[:5] == ["pylon", "fireandice", "eggcarton", "eof", "nomic"], list(TITLES)
    assert TITLES["tictactoe"] == "Tic-tac-toe" and "tictactoe" in RATED and "nomic" not in RATED
    assert "tictactoe" in two_player()
    assert "cogs.tictactoe" in EXTENSIONS, EXTENSIONS

    async def main():
        bot = ParlorBot(Config(token="x"), SqliteStore(sys.argv[1] + "/db.sqlite"), extensions=EXTENSIONS)
        for ext in EXTENSIONS:
            await bot.load_extension(ext)
        group = bot.tree.get_command("tictactoe")
        assert group is not None and {c.name for c in group.commands} >= {"new", "move", "rules"}
        board = bot.tree.get_command("leaderboard")
        choices = [c.name for p in board.parameters for c in p.choices]
        assert "Tic-tac-toe" in choices and "Nomic World" not in choices, choices
        tournament = bot.tree.get_command("tournament").get_command("new")
        assert "Tic-tac-toe" in [c.name for p in tournament.parameters for c in p.choices]
        await bot.close()

    asyncio.run(main())
    print("found")
""")


def test_a_game_folder_and_one_cog_file_are_all_a_new_game_needs(tmp_path):
    shutil.copytree(HERE / "tictactoe", tmp_path / "games" / "tictactoe")
    (tmp_path / "cogs").mkdir()
    cog = (HERE / "cog.py").read_text().replace("from .tictactoe.", "from bot.games.tictactoe.")
    (tmp_path / "cogs" / "tictactoe.py").write_text(cog)
    run = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "found"
