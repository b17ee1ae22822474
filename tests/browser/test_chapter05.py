"""Chapter 5 in a real browser: the twist view's joint-velocity sliders in JupyterLab.

Opens ``05-velocity-kinematics-and-jacobians.ipynb`` in JupyterLab (Debian's Chromium,
Playwright, the live ipympl backend) on a 1024×768 screen, runs all its cells, then
presses the right arrow key on the first joint-velocity slider (q̇1: 0.50 → 0.65 rad/s in
three steps of 0.05) and waits for new pixels on the figure and for the read-out's
twist V_s = J_s q̇ to follow (ω_z = q̇1 for the Puma, whose first axis is z of {s}). It
then switches the frame to ``base`` and waits for the read-out to name the base-frame
Jacobian. With ``ROBOLAB_SCREENSHOTS=<folder>`` it saves the widget as
``05-velocity-kinematics-and-jacobians.png`` there (``docs/img`` holds the committed one).

Skipped without ``/usr/bin/chromium`` unless ``ROBOLAB_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chapter_steps import SCREEN, opened_chapter, save_screenshot, wait_for_canvas, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "05-velocity-kinematics-and-jacobians.ipynb"
)
LIVE = ".robolab-live-figure"
CANVAS = f"{LIVE} .robolab-figure canvas"
READOUT = f"{LIVE} .robolab-live-readout"
FIRST_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"


def _twist_row(text: str) -> list[str]:
    """The numbers of the read-out line after 'V_s = J_s q̇ ...:'."""
    lines = [line for line in text.splitlines() if line.strip()]
    index = next(i for i, line in enumerate(lines) if line.startswith("V_s = J_s"))
    return lines[index + 1].split()


def test_arrow_keys_on_a_joint_velocity_slider_move_the_arrows_and_the_twist(tmp_path):
    with opened_chapter(NOTEBOOK, tmp_path) as lab:
        page = lab.page
        wait_for_canvas(page, CANVAS)
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        wait_for_text(page, READOUT, "V_s = J_s")
        page.wait_for_timeout(1000)  # the first draws after the browser attached
        before = _twist_row(page.inner_text(READOUT))
        assert before[2] == "0.500"  # ω_z = q̇1
        pixels = lab.canvas_hash(CANVAS)
        for _ in range(3):
            lab.key_to_pixels(FIRST_SLIDER, CANVAS, "ArrowRight", timeout_ms=30_000)
        page.wait_for_function(
            "(s) => document.querySelector(s).innerText.split('\\n')"
            ".some((line) => line.trim().startsWith('0.195') || line.includes('0.650'))",
            arg=READOUT,
            timeout=30_000,
        )
        after = _twist_row(page.inner_text(READOUT))
        assert after[2] == "0.650", after
        assert lab.canvas_hash(CANVAS) != pixels
        widget = page.locator(LIVE).first
        box = widget.bounding_box()
        assert box is not None and box["width"] <= SCREEN[0], box
        save_screenshot(widget, "05-velocity-kinematics-and-jacobians.png")
        page.locator(f"{LIVE} .widget-toggle-buttons button", has_text="base").first.click()
        wait_for_text(page, READOUT, "J, rows [v; ω], base frame {0}", 30_000)
