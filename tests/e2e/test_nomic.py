"""Nomic World end to end: lobby, movement by buttons and by notation, proposals voted by reaction,
the turn limit, Judgment, the rulebook, joining late, ending, /stats and the request budget."""

import re

import pytest

from tests.e2e.nomic_helpers import (
    current,
    is_board,
    match,
    non_reaction_calls,
    propose,
    roll,
    start_game,
    walk,
)

pytestmark = pytest.mark.e2e

YES, NO = "\u2705", "\u274c"


async def test_lobby_start_roll_and_path_by_buttons(world):
    w = world
    r = await w.dave.slash(w.chan, "nomic rules")  # no game here yet: the picture, then the Initial Set
    r = await w.dave.click(await r.message(), "Full rules")
    page = await r.message()
    assert r.ephemeral and "15 rules in effect" in page.text and "101. The player agreement" in page.text
    await w.dave.click(page, "Next")
    assert "115. Aliases" in page.text
    await w.alice.slash(w.chan, "nomic new")
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels() and "Nomic World" in m.text)
    assert "any number of" in lobby.text
    await w.bob.click(lobby, "Join")
    r = await w.carol.slash(w.chan, "nomic join")
    assert r.ephemeral
    await w.dd.settle()
    assert "carol" in lobby.text
    await w.alice.click(lobby, "Start")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    mid = (await w.bot.store.active_matches())[-1].id
    m = await match(w, mid)
    assert [s.name for s in m.seats] == ["alice", "bob", "carol"]
    assert m.options == {} and await w.bot.service.replay(mid) == m.state
    choices = await w.alice.autocomplete(thread, "nomic move", "notation", "n")
    assert choices and all(c["value"].startswith("N") for c in choices)
    n = await roll(w, mid)
    assert f"rolled **{n}** on the d6" in board.text
    assert board.mentions and board.mentions[0].id == w.alice.id  # alice is first alphabetically
    assert "Judge: carol" in board.text
    steps = "step" if n == 1 else "steps"  # (a roll of 1 is one step)
    assert board.button(f"Confirm (0/{n} {steps})").disabled and board.button("Undo").disabled
    # only directions that keep the path shortest are enabled
    mark = w.dd.mark()
    await w.alice.click(board, "North")
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    assert "Planned path **N**" in board.text
    if n > 1:
        assert board.button("South").disabled and not board.button("East").disabled
        assert not board.button("Undo").disabled
        await w.alice.click(board, "Undo")
        assert not board.button("South").disabled
        await w.alice.click(board, "North")
    r = await w.bob.click(board, "East" if n > 1 else "Undo")
    assert r.ephemeral and "alice's turn" in (await r.message()).text
    for _ in range(n - 1):
        await w.alice.click(board, "East")
    path = "N" + "E" * (n - 1)
    assert all(board.button(d).disabled for d in ("North", "East", "South", "West"))
    mark = w.dd.mark()
    await w.alice.click(board, f"Confirm {path}")
    await w.dd.settle()
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    m = await match(w, mid)
    assert m.state.players[0].pos == (n - 1, 1)
    assert f"alice moves {path}" in board.text and "propose one rule-change" in board.text
    assert "North" not in board.button_labels()
    w.dd.assert_clean()


async def test_path_by_slash_and_illegal_paths(world):
    w = world
    thread, board, mid = await start_game(w)
    n = await roll(w, mid)
    r = await w.alice.slash(thread, "nomic move", notation="N" * (n + 1))
    msg = await r.message()
    assert r.ephemeral and f"the die shows {n}" in msg.text and "Legal moves" in msg.text
    if n >= 2:
        r = await w.alice.slash(thread, "nomic move", notation="N" + "S" * (n - 1))
        assert r.ephemeral and "not a shortest path" in (await r.message()).text
    r = await w.bob.slash(thread, "nomic move", notation="N" * n)
    assert r.ephemeral and "not your turn" in (await r.message()).text
    assert (await match(w, mid)).state.phase == "move"
    mark = w.dd.mark()
    new_board = await walk(w, thread, mid, "W" * n)
    assert is_board(new_board) and f"alice moves {'W' * n}" in new_board.text
    assert len(w.dd.api_calls(since=mark)) <= 2
    assert board.buttons() == []  # the old board lost its path buttons
    assert (await match(w, mid)).state.players[0].pos == (-n, 0)
    w.dd.assert_clean()


