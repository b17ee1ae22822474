"""Chapter 11 in a real browser: the waypoint editor in JupyterLab.

Opens ``11-trajectory-generation.ipynb`` in JupyterLab (Debian's Chromium, Playwright, the
live ipympl backend) on a 1024×768 screen, runs all its cells, then on the waypoint editor

* presses the right arrow key on the time slider (t: 0 → 0.15 s in three steps of 0.05 s)
  and waits for new pixels (the arm and the cursors move) and for the read-out's
  ``t = 0.15 s``;
* presses the right arrow key on the first via slider (joint 2 at via 1: 10° → 11°) and
  waits for new pixels and a new read-out (the plan changes);
* chooses ``cubic, stop at each`` in the time-scaling dropdown and waits for the read-out
  to name it.

With ``ROBOLAB_SCREENSHOTS=<folder>`` it saves the widget as
``11-trajectory-generation.png`` there (``docs/img`` holds the committed one). Skipped
without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_jupyterlab import _opened, _screenshot, _wait_for_canvas, _wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "11-trajectory-generation.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
FIRST_VIA = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"
TIME_SLIDER = f"{LIVE} .robolab-slider >> nth=4 >> .noUi-handle"
SCALING = f"{LIVE} .robolab-scaling select"
SCREEN = (1024, 768)


def test_the_waypoint_editor_scrubs_replans_and_switches_scaling(tmp_path):
    with _opened(NOTEBOOK, tmp_path, SCREEN) as lab:
        page = lab.page
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # room on a small screen
        _wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        _wait_for_text(page, READOUT, "t = 0.00 s")
        page.wait_for_timeout(1000)  # the layout after collapsing the side bar

        pixels = lab.canvas_hash(CANVAS)
        for _ in range(3):
            lab.key_to_pixels(TIME_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        _wait_for_text(page, READOUT, "t = 0.15 s", 30_000)
        assert lab.canvas_hash(CANVAS) != pixels

        pixels, readout = lab.canvas_hash(CANVAS), page.inner_text(READOUT)
        lab.key_to_pixels(FIRST_VIA, CANVAS, "ArrowRight", timeout_ms=30_000)
        assert float(page.get_attribute(FIRST_VIA, "aria-valuenow")) == 11
        page.wait_for_function(
            "([s, before]) => document.querySelector(s).innerText !== before",
            arg=[READOUT, readout],
            timeout=30_000,
        )
        assert lab.canvas_hash(CANVAS) != pixels

        page.select_option(SCALING, label="cubic, stop at each")
        _wait_for_text(page, READOUT, "cubic, stop at each", 30_000)
        page.wait_for_timeout(1000)
        box = page.locator(LIVE).first.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0] and box["height"] <= SCREEN[1], box
        _screenshot(page, LIVE, "11-trajectory-generation.png")
