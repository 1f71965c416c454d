"""SimUser: a simulated human and the verbs a player uses (slash, click, select, modal, say, react...).

Every verb refuses what the Discord client would not allow (:class:`~.errors.UserActionError`), and
interaction verbs return the :class:`~.interactions.Interaction` record once the bot acknowledged it
(:class:`~.errors.InteractionFailed` if it did not within the deadline)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import perms as P
from .errors import UserActionError
from .interactions import Interaction, InteractionType, ModalView, Resolved, build_options, resolve_path, wrap
from .models import Channel, Message, User, parse_emoji

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble


class SimUser(User):
    """A simulated human. Create with :meth:`DiscordDouble.create_user`."""

    _dd: DiscordDouble

    # -- what this user sees ------------------------------------------------------------------------------
    def dm_channel(self) -> Channel:
        """The DM channel between this user and the bot."""
        return self._dd.dm_channel_for(self)

    def messages_in(self, channel: Channel) -> list[Message]:
        """What this user sees in ``channel``: public messages and their own ephemeral ones."""
        return channel.visible_messages(self)

    def can_see(self, msg: Message) -> bool:
        return msg.visible_to(self) and self._can_view(msg.channel)

    @property
    def modal(self) -> ModalView | None:
        """The modal the bot most recently opened for this user (None once submitted or dismissed)."""
        inter = self._dd._open_modals.get(self.id)
        return inter.modal if inter is not None else None

    def dismiss_modal(self) -> None:
        self._dd._open_modals.pop(self.id, None)

    async def wait_for_dm(
        self, predicate: Callable[[Message], Any] | None = None, *, timeout: float = 5.0, since: Any = None
    ) -> Message:
        """Wait for a DM from the bot to this user matching ``predicate``."""
        ch = self.dm_channel()
        pred = predicate or (lambda m: True)
        return await ch.wait_for(
            lambda m: m.author.id == self._dd.bot_user.id and pred(m), timeout=timeout, since=since
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
        return await channel.wait_for(predicate, timeout=timeout, since=since, user=self)

    # -- permission helpers ----------------------------------------------------------------------------------
    def _perms(self, channel: Channel) -> int:
        if channel.guild is None:
            return -1
        m = channel.guild.members.get(self.id)
        return m.permissions_in(channel) if m is not None else 0

    def _can_view(self, channel: Channel) -> bool:
        if channel.is_dm:
            return channel.recipient is not None and channel.recipient.id == self.id
        return bool(self._perms(channel) & P.bit("view_channel"))

    def _require_channel(self, channel: Channel, *, send: bool = False) -> None:
        if channel.deleted:
            raise UserActionError(f"{channel!r} was deleted")
        if channel.is_dm:
            if channel.recipient is None or channel.recipient.id != self.id:
                raise UserActionError(f"{self.username} is not part of {channel!r}")
            return
        g = channel.guild
        if g is None or self.id not in g.members:
            raise UserActionError(f"{self.username} is not a member of {g.name if g else '?'}")
        if not self._can_view(channel):
            raise UserActionError(f"{self.username} cannot see {channel!r}")
        if send:
            need = "send_messages_in_threads" if channel.is_thread else "send_messages"
            if not self._perms(channel) & P.bit(need):
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
            dd,
            leaf,
            values,
            invoker=self,
            channel=channel,
            resolved=resolved,
            strict=strict,
            focused=focused,
            focused_value=focused_value,
        )
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        opts = wrap(chain, options)
        if opts:
            data["options"] = opts
        if resolved.data:
            data["resolved"] = resolved.data
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        itype = InteractionType.AUTOCOMPLETE if focused is not None else InteractionType.APPLICATION_COMMAND
        return Interaction(dd, type=itype, user=self, channel=channel, data=data, name=" ".join(parts))

    def _check_command_allowed(self, cmd: dict[str, Any], channel: Channel) -> None:
        contexts = cmd.get("contexts")
        if channel.is_dm:
            if (
                cmd.get("guild_id")
                or (contexts is not None and 1 not in contexts)
                or cmd.get("dm_permission") is False
            ):
                raise UserActionError(f"/{cmd['name']} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise UserActionError(f"/{cmd['name']} cannot be used in servers")
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

    async def slash(
        self,
        channel: Channel,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        strict: bool = True,
        check: bool = True,
        **values: Any,
    ) -> Interaction:
        """Run ``/command`` (subcommands separated by spaces) with option values as keywords (``options=``
        for names that are not identifiers). Users/members, channels and roles are passed as objects,
        attachments as ``(filename, bytes)``, choices by value or name. Returns once acknowledged;
        ``check=False`` returns a failed interaction instead of raising; ``strict=False`` skips the
        client-side checks (hidden commands, choices, required options)."""
        inter = self._command_interaction(channel, command, {**(options or {}), **values}, strict=strict)
        await self._dd._dispatch_interaction(inter)
        return await self._dd._await_ack(inter, timeout, check)

    async def autocomplete(
        self,
        channel: Channel,
        command: str,
        option: str,
        value: str = "",
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into ``option`` of ``/command``; returns the choices the bot suggested
        (``[{"name": ..., "value": ...}]``)."""
        inter = self._command_interaction(
            channel, command, {**(options or {}), **values}, strict=False, focused=option, focused_value=value
        )
        await self._dd._dispatch_interaction(inter)
        await self._dd._await_ack(inter, timeout, True)
        if inter.choices is None:
            raise UserActionError(f"{inter!r} was not answered with autocomplete choices")
        return inter.choices

    # -- components ------------------------------------------------------------------------------------------
    def _component_interaction(self, msg: Message, data: dict[str, Any]) -> Interaction:
        return Interaction(
            self._dd,
            type=InteractionType.MESSAGE_COMPONENT,
            user=self,
            channel=msg.channel,
            data=data,
            component_message=msg,
        )

    async def click(
        self,
        msg: Message,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        emoji: str | None = None,
        timeout: float = 5.0,
        check: bool = True,
    ) -> Interaction:
        """Click a button (by label, ``custom_id=`` or ``emoji=``)."""
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
            raise UserActionError(f"{button!r} is a link/premium button: it sends no interaction")
        inter = self._component_interaction(msg, {"custom_id": button.custom_id, "component_type": 2})
        await self._dd._dispatch_interaction(inter)
        return await self._dd._await_ack(inter, timeout, check)

    async def forge_component(
        self,
        msg: Message,
        custom_id: str,
        *,
        component_type: int = 2,
        values: Sequence[str] | None = None,
        options: Sequence[str] = ("x",),
        on_message: bool = True,
        timeout: float = 5.0,
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
        await self._dd._dispatch_interaction(inter)
        return await self._dd._await_ack(inter, timeout, check)

    async def select(
        self,
        msg: Message,
        values: Sequence[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        timeout: float = 5.0,
        check: bool = True,
    ) -> Interaction:
        """Pick options in a select menu: string selects by value or label; user/role/channel selects
        take objects."""
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
        if not sel.min_values <= len(values) <= sel.max_values:
            raise UserActionError(
                f"{sel!r} takes {sel.min_values}..{sel.max_values} values, got {len(values)}"
            )
        data: dict[str, Any] = {"custom_id": sel.custom_id, "component_type": sel.type}
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
            from .interactions import convert_option

            kind = {5: 6, 6: 8, 7: 9, 8: 7}[sel.type]
            resolved = Resolved()
            data["values"] = [
                convert_option(
                    self._dd,
                    {"type": kind, "name": sel.custom_id},
                    v,
                    invoker=self,
                    channel=msg.channel,
                    resolved=resolved,
                    strict=True,
                )
                for v in values
            ]
            data["resolved"] = resolved.data
        inter = self._component_interaction(msg, data)
        await self._dd._dispatch_interaction(inter)
        return await self._dd._await_ack(inter, timeout, check)

    async def submit_modal(
        self,
        values: dict[str, Any],
        *,
        modal: ModalView | None = None,
        timeout: float = 5.0,
        check: bool = True,
    ) -> Interaction:
        """Fill in and submit the modal the bot last opened for this user; fields by custom_id or label
        (text inputs take strings; selects inside labels take a list of values)."""
        dd = self._dd
        opener = modal.interaction if modal is not None else dd._open_modals.get(self.id)
        if opener is None or opener.modal is None:
            raise UserActionError(f"the bot has not opened a modal for {self.username}")
        view = opener.modal
        remaining = dict(values)

        def fill(comp: dict[str, Any], label: str | None) -> dict[str, Any]:
            cid = comp.get("custom_id")
            key = next((k for k in (cid, label, comp.get("label")) if k is not None and k in remaining), None)
            value = remaining.pop(key) if key is not None else None
            if comp.get("type") == 4:
                text = "" if value is None else str(value)
                if value is None and comp.get("value") is not None:
                    text = comp["value"]
                if comp.get("required", True) and not text:
                    raise UserActionError(f"modal field {label or cid!r} is required")
                lo, hi = comp.get("min_length"), comp.get("max_length")
                if text and ((lo is not None and len(text) < lo) or (hi is not None and len(text) > hi)):
                    raise UserActionError(
                        f"modal field {label or cid!r}: length {len(text)} outside [{lo}, {hi}]"
                    )
                return {"type": 4, "custom_id": cid, "value": text}
            if comp.get("type") == 3:
                picked = list(value or [])
                options = comp.get("options") or []
                out = []
                for v in picked:
                    o = next((o for o in options if v in (o.get("value"), o.get("label"))), None)
                    if o is None:
                        raise UserActionError(f"{v!r} is not an option of modal select {label or cid!r}")
                    out.append(o["value"])
                if comp.get("required", True) and not out:
                    raise UserActionError(f"modal select {label or cid!r} is required")
                return {"type": 3, "custom_id": cid, "values": out}
            raise UserActionError(f"modal component type {comp.get('type')} is not supported by the double")

        components = []
        for comp in view.raw.get("components") or []:
            if comp.get("type") == 1:
                components.append(
                    {"type": 1, "components": [fill(c, c.get("label")) for c in comp.get("components") or []]}
                )
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                components.append({"type": 18, "component": fill(comp["component"], comp.get("label"))})
        if remaining:
            raise UserActionError(
                f"modal {view.title!r} has no field(s) {list(remaining)}; fields: "
                f"{[(f.get('custom_id'), f.get('label')) for f in view.fields]}"
            )
        dd._open_modals.pop(self.id, None)
        inter = Interaction(
            dd,
            type=InteractionType.MODAL_SUBMIT,
            user=self,
            channel=opener.channel,
            data={"custom_id": view.custom_id, "components": components},
            component_message=opener.component_message,
            source=opener,
        )
        await dd._dispatch_interaction(inter)
        return await dd._await_ack(inter, timeout, check)

    # -- messages and reactions ------------------------------------------------------------------------------
    async def say(
        self,
        channel: Channel,
        content: str = "",
        *,
        files: Sequence[tuple[str, bytes]] = (),
        reply_to: Message | None = None,
    ) -> Message:
        """Post a message (MESSAGE_CREATE); returns once the bot's client has parsed the event."""
        self._require_channel(channel, send=True)
        if not content and not files:
            raise UserActionError("cannot send an empty message")
        if len(content) > 2000:
            raise UserActionError("messages are limited to 2000 characters")
        reference = (
            {"message_id": reply_to.id, "channel_id": reply_to.channel.id} if reply_to is not None else None
        )
        msg = self._create(channel, content, files, reference)
        await self._dd._deliver_pending()
        return msg

    def _create(
        self,
        channel: Channel,
        content: str,
        files: Sequence[tuple[str, bytes]],
        reference: dict[str, Any] | None,
    ) -> Message:
        return self._dd._create_message(
            channel, self, content=content, files=list(files), reference=reference
        )

    async def edit(self, msg: Message, content: str) -> Message:
        """Edit one of this user's messages (MESSAGE_UPDATE)."""
        if msg.author.id != self.id:
            raise UserActionError(f"{self.username} can only edit their own messages")
        self._require_message(msg)
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

    async def react(self, msg: Message, emoji: str) -> None:
        """Add a reaction (MESSAGE_REACTION_ADD, with the member in guilds)."""
        self._require_message(msg)
        if msg.ephemeral_to is not None:
            raise UserActionError("ephemeral messages cannot be reacted to")
        perms = self._perms(msg.channel)
        if perms != -1 and not perms & P.bit("read_message_history"):
            raise UserActionError(f"{self.username} cannot react in {msg.channel!r}")
        e = parse_emoji(emoji)
        from .models import emoji_key

        if emoji_key(e) not in msg._reactions and perms != -1 and not perms & P.bit("add_reactions"):
            raise UserActionError(f"{self.username} cannot add new reactions in {msg.channel!r}")
        self._dd._add_reaction(msg, self.id, e)
        await self._dd._deliver_pending()

    async def unreact(self, msg: Message, emoji: str) -> None:
        """Remove this user's reaction (MESSAGE_REACTION_REMOVE)."""
        self._require_message(msg)
        self._dd._remove_reaction(msg, self.id, parse_emoji(emoji))
        await self._dd._deliver_pending()
