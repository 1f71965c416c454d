"""Issue 31: every picture the bot sends carries a description a screen reader announces (within Discord's
1,024 characters, naming who is to move and the last move), shown as the attachment itself (an embed's
image has none); ``/<game> board text:`` and ``/notify boards:text`` give the position as text."""

from __future__ import annotations

import re

import pytest

from bot.lessons import lesson_of
from bot.puzzles import puzzles_of
from tests.e2e.eof_helpers import (
    INSTRUCTION,
    Clock,
    builder_dm,
    eof_world,
    hand_from_select,
    open_lobby,
    some_program,
    start,
)
from tests.e2e.nomic_helpers import current, propose, start_game, vote_all, walk
from tests.e2e.test_learn import click_move
from tests.e2e.test_quiet_computer import play_whole_game
from tests.e2e.test_replay import played_pylon

pytestmark = pytest.mark.e2e


def sent_pictures(w, since):
    """(file name, description, payload) of every picture uploaded since ``since``."""
    out = []
    for r in w.dd.api_calls(since):
        if not r.files:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        data = body.get("data", body) if "type" in body else body
        atts = {a.get("filename"): a for a in data.get("attachments") or []}
        for name, _ in r.files:
            out.append((name, (atts.get(name) or {}).get("description"), data))
    return out


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_every_picture_of_a_whole_game_has_a_description(world, game):
    w = world
    mark = w.dd.mark()
    g = await play_whole_game(w, game, "easy" if game != "eggcarton" else "novice", seed=3)
    pictures = [p for p in sent_pictures(w, mark) if p[0].endswith((".png", ".gif"))]
    assert len(pictures) >= 3
    for i, (name, alt, data) in enumerate(pictures):
        assert alt and len(alt) <= 1024, (name, alt)
        assert "alice" in alt or "Parlor" in alt, alt  # the player to move (or the winner) by name
        if any("Last: " in (a or "") for _, a, _ in pictures[:i]):
            assert "Last: " in alt, alt  # and, once there is one, the move that led here
        for embed in data.get("embeds") or []:  # never hidden in an embed (its description is not read)
            assert not str((embed.get("image") or {}).get("url", "")).startswith("attachment://")
    board = g["board"]
    assert board.attachments[0].description and board.embed.image() is None


