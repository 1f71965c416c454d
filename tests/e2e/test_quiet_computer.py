"""Issue 27: a game against the computer reads like a conversation, not a log.

A whole game at every level of every 2-player game, played by a player who only clicks what the board
offers: the thread holds one board (edited in place after every move), the result and nothing else; the
player is pinged once (the first board), and every move costs at most two requests (one when the computer
answers at once). The start header in the channel ends up showing the result."""

from __future__ import annotations

import asyncio
import random

import discord
import pytest

from tests.e2e.test_platform import is_board

pytestmark = pytest.mark.e2e

SKIP = ("Watch", "Back", "Resign")
LEVELS = {
    "pylon": ("easy", "medium", "hard"),
    "fireandice": ("easy", "medium", "hard"),
    "eggcarton": ("novice", "beginner", "intermediate", "expert"),
}
OPTIONS = {"pylon": {}, "fireandice": {}, "eggcarton": {"speed": "off"}}


def over(msg) -> bool:
    return "won" in msg.text or "Draw" in msg.text or "match is over" in msg.text.lower()


async def one_step(w, board, rng) -> object:
    """One click of something the board offers (a button or a select option), as a player exploring it."""
    buttons = [b for b in board.buttons() if not b.disabled and b.label not in SKIP and b.custom_id
               and not (b.label or "").startswith("Agree")]
    selects = [s for s in board.selects() if not s.disabled]
    choices = [("b", b) for b in buttons] + [("s", s) for s in selects]
    if not choices and any((b.label or "").startswith("Agree") for b in board.buttons() if not b.disabled):
        choices = [("b", next(b for b in board.buttons() if (b.label or "").startswith("Agree")))]
    kind, item = rng.choice(choices)
    if kind == "b":
        r = await w.alice.click(board, custom_id=item.custom_id)
    else:
        r = await w.alice.select(board, [rng.choice(item.options).value], custom_id=item.custom_id)
    if r.ephemeral:  # a move that asks to confirm (it hands the win over, or ends the game): yes
        msg = await r.message()
        yes = [b for b in msg.buttons() if (b.label or "").startswith("Yes")]
        if yes:
            await w.alice.click(msg, custom_id=yes[0].custom_id)
    return r


async def shown_board(w, thread):
    """The message the match says is its board (the live one, also once the game is over)."""
    match = (await w.bot.service.find_here(thread.id, active_only=False))[0]
    return next(m for m in thread.public_messages if m.id == match.rec.message_id)


async def play_whole_game(w, game: str, level: str, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bot_member, level=level, **OPTIONS[game])
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    header = next(m for m in w.chan.public_messages if "Started" in m.text or game in m.text.lower()
                  or "vs" in m.text)
    clicks = 0
    mark = w.dd.mark()
    first = board
    while not over(board) and clicks < 600:
        for _ in range(200):  # the computer is thinking: its answer edits this board
            if over(board) or any(not c.disabled for c in [*board.buttons(), *board.selects()]
                                  if getattr(c, "label", "") != "Watch"):
                break
            await asyncio.sleep(0.05)
            await w.dd.settle()
            board = await shown_board(w, thread)
        if over(board):
            break
        await one_step(w, board, rng)
        await w.dd.settle()
        board = await shown_board(w, thread)
        clicks += 1
    assert over(board), f"{game} {level}: no end after {clicks} clicks"
    match = (await w.bot.service.find_here(thread.id, active_only=False))[0]
    return {"thread": thread, "board": board, "first": first, "header": header, "clicks": clicks,
            "mark": mark, "match": match}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "level"), [(g, lv) for g, levels in LEVELS.items() for lv in levels])
async def test_a_whole_game_against_the_computer_holds_one_board_and_one_ping(world, game, level):
    w = world
    g = await play_whole_game(w, game, level, seed=len(level) * 7 + len(game))
    thread, board = g["thread"], g["board"]
    boards = [m for m in thread.public_messages if m.attachments]
    pings = [m for m in thread.public_messages if w.alice.id in m.notified_ids]
    others = [m for m in thread.public_messages if not m.attachments]
    # one board for the whole game (edited in place), the result message, nothing else
    assert boards == [board], [m.text[:200] for m in boards]
    assert board.id == g["first"].id
    assert len(others) == 1 and "match over" in others[0].text, [m.text[:80] for m in others]
    assert len(pings) == 1 and pings[0].id == board.id  # the first board told her the game began
    assert "Moved on" not in str([m.text for m in thread.public_messages])
    # each of alice's clicks cost at most two requests (the computer's slow answer edits the board), plus
    # the end: the result message and the header in the channel
    calls = w.dd.api_calls(since=g["mark"])
    assert len(calls) <= 2 * g["clicks"] + 3
    moves = g["match"].rec.ui.get("plies", 0)
    assert moves >= 2
    w.dd.assert_clean()


