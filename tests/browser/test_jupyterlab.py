"""A real browser: the course's chapters in JupyterLab, in Debian's Chromium, driven by Playwright.

Each chapter is opened in its own JupyterLab (the live ipympl backend that the
course uses), all its cells run, then

* chapter 4 (``04-forward-kinematics-and-workspace.ipynb``): the arrow keys
  on the first joint slider of its teach pendant change the figure's pixels
  and the pose read-out (the time from each key press to new pixels is
  recorded), and *Play* on its animation advances the frames;
* chapter 8 (``08-lagrangian-dynamics.ipynb``): *Next* on its reveal renders
  the next step of the derivation with MathJax;
* chapter 1 (``01-rotations-and-transforms.ipynb``): the arrow keys on the
  roll slider of a :func:`robolab.live_figure` redraw its frame and its
  read-out.

Needs ``/usr/bin/chromium`` (``apt-get install chromium``): skipped with a
message when it is missing, except when ``ROBOLAB_REQUIRE_BROWSER=1``
(``.ci/run`` sets it), where a missing browser fails the test. With
``ROBOLAB_SCREENSHOTS=<folder>`` the test also saves screenshots of the
pendant, the reveal and chapter 1's live figure there (``docs/img`` holds the
committed ones).

Every wait is on the page's state (the notebook model, the kernel, the read-out
text, the pixels), with time-outs generous enough for a loaded 2-core machine.
"""

from __future__ import annotations

import contextlib
import os
import re
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest

from .chapter_steps import require_browser
from .jupyterlab_harness import _PIXELS_HASH_JS, LabPage, open_lab, shared_lab_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPOSITORY = Path(__file__).resolve().parents[2]
NOTEBOOK = REPOSITORY / "notebooks" / "04-forward-kinematics-and-workspace.ipynb"
REVEAL_NOTEBOOK = REPOSITORY / "notebooks" / "08-lagrangian-dynamics.ipynb"
LIVE_FIGURE_NOTEBOOK = REPOSITORY / "notebooks" / "01-rotations-and-transforms.ipynb"
KEY_PRESSES = 15
#: Chapter 4 opens its pendant at q1 = 20°.
FIRST_JOINT_START = 20

PENDANT = ".robolab-teach"
CANVAS = f"{PENDANT} .robolab-figure canvas"
FIRST_JOINT = f"{PENDANT} .robolab-joint-slider >> nth=0 >> .noUi-handle"
READOUT = f"{PENDANT} .robolab-readout"
REVEAL = ".robolab-reveal"
ANIMATION = ".robolab-animation"
LIVE = ".robolab-live-figure"
LIVE_CANVAS = f"{LIVE} .robolab-figure canvas"
LIVE_READOUT = f"{LIVE} .robolab-live-readout"
FIRST_SLIDER = f"{LIVE} .robolab-slider >> nth=0 >> .noUi-handle"

#: Seconds to run all cells of a chapter; the kernel shares 2 cores with the browser.
RUN_ALL_TIMEOUT = 420.0


@contextlib.contextmanager
def _opened(notebook: Path, workdir: Path, viewport: tuple[int, int]) -> Iterator[LabPage]:
    """Open a chapter in JupyterLab, run all its cells, and check that none failed."""
    require_browser()
    with open_lab(notebook, workdir, viewport=viewport, server=shared_lab_server()) as lab:
        lab.run_all_cells(timeout=RUN_ALL_TIMEOUT)
        assert lab.errors() == []
        yield lab


def _wait_for_canvas(page, selector: str) -> None:
    page.wait_for_selector(selector, state="attached", timeout=120_000)
    page.wait_for_function(
        "(selector) => { const c = document.querySelector(selector); "
        "return c && c.width > 0 && c.height > 0; }",
        arg=selector,
        timeout=120_000,
    )
    page.wait_for_timeout(1000)  # let the first draws after the browser attached land


def _wait_for_text(page, selector: str, text: str, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "([selector, text]) => { const e = document.querySelector(selector); "
        "return e !== null && e.innerText.includes(text); }",
        arg=[selector, text],
        timeout=timeout,
    )


def _report(capsys, line: str) -> None:
    """Print a measurement in pytest's output even when output is captured."""
    with capsys.disabled():
        print(f"\n{line}")


