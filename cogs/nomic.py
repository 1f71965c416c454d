"""``/nomic``: Nomic World — roam a map, and rewrite the rules of the game as you play.

How a game runs on Discord:

* **Lobby** (``/nomic new``): Join / Leave / Start / Cancel, any number of
  players from two; ``/nomic join`` does the same, and once the game runs it
  joins you for the next round (rule 101; ``MatchService.join`` plays the
  engine's ``join`` move). At the start every lobby seat joins and the first
  round begins (``bot.games.nomic.opening_moves``).
* **Board** (the match thread): the map (who is where, revealed resources,
  the last path), whose turn and phase, the die roll, the Judge, the settings
  in force, what just happened. A new board is posted (pinging the player)
  when a turn begins after a vote or a timeout; path moves edit it in place.
* **Movement**: the bot rolls (seeded) and shows the die. The current player
  types the path (``/nomic move notation:NNE``) or builds it with the arrow
  buttons: only directions that keep the path shortest are enabled, the
  planned path is drawn on the map, Undo takes a step back, Confirm plays it.
  Beside them a select lists every destination the roll reaches with one
  shortest path and what is there; picking one plans that whole path.
  The partial path lives in the custom ids (``pa:NNE``), so the picker needs
  no memory and survives restarts.
* **Rule-change**: ``/nomic propose action:enact|repeal|amend rule: text:
  effect:`` posts the proposal (the interaction response, mentions disabled)
  and :mod:`cogs._votes` adds ✅ / ❌ and stores the message in the match.
  Votes are reactions; only the players' count (others' are removed, and
  the bot's own ✅ / ❌ never count). The message shows a live tally (✅ n of
  m), edited after each vote (votes arriving during an edit share the next
  one). A vote can be changed (the other emoji; the old reaction is removed)
  or withdrawn (remove the reaction: the ``unvote`` move) until every voter
  has voted; then it is decided, the message edited, and the next turn's
  board follows: three requests plus one tally edit per undecided vote for
  the round trip, besides the reactions. The turn limit rejects an open vote.
* **Judgment**: ``/nomic judge question:`` (any player), ``/nomic ruling
  text:`` (the Judge only); the ruling is a rule at once. Meanwhile every
  other move is answered "play waits for the Judge".
* **Rulebook**: ``/nomic rules`` pages the rules in effect (buttons carry the
  page), then how to play; ``/nomic rule number:`` shows one entry with its
  history; ``/nomic map`` the map.
* **End**: an adopted rule with the ``end`` effect, ``/nomic end`` (Manage
  Server or the host; the end says which: ``end host`` / ``end``), or fewer than two players (``/nomic resign`` leaves
  the game; the others play on). Unrated; ``/stats`` counts proposals.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import LobbyError, NotAPlayer, NotYourTurn, ParlorError, StaleBoard
from bot.games.base import Event, GameError
from bot.games.nomic import RULES, NomicView, next_steps, read_effect, rule_detail, rulebook_pages
from bot.games.nomic import notation as nomic_notation
from bot.games.nomic.moves import (
    DIRECTIONS,
    MAX_QUESTION,
    MAX_TEXT,
    End,
    Join,
    Judge,
    Leave,
    Propose,
    Ruling,
    Unvote,
    Vote,
)
from bot.matches.service import Match, Result
from bot.names import shown
from bot.render import png_bytes
from bot.replies import reply_error
from bot.storage import Status
from cogs import _views as v
from cogs._game import (
    COLOUR_END,
    COLOUR_INFO,
    COLOUR_OK,
    EXPIRY_CHOICES,
    NO_MENTIONS,
    TURN_LIMITS,
    GameCog,
    picture_file,
    rules_text,
)
from cogs._votes import NO, YES, ReactionVotes, vote_location, votes_of

log = logging.getLogger(__name__)

ARROWS = {"N": "\u2b06\ufe0f", "E": "\u27a1\ufe0f", "S": "\u2b07\ufe0f", "W": "\u2b05\ufe0f"}
WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
ACTIONS = [app_commands.Choice(name="enact a new rule", value="enact"),
           app_commands.Choice(name="repeal a rule", value="repeal"),
           app_commands.Choice(name="amend a rule", value="amend")]
EFFECTS: tuple[tuple[str, str], ...] = (
    ("die=4", "movement die: d4"), ("die=8", "movement die: d8"), ("die=10", "movement die: d10"),
    ("die=12", "movement die: d12"), ("die=20", "movement die: d20"),
    ("votes=majority", "votes needed: majority"), ("votes=two-thirds", "votes needed: two-thirds"),
    ("votes=unanimous", "votes needed: unanimous"),
    ("order=alphabetical", "turn order: alphabetical"), ("order=join", "turn order: order of joining"),
    ("order=reverse", "turn order: reverse alphabetical"),
    ("phases=both", "phases: movement, then rule-change"), ("phases=movement", "phases: movement only"),
    ("phases=rule-change", "phases: rule-change only"), ("end", "the game ends when it takes effect"),
)
COLOUR_REJECTED = discord.Colour.from_rgb(237, 66, 69)
MAX_EVENT_LINES = 8
PICTURE = "nomic.png"
HOWTO_NOTE = ("\n\n**Votes by reaction.** React \u2705 or \u274c on the proposal; the proposal shows the tally "
              "as it stands. Until every player has voted you can change your vote (react with the other emoji) "
              "or withdraw it (remove your reaction); the vote is decided when the last player votes.")


def nomic_view(match: Match | None) -> NomicView:
    """The match's view, or the Initial Set before any game (no match, or a lobby)."""
    if match is None or match.state is None:
        return RULES.view(RULES.initial({}, 0), None)
    return match.view(None)


