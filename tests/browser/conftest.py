"""The demo notebooks here are opened by the browser test, not run by nbval.

The browser tests share one JupyterLab server (``jupyterlab_harness.shared_lab_server``);
it stops when the test session ends.
"""

from .jupyterlab_harness import stop_shared_lab_server

collect_ignore_glob = ["*.ipynb"]


def pytest_sessionfinish(session, exitstatus):
    stop_shared_lab_server()
