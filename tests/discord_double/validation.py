"""Discord's payload rules, the one copy both Discord doubles use (the in-process double's REST
handlers and the loopback server's). Each ``validate_*`` raises :class:`~.errors.APIError` (400 / 50035
"Invalid Form Body" with the nested ``errors`` object, or the specific code) like Discord does.

Covered: application commands (bulk overwrite and single: names, descriptions, localizations, option
rules, sizes, the 100 / 15 command limits), message create/edit (content, embeds, components legacy and
v2, attachments, allowed_mentions, nonce), modals, autocomplete choices; and :func:`resolve_mentions`,
the rule deciding who a message pings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from .errors import APIError, FormErrors

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FILES_MAX = 10

Path = tuple[Any, ...]

# ---------------------------------------------------------------------------
# Application commands
# ---------------------------------------------------------------------------

OPTION_TYPES = {
    1: "SUB_COMMAND",
    2: "SUB_COMMAND_GROUP",
    3: "STRING",
    4: "INTEGER",
    5: "BOOLEAN",
    6: "USER",
    7: "CHANNEL",
    8: "ROLE",
    9: "MENTIONABLE",
    10: "NUMBER",
    11: "ATTACHMENT",
}
LOCALES = {
    "id",
    "da",
    "de",
    "en-GB",
    "en-US",
    "es-ES",
    "es-419",
    "fr",
    "hr",
    "it",
    "lt",
    "hu",
    "nl",
    "no",
    "pl",
    "pt-BR",
    "ro",
    "fi",
    "sv-SE",
    "vi",
    "tr",
    "cs",
    "el",
    "bg",
    "ru",
    "uk",
    "hi",
    "th",
    "zh-CN",
    "ja",
    "zh-TW",
    "ko",
}
MAX_SAFE_NUMBER = 2**53


def valid_command_name(name: Any) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    for ch in name:
        if ch in "-_'":
            continue
        cat = unicodedata.category(ch)
        if cat[0] in ("L", "N") or cat in ("Mn", "Mc"):  # letters, numbers, Devanagari/Thai marks
            if ch.lower() != ch:  # must be lowercase where a lowercase variant exists
                return False
            continue
        return False
    return True


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


def _check_localizations(errs: FormErrors, path: Path, locs: Any, lo: int, hi: int) -> int:
    total = 0
    if locs is None:
        return 0
    if not isinstance(locs, dict):
        errs.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return 0
    for key, value in locs.items():
        if key not in LOCALES:
            errs.add((*path, key), "LOCALE_INVALID", f"Invalid locale: {key}")
            continue
        if value is None:
            continue
        _length(errs, (*path, key), value, lo, hi)
        if isinstance(value, str):
            total = max(total, len(value))
    return total


def _command(errs: FormErrors, cmd: dict[str, Any], path: Path = ()) -> None:
    """One application command payload (as sent by discord.py's tree.sync)."""
    ctype = cmd.get("type", 1)
    if ctype not in (1, 2, 3, 4):
        errs.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        return
    name = cmd.get("name")
    if ctype == 1:
        if not valid_command_name(name):
            errs.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        desc = cmd.get("description")
        _length(errs, (*path, "description"), desc, 1, 100)
    else:
        _length(errs, (*path, "name"), name, 1, 32)
        if cmd.get("description") not in (None, ""):
            errs.add(
                (*path, "description"),
                "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                "Context menu commands cannot have description",
            )
        if cmd.get("options"):
            errs.add(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Context menu commands cannot have options",
            )
    _check_localizations(errs, (*path, "name_localizations"), cmd.get("name_localizations"), 1, 32)
    _check_localizations(
        errs,
        (*path, "description_localizations"),
        cmd.get("description_localizations"),
        1 if ctype == 1 else 0,
        100,
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
    itypes = cmd.get("integration_types")
    if itypes is not None and (not isinstance(itypes, list) or any(c not in (0, 1) for c in itypes)):
        errs.add((*path, "integration_types"), "BASE_TYPE_CHOICES", "Value must be one of {0, 1}.")
    if ctype == 1:
        total = [len(name or "") + len(cmd.get("description") or "")]
        _validate_options(cmd.get("options") or [], errs, (*path, "options"), depth=0, total=total)
        if total[0] > 4000:
            errs.add(path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")


def _validate_options(options: Any, errs: FormErrors, path: Path, *, depth: int, total: list[int]) -> None:
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
        if otype not in OPTION_TYPES:
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
        _check_localizations(errs, (*p, "name_localizations"), opt.get("name_localizations"), 1, 32)
        _check_localizations(
            errs, (*p, "description_localizations"), opt.get("description_localizations"), 1, 100
        )
        total[0] += len(name or "") + len(opt.get("description") or "")
        kinds.add("sub" if otype in (1, 2) else "value")
        if otype in (1, 2):
            if opt.get("required"):
                errs.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTION_REQUIRED_INVALID_TYPE",
                    "Subcommands and subcommand groups cannot be required",
                )
            if otype == 2:
                if depth != 0:
                    errs.add(
                        (*p, "type"),
                        "APPLICATION_COMMAND_SUBCOMMAND_GROUP_NESTED",
                        "Subcommand groups can only be at the top level",
                    )
                subs = opt.get("options") or []
                if not subs:
                    errs.add((*p, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
                for j, sub in enumerate(subs):
                    if isinstance(sub, dict) and sub.get("type") != 1:
                        errs.add(
                            (*p, "options", j, "type"),
                            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                            "Subcommand groups can only contain subcommands",
                        )
                _validate_options(subs, errs, (*p, "options"), depth=depth + 1, total=total)
            else:
                if depth > 1:
                    errs.add(
                        (*p, "type"), "APPLICATION_COMMAND_SUBCOMMAND_NESTED", "Subcommands nested too deeply"
                    )
                subs = opt.get("options") or []
                for j, sub in enumerate(subs):
                    if isinstance(sub, dict) and sub.get("type") in (1, 2):
                        errs.add(
                            (*p, "options", j, "type"),
                            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                            "Subcommands cannot contain subcommands",
                        )
                _validate_options(
                    [s for s in subs if not (isinstance(s, dict) and s.get("type") in (1, 2))],
                    errs,
                    (*p, "options"),
                    depth=depth + 1,
                    total=total,
                )
            continue
        # value options
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
                errs.add((*p, "choices"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
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
                if not isinstance(ch, dict):
                    errs.add(cp, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
                    continue
                _length(errs, (*cp, "name"), ch.get("name"), 1, 100)
                _check_localizations(errs, (*cp, "name_localizations"), ch.get("name_localizations"), 1, 100)
                _check_choice_value(errs, (*cp, "value"), otype, ch.get("value"))
                total[0] += len(str(ch.get("name") or "")) + len(str(ch.get("value") or ""))
        if opt.get("autocomplete") and otype not in (3, 4, 10):
            errs.add(
                (*p, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_TYPE_INVALID",
                "Autocomplete is only allowed for STRING, INTEGER and NUMBER options",
            )
        for key in ("min_value", "max_value"):
            if key in opt and opt[key] is not None:
                if otype not in (4, 10):
                    errs.add(
                        (*p, key),
                        "APPLICATION_COMMAND_OPTION_MIN_MAX_TYPE_INVALID",
                        f"{key} is only allowed for INTEGER and NUMBER options",
                    )
                elif (
                    not isinstance(opt[key], (int, float))
                    or isinstance(opt[key], bool)
                    or abs(opt[key]) > MAX_SAFE_NUMBER
                ):
                    errs.add(
                        (*p, key),
                        "NUMBER_TYPE_MAX",
                        f"Value must be between {-MAX_SAFE_NUMBER} and {MAX_SAFE_NUMBER}.",
                    )
        if opt.get("min_value") is not None and opt.get("max_value") is not None:
            try:
                if opt["min_value"] > opt["max_value"]:
                    errs.add(
                        (*p, "min_value"),
                        "APPLICATION_COMMAND_OPTION_MIN_GREATER_THAN_MAX",
                        "min_value must be less than or equal to max_value",
                    )
            except TypeError:
                pass
        for key in ("min_length", "max_length"):
            if key in opt and opt[key] is not None:
                if otype != 3:
                    errs.add(
                        (*p, key),
                        "APPLICATION_COMMAND_OPTION_LENGTH_TYPE_INVALID",
                        f"{key} is only allowed for STRING options",
                    )
                elif (
                    not isinstance(opt[key], int) or not (0 if key == "min_length" else 1) <= opt[key] <= 6000
                ):
                    errs.add((*p, key), "NUMBER_TYPE_MAX", "Value must be between 0 and 6000.")
        if opt.get("channel_types") is not None and otype != 7:
            errs.add(
                (*p, "channel_types"),
                "APPLICATION_COMMAND_OPTION_CHANNEL_TYPES_INVALID",
                "channel_types is only allowed for CHANNEL options",
            )
    if kinds == {"sub", "value"}:
        errs.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )


def _check_choice_value(errs: FormErrors, path: Path, otype: int, value: Any) -> None:
    if otype == 3:
        _length(errs, path, value, 1, 100)
    elif otype == 4:
        if not isinstance(value, int) or isinstance(value, bool):
            errs.add(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        elif abs(value) > MAX_SAFE_NUMBER:
            errs.add(
                path, "NUMBER_TYPE_MAX", f"Value must be between {-MAX_SAFE_NUMBER} and {MAX_SAFE_NUMBER}."
            )
    elif otype == 10 and (not isinstance(value, (int, float)) or isinstance(value, bool)):
        errs.add(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not a valid number.')


def validate_commands(commands: Any) -> None:
    """A bulk-overwrite body (``PUT .../commands``)."""
    errs = FormErrors()
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
    counts = {1: 0, 2: 0, 3: 0, 4: 0}
    seen: dict[tuple[Any, Any], int] = {}
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errs.add((i,), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        _command(errs, cmd, (i,))
        t = cmd.get("type", 1)
        counts[t] = counts.get(t, 0) + 1
        key = (t, cmd.get("name"))
        if key in seen:
            errs.add(
                (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
            )
        seen[key] = i
    errs.raise_if_any()
    if counts.get(1, 0) > 100:
        raise APIError(400, 30032, "Maximum number of application commands reached (100)")
    if counts.get(2, 0) > 15 or counts.get(3, 0) > 15:
        raise APIError(400, 30032, "Maximum number of context menu commands reached (15)")


def validate_command(cmd: Any) -> None:
    errs = FormErrors()
    if not isinstance(cmd, dict):
        raise APIError(
            400,
            50035,
            "Invalid Form Body",
            {
                "_errors": [
                    {"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries may be used in a DictType"}
                ]
            },
        )
    _command(errs, cmd, ())
    errs.raise_if_any()


# ---------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------

_URL_SCHEMES = ("http://", "https://", "attachment://")


def _check_url(errs: FormErrors, path: Path, url: Any, allow_attachment: bool = True) -> None:
    if url is None:
        return
    if not isinstance(url, str):
        errs.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
        return
    schemes = _URL_SCHEMES if allow_attachment else _URL_SCHEMES[:2]
    if not url.startswith(schemes):
        scheme = url.split(":", 1)[0] if ":" in url else ""
        if scheme:
            errs.add(
                path,
                "URL_TYPE_INVALID_SCHEME",
                f"Scheme \"{scheme}\" is not supported. Scheme must be one of ('http', 'https').",
            )
        else:
            errs.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
    elif len(url) > 2048:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 2048 or fewer in length.")


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
        _check_url(errs, (*p, "url"), e.get("url"), allow_attachment=False)
        color = e.get("color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            errs.add((*p, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errs.add((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            fp = (*p, "fields", j)
            if not isinstance(f, dict):
                errs.add(fp, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
                continue
            name, value = f.get("name"), f.get("value")
            if name is None or name == "":
                errs.add((*fp, "name"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                _length(errs, (*fp, "name"), name, 0, 256, required=False)
                total += len(name) if isinstance(name, str) else 0
            if value is None or value == "":
                errs.add((*fp, "value"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                _length(errs, (*fp, "value"), value, 0, 1024, required=False)
                total += len(value) if isinstance(value, str) else 0
        footer = e.get("footer")
        if isinstance(footer, dict):
            _length(errs, (*p, "footer", "text"), footer.get("text"), 1, 2048)
            total += len(footer.get("text") or "")
            _check_url(errs, (*p, "footer", "icon_url"), footer.get("icon_url"))
        author = e.get("author")
        if isinstance(author, dict):
            _length(errs, (*p, "author", "name"), author.get("name"), 1, 256)
            total += len(author.get("name") or "")
            _check_url(errs, (*p, "author", "url"), author.get("url"), allow_attachment=False)
            _check_url(errs, (*p, "author", "icon_url"), author.get("icon_url"))
        for key in ("image", "thumbnail"):
            v = e.get(key)
            if isinstance(v, dict):
                if not v.get("url"):
                    errs.add((*p, key, "url"), "BASE_TYPE_REQUIRED", "This field is required")
                _check_url(errs, (*p, key, "url"), v.get("url"))
    if total > EMBED_TOTAL_MAX:
        errs.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


LEGACY_TOP = {1}
V2_TOP = {1, 9, 10, 12, 13, 14, 17}


class _ComponentCtx:
    def __init__(self, v2: bool, modal: bool = False):
        self.v2 = v2
        self.modal = modal
        self.custom_ids: set[str] = set()
        self.count = 0
        self.text_total = 0
        self.ids: set[int] = set()


def validate_components(
    errs: FormErrors, components: Any, *, v2: bool = False, path: Path = ("components",)
) -> None:
    """Validate message components (legacy action rows, or components v2 when the flag is set)."""
    if components is None:
        return
    if not isinstance(components, list):
        errs.add(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    ctx = _ComponentCtx(v2)
    if not v2 and len(components) > 5:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, comp in enumerate(components):
        p = (*path, i)
        if not isinstance(comp, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        allowed = V2_TOP if v2 else LEGACY_TOP
        if comp.get("type") not in allowed:
            if not v2 and comp.get("type") in V2_TOP:
                errs.add(
                    p,
                    "COMPONENT_V2_FLAG_REQUIRED",
                    "This component type requires the IS_COMPONENTS_V2 message flag",
                )
            else:
                errs.add(
                    (*p, "type"),
                    "UNION_TYPE_CHOICES",
                    f'Value of field "type" must be one of ({", ".join(str(t) for t in sorted(allowed))}).',
                )
            continue
        _validate_component(comp, errs, p, ctx)
    if v2:
        if ctx.count > 40:
            errs.add(
                path,
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                "The total number of components exceeds the maximum (40)",
            )
        if ctx.text_total > 4000:
            errs.add(
                path,
                "COMPONENT_MAX_TOTAL_TEXT_DISPLAY_LENGTH_EXCEEDED",
                "The total length of text displays exceeds the maximum (4000)",
            )


def _check_custom_id(comp: dict[str, Any], errs: FormErrors, p: Path, ctx: _ComponentCtx) -> None:
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


def _check_emoji(comp: dict[str, Any], errs: FormErrors, p: Path) -> None:
    emoji = comp.get("emoji")
    if emoji is None:
        return
    if not isinstance(emoji, dict) or not (emoji.get("id") or emoji.get("name")):
        errs.add((*p, "emoji"), "COMPONENT_INVALID_EMOJI", "Invalid emoji")


def _validate_component(
    comp: dict[str, Any], errs: FormErrors, p: Path, ctx: _ComponentCtx, parent: int | None = None
) -> None:
    ctx.count += 1
    t = comp.get("type")
    cid = comp.get("id")
    if cid is not None:
        if not isinstance(cid, int) or not 0 <= cid < 2**31:
            errs.add((*p, "id"), "NUMBER_TYPE_MAX", "Value must be a 32-bit integer")
        elif cid in ctx.ids:
            errs.add((*p, "id"), "COMPONENT_ID_DUPLICATED", "Component id cannot be duplicated")
        else:
            ctx.ids.add(cid)
    if t == 1:  # action row
        children = comp.get("components") or []
        if not children:
            errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            return
        if len(children) > 5:
            errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        width = 0
        for j, child in enumerate(children):
            cp = (*p, "components", j)
            if not isinstance(child, dict):
                errs.add(cp, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
                continue
            ct = child.get("type")
            if ctx.modal:
                if ct not in (3, 4, 5, 6, 7, 8):
                    errs.add(
                        (*cp, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (4,).'
                    )
                    continue
            elif ct not in (2, 3, 5, 6, 7, 8):
                errs.add(
                    (*cp, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
                )
                continue
            width += 1 if ct == 2 else 5
            _validate_component(child, errs, cp, ctx, parent=1)
        if width > 5:
            errs.add(
                (*p, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    elif t == 2:  # button
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            errs.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        label = comp.get("label")
        if label is not None:
            _length(errs, (*p, "label"), label, 0, 80, required=False)
        _check_emoji(comp, errs, p)
        if style == 5:
            if not comp.get("url"):
                errs.add((*p, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A URL is required for link buttons")
            else:
                _check_url(errs, (*p, "url"), comp.get("url"), allow_attachment=False)
            if comp.get("custom_id") is not None:
                errs.add(
                    (*p, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A custom id is not allowed for link buttons",
                )
        elif style == 6:
            if not comp.get("sku_id"):
                errs.add((*p, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            _check_custom_id(comp, errs, p, ctx)
            if comp.get("url") is not None:
                errs.add(
                    (*p, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "A URL is only allowed for link buttons"
                )
        if style in (1, 2, 3, 4, 5) and not label and not comp.get("emoji"):
            errs.add(p, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required")
    elif t in (3, 5, 6, 7, 8):  # selects
        _check_custom_id(comp, errs, p, ctx)
        placeholder = comp.get("placeholder")
        if placeholder is not None:
            _length(errs, (*p, "placeholder"), placeholder, 0, 150, required=False)
        min_v = comp.get("min_values", 1)
        max_v = comp.get("max_values", 1)
        if not isinstance(min_v, int) or not 0 <= min_v <= 25:
            errs.add((*p, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 0.")
        if not isinstance(max_v, int) or not 1 <= max_v <= 25:
            errs.add((*p, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25 and >= 1.")
        if isinstance(min_v, int) and isinstance(max_v, int) and min_v > max_v:
            errs.add(
                (*p, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
                "min_values must be less than or equal to max_values",
            )
        if t == 3:
            options = comp.get("options")
            if not isinstance(options, list) or not 1 <= len(options) <= 25:
                errs.add((*p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
                options = options if isinstance(options, list) else []
            values: set[Any] = set()
            defaults = 0
            for k, o in enumerate(options):
                op = (*p, "options", k)
                if not isinstance(o, dict):
                    errs.add(op, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
                    continue
                _length(errs, (*op, "label"), o.get("label"), 1, 100)
                _length(errs, (*op, "value"), o.get("value"), 1, 100)
                if o.get("description") is not None:
                    _length(errs, (*op, "description"), o.get("description"), 0, 100, required=False)
                _check_emoji(o, errs, op)
                if o.get("value") in values:
                    errs.add(
                        (*op, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select component option values cannot be duplicated",
                    )
                values.add(o.get("value"))
                defaults += 1 if o.get("default") else 0
            if isinstance(max_v, int) and options and max_v > len(options):
                errs.add(
                    (*p, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                    "max_values must be less than or equal to the number of options",
                )
            if isinstance(max_v, int) and defaults > max_v:
                errs.add(
                    (*p, "options"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                    "The number of default options exceeds max_values",
                )
        else:
            if comp.get("options"):
                errs.add(
                    (*p, "options"),
                    "SELECT_COMPONENT_OPTIONS_NOT_ALLOWED",
                    "Options are only allowed for string selects",
                )
            dv = comp.get("default_values") or []
            if isinstance(max_v, int) and len(dv) > max_v:
                errs.add(
                    (*p, "default_values"),
                    "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                    "The number of default values exceeds max_values",
                )
    elif t == 4:  # text input (modals only)
        if not ctx.modal:
            errs.add((*p, "type"), "UNION_TYPE_CHOICES", "Text inputs are only allowed in modals")
            return
        _check_custom_id(comp, errs, p, ctx)
        if comp.get("style") not in (1, 2):
            errs.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        if parent != 18:
            _length(errs, (*p, "label"), comp.get("label"), 1, 45)
        for key, lo, hi in (("min_length", 0, 4000), ("max_length", 1, 4000)):
            v = comp.get(key)
            if v is not None and (not isinstance(v, int) or not lo <= v <= hi):
                errs.add((*p, key), "NUMBER_TYPE_MAX", f"int value should be <= {hi} and >= {lo}.")
        if comp.get("placeholder") is not None:
            _length(errs, (*p, "placeholder"), comp.get("placeholder"), 0, 100, required=False)
        if comp.get("value") is not None:
            _length(errs, (*p, "value"), comp.get("value"), 0, 4000, required=False)
    elif t == 9:  # section
        children = comp.get("components") or []
        if not 1 <= len(children) <= 3:
            errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
        for j, child in enumerate(children):
            if not isinstance(child, dict) or child.get("type") != 10:
                errs.add(
                    (*p, "components", j, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (10,).',
                )
                continue
            _validate_component(child, errs, (*p, "components", j), ctx, parent=9)
        acc = comp.get("accessory")
        if not isinstance(acc, dict) or acc.get("type") not in (2, 11):
            errs.add((*p, "accessory"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (2, 11).')
        else:
            _validate_component(acc, errs, (*p, "accessory"), ctx, parent=9)
    elif t == 10:  # text display
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            errs.add((*p, "content"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            ctx.text_total += len(content)
    elif t == 11:  # thumbnail
        media = comp.get("media") or {}
        _check_url(errs, (*p, "media", "url"), media.get("url"))
        if not media.get("url"):
            errs.add((*p, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
    elif t == 12:  # media gallery
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            errs.add((*p, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
        for j, it in enumerate(items):
            media = (it or {}).get("media") or {}
            if not media.get("url"):
                errs.add((*p, "items", j, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                _check_url(errs, (*p, "items", j, "media", "url"), media.get("url"))
    elif t == 13:  # file
        f = comp.get("file") or {}
        url = f.get("url") or ""
        if not url.startswith("attachment://"):
            errs.add(
                (*p, "file", "url"),
                "COMPONENT_FILE_URL_INVALID",
                "File URLs must use the attachment:// scheme",
            )
    elif t == 14:  # separator
        if comp.get("spacing") not in (None, 1, 2):
            errs.add((*p, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    elif t == 17:  # container
        children = comp.get("components") or []
        if not children:
            errs.add((*p, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        for j, child in enumerate(children):
            if not isinstance(child, dict) or child.get("type") not in (1, 9, 10, 12, 13, 14):
                errs.add(
                    (*p, "components", j, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1, 9, 10, 12, 13, 14).',
                )
                continue
            _validate_component(child, errs, (*p, "components", j), ctx, parent=17)
        color = comp.get("accent_color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            errs.add((*p, "accent_color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0.")
    elif t == 18:  # label (modals)
        _length(errs, (*p, "label"), comp.get("label"), 1, 45)
        if comp.get("description") is not None:
            _length(errs, (*p, "description"), comp.get("description"), 0, 100, required=False)
        child = comp.get("component")
        if not isinstance(child, dict) or child.get("type") not in (3, 4, 5, 6, 7, 8, 19, 21, 22, 23):
            errs.add(
                (*p, "component"), "UNION_TYPE_CHOICES", 'Value of field "type" is not allowed in a label.'
            )
        else:
            _validate_component(child, errs, (*p, "component"), ctx, parent=18)
    elif t in (19, 21, 22, 23):  # file upload, radio group, checkbox group, checkbox
        _check_custom_id(comp, errs, p, ctx)
        if t in (21, 22):
            opts = comp.get("options") or []
            if not 1 <= len(opts) <= 10:
                errs.add((*p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
    else:
        errs.add((*p, "type"), "UNION_TYPE_CHOICES", f"Unknown component type {t!r}")


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
    if "users" in parse and am.get("users"):
        errs.add(
            ("allowed_mentions",),
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["users"] and users: [ids...] are mutually exclusive.',
        )
    if "roles" in parse and am.get("roles"):
        errs.add(
            ("allowed_mentions",),
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["roles"] and roles: [ids...] are mutually exclusive.',
        )
    for key in ("users", "roles"):
        if len(am.get(key) or []) > 100:
            errs.add(("allowed_mentions", key), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def validate_message(
    payload: dict[str, Any], *, n_files: int, creating: bool, keeps_attachments: bool = False
) -> None:
    """A create (``creating``) or edit body (content, embeds, components, flags, mentions, files).
    Empty messages: 50006 (``keeps_attachments``: an edit keeps uploaded files)."""
    errs = FormErrors()
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errs.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > CONTENT_MAX:
            errs.add(("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT_MAX} or fewer in length.")
    validate_embeds(errs, payload.get("embeds"))
    flags = payload.get("flags") or 0
    if not isinstance(flags, int):
        errs.add(("flags",), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
        flags = 0
    v2 = bool(flags & (1 << 15))
    validate_components(errs, payload.get("components"), v2=v2)
    if v2:
        for key in ("content", "embeds", "poll", "sticker_ids"):
            if payload.get(key):
                errs.add(
                    (key,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
    validate_allowed_mentions(errs, payload.get("allowed_mentions"))
    attachments = payload.get("attachments")
    if isinstance(attachments, list) and len(attachments) > FILES_MAX:
        errs.add(("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length.")
    for i, att in enumerate(attachments if isinstance(attachments, list) else []):
        desc = att.get("description") if isinstance(att, dict) else None
        if desc is not None:  # the alt text a screen reader announces: 1,024 characters at most
            _length(errs, ("attachments", i, "description"), desc, 0, 1024, required=False)
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
        raise APIError(
            400,
            50035,
            "Invalid Form Body",
            {
                "data": {
                    "_errors": [
                        {
                            "code": "DICT_TYPE_CONVERT",
                            "message": "Only dictionaries may be used in a DictType",
                        }
                    ]
                }
            },
        )
    _length(errs, ("data", "title"), data.get("title"), 1, 45)
    _length(errs, ("data", "custom_id"), data.get("custom_id"), 1, 100)
    comps = data.get("components")
    if not isinstance(comps, list) or not 1 <= len(comps) <= 5:
        errs.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        comps = comps if isinstance(comps, list) else []
    ctx = _ComponentCtx(v2=False, modal=True)
    for i, comp in enumerate(comps):
        p = ("data", "components", i)
        if not isinstance(comp, dict) or comp.get("type") not in (1, 10, 18):
            errs.add((*p, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1, 10, 18).')
            continue
        if comp.get("type") == 1 and len(comp.get("components") or []) != 1:
            errs.add((*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1 in length.")
        _validate_component(comp, errs, p, ctx)
    errs.raise_if_any()


def validate_choices(data: Any) -> None:
    errs = FormErrors()
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        errs.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        errs.raise_if_any()
        return
    if len(choices) > 25:
        errs.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, ch in enumerate(choices):
        p = ("data", "choices", i)
        if not isinstance(ch, dict):
            errs.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        _length(errs, (*p, "name"), ch.get("name"), 1, 100)
        v = ch.get("value")
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
