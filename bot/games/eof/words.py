"""EOF's words kept as data, so they can be written in the language of whoever reads them.

What the engine says while it applies a move (a step's result, a crash's reason, an event) is kept with
its sentence and its parts (:class:`Said`): the step log is stored in the state and shown later, in the
match thread (the server's language), in a player's DM or in an ephemeral answer (the reader's), and
the move that produced it may have been made by anyone (or by the turn limit). :func:`tr` writes a text
in the current language; a seat's colour inside it can be written as the player's name by the caller.

Players are called by their colour (``Red``); the colour's letter and the orientations (``Y1 Right``,
``G2R``) are notation and stay as they are in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from bot import i18n
from bot.games.base import JSON
from bot.i18n import N_, _, pgettext, speaking
from bot.render.text import in_words

PLAYER_NAMES: tuple[str, ...] = (N_("Red"), N_("Yellow"), N_("Green"), N_("Blue"))
"""A seat called by its colour (``Red draws G2``), capitalised as a name."""


def colour_name(colour: int) -> str:
    """The colour as a player's name in the current language (``Red``, ``Rojo``)."""
    return _(PLAYER_NAMES[colour])


def colour_word(colour: int) -> str:
    """The colour as a word in a sentence, lower case (``red``: "red has no Up instruction")."""
    return (pgettext("colour", "red"), pgettext("colour", "yellow"), pgettext("colour", "green"),
            pgettext("colour", "blue"))[colour]


def orientation_name(orient: int) -> str:
    """An orientation as the builder's buttons and the rules name it (``Up``, ``Right``, ``Standing``): the
    notation's letters U/D/L/R/S are their initials, so the catalogs keep them as they are (they are looked
    up so that the catalog says so, and the pseudo-locale run sees them pass through it)."""
    # Translators: an orientation of an instruction; keep it in English (its initial is the letter typed)
    return (pgettext("orientation", "Up"), pgettext("orientation", "Down"), pgettext("orientation", "Left"),
            pgettext("orientation", "Right"), pgettext("orientation", "Standing"))[orient]


def piece_colour(colour: int) -> str:
    """The colour said of a piece (``a red small piece``), lower case."""
    return (pgettext("piece", "red"), pgettext("piece", "yellow"), pgettext("piece", "green"),
            pgettext("piece", "blue"))[colour]


def size_word(size: int) -> str:
    """``small`` / ``medium`` / ``large`` for sizes 1-3 (a piece's size, said of the piece)."""
    return (pgettext("piece", "small"), pgettext("piece", "medium"), pgettext("piece", "large"))[size - 1]


@dataclass(frozen=True)
class Player:
    """A seat named in a text, by its colour (written by :func:`tr`'s ``who``, else :func:`colour_name`)."""

    colour: int


@dataclass(frozen=True)
class ColourWord:
    """A colour as a word in a text (:func:`colour_word`: ``red``), not a seat."""

    colour: int


@dataclass(frozen=True)
class Join:
    """Several parts of a text in a row: ``A, B and C`` (``last``), else ``A, B, C`` (or ``sep``)."""

    items: tuple[Arg, ...]
    last: bool = True
    sep: str = ", "


Who = Callable[[int], str]
"""Writes a colour's player (``Red`` → ``🟥 **alice**``)."""


class Said(str):
    """A text the engine says: a plain string (the text in the language current when it was made), which
    also keeps its English sentence (``template``, marked for translation where it is made) and its parts,
    so :func:`tr` can write it again in another language."""

    template: str
    plural: str | None
    n: int | None
    args: tuple[tuple[str, Arg], ...]

    def __new__(cls, template: str, args: Mapping[str, Arg] | None = None, plural: str | None = None,
                count: int | None = None) -> Said:
        parts = tuple((args or {}).items())
        obj = super().__new__(cls, _write(template, plural, count, parts, None))
        obj.template, obj.plural, obj.n, obj.args = template, plural, count, parts
        return obj

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with its parts (worker processes)
        return (_rebuild, (self.template, dict(self.args), self.plural, self.n))

    def write(self, who: Who | None = None) -> str:
        """This text in the current language (the seats named by ``who``)."""
        return _write(self.template, self.plural, self.n, self.args, who)

    @property
    def english(self) -> str:
        """This text in English (what the stored state keeps beside the parts)."""
        with speaking("en"):
            return self.write()


