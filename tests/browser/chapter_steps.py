"""Steps that every chapter's browser test takes, written once (for ``test_chapterNN.py``).

* :func:`require_browser`: skip without Debian's Chromium or Playwright, or fail under
  ``ROBOLAB_REQUIRE_BROWSER=1``;
* :func:`opened_chapter`: JupyterLab on a small screen (the left sidebar collapsed), every
  cell run, no cell failed;
* :func:`wait_for_text`, :func:`wait_for_canvas`: wait on the page's state;
* :func:`save_screenshot`: the widget as a PNG in ``$ROBOLAB_SCREENSHOTS``, if set.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .jupyterlab_harness import LabPage, chromium_available, open_lab, shared_lab_server

#: The smallest screen a widget must fit.
SCREEN = (1024, 768)


def require_browser() -> None:
    """Skip the test without ``/usr/bin/chromium`` or Playwright.

    Under ``ROBOLAB_REQUIRE_BROWSER=1`` (``.ci/run``) either missing fails the test instead.
    """
    if not chromium_available():
        _missing("Chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        _missing("Playwright is not installed (make .venv/.installed-test)")


def _missing(message: str) -> None:
    if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (ROBOLAB_REQUIRE_BROWSER=1: the browser test must run)")
    pytest.skip(message)


@contextlib.contextmanager
def opened_chapter(
    notebook: Path,
    workdir: Path,
    screen: tuple[int, int] = SCREEN,
    before_run: Callable[[LabPage], object] | None = None,
) -> Iterator[LabPage]:
    """A chapter open in JupyterLab with all its cells run, on a ``screen``-sized page.

    The page runs on the JupyterLab server all browser tests share; ``workdir`` is unused
    (kept for the tests' call signature). ``before_run`` is called with the page once the
    notebook is open, before any cell runs.
    """
    require_browser()
    with open_lab(notebook, workdir, viewport=screen, server=shared_lab_server()) as lab:
        if before_run is not None:
            before_run(lab)
        lab.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        lab.run_all_cells(timeout=420.0)
        assert lab.errors() == []
        yield lab


def wait_for_text(page, selector: str, text: str, timeout: float = 60_000) -> None:
    """Wait until the first element matching ``selector`` shows ``text``."""
    page.wait_for_function(
        "([selector, text]) => { const e = document.querySelector(selector); "
        "return e !== null && e.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def wait_for_canvas(page, selector: str) -> None:
    """Wait until the canvas ``selector`` exists and has pixels."""
    page.wait_for_selector(selector, state="attached", timeout=120_000)
    page.wait_for_function(
        "(s) => { const c = document.querySelector(s); return c && c.width > 0; }",
        arg=selector,
        timeout=120_000,
    )


def save_screenshot(locator, name: str) -> None:
    """Save ``locator``'s element as ``$ROBOLAB_SCREENSHOTS/name`` when that is set."""
    folder = os.environ.get("ROBOLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(Path(folder) / name))


#: The parts of a teach pendant and of a live figure (CSS selectors inside the widget).
PENDANT_PARTS = {
    "root": ".robolab-teach",
    "figure": ".robolab-figure",
    "controls": ".robolab-teach-controls",
    "sliders": ".robolab-joint-slider",
    "readout": ".robolab-readout",
}
LIVE_FIGURE_PARTS = {
    "root": ".robolab-live-figure",
    "figure": ".robolab-figure",
    "controls": ":scope > .widget-vbox:not(.robolab-figure)",  # the panel (no class of its own)
    "sliders": ".robolab-slider",
    "readout": ".robolab-live-readout",
}

#: The boxes (client pixels) of the ``index``-th widget's parts, of the window and of the
#: notebook's visible area, with the widget scrolled to the top of the notebook.
_BOXES_JS = """
([parts, index]) => {
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const widget = document.querySelectorAll(parts.root)[index];
  widget.scrollIntoView({block: 'start'});
  const notebook = widget.closest('.jp-WindowedPanel-outer') || widget.closest('.jp-Notebook');
  return {
    window: {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight},
    notebook: box(notebook),
    area: box(widget.closest('.jp-OutputArea-output') || widget),
    figure: box(widget.querySelector(parts.figure)),
    controls: box(widget.querySelector(parts.controls)),
    sliders: Array.from(widget.querySelectorAll(parts.sliders)).map(box),
    readout: box(widget.querySelector(parts.readout)),
  };
}
"""


def widget_boxes(page, parts: dict[str, str], index: int = 0) -> dict:
    """Scroll the ``index``-th widget with ``parts`` to the top and measure its parts.

    Returns the boxes (``left``, ``top``, ``right``, ``bottom`` in client pixels) of the
    ``window``, the ``notebook``'s visible area, the output ``area``, the ``figure``, the
    ``controls`` (their first element), every one of the ``sliders`` and the ``readout``.
    """
    page.evaluate(_BOXES_JS, [parts, index])
    page.wait_for_timeout(500)  # scrolled: the layout has settled
    return page.evaluate(_BOXES_JS, [parts, index])


def fit_problems(boxes: dict, side_by_side: bool = True) -> list[str]:
    """What of :func:`widget_boxes` is outside the window or the notebook, or not side by side.

    Empty when the figure, every slider and the read-out are inside both (1 px slack for
    sub-pixel rounding) and, with ``side_by_side``, the controls start right of the figure and
    level with it.
    """
    slack = 1.0
    problems = []
    parts = [("figure", boxes["figure"]), ("read-out", boxes["readout"])]
    parts += [(f"slider {k + 1}", slider) for k, slider in enumerate(boxes["sliders"])]
    for where in ("window", "notebook"):
        outer = boxes[where]
        for what, inner in parts:
            if not (
                inner["left"] >= outer["left"] - slack
                and inner["top"] >= outer["top"] - slack
                and inner["right"] <= outer["right"] + slack
                and inner["bottom"] <= outer["bottom"] + slack
            ):
                problems.append(
                    f"the {what} {_rounded(inner)} is not inside the {where} {_rounded(outer)}"
                )
    if side_by_side and not (
        boxes["controls"]["left"] >= boxes["figure"]["right"] - slack
        and boxes["controls"]["top"] < boxes["figure"]["bottom"]
    ):
        problems.append(
            f"the controls {_rounded(boxes['controls'])} are not beside the figure "
            f"{_rounded(boxes['figure'])}"
        )
    return problems


def describe_widths(boxes: dict) -> str:
    """The widths that decide the layout: figure, controls, read-out, output area (pixels)."""
    width = {
        name: round(boxes[name]["right"] - boxes[name]["left"])
        for name in ("figure", "controls", "readout", "area")
    }
    height = round(boxes["readout"]["bottom"] - boxes["figure"]["top"])
    return (
        f"figure {width['figure']} px, controls {width['controls']} px, read-out "
        f"{width['readout']} px wide in an output area of {width['area']} px; figure top to "
        f"read-out bottom {height} px"
    )


def _rounded(box: dict) -> dict:
    return {name: round(value) for name, value in box.items()}
