"""Parlor's two-player engines as OpenSpiel Python games (for bench/vs_mcts.py and its tests).

Each engine is wrapped through OpenSpiel's Python-game API (``pyspiel.Game`` / ``pyspiel.State``) so
OpenSpiel's own algorithms (``open_spiel.python.algorithms.mcts``) play it unchanged. The adapter keeps
the engine's immutable state and asks the engine for everything: legal moves, the next state (through
``RULES.apply``, the checked path), whose turn it is and the outcome. Only the action numbering is
per game (:class:`Codec`): OpenSpiel needs a fixed range of integer actions.

Pylon and Fire and Ice have a fast path (``Codec.actions``/``move``/``successor``): the seat and legal
actions are read straight from the position, and a move is applied with the engine's unchecked
``successor``/``play_unchecked`` (no events said), because OpenSpiel's MCTS spends nearly all its time in
random rollouts, and the checked path (validation, the events' sentences) made MCTS-10,000 too slow to play
40 games. The test plays random
games move by move through both paths and compares seat, legal moves, states and outcome.

Returns are +1 / 0 / -1 (win, draw, loss); scores and margins are not part of the utility.

Pylon: the ``agree`` move is left out (the computer never offers it first, and an MCTS that offers it
would only shorten its own games); the game ends when no stacking is left, as in every real game
that is played out.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'``): ``open-spiel`` with numpy.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel

from bot.games.egg_carton import ai as egg_ai
from bot.games.egg_carton.rules import RULES as EGG_RULES
from bot.games.egg_carton.rules import Pick
from bot.games.fire_and_ice import ai as fni_ai
from bot.games.fire_and_ice.board import Move as FniMove
from bot.games.fire_and_ice.board import Pass as FniPass
from bot.games.fire_and_ice.board import State as FniState
from bot.games.fire_and_ice.board import masks as fni_masks
from bot.games.fire_and_ice.board import play_unchecked as fni_play
from bot.games.fire_and_ice.geometry import HAS_LINE as FNI_HAS_LINE
from bot.games.fire_and_ice.geometry import NEIGHBOURS as FNI_NEIGHBOURS
from bot.games.fire_and_ice.geometry import control_mask as fni_control
from bot.games.fire_and_ice.rules import RULES as FNI_RULES
from bot.games.pylon import ai as pylon_ai
from bot.games.pylon.notation import NEIGHBOURS, SQUARES, Agree, Placement, Stacking
from bot.games.pylon.rules import PIECES as PYLON_PIECES
from bot.games.pylon.rules import RULES as PYLON_RULES
from bot.games.pylon.rules import PylonState, successor

_PYLON_PAIRS = tuple((src, dst) for src in range(SQUARES) for dst in sorted(NEIGHBOURS[src]))
_PYLON_PAIR_ID = {p: i for i, p in enumerate(_PYLON_PAIRS)}
_FNI_POINTS = 49


def _pylon_encode(m: Any) -> int:
    if isinstance(m, Placement):
        return (m.size - 1) * SQUARES + m.square
    assert isinstance(m, Stacking)
    return 3 * SQUARES + _PYLON_PAIR_ID[m.source, m.target]


_PYLON_MOVES: dict[int, Placement | Stacking] = {
    **{(size - 1) * SQUARES + sq: Placement(size, sq) for size in (1, 2, 3) for sq in range(SQUARES)},
    **{3 * SQUARES + i: Stacking(src, dst) for i, (src, dst) in enumerate(_PYLON_PAIRS)},
}


def _pylon_actions(s: PylonState) -> tuple[int, list[int]] | None:
    """(seat to move, its legal actions in order) straight from the position, or None at the end: what
    ``RULES.to_act`` and ``legal_moves`` say (tested move by move), without building the moves."""
    board, stash = s.board, s.stash
    placed = PYLON_PIECES - sum(stash[0]) - sum(stash[1])
    if placed < PYLON_PIECES:
        seat = placed % 2
        st = stash[seat]
        empty = [i for i in range(SQUARES) if not board[i]]
        return seat, [(z - 1) * SQUARES + sq for z in (1, 2, 3) if st[z - 1] for sq in empty]
    acts = [3 * SQUARES + i for i, (x, y) in enumerate(_PYLON_PAIRS)
            if board[x] and board[y] and board[x][0][1] <= board[y][-1][1]]
    if not acts:
        return None
    stacks = sum(1 for st in board if st)
    return (1 + PYLON_PIECES - stacks) % 2, acts


_FNI_PASS = _FNI_POINTS * _FNI_POINTS
_FNI_MOVES: dict[int, FniMove | FniPass] = {
    _FNI_PASS: FniPass(),
    **{a * _FNI_POINTS + b: FniMove(a, b) for a in range(_FNI_POINTS) for b in range(_FNI_POINTS)},
}


def _fni_actions(s: FniState) -> tuple[int, list[int]] | None:
    """Fire and Ice's seat and legal actions straight from the position (no handicap: the adapter plays
    without options), or None at the end: a side controls three islands on a line (Fire's islands
    counted first, as the engine does) or both sides passed."""
    board = s.board
    fire, ice = fni_masks(board)
    f = fni_control(fire)
    if FNI_HAS_LINE[f] or FNI_HAS_LINE[fni_control(ice) & ~f] or s.passes >= 2:
        return None
    seat = s.to_move
    acts = sorted(src * _FNI_POINTS + dst for src in range(_FNI_POINTS) if board[src] == seat
                  for dst in FNI_NEIGHBOURS[src] if board[dst] < 0)
    return seat, acts or [_FNI_PASS]


def _fni_encode(m: Any) -> int:
    if isinstance(m, FniPass):
        return _FNI_PASS
    assert isinstance(m, FniMove)
    return m.src * _FNI_POINTS + m.dst


def _egg_encode(m: Any) -> int:
    assert isinstance(m, Pick)
    return int(m.slot)


@dataclass(frozen=True)
class Codec:
    """How one Parlor game is seen by OpenSpiel: its engine, action numbering and computer."""

    key: str
    rules: Any
    num_actions: int
    max_length: int
    encode: Callable[[Any], int]
    choose: Callable[..., Any]          # (state, seat, rng, level) -> move, the bot's own computer
    levels: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    skip: tuple[type, ...] = ()          # move types the adapter leaves out (Pylon's agree)
    # a fast path (Pylon): the seat and actions of a state, the move of an action, the next state
    actions: Callable[[Any], tuple[int, list[int]] | None] | None = None
    move: Callable[[int], Any] | None = None
    successor: Callable[[Any, int, Any], Any] | None = None

    def legal(self, s: Any, seat: int) -> list[Any]:
        return [m for m in self.rules.legal_moves(s, seat) if not isinstance(m, self.skip)]

    def __deepcopy__(self, memo: dict[int, Any]) -> Codec:
        return self  # frozen, and shared by every state of its game


class _Shared:
    """A value that clones of a state share: OpenSpiel clones a Python state by deep-copying its
    attributes, and the engine's state and its move table are never changed once made."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


