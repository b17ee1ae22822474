"""Chapter 12 in a real browser: the joint tuner in JupyterLab.

Opens ``12-independent-joint-control.ipynb`` in JupyterLab (Debian's Chromium, Playwright,
the live ipympl backend) on a 1024×768 screen, runs all its cells, then presses the right
arrow key ten times on the K_p slider (0.35 → 0.85 N·m/rad in steps of 0.05: each press
re-simulates the joint and redraws both plots) and waits each time for new pixels on the
figure; the read-out must then say ``Kp = 0.85`` and show a larger ω_n. The key-to-pixels
times are printed (median and all; run with ``-s`` to see them), never asserted. With
``ROBOLAB_SCREENSHOTS=<folder>`` it saves the widget as
``12-independent-joint-control.png`` there (``docs/img`` holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "12-independent-joint-control.ipynb"
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
KP_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"


def test_the_kp_slider_re_simulates_and_redraws_the_step_response(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "Kp = 0.35")
        wait_for_text(page, READOUT, "ω_n = 30.5 rad/s")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        pixels = lab.canvas_hash(CANVAS)
        latencies = [
            lab.key_to_pixels(KP_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000) for _ in range(10)
        ]
        wait_for_text(page, READOUT, "Kp = 0.85", 30_000)
        assert lab.canvas_hash(CANVAS) != pixels
        text = page.inner_text(READOUT)
        assert "ω_n = 47.5 rad/s" in text, text  # √(0.85/J), J = J_m + M22/110² = 3.762e-4
        print(
            f"\nchapter 12, key press to new pixels: median {statistics.median(latencies):.0f} ms "
            f"over {len(latencies)} presses: {[round(x) for x in latencies]}"
        )
        page.wait_for_timeout(500)
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0] and box["height"] <= SCREEN[1], box
        save_screenshot(widget, "12-independent-joint-control.png")
