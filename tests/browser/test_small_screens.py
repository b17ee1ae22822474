"""The teach pendant fits small screens: JupyterLab at 1024 × 768 and at 1300 × 1000 with the
file browser open, in Debian's Chromium.

``notebooks/README.md``'s standard: every widget fits 1024 × 768 with the file
browser closed. The demo notebook ``tests/browser/teach_demo.ipynb`` (a Puma
560 pendant under ipympl) is opened and run; with the pendant scrolled to the
top of the notebook, the bounding boxes of its figure, of every joint slider
and of the pose read-out must all lie inside the notebook's visible area (and
so inside the viewport), with the figure and the controls side by side. At
1024 × 768 the test saves ``teach_pendant_1024x768.png`` (the whole window) in
``$ROBOLAB_SCREENSHOTS`` when that is set. The same holds for a
:func:`robolab.live_figure` with a 500-pixel :func:`robolab.frame_axes` figure
(``tests/browser/live_figure_demo.ipynb``) at 1024 × 768.

The chapters' own pendants and live figures (chapters 1-4 and 8) are measured the same way
at 1024 × 768 by ``test_formulas.py``, which has those chapters open already.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .chapter_steps import (
    LIVE_FIGURE_PARTS,
    PENDANT_PARTS,
    describe_widths,
    fit_problems,
    require_browser,
    wait_for_canvas,
    wait_for_text,
    widget_boxes,
)
from .jupyterlab_harness import open_lab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = Path(__file__).with_name("teach_demo.ipynb")
LIVE_DEMO = Path(__file__).with_name("live_figure_demo.ipynb")
PENDANT = ".robolab-teach"
LIVE = ".robolab-live-figure"


@pytest.mark.parametrize(
    ("screen", "file_browser"),
    [((1024, 768), False), ((1300, 1000), True)],
    ids=["1024x768", "1300x1000-file-browser-open"],
)
def test_the_pendant_fits_the_screen_side_by_side(tmp_path, screen, file_browser):
    require_browser()
    with open_lab(DEMO, tmp_path, viewport=screen) as lab:
        page = lab.page
        side = "expandLeft" if file_browser else "collapseLeft"
        page.evaluate(f"() => window.jupyterapp.shell.{side}()")
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        wait_for_canvas(page, f"{PENDANT} .robolab-figure canvas")
        wait_for_text(page, f"{PENDANT} .robolab-readout", "position = ")
        page.wait_for_timeout(500)
        boxes = widget_boxes(page, PENDANT_PARTS)
        assert len(boxes["sliders"]) == 6
        assert fit_problems(boxes) == [], describe_widths(boxes)
        folder = os.environ.get("ROBOLAB_SCREENSHOTS")
        if folder and screen == (1024, 768):
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / "teach_pendant_1024x768.png"))


def test_a_live_figure_fits_1024_by_768_side_by_side(tmp_path):
    require_browser()
    with open_lab(LIVE_DEMO, tmp_path, viewport=(1024, 768)) as lab:
        page = lab.page
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        wait_for_canvas(page, f"{LIVE} .robolab-figure canvas")
        wait_for_text(page, f"{LIVE} .robolab-live-readout", "1.000")
        page.wait_for_timeout(500)
        boxes = widget_boxes(page, LIVE_FIGURE_PARTS)
        assert len(boxes["sliders"]) == 3
        assert fit_problems(boxes) == [], describe_widths(boxes)
