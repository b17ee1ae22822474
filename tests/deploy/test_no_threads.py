"""robolab where no thread can start, as in browser-based Python (Pyodide, JupyterLite).

There ``threading.Thread.start`` raises :class:`RuntimeError`. Chapter 8 (the symbolic
Lagrangian dynamics, whose computations report progress) runs here as one script, in a
process of its own whose ``Thread.start`` raises so, with progress shown at once as in a
notebook with a person in front of it: the chapter must finish, its progress printed as plain
lines (``robolab.support.progress``), and nothing else may need a thread. A kernel cannot
be used for this: ipykernel and pyzmq start threads of their own while a cell runs.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.chapter_cells import chapter_script

pytestmark = pytest.mark.slow

CHAPTER = "08-lagrangian-dynamics.ipynb"

NO_THREADS = """
import threading


def refuse(self, *args, **kwargs):
    raise RuntimeError("can't start new thread")


threading.Thread.start = refuse

from robolab.support import progress

progress.front_end = lambda: "widget"  # as in a notebook, where progress would be a widget
progress.DELAY = 0.0  # every computation shows its progress
"""


def test_a_chapter_runs_where_threads_cannot_start(tmp_path):
    script = tmp_path / "chapter08.py"
    script.write_text(NO_THREADS + chapter_script(CHAPTER) + '\nprint("chapter 8 ran")\n')
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-5000:]
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[-1] == "chapter 8 ran"
    progress = [line for line in lines if line.startswith("robolab: ")]
    assert any(line.startswith("robolab: M(q)") for line in progress), progress
    assert any(line.endswith(" s") and " done · " in line for line in progress), progress
