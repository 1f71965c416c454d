"""Nomic World's state: the world, the rulebook, and their JSON form.

Everything is a frozen dataclass of tuples, so a state is hashable and two
states compare equal exactly when they are the same position. The helpers
here derive what the rules need from it: the settings in force (from the
effects of the rules in effect, the lowest number winning, rule 113), the
round's turn order and the Judge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.base import JSON, Reason, Seat
from bot.games.nomic.initial_set import INITIAL_EFFECTS, INITIAL_SET
from bot.games.nomic.moves import (
    ACTIONS,
    MAX_NAME,
    MAX_QUESTION,
    MAX_TEXT,
    RESOURCES,
    Effect,
    Point,
    effect_problem,
)
from bot.i18n import N_, _

ORIGIN: Point = (0, 0)

# Game status.
LOBBY, RUNNING, OVER = "lobby", "running", "over"
# Player status: playing, joined during a round (plays from the next one), gone.
ACTIVE, PENDING, LEFT = "active", "pending", "left"
# Phases of a running game. ROLL and REVEAL are chance nodes.
ROLL, MOVE, REVEAL, PROPOSE, VOTE = "roll", "move", "reveal", "propose", "vote"
PHASES = (ROLL, MOVE, REVEAL, PROPOSE, VOTE)
# Kinds of numbered entries in the rulebook (plus the three ACTIONS).
INITIAL, JUDGMENT = "initial", "judgment"
RULE_KINDS = (INITIAL, "enact", JUDGMENT)
RECORD_KINDS = (INITIAL, JUDGMENT, *ACTIONS)
# Status of a numbered entry.
OPEN = "open"              # a proposal being voted on
REJECTED = "rejected"      # a proposal that failed
ADOPTED = "adopted"        # adopted, takes effect at the beginning of the next turn
IN_EFFECT = "in effect"    # a rule in effect  # not translated: a status (state)
REPEALED = "repealed"      # a rule no longer in effect
APPLIED = "applied"        # an adopted repeal or amendment that has taken effect
STATUSES = (OPEN, REJECTED, ADOPTED, IN_EFFECT, REPEALED, APPLIED)
WAS_ADOPTED = (ADOPTED, IN_EFFECT, REPEALED, APPLIED)
FIRST_NUMBER = 201

DEFAULTS: dict[str, Effect] = {e.kind: e for e in INITIAL_EFFECTS.values()}
"""The setting of each kind when no rule in effect carries one (the Initial Set's)."""
SETTING_KINDS = ("die", "votes", "order", "phases")


@dataclass(frozen=True)
class Player:
    """One seat: the Discord user, the name turn order sorts by, and where they are.

    ``pos`` is ``None`` while the player is in movement (rule 107).
    """

    user_id: int
    name: str
    status: str = ACTIVE
    pos: Point | None = ORIGIN


@dataclass(frozen=True)
class Note:
    """One line of a rule's history: when (round, turn of the round), what, who, which entry."""

    round: int
    turn: int
    what: str
    seat: Seat | None = None
    ref: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Record:
    """One numbered entry of the rulebook: an Initial Set rule, a proposal or a judgment.

    An adopted enactment is a rule under its proposal's number; an adopted
    repeal or amendment changes its ``target`` and stays in the book as a
    record. ``voters`` are the players entitled to vote on a proposal.
    """

    number: int
    kind: str
    text: str
    status: str
    title: str = ""
    effect: Effect | None = None
    target: int | None = None
    proposer: Seat | None = None
    voters: tuple[Seat, ...] = ()
    votes: tuple[tuple[Seat, bool], ...] = ()
    history: tuple[Note, ...] = ()

    @property
    def is_rule(self) -> bool:
        """An Initial Set rule, an adopted enactment or a judgment."""
        return self.kind in RULE_KINDS and self.status in (ADOPTED, IN_EFFECT, REPEALED)


@dataclass(frozen=True)
class Question:
    """An invoked Judgment waiting for the Judge's ruling."""

    asker: Seat
    judge: Seat
    text: str


@dataclass(frozen=True)
class State:
    """A whole Nomic World game.

    ``seats`` is how many players the platform joins before ``start``;
    ``done`` the players who have had their turn this round; ``path`` the
    spaces of the last movement (start first) by ``path_seat``.
    """

    seats: int
    status: str
    players: tuple[Player, ...]
    records: tuple[Record, ...]
    effect_order: tuple[int, ...]
    round: int = 0
    done: tuple[Seat, ...] = ()
    current: Seat | None = None
    phase: str = ""
    roll: int | None = None
    revealed: tuple[tuple[Point, str], ...] = ()
    path_seat: Seat | None = None
    path: tuple[Point, ...] = ()
    question: Question | None = None
    end_reason: str = ""
    end_detail: str = ""


def initial_state(seats: int) -> State:
    """The lobby: the Initial Set in effect, nobody joined yet."""
    records = tuple(
        Record(r.number, INITIAL, r.text, IN_EFFECT, title=r.title, effect=INITIAL_EFFECTS.get(r.number),
               history=(Note(0, 0, "initial"),))
        for r in INITIAL_SET)
    return State(seats=seats, status=LOBBY, players=(), records=records,
                 effect_order=tuple(r.number for r in records))


# ---------------------------------------------------------------- lookups

def index_of(s: State, number: int) -> int | None:
    """The position of entry ``number`` in ``s.records``, or ``None``."""
    first = len(INITIAL_SET)
    if INITIAL_SET[0].number <= number < INITIAL_SET[0].number + first:
        return number - INITIAL_SET[0].number
    i = first + number - FIRST_NUMBER
    return i if first <= i < len(s.records) else None


def record(s: State, number: int) -> Record | None:
    """Entry ``number`` of the rulebook, or ``None``."""
    i = index_of(s, number)
    return None if i is None else s.records[i]


def next_number(s: State) -> int:
    """The number the next proposal or judgment gets (201, 202, ...)."""
    return FIRST_NUMBER + len(s.records) - len(INITIAL_SET)


def open_proposal(s: State) -> Record | None:
    """The proposal being voted on, if any."""
    if s.phase != VOTE:
        return None
    for r in reversed(s.records):
        if r.status == OPEN:
            return r
    return None


def seats_with(s: State, *statuses: str) -> tuple[Seat, ...]:
    """The seats whose player status is one of ``statuses``."""
    return tuple(i for i, p in enumerate(s.players) if p.status in statuses)


def name(s: State, seat: Seat | None) -> str:
    """A seat's display name (or a neutral word for no seat, in the current language)."""
    if seat is None or not 0 <= seat < len(s.players):
        return _("nobody") if seat is None else _("seat {seat}", seat=seat)
    return s.players[seat].name


STATUS_WORDS: dict[str, str] = {OPEN: N_("being voted on"), REJECTED: N_("rejected"),
                                ADOPTED: N_("adopted, takes effect next turn"), IN_EFFECT: N_("in effect"),
                                REPEALED: N_("repealed"), APPLIED: N_("adopted and applied")}
"""A rulebook entry's status as a player reads it."""


def status_word(status: str) -> str:
    """A rulebook entry's status in the current language."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def known_numbers(last: int) -> str:
    """The numbers the rulebook has so far (``101-115 and 201-204``), in the current language."""
    if last >= 201:
        return _("{initial} and {first}-{last}", initial="101-115", first=201, last=last)
    return "101-115"


@dataclass(frozen=True)
class Settings:
    """What the bot enforces now, and which rule says so (``None``: the built-in default)."""

    die: int
    votes: str
    order: str
    phases: str
    sources: tuple[tuple[str, int | None], ...]

    def source(self, kind: str) -> int | None:
        return dict(self.sources)[kind]


def setting_holder(s: State, kind: str) -> Record | None:
    """The lowest-numbered rule in effect whose effect is of ``kind`` (rule 113)."""
    for r in s.records:
        if r.status == IN_EFFECT and r.effect is not None and r.effect.kind == kind:
            return r
    return None


def settings(s: State) -> Settings:
    """The settings in force: each from the lowest-numbered rule in effect carrying it."""
    found: dict[str, Record] = {}
    for r in s.records:
        if r.status == IN_EFFECT and r.effect is not None and r.effect.kind not in found:
            found[r.effect.kind] = r
    effects = {k: found[k].effect if k in found else DEFAULTS[k] for k in SETTING_KINDS}
    value = {k: e.value for k, e in effects.items() if e is not None}
    die = value["die"]
    if die is None:  # every setting kind has a default with a value
        raise ValueError("the die setting has no value")
    return Settings(die=int(die), votes=str(value["votes"]), order=str(value["order"]),
                    phases=str(value["phases"]),
                    sources=tuple((k, found[k].number if k in found else None) for k in SETTING_KINDS))


def sort_turns(s: State, seats: tuple[Seat, ...] | list[Seat], order: str) -> tuple[Seat, ...]:
    """``seats`` in turn order: alphabetical by name (case-insensitive, then user id), join, or reverse."""
    if order == "join":
        return tuple(sorted(seats))

    def key(i: Seat) -> tuple[str, int]:
        return (s.players[i].name.casefold(), s.players[i].user_id)
    return tuple(sorted(seats, key=key, reverse=order == "reverse"))


def round_order(s: State) -> tuple[Seat, ...]:
    """This round's turn order: who has played (as they did), the current player, then the rest."""
    if s.status != RUNNING:
        return ()
    active = seats_with(s, ACTIVE)
    played = tuple(i for i in s.done if i in active)
    now = (s.current,) if s.current is not None and s.current in active else ()
    rest = [i for i in active if i not in played and i not in now]
    return played + now + sort_turns(s, rest, settings(s).order)


def judge_of(s: State) -> Seat | None:
    """The Judge (rule 114): the player preceding the current one in turn order (the last for the first)."""
    if s.current is None:
        return None
    order = round_order(s)
    if s.current not in order:
        return None
    return order[order.index(s.current) - 1]


def now(s: State) -> tuple[int, int]:
    """(round, turn of the round) for history notes."""
    return (s.round, len(s.done) + 1 if s.status == RUNNING else 0)


# ---------------------------------------------------------------- JSON

def dump_state(s: State) -> dict[str, JSON]:
    """Plain JSON of a state (``"v": 1``)."""
    return {
        "v": 1,
        "seats": s.seats,
        "status": s.status,
        "players": [{"id": p.user_id, "name": p.name, "status": p.status,
                     "pos": list(p.pos) if p.pos is not None else None} for p in s.players],
        "rules": [{"number": r.number, "kind": r.kind, "title": r.title, "text": r.text, "status": r.status,
                   "effect": r.effect.to_json() if r.effect else None, "target": r.target,
                   "proposer": r.proposer,
                   "voters": list(r.voters), "votes": [[v, y] for v, y in r.votes],
                   "history": [[n.round, n.turn, n.what, n.seat, n.ref, n.text] for n in r.history]}
                  for r in s.records],
        "effect_order": list(s.effect_order),
        "round": s.round,
        "done": list(s.done),
        "current": s.current,
        "phase": s.phase,
        "roll": s.roll,
        "revealed": [[x, y, res] for (x, y), res in s.revealed],
        "path_seat": s.path_seat,
        "path": [list(p) for p in s.path],
        "question": None if s.question is None else {"asker": s.question.asker, "judge": s.question.judge,
                                                     "text": s.question.text},
        "end": {"reason": s.end_reason, "detail": s.end_detail} if s.status == OVER else None,
    }


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"Invalid Nomic World state: {what}.")


