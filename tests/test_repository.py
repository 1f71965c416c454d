"""The repository holds source only: nothing a tool generates is ever tracked."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GENERATED = re.compile(
    r"(^|/)("
    r"\.?venv|env|__pycache__|\.pytest_cache|\.hypothesis|\.mypy_cache|\.ruff_cache|"
    r"build|dist|htmlcov|node_modules|[^/]+\.egg-info|[^/]+\.dist-info"
    r")(/|$)"
    r"|\.py[cod]$|\.so$|\.egg$|(^|/)\.coverage$|(^|/)pyvenv\.cfg$"
)


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def test_no_generated_files_are_tracked() -> None:
    bad = [p for p in _tracked() if GENERATED.search(p)]
    assert not bad, f"generated files are tracked (git rm -r --cached them): {bad[:10]}"


def test_pattern_catches_what_it_should() -> None:
    for path in (".venv/bin/pip", "parlor.egg-info/PKG-INFO", "bot/__pycache__/x.cpython-311.pyc",
                 ".hypothesis/examples/1", "build/lib/bot/x.py", "venv/pyvenv.cfg"):
        assert GENERATED.search(path), path
    for path in ("bot/app.py", "tests/golden/pylon/start.png", "bench/envelope.py", "bot/environment.py"):
        assert not GENERATED.search(path), path


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Run the tests", 1)[1].split("```sh", 1)[1].split("```", 1)[0].strip()
    assert block.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e ")
    assert "README.md" in (ROOT / ".ci" / "run").read_text()
