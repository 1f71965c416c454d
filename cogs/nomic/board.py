"""The board: picture (with a planned path), embed, movement buttons, history, suggestions."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Sequence
from typing import Any

import discord

from bot.games.base import Event, GameError
from bot.games.nomic import NomicView, next_steps
from bot.games.nomic import notation as nomic_notation
from bot.games.nomic.moves import (
    Propose,
    order_short,
    phases_short,
    resource_name,
    vote_word,
)
from bot.i18n import _, language, language_of_guild, ngettext
from bot.matches.service import Match, Result
from bot.render import board_png
from bot.storage import Status
from cogs import _views as v
from cogs._game import (
    COLOUR_END,
    COLOUR_INFO,
    COLOUR_OK,
    draw_off_loop_if_long,
)
from cogs._votes import NO, YES, vote_location
from cogs.nomic.base import NomicBase
from cogs.nomic.common import (
    ARROWS,
    COLOUR_REJECTED,
    MAX_EVENT_LINES,
    PICTURE,
    WORDS,
    RulebookButton,
    _cut,
    _example_path,
    _md,
    _path_points,
    channel,
    nomic_view,
)


class NomicBoard(NomicBase):
    """The board: picture (with a planned path), embed, movement buttons, history, suggestions."""


    def picture_name(self, match: Match, result: Result | None) -> str:
        return PICTURE

    def render_plan(self, match: Match, result: Result | None, plan: str) -> bytes:
        """The map, with the planned path drawn while it is being built (PNG bytes)."""
        view = match.view(None)
        events: Sequence[Event] = result.events if result else ()
        if plan and view.current is not None:
            start = view.players[view.current].pos
            if start is not None:
                view = dataclasses.replace(view, path=_path_points(start, plan), path_seat=view.current)
                events = (Event("move"),) if len(plan) == view.roll else ()
        return board_png(lambda: self.game.render(view, events=events), self.game_key)

    def render_picture(self, match: Match, result: Result | None) -> bytes:
        """The board's picture: the channel's, so its words are in the server's language."""
        with channel(match):
            return self.render_plan(match, result, "")

    @staticmethod
    def in_channel_words(match: Match, result: Result | None) -> Result | None:
        """``result`` with its events written again in the current language: the moves that made them are
        replayed from the state before (chance outcomes included, so the same events come out). Every move's
        events are written for the match's channel, in the server's language (``_engine_apply`` in
        bot/matches/core.py), so only a board in another language (a private ``/nomic board`` in its
        reader's) has them written again; unchanged too if they cannot be replayed."""
        if result is None or not result.events or not result.moves:
            return result
        guild = match.rec.guild_id
        if guild is not None and language() == language_of_guild(guild):
            return result
        rules = match.rules
        state = result.before
        if state is None:
            if not result.started:
                return result
            try:
                state = rules.initial({}, int(match.rec.ui.get("start_seats", len(match.seats))))
            except (ValueError, TypeError):
                return result
        events: list[Event] = []
        try:
            for mv in result.moves:
                state, evs = rules.apply(state, mv.seat, nomic_notation.read(mv.notation))
                events.extend(evs)
        except GameError:
            return result
        if [e.kind for e in events] != [e.kind for e in result.events]:
            return result
        return dataclasses.replace(result, events=events)

    async def board_kwargs(self, match: Match, result: Result | None, state: str = "", *,
                           picture: Awaitable[discord.File] | None = None) -> dict[str, Any]:
        """The board message: the channel's, so in the server's language (its events too)."""
        with channel(match):
            result = self.in_channel_words(match, result)
            plan = state[3:] if state.startswith("pa:") else ""
            if picture is not None and not plan:  # the board without a planned path, already being drawn
                file = await picture
            else:
                drawn = await draw_off_loop_if_long(PICTURE, self.render_plan, match, result, plan)
                file = self.described(match, result, drawn, PICTURE)
            items = self.components(match, state) if match.status == Status.RUNNING else []
            text = await self.text_for_players(match, result)
            return {"content": self.join_content(self.board_content(match), text),
                    "embed": self.board_embed(match, result, plan=plan), "file": file,
                    "view": v.view_of(*items)}

    def proposal_url(self, match: Match) -> str | None:
        """The link to the open vote's proposal message (the one players react on)."""
        loc = vote_location(match)
        if loc is None:
            return None
        return f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{loc[0]}/{loc[1]}"

    def open_vote(self, match: Match) -> tuple[int, str] | None:
        """(number, link) of the proposal being voted on now, when votes are what the game waits for."""
        if match.status != Status.RUNNING or match.state is None:
            return None
        view = match.view(None)
        p = view.proposal
        url = self.proposal_url(match)
        if view.phase != "vote" or view.question is not None or p is None or url is None:
            return None
        loc = vote_location(match)
        return (p.number, url) if loc is not None and loc[2] == p.number else None

    def board_content(self, match: Match) -> str | None:
        """Names who the game waits for (only new boards ping, and only the players whose turn began): the
        player to move, the Judge, or the voters still to vote, with a link to the proposal."""
        if match.status != Status.RUNNING or match.state is None:
            return None
        view = match.view(None)
        if view.question is not None:
            judge = f"<@{view.players[view.question.judge].user_id}>"
            return _("{judge}, you are the Judge.", judge=judge)
        vote = self.open_vote(match)
        if vote is not None and view.proposal is not None:
            who = " ".join(f"<@{view.players[s].user_id}>" for s in view.proposal.waiting)
            return _("\U0001f5f3\ufe0f {voters} vote on proposal {number}: react {yes} or {no} on "
                     "[the proposal]({url}).", voters=who, number=vote[0], yes=YES, no=NO, url=vote[1])
        if view.phase in ("move", "propose") and view.current is not None:
            player = f"<@{view.players[view.current].user_id}>"
            return _("{player}, your turn.", player=player)
        return None

    def last_move_text(self, match: Match, result: Result | None) -> str:
        if result is None:
            return ""
        lines = [_md(result.message)] if result.message else []
        texts = [_cut(_md(e.text), 240) for e in result.events
                 if e.text and e.visible_to is None and not (result.started and e.kind == "join")]
        if len(texts) > MAX_EVENT_LINES:
            texts = ["\u2026", *texts[-MAX_EVENT_LINES:]]
        lines += [t if t == "\u2026" else f"\u2022 {t}" for t in texts]
        return "\n".join(lines)

    def status_line(self, match: Match) -> str:
        if match.status == Status.FINISHED:
            view = nomic_view(match)
            detail = view.result_text or (match.outcome.detail if match.outcome else "")
            return _("**The game is over.** {detail}", detail=_md(detail)).strip()
        if match.status != Status.RUNNING or match.state is None:
            return self.closed_text(match)
        view = match.view(None)
        who = f"<@{view.players[view.current].user_id}>" if view.current is not None else _("nobody")
        when = f"<t:{int(match.rec.deadline)}:R>" if match.rec.deadline else ""
        deadline = " " + _("Turn ends {when}.", when=when) if when else ""
        q = view.question
        if q is not None:
            judge = f"<@{view.players[q.judge].user_id}>"
            return _("\u2696\ufe0f **Judgment**: {player} asks \u201c{question}\u201d. The Judge, {judge}, "
                     "rules with `/nomic ruling`; play waits.", player=_md(view.name(q.asker)),
                     question=_md(_cut(q.question, 300)), judge=judge) + deadline
        if view.phase == "move":
            return ngettext("\U0001f3b2 {player} rolled **{n}** on the d{sides}: give a path of exactly {n} "
                            "step with the arrows below, or `/nomic move notation:{path}`.",
                            "\U0001f3b2 {player} rolled **{n}** on the d{sides}: give a path of exactly {n} "
                            "steps with the arrows below, or `/nomic move notation:{path}`.", view.roll or 0,
                            player=who, sides=view.die, path=_example_path(view.roll or 1)) + deadline
        if view.phase == "propose":
            return _("\U0001f4dc {player}, propose one rule-change: `/nomic propose action:enact "
                     "text:\u2026` (or repeal / amend a rule by number), or pass with "
                     "`/nomic move notation:skip`.",
                     player=who) + deadline
        if view.phase == "vote" and view.proposal is not None:
            p = view.proposal
            vote = self.open_vote(match)
            link = (_("[proposal {number}]({url})", number=p.number, url=vote[1]) if vote is not None
                    else _("proposal {number}", number=p.number))
            return ngettext("\U0001f5f3\ufe0f **A vote is open** on {proposal}: react {yes} or {no} on it; "
                            "the live tally is on the proposal. It is decided when the {n} voter has voted.",
                            "\U0001f5f3\ufe0f **A vote is open** on {proposal}: react {yes} or {no} on it; "
                            "the live tally is on the proposal. It is decided when all {n} voters have "
                            "voted.",
                            len(p.voters), proposal=link, yes=YES, no=NO) + deadline
        return _("{player} is playing.", player=who) + deadline

    def extra_lines(self, match: Match, result: Result | None, plan: str = "") -> list[str]:
        if match.status != Status.RUNNING or match.state is None:
            return []
        view = match.view(None)
        lines = []
        if plan and view.current is not None and view.roll:
            start = view.players[view.current].pos or (0, 0)
            end = _path_points(start, plan)[-1]
            left = view.roll - len(plan)
            tail = (ngettext("{n} step to go", "{n} steps to go", left) if left
                    else _("complete: press Confirm"))
            space = f"({end[0]}, {end[1]})"
            lines.append(_("\U0001f9ed Planned path **{path}** \u2192 {space} \u00b7 {progress}", path=plan,
                           space=space, progress=tail))
        order = " \u2192 ".join(f"**{_md(view.name(s))}**" if s == view.current else _md(view.name(s))
                                for s in view.order)
        lines.append(_("Round {round}, turn {turn} \u00b7 {order} \u00b7 Judge: {judge}", round=view.round,
                       turn=view.turn, order=order, judge=_md(view.name(view.judge))))
        pending = [p.name for p in view.players if p.status == "pending"]
        if pending:
            lines.append(_("Joining next round: {players}", players=", ".join(_md(n) for n in pending)))
        die_rule = dict(view.setting_rules).get("die")
        die = (_("Die d{sides} (rule {rule})", sides=view.die, rule=die_rule) if die_rule
               else _("Die d{sides}", sides=view.die))
        lines.append(" \u00b7 ".join((
            die, _("votes: {votes}", votes=vote_word(view.votes_needed)),
            _("order: {order}", order=order_short(view.turn_order)),
            _("phases: {phases}", phases=phases_short(view.phases)),
            ngettext("{n} rule in effect", "{n} rules in effect", len(view.in_effect)))))
        return lines

    def board_embed(self, match: Match, result: Result | None, *, plan: str = "") -> discord.Embed:
        lines = []
        last = self.last_move_text(match, result)
        if last:
            lines.append(last)
        lines.append(self.status_line(match))
        lines.extend(self.extra_lines(match, result, plan))
        view = nomic_view(match)
        if match.status == Status.RUNNING:
            title = _("Nomic World \u00b7 round {round}, turn {turn}", round=view.round, turn=view.turn)
        elif match.status == Status.FINISHED:
            title = _("Nomic World \u00b7 game over")
        else:
            title = "Nomic World"  # not translated: game title
        colour = COLOUR_END if match.status == Status.FINISHED else COLOUR_OK
        embed = discord.Embed(title=title, description=_cut("\n".join(lines), 4000), colour=colour)
        # no embed image: the picture is the message's attachment, whose alt text Discord reads
        if match.status == Status.RUNNING:
            embed.set_footer(text=_("Match #{id} \u00b7 /nomic rules: the rulebook \u00b7 /nomic propose, "
                                    "/nomic judge, /nomic move", id=match.id))
        else:  # a finished board says how to see it again
            embed.set_footer(text=_("Match #{id} \u00b7 final position \u00b7 /nomic board and /nomic "
                                    "history show it", id=match.id))
        return embed

    def components(self, match: Match, state: str = "") -> list[discord.ui.Item[Any]]:
        if match.state is None:
            return []
        view = match.view(None)
        mid, ver = match.id, match.version
        items: list[discord.ui.Item[Any]] = []
        if view.status == "running" and view.phase == "move" and view.question is None and view.roll:
            plan = state[3:] if state.startswith("pa:") else ""
            roll = view.roll
            allowed = next_steps(plan, roll)
            for d in "NESW":
                items.append(v.button(mid, ver, f"pa:{plan}{d}", label=_(WORDS[d]), emoji=ARROWS[d],
                                      style=discord.ButtonStyle.primary, disabled=d not in allowed, row=0))
            items.append(v.button(mid, ver, f"pa:{plan[:-1]}", label=_("Undo"), emoji="\u21a9\ufe0f",
                                  disabled=not plan, row=1))
            done = len(plan) == roll
            label = (_("Confirm {path}", path=plan) if done else
                     ngettext("Confirm ({count}/{n} step)", "Confirm ({count}/{n} steps)", roll,
                              count=len(plan)))
            items.append(v.button(mid, ver, f"m:{plan}", label=label, style=discord.ButtonStyle.success,
                                  disabled=not done, row=1))
            options = self.destination_options(view, plan)
            for k, chunk in enumerate(v.chunks(options, 25)[:2]):
                if len(options) > 50 and k == 1:
                    placeholder = _("Or pick a destination: its whole path (type /nomic move for the rest)")
                else:
                    placeholder = _("Or pick a destination: its whole path")
                items.append(v.select(mid, ver, f"pd{k}", chunk, row=3 + k, placeholder=placeholder[:150]))
        items.append(RulebookButton(mid, 0, "n", label=_("Rulebook"), emoji="\U0001f4dc", row=2))
        items.append(RulebookButton(mid, 0, "n", "h", label=_("How to play"), emoji="\u2753", row=2))
        return items

    @staticmethod
    def destination_options(view: NomicView, plan: str = "") -> list[discord.SelectOption]:
        """Every space the roll reaches, north first, with one shortest path to it and what is there."""
        assert view.current is not None and view.roll is not None
        start = view.players[view.current].pos or (0, 0)
        r = view.roll
        offsets = {(dx, sy * (r - abs(dx))) for dx in range(-r, r + 1) for sy in (1, -1)}
        resources = dict(view.revealed)
        out = []
        for dx, dy in sorted(offsets, key=lambda o: (-o[1], o[0])):
            x, y = start[0] + dx, start[1] + dy
            path = nomic_notation.canonical_path(dx, dy)
            res = resources.get((x, y))
            what = (_("the origin (no resource)") if (x, y) == (0, 0) else
                    _("{resource} (revealed)", resource=resource_name(res)) if res else
                    _("unknown: landing reveals its resource"))
            there = [p.name for p in view.players if p.pos == (x, y) and p.status == "active"
                     and p.seat != view.current]
            if there:
                what += " \u00b7 " + _("{players} there", players=", ".join(there))
            label = _("({x}, {y}) via {path}", x=x, y=y, path=path)
            out.append(discord.SelectOption(label=label[:100], value=path, description=what[:100],
                                            default=path == plan))
        return out

    def history_lines(self, match: Match, moves: Sequence[Any]) -> list[str]:
        """The game in words, replayed from the log: names (never user ids), each die roll under the player
        who rolled it, proposals in words rather than their JSON notation, round headers."""
        rules = match.rules
        try:
            state = rules.initial({}, int(match.rec.ui.get("start_seats", len(match.seats))))
        except (ValueError, TypeError):
            return super().history_lines(match, moves)
        out: list[str] = []
        for mv in moves:
            try:
                move = rules.parse(mv.notation, state, mv.seat)
                before = state
                state, events = rules.apply(state, mv.seat, move)
            except GameError:
                out.append(f"`{_cut(mv.notation, 80)}`")
                continue
            for e in events:
                if e.kind == "round":
                    out.append(f"**{_md(e.text.rstrip('.'))}**")
                elif e.kind == "turn" or not e.text:
                    continue
                elif e.kind == "propose" and isinstance(move, Propose):
                    out.append(self.proposal_line(_md(before.players[mv.seat].name), move))
                elif e.kind in ("roll", "reveal"):
                    out.append(f"\u2003\U0001f3b2 {_md(e.text)}")
                else:
                    out.append(_md(_cut(e.text, 200)))
        return out

    @staticmethod
    def proposal_line(player: str, move: Propose) -> str:
        """A proposal in the history, in words (not its JSON notation)."""
        text = _md(_cut(move.text, 120))
        if move.action == "repeal":
            line = _("{player} proposes to repeal rule {rule}: \u201c{text}\u201d", player=player,
                     rule=move.rule, text=text)
        elif move.action == "amend":
            line = _("{player} proposes to amend rule {rule}: \u201c{text}\u201d", player=player,
                     rule=move.rule, text=text)
        else:
            line = _("{player} proposes to enact: \u201c{text}\u201d", player=player, text=text)
        if move.effect:
            line += " " + _("[effect: {effect}]", effect=move.effect)
        return line

    def suggestions(self, match: Match, seat: int, current: str) -> list[str]:
        view = match.view(None)
        out: list[str] = []
        if view.question is None and view.phase == "move" and seat == view.current and view.roll:
            if view.roll <= 8:
                out = sorted(nomic_notation.all_paths(view.roll))
            else:
                out = [_example_path(view.roll)]
            out.append("skip")
        elif view.question is None and view.phase == "propose" and seat == view.current:
            out = ["skip"]
        elif view.question is None and view.proposal is not None and seat in view.proposal.voters:
            out = ["vote yes", "vote no"]  # not translated: notation
        cur = current.strip().upper().replace(" ", "")
        return [t for t in out if t.upper().replace(" ", "").startswith(cur)]

    def proposal_embed(self, match: Match, number: int) -> discord.Embed:
        """The proposal message: open (how to vote, who voted) or decided (the result). It is the channel's
        (posted there, edited after each vote): in the server's language."""
        with channel(match):
            return self._proposal_embed(match, number)

    def _proposal_embed(self, match: Match, number: int) -> discord.Embed:
        view = nomic_view(match)
        r = view.rule(number)
        if r is None:
            return discord.Embed(title=_("Proposal {number}", number=number), colour=COLOUR_INFO)
        if r.kind == "repeal":
            what = _("repeal rule {rule}", rule=r.target)
        elif r.kind == "amend":
            what = _("amend rule {rule}", rule=r.target)
        elif r.kind == "enact":
            what = _("enact a new rule")
        else:
            what = r.kind
        if r.status == "open":
            title = _("\U0001f5f3\ufe0f Proposal {number}: {what}", number=number, what=what)
            colour = COLOUR_INFO
        elif r.status == "rejected":
            title = _("{no} Proposal {number} rejected: {what}", no=NO, number=number, what=what)
            colour = COLOUR_REJECTED
        else:
            title = _("{yes} Proposal {number} adopted: {what}", yes=YES, number=number, what=what)
            colour = COLOUR_OK
        if r.kind == "repeal":
            body = _("Reason: {text}", text=r.text) if r.text else _("No reason given.")
        elif r.kind == "amend":
            body = _("New text of rule {rule}:", rule=r.target) + "\n" + r.text
        else:
            body = r.text
        embed = discord.Embed(title=_cut(title, 256), description=_cut(body, 4000), colour=colour)
        embed.add_field(name=_("Proposed by"), value=_md(view.name(r.proposer)))
        if r.effect_text:
            embed.add_field(name=_("Effect the bot enforces"), value=f"{r.effect_text} (`{r.effect}`)")
        p = view.proposal
        if r.status == "open" and p is not None and p.number == number:
            # edited after every counted vote: the reaction counts include the bot's own ✅ / ❌
            embed.add_field(
                name=_("Tally ({votes})", votes=vote_word(p.needed)),
                value=_cut(self.tally_text(view, p), 1024), inline=False
            )
            embed.set_footer(text=_("React {yes} to adopt or {no} to reject; only the players' votes count. "
                                    "Until everybody has voted you can change your vote (the other emoji) or "
                                    "withdraw it (remove your reaction). Match #{id}", yes=YES, no=NO,
                                    id=match.id))
            return embed
        votes = [f"{YES} " + (", ".join(_md(view.name(s)) for s in r.yes) or "\u2014"),
                 f"{NO} " + (", ".join(_md(view.name(s)) for s in r.no) or "\u2014")]
        embed.add_field(name=_("Votes"), value=_cut("\n".join(votes), 1024), inline=False)
        decided = next((n for n in reversed(r.notes) if n.what in ("adopted", "rejected")), None)
        outcome = decided.line() if decided is not None else ""
        if r.status != "rejected":
            outcome += " " + _("In effect from the beginning of the next turn (rule 111).")
        embed.set_footer(text=_cut((outcome + " " + _("Match #{id}", id=match.id)).strip(), 2048))
        return embed

    @staticmethod
    def tally_text(view: NomicView, p: Any) -> str:
        """``✅ 1 of 3 · ❌ 0 of 3`` and who voted what, who is still to vote."""
        def names(seats: Sequence[int]) -> str:
            return ", ".join(_md(view.name(s)) for s in seats) or "\u2014"

        voters = len(p.voters)
        lines = [f"{YES} **" + _("{count} of {total}", count=len(p.yes), total=voters) + f"** \u00b7 {NO} **"
                 + _("{count} of {total}", count=len(p.no), total=voters) + "**",
                 f"{YES} {names(p.yes)}", f"{NO} {names(p.no)}"]
        if p.waiting:
            lines.append(_("Still to vote: {players}", players=names(p.waiting)))
        if view.question is not None:
            lines.append(_("\u2696\ufe0f Votes wait while the Judge decides a question."))
        return "\n".join(lines)
