"""``python -m bot i18n extract|update|compile|check``: the catalogs' life cycle.

- ``extract``: every marked text of the code (``_``, ``N_``, ``ngettext``, ``pgettext``, ``npgettext``) and
  every slash command's texts, into ``bot/locales/templates/<area>.pot``.
- ``update``: merge the templates into each language's ``<area>.po`` (new texts empty, gone ones dropped).
- ``compile``: ``.po`` → ``.mo`` (the package build runs this: see ``setup.py``).
- ``check``: each language complete (no empty or fuzzy text), placeholders equal to the English, command
  names valid; exit 1 with the list otherwise.
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n.areas import COMMANDS, all_areas, area_of
from bot.i18n.commands import COMMAND_CONTEXT, valid

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "locales"
TEMPLATES = LOCALES / "templates"
TRANSLATED = ("es", "pt_BR")
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
STAMP = datetime(2026, 11, 26, tzinfo=UTC)  # fixed: regenerating a template changes only its texts
PLURAL_FORMS = {"es": (2, "(n != 1)"), "pt_BR": (2, "(n > 1)")}
"""gettext's two forms (one/other; Brazilian Portuguese counts 0 as one), not CLDR's third "many" form for
round millions: no count in Parlor comes near it, and translators fill in two forms."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def sources() -> Iterator[Path]:
    for top in ("bot", "cogs"):
        yield from sorted((ROOT / top).rglob("*.py"))


def code_messages() -> dict[str, list[tuple[str, int, object, str | None]]]:
    """Per area: (file, line, message, context) of every marked text."""
    out: dict[str, list[tuple[str, int, object, str | None]]] = {}
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        area = area_of(rel)
        if area is None:
            continue
        for line, message, _comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            out.setdefault(area, []).append((rel, line, message, context))
    return out


async def _command_tree() -> list[tuple[str, str]]:
    """(text, kind) of every slash command's name, description, option and choice (kind: name/description)."""
    from discord import app_commands

    from bot.app import EXTENSIONS, ParlorBot
    from bot.config import Config
    from bot.storage import open_store

    bot = ParlorBot(Config(token="x"), open_store("sqlite:///:memory:"), sync_commands=False)
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    out: list[tuple[str, str]] = []
    for cmd in bot.tree.walk_commands():  # names stay English (bot/i18n/commands.py)
        out.append((cmd.description, "description"))
        if isinstance(cmd, app_commands.Command):
            for p in cmd.parameters:
                out.append((p.description, "description"))
                out.extend((c.name, "description") for c in p.choices)
    await bot.close()
    return out


def command_messages() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for text, kind in asyncio.run(_command_tree()):
        if text and text != "…":
            seen.setdefault(text, kind)
    return sorted(seen.items())


def extract() -> None:
    TEMPLATES.mkdir(parents=True, exist_ok=True)
    per_area = code_messages()
    for area in all_areas():
        cat = Catalog(project="Parlor", domain=area, charset="utf-8", copyright_holder="the Parlor authors",
                      creation_date=STAMP, revision_date=STAMP)
        if area == COMMANDS:
            for text, kind in command_messages():
                cat.add(text, context=COMMAND_CONTEXT, auto_comments=[f"slash command {kind}"
                        + (": lower case, no spaces, at most 32 characters" if kind == "name"
                           else ": at most 100 characters")])
        for rel, line, message, context in per_area.get(area, []):
            cat.add(message, locations=[(rel, line)], context=context)  # type: ignore[arg-type]
        with (TEMPLATES / f"{area}.pot").open("wb") as f:
            write_po(f, cat, width=110, omit_header=False, sort_output=False, include_lineno=False)
    print(f"extracted {sum(len(v) for v in per_area.values())} texts into {TEMPLATES.relative_to(ROOT)}")


def _po_path(lang: str, area: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{area}.po"


def update(langs: Iterable[str] = TRANSLATED) -> None:
    for lang in langs:
        for area in all_areas():
            pot = TEMPLATES / f"{area}.pot"
            if not pot.exists():
                continue
            with pot.open("rb") as f:
                template = read_po(f)
            path = _po_path(lang, area)
            if path.exists():
                with path.open("rb") as f:
                    cat = read_po(f, locale=lang)
            else:
                cat = Catalog(locale=lang, domain=area, project="Parlor", charset="utf-8",
                              copyright_holder="the Parlor authors", creation_date=STAMP, revision_date=STAMP)
            cat.update(template, no_fuzzy_matching=True)
            cat.obsolete.clear()
            nplurals, expr = PLURAL_FORMS[lang]
            cat._num_plurals, cat._plural_expr = nplurals, expr  # type: ignore[assignment]
            for m in cat:
                if m.id and isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list):
                    m.string = tuple((list(m.string) + [""] * nplurals)[:nplurals])
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, cat, width=110, include_lineno=False)
    print("updated", ", ".join(langs))


def compile_all(root: Path = LOCALES) -> int:
    n = 0
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            cat = read_po(f, locale=po.parts[-3])
        buf = io.BytesIO()
        write_mo(buf, cat, use_fuzzy=False)
        po.with_suffix(".mo").write_bytes(buf.getvalue())
        n += 1
    return n


def problems(langs: Iterable[str] = TRANSLATED) -> list[str]:
    out: list[str] = []
    for lang in langs:
        said: dict[tuple[str | None, str], dict[str, tuple[str, ...]]] = {}
        for area in all_areas():
            pot = TEMPLATES / f"{area}.pot"
            path = _po_path(lang, area)
            if not pot.exists():
                continue
            if not path.exists():
                out.append(f"{lang}/{area}.po: missing")
                continue
            with pot.open("rb") as f:
                template = read_po(f)
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
            for t in template:
                if not t.id:
                    continue
                m = cat.get(t.id, context=t.context)
                label = f"{lang}/{area}.po: {t.id if isinstance(t.id, str) else t.id[0]!r}"
                raw = () if m is None else m.string
                strings = [str(x) for x in raw] if isinstance(raw, tuple | list) else [str(raw or "")]
                if m is None or m.fuzzy or not all(strings):
                    out.append(f"{label}: not translated")
                    continue
                english = t.id if isinstance(t.id, str) else t.id[1]
                want = set(PLACEHOLDER.findall(english)) - {"{n}"}
                for s in strings:
                    got = set(PLACEHOLDER.findall(s)) - {"{n}"}
                    if got != want:
                        out.append(f"{label}: placeholders {sorted(got)} != {sorted(want)}")
                if area == COMMANDS and not valid("description", strings[0]):
                    out.append(f"{label}: longer than Discord's 100 characters: {strings[0]!r}")
                key = (t.context, t.id if isinstance(t.id, str) else t.id[0])
                said.setdefault(key, {})[area] = tuple(strings)
        # one English text is one entry at run time (the areas are merged): its areas must agree
        for (_ctx, msgid), by_area in said.items():
            if len(set(by_area.values())) > 1:
                out.append(f"{lang}: {msgid!r} is translated differently in {', '.join(sorted(by_area))}")
    return out


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        extract()
    elif argv == ["update"]:
        update()
    elif argv == ["compile"]:
        print(f"compiled {compile_all()} catalogs")
    elif argv == ["check"]:
        found = problems()
        for p in found:
            print(p)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    else:
        print("usage: python -m bot i18n extract|update|compile|check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
