"""The check a worked solution runs on itself never looks like the student's own result.

It reads "Worked solution — checked" in a grey-blue box, never the student's green ✓; only
``check_solution`` gives it, so nothing a student types by accident (a cell starting with
``# solution``) turns their own check into it; a failed one says that the notebook has a
mistake. The expected values are closed forms written out here.
"""

from __future__ import annotations

import math

import pytest
from IPython.lib.pretty import pretty

from robolab.exercises import CheckResult, Exercise
from robolab.lessons.exercises.worked_solutions import WorkedSolutionCheck

L1, L2 = 1.0, 0.5


def reach_exercise() -> Exercise:
    """The distance from base to hand of a planar 2R arm: the law of cosines."""
    return Exercise(
        "Reach",
        "How far from the base is the hand at q2 = {q2:.3f} rad (l1 = 1 m, l2 = 0.5 m)?",
        solve=lambda q2: math.sqrt(L1**2 + L2**2 + 2 * L1 * L2 * math.cos(q2)),
        generate=lambda rng: {"q2": float(rng.uniform(0.4, 1.2))},
        seed=3,
    )


def test_a_worked_solutions_check_never_looks_like_the_students_result():
    exercise = reach_exercise()
    solution = exercise.check_solution(exercise.expected)
    assert isinstance(solution, WorkedSolutionCheck) and solution
    text = str(solution)
    assert text.startswith("Worked solution — checked") and "not your answer" in text
    assert "✓" not in text and "Correct" not in text
    assert "✓" not in solution._repr_html_() and "#1B5E20" not in solution._repr_html_()
    assert "robolab-worked-solution" in solution._repr_html_()
    assert "✅" not in solution._repr_markdown_()
    student = exercise.check(exercise.expected)
    assert str(student).startswith("✓ Correct")  # the student's own right answer keeps its tick
    failed = exercise.check_solution(L1 + L2)  # the reach of the stretched arm, q2 = 0
    assert not failed and "FAILED" in str(failed)
    assert exercise.wrong_tries == 0  # the solution's check is no try of the student's


def test_every_form_of_the_verdict_says_worked_solution_first():
    checked = WorkedSolutionCheck(True, "answer matches the expected value.")
    sentence = (
        "checked: it matches the expected answer. (This checks the hidden worked solution, "
        "not your answer.)"
    )
    assert str(checked) == f"Worked solution — {sentence}" == pretty(checked)
    assert checked._repr_markdown_() == f"> **Worked solution** — {sentence}"
    assert "border-left:4px solid #6A8CAF" in checked._repr_html_()
    failed = WorkedSolutionCheck(False, "expected 1.3, got <b>1.5</b>")
    assert not failed
    assert str(failed) == (
        "Worked solution — its check FAILED (a mistake in the notebook): "
        "expected 1.3, got <b>1.5</b>"
    )
    shown = failed._repr_html_()
    assert "#C77700" in shown and "got &lt;b&gt;1.5&lt;/b&gt;" in shown and "<b>1.5" not in shown


# --- in IPython ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first_line", ["# Solution: the law of cosines.", "# solution", "#SOLUTION attempt 2"]
)
def test_a_students_cell_that_starts_with_solution_is_still_their_own_check(shell, first_line):
    """The walkthrough's bug: such a cell hid a wrong answer behind "its check FAILED"."""
    shell.user_ns["exercise_1"] = reach_exercise()
    shell.run_cell(f"{first_line}\nwrong = exercise_1.check(1.0)")
    shell.run_cell(f"{first_line}\nright = exercise_1.check(exercise_1.expected)")
    wrong, right = shell.user_ns["wrong"], shell.user_ns["right"]
    assert isinstance(wrong, CheckResult) and not isinstance(wrong, WorkedSolutionCheck)
    assert str(wrong).startswith("✗")
    assert "Worked solution" not in str(wrong) and f"{L1 + L2}" not in str(wrong)
    assert isinstance(right, CheckResult) and not isinstance(right, WorkedSolutionCheck)
    assert str(right).startswith("✓ Correct")
    assert shell.user_ns["exercise_1"].wrong_tries == 1


def test_the_worked_solution_in_ipython_is_the_one_that_calls_check_solution(shell):
    shell.user_ns["exercise_1"] = reach_exercise()
    shell.run_cell("theirs = exercise_1.check_solution(exercise_1.expected)")
    theirs = shell.user_ns["theirs"]
    assert isinstance(theirs, WorkedSolutionCheck) and str(theirs).startswith("Worked solution")
