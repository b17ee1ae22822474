"""Chapter 9 in a real browser: the Newton–Euler pass stepper in JupyterLab.

Opens ``09-newton-euler-and-mass-matrix.ipynb`` in JupyterLab (Debian's Chromium,
Playwright, the live ipympl backend) on a 1024×768 screen, runs all its cells, then on the
pass stepper presses the right arrow key on its ``step`` slider twice (step 0 → 2: the arrows
of links 1 and 2 appear, new pixels, the read-out says "Step 2 of 12"), clicks *Next* ten
times, waiting for each step, to the end of the backward pass ("Step 12 of 12", F_1's
165.16 N in the table), and *Back* once. With ``ROBOLAB_SCREENSHOTS=<folder>`` it saves the
widget at the last step as ``09-newton-euler-and-mass-matrix.png`` there (``docs/img``
holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "09-newton-euler-and-mass-matrix.ipynb"
)
STEPPER = ".robolab-rnea-stepper"
CANVAS = f"{STEPPER} .robolab-figure canvas"
READOUT = f"{STEPPER} .robolab-live-readout"
SLIDER = f"{STEPPER} .robolab-slider >> nth=0 >> .noUi-handle"


def _wait_for_still_pixels(lab, timeout_s: float = 30.0) -> None:
    """Wait until the canvas shows the same pixels twice, 700 ms apart (the last draw landed)."""
    previous = lab.canvas_hash(CANVAS)
    for _ in range(int(timeout_s / 0.7)):
        lab.page.wait_for_timeout(700)
        current = lab.canvas_hash(CANVAS)
        if current == previous:
            return
        previous = current
    raise AssertionError("the stepper's canvas kept changing")


def test_the_stepper_walks_both_passes_with_keys_and_buttons(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(STEPPER).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "Step 0 of 12")
        _wait_for_still_pixels(lab)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(2):
            lab.key_to_pixels(SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        wait_for_text(page, READOUT, "Step 2 of 12. Forward pass, link 2", 30_000)
        assert lab.canvas_hash(CANVAS) != pixels
        after_keys = lab.canvas_hash(CANVAS)
        next_button = page.locator(f"{STEPPER} button", has_text="Next").first
        for step in range(3, 13):  # one click per link, each waited for, as a student would
            next_button.click()
            wait_for_text(page, READOUT, f"Step {step} of 12.", 30_000)
        wait_for_text(page, READOUT, "Step 12 of 12. Backward pass, link 1")
        wait_for_text(page, READOUT, "165.16")  # F_1's force along z_1: the arm's weight
        _wait_for_still_pixels(lab)
        assert lab.canvas_hash(CANVAS) != after_keys
        widget = page.locator(STEPPER).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0] and box["height"] <= SCREEN[1], box
        save_screenshot(widget, "09-newton-euler-and-mass-matrix.png")
        page.locator(f"{STEPPER} button", has_text="Back").first.click()
        wait_for_text(page, READOUT, "Step 11 of 12. Backward pass, link 2", 30_000)
