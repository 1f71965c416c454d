"""The product's shape: imports point one way (cogs/ -> bot/ -> bot/games/ -> bot/games/base, bot/render/),
no import cycle (imports inside functions and under TYPE_CHECKING count), and every product file stays
short enough to read. The one place these rules are checked."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs")

STILL_REACHING_UP: frozenset[tuple[str, str]] = frozenset()
"""Imports from bot/ into cogs/ tolerated for now: none (the Discord layer registers what the core needs).
A new one fails; an entry whose import is gone must be deleted."""

LOOKUP = ("bot.i18n", "bot.i18n.catalogs", "bot.i18n.pseudo", "bot.i18n.documents")
"""The translation look-up (issue #33): engines and pictures mark and look up their texts through it, so it
is below them and imports nothing of the bot but itself (:func:`test_the_translation_lookup_is_a_leaf`)."""



def _in_lookup(dep: str) -> bool:
    """``dep`` is one of :data:`LOOKUP` or a name imported from one (``bot.i18n._``), not another module."""
    parent = dep.rpartition(".")[0]
    own_module = (ROOT / (dep.replace(".", "/") + ".py")).exists() or (ROOT / dep.replace(".", "/")).is_dir()
    return dep in LOOKUP or (parent in LOOKUP and not own_module)


MAX_LINES = 600
PRODUCT = ("bot", "cogs")
"""Every file under these folders must stay under MAX_LINES."""


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, module: str, is_package: bool, skip_function: str | None) -> set[str]:
    """Every module named by an import anywhere in ``tree`` (top level, functions, TYPE_CHECKING)."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == skip_function:
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _graph(*, skip: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset()) -> nx.DiGraph:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    modules = {_module(p): p for p in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imports(tree, name, path.name == "__init__.py", None):
            if target in modules and target != name and (name, target) not in skip:
                graph.add_edge(name, target)
    return graph


def test_bot_imports_no_more_of_cogs() -> None:
    graph = _graph()
    up = {(a, b) for a, b in graph.edges if a.split(".")[0] == "bot" and b.split(".")[0] == "cogs"}
    assert not up - STILL_REACHING_UP, f"new imports from bot/ into cogs/: {sorted(up - STILL_REACHING_UP)}"
    gone = sorted(STILL_REACHING_UP - up)
    assert not gone, f"gone, delete from STILL_REACHING_UP: {gone}"


def test_the_module_walk_sees_the_product() -> None:
    graph = _graph()
    expected = {"bot.app", "bot.components", "bot.replies", "bot.turns", "cogs._game", "cogs.errors"}
    assert expected <= set(graph)
    assert graph.has_edge("cogs._views", "bot.components") or graph.has_edge("cogs._views", "bot.app")
    assert graph.has_edge("bot.app", "bot.matches.service") or graph.has_edge("bot.app", "bot.matches")


def test_engines_and_pictures_know_nothing_of_the_platform() -> None:
    graph = _graph()
    lower = ("bot.games", "bot.render")
    bad = sorted((a, b) for a, b in graph.edges
                 if a.startswith(lower) and not b.startswith(lower) and not _in_lookup(b)
                 and b != "bot")  # (``from bot import i18n``: the package itself is empty)
    assert not bad, f"bot/games or bot/render import the layers above them: {bad}"


def test_game_packages_import_only_base_render_and_themselves() -> None:
    wrong = []
    for path in sorted((ROOT / "bot" / "games").rglob("*.py")):
        name = _module(path)
        parts = name.split(".")
        if len(parts) < 3 or parts[2] == "base":
            continue
        own = ".".join(parts[:3])
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for dep in _imports(tree, name, path.name == "__init__.py", None):
            if dep.split(".")[0] in ("bot", "cogs", "discord") and not (
                    dep == own or dep.startswith(own + ".") or dep.startswith("bot.games.base")
                    or dep == "bot.render" or dep.startswith("bot.render.") or dep in ("bot", "bot.games")
                    or _in_lookup(dep)):
                wrong.append(f"{name} imports {dep}")
    assert wrong == []


def test_render_imports_nothing_of_the_bot_or_discord() -> None:
    wrong = []
    for path in sorted((ROOT / "bot" / "render").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for dep in _imports(tree, _module(path), path.name == "__init__.py", None):
            above = dep.split(".")[0] in ("bot", "cogs", "discord")
            if above and not dep.startswith("bot.render") and dep != "bot" and not _in_lookup(dep):
                wrong.append(f"{_module(path)} imports {dep}")
    assert wrong == []


def test_the_translation_lookup_is_a_leaf() -> None:
    """What engines and pictures may import of bot.i18n imports nothing of the bot but itself, nor discord."""
    wrong = []
    for name in LOOKUP:
        path = ROOT / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / name.replace(".", "/") / "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for dep in _imports(tree, name, path.name == "__init__.py", None):
            if dep.split(".")[0] in ("bot", "cogs", "discord") and not _in_lookup(dep) and dep != "bot":
                wrong.append(f"{name} imports {dep}")
    assert wrong == []


def test_no_import_cycle() -> None:
    cycles = list(nx.simple_cycles(_graph(skip=STILL_REACHING_UP)))
    assert not cycles, f"import cycles: {sorted(cycles, key=len)[:5]}"


def test_finds_imports_of_every_kind() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "from ..up import thing\n"
        "if TYPE_CHECKING:\n    import bot.hidden\n"
        "def f():\n    from cogs.x import y\n"
        "def skipped():\n    import cogs.z\n"
    )
    found = _imports(ast.parse(source), "bot.pkg.mod", False, "skipped")
    assert {"bot.pkg.sibling", "bot.up.thing", "bot.hidden", "cogs.x", "cogs.x.y"} <= found
    assert "cogs.z" not in found


def test_product_files_stay_readable() -> None:
    files = [p for d in PRODUCT for p in (ROOT / d).rglob("*.py")]
    long = {str(p.relative_to(ROOT)): n for p in files
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"files over {MAX_LINES} lines (split them along their jobs): {long}"


def test_the_client_runs_without_importing_cogs() -> None:
    """At run time too: building the client and its platform pieces loads no module of ``cogs``."""
    import subprocess
    import sys

    code = ("import sys, bot.app, bot.components, bot.replies, bot.turns, bot.__main__; "
            "print(sorted(m for m in sys.modules if m == 'cogs' or m.startswith('cogs.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
