"""Issue 11, the Discord-facing parts: forged components, deleted places, missing permissions, /parlor's
registration, escaped display names, and error replies that only say "unchanged" when it is true."""

import json
import logging

import pytest

from bot.storage import Status
from tests.discord_double import UserActionError

pytestmark = pytest.mark.e2e


def is_board(m):
    return bool(m.attachments) and m.attachments[0].is_png and "To move" in m.text


async def start_pylon(w, chan=None, alice=None, **opts):
    chan = chan or w.chan
    alice = alice or w.alice
    await alice.slash(chan, "pylon new", opponent=w.bob, **opts)
    invite = await chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = chan.threads[-1]
    board = await thread.wait_for(is_board)
    return thread, board


async def only_match(w):
    recs = await w.bot.store.active_matches()
    assert len(recs) == 1
    return recs[0]


def errors_logged(caplog):
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------------------------------ forged components

def forged_ids(mid, ver):
    big = "9" * 40
    return [
        "",                                   # empty
        "p", "p:", "p::::", "p:1", "s:1:0",   # truncated
        f"p:{mid}:{ver}:",                    # empty action
        f"p:{mid}:{ver}: ",                   # blank action
        f"p:{big}:0:m:a1",                    # a 40-digit match id
        f"p:{mid}:{big}:m:a1",                # a 40-digit version
        f"p:{2**63}:0:m:a1",                  # just past a 64-bit id
        "p:0:0:m:a1", "p:-1:0:m:a1", "p:abc:0:m:a1", f"p:{mid}:x:m:a1",
        f"p:{mid}:{ver}:" + "m" * 200,        # oversized (over Discord's 100)
        "x" * 101,
        f"p:{mid}:-:pv:x", f"p:{mid}:-:pv:", f"p:{mid}:-:pv:1", f"p:{mid}:-:pv:99999:hand",
        f"p:{mid}:-:pv:0:{'k' * 60}",
        f"p:{mid}:{ver}:m:zz", f"p:{mid}:{ver}:nothing", f"p:{mid}:-:accept!",
        f"s:{mid}:{ver}:mv",                  # a select id on a button
        f"p:{mid}:{ver}:m:a1\n",              # trailing newline
        f"p:{mid + 1000}:0:m:a1",             # no such match
        "adm:reset", "adm:reset:x", "adm:reset:zzz:1", f"adm:reset:pylon:{big}", "adm:reset:pylon:1:extra",
        "nomic:rb", f"nomic:rb:{big}:0:n", "nomic:rb:1:99999999:e", "nomic:rb:1:0:q",
        "unknown", "pylon:1:0:m:a1", "p;1;0;m:a1", "P:1:0:m:a1",
    ]


async def test_forged_custom_ids_each_get_a_private_refusal_and_log_nothing(world, caplog):
    caplog.set_level(logging.INFO)
    w = world
    _thread, board = await start_pylon(w)
    rec = await only_match(w)
    before = rec.version
    for cid in forged_ids(rec.id, rec.version):
        for on_message in (True, False):
            r = await w.alice.forge_component(board, cid, on_message=on_message)
            assert r.acked and r.ephemeral, (cid, on_message)
            assert (await r.message()).text, cid
    # a select with an absurd value list
    r = await w.alice.forge_component(board, f"s:{rec.id}:{rec.version}:mv", component_type=3,
                                      values=["x" * 300])
    assert r.ephemeral
    r = await w.alice.forge_component(board, f"s:{rec.id}:{rec.version}:mv", component_type=3, values=[])
    assert r.ephemeral
    await w.dd.settle()
    assert errors_logged(caplog) == []
    after = await w.bot.store.load_match(rec.id)
    assert after.version == before and after.status == Status.RUNNING
    assert await w.bot.store.moves(rec.id) == []
    assert is_board(board) and board.buttons()       # the real board still works
    w.dd.assert_clean()


