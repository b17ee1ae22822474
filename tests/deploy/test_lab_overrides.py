"""tools/lab_overrides.py: `make lab`'s JupyterLab does not ask about Jupyter news, and its
Jupyter server loads robolab's extension (robolab.jupyter_server_extension)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from lab_overrides import (  # noqa: E402
    NOTIFICATION_PLUGIN,
    SERVER_CONFIG,
    install_server_config,
    server_config_dir,
    settings_dir,
    write_overrides,
)


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


def test_the_server_extension_setting_is_copied_once(tmp_path):
    path = install_server_config(server_config_dir(tmp_path))
    assert path == tmp_path / "etc" / "jupyter" / "jupyter_server_config.d" / "robolab.json"
    assert path.read_bytes() == SERVER_CONFIG.read_bytes()
    written = path.stat().st_mtime_ns
    install_server_config(server_config_dir(tmp_path))
    assert path.stat().st_mtime_ns == written


def test_the_make_lab_command_line(tmp_path):
    """The argument is an environment's prefix, as ``sys.prefix`` is without one."""
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lab_overrides.py"), str(tmp_path)], check=True
    )
    overrides = settings_dir(tmp_path) / "overrides.json"
    assert NOTIFICATION_PLUGIN in json.loads(overrides.read_text())
    extensions = json.loads((server_config_dir(tmp_path) / "robolab.json").read_text())
    assert extensions["ServerApp"]["jpserver_extensions"] == {
        "robolab.jupyter_server_extension": True
    }


def test_make_lab_writes_the_overrides_before_starting_jupyterlab():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlab:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("tools/lab_overrides.py") < recipe.index("jupyter lab")


@pytest.mark.parametrize("stamp", ["installed-lab", "installed-test", "installed-bench"])
def test_every_editable_install_enables_the_server_extension(stamp):
    """An editable install skips pyproject's data-files, so each install recipe runs the tool."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split(f"\n$(VENV)/.{stamp}:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("--editable") < recipe.index("tools/lab_overrides.py")
