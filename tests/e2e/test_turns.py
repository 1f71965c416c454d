"""Issue 12 end to end: turn pings, /notify, reminders, one live board, rematch, Watch, expiry, archiving,
and issue 11's stuck board brought up to date. Pings are counted by who Discord really pings
(``Message.mentions``: content mentions filtered by allowed_mentions)."""

import pytest

from tests.e2e.test_platform import is_board, live_board, place, start_pylon

pytestmark = pytest.mark.e2e


def pings_of(w, user, since=None):
    """Messages in the match threads that notified ``user``
    (the challenge's own ping in the channel aside)."""
    out = []
    for ch in w.guild.threads:
        for m in ch.public_messages:
            if user.id in m.notified_ids:
                out.append(m)
    return out


def dms_of(user):
    ch = user.dm_channel()
    return (
        [] if ch is None else [m for m in ch.public_messages if "Your move" in m.text or "Reminder" in m.text]
    )


async def test_players_are_added_to_the_thread_and_each_turn_pings_only_the_player_to_move(world):
    w = world
    thread, board = await start_pylon(w)
    assert {w.alice.id, w.bob.id} <= set(thread.thread_members)
    assert len(pings_of(w, w.alice)) == 1 and pings_of(w, w.bob) == []  # the first board pings alice only
    await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    assert len(pings_of(w, w.bob)) == 1 and len(pings_of(w, w.alice)) == 1  # never for your own move
    ping = pings_of(w, w.bob)[0]
    assert ping.allowed_mentions["users"] == [str(w.bob.id)] or ping.allowed_mentions["users"] == [w.bob.id]
    board = live_board(thread)
    await place(w, board, w.bob, "Small (5 left)", "f5")
    await w.dd.settle()
    assert len(pings_of(w, w.alice)) == 2 and len(pings_of(w, w.bob)) == 1
    # typed move: the reply is the new board and pings alice's opponent; the old board moved on
    old = live_board(thread)
    r = await w.alice.slash(thread, "pylon move", notation="S a2")
    await w.dd.settle()
    new = await r.message()
    assert [u.id for u in new.mentions] == [w.bob.id]
    assert "Moved on" in old.text and old.buttons() == [] and "To move" not in old.text
    assert new.jump_url if hasattr(new, "jump_url") else True
    assert str(new.id) in old.text  # the jump link goes to the latest board
    boards_saying_to_move = [m for m in thread.public_messages if "To move" in m.text]
    assert boards_saying_to_move == [new]
    w.dd.assert_clean()


async def test_notify_dm_off_and_closed_dms_fall_back_to_the_thread(world):
    w = world
    r = await w.bob.slash(w.chan, "notify", mode="dm")
    assert r.ephemeral and "direct message" in (await r.message()).text
    assert "come here" in w.bob.dm_channel().last_message.text
    thread, board = await start_pylon(w)
    await w.alice.click(board, "Small (5 left)")
    mark = w.dd.mark()
    sel = next(s for s in board.selects() if "a1" in s.values)
    await w.alice.select(board, ["a1"], custom_id=sel.custom_id)
    await w.dd.settle()
    assert pings_of(w, w.bob) == []
    dms = dms_of(w.bob)
    assert len(dms) == 1 and f"/{thread.id}/" in dms[0].text  # the DM links to the thread's board
    # ... and says what alice played, with the board's picture (issue 27)
    assert "Last: alice: `S a1`" in dms[0].text
    assert dms[0].attachments and dms[0].attachments[0].is_png
    assert dms[0].attachments[0].bytes == board.attachments[0].bytes
    # the board edited in place + the DM (its channel was opened by /notify, not during a move)
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1,
                                            "POST /channels/{channel_id}/messages": 1}
    await place(w, board, w.bob, "Small (5 left)", "f5")
    await w.dd.settle()
    await w.alice.click(live_board(thread), "Small (4 left)")
    mark = w.dd.mark()
    sel = next(s for s in live_board(thread).selects() if "a2" in s.values)
    await w.alice.select(live_board(thread), ["a2"], custom_id=sel.custom_id)
    await w.dd.settle()
    assert len(dms_of(w.bob)) == 2 and len(w.dd.api_calls(since=mark)) == 2
    # off: nothing at all
    await w.alice.slash(w.chan, "notify", mode="off")
    alice_pings = len(pings_of(w, w.alice))
    board = live_board(thread)
    await w.bob.click(board, "Small (4 left)")
    mark = w.dd.mark()
    sel = next(s for s in board.selects() if "e5" in s.values)
    await w.bob.select(board, ["e5"], custom_id=sel.custom_id)
    await w.dd.settle()
    assert len(pings_of(w, w.alice)) == alice_pings and dms_of(w.alice) == []
    assert len(w.dd.api_calls(since=mark, route="POST /interactions/{interaction_id}/{token}/callback")) == 1
    assert len(w.dd.api_calls(since=mark)) == 1
    # dave (DMs closed) chose dm: the thread ping is used instead
    r = await w.dave.slash(w.chan, "notify", mode="dm")
    assert "DMs are closed" in (await r.message()).text
    await w.carol.slash(w.chan, "pylon new", opponent=w.dave)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels() and "dave" in m.text)
    await w.dave.click(invite, "Accept")
    await w.dd.settle()
    t2 = w.thread()
    b2 = live_board(t2)
    await place(w, b2, w.carol, "Small (5 left)", "a1")
    await w.dd.settle()
    assert len([m for m in t2.public_messages if w.dave.id in m.notified_ids]) == 1
    w.dd.assert_clean()


