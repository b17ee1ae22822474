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
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .chapter_steps import require_browser, wait_for_canvas, wait_for_text
from .jupyterlab_harness import open_lab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = Path(__file__).with_name("teach_demo.ipynb")
LIVE_DEMO = Path(__file__).with_name("live_figure_demo.ipynb")
PENDANT = ".robolab-teach"
LIVE = ".robolab-live-figure"

_BOXES_JS = """
() => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const pendant = document.querySelector('.robolab-teach');
  const notebook = pendant.closest('.jp-WindowedPanel-outer') || pendant.closest('.jp-Notebook');
  return {
    window: {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight},
    notebook: box(notebook),
    figure: box(pendant.querySelector('.robolab-figure')),
    controls: box(pendant.querySelector('.robolab-teach-controls')),
    sliders: Array.from(pendant.querySelectorAll('.robolab-joint-slider')).map(box),
    readout: box(pendant.querySelector('.robolab-readout')),
  };
}
"""


def _inside(inner: dict, outer: dict, what: str, where: str) -> None:
    slack = 1.0  # sub-pixel rounding of the layout
    assert (
        inner["left"] >= outer["left"] - slack
        and inner["top"] >= outer["top"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["bottom"] <= outer["bottom"] + slack
    ), f"{what} {inner} is not inside {where} {outer}"


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
        page.locator(PENDANT).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(1000)
        boxes = page.evaluate(_BOXES_JS)
        assert len(boxes["sliders"]) == 6
        for where in ("window", "notebook"):
            _inside(boxes["figure"], boxes[where], "the figure", where)
            _inside(boxes["readout"], boxes[where], "the pose read-out", where)
            for k, slider in enumerate(boxes["sliders"]):
                _inside(slider, boxes[where], f"slider q{k + 1}", where)
        # side by side: the controls start right of the figure, level with its top
        assert boxes["controls"]["left"] >= boxes["figure"]["right"] - 1
        assert boxes["controls"]["top"] < boxes["figure"]["bottom"]
        folder = os.environ.get("ROBOLAB_SCREENSHOTS")
        if folder and screen == (1024, 768):
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / "teach_pendant_1024x768.png"))


_LIVE_BOXES_JS = """
() => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const panel = document.querySelector('.robolab-live-figure');
  const notebook = panel.closest('.jp-WindowedPanel-outer') || panel.closest('.jp-Notebook');
  return {
    window: {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight},
    notebook: box(notebook),
    figure: box(panel.querySelector('.robolab-figure')),
    sliders: Array.from(panel.querySelectorAll('.robolab-slider')).map(box),
    readout: box(panel.querySelector('.robolab-live-readout')),
  };
}
"""


def test_a_live_figure_fits_1024_by_768_side_by_side(tmp_path):
    require_browser()
    with open_lab(LIVE_DEMO, tmp_path, viewport=(1024, 768)) as lab:
        page = lab.page
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        wait_for_canvas(page, f"{LIVE} .robolab-figure canvas")
        wait_for_text(page, f"{LIVE} .robolab-live-readout", "1.000")
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(1000)
        boxes = page.evaluate(_LIVE_BOXES_JS)
        assert len(boxes["sliders"]) == 3
        for where in ("window", "notebook"):
            _inside(boxes["figure"], boxes[where], "the figure", where)
            _inside(boxes["readout"], boxes[where], "the read-out", where)
            for k, slider in enumerate(boxes["sliders"]):
                _inside(slider, boxes[where], f"slider {k + 1}", where)
        assert min(s["left"] for s in boxes["sliders"]) >= boxes["figure"]["right"] - 1
