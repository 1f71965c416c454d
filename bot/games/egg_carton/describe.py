"""The Egg Carton Game in words: the board picture's (and sowing animation's) alt text and the text board,
from the view the picture is drawn from. Slots A–F are player 1's, I–N player 2's (I opposite F)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.egg_carton.notation import side_name
from bot.games.egg_carton.rules import PLAYER_NAMES, EggCartonView
from bot.render.describing import Legal, clip_lines, fit_body, legal_lines, named, seat_names, with_side

SOWN_LIMIT = 560
"""Characters of the last pick's sowing in the alt text before its middle relays are only counted."""
ZONE_WORDS = {"right": "the right end zone", "left": "the left end zone"}


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], PLAYER_NAMES[seat])


def _head(view: EggCartonView, names: Sequence[str]) -> str:
    if view.winner is not None:
        w = view.winner
        return f"Egg Carton Game, game over: {_who(names, w)} cleared {side_name(w)} and wins."
    seat = view.to_move if view.to_move is not None else 0
    pick = "pick again" if view.again else "pick"
    return f"Egg Carton Game, turn {view.turn}, {_who(names, seat)} to {pick}."


def _side(view: EggCartonView, seat: int, names: Sequence[str]) -> str:
    slots = ", ".join(f"{letter} {n}" for letter, n in view.side(seat))
    return f"{names[seat]}'s side {side_name(seat)}: {slots}"


def sowing_words(events: Sequence[Event], names: Sequence[str] | None = None) -> str:
    """What the last pick did, marble by marble, as the animation shows it: the pick, the slots that got
    one, the marbles that went off the board, each relay, and how the turn went on."""
    parts: list[str] = []
    drops: list[str] = []

    def flush() -> None:
        if drops:
            into = "one into each of " + ", ".join(drops) + "."
            if parts:
                parts[-1] = parts[-1].rstrip(".") + ", " + into
            else:
                parts.append(into[0].upper() + into[1:])
            drops.clear()

    for e in events:
        if e.kind == "drop":
            drops.append(str(e.data.get("slot", "?")))
        elif e.kind == "off":
            drops.append(ZONE_WORDS.get(str(e.data.get("zone")), "an end zone"))
        elif e.text and e.visible_to is None:
            flush()
            parts.append(named(e.text, PLAYER_NAMES, names))
    flush()
    return " ".join(parts)


def alt_text(view: EggCartonView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Who picks, both sides' slots with their marble counts, and the last pick as sown (the sowing's
    animation shows exactly that, then stops on this position)."""
    nm = seat_names(names, PLAYER_NAMES)
    body = ". ".join(_side(view, s, nm) for s in (0, 1)) + "."
    sown = sowing_words(events, nm)
    if len(sown) > SOWN_LIMIT:  # a long chain of relays: the pick, the last relay and the end stay whole
        said = sown.split(". ")
        sown = ". ".join([said[0], f"… {len(said) - 3} more relays", *said[-2:]])
    return fit_body(_head(view, nm), body, f"Last: {sown}" if sown else "")


def text_board(view: EggCartonView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """Both rows of slots with their counts (player 2's row first, as the picture has it), how many
    marbles have gone off the board, and the legal picks (listed, or counted)."""
    nm = seat_names(names, PLAYER_NAMES)
    lines = [_head(view, nm), _side(view, 1, nm) + ".", _side(view, 0, nm) + ".",
             f"Off the board (in the end zones): {sum(view.off)} marbles."]
    lines += legal_lines(legal, nm[view.to_move] if view.to_move is not None else "")
    return clip_lines(lines)
