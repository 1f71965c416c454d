"""EOF: what one seat (or the channel) may see of a match."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.base import Seat
from bot.games.eof.notation import Program
from bot.games.eof.pieces import Counts, Instruction, Piece
from bot.games.eof.state import RoundResult, Step


@dataclass(frozen=True)
class Pending:
    """A delete waiting for permission: who deletes, with what, which record, who is asked."""

    seat: Seat
    instruction: Instruction
    record: int
    """0-based index of the record to delete."""
    piece: Piece
    asked: tuple[Seat, ...]
    allowed: tuple[Seat, ...]


@dataclass(frozen=True)
class PlayerView:
    """What everybody may know about one seat."""

    seat: Seat
    colour: int
    name: str
    pointer: int
    score: int
    round_scores: tuple[int, ...]
    hand_size: int
    draws: tuple[Piece, ...]
    """This round's draws (public as they happen)."""
    submitted: bool
    program_length: int
    """Instructions the seat's program has this round (min(5, draws))."""
    revealed: tuple[Instruction, ...]
    """The seat's instructions executed so far this round."""
    crashed: bool
    crash_reason: str
    skipped: bool
    """Submitted no program (known once execution starts)."""


@dataclass(frozen=True)
class EofView:
    """What one seat (or the channel, ``seat=None``) may see of an EOF match.

    ``hand``/``program`` are the viewer's own (``None`` for the channel);
    nothing of another seat's hand or program appears except its size, its
    public draws and the instructions already executed.
    """

    seat: Seat | None
    seats: int
    phase: str
    round: int
    rounds: int
    first: Seat | None
    order: tuple[Seat, ...]
    to_act: tuple[Seat, ...]
    file: tuple[Piece, ...]
    pool: Counts
    players: tuple[PlayerView, ...]
    drawing: Seat | None = None
    """The seat drawing now (deal)."""
    size_choice: int | None = None
    """The size the drawing seat chose (0 = any), ``None`` until chosen."""
    bag_sizes: tuple[int, int, int] | None = None
    """Small/medium/large pieces in the bag, during the deal (for the S/M/L buttons)."""
    bag_total: int = 0
    hand: tuple[Piece, ...] | None = None
    program: Program | None = None
    program_length: int = 0
    """How many instructions the viewer's program must have."""
    steps: tuple[Step, ...] = ()
    """This round's executed instructions (the step log)."""
    current: Step | None = None
    """The instruction just executed (highlighted by the renderer)."""
    pending: Pending | None = None
    last_round: RoundResult | None = None
    locking: str = "none"
    crash_penalty: bool = False
    draw_mode: str = "feel"
    finished: bool = False
    scores: tuple[int, ...] = ()
    pointers: tuple[int, ...] = ()

    def player(self, seat: Seat) -> PlayerView:
        return self.players[seat]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)