async def test_a_dash_version_never_bypasses_the_stale_board_check(world):
    w = world
    _thread, board = await start_pylon(w)
    rec = await only_match(w)
    for cid, kind, values in ((f"p:{rec.id}:-:m:Lc3", 2, None), (f"s:{rec.id}:-:mv", 3, ["Lc3"]),
                              (f"p:{rec.id}:-:zL", 2, None), (f"s:{rec.id}:-:plL.0", 3, ["c3"]),
                              (f"p:{rec.id}:-:cf:Lc3", 2, None), (f"p:{rec.id}:-:agree?", 2, None),
                              (f"p:{rec.id}:-:src.0", 2, None), (f"p:{rec.id}:-:back", 2, None)):
        r = await w.alice.forge_component(
            board, cid, component_type=kind, values=values, options=values or ("x",)
        )
        assert r.ephemeral and "out of date" in (await r.message()).text, cid
    assert await w.bot.store.moves(rec.id) == []
    # the same move with the board's version is a move
    r = await w.alice.forge_component(board, f"p:{rec.id}:{rec.version}:m:Lc3")
    assert not r.ephemeral
    assert [m.notation for m in await w.bot.store.moves(rec.id)] == ["L c3"]
    w.dd.assert_clean()


async def test_a_component_works_only_where_its_match_is(world):
    w = world
    _thread, board = await start_pylon(w)
    rec = await only_match(w)
    other = w.guild.create_text_channel("elsewhere")
    await w.carol.slash(other, "pylon new")
    lobby = await other.wait_for(lambda m: "Join" in m.button_labels())
    real = board.button("Large (5 left)").custom_id
    r = await w.alice.forge_component(lobby, real)
    assert r.ephemeral and "elsewhere" in (await r.message()).text
    move = f"p:{rec.id}:{rec.version}:m:Lc3"
    r = await w.alice.forge_component(lobby, move)
    assert r.ephemeral
    assert await w.bot.store.moves(rec.id) == []
    # in the match's own thread the same controls work
    r = await w.alice.click(board, "Large (5 left)")
    assert not r.ephemeral
    w.dd.assert_clean()


async def test_private_controls_in_a_dm_only_for_players(world):
    w = world
    _thread, _board = await start_pylon(w)
    rec = await only_match(w)
    # the bot DMs carol and alice something (any bot DM will do as the message the forged control sits on)
    w.dd.pseudo_typed.add("hello")  # (the pseudo-locale run: the test's own words, not the bot's)
    carol_dm = await w.bot.create_dm(await w.bot.fetch_user(w.carol.id))
    await carol_dm.send("hello")
    alice_dm = await w.bot.create_dm(await w.bot.fetch_user(w.alice.id))
    await alice_dm.send("hello")
    await w.dave.slash(w.chan, "pylon new")                    # an open lobby in #games
    await w.chan.wait_for(lambda m: "Join" in m.button_labels())
    lobby = max(r.id for r in await w.bot.store.active_matches())
    msg = await w.carol.wait_for_dm()
    r = await w.carol.forge_component(msg, f"p:{lobby}:-:join")   # a lobby button, pressed from a DM
    assert r.ephemeral and "not playing" in (await r.message()).text
    assert len((await w.bot.store.load_match(lobby)).seats) == 1
    r = await w.carol.forge_component(msg, f"p:{rec.id}:-:resign!")
    assert r.ephemeral and "not playing" in (await r.message()).text
    assert (await w.bot.store.load_match(rec.id)).status == Status.RUNNING
    msg = await w.alice.wait_for_dm()
    r = await w.alice.forge_component(msg, f"p:{rec.id}:-:resign!")
    assert "resigned" in (await r.message()).text
    assert (await w.bot.store.load_match(rec.id)).status == Status.FINISHED


# ------------------------------------------------------------------------------------------ deleted places

async def test_deleted_thread_aborts_the_match_unrated(world):
    w = world
    thread, board = await start_pylon(w, turn_limit=300)
    rec = await only_match(w)
    await w.alice.click(board, "Large (5 left)")
    await thread.delete()
    await w.dd.settle()
    note = await w.chan.wait_for(lambda m: "thread was deleted" in m.text)
    assert f"#{rec.id}" in note.text and "unrated" in note.text
    after = await w.bot.store.load_match(rec.id)
    assert after.status == Status.ABORTED and after.deadline is None
    r = await w.carol.slash(w.chan, "matches")
    assert "No active matches" in (await r.message()).text
    assert await w.expire(1000) == []
    assert (await w.bot.store.load_match(rec.id)).status == Status.ABORTED
    assert await w.bot.store.top_ratings(w.guild.id, "pylon") == []
    w.dd.assert_clean()


