"""Steps that every chapter's browser test takes, written once (for ``test_chapterNN.py``).

* :func:`require_browser`: skip without Debian's Chromium, or fail under
  ``ROBOLAB_REQUIRE_BROWSER=1``;
* :func:`opened_chapter`: JupyterLab on a small screen (the left sidebar collapsed), every
  cell run, no cell failed;
* :func:`wait_for_text`, :func:`wait_for_canvas`: wait on the page's state;
* :func:`save_screenshot`: the widget as a PNG in ``$ROBOLAB_SCREENSHOTS``, if set.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .jupyterlab_harness import LabPage, chromium_available, open_lab, shared_lab_server

#: The smallest screen a widget must fit.
SCREEN = (1024, 768)


def require_browser() -> None:
    """Skip the test without ``/usr/bin/chromium`` (fail under ``ROBOLAB_REQUIRE_BROWSER=1``)."""
    if chromium_available():
        pytest.importorskip("playwright.sync_api")
        return
    message = "Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
    if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (ROBOLAB_REQUIRE_BROWSER=1: the browser test must run)")
    pytest.skip(message)


@contextlib.contextmanager
def opened_chapter(
    notebook: Path, workdir: Path, screen: tuple[int, int] = SCREEN
) -> Iterator[LabPage]:
    """A chapter open in JupyterLab with all its cells run, on a ``screen``-sized page.

    The page runs on the JupyterLab server all browser tests share; ``workdir`` is unused
    (kept for the tests' call signature).
    """
    require_browser()
    with open_lab(notebook, workdir, viewport=screen, server=shared_lab_server()) as lab:
        lab.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        yield lab


def wait_for_text(page, selector: str, text: str, timeout: float = 60_000) -> None:
    """Wait until the first element matching ``selector`` shows ``text``."""
    page.wait_for_function(
        "([selector, text]) => { const e = document.querySelector(selector); "
        "return e !== null && e.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def wait_for_canvas(page, selector: str) -> None:
    """Wait until the canvas ``selector`` exists and has pixels."""
    page.wait_for_selector(selector, state="attached", timeout=120_000)
    page.wait_for_function(
        "(s) => { const c = document.querySelector(s); return c && c.width > 0; }",
        arg=selector,
        timeout=120_000,
    )


def save_screenshot(locator, name: str) -> None:
    """Save ``locator``'s element as ``$ROBOLAB_SCREENSHOTS/name`` when that is set."""
    folder = os.environ.get("ROBOLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(Path(folder) / name))
