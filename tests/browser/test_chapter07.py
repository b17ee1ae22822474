"""Chapter 7's inverse-kinematics explorer in JupyterLab, in Debian's Chromium (Playwright).

The chapter (``07-inverse-kinematics.ipynb``) is opened in its own JupyterLab on a
1024×768 screen and all its cells run; then the arrow keys on the explorer's ``x``
slider (the target's position, 1 cm per press) must redraw its figure (the arm and its
ghost branches, the error plot) and change its read-out, and the whole panel must fit
the screen's width. With ``ROBOLAB_SCREENSHOTS=<folder>`` the test saves the panel as
``07-inverse-kinematics.png`` there (``docs/img`` holds the committed one). The helpers
(opening a chapter, waiting for a canvas or a text, screenshots) are the ones of
``test_jupyterlab.py``.
"""

from __future__ import annotations

import statistics

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

NOTEBOOK = REPOSITORY / "notebooks" / "07-inverse-kinematics.ipynb"
EXPLORER = ".robolab-ik-explorer"
CANVAS = f"{EXPLORER} .robolab-figure canvas"
READOUT = f"{EXPLORER} .robolab-live-readout"
X_SLIDER = f"{EXPLORER} .robolab-slider >> nth=0 >> .noUi-handle"
#: The slider's read-out (its aria-valuenow is rounded to one decimal; the read-out is exact).
X_READOUT = f"{EXPLORER} .robolab-slider >> nth=0 >> .widget-readout"
#: The chapter's explorer starts at the Puma's pose for (20, 30, -60, 40, 45, 30)°: x = 0.62 m
#: (the slider's read-out), on its exact steps -1.00, -0.99, ..., 1.00 m.
X_START = 0.62
X_STEP = 0.01
SCREEN = (1024, 768)


@pytest.fixture(scope="module")
def chapter_7(tmp_path_factory):
    with _opened(NOTEBOOK, tmp_path_factory.mktemp("chapter7"), SCREEN) as lab:
        _wait_for_canvas(lab.page, CANVAS)
        yield lab


def test_arrow_keys_on_the_target_move_the_branches_and_the_readout(chapter_7, capsys):
    lab, page = chapter_7, chapter_7.page
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # the whole width, as a student
    page.locator(EXPLORER).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    _wait_for_text(page, READOUT, "Closed form: 8 solutions")
    before = float(page.inner_text(X_READOUT))
    assert before == pytest.approx(X_START)
    pixels = lab.canvas_hash(CANVAS)
    readout = page.inner_text(READOUT)
    presses = 3
    latencies = _press_keys(lab, X_SLIDER, CANVAS, presses)
    after = float(page.inner_text(X_READOUT))
    assert after == pytest.approx(before + presses * X_STEP)  # 0.65 m
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector).innerText !== before",
        arg=[READOUT, readout],
        timeout=30_000,
    )
    _wait_for_text(page, READOUT, "damped LS: converged")
    assert lab.canvas_hash(CANVAS) != pixels
    box = page.locator(EXPLORER).first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= SCREEN[0]
    _report(
        capsys,
        f"chapter 7 explorer, key press to new pixels (ipympl, Puma 560, {presses} presses): "
        f"median {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms; panel "
        f"{box['width']:.0f}×{box['height']:.0f} px",
    )
    page.locator(EXPLORER).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    _screenshot(page, EXPLORER, "07-inverse-kinematics.png")
