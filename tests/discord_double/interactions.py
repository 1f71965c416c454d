"""Interactions: the record of one user action sent to the bot (and everything the bot answered),
plus building command options from the registered schema the way the Discord client does."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UserActionError
from .models import Attachment, Channel, Member, Message, Role, User

if TYPE_CHECKING:  # pragma: no cover
    from .core import DiscordDouble
    from .rest import RequestRecord


class InteractionType:
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


CALLBACK_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
    10: "PREMIUM_REQUIRED",
    12: "LAUNCH_ACTIVITY",
}

ALLOWED_CALLBACKS = {
    InteractionType.PING: {1},
    InteractionType.APPLICATION_COMMAND: {4, 5, 9, 10, 12},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 10, 12},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7, 10},
}


class ModalView:
    """A modal the bot opened for a user."""

    def __init__(self, interaction: Interaction, data: dict[str, Any]):
        self.interaction = interaction
        self.raw = data
        self.title: str = data.get("title", "")
        self.custom_id: str = data.get("custom_id", "")

    @property
    def fields(self) -> list[dict[str, Any]]:
        """Input components (text inputs, selects), with ``label`` taken from a Label wrapper if any."""
        out = []
        for comp in self.raw.get("components") or []:
            if comp.get("type") == 1:
                out.extend(dict(c) for c in comp.get("components") or [])
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                child = dict(comp["component"])
                if not child.get("label"):
                    child["label"] = comp.get("label")
                child["_label_description"] = comp.get("description")
                out.append(child)
        return out

    def field(self, key: str) -> dict[str, Any]:
        for f in self.fields:
            if key in (f.get("custom_id"), f.get("label")):
                return f
        raise KeyError(
            f"modal {self.title!r} has no field {key!r}; fields: "
            f"{[(f.get('custom_id'), f.get('label')) for f in self.fields]}"
        )

    def __repr__(self) -> str:
        labels = [f.get("label") for f in self.fields]
        return f"<Modal {self.title!r} custom_id={self.custom_id!r} fields={labels}>"


class Interaction:
    """One interaction, from dispatch to its last follow-up (returned by the user verbs)."""

    def __init__(
        self,
        dd: DiscordDouble,
        *,
        type: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        component_message: Message | None = None,
        source: Interaction | None = None,
        name: str | None = None,
    ):
        self._dd = dd
        self.id = dd.new_id()
        self.token = dd._new_interaction_token()
        self.type = type
        self.user = user
        self.channel = channel
        self.guild = channel.guild
        self.data = data
        self.name = name
        self.component_message = component_message
        self.source = source
        self.created = time.monotonic()
        self.created_seq = dd._seq
        self.dispatched_at: float | None = None
        self.acked_at: float | None = None
        self.response_type: int | None = None
        self.ephemeral = False
        self.failed = False
        self.failure_reason: str | None = None
        self.original: Message | None = None
        self.original_edits = 0
        self.followups: list[Message] = []
        self.modal: ModalView | None = None
        self.choices: list[dict[str, Any]] | None = None
        self.requests: list[RequestRecord] = []
        self.violations: list[str] = []
        self.payload: dict[str, Any] | None = None
        self.forged_components: list[dict[str, Any]] | None = None  # SimUser.forge_component

    # -- state ---------------------------------------------------------------------------------------
    @property
    def acked(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from delivering INTERACTION_CREATE to the bot's first callback request."""
        if self.acked_at is None or self.dispatched_at is None:
            return None
        return self.acked_at - self.dispatched_at

    @property
    def response_name(self) -> str | None:
        return CALLBACK_NAMES.get(self.response_type) if self.response_type is not None else None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from creating the interaction to the bot's callback request (None if never acked)."""
        return None if self.acked_at is None else self.acked_at - self.created

    @property
    def messages(self) -> list[Message]:
        """The reply (if any) and the follow-ups, not deleted."""
        out = [self.original] if self.original is not None and not self.original.deleted else []
        return out + [m for m in self.followups if not m.deleted and m is not self.original]

    @property
    def target(self) -> Message | None:
        """For component interactions: the message that held the component (live)."""
        return self.component_message

    @property
    def api_calls(self) -> int:
        return len(self.requests)

    def __repr__(self) -> str:
        kind = {2: "command", 3: "component", 4: "autocomplete", 5: "modal_submit"}.get(self.type, self.type)
        label = self.name or self.data.get("custom_id")
        return (
            f"<Interaction {kind} {label!r} by {self.user.username} response={self.response_name} "
            f"failed={self.failed}>"
        )

    # -- waiting ---------------------------------------------------------------------------------------
    async def wait_ack(self, timeout: float | None = None) -> Interaction:
        """Wait until the bot acknowledged this interaction or it failed (WaitTimeout otherwise)."""
        await self._dd.wait_until(
            lambda: self.acked or self.failed,
            timeout=5.0 if timeout is None else timeout,
            describe=lambda: f"{self!r} was not acknowledged",
        )
        return self

    async def message(self, timeout: float = 5.0) -> Message:
        """The final answer: the reply (a deferred reply once filled in); for UPDATE_MESSAGE the component's
        message; for DEFERRED_UPDATE_MESSAGE that message once edited through this interaction."""
        dd = self._dd
        await self.wait_ack(timeout)
        if not self.acked:
            raise dd._interaction_failed(self)
        if self.response_type == 9:
            raise UserActionError(f"{self!r} answered with a modal: use user.modal / user.submit_modal()")
        if self.response_type == 8:
            raise UserActionError(f"{self!r} is an autocomplete: use .choices")

        def check() -> Message | None:
            if self.response_type in (4, 5):
                m = self.original
                return m if m is not None and not m.loading else None
            if self.response_type == 7:
                return self.component_message
            if self.response_type == 6:
                target = self.component_message
                if target is not None and (self.original_edits or target.updated_seq > self.created_seq):
                    return target
                if self.followups:
                    return self.followups[0]
            return None

        return await dd.wait_until(
            check,
            timeout=timeout,
            describe=lambda: (
                f"{self!r}: no final message (original={self.original!r}, followups={self.followups})"
            ),
        )

    async def wait_for(
        self, predicate: Callable[[Message], Any] | None = None, *, timeout: float = 5.0
    ) -> Message:
        """Any message of this interaction (reply, follow-ups, edited component message) matching."""
        pred = predicate or (lambda m: True)

        def check() -> Message | None:
            extra = (
                [self.component_message]
                if self.component_message is not None and self.response_type in (6, 7)
                else []
            )
            for m in reversed(self.messages + extra):
                if not m.loading and _safe(pred, m):
                    return m
            return None

        return await self._dd.wait_until(
            check, timeout=timeout, describe=lambda: f"{self!r}: no message matched; messages={self.messages}"
        )

    async def followup(self, index: int = 0, *, timeout: float = 5.0) -> Message:
        return await self._dd.wait_until(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout=timeout,
            describe=lambda: f"{self!r}: follow-up #{index} never came (have {len(self.followups)})",
        )