async def test_proposal_adopted_by_reactions_within_the_request_budget(world):
    w = world
    w.guild.add_member(w.dd.create_user("@everyone"))
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    mark = w.dd.mark()
    msg = await propose(w, thread, mid, action="amend", rule=109, effect="die=8",
                        text=f"A d8 is rolled. <@{w.bob.id}> @everyone")
    assert "Proposal 201: amend rule 109" in msg.text and "die=8" in msg.text
    assert msg.mentions == [] and not msg.mention_everyone
    assert set(msg.reactions) >= {YES, NO}
    # a non-player's reaction is removed; it counts for nothing
    await w.dave.react(msg, YES)
    await w.dd.settle()
    assert w.dave.id not in [u.id for u in msg.reaction_users(YES)]
    assert "0 of 3" in msg.text and "Still to vote: alice, bob, carol" in msg.text
    await w.bob.react(msg, YES)
    await w.dd.settle()
    # the live tally: bob's vote, not the bot's own ✅ (Discord's count shows 2)
    assert (
        len(msg.reactions[YES]) == 2
        and f"{YES} **1 of 3**" in msg.text
        and "Still to vote: alice, carol" in msg.text
    )
    await w.carol.react(msg, YES)
    await w.dd.settle()
    assert "Proposal 201: amend" in msg.text and f"{YES} **2 of 3**" in msg.text  # still open
    assert (await match(w, mid)).state.phase == "vote"
    await w.alice.react(msg, YES)
    await w.dd.settle()
    calls = non_reaction_calls(w.dd, mark)
    # the proposal, one tally edit per vote but the deciding one, the decision's edit, the next board and
    # the vote's board retired; and (issue 27) the board that opens the vote, pinging the voters and linking
    # to the proposal, with the board before it retired ("moved on")
    assert len(calls) <= 3 + 3 + 2, [c.route for c in calls]
    assert "Proposal 201 adopted" in msg.text and "3 yes, 0 no" in msg.text
    # the change takes effect at the next turn: bob rolls the d8
    m = await match(w, mid)
    assert m.state.current == 1 and m.rules.view(m.state, None).die == 8
    new_board = await thread.wait_for(lambda b: is_board(b) and "bob" in b.text and "d8" in b.text)
    assert new_board.mentions and new_board.mentions[0].id == w.bob.id
    assert "Proposal 201 is adopted" in new_board.text and "takes effect" in new_board.text
    r = await w.carol.slash(thread, "nomic rules")
    r = await w.carol.click(await r.message(), "Full rules")  # the rules in effect in this match
    page = await r.message()
    assert r.ephemeral and "Die: d8 (rule 109)" in page.text and "A d8 is rolled." in page.text
    await w.carol.click(page, "Next")
    assert "page 2 of" in page.text
    await w.carol.click(page, "How to play")
    assert "how to play" in page.text and "withdraw it (remove your reaction)" in page.text
    # one page count, in the title (it said "(1/2)" where the footer said "page 1 of 3")
    # (page 3 of 3 in English; a longer language's pages may be more)
    count = re.search(r"\(page (\d+) of \d+\)$", page.embed.title)
    assert count and count[1] == "3" and f"page {count[1]} of" not in (page.embed.footer or "")
    r = await w.carol.slash(thread, "nomic rule", number=109)
    detail = (await r.message()).text
    assert "amended" in detail and "Amended by 201" in detail and "A d6 is rolled" in detail
    st = await w.alice.slash(w.chan, "stats")
    assert "1 proposal made · 1 adopted" in (await st.message()).text
    w.dd.assert_clean()


