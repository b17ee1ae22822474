"""Progress of long computations, kernel-side: a fake front end, a tiny delay, no browser.

The indicator runs in a background thread, so the tests wait for what it
shows (polling with a generous time-out) instead of sleeping for fixed times.
"""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest
import sympy as sp

from robolab import DHRobot
from robolab.support import progress as _progress
from robolab.support import widgets as _widgets
from robolab.support.progress import Progress
from robolab.symbols import l1, l2, lc1, lc2, q1, q2


def wait_until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the indicator did not get there in time")
        time.sleep(0.005)


class FakeHandle:
    """What ``IPython.display.display(..., display_id=True)`` returns in a kernel."""

    def __init__(self) -> None:
        self.updates: list[tuple[object, dict]] = []

    def update(self, obj, **kwargs) -> None:
        self.updates.append((obj, kwargs))


class FakeFrontEnd:
    """Records what is displayed; its label and bar values as they change."""

    def __init__(self) -> None:
        self.displayed: list[object] = []
        self.handles: list[FakeHandle] = []
        self.labels: list[str] = []
        self.values: list[int] = []
        self.lock = threading.Lock()

    def display(self, obj, display_id=None, **kwargs):
        assert display_id is True  # displayed with an id, so that it can be cleared
        bar, label = obj.children
        with self.lock:
            self.displayed.append(obj)
            self.labels.append(label.value)
            self.values.append(bar.value)
        label.observe(lambda change: self.labels.append(change["new"]), names="value")
        bar.observe(lambda change: self.values.append(change["new"]), names="value")
        handle = FakeHandle()
        self.handles.append(handle)
        return handle

    @property
    def box(self):
        return self.displayed[-1]


@pytest.fixture
def front_end(monkeypatch):
    """A widget front end (no test mode), with IPython's display recorded."""
    import IPython.display

    fake = FakeFrontEnd()
    monkeypatch.setattr(IPython.display, "display", fake.display)
    monkeypatch.setattr(_progress, "front_end", lambda: "widget")
    return fake


def test_a_long_computation_shows_a_bar_that_follows_it_and_is_removed(front_end):
    with Progress("M(q)", 3, delay=0.0, interval=0.01) as progress:
        progress.update(0, "link 1 of 3")
        wait_until(lambda: front_end.displayed)
        bar, label = front_end.box.children
        wait_until(lambda: label.value.startswith("M(q): link 1 of 3 · "))  # and elapsed time
        assert bar.max == 3 and bar.value == 0
        progress.update(1, "link 2 of 3")
        wait_until(lambda: bar.value == 1 and "M(q): link 2 of 3" in label.value)
        progress.update(2, "link 3 of 3")
        wait_until(lambda: bar.value == 2 and "link 3 of 3" in label.value)
    assert progress.shown and len(front_end.displayed) == 1
    # closed: no widget left in the kernel, the output replaced by an empty one
    assert all(widget.comm is None for widget in (front_end.box, bar, label))
    assert front_end.handles[0].updates == [({}, {"raw": True})]
    assert front_end.values == sorted(front_end.values)  # the bar only moves forward


def test_a_short_computation_shows_nothing(front_end):
    with Progress("M(q)", 2, delay=60.0) as progress:
        progress.update(1, "link 2 of 2")
    assert not progress.shown and front_end.displayed == []
    assert not any(t.name == "robolab progress" for t in threading.enumerate())


def test_nested_computations_share_one_bar_and_name_each_level(front_end):
    with Progress("C(q, q̇)", 2, delay=0.0, interval=0.01) as outer:
        outer.update(0, "symbolic")
        wait_until(lambda: front_end.displayed)
        bar, label = front_end.box.children
        with Progress("M(q)", 7) as inner:
            inner.update(3, "link 4 of 7")
            wait_until(lambda: "C(q, q̇) › M(q): link 4 of 7" in label.value)
            assert bar.value == 3 and bar.max == 7  # the innermost count
        outer.update(1, "writing it with q_i(t)")
        wait_until(lambda: label.value.startswith("C(q, q̇): writing it with q_i(t)"))
        assert bar.max == 2 and bar.value == 1
    assert len(front_end.displayed) == 1 and front_end.box.comm is None