def _safe(pred: Callable[[Message], Any], m: Message) -> bool:
    try:
        return bool(pred(m))
    except (KeyError, IndexError, AttributeError, TypeError):
        return False


# ---------------------------------------------------------------------------------------------------
# building command data from the registered schema
# ---------------------------------------------------------------------------------------------------


def resolve_path(
    cmd: dict[str, Any], parts: Sequence[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Walk subcommand groups/subcommands -> (chain of sub-options, leaf value options)."""
    chain: list[dict[str, Any]] = []
    options = cmd.get("options") or []
    for part in parts:
        sub = next((o for o in options if o.get("name") == part and o.get("type") in (1, 2)), None)
        if sub is None:
            subs = [o["name"] for o in options if o.get("type") in (1, 2)]
            raise UserActionError(f"/{cmd['name']} has no subcommand {part!r}; subcommands: {subs}")
        chain.append(sub)
        options = sub.get("options") or []
    if any(o.get("type") in (1, 2) for o in options):
        subs = [o["name"] for o in options if o.get("type") in (1, 2)]
        raise UserActionError(f"/{' '.join([cmd['name'], *parts])} needs a subcommand: {subs}")
    return chain, list(options)


def wrap(chain: Sequence[dict[str, Any]], leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
    options = leaf
    for sub in reversed(chain):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]
    return options


class Resolved:
    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}

    def add(self, kind: str, key: int, value: dict[str, Any]) -> None:
        self.data.setdefault(kind, {})[str(key)] = value


def _match_names(leaf: Sequence[dict[str, Any]], values: dict[str, Any]) -> dict[str, Any]:
    by_name = {o["name"]: o for o in leaf}
    out: dict[str, Any] = {}
    for key, value in values.items():
        for name in (key, key.replace("_", "-"), key.rstrip("_")):
            if name in by_name:
                out[name] = value
                break
        else:
            raise UserActionError(f"unknown option {key!r}; options: {list(by_name)}")
    return out


def convert_option(
    dd: DiscordDouble,
    opt: dict[str, Any],
    value: Any,
    *,
    invoker: User,
    channel: Channel,
    resolved: Resolved,
    strict: bool,
) -> Any:
    """A Python value -> the option value Discord sends (filling ``resolved``), with the client's checks."""
    from . import fixtures as F

    t, name = opt["type"], opt["name"]
    guild = channel.guild

    def pick_choice(v: Any) -> Any:
        choices = opt.get("choices")
        if not choices:
            return v
        for ch in choices:
            if ch["value"] == v or ch["name"] == v or str(ch["value"]) == str(v):
                return ch["value"]
        if strict:
            raise UserActionError(
                f"option {name!r}: {v!r} is not one of the choices "
                f"{[(c['name'], c['value']) for c in choices]}"
            )
        return v

    if t == 3:
        v = pick_choice(value if isinstance(value, str) else str(value))
        lo, hi = opt.get("min_length"), opt.get("max_length")
        if (
            strict
            and isinstance(v, str)
            and ((lo is not None and len(v) < lo) or (hi is not None and len(v) > hi) or len(v) > 6000)
        ):
            raise UserActionError(f"option {name!r}: length {len(v)} outside [{lo}, {hi}]")
        return v
    if t in (4, 10):
        if isinstance(value, bool):
            raise UserActionError(f"option {name!r} expects a number, got {value!r}")
        v = pick_choice(value)
        try:
            v = int(v) if t == 4 else float(v)
        except (TypeError, ValueError):
            raise UserActionError(f"option {name!r} expects a number, got {value!r}") from None
        if t == 10 and isinstance(value, int) and float(v).is_integer():
            v = int(value)  # Discord keeps a whole NUMBER as sent
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if strict and ((lo is not None and v < lo) or (hi is not None and v > hi)):
            raise UserActionError(f"option {name!r}: {v} outside [{lo}, {hi}]")
        return v
    if t == 5:
        if not isinstance(value, bool):
            raise UserActionError(f"option {name!r} expects a bool, got {value!r}")
        return value
    if t in (6, 9) and isinstance(value, int) and not isinstance(value, bool):
        found = dd.user(value)
        if found is None:
            raise UserActionError(f"option {name!r}: unknown user id {value}")
        value = found
    if t in (6, 9) and isinstance(value, (User, Member)):
        user = value.user if isinstance(value, Member) else value
        resolved.add("users", user.id, F.user(user))
        if guild is not None and user.id in guild.members:
            m = guild.members[user.id]
            resolved.add(
                "members", user.id, F.member(m, include_user=False, permissions=m.permissions_in(channel))
            )
        elif strict and guild is not None and t == 6:
            raise UserActionError(f"option {name!r}: {user.username} is not a member of {guild.name}")
        return str(user.id)
    if t in (8, 9) and isinstance(value, Role):
        resolved.add("roles", value.id, F.role(value))
        return str(value.id)
    if t == 7 and not isinstance(value, Channel):
        raise UserActionError(f"option {name!r} expects a Channel, got {value!r}")
    if t == 7:
        types = opt.get("channel_types")
        if strict and types and value.type not in types:
            raise UserActionError(f"option {name!r}: channel type {value.type} not in {types}")
        perms = (
            guild.members[invoker.id].permissions_in(value) if guild and invoker.id in guild.members else 0
        )
        cp = F.channel(value)
        cp["permissions"] = str(perms)
        resolved.add("channels", value.id, cp)
        return str(value.id)
    if t == 11:
        att = make_attachment(dd, channel, value)
        resolved.add("attachments", att.id, F.attachment(att))
        return str(att.id)
    raise UserActionError(f"option {name!r} (type {t}) cannot take {value!r}")


def make_attachment(dd: DiscordDouble, channel: Channel, value: Any) -> Attachment:
    """``(filename, bytes)`` or a path -> an uploaded (ephemeral) attachment."""
    if isinstance(value, Attachment):
        return value
    if isinstance(value, (str, os.PathLike)):
        p = Path(value)
        filename, data = p.name, p.read_bytes()
    elif isinstance(value, tuple) and len(value) == 2:
        filename, data = value
    else:
        raise UserActionError(f"attachments are (filename, bytes) or a path, got {type(value).__name__}")
    return dd.new_attachment(channel, filename, bytes(data), ephemeral=True)


def build_options(
    dd: DiscordDouble,
    leaf: Sequence[dict[str, Any]],
    values: dict[str, Any],
    *,
    invoker: User,
    channel: Channel,
    resolved: Resolved,
    strict: bool,
    focused: str | None = None,
    focused_value: str = "",
) -> list[dict[str, Any]]:
    matched = _match_names(leaf, values)
    if focused is not None:
        focused = next(iter(_match_names(leaf, {focused: None})))
    out: list[dict[str, Any]] = []
    for opt in leaf:
        name = opt["name"]
        if name == focused:
            out.append({"name": name, "type": opt["type"], "value": str(focused_value), "focused": True})
            continue
        if matched.get(name) is None:
            if opt.get("required") and strict and focused is None:
                raise UserActionError(f"missing required option {name!r}")
            continue
        out.append(
            {
                "name": name,
                "type": opt["type"],
                "value": convert_option(
                    dd, opt, matched[name], invoker=invoker, channel=channel, resolved=resolved, strict=strict
                ),
            }
        )
    if focused is not None and not any(o.get("focused") for o in out):
        raise UserActionError(f"option {focused!r} not found")
    return out


def selected_values(
    dd: DiscordDouble, select_type: int, values: Sequence[Any], channel: Channel, invoker: User
) -> tuple[list[str], dict[str, Any]]:
    """Values and ``resolved`` data of a user / role / mentionable / channel select."""
    resolved = Resolved()
    option = {"type": {5: 6, 6: 8, 7: 9, 8: 7}[select_type], "name": "select"}
    out = [
        convert_option(dd, option, v, invoker=invoker, channel=channel, resolved=resolved, strict=True)
        for v in values
    ]
    return out, resolved.data