def _bad(what: str) -> ValueError:
    return ValueError(f"Invalid Nomic World state: {what}.")


# The readers below build their messages only on failure: a load reads thousands of fields.

def _int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if type(v) is not int:
        raise _bad(f"{what} must be an integer")  # not translated: log
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise _bad(f"{what} is out of range ({v})")  # not translated: log
    return v


def _opt_int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int | None:
    return None if v is None else _int(v, what, lo, hi)


def _str(v: Any, what: str, choices: tuple[str, ...] | None = None, limit: int = MAX_TEXT) -> str:
    if not isinstance(v, str):
        raise _bad(f"{what} must be a string")  # not translated: log
    if choices is not None and v not in choices:
        raise _bad(f"{what} {v!r} is not one of {choices}")  # not translated: log
    if len(v) > limit:
        raise _bad(f"{what} is longer than {limit} characters")  # not translated: log
    return v


def _list(v: Any, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list")  # not translated: log
    return v


def _point(v: Any, what: str) -> Point:
    if not (isinstance(v, list) and len(v) == 2):
        raise _bad(f"{what} must be [x, y]")  # not translated: log
    return (_int(v[0], what), _int(v[1], what))


NOTE_KINDS = ("initial", "proposed", "adopted", "rejected",
              "took effect",  # not translated: a note's kind (state)
              "amended", "repealed", "asked", "ruled")


def _note(h: Any, seat_hi: int) -> Note:
    """One history line ``[round, turn, what, seat, ref, text]`` (checked in one go: there are many)."""
    if (isinstance(h, list) and len(h) == 6 and type(h[0]) is int and h[0] >= 0 and type(h[1]) is int
            and h[1] >= 0 and h[2] in NOTE_KINDS
            and (h[3] is None or (type(h[3]) is int and 0 <= h[3] <= seat_hi))
            and (h[4] is None or type(h[4]) is int) and isinstance(h[5], str) and len(h[5]) <= MAX_TEXT):
        return Note(h[0], h[1], h[2], h[3], h[4], h[5])
    raise ValueError(f"Invalid Nomic World state: malformed history line {str(h)[:80]}")


def _effect(v: Any, what: str) -> Effect | None:
    if v is None:
        return None
    _need(isinstance(v, dict) and "kind" in v and set(v) <= {"kind", "value"},
          f"{what} must be {{kind, value}}")  # not translated: log
    problem = effect_problem(v["kind"], v.get("value"))
    _need(not problem, f"{what}: {problem}")
    return Effect(v["kind"], v.get("value"))


def _record(r: dict[str, Any], seat_hi: int) -> Record:
    """One rulebook entry from JSON (field names only in messages: the caller adds which entry)."""
    votes = []
    for v in _list(r.get("votes"), "votes"):
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[1], bool)):
            raise _bad("votes are [seat, yes]")  # not translated: log
        votes.append((_int(v[0], "vote seat", 0, seat_hi), v[1]))  # not translated: log
    return Record(
        number=_int(r.get("number"), "number"), kind=_str(r.get("kind"), "kind", RECORD_KINDS),
        text=_str(r.get("text"), "text"), status=_str(r.get("status"), "status", STATUSES),
        title=_str(r.get("title"), "title", limit=80), effect=_effect(r.get("effect"), "effect"),
        target=_opt_int(r.get("target"), "target"),
        proposer=_opt_int(r.get("proposer"), "proposer", 0, seat_hi),
        voters=tuple(_int(v, "voter", 0, seat_hi) for v in _list(r.get("voters"), "voters")),
        votes=tuple(votes), history=tuple(_note(h, seat_hi) for h in _list(r.get("history"), "history")))


