"""``import robolab`` is cheap: the face loads a subpackage when one of its names is first used.

A numeric script (load a screw robot, kinematics, dynamics) must not pay for SymPy, matplotlib
or ipywidgets; the symbolic and drawing parts load them when they are used. Each check runs in a
fresh interpreter, since this test process has imported everything already. Import *time* is
measured by ``benchmarks/bench_import.py``, never asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import robolab
from robolab import _api

HEAVY = ("sympy", "matplotlib", "ipywidgets", "ipympl", "scipy")


def _modules_loaded_by(code: str) -> list[str]:
    probe = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return [m for m in json.loads(run.stdout.splitlines()[-1]) if m.split(".")[0] in HEAVY]


def test_import_robolab_loads_no_heavy_package():
    assert _modules_loaded_by("import robolab") == []


def test_numeric_screw_work_loads_no_symbolic_or_drawing_package():
    code = """
import numpy as np
import robolab
robot = robolab.load_robot("ur5")
q = np.linspace(0.1, 0.6, 6)
T = robolab.forward_kinematics_space(robot, q)
robolab.jacobian_space(robot, q)
robolab.inverse_dynamics_rnea(robot, q, q, q)
robolab.mass_matrix_crba(robot, q)
robolab.forward_dynamics_crba(robot, q, q, q)
robolab.inverse_kinematics_space(robot, T, q + 0.05)
robolab.trotz(0.3) @ robolab.transl(1.0, 2.0, 3.0)
"""
    assert _modules_loaded_by(code) == []


def test_a_symbolic_angle_still_gives_a_sympy_matrix():
    loaded = _modules_loaded_by("import robolab, sympy\nrobolab.rotz(sympy.Symbol('q'))")
    assert "sympy" in loaded


@pytest.mark.parametrize("name", robolab.__all__)
def test_every_public_name_resolves_to_the_object_of_its_module(name):
    value = getattr(robolab, name)
    if name in _api.FACE_MODULES:  # the two module paths of the notebooks
        assert value.__name__ == f"robolab.{name}"
        return
    home = _api.home_of(name)
    assert value is getattr(sys.modules[f"robolab.{home}"], name)
    subpackage = home.split(".")[0]
    assert value is getattr(sys.modules[f"robolab.{subpackage}"], name)


def test_import_of_a_subpackage_loads_none_of_its_modules():
    # robolab.views is lazy too: importing it does not load the screw modules (nor matplotlib)
    loaded = json.loads(
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import json, sys, robolab.views, robolab.lessons; "
                "print(json.dumps(sorted(sys.modules)))",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    assert [m for m in loaded if m.startswith("robolab.screw")] == []
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []


def test_dir_and_tab_completion_list_every_public_name_before_first_use():
    listed = json.loads(
        subprocess.run(
            [sys.executable, "-c", "import json, robolab; print(json.dumps(dir(robolab)))"],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    assert set(robolab.__all__) <= set(listed)


def test_a_subpackage_is_an_attribute_before_anything_imported_it():
    code = (
        "import robolab\nassert robolab.screw._fast.batched.BLOCK > 0\n"
        "print(robolab.views.__name__)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert run.stdout.strip() == "robolab.views"


def test_an_unknown_name_is_an_attribute_error_that_names_it():
    with pytest.raises(AttributeError, match="no attribute 'forward_kinematic'"):
        robolab.forward_kinematic  # noqa: B018


def test_star_import_gives_every_public_name():
    namespace: dict[str, object] = {}
    exec("from robolab import *", namespace)
    assert set(robolab.__all__) <= set(namespace)
