"""Replays (issue #29): a finished match found by its number from another channel, stepped through, every
step's picture the board the players saw; another server's match refused; the whole game as one GIF."""

from __future__ import annotations

import inspect
import io
import pickle

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from bot.i18n.pseudo import unpseudo  # (the pseudo-locale run: texts the test makes read as English)
from bot.matches.match import ended_view
from bot.matches.replay import make_gif, positions
from bot.render.match_gif import MAX_FRAMES
from tests.e2e.test_platform import is_board, start_pylon
from tests.matches.test_replay import JOB_BYTES, frames_gif


def is_final(m):
    return bool(m.attachments) and m.attachments[0].is_png and "final position" in m.text

pytestmark = pytest.mark.e2e

MOVES = [("alice", "L c3"), ("bob", "S a1"), ("alice", "M b2"), ("bob", "L f5"), ("alice", "S d4"),
         ("bob", "M e1")]


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def same_pixels(a: bytes, b: bytes) -> bool:
    """The same picture: every pixel within the palette's quantization error (a picture's palette is learned
    as the bot draws, so two drawings of one position may round a text's edge to neighbouring colours)."""
    from bot.render import MAX_PALETTE_ERROR

    return max(ImageChops.difference(rgb(a), rgb(b)).getextrema(), key=lambda e: e[1])[1] <= MAX_PALETTE_ERROR


async def played_pylon(w):
    """A Pylon match between alice and bob: six typed moves, then alice resigns. Returns the match id and
    the picture of every board the players got (the start, after each move, the final board)."""
    thread, board = await start_pylon(w)
    seen = [board.attachments[0].bytes]
    users = {"alice": w.alice, "bob": w.bob}
    for who, notation in MOVES:
        r = await users[who].slash(thread, "pylon move", notation=notation)
        reply = await r.message()
        await w.dd.settle()
        assert is_board(reply), reply.text
        seen.append(reply.attachments[0].bytes)
    match = (await w.bot.service.find_here(thread.id))[0]
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    final = next(m for m in reversed(thread.public_messages) if is_final(m))
    assert "won" in final.text
    seen[-1] = final.attachments[0].bytes  # the last move's board, repainted with the result
    return match.id, thread, seen


async def test_a_finished_match_is_found_by_number_and_stepped_through_with_the_boards_seen(world):
    w = world
    mid, thread, seen = await played_pylon(w)
    assert thread.id != w.chan.id
    # found from another channel (the channel the match was started from, not its thread) by autocomplete
    choices = await w.carol.autocomplete(w.chan, "pylon history", "match", str(mid))
    assert choices[0]["value"] == mid
    assert choices[0]["name"].startswith(f"#{mid} Pylon · alice vs bob · bob won")
    assert choices[0]["name"].endswith("today")

    r = await w.carol.slash(w.chan, "pylon history", match=mid)
    msg = await r.message()
    assert r.ephemeral
    last = len(MOVES)
    assert f"move {last} of {last}" in msg.embed.footer and "bob" in msg.text and "won" in msg.text
    assert same_pixels(msg.attachments[0].bytes, seen[-1])

    await w.carol.click(msg, emoji="⏮")
    assert "**Start**" in msg.text and same_pixels(msg.attachments[0].bytes, seen[0])
    assert msg.button(None, emoji="◀").disabled
    for n in range(1, last + 1):  # to the end, one move at a time: each the board they saw then
        mark = w.dd.mark()
        await w.carol.click(msg, emoji="▶")
        assert len(w.dd.api_calls(since=mark)) == 1  # one request: the private message edited
        who, notation = MOVES[n - 1]
        assert f"**Move {n} of {last}** · {who}: `{notation}`" in msg.text
        assert same_pixels(msg.attachments[0].bytes, seen[n]), n
    assert msg.button(None, emoji="▶").disabled
    for n in range(last - 1, -1, -1):  # and back
        await w.carol.click(msg, emoji="◀")
        assert same_pixels(msg.attachments[0].bytes, seen[n]), n
    # jump with the select, and open at a typed move
    await w.carol.select(msg, ["3"])
    assert "**Move 3 of" in msg.text and same_pixels(msg.attachments[0].bytes, seen[3])
    r = await w.carol.slash(w.chan, "pylon history", match=mid, move=2)
    assert same_pixels((await r.message()).attachments[0].bytes, seen[2])