async def test_votes_change_until_all_have_voted_and_the_turn_limit_rejects_an_open_vote(world):
    w = world
    thread, board, mid = await start_game(w, turn_limit=3600)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Players greet each other.")
    await w.bob.react(msg, YES)
    await w.dd.settle()
    mark = w.dd.mark()
    await w.carol.react(msg, NO)  # a no no longer rejects at once: carol may still change her mind
    await w.dd.settle()
    assert len(non_reaction_calls(w.dd, mark)) == 1  # the tally's edit
    assert "Proposal 201: enact" in msg.text and f"{NO} **1 of 3**" in msg.text
    await w.carol.react(msg, YES)  # changed: her ❌ is removed, so the reactions show what counts
    await w.dd.settle()
    assert f"{YES} **2 of 3**" in msg.text and f"{NO} **0 of 3**" in msg.text
    assert w.carol.id not in [u.id for u in msg.reaction_users(NO)]
    assert (await match(w, mid)).state.phase == "vote"
    await w.carol.unreact(msg, YES)  # removing the reaction withdraws the vote
    await w.dd.settle()
    assert f"{YES} **1 of 3**" in msg.text and "Still to vote: alice, carol" in msg.text
    m = await match(w, mid)
    assert m.rules.view(m.state, None).proposal.waiting == (0, 2)
    await w.carol.react(msg, NO)
    await w.alice.react(msg, NO)  # the last vote decides
    await w.dd.settle()
    assert "Proposal 201 rejected" in msg.text and "1 yes, 2 no" in msg.text
    assert (await current(w, mid)) is w.bob
    await walk(w, thread, mid)
    msg2 = await propose(w, thread, mid, action="repeal", rule=115)
    assert "Proposal 202: repeal rule 115" in msg2.text
    await w.alice.react(msg2, YES)
    await w.dd.settle()
    results = await w.expire(3601)
    assert results
    assert "Proposal 202 rejected" in msg2.text and "turn ended" in msg2.text
    board = await thread.wait_for(lambda b: is_board(b) and "turn limit passed" in b.text)
    assert "Proposal 202 is rejected" in board.text and "carol" in board.text
    assert (await current(w, mid)) is w.carol
    m = await match(w, mid)
    assert 115 in m.state.effect_order  # not repealed
    r = await w.alice.slash(thread, "nomic rule", number=202)
    assert "rejected" in (await r.message()).text
    r = await w.alice.slash(thread, "nomic history")
    text = (await r.message()).text
    assert "proposes to enact: “Players greet each other.”" in text and "proposes to repeal rule 115" in text
    assert '{"action"' not in text
    # names, never user ids; each roll under the player who rolled it
    # (the round's header in bold; the pseudo-locale run keeps the event's full stop inside its brackets)
    assert str(w.alice.id) not in text and "alice joins the game" in text and "**Round 1 begins" in text
    lines = text.splitlines()
    a_roll = next(i for i, x in enumerate(lines) if "alice rolls the d6" in x)
    b_roll = next(i for i, x in enumerate(lines) if "bob rolls the d6" in x)
    a_moves = next(i for i, x in enumerate(lines) if x.startswith("alice moves"))
    a_rejected = next(i for i, x in enumerate(lines) if "Proposal 201 is rejected" in x)
    b_moves = next(i for i, x in enumerate(lines) if x.startswith("bob moves"))
    assert a_roll < a_moves < a_rejected < b_roll < b_moves
    w.dd.assert_clean()


