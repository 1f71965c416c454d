"""Match records: a finished game as a text file (like PGN), and back through the engine.

A record is header lines, then one line per move of the stored log (``docs/record-format.md``)::

    [Format "1"]
    [Game "Pylon"]
    [Players "alice" "bob"]
    [Result "2-1"]
    1. P1 L c3
    2. P2 S a1
    ...

:func:`from_match` builds one from a match's stored record and move log: the log is replayed through the
engine from the options it started with, so every move is written in the engine's canonical notation (a
stored state is never read: a match whose state schema changed since still exports). :func:`dumps` writes
it, :func:`loads` reads it back (syntax only), :func:`replay` plays it through the engine of the game it
names and returns the final position, refusing the first move that is not legal with the engine's reason.
Everything here is pure: no Discord, no storage, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.errors import ParlorError
from bot.games import GAMES, Game
from bot.games.base import CHANCE, Chance, Event, Outcome, Reason, Rules
from bot.i18n import _, ngettext
from bot.matches.match import PLATFORM_OPTIONS, engine_options
from bot.storage import MatchRecord, MoveRecord

FORMAT = "1"
"""The record format written here; :func:`loads` refuses a newer one (``[Format "2"]``)."""
MAX_BYTES = 256 * 1024
"""The largest record :func:`loads` reads (and ``/<game> import`` downloads)."""
MAX_PLAYERS = 64
MAX_NAME = 100
SHOWN = 60
"""How much of a move or a value an error message quotes."""

HEADER_RE = re.compile(r"\[(?P<key>[A-Za-z][A-Za-z0-9_]{0,31})(?P<values>(?:\s+\"(?:[^\"\\]|\\.)*\")*)\s*\]")
VALUE_RE = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")
MOVE_RE = re.compile(r"(?P<n>[0-9]{1,9})\.\s+(?P<who>\*|P[0-9]{1,3})\s+(?P<text>\S.*)")
ESCAPES = {"\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
UNESCAPES = {"\\": "\\", "\"": "\"", "n": "\n", "r": "\r", "t": "\t"}


class RecordError(ParlorError):
    """The record cannot be read or replayed; ``str()`` says exactly what and where."""


@dataclass(frozen=True)
class RecordMove:
    """One line of the move text: who (a seat, or :data:`CHANCE` for a chance outcome) and what."""

    seat: int
    notation: str


@dataclass(frozen=True)
class Record:
    """A game record: the headers as fields and the moves in order.

    ``options`` are the engine's options exactly as the game started with them (the platform's set-up
    included, e.g. EOF colours); ``platform`` the platform's own settings (who went first, turn limit,
    clock), written for information and not needed to replay. ``seats`` is how many seats the game
    started with (Nomic World players may join later: ``players`` then has more names).
    """

    game: str
    players: tuple[str, ...]
    moves: tuple[RecordMove, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    platform: Mapping[str, str] = field(default_factory=dict)
    seats: int = 0
    result: str = "*"
    termination: str = ""
    scores: tuple[int, ...] | None = None
    detail: str = ""
    date: str = ""
    seed: str = ""
    match: str = ""
    engine: str = ""
    parlor: str = ""
    notes: tuple[str, ...] = ()
    format: str = FORMAT

    @property
    def start_seats(self) -> int:
        return self.seats or len(self.players)

    def outcome(self) -> Outcome | None:
        """The result the record states (``None`` for ``*``)."""
        if self.result == "*":
            return None
        ranks = tuple(int(p) - 1 for p in self.result.split("-"))
        reason = Reason(self.termination) if self.termination else Reason.NORMAL
        return Outcome(ranks, reason, self.scores, self.detail)


@dataclass(frozen=True)
class Replayed:
    """A record played through its engine: the final state, the events of the last turn (a move and the
    chance outcomes after it, as a board after that move shows them), how many moves were played, and the
    outcome (the engine's when the rules ended the game, else the record's: a resignation, a timeout)."""

    record: Record
    game: Game
    state: Any
    events: tuple[Event, ...]
    plies: int
    outcome: Outcome | None
    ended_by_rules: bool


# -- writing --------------------------------------------------------------------------------------------


def engine_version(rules: Rules[Any, Any], options: Mapping[str, str], seats: int) -> str:
    """``<game>/<state schema>``: the ``"v"`` of the engine's JSON (``pylon/1``)."""
    try:
        v = rules.dump(rules.initial(dict(options), seats)).get("v", "?")
    except ValueError:
        v = "?"
    return f"{rules.spec.key}/{v}"