async def test_replay_buttons_survive_a_restart_and_can_post_the_position(world):
    w = world
    mid, _thread, seen = await played_pylon(w)
    r = await w.carol.slash(w.chan, "pylon history", match=mid, move=1)
    msg = await r.message()
    await w.restart()
    await w.carol.click(msg, emoji="▶")
    assert same_pixels(msg.attachments[0].bytes, seen[2])
    r = await w.carol.click(msg, "Post this position here")
    posted = await r.message()
    assert not r.ephemeral and posted.channel.id == w.chan.id and same_pixels(posted.attachments[0].bytes,
                                                                               seen[2])
    assert not posted.buttons()


async def test_bad_numbers_and_other_servers_get_a_short_private_answer(world):
    w = world
    mid, _thread, _seen = await played_pylon(w)
    r = await w.alice.slash(w.chan, "pylon history", match=mid + 100, check=False)
    assert r.ephemeral and f"There is no match #{mid + 100}" in (await r.message()).text
    # the match belongs to another server (as if played there): by number and by a replay button
    rec = await w.bot.store.load_match(mid)
    rec.guild_id = w.guild.id + 1
    await w.bot.store.save_match(rec, rec.version)
    r = await w.alice.slash(w.chan, "pylon history", match=mid, check=False)
    text = (await r.message()).text
    assert r.ephemeral and f"Match #{mid} was not played in this server" in text
    assert all(c["value"] != mid for c in await w.alice.autocomplete(w.chan, "pylon history", "match", ""))
    invite = w.chan.public_messages[0]
    before = [m.edit_count for m in w.chan.public_messages]
    r = await w.alice.forge_component(invite, f"p:{mid}:-:rp:0", check=False)
    assert r.ephemeral and "another server" in (await r.message()).text
    assert [m.edit_count for m in w.chan.public_messages[:len(before)]] == before  # nothing changed
    rec.guild_id = w.guild.id
    await w.bot.store.save_match(rec, rec.version)
    r = await w.alice.slash(w.chan, "pylon history", match=mid, move=99, check=False)
    assert r.ephemeral and "there is no move 99" in (await r.message()).text


async def test_the_whole_game_as_one_gif(world):
    w = world
    mid, _thread, seen = await played_pylon(w)
    r = await w.alice.slash(w.chan, "pylon history", match=mid)
    msg = await r.message()
    r = await w.alice.click(msg, "Whole game")
    await w.dd.settle(timeout=60)  # (the GIF process may be starting on a busy machine)
    out = await r.message()
    assert r.ephemeral
    (att,) = out.attachments
    assert att.is_gif and att.size < 2_000_000
    gif = att.image()
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(gif)]
    durations = [f.info["duration"] for f in ImageSequence.Iterator(att.image())]
    assert len(frames) == len(MOVES) + 1
    assert durations[:-1] == [1000] * len(MOVES) and durations[-1] >= 3000
    assert "loop" not in gif.info  # plays once
    # the same from the end-of-match message, in the match's thread
    over = next(m for m in _thread.public_messages if "match over" in m.text)
    r = await w.bob.click(over, "Whole game (GIF)")
    await w.dd.settle(timeout=60)  # (the GIF process may be starting on a busy machine)
    again = await r.message()
    assert r.ephemeral and again.attachments[0].bytes == att.bytes
    assert att.bytes == (await views_beforehand(w.bot, mid)).data  # the GIF process replayed the log
    # every frame is the board of its step (palette-mapped: within a few levels), the last the final board
    for n, frame in enumerate(frames):
        board = rgb(seen[n])
        if n == len(MOVES):  # the final board's picture has its own result band; the board above is the same
            board = board.crop((0, 0, board.width, frame.height - (frame.height - board.height) - 60))
        top = frame.crop((0, 0, board.width, board.height))
        diff = ImageChops.difference(top, board)
        mean = ImageStat.Stat(diff.convert("L")).mean[0]
        assert mean < 2.0, (n, mean)


async def views_beforehand(bot, mid):
    """The match's GIF made the way it was before the job carried the log: every frame's view made by the
    cog (the channel's, the last one ended when the platform ended the match), then drawn."""
    m = await bot.service.get(mid)
    replay = positions(m, await bot.service.history(mid))
    cog = bot.game_cogs[m.rec.game]
    first = max(0, replay.last - MAX_FRAMES + 1)
    frames = []
    for n in range(first, replay.last + 1):
        at = cog.match_at(m, replay, n)
        view = at.view(None)
        if n == replay.last and at.outcome is not None and cog.ended_by_platform(at):
            view = ended_view(view, at.outcome)
        frames.append((view, tuple(replay.step(n).events)))
    names = tuple(m.names()) if "names" in inspect.signature(cog.game.render).parameters else None
    return frames_gif(m.rec.game, first, frames, names,
                      [cog.gif_caption(m, replay, n) for n in range(first, replay.last + 1)])


