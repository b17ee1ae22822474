"""The check a worked solution runs on itself, shown so that nobody takes it for their own result.

Each exercise of a chapter is followed by a collapsed *solution cell* (tagged ``solution``) that
ends with ``exercise_N.check_solution(value)``, so the tests prove that the solution passes.
After *Run All* JupyterLab shows that cell's output under the student's unanswered exercise. Had
it been the student's green "✓ Correct", a student would read it as their own result; a
:class:`WorkedSolutionCheck` reads "Worked solution — checked: ..." in a grey-blue box instead,
never with the student's tick. The call itself says it is the worked solution's: nothing a
student types by accident (a cell that starts with ``# solution``, say) turns their own check
into it. :mod:`robolab.exercises` re-exports :class:`WorkedSolutionCheck` (the same class).

Examples
--------
>>> shown = WorkedSolutionCheck(True, "answer matches the expected value.")
>>> print(shown)
Worked solution — checked: it matches the expected answer. (This checks the hidden worked
solution, not your answer.)
>>> bool(shown), "✓" in shown._repr_html_()
(True, False)
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .check_result import CheckResult

__all__ = ["WorkedSolutionCheck"]

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
