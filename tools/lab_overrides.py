"""Write JupyterLab's settings overrides for the course: no "official Jupyter news?" pop-up.

JupyterLab asks "Would you like to get notified about official Jupyter news?" on its
first start as long as the setting ``fetchNews`` of
``@jupyterlab/apputils-extension:notification`` is undecided (``"none"``), whatever the
server's ``news_url``. A default for it in the environment's ``overrides.json``
(``<prefix>/share/jupyter/lab/settings/``) answers the question for every user of that
environment; a student can still turn news on in *Settings*. ``make lab`` runs this
before it starts JupyterLab, and ``binder/postBuild`` writes the same setting::

    .venv/bin/python tools/lab_overrides.py              # the running Python's environment
    .venv/bin/python tools/lab_overrides.py /some/prefix/share/jupyter/lab/settings

Other settings already in the file are kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

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


if __name__ == "__main__":
    write_overrides(Path(sys.argv[1]) if len(sys.argv) > 1 else settings_dir())