def load_state(d: Mapping[str, JSON]) -> State:
    """A state from :func:`dump_state`'s JSON, checked for consistency.

    Raises:
        ValueError: the JSON is not a valid Nomic World state (the message says what is wrong).
    """
    _need(isinstance(d, Mapping), "expected a JSON object")  # not translated: log
    _need(d.get("v") == 1, f"unknown schema version {d.get('v')!r}")  # not translated: log
    n_players = len(_list(d.get("players"), "players"))
    seat_hi = n_players - 1
    players = []
    for i, p in enumerate(d["players"]):
        _need(isinstance(p, dict), f"player {i} must be an object")  # not translated: log
        pos = p.get("pos")
        players.append(Player(_int(p.get("id"), f"player {i} id", 1, 2**64 - 1),
                              _str(p.get("name"), f"player {i} name", limit=MAX_NAME),
                              _str(p.get("status"), f"player {i} status", (ACTIVE, PENDING, LEFT)),
                              None if pos is None else _point(pos, f"player {i} pos")))
    records = []
    for i, r in enumerate(_list(d.get("rules"), "rules")):
        _need(isinstance(r, dict), f"rule entry {i} must be an object")  # not translated: log
        if i < len(_PRISTINE) and r == _PRISTINE_JSON[i]:
            records.append(_PRISTINE[i])  # an Initial Set rule never touched: skip the field checks
            continue
        try:
            records.append(_record(r, seat_hi))
        except ValueError as exc:
            raise ValueError(f"{exc} (rule entry {i}, number {r.get('number')!r})") from None
    q = d.get("question")
    question = None
    if q is not None:
        _need(isinstance(q, dict), "question must be an object or null")  # not translated: log
        question = Question(_int(q.get("asker"), "question asker", 0, seat_hi),  # not translated: log
                            _int(q.get("judge"), "question judge", 0, seat_hi),  # not translated: log
                            _str(q.get("text"), "question text", limit=MAX_QUESTION))  # not translated: log
    end = d.get("end")
    _need(end is None or isinstance(end, dict), "end must be an object or null")  # not translated: log
    revealed = []
    for v in _list(d.get("revealed"), "revealed"):
        _need(isinstance(v, list) and len(v) == 3,
              "revealed spaces are [x, y, resource]")  # not translated: log
        revealed.append(((_int(v[0], "revealed x"), _int(v[1], "revealed y")),
                         _str(v[2], "revealed resource", RESOURCES)))  # not translated: log
    s = State(
        seats=_int(d.get("seats"), "seats", 0),
        status=_str(d.get("status"), "status", (LOBBY, RUNNING, OVER)),
        players=tuple(players),
        records=tuple(records),
        effect_order=tuple(_int(n, "effect_order entry")  # not translated: log
                           for n in _list(d.get("effect_order"), "effect_order")),
        round=_int(d.get("round"), "round", 0),
        done=tuple(_int(i, "done seat", 0, seat_hi)  # not translated: log
                   for i in _list(d.get("done"), "done")),
        current=_opt_int(d.get("current"), "current", 0, seat_hi),
        phase=_str(d.get("phase"), "phase", ("", *PHASES)),
        roll=_opt_int(d.get("roll"), "roll", 1, 20),
        revealed=tuple(revealed),
        path_seat=_opt_int(d.get("path_seat"), "path_seat", 0, seat_hi),
        path=tuple(_point(p, "path space") for p in _list(d.get("path"), "path")),  # not translated: log
        question=question,
        end_reason=_str(end.get("reason"), "end reason",  # not translated: log
                        tuple(r.value for r in Reason)) if end else "",
        end_detail=_str(end.get("detail"), "end detail", limit=300) if end else "",  # not translated: log
    )
    _check_consistency(s)
    return s


