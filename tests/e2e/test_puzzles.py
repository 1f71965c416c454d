"""``/<game> puzzle`` through the Discord double: solved (buttons and typed notation), failed, counted."""

from __future__ import annotations

import pytest

from bot.puzzles import choices, puzzle, puzzles_of
from tests.e2e.test_learn import click_move

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def quick_clicks(monkeypatch):
    from cogs._game.learn import LearnCog

    monkeypatch.setattr(LearnCog, "lesson_rate", (1000, 10.0))


async def solve(w, msg, game, p, *, typed=False):
    path, tree = (), p.tree
    while tree is not None:
        move = choices(tree)[0]
        if typed:
            await w.alice.click(msg, "Type a move")
            await w.alice.submit_modal({"Your move": move})
        else:
            await click_move(w.alice, msg, game, move)
        path, tree = (*path, 0), tree[move]["n"]
        if tree is not None:
            assert "✅" in msg.embeds[0]["description"] and "Keep going" in msg.embeds[0]["description"]


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_a_puzzle_is_solved_with_the_boards_own_components_and_counted(world, game):
    w = world
    p = max(puzzles_of(game), key=lambda q: q.depth)  # the longest: the computer answers in between
    r = await w.alice.slash(w.chan, f"{game} puzzle", number=p.number)
    assert r.ephemeral
    msg = await r.message()
    assert f"puzzle #{p.number}" in msg.embeds[0]["title"]
    img = msg.attachments[0].image()
    assert img.width > 100 and len(img.convert("RGB").getcolors(1 << 20) or ()) > 5  # a real board picture
    await solve(w, msg, game, p)
    assert "Puzzle solved" in msg.embeds[0]["description"]
    assert await w.bot.store.puzzle_results(w.chan.guild.id, w.alice.id, game) == {p.id: True}
    top = await w.alice.slash(w.chan, f"{game} puzzle", top=True)
    board = (await top.message()).embeds[0]["description"]
    assert str(w.alice.id) in board and "1 solved" in board


async def test_typed_notation_solves_too_and_a_wrong_move_fails_the_puzzle(world):
    w = world
    p = puzzle("fireandice", 1)
    r = await w.alice.slash(w.chan, "fireandice puzzle", number=p.number)
    msg = await r.message()
    await w.alice.click(msg, "Type a move")
    await w.alice.submit_modal({"Your move": "Z9-Q1"})  # unreadable: nothing changes
    assert "❌" in msg.embeds[0]["description"] and f"puzzle #{p.number}" in msg.embeds[0]["title"]
    from bot.games import GAMES
    from bot.puzzles.games import SEARCHES

    s = SEARCHES["fireandice"].to_search(GAMES["fireandice"].rules.load(p.state))
    wrong = next(n for m in SEARCHES["fireandice"].moves(s)
                 if (n := SEARCHES["fireandice"].name(s, m)) not in p.tree)
    await w.alice.click(msg, "Type a move")
    await w.alice.submit_modal({"Your move": wrong})
    assert "lets the win go" in msg.embeds[0]["description"]
    assert await w.bot.store.puzzle_results(w.chan.guild.id, w.alice.id, "fireandice") == {p.id: False}
    await w.alice.click(msg, "Try again")
    await solve(w, msg, "fireandice", p, typed=True)
    assert "Puzzle solved" in msg.embeds[0]["description"]
    # the first try counts: a solve after a failure does not
    assert await w.bot.store.puzzle_results(w.chan.guild.id, w.alice.id, "fireandice") == {p.id: False}


async def test_only_the_games_with_a_computer_opponent_have_puzzles(world):
    names = {c.qualified_name for c in world.bot.tree.walk_commands()}
    assert {"pylon puzzle", "fireandice puzzle", "eggcarton puzzle"} <= names
    assert "eof puzzle" not in names and "nomic puzzle" not in names


async def test_puzzles_are_mined_from_the_servers_finished_matches(world, monkeypatch):
    """``python -m bot puzzles --from-db``: the finished matches of a server's database are searched first,
    and what is found there is a proved puzzle naming its match."""
    import bot.matches.lobby

    # a match's seed decides its seating and the computer's moves: fixed here, so the game played (and what
    # is found in it) is the same on every run, not one game in several that happens to hold no puzzle
    monkeypatch.setattr(bot.matches.lobby.secrets, "token_hex", lambda n: "5eed" * (n // 2))
    from bot.puzzles import Puzzle, verify
    from bot.puzzles.cli import finished_matches
    from bot.puzzles.generate import build
    from tests.e2e.test_quiet_computer import play_whole_game

    w = world
    g = await play_whole_game(w, "fireandice", "easy", seed=4)
    assert g["match"].status.value == "finished"
    await w.dd.disconnect()  # the bot lets go of its SQLite file (one process owns it)
    mined = await finished_matches(f"sqlite:///{w.db}", ("fireandice",))
    assert [source for source, _ in mined["fireandice"]] == [f"match {g['match'].id}"]
    # only the match's positions, with time to spare: what is found must not depend on the machine's load
    puzzles = build(("fireandice",), 3, 600, extra=mined, engine_games=0)
    from_match = [p for p in puzzles if p["source"] == f"match {g['match'].id}"]
    assert from_match, [p["source"] for p in puzzles]
    for p in from_match:  # proved again by search, its whole tree played on the engine
        verify(Puzzle(p["id"], p["game"], p["seat"], p["depth"], p["state"], p["tree"], p["source"]))
