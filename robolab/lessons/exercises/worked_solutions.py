"""The check a worked solution runs on itself, shown so that nobody takes it for their own result.

Each exercise of a chapter is followed by a collapsed *solution cell* (tagged ``solution``, its
source starting with a ``# Solution`` comment) that ends with the same check as the student's
cell, so the tests prove that the solution passes. After *Run All* JupyterLab shows that cell's
output under the student's unanswered exercise. Had it been the student's green "✓ Correct", a
student would read it as their own result; a :class:`WorkedSolutionCheck` reads "Worked solution
— checked: ..." in a grey-blue box instead, never with the student's tick.

:meth:`Exercise.check <robolab.lessons.exercises.exercise.Exercise.check>` returns one when
it runs in a solution cell, which it recognises by the cell's first line (``# Solution...``):
IPython tells robolab each cell's source before running it (:func:`watch_cells`). So every
chapter's solution cells show it without a change. ``exercise.check_solution(value)`` asks
for it explicitly. :mod:`robolab.exercises` re-exports :class:`WorkedSolutionCheck` (the same
class).

Examples
--------
>>> shown = WorkedSolutionCheck(True, "answer matches the expected value.")
>>> print(shown)
Worked solution — checked: it matches the expected answer. (This checks the hidden worked
solution, not your answer.)
>>> bool(shown), "✓" in shown._repr_html_()
(True, False)
>>> is_solution_source("# Solution: invert the rotation.\\nexercise_2.check(T)")
True
>>> is_solution_source("T_answer = None  # your solution\\nexercise_2.check(T_answer)")
False
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from .check_result import CheckResult

__all__ = ["WorkedSolutionCheck", "in_solution_cell", "is_solution_source", "watch_cells"]

#: A solution cell's source starts with a ``# Solution`` comment (notebooks/README.md).
_SOLUTION_SOURCE = re.compile(r"\A\s*#\s*solution\b", re.IGNORECASE)

_CHECKED = (
    "Worked solution — checked: it matches the expected answer. (This checks the hidden worked "
    "solution, not your answer.)"
)


@dataclass(frozen=True)
class WorkedSolutionCheck(CheckResult):
    """The verdict of a worked solution's own check: truthy when the solution passes.

    Its text, Markdown and HTML forms say "Worked solution" first, carry no ✓ or ✗, and show in
    a grey-blue box, unlike a student's green or red :class:`CheckResult`.
    """

    def _text(self) -> str:
        if self.correct:
            return _CHECKED
        return f"Worked solution — its check FAILED (a mistake in the notebook): {self.message}"

    def __str__(self) -> str:
        return self._text()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _repr_markdown_(self) -> str:
        head, _, rest = self._text().partition(" — ")
        return f"> **{head}** — {rest}"

    def _repr_html_(self) -> str:
        head, _, rest = self._text().partition(" — ")
        border = "#6A8CAF" if self.correct else "#C77700"
        return (
            f'<div class="robolab-worked-solution" style="color:#1F3347;background:#EEF2F6;'
            f'border-left:4px solid {border};padding:4px 8px;border-radius:4px">'
            f"<b>{html.escape(head)}</b> — {html.escape(rest)}</div>"
        )


def is_solution_source(source: str) -> bool:
    """True for the source of a solution cell: its first line is a ``# Solution`` comment."""
    return bool(_SOLUTION_SOURCE.match(source or ""))


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    return get_ipython()


def watch_cells() -> None:
    """Have IPython tell robolab the source of each cell before it runs (once per shell).

    The source is kept on the shell (not in this module), so reloading robolab keeps working.
    Outside IPython this does nothing.
    """
    shell = _shell()
    if shell is None or getattr(shell, "_robolab_watches_cells", False):
        return

    def remember(info: Any) -> None:
        shell._robolab_cell_source = getattr(info, "raw_cell", "") or ""

    shell.events.register("pre_run_cell", remember)
    shell._robolab_watches_cells = True


def in_solution_cell() -> bool:
    """True while IPython runs a solution cell (see :func:`is_solution_source`)."""
    shell = _shell()
    if shell is None:
        return False
    source = getattr(shell, "_robolab_cell_source", None)
    if source is None:  # not watched yet: IPython stores a cell's source before running it
        history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
        source = history[-1] if history else ""
    return is_solution_source(source)
