"""The Egg Carton Game: relay sowing around a twelve-slot egg carton.

The carton has twelve slots. Player 1 (seat 0, moves first) owns ``A``–``F``
along the bottom row, left to right; player 2 (seat 1) owns ``I``–``N`` along
the top row, with ``I`` opposite ``F`` and ``N`` opposite ``A``. Every slot
starts with the same number of marbles (option ``marbles``, 1–6, default 3).

Sowing runs counter-clockwise: A→F, one marble into the right end zone (off
the board), I→N, one marble into the left end zone, A… Marbles off the board
never come back and count for nothing.

A turn: the player picks a non-empty slot on their own side, takes all its
marbles and drops them one by one into the following positions. Where the
last marble of a lap lands decides what happens:

* off the board (rule A): the same player must pick again (a new move);
* in a slot that already held marbles (rule B): relay — take them all,
  the one just dropped included, and keep sowing from there (on either side);
* in a slot that was empty (rule C): the turn is over.

Whenever a pick's sowing stops (rule A or C), the mover wins if their own side
is empty (a side may be empty for a moment in the middle of a relay). A move
can never empty the opponent's side (rulings.md), so a player always has a
pick when their turn starts; should a constructed position ever break that,
the player whose side is empty at that moment has cleared it first and wins.

Every turn ends: each rule-A repeat loses a marble off the board, and a lap
can only go round without losing one by staying on one side, moving marbles
towards its end.

A move is one :class:`Pick`; its notation is the slot letter (``notation.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from bot.games.base import (
    JSON,
    Event,
    GameSpec,
    IllegalMove,
    OptionSpec,
    Outcome,
    RulesBase,
    Seat,
)
from bot.games.egg_carton.notation import (
    SLOT_NAMES,
    SLOTS_PER_SIDE,
    read_slot,
    side_name,
    slot_name,
)
from bot.i18n import N_, _, ngettext

SLOTS = 2 * SLOTS_PER_SIDE
RING = SLOTS + 2
"""Positions around the carton: A–F, right end zone, I–N, left end zone."""

RIGHT, LEFT = 0, 1
"""End zones: RIGHT is passed between F and I, LEFT between N and A."""
ZONE_NAMES = ("right", "left")
"""The end zones' keys in events' data (not words: :data:`bot.games.egg_carton.describe` says them)."""

LEVELS: tuple[str, ...] = ("novice", "beginner", "intermediate", "expert")
MARBLE_CHOICES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
PLAYER_NAMES = (N_("Player 1"), N_("Player 2"))
"""The seats' names in English (look each up with ``_()`` where it is written: :func:`player_name`)."""


def player_name(seat: Seat) -> str:
    """The seat's name in the current language ("Player 1")."""
    return _(PLAYER_NAMES[seat])


def ring_of_slot(slot: int) -> int:
    """Ring position (0–13) of slot index ``slot`` (0–11)."""
    return slot if slot < SLOTS_PER_SIDE else slot + 1


def slot_of_ring(pos: int) -> int | None:
    """Slot index at ring position ``pos``, or ``None`` for an end zone."""
    if pos < SLOTS_PER_SIDE:
        return pos
    if pos == SLOTS_PER_SIDE or pos == RING - 1:
        return None
    return pos - 1


def zone_of_ring(pos: int) -> int:
    """End zone (RIGHT or LEFT) at ring position 6 or 13."""
    return RIGHT if pos == SLOTS_PER_SIDE else LEFT


def side_slots(seat: Seat) -> range:
    """Slot indices owned by ``seat``: 0–5 (A–F) or 6–11 (I–N)."""
    return range(SLOTS_PER_SIDE) if seat == 0 else range(SLOTS_PER_SIDE, SLOTS)


def owner(slot: int) -> Seat:
    """The seat owning slot index ``slot``."""
    return 0 if slot < SLOTS_PER_SIDE else 1


@dataclass(frozen=True, order=True)
class Pick:
    """Pick up every marble of one own slot and sow them (notation: its letter)."""

    slot: int

    def __str__(self) -> str:
        return slot_name(self.slot)


