"""Rules the two doubles now share (tests/discord_double/world.py and simuser.py), checked on the
in-process one with a plain discord.py client: an archived thread refuses new members (50083), ``since=``
has one meaning, a private thread is hidden from users not in it, and commands follow ``contexts``."""

from __future__ import annotations

import discord
import pytest

from tests.discord_double import DiscordDouble, UserActionError

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with DiscordDouble() as dd:
        guild = dd.create_guild("Guild")
        chan = guild.create_text_channel("games")
        alice, bob = dd.create_user("alice"), dd.create_user("bob")
        guild.add_member(alice)
        guild.add_member(bob)
        client = discord.Client(intents=discord.Intents.default())
        await dd.connect(client)
        yield dd, guild, chan, alice, bob, client
        await dd.disconnect()


async def test_adding_a_member_to_an_archived_thread_is_50083(world):
    dd, _guild, chan, alice, bob, client = world
    thread = dd._create_thread(chan, "table", dd.bot_user)
    await client.http.add_user_to_thread(thread.id, alice.id)
    assert alice.id in thread.thread_members
    dd._update_channel(thread, {"archived": True})
    with pytest.raises(discord.HTTPException) as err:
        await client.http.add_user_to_thread(thread.id, bob.id)
    assert (err.value.status, err.value.code) == (400, 50083)
    assert bob.id not in thread.thread_members


async def test_since_a_message_means_newer_messages_only(world):
    _dd, _guild, chan, alice, _bob, _client = world
    first = await alice.say(chan, "one")
    second = await alice.say(chan, "two")
    mark = _dd.mark()
    await alice.edit(first, "one!")
    assert await chan.wait_for(lambda m: m.content.startswith("one"), since=mark) is first  # edited after
    with pytest.raises(AssertionError):  # older than `second`, though edited after it
        await chan.wait_for(lambda m: m.content.startswith("one"), since=second, timeout=0.05)
    third = await alice.say(chan, "three")
    assert await chan.wait_for(since=second) is third


async def test_private_threads_and_saying_in_a_thread(world):
    dd, _guild, chan, alice, bob, _client = world
    secret = dd._create_thread(chan, "secret", alice, type=12)
    dd._add_thread_member(secret, alice)
    with pytest.raises(UserActionError, match="private thread"):
        await bob.say(secret, "let me in")
    public = dd._create_thread(chan, "open", dd.bot_user)
    dd._update_channel(public, {"archived": True})
    await bob.say(public, "hello")  # posting joins the thread and unarchives it, as on Discord
    assert bob.id in public.thread_members and not public.archived


async def test_commands_follow_contexts(world):
    dd, guild, chan, alice, _bob, _client = world
    dd.global_commands[(1, "guildonly")] = {"id": "1", "name": "guildonly", "type": 1, "contexts": [0]}
    assert dd.find_command("guildonly", chan)["name"] == "guildonly"
    with pytest.raises(UserActionError, match="no command"):
        dd.find_command("guildonly", alice.dm_channel())
    dd.guild_commands[guild.id] = {
        (1, "local"): {"id": "2", "name": "local", "type": 1, "guild_id": str(guild.id)}
    }
    with pytest.raises(UserActionError, match="no command"):
        dd.find_command("local", alice.dm_channel())
