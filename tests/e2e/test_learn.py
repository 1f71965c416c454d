"""``/<game> learn`` through the Discord double: a private lesson on the real board, clicked through."""

from __future__ import annotations

import pytest

from bot.lessons import lesson_of

pytestmark = pytest.mark.e2e

GAMES = ("pylon", "fireandice", "eggcarton", "eof", "nomic")


def option_select(msg, value):
    """The select of ``msg`` that offers ``value`` (boards split long menus in two)."""
    for sel in msg.selects():
        if any(o.value == value for o in sel.options):
            return sel
    raise AssertionError(f"no select offers {value!r}: {[s.placeholder for s in msg.selects()]}")


async def click_move(user, msg, game, notation):
    """Play ``notation`` the way a player does on the board: only buttons and menus (what captions ask)."""
    if game == "pylon" and " " in notation:
        size, square = notation.split()
        await user.click(msg, next(b.label for b in msg.buttons() if b.label.startswith(
            {"S": "Small", "M": "Medium", "L": "Large"}[size])))
        return await user.select(msg, [square], custom_id=option_select(msg, square).custom_id)
    if game == "pylon":
        src, dst = notation.split("-")
        await user.select(msg, [src], custom_id=option_select(msg, src).custom_id)
        return await user.click(msg, next(b.label for b in msg.buttons() if b.label.endswith(f"→ {dst}")))
    if game == "fireandice":
        src = notation.split("-")[0]
        await user.select(msg, [src], custom_id=option_select(msg, src).custom_id)
        r = await user.select(msg, [notation], custom_id=option_select(msg, notation).custom_id)
        confirm = [b.label for b in msg.buttons() if b.label.startswith("Yes, play")]
        return await user.click(msg, confirm[0]) if confirm else r
    if game == "eggcarton":
        slot = next(b.label for b in msg.buttons() if b.label.startswith(f"{notation} ·"))
        return await user.click(msg, slot)
    if game == "eof":  # the program builder: a piece from the menu, then its orientation; then Submit
        orient = {"U": "Up", "D": "Down", "L": "Left", "R": "Right", "S": "Standing"}
        for ins in notation.split():
            await user.select(msg, [ins[:2]], custom_id=option_select(msg, ins[:2]).custom_id)
            await user.click(msg, next(b.label for b in msg.buttons() if b.label.startswith(orient[ins[2]])))
        return await user.click(msg, "Submit")
    if game == "nomic" and notation.startswith(("vote", "propose")):
        step = lesson_of("nomic").steps[int(msg.embeds[0]["title"].split("step ")[1].split()[0]) - 1]
        label = next(label for label, said in step.choices if said == notation)
        if notation.startswith("vote"):
            return await user.click(msg, label)
        sel = next(s for s in msg.selects() if any(o.label == label for o in s.options))
        return await user.select(msg, [next(o.value for o in sel.options if o.label == label)],
                                 custom_id=sel.custom_id)
    if game == "nomic":  # a path: one direction button a step, then Confirm
        for d in notation:
            await user.click(msg, {"N": "North", "E": "East", "S": "South", "W": "West"}[d])
        return await user.click(msg, f"Confirm {notation}")
    raise AssertionError(game)


@pytest.fixture(autouse=True)
def quick_clicks(monkeypatch):
    """The test user clicks far faster than a person; the limit itself has its own test."""
    from cogs._game.learn import LearnCog

    monkeypatch.setattr(LearnCog, "lesson_rate", (1000, 10.0))


async def start(w, user, game):
    r = await user.slash(w.chan, f"{game} learn")
    assert r.ephemeral
    return r, await r.message()


@pytest.mark.parametrize("game", GAMES)
async def test_a_newcomer_clicks_what_the_captions_ask_to_the_end(world, game):
    w = world
    lesson = lesson_of(game)
    assert 5 <= len(lesson) <= 8
    _, msg = await start(w, w.alice, game)
    for i, step in enumerate(lesson.steps):
        assert f"step {i + 1} of {len(lesson)}" in msg.embeds[0]["title"]
        assert step.caption in msg.embeds[0]["description"]
        assert msg.attachments[0].is_png and msg.ephemeral
        r = await click_move(w.alice, msg, game, step.solution)
        assert r.response_name == "UPDATE_MESSAGE"
        assert "✅" in msg.embeds[0]["description"], msg.embeds[0]["description"]
        if i + 1 < len(lesson):
            await w.alice.click(msg, "Next step")
    assert lesson.finish in msg.button_labels()
    assert not w.chan.public_messages  # all of it private
    if game == "eof":  # the round ran in the engine: the execution log is shown
        assert "Red Y3R: inserted R3" in msg.embeds[0]["description"]
    await w.alice.click(msg, lesson.finish)
    await w.dd.settle()
    match = (await w.bot.service.find_for_user(w.alice.id, game=game))[0]
    if lesson.finish == "Start a lobby":  # EOF and Nomic World: a real lobby others can join
        assert match.status.value == "lobby" and [s.user_id for s in match.seats] == [w.alice.id]
        assert any("Join" in label for m in w.chan.public_messages for label in m.button_labels())
    else:
        assert match.status.value == "running" and any(s.is_ai for s in match.seats)
    w.dd.assert_clean()


