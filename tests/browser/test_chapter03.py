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

from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "03-screw-theory-and-poe.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
FIRST_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"


def test_arrow_keys_on_the_screw_angle_move_the_frame_and_the_readout(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "θ = 4.712 rad")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(2):
            lab.key_to_pixels(FIRST_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        wait_for_text(page, READOUT, "θ = 4.887 rad", 30_000)  # 280° in radians
        assert lab.canvas_hash(CANVAS) != pixels
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0], box
        save_screenshot(widget, "03-screw-theory-and-poe.png")
