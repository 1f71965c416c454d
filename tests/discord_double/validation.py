"""Discord's payload rules. Each ``validate_*`` raises :class:`~.errors.APIError` (400 / 50035
"Invalid Form Body" with the nested ``errors`` object, or the specific code) like Discord does.

Covered: application commands (bulk overwrite), message create/edit (content, embeds, components,
attachments, allowed_mentions), modals, autocomplete choices; and :func:`resolve_mentions`, the rule
deciding who a message pings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from .errors import APIError, FormErrors

Path = tuple[Any, ...]

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FILES_MAX = 10


def _length(errs: FormErrors, path: Path, value: Any, lo: int, hi: int, *, required: bool = True) -> None:
    if value is None:
        if required:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errs.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return
    if not lo <= len(value) <= hi:
        if lo == 0:
            errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length.")
        else:
            errs.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")


# ---------------------------------------------------------------------------------------------------
# application commands
# ---------------------------------------------------------------------------------------------------


def valid_command_name(name: Any) -> bool:
    """1-32 characters: letters (lowercase when a lowercase form exists), digits, ``-``, ``_``, ``'``."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    for ch in name:
        if ch in "-_'":
            continue
        cat = unicodedata.category(ch)
        if cat[0] in ("L", "N") or cat in ("Mn", "Mc"):
            if ch.lower() != ch:
                return False
            continue
        return False
    return True


def _command(errs: FormErrors, cmd: dict[str, Any], path: Path) -> None:
    ctype = cmd.get("type", 1)
    if ctype not in (1, 2, 3, 4):
        errs.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        return
    name = cmd.get("name")
    if ctype == 1:
        if not valid_command_name(name):
            errs.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        _length(errs, (*path, "description"), cmd.get("description"), 1, 100)
        _options(errs, cmd.get("options") or [], (*path, "options"), depth=0)
    else:
        _length(errs, (*path, "name"), name, 1, 32)
        if cmd.get("options"):
            errs.add(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Context menu commands cannot have options",
            )
    perms = cmd.get("default_member_permissions")
    if perms is not None:
        try:
            int(perms)
        except (TypeError, ValueError):
            errs.add(
                (*path, "default_member_permissions"),
                "NUMBER_TYPE_COERCE",
                f'Value "{perms}" is not snowflake.',
            )
    contexts = cmd.get("contexts")
    if contexts is not None and (not isinstance(contexts, list) or any(c not in (0, 1, 2) for c in contexts)):
        errs.add((*path, "contexts"), "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.")