def test_redraws_at_most_once_per_interval(front_end):
    interval = 0.05
    start = time.monotonic()
    with Progress("G(q)", 10_000, delay=0.0, interval=interval) as progress:
        wait_until(lambda: front_end.displayed)
        for i in range(10_000):
            progress.update(i, f"joint {i + 1}")
            if i % 100 == 0:
                time.sleep(0.001)
    elapsed = time.monotonic() - start
    redraws = len(front_end.labels)
    assert 1 <= redraws <= elapsed / interval + 2  # not once per update


def test_silent_in_test_mode_and_without_a_person(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *a, **k: shown.append(a))
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    assert _widgets.in_test_mode() and _progress.front_end() == ""
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    robot.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    with Progress("C(q, q̇)", delay=0.0) as progress:
        robot.coriolis_matrix()
        time.sleep(0.05)
    assert shown == [] and not progress.shown and progress._thread is None


class FakeKernel:
    def __init__(self, allow_stdin: bool) -> None:
        self._allow_stdin = allow_stdin


class FakeShell:
    def __init__(self, allow_stdin: bool) -> None:
        self.kernel = FakeKernel(allow_stdin)


class FakeStream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("test_mode", "allow_stdin", "tty", "expected"),
    [
        (True, True, True, ""),  # pytest, nbval, ROBOLAB_TEST_MODE=1
        (False, True, False, "widget"),  # JupyterLab, Notebook, VS Code
        (False, False, False, ""),  # nbclient, nbconvert, course_notebooks.py refresh
        (False, None, True, "console"),  # a script or IPython in a terminal
        (False, None, False, ""),  # output to a file or a pipe
    ],
)
def test_where_progress_is_shown(monkeypatch, test_mode, allow_stdin, tty, expected):
    import IPython

    _widgets.set_test_mode(test_mode)
    try:
        in_kernel = allow_stdin is not None
        monkeypatch.setattr(_widgets, "in_kernel", lambda: in_kernel)
        monkeypatch.setattr(IPython, "get_ipython", lambda: FakeShell(bool(allow_stdin)))
        monkeypatch.setattr("sys.stderr", FakeStream(tty))
        assert _progress.front_end() == expected
    finally:
        _widgets.set_test_mode(None)


def test_console_line_is_rewritten_in_place_and_erased(monkeypatch):
    stream = FakeStream(tty=True)
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setattr(_progress, "front_end", lambda: "console")
    with Progress("compiling inverse_dynamics", 2, delay=0.0, interval=0.01) as progress:
        progress.update(0, "Newton–Euler program")
        wait_until(lambda: "Newton–Euler program" in stream.getvalue())
        progress.update(1, "Python function")
        wait_until(lambda: "Python function" in stream.getvalue())
    text = stream.getvalue()
    assert "\n" not in text  # one line, rewritten with \r
    assert "\rrobolab: compiling inverse_dynamics: Newton–Euler program · 0 s [0/2]" in text
    *_, last, erased, end = text.split("\r")
    assert last.rstrip().startswith("robolab: compiling inverse_dynamics: Python function")
    assert erased == " " * len(last.rstrip()) and end == ""  # the line is erased


@pytest.fixture
def no_threads(monkeypatch):
    """``threading.Thread.start`` raises, as in Pyodide (browser-based Python)."""

    def refuse(self, *args, **kwargs):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


@pytest.mark.parametrize(("kind", "stream_name"), [("widget", "stdout"), ("console", "stderr")])
def test_without_threads_progress_is_printed_in_plain_lines(
    monkeypatch, no_threads, kind, stream_name
):
    stream = FakeStream(tty=True)
    monkeypatch.setattr(f"sys.{stream_name}", stream)
    monkeypatch.setattr(_progress, "front_end", lambda: kind)
    monkeypatch.setattr(_progress, "PLAIN_INTERVAL", 0.0)
    with Progress("M(q)", 3, delay=0.0) as outer:
        outer.update(0, "link 1 of 3")
        outer.update(0, "link 1 of 3")  # nothing new: no second line
        with Progress("Christoffel symbols", 2) as inner:
            inner.update(1, "row 2 of 2")
        outer.update(2, "link 3 of 3")
    assert outer.plain and outer.shown and not inner.plain
    lines = stream.getvalue().splitlines()
    assert lines == [
        "robolab: M(q): link 1 of 3 · 0 s [0/3]",
        "robolab: M(q) › Christoffel symbols: row 2 of 2 · 0 s [1/2]",
        "robolab: M(q): link 3 of 3 · 0 s [2/3]",
        "robolab: M(q) done · 0 s",
    ]
    assert "\r" not in stream.getvalue()


