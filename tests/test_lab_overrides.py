"""tools/lab_overrides.py: `make lab`'s JupyterLab does not ask about Jupyter news."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from lab_overrides import NOTIFICATION_PLUGIN, settings_dir, write_overrides  # noqa: E402


def test_a_new_environment_gets_the_setting(tmp_path):
    path = write_overrides(settings_dir(tmp_path))
    assert path == tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    # JupyterLab's notification plugin asks only while fetchNews is "none" (undecided)
    assert json.loads(path.read_text())[NOTIFICATION_PLUGIN] == {
        "fetchNews": "false",
        "checkForUpdates": False,
    }


def test_other_settings_are_kept_and_running_twice_changes_nothing(tmp_path):
    path = tmp_path / "overrides.json"
    theme = {"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}
    path.write_text(json.dumps({**theme, NOTIFICATION_PLUGIN: {"doNotDisturbMode": True}}))
    write_overrides(tmp_path)
    first = path.read_text()
    write_overrides(tmp_path)
    assert path.read_text() == first
    overrides = json.loads(first)
    assert (
        overrides["@jupyterlab/apputils-extension:themes"]
        == theme["@jupyterlab/apputils-extension:themes"]
    )
    assert overrides[NOTIFICATION_PLUGIN]["doNotDisturbMode"] is True
    assert overrides[NOTIFICATION_PLUGIN]["fetchNews"] == "false"


def test_a_broken_file_is_named(tmp_path):
    (tmp_path / "overrides.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"overrides.json should hold a JSON object, got list"):
        write_overrides(tmp_path)


def test_the_make_lab_command_line(tmp_path):
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lab_overrides.py"), str(tmp_path)], check=True
    )
    assert NOTIFICATION_PLUGIN in json.loads((tmp_path / "overrides.json").read_text())


def test_make_lab_writes_the_overrides_before_starting_jupyterlab():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("tools/lab_overrides.py") < recipe.index("jupyter lab")