async def test_the_start_header_shows_the_result_and_is_edited_where_it_lives(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    mark = w.dd.mark()
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    await thread.wait_for(is_board)
    # the challenge became the header in #games; nothing edits it through the thread (Discord: 10008)
    assert not [c for c in w.dd.api_calls(since=mark)
                if c.method == "PATCH" and f"/{thread.id}/messages/" in c.path]
    assert "Started" in invite.text
    r = await w.alice.slash(thread, "pylon resign")
    ask = await r.message()
    if ask.buttons():
        await w.alice.click(ask, custom_id=ask.buttons()[0].custom_id)
    await w.dd.settle()
    assert "resigned" in invite.text and "bob" in invite.text and "won" in invite.text
    assert f"/{thread.id}/" in invite.text  # a link to the final board
    assert invite.buttons() == []
    w.dd.assert_clean()


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_a_click_is_acknowledged_before_a_slow_computer_has_thought(world, monkeypatch, game):
    """Acknowledge first, think after: a computer that needs a second and a half (hard Pylon needed up to
    1.1 s) does not hold the click's answer up, at any level of any game."""
    import time

    from bot.games import GAMES

    package = GAMES[game].module
    real = package.choose

    def slow(state, seat, rng, level):
        time.sleep(1.5)
        return real(state, seat, rng, level)

    monkeypatch.setattr(package, "choose", slow)
    w = world
    first = {"side": "fire"} if game == "fireandice" else {"first": "challenger"}
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bot_member, level=LEVELS[game][0], **first,
                        **OPTIONS[game])
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    rng = random.Random(1)
    before = board.text
    for _ in range(4):  # a multi-step picker's first clicks answer at once anyway; the move is the last
        r = await one_step(w, board, rng)
        assert r.latency is not None and r.latency < 0.6, (r, r.latency)
        if "thinking" in board.text:
            break
    assert "thinking" in board.text and board.text != before  # her move is shown while the computer thinks
    for _ in range(100):
        await asyncio.sleep(0.05)
        if "thinking" not in board.text:
            break
    await w.dd.settle()
    assert "thinking" not in board.text and "Parlor" in board.text.split("To move")[0]
    w.dd.assert_clean()


async def test_a_computer_move_whose_board_discord_failed_is_shown_once_discord_answers(world, monkeypatch):
    """Issue 28: the computer's answer is stored, but Discord answers 503 when its board is edited: the board
    is remembered and brought up to date by the retries (bot/chores.py), not left behind until a restart."""
    import cogs._game.play

    class Down:
        status = 503
        reason = "Service Unavailable"

    monkeypatch.setattr(cogs._game.play, "AI_AT_ONCE", 0.0)
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    cog = w.bot.game_cogs["pylon"]
    real = cog.refresh_board
    fails = {"n": 0}

    async def failing(match, result):
        fails["n"] += 1
        raise discord.DiscordServerError(Down(), "Discord is down")

    monkeypatch.setattr(cog, "refresh_board", failing)
    rng = random.Random(3)
    for _ in range(4):
        await one_step(w, board, rng)
        if "thinking" in board.text:
            break
    await w.dd.settle()
    for _ in range(100):
        if fails["n"]:
            break
        await asyncio.sleep(0.05)
    await w.dd.settle()
    assert fails["n"] == 1 and "thinking" in board.text  # the computer moved, its board did not go out
    assert await w.bot.store.pending_chores() == 1
    monkeypatch.setattr(cog, "refresh_board", real)
    await w.expire(10)  # the retry's time comes
    match = (await w.bot.service.find_here(thread.id))[0]
    latest = next(m for m in thread.public_messages if m.id == match.rec.message_id)
    assert "thinking" not in latest.text and "Parlor (easy): `" in latest.text
    assert await w.bot.store.pending_chores() == 0
    w.dd.assert_clean()