Arg: TypeAlias = "int | str | Said | Player | ColourWord | Join"  # not translated: a type


def _rebuild(template: str, args: Mapping[str, Arg], plural: str | None, count: int | None) -> Said:
    return Said(template, args, plural, count)


def said(template: str, /, **args: Arg) -> Said:
    """A text of ``template`` (an English sentence marked with ``N_``) with ``args`` as its parts."""
    return Said(template, args)


def ngettext(singular: str, plural: str, count: int, /, **args: Arg) -> Said:
    """A text with a singular and a plural form (``{n}`` is ``count``). Called as ``words.ngettext(...)``:
    the catalogs' extraction reads the two forms as one plural entry, as for :func:`bot.i18n.ngettext`."""
    return Said(singular, args, plural, count)


def and_list(items: Sequence[Arg]) -> Join:
    """``A``, ``A and B``, ``A, B and C``: parts in a sentence."""
    return Join(tuple(items))


def _arg(value: Arg, who: Who | None) -> str:
    if isinstance(value, Said):
        return value.write(who)
    if isinstance(value, Player):
        return who(value.colour) if who is not None else colour_name(value.colour)
    if isinstance(value, ColourWord):
        return colour_word(value.colour)
    if isinstance(value, Join):
        parts = [_arg(v, who) for v in value.items]
        return in_words(parts, value.sep) if value.last else value.sep.join(parts)
    return str(value)


def _write(template: str, plural: str | None, count: int | None, args: tuple[tuple[str, Arg], ...],
           who: Who | None) -> str:
    kw = {k: _arg(v, who) for k, v in args}
    if plural is not None and count is not None:
        return i18n.ngettext(template, plural, count, **kw)
    return _(template, **kw)


def english(text: str) -> str:
    """``text`` in English (a :class:`Said` written again; any other string as it is)."""
    return text.english if isinstance(text, Said) else text


def tr(text: Arg, who: Who | None = None) -> str:
    """``text`` in the current language: a :class:`Said` (or a part) is written again (its seats named by
    ``who``); any other string (an older stored state's English) is returned as it is."""
    return _arg(text, who)


# --- as JSON (the state keeps the parts of its step log) ------------------------------------------------

def dump(value: Arg) -> JSON:
    """``value`` as plain JSON (see :func:`load`)."""
    if isinstance(value, Said):
        out: dict[str, JSON] = {"t": value.template, "a": {k: dump(v) for k, v in value.args}}
        if value.plural is not None:
            out["p"], out["n"] = value.plural, value.n
        return out
    if isinstance(value, Player):
        return {"player": value.colour}
    if isinstance(value, ColourWord):
        return {"colour": value.colour}
    if isinstance(value, Join):
        return {"join": [dump(v) for v in value.items], "last": value.last, "sep": value.sep}
    return value


def load(data: JSON) -> Arg:
    """The inverse of :func:`dump`.

    Raises:
        ValueError: not a dumped text.
    """
    if isinstance(data, bool) or data is None:
        raise ValueError(f"not a text part: {data!r}")
    if isinstance(data, int | str):
        return data
    if isinstance(data, dict):
        if "t" in data:
            args = data.get("a") or {}
            if not isinstance(args, dict):
                raise ValueError("text parts must be an object")
            n = data.get("n")
            plural = data.get("p")
            return Said(str(data["t"]), {str(k): load(v) for k, v in args.items()},
                        str(plural) if plural is not None else None, int(n) if isinstance(n, int) else None)
        for key, kind in (("player", Player), ("colour", ColourWord)):
            if key in data:
                colour = data[key]
                if not isinstance(colour, int) or not 0 <= colour < len(PLAYER_NAMES):
                    raise ValueError(f"bad colour {colour!r}")
                return kind(colour)
        if "join" in data and isinstance(data["join"], list):
            return Join(tuple(load(v) for v in data["join"]), bool(data.get("last", True)),
                        str(data.get("sep", ", ")))
    raise ValueError(f"not a text part: {data!r}")


def load_text(data: JSON, fallback: str) -> str:
    """A stored text: its parts when the state kept them (a :class:`Said`), else ``fallback`` (English)."""
    if data is None:
        return fallback
    value = load(data)
    return value if isinstance(value, str) else fallback
