"""robolab.jupyter_server_extension: the Jupyter server extension that turns Nagle's algorithm off.

What it changes on the wire (the 40 ms wait before every kernel message but the first of a
burst) is measured by ``benchmarks/bench_view.py``, not asserted here; these tests check that
the connection sets ``TCP_NODELAY`` before connecting, that the extension installs it only in
place of jupyter_server's default, and that the environment's Jupyter server loads it.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from jupyter_server.services.kernels.connection.channels import (
    ZMQChannelsWebsocketConnection,
)

from robolab import jupyter_server_extension as kernel_socket
from robolab.jupyter_server_extension import PromptKernelWebsocketConnection

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "jupyter-config" / "jupyter_server_config.d" / "robolab.json"


class _Handler:
    """The websocket handler's part that the connection touches, recording the calls."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    def set_nodelay(self, value: bool) -> None:
        self.calls.append(f"set_nodelay({value})")


def test_the_connection_turns_nagle_off_before_it_connects(monkeypatch):
    calls: list[str] = []

    def connect(self):
        calls.append("connect")
        return "future of the kernel's first reply"

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", connect)
    monkeypatch.setattr(
        PromptKernelWebsocketConnection, "websocket_handler", _Handler(calls), raising=False
    )
    connection = object.__new__(PromptKernelWebsocketConnection)
    assert connection.connect() == "future of the kernel's first reply"
    assert calls == ["set_nodelay(True)", "connect"]


def _server(connection_class) -> SimpleNamespace:
    return SimpleNamespace(
        web_app=SimpleNamespace(settings={"kernel_websocket_connection_class": connection_class}),
        kernel_websocket_connection_class=connection_class,
        log=logging.getLogger("test_kernel_socket"),
    )


def test_the_extension_replaces_jupyter_servers_default_connection():
    server = _server(ZMQChannelsWebsocketConnection)
    kernel_socket._load_jupyter_server_extension(server)
    settings = server.web_app.settings
    assert settings["kernel_websocket_connection_class"] is PromptKernelWebsocketConnection
    # the server closes every open connection at shutdown through its own setting
    assert server.kernel_websocket_connection_class is PromptKernelWebsocketConnection


def test_the_extension_keeps_a_connection_configured_on_purpose(caplog):
    class GatewayConnection(ZMQChannelsWebsocketConnection):
        pass

    server = _server(GatewayConnection)
    with caplog.at_level(logging.INFO, logger="test_kernel_socket"):
        kernel_socket._load_jupyter_server_extension(server)
    assert server.web_app.settings["kernel_websocket_connection_class"] is GatewayConnection
    assert server.kernel_websocket_connection_class is GatewayConnection
    assert "left in place" in caplog.text


def test_the_config_file_enables_this_module_as_a_server_extension():
    enabled = json.loads(CONFIG.read_text())["ServerApp"]["jpserver_extensions"]
    assert enabled == {kernel_socket.__name__: True}
    assert kernel_socket._jupyter_server_extension_points() == [{"module": kernel_socket.__name__}]


def test_wheels_install_the_config_file_beside_the_other_extensions():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data_files = project["tool"]["setuptools"]["data-files"]
    assert data_files["etc/jupyter/jupyter_server_config.d"] == [str(CONFIG.relative_to(ROOT))]


def test_this_environments_jupyter_server_loads_the_extension():
    """`make test` (like `make lab`) enabled it in the venv; `jupyter server extension list`
    imports and validates every enabled extension."""
    listed = subprocess.run(
        [sys.executable, "-m", "jupyter_server", "extension", "list"],
        capture_output=True,
        text=True,
        check=True,
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)
    name = re.escape(kernel_socket.__name__)
    assert re.search(rf"^\s*{name} enabled$", text, re.M), (
        f"{kernel_socket.__name__} is not enabled in this environment "
        f"(`python tools/lab_overrides.py` enables it; `make test` runs it):\n{text}"
    )
    assert re.search(rf"^\s*{name}\s+OK$", text, re.M), text