def start_options(rec: MatchRecord) -> tuple[dict[str, str], int]:
    """The engine options a match started with (after the game's set-up hook) and its starting seats."""
    game = GAMES[rec.game]
    seats = int(rec.ui.get("start_seats", len(rec.seats)))
    opts = engine_options(rec.options)
    setup = getattr(game.module, "setup_options", None)
    if setup is not None:
        opts = setup(opts, rec.seats[:seats])
    return opts, seats


def from_match(rec: MatchRecord, moves: Sequence[MoveRecord], *, parlor: str = "") -> Record:
    """The record of a stored match: its seats' names, options, seed, result and move log.

    The log is replayed from the starting options; each move is written as the engine formats it now. A
    move the engine no longer accepts (an engine changed since the match was played) and every move after
    it are written as stored, and a ``Note`` header says where the replay stopped."""
    game = GAMES[rec.game]
    rules = game.rules
    opts, seats = start_options(rec)
    out: list[RecordMove] = []
    notes: list[str] = []
    state: Any = None
    try:
        state = rules.initial(dict(opts), seats)
    except ValueError as exc:
        notes.append(f"the options no longer start a game: {exc}")  # not translated: the file's Note
    for i, mv in enumerate(moves, 1):
        text = mv.notation
        if state is not None:
            try:
                move = rules.parse(text, state, mv.seat)
                text = rules.format(move, state)
                state, _events = rules.apply(state, mv.seat, move)
            except (ValueError, LookupError, TypeError) as exc:
                notes.append(f"move {i} no longer replays with this engine: {exc}")  # not translated: Note
                state = None
        out.append(RecordMove(mv.seat, text))
    platform = {k: v for k, v in sorted(rec.options.items()) if k in PLATFORM_OPTIONS}
    platform["turn_limit"] = str(rec.turn_limit)
    platform["rated"] = "yes" if rec.rated else "no"
    outcome = Outcome.load(rec.outcome) if rec.outcome else None
    return Record(
        game=rec.game,
        players=tuple(s.name for s in rec.seats),
        moves=tuple(out),
        options=dict(sorted(opts.items())),
        platform=platform,
        seats=seats,
        result=places(outcome) if outcome is not None else "*",
        termination=outcome.reason.value if outcome is not None else "",
        scores=outcome.scores if outcome is not None else None,
        detail=outcome.detail if outcome is not None else "",
        date=datetime.fromtimestamp(rec.created_at, UTC).strftime("%Y.%m.%d"),
        seed=rec.seed,
        match=str(rec.id),
        engine=engine_version(rules, opts, seats),
        parlor=parlor,
        notes=tuple(notes),
    )


def places(outcome: Outcome) -> str:
    """``1-2``: each seat's place (1 = first; a shared place is the same number)."""
    return "-".join(str(r + 1) for r in outcome.ranks)


def _quote(value: str) -> str:
    return "\"" + "".join(ESCAPES.get(c, c) for c in value) + "\""


def _escape_move(text: str) -> str:
    return "".join(ESCAPES[c] if c in "\\\n\r\t" else c for c in text)


