"""Chapter 3 in a real browser: the screw-motion explorer's θ slider in JupyterLab.

Opens ``03-screw-theory-and-poe.ipynb`` in JupyterLab (Debian's Chromium, Playwright, the
live ipympl backend) on a 1024×768 screen, runs all its cells, then presses the right arrow
key on the first slider of the first live figure (θ: 270° → 280° in two steps of 5°) and
waits for new pixels on the figure and for the read-out to follow (θ = 4.712 → 4.887 rad).
With ``ROBOLAB_SCREENSHOTS=<folder>`` it saves the widget as
``03-screw-theory-and-poe.png`` there (``docs/img`` holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .jupyterlab_harness import chromium_available, open_lab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "03-screw-theory-and-poe.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
FIRST_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"
SCREEN = (1024, 768)


def _require_browser() -> None:
    if chromium_available():
        return
    message = "Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
    if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (ROBOLAB_REQUIRE_BROWSER=1: the browser test must run)")
    pytest.skip(message)


def _wait_for_text(page, selector: str, text: str, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "([selector, text]) => { const e = document.querySelector(selector); "
        "return e !== null && e.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def test_arrow_keys_on_the_screw_angle_move_the_frame_and_the_readout(tmp_path):
    _require_browser()
    pytest.importorskip("playwright.sync_api")
    with open_lab(NOTEBOOK, tmp_path, viewport=SCREEN) as lab:
        page = lab.page
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # room on a small screen
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        page.wait_for_selector(CANVAS, state="attached", timeout=120_000)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        page.wait_for_function(
            "(s) => { const c = document.querySelector(s); return c && c.width > 0; }",
            arg=CANVAS,
            timeout=120_000,
        )
        _wait_for_text(page, READOUT, "θ = 4.712 rad")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(2):
            lab.key_to_pixels(FIRST_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        _wait_for_text(page, READOUT, "θ = 4.887 rad", 30_000)  # 280° in radians
        assert lab.canvas_hash(CANVAS) != pixels
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0], box
        folder = os.environ.get("ROBOLAB_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            widget.screenshot(path=str(Path(folder) / "03-screw-theory-and-poe.png"))
