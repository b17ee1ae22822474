"""The Binder build, emulated without Docker.

Binder (repo2docker) builds the course image from ``binder/``: Python from ``runtime.txt``,
the pins of ``requirements.txt``, then ``postBuild``. These tests do the same in a fresh
virtual environment made from a copy of the repository, run every course notebook from that
environment, and check that ``jupyter-repo2docker --no-build`` (installed in a throwaway
environment) renders a Dockerfile that uses ``binder/``.

Only PyPI is needed; pip's cache is reused between runs. The environments live in pytest's
temporary directory and are made once per test session.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import nbformat
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.fresh_environment]

REPOSITORY = Path(__file__).resolve().parents[2]
BINDER = REPOSITORY / "binder"
#: The repo2docker release whose Dockerfile the test renders (mybinder.org runs a recent one).
REPO2DOCKER = "jupyter-repo2docker==2026.4.0"
NEWS_SETTING = "@jupyterlab/apputils-extension:notification"


def runtime_version() -> str:
    """Return the ``X.Y`` Python version that ``binder/runtime.txt`` asks for."""
    text = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", text)
    assert match, f"binder/runtime.txt should read python-X.Y, got {text!r}"
    return match[1]


def runtime_python() -> str:
    """Return an interpreter of the runtime.txt version (skip when this machine has none)."""
    version = runtime_version()
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    found = shutil.which(f"python{version}")
    if found is None:
        pytest.skip(f"binder/runtime.txt asks for Python {version}, not found on this machine")
    return found


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Run a command; on failure, fail the test with its output."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, command))} exited with {result.returncode}\n"
            f"--- stdout\n{result.stdout[-5000:]}\n--- stderr\n{result.stderr[-5000:]}"
        )
    return result


def isolated_environment(venv: Path, home: Path) -> dict[str, str]:
    """Environment variables of a fresh Binder user: the venv first on PATH, empty Jupyter dirs."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "MPLBACKEND"}
        and not key.startswith(("JUPYTER_", "IPYTHON"))
    }
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[name] = str(home / name.lower())
    env["MPLCONFIGDIR"] = str(home / "matplotlib")
    return env


def copy_of_repository(destination: Path) -> Path:
    """Copy the files git knows of (committed or not, never ignored ones) to ``destination``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPOSITORY,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.decode().split("\0")):
            source = REPOSITORY / name
            if source.is_file():
                (destination / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination / name)
    else:  # not a git checkout: copy everything but environments and caches
        shutil.copytree(
            REPOSITORY,
            destination,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(".git", ".venv", "*cache*", "*.egg-info", "build"),
        )
    return destination


@pytest.fixture(scope="module")
def repository(tmp_path_factory) -> Path:
    return copy_of_repository(tmp_path_factory.mktemp("repository"))


@pytest.fixture(scope="module")
def binder(tmp_path_factory, repository) -> tuple[Path, dict[str, str]]:
    """A fresh venv built the way repo2docker builds the image: requirements, then postBuild."""
    venv = tmp_path_factory.mktemp("binder") / "venv"
    env = isolated_environment(venv, tmp_path_factory.mktemp("home"))
    run([runtime_python(), "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    # --no-compile: skipping the bytecode (which Binder writes) halves the time of this step.
    install = ["install", "--quiet", "--no-compile", "-r", "binder/requirements.txt"]
    run([python, "-m", "pip", *install], cwd=repository, env=env)
    run(["bash", "binder/postBuild"], cwd=repository, env=env)
    return venv, env


def test_postbuild_installs_robolab_and_keeps_every_pin(binder, repository):
    venv, env = binder
    python = str(venv / "bin" / "python")
    script = """
import importlib.metadata, pathlib, sys
import robolab
from packaging.requirements import Requirement
print(robolab.__file__)
for line in pathlib.Path("binder/requirements.txt").read_text().splitlines():
    line = line.split("#")[0].strip()
    if not line:
        continue
    requirement = Requirement(line)
    if requirement.marker is None or requirement.marker.evaluate():
        installed = importlib.metadata.version(requirement.name)
        if installed not in requirement.specifier:
            print(f"PIN BROKEN: {requirement} but {installed} installed")