def _record_problem(s: State, r: Record) -> str:
    """What is wrong with one rulebook entry in ``s``, or ``""``."""
    if (r.kind == INITIAL) != (r.number < FIRST_NUMBER):
        return "has a kind that does not fit its number"  # not translated: log
    if r.kind in ("repeal", "amend"):
        if r.target is None or r.target >= r.number or record(s, r.target) is None:
            return "must target an earlier rule"  # not translated: log
        if r.status not in (OPEN, REJECTED, ADOPTED, APPLIED):
            return f"has a status ({r.status}) that does not fit a {r.kind}"  # not translated: log
    elif r.target is not None:
        return "has a target but is not a repeal or amendment"  # not translated: log
    if r.kind in (JUDGMENT, INITIAL) and r.status not in (IN_EFFECT, REPEALED):
        return "took effect at once, so it is in effect or repealed"  # not translated: log
    if r.kind == "enact" and r.status == APPLIED:
        return "is an enactment and cannot be 'applied'"  # not translated: log
    if r.kind in ACTIONS and r.proposer is None:
        return "has no proposer"  # not translated: log
    return ""


def _check_consistency(s: State) -> None:
    """The cross-field invariants every reachable state keeps."""
    base = INITIAL_SET[0].number
    expect = [base + i for i in range(len(INITIAL_SET))]
    expect += [FIRST_NUMBER + i for i in range(len(s.records) - len(INITIAL_SET))]
    _need([r.number for r in s.records] == expect,
          "rule numbers must run 101-115, then 201, 202, ... without gaps")  # not translated: log
    ids = [p.user_id for p in s.players]
    _need(len(set(ids)) == len(ids), "two seats have the same user id")  # not translated: log
    n_open = 0
    for r in s.records:
        problem = _record_problem(s, r)
        if problem:
            raise _bad(f"rule {r.number} {problem}")
        n_open += r.status == OPEN
    in_effect = [r.number for r in s.records if r.status == IN_EFFECT]
    _need(sorted(s.effect_order) == in_effect and len(set(s.effect_order)) == len(s.effect_order),
          "effect_order must list exactly the rules in effect")  # not translated: log
    points = [p for p, _res in s.revealed]
    _need(points == sorted(set(points)) and ORIGIN not in points,
          "revealed spaces must be sorted, distinct and not the origin")  # not translated: log
    moving = [i for i, p in enumerate(s.players) if p.pos is None]
    if s.status == LOBBY:
        _need(s.round == 0 and s.current is None and not s.phase and not s.done and s.question is None,
              "a lobby has no round, turn or question")  # not translated: log
        _need(all(p.status != PENDING for p in s.players),
              "nobody waits for a round in the lobby")  # not translated: log
    if s.status == RUNNING:
        _need(s.round >= 1 and s.current is not None and s.phase != "",
              "a running game has a round, turn and phase")  # not translated: log
        assert s.current is not None
        _need(s.players[s.current].status == ACTIVE,
              "the current player must be active")  # not translated: log
        _need(s.current not in s.done, "the current player has not had their turn yet")  # not translated: log
        _need(len(set(s.done)) == len(s.done), "a player plays once per round")  # not translated: log
        _need(s.phase != ROLL or s.roll is None,
              "the die is not rolled yet in the roll phase")  # not translated: log
        _need(s.phase not in (MOVE, REVEAL) or s.roll is not None,
              "a movement needs a roll")  # not translated: log
        _need(n_open == (s.phase == VOTE),
              "an open proposal exists exactly during the vote")  # not translated: log
        if s.phase == VOTE:
            op = open_proposal(s)
            _need(op is not None and op.proposer == s.current,
                  "the open proposal is the current player's")  # not translated: log
        _need(moving == ([s.current] if s.phase == REVEAL else []),
              "only the player being revealed is in movement")  # not translated: log
        if s.phase == REVEAL:
            _need(s.path_seat == s.current and bool(s.path) and s.path[-1] != ORIGIN
                  and s.path[-1] not in points,
                  "a reveal needs an unknown destination")  # not translated: log
    else:
        _need(n_open == 0 and not moving,
              "no proposal is open and nobody moves outside a running game")  # not translated: log
    if s.status == OVER:
        _need(s.current is None and s.question is None and s.end_reason != "",
              "a finished game has a reason")  # not translated: log
    if s.question is not None:
        _need(s.status == RUNNING, "a question needs a running game")  # not translated: log
    _need((s.path_seat is None) == (not s.path), "a path has a mover")  # not translated: log
    for a, b in zip(s.path, s.path[1:], strict=False):
        _need(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1, "path spaces must be adjacent")  # not translated: log


_PRISTINE: tuple[Record, ...] = initial_state(0).records
_PRISTINE_JSON: list[dict[str, JSON]] = dump_state(initial_state(0))["rules"]