@dataclass(frozen=True)
class EggCartonState:
    """A position: marbles per slot and end zone, who picks, and whether it is over.

    ``slots`` holds the counts of A–F then I–N; ``off`` the right and left end
    zones. ``again`` is true when ``to_move`` must pick again under rule A
    (same turn). ``turn`` counts whole turns from 1. ``marbles`` is the
    starting count per slot (kept for conservation checks and the display).
    """

    slots: tuple[int, ...]
    off: tuple[int, int] = (0, 0)
    to_move: Seat = 0
    again: bool = False
    winner: Seat | None = None
    marbles: int = 3
    turn: int = 1

    def side_count(self, seat: Seat) -> int:
        """Marbles on ``seat``'s side."""
        return sum(self.slots[i] for i in side_slots(seat))


@dataclass(frozen=True)
class EggCartonView:
    """What the channel (and each player: nothing is hidden) sees.

    ``picks`` lists the legal picks of ``to_move`` as ``(letter, count)`` in
    slot order (empty when the game is over); :meth:`side` gives all six slots
    of a seat for the button row.
    """

    slots: tuple[int, ...]
    off: tuple[int, int]
    to_move: Seat | None
    again: bool
    winner: Seat | None
    marbles: int
    turn: int
    picks: tuple[tuple[str, int], ...]
    seat: Seat | None = None

    def count(self, letter: str) -> int:
        """Marbles in the slot named ``letter``."""
        return self.slots[SLOT_NAMES.index(letter)]

    def side(self, seat: Seat) -> tuple[tuple[str, int], ...]:
        """``(letter, count)`` for each of ``seat``'s six slots, in slot order."""
        return tuple((slot_name(i), self.slots[i]) for i in side_slots(seat))

    @property
    def finished(self) -> bool:
        return self.winner is not None


def sow(s: EggCartonState, slot: int) -> tuple[list[int], list[int], str, list[Event]]:
    """Sow the marbles of ``slot`` with relays; no legality checks, no win check.

    Returns the new slot and end-zone counts, how the sowing stopped
    (``"again"``: last marble off the board, rule A; ``"end"``: last marble
    in an empty slot, rule C) and the events: ``pick``, then ``drop``/``off``
    per marble, ``relay`` per rule-B pickup.
    """
    seat = s.to_move
    slots, off = list(s.slots), list(s.off)
    events: list[Event] = []
    hand = slots[slot]
    slots[slot] = 0
    text = ngettext("{player} picks up {n} marble from {slot}.", "{player} picks up {n} marbles from {slot}.",
                    hand, player=player_name(seat), slot=slot_name(slot))
    events.append(Event("pick", text,
                          {"seat": seat, "slot": slot_name(slot), "count": hand}))
    pos = ring_of_slot(slot)
    while True:
        while hand:
            pos = (pos + 1) % RING
            hand -= 1
            at = slot_of_ring(pos)
            if at is None:
                zone = zone_of_ring(pos)
                off[zone] += 1
                events.append(Event("off", data={"zone": ZONE_NAMES[zone], "count": off[zone]}))
            else:
                slots[at] += 1
                events.append(Event("drop", data={"slot": slot_name(at), "count": slots[at]}))
        at = slot_of_ring(pos)
        if at is None:
            return slots, off, "again", events
        if slots[at] == 1:
            return slots, off, "end", events
        hand = slots[at]
        slots[at] = 0
        text = ngettext("Relay: {n} marble picked up from {slot}.",
                        "Relay: {n} marbles picked up from {slot}.", hand, slot=slot_name(at))
        events.append(Event("relay", text,
                              {"seat": seat, "slot": slot_name(at), "count": hand}))


