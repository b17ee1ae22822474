"""Progress of long symbolic computations (private): shown only when someone is waiting.

The symbolic dynamics of a 6–7 joint arm (M, the Christoffel symbols, C, G)
and the compilation of its numeric functions take several seconds. A
:class:`Progress` context around such a computation reports what it is doing
(``progress.update(3, "link 4 of 7")``); whether anything is *shown* is
decided here, once per outermost computation:

* **nothing at all** when the computation ends within :data:`DELAY` seconds
  (every small arm), in test mode (:func:`robolab.in_test_mode`: pytest, nbval,
  ``ROBOLAB_TEST_MODE=1``), and in a kernel that runs a notebook without a
  person in front of it (nbval, nbclient, ``tests/course_notebooks.py
  refresh``, nbconvert: they execute with ``allow_stdin=False``, JupyterLab,
  the classic Notebook and VS Code with ``allow_stdin=True``);
* **a widget** in a notebook (JupyterLab, Notebook, VS Code, Binder): an
  ``ipywidgets.IntProgress`` and a label such as
  ``C(q, q̇) › Christoffel symbols: row 3 of 7 · 4 s``, displayed once the
  computation has run for :data:`DELAY` seconds, redrawn at most every
  :data:`INTERVAL` seconds, and removed when it ends: the widgets are closed
  and their output is replaced by an empty one, so a saved notebook keeps no
  widget, no widget state and no text of it;
* **one line on stderr** in a terminal (a script or IPython in a console,
  stderr a TTY), rewritten in place with ``\\r`` and erased at the end; never
  when stderr is a file or a pipe (CI logs, benchmarks piped to a file).

A background thread (started only when something may be shown) makes the
indicator appear on time even while one step runs for seconds (SymPy's
``cse`` of a 7-joint C, for example) and does all the redrawing; the
computation itself only stores a few attributes per :meth:`Progress.update`,
so small arms pay nothing measurable.

Where no thread can start (browser-based Python such as Pyodide and JupyterLite,
whose ``threading.Thread.start`` raises :class:`RuntimeError`), progress is
plain text instead: the computation's own :meth:`Progress.update` calls print
a line such as ``robolab: C(q, q̇) › Christoffel symbols: row 3 of 7 · 4 s [3/7]``
once the computation has run for :data:`DELAY` seconds, then at most every
:data:`PLAIN_INTERVAL` seconds when something changed, and a last line at the
end (to stdout in a kernel, stderr in a terminal). Nothing is shown while one
step runs, and the computation is never slowed or stopped by it.

Contexts nest: the outermost one owns the indicator and its clock, inner ones
(M inside C inside ``numeric()``) add their title to the label and show
their own count on the bar.

Examples
--------
>>> with Progress("M(q)", total=3) as progress:
...     for i in range(3):
...         progress.update(i, f"link {i + 1} of 3")
>>> progress.shown  # a short computation (and test mode): nothing was shown
False
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from . import widgets as _widgets

__all__ = ["DELAY", "INTERVAL", "PLAIN_INTERVAL", "Progress", "front_end"]

#: Seconds a computation runs before its progress is shown.
DELAY = 0.75
#: Seconds between two redraws of a shown indicator (at most four a second).
INTERVAL = 0.25
#: Seconds between two printed lines where no thread can start (plain output, no redraws).
PLAIN_INTERVAL = 2.0

_T = TypeVar("_T")

_local = threading.local()  # .stack: the active contexts of this thread, outermost first


def front_end() -> str:
    """Where progress can be shown: ``"widget"``, ``"console"`` or ``""`` (nowhere).

    ``""`` in test mode, in a kernel whose current cell was sent without
    ``allow_stdin`` (a notebook run by nbval, nbclient or nbconvert: nobody
    watches it), and outside a kernel when stderr is not a terminal.
    """
    if _widgets.in_test_mode():
        return ""
    if _widgets.in_kernel():
        return "widget" if _kernel_waits_for_a_person() else ""
    stream = sys.stderr
    try:
        return "console" if stream is not None and stream.isatty() else ""
    except (AttributeError, ValueError):  # a replaced or closed stream
        return ""


def _kernel_waits_for_a_person() -> bool:
    """True when the cell now running came from a front end that can answer ``input()``."""
    from IPython import get_ipython

    kernel = getattr(get_ipython(), "kernel", None)
    return bool(getattr(kernel, "_allow_stdin", False))


class Progress:
    """Report the progress of a computation; shown only if it takes long (a context manager).

    Parameters
    ----------
    title : str
        What is computed, e.g. ``"M(q)"`` or ``"compiling inverse_dynamics"``.
    total : int
        The number of parts (links, joints, stages); the bar is full at ``total``.
    delay, interval : float, optional
        Seconds before anything is shown, and between redraws; :data:`DELAY`
        and :data:`INTERVAL` by default. Only the outermost context's count.

    Attributes
    ----------
    shown : bool
        True once the indicator of this (outermost) context appeared.
    plain : bool
        True when no thread could start and progress is printed as plain lines.

    Examples
    --------
    Inside a notebook cell that runs for more than :data:`DELAY` seconds, this
    shows a bar with ``Christoffel symbols: row 2 of 7`` and removes it at
    the end (in test mode, as here, it shows nothing):

    >>> rows = 7
    >>> with Progress("Christoffel symbols", total=rows) as progress:
    ...     for i in range(rows):
    ...         progress.update(i, f"row {i + 1} of {rows}")
    ...         # ... the work of row i ...
    >>> progress.done, progress.shown
    (7, False)

    Where threads cannot start (Pyodide), the same context prints plain lines from its
    ``update`` calls instead (here forced to show at once, on stdout):

    >>> import threading
    >>> from unittest import mock
    >>> refuse = mock.patch.object(threading.Thread, "start", side_effect=RuntimeError)
    >>> in_a_notebook = mock.patch("robolab.support.progress.front_end", return_value="widget")
    >>> with refuse, in_a_notebook:
    ...     with Progress("M(q)", total=2, delay=0.0) as progress:
    ...         progress.update(1, "link 2 of 2")
    robolab: M(q): link 2 of 2 · 0 s [1/2]
    robolab: M(q) done · 0 s
    >>> progress.plain, progress.shown
    (True, True)
    """

    def __init__(
        self,
        title: str,
        total: int = 1,
        *,
        delay: float | None = None,
        interval: float | None = None,
    ) -> None:
        self.title = title
        self.total = max(int(total), 1)
        self.done = 0
        self.detail = ""
        self.delay = DELAY if delay is None else float(delay)
        self.interval = INTERVAL if interval is None else float(interval)
        self.shown = False
        self.plain = False
        self._next_line = 0.0
        self._last_line: tuple[str, int] | None = None
        self._root: Progress | None = None
        self._stack: list[Progress] = []
        self._kind = ""
        self._started = 0.0
        self._finished = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._indicator: _WidgetIndicator | _ConsoleIndicator | None = None

    # --- what the computation calls ------------------------------------------------------

    def update(self, done: int, detail: str = "") -> None:
        """Record that ``done`` parts are finished and ``detail`` is running now (cheap)."""
        self.done = done
        self.detail = detail
        root = self._root
        if root is not None and root.plain:
            root._print_line()

    def __enter__(self) -> Progress:
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        self._stack = stack
        self._root = stack[0] if stack else self
        stack.append(self)
        if self._root is self:
            self._kind = front_end()
            self._started = time.monotonic()
            if self._kind:
                thread = threading.Thread(target=self._watch, name="robolab progress", daemon=True)
                try:
                    thread.start()
                except RuntimeError:  # no threads here (Pyodide): plain lines from update()
                    self.plain = True
                    self._next_line = self._started + self.delay
                else:
                    self._thread = thread
        return self

    def __exit__(self, *exc: object) -> None:
        self.done = self.total
        if self._stack and self._stack[-1] is self:
            self._stack.pop()
        if self._root is not self:
            return
        self._finished.set()
        if self.plain and self.shown:
            elapsed = time.monotonic() - self._started
            _quietly(self._write_line, f"robolab: {self.title} done · {elapsed:.0f} s")
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        with self._lock:
            indicator, self._indicator = self._indicator, None
        if indicator is not None:
            _quietly(indicator.close)

    # --- the indicator (background thread of the outermost context) ---------------------------

    def text(self) -> str:
        """The label shown now: the titles of the nested contexts, the innermost detail, time."""
        stack = list(self._stack)
        if not stack:
            return self.title
        titles = " › ".join(p.title for p in stack)
        detail = stack[-1].detail
        elapsed = time.monotonic() - self._started
        return f"{titles}{': ' + detail if detail else ''} · {elapsed:.0f} s"

    def _state(self) -> tuple[str, int, int]:
        stack = list(self._stack)
        innermost = stack[-1] if stack else self
        return self.text(), min(innermost.done, innermost.total), innermost.total

    def _print_line(self) -> None:
        """Plain output (no thread): a line when due and when the state changed since the last."""
        now = time.monotonic()
        if now < self._next_line:
            return
        text, done, total = self._state()
        key = (text.rpartition(" · ")[0], done)
        if key == self._last_line:
            return
        self._last_line = key
        self._next_line = now + PLAIN_INTERVAL
        self.shown = True
        _quietly(self._write_line, f"robolab: {text} [{done}/{total}]")

    def _write_line(self, line: str) -> None:
        stream = sys.stdout if self._kind == "widget" else sys.stderr
        stream.write(line + "\n")
        stream.flush()

    def _watch(self) -> None:
        """Wait ``delay`` seconds, then show the indicator and redraw it until the end."""
        if self._finished.wait(self.delay):
            return
        with self._lock:
            if self._finished.is_set():
                return
            maker: Callable[[str, int, int], _WidgetIndicator | _ConsoleIndicator] = (
                _WidgetIndicator if self._kind == "widget" else _ConsoleIndicator
            )
            self._indicator = _quietly(maker, *self._state())
            self.shown = self._indicator is not None
        last = self._state()
        while not self._finished.wait(self.interval):
            state = self._state()
            if state == last:
                continue
            with self._lock:
                if self._indicator is None or self._finished.is_set():
                    return
                _quietly(self._indicator.show, *state)
            last = state


def _quietly(call: Callable[..., _T], *args: object) -> _T | None:
    """Run a display call; a failing display never breaks the computation it reports on."""
    try:
        return call(*args)
    except Exception:  # pragma: no cover - a front end that cannot show it: show nothing
        return None


class _WidgetIndicator:
    """An ``IntProgress`` and a ``Label`` in an ``HBox``, displayed with an id to clear later."""

    def __init__(self, text: str, value: int, maximum: int) -> None:
        import ipywidgets as widgets
        from IPython import display as ipython_display

        self.bar = widgets.IntProgress(
            value=value,
            min=0,
            max=maximum,
            bar_style="info",
            layout=widgets.Layout(width="220px", flex="0 0 auto"),
        )
        self.label = widgets.Label(value=text)
        self.box = widgets.HBox([self.bar, self.label])
        self.box.add_class("robolab-progress")
        self.handle = ipython_display.display(self.box, display_id=True)

    def show(self, text: str, value: int, maximum: int) -> None:
        if self.bar.max != maximum:
            self.bar.value = min(self.bar.value, maximum)
            self.bar.max = maximum
        self.bar.value = value
        self.label.value = text

    def close(self) -> None:
        """Close the widgets and replace their output by an empty one (nothing is saved)."""
        for widget in (self.box, self.bar, self.label):
            widget.close()
        if self.handle is not None:
            self.handle.update({}, raw=True)


class _ConsoleIndicator:
    """One line on stderr, rewritten in place with ``\\r`` and erased at the end."""

    def __init__(self, text: str, value: int, maximum: int) -> None:
        self.stream = sys.stderr
        self.width = 0
        self.show(text, value, maximum)

    def show(self, text: str, value: int, maximum: int) -> None:
        columns = shutil.get_terminal_size((80, 24)).columns - 1
        line = f"robolab: {text} [{value}/{maximum}]"[:columns]
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        self.stream.write("\r" + " " * self.width + "\r")
        self.stream.flush()