def test_without_threads_a_short_computation_prints_nothing(monkeypatch, no_threads, capsys):
    monkeypatch.setattr(_progress, "front_end", lambda: "widget")
    with Progress("M(q)", 2) as progress:  # the default delay: done long before it
        progress.update(1, "link 2 of 2")
    assert progress.plain and not progress.shown
    assert capsys.readouterr() == ("", "")


def test_without_threads_lines_are_at_most_one_per_plain_interval(monkeypatch, no_threads):
    stream = FakeStream(tty=True)
    monkeypatch.setattr("sys.stdout", stream)
    monkeypatch.setattr(_progress, "front_end", lambda: "widget")
    with Progress("C(q, q̇)", 100, delay=0.0) as progress:
        for i in range(100):  # a fast loop: all within one PLAIN_INTERVAL (2 s)
            progress.update(i, f"row {i + 1} of 100")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "robolab: C(q, q̇): row 1 of 100 · 0 s [0/100]"
    assert lines[-1].startswith("robolab: C(q, q̇) done")
    assert len(lines) == 2


def test_without_threads_the_symbolic_dynamics_complete(monkeypatch, no_threads, capsys):
    monkeypatch.setattr(_progress, "front_end", lambda: "widget")
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    arm.cm_positions = [(-(l1 - lc1), 0, 0), (-(l2 - lc2), 0, 0)]
    M = arm.inertia_matrix()
    assert M.shape == (2, 2)
    printed = capsys.readouterr().out
    assert "robolab: M(q)" in printed and "done" in printed


def recorded_updates(monkeypatch) -> list[tuple[str, int, str]]:
    """Every ``Progress.update`` call as (title, done, detail)."""
    calls: list[tuple[str, int, str]] = []
    original = Progress.update

    def update(self, done, detail=""):
        calls.append((self.title, done, detail))
        original(self, done, detail)

    monkeypatch.setattr(Progress, "update", update)
    return calls


def test_dynamics_report_each_link_joint_and_row(monkeypatch):
    calls = recorded_updates(monkeypatch)
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), (l2, 0, 0, sp.Function("q_3")(sp.Symbol("t"))))
    robot.cm_positions = [(0, 0, 0)] * 3
    robot.inertia_matrix()
    assert [c for c in calls if c[0] == "M(q)"][:3] == [
        ("M(q)", 0, "link 1 of 3"),
        ("M(q)", 1, "link 2 of 3"),
        ("M(q)", 2, "link 3 of 3"),
    ]
    robot.coriolis_matrix()
    details = {(title, detail) for title, _, detail in calls}
    assert ("∂M/∂q", "joint 3 of 3") in details
    assert ("Christoffel symbols", "row 3 of 3") in details
    assert ("C(q, q̇)", "writing it with q_i(t)") in details
    robot.gravity_vector()
    assert ("G(q)", 3, "joint 3 of 3") in calls


def test_numeric_compilation_reports_its_stages(monkeypatch):
    calls = recorded_updates(monkeypatch)
    robot = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2))
    robot.masses, robot.cm_positions = [1.0, 1.0], [(0, 0, 0), (0, 0, 0)]
    robot.inertia_tensors = [np.zeros((3, 3))] * 2
    fast = robot.numeric()
    zero = np.zeros(2)
    fast.inverse_dynamics(zero, zero, zero)
    fast.coriolis_matrix(zero, zero)
    fast.inertia_matrix(zero)
    titles = {title for title, _, _ in calls}
    assert {
        "compiling inverse_dynamics",
        "compiling coriolis_matrix",
        "compiling inertia_matrix",
    } <= titles
    # M, C and G are compiled from the program of named pieces (robolab.dh._fast.named_dynamics),
    # the inverse dynamics from the Newton–Euler program; each stage is reported.
    assert ("compiling coriolis_matrix", 0, "named pieces of M, ∂M/∂q and G") in calls
    assert ("compiling inverse_dynamics", 0, "Newton–Euler program") in calls
    assert ("code", 1, "Python source") in calls
