"""Tests of the in-process Discord double (tests/discord_double) against a small sample bot that uses
the usual discord.py idioms: an app_commands group (user option, choice option, autocomplete), a
DynamicItem button, a select, a modal, a DM, threads, image attachments, reaction listeners, a
background task, a prefix command."""
from __future__ import annotations

import asyncio
import contextlib
import io
import re
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from discord.ext import commands, tasks
from PIL import Image

from tests.discord_double import DiscordDouble, InteractionFailed, UserActionError, WaitTimeout, patches
from tests.discord_double import validation as V
from tests.discord_double.errors import APIError

pytestmark = pytest.mark.e2e

MOVES = [f"{c}{r}" for c in "abcdef" for r in range(1, 7)]  # 36 > 25 autocomplete choices


# =====================================================================================================
# the sample bot
# =====================================================================================================

def board_png(size: int = 48) -> bytes:
    img = Image.new("RGB", (size, size), "white")
    for x in range(0, size, 8):
        for y in range(0, size, 8):
            if (x + y) // 8 % 2:
                img.paste((40, 40, 40), (x, y, x + 8, y + 8))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def spinner_gif() -> bytes:
    frames = [Image.new("RGB", (16, 16), (i * 100, 0, 0)) for i in range(3)]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=50, loop=0)
    return buf.getvalue()


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pylon:accept:(?P<challenger>\d+):(?P<opponent>\d+)"
):
    """Persistent across restarts: the state lives in the custom_id."""

    def __init__(self, challenger: int, opponent: int) -> None:
        super().__init__(discord.ui.Button(label="Accept", style=discord.ButtonStyle.success,
                                           custom_id=f"pylon:accept:{challenger}:{opponent}"))
        self.challenger, self.opponent = challenger, opponent

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(int(match["challenger"]), int(match["opponent"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.opponent:
            await interaction.response.send_message("This challenge is not for you.", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"<@{self.opponent}> accepted! Game on.", view=None)
        try:
            thread = await interaction.message.create_thread(name="pylon-game")
        except discord.Forbidden as e:
            await interaction.followup.send(f"cannot create a thread ({e.code})")
            return
        await thread.send("Board:", file=discord.File(io.BytesIO(board_png()), "board.png"))
        interaction.client.accepted += 1


class ColumnSelect(discord.ui.View):
    @discord.ui.select(placeholder="Column", custom_id="pylon:column",
                       options=[discord.SelectOption(label=c.upper(), value=c) for c in "abcde"])
    async def column(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"Column {select.values[0]} chosen", view=None)


class QuestionModal(discord.ui.Modal, title="Ask the table"):
    question = discord.ui.TextInput(label="Question", max_length=200)
    detail = discord.ui.TextInput(label="Detail", style=discord.TextStyle.paragraph, required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You asked: {self.question.value} [{self.detail.value}]",
                                                ephemeral=True)


class BadView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__()
        self.add_item(discord.ui.Button(label="x" * 81, custom_id="too-long"))  # Discord's limit is 80


class SampleBot(commands.Bot):
    def __init__(self, *, guild_sync: discord.Object | None = None, slow_delay: float = 0.0) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        super().__init__(command_prefix="!", intents=intents)
        self.guild_sync = guild_sync
        self.slow_delay = slow_delay
        self.ticks = 0
        self.accepted = 0
        self.readies = 0
        self.joined: list[str] = []
        self.add_listener(self.on_raw_reaction_add)
        self.add_listener(self.on_raw_reaction_remove)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AcceptButton)
        self.tree.add_command(build_pylon_group(self))
        self.tree.add_command(admin)
        self.tree.on_error = self.on_app_command_error
        await self.add_cog(Prefix(self))
        if self.guild_sync is not None:
            self.tree.copy_global_to(guild=self.guild_sync)
            await self.tree.sync(guild=self.guild_sync)
        else:
            await self.tree.sync()
        self.ticker.start()

    @tasks.loop(seconds=0.01)
    async def ticker(self) -> None:
        self.ticks += 1

    async def close(self) -> None:
        self.ticker.cancel()
        await super().close()

    async def on_ready(self) -> None:
        self.readies += 1
        await self.change_presence(activity=discord.Game("Pylon"))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.joined.append(guild.name)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ):
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("missing permissions", ephemeral=True)
            return
        await app_commands.CommandTree.on_error(self.tree, interaction, error)

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        if payload.user_id == self.user.id or payload.message_author_id != self.user.id:
            return
        channel = self.get_channel(payload.channel_id)
        if str(payload.emoji) == "✅":
            await channel.send(f"{payload.member.display_name} confirmed")
        elif str(payload.emoji) == "❌":
            message = await channel.fetch_message(payload.message_id)
            await message.remove_reaction(payload.emoji, payload.member)

    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        if str(payload.emoji) == "✅" and payload.user_id != self.user.id:
            await self.get_channel(payload.channel_id).send(f"<@{payload.user_id}> unconfirmed",
                                                            allowed_mentions=discord.AllowedMentions.none())


class Prefix(commands.Cog):
    def __init__(self, bot: SampleBot) -> None:
        self.bot = bot

    @commands.command()
    async def ping(self, ctx: commands.Context) -> None:
        await ctx.message.add_reaction("🏓")
        await ctx.reply("pong", mention_author=False)

    @commands.command()
    async def emojis(self, ctx: commands.Context) -> None:
        try:
            await ctx.guild.fetch_emojis()
        except discord.NotFound:
            await ctx.send("no emoji route")


@app_commands.command(name="admin", description="Admins only")
@app_commands.default_permissions(manage_guild=True)
@app_commands.checks.has_permissions(manage_guild=True)
async def admin(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"admin ok (app perms {interaction.app_permissions.value})",
                                            ephemeral=True)


def build_pylon_group(bot: SampleBot) -> app_commands.Group:
    pylon = app_commands.Group(name="pylon", description="Play Pylon")

    @pylon.command(name="new", description="Challenge someone")
    @app_commands.describe(opponent="Who to play", level="Difficulty")
    @app_commands.choices(level=[app_commands.Choice(name="Easy", value="easy"),
                                 app_commands.Choice(name="Hard", value="hard")])
    async def new(interaction: discord.Interaction, opponent: discord.Member,
                  level: app_commands.Choice[str] | None = None) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(interaction.user.id, opponent.id))
        embed = discord.Embed(
            title="Pylon challenge", description=f"{interaction.user.mention} vs {opponent.mention}"
        )
        embed.add_field(name="Level", value=level.name if level else "Easy").set_footer(text="Pylon")
        await interaction.response.send_message(
            f"{opponent.mention}, you are challenged!", embed=embed, view=view
        )

    @pylon.command(name="move", description="Play a move")
    async def move(interaction: discord.Interaction, notation: str) -> None:
        await interaction.response.send_message(f"moved {notation}", ephemeral=True)

    @move.autocomplete("notation")
    async def move_autocomplete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)][:25]

    @pylon.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.followup.send(
            embed=embed,
            files=[
                discord.File(io.BytesIO(board_png()), "board.png"),
                discord.File(io.BytesIO(spinner_gif()), "spin.gif"),
            ],
        )

    @pylon.command(name="column", description="Pick a column")
    async def column(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick a column", view=ColumnSelect())

    @pylon.command(name="ask", description="Ask a question")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(QuestionModal())

    @pylon.command(name="hand", description="Get your hand by DM")
    async def hand(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your hand: 3 pylons, 2 walls")
        except discord.Forbidden as e:
            await interaction.response.send_message(f"I cannot DM you ({e.code})", ephemeral=True)
        else:
            await interaction.response.send_message("Check your DMs", ephemeral=True)

    @pylon.command(name="thread", description="Open a table thread")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            t = await interaction.channel.create_thread(
                name="pylon-table", type=discord.ChannelType.public_thread
            )
        except discord.Forbidden as e:
            await interaction.followup.send(f"cannot create a thread ({e.code})", ephemeral=True)
            return
        await t.send(f"Welcome {interaction.user.mention}")
        await interaction.followup.send(f"opened {t.mention}", ephemeral=True)

    @pylon.command(name="mention", description="Ping only the caller")
    async def mention(interaction: discord.Interaction, other: discord.Member) -> None:
        await interaction.response.send_message(
            f"Hey {interaction.user.mention}, {other.mention} is watching",
            allowed_mentions=discord.AllowedMentions(users=[interaction.user], roles=False, everyone=False))

    @pylon.command(name="broken", description="Send an invalid component")
    async def broken(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.channel.send("bad", view=BadView())
        except discord.HTTPException as e:
            await interaction.followup.send(f"failed {e.status} {e.code}", ephemeral=True)

    @pylon.command(name="slow", description="Too slow to answer")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(bot.slow_delay)
        await interaction.response.send_message("finally")

    @pylon.command(name="buggy", description="Breaks the interaction rules")
    async def buggy(interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.NotFound):
            await interaction.followup.send("too early")
        await interaction.response.defer()
        adapter = discord.webhook.async_.async_context.get()
        params = discord.webhook.async_.interaction_response_params(4, {"content": "again"})
        try:
            await adapter.create_interaction_response(interaction.id, interaction.token,
                                                      session=interaction._session, params=params)
        except discord.HTTPException as e:
            bot.buggy_error = e.code

    return pylon


# =====================================================================================================
# fixtures
# =====================================================================================================

@pytest.fixture
async def dd():
    async with DiscordDouble() as double:
        yield double


def make_world(dd: DiscordDouble) -> SimpleNamespace:
    guild = dd.create_guild("Test Guild")
    chan = guild.create_text_channel("games")
    alice = dd.create_user("alice")
    bob = dd.create_user("bob", dms_open=False)
    guild.add_member(alice)
    guild.add_member(bob, permissions=["manage_guild"])
    return SimpleNamespace(guild=guild, chan=chan, alice=alice, bob=bob)


@pytest.fixture
async def w(dd):
    world = make_world(dd)
    world.bot = SampleBot()
    await dd.connect(world.bot)
    world.dd = dd
    return world


# =====================================================================================================
# tests
# =====================================================================================================

async def test_patches_are_installed_and_removed_cleanly():
    originals = {(o, n): o.__dict__[n] for o, n in patches._TARGETS}
    async with DiscordDouble() as dd:
        assert patches.is_installed()
        assert all(o.__dict__[n] is not originals[(o, n)] for o, n in patches._TARGETS)
        with pytest.raises(RuntimeError, match="nested"):
            async with DiscordDouble():
                pass
        assert dd.requests == []
    assert not patches.is_installed()
    assert all(o.__dict__[n] is originals[(o, n)] for o, n in patches._TARGETS)
    with pytest.raises(ValueError):  # an exception inside the block still uninstalls
        async with DiscordDouble():
            raise ValueError("boom")
    assert all(o.__dict__[n] is originals[(o, n)] for o, n in patches._TARGETS)


async def test_connect_logs_in_runs_setup_hook_and_dispatches_ready(w):
    dd, bot = w.dd, w.bot
    assert bot.is_ready() and bot.readies == 1
    assert bot.user.id == dd.bot_user.id and bot.application_id == dd.application_id
    assert bot.get_guild(w.guild.id).get_channel(w.chan.id).name == "games"
    assert bot.get_guild(w.guild.id).get_member(w.alice.id).display_name == "alice"
    routes = [r.route for r in dd.requests]
    assert routes[:3] == [
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        "PUT /applications/{application_id}/commands",
    ]
    assert {"pylon new", "pylon move", "admin"} <= set(dd.command_names())
    cmd = next(c for c in dd.registered_commands() if c["name"] == "pylon")
    assert int(cmd["id"]) > 0 and cmd["application_id"] == str(dd.application_id)
    await asyncio.sleep(0.03)
    assert bot.ticks >= 1, "background tasks started in setup_hook must run"
    # world changes after READY are dispatched: new channel and member
    late = w.guild.create_text_channel("late")
    carol = dd.create_user("carol")
    w.guild.add_member(carol)
    await carol.say(late, "hi")
    assert bot.get_channel(late.id) is not None and bot.get_guild(w.guild.id).get_member(carol.id) is not None
    members = await bot.get_guild(w.guild.id).chunk()  # REQUEST_GUILD_MEMBERS -> GUILD_MEMBERS_CHUNK
    assert {m.name for m in members} == {"test-guild-owner", "Parlor", "alice", "bob", "carol"}
    dd.create_guild("Second Guild")
    await dd.settle()
    assert bot.joined == ["Second Guild"] and dd.presence["activities"][0]["name"] == "Pylon"
    dd.assert_clean()


async def test_slash_with_user_and_choice_options(w):
    dd, chan, alice, bob = w.dd, w.chan, w.alice, w.bob
    r = await alice.slash(chan, "pylon new", opponent=bob, level="hard")
    assert (
        r.acked and not r.failed and r.response_type == 4 and r.response_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    )
    assert 0 <= r.latency < 1 and not r.ephemeral
    msg = await r.message()
    assert msg.author.id == dd.bot_user.id and msg.embed.title == "Pylon challenge"
    assert (
        msg.embed.fields == [{"name": "Level", "value": "Hard", "inline": True}]
        and msg.embed.footer == "Pylon"
    )
    assert "challenged" in msg.text and "Pylon challenge" in msg.text
    assert (
        msg.button_labels() == ["Accept"]
        and msg.buttons()[0].custom_id == f"pylon:accept:{alice.id}:{bob.id}"
    )
    assert [u.username for u in msg.mentions] == ["bob"]
    assert [req.route for req in r.requests] == ["POST /interactions/{interaction_id}/{token}/callback"]
    payload = r.payload
    assert payload["data"]["options"][0]["options"][0] == {
        "name": "opponent",
        "type": 6,
        "value": str(bob.id),
    }
    assert payload["data"]["resolved"]["members"][str(bob.id)]["permissions"]
    assert {"member", "app_permissions", "guild_id", "channel", "token"} <= set(payload)
    # choices by display name too; optional option omitted
    await alice.slash(chan, "pylon new", opponent=bob, level="Easy")
    await alice.slash(chan, "/pylon new", opponent=bob)
    # what the Discord client refuses
    with pytest.raises(UserActionError, match="choices"):
        await alice.slash(chan, "pylon new", opponent=bob, level="nightmare")
    with pytest.raises(UserActionError, match="unknown option"):
        await alice.slash(chan, "pylon new", opponent=bob, colour="red")
    with pytest.raises(UserActionError, match="missing required"):
        await alice.slash(chan, "pylon new")
    with pytest.raises(UserActionError, match="no subcommand"):
        await alice.slash(chan, "pylon resign")
    with pytest.raises(UserActionError, match="no command"):
        await alice.slash(chan, "chess new")
    dd.assert_clean()


async def test_autocomplete_returns_at_most_25_choices(w):
    choices = await w.alice.autocomplete(w.chan, "pylon move", "notation", "")
    assert len(choices) == 25 and choices[0] == {"name": "a1", "value": "a1"}
    assert [c["value"] for c in await w.alice.autocomplete(w.chan, "pylon move", "notation", "c")] == \
        [f"c{i}" for i in range(1, 7)]
    r = await w.alice.slash(w.chan, "pylon move", notation="c3")
    assert r.ephemeral and (await r.message()).content == "moved c3"
    w.dd.assert_clean()


async def test_dynamic_button_thread_and_image(w):
    dd, chan, alice, bob = w.dd, w.chan, w.alice, w.bob
    await alice.slash(chan, "pylon new", opponent=bob)
    msg = await chan.wait_for(lambda m: "Accept" in m.button_labels(), timeout=5)
    # only the opponent may accept: alice gets an ephemeral refusal only she sees
    r0 = await alice.click(msg, "Accept")
    refusal = await r0.message()
    assert refusal.ephemeral and refusal.ephemeral_to == alice.id
    assert refusal.visible_to(alice) and not refusal.visible_to(bob)
    assert refusal in alice.messages_in(chan) and refusal not in bob.messages_in(chan)
    assert refusal not in chan.public_messages and refusal in chan.messages
    r = await bob.click(msg, custom_id=f"pylon:accept:{alice.id}:{bob.id}")
    assert r.response_name == "UPDATE_MESSAGE"
    edited = await r.message()
    assert edited is msg and "accepted" in msg.content and msg.buttons() == [] and len(msg.edits) == 1
    assert msg.edits[0]["components"][0]["components"][0]["label"] == "Accept"
    thread = await dd.wait_until(lambda: w.guild.threads and w.guild.threads[0])
    assert thread.is_thread and thread.parent is chan and msg.thread is thread and chan.threads == [thread]
    board = await thread.wait_for(lambda m: m.attachments[0].is_png)
    img = board.attachments[0].image()
    assert img.size == (48, 48) and board.attachments[0].filename == "board.png"
    await dd.settle()
    assert w.bot.accepted == 1
    assert w.bot.get_channel(thread.id) is not None, "THREAD_CREATE reached the bot"
    with pytest.raises(UserActionError):  # the button is gone
        await bob.click(msg, "Accept")
    dd.assert_clean()


async def test_select_menu(w):
    r = await w.alice.slash(w.chan, "pylon column")
    msg = await r.message()
    sel = msg.selects()[0]
    assert sel.placeholder == "Column" and sel.labels == list("ABCDE") and sel.values == list("abcde")
    with pytest.raises(UserActionError, match="not an option"):
        await w.alice.select(msg, ["z"], placeholder="Column")
    with pytest.raises(UserActionError, match="values"):
        await w.alice.select(msg, ["a", "b"], placeholder="Column")
    r2 = await w.alice.select(msg, ["C"], placeholder="Column")  # by label
    assert r2.response_type == 7 and (await r2.message()).content == "Column c chosen"
    assert msg.selects() == []
    w.dd.assert_clean()


async def test_modal_round_trip(w):
    dd, alice, bob = w.dd, w.alice, w.bob
    r = await alice.slash(w.chan, "pylon ask")
    assert r.response_name == "MODAL" and alice.modal.title == "Ask the table" and bob.modal is None
    assert [f["label"] for f in alice.modal.fields] == ["Question", "Detail"]
    with pytest.raises(UserActionError, match="required"):
        await alice.submit_modal({"Detail": "x"})
    with pytest.raises(UserActionError, match="length"):
        await alice.submit_modal({"Question": "q" * 201})
    r2 = await alice.submit_modal({"Question": "Who starts?", "Detail": "rules"})
    reply = await r2.message()
    assert reply.content == "You asked: Who starts? [rules]" and reply.ephemeral
    assert alice.modal is None
    with pytest.raises(UserActionError, match="not opened a modal"):
        await alice.submit_modal({"Question": "again"})
    dd.assert_clean()


async def test_dm_and_closed_dms_50007(w):
    dd, alice, bob = w.dd, w.alice, w.bob
    r = await alice.slash(w.chan, "pylon hand")
    assert (await r.message()).content == "Check your DMs"
    dm = await alice.wait_for_dm(lambda m: "hand" in m.text)
    assert dm.channel.is_dm and dm.channel is alice.dm_channel() and dm.channel.recipient is alice
    m = dd.mark()
    r2 = await bob.slash(w.chan, "pylon hand")
    assert (await r2.message()).content == "I cannot DM you (50007)"
    failed = dd.failed_requests(since=m)
    assert [(f.route, f.status, f.error_code) for f in failed] == [
        ("POST /channels/{channel_id}/messages", 403, 50007)
    ]
    with pytest.raises(WaitTimeout):
        await bob.wait_for_dm(timeout=0.05)
    dd.assert_clean()


async def test_deferred_reply_filled_by_followup_with_multipart_images(w):
    dd = w.dd
    m = dd.mark()
    r = await w.alice.slash(w.chan, "pylon board")
    assert r.response_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
    msg = await r.message()
    assert not msg.loading and [a.filename for a in msg.attachments] == ["board.png", "spin.gif"]
    png, gif = msg.attachments
    assert png.is_png and not png.is_gif and gif.is_gif and (png.width, png.height) == (48, 48)
    assert png.image().size == (48, 48)
    frames = gif.image()
    assert frames.format == "GIF" and getattr(frames, "n_frames", 1) == 3
    assert msg.embed.image().filename == "board.png", "attachment:// resolved to the upload"
    await dd.settle()
    followup = dd.api_calls(since=m, route="POST /webhooks/{application_id}/{token}")[0]
    assert followup.interaction_id == r.id and followup in r.requests
    assert [name for name, _ in followup.files] == ["board.png", "spin.gif"]
    assert followup.files[0][1] == board_png() and followup.json["attachments"][0]["filename"] == "board.png"
    assert dd.api_summary(since=m) == {"POST /interactions/{interaction_id}/{token}/callback": 1,
                                       "POST /webhooks/{application_id}/{token}": 1}
    dd.assert_clean()


async def test_component_limit_answers_400_with_discord_error_shape(w):
    dd = w.dd
    r = await w.alice.slash(w.chan, "pylon broken")
    assert (await r.message()).content == "failed 400 50035"
    bad = dd.failed_requests()[-1]
    assert bad.route == "POST /channels/{channel_id}/messages" and bad.status == 400
    assert bad.response["errors"]["components"]["0"]["components"]["0"]["label"]["_errors"][0]["code"] == \
        "BASE_TYPE_MAX_LENGTH"
    assert all(m.content != "bad" for m in w.chan.messages)
    dd.assert_clean()


async def test_ack_deadline_violation_with_short_deadline():
    async with DiscordDouble(ack_deadline=0.15) as dd:
        world = make_world(dd)
        bot = SampleBot(slow_delay=0.3)
        await dd.connect(bot)
        with pytest.raises(InteractionFailed, match="did not acknowledge"):
            await world.alice.slash(world.chan, "pylon slow")
        r = next(iter(dd.interactions.values()))
        assert r.failed and not r.acked
        await dd.settle()
        assert [v.kind for v in dd.violations] == ["ack_timeout", "late_ack"]
        late = r.requests[0]
        assert late.status == 404 and late.error_code == 10062
        assert dd.bot_errors, "the bot's late response raised NotFound inside discord.py"
        with pytest.raises(AssertionError, match="ack_timeout"):
            dd.assert_clean()
        r2 = await world.alice.slash(world.chan, "pylon slow", check=False, timeout=0.05)
        assert not r2.acked and r2.failure_reason  # check=False: returned, not raised


async def test_double_ack_followup_before_ack_and_unfilled_defer(w):
    dd = w.dd
    await w.alice.slash(w.chan, "pylon buggy")
    await dd.settle()
    assert w.bot.buggy_error == 40060
    kinds = [v.kind for v in dd._violations]
    assert kinds == ["followup_before_ack", "double_ack"]
    with pytest.raises(AssertionError) as err:
        dd.assert_clean()
    assert "deferred_unfilled" in str(err.value)


async def test_restart_keeps_world_and_dynamic_button_still_works(dd):
    world = make_world(dd)
    old = SampleBot()
    await dd.connect(old)
    await world.alice.slash(world.chan, "pylon new", opponent=world.bob)
    msg = await world.chan.wait_for(lambda m: "Accept" in m.button_labels())
    await dd.disconnect()
    assert old.is_closed() and not dd.connected
    with pytest.raises(InteractionFailed):  # nobody is connected
        await world.bob.click(msg, "Accept")
    new = SampleBot()
    await dd.connect(new)
    assert dd.connections == 2 and new.is_ready()
    r = await world.bob.click(msg, "Accept")
    assert r.response_name == "UPDATE_MESSAGE" and "accepted" in (await r.message()).content
    await dd.settle()
    assert new.accepted == 1 and old.accepted == 0
    assert len(dd._violations) == 0
    dd.assert_clean()


async def test_mentions_honour_allowed_mentions(w):
    dd, alice, bob = w.dd, w.alice, w.bob
    r = await alice.slash(w.chan, "pylon mention", other=bob)
    msg = await r.message()
    assert alice.mention in msg.content and bob.mention in msg.content
    assert msg.mentions == [alice]
    assert msg.allowed_mentions["parse"] == [] and msg.allowed_mentions["users"] == [alice.id]  # as sent
    said = await bob.say(w.chan, f"gg {alice.mention} @everyone")
    assert said.mentions == [alice] and said.mention_everyone  # @everyone may mention everyone by default
    # the rule itself
    users, roles, everyone = V.resolve_mentions(
        "<@1> <@!2> <@&9> @here",
        {"parse": ["users"]},
        known_users=[1, 2],
        roles={9: True},
        can_mention_everyone=True,
    )
    assert (users, roles, everyone) == ([1, 2], [], False)
    assert V.resolve_mentions("<@1>", {"parse": [], "replied_user": True}, known_users=[1, 3], roles={},
                              can_mention_everyone=False, reply_author=3)[0] == [3]
    dd.assert_clean()


async def test_messages_reactions_and_prefix_commands(w):
    dd, chan, alice = w.dd, w.chan, w.alice
    ping = await alice.say(chan, "!ping")
    pong = await chan.wait_for(lambda m: m.content == "pong", since=ping)
    assert pong.reference["message_id"] == str(ping.id) and pong.type == 19 and pong.mentions == []
    await dd.wait_until(lambda: ping.reactions.get("🏓") == [dd.bot_user.id])
    await alice.react(pong, "✅")
    assert pong.reactions == {"✅": [alice.id]}
    await chan.wait_for(lambda m: m.content == "alice confirmed")
    await alice.unreact(pong, "✅")
    await chan.wait_for(lambda m: m.content.endswith("unconfirmed"))
    await alice.react(pong, "❌")  # the bot removes it again
    await dd.wait_until(lambda: "❌" not in pong.reactions)
    assert dd.api_calls(
        route="DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}"
    )
    # unimplemented routes are answered 404 and listed
    await alice.say(chan, "!emojis")
    await chan.wait_for(lambda m: m.content == "no emoji route")
    assert dd.unimplemented == [f"GET /guilds/{w.guild.id}/emojis"]
    dd.unimplemented.clear()
    await alice.edit(ping, "!ping edited")
    assert ping.edits[0]["content"] == "!ping" and ping.content == "!ping edited"
    await alice.delete(ping)
    assert ping.deleted and ping not in chan.public_messages
    dd.assert_clean()


async def test_permissions_default_permissions_and_checks(w):
    dd, alice, bob = w.dd, w.alice, w.bob
    with pytest.raises(UserActionError, match="hidden"):
        await alice.slash(w.chan, "admin")
    r = await bob.slash(w.chan, "admin")
    assert (await r.message()).content.startswith("admin ok")
    assert int(r.payload["member"]["permissions"]) & discord.Permissions.manage_guild.flag
    assert int(r.payload["app_permissions"]) & discord.Permissions.create_public_threads.flag
    r2 = await alice.slash(w.chan, "admin", strict=False)  # bypass the client: the bot's own check refuses
    assert (await r2.message()).content == "missing permissions"
    dd.assert_clean()


async def test_threads_created_by_the_bot_and_forbidden(w):
    dd, chan, alice = w.dd, w.chan, w.alice
    r = await alice.slash(chan, "pylon thread")
    assert (await r.message()).content.startswith("opened")
    thread = w.guild.threads[0]
    assert thread.name == "pylon-table" and thread.parent is chan and thread.owner_id == dd.bot_user.id
    welcome = await thread.wait_for(lambda m: "Welcome" in m.text)
    assert welcome.mentions == [alice]
    assert chan.last_message.type == 18, "thread-created notice in the parent channel"
    chan.deny_bot("create_public_threads")
    r2 = await alice.slash(chan, "pylon thread")
    assert (await r2.message()).content == "cannot create a thread (50013)"
    assert dd.failed_requests()[-1].route == "POST /channels/{channel_id}/threads"
    other = w.guild.create_text_channel("other")
    w.guild.set_bot_permissions(["view_channel", "send_messages", "read_message_history"])
    w.guild.set_everyone_permissions(["view_channel", "send_messages", "use_application_commands"])
    await dd.settle()
    r3 = await alice.slash(other, "pylon thread")
    assert (await r3.message()).content == "cannot create a thread (50013)"
    assert len(w.guild.threads) == 1
    dd.assert_clean()


async def test_wait_for_semantics(w):
    dd, chan, alice = w.dd, w.chan, w.alice
    first = await alice.say(chan, "one")
    mark = dd.mark()
    with pytest.raises(WaitTimeout) as err:
        await chan.wait_for(lambda m: m.content == "one", since=mark, timeout=0.05)
    assert "one" in str(err.value) and isinstance(err.value, AssertionError)
    with pytest.raises(WaitTimeout):  # IndexError in the predicate = no match
        await chan.wait_for(lambda m: m.attachments[0].is_png, timeout=0.05)
    assert await chan.wait_for(lambda m: m.content == "one") is first

    async def later():
        await asyncio.sleep(0.02)
        await alice.say(chan, "two")

    task = asyncio.create_task(later())
    two = await chan.wait_for(lambda m: m.content == "two", since=first, timeout=2)
    await task
    assert two.content == "two" and chan.last_message is two
    await alice.edit(first, "one!")
    assert (
        await chan.wait_for(lambda m: m.content.startswith("one"), since=mark) is first
    )  # edited after the mark
    assert await chan.wait_for(since=mark) is two  # newest match wins
    dd.assert_clean()


async def test_message_content_intent_and_plain_client(dd):
    world = make_world(dd)
    seen = []

    class Plain(discord.Client):
        async def on_message(self, message: discord.Message) -> None:
            seen.append(message.content)

    client = Plain(intents=discord.Intents.default())  # no message_content
    await dd.connect(client)
    await world.alice.say(world.chan, "secret")
    await world.alice.say(world.chan, f"{dd.bot_user.mention} hello")
    await world.alice.say(world.alice.dm_channel(), "dm text")
    await dd.settle()
    assert seen == ["", f"<@{dd.bot_user.id}> hello", "dm text"]
    assert not client.intents.members and client.get_guild(world.guild.id).member_count == len(
        world.guild.members
    )
    dd.assert_clean()


async def test_guild_command_sync_and_interaction_payload(dd):
    world = make_world(dd)
    bot = SampleBot(guild_sync=discord.Object(world.guild.id))
    await dd.connect(bot)
    assert dd.global_commands == {} and ("pylon" in {n for _, n in dd.guild_commands[world.guild.id]})
    assert dd.api_calls(route="PUT /applications/{application_id}/guilds/{guild_id}/commands")
    r = await world.alice.slash(world.chan, "pylon move", notation="a1")
    assert r.payload["data"]["guild_id"] == str(world.guild.id)
    with pytest.raises(UserActionError, match="no command"):  # guild commands do not exist in DMs
        await world.alice.slash(world.alice.dm_channel(), "pylon move", notation="a1")
    dd.assert_clean()


async def test_rest_validation_through_the_bot(w):
    dd, chan = w.dd, w.bot.get_channel(w.chan.id)
    with pytest.raises(discord.HTTPException) as err:
        await chan.send("x" * 2001)
    assert err.value.status == 400 and err.value.code == 50035 and "content" in err.value.text
    with pytest.raises(discord.HTTPException) as err:
        await chan.send(embed=discord.Embed(description="x" * 4000).add_field(name="n", value="v" * 1024)
                        .add_field(name="n", value="v" * 1024))
    assert "MAX_EMBED_SIZE_EXCEEDED" in str(dd.failed_requests()[-1].response)
    await chan.send("first")
    sent = await chan.send("ok", file=discord.File(io.BytesIO(b"hello"), "notes.txt"))
    assert await sent.attachments[0].read() == b"hello"  # served from the double's CDN
    stored = dd.messages[sent.id]
    assert stored.attachments[0].content_type.startswith("text/plain")
    assert (await chan.fetch_message(sent.id)).content == "ok"
    assert [m.content async for m in chan.history(limit=5)] == ["ok", "first"]
    await sent.pin()
    assert stored.pinned and [m.id async for m in chan.pins()] == [sent.id]
    await sent.edit(content="edited")
    assert stored.content == "edited" and stored.edits[0]["content"] == "ok"
    await sent.delete()
    assert stored.deleted
    dd.assert_clean()


async def test_rest_surface_through_discord_py(w):
    """The REST routes a bot uses, called through discord.py's own API: nothing unimplemented, every
    response parsed, every resulting gateway event parsed."""
    dd, bot = w.dd, w.bot
    g = bot.get_guild(w.guild.id)
    ch = await bot.fetch_channel(w.chan.id)
    assert (await bot.fetch_user(w.alice.id)).name == "alice"
    assert (await g.fetch_member(w.alice.id)).display_name == "alice"
    assert {c.name for c in await g.fetch_channels()} == {"games"} and len(await g.fetch_roles()) == 3
    assert len([m async for m in g.fetch_members(limit=None)]) == 4
    async with ch.typing():
        pass
    starter = await ch.send("starter")
    thread = await starter.create_thread(name="t1")
    await thread.add_user(discord.Object(w.alice.id))
    assert len(await thread.fetch_members()) == 2
    await thread.remove_user(discord.Object(w.alice.id))
    await thread.edit(archived=True, locked=True)
    assert dd.channels[thread.id].archived and dd.channels[thread.id].locked
    assert await g.active_threads() == []
    await thread.edit(archived=False, locked=False)
    await thread.send("inside")
    await thread.leave()
    await thread.delete()
    await starter.add_reaction("👍")
    await starter.add_reaction("👎")
    fetched = await ch.fetch_message(starter.id)
    assert [str(r.emoji) for r in fetched.reactions] == ["👍", "👎"] and fetched.reactions[0].me
    assert [u.id async for u in fetched.reactions[0].users()] == [dd.bot_user.id]
    await fetched.clear_reaction("👍")
    assert list(dd.messages[starter.id].reactions) == ["👎"]
    await fetched.clear_reactions()
    a, b = await ch.send("a"), await ch.send("b")
    await ch.delete_messages([a, b])
    assert dd.messages[a.id].deleted and dd.messages[b.id].deleted
    dm = await (await bot.fetch_user(w.alice.id)).create_dm()
    await dm.send("hello alice")
    assert (await w.alice.wait_for_dm()).content == "hello alice"
    cmds = await bot.tree.fetch_commands()
    pylon = next(c for c in cmds if c.name == "pylon")
    assert (await bot.tree.fetch_command(pylon.id)).options[0].name == "new"
    await pylon.edit(description="changed")
    assert dd.global_commands[(1, "pylon")]["description"] == "changed"
    await pylon.delete()
    assert "pylon new" not in dd.command_names()
    with pytest.raises(discord.HTTPException) as err:
        await starter.edit(content="", embeds=[])
    assert err.value.code == 50006
    await dd.settle()
    assert bot.get_channel(thread.id) is None, "THREAD_DELETE reached the bot"
    dd.assert_clean()


async def test_fake_clock_snowflakes_uploads_and_size_limit():
    now = 1_700_000_000.0
    async with DiscordDouble(clock=lambda: now, attachment_size_limit=1000) as dd:
        world = make_world(dd)
        seen = []

        class Reader(discord.Client):
            async def on_message(self, message: discord.Message) -> None:
                if message.attachments:
                    seen.append(await message.attachments[0].read())

        client = Reader(intents=discord.Intents.all())
        await dd.connect(client)
        first = await world.alice.say(world.chan, "look", files=[("move.png", board_png(8))])
        second = await world.alice.say(world.chan, "again")
        assert first.id < second.id and discord.utils.snowflake_time(second.id).timestamp() == now
        assert first.timestamp.startswith("2023-11-14T22:13:20") and first.attachments[0].is_png
        await dd.settle()
        assert seen == [board_png(8)]
        chan = client.get_channel(world.chan.id)
        with pytest.raises(discord.HTTPException) as err:
            await chan.send(file=discord.File(io.BytesIO(b"x" * 1001), "big.bin"))
        assert err.value.status == 413 and err.value.code == 40005
        with pytest.raises(discord.HTTPException) as err:
            await chan.send(files=[discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(11)])
        assert err.value.status == 400
        dd.assert_clean()


def test_validation_rules():
    def code(fn, *a, **kw):
        try:
            fn(*a, **kw)
        except APIError as e:
            return e.code, e.errors
        return None

    msg = lambda body, n=0: code(V.validate_message, body, n_files=n, creating=True)  # noqa: E731
    assert msg({"content": "a" * 2000}) is None
    assert msg({"content": "a" * 2001})[0] == 50035
    assert msg({"content": ""})[0] == 50006
    assert msg({"embeds": [{"title": "t"}] * 11})[0] == 50035
    assert msg({"embeds": [{"title": "t" * 257}]})[1]["embeds"]["0"]["title"]
    assert msg({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})[1]["embeds"]["0"]["fields"]
    assert msg({"embeds": [{"fields": [{"name": "n" * 257, "value": "v" * 1025}]}]})[1]["embeds"]["0"][
        "fields"
    ]["0"].keys() == {"name", "value"}
    assert msg({"embeds": [{"footer": {"text": "f" * 2049}}]}) is not None
    assert msg({"content": "x"}, n=11)[0] == 50035

    def button(i, label="b"):
        return {"type": 2, "style": 1, "label": label, "custom_id": f"b{i}"}

    def select(n=3, **extra):
        return {
            "type": 3,
            "custom_id": "s",
            "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)],
            **extra,
        }

    row = lambda *c: {"type": 1, "components": list(c)}  # noqa: E731
    assert msg({"components": [row(button(i)) for i in range(5)]}) is None
    assert msg({"components": [row(button(i)) for i in range(6)]})[0] == 50035
    assert msg({"components": [row(*[button(i) for i in range(6)])]})[0] == 50035
    assert "COMPONENT_LAYOUT_WIDTH_EXCEEDED" in str(msg({"components": [row(select(), button(1))]}))
    assert "DUPLICATED" in str(msg({"components": [row(button(1)), row(button(1))]}))
    assert (
        msg({"components": [row({"type": 2, "style": 1, "label": "x", "custom_id": "c" * 101})]})[0] == 50035
    )
    assert msg({"components": [row(button(1, label="l" * 81))]})[0] == 50035
    assert msg({"components": [row(select(26))]})[0] == 50035
    assert msg({"components": [row(select(0))]})[0] == 50035
    assert msg({"components": [row(select(placeholder="p" * 151))]})[0] == 50035
    assert (
        msg({"components": [row({**select(), "options": [{"label": "l" * 101, "value": "v"}]})]})[0] == 50035
    )
    text_input = {"type": 4, "custom_id": "q", "style": 1, "label": "Q"}
    assert code(V.validate_modal, {"title": "t", "custom_id": "m", "components": [row(text_input)]}) is None
    assert code(V.validate_modal, {"title": "t" * 46, "custom_id": "m", "components": [row(text_input)]})
    assert code(V.validate_modal, {"title": "t", "custom_id": "m", "components": []})
    assert code(
        V.validate_modal,
        {
            "title": "t",
            "custom_id": "m",
            "components": [row(dict(text_input, custom_id=f"q{i}")) for i in range(6)],
        },
    )
    assert code(V.validate_choices, {"choices": [{"name": "a", "value": "a"}] * 25}) is None
    assert code(V.validate_choices, {"choices": [{"name": "a", "value": "a"}] * 26})
    cmd = {"name": "game", "description": "d", "options": [{"type": 3, "name": "a", "description": "d"}]}
    assert code(V.validate_commands, [cmd]) is None
    assert code(V.validate_commands, [dict(cmd, name="Game")])
    assert code(V.validate_commands, [dict(cmd, description="d" * 101)])
    assert code(V.validate_commands, [dict(cmd, options=[{"type": 3, "name": f"o{i}", "description": "d"}
                                                         for i in range(26)])])
    assert "REQUIRED_INVALID_ORDER" in str(
        code(
            V.validate_commands,
            [
                dict(
                    cmd,
                    options=[
                        {"type": 3, "name": "a", "description": "d"},
                        {"type": 3, "name": "b", "description": "d", "required": True},
                    ],
                )
            ],
        )
    )
    assert code(
        V.validate_commands,
        [
            dict(
                cmd,
                options=[
                    {
                        "type": 3,
                        "name": "a",
                        "description": "d",
                        "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                    }
                ],
            )
        ],
    )


async def test_forged_component_and_channel_deletion(w):
    dd, chan, alice, bob = w.dd, w.chan, w.alice, w.bob
    await alice.slash(chan, "pylon new", opponent=bob)
    msg = await chan.wait_for(lambda m: "Accept" in m.button_labels(), timeout=5)
    # a forged id the message does not carry: the library routes nothing, Discord shows "interaction failed"
    r = await bob.forge_component(msg, f"pylon:accept:{alice.id}:{bob.id}x", on_message=False, check=False,
                                  timeout=0.3)
    assert not r.acked and r.payload["data"]["custom_id"].endswith("x")
    # carried on the interaction's copy of the message: the DynamicItem template matches and runs
    r = await bob.forge_component(msg, f"pylon:accept:{alice.id}:{bob.id}")
    assert r.response_name == "UPDATE_MESSAGE" and w.bot.accepted == 1
    thread = await dd.wait_until(lambda: w.guild.threads and w.guild.threads[0])
    await dd.settle()
    assert w.bot.get_channel(thread.id) is not None
    await chan.delete()
    assert chan.deleted and thread.deleted and w.guild.threads == []
    assert w.bot.get_channel(chan.id) is None and w.bot.get_channel(thread.id) is None
    with pytest.raises(discord.NotFound) as err:
        await w.bot.fetch_channel(thread.id)
    assert err.value.code == 10003
    with pytest.raises(UserActionError):
        await alice.slash(chan, "pylon new", opponent=bob)
