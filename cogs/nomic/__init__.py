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
  board follows. While the vote is open the board says so and links to the
  proposal; its text asks the voters to vote on it (a new board pinging those
  who take thread pings; DMs for the others), and DMs or thread pings asking
  for a vote are edited once it is decided or the game ends. Six requests
  plus one tally edit per undecided vote for the round trip, besides the
  reactions. The turn limit rejects an open vote.
* **Judgment**: ``/nomic judge question:`` (any player), ``/nomic ruling
  text:`` (the Judge only); the ruling is a rule at once. Meanwhile every
  other move is answered "play waits for the Judge".
* **Rulebook**: ``/nomic rules`` pages the rules in effect (buttons carry the
  page), then how to play; ``/nomic rule number:`` shows one entry with its
  history; ``/nomic map`` the map.
* **End**: an adopted rule with the ``end`` effect, ``/nomic end`` (Manage
  Server or the host; the end says which: ``end host`` / ``end``), or fewer than two players (``/nomic
  resign`` leaves
  the game; the others play on). Unrated; ``/stats`` counts proposals.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import LobbyError, NotAPlayer, NotYourTurn, StaleBoard
from bot.games.nomic import next_steps, read_effect, rule_detail
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
    resource_name,
)
from bot.i18n import _, public
from bot.matches.service import Match
from bot.storage import Status
from cogs import _views as v
from cogs._game import (
    COLOUR_INFO,
    EXPIRY_CHOICES,
    NO_MENTIONS,
    TURN_LIMITS,
    picture_file,
)
from cogs._votes import votes_of
from cogs.nomic.common import (
    ACTIONS,
    PICTURE,
    RulebookButton,
    _cut,
    _md,
    effects,
    nomic_view,
)
from cogs.nomic.rulebook import NomicRulebook


