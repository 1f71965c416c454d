"""The real bot on PostgreSQL through the Discord double: a rated match from challenge to result, a restart
(a new process) continuing it, and votes counted — the cog paths on asyncpg, not only the store."""

from __future__ import annotations

import pytest

from bot.app import ParlorBot
from bot.config import Config
from bot.storage.postgres import PostgresStore
from tests.e2e.conftest import Clock, World

pytestmark = pytest.mark.e2e


class PgWorld(World):
    url: str = ""

    def make_bot(self) -> ParlorBot:
        config = Config(token=self.dd.token, database=self.url, command_guilds=(self.guild.id,))
        return ParlorBot(config, PostgresStore(self.url), clock=self.clock)


@pytest.fixture
async def pg_world(dd, tmp_path, pg_session):
    url, _ = pg_session.fresh_schema_url()
    guild = dd.create_guild("Test Guild")
    chan = guild.create_text_channel("games")
    users = {
        name: dd.create_user(name, dms_open=(name != "dave")) for name in ("alice", "bob", "carol", "dave")
    }
    for u in users.values():
        guild.add_member(u)
    admin = dd.create_user("admin")
    guild.add_member(admin, permissions=["manage_guild"])
    w = PgWorld(dd, guild, chan, users["alice"], users["bob"], users["carol"], users["dave"], admin, None,
                Clock(), tmp_path / "unused")
    w.url = url
    w.bot = w.make_bot()
    await dd.connect(w.bot)
    yield w
    if dd.connected:
        await dd.disconnect()


def is_board(m):
    return bool(m.attachments) and "To move" in m.text


async def test_a_rated_match_across_a_restart_on_postgresql(pg_world):
    w = pg_world
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bob, first="challenger", speed="off")
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    await w.alice.click(board, "A · 3")
    await w.dd.settle()
    await w.restart()  # another process takes over the same database
    for _ in range(2):
        m = (await w.bot.service.find_here(thread.id))[0]
        seat = min(m.to_act())
        user = w.alice if m.seats[seat].user_id == w.alice.id else w.bob
        move = m.rules.format(m.rules.legal_moves(m.state, seat)[0], m.state)
        r = await user.slash(thread, "eggcarton move", notation=move)
        assert not r.ephemeral, (await r.message()).text
        await w.dd.settle()
    r = await w.alice.slash(thread, "eggcarton resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    await thread.wait_for(lambda m: "alice resigned" in m.text and "Ratings" in m.text)
    rows = await w.bot.store.ratings(w.guild.id, "eggcarton", [w.alice.id, w.bob.id])
    assert rows[w.bob.id].wins == 1 and rows[w.alice.id].losses == 1
    r = await w.carol.slash(w.chan, "leaderboard", game="eggcarton")
    assert f"**1.** <@{w.bob.id}>" in (await r.message()).text
    w.dd.assert_clean()


async def test_nomic_votes_on_postgresql(pg_world):
    from tests.e2e.nomic_helpers import propose, start_game, vote_all, walk

    w = pg_world
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Players greet each other.")
    await vote_all(w, mid, msg)
    assert "adopted" in msg.text and "3 yes, 0 no" in msg.text
    w.dd.assert_clean()