@pytest.mark.parametrize("game", GAMES)
async def test_a_wrong_try_gets_the_hint_and_the_same_step(world, game):
    w = world
    lesson = lesson_of(game)
    _, msg = await start(w, w.alice, game)
    for i, step in enumerate(lesson.steps):
        await click_move(w.alice, msg, game, step.wrong)
        text = msg.embeds[0]["description"]
        assert "❌" in text and step.hint in text and f"step {i + 1} of" in msg.embeds[0]["title"], text
        await click_move(w.alice, msg, game, step.solution)
        assert "✅" in msg.embeds[0]["description"]
        if i + 1 < len(lesson):
            await w.alice.click(msg, "Next step")
    assert lesson.finish in msg.button_labels()


async def test_the_lesson_resumes_after_a_restart(world):
    w = world
    lesson = lesson_of("pylon")
    _, msg = await start(w, w.alice, "pylon")
    await click_move(w.alice, msg, "pylon", lesson.steps[0].solution)
    await w.alice.click(msg, "Next step")
    await w.restart()
    await click_move(w.alice, msg, "pylon", lesson.steps[1].solution)  # the old message still works
    assert "✅" in msg.embeds[0]["description"]
    await w.restart()
    _, again = await start(w, w.alice, "pylon")
    assert "step 3 of" in again.embeds[0]["title"] and "left off" in again.embeds[0]["description"]
    await w.alice.click(msg, "Next step")  # the earlier message goes on too: it is at the same step
    assert "step 3 of" in msg.embeds[0]["title"]


async def test_an_old_step_is_refused_privately_and_changes_nothing(world):
    w = world
    lesson = lesson_of("eggcarton")
    _, old = await start(w, w.alice, "eggcarton")
    _, new = await start(w, w.alice, "eggcarton")
    await click_move(w.alice, new, "eggcarton", lesson.steps[0].solution)
    r = await click_move(w.alice, old, "eggcarton", lesson.steps[0].solution)  # step 1 is done already
    answer = await r.message()
    assert r.ephemeral and "out of date" in answer.text
    assert await w.bot.store.lesson_step(w.alice.id, "eggcarton") == (1, False)


async def test_lesson_clicks_are_rate_limited_per_user(world, monkeypatch):
    from cogs._game.learn import LearnCog

    w = world
    monkeypatch.setattr(LearnCog, "lesson_rate", (3, 60.0))
    _, msg = await start(w, w.alice, "pylon")  # 1
    await w.alice.click(msg, "Large (5 left)")  # 2
    await w.alice.click(msg, "Small (5 left)")  # 3
    r = await w.alice.click(msg, "Medium (5 left)")
    assert r.ephemeral and "Slow down" in (await r.message()).text
    _, other = await start(w, w.bob, "pylon")  # another user is not held up
    assert "step 1 of" in other.embeds[0]["title"]



async def test_a_right_move_is_answered_before_it_is_stored_and_a_restart_waits_for_the_write(world):
    """The reply does not wait for the store (issue 30's budget); shutting down does, so a restart right
    after the click keeps the step."""
    import asyncio

    w = world
    lesson = lesson_of("pylon")
    _, msg = await start(w, w.alice, "pylon")
    store, release = w.bot.store, asyncio.Event()
    real = store.save_lesson_step

    async def held(*args, **kwargs):
        await release.wait()
        await real(*args, **kwargs)

    store.save_lesson_step = held
    try:
        r = await asyncio.wait_for(click_move(w.alice, msg, "pylon", lesson.steps[0].solution), 5)
    finally:
        pending = not release.is_set()
    assert pending and r.response_name == "UPDATE_MESSAGE" and "✅" in msg.embeds[0]["description"]
    assert await store.lesson_step(w.alice.id, "pylon") == (0, False)  # answered, not written yet
    restarting = asyncio.ensure_future(w.restart())
    await asyncio.sleep(0.05)
    assert not restarting.done()  # closing waits for the write
    release.set()
    await restarting
    assert await w.bot.store.lesson_step(w.alice.id, "pylon") == (1, False)
    await w.alice.click(msg, "Next step")  # the old message goes on after the restart
    assert "step 2 of" in msg.embeds[0]["title"]
    w.dd.assert_clean()


async def test_lesson_messages_are_not_kept_in_the_librarys_view_store(world):
    """Every lesson click comes back through the lesson's dynamic item: a stored view per lesson message
    (never timing out) would only grow; and a step's components are the same each time it is shown."""
    w = world
    store = w.bot._connection._view_store
    before = len(store._synced_message_views)
    _, msg = await start(w, w.alice, "pylon")
    first = [b.custom_id for b in msg.buttons()]
    await w.alice.click(msg, "Large (5 left)")
    await click_move(w.alice, msg, "pylon", lesson_of("pylon").steps[0].wrong)
    assert "❌" in msg.embeds[0]["description"] and [b.custom_id for b in msg.buttons()] == first
    assert len(store._synced_message_views) == before and not store._views.get(msg.id)
