"""The product's imports point one way: ``cogs/`` -> ``bot/`` (app, matches, storage...) -> ``bot/games/``.

Nothing under ``bot/`` imports ``cogs/`` (not even inside a function or under ``TYPE_CHECKING``: the
client reaches the cogs only through what they register, ``bot.game_cogs`` and ``add_dynamic_items``),
no module of ``bot/`` or ``cogs/`` is part of an import cycle (counting ``TYPE_CHECKING`` imports too),
and no file under ``cogs/`` is longer than 600 lines. ``tests/games/test_layout.py`` holds the engines
to the same.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600

STORAGE_FACTORY = {("bot.storage", "bot.storage.sqlite"), ("bot.storage", "bot.storage.postgres"),
                   ("bot.storage", "bot.storage.tournaments")}
"""Known, and not this test's part: ``bot/storage/__init__.py`` picks its backend inside ``open_store``-style
functions and names tournament records under TYPE_CHECKING, while the backends import the protocol from it.
Issue 18's storage split (another part) removes these; delete an edge here once it is gone."""


def _name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _modules() -> dict[str, set[str]]:
    """Module name -> the product modules it imports (anywhere in the file), for ``bot`` and ``cogs``."""
    paths = {_name(p): p for top in ("bot", "cogs") for p in sorted((ROOT / top).rglob("*.py"))}
    out: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    up = ".".join(parts[:len(parts) - node.level + 1])
                    base = f"{up}.{base}" if base else up
                for alias in node.names:  # "from bot import metrics" imports the module bot.metrics
                    sub = f"{base}.{alias.name}"
                    deps.add(sub if sub in paths else base)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        out[name] = {d for d in deps if d in paths and d != name}
    return out


def test_the_module_walk_sees_the_product() -> None:
    mods = _modules()
    assert {"bot.app", "bot.components", "bot.replies", "bot.turns", "cogs._game", "cogs.errors"} <= set(mods)
    assert "bot.app" in mods["cogs._views"] or "bot.components" in mods["cogs._views"]
    assert "bot.matches.service" in mods["bot.app"]


def test_nothing_under_bot_imports_cogs() -> None:
    wrong = sorted(f"{name} imports {dep}" for name, deps in _modules().items() if name.startswith("bot")
                   for dep in deps if dep.split(".")[0] == "cogs")
    assert wrong == []


def test_no_import_cycles_in_the_product() -> None:
    graph = {
        name: sorted(d for d in deps if (name, d) not in STORAGE_FACTORY) for name, deps in _modules().items()
    }
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], node, nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [])
    assert cycles == []


def test_no_cogs_file_over_600_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "cogs").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_client_runs_without_importing_cogs() -> None:
    """At run time too: building the client and its platform pieces loads no module of ``cogs``."""
    import subprocess
    import sys

    code = ("import sys, bot.app, bot.components, bot.replies, bot.turns, bot.__main__; "
            "print(sorted(m for m in sys.modules if m == 'cogs' or m.startswith('cogs.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