async def test_deleted_channel_aborts_every_match_in_it(world):
    w = world
    side = w.guild.create_text_channel("side")
    await start_pylon(w, chan=side, turn_limit=300)
    await w.carol.slash(side, "pylon new")                      # an open lobby there too
    await side.wait_for(lambda m: "Join" in m.button_labels())
    await start_pylon(w, alice=w.carol, turn_limit=300)        # and one in #games that must stay
    assert len(await w.bot.store.active_matches()) == 3
    await side.delete()
    await w.dd.settle()
    active = await w.bot.store.active_matches()
    assert [r.channel_id for r in active] == [w.chan.id]
    assert await w.expire(1000) != []                          # only the #games match times out
    assert await w.bot.store.top_ratings(w.guild.id, "pylon") != []
    w.dd.assert_clean()


async def test_thread_deleted_while_offline_is_aborted_not_forfeited(world):
    w = world
    thread, _board = await start_pylon(w, turn_limit=300)
    rec = await only_match(w)
    await w.dd.settle()
    await w.dd.disconnect()
    await thread.delete()                                     # nobody connected: the event is lost
    await w.restart()
    assert await w.expire(1000) == []
    after = await w.bot.store.load_match(rec.id)
    assert after.status == Status.ABORTED
    assert await w.bot.store.top_ratings(w.guild.id, "pylon") == []
    await w.chan.wait_for(lambda m: "thread was deleted" in m.text)
    assert not any("match over" in m.text for m in w.chan.messages)


async def test_unknown_channel_when_posting_aborts_the_match(world, monkeypatch):
    import asyncio

    w = world
    await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy", first="challenger")
    await w.dd.settle()
    thread = w.thread()
    board = await thread.wait_for(is_board)
    rec = await only_match(w)
    gone = asyncio.Event()
    real_ai_move = w.bot.service.ai_move

    async def ai_move_later(match_id):
        await gone.wait()
        return await real_ai_move(match_id)

    monkeypatch.setattr(w.bot.service, "ai_move", ai_move_later)
    await w.alice.click(board, "Large (5 left)")
    sel = next(s for s in board.selects() if "c3" in s.values)
    await w.alice.select(board, ["c3"], custom_id=sel.custom_id)
    thread.deleted = True                       # gone, and the gateway event was lost: Discord answers 10003
    gone.set()
    # the computer's reply cannot be posted (waits are generous: the machine may be busy)
    await w.dd.wait_until(lambda: any(r.error_code == 10003 for r in w.dd.failed_requests()), timeout=20)
    await w.chan.wait_for(lambda m: "thread was deleted" in m.text, timeout=20)
    await w.dd.settle()
    assert (await w.bot.store.load_match(rec.id)).status == Status.ABORTED
    assert await w.expire(100_000) == []


async def test_a_timer_never_forfeits_a_match_whose_thread_is_gone(world):
    w = world
    thread, _board = await start_pylon(w, turn_limit=300)
    rec = await only_match(w)
    thread.deleted = True                       # the gateway event was lost; the thread is still cached
    assert await w.expire(1000) == []
    after = await w.bot.store.load_match(rec.id)
    assert after.status == Status.ABORTED and after.outcome["reason"] == "aborted"
    assert await w.bot.store.top_ratings(w.guild.id, "pylon") == []


# ------------------------------------------------------------------------------------------ permissions

@pytest.mark.parametrize("perm,label", [("send_messages", "Send Messages"), ("embed_links", "Embed Links"),
                                        ("attach_files", "Attach Files"), ("view_channel", "View Channel")])
async def test_missing_channel_permission_is_named_before_a_match_exists(world, perm, label):
    w = world
    w.chan.deny_bot(perm)
    r = await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy")
    text = (await r.message()).text
    assert r.ephemeral and f"**{label}**" in text and "unchanged" not in text
    assert await w.bot.store.active_matches() == []
    # a challenge made before the permission went: accepting it is refused the same way, it stays open
    w.chan.set_overwrite(w.dd.bot_user)                       # clear the overwrite
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    w.chan.deny_bot(perm)
    r = await w.bob.click(invite, "Accept")
    assert r.ephemeral and f"**{label}**" in (await r.message()).text
    assert (await only_match(w)).status == Status.CHALLENGE
    w.dd.assert_clean()


