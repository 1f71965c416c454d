"""Draw EOF pictures from views: the board, a player's hand, the execution animation.

The board is a dark card 880 px wide: a header (round, phase, the current
instruction or what the game waits for), the file as rows of pyramids seen
from the side in their colours and sizes between a BOF and an EOF marker,
record numbers, one pointer lane per player (a small triangle in the player's
colour under the record it points at), and two panels: the players (score so
far, each round's points, hand/program status, the instructions revealed by
execution, the last round's configurations) and the data pool (counts by
colour and size). Records touched by the last instruction are outlined in
amber; after a round is scored each player's configurations are underlined
in their colour.

:func:`render_hand` (in :mod:`.hand`, re-exported here) draws the DM picture
of a player's hand and the program being built; :func:`animate` makes one
frame per execution step plus a final still. Geometry helpers (:func:`position_box`, :func:`piece_point`,
:func:`pointer_point`, in :mod:`.drawing` with the colours and the drawing
primitives, re-exported here) are public so tests can check pixels at known places.
Nothing here encodes images (``bot.render`` does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.games.base import JSON, Event
from bot.games.eof.drawing import (
    CRASH,
    FILE_X,
    FINAL_MS,
    HEADER_H,
    LABEL_FONT,
    NUM_H,
    NUMBER_FONT,
    OUTLINE,
    PANEL_HEAD,
    PER_ROW,
    PIECE_COLOURS,
    POOL_ROW,
    RGB,
    ROW_GAP,
    SLOT,
    SPEEDS,
    STRIP,
    TEXT_FONT,
    TOP_H,
    WIDTH,
    CachedDraw,
    board_height,
    draw_badge,
    draw_marker,
    draw_pyramid,
    file_rows,
    fit_text,
    label,
    lanes,
    mix,
    panels_height,
    panels_top,
    piece_point,
    player_row_height,
    players_height,
    pointer_point,
    pool_slot,
    pool_top,
    position_box,
    positions,
    row_height,
    seat_name,
    shade,
)
from bot.games.eof.hand import render_hand
from bot.games.eof.notation import read_instruction
from bot.games.eof.pieces import (
    LETTERS,
    SIZE_LETTERS,
    Piece,
)
from bot.games.eof.scoring import Configuration
from bot.games.eof.state import HAND, Step, result_sentence, round_summary
from bot.games.eof.views import EofView, PlayerView
from bot.games.eof.words import colour_name, tr
from bot.i18n import _, ngettext, pgettext
from bot.render import ACCENT, CARD, CARD_LIGHT, INK, INK_DARK, MUTED, font, start

# --- what to highlight ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Marks:
    touched: tuple[int, ...] = ()
    actor: int | None = None
    crash: bool = False
    configs: tuple[tuple[Configuration, ...], ...] | None = None
    scored_round: int | None = None


def _marks(view: EofView, events: Sequence[Event]) -> _Marks:
    steps = [e for e in events if e.kind == "step"]
    scored = [e for e in events if e.kind == "score"]
    touched: tuple[int, ...] = ()
    actor = None
    crash = False
    if steps:
        data = steps[-1].data
        touched = tuple(int(t) for t in data.get("touched", ()))
        actor = int(data["seat"])
        crash = bool(data.get("crash"))
    elif view.pending is not None:
        touched, actor = (view.pending.record,), view.pending.seat  # the record asked about
    elif view.current is not None:
        touched, actor, crash = view.current.touched, view.current.seat, bool(view.current.crash)
    if scored and view.last_round is not None:
        return _Marks((), None, False, view.last_round.configurations, view.last_round.round)
    return _Marks(touched, actor, crash)


def _status(view: EofView, names: Sequence[str] | None, marks: _Marks) -> tuple[str, RGB]:
    def nm(t: int) -> str:
        return seat_name(view, names, t)

    if view.finished:
        scores = " · ".join(f"{nm(t)} {sc}" for t, sc in enumerate(view.scores))
        return _("Final scores: {scores}", scores=scores), ACCENT
    if marks.scored_round is not None and view.last_round is not None:
        pts = ", ".join(f"{nm(t)} {p:+d}" for t, p in enumerate(view.last_round.points))
        return _("Round {round} scored: {points}", round=marks.scored_round, points=pts), ACCENT
    if view.pending is not None:
        pd = view.pending
        waiting = [nm(t) for t in pd.asked if t not in pd.allowed]
        return _("{player} {instruction} wants to delete record {record}: waiting for {players} to allow or "
                 "deny", player=nm(pd.seat), instruction=str(pd.instruction), record=pd.record + 1,
                 players=", ".join(waiting)), ACCENT
    if view.current is not None and view.phase in ("program", "permission", "execute"):
        st = view.current
        if st.crash:
            return _("{player} {instruction}: CRASH, {reason}", player=nm(st.seat),
                     instruction=str(st.instruction), reason=tr(st.crash)), CRASH
        return _("{player} {instruction}: {result}", player=nm(st.seat), instruction=str(st.instruction),
                 result=tr(st.text)), ACCENT
    if view.phase == "first":
        return _("Drawing a piece to decide who plays first"), INK
    if view.phase == "deal" and view.drawing is not None:
        t = view.drawing
        k = len(view.players[t].draws)
        line = _("{player} {progress}", player=nm(t), progress=deal_progress(k))
        if view.bag_sizes is not None:
            sizes = " ".join(f"{SIZE_LETTERS[i]} {n}" for i, n in enumerate(view.bag_sizes))
            line += " · " + _("bag {sizes}", sizes=sizes)
        return line, INK
    if view.phase == "program":
        waiting = [nm(t) for t in view.to_act]
        if waiting:
            return _("Programming: waiting for {players}", players=", ".join(waiting)), INK
    return "", INK


def deal_progress(drawn: int) -> str:
    """``draws (1/9)``: the draw about to be made (the board's embed says the same)."""
    return _("draws ({count}/{hand})", count=drawn + 1, hand=HAND)


def winners_text(view: EofView, names: Sequence[str] | None = None) -> str:
    """How the finished game ended (:func:`~bot.games.eof.state.result_sentence`): ``Alice wins with
    23``, ``Alice and Bob tie for first with 12``, ``Draw: Alice, Bob and Carol tie with 0``."""
    return str(result_sentence(view.scores, [seat_name(view, names, t) for t in range(len(view.scores))]))


TITLE_SIZES: Final = (30, 28, 26, TEXT_FONT)
"""Font sizes the title may shrink to, so a finished game's result fits whole (never under the 11 px
at 400 px wide floor)."""
STATUS_SIZES: Final = (TEXT_FONT,)


def _fitted(texts: Sequence[str], sizes: Sequence[int], bold: bool) -> tuple[str, int]:
    """The first of ``texts`` that fits the header's width at one of ``sizes`` (largest first), else the
    last one cut to fit at the smallest size."""
    for text in texts:
        for size in sizes:
            if font(size, bold).getlength(text) <= WIDTH - 48:
                return text, size
    return fit_text(texts[-1], sizes[-1], WIDTH - 48, bold), sizes[-1]


def title_layout(view: EofView, names: Sequence[str] | None = None) -> tuple[str, int]:
    """The picture's title as drawn and its font size: round and phase, or once the game is over its
    result in the one wording every place uses. A result too long with the players' names is said with
    their colours (the players panel pairs each name with its colour), never cut to the first name."""
    if view.finished:
        return _fitted([_("EOF · Final · {result}", result=winners_text(view, names)),
                        _("EOF · Final · {result}", result=winners_text(view))], TITLE_SIZES, True)
    phase = view.phase
    if view.current is not None and view.phase == "program" and view.steps:
        phase = "execute"
    title = _("EOF · Round {round} of {rounds} · {phase}", round=view.round, rounds=view.rounds,
              phase=phase_name(phase))
    return fit_text(title, 30, WIDTH - 48, True), 30


def phase_name(phase: str) -> str:
    """The title's name of a phase (``Deal``, ``Programming``, ``Execution``, ``Final``)."""
    if phase in ("first", "deal"):
        return pgettext("phase", "Deal")
    if phase == "program":
        return pgettext("phase", "Programming")
    if phase in ("permission", "execute"):
        return pgettext("phase", "Execution")
    if phase == "over":
        return pgettext("phase", "Final")
    return phase


def headline(view: EofView, names: Sequence[str] | None = None) -> str:
    """The picture's title as drawn (:func:`title_layout`)."""
    return title_layout(view, names)[0]


def alt_text(view: EofView, names: Sequence[str] | None = None, events: Sequence[Event] = ()) -> str:
    """The board picture's alt text, from the view it is drawn from: the title (the result in the one
    wording once the game is over, with every name whole), the status line, the file, the scores."""
    return " ".join(alt_parts(view, names, events))[:1024]


def alt_parts(view: EofView, names: Sequence[str] | None = None,
              events: Sequence[Event] = ()) -> tuple[str, str, str]:
    """The alt text's three sentences, in the current language: the title and status line, the file, the
    scores (the text board takes the first one)."""
    if view.finished:
        head = _("EOF, final: {result}.", result=winners_text(view, names))
    else:
        head = headline(view, names).replace(" · ", ", ", 1) + "."
        status = _status(view, names, _marks(view, events))[0]
        if status:
            head += f" {status}."
    records = " ".join(label(p) for p in view.file)
    file = (ngettext("File of {n} record: {records}.", "File of {n} records: {records}.", len(view.file),
                     records=records) if view.file else _("The file is empty."))
    scores = ", ".join(f"{seat_name(view, names, t)} ({colour_name(pl.colour)}) {pl.score}"
                       for t, pl in enumerate(view.players))
    return head, file, _("Scores: {scores}.", scores=scores)


# --- the board -----------------------------------------------------------------------------------------

def render(view: EofView, *, names: Sequence[str] | None = None, events: Sequence[Event] = (),
           clocks: Sequence[int | None] | Mapping[int, int] | None = None) -> Image.Image:
    """The board picture for ``view`` (the channel's or a player's; it shows no hand).

    ``names`` are display names per seat (default: colour names), ``events``
    the last move's events (the last ``step`` is highlighted, a ``score``
    event underlines the configurations), ``clocks`` remaining ms per seat.
    """
    marks = _marks(view, events)
    img, d = start((WIDTH, board_height(view)), CARD, draw=CachedDraw)
    _draw_header(d, view, names, marks)
    _draw_file(d, view, marks)
    _draw_players(d, view, names, marks, clocks)
    _draw_pool(d, view)
    return img


def _draw_header(d: ImageDraw.ImageDraw, view: EofView, names: Sequence[str] | None, marks: _Marks) -> None:
    title, size = title_layout(view, names)
    d.text((24, 12 + (30 - size) // 2), title, font=font(size, True), fill=ACCENT if view.finished else INK)
    if view.finished:  # the scores with the players' names, or with their colours when that is too long
        text, size = _fitted([_status(view, names, marks)[0], _status(view, None, marks)[0]], STATUS_SIZES,
                             False)
        d.text((24, 58), text, font=font(size), fill=ACCENT)
        return
    text, colour = _status(view, names, marks)
    d.text((24, 58), fit_text(text, TEXT_FONT, WIDTH - 48), font=font(TEXT_FONT), fill=colour)


def _draw_file(d: ImageDraw.ImageDraw, view: EofView, marks: _Marks) -> None:
    n = len(view.file)
    total = positions(view)
    rows = file_rows(view)
    rh = row_height(lanes(view))
    for r in range(rows):
        y0 = HEADER_H + r * rh
        cols = min(PER_ROW, total - r * PER_ROW)
        d.rounded_rectangle([FILE_X - 6, y0 - 4, FILE_X + cols * SLOT + 6, y0 + rh - ROW_GAP + 2], radius=8,
                            fill=STRIP)
    if n == 0:
        draw_marker(d, position_box(view, 0), "BOF/EOF")
    else:
        draw_marker(d, position_box(view, 0), "BOF")
        draw_marker(d, position_box(view, n + 1), "EOF")
    touched = set(marks.touched)
    for i, piece in enumerate(view.file):
        x0, y0, x1, y1 = position_box(view, i + 1)
        cx = (x0 + x1) // 2
        if i in touched:
            d.rounded_rectangle([x0 + 1, y0 - TOP_H + 2, x1 - 1, y1 + NUM_H - 2], radius=6, outline=ACCENT,
                                width=3)
        d.text((cx, y0 - TOP_H // 2 + 2), str(i + 1), font=font(NUMBER_FONT), fill=MUTED, anchor="mm")
        draw_pyramid(d, cx, y1 - 4, piece)
        d.text((cx, y1 + NUM_H // 2 - 1), label(piece), font=font(LABEL_FONT, True), fill=INK, anchor="mm")
    if marks.configs is not None:
        for seat, cfgs in enumerate(marks.configs):
            colour = PIECE_COLOURS[view.players[seat].colour]
            for cfg in cfgs:
                for rec in cfg.records:
                    if rec >= n:
                        continue
                    x0, _y0, x1, y1 = position_box(view, rec + 1)
                    joined = cfg.kind != "spread" and rec + 1 in cfg.records
                    right = x1 + 1 if joined else x1 - 4
                    d.rectangle([x0 + 4, y1 + NUM_H, right, y1 + NUM_H + 5], fill=colour)
    if view.finished:
        return  # no pointer lanes in the final picture: nothing runs any more (drawing.lanes)
    for seat, pl in enumerate(view.players):
        cx, cy = pointer_point(view, seat)
        colour = PIECE_COLOURS[pl.colour]
        lit = marks.actor == seat
        if lit:
            d.rounded_rectangle([cx - 14, cy - 14, cx + 31, cy + 14], radius=7,
                                fill=CRASH if marks.crash else ACCENT)
        d.polygon([(cx, cy - 11), (cx + 9, cy + 10), (cx - 9, cy + 10)], fill=colour, outline=OUTLINE)
        d.text((cx + 12, cy + 1), LETTERS[pl.colour], font=font(TEXT_FONT + 1, True),
               fill=INK_DARK if lit else INK, anchor="lm")


def _draw_players(d: ImageDraw.ImageDraw, view: EofView, names: Sequence[str] | None, marks: _Marks,
                  clocks: Sequence[int | None] | Mapping[int, int] | None) -> None:
    top = panels_top(view)
    x0, x1 = 24, WIDTH - 24
    d.rounded_rectangle([x0, top, x1, top + players_height(view)], radius=10, fill=STRIP)
    small = font(TEXT_FONT)
    d.text((x0 + 14, top + 8), _("Players"), font=font(TEXT_FONT, True), fill=MUTED)
    d.text((x1 - 14, top + 8), pgettext("heading", "score"), font=small, fill=MUTED, anchor="ra")
    rh = player_row_height(view)
    for seat, pl in enumerate(view.players):
        y = top + PANEL_HEAD + seat * rh
        colour = PIECE_COLOURS[pl.colour]
        draw_badge(d, x0 + 32, y + 18, pl.colour)
        first = " ▸" if view.first == seat and view.phase not in ("first", "over") else ""
        d.text((x0 + 62, y + 2), fit_text(seat_name(view, names, seat) + first, TEXT_FONT, 380, True),
               font=font(TEXT_FONT, True), fill=colour)
        d.text((x1 - 14, y), str(pl.score), font=font(30, True), fill=INK, anchor="ra")
        rounds = " ".join(f"{p:+d}" for p in pl.round_scores)
        if rounds:
            d.text((x1 - 72, y + 4), rounds, font=small, fill=MUTED, anchor="ra")
        d.text((x0 + 62, y + 36), fit_text(_player_status(view, pl, clocks), TEXT_FONT, x1 - x0 - 76),
               font=small, fill=CRASH if pl.crashed and not view.finished else INK)
        if view.last_round is not None:
            lr = view.last_round
            cfg = tr(round_summary(lr.skipped[seat], lr.crashed[seat], False, lr.configurations[seat]))
            points = f"{lr.points[seat]:+d}"
            line = fit_text(_("Round {round}: {points} · {summary}", round=lr.round, points=points,
                              summary=cfg), TEXT_FONT, x1 - x0 - 76)
            d.text((x0 + 62, y + 68), line, font=small, fill=MUTED)


def _clock_text(ms: int | None) -> str:
    if ms is None:
        return ""
    sec = max(0, ms) // 1000
    h, rem = divmod(sec, 3600)
    m, s = divmod(rem, 60)
    time = f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
    return _("{time} left", time=time)


Clocks = Sequence[int | None] | Mapping[int, int] | None


def _player_status(view: EofView, pl: PlayerView, clocks: Clocks) -> str:
    parts: list[str] = []
    if view.phase == "deal" or view.phase == "first":
        parts.append(_("drew {count}: {pieces}", count=len(pl.draws), pieces=" ".join(map(str, pl.draws)))
                     if pl.draws else _("no draws yet"))
    elif view.phase == "program" and not view.steps:
        parts.append(_("hand {count} · ✓ program in", count=len(pl.draws)) if pl.submitted
                     else _("hand {count} · programming…", count=len(pl.draws)))
    elif view.phase in ("program", "permission", "execute"):
        shown = " ".join(map(str, pl.revealed))
        left = pl.program_length - len(pl.revealed)
        if pl.skipped:
            parts.append(_("no program"))
        elif pl.crashed:
            parts.append(_("{instructions} ✗ crashed: {reason}", instructions=shown,
                           reason=tr(pl.crash_reason)))
        else:
            parts.append((shown + " " if shown else "") + "▢ " * max(0, left))
    elif view.phase == "over":
        parts.append(_("final score"))
    if clocks is not None:
        ms = clocks.get(pl.seat) if isinstance(clocks, Mapping) else (
            clocks[pl.seat] if pl.seat < len(clocks) else None)
        c = _clock_text(ms)
        if c:
            parts.append(c)
    return " · ".join(p.strip() for p in parts if p.strip())


def _draw_pool(d: ImageDraw.ImageDraw, view: EofView) -> None:
    top = pool_top(view)
    x0, x1 = 24, WIDTH - 24
    d.rounded_rectangle([x0, top, x1, top + panels_height(view) - (top - panels_top(view))], radius=10,
                        fill=STRIP)
    head = _("Data pool · {count}", count=sum(view.pool))
    d.text((x0 + 14, top + 8), head, font=font(TEXT_FONT, True), fill=MUTED)
    opts = []  # the match's options, beside the pool (the header has no room at this size)
    if view.locking != "none":
        opts.append(view.locking)  # the option's value, as typed in /eof new
    if view.crash_penalty:
        opts.append(_("crash penalty"))
    if opts:  # cut rather than run into the heading (a longer language)
        room = (x1 - 14) - (x0 + 14) - int(font(TEXT_FONT, True).getlength(head)) - 24
        d.text((x1 - 14, top + 8), fit_text(" · ".join(opts), TEXT_FONT, room), font=font(TEXT_FONT),
               fill=MUTED, anchor="ra")
    for c in range(4):
        for size in (1, 2, 3):
            cx, y = pool_slot(view, c, size)
            n = view.pool[c * 3 + size - 1]
            piece = Piece(c, size)
            draw_pyramid(d, cx, y + POOL_ROW - 6, piece, scale=0.55, dim=n == 0)
            d.text((cx + 15, y + POOL_ROW // 2 - 2), f"{label(piece)}×{n}", font=font(TEXT_FONT, n > 0),
                   fill=INK if n else MUTED, anchor="lm")


# --- the execution animation ---------------------------------------------------------------------------

def _frame_view(base: EofView, steps: tuple[Step, ...], snap: Mapping[str, JSON]) -> EofView:
    file = tuple(Piece.parse(p) for p in snap["file"])
    pointers = tuple(int(p) for p in snap["pointers"])
    pool = tuple(int(p) for p in snap["pool"])
    players = []
    for pl in base.players:
        mine = tuple(st for st in steps if st.seat == pl.seat)
        crash = next((st.crash for st in mine if st.crash), "")
        players.append(replace(pl, pointer=pointers[pl.seat], revealed=tuple(st.instruction for st in mine),
                               crashed=bool(crash), crash_reason=crash, hand_size=0, submitted=True))
    return replace(base, phase="execute", file=file, pool=pool, players=tuple(players), steps=steps,
                   current=steps[-1], pending=None, to_act=(), pointers=pointers)


def _step_of(e: Event) -> Step:
    data = e.data
    return Step(int(data["seat"]), int(data["index"]), read_instruction(str(data["instruction"])),
                str(data.get("result", "")), str(data.get("crash", "")),
                tuple(int(t) for t in data.get("touched", ())))


@lru_cache(maxsize=1)
def gif_palette() -> Image.Image:
    """A fixed 256-colour palette for the frames: the UI colours and ramps from the card to each of them."""
    keys: list[RGB] = [CARD, STRIP, CARD_LIGHT, INK, INK_DARK, MUTED, ACCENT, OUTLINE, CRASH]
    for c in PIECE_COLOURS:
        dim = mix(c, STRIP, 0.35)
        keys += [c, shade(c, 0.72), shade(c, 0.6), dim, shade(dim, 0.72)]
    cols: list[RGB] = []
    for k in keys:
        if k not in cols:
            cols.append(k)
    bases = (CARD, STRIP, CARD_LIGHT)
    for bg in bases:
        for k in keys:
            if k in bases:
                continue
            for t in (0.2, 0.4, 0.6, 0.8):
                m = mix(k, bg, t)
                if m not in cols:
                    cols.append(m)
    cols = cols[:256]
    flat = [v for c in cols for v in c] + [0] * (768 - 3 * len(cols))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def to_palette(img: Image.Image) -> Image.Image:
    """``img`` mapped onto :func:`gif_palette` (no dithering): fast, stable GIF frames."""
    return img.quantize(palette=gif_palette(), dither=Image.Dither.NONE)


def animate(view_before: EofView, events: Sequence[Event], view_after: EofView, *,
            names: Sequence[str] | None = None, speed: str = "normal") -> list[tuple[Image.Image, int]]:
    """One frame per executed instruction in ``events``, then a final still of ``view_after``.

    Frames are palette images (``bot.render.gif_bytes`` uses them as they
    are); ``speed`` is ``slow``/``normal``/``fast`` or ``off`` (final still only).

    Raises:
        ValueError: unknown speed.
    """
    if speed not in SPEEDS:
        raise ValueError(f"speed must be one of {', '.join(SPEEDS)}")
    per = SPEEDS[speed]
    stills: list[tuple[Image.Image, int]] = []
    steps = tuple(view_before.steps)  # non-empty when execution resumes after a permission answer
    if per:
        for e in events:
            if e.kind != "step":
                continue
            steps = (*steps, _step_of(e))
            fv = _frame_view(view_before, steps, e.data)
            stills.append((render(fv, names=names, events=(e,)), per))
    stills.append((render(view_after, names=names, events=events), FINAL_MS))
    # one size for every frame (a GIF's canvas is its first frame: a taller final board, e.g. the next
    # round's longer file, would be cropped); shorter frames get card colour below
    height = max(im.height for im, _ms in stills)
    return [(to_palette(_pad(im, height)), ms) for im, ms in stills]


def _pad(img: Image.Image, height: int) -> Image.Image:
    if img.height == height:
        return img
    out = Image.new("RGB", (img.width, height), CARD)
    out.paste(img, (0, 0))
    return out


__all__ = [
    "CRASH",
    "FINAL_MS",
    "NUM_H",
    "PIECE_COLOURS",
    "STRIP",
    "WIDTH",
    "alt_text",
    "animate",
    "board_height",
    "deal_progress",
    "headline",
    "piece_point",
    "pointer_point",
    "position_box",
    "render",
    "render_hand",
    "title_layout",
    "winners_text",
]