def dumps(record: Record) -> str:
    """The record as text (UTF-8 when saved); :func:`loads` reads it back equal."""
    def header(key: str, *values: str) -> str:
        return f"[{key}" + "".join(" " + _quote(v) for v in values) + "]"

    lines = [header("Format", record.format), header("Game", GAMES[record.game].spec.title),
             header("Players", *record.players), header("Seats", str(record.start_seats)),
             header("Result", record.result)]
    if record.termination:
        lines.append(header("Termination", record.termination))
    if record.scores is not None:
        lines.append(header("Scores", *(str(x) for x in record.scores)))
    if record.detail:
        lines.append(header("Detail", record.detail))
    lines.append(header("Options", *(f"{k}={v}" for k, v in record.options.items())))
    lines.append(header("Platform", *(f"{k}={v}" for k, v in record.platform.items())))
    for key, value in (("Date", record.date), ("Seed", record.seed), ("Match", record.match),
                       ("Engine", record.engine), ("Parlor", record.parlor)):
        if value:
            lines.append(header(key, value))
    lines.extend(header("Note", note) for note in record.notes)
    lines.append("")
    for n, mv in enumerate(record.moves, 1):
        who = "*" if mv.seat == CHANCE else f"P{mv.seat + 1}"
        lines.append(f"{n}. {who} {_escape_move(mv.notation)}")
    return "\n".join(lines) + "\n"


# -- reading --------------------------------------------------------------------------------------------


def _short(text: str) -> str:
    text = text.replace("`", "'").replace("\n", " ")
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _unescape(text: str, where: str) -> str:
    out: list[str] = []
    chars = iter(text)
    for c in chars:
        if c != "\\":
            out.append(c)
            continue
        nxt = next(chars, "")
        if nxt not in UNESCAPES:
            raise RecordError(_("{where}: unknown escape `\\{escape}` (use \\\\, \\\", \\n, \\r or \\t).",
                                where=where, escape=_short(nxt)))
        out.append(UNESCAPES[nxt])
    return "".join(out)


def _game_key(title: str, line: int) -> Game:
    wanted = title.strip().lower()
    for key, game in GAMES.items():
        if wanted in (key, game.spec.title.lower()):
            return game
    raise RecordError(_("Line {line}: `[Game]` names no game I know: `{game}` (I know {games}).", line=line,
                        game=_short(title), games=", ".join(g.spec.title for g in GAMES.values())))


