"""EOF's ending, end to end (issue 27): one wording of a tie in the result, on the board and in the
picture; the footer counting moves as players count them (programs, not bag draws); "Last:" naming
players; the execution GIF played once and stopping on the result; the final file panel sized to the file.
"""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.games.eof.drawing import HEADER_H, WIDTH
from bot.games.eof.render import to_palette
from bot.i18n import pseudo_mode
from bot.i18n.pseudo import unpseudo
from bot.render import ACCENT, CARD, font
from tests.discord_double.pseudo import (
    OFF_PICTURE,  # (the pseudo-locale run: texts the test makes read as English)
)
from tests.e2e.eof_helpers import (
    Clock,
    builder_dm,
    eof_world,
    hand_from_select,
    latest_match_id,
    open_lobby,
    some_program,
    start,
)

pytestmark = pytest.mark.e2e

LONG = "Maximiliana Featherstonehaugh-Smythe"
TIE = "Draw: Red, Yellow, Green and Blue tie with 0"


def crashing_first(hand: list[str]) -> list[str]:
    """A program whose first instruction crashes at once (an orientation its colour does not have), so
    the player scores 0 this round (no crash penalty) and the file stays empty."""
    piece = hand[0]
    return some_program(hand, 5, first=[piece + ("S" if piece[0] == "G" else "U")])


def drawn_title(text: str, size: int) -> Image.Image:
    """The title band as the board draws it (render._draw_header): the text on the card colour."""
    img = Image.new("RGB", (WIDTH, 50), CARD)
    ImageDraw.Draw(img).text((24, 12 + (30 - size) // 2), text, font=font(size, True), fill=ACCENT)
    return img


def band(img: Image.Image) -> Image.Image:
    return img.convert("RGB").crop((0, 0, WIDTH, 50))


def differs(a: Image.Image, b: Image.Image) -> float:
    """Mean difference of two pictures' pixels (0 = the same)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


async def test_four_way_tie_says_draw_once_everywhere(dd, tmp_path):
    clock = Clock()
    bot, chan, users = await eof_world(dd, tmp_path, clock, (LONG, "bob", "carol", "dave"))
    host = users[0]
    lobby = await open_lobby(host, chan, draw="blind")
    for u in users[1:]:
        await u.click(lobby, "Join")
    thread = await start(dd, host, lobby)
    mid = await latest_match_id(bot)
    for rnd in range(1, 5):
        for u in users:
            dm = await builder_dm(u, rnd)
            if rnd < 4:  # no program: the round scores 0
                await u.slash(u.dm_channel(), "eof move", notation="skip")
                continue
            # round 4: programs that crash at once, so the execution has steps (and a GIF) and all stay at 0
            program = " ".join(crashing_first(hand_from_select(dm)))
            r = await u.slash(u.dm_channel(), "eof move", notation=program)
            reply = await r.message()
            await u.click(reply, "Submit anyway")
        await thread.wait_for(lambda m, rnd=rnd: m.embed.title == f"Round {rnd} scores", timeout=10)
    log_msg = await thread.wait_for(lambda m: m.embed.title == "Round 4: execution", timeout=10)
    over = await thread.wait_for(lambda m: m.embed.title == "EOF: match over", timeout=10)
    await dd.settle()
    m = await bot.service.get(mid)
    assert m.status.value == "finished" and m.state.scores == (0, 0, 0, 0)
    final = dd.messages[m.rec.message_id]
    names = f"{LONG} (Red), bob (Yellow), carol (Green) and dave (Blue)"

    # the result message and the board: the one wording, said once, with every player in it
    assert f"**Draw: {names} tie with 0.**" in over.text
    said = over.embeds[0]["description"]  # (the ratings' note below it explains ratings in general)
    assert "won" not in said and " win" not in said
    board = final.embed.description
    assert board.count("tie with 0") == 1 and f"**Draw: {names} tie with 0.**" in board
    assert "win with" not in board and "Draw.**" not in board

    # "Last:" names the players (with their colour), not bare colours
    last = next(line for line in board.splitlines() if line.startswith("Last:"))
    assert "🟦 **dave** has submitted a program (4/4 in)." in last
    assert "Blue has" not in last

    # the footer counts programs (4 players x 4 rounds), not the 144 bag draws and first-player draws
    assert "final position after 16 moves" in final.embed.footer
    assert m.rec.ui["plies"] > 16 * 5  # the move log does hold every draw

    # the picture's title: the same wording, everyone in it (colours: the names are too long to fit)
    from bot.games.eof.render import title_layout  # (new in issue 27)

    view, shown_names = m.view(None), m.names()
    text, size = title_layout(view, shown_names)
    got, want = unpseudo(text), f"EOF · Final · {TIE}"
    # (the pseudo-locale run's words are a third longer: there the title may be cut, never overflow)
    assert got == want or (pseudo_mode() and got.endswith("…") and want.startswith(got[:-1].rstrip()))
    png = final.attachments[0].image()
    assert differs(band(png), drawn_title(text, size)) < 0.5  # that is what is drawn
    assert differs(band(png), drawn_title(f"EOF · Final · {LONG}…", 30)) > 2  # not the first name only
    # (that title, drawn here on purpose past the picture's edge, is the test's, not the bot's)
    OFF_PICTURE[:] = [f for f in OFF_PICTURE if f"{LONG}…" not in f]

    # the alt texts: the same wording, every name whole
    everyone = f"Draw: {LONG}, bob, carol and dave tie with 0"
    assert final.attachments[0].description.startswith(f"EOF, final: {everyone}.")
    assert "The file is empty." in final.attachments[0].description
    assert log_msg.attachments[0].description.startswith(
        f"EOF round 4 execution, 4 instructions one frame each, stopping on the final result: {everyone}.")
    # what happens in the animation, instruction by instruction (issue 31)
    # (each player's first instruction, whatever colour their hand's first piece was)
    said = log_msg.attachments[0].description
    assert all(re.search(rf"1 {who} [RYGB]", said) for who in ("bob", "carol", "dave")), said

    # the execution GIF plays once and stops on the result
    gif = log_msg.attachments[0].image()
    assert gif.info.get("loop") is None and "loop" not in gif.info
    assert gif.n_frames == 5  # each player's crashing instruction, then the final still
    gif.seek(gif.n_frames - 1)
    in_gif = to_palette(drawn_title(text, size)).convert("RGB")  # the title in the GIF's colours
    assert differs(band(gif.convert("RGB")), in_gif) < 0.5
    gif.seek(0)
    assert differs(band(gif.convert("RGB")), in_gif) > 2  # an execution frame first

    # the final picture's file panel holds the (empty) file, no pointer lanes: the players panel follows
    # right after it
    column = [png.convert("RGB").getpixel((30, y)) for y in range(HEADER_H, png.height)]
    first_card = next(i for i, c in enumerate(column) if c == CARD)
    assert first_card < 140  # one row of records (132 px); with four pointer lanes it was 252
    dd.assert_clean()
