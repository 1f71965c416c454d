"""Every text a user can read is marked for translation: an AST scan of bot/ and cogs/.

A string literal (or f-string) that reads like words is *unmarked* unless it is:
- an argument of ``_``, ``N_``, ``ngettext``, ``pgettext``, ``npgettext`` (the marked ones);
- a docstring, an ``assert``, a comparison operand, a subscript, a dictionary key, ``__all__``;
- given to a log, ``warnings``, ``print`` (operator output), ``re``, ``struct``, a metric's help;
- the message of an exception users never read (``RuntimeError``, ``ValueError``, ``TypeError``, ...);
- a slash command's description, option or choice (``app_commands.command/describe/Choice``, a cog's
  ``group_description``): those are the commands catalog, extracted from the command tree;
- SQL, or in a file or area that is not extracted (``bot.i18n.areas.NOT_EXTRACTED``);
- on a line ending ``# not translated: <why>`` (notation, identifiers, Discord's own words).

``python -m tests.i18n.scan [paths]`` lists what it finds; the test fails on any.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKERS = {"_", "N_", "ngettext", "pgettext", "npgettext"}
QUIET_CALLS = {
    "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print", "compile",
    "match", "fullmatch", "search", "sub", "findall", "split", "finditer", "pack", "unpack", "Struct",
    "getLogger", "Counter", "Gauge", "Histogram", "Summary", "Info", "Enum", "getenv", "get", "setdefault",
    "startswith", "endswith", "execute", "executemany", "fetch", "fetchrow", "fetchval", "fetchall",
    "fetchone", "strftime", "strptime", "TypeVar", "ContextVar", "create_task", "namedtuple", "cast",
    "partition", "rpartition", "replace", "strip", "rstrip", "lstrip", "encode", "decode", "join",
    "read_text", "open", "files", "joinpath", "environ", "pop", "Path", "format_exc", "attrgetter",
}
QUIET_EXCEPTIONS = {
    "RuntimeError", "ValueError", "TypeError", "KeyError", "AssertionError", "NotImplementedError",
    "AttributeError", "IndexError", "SystemExit", "StorageError", "ConfigError", "LookupError",
    "OSError", "ImportError", "StopIteration", "ZeroDivisionError", "ArithmeticError",
}
SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|WITH|ALTER|DROP|PRAGMA|BEGIN|ON CONFLICT|FROM|"
                 r"WHERE|AND|OR|ORDER|LIMIT|VALUES|SET|JOIN|LEFT|GROUP)\b")
WORDS = re.compile(r"[A-Za-z]{2,}[^\n{}]*?\s[A-Za-z]{2,}")
KWARGS = {"label", "placeholder", "title", "description", "content", "value", "text", "name", "footer",
          "reason", "default", "header", "caption", "alt", "message"}
OPT_OUT = "# not translated"


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


class Finder(ast.NodeVisitor):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.found: list[tuple[int, str]] = []
        self.quiet = 0

    def _quiet(self, node: ast.AST) -> None:
        self.quiet += 1
        self.generic_visit(node)
        self.quiet -= 1

    def visit_Expr(self, node: ast.Expr) -> None:  # docstrings and bare strings
        if _text(node.value) is not None:
            return
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        return

    def visit_Compare(self, node: ast.Compare) -> None:
        return

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.visit(node.value)

    def visit_Dict(self, node: ast.Dict) -> None:
        for v in node.values:
            self.visit(v)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and _name(exc.func) in QUIET_EXCEPTIONS:
            return
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for n in (*node.bases, *node.decorator_list, *node.body):  # not its keywords: group_description=
            self.visit(n)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        if name in MARKERS:
            return
        # a slash command's texts: the commands catalog, read from the command tree (bot/i18n/cli.py)
        if name == "Choice" or (isinstance(node.func, ast.Attribute)
                                and _name(node.func.value) == "app_commands"):
            return
        if name in QUIET_CALLS or (isinstance(node.func, ast.Attribute) and _name(node.func.value) in
                                   {"log", "logger", "logging", "warnings", "re", "struct", "os", "sys"}):
            return
        if name in QUIET_EXCEPTIONS:
            return
        for kw in node.keywords:  # a one-word label, title or placeholder is read too
            text = _text(kw.value)
            if kw.arg in KWARGS and text and re.fullmatch(r"[A-Z][a-z]{2,}[.!?…]?", text):
                line = self.lines[kw.value.lineno - 1]
                if OPT_OUT not in line:
                    self.found.append((kw.value.lineno, text))
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._check(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        self._check(node)

    def _check(self, node: ast.expr) -> None:
        text = _text(node)
        if text is None or self.quiet:
            return
        if not WORDS.search(text) or SQL.match(text):
            return
        line = self.lines[node.lineno - 1] if node.lineno - 1 < len(self.lines) else ""
        end = self.lines[(node.end_lineno or node.lineno) - 1]
        if OPT_OUT in line or OPT_OUT in end:
            return
        self.found.append((node.lineno, text))


def scan_file(path: Path) -> Iterator[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    finder = Finder(source.splitlines())
    finder.visit(ast.parse(source))
    yield from finder.found


def unmarked(paths: list[Path] | None = None) -> list[str]:
    from bot.i18n.areas import area_of

    out = []
    files = paths or [p for top in ("bot", "cogs") for p in sorted((ROOT / top).rglob("*.py"))]
    for path in files:
        path = path.resolve()
        rel = path.relative_to(ROOT).as_posix()
        if area_of(rel) is None:
            continue
        for line, text in scan_file(path):
            out.append(f"{rel}:{line}: {text[:100]!r}")
    return out


if __name__ == "__main__":
    targets = [Path(a) for a in sys.argv[1:]]
    expanded = [f for t in targets for f in ([t] if t.is_file() else sorted(t.rglob("*.py")))]
    found = unmarked(expanded or None)
    print("\n".join(found))
    print(f"{len(found)} unmarked", file=sys.stderr)


def shadowing(paths: list[Path] | None = None) -> list[str]:
    """Modules that call ``_(...)`` and also bind the name ``_`` (``for _ in``, ``a, _ = ...``): there the
    throwaway would replace the translation function (use ``_i`` or ``__`` instead)."""
    out = []
    files = paths or [p for top in ("bot", "cogs") for p in sorted((ROOT / top).rglob("*.py"))]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                    for n in ast.walk(tree))
        if not calls:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store):
                out.append(f"{path.relative_to(ROOT).as_posix()}:{n.lineno}: binds _")
            if isinstance(n, ast.arg) and n.arg == "_":
                out.append(f"{path.relative_to(ROOT).as_posix()}:{n.lineno}: parameter _")
    return out
