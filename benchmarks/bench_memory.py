"""Peak memory: a kernel after Run All of each chapter, and the Panda's symbolic dynamics.

Run with ``python benchmarks/run_all.py memory`` (or this file alone, which prints the
section). Each chapter runs top to bottom in a fresh ipykernel of this environment (nbclient,
the way nbval and ``tests/course_notebooks.py refresh`` run it, headless, with
``ROBOLAB_TEST_MODE`` unset so the widgets are built as in a browser session), and its last
cell asks the kernel for its own peak resident set size (``VmHWM`` of ``/proc/self/status``;
not ``ru_maxrss``, which Linux carries over from the process that started the kernel). The
Panda row is a fresh Python process that derives M, C and G of the 7-joint Franka Panda
(``robots/panda.json``) and compiles ``numeric()``. Binder gives a user 1–2 GB; the target
of issue 16 is every chapter under 400 MB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
NOTEBOOKS = HERE.parent / "notebooks"
TARGET_MB = 400

# VmHWM, the peak resident set of this process's own memory (Linux). Not ru_maxrss: Linux
# keeps that across fork and exec, so a kernel started by a big parent reports the parent's.
PEAK = """
import re
with open("/proc/self/status") as status:
    print(re.search(r"VmHWM:\\s+(\\d+) kB", status.read())[1])
"""

PANDA = (
    """
import numpy as np, robolab
robot = robolab.load_robot("panda", form="dh")
robot.inertia_matrix(); robot.coriolis_matrix(); robot.gravity_vector()
fast = robot.numeric(); z = np.zeros(7); fast.inverse_dynamics(z, z, z)
"""
    + PEAK
)


def _chapter_peak_mb(path: Path) -> tuple[float, float]:
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PEAK))
    start = time.perf_counter()
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": NOTEBOOKS}}
    ).execute()
    seconds = time.perf_counter() - start
    text = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    return int(text.split()[-1]) / 1024, seconds


def _panda_peak_mb() -> float:
    run = subprocess.run(
        [sys.executable, "-c", PANDA], capture_output=True, text=True, check=True, timeout=600
    )
    return int(run.stdout.split()[-1]) / 1024


def main() -> str:
    os.environ.pop("ROBOLAB_TEST_MODE", None)
    rows, peaks = [], {}
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")):
        peak, seconds = _chapter_peak_mb(path)
        peaks[path.stem] = peak
        print(f"{path.stem}: {peak:.0f} MB ({seconds:.0f} s)", flush=True)
        rows.append(f"| {path.stem} | {peak:.0f} |")
    panda = _panda_peak_mb()
    print(f"Panda M, C, G + numeric(): {panda:.0f} MB", flush=True)
    worst = max(peaks, key=peaks.__getitem__)
    verdict = "met" if peaks[worst] < TARGET_MB else "NOT met"
    return "\n".join(
        [
            "## Memory (`bench_memory.py`)",
            "",
            "Peak resident memory of a fresh kernel after Run All of each chapter (its own "
            "`VmHWM`, read in a last cell), and of a fresh process that derives the "
            "Panda's M, C, G and compiles `numeric()`.",
            "",
            "| notebook | peak RSS, MB |",
            "|---|---:|",
            *rows,
            f"| Panda (7 joints) M, C, G + `numeric()`, a Python process | {panda:.0f} |",
            "",
            f"Target: every chapter under {TARGET_MB} MB: **{verdict}** (largest: {worst}, "
            f"{peaks[worst]:.0f} MB).",
        ]
    )


if __name__ == "__main__":
    print(main())
