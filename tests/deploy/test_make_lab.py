"""`make lab`'s JupyterLab reaches its kernels over Unix sockets, so its terminal stays quiet.

Over TCP, ipykernel 7 logs "Kernel is running over TCP without encryption" at the start of
every kernel (one per notebook opened). The Makefile passes ``--KernelManager.transport=ipc``
(``LAB_KERNEL_TRANSPORT``); these tests read the command ``make -n lab`` would run, and start a
kernel of this environment the same way, checking that it answers and does not warn.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from jupyter_client.manager import KernelManager

REPOSITORY = Path(__file__).resolve().parents[2]
WARNING = "Kernel is running over TCP without encryption"


def test_make_lab_starts_kernels_over_unix_sockets(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # -n: print the commands only; a venv path that does not exist keeps .venv untouched.
    printed = subprocess.run(
        ["make", "-n", "lab", f"VENV={tmp_path / 'venv'}"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "jupyter lab " in printed
    assert "--KernelManager.transport=ipc" in printed


def test_a_kernel_over_ipc_answers_without_the_tcp_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    log = tmp_path / "kernel.log"
    manager = KernelManager(kernel_name="python3", transport="ipc")
    with log.open("w") as stream:
        manager.start_kernel(stdout=stream, stderr=stream)
        client = manager.client()
        try:
            client.start_channels()
            client.wait_for_ready(timeout=60)
            reply = client.execute_interactive("6 * 7", timeout=60, output_hook=lambda _: None)
            assert reply["content"]["status"] == "ok"
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    assert WARNING not in log.read_text()
    assert manager.transport == "ipc"
