"""Set up the environment's Jupyter for the course: no news pop-up, no Nagle delay.

JupyterLab asks "Would you like to get notified about official Jupyter news?" on its
first start as long as the setting ``fetchNews`` of
``@jupyterlab/apputils-extension:notification`` is undecided (``"none"``), whatever the
server's ``news_url``. A default for it in the environment's ``overrides.json``
(``<prefix>/share/jupyter/lab/settings/``) answers the question for every user of that
environment; a student can still turn news on in *Settings*. ``make lab`` runs this
before it starts JupyterLab, and ``binder/postBuild`` runs it for the Binder image.

It also enables robolab's Jupyter server extension :mod:`robolab.jupyter_server_extension`
(kernel messages reach the browser without a 40 ms wait) by copying
``jupyter-config/jupyter_server_config.d/robolab.json`` into the environment's
``etc/jupyter/``. A wheel of robolab installs that file itself (``data-files`` in
``pyproject.toml``: Binder, a hub's image); an editable install (``make lab``, ``make test``)
does not, so the Makefile runs this after installing::

    .venv/bin/python tools/lab_overrides.py              # the running Python's environment
    .venv/bin/python tools/lab_overrides.py /some/prefix

Other settings already in ``overrides.json`` are kept.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

#: robolab's Jupyter server setting (enables :mod:`robolab.jupyter_server_extension`).
SERVER_CONFIG = (
    Path(__file__).resolve().parent.parent
    / "jupyter-config"
    / "jupyter_server_config.d"
    / "robolab.json"
)

#: The plugin whose settings hold the news and update checks.
NOTIFICATION_PLUGIN = "@jupyterlab/apputils-extension:notification"
#: No news fetched, no update check, so no question on the first start.
COURSE_OVERRIDES = {NOTIFICATION_PLUGIN: {"fetchNews": "false", "checkForUpdates": False}}


def settings_dir(prefix: str | Path = sys.prefix) -> Path:
    """The folder of ``overrides.json`` for the environment at ``prefix``."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings"


def write_overrides(folder: Path) -> Path:
    """Merge :data:`COURSE_OVERRIDES` into ``folder/overrides.json``; return the file's path."""
    path = Path(folder) / "overrides.json"
    overrides = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if not isinstance(overrides, dict):
        raise ValueError(f"{path} should hold a JSON object, got {type(overrides).__name__}")
    for plugin, values in COURSE_OVERRIDES.items():
        overrides.setdefault(plugin, {}).update(values)
    text = json.dumps(overrides, indent=2) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path


def server_config_dir(prefix: str | Path = sys.prefix) -> Path:
    """The folder of the Jupyter server settings of the environment at ``prefix``."""
    return Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.d"


def install_server_config(folder: Path) -> Path:
    """Copy :data:`SERVER_CONFIG` into ``folder`` (unless it is there already); return its path."""
    path = Path(folder) / SERVER_CONFIG.name
    if not path.exists() or path.read_bytes() != SERVER_CONFIG.read_bytes():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SERVER_CONFIG, path)
    return path


if __name__ == "__main__":
    environment = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(sys.prefix)
    write_overrides(settings_dir(environment))
    install_server_config(server_config_dir(environment))
