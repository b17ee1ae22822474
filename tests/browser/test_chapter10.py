"""Chapter 10 in a real browser: "drop the arm" in JupyterLab.

Opens ``10-forward-dynamics-and-simulation.ipynb`` in JupyterLab (Debian's Chromium,
Playwright, the live ipympl backend) on a 1024×768 screen, runs all its cells, then presses
the right arrow key on the time slider (t: 0 → 0.50 s in ten steps of 0.05 s) and waits
for new pixels on the figure (the arm falls, the marker moves along the energy plot) and for
the read-out to say ``t = 0.50 s``. It then clicks the ``Euler`` button and waits for the
read-out of the new run, whose energy is no longer constant. With
``ROBOLAB_SCREENSHOTS=<folder>`` it saves the widget as
``10-forward-dynamics-and-simulation.png`` there (``docs/img`` holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "10-forward-dynamics-and-simulation.ipynb"
)
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
TIME_SLIDER = f"{LIVE} .robolab-slider >> nth=1 >> .noUi-handle"  # after the friction slider


def test_the_time_slider_scrubs_the_fall_and_the_integrator_buttons_run_again(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "t = 0.00 s")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(10):
            lab.key_to_pixels(TIME_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        wait_for_text(page, READOUT, "t = 0.50 s", 30_000)
        assert lab.canvas_hash(CANVAS) != pixels
        text = page.inner_text(READOUT)
        assert "RK4, Δt = 5 ms" in text and "E(0) = 30.9031 J" in text, text
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0], box
        assert box["height"] <= SCREEN[1], box
        save_screenshot(widget, "10-forward-dynamics-and-simulation.png")
        page.locator(f"{LIVE} .widget-toggle-buttons button", has_text="Euler").first.click()
        wait_for_text(page, READOUT, "Euler, Δt = 5 ms", 60_000)
        assert "E(0) = 30.9031 J" in page.inner_text(READOUT)
