"""Exercise checking: tolerances, symbolic equivalence, functions, diagnosed slips, solutions."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st

from robolab.exercises import (
    CheckResult,
    Exercise,
    check,
    check_expression,
    check_function,
    check_numeric,
    seed_for,
    show_solutions,
    solutions_shown,
)
from robolab.lessons.exercises import exercise as exercises
from robolab.spatial.transforms import rotz
from robolab.symbols import l1, l2, lc1, m1, q1, q2, t


@pytest.fixture(autouse=True)
def _solutions_hidden(monkeypatch):
    monkeypatch.delenv("ROBOLAB_SHOW_SOLUTIONS", raising=False)
    monkeypatch.setattr(exercises, "_SHOW_SOLUTIONS", None)


# --- numbers --------------------------------------------------------------------------------


def test_within_tolerance_is_right():
    assert check(1.0 + 5e-7, 1.0)
    assert not check(1.0 + 5e-6, 1.0)
    assert check(1.0 + 5e-6, 1.0, rtol=1e-5)
    assert check(1e-10, 0.0)  # atol covers zero
    assert check(np.float32(0.5), 0.5)
    assert check([[1, 2], [3, 4]], np.array([[1.0, 2.0], [3.0, 4.0]]))


def test_the_worst_entry_is_named():
    expected = rotz(0.3)
    answer = expected.copy()
    answer[1, 0] += 0.01
    answer[0, 0] += 0.001
    result = check(answer, expected, name="R")
    assert not result
    assert result.message.startswith(
        f"R[1, 0] is {answer[1, 0]:.4g}, expected {expected[1, 0]:.4g}"
    )
    assert "off by 0.01;" in result.message and "2 of 9 entries are off." in result.message


@pytest.mark.parametrize(
    ("answer", "expected", "words"),
    [
        (
            np.degrees([0.2, 0.4]),
            [0.2, 0.4],
            "Your answer looks like it is in degrees: each entry is the expected angle in degrees "
            "(answer[1] = 22.92° is 0.4 rad); robolab works in radians: convert with np.radians.",
        ),
        (
            np.radians(30.0),
            30.0,
            "answer is 0.5236, expected 30: your answer looks like it is in radians (0.5236 rad is "
            "30°); degrees are expected here: convert with np.degrees.",
        ),
        ([-1.0, 2.0, -0.5], [1.0, -2.0, 0.5], "answer has the opposite sign."),
        (-2.0, 2.0, "answer is -2, expected 2: it has the opposite sign."),
        ([[1.0, 0.0], [3.0, 1.0]], [[1.0, 3.0], [0.0, 1.0]], "looks transposed"),
        ([250.0, 0.0, 100.0], [0.25, 0.0, 0.1], "1000 times the expected value: millimetres"),
        ([0.5, 1.0], [0.25, 0.5], "is 2 times the expected value"),
        (0.3, 0.2, "answer is 0.3, expected 0.2: it is off by 0.1"),  # 1.5: no factor to name
    ],
)
def test_classic_slips_are_recognised(answer, expected, words):
    result = check(answer, expected)
    assert not result and words in result.message


def test_degrees_are_diagnosed_in_a_sentence_with_the_conversion():
    message = check(90.0, np.pi / 2).message
    assert message == (
        "answer is 90, expected 1.571: your answer looks like it is in degrees (90° is 1.571 rad); "
        "robolab works in radians: convert with np.radians."
    )
    named = check(np.degrees([[0.1, -0.7]]), [[0.1, -0.7]], name="q").message
    assert named.startswith("q looks like it is in degrees: each entry is the expected angle")
    assert "(q[0, 1] = -40.11° is -0.7 rad)" in named
    assert check(np.radians([30.0, 60.0]), [30.0, 60.0]).message.startswith(
        "Your answer looks like it is in radians:"
    )


def test_shapes():
    assert "has shape (3,), expected shape (4, 4)" in check(np.zeros(3), np.eye(4)).message
    message = check(np.zeros((2, 3)), np.zeros((3, 2))).message
    assert "transposed? .T swaps rows and columns" in message
    assert "same number of entries: .reshape(6,)?" in check(np.zeros((2, 3)), np.zeros(6)).message
    assert check([0.5], 0.5)  # a one-element array for a number is fine


def test_missing_and_malformed_answers():
    assert (
        check(None, 1.0).message == "No answer yet: answer is None (replace None with your result)."
    )
    assert "got the text 'pi/2'" in check("pi/2", np.pi / 2).message
    assert "still contains the symbols q₁, q̇₁;" in check(sp.cos(q1) * q1.diff(t), 0.5).message
    assert check([1.0, np.nan], [1.0, 2.0]).message == "answer[1] is nan, not a finite number."
    assert check(sp.Integer(2) / 4, 0.5)  # a SymPy number is a number
    assert "must be a number or an array of numbers, got a dict ({})" in check({}, 1.0).message


def test_hint_is_appended():
    result = check(2.0, 1.0, hint="Use the law of cosines.")
    assert result.message.endswith("Hint: Use the law of cosines.")
    assert not check_numeric(2.0, 1.0, hint="h").correct


def test_result_displays():
    good, bad = check(1.0, 1.0), check(2.0, 1.0)
    assert isinstance(good, CheckResult) and bool(good) and not bool(bad)
    assert str(good).startswith("✓ ") and str(bad).startswith("✗ ")
    assert good._repr_markdown_().startswith("✅") and bad._repr_markdown_().startswith("❌")
    assert 'class="robolab-check"' in bad._repr_html_()


def test_the_text_output_that_nbval_compares_is_the_message():
    from IPython.core.formatters import DisplayFormatter

    bad = check(2.0, 1.0)
    data, _ = DisplayFormatter().format(bad)  # what a notebook saves for the output
    assert data["text/plain"] == (
        "✗ answer is 2, expected 1: it is 2 times the expected value: a factor ½ missing (½ m v², "
        "a half angle) or an extra 2?"
    )
    assert data["text/html"] == bad._repr_html_() and data["text/markdown"].startswith("❌")
    assert "CheckResult(" in repr(bad)  # repr() stays the dataclass's, for debugging


def test_expected_value_must_be_numeric():
    with pytest.raises(ValueError, match="the expected value is not numeric"):
        check_numeric(1.0, "one")


# --- expressions ----------------------------------------------------------------------------------


def test_equivalent_expressions_in_other_forms():
    assert check(sp.sin(q1) ** 2, 1 - sp.cos(q1) ** 2)
    x = l1 * sp.cos(q1) + l2 * sp.cos(q1 + q2)
    expanded = l1 * sp.cos(q1) + l2 * (sp.cos(q1) * sp.cos(q2) - sp.sin(q1) * sp.sin(q2))
    result = check(expanded, x)
    assert result and "equivalent" in result.message


def test_different_expression_reports_a_point_as_in_textbooks():
    result = check_expression(
        l1 * sp.sin(q1) * q1.diff(t), l1 * sp.cos(q1) * q1.diff(t) + q2.diff(t, 2), name="y"
    )
    assert not result
    assert re.fullmatch(
        r"y differs from the expected expression: at l₁ = [\d.]+, q₁ = -?[\d.]+, "
        r"q̇₁ = -?[\d.]+, q₂ = -?[\d.]+, q̈₂ = -?[\d.]+, y = -?[\d.]+ but the expected value is "
        r"-?[\d.]+\.",
        result.message,
    ), result.message
    assert "Derivative" not in result.message and "(t)" not in result.message


def _sampled_values(expected, seed=0, samples=6):
    """The values check_expression gives each symbol (read back from a wrong answer's messages)."""
    values = []
    for k in range(samples):
        message = check_expression(sp.Integer(0), expected, seed=seed + k, samples=1).message
        values.append(dict(re.findall(r"(\S+) = (-?[\d.]+)[,:]", message.split(" at ")[1])))
    return values


def test_samples_respect_the_assumptions_of_the_symbols():
    length = sp.Symbol("L", positive=True)
    depth = sp.Symbol("h", negative=True)
    count = sp.Symbol("k", integer=True, positive=True)
    angle = sp.Symbol("phi", real=True)
    expected = 1 + length**2 + depth**2 + count**2 + angle**2 + m1**2 + l1**2 + lc1**2
    points = _sampled_values(expected, samples=20)
    assert all(float(p["L"]) > 0 and float(p["h"]) < 0 for p in points)
    assert all(float(p[name]) > 0 for p in points for name in ("m₁", "l₁", "l_c1"))
    assert all(float(p["k"]).is_integer() and float(p["k"]) >= 1 for p in points)
    assert {float(p["φ"]) > 0 for p in points} == {True, False}  # a plain real: both signs


def test_the_same_name_with_other_assumptions_is_the_same_symbol():
    # A student who declares the length positive means robolab's l_1 (declared real).
    mine = sp.Symbol("l_1", positive=True)
    assert check(sp.sqrt(mine**2) * sp.cos(q1), l1 * sp.cos(q1))
    wrong = check(mine * sp.sin(q1), l1 * sp.cos(q1))
    assert not wrong and "uses" not in wrong.message and "l₁ = " in wrong.message


def test_foreign_symbols_are_named():
    theta = sp.Symbol("theta")
    result = check(l1 * sp.cos(theta), l1 * sp.cos(q1))
    assert "uses θ, which the expected expression does not (it uses l₁, q₁)" in result.message


def test_matrices_and_equations():
    c, s = sp.cos(q1), sp.sin(q1)
    expected = sp.Matrix([[c, -s], [s, c]])
    assert check(sp.Matrix([[c, -s], [s, c]]), expected)
    wrong = check(sp.Matrix([[c, -2 * s], [s, c]]), expected)
    assert not wrong and "entry [0, 1]" in wrong.message
    flipped = check(sp.Matrix([[c, s], [s, c]]), expected)  # one sign: a named slip
    assert not flipped and "answer[0, 1] has the wrong sign" in flipped.message
    assert "has shape (2, 1), expected shape (2, 2)" in check(sp.Matrix([c, s]), expected).message
    assert "must be a matrix" in check(c, expected).message
    tau = sp.Symbol("tau")
    assert check(sp.Eq(tau, l1 * c), sp.Eq(l1 * c, tau))  # sides swapped: the same equation
    assert not check(sp.Eq(tau, l1 * s), sp.Eq(tau, l1 * c))


def test_functions_of_time_and_their_derivatives():
    t = sp.Symbol("t")
    q = sp.Function("q")(t)
    kinetic = sp.Rational(1, 2) * l1**2 * sp.diff(q, t) ** 2
    assert check(l1**2 * sp.diff(q, t) ** 2 / 2, kinetic)
    assert not check(l1**2 * sp.diff(q, t) / 2, kinetic)


def test_expression_answers_that_are_not_expressions():
    assert "not text" in check_expression("cos(q1)", sp.cos(q1)).message
    assert "No answer yet" in check(None, sp.cos(q1)).message


def test_numeric_agreement_without_simplification_is_accepted_and_said():
    # Large enough that SymPy is not asked to simplify; agreement at random points decides.
    big = sum(sp.cos(k * q1) ** 2 + sp.sin(k * q1) ** 2 for k in range(1, 80)) + sp.cos(q1)
    result = check_expression(big, 79 + sp.cos(q1))
    assert result and "agrees with the expected expression at 6 random points" in result.message


# --- functions ------------------------------------------------------------------------------------


def _forward_kinematics(q, lengths=(1.0, 0.5)):
    a, b = lengths
    return np.array(
        [a * np.cos(q[0]) + b * np.cos(q[0] + q[1]), a * np.sin(q[0]) + b * np.sin(q[0] + q[1])]
    )


def test_function_answers():
    inputs = [np.array([0.1, 0.2]), np.array([1.0, -0.5])]

    def right(q):
        return _forward_kinematics(q)

    def swapped(q):
        return _forward_kinematics(q)[::-1]

    def broken(q):
        raise ZeroDivisionError("oops")

    assert check(right, _forward_kinematics, inputs=inputs)
    result = check(swapped, _forward_kinematics, inputs=inputs)
    assert not result and result.message.startswith("for swapped(array([0.1, 0.2])): the result[0]")
    assert (
        check_function(broken, _forward_kinematics, inputs).message
        == "broken(array([0.1, 0.2])) raised ZeroDivisionError: oops."
    )
    assert (
        "must be a function, got float" in check_function(1.0, _forward_kinematics, inputs).message
    )
    keyword = check_function(
        lambda q, lengths: _forward_kinematics(q, lengths),
        _forward_kinematics,
        [{"q": np.zeros(2), "lengths": (2.0, 1.0)}, (np.ones(2), (1.0, 1.0))],
    )
    assert keyword and "on 2 inputs" in keyword.message
    with pytest.raises(ValueError, match="inputs must be given to check a function"):
        check(right, _forward_kinematics)
    with pytest.raises(ValueError, match="inputs must hold at least one input"):
        check_function(right, _forward_kinematics, [])


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


# --- properties ---------------------------------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(finite, min_size=1, max_size=6))
def test_an_answer_equal_to_the_expected_one_is_right(values):
    assert check(np.array(values), np.array(values))


@given(st.lists(finite, min_size=1, max_size=6), st.integers(0, 5), finite)
def test_an_entry_off_by_more_than_the_tolerance_is_named(values, index, delta):
    expected = np.array(values)
    index %= len(values)
    tolerance = 1e-9 + 1e-6 * abs(expected[index])
    assume(abs(delta) > 2 * tolerance)
    answer = expected.copy()
    answer[index] += delta
    assume(answer[index] - expected[index] != 0.0)
    result = check(answer, expected)
    assert not result
    # The message names the entry, unless a classic slip explains the whole answer better.
    slips = ("degrees", "radians", "opposite sign", "times the expected value", "half the")
    assert f"answer[{index}]" in result.message or any(s in result.message for s in slips)