async def test_judgment_by_the_judge_only(world):
    w = world
    thread, board, mid = await start_game(w)
    r = await w.dave.slash(thread, "nomic judge", question="May I play?")
    assert r.ephemeral
    r = await w.bob.slash(thread, "nomic judge", question="Is a diagonal step legal?")
    msg = await r.message()
    assert not r.ephemeral and "diagonal" in msg.text
    assert [u.id for u in msg.mentions] == [w.carol.id]  # the Judge: the player before alice, i.e. carol
    await w.dd.settle()
    assert board.buttons() and "North" not in board.button_labels()  # play waits for the ruling
    r = await w.alice.slash(thread, "nomic move", notation="N" * await roll(w, mid))
    text = (await r.message()).text
    assert r.ephemeral and "Play waits for the Judge, carol" in text and "not your turn" not in text
    r = await w.alice.slash(thread, "nomic propose", action="enact", text="Diagonals are fine.")
    text = (await r.message()).text
    assert r.ephemeral and "Play waits for the Judge, carol" in text and "waiting for carol" not in text
    r = await w.bob.slash(thread, "nomic move", notation="vote yes")
    assert r.ephemeral and "Play waits for the Judge" in (await r.message()).text
    r = await w.bob.slash(thread, "nomic ruling", text="Yes.")
    assert r.ephemeral and "Only the Judge, carol" in (await r.message()).text
    r = await w.carol.slash(thread, "nomic ruling", text="No: paths are made of N, E, S and W steps.")
    ruling = await r.message()
    assert not r.ephemeral and "Rule 201" in ruling.text
    await w.dd.settle()
    # play resumes: alice's turn begins again, so a new board pings her and the old one moves on (issue 12;
    # this used to resume on the same board)
    board = thread.last_message
    assert "North" in board.button_labels() and [u.id for u in board.notified] == [w.alice.id]
    m = await match(w, mid)
    assert 201 in m.state.effect_order
    r = await w.alice.slash(thread, "nomic rule", number=201)
    text = (await r.message()).text
    assert "Judgment 201" in text and "diagonal" in text and "Ruling by carol" in text
    w.dd.assert_clean()


async def test_an_unanswered_judgment_lapses_at_the_turn_limit(world):
    w = world
    thread, board, mid = await start_game(w, turn_limit=300)
    await w.bob.slash(thread, "nomic judge", question="Can the Judge stay silent?")
    await w.dd.settle()
    assert "North" not in board.button_labels()
    await w.expire(301)
    board = thread.last_message  # alice's turn goes on, on a new board that pings her (issue 12)
    assert "lapses without a ruling" in board.text and "turn limit passed" in board.text
    assert "North" in board.button_labels() and [u.id for u in board.notified] == [w.alice.id]
    assert (await current(w, mid)) is w.alice and (await match(w, mid)).state.question is None
    w.dd.assert_clean()


async def test_join_late_leave_map_and_admin_end(world):
    w = world
    thread, _board, mid = await start_game(w, players=(w.alice, w.bob))
    r = await w.carol.slash(thread, "nomic join")
    assert not r.ephemeral and "plays from round 2" in (await r.message()).text
    m = await match(w, mid)
    assert m.state.players[2].status == "pending"
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Carol is welcome.")
    await w.carol.react(msg, YES)  # carol joined during the round: she votes from round 2 on
    await w.dd.settle()
    assert w.carol.id not in [u.id for u in msg.reaction_users(YES)]
    r = await w.alice.slash(thread, "nomic map")
    mp = await r.message()
    assert r.ephemeral and mp.attachments and "carol: joins next round" in mp.text
    r = await w.carol.slash(thread, "nomic resign")
    await w.carol.click(await r.message(), "Yes, leave the game")
    await w.dd.settle()
    assert (await match(w, mid)).state.players[2].status == "left"
    r = await w.bob.slash(thread, "nomic end")
    assert r.ephemeral and "Manage Server" in (await r.message()).text
    r = await w.admin.slash(thread, "nomic end")
    confirm = await r.message()
    await w.admin.click(confirm, "Yes, end the game")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "game over" in m.text and not m.attachments)
    assert "Stopped by an admin" in over.text and "Unrated" in over.text
    assert "Proposal 201 rejected" in msg.text
    m = await match(w, mid)
    assert m.status.value == "finished" and not m.rec.rated
    w.dd.assert_clean()


