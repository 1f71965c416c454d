"""Boards in words, for every game: the picture's alt text and the text board (issue 31).

Both come from the game's ``describe.py`` beside its renderer (``alt_text(view, names, events)``,
``text_board(view, names, legal)``) and read the same view the picture is drawn from. This module adds
what only the platform knows: how a resigned or timed-out match ended, the last move from the log for a
game whose words have none, the legal moves of the seat the text is for, and which players chose text
boards (``/notify boards:``, kept in memory so a move costs no extra database read).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from bot.games.base import CHANCE, Event
from bot.i18n import N_, _
from bot.i18n.pseudo import CLOSE, PAD
from bot.matches.service import Match, Result
from bot.names import shown
from cogs._game.base import ALT_LIMIT, describer

LAST = N_("Last:")
"""How the last move's sentence begins, in every game's alt text ("Last: Bob played c3-c4."): a game's
``describe.py`` begins its own so, in the same words per language (:func:`last_in_words` looks for it)."""

LIST_LIMIT = 40
"""Legal moves listed up to this many; more are only counted (EOF programs, Pylon placements)."""


def public_events(result: Result | None) -> list[Event]:
    """The events of the move that may be told in the channel (never one meant for a single seat)."""
    if result is None:
        return []
    return [e for e in result.events if e.visible_to is None]


def log_last(match: Match, result: Result | None) -> str:
    """The last move from the match's log in plain words ("Last: Bob played c3-c4."), for a game whose
    own words say none."""
    plies: list[tuple[int, str]] = []
    if result is not None and result.moves:
        plies = [(mv.seat, str(mv.notation)) for mv in result.moves]
    else:
        plies = [(int(s), str(n)) for s, n in match.rec.ui.get("turn") or ()]
    if not plies:
        return ""
    said = []
    for seat, notation in plies[-3:]:
        if seat == CHANCE:
            said.append(_("Chance played {move}", move=notation))
            continue
        who = match.seats[seat].name if 0 <= seat < len(match.seats) else "?"
        said.append(_("{player} played {move}", player=who, move=notation))
    return _("Last: {moves}.", moves=_(", then ").join(said))


def describe_board(game_key: str, match: Match, result: Result | None, ended: str = "") -> str:
    """The alt text of the board picture of ``match`` after ``result`` (``ended``: how the platform ended
    it, said first). At most 1,024 characters; always names who is to move (or the result) and the last
    move when there was one."""
    view = match.view(None)
    names = match.names()
    events = public_events(result)
    module = describer(game_key)
    if module is not None:
        alt = str(module.alt_text(view, names, events))
    else:
        who = ", ".join(match.seats[s].name for s in sorted(match.to_act()))
        alt = (_("{game}, {players} to move.", game=match.spec.title, players=who) if who
               else f"{match.spec.title}.")
    if not last_in_words(alt):
        last = log_last(match, result)
        if last:
            room = ALT_LIMIT - len(last) - 2
            alt = f"{alt} {last}" if len(alt) <= room else f"{alt[:room - 1]}… {last}"
    if ended:
        alt = f"{ended.rstrip('.')}. {alt}"
    return alt[:ALT_LIMIT]


def last_in_words(alt: str) -> str:
    """The alt text's "Last: …" sentence(s): the opponent's move in words, for a turn notice (its words
    in the current language, or English's where a game's text has no translation)."""
    # (a looked-up "Last:" as it starts a longer text: without the pseudo-locale's padding and bracket)
    for mark in dict.fromkeys((_(LAST).rstrip(PAD + CLOSE), LAST)):
        at = alt.rfind(mark + " ")
        if at >= 0:
            return alt[at:]
    return ""


def legal_for(match: Match, seat: int | None) -> Sequence[str] | int:
    """The legal moves of ``seat`` in notation, or only their number when there are more than
    :data:`LIST_LIMIT`."""
    if seat is None or match.state is None or seat not in match.to_act():
        return ()
    moves = match.rules.legal_moves(match.state, seat)
    if len(moves) > LIST_LIMIT:
        return len(moves)
    return [match.rules.format(m, match.state) for m in moves]


def text_for(game_key: str, match: Match, seat: int | None, *, private: bool = False,
             result: Result | None = None) -> str:
    """The text board of ``match`` for ``seat`` (its legal moves; ``private``: the seat's own view, for
    an ephemeral answer or its DM), names made safe for a message; the move's words first."""
    module = describer(game_key)
    view = match.view(seat if private else None)
    names = [shown(n) for n in match.names()]
    target = seat if seat is not None and seat in match.to_act() else min(match.to_act(), default=None)
    if module is None:
        text = describe_board(game_key, match, result)
    else:
        text = str(module.text_board(view, names, legal_for(match, target)))
    if result is not None and module is not None:
        last = last_in_words(str(module.alt_text(match.view(None), names, public_events(result))))
        if last and last not in text:
            text = f"{last}\n{text}"
    return text


class TextBoards:
    """Who chose text boards (``/notify boards:text``), per server: read from the store once per
    :data:`TTL` seconds and server, and changed here at once when a member changes it in this process."""

    TTL = 60.0

    def __init__(self, store: Any) -> None:
        self.store = store
        self._kept: dict[int, tuple[float, set[int]]] = {}

    async def users(self, guild_id: int | None) -> set[int]:
        if guild_id is None:
            return set()
        kept = self._kept.get(guild_id)
        now = time.monotonic()
        if kept is None or now - kept[0] > self.TTL:
            kept = (now, set(await self.store.text_board_users(guild_id)))
            self._kept[guild_id] = kept
        return kept[1]

    def changed(self, guild_id: int, user_id: int, on: bool) -> None:
        kept = self._kept.get(guild_id)
        if kept is not None:
            (kept[1].add if on else kept[1].discard)(user_id)


def text_boards_of(bot: Any) -> TextBoards:
    """The bot's one :class:`TextBoards` (made on first use)."""
    kept = getattr(bot, "text_boards", None)
    if not isinstance(kept, TextBoards):
        kept = TextBoards(bot.store)
        bot.text_boards = kept
    return kept
