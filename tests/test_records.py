"""Match records (issue #29): export -> import gives the same positions, for every game over seeded random
games (chance outcomes included); bad records are refused with the line or move and the reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import records
from bot.games import GAMES
from bot.games.base import CHANCE, Chance, Outcome, Reason
from bot.records import MAX_BYTES, RecordError, dumps, from_match, loads, positions, replay
from bot.storage import MatchRecord, MoveRecord, SeatRecord, Status

GAMES_PER_KIND = 50
MAX_PLIES = 600
"""A Nomic World game at random may never end; it is cut here (and resigned)."""
NAMES = ("alice", "Bob \"the\" Builder", "ĉarlo; 李", "dave\\x")


def match_record(game: str, seats: list[SeatRecord], options: dict[str, str], outcome: Outcome | None,
                 state: Any = None) -> MatchRecord:
    return MatchRecord(
        id=7, game=game, guild_id=1, channel_id=2, thread_id=None, message_id=None, status=Status.FINISHED,
        options=options, state=state, version=3, seed="seed-1", host_id=5, rated=True, turn_limit=86400,
        deadline=None, clocks=None, outcome=outcome.dump() if outcome else None,
        ui={"start_seats": len(seats)}, created_at=1_700_000_000.0, updated_at=0.0, finished_at=None,
        seats=seats,
    )


def random_match(key: str, seed: int) -> tuple[MatchRecord, list[MoveRecord], list[Any]]:
    """A finished match of ``key`` played at random the way the platform plays it (random options and seat
    count, opening moves, chance outcomes logged with seat CHANCE), with every state along the way."""
    rng = random.Random(f"{key}:{seed}")
    game = GAMES[key]
    rules, spec = game.rules, game.spec
    n = rng.randint(spec.min_seats, min(spec.max_seats or 4, 4))
    options = {o.name: rng.choice(o.choices) for o in spec.options}
    options["first"] = rng.choice(["challenger", "opponent", "random"])
    seats = [SeatRecord(i, 100 + i, NAMES[i]) for i in range(n)]
    if key == "eof":  # the lobby's colour choices feed the engine's options (setup_options)
        for s in seats:
            s.data["colour"] = rng.choice(["red", "yellow", "green", "blue", "nope"])
    rec = match_record(key, seats, options, None)
    opts, start = records.start_options(rec)
    state = rules.initial(opts, start)
    states = [state]
    log: list[MoveRecord] = []

    def play(seat: int, move: Any) -> None:
        nonlocal state
        log.append(MoveRecord(len(log), seat, None, rules.format(move, state), 0.0))
        state, _ = rules.apply(state, seat, move)
        states.append(state)

    opening = getattr(game.module, "opening_moves", None)
    for seat, text in opening(seats) if opening else ():
        play(seat, rules.parse(text, state, seat))
    while rules.outcome(state) is None and len(log) < MAX_PLIES:
        who = rules.to_act(state)
        if isinstance(who, Chance):
            play(CHANCE, rng.choice(who.outcomes))
            continue
        assert who, f"{key}: nobody to act in a running game"
        seat = rng.choice(sorted(who))
        play(seat, rng.choice(rules.legal_moves(state, seat)))
    outcome = rules.outcome(state) or Outcome.forfeit(0, n, Reason.RESIGNATION)
    rec.outcome = outcome.dump()
    return rec, log, states


@pytest.mark.parametrize("key", sorted(GAMES.builtin()))
def test_export_then_import_gives_the_same_positions_over_random_games(key):
    rules = GAMES[key].rules
    chance_seen = 0
    for seed in range(GAMES_PER_KIND):
        rec, log, states = random_match(key, seed)
        record = from_match(rec, log, parlor="1.2.3")
        assert not record.notes  # the current engine replays its own log
        text = dumps(record)
        assert len(text.encode()) <= MAX_BYTES
        back = loads(text.encode())
        assert back == record and dumps(back) == text  # the text round-trips exactly
        replayed = [s for s, _ in positions(back)]
        assert len(replayed) == len(states)
        differ = [i for i, (a, b) in enumerate(zip(replayed, states, strict=True)) if a != b]
        assert not differ, f"{key} seed {seed}: positions differ from move {differ[0]} on"
        end = replay(back)
        assert end.plies == len(log) and rules.dump(end.state) == rules.dump(states[-1])
        assert end.outcome == (rules.outcome(states[-1]) or Outcome.load(rec.outcome))
        chance_seen += sum(mv.seat == CHANCE for mv in back.moves)
    if key in ("eof", "nomic"):
        assert chance_seen > 0  # chance outcomes were in those records and replayed


def test_the_header_names_players_options_result_and_versions():
    rec, log, _ = random_match("pylon", 1)
    text = dumps(from_match(rec, log, parlor="1.2.3"))
    head = text.split("\n\n")[0].splitlines()
    assert head[:3] == ['[Format "1"]', '[Game "Pylon"]', r'[Players "alice" "Bob \"the\" Builder"]']
    assert '[Date "2023.11.14"]' in head and '[Seed "seed-1"]' in head and '[Engine "pylon/1"]' in head
    assert '[Parlor "1.2.3"]' in head and '[Match "7"]' in head
    assert any(line.startswith('[Platform "first=') and '"turn_limit=86400"' in line for line in head)
    body = text.split("\n\n")[1].splitlines()
    assert body[0] == f"1. P1 {log[0].notation}" and body[1] == f"2. P2 {log[1].notation}"


def test_chance_outcomes_are_marked_with_a_star():
    rec, log, _ = random_match("eof", 3)
    text = dumps(from_match(rec, log))
    chance = [line for line in text.splitlines() if line.split(" ")[1:2] == ["*"]]
    assert chance and len(chance) == sum(m.seat == CHANCE for m in log)


def test_a_log_written_in_an_older_notation_exports_in_todays():
    """Records come from the log through the engine: a stored variant (``Lc3``, ``3c3``) is written the way
    the engine writes moves now, and replays the same."""
    seats = [SeatRecord(0, 1, "a"), SeatRecord(1, 2, "b")]
    rec = match_record("pylon", seats, {"first": "challenger"}, None, state={"v": 0, "garbage": True})
    log = [MoveRecord(0, 0, 1, "Lc3", 0.0), MoveRecord(1, 1, 2, "1 a1", 0.0)]
    record = from_match(rec, log)
    assert [m.notation for m in record.moves] == ["L c3", "S a1"] and record.result == "*"
    assert replay(loads(dumps(record))).plies == 2


def test_a_log_the_engine_no_longer_accepts_still_exports_with_a_note():
    seats = [SeatRecord(0, 1, "a"), SeatRecord(1, 2, "b")]
    rec = match_record("pylon", seats, {}, None)
    log = [MoveRecord(i, i % 2, 1, text, 0.0) for i, text in enumerate(["L c3", "Q z9", "S a1"])]
    record = from_match(rec, log)
    assert [m.notation for m in record.moves] == ["L c3", "Q z9", "S a1"]
    assert record.notes and record.notes[0].startswith("move 2 no longer replays")
    with pytest.raises(RecordError, match=r"^Move 2 \(`P2 Q z9`\)"):
        replay(loads(dumps(record)))


def pylon_text(*moves: str, **headers: str) -> str:
    head = {"Format": "1", "Game": "Pylon", "Players": 'alice" "bob', "Result": "*"} | headers
    lines = [f'[{k} "{v}"]' for k, v in head.items() if v is not None]
    return "\n".join([*lines, "", *moves]) + "\n"


@pytest.mark.parametrize(("text", "expected"), [
    (pylon_text("1. P1 L c3", "2. P2 L c3"), r"^Move 2 \(`P2 L c3`\) is not legal: .+"),
    (pylon_text("1. P1 L c3", "2. P1 S a1"), r"^Move 2 \(`P1 S a1`\)( is not legal: .*|: it is not P1's )turn"),  # noqa: E501
    (pylon_text("1. P1 L c3", "2. * 4"), r"^Move 2 \(`chance 4`\): no chance outcome is due here"),
    (pylon_text("1. P1 L c3", "3. P2 S a1"), r"^Line 7: expected move 2, found move 3\.$"),
    (pylon_text("1. P3 L c3"), r"^Move 1: P3 is not one of the 2 players\.$"),
    (pylon_text("1. P1 L c3", "oops"), r"^Line 7: not a move line"),
    (pylon_text("1. P1 L c3", Game="Chess"), r"^Line 2: `\[Game\]` names no game I know: `Chess`"),
    (pylon_text(Format="2"), r"^Line 1: record format `2` is not one I read"),
    (pylon_text(Format=None), r"^The header `\[Format \"…\"\]` is missing\.$"),
    (pylon_text(Result="1-2-3"), r"^Line 4: `\[Result\]` wants each player's place"),
    (pylon_text(Options="size=99"), r"^`\[Options\]`: "),
    ("[Format \"1\"\n", r"^Line 1: not a header line"),
])
def test_bad_records_say_exactly_what_is_wrong(text, expected):
    with pytest.raises(RecordError, match=expected):
        replay(loads(text.encode()))


def test_a_record_of_the_wrong_size_or_encoding_is_refused():
    with pytest.raises(RecordError, match=r"too large: 300 KB \(at most 256 KB\)"):
        loads(b"x" * 300 * 1024)
    with pytest.raises(RecordError, match=r"not UTF-8 text \(byte 3 is not\)"):
        loads(b"[F\xff")


def test_a_move_after_the_end_is_refused():
    rec, log, _ = random_match("fireandice", 4)
    text = dumps(from_match(rec, log))
    text += f"{len(log) + 1}. P1 D4-E4\n"
    with pytest.raises(RecordError, match=rf"^Move {len(log) + 1} .*already over after move {len(log)}\.$"):
        replay(loads(text))


def test_a_different_engine_version_is_named_in_a_refusal():
    text = pylon_text("1. P1 L c3", "2. P2 L c3", Engine="pylon/0")
    with pytest.raises(RecordError, match=r"made with engine pylon/0, this Parlor runs pylon/1\)$"):
        replay(loads(text))


def test_every_example_in_the_docs_imports():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "record-format.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in doc.split("```\n[Format")[1:]]
    assert len(blocks) == len(GAMES.builtin())
    seen = set()
    for block in blocks:
        done = replay(loads("[Format" + block))
        seen.add(done.record.game)
        assert done.plies == len(done.record.moves) and done.outcome is not None
    assert seen == set(GAMES.builtin())
