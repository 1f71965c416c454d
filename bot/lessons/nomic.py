"""The Nomic World lesson: walk a path after the roll, reveal a resource, propose, vote, amend a rule,
and end the game (Nomic World has no winner).

Positions are played from the start through the engine (joins, start, rolls, paths, reveals, proposals
and votes), so every one is a real game state. You and "Your friend" sit down; names sort the turn
order, so you play first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import CHANCE
from bot.games.nomic.moves import Effect, Propose
from bot.games.nomic.rules import RULES
from bot.games.nomic.state import ADOPTED, IN_EFFECT, State, record
from bot.i18n import N_
from bot.lessons.core import Lesson, Step

YOU, FRIEND = 0, 1

# Moves (notation, and the proposals' texts: a rule's words are the game's state, kept as written) stay as
# they are in every language; the players' names too (they sort the turn order: you play first).
GREET = Propose("enact", None,
                "Players greet each other at the start of their turn.")  # not translated: a move
D8 = Propose("amend", 109, "A d8 is rolled for movement.", Effect("die", 8))  # not translated: a move
END = Propose("enact", None,
              "The game ends when this rule takes effect.", Effect("end"))  # not translated: a move
PROPOSALS = ((N_("Enact: players greet each other at the start of their turn"), RULES.format(GREET)),
             (N_("Amend rule 109: roll a d8 instead of a d6"), RULES.format(D8)),
             (N_("Enact: the game ends"), RULES.format(END)))
"""The prepared proposals a step offers in its select (label, notation)."""
YES, NO = "vote yes", "vote no"  # not translated: notation
VOTES = ((N_("✅ Vote yes"), YES), (N_("❌ Vote no"), NO))
"""The vote buttons: the ✅ and ❌ reactions of a real game's proposal message."""

SEATED = ((YOU, "join 1 You"), (FRIEND, "join 2 Your friend"), (YOU, "start"))  # not translated: moves
FIRST_TURN = (*SEATED, (CHANCE, "roll 3"), (YOU, "EEN"), (CHANCE, "reveal Wood"))  # not translated: moves
GREETED = (*FIRST_TURN, (YOU, RULES.format(GREET)), (YOU, YES), (FRIEND, YES))
FRIENDS_TURN = (*GREETED, (CHANCE, "roll 2"), (FRIEND, "NN"),
                (CHANCE, "reveal Food"),  # not translated: a move
                (FRIEND,
                 "propose enact Each player names their favourite resource."),  # not translated: a move
                (FRIEND, YES))
SECOND_ROUND = (*FRIENDS_TURN, (YOU, YES), (CHANCE, "roll 1"), (YOU, "S"),
                (CHANCE, "reveal Metal"))  # not translated: a move
ENDING = (*SECOND_ROUND, (YOU, RULES.format(END)), (FRIEND, YES))


def played(moves: Sequence[tuple[int, str]]) -> State:
    """The state after ``moves`` (seat, notation) from a new two-player game."""
    s = RULES.initial({}, 2)
    for seat, text in moves:
        s, _ = RULES.apply(s, seat, RULES.parse(text, s, seat))
    return s


def _at(x: int, y: int) -> Any:
    return lambda before, after, notation: after.players[YOU].pos == (x, y)


def _proposed(move: Propose) -> Any:
    return lambda before, after, notation: notation == RULES.format(move)


def _adopted(before: Any, after: Any, notation: str) -> bool:
    rec = record(after, 202)
    return rec is not None and rec.status in (ADOPTED, IN_EFFECT)


def _over(before: Any, after: Any, notation: str) -> bool:
    return RULES.outcome(after) is not None


LESSON = Lesson(
    game="nomic",
    finish=N_("Start a lobby"),
    names=(N_("You"), N_("Your friend")),
    steps=(
        Step(
            caption=N_("Your turn starts with a die roll: here a **3**. Walk exactly that many steps, never "
                       "turning back (no N with S, no E with W). Walk to the space **2 east, 1 north**, and "
                       "Confirm."),
            hint=N_("Press **East**, **East**, **North**, then **Confirm EEN**."),
            setup=lambda: played((*SEATED, (CHANCE, "roll 3"))),
            accepts=_at(2, 1), solution="EEN", wrong="EEE",
            chances=("reveal Wood",),  # not translated: a move
            after=N_("Landing on an unknown space reveals its resource: **Wood**. Spaces you pass through "
                     "stay unknown; the origin has none."),
        ),
        Step(
            caption=N_("Then you propose **one** rule-change: enact a new rule, repeal one, or amend one. "
                       "Enact a new rule: choose the greeting rule in the menu."),
            hint=N_("In the menu, choose **Enact: players greet each other…**."),
            setup=lambda: played(FIRST_TURN),
            accepts=_proposed(GREET), solution=RULES.format(GREET), wrong=RULES.format(D8),
            choices=PROPOSALS,
            after=N_("It is proposal **201**: every proposal takes the next number, adopted or not. Now "
                     "every player votes on it."),
        ),
        Step(
            caption=N_("Your friend proposed rule 202 and voted ✅. A proposal passes only if **every** "
                       "player votes ✅; one ❌ rejects it. Vote for it."),
            hint=N_("Press **✅ Vote yes** (in a game: the ✅ reaction under the proposal)."),
            setup=lambda: played(FRIENDS_TURN),
            accepts=_adopted, solution=YES, wrong=NO, choices=VOTES,
            after=N_("Adopted: rule 202 takes effect at the beginning of the next turn, which is yours."),
        ),
        Step(
            caption=N_("Rules can change the game itself. Rule 109 says the die is a d6; on a conflict the "
                       "**lowest number wins**, so change it by **amending** 109: propose a d8."),
            hint=N_("In the menu, choose **Amend rule 109: roll a d8…**."),
            setup=lambda: played(SECOND_ROUND),
            accepts=_proposed(D8), solution=RULES.format(D8), wrong=RULES.format(GREET),
            choices=PROPOSALS,
            after=N_("Proposal 203 is up for the vote. A question about the rules goes to the Judge with "
                     "`/nomic judge`: the previous player rules, at once."),
        ),
        Step(
            caption=N_("Nomic World has **no winner**: the game goes on until a rule ends it, and then "
                       "everybody shares the place. Propose the end of the game."),
            hint=N_("In the menu, choose **Enact: the game ends**."),
            setup=lambda: played(SECOND_ROUND),
            accepts=_proposed(END), solution=RULES.format(END), wrong=RULES.format(D8),
            choices=PROPOSALS,
            after=N_("Proposal 203 would end the game once it takes effect, if everybody agrees."),
        ),
        Step(
            caption=N_("Your friend voted ✅ on ending the game. Vote yes to adopt it: it takes effect at "
                       "the beginning of the next turn, and the game ends."),
            hint=N_("Press **✅ Vote yes**."),
            setup=lambda: played(ENDING),
            accepts=_over, solution=YES, wrong=NO, choices=VOTES,
            after=N_("The game is over: all players share the place. Most games end by a rule like this, or "
                     "when players leave."),
        ),
    ),
)
