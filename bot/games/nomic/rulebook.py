"""The rulebook as Discord Markdown: pages for ``/nomic rules``, one entry for ``/nomic rule``.

Pure text from a :class:`~bot.games.nomic.view.NomicView`; the cog puts each
page in an embed description (at most 4096 characters; pages default to
3800) and posts with mentions disabled.
"""

from __future__ import annotations

from bot.games.base import GameError
from bot.games.nomic.moves import order_short, phases_word, vote_word
from bot.games.nomic.state import known_numbers, status_word
from bot.games.nomic.view import NomicView, RuleView
from bot.i18n import N_, _, ngettext

PAGE_LIMIT = 3800
_SETTING_WORDS = {"die": N_("Die"), "votes": N_("Votes needed"), "order": N_("Turn order"),
                  "phases": N_("Phases")}
"""Each setting's name (looked up with ``_()`` where used)."""


def settings_line(view: NomicView) -> str:
    """What the bot enforces now and which rule says so, on one line."""
    values = {"die": f"d{view.die}", "votes": vote_word(view.votes_needed),
              "order": order_short(view.turn_order), "phases": phases_word(view.phases)}
    parts = []
    for kind, source in view.setting_rules:
        where = _("rule {number}", number=source) if source is not None else _("default")
        parts.append(_("{setting}: {value} ({source})", setting=_(_SETTING_WORDS[kind]), value=values[kind],
                       source=where))
    return " \u00b7 ".join(parts)


def rule_block(r: RuleView) -> str:
    """One rule as a Markdown block: bold number and title, its text, its effect. The rule's own title and
    text stay in the words they were written in (the rulebook is the game's state)."""
    title = r.title or (_("Judgment") if r.kind == "judgment" else "")
    head = f"**{r.number}{'. ' + title if title else ''}**"
    if r.amended:
        head += " " + _("*(amended)*")
    lines = [head, r.text]
    if r.effect_text:
        lines.append(_("\u2699 Bot: {effect}", effect=r.effect_text))
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
    header = ngettext("{n} rule in effect, in the order they took effect. On conflict the lowest number "
                      "wins (rule 113).",
                      "{n} rules in effect, in the order they took effect. On conflict the lowest "
                      "number wins (rule 113).", len(view.in_effect)) + "\n" + settings_line(view)
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
        raise GameError(_("There is no rule or proposal {number} (numbers so far: {known}).", number=number,
                          known=known_numbers(view.next_number - 1)))
    status = status_word(r.status)
    if r.kind in ("repeal", "amend"):
        if r.kind == "repeal":
            head = _("**Proposal {number}: repeal rule {rule}** \u00b7 {status}", number=r.number,
                     rule=r.target, status=status)
        else:
            head = _("**Proposal {number}: amend rule {rule}** \u00b7 {status}", number=r.number,
                     rule=r.target, status=status)
        body = [head]
        if r.text:
            body.append(_("New text: {text}", text=r.text) if r.kind == "amend" else
                        _("Reason: {text}", text=r.text))
    elif r.kind == "enact" and r.status in ("open", "rejected"):
        body = [_("**Proposal {number}: enact a new rule** \u00b7 {status}", number=r.number, status=status),
                r.text]
    else:
        title = f" \u2014 {r.title}" if r.title else ""
        if r.kind == "judgment":
            head = _("**Judgment {number}{title}** \u00b7 {status}", number=r.number, title=title,
                     status=status)
        else:
            head = _("**Rule {number}{title}** \u00b7 {status}", number=r.number, title=title, status=status)
        if r.amended:
            head += " \u00b7 " + _("amended")
        body = [head, r.text]
    if r.effect_text:
        body.append(_("\u2699 Bot: {effect} (`{notation}`)", effect=r.effect_text, notation=r.effect))
    if r.yes or r.no:
        body.append(f"\u2705 {_names(view, r.yes)}\n\u274c {_names(view, r.no)}")
    body.append(_("**History**"))
    body += [f"\u2022 {line}" for line in r.history]
    text = "\n".join(body)
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text


def _names(view: NomicView, seats: tuple[int, ...]) -> str:
    return ", ".join(view.name(s) for s in seats) or _("nobody")