class EggCartonRules(RulesBase):
    """The Egg Carton Game engine (see the module docstring for the rules)."""

    spec: ClassVar[GameSpec] = GameSpec(
        key="eggcarton",
        order=3,
        title="The Egg Carton Game",  # not translated: game title
        min_seats=2,
        max_seats=2,
        ai_levels=LEVELS,
        options=(OptionSpec("marbles", N_("Starting marbles in each slot"), MARBLE_CHOICES, "3"),),
        seat_names=PLAYER_NAMES,
    )

    # -- set-up -----------------------------------------------------------

    def initial(self, options: Mapping[str, str], seats: int) -> EggCartonState:
        """Every slot holds ``marbles`` marbles; player 1 (seat 0) picks first.

        Options other than ``marbles`` (the platform's clock, speed, first)
        are ignored here.

        Raises:
            ValueError: ``seats`` is not 2 or ``marbles`` is not "1".."6".
        """
        if seats != 2:
            raise ValueError(f"The Egg Carton Game is for exactly 2 players, not {seats}.")
        raw = str(options.get("marbles", "3")).strip()
        if raw not in MARBLE_CHOICES:
            raise ValueError(f"marbles must be a whole number from 1 to 6, not '{raw}'.")
        n = int(raw)
        return EggCartonState(slots=(n,) * SLOTS, marbles=n)

    # -- turn structure ---------------------------------------------------

    def to_act(self, s: EggCartonState) -> frozenset[Seat] | None:
        """The seat to pick, or ``None`` once someone has won."""
        return None if s.winner is not None else frozenset({s.to_move})

    def legal_moves(self, s: EggCartonState, seat: Seat) -> list[Pick]:
        """The non-empty slots of ``seat``'s side when it is their pick, in slot order."""
        if s.winner is not None or seat != s.to_move:
            return []
        return [Pick(i) for i in side_slots(seat) if s.slots[i]]

    def apply(self, s: EggCartonState, seat: Seat, move: Pick) -> tuple[EggCartonState, list[Event]]:
        """Pick ``move.slot`` and sow, relaying per rule B, then stop per rule A or C.

        After rule A the same seat picks again (``again`` is set); after rule C
        the other seat's turn begins. The mover wins when their side is empty
        as the sowing stops. Events: ``pick``, ``drop``/``off`` for each marble,
        ``relay`` for each rule-B pickup, then one of ``again``, ``end``, ``win``.

        Raises:
            IllegalMove: the game is over, it is not ``seat``'s pick, the slot is
                on the other side or empty.
        """
        self._check(s, seat, move)
        slots, off, stop, events = sow(s, move.slot)
        mover, other = seat, 1 - seat
        own_empty = not any(slots[i] for i in side_slots(mover))
        other_empty = not any(slots[i] for i in side_slots(other))
        after = EggCartonState(slots=tuple(slots), off=(off[0], off[1]), to_move=mover, marbles=s.marbles,
                               turn=s.turn)
        if own_empty or other_empty:
            winner = mover if own_empty else other
            events.append(Event("win", _("{player} has cleared {side} and wins!", player=player_name(winner),
                                         side=side_name(winner)),
                                {"seat": winner}))
            return replace(after, to_move=winner, winner=winner), events
        if stop == "again":
            zone = events[-1].data["zone"]
            events.append(Event("again", _("The last marble went off the board: {player} picks again.",
                                           player=player_name(mover)), {"seat": mover, "zone": zone}))
            return replace(after, again=True), events
        last = events[-1].data["slot"]
        events.append(Event("end", _("The last marble fell into empty {slot}: {player} to move.", slot=last,
                                     player=player_name(other)),
                            {"seat": mover, "slot": last}))
        return replace(after, to_move=other, turn=s.turn + 1), events

    def _check(self, s: EggCartonState, seat: Seat, move: Pick) -> None:
        if not isinstance(move, Pick) or not 0 <= move.slot < SLOTS:
            raise IllegalMove(_("{move} is not a slot of the egg carton.", move=repr(move)))
        name = slot_name(move.slot)
        if s.winner is not None:
            raise IllegalMove(_("{slot}: the game is over.", slot=name))
        legal = tuple(str(m) for m in self.legal_moves(s, s.to_move))
        if seat != s.to_move:
            raise IllegalMove(_("{slot}: it is {player}'s pick, not yours.", slot=name,
                                player=player_name(s.to_move)))
        if owner(move.slot) != seat:
            raise IllegalMove(_("{slot} is on your opponent's side: pick one of your own slots, {side}.",
                                slot=name, side=side_name(seat)), legal=legal)
        if not s.slots[move.slot]:
            raise IllegalMove(_("{slot} is empty: pick a slot of yours that holds marbles.", slot=name),
                              legal=legal)

    def outcome(self, s: EggCartonState) -> Outcome | None:
        """The winner once a side has been cleared, else ``None``."""
        if s.winner is None:
            return None
        return Outcome.win(s.winner, 2, detail=_("{player} cleared {side}.", player=player_name(s.winner),
                                                        side=side_name(s.winner)))

    # -- views, notation, storage ----------------------------------------

    def view(self, s: EggCartonState, seat: Seat | None) -> EggCartonView:
        """Everything is public: the counts, who picks, and that seat's legal picks."""
        picks = tuple((str(m), s.slots[m.slot]) for m in self.legal_moves(s, s.to_move))
        return EggCartonView(slots=s.slots, off=s.off, to_move=None if s.winner is not None else s.to_move,
                             again=s.again, winner=s.winner, marbles=s.marbles, turn=s.turn,
                             picks=picks, seat=seat)

    def parse(self, text: str, s: EggCartonState, seat: Seat) -> Pick:
        """Read a slot letter and check that ``seat`` may pick it now.

        Raises:
            InvalidNotation: not a slot letter (see :func:`notation.read_slot`).
            IllegalMove: the pick breaks a rule (as :meth:`apply`).
        """
        move = Pick(read_slot(text))
        self._check(s, seat, move)
        return move

    def format(self, move: Pick, s: EggCartonState) -> str:
        """The slot letter."""
        return slot_name(move.slot)

    def dump(self, s: EggCartonState) -> dict[str, JSON]:
        """Plain JSON, schema ``"v": 1``."""
        return {"v": 1, "slots": list(s.slots), "off": list(s.off), "to_move": s.to_move,
                "again": s.again, "winner": s.winner, "marbles": s.marbles, "turn": s.turn}

    def load(self, d: Mapping[str, JSON]) -> EggCartonState:
        """Rebuild a state from :meth:`dump`, checking it is consistent.

        Raises:
            ValueError: wrong schema version, malformed fields, marbles not
                conserved, or a live game where a side is empty.
        """
        if not isinstance(d, Mapping) or d.get("v") != 1:
            raise ValueError("Egg Carton state: unknown schema version (expected v=1).")
        try:
            slots = tuple(_count(x) for x in d["slots"])
            off = tuple(_count(x) for x in d["off"])
            to_move, again, winner = d["to_move"], d["again"], d["winner"]
            marbles, turn = d["marbles"], d["turn"]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"Egg Carton state: missing or malformed field ({exc}).") from None
        if len(slots) != SLOTS or len(off) != 2:
            raise ValueError("Egg Carton state: expected 12 slots and 2 end zones.")
        if to_move not in (0, 1) or isinstance(to_move, bool) or not isinstance(again, bool):
            raise ValueError("Egg Carton state: to_move must be 0 or 1 and again a boolean.")
        if winner is not None and (winner not in (0, 1) or isinstance(winner, bool)):
            raise ValueError("Egg Carton state: winner must be 0, 1 or null.")
        if isinstance(marbles, bool) or marbles not in range(1, 7):
            raise ValueError("Egg Carton state: marbles must be 1 to 6.")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
            raise ValueError("Egg Carton state: turn must be a positive integer.")
        if sum(slots) + sum(off) != SLOTS * marbles:
            raise ValueError(f"Egg Carton state: {sum(slots) + sum(off)} marbles, "
                             f"expected {SLOTS * marbles}.")
        s = EggCartonState(slots=slots, off=(off[0], off[1]), to_move=to_move, again=again, winner=winner,
                           marbles=marbles, turn=turn)
        if winner is None and (s.side_count(0) == 0 or s.side_count(1) == 0):
            raise ValueError("Egg Carton state: a side is empty but nobody has won.")
        if winner is not None and s.side_count(winner) != 0:
            raise ValueError("Egg Carton state: the winner has not cleared a side.")
        return s


def _count(x: JSON) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise ValueError(f"Egg Carton state: {x!r} is not a marble count.")
    return x


RULES = EggCartonRules()
