"""The committed reference data are what their generators compute, on this CPU too.

``pinocchio_screw_reference.npz`` is recomputed by its generator's ``--check``
(Pinocchio, a few seconds) and compared to 1e-10 relative: the numbers are
stored to 12 significant digits, so a CPU whose BLAS kernel rounds the last bit
differently recomputes the same data. (``moro_reference.json`` holds exact
SymPy expressions, not floats; regenerating it takes Moro minutes.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parents[1] / "reference"

pytest.importorskip("pinocchio")


def test_pinocchio_reference_is_up_to_date():
    result = subprocess.run(
        [sys.executable, str(HERE / "generate_pinocchio_screw_reference.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr


def test_pinocchio_reference_numbers_have_12_significant_digits():
    with np.load(HERE / "pinocchio_screw_reference.npz") as data:
        for key in data.files:
            if key == "about":
                continue
            for x in data[key].ravel():
                assert x == 0.0 or float(f"{x:.11e}") == x, (key, x)
