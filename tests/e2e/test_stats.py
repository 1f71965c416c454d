"""/stats as a member reads it: rated games, games against the computer, the chart's game, plurals."""

import pytest

pytestmark = pytest.mark.e2e


async def resign(w, user, thread, game):
    r = await user.slash(thread, f"{game} resign")
    await user.click(await r.message(), "Yes, resign")
    await w.dd.settle()


async def rated_match(w, game, loser):
    await w.alice.slash(w.chan, f"{game} new", opponent=w.bob)
    invite = await w.chan.wait_for(
        lambda m: "Accept" in m.button_labels() and not m.embed.description.startswith("Started")
    )
    await w.bob.click(invite, "Accept")
    await w.dd.settle()
    thread = w.thread()
    await thread.wait_for(lambda m: bool(m.attachments))
    await resign(w, loser, thread, game)


async def test_stats_show_games_against_the_computer_apart_from_ratings(world):
    w = world
    for level in ("easy", "hard"):
        await w.alice.slash(w.chan, "pylon new", opponent=w.bot_member, level=level, first="challenger")
        await w.dd.settle()
        thread = w.thread()
        await thread.wait_for(lambda m: bool(m.attachments))
        await resign(w, w.alice, thread, "pylon")
    r = await w.alice.slash(w.chan, "stats")
    msg = await r.message()
    assert msg.embed.field("Against the computer (unrated)") == "Pylon: 2 games · 0W 2L 0D (easy, hard)"
    assert "No rated matches yet" in msg.text and not msg.attachments  # no rating, so nothing to chart
    r = await w.bob.slash(w.chan, "stats")
    assert r.ephemeral and "no finished matches" in (await r.message()).text


async def test_stats_chart_the_most_played_rated_game_and_count_in_the_singular(world):
    w = world
    await rated_match(w, "pylon", w.alice)
    await rated_match(w, "fireandice", w.bob)
    await rated_match(w, "fireandice", w.alice)
    r = await w.alice.slash(w.chan, "stats")
    msg = await r.message()
    assert "1 game · 0W 1L 0D" in msg.embed.field("Pylon")           # "1 game", not "1 games"
    assert "2 games · 1W 1L 0D" in msg.embed.field("Fire and Ice")
    assert msg.embed.footer.startswith("Chart: Fire and Ice (the most played rated game)")
    assert msg.attachments and msg.attachments[0].is_png
    r = await w.alice.slash(w.chan, "stats", game="pylon")            # a chosen game is charted instead
    msg = await r.message()
    assert msg.embed.footer.startswith("Chart: Pylon ·")


def test_computer_records_count_wins_losses_and_draws_per_game():
    from bot.i18n.pseudo import unpseudo
    from bot.storage import ComputerResult
    from cogs.leaderboard import computer_records

    def res(game, ranks, seat=0, level="easy", reason="normal"):
        return ComputerResult(game, level, seat, {"ranks": ranks, "reason": reason})

    lines = [unpseudo(x) for x in computer_records(  # unpseudo: the same English in the pseudo-locale run
        [
            res("eggcarton", [0, 1]),
            res("eggcarton", [1, 0], level="expert"),
            res("eggcarton", [0, 0]),
            res("pylon", [1, 0], seat=1),
            res("pylon", [0, 1], seat=1),
            ComputerResult("pylon", "easy", 0, None),
        ]
    )]
    assert lines == ["Pylon: 2 games · 1W 1L 0D (easy)",
                     "The Egg Carton Game: 3 games · 1W 1L 1D (easy, expert)"]
