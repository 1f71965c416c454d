"""``/<game> puzzle``: a private puzzle on the real board, answered with the board's own components.

Only the games with a computer opponent mix this in (Pylon, Fire and Ice, the Egg Carton Game). A puzzle
(:mod:`bot.puzzles`) is an engine position with a proved forced win; its message is the game's picture
and the very components a match board offers there (a stand-in match, as lessons use), their ids
rewritten to ``pz:<game>:<number>:<path>:<action>`` -- the path (the solver's right moves so far) lives
in the message, so nothing is stored per step and old messages survive restarts. **Type a move** opens a
box for the game's notation. A right move is answered at once by the opponent's best reply (from the
proved solution tree: no search while answering), a wrong one fails the puzzle and shows a winning move.
Each click is one edited message; the first result per puzzle and member is stored for the server's
puzzle leaderboard (``/<game> puzzle top:True``). Puzzles never create matches and never touch ratings.
A server may get a puzzle a day in a channel (``/parlor settings puzzle_channel:``; :mod:`bot.daily`
schedules it, :meth:`PuzzleCog.post_daily` posts it): a public picture with a **Solve it** button that
opens the same puzzle privately for whoever clicks.

The private messages are in the solver's language; the daily post and the solvers' table, posted in the
channel, in the server's.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.errors import StaleBoard
from bot.i18n import _, ngettext, public, speaking
from bot.matches.service import Match
from bot.puzzles import Puzzle, Verdict, answer, node, puzzle, puzzles_of
from bot.replies import reply_error
from bot.storage import MatchRecord, SeatRecord, Status
from cogs._game.base import COLOUR_END, COLOUR_INFO, COLOUR_OK, NO_MENTIONS, picture_file
from cogs._game.learn import LearnCog

PUZZLE_RE = re.compile(
    r"pz:(?P<game>[a-z]{1,20}):(?P<n>[0-9]{1,4}):(?P<path>[0-9.]{0,40}):(?P<act>\S{1,80})")


def puzzle_id(game: str, number: int, path: tuple[int, ...], action: str) -> str:
    return f"pz:{game}:{number}:{'.'.join(map(str, path))}:{action}"


def read_path(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(".") if x)


class PuzzleComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=re.compile(r"pz:.*")):
    """Every puzzle button and select, on any puzzle message however old."""

    def __init__(self, item: discord.ui.Item[Any], cid: str) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleComponent:
        return cls(item, match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.components import offered_values

        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        try:
            m = PUZZLE_RE.fullmatch(self.cid)
            cog = interaction.client.game_cogs.get(m["game"]) if m else None  # type: ignore[attr-defined]
            found = puzzle(m["game"], int(m["n"])) if m else None
            if m is None or found is None or not isinstance(cog, PuzzleCog):
                raise StaleBoard(_("That puzzle button does nothing any more: run the game's `puzzle` "
                                   "again."))
            values = offered_values(interaction, self.cid, data.get("values"))
            await cog.on_puzzle(interaction, found, read_path(m["path"]), m["act"].rstrip("#"), values)
        except Exception as exc:
            await reply_error(interaction, exc)


class MoveBox(discord.ui.Modal):
    """**Type a move**: the game's notation, answered like a click (it edits the puzzle message)."""

    def __init__(self, cog: PuzzleCog, p: Puzzle, path: tuple[int, ...]) -> None:
        super().__init__(title=cog.puzzle_title(p)[:45])
        self.cog, self.p, self.path = cog, p, path
        self.move: discord.ui.TextInput[MoveBox] = discord.ui.TextInput(label=_("Your move"), max_length=40)
        self.add_item(self.move)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            await self.cog.try_move(interaction, self.p, self.path, str(self.move.value))
        except Exception as exc:
            await reply_error(interaction, exc)


