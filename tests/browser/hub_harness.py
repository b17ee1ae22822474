"""A real JupyterHub on the loopback interface, for ``tests/browser/test_hub.py``.

* :class:`Hub` starts ``jupyterhub`` with its ``DummyAuthenticator`` (any name, any
  password) and ``SimpleLocalProcessSpawner`` (each user's server is a local process of
  ``jupyterhub-singleuser`` from this Python, in a home of its own under the temporary
  folder), behind ``configurable-http-proxy`` (npm). The hub's database, cookie secret,
  pid files, logs and the users' homes all live in that folder; :meth:`Hub.stop` stops
  the hub (which stops the users' servers and the proxy) and ends, by process id, any
  process of ours still running there (:func:`processes_under`).
* :func:`course_remote` puts the repository's committed ``HEAD`` into a local bare
  repository, as a teacher's GitHub repository would be, and :func:`nbgitpuller_link`
  builds the link that makes each student's copy of the course from it.
* :func:`log_in` fills in the hub's login form in a Playwright page.

The single-user servers run outside robolab's test mode (``ROBOLAB_TEST_MODE=0``) so that
the widgets render, expose the JupyterLab application to the page
(``window.jupyterapp``, as :mod:`tests.browser.jupyterlab_harness` does) and have news
and update checks off.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from .jupyterlab_harness import _free_port

#: The name of the hub's service whose token the test uses for the REST API.
SERVICE = "robolab-test"


def proxy_command() -> str | None:
    """Path of ``configurable-http-proxy`` (``npm install -g configurable-http-proxy``), or None."""
    return shutil.which("configurable-http-proxy")


def jupyterhub_available() -> bool:
    """Whether ``jupyterhub`` and ``jupyterhub-singleuser`` are installed next to this Python."""
    scripts = Path(sys.executable).parent
    return (scripts / "jupyterhub").exists() and (scripts / "jupyterhub-singleuser").exists()


def processes_under(folder: Path) -> list[int]:
    """Process ids (of this machine) whose working directory is inside ``folder``.

    Every process the hub starts (the proxy, the users' servers, their kernels) works in
    the hub's folder or in a user's home below it, so this finds what a stop left behind.
    """
    folder = folder.resolve()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            cwd = Path(os.readlink(entry / "cwd"))
            if cwd == folder or folder in cwd.parents:
                found.append(int(entry.name))
    return found


def _run(command: list[str], cwd: Path | None = None) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def course_remote(repository: Path, folder: Path, branch: str = "main") -> Path:
    """A bare git repository ``folder/robolab`` holding ``repository``'s ``HEAD`` as ``branch``.

    This is what a teacher's repository on GitHub is for nbgitpuller: the committed course
    (not the uncommitted files of a work tree).
    """
    remote = folder / "robolab"
    _run(["git", "init", "--quiet", "--bare", f"--initial-branch={branch}", str(remote)])
    # a shallow clone of the repository (as in some CI checkouts) may still be pushed
    _run(["git", "-C", str(remote), "config", "receive.shallowUpdate", "true"])
    _run(["git", "push", "--quiet", str(remote), f"HEAD:refs/heads/{branch}"], cwd=repository)
    return remote


def nbgitpuller_link(remote: Path, notebook: str, branch: str = "main") -> str:
    """The hub-relative nbgitpuller link that clones ``remote`` and opens ``notebook`` in it.

    ``notebook`` is the path inside the repository; nbgitpuller clones into a folder named
    like the repository (``robolab``), so the link opens ``lab/tree/robolab/<notebook>``.
    """
    query = urllib.parse.urlencode(
        {
            "repo": f"file://{remote}",
            "branch": branch,
            "urlpath": f"lab/tree/{remote.name}/{notebook}",
        }
    )
    return f"/hub/user-redirect/git-pull?{query}"


class Hub:
    """JupyterHub on 127.0.0.1 with all its state in ``workdir`` (start with ``with``)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir).resolve()
        self.homes = self.workdir / "homes"
        self.port = _free_port()
        self.hub_port = _free_port()
        self.proxy_api_port = _free_port()
        self.token = secrets.token_hex(16)
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.workdir / "jupyterhub.log"
        self._log: Any = None
        #: Seconds from launching ``jupyterhub`` until its REST API answered.
        self.startup_seconds: float | None = None
        #: The process ids that :meth:`stop` had to end itself (none after a clean stop).
        self.left_behind: list[int] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def home(self, user: str) -> Path:
        return self.homes / user

    def _config(self) -> str:
        scripts = Path(sys.executable).parent
        args = [
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")  # the single-user servers refuse root otherwise
        settings = {
            "ROBOLAB_TEST_MODE": "0",
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYTHONUNBUFFERED": "1",
        }
        roles = [
            {
                "name": SERVICE,
                "scopes": ["admin:users", "admin:servers", "access:servers", "list:users"],
                "services": [SERVICE],
            }
        ]
        state = self.workdir
        lines = [
            "# written by tests/browser/hub_harness.py",
            "import os",
            f"c.JupyterHub.bind_url = {self.url!r}",
            f"c.JupyterHub.hub_bind_url = 'http://127.0.0.1:{self.hub_port}'",
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{self.proxy_api_port}'",
            f"c.ConfigurableHTTPProxy.command = [{proxy_command()!r}]",
            f"c.ConfigurableHTTPProxy.pid_file = {str(state / 'proxy.pid')!r}",
            f"c.JupyterHub.pid_file = {str(state / 'jupyterhub.pid')!r}",
            f"c.JupyterHub.db_url = 'sqlite:///{state / 'jupyterhub.sqlite'}'",
            f"c.JupyterHub.cookie_secret_file = {str(state / 'jupyterhub_cookie_secret')!r}",
            "c.JupyterHub.cleanup_servers = True",
            "c.JupyterHub.cleanup_proxy = True",
            "c.JupyterHub.authenticator_class = 'dummy'",
            "c.JupyterHub.spawner_class = 'simple'",
            # a link to a stopped server (an nbgitpuller link) starts it without a click
            "c.JupyterHub.implicit_spawn_seconds = 0.5",
            f"c.JupyterHub.services = [{{'name': {SERVICE!r}, 'api_token': {self.token!r}}}]",
            f"c.JupyterHub.load_roles = {roles!r}",
            f"c.SimpleLocalProcessSpawner.home_dir_template = {str(self.homes / '{username}')!r}",
            f"c.Spawner.cmd = [{str(scripts / 'jupyterhub-singleuser')!r}]",
            f"c.Spawner.args = {args!r}",
            "c.Spawner.default_url = '/lab'",
            "c.Spawner.env_keep = ['PATH', 'LANG', 'LC_ALL', 'OPENBLAS_CORETYPE', "
            "'OPENBLAS_L2_SIZE', 'JUPYTERHUB_SINGLEUSER_APP']",
            f"c.Spawner.environment = {settings!r}",
            # each user's JupyterLab settings in their home (news and update checks off)
            "c.Spawner.environment['JUPYTERLAB_SETTINGS_DIR'] = "
            "lambda spawner: os.path.join(spawner.home_dir, '.jupyter', 'lab', 'user-settings')",
            "c.Spawner.environment['JUPYTERLAB_WORKSPACES_DIR'] = "
            "lambda spawner: os.path.join(spawner.home_dir, '.jupyter', 'lab', 'workspaces')",
            # a loaded 2-core machine takes a while to import JupyterLab
            "c.Spawner.http_timeout = 120",
            "c.Spawner.start_timeout = 180",
        ]
        return "\n".join(lines) + "\n"

    def prepare_home(self, user: str) -> Path:
        """Create ``user``'s home with JupyterLab settings: no news, every cell rendered."""
        settings = {
            ("apputils-extension", "notification"): {
                "checkForUpdates": False,
                "fetchNews": "false",
            },
            ("notebook-extension", "tracker"): {"windowingMode": "none"},
        }
        home = self.home(user)
        for (extension, plugin), values in settings.items():
            folder = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / extension
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{plugin}.jupyterlab-settings").write_text(json.dumps(values))
        return home

    def start(self, timeout: float = 90.0) -> None:
        if proxy_command() is None:
            raise RuntimeError("configurable-http-proxy is not on PATH")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.homes.mkdir(exist_ok=True)
        config = self.workdir / "jupyterhub_config.py"
        config.write_text(self._config())
        env = {
            k: v for k, v in os.environ.items() if k not in ("PYTEST_CURRENT_TEST", "MPLBACKEND")
        }
        self._log = self.log_path.open("wb")
        began = time.monotonic()
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(config)],
            cwd=self.workdir,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = began + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited early:\n{self.log()}")
            try:
                self.api("GET", "/hub/api/users")
                self.startup_seconds = time.monotonic() - began
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.3)
        raise RuntimeError(f"JupyterHub did not answer within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the hub's (or, under ``/user/<name>/``, a user server's) REST API as the service."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = response.read()
        return json.loads(answer) if answer else None

    def running_servers(self) -> dict[str, str]:
        """``{user: url}`` of every user whose server runs (from the hub's REST API)."""
        users = self.api("GET", "/hub/api/users")
        return {
            user["name"]: user["servers"][""]["url"]
            for user in users
            if user.get("servers", {}).get("", {}).get("ready")
        }

    def stop(self) -> None:
        """Stop the hub (SIGTERM: it stops the users' servers and the proxy), then check.

        Whatever still runs with its working directory in the hub's folder after that is
        ended by its process id and listed in :attr:`left_behind`.
        """
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self._log.close()
        deadline = time.monotonic() + 10
        while processes_under(self.workdir) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.left_behind = processes_under(self.workdir)
        for pid in self.left_behind:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def __enter__(self) -> Hub:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def log_in(page: Any, user: str, timeout: float = 60_000) -> None:
    """Fill in the hub's login form on ``page`` (the DummyAuthenticator takes any password)."""
    page.wait_for_selector("#username_input", timeout=timeout)
    page.fill("#username_input", user)
    page.fill("#password_input", f"{user}-password")
    page.click("#login_submit")
