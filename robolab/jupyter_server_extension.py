"""A Jupyter server extension: kernel messages reach the browser without Nagle's 40 ms wait.

A slider moved in the browser makes the kernel answer with a burst of small messages: the
status "busy", the echo of the slider's new value, the figure's new pixels, the status
"idle". jupyter_server relays each one to the browser as a websocket frame, on a socket
where Nagle's algorithm is on (Tornado turns ``TCP_NODELAY`` off again once it has answered
the HTTP upgrade). Nagle holds each small frame back until the browser has acknowledged the
one before, and the browser delays its acknowledgement (40 ms on Linux), so every widget
interaction waited about 40 ms for nothing: on this project's benchmark machine a key press
on the teach pendant's slider took 61-65 ms to new pixels, of which the kernel's work was
6 ms and this wait 40 (``docs/benchmarks.md``, "Views and the teach pendant").

The extension makes the server use :class:`PromptKernelWebsocketConnection`, jupyter_server's
own connection with ``TCP_NODELAY`` set on the websocket when it opens: the same messages in
the same order, without the wait. robolab enables it for every Jupyter server of the
environment it is installed in (``etc/jupyter/jupyter_server_config.d/robolab.json``, from
``jupyter-config/`` of the repository: ``make lab``, Binder, a JupyterHub user's server of
the same image). A server that already uses another connection class (a kernel gateway's,
or one a teacher configured) keeps it. Turn the extension off with
``jupyter server extension disable robolab.jupyter_server_extension``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

__all__ = ["PromptKernelWebsocketConnection"]


class PromptKernelWebsocketConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's ZMQ-channels kernel connection, with ``TCP_NODELAY`` on its websocket.

    The server gets it from this module's server extension (or from the setting
    ``ServerApp.kernel_websocket_connection_class``); nothing in robolab calls it.

    Examples
    --------
    >>> issubclass(PromptKernelWebsocketConnection, ZMQChannelsWebsocketConnection)
    True
    """

    def connect(self) -> asyncio.Future[None] | None:  # type: ignore[override]  # as its base
        """Turn Nagle's algorithm off on the open websocket, then connect as jupyter_server does."""
        self.websocket_handler.set_nodelay(True)
        return super().connect()


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is a Jupyter server extension of its own (jupyter_server's discovery hook)."""
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Relay kernel messages through :class:`PromptKernelWebsocketConnection`.

    Only where the server would use jupyter_server's default connection: another class
    (a gateway's, or one configured on purpose) is left in place.
    """
    settings = serverapp.web_app.settings
    if settings.get("kernel_websocket_connection_class") is not ZMQChannelsWebsocketConnection:
        serverapp.log.info(
            "robolab: kernel websocket connection %s left in place",
            settings.get("kernel_websocket_connection_class"),
        )
        return
    settings["kernel_websocket_connection_class"] = PromptKernelWebsocketConnection
    serverapp.kernel_websocket_connection_class = PromptKernelWebsocketConnection
    serverapp.log.info("robolab: kernel websocket messages relayed without Nagle's delay")
