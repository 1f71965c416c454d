"""SimUser: a simulated human and the verbs a player uses (slash, click, select, modal, say, react...).

One class for both doubles. Every verb refuses what the Discord client would not allow
(:class:`~.errors.UserActionError`) and changes the world (:mod:`.world`); how an interaction travels
to the bot and how its acknowledgement is awaited is the transport's, through three hooks on the world:

- ``_new_interaction(**kw)``: the transport's :class:`~.interactions.Interaction` record;
- ``await _send_interaction(inter, timeout, check)``: deliver INTERACTION_CREATE and wait for the ack
  (:class:`~.errors.InteractionFailed` if it never came and ``check``);
- ``await _deliver_pending()``: after a message/reaction verb, wait until the bot's client has seen the
  events (in-process) or nothing (loopback: events travel over the websocket, tests wait for effects).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import perms as P
from . import pseudo
from .errors import UserActionError
from .interactions import (
    Interaction,
    InteractionType,
    ModalView,
    Resolved,
    build_options,
    make_attachment,
    resolve_path,
    selected_values,
    wrap,
)
from .models import Channel, ChannelType, Message, User, emoji_key, parse_emoji

if TYPE_CHECKING:  # pragma: no cover
    from .world import DiscordWorld

FileSpec = tuple[str, bytes] | str | Path


class SimUser(User):
    """A simulated human. Create with ``create_user`` on a double (DiscordDouble or FakeDiscord)."""

    _dd: DiscordWorld  # type: ignore[assignment]  # either double; the model types it as DiscordDouble

    # -- what this user sees ------------------------------------------------------------------------------
    def dm_channel(self) -> Channel:
        """The DM channel between this user and the bot."""
        return self._dd.dm_channel_for(self)

    def messages_in(self, channel: Channel) -> list[Message]:
        """What this user sees in ``channel``: public messages and their own ephemeral ones."""
        return channel.visible_messages(self)

    def can_see(self, msg: Message) -> bool:
        try:
            self._require_message(msg)
        except UserActionError:
            return False
        return True

    @property
    def modal(self) -> ModalView | None:
        """The modal the bot most recently opened for this user (None once submitted or dismissed)."""
        inter = self._dd.open_modals.get(self.id)
        return inter.modal if inter is not None else None

    def dismiss_modal(self) -> None:
        """Close the open modal without submitting (the bot is not told, as on Discord)."""
        self._dd.open_modals.pop(self.id, None)

    async def wait_for_dm(
        self, predicate: Callable[[Message], Any] | None = None, *, timeout: float = 5.0, since: Any = None
    ) -> Message:
        """Wait for a DM from the bot to this user matching ``predicate``."""
        return await self._dd.wait_for_message(
            self.dm_channel(), predicate, timeout=timeout, since=since, author=self._dd.bot_user
        )

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], Any] | None = None,
        *,
        timeout: float = 5.0,
        since: Any = None,
    ) -> Message:
        """Like ``channel.wait_for`` but including this user's ephemeral messages."""
        return await self._dd.wait_for_message(channel, predicate, timeout=timeout, since=since, user=self)

    # -- permission helpers ----------------------------------------------------------------------------------
    def _perms(self, channel: Channel) -> int:
        if channel.guild is None:
            return -1
        m = channel.guild.members.get(self.id)
        return m.permissions_in(channel) if m is not None else 0

    def _require_channel(self, channel: Channel, *, send: bool = False) -> None:
        if channel.deleted:
            raise UserActionError(f"{channel!r} was deleted")
        if channel.is_dm or channel.guild is None:
            if channel.recipient is None or channel.recipient.id != self.id:
                raise UserActionError(f"{self.username} cannot see someone else's DM channel {channel!r}")
            return
        g = channel.guild
        if self.id not in g.members:
            raise UserActionError(f"{self.username} is not a member of {g.name}")
        perms = self._perms(channel)
        if not perms & P.bit("view_channel"):
            raise UserActionError(f"{self.username} cannot see {channel!r}")
        if (
            channel.type == ChannelType.PRIVATE_THREAD
            and self.id not in channel.thread_members
            and not perms & P.bit("manage_threads")
        ):
            raise UserActionError(f"{self.username} is not in private thread {channel!r}")
        if send:
            need = "send_messages_in_threads" if channel.is_thread else "send_messages"
            if not perms & P.bit(need):
                raise UserActionError(f"{self.username} cannot send messages in {channel!r}")
            if channel.is_thread and channel.locked:
                raise UserActionError(f"{channel!r} is locked")

    def _require_message(self, msg: Message) -> None:
        if msg.deleted:
            raise UserActionError(f"{msg!r} was deleted")
        if not msg.visible_to(self):
            raise UserActionError(f"{self.username} cannot see {msg!r} (someone else's ephemeral message)")
        self._require_channel(msg.channel)

    # -- application commands --------------------------------------------------------------------------------
    def _command_data(self, cmd: dict[str, Any], **extra: Any) -> dict[str, Any]:
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1), **extra}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    def _command_interaction(
        self,
        channel: Channel,
        command: str,
        values: dict[str, Any],
        *,
        strict: bool,
        focused: str | None = None,
        focused_value: str = "",
    ) -> Interaction:
        dd = self._dd
        self._require_channel(channel)
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise UserActionError("empty command name")
        cmd = dd.find_command(parts[0], channel)
        if strict:
            self._check_command_allowed(cmd, channel)
        chain, leaf = resolve_path(cmd, parts[1:])
        resolved = Resolved()
        options = build_options(
            dd,  # type: ignore[arg-type]
            leaf,
            values,
            invoker=self,
            channel=channel,
            resolved=resolved,
            strict=strict,
            focused=focused,
            focused_value=focused_value,
        )
        data = self._command_data(cmd)
        opts = wrap(chain, options)
        if opts or focused is not None:
            data["options"] = opts
        if resolved.data:
            data["resolved"] = resolved.data
        itype = InteractionType.AUTOCOMPLETE if focused is not None else InteractionType.APPLICATION_COMMAND
        return dd._new_interaction(type=itype, user=self, channel=channel, data=data, name=" ".join(parts))

    def _check_command_allowed(self, cmd: dict[str, Any], channel: Channel) -> None:
        """What the client hides in a server: no USE_APPLICATION_COMMANDS, ``default_member_permissions``.
        (Where a command is offered at all — guild/DM contexts — is ``find_command``'s rule.)"""
        if channel.guild is None:
            return
        perms = self._perms(channel)
        if not perms & P.bit("use_application_commands"):
            raise UserActionError(f"{self.username} cannot use application commands in {channel!r}")
        required = cmd.get("default_member_permissions")
        if required is not None:
            bits = int(required)
            admin = perms & P.bit("administrator")
            if (bits == 0 or perms & bits != bits) and not admin:
                raise UserActionError(
                    f"/{cmd['name']} is hidden from {self.username} "
                    f"(needs {P.names(bits) or 'administrator'})"
                )

    async def _send(self, inter: Interaction, timeout: float | None, check: bool) -> Interaction:
        return await self._dd._send_interaction(inter, timeout, check)

    async def slash(
        self,
        channel: Channel,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        strict: bool = True,
        check: bool = True,
        **values: Any,
    ) -> Interaction:
        """Run ``/command`` (subcommands separated by spaces) with option values as keywords (``options=``
        for names that are not identifiers). Users/members, channels and roles are passed as objects,
        attachments as ``(filename, bytes)`` or a path, choices by value or name. Returns once
        acknowledged; ``check=False`` returns a failed interaction instead of raising; ``strict=False``
        skips the client-side checks (hidden commands, choices, ranges, required options)."""
        inter = self._command_interaction(channel, command, {**(options or {}), **values}, strict=strict)
        return await self._send(inter, timeout, check)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        option: str,
        value: str = "",
        *,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into ``option`` of ``/command``; returns the choices the bot suggested
        (``[{"name": ..., "value": ...}]``)."""
        inter = self._command_interaction(
            channel, command, {**(options or {}), **values}, strict=False, focused=option, focused_value=value
        )
        await self._send(inter, timeout, True)
        if inter.choices is None:
            raise UserActionError(f"{inter!r} was not answered with autocomplete choices")
        return list(inter.choices)

    async def user_command(
        self, channel: Channel, name: str, target: User, *, timeout: float | None = None, check: bool = True
    ) -> Interaction:
        """Right-click ``target`` > Apps > ``name``."""
        self._require_channel(channel)
        cmd = self._dd.find_command(name, channel, ctype=2)
        self._check_command_allowed(cmd, channel)
        resolved = Resolved()
        resolved.add("users", target.id, target.payload())
        if channel.guild is not None and target.id in channel.guild.members:
            m = channel.guild.members[target.id]
            member = m.payload(include_user=False, permissions=m.permissions_in(channel))
            resolved.add("members", target.id, member)
        data = self._command_data(cmd, target_id=str(target.id), resolved=resolved.data)
        inter = self._dd._new_interaction(
            type=InteractionType.APPLICATION_COMMAND, user=self, channel=channel, data=data, name=name
        )
        return await self._send(inter, timeout, check)

    async def message_command(
        self, message: Message, name: str, *, timeout: float | None = None, check: bool = True
    ) -> Interaction:
        """Right-click ``message`` > Apps > ``name``."""
        self._require_message(message)
        channel = message.channel
        cmd = self._dd.find_command(name, channel, ctype=3)
        self._check_command_allowed(cmd, channel)
        payload = self._dd._message_for_bot(message, None)
        data = self._command_data(
            cmd, target_id=str(message.id), resolved={"messages": {str(message.id): payload}}
        )
        inter = self._dd._new_interaction(
            type=InteractionType.APPLICATION_COMMAND, user=self, channel=channel, data=data, name=name
        )
        return await self._send(inter, timeout, check)

    # -- components ------------------------------------------------------------------------------------------
    def _component_interaction(self, msg: Message, data: dict[str, Any]) -> Interaction:
        return self._dd._new_interaction(
            type=InteractionType.MESSAGE_COMPONENT,
            user=self,
            channel=msg.channel,
            data=data,
            component_message=msg,
        )

    async def click(
        self,
        msg: Message | Interaction,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        emoji: str | None = None,
        timeout: float | None = None,
        check: bool = True,
    ) -> Interaction:
        """Click a button (by label, ``custom_id=`` or ``emoji=``) on a message (or an interaction's)."""
        msg = _as_message(msg)
        self._require_message(msg)
        if label is None and custom_id is None and emoji is None:
            raise UserActionError("click(): give a label, custom_id= or emoji=")
        try:
            button = msg.button(label, custom_id=custom_id, emoji=emoji)
        except KeyError as e:
            raise UserActionError(str(e.args[0])) from None
        if button.disabled:
            raise UserActionError(f"{button!r} is disabled")
        if button.style == 5 or button.custom_id is None:
            raise UserActionError(f"{button!r} is a link button ({button.url}): it sends no interaction")
        if button.style == 6:
            raise UserActionError(f"{button!r} is a premium button: it sends no interaction")
        data: dict[str, Any] = {"custom_id": button.custom_id, "component_type": 2}
        if button.raw.get("id") is not None:
            data["id"] = button.raw["id"]
        return await self._send(self._component_interaction(msg, data), timeout, check)

    async def forge_component(
        self,
        msg: Message,
        custom_id: str,
        *,
        component_type: int = 2,
        values: Sequence[str] | None = None,
        options: Sequence[str] = ("x",),
        on_message: bool = True,
        timeout: float | None = None,
        check: bool = True,
    ) -> Interaction:
        """A modified client: a component interaction on ``msg`` with any ``custom_id`` (forged, truncated,
        oversized, copied from another channel's message). ``on_message=True`` makes the interaction's
        message payload carry that component too (as if the message had it, so the bot's library routes
        it); ``False`` sends the message as it is. ``values`` for a select (``component_type=3``), which
        need not be among the forged menu's ``options``."""
        self._require_message(msg)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        inter = self._component_interaction(msg, data)
        if on_message:
            comp: dict[str, Any] = {"type": component_type, "custom_id": custom_id}
            if component_type == 2:
                comp.update(style=2, label="forged")
            else:
                comp["options"] = [{"label": o, "value": o} for o in options]
            inter.forged_components = [comp]
        return await self._send(inter, timeout, check)

    async def select(
        self,
        msg: Message | Interaction,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        timeout: float | None = None,
        check: bool = True,
    ) -> Interaction:
        """Pick options in a select menu: string selects by value or label; user/role/channel/mentionable
        selects take objects."""
        msg = _as_message(msg)
        self._require_message(msg)
        sels = [
            s
            for s in msg.selects()
            if (custom_id is None or s.custom_id == custom_id)
            and (placeholder is None or s.placeholder == placeholder)
        ]
        if not sels:
            raise UserActionError(f"no select custom_id={custom_id!r} placeholder={placeholder!r} in {msg!r}")
        if len(sels) > 1 and custom_id is None and placeholder is None:
            raise UserActionError(f"{msg!r} has several selects: pass custom_id= or placeholder=")
        sel = sels[0]
        if sel.disabled:
            raise UserActionError(f"{sel!r} is disabled")
        values = list(values)
        if not sel.min_values <= len(values) <= sel.max_values:
            raise UserActionError(
                f"{sel!r} takes {sel.min_values}..{sel.max_values} values, got {len(values)}"
            )
        data: dict[str, Any] = {"custom_id": sel.custom_id, "component_type": sel.type}
        if sel.raw.get("id") is not None:
            data["id"] = sel.raw["id"]
        if sel.type == 3:
            picked = []
            for v in values:
                opt = next((o for o in sel.options if o.value == v), None) or next(
                    (o for o in sel.options if o.label == v), None
                )
                if opt is None:
                    raise UserActionError(f"{v!r} is not an option of {sel!r}")
                picked.append(opt.value)
            data["values"] = picked
        else:
            dd: Any = self._dd
            data["values"], data["resolved"] = selected_values(dd, sel.type, values, msg.channel, self)
        return await self._send(self._component_interaction(msg, data), timeout, check)

    # -- modals ----------------------------------------------------------------------------------------------
    async def submit_modal(
        self,
        values: dict[str, Any] | None = None,
        *,
        modal: ModalView | None = None,
        timeout: float | None = None,
        check: bool = True,
        **kwargs: Any,
    ) -> Interaction:
        """Fill in and submit the modal the bot last opened for this user. Keys are field custom_ids or
        labels; text inputs take str, selects/checkbox groups lists, checkboxes bool, radio groups str,
        file uploads ``[(filename, bytes)]``. Fields left out keep their pre-filled value."""
        dd = self._dd
        opener = modal.interaction if modal is not None else dd.open_modals.get(self.id)
        if opener is None or opener.modal is None:
            raise UserActionError(f"the bot has not opened a modal for {self.username}")
        view = opener.modal
        given = {**(values or {}), **kwargs}
        used: set[str] = set()
        resolved = Resolved()
        channel = opener.channel
        submitted: list[dict[str, Any]] = []
        for comp in view.raw.get("components") or []:
            t = comp.get("type")
            out: dict[str, Any]
            if t == 1:
                out = {
                    "type": 1,
                    "components": [
                        self._fill(c, c.get("label"), given, used, resolved, channel)
                        for c in comp.get("components") or []
                    ],
                }
            elif t == 18:
                child = comp.get("component") or {}
                filled = self._fill(child, comp.get("label"), given, used, resolved, channel)
                out = {"type": 18, "component": filled}
            elif t == 10:
                out = {"type": 10}
            else:
                continue
            if comp.get("id") is not None:
                out["id"] = comp["id"]
            submitted.append(out)
        unknown = set(given) - used
        if unknown:
            raise UserActionError(
                f"modal {view.title!r} has no field(s) {sorted(unknown)}; fields: "
                f"{[(f.get('custom_id'), f.get('label')) for f in view.fields]}"
            )
        data: dict[str, Any] = {"custom_id": view.custom_id, "components": submitted}
        if resolved.data:
            data["resolved"] = resolved.data
        dd.open_modals.pop(self.id, None)
        inter = dd._new_interaction(
            type=InteractionType.MODAL_SUBMIT,
            user=self,
            channel=channel,
            data=data,
            component_message=opener.component_message,
            source=opener,
        )
        return await self._send(inter, timeout, check)

    def _fill(
        self,
        comp: dict[str, Any],
        label: str | None,
        given: dict[str, Any],
        used: set[str],
        resolved: Resolved,
        channel: Channel,
    ) -> dict[str, Any]:
        """One modal component as the client submits it (the client's checks applied)."""
        key = next((k for k in (comp.get("custom_id"), label) if k is not None and k in given), None)
        found, v = (key is not None), (given[key] if key is not None else None)
        if key is not None:
            used.add(key)
        t = comp.get("type")
        out: dict[str, Any] = {"type": t, "custom_id": comp.get("custom_id")}
        if comp.get("id") is not None:
            out["id"] = comp["id"]
        name = label or comp.get("custom_id")
        defaults = [o["value"] for o in comp.get("options") or [] if o.get("default")]
        if t == 4:
            text = str(v) if found and v is not None else (comp.get("value") or "")
            if comp.get("required", True) and not text:
                raise UserActionError(f"modal field {name!r} is required")
            lo, hi = comp.get("min_length"), comp.get("max_length")
            if text and ((lo is not None and len(text) < lo) or (hi is not None and len(text) > hi)):
                raise UserActionError(f"modal field {name!r}: length {len(text)} outside [{lo}, {hi}]")
            out["value"] = text
        elif t in (3, 5, 6, 7, 8):
            vals = list(v) if found and v is not None else defaults
            required = comp.get("required", True)
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if required and not vals:
                raise UserActionError(f"modal select {name!r} is required")
            if vals and not lo <= len(vals) <= hi:
                raise UserActionError(f"modal select {name!r} takes {lo}..{hi} values, got {len(vals)}")
            if t == 3:
                conv = []
                for x in vals:
                    opts = comp.get("options") or []
                    o = next((o for o in opts if x in (o.get("value"), o.get("label"))), None)
                    if o is None:
                        raise UserActionError(f"{x!r} is not an option of modal select {name!r}")
                    conv.append(o["value"])
                out["values"] = conv
            else:
                ids, res = selected_values(self._dd, t, vals, channel, self)  # type: ignore[arg-type]
                out["values"] = ids
                for kind, items in res.items():
                    for k, item in items.items():
                        resolved.add(kind, int(k), item)
        elif t == 19:
            files = list(v) if found and v else []
            if comp.get("required", True) and not files:
                raise UserActionError(f"modal file upload {name!r} is required")
            ids = []
            for f in files:
                att = make_attachment(self._dd, channel, f)  # type: ignore[arg-type]
                resolved.add("attachments", att.id, att.payload())
                ids.append(str(att.id))
            out["values"] = ids
        elif t == 23:
            out["value"] = bool(v) if found else bool(comp.get("default", False))
        elif t == 21:
            val = v if found else next(iter(defaults), None)
            if val is None and comp.get("required", True):
                raise UserActionError(f"modal radio group {name!r} is required")
            out["value"] = val
        elif t == 22:
            out["values"] = list(v) if found and v is not None else defaults
        else:
            raise UserActionError(f"modal component type {t} is not supported by the double")
        return out

    # -- messages, reactions, threads ------------------------------------------------------------------------
    async def say(
        self,
        channel: Channel,
        content: str = "",
        *,
        files: Sequence[FileSpec] = (),
        reply_to: Message | None = None,
        embeds: list[dict[str, Any]] | None = None,
    ) -> Message:
        """Post a message (MESSAGE_CREATE). In a thread the user joins it and an archived one is unarchived,
        as on Discord. Files are ``(filename, bytes)`` or paths."""
        dd = self._dd
        self._require_channel(channel, send=True)
        if not content and not files and not embeds:
            raise UserActionError("cannot send an empty message")
        if len(content) > 2000:
            raise UserActionError("messages are limited to 2000 characters")
        pseudo.add_typed(content, dd.pseudo_typed)  # (the pseudo-locale run: a player's words may be quoted)
        specs = []
        for f in files:
            name, data = (f[0], f[1]) if isinstance(f, tuple) else (Path(f).name, Path(f).read_bytes())
            specs.append((name, bytes(data)))
        if channel.is_thread:
            dd._add_thread_member(channel, self)
            if channel.archived:
                dd._update_channel(channel, {"archived": False})
        reference = (
            {"message_id": reply_to.id, "channel_id": reply_to.channel.id} if reply_to is not None else None
        )
        msg = dd._create_message(
            channel, self, content=content, files=specs, embeds=embeds, reference=reference
        )
        await dd._deliver_pending()
        return msg

    async def edit(self, msg: Message, content: str) -> Message:
        """Edit one of this user's messages (MESSAGE_UPDATE)."""
        if msg.author.id != self.id:
            raise UserActionError(f"{self.username} can only edit their own messages")
        self._require_message(msg)
        pseudo.add_typed(content, self._dd.pseudo_typed)
        self._dd._edit_message(msg, {"content": content})
        await self._dd._deliver_pending()
        return msg

    async def delete(self, msg: Message) -> None:
        """Delete a message (their own, or any with manage_messages) (MESSAGE_DELETE)."""
        self._require_message(msg)
        if msg.author.id != self.id and not (self._perms(msg.channel) & P.bit("manage_messages")):
            raise UserActionError(f"{self.username} cannot delete {msg!r}")
        self._dd._delete_message(msg)
        await self._dd._deliver_pending()

    async def react(self, msg: Message | Interaction, emoji: str) -> None:
        """Add a reaction (MESSAGE_REACTION_ADD, with the member in guilds)."""
        msg = _as_message(msg)
        self._require_message(msg)
        if msg.ephemeral_to is not None:
            raise UserActionError("ephemeral messages cannot be reacted to")
        perms = self._perms(msg.channel)
        if perms != -1 and not perms & P.bit("read_message_history"):
            raise UserActionError(f"{self.username} cannot react in {msg.channel!r}")
        e = parse_emoji(emoji)
        if emoji_key(e) not in msg._reactions and perms != -1 and not perms & P.bit("add_reactions"):
            raise UserActionError(f"{self.username} cannot add new reactions in {msg.channel!r}")
        self._dd._add_reaction(msg, self.id, e)
        await self._dd._deliver_pending()

    async def unreact(self, msg: Message | Interaction, emoji: str) -> None:
        """Remove this user's reaction (MESSAGE_REACTION_REMOVE)."""
        msg = _as_message(msg)
        self._require_message(msg)
        self._dd._remove_reaction(msg, self.id, parse_emoji(emoji))
        await self._dd._deliver_pending()

    async def join_thread(self, thread: Channel) -> None:
        self._require_channel(thread)
        self._dd._add_thread_member(thread, self)
        await self._dd._deliver_pending()

    async def leave_thread(self, thread: Channel) -> None:
        self._dd._remove_thread_member(thread, self)
        await self._dd._deliver_pending()

    async def create_thread(
        self, channel: Channel, name: str, *, message: Message | None = None, private: bool = False
    ) -> Channel:
        self._require_channel(channel)
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = self._dd._create_thread(channel, name, self, type=kind, from_message=message)
        await self._dd._deliver_pending()
        return thread


def _as_message(obj: Message | Interaction) -> Message:
    """A message, or the message an interaction answered with / was made on."""
    if isinstance(obj, Message):
        return obj
    if isinstance(obj, Interaction):
        m = obj.original if obj.original is not None else obj.component_message
        if m is None:
            raise UserActionError(f"{obj!r} has no message")
        return m
    raise TypeError(f"expected a Message, got {type(obj).__name__}")
