"""The sixth game (tic-tac-toe from tests/sixth_game/, a 62-line cog) through the same platform scenarios as
the five real games (test_platform.py, test_turns.py): challenge, accept, a move by button and by text, a
stale click, resign, turn limit, turn notification, rematch, restart, the computer, the end of a game,
a lobby and a declined challenge.

The product does not know the game: the fixture registers it and loads its cog as one more extension,
and takes it out again afterwards.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.app import EXTENSIONS, ParlorBot
from bot.config import Config
from bot.render import CARD, PLAYER_COLOURS
from bot.storage.sqlite import SqliteStore
from tests import sixth_game
from tests.e2e.conftest import Clock, World
from tests.e2e.test_turns import dms_of, pings_of
from tests.sixth_game.tictactoe.render import centre

pytestmark = pytest.mark.e2e


class SixthWorld(World):
    def make_bot(self) -> ParlorBot:
        config = Config(token=self.dd.token, database=f"sqlite:///{self.db}", command_guilds=(self.guild.id,))
        return ParlorBot(config, SqliteStore(str(self.db)), clock=self.clock,
                         extensions=(*EXTENSIONS, sixth_game.EXTENSION))


@pytest.fixture
async def world(dd, tmp_path):
    sixth_game.register()
    guild = dd.create_guild("Test Guild")
    chan = guild.create_text_channel("games")
    users = {
        name: dd.create_user(name, dms_open=(name != "dave")) for name in ("alice", "bob", "carol", "dave")
    }
    for u in users.values():
        guild.add_member(u)
    admin = dd.create_user("admin")
    guild.add_member(admin, permissions=["manage_guild"])
    w = SixthWorld(dd, guild, chan, users["alice"], users["bob"], users["carol"], users["dave"], admin, None,
                   Clock(), tmp_path / "parlor.sqlite3")
    w.bot = w.make_bot()
    await dd.connect(w.bot)
    try:
        yield w
    finally:
        if dd.connected:
            await dd.disconnect()
        sixth_game.unregister()


def is_board(m):
    return bool(m.attachments) and m.attachments[0].is_png and "To move" in m.text


def live_board(chan):
    return next(m for m in reversed(chan.public_messages) if is_board(m))


async def start(w, **opts):
    await w.alice.slash(w.chan, "tictactoe new", opponent=w.bob, **opts)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    return thread, await thread.wait_for(is_board)


async def mark(w, thread, user, square):
    """``user`` presses the square's button on the live board."""
    r = await user.click(live_board(thread), square)
    await w.dd.settle()
    return r


async def test_the_commands_and_the_rules_come_from_the_platform(world):
    w = world
    names = w.dd.command_names(w.guild)
    for sub in ("new", "move", "board", "resign", "rules", "history"):
        assert f"tictactoe {sub}" in names
    r = await w.alice.slash(w.chan, "tictactoe rules")
    msg = await r.message()
    assert r.ephemeral and "Tic-tac-toe: rules" in msg.text and "`b2` the centre" in msg.text
    r = await w.alice.slash(w.chan, "help")
    assert "Tic-tac-toe" in (await r.message()).text


async def test_challenge_accept_and_a_button_move(world):
    w = world
    thread, board = await start(w)
    assert thread.parent.id == w.chan.id and {w.alice.id, w.bob.id} <= set(thread.thread_members)
    assert "alice (X)" in board.text and "bob (O)" in board.text
    assert board.attachments[0].image().size == (600, 680)
    assert len(pings_of(w, w.alice)) == 1 and pings_of(w, w.bob) == []  # the first board pings alice only
    assert sorted(board.button_labels()) == sorted(
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3", "Watch"]
    )
    since = w.dd.mark()
    r = await w.alice.click(board, "b2")
    await w.dd.settle()
    # bob's turn begins: the clicked board moves on in the interaction's response, the new one pings bob
    assert w.dd.api_summary(since=since) == {"POST /interactions/{interaction_id}/{token}/callback": 1,
                                             "POST /channels/{channel_id}/messages": 1}
    assert r.response_name == "UPDATE_MESSAGE"
    assert "Moved on" in board.text and board.buttons() == []
    new = thread.last_message
    assert is_board(new) and "alice: `b2`" in new.text and [u.id for u in new.mentions] == [w.bob.id]
    assert new.button("X").disabled and not new.button("a1").disabled
    img = new.attachments[0].image().convert("RGB")  # the picture the board shows: an X on b2
    assert img.getpixel(centre(4)) == PLAYER_COLOURS[0] and img.getpixel(centre(0)) == CARD
    # with pings off, a button move is one request: the board edited in place
    await w.alice.slash(w.chan, "notify", mode="off")
    since = w.dd.mark()
    await w.bob.click(new, "a1")
    await w.dd.settle()
    assert w.dd.api_summary(since=since) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    assert "bob: `a1`" in new.text and thread.last_message.id == new.id and new.button("O").disabled
    w.dd.assert_clean()


