"""``/matches`` as a player reads it (issue #27): the matches waiting on you first, across the server, each
line saying whose turn it is and linking to it; then your other matches; then the rest of the server."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


async def challenge(w, challenger, opponent, game):
    await challenger.slash(w.chan, f"{game} new", opponent=opponent)
    return await w.chan.wait_for(lambda m: "Accept" in m.button_labels() and challenger.username in m.text
                                 and opponent.username in m.text and game_title(game) in m.text)


def game_title(game):
    return {"pylon": "Pylon", "fireandice": "Fire and Ice", "eggcarton": "Egg Carton"}[game]


async def started(w, challenger, opponent, game):
    invite = await challenge(w, challenger, opponent, game)
    await opponent.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    await thread.wait_for(lambda m: bool(m.attachments))
    return thread


def part(text, name):
    """The lines of one part of the list (from its header to the next blank line)."""
    block = text.split(f"**{name} (")[1].split("\n\n")[0]
    return block.split("\n")[1:]


async def test_matches_lists_your_move_first_with_whose_turn_and_links(world):
    w = world
    pylon = await started(w, w.alice, w.bob, "pylon")            # alice (the challenger) moves first
    await started(w, w.carol, w.dave, "fireandice")
    await w.bob.slash(w.chan, "eggcarton new")                    # bob's lobby
    await w.dd.settle()
    await challenge(w, w.carol, w.alice, "pylon")                 # waiting for alice's answer
    pylon_id = (await w.bot.service.find_here(pylon.id))[0].id

    r = await w.alice.slash(w.chan, "matches")
    msg = await r.message()
    assert r.ephemeral and msg.embed.title == "Active matches (4)"
    text = msg.embed.description
    assert text.index("**Your move (2)**") < text.index("**Elsewhere in this server (2)**")
    assert "Your other matches" not in text
    mine = part(text, "Your move")
    assert any(f"**Pylon** #{pylon_id} · alice, bob · your move · [open](https://discord.com/channels/"
               f"{w.guild.id}/{pylon.id}/" in x for x in mine)
    assert any("carol, alice · challenge: waiting for you to accept" in x for x in mine)
    rest = part(text, "Elsewhere in this server")
    assert any("**Fire and Ice**" in x and "carol, dave · carol to move · [open](" in x for x in rest)
    assert any("**The Egg Carton Game**" in x and "lobby, open to join (1 player so far)" in x for x in rest)

    await w.alice.slash(pylon, "pylon move", notation="S a1")
    await w.dd.settle()
    r = await w.bob.slash(w.chan, "matches")
    text = (await r.message()).embed.description
    assert text.index("**Your move (1)**") < text.index("**Your other matches (1)**") < text.index(
        "**Elsewhere in this server (2)**")
    assert f"#{pylon_id} · alice, bob · your move" in part(text, "Your move")[0]
    assert "lobby, open to join" in part(text, "Your other matches")[0]
    assert any("challenge: waiting for alice to accept" in x for x in part(text, "Elsewhere in this server"))
    r = await w.alice.slash(w.chan, "matches")
    text = (await r.message()).embed.description
    assert any(f"#{pylon_id} · alice, bob · bob to move" in x for x in part(text, "Your other matches"))
    w.dd.assert_clean()


def test_a_list_too_long_for_one_message_says_how_many_it_left_out():
    from bot.i18n.pseudo import unpseudo
    from cogs.matches import render

    parts = [("Your move", ["m" * 100] * 3), ("Elsewhere in this server", ["e" * 100] * 60)]
    text = unpseudo(render(parts, limit=1000))  # the same English in the pseudo-locale run
    assert len(text) <= 1000 + 120 and text.count("m" * 100) == 3
    listed = text.count("e" * 100)
    assert text.endswith(f"… and {63 - 3 - listed} more matches not listed: open the server's game channels "
                         "to see them.")