def _screenshot(page, selector: str | None, name: str) -> None:
    folder = os.environ.get("ROBOLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        if selector is None:
            page.screenshot(path=str(Path(folder) / name))
        else:
            page.locator(selector).first.screenshot(path=str(Path(folder) / name))


def _press_keys(lab, handle: str, canvas: str, count: int) -> list[float]:
    return [
        lab.key_to_pixels(handle, canvas, "ArrowRight", timeout_ms=30_000) for _ in range(count)
    ]


# --- chapter 4: the teach pendant and the animation ---------------------------------------------


@pytest.fixture(scope="class")
def chapter_4(tmp_path_factory):
    with _opened(NOTEBOOK, tmp_path_factory.mktemp("chapter4"), (1600, 1300)) as lab:
        _wait_for_canvas(lab.page, CANVAS)
        yield lab


class TestChapter4:
    def test_arrow_keys_on_the_pendant_move_the_arm_and_the_readout(
        self, chapter_4, capsys, record_property
    ):
        lab, page = chapter_4, chapter_4.page
        page.locator(PENDANT).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        _wait_for_text(page, READOUT, f"q1 = {FIRST_JOINT_START:.1f}°")
        pixels = lab.canvas_hash(CANVAS)
        readout = page.inner_text(READOUT)
        value = float(page.get_attribute(FIRST_JOINT, "aria-valuenow"))
        assert value == FIRST_JOINT_START
        latencies = _press_keys(lab, FIRST_JOINT, CANVAS, KEY_PRESSES)
        # the read-out follows the kernel
        _wait_for_text(page, READOUT, f"q1 = {FIRST_JOINT_START + KEY_PRESSES:.1f}°")
        assert lab.canvas_hash(CANVAS) != pixels
        assert page.inner_text(READOUT) != readout
        assert float(page.get_attribute(FIRST_JOINT, "aria-valuenow")) == value + KEY_PRESSES
        median = statistics.median(latencies)
        record_property("key_to_pixels_ms", latencies)
        _report(
            capsys,
            f"chapter 4 teach pendant, key press to new pixels (ipympl, Puma 560, {KEY_PRESSES} "
            f"presses): median {median:.0f} ms, min {min(latencies):.0f} ms, "
            f"max {max(latencies):.0f} ms",
        )
        _screenshot(page, PENDANT, "teach_pendant.png")

    def test_the_kernels_websocket_is_relayed_without_nagles_delay(self, chapter_4):
        """The course's server loads robolab.jupyter_server_extension (its effect on the key press
        to new pixels is measured by benchmarks/bench_view.py)."""
        assert "robolab: kernel websocket messages relayed without Nagle's delay" in (
            shared_lab_server().log()
        )

    def test_play_advances_the_animation(self, chapter_4):
        page = chapter_4.page
        page.locator(ANIMATION).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        label = f"{ANIMATION} .widget-html"
        canvas = f"{ANIMATION} .robolab-figure canvas"
        _wait_for_canvas(page, canvas)
        before = page.inner_text(label)
        pixels = chapter_4.canvas_hash(canvas)
        page.locator(f"{ANIMATION} .widget-play button").first.click()  # the play button
        page.wait_for_function(
            "([selector, before]) => document.querySelector(selector).innerText !== before",
            arg=[label, before],
            timeout=30_000,
        )
        page.wait_for_function(
            "([selector, before, hashSource]) => eval(hashSource)("
            "document.querySelector(selector)) !== before",
            arg=[canvas, pixels, _PIXELS_HASH_JS],
            timeout=30_000,
        )


# --- chapter 8: the reveal ----------------------------------------------------------------------


@pytest.fixture(scope="class")
def chapter_8(tmp_path_factory):
    with _opened(REVEAL_NOTEBOOK, tmp_path_factory.mktemp("chapter8"), (1600, 1300)) as lab:
        yield lab


class TestChapter8:
    def test_next_reveals_the_next_step_with_mathjax(self, chapter_8):
        page = chapter_8.page
        reveal = page.locator(REVEAL).first
        reveal.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        steps = reveal.locator(".robolab-step")
        steps.first.locator("mjx-container").first.wait_for(timeout=60_000)
        assert steps.count() == 1
        reveal.locator(".robolab-reveal-next").click()
        steps.nth(1).wait_for(timeout=30_000)
        assert steps.count() == 2
        second = steps.nth(1)
        second.locator("mjx-container").first.wait_for(timeout=60_000)
        match = re.match(r"Step 2/(\d+)\. ", second.inner_text())
        assert match, second.inner_text()
        total = int(match.group(1))
        assert f"Step 2 of {total}" in reveal.locator(".robolab-reveal-counter").inner_text()
        reveal.locator(".robolab-reveal-next").click()
        steps.nth(2).wait_for(timeout=30_000)
        assert steps.count() == 3
        _screenshot(page, REVEAL, "reveal.png")


# --- chapter 1: a live figure -------------------------------------------------------------------


@pytest.fixture(scope="class")
def chapter_1(tmp_path_factory):
    with _opened(LIVE_FIGURE_NOTEBOOK, tmp_path_factory.mktemp("chapter1"), (1300, 1000)) as lab:
        _wait_for_canvas(lab.page, LIVE_CANVAS)
        yield lab


class TestChapter1:
    def test_arrow_keys_on_a_live_figure_redraw_the_frame_and_the_readout(self, chapter_1, capsys):
        lab, page = chapter_1, chapter_1.page
        # the notebook itself moves the pitch to 90° after building the panel (gimbal lock)
        _wait_for_text(page, LIVE_READOUT, "90. 30.] degrees")
        page.locator(LIVE).first.evaluate("(e) => e.scrollIntoView({block: 'center'})")
        roll = float(page.get_attribute(FIRST_SLIDER, "aria-valuenow"))
        pixels = lab.canvas_hash(LIVE_CANVAS)
        readout = page.inner_text(LIVE_READOUT)
        presses = 3
        latencies = _press_keys(lab, FIRST_SLIDER, LIVE_CANVAS, presses)
        assert float(page.get_attribute(FIRST_SLIDER, "aria-valuenow")) == roll + 5 * presses
        # at pitch 90° only yaw - roll is defined: rotation_to_rpy reports roll 0, yaw 60 - roll
        _wait_for_text(page, LIVE_READOUT, f"90. {60 - roll - 5 * presses:.0f}.] degrees", 30_000)
        assert lab.canvas_hash(LIVE_CANVAS) != pixels
        assert page.inner_text(LIVE_READOUT) != readout
        _report(
            capsys,
            f"chapter 1 live figure, key press to new pixels (ipympl, {presses} presses): "
            f"median {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms",
        )
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # room for the notebook
        page.wait_for_timeout(500)
        _screenshot(page, None, "01-rotations-and-transforms.png")
