"""Importing a script of bench/ that needs the optional bench extra (OpenSpiel, numpy).

The README's test command installs the extra, so in CI a missing one is a failure; elsewhere the module's
tests are skipped.
"""

from __future__ import annotations

import importlib
import os
import pathlib
import sys
from types import ModuleType

import pytest

BENCH = str(pathlib.Path(__file__).resolve().parents[2] / "bench")


def bench_script(name: str, needs: str) -> ModuleType:
    """``bench/<name>.py`` as a module, once ``needs`` (a module of the bench extra) imports; called at a test
    module's top level."""
    try:
        importlib.import_module(needs)
    except ImportError:  # pragma: no cover - the README's test command installs the bench extra
        if os.environ.get("CI") == "true":
            raise  # CI installs `.[test,bench]`: a missing yardstick must fail, not skip
        pytest.skip(f"the bench extra ({needs}) is not installed", allow_module_level=True)
    if BENCH not in sys.path:
        sys.path.insert(0, BENCH)
    return importlib.import_module(name)
