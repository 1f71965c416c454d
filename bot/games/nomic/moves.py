"""Nomic World's moves, and the catalogue of effects a rule can carry.

A move is a small frozen dataclass; its canonical text is
:func:`bot.games.nomic.notation.write`. Chance outcomes (:class:`Roll`,
:class:`Reveal`) are moves too, played by the pseudo-seat ``CHANCE``.

An :class:`Effect` is the part of a rule the bot can enforce. Rule text is the
players' authority for everything else; an effect makes the bot itself run the
game differently once its rule is in effect:

* ``die`` (2-20): the sides of the movement die (rule 109 starts with 6);
* ``votes`` (``unanimous``, ``two-thirds``, ``majority``): what adopts a
  proposal (rule 112 starts with unanimous);
* ``order`` (``alphabetical``, ``join``, ``reverse``): the turn order within a
  round (rule 102 starts with alphabetical; ``reverse`` is Z to A);
* ``phases`` (``both``, ``movement``, ``rule-change``): which phases a turn has
  (rule 103 starts with both);
* ``end``: the game ends when the rule takes effect.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[int, int]

RESOURCES: tuple[str, ...] = ("Wood", "Metal", "Water", "Food")
"""The four resources of rule 106, in the source's order."""

DIRECTIONS: dict[str, Point] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
"""Rule 115: positive y is North, positive x is East."""

OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}

DIE_SIDES = range(2, 21)
VOTE_RULES: tuple[str, ...] = ("unanimous", "two-thirds", "majority")
ORDER_RULES: tuple[str, ...] = ("alphabetical", "join", "reverse")
PHASE_SETS: tuple[str, ...] = ("both", "movement", "rule-change")
EFFECT_KINDS: tuple[str, ...] = ("die", "votes", "order", "phases", "end")
ACTIONS: tuple[str, ...] = ("enact", "repeal", "amend")

MAX_TEXT = 1500
"""Longest rule text, ruling or reason (a Discord message holds 2000 characters)."""
MAX_QUESTION = 500
MAX_NAME = 32


@dataclass(frozen=True)
class Effect:
    """A setting the bot enforces while the rule carrying it is in effect.

    ``kind`` is one of :data:`EFFECT_KINDS`; ``value`` is an int for ``die``,
    a word for ``votes``/``order``/``phases`` and ``None`` for ``end``.

    Raises:
        ValueError: the kind or value is not in the catalogue.
    """

    kind: str
    value: int | str | None = None

    def __post_init__(self) -> None:
        problem = effect_problem(self.kind, self.value)
        if problem:
            raise ValueError(problem)

    def __str__(self) -> str:
        return self.kind if self.value is None else f"{self.kind}={self.value}"

    def to_json(self) -> dict[str, int | str]:
        """The canonical JSON object: ``{"kind": "die", "value": 8}`` (no value for ``end``)."""
        return {"kind": self.kind} if self.value is None else {"kind": self.kind, "value": self.value}

    def describe(self) -> str:
        """A short human phrase: ``"die: d20"``, ``"votes needed: majority"``."""
        if self.kind == "die":
            return f"movement die: d{self.value}"
        if self.kind == "votes":
            return f"votes needed: {self.value}"
        if self.kind == "order":
            return {"alphabetical": "turn order: alphabetical", "join": "turn order: order of joining",
                    "reverse": "turn order: reverse alphabetical"}[str(self.value)]
        if self.kind == "phases":
            return {"both": "phases: movement, then rule-change", "movement": "phases: movement only",
                    "rule-change": "phases: rule-change only"}[str(self.value)]
        return "ends the game"


def effect_problem(kind: object, value: object) -> str:
    """Why ``(kind, value)`` is not a catalogue effect, or ``""`` when it is."""
    if kind == "die":
        if type(value) is not int or value not in DIE_SIDES:
            return (f"A die effect needs a number of sides from {DIE_SIDES[0]} to {DIE_SIDES[-1]} "
                    f"(got {value!r}).")
        return ""
    choices = {"votes": VOTE_RULES, "order": ORDER_RULES, "phases": PHASE_SETS}.get(str(kind))
    if isinstance(kind, str) and choices is not None:
        if value not in choices:
            return f"A {kind} effect is one of {', '.join(choices)} (got {value!r})."
        return ""
    if kind == "end":
        return "" if value is None else "The end effect takes no value."
    return f"{kind!r} is not an effect the bot knows: use one of {', '.join(EFFECT_KINDS)}."


@dataclass(frozen=True)
class Join:
    """A new player (Discord user id, display name) takes the next seat."""

    user_id: int
    name: str


@dataclass(frozen=True)
class Start:
    """Close the lobby: the first round begins."""


@dataclass(frozen=True)
class Roll:
    """Chance: the movement die shows ``n``."""

    n: int


@dataclass(frozen=True)
class Path:
    """The current player's path, one letter per step (``"NNE"``)."""

    steps: str


@dataclass(frozen=True)
class Reveal:
    """Chance: the unknown space just landed on provides ``resource``."""

    resource: str


@dataclass(frozen=True)
class Propose:
    """The current player's rule-change: enact, repeal or amend.

    ``rule`` is the target of a repeal or amendment (``None`` to enact);
    ``text`` the new rule's text (enact), the new text (amend) or an optional
    reason (repeal); ``effect`` an optional catalogue effect (enact, amend).
    """

    action: str
    rule: int | None
    text: str
    effect: Effect | None = None


@dataclass(frozen=True)
class Vote:
    """A player's vote on the open proposal."""

    yes: bool


@dataclass(frozen=True)
class Unvote:
    """A voter withdraws their vote on the open proposal (e.g. removes their reaction) while it is open."""


@dataclass(frozen=True)
class Judge:
    """Invoke Judgment (rule 114) on a question."""

    question: str


@dataclass(frozen=True)
class Ruling:
    """The Judge's decision; it becomes a rule at once."""

    text: str


@dataclass(frozen=True)
class Lapse:
    """The Judge gives no ruling (played at the turn limit): the question lapses."""


@dataclass(frozen=True)
class Skip:
    """The current player gives up the rest of the turn (played at the turn limit)."""


@dataclass(frozen=True)
class Leave:
    """A player leaves the game for good."""


@dataclass(frozen=True)
class End:
    """Stop the game now (an admin's or the host's decision: the cog must check permissions)."""

    by: str = "admin"
    """``admin`` or ``host``: who stopped it (the end of the game says so)."""


Move = (Join | Start | Roll | Path | Reveal | Propose | Vote | Unvote | Judge | Ruling | Lapse | Skip | Leave
        | End)
