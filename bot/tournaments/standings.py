"""Standings: points, then the format's tiebreaks.

* Swiss: points, Buchholz (the sum of the final scores of the opponents met over the board),
  Sonneborn–Berger (the scores of the opponents beaten, plus half the scores of those drawn).
* Round robin: points, Sonneborn–Berger, head-to-head (points scored in the games among the
  players still tied).

Byes and forfeits give their points but name no opponent, so they add nothing to Buchholz or
Sonneborn–Berger (a forfeit is not a game over the board). Players still equal after every
tiebreak share the place; the listing then follows the seeding.

Units are exact integers: points and Buchholz in half points, Sonneborn–Berger in quarter points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.i18n import _, ngettext, pgettext
from bot.tournaments.model import Format, Pairing, format_points


@dataclass(frozen=True)
class Row:
    place: int
    player: int
    points: int        # half points
    buchholz: int      # half points
    sb: int            # quarter points
    h2h: int           # half points among the tied group (round robin)
    played: int        # pairings with a result (byes and forfeits included)
    wins: int
    draws: int
    losses: int
    withdrawn: bool = False

    @property
    def points_text(self) -> str:
        return format_points(self.points)

    @property
    def buchholz_text(self) -> str:
        return format_points(self.buchholz)

    @property
    def sb_text(self) -> str:
        value = self.sb / 4
        return f"{value:g}"


def standings(players: Sequence[int], pairings: Iterable[Pairing], fmt: Format, *,
              withdrawn: Iterable[int] = ()) -> list[Row]:
    """The table after the pairings with a result; ``players`` in seeding order (everyone who ever played)."""
    pairings = [p for p in pairings if p.result is not None]
    gone = set(withdrawn)
    points: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    draws: dict[int, int] = defaultdict(int)
    losses: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    games: dict[int, list[tuple[int, int]]] = defaultdict(
        list
    )  # player -> (opponent, half points) over the board
    for p in pairings:
        assert p.result is not None
        for me in (p.white, p.black):
            if me is None:
                continue
            got = p.points_of(me)
            points[me] += got
            played[me] += 1
            if got == 2:
                wins[me] += 1
            elif got == 1:
                draws[me] += 1
            else:
                losses[me] += 1
            opp = p.opponent_of(me)
            if opp is not None and p.result.was_played:
                games[me].append((opp, got))
    buchholz = {pl: sum(points[o] for o, _got in games[pl]) for pl in players}
    sb = {pl: sum(got * points[o] for o, got in games[pl]) for pl in players}
    seed = {pl: i for i, pl in enumerate(players)}

    def h2h_in(group: list[int]) -> dict[int, int]:
        members = set(group)
        return {pl: sum(got for o, got in games[pl] if o in members) for pl in group}

    if fmt.is_round_robin:
        primary = {pl: (points[pl], sb[pl]) for pl in players}
        groups: dict[tuple[int, int], list[int]] = defaultdict(list)
        for pl in players:
            groups[primary[pl]].append(pl)
        h2h: dict[int, int] = {}
        for group in groups.values():
            h2h.update(h2h_in(group) if len(group) > 1 else {group[0]: 0})
        key = {pl: (points[pl], sb[pl], h2h[pl]) for pl in players}
    else:
        h2h = {pl: 0 for pl in players}
        key = {pl: (points[pl], buchholz[pl], sb[pl]) for pl in players}
    order = sorted(players, key=lambda pl: (tuple(-x for x in key[pl]), seed[pl]))
    rows = []
    place = 0
    for i, pl in enumerate(order):
        if i == 0 or key[pl] != key[order[i - 1]]:
            place = i + 1
        rows.append(Row(place, pl, points[pl], buchholz[pl], sb[pl], h2h[pl], played[pl], wins[pl], draws[pl],
                        losses[pl], pl in gone))
    return rows


def text_table(rows: Sequence[Row], names: dict[int, str], fmt: Format, *, limit: int = 40) -> str:
    """The table as monospace text (for ``/tournament standings``)."""
    # (SB: Sonneborn-Berger and Buch: Buchholz are names, the same in every language)
    tb = ("SB", pgettext("standings column", "H2H")) if fmt.is_round_robin else ("Buch", "SB")
    player = pgettext("standings column", "Player")
    width = min(18, max([4, *(len(names.get(r.player, "?")) for r in rows[:limit])]))
    head = (f"{'#':>3} {player:<{width}} {pgettext('standings column', 'Pts'):>4} {tb[0]:>5} {tb[1]:>5}  "
            f"{pgettext('standings column', 'W-D-L')}")
    lines = [head, "-" * len(head)]
    for r in rows[:limit]:
        name = names.get(r.player, "?")[:width]
        t1, t2 = (r.sb_text, format_points(r.h2h)) if fmt.is_round_robin else (r.buchholz_text, r.sb_text)
        mark = " " + _("(withdrew)") if r.withdrawn else ""
        lines.append(f"{r.place:>3} {name:<{width}} {r.points_text:>4} {t1:>5} {t2:>5}  "
                     f"{r.wins}-{r.draws}-{r.losses}{mark}")
    if len(rows) > limit:
        lines.append(ngettext("… and {n} more", "… and {n} more", len(rows) - limit))
    return "\n".join(lines)
