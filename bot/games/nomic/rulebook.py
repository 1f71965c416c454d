"""The rulebook as Discord Markdown: pages for ``/nomic rules``, one entry for ``/nomic rule``.

Pure text from a :class:`~bot.games.nomic.view.NomicView`; the cog puts each
page in an embed description (at most 4096 characters; pages default to
3800) and posts with mentions disabled.
"""

from __future__ import annotations

from bot.games.base import GameError
from bot.games.nomic.view import NomicView, RuleView

PAGE_LIMIT = 3800
_SETTING_WORDS = {"die": "Die", "votes": "Votes needed", "order": "Turn order", "phases": "Phases"}
_STATUS_WORDS = {"open": "being voted on", "rejected": "rejected",
                 "adopted": "adopted, takes effect next turn",
                 "in effect": "in effect", "repealed": "repealed", "applied": "adopted and applied"}


def settings_line(view: NomicView) -> str:
    """What the bot enforces now and which rule says so, on one line."""
    values = {"die": f"d{view.die}", "votes": view.votes_needed, "order": view.turn_order, "phases": {
        "both": "movement, then rule-change", "movement": "movement only",
        "rule-change": "rule-change only"}[view.phases]}
    parts = []
    for kind, source in view.setting_rules:
        where = f"rule {source}" if source is not None else "default"
        parts.append(f"{_SETTING_WORDS[kind]}: {values[kind]} ({where})")
    return " \u00b7 ".join(parts)


def rule_block(r: RuleView) -> str:
    """One rule as a Markdown block: bold number and title, its text, its effect."""
    title = r.title or ("Judgment" if r.kind == "judgment" else "")
    head = f"**{r.number}{'. ' + title if title else ''}**"
    if r.amended:
        head += " *(amended)*"
    lines = [head, r.text]
    if r.effect_text:
        lines.append(f"\u2699 Bot: {r.effect_text}")
    return "\n".join(lines)


def _split(block: str, limit: int) -> list[str]:
    """Cut a block longer than ``limit`` at line ends (hard cuts only for a single huge line)."""
    out: list[str] = []
    cur = ""
    for line in block.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if len(cur) + len(line) + 1 > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur:
        out.append(cur)
    return out


def rulebook_pages(view: NomicView, limit: int = PAGE_LIMIT) -> list[str]:
    """The rules in effect, in the order they took effect, as pages of at most ``limit`` characters.

    The first page opens with the settings in force and the rule-113 reminder.
    """
    header = (f"{len(view.in_effect)} rules in effect, in the order they took effect. On conflict the lowest "
              f"number wins (rule 113).\n{settings_line(view)}")
    blocks = [header]
    for n in view.in_effect:
        r = view.rule(n)
        if r is not None:
            blocks.append(rule_block(r))
    pages: list[str] = []
    cur = ""
    for block in blocks:
        for piece in _split(block, limit):
            if cur and len(cur) + 2 + len(piece) > limit:
                pages.append(cur)
                cur = piece
            else:
                cur = f"{cur}\n\n{piece}" if cur else piece
    if cur:
        pages.append(cur)
    return pages


def rule_detail(view: NomicView, number: int, limit: int = PAGE_LIMIT) -> str:
    """One numbered entry with its status, votes and history, for ``/nomic rule number:``.

    Raises:
        GameError: no entry has that number yet (the message gives the numbers that exist).
    """
    r = view.rule(number)
    if r is None:
        last = view.next_number - 1
        known = "101-115" + (f" and 201-{last}" if last >= 201 else "")
        raise GameError(f"There is no rule or proposal {number} (numbers so far: {known}).")
    if r.kind in ("repeal", "amend"):
        head = f"**Proposal {r.number}: {r.kind} rule {r.target}** \u00b7 {_STATUS_WORDS[r.status]}"
        body = [head]
        if r.text:
            body.append(("New text: " if r.kind == "amend" else "Reason: ") + r.text)
    elif r.kind == "enact" and r.status in ("open", "rejected"):
        body = [f"**Proposal {r.number}: enact a new rule** \u00b7 {_STATUS_WORDS[r.status]}", r.text]
    else:
        kind = "Judgment" if r.kind == "judgment" else "Rule"
        title = f" \u2014 {r.title}" if r.title else ""
        head = f"**{kind} {r.number}{title}** \u00b7 {_STATUS_WORDS[r.status]}"
        if r.amended:
            head += " \u00b7 amended"
        body = [head, r.text]
    if r.effect_text:
        body.append(f"\u2699 Bot: {r.effect_text} (`{r.effect}`)")
    if r.yes or r.no:
        body.append(f"\u2705 {_names(view, r.yes)}\n\u274c {_names(view, r.no)}")
    body.append("**History**")
    body += [f"\u2022 {line}" for line in r.history]
    text = "\n".join(body)
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text


def _names(view: NomicView, seats: tuple[int, ...]) -> str:
    return ", ".join(view.name(s) for s in seats) or "nobody"