async def test_nomic_needs_reactions_for_its_votes(world):
    w = world
    w.chan.deny_bot("add_reactions")
    r = await w.alice.slash(w.chan, "nomic new")
    assert r.ephemeral and "**Add Reactions**" in (await r.message()).text
    assert await w.bot.store.active_matches() == []
    r = await w.alice.slash(w.chan, "pylon new")                # the other games do not need it
    assert not r.ephemeral


async def test_in_a_thread_the_thread_permission_is_the_one_named(world):
    w = world
    side = w.dd._create_thread(w.chan, "chat", w.alice)        # an ordinary thread someone opened
    await w.dd.settle()
    w.chan.deny_bot("send_messages_in_threads")
    r = await w.alice.slash(side, "pylon new", opponent=w.bot_member, level="easy")
    text = (await r.message()).text
    assert r.ephemeral and "**Send Messages in Threads**" in text and "**Send Messages**" not in text
    assert await w.bot.store.active_matches() == []
    w.chan.set_overwrite(w.dd.bot_user)
    r = await w.alice.slash(side, "pylon new", opponent=w.bot_member, level="easy")
    await w.dd.settle()
    await side.wait_for(is_board)                               # played right there, no new thread
    w.dd.assert_clean()


@pytest.mark.parametrize("perm,label", [("create_public_threads", "Create Public Threads"),
                                        ("send_messages_in_threads", "Send Messages in Threads")])
async def test_missing_thread_permission_plays_in_the_channel_and_says_why(world, perm, label):
    w = world
    w.chan.deny_bot(perm)
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    assert w.guild.threads == []
    await w.chan.wait_for(is_board)
    said = [invite.text, *(json.dumps(e) for e in invite.edits)]     # the started-match header says why
    assert any(label in t for t in said)
    w.dd.assert_clean()


async def test_a_match_created_then_failing_never_says_unchanged(world, monkeypatch, caplog):
    w = world
    thread, _board = await start_pylon(w)
    rec = await only_match(w)
    cog = w.bot.game_cogs["pylon"]

    async def broken_reply(*args, **kwargs):
        raise RuntimeError("the reply broke")

    monkeypatch.setattr(cog, "reply_with_board", broken_reply)
    r = await w.alice.slash(thread, "pylon move", notation="Lc3")
    text = (await r.message()).text
    assert r.ephemeral and "unchanged" not in text and f"saved (match #{rec.id})" in text
    assert len(await w.bot.store.moves(rec.id)) == 1

    async def broken_play(*args, **kwargs):
        raise RuntimeError("the database broke")

    monkeypatch.setattr(w.bot.service, "play", broken_play)
    r = await w.bob.slash(thread, "pylon move", notation="Lf5")
    assert "the match is unchanged" in (await r.message()).text
    assert len(await w.bot.store.moves(rec.id)) == 1

    async def broken_post(*args, **kwargs):
        raise RuntimeError("posting the first board broke")

    monkeypatch.setattr(cog, "post_board", broken_post)            # a match created, then its board fails
    r = await w.carol.slash(w.chan, "pylon new", opponent=w.bot_member, level="easy")
    await w.dd.settle()
    new = max(x.id for x in await w.bot.store.active_matches())
    texts = [m.text for m in r.messages]
    assert any(f"saved (match #{new})" in t for t in texts) and not any("unchanged" in t for t in texts)


# ------------------------------------------------------------------------------------------ /parlor

