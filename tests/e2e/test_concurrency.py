"""Issue 19 (and 11) end to end: votes and clicks that arrive together while a match is being saved.

A delay is injected into the save path (between the seat upsert and the rest of the transaction), so any
handler that could read a half-written match would; every handler reads committed state only.
"""

import asyncio
import itertools

import pytest

from bot.storage.sql import SqlStore
from tests.discord_double.errors import UserActionError
from tests.e2e.nomic_helpers import match, propose, start_game, user_of, walk

pytestmark = pytest.mark.e2e

YES = "\u2705"


@pytest.fixture
def slow_saves(monkeypatch):
    """Every seat write sleeps inside its transaction (issue 19's 'pause between the two steps')."""
    original = SqlStore._write_seats

    async def slow(db, match, *, fresh=False):
        await original(db, match, fresh=fresh)
        await asyncio.sleep(0.01)

    monkeypatch.setattr(SqlStore, "_write_seats", staticmethod(slow))


async def start_pylon(w, host, opponent):
    """Challenge and accept through the double; (thread, match id)."""
    await host.slash(w.chan, "pylon new", opponent=opponent, first="challenger")
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels() and f"<@{opponent.id}>" in m.text)
    await opponent.click(invite, "Accept")
    await w.dd.settle()
    return w.thread(), (await w.bot.store.active_matches())[-1].id


async def test_40_players_move_at_the_same_instant_in_40_matches(world):
    """Issue 11: 40 players each type a legal move in their own 40 Pylon matches at the same instant."""
    w = world
    users = [w.dd.create_user(f"player{i}") for i in range(80)]
    for u in users:
        w.guild.add_member(u)
    games = [(users[2 * i], *await start_pylon(w, users[2 * i], users[2 * i + 1])) for i in range(40)]
    replies = await asyncio.gather(
        *(u.slash(thread, "pylon move", notation="L a1") for u, thread, _ in games)
    )
    texts = [(await r.message()).text for r in replies if r.ephemeral]
    assert texts == [], texts[:3]  # no refusal, no "something went wrong"
    for _, _, mid in games:
        assert [mv.notation for mv in await w.bot.service.history(mid)] == ["L a1"]
    await w.dd.settle()
    w.dd.assert_clean()


async def test_10_rated_matches_of_the_same_players_resigned_at_once(world):
    """Issue 11: all 10 are rated and the rating-history chain is unbroken."""
    w = world
    games = [await start_pylon(w, w.alice, w.bob) for _ in range(10)]
    confirms = []
    for thread, _ in games:
        r = await w.alice.slash(thread, "pylon resign")
        confirms.append(await r.message())
    await asyncio.gather(*(w.alice.click(c, "Yes, resign") for c in confirms))
    await w.dd.settle()
    for thread, mid in games:
        assert (await w.bot.service.get(mid)).status.value == "finished"
        await thread.wait_for(lambda m: "alice resigned" in m.text and "Ratings" in m.text)
    store = w.bot.store
    rows = await store.ratings(w.guild.id, "pylon", [w.alice.id, w.bob.id])
    assert (rows[w.alice.id].games, rows[w.alice.id].losses, rows[w.bob.id].wins) == (10, 10, 10)
    async with store._read() as db:
        for uid in (w.alice.id, w.bob.id):
            chain = await db.fetch(
                "SELECT mu_before, sigma_before, mu_after, sigma_after FROM rating_history "
                "WHERE user_id = ? ORDER BY id",
                uid,
            )
            assert len(chain) == 10
            for prev, row in itertools.pairwise(chain):
                assert (row[0], row[1]) == pytest.approx((prev[2], prev[3]))
    w.dd.assert_clean()


async def react_together(users, msg, spread: float) -> None:
    async def one(i, u):
        await asyncio.sleep(i * spread)
        await u.react(msg, YES)

    await asyncio.gather(*(one(i, u) for i, u in enumerate(users)))


async def test_three_votes_at_the_same_instant_are_all_counted_50_rounds(world, slow_saves):
    w = world
    thread, _board, mid = await start_game(w, turn_limit=86400)
    removed = []
    real_remove = w.bot.reaction_votes.remove if hasattr(w.bot, "reaction_votes") else None
    assert real_remove is not None

    async def spy_remove(channel_id, message_id, emoji, user_id):
        removed.append(user_id)
        await real_remove(channel_id, message_id, emoji, user_id)

    w.bot.reaction_votes.remove = spy_remove
    for rnd in range(50):
        await walk(w, thread, mid)
        msg = await propose(w, thread, mid, action="enact", text=f"Round {rnd} greeting.")
        m = await match(w, mid)
        voters = [user_of(w, m, s) for s in sorted(m.rules.to_act(m.state))]
        assert len(voters) == 3
        # even rounds: exactly together; odd rounds: a few milliseconds apart (1–3 ms steps)
        await react_together(voters, msg, 0.0 if rnd % 2 == 0 else 0.001 * (1 + rnd % 3))
        await w.dd.settle()
        assert removed == [], f"round {rnd}: a player's vote was removed"
        assert "adopted" in msg.text and "3 yes, 0 no" in msg.text, f"round {rnd}: {msg.text[-200:]}"
    w.dd.assert_clean()


async def test_a_click_racing_a_typed_move_while_seats_are_rewritten(world, slow_saves):
    """Fire and Ice: the player to move picks a piece on the board (a component whose handler checks the
    clicker's seat) while typing a move, together or a few ms apart, 50 times, while every save rewrites the
    seats slowly. A seated player is never told they are not playing; every typed move acknowledged publicly
    is stored exactly once; nothing 'went wrong'."""
    w = world
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    races = 0
    while races < 50:
        await w.alice.slash(w.chan, "fireandice new", opponent=w.bob)
        invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
        await w.bob.click(invite, "Accept")
        await w.dd.settle()
        thread = w.thread()
        mid = (await w.bot.store.active_matches())[-1].id
        while races < 50:
            m = await match(w, mid)
            if m.status.value != "running":
                break
            seat = sorted(m.to_act())[0]
            user = players[m.seats[seat].user_id]
            board = await thread.wait_for(lambda b: bool(b.attachments) and bool(b.selects()))
            src = board.selects()[0]
            legal = m.rules.legal_moves(m.state, seat)
            typed = m.rules.format(legal[races % len(legal)], m.state)
            before = len(await w.bot.service.history(mid))
            gap = 0.003 * (races % 8)  # together, then the click 3–21 ms after the typed move

            async def late_click(gap=gap, user=user, board=board, src=src):
                await asyncio.sleep(gap)
                try:
                    return await user.select(board, [src.values[0]], custom_id=src.custom_id)
                except UserActionError:  # the typed move's new board already replaced this one
                    return None

            slash, click = await asyncio.gather(user.slash(thread, "fireandice move", notation=typed),
                                                late_click())
            await w.dd.settle()
            for r in (click, slash):
                if r is not None and r.ephemeral:
                    text = (await r.message()).text
                    assert "went wrong" not in text and "not playing" not in text, (races, text)
            confirm = slash.ephemeral and "Yes, play" in " ".join((await slash.message()).button_labels())
            applied = 0 if slash.ephemeral else 1
            history = await w.bot.service.history(mid)
            assert len(history) - before == applied, (races, typed, (await slash.message()).text)
            assert (await match(w, mid)).version == m.version + applied
            if confirm:  # a move that hands the opponent the win asks first: resign instead to move on
                await w.bot.service.resign(mid, user.id)
            races += 1
    w.dd.assert_clean()
