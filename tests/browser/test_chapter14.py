"""Chapter 14 in a real browser: the null-space gain tuner and the pick-and-place scrubber.

Opens ``14-capstone-pick-and-place.ipynb`` in JupyterLab (Debian's Chromium, Playwright, the
live ipympl backend) on a 1024×768 screen and runs all its cells. On the tuner of section 3
it presses the right arrow key twice on the k₀ slider (20 → 40): each press re-runs the
resolved-rate motion and redraws the plots, so the test waits for new pixels, and the
read-out changes from ``joint_limit`` to ``reached after 89 steps``. With
``ROBOLAB_SCREENSHOTS=<folder>`` it saves the tuner as ``14-capstone-pick-and-place.png``
(``docs/img`` holds the committed one). It then scrubs the animation of section 4 with the
arrow key and waits for the arm's pixels to change.

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "14-capstone-pick-and-place.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
GAIN_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"
ANIMATION = ".robolab-animation"
ANIMATION_CANVAS = f"{ANIMATION} .robolab-figure canvas"
SCRUBBER = f"{ANIMATION} .robolab-frame-slider .noUi-handle"
TIME_LABEL = f"{ANIMATION} .widget-html"


def test_the_null_space_gain_re_simulates_and_the_scrubber_moves_the_arm(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "joint_limit after 9 steps")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(2):
            lab.key_to_pixels(GAIN_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        assert float(page.get_attribute(GAIN_SLIDER, "aria-valuenow")) == 40
        wait_for_text(page, READOUT, "reached after 89 steps", 30_000)
        assert lab.canvas_hash(CANVAS) != pixels
        page.wait_for_timeout(500)
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0] and box["height"] <= SCREEN[1], box
        save_screenshot(widget, "14-capstone-pick-and-place.png")

        page.locator(ANIMATION).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        wait_for_canvas(page, ANIMATION_CANVAS)
        page.wait_for_timeout(1000)
        label = page.inner_text(TIME_LABEL)
        before = lab.canvas_hash(ANIMATION_CANVAS)
        for _ in range(5):  # five frames of 50 ms: the arm leaves the ready pose
            lab.key_to_pixels(SCRUBBER, ANIMATION_CANVAS, "ArrowRight", timeout_ms=30_000)
        assert float(page.get_attribute(SCRUBBER, "aria-valuenow")) == 5
        assert page.inner_text(TIME_LABEL) != label
        assert lab.canvas_hash(ANIMATION_CANVAS) != before