async def test_parlor_is_registered_for_manage_server_only(world):
    import discord

    w = world
    cmd = next(c for c in w.dd.registered_commands(w.guild) if c["name"] == "parlor")
    assert int(cmd["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    with pytest.raises(UserActionError, match="hidden"):
        await w.alice.slash(w.chan, "parlor settings", threads=False)
    r = await w.alice.slash(w.chan, "parlor settings", threads=False, strict=False)  # the runtime check stays
    assert r.ephemeral and "Manage Server" in (await r.message()).text
    r = await w.admin.slash(w.chan, "parlor settings")
    assert "Parlor settings" in (await r.message()).text


# ------------------------------------------------------------------------------------------ display names

NASTY = "**@everyone** <@123> _x_"
SAFE = "\\*\\*@\u200beveryone\\*\\* <\u200b@123> \\_x\\_"


async def test_display_names_are_shown_escaped_everywhere(world):
    w = world
    mallory = w.dd.create_user("mallory", global_name=NASTY)
    w.guild.add_member(mallory)
    await mallory.slash(w.chan, "pylon new", opponent=w.bob, first="challenger")
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    assert SAFE in invite.text and NASTY not in invite.text
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    assert "@everyone" not in thread.name and "<@123>" not in thread.name and "_x_" in thread.name
    board = await thread.wait_for(is_board)
    assert SAFE in board.embed.title and NASTY not in board.text
    await mallory.click(board, "Large (5 left)")
    sel = next(s for s in board.selects() if "c3" in s.values)
    await mallory.select(board, ["c3"], custom_id=sel.custom_id)
    assert SAFE in board.text and NASTY not in board.text
    r = await w.bob.slash(thread, "pylon history")
    assert SAFE in (await r.message()).text
    r = await w.carol.slash(w.chan, "matches")
    assert SAFE in (await r.message()).text
    r = await mallory.slash(w.chan, "pylon move", notation="Sa1")      # not her turn: the error names bob
    r = await w.bob.slash(thread, "pylon move", notation="Sa1")
    r = await w.bob.slash(thread, "pylon move", notation="Sa2")        # not his turn: waiting for mallory
    assert SAFE in (await r.message()).text
    r = await mallory.slash(thread, "pylon resign")
    await mallory.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "match over" in m.text)
    assert SAFE in over.text and NASTY not in over.text
    r = await w.carol.slash(w.chan, "stats", user=mallory)
    assert SAFE in (await r.message()).text
    for m in w.dd.messages.values():
        assert not m.mention_everyone and all(u.id != 123 for u in m.mentions)
    w.dd.assert_clean()


async def test_forged_game_specific_actions_are_refused_quietly(world, caplog):
    from tests.e2e.nomic_helpers import start_game

    caplog.set_level(logging.INFO)
    w = world
    _thread, board, mid = await start_game(w)
    nomic_ids = [f"p:{mid}:{{v}}:pa:", f"p:{mid}:{{v}}:pa:xyz", f"p:{mid}:{{v}}:pa:" + "N" * 70,
                 f"p:{mid}:-:pa:N", f"p:{mid}:{{v}}:m:", f"p:{mid}:{{v}}:m:" + "?" * 70,
                 f"s:{mid}:{{v}}:mv", f"p:{mid}:-:pv:0:hand", f"p:{mid}:-:col:red", f"p:{mid}:-:pb1:AA"]
    await w.dave.slash(w.chan, "eof new")
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels() and "EOF" in m.text)
    eof = max(r.id for r in await w.bot.store.active_matches())
    eof_ids = [f"p:{eof}:-:col:", f"p:{eof}:-:col:purple", f"p:{eof}:-:col:{'r' * 70}", f"p:{eof}:-:pb1:",
               f"p:{eof}:-:pb1:!!", f"p:{eof}:-:pb{'9' * 30}:AA", f"p:{eof}:-:pk1:zz", f"p:{eof}:-:pc1:R1U",
               f"p:{eof}:-:an:1.1:maybe", f"p:{eof}:-:an:x", f"p:{eof}:-:open", f"p:{eof}:-:pv:0:perm",
               f"p:{eof}:0:m:any", f"p:{eof}:-:m:any", f"s:{eof}:-:pb1:", f"p:{eof}:-:start"]
    version = (await w.bot.store.load_match(mid)).version
    for msg, ids in ((board, nomic_ids), (lobby, eof_ids)):
        for cid in ids:
            cid = cid.replace("{v}", str(version))
            kind = 3 if cid.startswith("s:") else 2
            for user in (w.alice, w.dave):
                r = await user.forge_component(
                    msg, cid, component_type=kind, values=["x"] if kind == 3 else None
                )
                assert r.acked and not r.failed, (cid, user)  # (an empty path is a legal picker step)
    await w.dd.settle()
    assert errors_logged(caplog) == []
    assert (await w.bot.store.load_match(mid)).version == version
    assert (await w.bot.store.load_match(eof)).status == Status.LOBBY
    w.dd.assert_clean()