async def test_a_move_by_text_and_bad_input(world):
    w = world
    thread, board = await start(w)
    r = await w.bob.slash(thread, "tictactoe move", notation="b2")
    assert r.ephemeral and "not your turn" in (await r.message()).text
    r = await w.alice.slash(thread, "tictactoe move", notation="d4")
    assert r.ephemeral and "not a square" in (await r.message()).text
    r = await w.carol.slash(thread, "tictactoe move", notation="b2")
    assert r.ephemeral
    since = w.dd.mark()
    r = await w.alice.slash(thread, "tictactoe move", notation="B 2")
    new = await r.message()
    await w.dd.settle()
    assert not r.ephemeral and is_board(new) and "alice: `b2`" in new.text
    assert [u.id for u in new.mentions] == [w.bob.id]
    assert len(w.dd.api_calls(since=since)) <= 2
    assert "Moved on" in board.text and board.buttons() == []  # the old board lost its stale controls
    r = await w.bob.slash(thread, "tictactoe move", notation="b2")
    msg = await r.message()
    assert r.ephemeral and "b2 is taken" in msg.text and "a1" in msg.text  # with the legal moves
    r = await w.bob.slash(thread, "tictactoe move", notation="<@&123> @everyone")
    msg = await r.message()
    assert r.ephemeral and msg.mentions == [] and not msg.mention_everyone
    w.dd.assert_clean()


async def test_stale_double_click_and_the_wrong_player(world):
    w = world
    thread, board = await start(w)
    r = await w.bob.click(board, "a1")
    assert r.ephemeral and "not your turn" in (await r.message()).text
    # a double click: both interactions are built from the same board before the bot answers
    answers = await asyncio.gather(w.alice.click(board, "a1"), w.alice.click(board, "c3"))
    assert sorted(r.ephemeral for r in answers) == [False, True]
    refused = next(r for r in answers if r.ephemeral)
    text = (await refused.message()).text
    assert "out of date" in text or "same moment" in text
    await w.dd.settle()
    history = (await (await w.alice.slash(thread, "tictactoe history")).message()).text
    assert ("a1" in history) != ("c3" in history)
    match = (await w.bot.service.find_here(thread.id))[0]
    assert len(await w.bot.service.history(match.id)) == 1  # one move stored, not two
    w.dd.assert_clean()


async def test_a_game_played_to_three_in_a_row(world):
    w = world
    thread, _ = await start(w)
    for user, square in ((w.alice, "a1"), (w.bob, "a2"), (w.alice, "b2"), (w.bob, "a3")):
        await mark(w, thread, user, square)
    final = live_board(thread)
    await w.alice.click(final, "c3")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert "alice (X) won" in over.text and "three in a row (a1–c3)" in over.text and "Ratings" in over.text
    assert final.buttons() == [] and "To move" not in final.text
    history = (await (await w.bob.slash(thread, "tictactoe history")).message()).text
    assert "5. alice: `c3`" in history
    w.dd.assert_clean()


