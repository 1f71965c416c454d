"""How an EOF game's end is said and drawn (issue 27): one wording of the result, the title naming every
winner, moves counted as programs, the final picture's file panel sized to the file."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from bot.games.eof.drawing import HEADER_H, STRIP, WIDTH, board_height
from bot.games.eof.render import headline, render, title_layout
from bot.games.eof.rules import RULES, EofState, Phase
from bot.games.eof.state import ROUNDS, result_sentence
from bot.render import ACCENT, CARD, font
from cogs._game.base import seat_text
from tests.games.eof.helpers import pick, program_state, run

pytestmark = pytest.mark.golden

LONG = "Maximiliana Featherstonehaugh-Smythe"


def finished(file: str = "", scores: tuple[int, ...] = (0, 0, 0, 0)) -> EofState:
    colours = ",".join(("red", "yellow", "green", "blue")[: len(scores)])
    s = program_state(file, colours=colours, round=ROUNDS)
    return replace(s, phase=Phase.OVER, scores=scores, history=((0,) * len(scores),) * ROUNDS,
                   programs=(None,) * len(scores))


@pytest.mark.parametrize(("scores", "said"), [
    ((16, 14), "Red wins with 16"),
    ((8, 8), "Draw: Red and Yellow tie with 8"),
    ((12, 5, 12), "Red and Green tie for first with 12"),
    ((0, 0, 0, 0), "Draw: Red, Yellow, Green and Blue tie with 0"),
    ((3, 9, 9, 9), "Yellow, Green and Blue tie for first with 9"),
])
def test_one_wording_of_the_result(scores: tuple[int, ...], said: str) -> None:
    s = finished(scores=scores)
    colours = ["Red", "Yellow", "Green", "Blue"][: len(scores)]
    assert result_sentence(scores, colours) == said
    assert RULES.outcome(s).detail == said + "."  # type: ignore[union-attr]
    assert headline(RULES.view(s, None)) == f"EOF · Final · {said}"


def test_the_engine_says_the_result_the_same_way_when_the_game_ends() -> None:
    s = program_state("", colours="red,yellow,green,blue", round=ROUNDS,
                      hands={t: "G1" for t in range(4)})
    s, ev = run(s, {t: "G1U" for t in range(4)})
    assert s.phase is Phase.OVER
    assert ev[-1].text == "The game is over after 4 rounds. Draw: Red, Yellow, Green and Blue tie with 0."


def test_the_title_names_every_player_in_a_tie_never_only_the_first() -> None:
    v = RULES.view(finished(), None)
    # short names fit: the players' names
    assert headline(v, ["Alice", "Bob", "Carol", "Dave"]) == (
        "EOF · Final · Draw: Alice, Bob, Carol and Dave tie with 0")
    # too long with a name like this: their colours (the players panel pairs each name with its colour)
    text, size = title_layout(v, [LONG, "bob", "carol", "dave"])
    assert text == "EOF · Final · Draw: Red, Yellow, Green and Blue tie with 0"
    assert font(size, True).getlength(text) <= WIDTH - 48 and size >= 22
    partial = RULES.view(finished(scores=(12, 5, 12, 3)), None)
    assert headline(partial, ["Alice", "Bob", "Carol", "Dave"]) == (
        "EOF · Final · Alice and Carol tie for first with 12")
    assert headline(partial, [LONG, "Bob", "Carol", "Dave"]).endswith("tie for first with 12")


def test_the_title_drawn_is_the_whole_result() -> None:
    v = RULES.view(finished(), None)
    names = [LONG, "bob", "carol", "dave"]
    img = render(v, names=names).crop((0, 0, WIDTH, 50))
    text, size = title_layout(v, names)
    expected = Image.new("RGB", (WIDTH, 50), CARD)
    ImageDraw.Draw(expected).text((24, 12 + (30 - size) // 2), text, font=font(size, True), fill=ACCENT)
    assert sum(ImageStat.Stat(ImageChops.difference(img, expected)).mean) / 3 < 0.5


def strip_height(img: Image.Image) -> int:
    """Pixels of the file panel (its rows, in the strip's colour) down a column left of the other panels."""
    rgb = img.convert("RGB")
    return sum(rgb.getpixel((20, y)) == STRIP for y in range(HEADER_H - 10, rgb.height))


def test_the_final_file_panel_is_sized_to_the_file() -> None:
    short = strip_height(render(RULES.view(finished("R1 Y2"), None)))
    empty = strip_height(render(RULES.view(finished(""), None)))
    full_row = strip_height(render(RULES.view(finished("R1 R2 R3 Y1 Y2 Y3 G1 G2 G3 B1 B2"), None)))
    two_rows = strip_height(render(RULES.view(finished("R1 R2 R3 Y1 Y2 Y3 G1 G2 G3 B1 B2 B3"), None)))
    assert empty == short == full_row < 140  # one row of records: numbers, pyramids, labels, underlines
    assert abs(two_rows - 2 * short) <= 4  # a second row of records, and only that
    # while the game runs the panel also holds a pointer lane per player (four here)
    playing = program_state("R1 Y2", colours="red,yellow,green,blue")
    assert strip_height(render(RULES.view(playing, None))) >= short + 4 * 30
    # the picture is that much shorter
    assert board_height(RULES.view(finished("R1 Y2"), None)) == board_height(RULES.view(playing, None)) - 120


def test_moves_are_programs_not_draws() -> None:
    rng = random.Random(5)
    s = RULES.initial({}, 3)
    draws = 0
    while s.phase is not Phase.PROGRAM:
        seat, move = pick(rng, s)
        s, _ = RULES.apply(s, seat, move)  # type: ignore[arg-type]
        draws += 1
    assert draws > 27 and s.programs_played() == 0
    seat, move = pick(rng, s)
    s, _ = RULES.apply(s, seat, move)  # type: ignore[arg-type]
    assert s.programs_played() == 1
    while s.phase is not Phase.OVER:
        seat, move = pick(rng, s)
        s, _ = RULES.apply(s, seat, move)  # type: ignore[arg-type]
    assert s.programs_played() == 4 * 3


def test_seat_labels_say_the_side_once() -> None:
    assert seat_text("Alice", "Red") == "Alice (Red)"
    assert seat_text("Parlor (easy)", "Blue") == "Parlor (easy, Blue)"
    assert seat_text("Bob", "") == "Bob"


def test_alt_text_is_built_from_the_view_and_says_the_result_in_the_same_words() -> None:
    from bot.games.eof.render import alt_text

    over = RULES.view(finished("R1 Y2", scores=(12, 5, 12, 3)), None)
    names = ["Alice", "Bob", "Carol", "Dave"]
    assert alt_text(over, names) == (
        "EOF, final: Alice and Carol tie for first with 12. File of 2 records: R1 Y2. "
        "Scores: Alice (Red) 12, Bob (Yellow) 5, Carol (Green) 12, Dave (Blue) 3.")
    playing = RULES.view(program_state("", colours="red,yellow", hands={0: "G1", 1: "G2"}), None)
    alt = alt_text(playing, ["Alice", "Bob"])
    assert alt.startswith("EOF, Round 1 of 4 · Programming. Programming: waiting for Alice, Bob.")
    assert "The file is empty." in alt