async def test_board_text_and_the_text_boards_setting(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    r = await w.alice.slash(thread, "pylon board", text=True)
    msg = await r.message()
    assert msg.ephemeral_to is not None
    assert "Row 5:" in msg.text and "Legal moves" in msg.text and msg.attachments[0].description
    # bob turns text boards on: the board he is to move on carries the position as text
    r = await w.bob.slash(w.chan, "notify", boards="text")
    assert "as text" in (await r.message()).text
    await w.alice.slash(thread, "pylon move", notation="L c3")
    await w.dd.settle()
    board = next(m for m in reversed(thread.public_messages) if m.attachments)
    assert "Row 3:" in board.text and "c3 alice large" in board.text
    assert "Last: alice placed a large pyramid on c3." in board.text
    w.dd.assert_clean()


def uploads(dd, since):
    """(channel id or None for an interaction's answer, file name, description) of every picture uploaded
    since ``since``: POSTs and PATCHes to channels, interaction answers and follow-ups alike."""
    out = []
    for r in dd.api_calls(since):
        if not r.files:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        data = body.get("data", body) if "type" in body else body
        atts = {a.get("filename"): a for a in data.get("attachments") or []}
        chan = re.match(r"/channels/(\d+)/", r.path)
        for name, _ in r.files:
            if name.endswith((".png", ".gif")):
                alt = (atts.get(name) or {}).get("description")
                out.append((int(chan.group(1)) if chan else None, name, alt))
    return out


def described(pictures):
    """Every picture has a description within Discord's 1,024 characters; returns the descriptions."""
    assert pictures
    for _chan, name, alt in pictures:
        assert alt and alt.strip() and len(alt) <= 1024, (name, alt)
    return [alt for _c, _n, alt in pictures]


async def test_every_picture_of_a_whole_eof_game_is_described_and_hides_hands_and_programs(dd, tmp_path):
    _bot, chan, users = await eof_world(dd, tmp_path, Clock())
    alice, bob = users
    mark = dd.mark()
    lobby = await open_lobby(alice, chan, draw="blind")
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    hands = {}
    for rnd in range(1, 5):
        for u in users:
            dm = await builder_dm(u, rnd)
            hand = hand_from_select(dm)
            hands[(u.username, rnd)] = hand
            # a real program, or none
            program = "skip" if (u is bob and rnd == 2) else " ".join(some_program(hand, 5))
            r = await u.slash(u.dm_channel(), "eof move", notation=program)
            reply = await r.message()
            if "Submit anyway" in reply.button_labels():
                await u.click(reply, "Submit anyway")
        await thread.wait_for(lambda m, rnd=rnd: m.embed.title == f"Round {rnd} scores", timeout=10)
    await thread.wait_for(lambda m: m.embed.title == "EOF: match over", timeout=10)
    await dd.settle()
    pictures = uploads(dd, mark)
    described(pictures)
    dms = {u.dm_channel().id: u.username for u in users}
    boards = [alt for ch, name, alt in pictures if ch == thread.id and name == "board.png"]
    gifs = [alt for ch, name, alt in pictures if ch == thread.id and name.endswith(".gif")]
    assert len(boards) >= 8 and len(gifs) == 4  # two boards a round (dealt, a program in), four executions
    assert all(ch in (thread.id, *dms) for ch, _n, _a in pictures), pictures  # nothing else, nowhere else
    for i, alt in enumerate(boards):
        if alt.startswith("EOF, final:"):  # the result: who won, by name
            assert i == len(boards) - 1 and "alice" in alt and ("wins with" in alt or "tie" in alt), alt
        else:  # a running game: the round, whom it waits for (both players, or the one still to submit)
            assert "Programming" in alt, alt
            waits = ("waiting for alice, bob", "waiting for bob", "Write your programs")
            assert any(s in alt for s in waits), alt
        assert "Last: " in alt, alt  # the move that led here
    said = "Last: alice has submitted a program (1/2 in)."
    assert any(said in a and "waiting for bob" in a for a in boards), boards
    for alt in gifs:  # the execution, instruction by instruction, by name
        assert re.search(r"EOF round [1-4] execution", alt) and ("1 alice" in alt or "1 bob" in alt), alt
    # hidden information: a hand is described only in its owner's DM; programs never on a board
    for ch, _name, alt in pictures:
        if ch in dms:
            assert alt.startswith("Your EOF hand, round "), alt
            rnd = int(alt.split("round ")[1].split(":")[0])
            listed = alt.split(": ", 1)[1].rstrip(".")
            assert listed == "empty" or listed == " ".join(hands[(dms[ch], rnd)]), (dms[ch], alt)
        else:
            assert "hand" not in alt.lower(), alt
            for (_who, _rnd), hand in hands.items():
                assert " ".join(hand) not in alt, alt
    assert not any(INSTRUCTION.search(alt) for alt in boards), [a for a in boards if INSTRUCTION.search(a)]
    dd.assert_clean()


async def test_every_picture_of_a_whole_nomic_game_is_described(world):
    w = world
    mark = w.dd.mark()
    thread, _board, mid = await start_game(w, players=(w.alice, w.bob))
    await walk(w, thread, mid)  # alice moves and proposes a change, adopted
    msg = await propose(w, thread, mid, action="amend", rule=109, effect="die=8", text="A d8 is rolled.")
    await vote_all(w, mid, msg)
    await walk(w, thread, mid)
    who = (await current(w, mid)).username
    msg = await propose(w, thread, mid, action="enact", text="The game ends.", effect="end")
    await vote_all(w, mid, msg)
    await thread.wait_for(lambda m: "game over" in m.text)
    await w.dd.settle()
    assert (await w.bot.service.get(mid)).status.value == "finished"
    pictures = uploads(w.dd, mark)
    alts = described(pictures)
    # in the thread (posted there, or the answer to a move typed there)
    assert len(alts) >= 5 and all(ch in (thread.id, None) for ch, _n, _a in pictures), pictures
    for i, alt in enumerate(alts):
        head = alt.split(" Tokens:")[0]
        # whose turn it is (the player to move) by name; a vote is every player's ("2 voters")
        # (and once the game is over, how it ended)
        assert re.search(r"\b(alice|bob)\b", head) or "Vote on proposal" in head or "game over" in head, alt
        if i:
            assert "Last: " in alt, alt  # and what was last done
    assert any(f"Last: {who}" in a or f"{who} " in a.split("Last: ")[-1] for a in alts[-3:]), alts[-3:]
    w.dd.assert_clean()


@pytest.fixture
def quick_clicks(monkeypatch):
    from cogs._game.learn import LearnCog

    monkeypatch.setattr(LearnCog, "lesson_rate", (1000, 10.0))


GAMES = ("pylon", "fireandice", "eggcarton", "eof", "nomic")


@pytest.mark.parametrize("game", GAMES)
async def test_rules_diagram_and_every_lesson_step_are_described(world, quick_clicks, game):
    w = world
    mark = w.dd.mark()
    r = await w.alice.slash(w.chan, f"{game} rules")
    await r.message()
    (rules,) = uploads(w.dd, mark)
    described([rules])
    lesson = lesson_of(game)
    mark = w.dd.mark()
    r = await w.alice.slash(w.chan, f"{game} learn")
    msg = await r.message()
    for i, step in enumerate(lesson.steps):
        await click_move(w.alice, msg, game, step.solution)
        if i + 1 < len(lesson):
            await w.alice.click(msg, "Next step")
    steps = described(uploads(w.dd, mark))
    assert len(steps) >= len(lesson)  # each step's picture (and each answer's) carries its description
    w.dd.assert_clean()


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_a_puzzle_picture_is_described(world, quick_clicks, game):
    w = world
    p = puzzles_of(game)[0]
    mark = w.dd.mark()
    r = await w.alice.slash(w.chan, f"{game} puzzle", number=p.number)
    await r.message()
    (alt,) = described(uploads(w.dd, mark))
    assert re.search(r"\bto (move|pick)\b", alt), alt  # the player to move
    w.dd.assert_clean()


async def test_replay_steps_the_whole_game_gif_and_the_stats_chart_are_described(world):
    w = world
    mid, _thread, _seen = await played_pylon(w)
    mark = w.dd.mark()
    r = await w.carol.slash(w.chan, "pylon history", match=mid)
    msg = await r.message()
    await w.carol.click(msg, emoji="⏮")
    for _ in range(3):
        await w.carol.click(msg, emoji="▶")
    r = await w.carol.click(msg, "Whole game")
    await w.dd.settle(timeout=60)  # (the GIF process may be starting on a busy machine)
    pictures = uploads(w.dd, mark)
    alts = described(pictures)
    assert len(alts) >= 5 and any(n.endswith(".gif") for _c, n, _a in pictures)
    steps = [a for _c, n, a in pictures if n.endswith(".png")]
    assert all("alice" in a or "bob" in a for a in steps), steps
    assert any("Last: " in a for a in steps), steps
    # /stats: the rating chart says what it draws
    mark = w.dd.mark()
    r = await w.alice.slash(w.chan, "stats", user=w.bob)
    await r.message()
    (chart,) = described(uploads(w.dd, mark))
    assert chart.startswith("Line chart, Pylon rating: bob, after 1 rated match: from 0 to "), chart
    w.dd.assert_clean()


async def test_tournament_standings_picture_is_described(world):
    from tests.e2e.test_tournament import idle, open_event, thread_by_id

    w = world
    players = [w.alice, w.bob, w.carol]
    users = {u.id: u for u in players}
    signup = await open_event(w, game="pylon", format="round-robin", rated=False, options={"round-time": 300})
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    for u in players:
        await u.click(signup, "Join")
    mark = w.dd.mark()
    await w.admin.click(signup, "Start (organiser)")
    await idle(w)
    for p in await w.bot.store.pairings(tid, 1):
        if p.black_id is None:
            continue
        m = await w.bot.service.get(p.match_id)
        loser = max((users[p.white_id], users[p.black_id]), key=lambda u: u.username)
        r = await loser.slash(thread_by_id(w, m.rec.thread_id), "pylon resign")
        await loser.click(await r.message(), "Yes, resign")
    await idle(w)
    r = await w.carol.slash(w.chan, "tournament standings")
    await r.message()
    pictures = [p for p in uploads(w.dd, mark) if p[1] == "standings.png"]
    alts = described(pictures)
    alt = alts[-1]
    assert alt.startswith(f"Tournament #{tid} standings, Pylon · after round 1 of 3."), alt
    assert "1 " in alt and all(u.username in alt for u in players), alt
    assert re.search(r": 1 \w+, \d+ points?, \d-\d-\d; 2 \w+, ", alt), alt
    w.dd.assert_clean()
