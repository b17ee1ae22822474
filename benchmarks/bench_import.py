"""What ``import robolab`` costs: wall time of a fresh interpreter, beside the anchors.

Run with ``python benchmarks/run_all.py import`` (or this file alone, which prints the
section). Each row is the median (and the range) of ten fresh processes of
``python -c "import <module>"``: interpreter start-up is included, as a
student's script pays it too, and an empty ``python -c "pass"`` row shows how much of it that
is. The face of robolab loads its subpackages on first use (PEP 562), so the second row is
what a numeric script pays before it computes anything: load the UR5 and one RNEA call.
Target of issue 16: ``import robolab`` under 0.3 s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

RUNS = 10
TARGET = 0.3  # seconds, `import robolab` wall

CASES = [
    ("`python -c pass` (interpreter start-up)", "pass"),
    ("`import robolab`", "import robolab"),
    (
        "`import robolab`, `load_robot('ur5')`, one RNEA",
        "import numpy as np, robolab; r = robolab.load_robot('ur5'); "
        "robolab.inverse_dynamics_rnea(r, np.zeros(6), np.zeros(6), np.zeros(6))",
    ),
    ("`import robolab`, first `DHRobot` (loads SymPy)", "import robolab; robolab.DHRobot"),
    (
        "`import robolab`, first `teach` (loads matplotlib, ipywidgets)",
        "import robolab; robolab.teach",
    ),
    ("`import numpy`", "import numpy"),
    ("`import modern_robotics`", "import modern_robotics"),
    ("`import pinocchio`", "import pinocchio"),
    ("`import sympy`", "import sympy"),
]


def _wall(code: str) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> str:
    rows = []
    medians = {}
    for label, code in CASES:
        times = _wall(code)
        medians[code] = statistics.median(times)
        print(f"{label}: median {medians[code] * 1e3:.0f} ms", flush=True)
        low, high = min(times) * 1e3, max(times) * 1e3
        rows.append(f"| {label} | {medians[code] * 1e3:.0f} | {low:.0f}–{high:.0f} |")
    verdict = "met" if medians["import robolab"] < TARGET else "NOT met"
    return "\n".join(
        [
            "## Import time (`bench_import.py`)",
            "",
            f"Wall time of a fresh `python -c ...`, median of {RUNS} processes (start-up "
            "included). `import robolab` loads only the package face; each subpackage is "
            "imported on the first use of one of its names (PEP 562 `__getattr__`), and the "
            "numeric path (screw robots, kinematics, dynamics) never imports SymPy, matplotlib "
            "or ipywidgets (`tests/contracts/test_lazy_import.py`).",
            "",
            "| what | median ms | range ms |",
            "|---|---:|---:|",
            *rows,
            "",
            f"Target `import robolab` < {TARGET * 1e3:.0f} ms: **{verdict}** "
            f"({medians['import robolab'] * 1e3:.0f} ms; before the lazy face: 1.0–1.4 s).",
        ]
    )


if __name__ == "__main__":
    print(main())