# Slash command descriptions are read from the command tree into the commands catalog and translated by
# discord.py's translator (bot/i18n/commands.py), not by _().
class Nomic(
    NomicRulebook, group_name="nomic",
    group_description="Nomic World: roam the map, rewrite the rules",
):
    """``/nomic``: the slash commands (new, join, move, propose, judge, ruling, rules, rule, map, resign,
    end)."""

    async def cog_load(self) -> None:
        self._tally_busy = set()
        self._tally_dirty = set()
        self.votes = votes_of(self.bot)
        self.votes.register(self.game_key, self)
        self.bot.add_dynamic_items(RulebookButton)

    async def cog_unload(self) -> None:
        self.stop_all_ahead()
        self.votes.unregister(self.game_key)
        self.bot.remove_dynamic_items(RulebookButton)

    @app_commands.command(
        name="new",
        description="Open a Nomic World lobby (2 or more players)",
    )
    @app_commands.describe(
        expires="How long the invitation stays open (default 15 minutes)",
        turn_limit=("Time per turn (a vote still "
                    "open at the limit is rejected)"),
    )
    @app_commands.choices(expires=EXPIRY_CHOICES,
                          turn_limit=TURN_LIMITS)
    async def new(self, interaction: discord.Interaction, turn_limit: app_commands.Choice[int] | None = None,
                  expires: app_commands.Choice[int] | None = None) -> None:
        await self.create_match(interaction, opponent=None, level=None, options={},
                                turn_limit=turn_limit.value if turn_limit else None,
                                expires=expires.value if expires else None)

    @app_commands.command(
        name="join",
        description=("Join the lobby here, or the "
                     "running game from the next round")
    )
    async def join(self, interaction: discord.Interaction) -> None:
        found = await self.service.find_here(interaction.channel_id or 0, game=self.game_key)
        found = [m for m in found if m.status in (Status.LOBBY, Status.RUNNING)]
        if not found:
            raise LobbyError(_("There is no Nomic World game here to join: start one with `/nomic new`, or "
                               "run this in the game's thread."))
        match = found[0]
        result = await self.service.join(match.id, await self.player_for(interaction.user))
        if match.status == Status.LOBBY:
            await interaction.response.send_message(_("You joined the lobby."), ephemeral=True)
            await self.refresh_invite(result.match)
            return
        await self.add_to_thread(result.match, interaction.user.id)
        with public(result.match.rec.guild_id):  # the game's thread reads it
            said = self.in_channel_words(result.match, result)
            events = said.events if said is not None else result.events
            text = " ".join(_md(e.text) for e in events if e.kind == "join") or _("You joined.")
        await interaction.response.send_message(f"\U0001f44b {text}", allowed_mentions=NO_MENTIONS)

    async def on_action(self, interaction: discord.Interaction, match: Match, version: int | None,
                        action: str, values: list[str]) -> None:
        if action == "end!":
            await self.do_end(interaction, match)
            return
        if action in ("pd0", "pd1") and values:
            action = f"pa:{values[0]}"
        if not action.startswith("pa:"):
            raise StaleBoard(_("That button does nothing any more."))
        if version is None or version != match.version:  # path buttons always carry their version
            raise StaleBoard(_("This board is out of date: the game has moved on. Use the newest board."))
        view = match.view(None)
        seat = match.seat_of(interaction.user.id)
        if view.phase != "move" or view.question is not None or view.roll is None:
            raise StaleBoard(_("No path is due now."))
        if seat != view.current:
            raise NotYourTurn(_("It is {player}'s turn to move.", player=_md(view.name(view.current)))
                              if seat is not None else _("You are not playing in this game."))
        plan = action[3:]
        if (any(c not in DIRECTIONS for c in plan) or len(plan) > view.roll
                or any(plan[i] not in next_steps(plan[:i], view.roll) for i in range(len(plan)))):
            raise StaleBoard(_("That path cannot be built from here."))
        kwargs = await self.board_kwargs(match, None, f"pa:{plan}")
        file = kwargs.pop("file")
        kwargs.pop("content")
        await interaction.response.edit_message(**kwargs, attachments=[file])
        if len(plan) == view.roll and seat is not None:  # the path is complete: Confirm plays it
            self.draw_ahead(match, seat, [plan])

    @app_commands.command(
        name="move",
        description=("Play in notation: a path such "
                     "as NNE, vote yes/no, skip")
    )
    @app_commands.describe(
        notation=("A path of N/E/S/W steps (NNE, 2N "
                  "E), vote yes / vote no, or skip")
    )
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 300]) -> None:  # type: ignore[override]  # discord.py types a command by its cog class, so every override 'differs'
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
            raise LobbyError(_("Join with `/nomic join`."))
        if isinstance(parsed, End):
            raise LobbyError(_("An admin or the host ends the game with `/nomic end`."))
        if isinstance(parsed, Leave):
            self.player_seat(match, interaction.user.id)
            result = await self.service.play(match.id, interaction.user.id, "leave")
            await interaction.response.send_message(_("You left the game."), ephemeral=True)
            await self.present_change(result.match, result)
            return
        if isinstance(parsed, (Vote, Unvote)):
            self.player_seat(match, interaction.user.id)
            self.judgment_waits(match)
            result = await self.service.play(match.id, interaction.user.id, nomic_notation.write(parsed))
            number = next((e.data.get("number") for e in result.events if e.kind in ("vote", "unvote")), "?")
            if isinstance(parsed, Unvote):
                text = _("Your vote on proposal {number} is withdrawn.", number=number)
            elif parsed.yes:
                text = _("Your vote on proposal {number} is counted: yes.", number=number)
            else:
                text = _("Your vote on proposal {number} is counted: no.", number=number)
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

    @app_commands.command(
        name="propose",
        description=("Propose your turn's rule-change "
                     "(players vote with ✅ / ❌)")
    )
    @app_commands.describe(
        action="Enact a new rule, repeal a rule, or amend a rule",
        rule="The number of the rule to repeal or amend",
        text=("The new rule's text (enact), the new "
              "text (amend), or a reason (repeal)"),
        effect=("Optional: what the bot itself will "
                "enforce, e.g. die=8, votes=majority, end"),
    )
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
        return [app_commands.Choice(name=f"{value} \u2014 {what}", value=value) for value, what in effects()
                if value.startswith(cur) or cur in what.lower()][:25]

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.resync_votes()

    @app_commands.command(
        name="judge",
        description=("Invoke Judgment (rule 114): "
                     "the Judge decides a question")
    )
    @app_commands.describe(question="What the Judge should decide")
    async def judge(self, interaction: discord.Interaction,
                    question: app_commands.Range[str, 1, MAX_QUESTION]) -> None:
        match = await self.match_here(interaction)
        await self.do_judge(interaction, match, question)

    @app_commands.command(
        name="ruling",
        description=("The Judge's ruling on the "
                     "pending question (rule 114)")
    )
    @app_commands.describe(text="Your ruling; it becomes a rule at once")
    async def ruling(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, MAX_TEXT]
    ) -> None:
        match = await self.match_here(interaction)
        await self.do_ruling(interaction, match, text)

    @app_commands.command(
        name="rules",
        description=("How to play: a picture, a "
                     "summary, the rules in effect")
    )
    async def rules_cmd(self, interaction: discord.Interaction) -> None:  # type: ignore[override]  # discord.py types a command by its cog class, so every override 'differs'
        match = await self.match_or_none(interaction)  # the picture and summary; the rulebook in effect
        full = RulebookButton(match.id if match else 0, 0, "n", label=_("Full rules"), emoji="\U0001f4dc")
        await self.send_rules(interaction, full)

    @app_commands.command(
        name="rule",
        description=("One rule or proposal, with "
                     "its votes and history")
    )
    @app_commands.describe(
        number=("The rule's number (101-115 for the "
                "Initial Set, 201 on for the rest)")
    )
    async def rule(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 999_999]
    ) -> None:
        match = await self.match_or_none(interaction)
        text = rule_detail(nomic_view(match), number, limit=4000)
        embed = discord.Embed(title=_("Nomic World \u00b7 rule {number}", number=number), description=text,
                              colour=COLOUR_INFO)
        if match is not None:
            embed.set_footer(text=_("Match #{id}", id=match.id))
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="map",
        description=("The world map: where everybody "
                     "is, what has been revealed")
    )
    async def map_cmd(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction)
        view = match.view(None)
        data = await asyncio.to_thread(self.render_plan, match, None, "")
        counts: dict[str, int] = {}
        for _space, res in view.revealed:
            counts[res] = counts.get(res, 0) + 1
        where = []
        for p in view.players:
            if p.status == "left":
                continue
            pos = _("joins next round") if p.status == "pending" else (
                _("in movement") if p.pos is None else f"({p.pos[0]}, {p.pos[1]})")
            where.append(f"{_md(p.name)}: {pos}")
        found = (", ".join(f"{n} {resource_name(res)}" for res, n in sorted(counts.items()))
                 or _("nothing yet"))
        embed = discord.Embed(title=_("Nomic World \u00b7 the map (match #{id})", id=match.id),
                              description=_cut("\n".join(where) + "\n"
                                               + _("Revealed spaces: {found}", found=found), 4000),
                              colour=COLOUR_INFO)
        await interaction.response.send_message(embed=embed, ephemeral=True,
                                                file=picture_file(data, PICTURE, self.alt_text(match, None)))

    @app_commands.command(
        name="resign",
        description=("Leave the game here (the others "
                     "play on; asks to confirm)")
    )
    async def resign(self, interaction: discord.Interaction) -> None:  # type: ignore[override]  # discord.py types a command by its cog class, so every override 'differs'
        match = await self.match_here(interaction)
        self.player_seat(match, interaction.user.id)
        view = v.view_of(v.button(match.id, None, "resign!", label=_("Yes, leave the game"),
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message(
            _("Leave this Nomic World game? The others play on, and you cannot rejoin it."),
            view=view,
            ephemeral=True,
        )

    @app_commands.command(
        name="end",
        description=("End the game here for everyone "
                     "(Manage Server, or the host)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        match = await self.match_here(interaction, running=False)
        if not self.can_end(interaction, match):
            raise NotAPlayer(_("Only the host or someone with Manage Server can end the game."))
        view = v.view_of(v.button(match.id, None, "end!", label=_("Yes, end the game"),
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message(
            _("End this Nomic World game for everyone? It cannot be resumed."), view=view, ephemeral=True
        )


async def setup(bot: Any) -> None:
    await bot.add_cog(Nomic(bot))
