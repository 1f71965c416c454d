"""``/tournament``: Swiss and round-robin events in the 2-player games; every pairing is an ordinary match.

Thin: the commands and the sign-up buttons call :class:`TournamentService`; this cog is also its
presenter (posts pairings, opens one thread per pairing through the game cog's normal board
posting, standings pictures, the final podium). Thread creation for a round is paced so that a
round of 64 pairings stays inside Discord's rate limits instead of collecting 429s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import TITLES
from bot.i18n import N_, _, ngettext
from bot.matches.service import Player
from bot.tournaments.model import Format
from bot.tournaments.service import TournamentError, TournamentService
from cogs._game import TURN_LIMITS

if TYPE_CHECKING:
    from bot.app import ParlorBot
from cogs.tournament.common import (
    COLOUR,
    FORMAT_CHOICES,
    FORMAT_WORDS,
    GAME_CHOICES,
    NO_MENTIONS,
    ROUND_TIMES,
    STARTS,
    Pacer,
    esc,
    status_word,
)
from cogs.tournament.presenter import TournamentPresenter
from cogs.tournament.signup import SignupButton

# Slash command descriptions are read from the command tree into the commands catalog and translated by
# discord.py's translator (bot/i18n/commands.py), not by _().
EVENT = "The tournament number (default: the one in this channel)"  # not translated: an option's description


class TournamentCog(TournamentPresenter, group_name="tournament",
                    group_description=("Swiss and round-robin tournaments in the "
                                       "2-player games")):
    """``/tournament``: the cog's life (resuming after a restart) and its slash commands."""

    def __init__(self, bot: ParlorBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.service, presenter=self)
        self.pacer = Pacer()
        self._tasks = set()
        self._resumed = False
        self._announcing = set()
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignupButton)
        self.bot.service.on_match_end = self.service.match_ended
        self.service.on_deadline_change = self.bot.scheduler.poke
        self.bot.scheduler.sources.append(self.service)

    async def cog_unload(self) -> None:
        if self.service in self.bot.scheduler.sources:
            self.bot.scheduler.sources.remove(self.service)
        for task in list(self._tasks):
            task.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self._resumed:
            return
        self._resumed = True
        self.spawn(self._resume())

    async def _resume(self) -> None:
        """After a (re)start: results recorded meanwhile, rounds advanced, unposted pairings posted."""
        started = await self.service.resume_all()
        for (
            tid
        ) in await self.bot.store.running_tournaments():  # a round started but never announced (a crash)
            t = await self.service.get(tid)
            if t.status == "running" and int(t.data.get("announced", 0)) < t.current_round:
                await self._post_round(tid, t.current_round, after_crash=True)
        await self.post_pairings(started)

    @app_commands.command(
        name="new",
        description=("Open a tournament in this channel "
                     "(sign-up with Join/Leave)"),
    )
    @app_commands.describe(
        game="The game (2-player games)",
        format="Swiss (default) or round robin",
        rounds=("Swiss rounds (default: set by the sign-ups, "
                "e.g. 3 for 4 players, 4 for 8)"),
        round_time="Time for each round",
        turn_limit="Time per move (default: the server's turn limit)",
        rated="Count for the leaderboard (default yes)",
        starts="When the first round starts",
    )
    @app_commands.rename(round_time="round-time", turn_limit="turn-limit")
    @app_commands.choices(
        game=GAME_CHOICES,
        format=FORMAT_CHOICES,
        round_time=ROUND_TIMES,
        turn_limit=TURN_LIMITS,
        starts=STARTS,
    )
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                  format: app_commands.Choice[str] | None = None,
                  rounds: app_commands.Range[int, 1, 50] | None = None,
                  round_time: app_commands.Choice[int] | None = None,
                  turn_limit: app_commands.Choice[int] | None = None, rated: bool = True,
                  starts: app_commands.Choice[int] | None = None) -> None:
        if not await self.is_organiser(interaction):
            raise TournamentError(
                _("Only members with Manage Server (or the server's tournament organiser role) "
                  "can open a tournament.")
            )
        if interaction.channel_id is None or getattr(interaction.channel, "parent_id", None) is not None:
            raise TournamentError(
                _("Open tournaments in a text channel (not a thread): each pairing gets a thread.")
            )
        user = interaction.user
        t = await self.service.create(
            guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id,
            organiser=Player(user.id, getattr(user, "display_name", user.name)), game=game.value,
            fmt=Format(format.value if format else Format.SWISS.value), rounds=rounds,
            round_time=round_time.value if round_time else 86400,
            turn_limit=turn_limit.value if turn_limit else None, rated=rated,
            starts_in=starts.value if starts else 3600,
        )
        embed, view = await self.signup_message(t)
        cb = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        if isinstance(cb.resource, discord.InteractionMessage):
            await self.service.set_message(t.id, cb.resource.id)

    @app_commands.command(
        name="standings", description="The standings of a tournament"
    )
    @app_commands.describe(
        event=EVENT, page="Page of the table (32 players a page)"
    )
    @app_commands.guild_only()
    async def standings_cmd(self, interaction: discord.Interaction, event: int | None = None,
                            page: app_commands.Range[int, 1, 40] = 1) -> None:
        t = await self.find(interaction, event, active_only=False)
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, file = await self.standings_post(t, page=page)
        await interaction.followup.send(embed=embed, file=file, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="withdraw", description="Leave a tournament you are playing in"
    )
    @app_commands.describe(event=EVENT)
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        tr = await self.service.withdraw(t.id, interaction.user.id)
        extra = ("; " + "; ".join(sorted(set(tr.notes)))) if tr.notes else ""
        await interaction.response.send_message(
            _("You withdrew from tournament #{id}{notes}.", id=t.id, notes=extra), ephemeral=True
        )
        name = esc(getattr(interaction.user, "display_name", interaction.user.name))
        await self.say(t, N_("{player} withdrew from the tournament."), player=name)
        if t.status == "signup":
            await self.signup_changed(await self.service.get(t.id))

    @app_commands.command(
        name="list", description="This server's tournaments"
    )
    @app_commands.guild_only()
    async def list_cmd(self, interaction: discord.Interaction) -> None:
        found = await self.bot.store.tournaments_in_guild(
            interaction.guild_id or 0, active_only=False, limit=15
        )
        if not found:
            await interaction.response.send_message(_("No tournaments on this server yet. Start one with "
                                                      "`/tournament new`."), ephemeral=True)
            return
        lines = []
        for t in found:
            n = len(await self.bot.store.entrants(t.id))
            rnd = (" · " + _("round {round}/{rounds}", round=t.current_round, rounds=t.rounds)
                   if t.current_round else "")
            players = ngettext("{n} player", "{n} players", n)
            lines.append(f"**#{t.id}** {TITLES[t.game]} · {_(FORMAT_WORDS[Format(t.format)])} · {players} · "
                         f"{status_word(t.status)}{rnd} · <#{t.channel_id}>")
        embed = discord.Embed(title=_("Tournaments"), description="\n".join(lines)[:4000], colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="pause",
        description="Organiser: pause a tournament (the round clock stops)",
    )
    @app_commands.describe(event=EVENT)
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.pause(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(_("Tournament #{id} is paused.", id=t.id), ephemeral=True)
        await self.say(t, N_("The tournament is paused by the organiser: the round clock stopped "
                             "(games in progress go on)."))

    @app_commands.command(
        name="resume", description="Organiser: resume a paused tournament"
    )
    @app_commands.describe(event=EVENT)
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.resume(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(_("Tournament #{id} resumed.", id=t.id), ephemeral=True)
        t = await self.service.get(t.id)
        if t.status == "running" and t.deadline:
            await self.say(t, N_("The tournament resumed: round {round} ends {time}."), round=t.current_round,
                           time=f"<t:{int(t.deadline)}:R>")

    @app_commands.command(
        name="remove",
        description="Organiser: remove a player from a tournament",
    )
    @app_commands.describe(
        player="The player to take out (no pairings in later rounds)",
        event=EVENT,
    )
    @app_commands.guild_only()
    async def remove(
        self, interaction: discord.Interaction, player: discord.User, event: int | None = None
    ) -> None:
        t = await self.find(interaction, event)
        await self.service.withdraw(t.id, player.id, by=interaction.user.id,
                                    is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(
            _("Removed {player} from tournament #{id}.", player=esc(player.display_name), id=t.id),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        await self.say(t, N_("{player} was removed from the tournament by the organiser."),
                       player=esc(player.display_name))
        if t.status == "signup":
            await self.signup_changed(await self.service.get(t.id))

    @app_commands.command(
        name="cancel", description="Organiser: cancel a tournament"
    )
    @app_commands.describe(event=EVENT)
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction, event: int | None = None) -> None:
        t = await self.find(interaction, event)
        await self.service.cancel(t.id, interaction.user.id, is_admin=await self.is_organiser(interaction))
        await interaction.response.send_message(_("Tournament #{id} is cancelled.", id=t.id), ephemeral=True)

    @app_commands.command(
        name="settings",
        description=("Manage Server: who may open tournaments, "
                     "events per player"),
    )
    @app_commands.describe(
        organiser_role="Members with this role may open and run tournaments",
        max_events="How many events a player may be in at once (default 3)",
    )
    @app_commands.rename(organiser_role="organiser-role", max_events="max-events")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction, organiser_role: discord.Role | None = None,
                       max_events: app_commands.Range[int, 1, 20] | None = None) -> None:
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            raise TournamentError(_("You need the Manage Server permission for that."))
        gid = interaction.guild_id or 0
        role, most = await self.bot.store.tournament_settings(gid)
        role = organiser_role.id if organiser_role is not None else role
        most = max_events if max_events is not None else most
        await self.bot.store.save_tournament_settings(gid, role, most)
        mention = f"<@&{role}>"
        who = (_("Tournament organisers: Manage Server and {role}.", role=mention) if role
               else _("Tournament organisers: Manage Server."))
        most_text = ngettext("A player may be in {n} event at once.",
                             "A player may be in {n} events at once.", most)
        await interaction.response.send_message(f"{who} {most_text}", ephemeral=True,
                                                allowed_mentions=NO_MENTIONS)


async def setup(bot: ParlorBot) -> None:
    await bot.add_cog(TournamentCog(bot))