def _options(errs: FormErrors, options: Any, path: Path, *, depth: int) -> None:
    if not isinstance(options, list):
        errs.add(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if len(options) > 25:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names: set[str] = set()
    seen_optional = False
    kinds = set()
    for i, opt in enumerate(options):
        p = (*path, i)
        if not isinstance(opt, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        otype = opt.get("type")
        if otype not in range(1, 12):
            errs.add(
                (*p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}."
            )
            continue
        name = opt.get("name")
        if not valid_command_name(name):
            errs.add((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        elif name in names:
            errs.add(
                (*p, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option name already exists"
            )
        names.add(name or "")
        _length(errs, (*p, "description"), opt.get("description"), 1, 100)
        kinds.add("sub" if otype in (1, 2) else "value")
        if otype in (1, 2):
            if depth >= (1 if otype == 2 else 2):
                errs.add(
                    (*p, "type"), "APPLICATION_COMMAND_SUBCOMMAND_NESTED", "Subcommands nested too deeply"
                )
            _options(errs, opt.get("options") or [], (*p, "options"), depth=depth + 1)
            continue
        if opt.get("required"):
            if seen_optional:
                errs.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = opt.get("choices")
        if choices is not None:
            if otype not in (3, 4, 10):
                errs.add(
                    (*p, "choices"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_TYPE_INVALID",
                    "Choices are only allowed for STRING, INTEGER and NUMBER options",
                )
            if not isinstance(choices, list):
                choices = []
            if len(choices) > 25:
                errs.add((*p, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if choices and opt.get("autocomplete"):
                errs.add(
                    (*p, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                    "Autocomplete cannot be enabled if choices are present",
                )
            for k, ch in enumerate(choices):
                cp = (*p, "choices", k)
                _length(errs, (*cp, "name"), (ch or {}).get("name"), 1, 100)
                value = (ch or {}).get("value")
                if otype == 3:
                    _length(errs, (*cp, "value"), value, 1, 100)
                elif (
                    not isinstance(value, (int, float))
                    or isinstance(value, bool)
                    or (otype == 4 and not isinstance(value, int))
                ):
                    errs.add((*cp, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a valid number.')
        if opt.get("autocomplete") and otype not in (3, 4, 10):
            errs.add(
                (*p, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_TYPE_INVALID",
                "Autocomplete is only allowed for STRING, INTEGER and NUMBER options",
            )
    if kinds == {"sub", "value"}:
        errs.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )


def validate_commands(commands: Any) -> None:
    """A bulk-overwrite body (``PUT .../commands``)."""
    if not isinstance(commands, list):
        raise APIError(
            400,
            50035,
            "Invalid Form Body",
            {
                "_errors": [
                    {"code": "LIST_TYPE_CONVERT", "message": "Only iterables may be used in a ListType"}
                ]
            },
        )
    errs = FormErrors()
    seen: dict[tuple[int, Any], int] = {}
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errs.add((i,), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        _command(errs, cmd, (i,))
        key = (cmd.get("type", 1), cmd.get("name"))
        if key in seen:
            errs.add(
                (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
            )
        seen[key] = i
    errs.raise_if_any()
    if sum(1 for c in commands if c.get("type", 1) == 1) > 100:
        raise APIError(400, 30032, "Maximum number of application commands reached (100)")


def validate_command(cmd: Any) -> None:
    errs = FormErrors()
    if not isinstance(cmd, dict):
        errs.add((), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
    else:
        _command(errs, cmd, ())
    errs.raise_if_any()


# ---------------------------------------------------------------------------------------------------
# messages
# ---------------------------------------------------------------------------------------------------


def _url(errs: FormErrors, path: Path, url: Any, *, attachment_ok: bool = True) -> None:
    if url is None:
        return
    schemes = ("http://", "https://", "attachment://") if attachment_ok else ("http://", "https://")
    if not isinstance(url, str) or not url.startswith(schemes):
        errs.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def validate_embeds(errs: FormErrors, embeds: Any, path: Path = ("embeds",)) -> None:
    if embeds is None:
        return
    if not isinstance(embeds, list):
        errs.add(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if len(embeds) > EMBEDS_MAX:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        p = (*path, i)
        if not isinstance(e, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        for key, limit in (("title", 256), ("description", 4096)):
            v = e.get(key)
            if v is not None:
                _length(errs, (*p, key), v, 0, limit, required=False)
                total += len(v) if isinstance(v, str) else 0
        _url(errs, (*p, "url"), e.get("url"), attachment_ok=False)
        color = e.get("color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            errs.add((*p, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.add((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            fp = (*p, "fields", j)
            for key, limit in (("name", 256), ("value", 1024)):
                v = (f or {}).get(key)
                if v is None or v == "":
                    errs.add((*fp, key), "BASE_TYPE_REQUIRED", "This field is required")
                else:
                    _length(errs, (*fp, key), v, 0, limit, required=False)
                    total += len(v) if isinstance(v, str) else 0
        footer = e.get("footer")
        if isinstance(footer, dict):
            _length(errs, (*p, "footer", "text"), footer.get("text"), 1, 2048)
            total += len(footer.get("text") or "")
            _url(errs, (*p, "footer", "icon_url"), footer.get("icon_url"))
        author = e.get("author")
        if isinstance(author, dict):
            _length(errs, (*p, "author", "name"), author.get("name"), 1, 256)
            total += len(author.get("name") or "")
            _url(errs, (*p, "author", "icon_url"), author.get("icon_url"))
        for key in ("image", "thumbnail"):
            v = e.get(key)
            if isinstance(v, dict):
                if not v.get("url"):
                    errs.add((*p, key, "url"), "BASE_TYPE_REQUIRED", "This field is required")
                _url(errs, (*p, key, "url"), v.get("url"))
    if total > EMBED_TOTAL_MAX:
        errs.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


class _Ctx:
    def __init__(self, modal: bool = False):
        self.modal = modal
        self.custom_ids: set[str] = set()


def _custom_id(errs: FormErrors, comp: dict[str, Any], p: Path, ctx: _Ctx) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        errs.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _length(errs, (*p, "custom_id"), cid, 1, 100)
    if isinstance(cid, str):
        if cid in ctx.custom_ids:
            errs.add(
                (*p, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        ctx.custom_ids.add(cid)


def _select(errs: FormErrors, comp: dict[str, Any], p: Path, ctx: _Ctx) -> None:
    _custom_id(errs, comp, p, ctx)
    if comp.get("placeholder") is not None:
        _length(errs, (*p, "placeholder"), comp.get("placeholder"), 0, 150, required=False)
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not isinstance(lo, int) or not 0 <= lo <= 25:
        errs.add((*p, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 0.")
    if not isinstance(hi, int) or not 1 <= hi <= 25:
        errs.add((*p, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
    if comp.get("type") != 3:
        return
    options = comp.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= 25:
        errs.add((*p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
        options = options if isinstance(options, list) else []
    values: set[Any] = set()
    for k, o in enumerate(options):
        op = (*p, "options", k)
        _length(errs, (*op, "label"), (o or {}).get("label"), 1, 100)
        _length(errs, (*op, "value"), (o or {}).get("value"), 1, 100)
        if (o or {}).get("description") is not None:
            _length(errs, (*op, "description"), o.get("description"), 0, 100, required=False)
        if (o or {}).get("value") in values:
            errs.add(
                (*op, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option values cannot be duplicated",
            )
        values.add((o or {}).get("value"))
    if isinstance(hi, int) and options and hi > len(options):
        errs.add(
            (*p, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values must be less than or equal to the number of options",
        )


def _component(errs: FormErrors, comp: dict[str, Any], p: Path, ctx: _Ctx) -> None:
    t = comp.get("type")
    if t == 1:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 5:
            errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        width = 0
        for j, child in enumerate(children):
            cp = (*p, "components", j)
            ct = (child or {}).get("type")
            allowed = (3, 4, 5, 6, 7, 8) if ctx.modal else (2, 3, 5, 6, 7, 8)
            if ct not in allowed:
                errs.add(
                    (*cp, "type"), "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {allowed}.'
                )
                continue
            width += 1 if ct == 2 else 5
            _component(errs, child, cp, ctx)
        if width > 5:
            errs.add(
                (*p, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    elif t == 2:
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            errs.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        if comp.get("label") is not None:
            _length(errs, (*p, "label"), comp.get("label"), 0, 80, required=False)
        if style == 5:
            if not comp.get("url"):
                errs.add((*p, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A URL is required for link buttons")
            _url(errs, (*p, "url"), comp.get("url"), attachment_ok=False)
            if comp.get("custom_id") is not None:
                errs.add(
                    (*p, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "Link buttons cannot have a custom_id",
                )
        elif style in (1, 2, 3, 4):
            _custom_id(errs, comp, p, ctx)
        if style != 6 and not comp.get("label") and not comp.get("emoji"):
            errs.add(p, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
    elif t in (3, 5, 6, 7, 8):
        _select(errs, comp, p, ctx)
    elif t == 4:
        if not ctx.modal:
            errs.add((*p, "type"), "UNION_TYPE_CHOICES", "Text inputs are only allowed in modals")
            return
        _custom_id(errs, comp, p, ctx)
        if comp.get("style") not in (1, 2):
            errs.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        if comp.get("label") is not None:
            _length(errs, (*p, "label"), comp.get("label"), 1, 45)
        for key, lo, hi in (("min_length", 0, 4000), ("max_length", 1, 4000)):
            v = comp.get(key)
            if v is not None and (not isinstance(v, int) or not lo <= v <= hi):
                errs.add((*p, key), "NUMBER_TYPE_MAX", f"int value should be <= {hi} and >= {lo}.")
        if comp.get("placeholder") is not None:
            _length(errs, (*p, "placeholder"), comp.get("placeholder"), 0, 100, required=False)
        if comp.get("value") is not None:
            _length(errs, (*p, "value"), comp.get("value"), 0, 4000, required=False)
    elif t in (9, 17):  # section / container (components v2)
        for j, child in enumerate(comp.get("components") or []):
            _component(errs, child or {}, (*p, "components", j), ctx)
        if isinstance(comp.get("accessory"), dict):
            _component(errs, comp["accessory"], (*p, "accessory"), ctx)
    elif t == 18:  # label (modals)
        _length(errs, (*p, "label"), comp.get("label"), 1, 45)
        if isinstance(comp.get("component"), dict):
            _component(errs, comp["component"], (*p, "component"), ctx)
    elif t in (10, 11, 12, 13, 14, 19, 21, 22, 23):
        if t in (19, 21, 22, 23):
            _custom_id(errs, comp, p, ctx)
    else:
        errs.add((*p, "type"), "UNION_TYPE_CHOICES", f"Unknown component type {t!r}")


def validate_components(errs: FormErrors, components: Any, *, v2: bool = False) -> None:
    if components is None:
        return
    if not isinstance(components, list):
        errs.add(("components",), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if not v2 and len(components) > 5:
        errs.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    ctx = _Ctx()
    for i, comp in enumerate(components):
        p = ("components", i)
        if not isinstance(comp, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        if not v2 and comp.get("type") != 1:
            errs.add((*p, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
            continue
        _component(errs, comp, p, ctx)


def validate_allowed_mentions(errs: FormErrors, am: Any) -> None:
    if am is None:
        return
    if not isinstance(am, dict):
        errs.add(("allowed_mentions",), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    parse = am.get("parse") or []
    for i, v in enumerate(parse):
        if v not in ("users", "roles", "everyone"):
            errs.add(
                ("allowed_mentions", "parse", i),
                "BASE_TYPE_CHOICES",
                "Value must be one of ('roles', 'users', 'everyone').",
            )
    for key in ("users", "roles"):
        if key in parse and am.get(key):
            errs.add(
                ("allowed_mentions",),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids...] are mutually exclusive.',
            )
        if len(am.get(key) or []) > 100:
            errs.add(("allowed_mentions", key), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def validate_message(
    payload: dict[str, Any], *, n_files: int, creating: bool, keeps_attachments: bool = False
) -> None:
    """A create (``creating``) or edit body. Empty messages: 50006."""
    errs = FormErrors()
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errs.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > CONTENT_MAX:
            errs.add(("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT_MAX} or fewer in length.")
    validate_embeds(errs, payload.get("embeds"))
    flags = payload.get("flags") or 0
    v2 = bool(isinstance(flags, int) and flags & (1 << 15))
    validate_components(errs, payload.get("components"), v2=v2)
    validate_allowed_mentions(errs, payload.get("allowed_mentions"))
    attachments = payload.get("attachments")
    if isinstance(attachments, list) and len(attachments) > FILES_MAX:
        errs.add(("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length.")
    if n_files > FILES_MAX:
        errs.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length.")
    nonce = payload.get("nonce")
    if isinstance(nonce, str) and len(nonce) > 25:
        errs.add(("nonce",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    errs.raise_if_any()
    if creating:
        has_body = (
            bool(content)
            or bool(payload.get("embeds"))
            or bool(payload.get("components"))
            or n_files > 0
            or bool(payload.get("sticker_ids"))
            or bool(payload.get("poll"))
            or keeps_attachments
        )
        if not has_body:
            raise APIError(400, 50006, "Cannot send an empty message")


def validate_modal(data: Any) -> None:
    errs = FormErrors()
    if not isinstance(data, dict):
        data = {}
    _length(errs, ("data", "title"), data.get("title"), 1, 45)
    _length(errs, ("data", "custom_id"), data.get("custom_id"), 1, 100)
    comps = data.get("components")
    if not isinstance(comps, list) or not 1 <= len(comps) <= 5:
        errs.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        comps = comps if isinstance(comps, list) else []
    ctx = _Ctx(modal=True)
    for i, comp in enumerate(comps):
        p = ("data", "components", i)
        t = (comp or {}).get("type")
        if t not in (1, 10, 18):
            errs.add((*p, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1, 10, 18).')
            continue
        if t == 1:
            children = comp.get("components") or []
            if len(children) != 1:
                errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1 in length.")
            for j, child in enumerate(children):
                if (child or {}).get("type") == 4:
                    _length(errs, (*p, "components", j, "label"), child.get("label"), 1, 45)
        _component(errs, comp, p, ctx)
    errs.raise_if_any()


def validate_choices(data: Any) -> None:
    errs = FormErrors()
    choices = (data or {}).get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        errs.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        errs.raise_if_any()
        return
    if len(choices) > 25:
        errs.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, ch in enumerate(choices):
        p = ("data", "choices", i)
        _length(errs, (*p, "name"), (ch or {}).get("name"), 1, 100)
        v = (ch or {}).get("value")
        if isinstance(v, str):
            _length(errs, (*p, "value"), v, 1, 100)
        elif not isinstance(v, (int, float)) or isinstance(v, bool):
            errs.add((*p, "value"), "BASE_TYPE_REQUIRED", "This field is required")
    errs.raise_if_any()


# ---------------------------------------------------------------------------------------------------
# mentions
# ---------------------------------------------------------------------------------------------------

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")


def resolve_mentions(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    known_users: Iterable[int],
    roles: dict[int, bool],
    can_mention_everyone: bool,
    reply_author: int | None = None,
) -> tuple[list[int], list[int], bool]:
    """Who a message pings, Discord's rule.

    Without ``allowed_mentions`` every user mention in the content pings, roles ping if they are
    mentionable (or the author may mention everyone), ``@everyone``/``@here`` ping if the author has
    MENTION_EVERYONE, and a reply pings the replied-to author. With ``allowed_mentions``, ``parse``
    lists the kinds parsed from the content, ``users``/``roles`` whitelist ids (only those also
    mentioned in the content ping), and ``replied_user`` (default false) decides the reply ping.

    ``roles`` maps role id -> mentionable. Returns (user ids, role ids, everyone).
    """
    content = content or ""
    known = set(known_users)
    mentioned_users = list(dict.fromkeys(int(u) for u in _USER.findall(content)))
    mentioned_roles = list(dict.fromkeys(int(r) for r in _ROLE.findall(content)))
    everyone_text = "@everyone" in content or "@here" in content
    if allowed is None:
        ok_users: set[int] | None = None
        ok_roles: set[int] | None = None
        ok_everyone = True
        replied = True
    else:
        parse = set(allowed.get("parse") or [])
        ok_users = None if "users" in parse else {int(u) for u in allowed.get("users") or []}
        ok_roles = None if "roles" in parse else {int(r) for r in allowed.get("roles") or []}
        ok_everyone = "everyone" in parse
        replied = bool(allowed.get("replied_user", False))
    users = [u for u in mentioned_users if u in known and (ok_users is None or u in ok_users)]
    if reply_author is not None and replied and reply_author not in users:
        users.append(reply_author)
    out_roles = [
        r
        for r in mentioned_roles
        if r in roles and (ok_roles is None or r in ok_roles) and (roles[r] or can_mention_everyone)
    ]
    everyone = everyone_text and ok_everyone and can_mention_everyone
    return users, out_roles, everyone
