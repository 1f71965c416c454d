"""The Egg Carton Game in words: the board picture's (and sowing animation's) alt text and the text board,
from the view the picture is drawn from. Slots A–F are player 1's, I–N player 2's (I opposite F)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Event
from bot.games.egg_carton.notation import side_name
from bot.games.egg_carton.rules import EggCartonView, player_name
from bot.i18n import N_, _, ngettext
from bot.render.describing import Legal, clip_lines, fit_body, legal_lines, named, seat_names, with_side

SOWN_LIMIT = 560
"""Characters of the last pick's sowing in the alt text before its middle relays are only counted."""
ZONE_WORDS = {"right": N_("the right end zone"), "left": N_("the left end zone")}
"""The end zones as the sowing's words name them, in English (look each up with ``_()``)."""


def _players() -> list[str]:
    return [player_name(0), player_name(1)]


def _who(names: Sequence[str], seat: int) -> str:
    return with_side(names[seat], player_name(seat))


def _head(view: EggCartonView, names: Sequence[str]) -> str:
    if view.winner is not None:
        w = view.winner
        return _("Egg Carton Game, game over: {player} cleared {side} and wins.", player=_who(names, w),
                 side=side_name(w))
    seat = view.to_move if view.to_move is not None else 0
    if view.again:
        return _("Egg Carton Game, turn {turn}, {player} to pick again.", turn=view.turn,
                 player=_who(names, seat))
    return _("Egg Carton Game, turn {turn}, {player} to pick.", turn=view.turn, player=_who(names, seat))


def _side(view: EggCartonView, seat: int, names: Sequence[str]) -> str:
    slots = ", ".join(f"{letter} {n}" for letter, n in view.side(seat))
    return _("{player}'s side {side}: {slots}", player=names[seat], side=side_name(seat), slots=slots)


def sowing_words(events: Sequence[Event], names: Sequence[str] | None = None) -> str:
    """What the last pick did, marble by marble, as the animation shows it: the pick, the slots that got
    one, the marbles that went off the board, each relay, and how the turn went on."""
    parts: list[str] = []
    drops: list[str] = []
    players = _players()

    def flush() -> None:
        if drops:
            places = ", ".join(drops)
            if parts:
                parts[-1] = parts[-1].rstrip(".") + ", " + _("one into each of {places}.", places=places)
            else:
                parts.append(_("One into each of {places}.", places=places))
            drops.clear()

    for e in events:
        if e.kind == "drop":
            drops.append(str(e.data.get("slot", "?")))
        elif e.kind == "off":
            zone = ZONE_WORDS.get(str(e.data.get("zone")))
            drops.append(_(zone) if zone else _("an end zone"))
        elif e.text and e.visible_to is None:
            flush()
            parts.append(named(e.text, players, names))
    flush()
    return " ".join(parts)


def alt_text(view: EggCartonView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """Who picks, both sides' slots with their marble counts, and the last pick as sown (the sowing's
    animation shows exactly that, then stops on this position)."""
    nm = seat_names(names, _players())
    body = ". ".join(_side(view, s, nm) for s in (0, 1)) + "."
    sown = sowing_words(events, nm)
    if len(sown) > SOWN_LIMIT:  # a long chain of relays: the pick, the last relay and the end stay whole
        said = sown.split(". ")
        more = ngettext("… {n} more relay", "… {n} more relays", len(said) - 3)
        sown = ". ".join([said[0], more, *said[-2:]])
    return fit_body(_head(view, nm), body, _("Last: {moves}", moves=sown) if sown else "")


def text_board(view: EggCartonView, names: Sequence[str] | None = None, legal: Legal = ()) -> str:
    """Both rows of slots with their counts (player 2's row first, as the picture has it), how many
    marbles have gone off the board, and the legal picks (listed, or counted)."""
    nm = seat_names(names, _players())
    lines = [_head(view, nm), _side(view, 1, nm) + ".", _side(view, 0, nm) + ".",
             ngettext("Off the board (in the end zones): {n} marble.",
                      "Off the board (in the end zones): {n} marbles.", sum(view.off))]
    lines += legal_lines(legal, nm[view.to_move] if view.to_move is not None else "")
    return clip_lines(lines)