async def test_votes_wait_for_a_judgment(world):
    w = world
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Tokens may share a space.")
    await w.bob.react(msg, YES)
    r = await w.bob.slash(thread, "nomic judge", question="Does this proposal conflict with rule 105?")
    assert not r.ephemeral
    await w.dd.settle()
    await w.carol.react(msg, YES)  # held while the Judge decides: the reaction stays
    await w.dd.settle()
    assert w.carol.id in [u.id for u in msg.reaction_users(YES)]
    assert (await match(w, mid)).rules.view((await match(w, mid)).state, None).proposal.yes == (1,)
    r = await w.carol.slash(thread, "nomic ruling", text="No conflict.")
    await w.dd.settle()
    m = await match(w, mid)
    assert set(m.rules.view(m.state, None).proposal.yes) == {1, 2}  # carol's held vote now counts
    await w.alice.react(msg, YES)
    await w.dd.settle()
    assert "Proposal 201 adopted" in msg.text
    assert 202 in (await match(w, mid)).state.effect_order  # 202 is the ruling, 201 took effect
    w.dd.assert_clean()


async def ending_proposal_with_one_yes(w):
    """A proposal to end the game, with bob's yes counted: (thread, match id, the vote message)."""
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="The game ends.", effect="end")
    await w.bob.react(msg, YES)
    await w.dd.settle()
    return thread, mid, msg


async def test_votes_survive_a_restart(world):
    w = world
    thread, mid, msg = await ending_proposal_with_one_yes(w)
    await w.dd.disconnect()
    await w.carol.react(msg, YES)  # while the bot is away: no event reaches it
    w.bot = w.make_bot()
    await w.dd.connect(w.bot)
    await w.dd.settle()
    m = await match(w, mid)
    assert set(m.rules.view(m.state, None).proposal.yes) == {1, 2}  # read back from the message at start
    await w.alice.react(msg, YES)
    await w.dd.settle()
    await thread.wait_for(lambda m: "game over" in m.text and not m.attachments)
    assert "Proposal 201 adopted" in msg.text
    m = await match(w, mid)
    assert m.status.value == "finished" and "Rule 201 ended the game" in m.state.end_detail
    w.dd.assert_clean()


async def test_the_host_ending_the_game_is_named_as_the_host(world):
    w = world
    thread, _board, mid = await start_game(w, players=(w.alice, w.bob))
    r = await w.alice.slash(thread, "nomic end")  # alice opened the lobby: the host, no Manage Server
    await w.alice.click(await r.message(), "Yes, end the game")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "game over" in m.text and not m.attachments)
    assert "Stopped by the host" in over.text and "admin" not in over.text
    m = await match(w, mid)
    assert m.status.value == "finished" and m.state.end_detail == "Stopped by the host."
    w.dd.assert_clean()


async def test_a_destination_select_offers_whole_paths(world):
    w = world
    _thread, board, mid = await start_game(w)
    n = await roll(w, mid)
    (sel,) = board.selects()
    assert len(sel.options) == 4 * n and sel.placeholder.startswith("Or pick a destination")
    assert all(" via " in o.label for o in sel.options)
    assert "North" in board.button_labels()  # beside the step buttons
    target = next(o for o in sel.options if o.label.startswith(f"({n}, 0)"))
    assert target.value == "E" * n and "unknown" in target.description
    r = await w.bob.select(board, [target.value])
    assert r.ephemeral and "alice's turn" in (await r.message()).text
    mark = w.dd.mark()
    await w.alice.select(board, [target.value])
    assert w.dd.api_summary(since=mark) == {"POST /interactions/{interaction_id}/{token}/callback": 1}
    assert f"Planned path **{'E' * n}**" in board.text and not board.button(f"Confirm {'E' * n}").disabled
    await w.alice.click(board, f"Confirm {'E' * n}")  # two clicks for any roll
    await w.dd.settle()
    m = await match(w, mid)
    assert m.state.players[0].pos == (n, 0)
    w.dd.assert_clean()


