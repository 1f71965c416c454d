"""Nomic World's turn and vote notices (issue 27): "your turn" said once; a vote's notice asks to vote on
the proposal and links to it; the board shows the open vote; no notice asks for a vote once it is closed."""

import pytest

from tests.e2e.nomic_helpers import is_board, match, propose, start_game, vote_all, walk

pytestmark = pytest.mark.e2e

YES = "\u2705"


def live_board(thread):
    return [m for m in thread.public_messages if is_board(m)][-1]


def asks_to_vote(m):
    text = m.text.lower()
    return "vote on proposal" in text or f"react {YES} to adopt".lower() in text or "a vote is open" in text


async def test_a_turn_board_says_your_turn_once(world):
    w = world
    thread, board, mid = await start_game(w)
    assert board.content.count("your turn") == 1, board.content  # was "<@a> your turn.\n<@a>, your turn."
    assert [u.id for u in board.notified] == [w.alice.id]
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Be kind.")
    await vote_all(w, mid, msg)
    nxt = live_board(thread)
    assert (await match(w, mid)).state.current == 1 and nxt is not board
    assert nxt.content.count("your turn") == 1 and [u.id for u in nxt.notified] == [w.bob.id], nxt.content
    w.dd.assert_clean()


async def test_a_vote_notice_links_to_the_proposal_and_the_board_shows_the_open_vote(world):
    w = world
    await w.carol.slash(w.chan, "notify", mode="dm")
    thread, _board, mid = await start_game(w)
    before = await walk(w, thread, mid)
    assert "propose one rule-change" in before.text
    msg = await propose(w, thread, mid, action="enact", text="Be kind.")
    link = f"/{thread.id}/{msg.id}"
    board = live_board(thread)
    # the board now says a vote is open on proposal 201, with a link to it, and no longer "propose"
    assert board is not before and "Moved on" in before.text
    assert "A vote is open" in board.text and "[proposal 201](https://discord.com/channels/" in board.text
    assert link in board.embed.description and "propose one rule-change" not in board.text
    # it is bob's notice (carol takes DMs; alice proposed): "vote on proposal 201", linking to the proposal
    assert [u.id for u in board.notified] == [w.bob.id]
    assert "vote on proposal 201" in board.content and link in board.content
    assert "your turn" not in board.content
    pings = [m for m in thread.public_messages if m.id > msg.id and m.notified]
    assert pings == [board] and not any("your turn" in m.content for m in pings)
    dm = w.carol.dm_channel().last_message
    assert "Vote on proposal 201" in dm.text and link in dm.text and "go to the board" not in dm.text
    # the vote closes: the DM that asked for it says so; the vote's board is retired
    await vote_all(w, mid, msg)
    assert "Proposal 201 adopted" in msg.text
    assert "Proposal 201 was adopted; its vote is closed" in dm.text and "Vote on proposal" not in dm.text
    assert not any(asks_to_vote(m) for m in thread.public_messages), [m.text for m in thread.public_messages
                                                                      if asks_to_vote(m)]
    assert "your turn" in live_board(thread).content
    w.dd.assert_clean()


async def test_after_the_game_ends_no_message_asks_for_a_vote(world):
    w = world
    await w.carol.slash(w.chan, "notify", mode="dm")
    await w.dave.slash(w.chan, "notify", mode="dm")  # dave's DMs are closed: his notice is a thread ping
    thread, _board, mid = await start_game(w, players=(w.alice, w.bob, w.carol, w.dave))
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="The sky is green.")
    fallback = [m for m in thread.public_messages if w.dave.id in [u.id for u in m.notified]]
    assert len(fallback) == 1 and "vote on proposal 201" in fallback[0].content
    assert f"/{thread.id}/{msg.id}" in fallback[0].content
    await w.bob.react(msg, YES)
    await w.dd.settle()
    before = [m for m in [*thread.public_messages, *w.carol.dm_channel().public_messages] if asks_to_vote(m)]
    assert len(before) >= 4  # the proposal, the board, dave's ping, carol's DM
    r = await w.admin.slash(thread, "nomic end")
    await w.admin.click(await r.message(), "Yes, end the game")
    await w.dd.settle()
    assert (await match(w, mid)).status.value == "finished"
    everything = [*thread.public_messages, *w.carol.dm_channel().public_messages]
    stale = [m.text for m in everything if asks_to_vote(m)]
    assert stale == [], stale
    assert "Proposal 201 rejected" in msg.text and "the game ended" in msg.text
    assert "Proposal 201 was rejected; its vote is closed" in fallback[0].content
    w.dd.assert_clean()


async def test_a_vote_reminder_asks_to_vote_on_the_proposal_and_closes_with_the_vote(world):
    w = world
    await w.carol.slash(w.chan, "notify", mode="dm")
    thread, _board, mid = await start_game(w, turn_limit=3600)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Be kind.")
    await w.expire(60 * 49)  # 11 of 60 minutes left: the reminder (at 20%)
    link = f"/{thread.id}/{msg.id}"
    ping = [m for m in thread.public_messages if "reminder" in m.content]
    assert len(ping) == 1 and "vote on proposal 201" in ping[0].content and link in ping[0].content
    assert {u.id for u in ping[0].notified} == {w.alice.id, w.bob.id}
    dm = [m for m in w.carol.dm_channel().public_messages if "Reminder" in m.text]
    assert len(dm) == 1 and "vote on proposal 201" in dm[0].text and link in dm[0].text
    await vote_all(w, mid, msg, "\u274c")
    assert "Proposal 201 rejected" in msg.text
    assert "Proposal 201 was rejected; its vote is closed" in ping[0].content
    assert not any(asks_to_vote(m) for m in [*thread.public_messages, *w.carol.dm_channel().public_messages])
    w.dd.assert_clean()
