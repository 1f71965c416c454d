"""Where it turned (issue #29): a finished Fire and Ice match's replay offers the review; clicking it
answers privately with the marks (the planted blunder among them), and the replay's step then shows its
mark. Not offered for Pylon, nor for a match still on."""

from __future__ import annotations

import time

import pytest

from tests.e2e.test_games import challenge
from tests.e2e.test_replay import played_pylon
from tests.test_review import BLUNDER_STEP, PLANTED

pytestmark = pytest.mark.e2e


async def play_fire_and_ice(w, moves):
    thread, _board = await challenge(w, "fireandice")
    match = (await w.bot.service.find_here(thread.id))[0]
    for notation in moves:
        m = await w.bot.service.get(match.id)
        (seat,) = sorted(m.to_act())
        await w.bot.service.play(match.id, m.seats[seat].user_id, notation, seat=seat)
    await w.dd.settle()
    return await w.bot.service.get(match.id)


async def test_review_of_a_finished_match_marks_the_planted_blunder_privately(world):
    w = world
    match = await play_fire_and_ice(w, PLANTED)
    assert match.status.value == "finished"
    fire = match.seats[0].name
    r = await w.carol.slash(w.chan, "fireandice history", match=match.id)
    msg = await r.message()
    r = await w.carol.click(msg, "Where it turned")
    out = await r.message(timeout=90)  # (the review runs in its worker process: about 10 s here)
    assert r.ephemeral and out.channel.id == w.chan.id
    line = f"move {BLUNDER_STEP} · {fire} `B2-A2` · **blunder**: `D1-B1` keeps the win"
    assert line in out.text, out.text
    assert "hard level's search" in out.text and "inaccuracy" in out.text
    assert not any("Where it turned" in m.text for m in w.chan.public_messages)  # nothing public
    # the answer's buttons open the replay at a marked move, which now shows the mark
    await w.carol.click(out, f"Move {BLUNDER_STEP}")
    assert f"**Move {BLUNDER_STEP} of {len(PLANTED)}**" in out.text
    assert "🔎 **Blunder** · `D1-B1` keeps the win" in out.text
    # kept: a second click answers at once from memory (no second review)
    r = await w.alice.slash(w.chan, "fireandice history", match=match.id)
    t = time.monotonic()
    r = await w.alice.click(await r.message(), "Where it turned")
    assert line in (await r.message(timeout=2)).text and time.monotonic() - t < 2


async def test_review_is_offered_only_for_finished_matches_of_measured_games(world):
    w = world
    mid, _thread, _seen = await played_pylon(w)
    r = await w.carol.slash(w.chan, "pylon history", match=mid)
    assert "Where it turned" not in (await r.message()).button_labels()
    r = await w.alice.forge_component(w.chan.public_messages[0], f"p:{mid}:-:rv", check=False)
    assert r.ephemeral and "only for finished matches" in (await r.message()).text
    running = await play_fire_and_ice(w, PLANTED[:4])
    r = await w.carol.slash(w.chan, "fireandice history", match=running.id)
    assert "Where it turned" not in (await r.message()).button_labels()