@pytest.mark.parametrize("game", ["pylon", "fireandice", "eggcarton"])
async def test_forged_picker_actions_and_values_never_crash(world, caplog, game):
    caplog.set_level(logging.INFO)
    w = world
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bot_member)
    await w.dd.settle()
    board = await w.thread().wait_for(lambda m: bool(m.attachments) and "To move" in m.text)
    rec = await only_match(w)
    actions = [
        "z",
        "z9",
        "zL",
        "z-1",
        "plQ.0",
        "pl9.0",
        "pl",
        "pl1.x",
        "src",
        "src.0",
        "src.99",
        "dst",
        "back",
        "m:",
        "mv",
        "cf:",
        "pa:N",
        "open",
        "col:red",
        "an:1.1:allow",
        "pb1:AA",
    ]
    values = [None, [""], ["zz"], ["a1"], ["Z9"], ["F6-C6"], ["\u200b"], ["x" * 100]]
    for action in actions:
        for vals in values:
            kind = 3 if vals is not None else 2
            cid = f"{'s' if kind == 3 else 'p'}:{rec.id}:{rec.version}:{action}"
            r = await w.bob.forge_component(board, cid, component_type=kind, values=vals)   # not a player
            assert r.ephemeral, (cid, vals)
            r = await w.alice.forge_component(board, cid, component_type=kind, values=vals)  # not on the menu
            assert r.acked and not r.failed, (cid, vals)
            if vals:                                   # on a menu that offers it (as if the bot had sent it)
                r = await w.alice.forge_component(board, cid, component_type=kind, values=vals, options=vals)
                assert r.acked and not r.failed, (cid, vals)
    await w.dd.settle()
    assert errors_logged(caplog) == []
    w.dd.assert_clean()


async def test_a_permission_lost_mid_match_is_named_and_the_saved_action_admitted(world):
    w = world
    thread, _board = await start_pylon(w)
    rec = await only_match(w)
    w.chan.deny_bot("send_messages_in_threads")               # taken away after the match started
    r = await w.alice.slash(thread, "pylon resign")
    r = await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    texts = [m.text for m in r.followups]
    assert any(f"saved: match #{rec.id}" in t and "Send Messages in Threads" in t for t in texts), texts
    assert not any("unchanged" in t for t in texts)
    assert (await w.bot.store.load_match(rec.id)).status == Status.FINISHED


async def test_a_stale_command_gets_an_answer_not_a_traceback(world, caplog):
    caplog.set_level(logging.INFO)
    w = world
    registered = w.dd.registered_commands(w.guild)
    w.dd._store_commands(w.guild.id, [*registered, {"name": "oldgame", "description": "gone", "type": 1}])
    r = await w.alice.slash(w.chan, "oldgame")
    assert r.ephemeral and "command has changed" in (await r.message()).text
    assert errors_logged(caplog) == []


async def test_a_lobby_whose_channel_went_while_offline_just_expires(world, caplog):
    caplog.set_level(logging.INFO)
    w = world
    side = w.guild.create_text_channel("side")
    await w.carol.slash(side, "pylon new")
    await side.wait_for(lambda m: "Join" in m.button_labels())
    await w.dd.settle()
    await w.dd.disconnect()
    await side.delete()
    await w.restart()
    results = await w.expire(10 * 86400)
    assert [r.match.status for r in results] == [Status.EXPIRED]
    assert await w.bot.store.active_matches() == []
    assert errors_logged(caplog) == []


async def test_a_rematch_checks_the_channel_before_creating(world):
    w = world
    thread, _board = await start_pylon(w)
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    over = await thread.wait_for(lambda m: "Rematch" in m.button_labels())
    w.chan.deny_bot("send_messages")                          # the thread is fine, the channel is not
    r = await w.bob.click(over, "Rematch")
    assert r.ephemeral and "**Send Messages**" in (await r.message()).text
    assert await w.bot.store.active_matches() == []
    w.dd.assert_clean()
