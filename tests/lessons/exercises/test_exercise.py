"""The Exercise: seeded instances, hints, hidden solutions, checkers and bad definitions."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

from robolab.exercises import (
    CheckResult,
    Exercise,
    seed_for,
    show_solutions,
    solutions_shown,
)
from robolab.lessons.exercises import exercise as exercises
from robolab.symbols import l1, l2, q1, q2


@pytest.fixture(autouse=True)
def _solutions_hidden(monkeypatch):
    monkeypatch.delenv("ROBOLAB_SHOW_SOLUTIONS", raising=False)
    monkeypatch.setattr(exercises, "_SHOW_SOLUTIONS", None)


def _forward_kinematics(q, lengths=(1.0, 0.5)):
    a, b = lengths
    return np.array(
        [a * np.cos(q[0]) + b * np.cos(q[0] + q[1]), a * np.sin(q[0]) + b * np.sin(q[0] + q[1])]
    )


# --- exercises and solutions ---------------------------------------------------------------------


def _reach_exercise(seed=0):
    return Exercise(
        "Reach of a 2R arm",
        "Links of {l1:.2f} m and {l2:.2f} m: how far can the hand get from the base?",
        solve=lambda l1, l2: l1 + l2,
        generate=lambda rng: {"l1": rng.uniform(0.2, 0.5), "l2": rng.uniform(0.1, 0.4)},
        seed=seed,
        hint="Stretch the arm out.",
        explanation="Fully stretched, the lengths add up.",
    )


def test_seeded_instances_are_reproducible_and_differ():
    a, b, c = _reach_exercise(1), _reach_exercise(1), _reach_exercise(2)
    assert a.parameters == b.parameters and a.prompt == b.prompt
    assert a.parameters != c.parameters
    assert a.with_seed(2).parameters == c.parameters
    assert (
        a.prompt
        == "Links of {:.2f} m and {:.2f} m: how far can the hand get from the base?".format(
            a.parameters["l1"], a.parameters["l2"]
        )
    )


def test_exercise_checks_with_its_hint():
    exercise = _reach_exercise(5)
    assert exercise.check(exercise.parameters["l1"] + exercise.parameters["l2"])
    wrong = exercise.check(exercise.parameters["l1"])
    assert not wrong and wrong.message.endswith("Hint: Stretch the arm out.")
    assert exercise._repr_markdown_().startswith("**Exercise: Reach of a 2R arm.** Links of")


@pytest.mark.parametrize(
    ("title", "heading"),
    [
        ("How far can it reach?", "**Exercise: How far can it reach?**"),
        ("Singular!", "**Exercise: Singular!**"),
        ("The tool transform.", "**Exercise: The tool transform.**"),
        ("The tool transform", "**Exercise: The tool transform.**"),
    ],
)
def test_the_title_ends_with_one_mark(title, heading):
    shown = Exercise(title, "Compute it.", solve=lambda: 1.0)._repr_markdown_()
    assert shown == f"{heading} Compute it."


def test_solutions_are_hidden_until_the_teacher_shows_them(monkeypatch):
    exercise = _reach_exercise()
    assert not solutions_shown()
    assert "is hidden" in exercise.solution()._repr_markdown_()
    show_solutions()
    solution = exercise.solution()
    assert solution.visible
    assert solution._repr_markdown_().startswith(
        "**Solution: Reach of a 2R arm.** Fully stretched, the lengths add up."
    )
    assert f"`{exercise.expected:.4g}`" in solution._repr_markdown_()
    show_solutions(False)
    assert not exercise.solution().visible
    monkeypatch.setattr(exercises, "_SHOW_SOLUTIONS", None)
    monkeypatch.setenv("ROBOLAB_SHOW_SOLUTIONS", "1")
    assert exercise.solution().visible


def test_symbolic_and_function_exercises():
    symbolic = Exercise(
        "x of a 2R arm",
        "Write x(q1, q2).",
        solve=lambda: l1 * sp.cos(q1) + l2 * sp.cos(q1 + q2),
    )
    assert symbolic.check(l2 * sp.cos(q2 + q1) + l1 * sp.cos(q1))
    show_solutions()
    assert "$$" in symbolic.solution()._repr_markdown_()
    function = Exercise(
        "Forward kinematics",
        "Write fk(q).",
        solve=lambda: _forward_kinematics,
        inputs=[np.array([0.3, 0.4])],
    )
    assert function.check(lambda q: _forward_kinematics(q))
    assert "reference function" in function.solution()._repr_markdown_()


def test_seed_for_students():
    assert seed_for("Ada") == seed_for(" ada ")  # case and spaces do not matter
    assert seed_for("ada", "ex1") != seed_for("ada", "ex2")
    assert 0 <= seed_for("ada") < 2**32
    # Stable across Python runs (Python's own hash() of a string is salted per process).
    code = "from robolab.exercises import seed_for; print(seed_for('ada'))"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": salt},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for salt in ("1", "2")
    }
    assert runs == {str(seed_for("ada"))}
    with pytest.raises(ValueError, match="student must be a non-empty name"):
        seed_for("  ")


def _branch_exercise(seed: int = 0) -> Exercise:
    """Both elbow branches of a 2R inverse kinematics are right: a checker, not a value."""

    def reaches(answer, l1, l2, x, y):
        q = np.asarray(answer, dtype=float)
        hand = np.array(
            [
                l1 * np.cos(q[0]) + l2 * np.cos(q[0] + q[1]),
                l1 * np.sin(q[0]) + l2 * np.sin(q[0] + q[1]),
            ]
        )
        off = float(np.linalg.norm(hand - [x, y]))
        return CheckResult(off < 1e-9, f"the hand is {off:.3g} m from the target.")

    def elbow_down(l1, l2, x, y):
        q2 = np.arccos((x * x + y * y - l1 * l1 - l2 * l2) / (2 * l1 * l2))
        return np.array([np.arctan2(y, x) - np.arctan2(l2 * np.sin(q2), l1 + l2 * np.cos(q2)), q2])

    return Exercise(
        "2R inverse kinematics",
        "Reach ({x:.2f}, {y:.2f}).",
        solve=elbow_down,
        generate=lambda rng: {"l1": 1.0, "l2": 0.8, "x": rng.uniform(0.5, 1.2), "y": 0.6},
        seed=seed,
        hint="Use the law of cosines.",
        checker=reaches,
    )


def test_a_checker_accepts_every_right_answer_and_appends_the_hint():
    exercise = _branch_exercise(4)
    p = exercise.parameters
    down = exercise.expected
    # the other elbow branch (the law of cosines gives ±q2; q1 follows from the atan2 of each)
    q2 = -down[1]
    q1 = np.arctan2(p["y"], p["x"]) - np.arctan2(
        p["l2"] * np.sin(q2), p["l1"] + p["l2"] * np.cos(q2)
    )
    assert exercise.check(down) and exercise.check([q1, q2])
    wrong = exercise.check([0.0, 0.0])
    assert not wrong
    assert wrong.message.startswith("the hand is ") and wrong.message.endswith(
        "Hint: Use the law of cosines."
    )
    assert exercise.with_seed(5).check(exercise.with_seed(5).expected)
    assert not exercise.with_seed(5).check(down)  # other numbers, still checked by the checker


def test_a_checker_survives_what_students_type():
    exercise = _branch_exercise()
    none = exercise.check(None)
    assert not none and none.message.startswith("No answer yet: the answer is None.")
    text = exercise.check("elbow up")
    assert not text and text.message.startswith("checking the answer raised ValueError")
    short = exercise.check([0.3])
    assert not short and "IndexError" in short.message


def test_a_checker_that_runs_the_students_code_is_bounded_in_time(monkeypatch):
    def run(answer):
        return CheckResult(bool(answer(0.5) == 0.5), "ran")

    def spins(q):
        while True:
            pass

    def leaves(q):
        raise SystemExit(1)

    exercise = Exercise("Identity", "Write f(q) = q.", solve=lambda: 0.0, checker=run)
    monkeypatch.setattr(exercises, "CALL_SECONDS", 0.2)
    stopped = exercise.check(spins)
    assert not stopped
    assert stopped.message.startswith("checking the answer took more than 0.2 s, so it was stop")
    assert exercise.check(leaves).message.startswith("checking the answer raised SystemExit")
    assert exercise.check(lambda q: q)


def test_a_checker_must_be_a_function_returning_a_check_result():
    with pytest.raises(TypeError, match="checker must be a function"):
        Exercise("t", "p", solve=lambda: 1.0, checker="yes")
    careless = Exercise("t", "p", solve=lambda: 1.0, checker=lambda answer: True)
    with pytest.raises(TypeError, match="must return a CheckResult, got bool"):
        careless.check(1.0)


def test_bad_exercise_definitions():
    with pytest.raises(ValueError, match=r"refers to 'l3', which generate\(\) does not return"):
        Exercise("t", "{l3}", solve=lambda l1: l1, generate=lambda rng: {"l1": 1.0})
    with pytest.raises(TypeError, match="solve must be a function of the parameters"):
        Exercise("t", "p", solve=3.0)
    with pytest.raises(TypeError, match="seed must be a whole number"):
        Exercise("t", "p", solve=lambda: 1.0, seed=0.5)
    with pytest.raises(TypeError, match="on must be True or False"):
        show_solutions("yes")


@pytest.mark.parametrize(
    ("kind", "heading"),
    [
        ("apply", "Exercise: Reach."),
        ("model", "Exercise (modelling): Reach."),
        ("predict", "Exercise (predict first): Reach."),
        ("explain", "Exercise (explain): Reach."),
    ],
)
def test_an_exercise_says_what_kind_of_task_it_is_and_keeps_it_for_each_student(kind, heading):
    exercise = Exercise(
        "Reach",
        "Links of {l1} m and 0.3 m: the reach?",
        solve=lambda l1: l1 + 0.3,
        generate=lambda rng: {"l1": round(float(rng.uniform(0.2, 0.5)), 2)},
        kind=kind,
    )
    assert exercise.kind == kind and exercise._repr_markdown_().startswith(f"**{heading}**")
    own = exercise.with_seed(7, own=True)
    assert own.kind == kind and own._repr_markdown_().startswith(f"**{heading}**")


def test_an_unknown_kind_of_task_is_refused_with_the_kinds_there_are():
    with pytest.raises(ValueError, match="kind must be one of 'apply', 'model', 'predict'"):
        Exercise("Reach", "The reach?", solve=lambda: 0.7, kind="modelling")