async def test_egg_carton_repick_does_not_ping_again(world):
    w = world
    await w.alice.slash(w.chan, "eggcarton new", opponent=w.bob, first="challenger")
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    match = (await w.bot.service.find_here(thread.id))[0]
    before = len(pings_of(w, w.alice))
    assert before == 1
    # play until someone moves twice in a row (a repick) and check nobody was pinged for it
    for _ in range(30):
        match = await w.bot.service.get(match.id)
        if match.status.value != "running":
            break
        seat = sorted(match.to_act())[0]
        user = w.alice if match.seats[seat].user_id == w.alice.id else w.bob
        mv = match.rules.format(match.rules.legal_moves(match.state, seat)[0], match.state)
        pings_before = len(pings_of(w, user))
        other = w.bob if user is w.alice else w.alice
        other_before = len(pings_of(w, other))
        await user.slash(thread, "eggcarton move", notation=mv)
        await w.dd.settle()
        after = await w.bot.service.get(match.id)
        assert len(pings_of(w, user)) == pings_before  # never for your own move, never when you move again
        if after.status.value == "running" and sorted(after.to_act()) != [seat]:
            assert len(pings_of(w, other)) == other_before + 1
        else:
            assert len(pings_of(w, other)) == other_before
    w.dd.assert_clean()


async def test_reminder_at_20_percent_survives_a_restart_and_is_sent_once(world):
    w = world
    thread, board = await start_pylon(w, turn_limit=3600)
    await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    assert len(pings_of(w, w.bob)) == 1
    await w.expire(60 * 47)  # 47 minutes: 13 left, no reminder yet (20% = 12 minutes)
    assert len(pings_of(w, w.bob)) == 1
    await w.restart()  # between the deadline being set and the reminder
    await w.dd.settle()
    await w.expire(60 * 2)
    reminders = [m for m in pings_of(w, w.bob) if "reminder" in m.text]
    assert len(reminders) == 1 and "<t:" in reminders[0].text
    await w.restart()
    await w.dd.settle()
    await w.expire(60)
    assert len([m for m in pings_of(w, w.bob) if "reminder" in m.text]) == 1  # not repeated
    await w.expire(60 * 10)
    assert (
        "did not move within the turn limit" in (await thread.wait_for(lambda m: "match over" in m.text)).text
    )
    w.dd.assert_clean()


async def test_short_turn_limits_get_no_reminder(world):
    w = world
    await start_pylon(w, turn_limit=900)
    await w.expire(800)
    assert not [m for m in pings_of(w, w.alice) if "reminder" in m.text]


