"""robolab's distribution, ``robolab-edu``: built, installed into a clean venv, used headless.

``python -m build`` (without build isolation: the setuptools and wheel of the test extra) makes
the sdist and, from it, a pure-Python wheel, in a copy of the repository. The wheel goes into a
fresh virtual environment with the pins of ``binder/requirements.txt`` as constraints (only
the library's own dependencies, from PyPI or pip's cache: no JupyterLab), where a script
imports robolab, loads a bundled robot and runs chapter 1's code cells with matplotlib's Agg
back end, as a script or a hosted notebook without a widget front end would.

The environment is made once per session (about a minute); ``make test-portable`` skips these
tests (marker ``fresh_environment``), which do not depend on BLAS or test order.
"""

from __future__ import annotations

import email.parser
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.chapter_cells import chapter_script
from tests.deploy.test_binder import copy_of_repository, isolated_environment, run

pytestmark = [pytest.mark.slow, pytest.mark.fresh_environment]

REPOSITORY = Path(__file__).resolve().parents[2]
DISTRIBUTION = "robolab-edu"
#: What robolab needs at run time; everything else (JupyterLab, ...) is in an extra.
LIBRARY_DEPENDENCIES = {"numpy", "sympy", "scipy", "matplotlib", "ipywidgets", "ipympl"}
#: The lab extra: `make lab`, Binder and a hub's image install it, a bare install does not.
LAB_ONLY = {"jupyterlab", "notebook", "jupyter-server", "nbformat", "jsonschema"}

SMOKE = """
import sys
from pathlib import Path

import numpy as np
import robolab as rl

assert Path(rl.__file__).is_relative_to(sys.prefix), rl.__file__
ur5 = rl.load_robot("ur5")
T = rl.forward_kinematics_space(ur5, np.zeros(6))
assert T.shape == (4, 4) and "puma560" in rl.list_robots()
print("robot", ur5.name, np.round(T[:3, 3], 4))
"""

CHAPTER_END = """
result = exercise_1.check(rotz(a) @ roty(b) @ rotx(c))
assert result.correct, result
print("chapter 1 ran")
"""


@pytest.fixture(scope="module")
def distributions(tmp_path_factory) -> tuple[Path, Path]:
    """``(wheel, sdist)`` of a copy of the repository, built by ``python -m build``."""
    source = copy_of_repository(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--no-isolation", f"--outdir={out}", str(source)])
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(out.iterdir())
    return wheels[0], sdists[0]


@pytest.fixture(scope="module")
def clean_venv(tmp_path_factory, distributions) -> tuple[Path, dict[str, str]]:
    """A fresh venv with the wheel and nothing but its dependencies (the Binder pins)."""
    wheel, _ = distributions
    venv = tmp_path_factory.mktemp("wheel") / "venv"
    env = isolated_environment(venv, tmp_path_factory.mktemp("home"))
    env["MPLBACKEND"] = "Agg"
    run([sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    constraints = str(REPOSITORY / "binder" / "requirements.txt")
    install = ["install", "--quiet", "--no-compile", "--constraint", constraints, str(wheel)]
    run([python, "-m", "pip", *install], env=env)
    return venv, env


def test_the_wheel_is_pure_python_and_carries_the_robots(distributions):
    wheel, _ = distributions
    assert wheel.name == "robolab_edu-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        assert "Root-Is-Purelib: true" in archive.read(info).decode()
    assert {"robolab/__init__.py", "robolab/py.typed", "robolab/robots/ur5.json"} <= names
    assert any(n.startswith("robolab/robots/urdf/") and n.endswith(".urdf") for n in names)
    # robolab's Jupyter server setting, installed into the environment's etc/jupyter
    setting = "etc/jupyter/jupyter_server_config.d/robolab.json"
    assert f"robolab_edu-0.1.0.data/data/{setting}" in names
    assert not [n for n in names if n.startswith(("tests/", "notebooks/", "tools/"))]
    assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc"))]


def test_the_metadata_names_the_distribution_and_its_dependencies(distributions):
    wheel, _ = distributions
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = email.parser.Parser().parsestr(archive.read(metadata).decode())
    assert message["Name"] == DISTRIBUTION
    required = [Requirement(line) for line in message.get_all("Requires-Dist")]
    unconditional = {canonicalize_name(r.name) for r in required if r.marker is None}
    assert unconditional == LIBRARY_DEPENDENCIES
    lab = {
        canonicalize_name(r.name)
        for r in required
        if r.marker is not None and r.marker.evaluate({"extra": "lab"})
    }
    assert lab >= {"jupyterlab", "notebook", "nbformat", "jsonschema"}
    assert set(message.get_all("Provides-Extra")) >= {"lab", "test"}


def test_the_sdist_holds_what_the_wheel_is_built_from(distributions):
    _, sdist = distributions
    assert sdist.name == "robolab_edu-0.1.0.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    expected = {
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "robots/ur5.json",
        "robolab/__init__.py",
        "jupyter-config/jupyter_server_config.d/robolab.json",
    }
    assert expected <= names


def test_a_clean_venv_gets_the_library_without_jupyterlab(clean_venv):
    venv, env = clean_venv
    names = "import importlib.metadata as m; print(*(d.name for d in m.distributions()))"
    listed = run([str(venv / "bin" / "python"), "-I", "-c", names], env=env)
    installed = {canonicalize_name(name) for name in listed.stdout.split()}
    assert {DISTRIBUTION, *LIBRARY_DEPENDENCIES} <= installed
    assert not installed & LAB_ONLY
    run([str(venv / "bin" / "python"), "-m", "pip", "check"], env=env)


def test_robolab_loads_a_robot_and_runs_chapter_1_headless(clean_venv, tmp_path):
    venv, env = clean_venv
    script = tmp_path / "chapter01.py"
    script.write_text(SMOKE + chapter_script("01-rotations-and-transforms.ipynb") + CHAPTER_END)
    # -I and a folder outside the repository: robolab comes from the venv, not the checkout.
    result = run([str(venv / "bin" / "python"), "-I", str(script)], cwd=tmp_path, env=env)
    assert result.stdout.startswith("robot ")
    assert result.stdout.rstrip().endswith("chapter 1 ran")
    assert result.stderr == "", result.stderr