async def test_a_reaction_removed_while_the_bot_was_away_withdraws_the_vote(world):
    w = world
    thread, _board, mid = await start_game(w)
    await walk(w, thread, mid)
    msg = await propose(w, thread, mid, action="enact", text="Hats on Tuesdays.")
    await w.bob.react(msg, YES)
    await w.carol.react(msg, YES)
    await w.dd.settle()
    await w.dd.disconnect()
    await w.bob.unreact(msg, YES)  # no event reaches the bot
    w.bot = w.make_bot()
    await w.dd.connect(w.bot)
    await w.dd.settle()
    m = await match(w, mid)
    assert m.rules.view(m.state, None).proposal.yes == (2,)  # bob's vote is withdrawn on the re-count
    assert f"{YES} **1 of 3**" in msg.text
    await w.alice.react(msg, YES)
    await w.dd.settle()
    assert "Proposal 201: enact" in msg.text  # still open: bob has not voted
    w.dd.assert_clean()


async def test_after_a_restart_each_shard_process_reads_back_only_its_own_servers_votes(world):
    import dataclasses

    w = world
    _thread, mid, msg = await ending_proposal_with_one_yes(w)
    mine = (w.guild.id >> 22) % 2
    for shard, counted in ((1 - mine, {1}), (mine, {1, 2})):  # another shard's process, then this server's
        await w.dd.disconnect()
        if shard != mine:
            await w.carol.react(msg, YES)  # while no process of this server's shard is up
        w.bot = w.make_bot()
        w.bot.config = dataclasses.replace(w.bot.config, shard_count=2, shard_ids=(shard,))
        await w.dd.connect(w.bot)
        await w.dd.settle()
        m = await match(w, mid)
        assert set(m.rules.view(m.state, None).proposal.yes) == counted
    w.dd.assert_clean()


async def test_board_after_a_complete_path_is_drawn_before_its_confirm(world, monkeypatch):
    """Once the path is complete, the board its Confirm will show is drawn while the player reaches for
    the button: the Confirm's answer sends that picture (nothing drawn on the click), and it is the board
    the move gives."""
    import asyncio

    from bot.render import MAX_PALETTE_ERROR

    w = world
    _thread, board, mid = await start_game(w)
    n = await roll(w, mid)
    for _ in range(n):
        await w.alice.click(board, "East")
    await w.dd.settle()
    cog = w.bot.game_cogs["nomic"]
    for _ in range(200):
        if not cog._drawing_ahead:
            break
        await asyncio.sleep(0.01)
    (drawn,) = cog._ahead_store().get(mid)  # one move: Confirm
    # a board drawn for another position or other events is never sent (and goes: the move is made)
    from bot.matches.match import Result

    m = await match(w, mid)
    assert cog.taken_ahead(m, Result(m, events=drawn[1])) is None  # the position before the move
    assert cog._ahead_store().get(mid) is None
    cog._ahead_store().put(mid, [drawn])
    calls = []
    real = cog.game.render
    monkeypatch.setattr(type(cog.game), "render",
                        property(lambda g: lambda view, **k: calls.append(view) or real(view, **k)))
    await w.alice.click(board, f"Confirm {'E' * n}")
    await w.dd.settle()
    assert f"alice moves {'E' * n}" in board.text
    assert board.attachments[0].bytes == drawn[2]
    m = await match(w, mid)
    assert m.view(None) not in calls  # not drawn for the click
    assert drawn[0] == m.view(None)  # the position the move gave
    shown = board.attachments[0].image().convert("RGB").tobytes()
    fresh = real(m.view(None), events=drawn[1]).tobytes()
    assert max(abs(a - b) for a, b in zip(shown, fresh, strict=True)) <= MAX_PALETTE_ERROR
    assert cog._ahead_store().get(mid) is None
