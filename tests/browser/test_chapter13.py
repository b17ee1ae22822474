"""Chapter 13 in a real browser: three controllers side by side in JupyterLab.

Opens ``13-model-based-control.ipynb`` in JupyterLab (Debian's Chromium, Playwright, the live
ipympl backend) on a 1024×768 screen, runs all its cells, then presses the left arrow key four
times on the model-mass slider (× 1.00 → × 0.80 in steps of 0.05: each press re-simulates PD,
PD + gravity compensation and computed torque for 3 s at 1 kHz and redraws the three error
panels) and waits each time for new pixels on the figure; the read-out must then say
``model masses × 0.80`` and give computed torque's RMS error with a 20 % light model, 1.530°
(the chapter's section 4, recomputed by tests/chapters/test_chapter13.py). The key-to-pixels
times are printed (run with ``-s``), never asserted. With ``ROBOLAB_SCREENSHOTS=<folder>`` it
saves the widget as ``13-model-based-control.png`` there (``docs/img`` holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "13-model-based-control.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
MODEL_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"


def test_the_model_error_slider_re_simulates_and_redraws_the_three_controllers(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "model masses × 1.00")
        wait_for_text(page, READOUT, "0.009°")  # computed torque, exact model
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        latencies = [
            lab.key_to_pixels(MODEL_SLIDER, CANVAS, "ArrowLeft", timeout_ms=60_000)
            for _ in range(4)
        ]
        wait_for_text(page, READOUT, "model masses × 0.80", 60_000)
        assert lab.canvas_hash(CANVAS) != pixels
        text = page.inner_text(READOUT)
        assert "1.530°" in text, text
        print(
            f"\nchapter 13, key press to new pixels: median {statistics.median(latencies):.0f} ms "
            f"over {len(latencies)} presses: {[round(x) for x in latencies]}"
        )
        page.wait_for_timeout(500)
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0] and box["height"] <= SCREEN[1], box
        save_screenshot(widget, "13-model-based-control.png")
