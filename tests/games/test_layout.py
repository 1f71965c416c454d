"""The engines' shape: files a person can read, and imports that point one way.

Every game package under ``bot/games/`` imports only ``bot.games.base``, ``bot.render`` and its own
package (never ``discord``, ``cogs`` or the rest of ``bot``), no module of ``bot/games`` or
``bot/render`` is part of an import cycle, and no file there is longer than 600 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600


def _modules() -> dict[str, set[str]]:
    """Module name -> the absolute modules it imports, for ``bot/games`` and ``bot/render``."""
    out: dict[str, set[str]] = {}
    for top in ("bot/games", "bot/render"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    deps.add(node.module)
                elif isinstance(node, ast.Import):
                    deps.update(alias.name for alias in node.names)
            out[name] = deps
    return out


def test_game_packages_import_only_base_render_and_themselves() -> None:
    wrong = []
    for name, deps in _modules().items():
        parts = name.split(".")
        if parts[:2] != ["bot", "games"] or len(parts) < 3 or parts[2] == "base":
            continue
        own = ".".join(parts[:3])
        for dep in deps:
            if dep.split(".")[0] in ("bot", "cogs", "discord") and not (
                    dep == own or dep.startswith(own + ".") or dep == "bot.games.base"
                    or dep == "bot.render" or dep.startswith("bot.render.")):
                wrong.append(f"{name} imports {dep}")
    assert wrong == []


def test_render_imports_nothing_of_the_bot_or_discord() -> None:
    wrong = [f"{name} imports {dep}" for name, deps in _modules().items() if name.startswith("bot.render")
             for dep in deps
             if dep.split(".")[0] in ("bot", "cogs", "discord") and not dep.startswith("bot.render")]
    assert wrong == []


def test_no_import_cycles() -> None:
    mods = _modules()
    graph = {name: sorted(d for d in deps if d in mods and d != name) for name, deps in mods.items()}
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


def test_no_file_over_600_lines() -> None:
    long = {str(p.relative_to(ROOT)): n
            for top in ("bot/games", "bot/render") for p in (ROOT / top).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
