"""EOF: 2-4 players, hidden hands, secret programs run simultaneously on a shared file.

The engine (:mod:`.rules`), the notation (:mod:`.notation`), the scoring search
(:mod:`.scoring`) and the pictures (:mod:`.render`). No computer opponent.
"""

from bot.games.eof.notation import ALLOW, DENY, SKIP, Answer, ChooseSize, Draw, Move, Program
from bot.games.eof.pieces import COLOUR_NAMES, Instruction, Piece
from bot.games.eof.pieces import parse_colour as _parse_colour
from bot.games.eof.render import animate, render, render_hand
from bot.games.eof.rules import (
    RULES,
    EofState,
    EofView,
    Pending,
    Phase,
    PlayerView,
    ProgramSpace,
    RoundResult,
    Step,
    parse_colours,
    program_warnings,
)
from bot.games.eof.scoring import Configuration, score

__all__ = ["ALLOW", "COLOUR_NAMES", "DENY", "RULES", "SKIP", "Answer", "ChooseSize", "Configuration", "Draw",
           "EofState", "EofView", "Instruction", "Move", "Pending", "Phase", "Piece", "PlayerView", "Program",
           "ProgramSpace", "RoundResult", "Step", "animate", "parse_colours", "program_warnings", "render",
           "render_hand", "score", "setup_options"]


def setup_options(engine_opts: dict[str, str], seats: list[object]) -> dict[str, str]:
    """Platform hook (``MatchService`` calls it at start and at replay): the ``colours`` option from the
    lobby seats' data, in seat order.

    Each seat's ``data["colour"]`` (a colour name or letter) is kept when it is valid and not already
    taken by an earlier seat; the other seats get the first free colours (red, yellow, green, blue).
    """
    chosen: list[int | None] = []
    for seat in seats:
        data = getattr(seat, "data", None) or {}
        value = data.get("colour") if isinstance(data, dict) else None
        colour: int | None = None
        if isinstance(value, str):
            try:
                colour = _parse_colour(value)
            except ValueError:
                colour = None
        chosen.append(colour if colour is not None and colour not in chosen else None)
    free = [c for c in range(len(COLOUR_NAMES)) if c not in chosen]
    colours = [c if c is not None else free.pop(0) for c in chosen]
    out = dict(engine_opts)
    out["colours"] = ",".join(COLOUR_NAMES[c] for c in colours)
    return out
