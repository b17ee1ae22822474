"""The teach pendant and a reveal in Notebook 7 (``jupyter notebook``), in Debian's Chromium.

Notebook 7 matches its keyboard shortcuts in the capture phase of ``keydown``,
before a focused slider sees the key (JupyterLab matches after it): without
robolab's key guard (:func:`robolab.views.widgets.controls.key_guard`) ArrowLeft on a
pendant slider moved the notebook's cursor to the heading above and folded the
chapter, and the slider did not move. The demo notebook
``tests/browser/teach_demo.ipynb`` (a heading, a teach pendant under ipympl, a
reveal, an animation) is opened in the notebook view, all its cells run, then

* the arrow keys on a joint slider, pressed one after the other on the
  handle focused once (ArrowLeft twice in a row is what folded the heading),
  move the slider at every press, the arm (new pixels) and the pose read-out,
  and leave the notebook alone after every press: no heading collapsed, no
  cell hidden, the same cells visible, the same cell active;
* a mouse drag of a joint slider's handle moves the arm;
* *Copy q* puts ``q = [...]`` (radians) on the clipboard;
* *Next* on the reveal shows the next step.

Needs ``/usr/bin/chromium`` and the ``notebook`` package (skipped with a
message without them, except under ``ROBOLAB_REQUIRE_BROWSER=1``, where a
missing browser fails).
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
from pathlib import Path

import pytest

from .chapter_steps import require_browser, save_screenshot, wait_for_canvas, wait_for_text
from .notebook7_harness import NotebookPage, open_notebook7

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEMO = Path(__file__).with_name("teach_demo.ipynb")
PENDANT = ".robolab-teach"
CANVAS = f"{PENDANT} .robolab-figure canvas"
READOUT = f"{PENDANT} .robolab-readout"
JOINT = f"{PENDANT} .robolab-joint-slider"
#: teach_demo.ipynb opens the pendant at q1 = 20°, q2 = 30°.
START = (20, 30)


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory):
    require_browser()
    if importlib.util.find_spec("notebook") is None:
        message = "the notebook package (Notebook 7) is not installed"
        if os.environ.get("ROBOLAB_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (ROBOLAB_REQUIRE_BROWSER=1: the browser test must run)")
        pytest.skip(message)
    with open_notebook7(DEMO, tmp_path_factory.mktemp("notebook7"), (1300, 1000)) as page:
        page.run_all_cells(timeout=420.0)
        assert page.errors() == []
        wait_for_canvas(page.page, CANVAS)
        wait_for_text(page.page, READOUT, f"q1 = {START[0]:.1f}°")
        page.page.locator(PENDANT).first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        page.page.wait_for_timeout(1000)  # the first draws after the canvas attached
        yield page


def _value(page, joint: int) -> float:
    return float(page.get_attribute(f"{JOINT} >> nth={joint} >> .noUi-handle", "aria-valuenow"))


def test_arrow_keys_on_a_pendant_slider_move_the_arm_and_fold_nothing(notebook7: NotebookPage):
    page = notebook7.page
    handle = f"{JOINT} >> nth=0 >> .noUi-handle"
    page.focus(handle)  # focus makes the pendant's cell the active one
    cells, active = notebook7.visible_cells(), notebook7.active_cell_index()
    assert cells == 5  # the heading and four code cells of teach_demo.ipynb
    assert active == 2
    unfolded = {"collapsed_headings": 0, "hidden_cells": 0, "hidden_cells_buttons": 0}
    assert notebook7.folded() == unfolded
    readout, pixels = page.inner_text(READOUT), notebook7.canvas_hash(CANVAS)
    # Focused once, then keys one after the other as a student presses them: without the key
    # guard the first ArrowLeft moves the notebook's cursor to the heading above and the
    # second folds the heading (hiding the pendant); the slider does not move.
    value = START[0]
    for key in ("ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowRight"):
        try:
            notebook7.key_to_pixels(handle, CANVAS, key, timeout_ms=30_000, focus=False)
        finally:  # also when no new pixels came: what did the key do to the notebook?
            state = {
                **notebook7.folded(),
                "visible_cells": notebook7.visible_cells(),
                "active_cell": notebook7.active_cell_index(),
            }
            assert state == {**unfolded, "visible_cells": cells, "active_cell": active}, (
                f"{key} folded or moved the notebook"
            )
        value += 1 if key == "ArrowRight" else -1
        assert _value(page, 0) == value, f"the slider did not move on {key}"
    assert value == START[0] - 2
    wait_for_text(page, READOUT, f"q1 = {value:.1f}°")
    assert page.inner_text(READOUT) != readout
    assert notebook7.canvas_hash(CANVAS) != pixels
    # radians beside the degrees
    radians = page.inner_text(f"{PENDANT} .robolab-si-value >> nth=0")
    assert radians == f"{math.radians(value):.4f} rad"


def test_a_mouse_drag_on_a_slider_moves_the_arm(notebook7: NotebookPage):
    page = notebook7.page
    handle = page.locator(f"{JOINT} >> nth=1 >> .noUi-handle")
    before, pixels = _value(page, 1), notebook7.canvas_hash(CANVAS)
    box = handle.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y, steps=6)
    page.mouse.up()
    after = _value(page, 1)
    assert after > before
    wait_for_text(page, READOUT, f"q2 = {after:.1f}°")
    page.wait_for_function(
        "([hashSource, selector, before]) => eval(hashSource)(document.querySelector(selector))"
        " !== before",
        arg=[_pixels_js(), CANVAS, pixels],
        timeout=30_000,
    )
    save_screenshot(page.locator(PENDANT).first, "teach_pendant_notebook7.png")


def test_copy_q_puts_q_on_the_clipboard_as_a_line_of_python(notebook7: NotebookPage):
    page = notebook7.page
    page.context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=notebook7.server.url
    )
    shown = page.input_value(f"{PENDANT} .robolab-code-field input")
    assert re.fullmatch(r"q = \[(-?\d+\.\d+, ){5}-?\d+\.\d+\]", shown), shown
    page.locator(f"{PENDANT} .robolab-copy-code").click()
    page.wait_for_function(
        "async (text) => (await navigator.clipboard.readText()) === text", arg=shown
    )
    # the line gives back the joint values the sliders show (degrees), to 1e-4 rad
    values = [float(v) for v in shown[5:-1].split(", ")]
    for joint, value in enumerate(values):
        assert abs(math.degrees(value) - _value(page, joint)) < 0.01


def test_next_on_a_reveal_steps(notebook7: NotebookPage):
    page = notebook7.page
    reveal = page.locator(".robolab-reveal").first
    reveal.evaluate("(e) => e.scrollIntoView({block: 'center'})")
    steps = reveal.locator(".robolab-step")
    steps.first.wait_for(timeout=60_000)
    assert steps.count() == 1
    reveal.locator(".robolab-reveal-next").click()
    steps.nth(1).wait_for(timeout=30_000)
    assert steps.count() == 2
    assert "Step 2 of" in reveal.locator(".robolab-reveal-counter").inner_text()


def _pixels_js() -> str:
    from .jupyterlab_harness import _PIXELS_HASH_JS

    return _PIXELS_HASH_JS