class PuzzleCog(LearnCog):
    """``/<game> puzzle`` (mixed into the cogs of the games with a computer opponent only)."""

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        if PuzzleComponent not in getattr(bot, "_component_templates", {}):  # one registration for all
            bot.add_dynamic_items(PuzzleComponent)

    @app_commands.command(
        name="puzzle",
        description="A private puzzle: find the move that forces the win",
    )
    @app_commands.describe(
        number="A puzzle by its number (default: one you have not tried yet)",
        top="Show this server's best puzzle solvers instead",
    )
    async def puzzle(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1, 999] | None = None, top: bool = False) -> None:
        self.check_rate(interaction.user.id)
        if top:
            await self.show_top(interaction)
            return
        p = await self.pick(interaction, number)
        await interaction.response.send_message(**self.puzzle_message(p, ()), ephemeral=True,
                                                allowed_mentions=NO_MENTIONS)

    async def pick(self, interaction: discord.Interaction, number: int | None) -> Puzzle:
        found = puzzles_of(self.game_key)
        if not found:
            raise StaleBoard(_("{game} has no puzzles yet.", game=self.spec.title))
        if number is not None:
            p = puzzle(self.game_key, number)
            if p is None:
                raise StaleBoard(_("{game} has puzzles 1 to {last}.", game=self.spec.title, last=len(found)))
            return p
        tried = await self.bot.store.puzzle_results(interaction.guild_id or 0, interaction.user.id,
                                                    self.game_key)
        fresh = [p for p in found if p.id not in tried] or list(found)
        return fresh[(interaction.user.id // 7 + len(tried)) % len(fresh)]

    async def show_top(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.puzzle_leaderboard(interaction.guild_id or 0, self.game_key)
        # posted in the channel: the server's language (in a DM, the reader's)
        with public(interaction.guild_id) if interaction.guild_id else speaking(None):
            lines = [f"{i}. <@{uid}> · " + ngettext("{n} solved", "{n} solved", n)
                     for i, (uid, n) in enumerate(rows, 1)]
            embed = discord.Embed(title=_("{game} puzzles · best solvers here", game=self.spec.title),
                                  description="\n".join(lines) or _(
                                      "Nobody has solved a puzzle here yet: `/{command} puzzle`.",
                                      command=self.game_key), colour=COLOUR_INFO)
            embed.set_footer(text=_("A puzzle counts when its first try solves it."))
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------------ messages

    def puzzle_stand_in(self, p: Puzzle, state: Any) -> Match:
        """A match that exists only in memory, at ``state`` (never stored, never rated)."""
        seats = [SeatRecord(i, 1 + i, _("You") if i == p.seat else "Parlor",
                            ai_level=None if i == p.seat else "puzzle") for i in range(2)]
        rec = MatchRecord(id=1, game=self.game_key, guild_id=None, channel_id=0, thread_id=None,
                          message_id=None,
                          status=Status.RUNNING, options={}, state=None, version=1, seed="puzzle", host_id=0,
                          rated=False, turn_limit=0, deadline=None, clocks=None, outcome=None, ui={},
                          created_at=0.0, updated_at=0.0, finished_at=None, seats=seats)
        match = Match(rec)
        match.state = state
        return match

    def puzzle_items(self, p: Puzzle, path: tuple[int, ...], match: Match,
                     ui: str) -> list[discord.ui.Item[Any]]:
        from bot.components import parse_custom_id

        items = [i for i in getattr(self, "components", lambda m, u: [])(match, ui)
                 if not isinstance(i, discord.ui.DynamicItem)]
        taken: set[str] = set()
        for item in items:
            cid = getattr(item, "custom_id", None)
            if cid:
                new = puzzle_id(self.game_key, p.number, path, parse_custom_id(cid).action)
                while new in taken:
                    new += "#"
                taken.add(new)
                item.custom_id = new
        items.append(discord.ui.Button(label=_("Type a move"), style=discord.ButtonStyle.secondary, emoji="⌨️",
                                       custom_id=puzzle_id(self.game_key, p.number, path, "type")))
        return items

    def side(self, p: Puzzle) -> str:
        """The solver's side in the current language ("Red"; "Player 1" in a game without side names)."""
        if self.spec.seat_names:
            return _(self.spec.seat_names[p.seat])
        return _("Player {number}", number=p.seat + 1)

    def puzzle_title(self, p: Puzzle) -> str:
        return _("{game} puzzle #{number}", game=self.spec.title, number=p.number)

    def intro(self, p: Puzzle) -> str:
        side = self.side(p)
        if p.game == "pylon":
            return ngettext("You are **{side}**, to move. The last stackings: find a move that wins the game "
                            "with best play (at most one move of yours).",
                            "You are **{side}**, to move. The last stackings: find a move that wins the game "
                            "with best play (at most {n} moves of yours).", p.depth, side=side)
        return ngettext("You are **{side}**, to move. Force a win in **one move** of yours, whatever the "
                        "computer does.",
                        "You are **{side}**, to move. Force a win in **{n} moves** of yours, whatever the "
                        "computer does.", p.depth, side=side)

    def puzzle_message(self, p: Puzzle, path: tuple[int, ...], *, ui: str = "", note: str = "",
                       state: Any = None) -> dict[str, Any]:
        if state is None:
            state, _tree = node(p, path)
        match = self.puzzle_stand_in(p, state)
        text = f"{note}\n\n{self.intro(p)}" if note else self.intro(p)
        embed = discord.Embed(title=self.puzzle_title(p), description=text[:4000], colour=COLOUR_INFO)
        embed.set_footer(text=_("Only you see this puzzle. Your first try counts on this server's puzzle "
                                "board."))
        view = discord.ui.View(timeout=None)
        for item in self.puzzle_items(p, path, match, ui):
            view.add_item(item)
        data = self.lesson_picture(match, self.picture_ui(ui))
        alt = self.lesson_alt(match)
        return {"embed": embed, "file": picture_file(data, "puzzle.png", alt), "view": view}

    def daily_message(self, p: Puzzle) -> dict[str, Any]:
        """The public daily post: the puzzle's picture (with its alt text) and a **Solve it** button (in the
        current language: :meth:`post_daily` writes it in the server's)."""
        from cogs._game.describe import describe_board

        state, _tree = node(p, ())
        match = self.puzzle_stand_in(p, state)
        embed = discord.Embed(title=_("Puzzle of the day · {game} #{number}", game=self.spec.title,
                                      number=p.number),
                              description=self.intro(p) + "\n\n" + _(
                                  "Press **Solve it** to try it privately: your first try counts on this "
                                  "server's puzzle board (`/{command} puzzle top:True`).",
                                  command=self.game_key),
                              colour=COLOUR_INFO)
        alt = _("Puzzle of the day, {game}: {side} to move and win.", game=self.spec.title,
                side=self.side(p)) + " " + describe_board(self.game_key, match, None)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=_("Solve it"), style=discord.ButtonStyle.primary, emoji="🧩",
                                        custom_id=puzzle_id(self.game_key, p.number, (), "start")))
        data = self.lesson_picture(match, "")
        return {"embed": embed, "file": picture_file(data, "puzzle.png", alt), "view": view}

    async def post_daily(self, guild_id: int, channel_id: int, p: Puzzle) -> None:
        """Post the daily puzzle in the server's channel (bot/daily.py chose and claimed it), in the
        server's language."""
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        with public(guild_id):
            message = self.daily_message(p)
        await channel.send(**message, allowed_mentions=NO_MENTIONS)

    def end_message(self, p: Puzzle, verdict: Verdict) -> dict[str, Any]:
        if verdict.solved:
            shown = ", ".join(f"`{r}`" for r in verdict.replies)
            if shown:
                text = _("✅ `{move}` wins! The computer answered {replies}.\n\n**Puzzle solved.**",
                         move=verdict.move, replies=shown)
            else:
                text = _("✅ `{move}` wins!\n\n**Puzzle solved.**", move=verdict.move)
            colour = COLOUR_OK
        else:
            _state, tree = node(p, verdict.path)
            best = ", ".join(f"`{m}`" for m in sorted(tree or {})[:3])
            text = _("❌ `{move}` lets the win go. A winning move here: {moves}.", move=verdict.move,
                     moves=best)
            colour = COLOUR_END
        embed = discord.Embed(title=self.puzzle_title(p), description=text, colour=colour)
        view = discord.ui.View(timeout=None)
        if not verdict.solved:
            view.add_item(discord.ui.Button(label=_("Try again"), style=discord.ButtonStyle.secondary,
                                            custom_id=puzzle_id(self.game_key, p.number, (), "retry")))
        view.add_item(discord.ui.Button(label=_("Another puzzle"), style=discord.ButtonStyle.primary,
                                        custom_id=puzzle_id(self.game_key, p.number, (), "next")))
        after = self.puzzle_stand_in(p, verdict.state)
        data = self.lesson_picture(after, "")
        return {"embed": embed, "attachments": [picture_file(data, "puzzle.png", self.lesson_alt(after))],
                "view": view}

    # ------------------------------------------------------------------ clicks

    async def on_puzzle(self, interaction: discord.Interaction, p: Puzzle, path: tuple[int, ...],
                        action: str, values: list[str]) -> None:
        self.check_rate(interaction.user.id)
        if action == "start":  # the daily post's button: a private copy for whoever clicks
            await interaction.response.send_message(**self.puzzle_message(p, ()), ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS)
            return
        if action in ("retry", "next"):
            q = p if action == "retry" else await self.pick(interaction, None)
            await self.edit(interaction, self.puzzle_message(q, ()))
            return
        try:
            state, tree = node(p, path)
        except KeyError:
            raise StaleBoard(
                _("This puzzle message is out of date: run the game's `puzzle` again.")) from None
        if tree is None:
            raise StaleBoard(_("This puzzle is already solved."))
        if action == "type":
            await interaction.response.send_modal(MoveBox(self, p, path))
            return
        kind, what = self.read_action(self.puzzle_stand_in(p, state), action, values)
        if kind == "ui":
            await self.edit(interaction, self.puzzle_message(p, path, ui=what, state=state))
            return
        await self.try_move(interaction, p, path, what)

    async def try_move(self, interaction: discord.Interaction, p: Puzzle, path: tuple[int, ...],
                       text: str) -> None:
        verdict = answer(p, path, text)
        if not verdict.ok and not verdict.failed:
            await self.edit(interaction, self.puzzle_message(p, path, note=f"❌ {verdict.message}"))
            return
        if verdict.ok and not verdict.solved:
            replies = ", ".join(f"`{r}`" for r in verdict.replies)
            note = (_("✅ `{move}`: the computer answers {replies}. Keep going.", move=verdict.move,
                      replies=replies) if replies
                    else _("✅ `{move}`. Keep going: it is your move again.", move=verdict.move))
            await self.edit(interaction, self.puzzle_message(p, verdict.path, note=note, state=verdict.state))
            return
        if verdict.failed:
            verdict = Verdict(False, failed=True, move=verdict.move, path=path, state=verdict.state)
        await self.bot.store.save_puzzle_result(interaction.guild_id or 0, interaction.user.id, self.game_key,
                                                p.id, verdict.solved)
        await self.edit(interaction, self.end_message(p, verdict))

    @staticmethod
    async def edit(interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
        if "file" in kwargs:
            kwargs["attachments"] = [kwargs.pop("file")]
        await interaction.response.edit_message(**kwargs)
