"""Chapter 6 in a real browser: the manipulability map's marker follows its sliders.

``06-singularities-and-manipulability.ipynb`` is opened in JupyterLab (Debian's Chromium,
Playwright, the live ipympl backend; see ``jupyterlab_harness.py``), all its cells run, then
the arrow keys on the q3 slider of the map's :func:`robolab.live_figure` must move the slider,
redraw the map's pixels (the marker) and change the read-out: √det(J Jᵀ) of the linear rows
and the two factors. The viewport is 1024×768, the smallest screen a chapter must fit. With
``ROBOLAB_SCREENSHOTS=<folder>`` the page is saved as ``06-singularities-and-manipulability.png``
(committed in ``docs/img``).
"""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from .test_jupyterlab import (
    REPOSITORY,
    _opened,
    _press_keys,
    _report,
    _screenshot,
    _wait_for_canvas,
    _wait_for_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTEBOOK = REPOSITORY / "notebooks" / "06-singularities-and-manipulability.ipynb"
MAP = ".robolab-live-figure:not(.robolab-teach)"
MAP_CANVAS = f"{MAP} .robolab-figure canvas"
MAP_READOUT = f"{MAP} .robolab-live-readout"
Q3_SLIDER = f"{MAP} .robolab-slider >> nth=1 >> .noUi-handle"

A2, A3, D4 = 0.4318, 0.0203, 0.4318  # Corke's Puma 560


def linear_manipulability(q2_degrees: float, q3_degrees: float) -> float:
    """|a2 (a2 c2 + a3 c23 - d4 s23)(a3 s3 + d4 c3)|: √det(J Jᵀ) of the wrist centre's rows."""
    q2, q3 = np.radians([q2_degrees, q3_degrees])
    shoulder = A2 * np.cos(q2) + A3 * np.cos(q2 + q3) - D4 * np.sin(q2 + q3)
    return abs(A2 * shoulder * (A3 * np.sin(q3) + D4 * np.cos(q3)))


@pytest.fixture(scope="module")
def chapter_6(tmp_path_factory):
    with _opened(NOTEBOOK, tmp_path_factory.mktemp("chapter6"), (1024, 768)) as lab:
        _wait_for_canvas(lab.page, MAP_CANVAS)
        yield lab


def test_arrow_keys_on_q3_move_the_marker_and_the_readout(chapter_6, capsys):
    lab, page = chapter_6, chapter_6.page
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # room for the notebook
    page.locator(MAP).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    _wait_for_text(page, MAP_READOUT, f"linear rows = {linear_manipulability(30, -60):.4f}")
    q3 = float(page.get_attribute(Q3_SLIDER, "aria-valuenow"))
    assert q3 == -60
    pixels = lab.canvas_hash(MAP_CANVAS)
    presses = 5
    latencies = _press_keys(lab, Q3_SLIDER, MAP_CANVAS, presses)
    assert float(page.get_attribute(Q3_SLIDER, "aria-valuenow")) == q3 + presses
    expected = linear_manipulability(30, q3 + presses)
    _wait_for_text(page, MAP_READOUT, f"linear rows = {expected:.4f}", 30_000)
    assert lab.canvas_hash(MAP_CANVAS) != pixels
    box = page.locator(MAP).first.bounding_box()
    assert box is not None and box["width"] <= 1024  # fits the screen
    _report(
        capsys,
        f"chapter 6 manipulability map, key press to new pixels (ipympl, {presses} presses): "
        f"median {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms",
    )
    page.wait_for_timeout(500)
    _screenshot(page, None, "06-singularities-and-manipulability.png")
