"""In-process test double of Discord for end-to-end tests of a discord.py (2.7.x) bot.

The bot runs unmodified, in the test's event loop: the double replaces discord.py's REST layer and
interaction webhook adapter (every request is answered from the double's world and recorded) and feeds
gateway events straight into the client's ``ConnectionState`` parsers (no websocket, no network, no
subprocess). Tests hold the bot object, its database and their own clock, and act as players: run
slash commands, click, pick, fill modals, type, react, read DMs and threads, open the images.

Quick start
-----------
::

    from tests.discord_double import DiscordDouble

    async with DiscordDouble() as dd:                  # installs the patches; removes them on exit
        guild = dd.create_guild("Test Guild")          # the bot is a member (managed role, default perms)
        chan = guild.create_text_channel("games")
        alice = dd.create_user("alice")                # SimUser; display/global name "alice"
        bob = dd.create_user("bob", dms_open=False)    # bot DMs to bob fail: 403 / 50007
        guild.add_member(alice); guild.add_member(bob, permissions=["manage_guild"])
        await dd.connect(bot)      # bot not logged in yet: login through the fake REST (setup_hook runs,
                                   # commands sync), READY + GUILD_CREATEs, returns once on_ready dispatched
        r = await alice.slash(chan, "pylon new", opponent=bob, level="hard")
        msg = await chan.wait_for(lambda m: "Accept" in m.button_labels())
        await bob.click(msg, "Accept")
        dd.assert_clean()

A pytest fixture is three lines (``asyncio_mode=auto``)::

    @pytest.fixture
    async def dd():
        async with DiscordDouble() as double:
            yield double

``DiscordDouble(...)`` options: ``ack_deadline=3.0`` (seconds to acknowledge an interaction),
``strict_ack=True`` (late callbacks get 404 / 10062), ``attachment_size_limit=10 MiB`` (413 above),
``bot_permissions=`` (the bot's managed role; names or bits), ``privileged_intents=`` (what the
"developer portal" allows; asking for more raises ``PrivilegedIntentsRequired``), ``clock=time.time``
(timestamps and snowflakes follow it; a fake clock is fine), ``fast_ready=True`` (shortens discord.py's
``guild_ready_timeout``), ``latency=0.0`` (seconds each request takes; 0 still yields to the loop),
``fill_deadline=5.0`` (when a deferred reply still "thinking" counts as a violation in ``dd.violations``),
``bot_name="Parlor"``, ``capture_loggers=("discord",)`` (WARNING+ records -> ``dd.bot_warnings``,
ERROR+ -> ``dd.bot_errors``). Doubles cannot be nested (one set of patches at a time).

The world
---------
``dd.create_user(name, dms_open=True, global_name=None, locale="en-US")`` -> :class:`SimUser`;
``dd.create_guild(name, owner=None, bot_permissions=None)`` -> :class:`Guild` (an owner user is
created if none is given). ``guild.create_text_channel(name, category=None, topic=None)``,
``create_category``, ``create_role(name, permissions, mentionable=False)``, ``add_member(user,
roles=(), nick=None, permissions=None)`` (``permissions=[...]`` makes a role with those bits),
``remove_member``, ``give_role``/``take_role``, ``set_bot_permissions([...])`` (the bot's role; the bot
still gets what @everyone grants), ``set_everyone_permissions([...])``, ``set_locale("pt-BR")`` (the
community language: ``preferred_locale`` and interactions' ``guild_locale``; GUILD_UPDATE);
``chan.deny_bot("create_public_threads")``, ``chan.set_overwrite(role|user|guild, allow=, deny=)``,
``await chan.delete()`` (THREAD_DELETE / CHANNEL_DELETE; a channel's threads go with it; afterwards
the REST answers 10003 Unknown Channel). Lookups: ``guild.threads`` (oldest first),
``guild.text_channels``, ``guild.channel(name)``, ``guild.member(user)``, ``guild.everyone``,
``dd.users``, ``dd.guilds``, ``dd.channels``, ``dd.messages``, ``dd.interactions``, ``dd.bot_user``,
``dd.application_id``. Changes made while a bot is connected are dispatched (CHANNEL_CREATE,
GUILD_MEMBER_ADD, GUILD_ROLE_CREATE/UPDATE, CHANNEL_UPDATE, GUILD_UPDATE, GUILD_CREATE for a guild join...).

Permissions follow Discord's algorithm (owner, @everyone + roles, administrator, channel overwrites
for @everyone/roles/member, threads use the parent's). The REST API enforces them for the bot (403 /
50013 Missing Permissions, 50001 Missing Access); interactions carry ``member.permissions`` and
``app_permissions``; the client-side checks of the verbs use them (hidden ``default_member_permissions``
commands, channels a user cannot see or write in).

Connecting
----------
``await dd.connect(bot, timeout=10)`` -- ``bot`` is a ``discord.Client``/``commands.Bot`` that has not
logged in. ``await dd.disconnect()`` closes it (``bot.close()``) and keeps the world; connecting a new
bot object is a restart (messages, commands and their ids persist, so DynamicItem / persistent-view
buttons on old messages keep working). ``dd.connected``, ``dd.bot``, ``dd.connections``. While nobody is
connected, interactions fail ("This interaction failed") and events are not queued. Bots should stop
their background loops in ``close()`` (a killed process would); a closed client's requests raise
``RuntimeError("Session is closed")`` like aiohttp's.

Players (SimUser)
-----------------
One class for both doubles (the loopback server's users are the same :class:`SimUser`; the transport
delivers the interaction and awaits the ack). Every verb refuses what the Discord client would not
allow with :class:`UserActionError`: commands not offered where typed (guild commands and
``contexts`` without 1 in DMs: "no command"), hidden ones, private threads one is not in...

- ``await u.slash(chan, "group sub", opt=value, ..., options={"odd-name": v}, timeout=5, strict=True,
  check=True)`` builds INTERACTION_CREATE from the *registered* schema (synced global or guild
  commands; subcommands by space; users/members, channels, roles as objects; attachments as
  ``(filename, bytes)`` or a path; choices by value or name; unknown/missing options, bad choices,
  min/max, hidden commands -> ``UserActionError``). Returns the :class:`Interaction` once acknowledged,
  raises :class:`InteractionFailed` if not within the deadline/timeout (``check=False`` returns it
  failed). ``strict=False`` skips the client-side checks.
- ``await u.autocomplete(chan, "pylon move", "notation", "c", **other_options)`` -> the choices
  (``[{"name", "value"}]``).
- ``await u.click(msg, "Accept")`` / ``click(msg, custom_id=...)`` / ``click(msg, emoji="✅")``.
- ``await u.select(msg, ["c"], placeholder="Column")`` (or ``custom_id=``; values or labels; user /
  role / channel selects take objects).
- ``await u.forge_component(msg, "p:1:-:m:a1", component_type=2, values=None, options=("x",),
  on_message=True)``: a modified client sending any custom id (and select values) on ``msg``;
  ``on_message=True`` also puts that component into the interaction's copy of the message, as if the bot
  had sent it, so the library routes it (a forged select offers ``options``).
- ``u.modal`` (:class:`ModalView`: ``.title``, ``.custom_id``, ``.fields``, ``.field(key)``);
  ``await u.submit_modal({"Question": "text"})`` (fields by label or custom_id; required and length
  checked; selects, checkboxes, radio groups, file uploads too); ``u.dismiss_modal()``.
- ``await u.user_command(chan, "High five", target)``, ``await u.message_command(msg, "Quote")``
  (context menus).
- ``await u.say(chan, "hello", files=[("a.png", data)], reply_to=msg)`` (MESSAGE_CREATE),
  ``await u.edit(msg, text)``, ``await u.delete(msg)``, ``await u.react(msg, "✅")``,
  ``await u.unreact(msg, "✅")`` (MESSAGE_REACTION_ADD with the member / REMOVE). These return once
  the bot's client parsed the event. Saying something in a thread joins it (an archived one is
  unarchived), as on Discord; ``join_thread`` / ``leave_thread`` / ``create_thread(chan, name,
  message=None, private=False)``.
- ``u.dm_channel()``, ``await u.wait_for_dm(pred, timeout=5, since=None)``, ``u.messages_in(chan)``
  (public + own ephemerals), ``u.can_see(msg)``, ``await u.wait_for_message(chan, pred)``.

Interactions
------------
:class:`Interaction`: ``.response_type`` (int) / ``.response_name``, ``.acked``, ``.ephemeral``,
``.latency`` (seconds from delivering INTERACTION_CREATE to the bot's first callback request --
for benchmarks), ``.failed`` / ``.failure_reason``, ``await .message(timeout=5)`` (the reply, a
deferred reply once filled in; for UPDATE_MESSAGE the component's message; for
DEFERRED_UPDATE_MESSAGE that message once edited), ``.original``, ``.followups``, ``.messages``,
``.component_message``, ``.modal``, ``.choices``, ``.requests`` (HTTP requests made with its token),
``.violations``, ``.payload`` (the INTERACTION_CREATE sent), ``.data``, ``await .wait_for(pred)``,
``await .followup(n)``. The first follow-up after a deferred reply fills in the "thinking" message,
like Discord.

Messages and channels (live views of the stored records)
---------------------------------------------------------
:class:`Message`: ``.id``, ``.channel``, ``.guild``, ``.author``, ``.content``, ``.embeds`` (raw dicts),
``.embed`` (first: ``.title``, ``.description``, ``.fields``, ``.field(name)``, ``.footer``, ``.image()``),
``.text`` (content + embed texts + v2 text displays), ``.components`` (raw), ``.buttons()``
(:class:`Button`: ``.label``, ``.custom_id``, ``.disabled``, ``.emoji``, ``.style``), ``.button_labels()``,
``.button(label, custom_id=, emoji=)``, ``.selects()`` (:class:`SelectMenu`: ``.options``, ``.values``,
``.labels``, ``.placeholder``, ``.custom_id``, ``.disabled``), ``.attachments`` (:class:`Attachment`:
``.filename``, ``.bytes``, ``.content_type``, ``.width``/``.height``, ``.is_png``, ``.is_gif``, ``.image()``
-> Pillow), ``.ephemeral``, ``.ephemeral_to`` (user id), ``.visible_to(user)``, ``.loading``,
``.allowed_mentions`` (as sent), ``.mentions`` (users actually pinged: content mentions filtered by
allowed_mentions, Discord's rule -- see :func:`validation.resolve_mentions`), ``.notified`` (the users
its creation notified: edits never notify), ``.mention_everyone``,
``.reactions`` (emoji -> user ids), ``.reaction_users(emoji)``, ``.edits`` (previous versions, oldest
first), ``.deleted``, ``.pinned``, ``.thread``, ``.reference``, ``.type``, ``.interaction``.

:class:`Channel`: ``.messages`` (everything, incl. ephemeral and deleted), ``.public_messages``,
``.last_message``, ``.visible_messages(user)``, ``.threads``, ``.is_thread``, ``.is_dm``, ``.parent``,
``.recipient``, ``.pins``, ``.archived``/``.locked``, and ``await ch.wait_for(pred=None, timeout=5,
since=None, user=None)``: re-evaluated on every change of the world (no polling); messages already
there count (newest match wins); ``since=dd.mark()``: only messages created or edited after the
mark; ``since=msg``: only messages created after ``msg`` (the same in both doubles); "thinking"
messages are skipped; a predicate raising KeyError / IndexError /
AttributeError / TypeError is no match; on timeout a :class:`WaitTimeout` (an ``AssertionError``)
lists the candidates, recent failed requests, violations and bot errors. ``dd.wait_until(check)``
is the general form.

Recording and analysis
----------------------
``dd.requests``: :class:`RequestRecord` (``method``, ``route`` template such as
``"POST /channels/{channel_id}/messages"``, ``path``, ``query``, ``status``, ``json`` (multipart:
the decoded ``payload_json``), ``files`` [(filename, bytes)], ``response`` (error body),
``error_code``, ``interaction_id``, ``time`` (``time.monotonic()`` when the bot called
``request``), ``duration``, ``source`` "http"/"webhook"). ``m = dd.mark()``,
``dd.api_calls(since=m, route=None, method=None)``, ``dd.api_summary(since=m)`` ->
``{"route": count}``, ``dd.failed_requests(since)``, ``await dd.settle(quiet=0.05, timeout=5)``
(no request in flight, no event queued, the bot's event/command/view tasks done, quiet for a
moment; returns False on timeout), ``dd.violations`` (``ack_timeout``, ``late_ack``, ``double_ack``,
``invalid_callback``, ``followup_before_ack``, ``deferred_unfilled``), ``dd.unimplemented`` (routes
answered 404 because the double lacks them), ``dd.bot_errors`` / ``dd.bot_warnings``,
``dd.gateway_errors`` (payloads discord.py could not parse), ``dd.internal_errors``,
``dd.gateway_log``, ``dd.presence``, ``dd.interaction_stats()``, ``dd.registered_commands(guild)``,
``dd.command_names(guild)``, and ``dd.assert_clean()`` (no violations -- any deferred reply still
thinking counts --, no unimplemented routes, no bot ERROR logs, no double errors).

What Discord enforces here
--------------------------
Answers use Discord's error shape (``{"message", "code", "errors"}``; discord.py raises
``HTTPException``/``Forbidden``/``NotFound`` with ``.code``) and are recorded: content <= 2000, no
empty message (50006), <= 10 embeds, embed limits (title 256, description 4096, 25 fields, field
name 256 / value 1024, footer 2048, author 256, total 6000), components (<= 5 action rows, <= 5
buttons per row, a select alone in its row, custom_id 1-100 and unique per message, label <= 80,
select 1-25 options, option label/value <= 100, placeholder <= 150), <= 10 files, attachment size
(413), modals (title <= 45, 1-5 components, text inputs), autocomplete (<= 25 choices), command
schemas on sync (lowercase names 1-32, descriptions 1-100, <= 25 options, required before optional,
<= 25 choices, no mixing subcommands and options), DMs to a user with DMs closed or no shared guild
(403 / 50007), editing another user's message (50005), callbacks to unknown interactions (404 /
10062), a second callback (400 / 40060), follow-ups before the ack (404 / 10015), unknown
channel / message / user / member / emoji.

REST routes: login (``/users/@me``, ``/oauth2/applications/@me``, ``/gateway[/bot]``), application
commands (global and guild: GET / PUT bulk / POST / GET-PATCH-DELETE one), channels (GET / PATCH /
DELETE), messages (GET history with before/after/around, POST JSON and multipart, GET / PATCH /
DELETE one, bulk delete), typing, pins (new and legacy routes), reactions (PUT / DELETE own, DELETE a
user's, GET users, DELETE all, DELETE one emoji), threads (without message, from a message -- both
dispatch THREAD_CREATE --, join / leave / add / remove members, list members, active threads),
``/users/@me/channels`` (DM), ``/users/{id}``, guild (GET, channels, roles, members list, member),
the CDN for attachment URLs (``attachment.read()``), interaction callbacks (types 4-9, with
``with_response``), ``@original`` GET / PATCH / DELETE, follow-ups POST and GET / PATCH / DELETE.
Gateway events: READY, GUILD_CREATE, CHANNEL_CREATE/UPDATE/DELETE, THREAD_CREATE/UPDATE/DELETE,
THREAD_MEMBERS_UPDATE, GUILD_MEMBER_ADD/UPDATE/REMOVE, GUILD_ROLE_CREATE/UPDATE,
GUILD_MEMBERS_CHUNK, MESSAGE_CREATE/UPDATE/DELETE, MESSAGE_REACTION_ADD/REMOVE/REMOVE_ALL/
REMOVE_EMOJI, CHANNEL_PINS_UPDATE, INTERACTION_CREATE -- gated by the client's intents; without the
MESSAGE_CONTENT intent other users' guild messages arrive without content unless they mention the
bot. Ephemeral messages never reach the gateway.

Not modelled: voice, forums, webhooks other than interaction ones, custom emojis (custom-emoji
reactions by the bot get 400 / 10014), rate limits (no 429s), sharding (``AutoShardedClient`` is
refused), interaction token expiry (15 min), components-v2 validation beyond the
basics, filename sanitising.

discord.py internals touched (pin discord.py's minor version knowingly; see :mod:`.patches` and
:mod:`.gateway`): ``HTTPClient.request / static_login / get_from_cdn / ws_connect`` and the mangled
``HTTPClient._HTTPClient__session``; ``AsyncWebhookAdapter.request``; ``Client.ws``;
``ConnectionState.parsers``, ``._intents``, ``.guild_ready_timeout``; the task names used by
``settle()`` ("discord.py: ", "CommandTree-invoker", "discord-ui-..."); ``utils._to_json``.
"""

from .core import CapturedLog, DiscordDouble, Violation
from .errors import APIError, InteractionFailed, UserActionError, WaitTimeout
from .interactions import Interaction, ModalView
from .models import Attachment, Button, Channel, EmbedView, Guild, Member, Message, Role, SelectMenu, User
from .rest import RequestRecord
from .simuser import SimUser

__all__ = [
    "APIError",
    "Attachment",
    "Button",
    "CapturedLog",
    "Channel",
    "DiscordDouble",
    "EmbedView",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "Member",
    "Message",
    "ModalView",
    "RequestRecord",
    "Role",
    "SelectMenu",
    "SimUser",
    "User",
    "UserActionError",
    "Violation",
    "WaitTimeout",
]
