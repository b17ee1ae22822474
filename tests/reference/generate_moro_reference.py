"""Generate ``moro_reference.json``: Moro 0.5.0's T, J, M, C, G for the arms of ``dh_arms.py``.

Moro is slow (seconds per arm, minutes for bigger ones) so its results are
computed once here and committed; ``tests/dh/test_robot.py`` compares
robolab's results with them numerically at random points, symbol by name.
Run from the repository root::

    .venv/bin/python tests/reference/generate_moro_reference.py

Expressions are stored with ``sympy.srepr`` (exact, parsed back with
``sympy.sympify``). Masses and inertia tensors are given to Moro with the
names of robolab's placeholders (``m_1``, ``I_xx1`` …) unless the arm has numbers.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import sys
import time
from pathlib import Path

import sympy as sp
from moro import Robot

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from dh_arms import MORO_ARMS, inertia_names  # noqa: E402


def main() -> None:
    output = {
        "generator": "tests/reference/generate_moro_reference.py",
        "moro": importlib.metadata.version("moro"),
        "sympy": sp.__version__,
        "date": datetime.date.today().isoformat(),
        "arms": {},
    }
    for name, arm in MORO_ARMS.items():
        start = time.process_time()
        robot = Robot(*arm["rows"])
        n = len(arm["rows"])
        robot.masses = arm.get("masses", [sp.Symbol(f"m_{i}") for i in range(1, n + 1)])
        robot.inertia_tensors = [
            sp.Matrix(tensor)
            for tensor in arm.get("inertia_tensors", [inertia_names(i) for i in range(1, n + 1)])
        ]
        robot.cm_positions = arm["cm_positions"]
        robot.gravity = arm["gravity"]
        results = {
            "T": robot.T,
            "J": robot.J,
            "M": robot.inertia_matrix(),
            "C": robot.coriolis_matrix(),
            "G": robot.gravity_vector(),
        }
        seconds = time.process_time() - start
        output["arms"][name] = {
            "seconds": round(seconds, 2),
            **{key: sp.srepr(value) for key, value in results.items()},
        }
        print(f"{name}: {seconds:.1f} s", flush=True)
    path = HERE / "moro_reference.json"
    path.write_text(json.dumps(output, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
