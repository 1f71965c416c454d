"""Nomic World's text notation: context-free reading and canonical writing.

:func:`read` turns text into a move (syntax only; :class:`InvalidNotation`
when it cannot); the engine's ``parse`` then checks it against the state.
:func:`write` is the canonical form stored in the move log, and
``read(write(m)) == m`` for every move whose text fields are already trimmed.

Canonical forms::

    NNE                                  a path (N, E, S, W; one letter a step)
    join 123456789 Alice                 Discord user id, then the display name
    start | skip | lapse | leave | end
    roll 4 | reveal Wood                 chance outcomes
    propose {"action": "amend", "rule": 109, "text": "A d8 is rolled.", "effect": {"kind": "die", "value": 8}}
    vote yes | vote no
    judge <question> | ruling <text>

Also read: ``2N E``/``n n e`` for paths, ``propose enact <text>``,
``propose repeal 203 [reason]``, ``propose amend 109 <text>`` (also without
``propose``), ``yes``/``no``/``✅``/``❌`` for votes, ``pass`` for ``skip``,
``resign`` for ``leave``; effects as short text (``die=8``, ``d8``,
``votes=majority``, ``order=join``, ``phases=movement``, ``end``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from bot.games.base import InvalidNotation
from bot.games.nomic.moves import (
    ACTIONS,
    DIE_SIDES,
    OPPOSITE,
    ORDER_RULES,
    PHASE_SETS,
    RESOURCES,
    VOTE_RULES,
    Effect,
    End,
    Join,
    Judge,
    Lapse,
    Leave,
    Move,
    Path,
    Propose,
    Reveal,
    Roll,
    Ruling,
    Skip,
    Start,
    Unvote,
    Vote,
    effect_problem,
)
from bot.i18n import _, ngettext

_PATH_CHARS = re.compile(r"[NESW0-9\s,;.\-]+")
_PATH_TOKEN = re.compile(r"(\d*)\s*([NESW])")
_YES = {"yes", "y", "aye", "for", "✅", "👍"}
_NO = {"no", "nay", "against", "❌", "👎"}
_NO_ARGS: dict[str, Callable[[], Move]] = {
    "start": Start, "skip": Skip, "pass": Skip, "lapse": Lapse, "leave": Leave, "resign": Leave,
    "unvote": Unvote}
_MAX_STEPS = 2 * DIE_SIDES[-1]


def read(text: str) -> Move:
    """Read one move from text (case-insensitive, whitespace tolerant).

    >>> read("n n e")
    Path(steps='NNE')
    >>> read("vote ✅")
    Vote(yes=True)

    Raises:
        InvalidNotation: the text is not a Nomic World move.
    """
    body = text.strip()
    if not body:
        raise InvalidNotation(_("Empty move: give a path such as NNE, or vote yes / vote no."))
    word, rest = _first_word(body)
    key = word.lower()
    if key in _NO_ARGS:
        if rest:
            raise InvalidNotation(_("`{word}` takes nothing after it (got {got}).", word=word,
                                    got=repr(rest[:40])))
        return _NO_ARGS[key]()
    if key == "end":
        if rest.lower() not in ("", "admin", "host"):
            raise InvalidNotation(_("`end` takes `host` or `admin` after it, or nothing (got {got}).",
                                    got=repr(rest[:40])))
        return End(rest.lower() or "admin")
    if key == "join":
        return _read_join(rest)
    if key == "roll":
        return _read_roll(rest)
    if key == "reveal":
        return _read_reveal(rest)
    if key == "propose":
        return _read_proposal(rest)
    if key in ACTIONS:
        return _read_proposal(body)
    if key == "vote":
        return _read_vote(rest)
    if key in _YES | _NO and not rest:
        return _read_vote(key)
    if key in ("judge", "judgment", "judgement"):
        if not rest:
            raise InvalidNotation(_("Say what the Judge should decide: `judge <question>`."))
        return Judge(rest)
    if key == "ruling":
        if not rest:
            raise InvalidNotation(_("Give the ruling's text: `ruling <text>`."))
        return Ruling(rest)
    if _PATH_CHARS.fullmatch(body.upper()):
        return Path(read_path(body))
    raise InvalidNotation(_(
        "Cannot read {text}: give a path of N/E/S/W steps (e.g. NNE), `vote yes`/`vote no`, "
        "`propose ...`, `judge <question>` or `ruling <text>`.", text=repr(body[:60])))


def _first_word(text: str) -> tuple[str, str]:
    """The first word of ``text`` and the rest, both trimmed (inner whitespace kept)."""
    parts = text.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


def read_path(text: str) -> str:
    """The steps of a path text, upper-case letters only (``"2n e"`` -> ``"NNE"``).

    Raises:
        InvalidNotation: not made of N/E/S/W steps (with optional counts).
    """
    up = text.upper()
    if not _PATH_CHARS.fullmatch(up):
        bad = sorted({c for c in up if not _PATH_CHARS.fullmatch(c)})
        raise InvalidNotation(_("{text} is not a direction: a path uses N, E, S and W (e.g. NNE).",
                                text=repr("".join(bad)[:10])))
    steps: list[str] = []
    end = 0
    for m in _PATH_TOKEN.finditer(up):
        gap = up[end:m.start()]
        if gap.strip(" \t\n,;.-"):
            raise InvalidNotation(_("Cannot read the path {path}: a count goes before its letter (2N E).",
                                    path=repr(text.strip()[:40])))
        count = int(m.group(1)) if m.group(1) else 1
        if count == 0:
            raise InvalidNotation(_("A step count must be at least 1 (e.g. 2N)."))
        if len(steps) + count > _MAX_STEPS:
            raise InvalidNotation(_("That path is too long: a roll is at most {most}.", most=DIE_SIDES[-1]))
        steps.append(m.group(2) * count)
        end = m.end()
    if up[end:].strip(" \t\n,;.-") or not steps:
        raise InvalidNotation(_("Cannot read the path {path}: use N, E, S, W, e.g. NNE or 2N E.",
                                path=repr(text.strip()[:40])))
    return "".join(steps)


def _read_join(rest: str) -> Join:
    uid, name = _first_word(rest)
    if not uid.isdigit() or not uid.isascii():
        raise InvalidNotation(_("Join as `join <user id> <display name>`, e.g. "
                                "`join 80351110224678912 Alice`."))
    if not name:
        raise InvalidNotation(_("A joining player needs a display name: `join <user id> <display name>`."))
    return Join(int(uid), name)


def _read_roll(rest: str) -> Roll:
    if not rest.isdigit() or not rest.isascii():
        raise InvalidNotation(_("A roll is a number, e.g. `roll 4` (got {got}).", got=repr(rest[:20])))
    return Roll(int(rest))


def _read_reveal(rest: str) -> Reveal:
    for r in RESOURCES:
        if rest.lower() == r.lower():
            return Reveal(r)
    raise InvalidNotation(_("A revealed resource is one of {resources} (got {got}).",
                            resources=", ".join(RESOURCES), got=repr(rest[:20])))


def _read_vote(rest: str) -> Vote | Unvote:
    word = rest.strip().lower()
    if word in ("withdraw", "none"):
        return Unvote()
    if word in _YES:
        return Vote(True)
    if word in _NO:
        return Vote(False)
    raise InvalidNotation(_("Vote `yes` or `no`, or `vote withdraw` (got {got}).", got=repr(rest[:20])))


def _read_proposal(rest: str) -> Propose:
    if rest.startswith("{"):
        try:
            data = json.loads(rest)
        except json.JSONDecodeError as exc:
            raise InvalidNotation(_("The proposal is not valid JSON ({error} at character {position}).",
                                    error=exc.msg, position=exc.pos)) from None
        return proposal_from_json(data)
    action, tail = _first_word(rest)
    action = action.lower()
    if action == "enact":
        return Propose("enact", None, tail)
    if action in ("repeal", "amend"):
        num, text = _first_word(tail)
        num = num.lstrip("#")
        if not num.isdigit() or not num.isascii():
            if action == "amend":
                raise InvalidNotation(_("Say which rule to amend: `amend <number> <text>`."))
            raise InvalidNotation(_("Say which rule to repeal: `repeal <number>`."))
        return Propose(action, int(num), text.strip())
    raise InvalidNotation(_("Propose `enact <text>`, `repeal <number>`, `amend <number> <text>`, or a JSON "
                            'object {"action": ..., "rule": ..., "text": ..., "effect": ...}.'))


def proposal_from_json(data: Any) -> Propose:
    """A :class:`Propose` from its JSON object (the canonical notation's payload).

    Raises:
        InvalidNotation: a key is missing, unknown or of the wrong type.
    """
    if not isinstance(data, dict):
        raise InvalidNotation(_("A proposal is a JSON object with action, rule, text and effect."))
    unknown = set(data) - {"action", "rule", "text", "effect"}
    if unknown:
        raise InvalidNotation(ngettext("Unknown proposal field: {fields}.",
                                       "Unknown proposal fields: {fields}.", len(unknown),
                                       fields=", ".join(sorted(map(str, unknown)))))
    action = data.get("action")
    if not isinstance(action, str) or action.lower() not in ACTIONS:
        raise InvalidNotation(_("A proposal's action is enact, repeal or amend (got {got}).",
                                got=repr(action)))
    rule = data.get("rule")
    if isinstance(rule, str) and rule.strip().isdigit():
        rule = int(rule)
    if rule is not None and (type(rule) is not int):
        raise InvalidNotation(_("A proposal's rule is a rule number or null (got {got}).", got=repr(rule)))
    text = data.get("text", "")
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise InvalidNotation(_("A proposal's text is a string."))
    return Propose(action.lower(), rule, text.strip(), read_effect(data.get("effect")))


def read_effect(value: Any) -> Effect | None:
    """An effect from its JSON object, its short text, or ``None``.

    >>> read_effect("d8")
    Effect(kind='die', value=8)
    >>> read_effect({"kind": "votes", "value": "majority"})
    Effect(kind='votes', value='majority')

    Raises:
        InvalidNotation: not an effect from the catalogue.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return _effect_from_text(value)
    if isinstance(value, dict):
        if "kind" in value:
            if set(value) - {"kind", "value"}:
                raise InvalidNotation(_("An effect object has only kind and value."))
            kind, val = value.get("kind"), value.get("value")
        elif len(value) == 1:
            ((kind, val),) = value.items()
        else:
            raise InvalidNotation(_('An effect is {"kind": ..., "value": ...}, '
                                    'e.g. {"kind": "die", "value": 8}.'))
        if isinstance(kind, str):
            kind = kind.strip().lower()
        if kind == "die" and isinstance(val, str) and val.strip().lower().lstrip("d").isdigit():
            val = int(val.strip().lower().lstrip("d"))
        elif isinstance(val, str):
            val = _canonical_word(str(kind), val)
        problem = effect_problem(kind, val)
        if problem:
            raise InvalidNotation(problem)
        return Effect(str(kind), val)
    raise InvalidNotation(_('An effect is an object such as {"kind": "die", "value": 8}, a short text '
                            "such as die=8, or null."))


_WORD_ALIASES: dict[str, dict[str, str]] = {
    "votes": {"unanimity": "unanimous", "all": "unanimous", "2/3": "two-thirds", "two thirds": "two-thirds",
              "twothirds": "two-thirds", "supermajority": "two-thirds", "simple majority": "majority"},
    "order": {"alpha": "alphabetical", "a-z": "alphabetical", "joining": "join", "join order": "join",
              "seat": "join", "reverse alphabetical": "reverse", "z-a": "reverse"},
    "phases": {"all": "both", "movement+rule-change": "both", "movement,rule-change": "both",
               "movement only": "movement", "rule-change only": "rule-change", "rules": "rule-change",
               "rule change": "rule-change", "rulechange": "rule-change"},
}


def _canonical_word(kind: str, word: str) -> str:
    w = " ".join(word.strip().lower().split())
    return _WORD_ALIASES.get(kind, {}).get(w, w)


def _effect_from_text(text: str) -> Effect | None:
    t = " ".join(text.strip().lower().split())
    if t in ("", "none", "null", "no effect", "-"):
        return None
    if t in ("end", "end the game", "end game", "game over"):
        return Effect("end")
    m = re.fullmatch(r"(?:die\s*[=:]?\s*d?|d)(\d+)", t)
    if m:
        sides = int(m.group(1))
        problem = effect_problem("die", sides)
        if problem:
            raise InvalidNotation(problem)
        return Effect("die", sides)
    kind, sep, val = t.partition("=")
    if not sep:
        kind, sep, val = t.partition(":")
    if sep:
        kind, val = kind.strip(), _canonical_word(kind.strip(), val)
        if kind in ("vote", "voting"):
            kind = "votes"
        if kind in ("phase", "turn"):
            kind = "phases"
        problem = effect_problem(kind, val)
        if problem:
            raise InvalidNotation(problem)
        return Effect(kind, val)
    for kind, choices in (("votes", VOTE_RULES), ("order", ORDER_RULES), ("phases", PHASE_SETS)):
        word = _canonical_word(kind, t)
        if word in choices:
            return Effect(kind, word)
    raise InvalidNotation(_("{text} is not an effect: use die=8, votes=majority|two-thirds|unanimous, "
                            "order=alphabetical|join|reverse, phases=both|movement|rule-change, or end.",
                            text=repr(text.strip()[:40])))


def write(move: Move) -> str:
    """The canonical notation of a move.

    >>> write(Propose("repeal", 203, "", None))
    'propose {"action": "repeal", "rule": 203, "text": "", "effect": null}'
    """
    if isinstance(move, Path):
        return move.steps
    if isinstance(move, Join):
        return f"join {move.user_id} {move.name}"
    if isinstance(move, Roll):
        return f"roll {move.n}"
    if isinstance(move, Reveal):
        return f"reveal {move.resource}"
    if isinstance(move, Propose):
        payload = {"action": move.action, "rule": move.rule, "text": move.text,
                   "effect": move.effect.to_json() if move.effect else None}
        return "propose " + json.dumps(payload, ensure_ascii=False)
    if isinstance(move, Vote):
        return "vote yes" if move.yes else "vote no"  # not translated: notation
    if isinstance(move, Judge):
        return f"judge {move.question}"
    if isinstance(move, Ruling):
        return f"ruling {move.text}"
    if isinstance(move, End):
        return "end" if move.by == "admin" else f"end {move.by}"
    no_args = (("start", Start), ("skip", Skip), ("lapse", Lapse), ("leave", Leave), ("unvote", Unvote))
    for word, cls in no_args:
        if isinstance(move, cls):
            return word
    raise TypeError(f"not a Nomic World move: {move!r}")


def next_steps(prefix: str, roll: int) -> tuple[str, ...]:
    """The directions that keep ``prefix`` a shortest path of ``roll`` steps.

    For the direction buttons: a step may not undo an earlier one (no N after
    S, no E after W...), and nothing is left once ``roll`` steps are given.

    >>> next_steps("NE", 4)
    ('N', 'E')
    """
    if len(prefix) >= roll:
        return ()
    return tuple(d for d in "NESW" if OPPOSITE[d] not in prefix)


def all_paths(roll: int) -> Iterator[str]:
    """Every shortest path of ``roll`` steps (``4 * 2**roll - 4`` of them)."""
    seen: set[str] = set()
    for a, b in (("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")):
        for bits in range(1 << roll):
            p = "".join(a if bits >> i & 1 else b for i in range(roll))
            if p not in seen:
                seen.add(p)
                yield p


def canonical_path(dx: int, dy: int) -> str:
    """One path to the offset ``(dx, dy)``: the east/west steps first."""
    return ("E" * dx if dx > 0 else "W" * -dx) + ("N" * dy if dy > 0 else "S" * -dy)
