"""The check a worked solution runs on itself never looks like the student's own result.

It reads "Worked solution — checked" in a grey-blue box, never the student's green ✓; a
``# Solution`` cell shows it in IPython, recognised by the cell's first line; a failed one
says that the notebook has a mistake. The expected values are closed forms written out here.
"""

from __future__ import annotations

import math

import pytest
from IPython.lib.pretty import pretty

from robolab.exercises import CheckResult, Exercise
from robolab.lessons.exercises.worked_solutions import (
    WorkedSolutionCheck,
    in_solution_cell,
    is_solution_source,
    watch_cells,
)

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


@pytest.mark.parametrize(
    ("source", "is_solution"),
    [
        ("# Solution: invert the rotation.\nexercise_2.check(T)", True),
        ("  # solution\nexercise_2.check(T)", True),
        ("#SOLUTION\nx = 1", True),
        ("T_answer = None  # your solution\nexercise_2.check(T_answer)", False),
        ("x = 1\n# Solution", False),
        ("# Solutions of all exercises are at the end", False),
        ("", False),
    ],
)
def test_a_solution_cell_is_recognised_by_its_first_line(source, is_solution):
    assert is_solution_source(source) is is_solution


# --- in IPython ---------------------------------------------------------------------------------


def test_a_solution_cell_in_ipython_shows_the_worked_solution_check(shell):
    shell.user_ns["exercise_1"] = reach_exercise()
    shell.run_cell("mine = exercise_1.check(exercise_1.expected)")
    shell.run_cell(
        "# Solution: the law of cosines.\ntheirs = exercise_1.check(exercise_1.expected)"
    )
    mine, theirs = shell.user_ns["mine"], shell.user_ns["theirs"]
    assert type(mine) is CheckResult and str(mine).startswith("✓ Correct")
    assert isinstance(theirs, WorkedSolutionCheck) and str(theirs).startswith("Worked solution")


def test_the_cell_that_runs_decides_and_cells_are_watched_once(shell):
    shell.user_ns["in_solution_cell"] = in_solution_cell
    shell.run_cell("# Solution\ninside = in_solution_cell()")
    shell.run_cell("outside = in_solution_cell()")
    assert shell.user_ns["inside"] is True and shell.user_ns["outside"] is False
    watch_cells()  # a second call (a re-imported robolab) adds no second watcher
    watchers = [f for f in shell.events.callbacks["pre_run_cell"] if f.__name__ == "remember"]
    assert len(watchers) == 1


def test_an_unwatched_shell_reads_the_cell_from_its_history():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()  # a new shell: watch_cells() has not been called for it
    try:
        history = shell.history_manager.input_hist_raw  # a kernel stores a cell before running it
        history.append("# Solution: the law of cosines.\nexercise_1.check(reach)")
        assert in_solution_cell() is True
        history.append("exercise_1.check(reach)")
        assert in_solution_cell() is False
    finally:
        InteractiveShell.clear_instance()


def test_outside_ipython_no_cell_is_a_solution_cell():
    from IPython import get_ipython

    assert get_ipython() is None
    watch_cells()  # nothing to watch
    assert in_solution_cell() is False