async def test_resign_then_rematch_with_seats_swapped(world):
    w = world
    thread, _ = await start(w)
    await mark(w, thread, w.alice, "b2")
    before = live_board(thread)
    before_png = before.attachments[0].bytes
    r = await w.bob.slash(thread, "tictactoe resign")
    confirm = await r.message()
    assert r.ephemeral and "Resign this match?" in confirm.text
    await w.bob.click(confirm, "Yes, resign")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert "bob resigned" in over.text and "Ratings" in over.text
    assert "bob resigned" in before.text and before.buttons() == []
    assert before.attachments[0].bytes != before_png  # the final picture carries the result band
    lb = (await (await w.carol.slash(w.chan, "stats", user=w.alice)).message())
    assert "Tic-tac-toe" in lb.text
    r = await w.carol.click(over, "Rematch")
    assert r.ephemeral
    await w.bob.click(over, "Rematch")
    await w.dd.settle()
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels() and "rematch" in m.text)
    assert [u.id for u in invite.mentions] == [w.alice.id]
    await w.alice.click(invite, "Accept")
    await w.dd.settle()
    t2 = w.thread()
    assert t2.id != thread.id
    b2 = live_board(t2)
    assert [u.id for u in b2.mentions] == [w.bob.id] and "bob (X)" in b2.text  # bob had O; now he opens
    w.dd.assert_clean()


async def test_turn_limit_forfeit_after_a_restart(world):
    w = world
    thread, _ = await start(w, turn_limit=300)
    await mark(w, thread, w.alice, "b2")
    await w.restart()
    assert await w.expire(200) == []
    results = await w.expire(101)
    assert len(results) == 1 and results[0].finished
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert "bob did not move within the turn limit" in over.text and "alice" in over.text
    w.dd.assert_clean()


async def test_turn_notices_by_ping_by_dm_and_a_reminder(world):
    w = world
    r = await w.bob.slash(w.chan, "notify", mode="dm")
    assert r.ephemeral
    thread, _ = await start(w, turn_limit=21600)
    await mark(w, thread, w.alice, "b2")
    assert pings_of(w, w.bob) == []
    dms = dms_of(w.bob)
    assert len(dms) == 1 and f"/{thread.id}/" in dms[0].text and "Tic-tac-toe" in dms[0].text
    await mark(w, thread, w.bob, "a1")
    assert len(pings_of(w, w.alice)) == 2 and len(pings_of(w, w.bob)) == 0  # never for your own move
    await mark(w, thread, w.alice, "c1")
    await w.expire(21600 * 0.8 + 1)
    reminders = [m for m in w.bob.dm_channel().public_messages if "Reminder" in m.text]
    assert len(reminders) == 1 and f"/{thread.id}" in reminders[0].text
    w.dd.assert_clean()


async def test_restart_mid_match_the_buttons_still_work(world):
    w = world
    thread, _ = await start(w)
    await mark(w, thread, w.alice, "b2")
    await w.restart()
    await thread.wait_for(lambda m: is_board(m) and "alice: `b2`" in m.text)
    await w.dd.settle()
    r = await w.bob.click(live_board(thread), "c3")
    assert not r.ephemeral
    await w.dd.settle()
    assert "bob: `c3`" in live_board(thread).text
    w.dd.assert_clean()


async def test_against_the_perfect_computer(world):
    w = world
    await w.alice.slash(w.chan, "tictactoe new", opponent=w.bot_member, level="perfect", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    await w.alice.click(board, "a1")
    await w.dd.settle()
    latest = live_board(thread)
    # the computer answered at once: b2 is its only move that does not lose; alice, who just moved, sees it
    # on the board she clicked, edited in place, and is not pinged again (issue 27)
    assert latest.id == board.id
    assert "Parlor (perfect): `b2`" in latest.text and latest.mentions == []
    w.dd.assert_clean()


async def test_lobby_and_a_declined_challenge(world):
    w = world
    await w.alice.slash(w.chan, "tictactoe new")
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels())
    assert "Tic-tac-toe: lobby" in lobby.text and lobby.button("Start").disabled
    await w.carol.click(lobby, "Join")
    await w.carol.click(lobby, "Start")
    await w.alice.click(lobby, "Start")
    await w.dd.settle()
    board = await w.thread().wait_for(is_board)
    assert "alice (X)" in board.text and "carol (O)" in board.text
    await w.bob.slash(w.chan, "tictactoe new", opponent=w.dave)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels() and "dave" in m.text)
    await w.dave.click(invite, "Decline")
    assert "declined" in invite.text and invite.buttons() == []
    w.dd.assert_clean()
