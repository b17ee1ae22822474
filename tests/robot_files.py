"""Helpers of the robot-file tests (tests/models/, tests/contracts/test_physics_checks.py):
the bundled robot files as JSON data, and data written to a file."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The bundled robots (robots/*.json), in the order list_robots gives them.
NAMES = ["panda", "planar2r", "planar3r", "puma560", "scara", "stanford", "ur5"]


def bundled(name: str) -> dict:
    """The data of the bundled file ``robots/<name>.json``, a fresh copy each call."""
    return json.loads((ROOT / "robots" / f"{name}.json").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict, name: str = "robot.json") -> Path:
    """``data`` written as JSON to ``tmp_path / name``; the path."""
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
