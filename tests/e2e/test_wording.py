"""What a newcomer reads (issue #27): the registered command schema, lobby and sign-up wording, /stats when
there is nothing to show, and one rating display for /leaderboard, /stats and a match's result."""

from __future__ import annotations

import pytest

from bot.games import TITLES, two_player
from bot.ratings import RATING_NOTE
from tests.discord_double import UserActionError

pytestmark = pytest.mark.e2e


def options_of(cmds, *path):
    """The options of the registered command at ``path`` ("tournament", "new")."""
    node = next(c for c in cmds if c["name"] == path[0])
    for name in path[1:]:
        node = next(o for o in node.get("options") or [] if o["name"] == name)
    return node.get("options") or []


async def test_every_registered_option_says_what_it_is(world):
    """Discord shows "…" for an option without a description (discord.py's default): none may have one."""
    bad = []

    def walk(options, path):
        for o in options or []:
            if o.get("type") in (1, 2):  # subcommand (group)
                walk(o.get("options"), [*path, o["name"]])
            elif o.get("description", "").strip(" .…") == "":
                bad.append(" ".join([*path, o["name"]]))

    for cmd in world.dd.registered_commands(world.guild):
        walk(cmd.get("options"), [cmd["name"]])
    assert bad == []
    pause = {o["name"]: o["description"] for o in options_of(world.dd.registered_commands(world.guild),
                                                              "tournament", "remove")}
    assert pause == {"player": "The player to take out (no pairings in later rounds)",
                     "event": "The tournament number (default: the one in this channel)"}


async def test_tournament_offers_only_the_games_it_can_pair(world):
    w = world
    game = next(o for o in options_of(w.dd.registered_commands(w.guild), "tournament", "new")
                if o["name"] == "game")
    offered = [c["value"] for c in game["choices"]]
    assert offered == list(two_player()) and "eof" not in offered and "nomic" not in offered
    assert [c["name"] for c in game["choices"]] == [TITLES[k] for k in two_player()]
    with pytest.raises(UserActionError):  # the Discord client does not even let one pick EOF
        await w.admin.slash(w.chan, "tournament new", game="eof")


async def test_swiss_sign_up_says_its_rounds_for_the_players_so_far(world):
    w = world
    r = await w.admin.slash(w.chan, "tournament new", game="pylon")
    signup = await r.message()
    assert "Swiss · 3 rounds for 3 players (grows with sign-ups)" in signup.text
    assert "log2" not in signup.text and "⌈" not in signup.text
    erin = w.dd.create_user("erin")
    w.guild.add_member(erin)
    for u in (w.alice, w.bob, w.carol, w.dave, erin):
        await u.click(signup, "Join")
    assert "Swiss · 4 rounds for 5 players (grows with sign-ups)" in signup.text
    r = await w.admin.slash(w.chan, "tournament new", game="fireandice", rounds=2)
    assert "Swiss · 2 rounds\n" in (await r.message()).text   # a number the organiser set is just that


async def test_lobby_says_two_players_when_a_game_takes_exactly_two(world):
    w = world
    await w.alice.slash(w.chan, "pylon new")
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels())
    assert "Hosted by **alice** · 2 players\n" in lobby.text and "2 to 2" not in lobby.text
    await w.alice.click(lobby, "Cancel")
    await w.bob.slash(w.chan, "eof new")
    lobby = await w.chan.wait_for(lambda m: "Join" in m.button_labels() and "bob" in m.text)
    assert "Hosted by **bob** · 2 to 4 players\n" in lobby.text


async def test_help_counts_players_the_same_way(world):
    r = await world.alice.slash(world.chan, "help")
    msg = await r.message()
    assert "2 players" in msg.embed.field("Pylon — `/pylon`")
    assert "2 to 4 players" in msg.embed.field("EOF — `/eof`")
    assert "any number of players, at least 2" in msg.embed.field("Nomic World — `/nomic`")


async def test_stats_with_nothing_to_show_is_said_privately(world):
    w = world
    r = await w.bob.slash(w.chan, "stats")
    msg = await r.message()
    assert r.ephemeral and "You have no finished matches in this server yet." in msg.text
    r = await w.bob.slash(w.chan, "stats", user=w.carol)
    assert r.ephemeral and "carol has no finished matches" in (await r.message()).text


async def one_rated_pylon_match(w):
    """alice challenges bob, bob accepts, alice resigns: bob +3.4, alice −1.8 (both provisional)."""
    await w.alice.slash(w.chan, "pylon new", opponent=w.bob)
    invite = await w.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    await thread.wait_for(lambda m: bool(m.attachments))
    r = await w.alice.slash(thread, "pylon resign")
    await w.alice.click(await r.message(), "Yes, resign")
    await w.dd.settle()
    return await thread.wait_for(lambda m: "match over" in m.text)


async def test_one_rating_display_in_the_result_the_leaderboard_and_stats(world):
    w = world
    over = await one_rated_pylon_match(w)
    ratings = over.embed.field("Ratings")
    alice, bob = f"<@{w.alice.id}>", f"<@{w.bob.id}>"
    assert f"{alice} −1.8 (−1.8, provisional, 1 of 5 games)" in ratings
    assert f"{bob} 3.4 (+3.4, provisional, 1 of 5 games)" in ratings
    assert RATING_NOTE in ratings and "-1.8" not in ratings

    r = await w.carol.slash(w.chan, "leaderboard", game="pylon")
    board = await r.message()
    assert f"**1.** {bob} — 3.4 (provisional, 1 of 5 games) · 1W 0L 0D" in board.text
    assert f"**2.** {alice} — −1.8 (provisional, 1 of 5 games) · 0W 1L 0D" in board.text
    assert RATING_NOTE in board.embed.footer and "μ" not in board.text

    r = await w.alice.slash(w.chan, "stats")
    stats = await r.message()
    assert not r.ephemeral
    assert stats.embed.field("Pylon").startswith("Rating −1.8 (provisional, 1 of 5 games) · rank 2/2")
    assert stats.embed.description == RATING_NOTE and "σ" not in stats.text
    w.dd.assert_clean()


async def test_sign_up_lists_whole_names_and_counts_the_rest(world):
    w = world
    r = await w.admin.slash(w.chan, "tournament new", game="pylon")
    signup = await r.message()
    names = [f"player{i:02d}_with_a_long_display_name" for i in range(36)]  # 36 × 33 characters > 1024
    for name in names:
        u = w.dd.create_user(name)
        w.guild.add_member(u)
        await u.click(signup, "Join")
    value = signup.embed.field("Players (36)")
    listed, more = value.rsplit(" and ", 1)
    assert more.endswith(" more") and len(value) <= 1024
    shown_names = [n.replace("\\_", "_") for n in listed.split(", ")]
    assert shown_names == names[:len(shown_names)] and len(shown_names) + int(more.split()[0]) == 36
