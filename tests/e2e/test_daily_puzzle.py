"""The daily puzzle through the Discord double: set by an admin, posted once a day across a restart,
solved privately from the public post's **Solve it** button, turned off."""

from __future__ import annotations

import pytest

from bot.daily import DAY, next_post, puzzle_day

pytestmark = pytest.mark.e2e


def daily_posts(w, channel):
    return [m for m in channel.public_messages
            if m.author.id == w.bot_member.id and "Puzzle of the day" in m.text]


async def test_the_daily_puzzle_is_posted_once_a_day_across_a_restart(world):
    w = world
    side = w.guild.create_text_channel("puzzles")
    r = await w.admin.slash(w.chan, "parlor settings", puzzle_channel=side)
    shown = await r.message()
    assert r.ephemeral and f"<#{side.id}>" in shown.text and "12:00 UTC" in shown.text
    assert await w.bot.store.daily_puzzle_channel(w.guild.id) == side.id

    before = next_post(w.clock()) - w.clock()
    await w.expire(before - 30)  # not yet the hour
    assert daily_posts(w, side) == []
    await w.expire(60)  # past it: one post
    (post,) = daily_posts(w, side)
    assert post.mentions == [] and not post.mention_everyone and not post.notified
    assert "Solve it" in post.button_labels()
    picture = post.attachments[0]
    assert picture.description and "Puzzle of the day" in picture.description  # alt text
    img = picture.image()
    assert img.width > 100 and len(img.convert("RGB").getcolors(1 << 20) or ()) > 5  # a real board
    assert w.chan.public_messages == []  # only in the chosen channel

    await w.expire(3600)  # later the same day
    await w.restart()
    await w.expire(3600)
    assert len(daily_posts(w, side)) == 1  # no second post, after a restart either

    await w.expire(DAY)  # the next day: one more, another game
    first, second = daily_posts(w, side)
    assert first.embeds[0]["title"].split("·")[1].split("#")[0] != \
        second.embeds[0]["title"].split("·")[1].split("#")[0]
    await w.expire(600)
    assert len(daily_posts(w, side)) == 2


async def test_solve_it_opens_the_puzzle_privately(world):
    w = world
    side = w.guild.create_text_channel("puzzles")
    await w.admin.slash(w.chan, "parlor settings", puzzle_channel=side)
    await w.expire(next_post(w.clock()) - w.clock() + 1)
    (post,) = daily_posts(w, side)
    number = post.embeds[0]["title"].rsplit("#", 1)[1]
    r = await w.alice.click(post, "Solve it")
    mine = await r.message()
    assert r.ephemeral and mine.ephemeral_to == w.alice.id
    assert f"puzzle #{number}" in mine.embeds[0]["title"] and "Type a move" in mine.button_labels()
    assert not w.bob.can_see(mine)
    assert post.edits == [] and len(daily_posts(w, side)) == 1  # the public post stays as it was
    r = await w.bob.click(post, "Solve it")  # anybody may: a copy of their own
    assert (await r.message()).ephemeral_to == w.bob.id


async def test_only_an_admin_sets_the_daily_puzzle_and_it_can_be_turned_off(world):
    w = world
    side = w.guild.create_text_channel("puzzles")
    r = await w.alice.slash(w.chan, "parlor settings", puzzle_channel=side, strict=False)
    assert r.ephemeral and "Manage Server" in (await r.message()).text
    assert await w.bot.store.daily_puzzle_channel(w.guild.id) is None
    await w.expire(next_post(w.clock()) - w.clock() + 1)
    assert daily_posts(w, side) == []

    await w.admin.slash(w.chan, "parlor settings", daily_puzzle=True)  # here, in #games
    assert await w.bot.store.daily_puzzle_channel(w.guild.id) == w.chan.id
    r = await w.admin.slash(w.chan, "parlor settings", daily_puzzle=False)
    assert "off" in (await r.message()).embeds[0]["fields"][-1]["value"]
    assert await w.bot.store.daily_puzzle_channel(w.guild.id) is None
    await w.expire(DAY)
    assert daily_posts(w, w.chan) == []


async def test_choosing_the_same_channel_again_keeps_the_day(world):
    w = world
    side = w.guild.create_text_channel("puzzles")
    await w.admin.slash(w.chan, "parlor settings", puzzle_channel=side)
    await w.expire(next_post(w.clock()) - w.clock() + 1)
    day = puzzle_day(w.clock())
    await w.admin.slash(w.chan, "parlor settings", puzzle_channel=side)
    await w.expire(60)
    assert len(daily_posts(w, side)) == 1
    assert await w.bot.store.next_daily_puzzle() == pytest.approx(next_post(w.clock()))
    assert puzzle_day(await w.bot.store.next_daily_puzzle()) == day + 1
