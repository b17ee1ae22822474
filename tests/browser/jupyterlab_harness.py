"""Drive a real JupyterLab in Debian's Chromium with Playwright (no browser downloads).

Used by the browser tests (``tests/browser/test_*.py``) and by ``benchmarks/bench_view.py``.

* :class:`JupyterLabServer` starts ``jupyter lab`` on a free loopback port with
  a random token; its config, runtime, data, settings and workspace folders
  live in a temporary directory, news and update checks are off, and the
  application object is exposed to the page (``window.jupyterapp``) so that
  the test waits on the application's own state rather than on CSS
  selectors of editors.
* :func:`shared_lab_server` is one such server for every browser test of a pytest run
  (started on first use, stopped by ``tests/browser/conftest.py`` at the end of the session,
  or at exit): each test gets its own folder under its root, its own JupyterLab workspace
  and its own kernel, shut down when the test ends.
* :func:`open_lab` launches Chromium headless and opens a notebook, on the shared server or
  on a server of its own.
* :class:`LabPage` runs all cells, presses keys on a slider and measures the
  time from the key press to new pixels on the figure's canvas.

The kernels run outside test mode (``ROBOLAB_TEST_MODE=0``) so that the
widgets really render.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def chromium_available() -> bool:
    return CHROMIUM.exists() and os.access(CHROMIUM, os.X_OK)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class JupyterLabServer:
    """A JupyterLab server on 127.0.0.1 serving ``root`` (start with ``with``)."""

    def __init__(self, root: Path, workdir: Path, options: Sequence[str] = ()) -> None:
        """``options``: more command-line options of the server (after the harness's own)."""
        self.root = Path(root)
        self.workdir = Path(workdir)
        self.options = list(options)
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        self.process: subprocess.Popen[bytes] | None = None
        self._log: Any = None
        self.log_path = self.workdir / "jupyterlab.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _environment(self) -> dict[str, str]:
        env = {
            k: v for k, v in os.environ.items() if k not in ("PYTEST_CURRENT_TEST", "MPLBACKEND")
        }
        for name, sub in (
            ("JUPYTER_CONFIG_DIR", "config"),
            ("JUPYTER_RUNTIME_DIR", "runtime"),
            ("JUPYTER_DATA_DIR", "data"),
            ("JUPYTERLAB_SETTINGS_DIR", "settings"),
            ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
            ("IPYTHONDIR", "ipython"),
        ):
            path = self.workdir / sub
            path.mkdir(parents=True, exist_ok=True)
            env[name] = str(path)
        env["ROBOLAB_TEST_MODE"] = "0"
        # a pass in the browser is saved (as for a student), but here, not in the tester's home
        env["ROBOLAB_PROGRESS_FILE"] = str(self.workdir / "progress.json")
        env["JUPYTER_PLATFORM_DIRS"] = "1"
        return env

    def _settings(self) -> None:
        """User settings: no news or update checks; every cell rendered (no windowing)."""
        settings = {
            ("apputils-extension", "notification"): {
                "checkForUpdates": False,
                "fetchNews": "false",
            },
            ("notebook-extension", "tracker"): {"windowingMode": "none"},
        }
        for (extension, plugin), values in settings.items():
            folder = self.workdir / "settings" / "@jupyterlab" / extension
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{plugin}.jupyterlab-settings").write_text(json.dumps(values))

    #: The application's name in messages.
    name = "JupyterLab"

    def server_options(self) -> list[str]:
        """The Jupyter server's options: loopback, this port and token, this root."""
        options = [
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            options.append("--allow-root")
        return options

    def command(self) -> list[str]:
        """The command line that starts the server."""
        return [
            *(sys.executable, "-m", "jupyter", "lab"),
            *self.server_options(),
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
            *self.options,
        ]

    def start(self, timeout: float = 90.0) -> None:
        self._settings()
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command(),
            cwd=self.root,
            env=self._environment(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited early:\n{self.log()}")
            try:
                self.api("GET", "/api/status")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.3)
        raise RuntimeError(f"{self.name} did not answer within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def api(self, method: str, path: str) -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self) -> None:
        """Close every session and kernel (a shared server, between two tests)."""
        with contextlib.suppress(Exception):
            for session in self.api("GET", "/api/sessions"):
                self.api("DELETE", f"/api/sessions/{session['id']}")
        with contextlib.suppress(Exception):
            for kernel in self.api("GET", "/api/kernels"):
                self.api("DELETE", f"/api/kernels/{kernel['id']}")

    def stop(self) -> None:
        """Shut down every kernel, then the server (killed if it does not stop)."""
        if self.process is None:
            return
        self.shut_down_kernels()
        with contextlib.suppress(Exception):
            self.api("POST", "/api/shutdown")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self._log.close()

    def __enter__(self) -> JupyterLabServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_PIXELS_HASH_JS = """
(element) => {
  // A fingerprint of what an element shows: the pixels of a canvas (ipympl), the source of an
  // image (a PNG pushed to an ipywidgets.Image or an inline figure). null while loading.
  if (!element) return null;
  if (element.tagName === 'CANVAS') {
    if (!element.width || !element.height) return null;
    const data = element.getContext('2d').getImageData(0, 0, element.width, element.height).data;
    let h = 0;
    for (let i = 0; i < data.length; i += 4) {
      h = (Math.imul(h, 31) + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) | 0;
    }
    return 'canvas:' + h;
  }
  if (element.tagName === 'IMG') {
    if (!element.complete || !element.naturalWidth) return null;
    const source = element.src;
    let h = 0;
    for (let i = 0; i < source.length; i += 3) h = (Math.imul(h, 31) + source.charCodeAt(i)) | 0;
    return 'img:' + source.length + ':' + h;
  }
  return null;
}
"""


def wait_for_notebook(page: Any, path: str, timeout: float = 120.0) -> None:
    """Wait until JupyterLab on ``page`` shows the notebook ``path`` with its kernel ready.

    Opens it (``docmanager:open``) if the page's current widget is another document.
    """
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout * 1e3)
    page.evaluate(
        """async (path) => {
             const app = window.jupyterapp;
             await app.restored;
             let panel = app.shell.currentWidget;
             if (!panel || !panel.sessionContext || panel.context.path !== path) {
               panel = await app.commands.execute('docmanager:open', {path});
             }
             await panel.context.ready;
             await panel.sessionContext.ready;
           }""",
        path,
    )


class LabPage:
    """A JupyterLab page with one notebook open."""

    def __init__(self, page: Any, server: JupyterLabServer, workspace: str = "default") -> None:
        self.page = page
        self.server = server
        self.workspace = workspace

    def open_notebook(self, path: str, timeout: float = 120.0) -> None:
        where = "" if self.workspace == "default" else f"/workspaces/{self.workspace}"
        self.page.goto(f"{self.server.url}/lab{where}/tree/{path}?token={self.server.token}")
        wait_for_notebook(self.page, path, timeout)

    def run_all_cells(self, timeout: float = 180.0) -> None:
        """Run every cell and wait until all code cells have executed and the kernel is idle."""
        self.page.evaluate(
            """async () => {
                 const app = window.jupyterapp;
                 const panel = app.shell.currentWidget;
                 app.shell.activateById(panel.id);
                 await app.commands.execute('notebook:run-all-cells');
               }"""
        )
        self.page.wait_for_function(
            """() => {
                 const panel = window.jupyterapp.shell.currentWidget;
                 const kernel = panel.sessionContext.session?.kernel;
                 if (!kernel || kernel.status !== 'idle') return false;
                 const cells = panel.content.model.cells;
                 for (let i = 0; i < cells.length; i++) {
                   const cell = cells.get(i);
                   if (cell.type === 'code' && !cell.executionCount) return false;
                 }
                 return true;
               }""",
            timeout=timeout * 1e3,
            polling=250,
        )

    def errors(self) -> list[str]:
        """Text of every error output in the notebook."""
        return self.page.evaluate(
            """() => {
                 const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
                 const found = [];
                 for (let i = 0; i < cells.length; i++) {
                   const cell = cells.get(i);
                   if (cell.type !== 'code') continue;
                   for (let j = 0; j < cell.outputs.length; j++) {
                     const out = cell.outputs.get(j).toJSON();
                     if (out.output_type === 'error') found.push(out.ename + ': ' + out.evalue);
                   }
                 }
                 return found;
               }"""
        )

    def canvas_hash(self, selector: str) -> str | None:
        """Fingerprint of the pixels shown by the first element matching ``selector``."""
        return self.page.evaluate(
            "([selector, hashSource]) => eval(hashSource)(document.querySelector(selector))",
            [selector, _PIXELS_HASH_JS],
        )

    def key_to_pixels(
        self,
        handle_selector: str,
        pixels_selector: str,
        key: str,
        timeout_ms: float = 5000,
        focus: bool = True,
    ) -> float:
        """Press ``key`` on an element and return milliseconds until the figure shows new pixels.

        The clock starts in the page at the ``keydown`` event (capture phase)
        and stops at the first animation frame where the element matching
        ``pixels_selector`` (a canvas or an image, looked up again every
        frame: an inline figure is replaced, not redrawn) shows something new.
        With ``focus=False`` the key goes to whatever has the focus (the handle
        focused once, keys pressed one after the other as a student does).
        """
        if focus:
            self.page.focus(handle_selector)
        self.page.evaluate(
            """([selector, hashSource]) => {
                 const hash = eval(hashSource);
                 const state = {start: null, before: hash(document.querySelector(selector))};
                 window.__robolabLatency = state;
                 window.addEventListener('keydown', () => { state.start = performance.now(); },
                                         {capture: true, once: true});
               }""",
            [pixels_selector, _PIXELS_HASH_JS],
        )
        self.page.keyboard.press(key)
        waited = self.page.evaluate(
            """([selector, hashSource, timeout]) => new Promise((resolve) => {
                 const hash = eval(hashSource);
                 const state = window.__robolabLatency;
                 const begin = performance.now();
                 const poll = () => {
                   const now = hash(document.querySelector(selector));
                   if (state.start !== null && now !== null && now !== state.before) {
                     resolve(performance.now() - state.start);
                   } else if (performance.now() - begin > timeout) {
                     resolve(null);
                   } else {
                     requestAnimationFrame(poll);
                   }
                 };
                 requestAnimationFrame(poll);
               })""",
            [pixels_selector, _PIXELS_HASH_JS, timeout_ms],
        )
        if waited is None:
            raise AssertionError(
                f"no new pixels on {pixels_selector!r} within {timeout_ms:.0f} ms of {key!r} "
                f"on {handle_selector!r}: {self._key_diagnostics(handle_selector, pixels_selector)}"
            )
        return float(waited)

    def _key_diagnostics(self, handle_selector: str, pixels_selector: str) -> str:
        """What the page shows after a key press that drew nothing (for the failure message)."""
        seen = self.page.evaluate(
            """([selector, hashSource]) => {
                 const state = window.__robolabLatency || {};
                 const active = document.activeElement;
                 const kernel = window.jupyterapp?.shell.currentWidget?.sessionContext?.session
                   ?.kernel;
                 return {
                   keydown: state.start !== null && state.start !== undefined,
                   pixels_changed: eval(hashSource)(document.querySelector(selector))
                     !== state.before,
                   canvases: document.querySelectorAll(selector).length,
                   focused: active ? active.tagName + '.' + active.className : null,
                   kernel: kernel ? kernel.status + '/' + kernel.connectionStatus : null,
                 };
               }""",
            [pixels_selector, _PIXELS_HASH_JS],
        )
        seen["slider value"] = self.page.get_attribute(handle_selector, "aria-valuenow")
        return ", ".join(f"{name} {value}" for name, value in seen.items())


_SHARED: JupyterLabServer | None = None
_PAGES = itertools.count(1)


def shared_lab_server() -> JupyterLabServer:
    """The JupyterLab server every browser test of this process shares (started on first use).

    Starting JupyterLab takes seconds; the tests open one notebook each, so they share one
    server and keep apart by folder, workspace and kernel (see :func:`open_lab`).
    """
    global _SHARED
    if _SHARED is None or _SHARED.process is None or _SHARED.process.poll() is not None:
        workdir = Path(tempfile.mkdtemp(prefix="robolab-lab-"))
        (workdir / "root").mkdir()
        server = JupyterLabServer(workdir / "root", workdir)
        server.start()
        if _SHARED is None:
            atexit.register(stop_shared_lab_server)
        _SHARED = server
    return _SHARED


def stop_shared_lab_server() -> None:
    """Stop the shared server (if one was started) and remove its folder."""
    global _SHARED
    if _SHARED is not None:
        server, _SHARED = _SHARED, None
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@contextlib.contextmanager
def open_lab(
    notebook: Path,
    workdir: Path,
    viewport: tuple[int, int] = (1500, 1100),
    server: JupyterLabServer | None = None,
) -> Iterator[LabPage]:
    """Open a copy of ``notebook`` in JupyterLab in a fresh Chromium.

    Without ``server``, start a JupyterLab of its own with its state in ``workdir``. On a
    given (shared) ``server``, the copy goes to a folder of its own under the server's root,
    the page uses a workspace of its own (nothing another test opened is restored), and
    every kernel is shut down when the page closes.
    """
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        if server is None:
            root = workdir / "root"
            root.mkdir(parents=True, exist_ok=True)
            server = stack.enter_context(JupyterLabServer(root, workdir))
            folder, workspace = "", "default"
        else:
            folder = f"page{next(_PAGES)}-{secrets.token_hex(3)}"
            workspace = folder
            stack.callback(server.shut_down_kernels)
        (server.root / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(notebook, server.root / folder / notebook.name)
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        stack.callback(browser.close)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        lab = LabPage(page, server, workspace)
        lab.open_notebook(f"{folder}/{notebook.name}" if folder else notebook.name)
        yield lab
        page.close()