CODECS: dict[str, Codec] = {
    "pylon": Codec("pylon", PYLON_RULES, 3 * SQUARES + len(_PYLON_PAIRS), 60, _pylon_encode,
                   pylon_ai.choose, pylon_ai.LEVELS, skip=(Agree,), actions=_pylon_actions,
                   move=_PYLON_MOVES.__getitem__, successor=successor),
    "fire_and_ice": Codec("fire_and_ice", FNI_RULES, _FNI_POINTS * _FNI_POINTS + 1, 400, _fni_encode,
                          fni_ai.choose, fni_ai.LEVELS, actions=_fni_actions, move=_FNI_MOVES.__getitem__,
                          successor=lambda s, seat, move: fni_play(s, move)),
    "egg_carton": Codec("egg_carton", EGG_RULES, 12, 1000, _egg_encode, egg_ai.choose,
                        tuple(EGG_RULES.spec.ai_levels)),
}


class ParlorState(pyspiel.State):
    """An OpenSpiel state holding one immutable Parlor engine state."""

    def __init__(self, game: ParlorGame, inner: Any = None) -> None:
        super().__init__(game)
        self.codec: Codec = game.codec
        self._set(inner if inner is not None else self.codec.rules.initial(dict(self.codec.options), 2))

    @property
    def inner(self) -> Any:
        """The engine's state."""
        return self._shared.value[0]

    @property
    def _moves(self) -> dict[int, Any]:
        moves = self._shared.value[1]
        if isinstance(moves, list):  # the fast path's actions: their moves only when asked for
            assert self.codec.move is not None
            return {a: self.codec.move(a) for a in moves}
        return moves  # type: ignore[no-any-return]

    def _set(self, inner: Any) -> None:
        if self.codec.actions is not None:
            got = self.codec.actions(inner)
            self._player = int(pyspiel.PlayerId.TERMINAL) if got is None else got[0]
            self._shared = _Shared((inner, [] if got is None else got[1]))
            return
        act = self.codec.rules.to_act(inner)
        moves: dict[int, Any] = {}
        if act is None:
            self._player = int(pyspiel.PlayerId.TERMINAL)
        else:
            (seat,) = tuple(act)
            self._player = seat
            moves = {self.codec.encode(m): m for m in self.codec.legal(inner, seat)}
            if not moves:  # only skipped moves left (cannot happen in the three games)
                raise RuntimeError(f"{self.codec.key}: seat {seat} has no move the adapter can play")
        self._shared = _Shared((inner, moves))

    def current_player(self) -> int:
        return int(self._player)

    def _legal_actions(self, player: int) -> list[int]:
        moves = self._shared.value[1]
        return list(moves) if isinstance(moves, list) else sorted(moves)

    def _apply_action(self, action: int) -> None:
        if self.codec.successor is not None and self.codec.move is not None:
            self._set(self.codec.successor(self.inner, self._player, self.codec.move(action)))
            return
        inner, _ = self.codec.rules.apply(self.inner, self._player, self._moves[action])
        self._set(inner)

    def _action_to_string(self, player: int, action: int) -> str:
        m = self._moves.get(action)
        return str(m) if m is not None else f"#{action}"

    def is_terminal(self) -> bool:
        return bool(self._player == int(pyspiel.PlayerId.TERMINAL))

    def returns(self) -> list[float]:
        out = self.codec.rules.outcome(self.inner)
        if out is None or out.is_draw:
            return [0.0, 0.0]
        return [1.0, -1.0] if 0 in out.winners else [-1.0, 1.0]

    def move_of(self, action: int) -> Any:
        """The engine move behind a legal action."""
        return self._moves[action]

    def action_of(self, move: Any) -> int:
        """The action number of a legal engine move."""
        a = self.codec.encode(move)
        if a not in self._moves:
            raise ValueError(f"{move} is not legal here")
        return a

    def __str__(self) -> str:
        return repr(self.codec.rules.dump(self.inner))

    def __deepcopy__(self, memo: dict[int, Any]) -> ParlorState:
        # the engine state is immutable: share it; OpenSpiel copies its own history
        dup = copy.copy(self)
        memo[id(self)] = dup
        return dup


class ParlorGame(pyspiel.Game):
    def __init__(self, codec: Codec, params: dict[str, Any] | None = None) -> None:
        self.codec = codec
        game_type = pyspiel.GameType(
            short_name=f"python_parlor_{codec.key}",
            long_name=f"Parlor {codec.key}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2,
            min_num_players=2,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(num_distinct_actions=codec.num_actions, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=codec.max_length)
        super().__init__(game_type, info, params or {})

    def new_initial_state(self, state: Any = None) -> ParlorState:
        return ParlorState(self, state)


def game(key: str) -> ParlorGame:
    """The OpenSpiel game for a Parlor game key (``pylon``, ``fire_and_ice``, ``egg_carton``)."""
    return ParlorGame(CODECS[key])


def keys() -> Sequence[str]:
    return tuple(CODECS)