async def gif_of(bot, mid):
    """The GIF the 🎞 button makes, its job through pickle (as to the GIF process); and the job."""
    m = await bot.service.get(mid)
    replay = positions(m, await bot.service.history(mid))
    job = bot.game_cogs[m.rec.game].gif_job(m, replay)
    data = pickle.dumps(job)
    assert len(data) < JOB_BYTES
    return make_gif(pickle.loads(data)), job


async def test_replay_command_and_stats_list_the_matches_by_number(world):
    w = world
    mid, _thread, seen = await played_pylon(w)
    choices = await w.alice.autocomplete(w.chan, "replay", "match", "")
    assert choices[0]["value"] == mid and "Pylon" in choices[0]["name"]
    r = await w.alice.slash(w.chan, "replay", match=mid, move=1)
    msg = await r.message()
    assert r.ephemeral and same_pixels(msg.attachments[0].bytes, seen[1])
    r = await w.alice.slash(w.chan, "stats", user=w.bob)
    stats = await r.message()
    assert f"#{mid} Pylon · alice vs bob · bob won" in stats.text


# -- EOF: hidden information ---------------------------------------------------------------------------------


async def eof_program(bot, mid, user):
    """Play a legal program for ``user`` through the match service (the replay reads the log)."""
    from tests.e2e.eof_helpers import hand_of, some_program

    m = await bot.service.get(mid)
    seat = m.seat_of(user.id)
    length = m.rules.view(m.state, seat).program_length
    program = " ".join(some_program(hand_of(m.state, seat), length))
    await bot.service.play(mid, user.id, program)
    return program


async def test_eof_replay_hides_hands_and_programs_until_the_end(dd, tmp_path):
    from tests.e2e.eof_helpers import Clock, eof_world, latest_match_id, open_lobby, start

    bot, chan, (alice, bob) = await eof_world(dd, tmp_path, Clock(), ("alice", "bob"))
    lobby = await open_lobby(alice, chan, draw="blind")
    await bob.click(lobby, "Join")
    await start(dd, alice, lobby)
    mid = await latest_match_id(bot)
    await eof_program(bot, mid, alice)
    await eof_program(bot, mid, bob)
    secret = await eof_program(bot, mid, alice)  # round 2: alice's program is in, bob's not yet
    await dd.settle()
    steps = [s.notation for s in (await replay_steps(bot, mid))]
    k = steps.index(secret)

    r = await bob.slash(chan, "eof history", match=mid, move=k)
    text = (await r.message()).text
    assert r.ephemeral and "still on" in text and "alice: moved" in text
    assert secret not in text and "Hidden during the game" not in text and "hand `" not in text
    r = await bob.slash(chan, "eof history", match=mid)  # the newest position: the same
    text = (await r.message()).text
    assert secret not in text and "hand `" not in text
    gif, job = await gif_of(bot, mid)  # the GIF: the channel's views, the program not in a caption
    assert gif == await views_beforehand(bot, mid) and not any(secret in c for c in job.captions)

    for _ in range(20):  # play on to the end
        m = await bot.service.get(mid)
        if m.status.value != "running":
            break
        for u in (alice, bob):
            if m.seat_of(u.id) in m.to_act():
                await eof_program(bot, mid, u)
    assert (await bot.service.get(mid)).status.value == "finished"
    await dd.settle()
    r = await bob.slash(chan, "eof history", match=mid, move=k)
    text = (await r.message()).text
    assert f"alice: `{secret}`" in text and "Hidden during the game" in text
    assert f"alice: program `{secret}`" in text and "bob: hand `" in text  # bob's round-2 hand, then
    # the end: the result, and every seat's private view of that position
    r = await bob.slash(chan, "eof history", match=mid)
    text = (await r.message()).text
    m = await bot.service.get(mid)
    assert cog_status(bot, m) in text and "Hidden during the game" in text and "still on" not in text
    gif, job = await gif_of(bot, mid)
    assert gif == await views_beforehand(bot, mid) and any(secret in c for c in job.captions)


def cog_status(bot, match):
    return unpseudo(bot.game_cogs["eof"].status_line(match))


async def replay_steps(bot, mid):
    from bot.matches.replay import positions

    m = await bot.service.get(mid)
    return positions(m, await bot.service.history(mid)).steps
