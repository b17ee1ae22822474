"""robolab's annotations ship (py.typed), and mypy's list of modules not typed yet stays honest.

mypy itself runs in ``make lint`` (see docs/architecture.md, "Types"); these checks are the
cheap ones that need no type checker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _typed_next() -> list[str]:
    """The modules whose mypy errors are ignored for now (the override with ignore_errors)."""
    (override,) = [
        o for o in PYPROJECT["tool"]["mypy"]["overrides"] if o.get("ignore_errors") is True
    ]
    return override["module"]


def test_py_typed_ships_in_the_wheel():
    assert (ROOT / "robolab" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["robolab"]


def test_modules_typed_next_exist_and_are_sorted():
    modules = _typed_next()
    missing = [m for m in modules if not (ROOT / (m.replace(".", "/") + ".py")).is_file()]
    assert missing == [], "gone or renamed: remove from the mypy override list"
    assert modules == sorted(set(modules))


def test_mypy_checks_the_package_with_its_settings():
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["files"] == ["robolab"]
    assert mypy["check_untyped_defs"] is True
    assert mypy["warn_unused_ignores"] is True
