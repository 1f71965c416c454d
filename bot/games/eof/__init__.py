"""EOF: 2-4 players, hidden hands, secret programs run simultaneously on a shared file.

The engine (:mod:`.rules`), the notation (:mod:`.notation`), the scoring search
(:mod:`.scoring`) and the pictures (:mod:`.render`). No computer opponent.
"""

from bot.games.eof.notation import ALLOW, DENY, SKIP, Answer, ChooseSize, Draw, Move, Program
from bot.games.eof.pieces import COLOUR_NAMES, Instruction, Piece
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
           "render_hand", "score"]