def _md(text: str) -> str:
    return shown(text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _path_points(start: tuple[int, int], steps: str) -> tuple[tuple[int, int], ...]:
    points = [start]
    for c in steps:
        dx, dy = DIRECTIONS[c]
        points.append((points[-1][0] + dx, points[-1][1] + dy))
    return tuple(points)


def _example_path(roll: int) -> str:
    return "N" * ((roll + 1) // 2) + "E" * (roll // 2)


def _howto_pages() -> list[str]:
    text = rules_text("nomic") + HOWTO_NOTE
    pages: list[str] = []
    cur = ""
    for para in text.split("\n\n"):
        if cur and len(cur) + 2 + len(para) > 3900:
            pages.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur:
        pages.append(cur[:4000])
    return pages


class RulebookButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"nomic:rb:(?P<mid>[0-9]{1,18}):(?P<page>[0-9]{1,4}):(?P<mode>[ne])(?P<tag>[a-z]?)"):
    """A page of ``/nomic rules``: ``mode`` n = a new ephemeral message, e = edit this one.

    Owned by the cog (not the match platform) so it works without a match (the Initial Set).
    """

    def __init__(self, mid: int, page: int, mode: str, tag: str = "", *, label: str = "Rulebook",
                 emoji: str | None = None, disabled: bool = False, row: int | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, emoji=emoji, disabled=disabled, row=row, style=style,
                                           custom_id=f"nomic:rb:{mid}:{page}:{mode}{tag}"))
        self.mid, self.page, self.mode, self.tag = mid, page, mode, tag

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> RulebookButton:
        return cls(int(match["mid"]), int(match["page"]), match["mode"], match["tag"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog: Nomic = interaction.client.game_cogs["nomic"]  # type: ignore[attr-defined]
            await cog.show_rulebook(interaction, self.mid, self.page, edit=self.mode == "e", howto=self.tag == "h")
        except Exception as exc:  # noqa: BLE001 - every error gets an answer
            await reply_error(interaction, exc)


class Nomic(GameCog, group_name="nomic", group_description="Nomic World: roam the map, rewrite the rules"):
    game_key = "nomic"
    votes: ReactionVotes

    async def cog_load(self) -> None:
        self._tally_busy: set[int] = set()
        self._tally_dirty: set[int] = set()
        self.votes = votes_of(self.bot)
        self.votes.register(self.game_key, self)
        self.bot.add_dynamic_items(RulebookButton)

    async def cog_unload(self) -> None:
        self.votes.unregister(self.game_key)
        self.bot.remove_dynamic_items(RulebookButton)

    # ------------------------------------------------------------ helpers

    def player_seat(self, match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None or match.state is None:
            raise NotAPlayer("You are not playing in this game: `/nomic join` to join it.")
        if match.state.players[seat].status == "left":
            raise NotAPlayer("You left this game.")
        return seat

    @staticmethod
    def judgment_waits(match: Match) -> None:
        """While a Judgment is pending, play waits for the Judge (not for the player whose turn it is)."""
        if match.state is None or match.status != Status.RUNNING:
            return
        view = match.view(None)
        q = view.question
        if q is not None:
            raise NotYourTurn(f"Play waits for the Judge, {_md(view.name(q.judge))}, to rule on \u201c"
                              f"{_md(_cut(q.question, 80))}\u201d with `/nomic ruling` (rule 114).")

    async def match_or_none(self, interaction: discord.Interaction) -> Match | None:
        try:
            return await self.match_here(interaction, running=False)
        except ParlorError:
            return None

    async def place_of(self, match: Match) -> discord.abc.Messageable | None:
        """The match's thread or channel, without a request (a partial channel when not cached)."""
        cid = match.rec.place_id
        ch = self.bot.get_channel(cid)
        if ch is None:
            return self.bot.get_partial_messageable(cid, guild_id=match.rec.guild_id)
        return ch  # type: ignore[return-value]

    # ------------------------------------------------------------ lobby

    @app_commands.command(name="new", description="Open a Nomic World lobby (2 or more players)")
    @app_commands.describe(expires="How long the invitation stays open (default 15 minutes)",
                           turn_limit="Time per turn (a vote still open at the limit is rejected)")
    @app_commands.choices(expires=EXPIRY_CHOICES,
                          turn_limit=TURN_LIMITS)
    async def new(self, interaction: discord.Interaction, turn_limit: app_commands.Choice[int] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        await self.create_match(interaction, opponent=None, level=None, options={},
                                turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    @app_commands.command(name="join", description="Join the lobby here, or the running game from the next round")
    async def join(self, interaction: discord.Interaction) -> None:
        found = await self.service.find_here(interaction.channel_id or 0, game=self.game_key)
        found = [m for m in found if m.status in (Status.LOBBY, Status.RUNNING)]
        if not found:
            raise LobbyError("There is no Nomic World game here to join: start one with `/nomic new`, or run "
                             "this in the game's thread.")
        match = found[0]
        result = await self.service.join(match.id, await self.player_for(interaction.user))
        if match.status == Status.LOBBY:
            await interaction.response.send_message("You joined the lobby.", ephemeral=True)
            place = await self.place_of(result.match)
            if place is not None and result.match.rec.message_id:
                embed, view = self.invite_message(result.match)
                try:
                    await place.get_partial_message(result.match.rec.message_id).edit(  # type: ignore[attr-defined]
                        embed=embed, view=view)
                except discord.HTTPException:
                    pass
            return
        await self.add_to_thread(result.match, interaction.user.id)
        text = " ".join(_md(e.text) for e in result.events if e.kind == "join") or "You joined."
        await interaction.response.send_message(f"\U0001f44b {text}", allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------ the board

    def picture_name(self, match: Match, result: Result | None) -> str:
        return PICTURE

    def render_plan(self, match: Match, result: Result | None, plan: str) -> bytes:
        """Runs in a worker thread: the map, with the planned path drawn while it is being built."""
        view = match.view(None)
        events: Sequence[Event] = result.events if result else ()
        if plan and view.current is not None:
            start = view.players[view.current].pos
            if start is not None:
                view = dataclasses.replace(view, path=_path_points(start, plan), path_seat=view.current)
                events = (Event("move"),) if len(plan) == view.roll else ()
        return png_bytes(self.game.render(view, events=events), key=self.game_key)

    def render_picture(self, match: Match, result: Result | None) -> bytes:
        return self.render_plan(match, result, "")

    async def board_kwargs(self, match: Match, result: Result | None, state: str = "") -> dict[str, Any]:
        plan = state[3:] if state.startswith("pa:") else ""
        data = await asyncio.to_thread(self.render_plan, match, result, plan)
        file = picture_file(data, PICTURE)
        items = self.components(match, state) if match.status == Status.RUNNING else []
        return {"content": self.board_content(match), "embed": self.board_embed(match, result, plan=plan),
                "file": file, "view": v.view_of(*items)}

    def board_content(self, match: Match) -> str | None:
        """Pings the one player the game waits for (only new boards ping)."""
        if match.status != Status.RUNNING or match.state is None:
            return None
        view = match.view(None)
        if view.question is not None:
            return f"<@{view.players[view.question.judge].user_id}>, you are the Judge."
        if view.phase in ("move", "propose") and view.current is not None:
            return f"<@{view.players[view.current].user_id}>, your turn."
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
            detail = view.result or (match.outcome.detail if match.outcome else "")
            return f"**The game is over.** {_md(detail)}".strip()
        if match.status != Status.RUNNING or match.state is None:
            return self.closed_text(match)
        view = match.view(None)
        who = f"<@{view.players[view.current].user_id}>" if view.current is not None else "nobody"
        deadline = f" Turn ends <t:{int(match.rec.deadline)}:R>." if match.rec.deadline else ""
        q = view.question
        if q is not None:
            judge = f"<@{view.players[q.judge].user_id}>"
            return (f"\u2696\ufe0f **Judgment**: {_md(view.name(q.asker))} asks \u201c{_md(_cut(q.question, 300))}"
                    f"\u201d. The Judge, {judge}, rules with `/nomic ruling`; play waits.{deadline}")
        if view.phase == "move":
            return (f"\U0001f3b2 {who} rolled **{view.roll}** on the d{view.die}: give a path of exactly "
                    f"{view.roll} step{'s' * (view.roll != 1)} with the arrows below, or "
                    f"`/nomic move notation:{_example_path(view.roll or 1)}`.{deadline}")
        if view.phase == "propose":
            return (f"\U0001f4dc {who}, propose one rule-change: `/nomic propose action:enact text:\u2026` "
                    f"(or repeal / amend a rule by number), or pass with `/nomic move notation:skip`.{deadline}")
        if view.phase == "vote" and view.proposal is not None:
            p = view.proposal
            return (f"\U0001f5f3\ufe0f Vote on proposal {p.number}: react {YES} or {NO} on it; the live tally is "
                    f"on the proposal. It is decided when all {len(p.voters)} voters have voted.{deadline}")
        return f"{who} is playing.{deadline}"

    def extra_lines(self, match: Match, result: Result | None, plan: str = "") -> list[str]:
        if match.status != Status.RUNNING or match.state is None:
            return []
        view = match.view(None)
        lines = []
        if plan and view.current is not None and view.roll:
            start = view.players[view.current].pos or (0, 0)
            end = _path_points(start, plan)[-1]
            left = view.roll - len(plan)
            tail = f"{left} step{'s' * (left != 1)} to go" if left else "complete: press Confirm"
            lines.append(f"\U0001f9ed Planned path **{plan}** \u2192 ({end[0]}, {end[1]}) \u00b7 {tail}")
        order = " \u2192 ".join(f"**{_md(view.name(s))}**" if s == view.current else _md(view.name(s))
                                for s in view.order)
        lines.append(f"Round {view.round}, turn {view.turn} \u00b7 {order} \u00b7 Judge: "
                     f"{_md(view.name(view.judge))}")
        pending = [p.name for p in view.players if p.status == "pending"]
        if pending:
            lines.append("Joining next round: " + ", ".join(_md(n) for n in pending))
        die_rule = dict(view.setting_rules).get("die")
        lines.append(f"Die d{view.die}{f' (rule {die_rule})' if die_rule else ''} \u00b7 votes: "
                     f"{view.votes_needed} \u00b7 order: {view.turn_order} \u00b7 phases: {view.phases} \u00b7 "
                     f"{len(view.in_effect)} rules in effect")
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
            title = f"Nomic World \u00b7 round {view.round}, turn {view.turn}"
        else:
            title = "Nomic World \u00b7 game over" if match.status == Status.FINISHED else "Nomic World"
        colour = COLOUR_END if match.status == Status.FINISHED else COLOUR_OK
        embed = discord.Embed(title=title, description=_cut("\n".join(lines), 4000), colour=colour)
        embed.set_image(url=f"attachment://{PICTURE}")
        if match.status == Status.RUNNING:
            embed.set_footer(text=f"Match #{match.id} \u00b7 /nomic rules: the rulebook \u00b7 /nomic propose, "
                                  "/nomic judge, /nomic move")
        else:  # a finished board says how to see it again
            embed.set_footer(text=f"Match #{match.id} \u00b7 final position \u00b7 /nomic board and /nomic history "
                                  "show it")
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
                items.append(v.button(mid, ver, f"pa:{plan}{d}", label=WORDS[d], emoji=ARROWS[d],
                                      style=discord.ButtonStyle.primary, disabled=d not in allowed, row=0))
            items.append(v.button(mid, ver, f"pa:{plan[:-1]}", label="Undo", emoji="\u21a9\ufe0f",
                                  disabled=not plan, row=1))
            done = len(plan) == roll
            items.append(v.button(mid, ver, f"m:{plan}", label=f"Confirm {plan}" if done else
                                  f"Confirm ({len(plan)}/{roll} steps)", style=discord.ButtonStyle.success,
                                  disabled=not done, row=1))
            options = self.destination_options(view, plan)
            for k, chunk in enumerate(v.chunks(options, 25)[:2]):
                more = " (type /nomic move for the rest)" if len(options) > 50 and k == 1 else ""
                items.append(v.select(mid, ver, f"pd{k}", chunk, row=3 + k,
                                      placeholder=f"Or pick a destination: its whole path{more}"[:150]))
        items.append(RulebookButton(mid, 0, "n", label="Rulebook", emoji="\U0001f4dc", row=2))
        items.append(RulebookButton(mid, 0, "n", "h", label="How to play", emoji="\u2753", row=2))
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
            what = ("the origin (no resource)" if (x, y) == (0, 0) else
                    f"{res} (revealed)" if res else "unknown: landing reveals its resource")
            there = [p.name for p in view.players if p.pos == (x, y) and p.status == "active"
                     and p.seat != view.current]
            if there:
                what += " \u00b7 " + ", ".join(there) + " there"
            out.append(discord.SelectOption(label=f"({x}, {y}) via {path}"[:100], value=path,
                                            description=what[:100], default=path == plan))
        return out

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        if action == "end!":
            await self.do_end(interaction, match)
            return
        if action in ("pd0", "pd1") and values:
            action = f"pa:{values[0]}"
        if not action.startswith("pa:"):
            raise StaleBoard("That button does nothing any more.")
        if version is None or version != match.version:  # path buttons always carry their version
            raise StaleBoard("This board is out of date: the game has moved on. Use the newest board.")
        view = match.view(None)
        seat = match.seat_of(interaction.user.id)
        if view.phase != "move" or view.question is not None or view.roll is None:
            raise StaleBoard("No path is due now.")
        if seat != view.current:
            raise NotYourTurn(f"It is {_md(view.name(view.current))}'s turn to move." if seat is not None
                              else "You are not playing in this game.")
        plan = action[3:]
        if (any(c not in DIRECTIONS for c in plan) or len(plan) > view.roll
                or any(plan[i] not in next_steps(plan[:i], view.roll) for i in range(len(plan)))):
            raise StaleBoard("That path cannot be built from here.")
        kwargs = await self.board_kwargs(match, None, f"pa:{plan}")
        file = kwargs.pop("file")
        kwargs.pop("content")
        await interaction.response.edit_message(**kwargs, attachments=[file])

    # ------------------------------------------------------------ presenting changes

    async def present_change(self, match: Match, result: Result) -> None:
        """After an action: the vote message when a vote was decided, then the board (a new, pinging
        one when a turn began; the old one edited otherwise), then the end of the game if it ended.
        Votes held while a Judgment was pending are counted once it is over."""
        if any(e.kind in ("adopt", "reject") for e in result.events):
            await self.update_vote_message(match, result.events)
        if match.status == Status.RUNNING and any(e.kind == "turn" for e in result.events):
            await self.replace_board(match, result)
        else:
            await self.refresh_board(match, result)
        await self.after_result(match, result)
        state = match.state
        if (state is not None and match.status == Status.RUNNING and state.phase == "vote"
                and state.question is None and any(e.kind in ("ruling", "lapse") for e in result.events)):
            await self.votes.resync(match.id)

    async def replace_board(self, match: Match, result: Result) -> None:
        """Post the next turn's board (it pings the player); the old one loses stale path buttons."""
        place = await self.place_of(match)
        await self.post_board(place, match, result)  # the old board is retired by post_board

    async def update_vote_message(self, match: Match, events: Sequence[Event]) -> None:
        loc = vote_location(match)
        if loc is None:
            return
        channel_id, message_id, ref = loc
        if ref not in {e.data.get("number") for e in events if e.kind in ("adopt", "reject")}:
            return
        embed = self.proposal_embed(match, int(ref))
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(embed=embed)
        except discord.HTTPException:
            log.info("could not update the vote message %s of match %s", message_id, match.id, exc_info=True)

    async def present_timeout(self, result: Result) -> None:
        match = result.match
        if match.status not in (Status.RUNNING, Status.FINISHED) or match.state is None:
            await super().present_timeout(result)
            return
        if result.events:
            result.message = "\u23f0 The turn limit passed."
        await self.present_change(match, result)

    async def announce_result(self, match: Match, result: Result) -> None:
        place = await self.place_of(match)
        if place is None:
            return
        view = nomic_view(match)
        embed = discord.Embed(title="Nomic World: game over", description=self.status_line(match),
                              colour=COLOUR_END)
        lines = [f"{_md(p.name)}: {p.proposals} proposal{'s' * (p.proposals != 1)}, {p.adopted} adopted"
                 + (f", {p.rulings} ruling{'s' * (p.rulings != 1)}" if p.rulings else "") for p in view.players]
        if lines:
            embed.add_field(name="Players", value=_cut("\n".join(lines), 1024), inline=False)
        embed.set_footer(text=f"Unrated game \u00b7 {len(view.in_effect)} rules were in effect at the end")
        await place.send(embed=embed, view=self.rematch_view(match), allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------ moves in notation

    @app_commands.command(name="move", description="Play in notation: a path such as NNE, vote yes/no, skip")
    @app_commands.describe(notation="A path of N/E/S/W steps (NNE, 2N E), vote yes / vote no, or skip")
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:
        match = await self.match_here(interaction)
        parsed = nomic_notation.read(notation)
        if isinstance(parsed, Propose):
            await self.post_proposal(interaction, match, parsed)
            return
        if isinstance(parsed, Judge):
            await self.do_judge(interaction, match, parsed.question)
            return
        if isinstance(parsed, Ruling):
            await self.do_ruling(interaction, match, parsed.text)
            return
        if isinstance(parsed, Join):
            raise LobbyError("Join with `/nomic join`.")
        if isinstance(parsed, End):
            raise LobbyError("An admin or the host ends the game with `/nomic end`.")
        if isinstance(parsed, Leave):
            self.player_seat(match, interaction.user.id)
            result = await self.service.play(match.id, interaction.user.id, "leave")
            await interaction.response.send_message("You left the game.", ephemeral=True)
            await self.present_change(result.match, result)
            return
        if isinstance(parsed, (Vote, Unvote)):
            self.player_seat(match, interaction.user.id)
            self.judgment_waits(match)
            result = await self.service.play(match.id, interaction.user.id, nomic_notation.write(parsed))
            number = next((e.data.get("number") for e in result.events if e.kind in ("vote", "unvote")), "?")
            text = (f"Your vote on proposal {number} is withdrawn." if isinstance(parsed, Unvote) else
                    f"Your vote on proposal {number} is counted: {'yes' if parsed.yes else 'no'}.")
            await interaction.response.send_message(text, ephemeral=True)
            if any(e.kind in ("adopt", "reject") for e in result.events):
                await self.present_change(result.match, result)
            else:
                await self.refresh_tally(result.match.id)
            return
        # a path or a skip: the reply is the new board; the old one loses its (now stale) buttons
        self.judgment_waits(match)
        old_message = match.rec.message_id
        result = await self.service.play(match.id, interaction.user.id, nomic_notation.write(parsed))
        await self.reply_with_board(interaction, result, old_message)
        if any(e.kind in ("adopt", "reject") for e in result.events):
            await self.update_vote_message(result.match, result.events)
        await self.after_result(result.match, result)

    @move.autocomplete("notation")
    async def nomic_move_autocomplete(self, interaction: discord.Interaction,
                                      current: str) -> list[app_commands.Choice[str]]:
        return await self.move_choices(interaction, current, only_to_act=False)

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
                    target = f" rule {move.rule}" if move.rule is not None else ""
                    text = _md(_cut(move.text, 120))
                    effect = f" [effect: {move.effect}]" if move.effect else ""
                    out.append(f"{_md(before.players[mv.seat].name)} proposes to {move.action}{target}: "
                               f"\u201c{text}\u201d{effect}")
                elif e.kind in ("roll", "reveal"):
                    out.append(f"\u2003\U0001f3b2 {_md(e.text)}")
                else:
                    out.append(_md(_cut(e.text, 200)))
        return out

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
            out = ["vote yes", "vote no"]
        cur = current.strip().upper().replace(" ", "")
        return [t for t in out if t.upper().replace(" ", "").startswith(cur)]

    # ------------------------------------------------------------ proposals and votes

    @app_commands.command(name="propose", description="Propose your turn's rule-change (players vote with ✅ / ❌)")
    @app_commands.describe(action="Enact a new rule, repeal a rule, or amend a rule",
                           rule="The number of the rule to repeal or amend",
                           text="The new rule's text (enact), the new text (amend), or a reason (repeal)",
                           effect="Optional: what the bot itself will enforce, e.g. die=8, votes=majority, end")
    @app_commands.choices(action=ACTIONS)
    async def propose(self, interaction: discord.Interaction, action: app_commands.Choice[str],
                      text: app_commands.Range[str, 1, MAX_TEXT] | None = None,
                      rule: app_commands.Range[int, 101, 999_999] | None = None,
                      effect: app_commands.Range[str, 1, 60] | None = None) -> None:
        match = await self.match_here(interaction)
        move = Propose(action.value, rule, (text or "").strip(), read_effect(effect) if effect else None)
        await self.post_proposal(interaction, match, move)

    @propose.autocomplete("effect")
    async def effect_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        cur = current.strip().lower()
        return [app_commands.Choice(name=f"{value} \u2014 {what}", value=value) for value, what in EFFECTS
                if value.startswith(cur) or cur in what][:25]

    async def post_proposal(self, interaction: discord.Interaction, match: Match, move: Propose) -> None:
        """Play the proposal, post it as the reply (mentions off) and open the vote on it."""
        self.player_seat(match, interaction.user.id)
        self.judgment_waits(match)
        result = await self.service.play(match.id, interaction.user.id, nomic_notation.write(move))
        number = next(int(e.data["number"]) for e in result.events if e.kind == "propose")
        embed = self.proposal_embed(result.match, number)
        async with self.votes.posting():
            cb = await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
            message = cb.resource
            if isinstance(message, discord.InteractionMessage):
                await self.votes.post_vote(match.id, message, interaction.channel_id or message.channel.id, number)
        await self.after_result(result.match, result)

    def proposal_embed(self, match: Match, number: int) -> discord.Embed:
        """The proposal message: open (how to vote, who voted) or decided (the result)."""
        view = nomic_view(match)
        r = view.rule(number)
        if r is None:
            return discord.Embed(title=f"Proposal {number}", colour=COLOUR_INFO)
        what = {"enact": "enact a new rule", "repeal": f"repeal rule {r.target}",
                "amend": f"amend rule {r.target}"}.get(r.kind, r.kind)
        if r.status == "open":
            title, colour = f"\U0001f5f3\ufe0f Proposal {number}: {what}", COLOUR_INFO
        elif r.status == "rejected":
            title, colour = f"{NO} Proposal {number} rejected: {what}", COLOUR_REJECTED
        else:
            title, colour = f"{YES} Proposal {number} adopted: {what}", COLOUR_OK
        if r.kind == "repeal":
            body = f"Reason: {r.text}" if r.text else "No reason given."
        elif r.kind == "amend":
            body = f"New text of rule {r.target}:\n{r.text}"
        else:
            body = r.text
        embed = discord.Embed(title=_cut(title, 256), description=_cut(body, 4000), colour=colour)
        embed.add_field(name="Proposed by", value=_md(view.name(r.proposer)))
        if r.effect_text:
            embed.add_field(name="Effect the bot enforces", value=f"{r.effect_text} (`{r.effect}`)")
        p = view.proposal
        if r.status == "open" and p is not None and p.number == number:
            # edited after every counted vote: the reaction counts include the bot's own ✅ / ❌
            embed.add_field(name=f"Tally ({p.needed})", value=_cut(self.tally_text(view, p), 1024), inline=False)
            embed.set_footer(text=f"React {YES} to adopt or {NO} to reject; only the players' votes count. "
                                  "Until everybody has voted you can change your vote (the other emoji) or "
                                  f"withdraw it (remove your reaction). Match #{match.id}")
            return embed
        votes = [f"{YES} " + (", ".join(_md(view.name(s)) for s in r.yes) or "\u2014"),
                 f"{NO} " + (", ".join(_md(view.name(s)) for s in r.no) or "\u2014")]
        embed.add_field(name="Votes", value=_cut("\n".join(votes), 1024), inline=False)
        outcome = next((h for h in reversed(r.history) if h.startswith(("Adopted", "Rejected"))), "")
        if r.status != "rejected":
            outcome += " In effect from the beginning of the next turn (rule 111)."
        embed.set_footer(text=_cut(f"{outcome} Match #{match.id}".strip(), 2048))
        return embed

    @staticmethod
    def tally_text(view: NomicView, p: Any) -> str:
        """``✅ 1 of 3 · ❌ 0 of 3`` and who voted what, who is still to vote."""
        def names(seats: Sequence[int]) -> str:
            return ", ".join(_md(view.name(s)) for s in seats) or "\u2014"

        lines = [f"{YES} **{len(p.yes)} of {len(p.voters)}** \u00b7 {NO} **{len(p.no)} of {len(p.voters)}**",
                 f"{YES} {names(p.yes)}", f"{NO} {names(p.no)}"]
        if p.waiting:
            lines.append(f"Still to vote: {names(p.waiting)}")
        if view.question is not None:
            lines.append("\u2696\ufe0f Votes wait while the Judge decides a question.")
        return "\n".join(lines)

    def votes_cast(self, match: Match, ref: Any) -> dict[int, bool]:
        """For :mod:`cogs._votes`: the counted votes on the open proposal ``ref`` by user id."""
        if match.status != Status.RUNNING or match.state is None:
            return {}
        view = match.view(None)
        p = view.proposal
        if p is None or p.number != ref:
            return {}
        return {view.players[s].user_id: yes for seats, yes in ((p.yes, True), (p.no, False)) for s in seats}

    async def withdraw_vote(self, match: Match, ref: Any, user_id: int, yes: bool) -> None:
        """For :mod:`cogs._votes`: a removed reaction withdraws the vote it cast (held during a Judgment:
        the re-count after the ruling sees the reaction gone)."""
        if self.votes_cast(match, ref).get(user_id) is not yes or match.view(None).question is not None:
            return
        try:
            result = await self.service.play(match.id, user_id, "unvote")
        except (GameError, ParlorError) as exc:
            log.info("withdrawing the vote of %s on match %s refused: %s", user_id, match.id, exc)
            return
        await self.refresh_tally(result.match.id)

    def may_vote(self, match: Match, ref: Any, user_id: int) -> bool | None:
        """For :mod:`cogs._votes`: voters of the open proposal ``ref``; ``None`` once it is decided."""
        if match.status != Status.RUNNING or match.state is None:
            return None
        p = match.view(None).proposal
        if p is None or p.number != ref:
            return None
        seat = match.seat_of(user_id)
        return seat is not None and seat in p.voters

    async def cast_vote(self, match: Match, ref: Any, user_id: int, yes: bool, channel_id: int,
                        message_id: int) -> bool:
        """For :mod:`cogs._votes`: play the vote; a decided vote updates its message and posts the board.

        While a Judgment is pending the vote waits (the reaction stays and is counted after the ruling).
        """
        if self._vote_stands(match, ref, user_id, yes):
            return True
        changed = self.votes_cast(match, ref).get(user_id) is (not yes)
        try:
            result = await self.service.play(match.id, user_id, "vote yes" if yes else "vote no")
        except (GameError, ParlorError) as exc:
            fresh = await self.service.get(match.id)
            if self._vote_stands(fresh, ref, user_id, yes):  # counted meanwhile, or decided, or waiting
                return True
            log.info("vote by %s on match %s refused: %s", user_id, match.id, exc)
            return False
        if changed:  # the old reaction goes, so the message shows only the vote counted (withdraws nothing)
            await self.votes.remove(channel_id, message_id, discord.PartialEmoji(name=NO if yes else YES), user_id)
        if any(e.kind in ("adopt", "reject") for e in result.events):
            await self.present_change(result.match, result)
        else:
            await self.refresh_tally(match.id)
        return True

    async def refresh_tally(self, match_id: int) -> None:
        """The live tally on the vote message: one edit per vote, and votes that arrive while an edit is
        under way share the next one (the edit reads the match afresh)."""
        if match_id in self._tally_busy:
            self._tally_dirty.add(match_id)
            return
        self._tally_busy.add(match_id)
        try:
            while True:
                self._tally_dirty.discard(match_id)
                match = await self.service.get(match_id)
                loc = vote_location(match)
                if loc is None:
                    return
                try:
                    await self.bot.get_partial_messageable(loc[0]).get_partial_message(loc[1]).edit(
                        embed=self.proposal_embed(match, int(loc[2])))
                except discord.HTTPException:
                    log.info("could not update the tally of match %s", match_id, exc_info=True)
                if match_id not in self._tally_dirty:
                    return
        finally:
            self._tally_busy.discard(match_id)

    def _vote_stands(self, match: Match, ref: Any, user_id: int, yes: bool) -> bool:
        """Nothing to play: the vote is already counted, the proposal is decided, or a Judgment holds it."""
        if match.status != Status.RUNNING or match.state is None:
            return True
        view = match.view(None)
        p = view.proposal
        if p is None or p.number != ref or view.question is not None:
            return True
        seat = match.seat_of(user_id)
        return seat is not None and seat in (p.yes if yes else p.no)

    async def resync_votes(self) -> None:
        """Count reactions the listener missed while the bot was away (``on_ready``: start, reconnect)."""
        for rec in await self.bot.store.active_matches():
            if rec.game == self.game_key and rec.status == Status.RUNNING and vote_location(Match(rec)):
                try:
                    await self.votes.resync(rec.id)
                except Exception:
                    log.exception("re-reading the votes of match %s failed", rec.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.resync_votes()

    # ------------------------------------------------------------ judgment

    @app_commands.command(name="judge", description="Invoke Judgment (rule 114): the Judge decides a question")
    @app_commands.describe(question="What the Judge should decide")
    async def judge(self, interaction: discord.Interaction,
                    question: app_commands.Range[str, 1, MAX_QUESTION]) -> None:
        match = await self.match_here(interaction)
        await self.do_judge(interaction, match, question)

    async def do_judge(self, interaction: discord.Interaction, match: Match, question: str) -> None:
        self.player_seat(match, interaction.user.id)
        result = await self.service.play(match.id, interaction.user.id, f"judge {' '.join(question.split())}")
        view = result.match.view(None)
        q = view.question
        if q is None:  # cannot happen: a judgment always waits for its Judge
            raise LobbyError("The question did not open a Judgment.")
        judge_id = view.players[q.judge].user_id
        embed = discord.Embed(title="\u2696\ufe0f Judgment invoked (rule 114)", description=_cut(q.question, 4000),
                              colour=COLOUR_INFO)
        embed.add_field(name="Asked by", value=_md(view.name(q.asker)))
        embed.add_field(name="The Judge", value=f"<@{judge_id}>")
        embed.set_footer(text="The Judge answers with /nomic ruling; the ruling becomes a rule at once. "
                              "Play waits; at the turn limit the question lapses.")
        await interaction.response.send_message(
            content=f"<@{judge_id}>, you are the Judge.", embed=embed,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(judge_id)], everyone=False,
                                                     roles=False, replied_user=False))
        result.notified.add(q.judge)  # the message above was the Judge's ping
        await self.present_change(result.match, result)

    @app_commands.command(name="ruling", description="The Judge's ruling on the pending question (rule 114)")
    @app_commands.describe(text="Your ruling; it becomes a rule at once")
    async def ruling(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, MAX_TEXT]) -> None:
        match = await self.match_here(interaction)
        await self.do_ruling(interaction, match, text)

    async def do_ruling(self, interaction: discord.Interaction, match: Match, text: str) -> None:
        view = match.view(None)
        q = view.question
        if q is None:
            raise LobbyError("No Judgment is pending: any player can invoke one with `/nomic judge`.")
        if match.seat_of(interaction.user.id) != q.judge:
            raise NotAPlayer(f"Only the Judge, {_md(view.name(q.judge))}, can rule on this question (rule 114).")
        result = await self.service.play(match.id, interaction.user.id, f"ruling {text.strip()}")
        number = next(int(e.data["number"]) for e in result.events if e.kind == "ruling")
        embed = discord.Embed(title=f"\u2696\ufe0f Rule {number}: a Judgment", description=_cut(text.strip(), 4000),
                              colour=COLOUR_OK)
        embed.add_field(name="Question", value=_cut(q.question, 1024), inline=False)
        embed.add_field(name="Judge", value=_md(view.name(q.judge)))
        embed.set_footer(text="Adopted and in effect at once (rule 114). /nomic rule number:"
                              f"{number} shows it.")
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
        await self.present_change(result.match, result)

    # ------------------------------------------------------------ the rulebook and the map

    @app_commands.command(name="rules", description="The rules in effect (paged), then how to play")
    async def rules_cmd(self, interaction: discord.Interaction) -> None:
        match = await self.match_or_none(interaction)
        await self.show_rulebook(interaction, match.id if match else 0, 0, edit=False)

    async def show_rulebook(self, interaction: discord.Interaction, match_id: int, page: int, *, edit: bool,
                            howto: bool = False) -> None:
        match = await self.service.get(match_id) if match_id else None
        if match is not None and match.rec.game != self.game_key:
            raise StaleBoard("That button does nothing any more.")
        view = nomic_view(match)
        rules = rulebook_pages(view)
        howtos = _howto_pages()
        pages = rules + howtos
        if howto:
            page = len(rules)
        page = max(0, min(page, len(pages) - 1))
        in_rules = page < len(rules)
        what = "the rules in effect" if in_rules else "how to play"
        title = f"Nomic World \u00b7 {what} (page {page + 1} of {len(pages)})"
        embed = discord.Embed(title=title, description=pages[page], colour=COLOUR_INFO)
        where = f"Match #{match_id}" if match_id else "No game here: the Initial Set"
        embed.set_footer(text=f"{where} \u00b7 /nomic rule number: shows one rule with its history")
        mid = match_id
        items = [
            RulebookButton(mid, max(0, page - 1), "e", "p", label="Previous", emoji="\u25c0\ufe0f",
                           disabled=page == 0),
            RulebookButton(mid, min(len(pages) - 1, page + 1), "e", "n", label="Next", emoji="\u25b6\ufe0f",
                           disabled=page >= len(pages) - 1),
            (RulebookButton(mid, 0, "e", "r", label="Rules in effect", emoji="\U0001f4dc") if not in_rules
             else RulebookButton(mid, len(rules), "e", "h", label="How to play", emoji="\u2753")),
        ]
        if edit:
            await interaction.response.edit_message(embed=embed, view=v.view_of(*items))
        else:
            await interaction.response.send_message(embed=embed, view=v.view_of(*items), ephemeral=True)

    @app_commands.command(name="rule", description="One rule or proposal, with its votes and history")
    @app_commands.describe(number="The rule's number (101-115 for the Initial Set, 201 on for the rest)")
    async def rule(self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 999_999]) -> None:
        match = await self.match_or_none(interaction)
        text = rule_detail(nomic_view(match), number, limit=4000)
        embed = discord.Embed(title=f"Nomic World \u00b7 rule {number}", description=text, colour=COLOUR_INFO)
        if match is not None:
            embed.set_footer(text=f"Match #{match.id}")
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="map", description="The world map: where everybody is, what has been revealed")
    async def map_cmd(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        view = match.view(None)
        data = await asyncio.to_thread(self.render_plan, match, None, "")
        counts: dict[str, int] = {}
        for _, res in view.revealed:
            counts[res] = counts.get(res, 0) + 1
        where = []
        for p in view.players:
            if p.status == "left":
                continue
            pos = "joins next round" if p.status == "pending" else (
                "in movement" if p.pos is None else f"({p.pos[0]}, {p.pos[1]})")
            where.append(f"{_md(p.name)}: {pos}")
        found = ", ".join(f"{n} {res}" for res, n in sorted(counts.items())) or "nothing yet"
        embed = discord.Embed(title=f"Nomic World \u00b7 the map (match #{match.id})",
                              description=_cut("\n".join(where) + f"\nRevealed spaces: {found}", 4000),
                              colour=COLOUR_INFO)
        embed.set_image(url=f"attachment://{PICTURE}")
        await interaction.response.send_message(embed=embed, file=picture_file(data, PICTURE),
                                                ephemeral=True)

    # ------------------------------------------------------------ leaving and ending

    @app_commands.command(name="resign", description="Leave the game here (the others play on; asks to confirm)")
    async def resign(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        self.player_seat(match, interaction.user.id)
        view = v.view_of(v.button(match.id, None, "resign!", label="Yes, leave the game",
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message("Leave this Nomic World game? The others play on, and you cannot "
                                                "rejoin it.", view=view, ephemeral=True)

    async def do_resign(self, interaction: discord.Interaction, match: Match) -> None:
        result = await self.service.play(match.id, interaction.user.id, "leave")
        await interaction.response.edit_message(content="You left the game.", view=None)
        await self.present_change(result.match, result)

    def can_end(self, interaction: discord.Interaction, match: Match) -> bool:
        perms = interaction.permissions
        return bool(perms.manage_guild or perms.administrator or interaction.user.id == match.rec.host_id)

    @app_commands.command(name="end", description="End the game here for everyone (Manage Server, or the host)")
    async def end(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction, running=False)
        if not self.can_end(interaction, match):
            raise NotAPlayer("Only the host or someone with Manage Server can end the game.")
        view = v.view_of(v.button(match.id, None, "end!", label="Yes, end the game",
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message("End this Nomic World game for everyone? It cannot be resumed.",
                                                view=view, ephemeral=True)

    async def do_end(self, interaction: discord.Interaction, match: Match) -> None:
        if not self.can_end(interaction, match):
            raise NotAPlayer("Only the host or someone with Manage Server can end the game.")
        by_host = interaction.user.id == match.rec.host_id
        if match.status == Status.LOBBY:
            result = await self.service.abort(match.id, "Ended by the host." if by_host else "Ended by an admin.")
            await interaction.response.edit_message(content="The lobby is closed.", view=None)
            place = await self.place_of(result.match)
            if place is not None and result.match.rec.message_id:
                embed, view = self.invite_message(result.match)
                try:
                    await place.get_partial_message(result.match.rec.message_id).edit(  # type: ignore[attr-defined]
                        embed=embed, view=view)
                except discord.HTTPException:
                    pass
            return
        seat = match.seat_of(interaction.user.id)
        result = await self.service.play(match.id, interaction.user.id, "end host" if by_host else "end",
                                         seat=seat if seat is not None else 0)
        await interaction.response.edit_message(content="The game is over.", view=None)
        await self.present_change(result.match, result)




async def setup(bot: Any) -> None:
    await bot.add_cog(Nomic(bot))