def _pairs(values: Sequence[str], key: str, line: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        name, eq, val = v.partition("=")
        if not eq or not name.strip():
            raise RecordError(_("Line {line}: `[{header}]` wants `name=value` pairs, not `{value}`.",
                                line=line, header=key, value=_short(v)))
        if name.strip() in out:
            raise RecordError(_("Line {line}: `[{header}]` gives `{name}` twice.", line=line, header=key,
                                name=_short(name)))
        out[name.strip()] = val.strip()
    return out


def _number(value: str, key: str, line: int) -> int:
    if not re.fullmatch(r"-?[0-9]{1,9}", value):
        raise RecordError(_("Line {line}: `[{header}]` wants a whole number, not `{value}`.", line=line,
                            header=key, value=_short(value)))
    return int(value)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r").strip()
        if line and not line.startswith(";"):
            yield i, line


def loads(data: bytes | str) -> Record:
    """Read a record (syntax and header values only; :func:`replay` checks the moves).

    Raises:
        RecordError: too large, not UTF-8 text, a malformed line, a missing or repeated header, an unknown
            game or format; the message names the line.
    """
    if len(data) > MAX_BYTES:
        raise RecordError(_("The record is too large: {size} KB (at most {most} KB).", size=len(data) // 1024,
                            most=MAX_BYTES // 1024))
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(_("The record is not UTF-8 text (byte {byte} is not).",
                                byte=exc.start + 1)) from None
    else:
        text = data
    headers: dict[str, tuple[int, list[str]]] = {}
    moves: list[RecordMove] = []
    for i, line in _lines(text):
        if line.startswith("["):
            if moves:
                raise RecordError(_("Line {line}: a header after the moves (headers come first).", line=i))
            m = HEADER_RE.fullmatch(line)
            if m is None:
                raise RecordError(_("Line {line}: not a header line `[Name \"value\"]`: `{text}`.", line=i,
                                    text=_short(line)))
            if m["key"] in headers and m["key"] != "Note":
                raise RecordError(_("Line {line}: the header `[{header}]` is there twice.", line=i,
                                    header=m["key"]))
            where = _("Line {line}", line=i)
            values = [_unescape(v, where) for v in VALUE_RE.findall(m["values"])]
            if m["key"] == "Note":
                headers.setdefault("Note", (i, []))[1].extend(values)
            else:
                headers[m["key"]] = (i, values)
            continue
        m = MOVE_RE.fullmatch(line)
        if m is None:
            raise RecordError(_("Line {line}: not a move line `<number>. P<seat> <move>` (or `*` for a "
                                "chance outcome): `{text}`.", line=i, text=_short(line)))
        if int(m["n"]) != len(moves) + 1:
            raise RecordError(_("Line {line}: expected move {expected}, found move {found}.", line=i,
                                expected=len(moves) + 1, found=m["n"]))
        seat = CHANCE if m["who"] == "*" else int(m["who"][1:]) - 1
        if seat < CHANCE:
            raise RecordError(_("Line {line}: move {number}: there is no player P0 (players are P1, P2, …).",
                                line=i, number=m["n"]))
        moves.append(RecordMove(seat, _unescape(m["text"], _("Line {line}", line=i))))

    def one(key: str, default: str | None = None) -> tuple[int, str]:
        if key not in headers:
            if default is None:
                raise RecordError(_("The header `[{header} \"…\"]` is missing.", header=key))
            return 0, default
        line, values = headers[key]
        if len(values) != 1:
            raise RecordError(_("Line {line}: `[{header}]` wants one value, not {count}.", line=line,
                                header=key, count=len(values)))
        return line, values[0]

    fline, fmt = one("Format")
    if fmt != FORMAT:
        raise RecordError(_("Line {line}: record format `{found}` is not one I read (I read format "
                            "{format}).", line=fline, found=_short(fmt), format=FORMAT))
    gline, title = one("Game")
    game = _game_key(title, gline)
    if "Players" not in headers:
        raise RecordError(_("The header `[Players \"name\" \"name\" …]` is missing."))
    pline, players = headers["Players"]
    if not 1 <= len(players) <= MAX_PLAYERS or any(not p.strip() or len(p) > MAX_NAME for p in players):
        raise RecordError(_("Line {line}: `[Players]` wants 1 to {most} names of 1 to {longest} characters.",
                            line=pline, most=MAX_PLAYERS, longest=MAX_NAME))
    sline, seats_text = one("Seats", str(len(players)))
    seats = _number(seats_text, "Seats", sline)
    spec = game.spec
    top = min(spec.max_seats or MAX_PLAYERS, len(players))
    if not spec.min_seats <= seats <= top:
        if spec.max_seats == spec.min_seats:
            raise RecordError(_("Line {line}: {game} starts with {least} players, and `[Players]` names "
                                "{named}; `[Seats \"{seats}\"]` does not fit.", line=sline, game=spec.title,
                                least=spec.min_seats, named=len(players), seats=seats))
        raise RecordError(_("Line {line}: {game} starts with {least} to {most} players, and `[Players]` "
                            "names {named}; `[Seats \"{seats}\"]` does not fit.", line=sline, game=spec.title,
                            least=spec.min_seats, most=spec.max_seats or MAX_PLAYERS, named=len(players),
                            seats=seats))
    for n, mv in enumerate(moves, 1):
        if mv.seat >= len(players):
            raise RecordError(ngettext("Move {number}: P{seat} is not one of the {n} player.",
                                       "Move {number}: P{seat} is not one of the {n} players.", len(players),
                                       number=n, seat=mv.seat + 1))
    rline, result = one("Result", "*")
    termination = one("Termination", "")[1]
    if termination and termination not in {r.value for r in Reason}:
        raise RecordError(_("`[Termination]`: `{found}` is not one of {reasons}.", found=_short(termination),
                            reasons=", ".join(r.value for r in Reason)))
    if result != "*":
        parts = result.split("-")
        if len(parts) != len(players) or not all(re.fullmatch(r"[1-9][0-9]{0,2}", p) for p in parts):
            raise RecordError(_("Line {line}: `[Result]` wants each player's place (`1-2`, `1-1` for a draw) "
                                "or `*`, not `{found}`.", line=rline, found=_short(result)))
    scores: tuple[int, ...] | None = None
    if "Scores" in headers:
        cline, values = headers["Scores"]
        scores = tuple(_number(v, "Scores", cline) for v in values)
    def pairs(key: str) -> dict[str, str]:
        if key not in headers:
            return {}
        line, values = headers[key]
        return _pairs(values, key, line)

    return Record(
        game=spec.key, players=tuple(players), moves=tuple(moves), options=pairs("Options"),
        platform=pairs("Platform"), seats=seats, result=result, termination=termination, scores=scores,
        detail=one("Detail", "")[1], date=one("Date", "")[1], seed=one("Seed", "")[1],
        match=one("Match", "")[1], engine=one("Engine", "")[1], parlor=one("Parlor", "")[1],
        notes=tuple(headers.get("Note", (0, []))[1]), format=fmt,
    )


# -- replaying ------------------------------------------------------------------------------------------


def _who(seat: int) -> str:
    return _("chance") if seat == CHANCE else f"P{seat + 1}"


def _to_move(who: Any) -> str:
    if isinstance(who, Chance):
        return _("a chance outcome ({what}) is due", what=_(who.label))
    return _("{players} to move", players=", ".join(_who(s) for s in sorted(who)))


def positions(record: Record) -> Iterator[tuple[Any, list[Event]]]:
    """Every position of the record (the start, then after each move) with the events that led to it.

    Raises:
        RecordError: options the engine refuses, or the first move that is not legal where it stands
            (its number, the move and the engine's reason).
    """
    game = GAMES[record.game]
    rules = game.rules
    try:
        state = rules.initial(dict(record.options), record.start_seats)
    except ValueError as exc:
        raise RecordError(f"`[Options]`: {exc}") from None  # not translated: a header, the engine's words
    yield state, []
    changed = ""
    current = engine_version(rules, record.options, record.start_seats)
    if record.engine and record.engine != current:
        changed = " " + _("(the record was made with engine {recorded}, this Parlor runs {current})",
                          recorded=record.engine, current=current)
    out_of_turn = getattr(rules, "out_of_turn", None)
    for n, mv in enumerate(record.moves, 1):
        line = f"{_who(mv.seat)} {_short(mv.notation)}"
        said = _("Move {number} (`{move}`)", number=n, move=line)
        who = rules.to_act(state)
        if who is None or rules.outcome(state) is not None:
            raise RecordError(_("{move}: the game was already over after move {number}.", move=said,
                                number=n - 1))
        try:
            if mv.seat == CHANCE:
                if not isinstance(who, Chance):
                    raise RecordError(_("{move}: no chance outcome is due here ({due}).", move=said,
                                        due=_to_move(who)))
                move = rules.parse(mv.notation, state, CHANCE)
                if move not in who.outcomes:
                    raise RecordError(_("{move}: not a possible {what} here.", move=said, what=_(who.label)))
            else:
                if isinstance(who, Chance):
                    raise RecordError(_("{move}: {due} here, not a move by P{seat}.", move=said,
                                        due=_to_move(who), seat=mv.seat + 1))
                move = rules.parse(mv.notation, state, mv.seat)
                if mv.seat not in who and not (out_of_turn is not None and out_of_turn(state, mv.seat, move)):
                    raise RecordError(_("{move}: it is not P{seat}'s turn ({due}).", move=said,
                                        seat=mv.seat + 1, due=_to_move(who)))
            state, events = rules.apply(state, mv.seat, move)
        except RecordError as exc:
            raise RecordError(f"{exc}{changed}") from None
        except (ValueError, LookupError, TypeError) as exc:
            raise RecordError(_("{move} is not legal: {reason}", move=said, reason=exc) + changed) from None
        yield state, list(events)


def replay(record: Record) -> Replayed:
    """Play the whole record through its engine (see :func:`positions` for what is refused)."""
    game = GAMES[record.game]
    state: Any = None
    turn: list[Event] = []
    plies = -1
    for plies, (after, events) in enumerate(positions(record)):
        state = after
        seat = record.moves[plies - 1].seat if plies else CHANCE
        turn = [*turn, *events] if seat == CHANCE else list(events)
    ruled = game.rules.outcome(state)
    try:
        stated = record.outcome()
    except ValueError:
        stated = None
    return Replayed(record, game, state, tuple(turn), plies, ruled or stated, ruled is not None)
