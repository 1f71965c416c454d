"""Tournaments end to end: sign-up buttons, paired matches in threads, deadlines, a restart, standings."""

from __future__ import annotations

from collections import defaultdict

import pytest

from tests.e2e.test_postgres import pg_world  # noqa: F401 - fixture

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def no_errors_logged(caplog):
    """The tournament code logs no errors (its loggers are not among the double's captured ones)."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelname in ("ERROR", "CRITICAL")
              and r.name.startswith(("bot", "cogs"))]
    assert not errors, [r.getMessage() for r in errors]


def cog(w):
    return w.bot.get_cog("TournamentCog")


async def idle(w):
    for _ in range(3):
        await w.dd.settle()
        await cog(w).wait_idle()
        await w.bot.service_wait() if hasattr(w.bot, "service_wait") else None
    await w.dd.settle()


async def open_event(w, **opts):
    r = await w.admin.slash(w.chan, "tournament new", **opts)
    signup = await r.message()
    assert not r.ephemeral and "Join" in signup.button_labels()
    return signup


def thread_by_id(w, tid):
    return next(th for th in w.guild.threads if th.id == tid)


async def play_round(w, tid, round_no, users, absent=None):
    """Resignations (alphabetical order wins); the absent player never moves, their opponent moves once."""
    outcomes = {}
    for p in await w.bot.store.pairings(tid, round_no):
        if p.black_id is None:
            continue
        m = await w.bot.service.get(p.match_id)
        thread = thread_by_id(w, m.rec.thread_id)
        white, black = users[p.white_id], users[p.black_id]
        if absent in (white, black):
            present = black if absent is white else white
            if present is white:
                r = await present.slash(thread, "pylon move", notation="S a1")
                assert not r.ephemeral
            outcomes[p.board] = present
            continue
        winner, loser = sorted((white, black), key=lambda u: u.username)
        r = await loser.slash(thread, "pylon resign")
        await loser.click(await r.message(), "Yes, resign")
        outcomes[p.board] = winner
    await idle(w)
    return outcomes


def expected_points(pairings, users, absent):
    pts = defaultdict(int)
    for p in pairings:
        if p.black_id is None:
            pts[p.white_id] += 2
            continue
        w, b = users[p.white_id], users[p.black_id]
        if absent in (w, b):
            pts[(b if absent is w else w).id] += 2
        else:
            pts[min((w, b), key=lambda u: u.username).id] += 2
    return pts


async def test_swiss_of_five_with_an_absent_player_and_a_restart(world):
    await swiss_of_five(world)


async def test_swiss_of_five_on_postgresql(pg_world):  # noqa: F811 - the imported fixture
    """The same event with the store on PostgreSQL (asyncpg), restarts included."""
    await swiss_of_five(pg_world)


async def swiss_of_five(w):
    erin = w.dd.create_user("erin")
    w.guild.add_member(erin)
    players = [w.alice, w.bob, w.carol, w.dave, erin]
    users = {u.id: u for u in players}
    # only organisers may open one
    r = await w.alice.slash(w.chan, "tournament new", game="pylon")
    assert r.ephemeral and "Manage Server" in (await r.message()).text
    # EOF is not offered (test_wording.py); a client sending it anyway is refused clearly
    r = await w.admin.slash(w.chan, "tournament new", game="eof", strict=False)
    assert r.ephemeral and "could not read 'eof'" in (await r.message()).text
    assert await w.bot.store.tournaments_in_guild(w.guild.id) == []
    signup = await open_event(w, game="pylon", rounds=3, options={"round-time": 300})
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    for u in players:
        await u.click(signup, "Join")
    assert all(u.username in signup.text for u in players)
    r = await w.alice.click(signup, "Join")
    assert r.ephemeral and "already joined" in (await r.message()).text
    r = await w.alice.click(signup, "Start (organiser)")
    assert r.ephemeral and "organiser" in (await r.message()).text
    await w.admin.click(signup, "Start (organiser)")
    await idle(w)
    assert "Sign-up closed" in signup.text and signup.buttons() == []
    pairing_post = await w.chan.wait_for(lambda m: "round 1 of 3" in m.text)
    assert "Bye:" in pairing_post.text
    # each game is an ordinary match in its own thread, both players pinged
    r1 = await w.bot.store.pairings(tid, 1)
    games = [p for p in r1 if p.black_id is not None]
    assert len(games) == 2 and len(w.guild.threads) == 2
    for p in games:
        th = thread_by_id(w, (await w.bot.service.get(p.match_id)).rec.thread_id)
        assert "moves first" in th.messages[0].text
        # both players are pinged once (the greeting, or the board for the one to move)
        pinged = [u.id for m in th.messages for u in m.mentions]
        assert sorted(pinged) == sorted([p.white_id, p.black_id])
        assert any(m.attachments and "To move" in m.text for m in th.messages)
    # a late joiner is refused
    late = w.dd.create_user("late")
    w.guild.add_member(late)
    r = await late.click(signup, "Join", check=False) if signup.buttons() else None
    assert r is None  # the buttons are gone once the event started

    for rnd in (1, 2, 3):
        await w.chan.wait_for(lambda m, rnd=rnd: f"round {rnd} of 3" in m.text)
        await play_round(w, tid, rnd, users, absent=w.dave)
        t = await w.bot.store.load_tournament(tid)
        if t.current_round == rnd and t.status == "running":
            if rnd == 1:  # a restart mid-round: nothing is paired or started twice
                await w.restart()
                await idle(w)
                assert (
                    len(await w.bot.store.pairings(tid, 1)) == 3 and await w.bot.store.pairings(tid, 2) == []
                )
            await w.expire(301)   # the round deadline: dave (to move) loses; he never moved, so a forfeit
            await idle(w)
        assert all(p.result for p in await w.bot.store.pairings(tid, rnd))
        if rnd == 1:
            await w.chan.wait_for(lambda m: "round 2 of 3" in m.text)
            assert any(m.attachments and m.attachments[0].is_png and "standings" in m.text.lower()
                       for m in w.chan.messages)
            # a restart between rounds: round 2 is neither paired again nor posted again
            threads_before = len(w.guild.threads)
            await w.restart()
            await idle(w)
            assert len(w.guild.threads) == threads_before
            assert len(await w.bot.store.pairings(tid, 2)) == 3
            assert sum("round 2 of 3" in m.text for m in w.chan.messages) == 1
    all_results = [p.result for p in await w.bot.store.pairings(tid)]
    assert "+-" in all_results or "-+" in all_results  # the absent player's games were forfeits

    t = await w.bot.store.load_tournament(tid)
    assert t.status == "finished"
    all_pairings = await w.bot.store.pairings(tid)
    met = [frozenset((p.white_id, p.black_id)) for p in all_pairings if p.black_id]
    assert len(met) == len(set(met))
    assert sorted(p.white_id for p in all_pairings if p.black_id is None) == sorted(
        {p.white_id for p in all_pairings if p.black_id is None})  # nobody got two byes
    st = await cog(w).service.standing(tid)
    want = expected_points(all_pairings, users, w.dave)
    assert {r.player: r.points for r in st.rows} == {u.id: want[u.id] for u in players}
    top = st.rows[0]
    assert top.player == w.alice.id and top.points == 6  # alice wins every game she plays (or has the bye)
    final = await w.chan.wait_for(lambda m: "Winner" in m.text)
    assert "alice" in final.text and final.attachments[0].is_png
    assert "1st" in final.text and "2nd" in final.text
    r = await w.carol.slash(w.chan, "tournament standings")
    text = (await r.message()).text
    assert r.ephemeral and "alice" in text and "Buch" in text
    w.dd.assert_clean()


async def test_round_robin_of_four(world):
    w = world
    players = [w.alice, w.bob, w.carol, w.dave]
    users = {u.id: u for u in players}
    signup = await open_event(w, game="fireandice", format="round-robin", rated=False,
                              options={"round-time": 300})
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    r = await w.admin.click(signup, "Start (organiser)")
    assert r.ephemeral and "at least 3" in (await r.message()).text
    for u in players:
        await u.click(signup, "Join")
    await w.admin.click(signup, "Start (organiser)")
    await idle(w)
    for rnd in (1, 2, 3):
        await w.chan.wait_for(lambda m, rnd=rnd: f"round {rnd} of 3" in m.text)
        for p in await w.bot.store.pairings(tid, rnd):
            m = await w.bot.service.get(p.match_id)
            thread = thread_by_id(w, m.rec.thread_id)
            loser = max((users[p.white_id], users[p.black_id]), key=lambda u: u.username)
            r = await loser.slash(thread, "fireandice resign")
            await loser.click(await r.message(), "Yes, resign")
        await idle(w)
    t = await w.bot.store.load_tournament(tid)
    assert t.status == "finished" and t.rounds == 3
    results = [m for th in w.guild.threads for m in th.messages if "match over" in m.text]
    assert len(results) == 6 and all("Rematch" not in m.button_labels() for m in results)  # the event pairs
    pairs = await w.bot.store.pairings(tid)
    assert len({frozenset((p.white_id, p.black_id)) for p in pairs}) == 6
    st = await cog(w).service.standing(tid)
    assert [(r.player, r.points) for r in st.rows] == [(w.alice.id, 6), (w.bob.id, 4), (w.carol.id, 2),
                                                        (w.dave.id, 0)]
    final = await w.chan.wait_for(lambda m: "Winner" in m.text)
    assert "alice" in final.text
    # casual: nobody was rated
    assert await w.bot.store.top_ratings(w.guild.id, "fireandice") == []
    w.dd.assert_clean()


async def test_too_few_players_at_the_start_time_cancels(world):
    w = world
    signup = await open_event(w, game="eggcarton", starts=300)
    await w.alice.click(signup, "Join")
    await w.bob.click(signup, "Join")
    r = await w.bob.click(signup, "Leave")
    await w.bob.click(signup, "Join")
    await w.expire(301)
    await idle(w)
    msg = await w.chan.wait_for(lambda m: "Cancelled" in m.text)
    assert "only 2 players" in msg.text
    assert signup.buttons() == []
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id, active_only=False))[0].id
    assert (await w.bot.store.load_tournament(tid)).status == "cancelled"
    assert r.response_name == "UPDATE_MESSAGE"


async def test_too_many_events_and_withdraw(world):
    w = world
    await w.admin.slash(w.chan, "tournament settings", options={"max-events": 1})
    first = await open_event(w, game="pylon")
    second = await open_event(w, game="pylon")
    await w.alice.click(first, "Join")
    r = await w.alice.click(second, "Join")
    assert r.ephemeral and "already in 1 event on this server" in (await r.message()).text
    assert "alice" not in second.text
    r = await w.alice.slash(w.chan, "tournament list")
    assert "#1" in (await r.message()).text and "#2" in (await r.message()).text
    for u in (w.bob, w.carol):
        await u.click(first, "Join")
    await w.admin.click(first, "Start (organiser)")
    await idle(w)
    r = await w.carol.slash(w.chan, "tournament withdraw", event=1)
    assert r.ephemeral and "withdrew" in (await r.message()).text
    r = await w.carol.slash(w.chan, "tournament withdraw", event=1)
    assert r.ephemeral and "Already withdrawn" in (await r.message()).text
    r = await w.alice.slash(w.chan, "tournament pause", event=1)
    assert r.ephemeral and "organiser" in (await r.message()).text
    r = await w.admin.slash(w.chan, "tournament cancel", event=1)
    assert "cancelled" in (await r.message()).text
    await idle(w)
    assert (await w.bot.store.load_tournament(1)).status == "cancelled"
    w.dd.assert_clean()


async def test_organiser_pause_resume_and_remove(world):
    w = world
    signup = await open_event(w, game="pylon", rounds=2, options={"round-time": 300})
    for u in (w.alice, w.bob, w.carol, w.dave):
        await u.click(signup, "Join")
    await w.admin.click(signup, "Start (organiser)")
    await idle(w)
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    r = await w.admin.slash(w.chan, "tournament pause")
    assert r.ephemeral and "paused" in (await r.message()).text
    await w.chan.wait_for(lambda m: "paused by the organiser" in m.text)
    await w.expire(10_000)  # the round clock is stopped: nothing advances (games' own limits still run)
    t = await w.bot.store.load_tournament(tid)
    assert t.status == "paused" and t.current_round == 1
    r = await w.admin.slash(w.chan, "tournament resume")
    assert "resumed" in (await r.message()).text
    t = await w.bot.store.load_tournament(tid)
    assert t.status == "running" and t.deadline == pytest.approx(w.clock() + 300, abs=5)
    r = await w.admin.slash(w.chan, "tournament remove", player=w.dave)
    assert r.ephemeral and "Removed" in (await r.message()).text
    await w.chan.wait_for(lambda m: "dave was removed" in m.text)
    entrants = {e.user_id: e for e in await w.bot.store.entrants(tid)}
    assert entrants[w.dave.id].withdrawn_round == (await w.bot.store.load_tournament(tid)).current_round
    r = await w.bob.slash(w.chan, "tournament remove", player=w.alice)
    assert r.ephemeral and "organiser" in (await r.message()).text
    w.dd.assert_clean()


async def test_a_round_started_but_never_posted_is_posted_once_after_a_restart(world):
    from bot.tournaments.service import _Quiet

    w = world
    signup = await open_event(w, game="pylon")
    for u in (w.alice, w.bob, w.carol, w.dave):
        await u.click(signup, "Join")
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    cog(w).service.presenter = _Quiet()           # the process dies right after the round was committed
    await cog(w).service.start(tid, None)
    assert w.guild.threads == [] and len(await w.bot.store.pairings(tid, 1)) == 2
    await w.restart()
    await idle(w)
    await w.chan.wait_for(lambda m: "round 1 of 3" in m.text)
    assert len(w.guild.threads) == 2
    await w.restart()                               # and again: nothing is posted twice
    await idle(w)
    assert len(w.guild.threads) == 2
    assert sum("round 1 of 3" in m.text for m in w.chan.messages) == 1
    w.dd.assert_clean()


async def test_notification_choices_apply_to_tournament_games(world):
    w = world
    await w.alice.slash(w.chan, "notify", mode="dm")
    await w.bob.slash(w.chan, "notify", mode="off")
    signup = await open_event(w, game="pylon", rounds=1)
    for u in (w.alice, w.bob, w.carol, w.dave):
        await u.click(signup, "Join")
    await w.admin.click(signup, "Start (organiser)")
    await idle(w)
    pinged = [u.id for th in w.guild.threads for m in th.messages for u in m.mentions]
    assert w.alice.id not in pinged and w.bob.id not in pinged      # dm / off: never pinged in the thread
    assert w.carol.id in pinged and w.dave.id in pinged              # the default: pinged in the thread
    tid = (await w.bot.store.tournaments_in_guild(w.guild.id))[0].id
    alice_game = next(p for p in await w.bot.store.pairings(tid, 1) if w.alice.id in (p.white_id, p.black_id))
    if alice_game.white_id == w.alice.id:   # her turn from the start: a DM with a link instead of a ping
        dm = await w.alice.wait_for_dm(lambda m: "Your move" in m.text)
        assert "discord.com/channels" in dm.text