"""
    result = run([python, "-I", "-c", script], cwd=repository, env=env)
    robolab_file, *broken = result.stdout.strip().splitlines()
    assert Path(robolab_file).is_relative_to(venv), "robolab must be installed into the image"
    assert broken == []
    run([python, "-m", "pip", "check"], env=env)
    # postBuild builds from a copy: nothing is left in the repository.
    assert not (repository / "build").exists()
    assert not list(repository.glob("*.egg-info"))


def test_postbuild_turns_off_the_jupyterlab_news_popup(binder):
    venv, env = binder
    python = str(venv / "bin" / "python")
    app_dir = run(
        [python, "-c", "from jupyterlab.commands import get_app_dir; print(get_app_dir())"],
        env=env,
    ).stdout.strip()
    overrides = json.loads((Path(app_dir) / "settings" / "overrides.json").read_text())
    assert overrides[NEWS_SETTING]["fetchNews"] == "false"
    # The setting's names and values are those JupyterLab itself declares.
    plugin, name = NEWS_SETTING.split(":")
    schema_file = Path(app_dir) / "schemas" / plugin / f"{name}.json"
    jsonschema.validate(overrides[NEWS_SETTING], json.loads(schema_file.read_text()))


def _extension_states(command: list[str], env: dict[str, str]) -> dict[str, str]:
    """``name -> 'enabled' | 'disabled'`` from ``jupyter ... extension list`` (no colours)."""
    result = run(command, env=env)
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    return {
        match[1]: match[2]
        for match in re.finditer(r"^\s*(\S+)(?: v\S+)? (enabled|disabled)", text, re.M)
    }


def test_postbuild_keeps_nbgrader_for_students_and_its_teacher_tools_off(binder):
    venv, env = binder
    jupyter = str(venv / "bin" / "jupyter")
    server = _extension_states([jupyter, "server", "extension", "list"], env)
    for student_side in ("assignment_list", "validate_assignment"):
        assert server[f"nbgrader.server_extensions.{student_side}"] == "enabled"
    for teacher_side in ("formgrader", "course_list"):
        assert server[f"nbgrader.server_extensions.{teacher_side}"] == "disabled"
    lab = run([jupyter, "labextension", "list"], env=env)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", lab.stdout + lab.stderr)
    for plugin in ("formgrader", "course-list", "create-assignment"):
        assert f"@jupyter/nbgrader:{plugin}" in listed, listed


def test_the_image_relays_kernel_messages_without_nagles_delay(binder):
    """robolab's wheel installs its Jupyter server setting (robolab.jupyter_server_extension)."""
    venv, env = binder
    server = _extension_states([str(venv / "bin" / "jupyter"), "server", "extension", "list"], env)
    assert server["robolab.jupyter_server_extension"] == "enabled"


def test_notebooks_run_in_the_binder_environment(binder, repository, tmp_path):
    venv, env = binder
    notebooks = sorted((repository / "notebooks").glob("*.ipynb"))
    assert notebooks
    run(
        [
            str(venv / "bin" / "jupyter"),
            "nbconvert",
            "--to=notebook",
            "--execute",
            f"--output-dir={tmp_path}",
            "--ExecutePreprocessor.timeout=60",
            "--ExecutePreprocessor.kernel_name=python3",
            *map(str, notebooks),
        ],
        cwd=repository,
        env=env,
    )
    for path in notebooks:
        executed = nbformat.read(tmp_path / path.name, as_version=4)
        warnings = [
            output.text
            for cell in executed.cells
            if cell.cell_type == "code"
            for output in cell.outputs
            if output.output_type == "stream" and output.name == "stderr"
        ]
        assert warnings == [], f"{path.name} warns in the Binder environment"


def test_repo2docker_renders_a_dockerfile_from_binder(tmp_path_factory, repository):
    tools = tmp_path_factory.mktemp("repo2docker") / "venv"
    env = isolated_environment(tools, tmp_path_factory.mktemp("home"))
    run([sys.executable, "-m", "venv", str(tools)])
    run([str(tools / "bin" / "python"), "-m", "pip", "install", "--quiet", REPO2DOCKER], env=env)
    result = run(
        [str(tools / "bin" / "jupyter-repo2docker"), "--no-build", "--no-run", "--debug", "."],
        cwd=repository,
        env=env,
    )
    log = result.stdout + result.stderr
    assert f"python={runtime_version()}" in log, "runtime.txt chooses the Python version"
    assert "COPY --chown=0:0 src/binder/requirements.txt" in log
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in log
    assert "RUN ./binder/postBuild" in log
