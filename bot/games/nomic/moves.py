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

from bot.i18n import N_, _, pgettext

Point = tuple[int, int]

RESOURCES: tuple[str, ...] = ("Wood", "Metal", "Water", "Food")
"""The four resources of rule 106, in the source's order (the state's and the notation's words)."""
RESOURCE_NAMES: dict[str, str] = {"Wood": N_("Wood"), "Metal": N_("Metal"), "Water": N_("Water"),
                                  "Food": N_("Food")}
"""Each resource as a player reads it (looked up with :func:`resource_name`)."""

DIRECTIONS: dict[str, Point] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
"""Rule 115: positive y is North, positive x is East."""

OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}

DIE_SIDES = range(2, 21)
VOTE_RULES: tuple[str, ...] = ("unanimous", "two-thirds", "majority")
ORDER_RULES: tuple[str, ...] = ("alphabetical", "join", "reverse")
PHASE_SETS: tuple[str, ...] = ("both", "movement", "rule-change")
EFFECT_KINDS: tuple[str, ...] = ("die", "votes", "order", "phases", "end")
ACTIONS: tuple[str, ...] = ("enact", "repeal", "amend")

VOTE_WORDS: dict[str, str] = {"unanimous": N_("unanimous"), "two-thirds": N_("two-thirds"),
                              "majority": N_("majority")}
"""The votes a proposal needs, as a player reads them (the effect's value stays as typed)."""
ORDER_WORDS: dict[str, str] = {"alphabetical": N_("alphabetical"), "join": N_("order of joining"),
                               "reverse": N_("reverse alphabetical")}
PHASE_WORDS: dict[str, str] = {"both": N_("movement, then rule-change"), "movement": N_("movement only"),
                               "rule-change": N_("rule-change only")}


def resource_name(resource: str) -> str:
    """``resource`` (a word of :data:`RESOURCES`) in the current language."""
    return _(RESOURCE_NAMES[resource]) if resource in RESOURCE_NAMES else resource


def vote_word(rule: str) -> str:
    """The votes needed (``unanimous``, ``two-thirds``, ``majority``) in the current language."""
    return _(VOTE_WORDS[rule]) if rule in VOTE_WORDS else rule


def order_word(order: str) -> str:
    """The turn order setting in words of the current language."""
    return _(ORDER_WORDS[order]) if order in ORDER_WORDS else order


def phases_word(phases: str) -> str:
    """The phases of a turn in words of the current language."""
    return _(PHASE_WORDS[phases]) if phases in PHASE_WORDS else phases


def order_short(order: str) -> str:
    """The turn order setting in one word (``alphabetical``, ``join``, ``reverse`` in English)."""
    words = {"alphabetical": pgettext("turn order", "alphabetical"), "join": pgettext("turn order", "join"),
             "reverse": pgettext("turn order", "reverse")}
    return words.get(order, order)


def phases_short(phases: str) -> str:
    """The phases of a turn in one word (``both``, ``movement``, ``rule-change`` in English)."""
    words = {"both": pgettext("phases of a turn", "both"),
             "movement": pgettext("phases of a turn", "movement"),
             "rule-change": pgettext("phases of a turn", "rule-change")}
    return words.get(phases, phases)


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
        """A short human phrase in the current language: ``"die: d20"``, ``"votes needed: majority"``."""
        if self.kind == "die":
            return _("movement die: d{sides}", sides=self.value)
        if self.kind == "votes":
            return _("votes needed: {rule}", rule=vote_word(str(self.value)))
        if self.kind == "order":
            return _("turn order: {order}", order=order_word(str(self.value)))
        if self.kind == "phases":
            return _("phases: {phases}", phases=phases_word(str(self.value)))
        return _("ends the game")


def effect_problem(kind: object, value: object) -> str:
    """Why ``(kind, value)`` is not a catalogue effect, or ``""`` when it is."""
    if kind == "die":
        if type(value) is not int or value not in DIE_SIDES:
            return _("A die effect needs a number of sides from {low} to {high} (got {value}).",
                     low=DIE_SIDES[0], high=DIE_SIDES[-1], value=repr(value))
        return ""
    choices = {"votes": VOTE_RULES, "order": ORDER_RULES, "phases": PHASE_SETS}.get(str(kind))
    if isinstance(kind, str) and choices is not None:
        if value not in choices:
            return _("A {kind} effect is one of {choices} (got {value}).", kind=kind,
                     choices=", ".join(choices), value=repr(value))
        return ""
    if kind == "end":
        return "" if value is None else _("The end effect takes no value.")
    return _("{kind} is not an effect the bot knows: use one of {kinds}.", kind=repr(kind),
             kinds=", ".join(EFFECT_KINDS))


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