async def test_resignation_shows_the_end_on_the_final_board_and_offers_a_rematch(world):
    w = world
    thread, _board = await start_pylon(w)
    before = live_board(thread)
    before_png = before.attachments[0].bytes
    r = await w.bob.slash(thread, "pylon resign")
    await w.bob.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    final = before  # the live board is edited to the end
    assert "bob resigned" in final.text and "To move" not in final.text
    assert "move to type" not in final.text and "history" in final.text
    assert final.attachments[0].bytes != before_png
    img = final.attachments[0].image().convert("RGB")
    # the result band below the board: an amber rule across the picture near the bottom
    rows = [y for y in range(img.height - 120, img.height)
            if all(img.getpixel((x, y)) == (250, 166, 26) for x in (0, img.width // 2, img.width - 1))]
    assert rows, "no result band"
    over = await thread.wait_for(lambda m: "match over" in m.text)
    # /board and /history still work for the match that just ended
    r = await w.carol.slash(thread, "pylon board")
    assert r.ephemeral and "bob resigned" in (await r.message()).text
    r = await w.carol.slash(thread, "pylon board", public=True)
    assert not r.ephemeral
    r = await w.carol.slash(thread, "pylon history")
    assert "moves" in (await r.message()).text
    # Rematch: seats swapped, Accept/Decline for the other player, in the channel
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
    assert [u.id for u in b2.mentions] == [w.bob.id]  # bob had seat 2; now he opens
    match = (await w.bot.service.find_here(t2.id))[0]
    old = (await w.bot.service.find_here(thread.id, active_only=False))[0]
    assert match.seats[0].user_id == old.seats[1].user_id  # seats swapped
    w.dd.assert_clean()


async def test_rematch_against_the_computer_starts_at_once(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    await w.alice.click(over, "Rematch")
    await w.dd.settle()
    assert len(w.guild.threads) == 2
    b2 = await w.thread().wait_for(is_board)
    assert [u.id for u in b2.mentions] == [w.alice.id]  # the computer opened, alice is pinged
    w.dd.assert_clean()


async def test_watch_button_adds_a_spectator_to_the_thread(world):
    w = world
    thread, board = await start_pylon(w)
    assert w.carol.id not in thread.thread_members
    r = await w.carol.click(board, "Watch")
    assert r.ephemeral and "watching" in (await r.message()).text
    assert w.carol.id in thread.thread_members
    w.dd.assert_clean()


async def test_one_match_per_thread_and_a_finished_match_never_blocks(world):
    w = world
    thread, _board = await start_pylon(w)
    r = await w.carol.slash(thread, "pylon new", opponent=w.dave)
    assert r.ephemeral and "one match per thread" in (await r.message()).text
    r = await w.alice.slash(thread, "fireandice new", opponent=w.bob)
    assert r.ephemeral
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    r = await w.carol.slash(w.chan, "pylon new", opponent=w.dave)
    assert not r.ephemeral
    w.dd.assert_clean()


async def test_challenges_expire_on_their_own_time_not_the_turn_limit(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob, turn_limit=30)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.expire(31)
    assert "Accept" in invite.button_labels()
    await w.expire(15 * 60)
    assert "Expired" in invite.text
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob, expires=300)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.expire(301)
    assert "Expired" in invite.text
    w.dd.assert_clean()


async def test_thread_archived_an_hour_after_the_end(world):
    w = world
    thread, _board = await start_pylon(w)
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    await w.expire(59 * 60)
    assert not thread.archived
    await w.expire(2 * 60)
    assert thread.archived and thread in w.guild.threads  # archived, not deleted
    w.dd.assert_clean()


async def test_a_failed_reply_leaves_no_stuck_board(world):
    """Issue 11: the move is stored but its reply never reaches Discord (the token expired)."""
    w = world
    thread, board = await start_pylon(w)
    cog = w.bot.game_cogs["pylon"]
    original = cog.board_kwargs

    calls = {"n": 0}

    async def broken_once(match, result, state=""):
        calls["n"] += 1
        kwargs = await original(match, result, state)
        if calls["n"] == 1:
            kwargs["embed"].title = "x" * 300  # Discord refuses the reply (embed title too long)
        return kwargs

    cog.board_kwargs = broken_once
    await w.alice.slash(thread, "pylon move", notation="S a1", check=False)
    await w.dd.settle()
    cog.board_kwargs = original
    # (the pseudo-locale run: the refused title is this test's own, not the bot's words)
    w.dd.pseudo_findings[:] = [f for f in w.dd.pseudo_findings if "x" * 40 not in f and " 300 > " not in f]
    match = (await w.bot.service.find_here(thread.id))[0]
    assert match.version >= 2
    latest = live_board(thread)
    assert "S a1" in latest.text and latest.id != board.id
    assert "Moved on" in board.text and board.buttons() == []
    assert len([m for m in thread.public_messages if w.bob.id in m.notified_ids]) == 1  # pinged once
    assert not w.dd.bot_errors  # a warning, not an error: the move stands and its board went out
    await place(w, latest, w.bob, "Small (5 left)", "f5")  # the match goes on from the re-posted board


async def test_killed_between_commit_and_reply_the_board_is_brought_up_to_date_on_restart(world):
    w = world
    thread, board = await start_pylon(w)
    # a move stored behind Discord's back, as if the process died before replying
    svc = w.bot.service
    match = (await svc.find_here(thread.id))[0]
    await svc.play(match.id, w.alice.id, "S a1")
    await w.restart()
    latest = await thread.wait_for(lambda m: is_board(m) and "S a1" in m.text)
    await w.dd.settle()
    assert latest.id != board.id
    assert "Moved on" in board.text and board.buttons() == []
    assert [u.id for u in latest.mentions] == [w.bob.id]


async def test_eof_programming_pings_everyone_still_to_act_once(dd, tmp_path):
    """A simultaneous phase: each player gets one notice when programming opens (the builder DM), and a
    player who submits does not get the other one pinged again."""
    from tests.e2e.eof_helpers import (
        Clock,
        build_in,
        builder_dm,
        deal_by_buttons,
        eof_world,
        hand_from_select,
        latest_match_id,
        open_lobby,
        some_program,
        start,
    )

    bot, chan, (alice, bob) = await eof_world(dd, tmp_path, Clock(), ("alice", "bob"))
    lobby = await open_lobby(alice, chan)
    await bob.click(lobby, "Join")
    thread = await start(dd, alice, lobby)
    assert {alice.id, bob.id} <= set(thread.thread_members)  # added when the thread was created
    mid = await latest_match_id(bot)
    await deal_by_buttons(dd, bot, mid, [alice, bob])
    await dd.settle()
    mark = dd.mark()

    def thread_pings(user):
        return [m for m in thread.public_messages if user.id in m.notified_ids]

    before = {u.id: len(thread_pings(u)) for u in (alice, bob)}
    adm = await builder_dm(alice)
    await builder_dm(bob)
    # the builder DM was the notice: no extra thread ping for the programming phase
    assert {u.id: len(thread_pings(u)) for u in (alice, bob)} == before
    await build_in(alice, adm, some_program(hand_from_select(adm), 5))
    await dd.settle()
    assert len(thread_pings(bob)) == before[bob.id]  # bob was already told; alice's submit pings nobody
    assert not [r for r in dd.api_calls(since=mark) if r.route == "POST /channels/{channel_id}/messages"
                and r.json and str(bob.id) in str(r.json.get("allowed_mentions", {}).get("users", []))]


async def test_board_public_reposts_the_live_board(world):
    w = world
    thread, board = await start_pylon(w)
    r = await w.carol.slash(thread, "pylon board", public=True)
    new = await r.message()
    await w.dd.settle()
    assert not r.ephemeral and "To move" in new.text and new.buttons()
    assert "Moved on" in board.text and board.buttons() == [] and str(new.id) in board.text
    assert new.notified == []  # a re-post pings nobody
    await place(w, new, w.alice, "Small (5 left)", "a1")  # the re-posted board plays
    w.dd.assert_clean()


async def test_nomic_same_player_steps_ping_nobody_and_votes_ping_each_voter_once(world):
    from tests.e2e.nomic_helpers import current, propose, start_game, walk

    w = world
    thread, _board, mid = await start_game(w)

    def count(user):
        return len([m for m in thread.public_messages if user.id in m.notified_ids])

    mover = await current(w, mid)
    before = {u.id: count(u) for u in (w.alice, w.bob, w.carol)}
    await walk(w, thread, mid)  # the same player goes on to the rule-change phase: nobody is pinged
    assert (await current(w, mid)) is mover
    assert {u.id: count(u) for u in (w.alice, w.bob, w.carol)} == before
    msg = await propose(w, thread, mid, action="enact", text="Players greet each other.")
    voters = [u for u in (w.alice, w.bob, w.carol) if u is not mover]
    after = {u.id: count(u) for u in (w.alice, w.bob, w.carol)}
    assert all(after[u.id] <= before[u.id] + 1 for u in (w.alice, w.bob, w.carol))
    await voters[0].react(msg, "\u2705")
    await w.dd.settle()
    assert {u.id: count(u) for u in (w.alice, w.bob, w.carol)} == after  # a vote cast pings nobody again


async def test_a_slow_computer_is_answered_first_and_edits_the_same_board_without_a_ping(world, monkeypatch):
    import cogs._game.play

    monkeypatch.setattr(cogs._game.play, "AI_AT_ONCE", 0.0)  # the computer never answers "at once"
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    await w.alice.click(board, "Small (5 left)")
    mark = w.dd.mark()
    sel = next(s for s in board.selects() if "c3" in s.values)
    r = await w.alice.select(board, ["c3"], custom_id=sel.custom_id)
    # the computer thinks in its own process: on a busy machine its answer can come after a quiet spell
    await w.dd.wait_until(lambda: len(w.dd.api_calls(since=mark)) >= 2, timeout=20)
    await w.dd.settle()
    calls = w.dd.api_calls(since=mark)
    # the click's answer shows alice's own move at once (the computer thinking), then the same board is
    # edited with the computer's answer: two requests, no new message, no ping
    assert len(calls) == 2
    assert calls[0].interaction_id == r.id and "thinking…" in str(calls[0].json)
    assert calls[1].method == "PATCH" and str(board.id) in calls[1].path
    assert live_board(thread).id == board.id
    assert "alice: `S c3`" in board.text and "Parlor (easy): `" in board.text
    assert pings_of(w, w.alice) == [pings_of(w, w.alice)[0]]  # only the first board's ping
    w.dd.assert_clean()


async def test_a_computer_move_lost_with_the_process_is_played_after_a_restart(world):
    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    await thread.wait_for(is_board)
    match = (await w.bot.service.find_here(thread.id))[0]
    await w.bot.service.play(
        match.id, w.alice.id, "S c3"
    )  # stored; the process "dies" before the computer moves
    await w.restart()
    latest = await thread.wait_for(lambda m: is_board(m) and "Parlor (easy): `" in m.text)
    await w.dd.settle()
    after = (await w.bot.service.find_here(thread.id))[0]
    assert after.to_act() == frozenset({after.seat_of(w.alice.id)}) and latest.notified
    w.dd.assert_clean()


async def test_rematch_of_a_multiplayer_game_opens_a_lobby_for_the_others(world):
    from tests.e2e.nomic_helpers import propose, start_game, walk

    w = world
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="The game ends.", effect="end")
    for u in (w.alice, w.bob, w.carol):
        await u.react(msg, "\u2705")
        await w.dd.settle()
    over = await thread.wait_for(lambda m: "game over" in m.text and "Rematch" in m.button_labels())
    await w.carol.click(over, "Rematch")
    await w.dd.settle()
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels() and "rematch" in m.text)
    assert sorted(u.id for u in lobby.notified) == sorted([w.alice.id, w.bob.id])  # the others are invited
    assert "carol" in lobby.text  # the one who asked hosts it
    assert over.buttons() == []  # offered once
    w.dd.assert_clean()


async def test_a_reminder_by_dm_for_those_who_chose_dm(world):
    w = world
    await w.bob.slash(w.chan, "notify", mode="dm")
    thread, board = await start_pylon(w, turn_limit=21600)
    await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    await w.expire(21600 * 0.8 + 1)
    reminders = [m for m in w.bob.dm_channel().public_messages if "Reminder" in m.text]
    assert len(reminders) == 1 and "<t:" in reminders[0].text and f"/{thread.id}" in reminders[0].text
    assert not [m for m in thread.public_messages if "reminder" in m.text]
    w.dd.assert_clean()


async def test_a_button_move_whose_reply_expired_leaves_no_stuck_board(world, monkeypatch):
    """Issue 11: the click's interaction token is gone (a 429 longer than it, a restart of Discord's side):
    the move is stored, and the board is re-posted through the channel with the ping."""
    import discord

    w = world
    thread, board = await start_pylon(w)
    real = discord.InteractionResponse.edit_message
    failed = []

    async def expired(self, **kwargs):
        if not failed:
            failed.append(1)

            class Resp:
                status, reason = 404, "Not Found"

            raise discord.NotFound(Resp(), {"code": 10062, "message": "Unknown interaction"})
        return await real(self, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", expired)
    await w.alice.click(board, "Small (5 left)")  # the picker step: this reply is the one that fails
    assert failed
    await w.alice.click(board, "Small (5 left)")
    sel = next(s for s in board.selects() if "a1" in s.values)
    monkeypatch.setattr(discord.InteractionResponse, "edit_message", real)
    failed.clear()
    monkeypatch.setattr(discord.InteractionResponse, "edit_message", expired)
    await w.alice.select(board, ["a1"], custom_id=sel.custom_id, check=False)
    await w.dd.settle()
    latest = live_board(thread)
    assert latest.id != board.id and "S a1" in latest.text and [u.id for u in latest.notified] == [w.bob.id]
    assert board.buttons() == [] and "Moved on" in board.text


async def test_a_click_is_answered_in_time_when_posting_its_new_board_waits(world, monkeypatch):
    """The new board goes out before the click is answered (the retire edit), unless posting takes longer
    than ``ANSWER_WITHIN`` (a rate limit): then the click is answered first and the board follows."""
    import asyncio

    import discord

    import cogs._game.play

    w = world
    thread, board = await start_pylon(w)
    monkeypatch.setattr(cogs._game.play, "ANSWER_WITHIN", 0.1)
    real_send = discord.abc.Messageable.send

    async def slow_send(self, *args, **kwargs):
        await asyncio.sleep(0.4)  # e.g. waiting out a 429 of the channel's bucket
        return await real_send(self, *args, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", slow_send)
    mark = w.dd.mark()
    r = await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    assert not r.ephemeral
    calls = w.dd.api_calls(since=mark)
    answer = next(i for i, c in enumerate(calls) if c.interaction_id == r.id and "Moved on" in str(c.json))
    posted = next(i for i, c in enumerate(calls) if c.files and "/messages" in c.path)
    assert answer < posted  # answered first, posted when the wait was over
    latest = live_board(thread)
    assert latest.id != board.id and "S a1" in latest.text and [u.id for u in latest.notified] == [w.bob.id]
    assert board.buttons() == [] and "Moved on" in board.text
    w.dd.assert_clean()


async def test_a_click_that_pings_posts_the_new_board_before_answering(world):
    w = world
    thread, board = await start_pylon(w)
    mark = w.dd.mark()
    r = await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    calls = w.dd.api_calls(since=mark)
    answer = next(i for i, c in enumerate(calls) if c.interaction_id == r.id and "Moved on" in str(c.json))
    posted = next(i for i, c in enumerate(calls) if c.files and "/messages" in c.path)
    assert posted < answer  # what the player waits for goes first
    assert "S a1" in live_board(thread).text and "Moved on" in board.text
    w.dd.assert_clean()


async def test_a_move_reads_the_next_players_notify_choice_with_the_match_not_in_a_trip_of_its_own(
        world, monkeypatch):
    """The move's turn notice follows the choice read with the match's seats (one store trip fewer on every
    move's way to its answer), and a choice made between two moves applies to the very next one."""
    w = world
    asked = []
    real = w.bot.store.notify_modes

    async def notify_modes(guild_id, user_ids):
        asked.append(list(user_ids))
        return await real(guild_id, user_ids)

    monkeypatch.setattr(w.bot.store, "notify_modes", notify_modes)
    thread, board = await start_pylon(w)
    await place(w, board, w.alice, "Small (5 left)", "a1")
    await w.dd.settle()
    assert len(pings_of(w, w.bob)) == 1 and asked == []  # pinged in the thread, the default
    await w.bob.slash(w.chan, "notify", mode="dm")
    await place(w, live_board(thread), w.bob, "Small (5 left)", "f5")
    await w.dd.settle()
    await place(w, live_board(thread), w.alice, "Small (4 left)", "a2")
    await w.dd.settle()
    assert len(pings_of(w, w.bob)) == 1 and len(dms_of(w.bob)) == 1  # told by DM now, not in the thread
    assert asked == []
    w.dd.assert_clean()
