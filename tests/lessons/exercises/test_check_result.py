"""Whatever a student types, the exercise checker answers with a sentence and never crashes.

Each class of bad answer (text, None, truth values, complex numbers, dicts,
functions, SymPy symbols and non-numbers, ragged lists, functions that raise
or return the wrong thing) gives a wrong-answer CheckResult whose message
says what was expected and what was given; valid forms of a number (NumPy
and SymPy numbers, lists, arrays and matrices of them) are still accepted.
Only the author's mistakes (bad tolerances) raise. Property tests: no answer
drawn from a broad strategy of junk makes the check raise or pass, and a
numeric answer passes exactly when it is within the tolerance.
"""

from __future__ import annotations

import fractions
import math
import re

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from robolab.exercises import (
    CheckResult,
    Exercise,
    check,
    check_expression,
    check_function,
    check_numeric,
)
from robolab.symbols import l1, q1, q2

HALF_PI = math.pi / 2
LAST_RESORT = "could not be compared"  # the safety net's words: no foreseen answer needs it


def _wrong(answer, expected, **kwargs) -> str:
    result = check(answer, expected, **kwargs)
    assert isinstance(result, CheckResult)
    assert not result, f"{answer!r} was accepted: {result}"
    assert LAST_RESORT not in result.message, result.message
    return str(result)


# --- each class of bad answer, with its message -------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        # text: a number in quotes is named as such
        (
            ["1.5707963267948966"],
            "answer[0] is the text '1.5707963267948966', not a number: remove the quotes.",
        ),
        ("1.57", "answer is the text '1.57', not a number: remove the quotes."),
        (b"1.57", "answer is the text b'1.57', not a number: remove the quotes."),
        (np.array(["1.5"]), "answer[0] is the text '1.5', not a number: remove the quotes."),
        ("pi/2", "answer must be a number or an array of numbers, got the text 'pi/2'; write"),
        ("x" * 100, "got the text 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"),
        # truth values
        (True, "answer is True, a truth value (bool), not a number; if you mean 1, write the"),
        (np.False_, "answer is False, a truth value (bool), not a number; if you mean 0"),
        ([HALF_PI, True], "answer[1] is True, a truth value (bool), not a number"),
        (np.array([True]), "answer is an array of truth values (dtype bool), not of numbers"),
        (sp.true, "answer is the SymPy truth value True, not a number."),
        # complex numbers where the expected value is real
        (
            HALF_PI + 2j,
            "answer is 1.571+2j, a complex number, but the expected value is real: its "
            "imaginary part 2 should be 0.",
        ),
        (np.complex128(1 + 2j), "answer is 1+2j, a complex number, but the expected value is"),
        (np.array([HALF_PI + 1e-3j]), "its imaginary part 0.001 should be 0."),
        (sp.I, "answer is 0+1j, a complex number, but the expected value is real"),
        (sp.pi / 2 + sp.I, "answer is 1.571+1j, a complex number"),
        # missing and non-finite values
        (None, "No answer yet: answer is None (replace None with your result)."),
        ([None], "answer[0] is None: replace it with a number."),
        (float("nan"), "answer is nan, not a finite number."),
        (-np.inf, "answer is -inf, not a finite number."),
        (sp.zoo, "answer is zoo, not a finite number."),
        (sp.oo, "answer is oo, not a finite number."),
        (10**400, "too large to be a floating-point number."),
        # containers and objects that are no numbers
        ({}, "answer must be a number or an array of numbers, got a dict ({})."),
        ({"q": 1.57}, "got a dict ({'q': 1.57})."),
        ({1.57}, "got a set ({1.57})."),
        ((x for x in [1.57]), "got a generator (make it a list or an array first: list(...)"),
        (object(), "answer must be a number or an array of numbers, got an object (<object"),
        (np.sin, "got the function sin (call it to get its value)."),
        (lambda q: q, "got the function <lambda> (call it to get its value)."),
        ([[HALF_PI], {"a": 1}], "answer[1] must be a number, got a dict ({'a': 1})."),
        # SymPy objects that are no real numbers
        (sp.Symbol("x"), "answer still contains the symbols x; substitute numbers"),
        ([sp.pi / 2 * q1], "answer[0] still contains the symbols q₁; substitute numbers"),
        (sp.FiniteSet(1), "answer must be a number, got a SymPy FiniteSet ({1})."),
        (sp.Tuple(1, 2), "answer must be a number, got a SymPy Tuple ((1, 2))."),
        # ragged lists and wrong shapes
        (
            [1.0, [2.0, 3.0]],
            "answer is ragged: answer[0] has a single number but answer[1] has 2 entries; every "
            "row needs the same number of entries.",
        ),
        ([HALF_PI, HALF_PI], "answer has shape (2,), expected shape ()."),
    ],
)
def test_each_bad_answer_for_a_number_is_named(answer, words):
    assert words in _wrong(answer, HALF_PI)


def test_ragged_matrices_and_wrong_lengths():
    identity = np.eye(2)
    assert "answer is ragged: answer[0] has 2 entries but answer[1] has 1 entry" in _wrong(
        [[1, 0], [1]], identity
    )
    assert "answer[1] is ragged: answer[1, 0] has a single number but answer[1, 1] has" in (
        _wrong([[1, 0], [0, [1]]], identity)
    )
    assert "answer has shape (3,), expected shape (2,)." in _wrong([1, 2, 3], [1, 2])
    assert "has shape (2, 1), expected shape (2,)" in _wrong(sp.Matrix([1, 2]), [1, 2])


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (0.5, "answer is a number, but the expected expression depends on l₁, q₁: at l₁ = "),
        (sp.I, "answer is a number, but the expected expression depends on l₁, q₁"),
        (sp.zoo, "answer is a number, but the expected expression depends on l₁, q₁"),
        (True, "answer is True, a truth value, not a SymPy expression."),
        (sp.false, "answer is False, a truth value, not a SymPy expression."),
        ("l1*cos(q1)", "answer must be a SymPy expression, not text; build it from symbols"),
        (None, "No answer yet: answer is None (replace None with your result)."),
        (sp.cos, "answer is the function cos, not a SymPy expression: apply it to its arguments"),
        ({"l1": 1}, "answer must be a SymPy expression, got a dict ({'l1': 1})."),
        ([l1 * sp.cos(q1)], "answer must be a scalar expression, got a list ([l₁⋅cos(q₁)])."),
        (sp.FiniteSet(q1), "answer must be a SymPy expression, got a SymPy FiniteSet"),
        (q1 < 1, "answer must be a SymPy expression, got a SymPy StrictLessThan (q₁ < 1)."),
        (l1 * sp.cos(q1) + sp.I, "answer differs from the expected expression: at l₁ = "),
        (l1 * sp.cos(q2), "answer uses q₂, which the expected expression does not (it uses l₁,"),
    ],
)
def test_each_bad_answer_for_an_expression_is_named(answer, words):
    assert words in _wrong(answer, l1 * sp.cos(q1))


def test_bad_answers_for_a_matrix_of_expressions():
    expected = sp.Matrix([sp.cos(q1), sp.sin(q1)])
    for answer in ([sp.cos(q1), sp.sin(q1)], np.array([[1.0], [0.0]]), sp.Array([1, 2])):
        assert "but the expected answer is a SymPy Matrix: wrap it in sp.Matrix(...)." in (
            _wrong(answer, expected)
        )
    assert "answer is a matrix of numbers, but the expected expression depends on q₁" in (
        _wrong(sp.Matrix([1, 0]), expected)
    )
    assert "answer must be a matrix, got cos." in _wrong(sp.cos(q1), expected)
    assert check(sp.Matrix([sp.cos(q1), sp.sin(q1)]), expected)


# --- valid answers are still accepted ------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        HALF_PI,
        np.float64(HALF_PI),
        np.float32(HALF_PI),
        np.array(HALF_PI),
        [HALF_PI],
        np.array([HALF_PI]),
        sp.pi / 2,
        sp.Float(HALF_PI),
        sp.acos(0),
        np.array([sp.pi / 2], dtype=object),
        sp.Matrix([sp.pi / 2]),
        complex(HALF_PI, 1e-15),  # a rounding-error imaginary part, far below the tolerance
    ],
)
def test_valid_forms_of_a_number_are_accepted(answer):
    assert check(answer, HALF_PI), check(answer, HALF_PI)


def test_valid_arrays_matrices_and_exact_numbers_are_accepted():
    assert check(sp.Rational(1, 2), 0.5)
    assert check(fractions.Fraction(1, 2), 0.5)
    assert check(sp.Matrix([[1, 0], [0, 1]]), np.eye(2))
    assert check([sp.Integer(1), np.float64(2.0), 3], [1.0, 2.0, 3.0])
    assert check((1, 2), [1.0, 2.0])
    assert check([np.array([1, 0]), [0, 1]], np.eye(2))
    assert check(np.array([[sp.cos(0), 0], [0, sp.Integer(1)]], dtype=object), np.eye(2))


def test_complex_and_boolean_expected_values():
    """Complex answers are fine where the expected value is complex; truth values where it is."""
    assert check(1 + 2j, 1 + 2j)
    assert check(1.0, 1 + 0j)
    assert check([1, sp.I * 2], np.array([1, 2j]))
    assert "answer is 1+2.1j, expected 1+2j: it is off by 0.1" in _wrong(1 + 2.1j, 1 + 2j)
    assert check(True, True)
    assert check(np.array([True, False]), np.array([True, False]))
    assert check([1.0, 0.0], [True, False])
    assert "answer[1] is 1, expected 0" in _wrong([True, True], [True, False])


def test_slips_are_still_diagnosed():
    assert "looks like it is in degrees" in _wrong(90, HALF_PI)
    assert "looks like it is in degrees" in _wrong(sp.Integer(90), HALF_PI)
    assert "answer has the opposite sign." in _wrong([-1.0, 2.0], [1.0, -2.0])
    assert "1000 times the expected value: millimetres" in _wrong(sp.Integer(250), 0.25)
    assert "looks transposed" in _wrong(sp.Matrix([[1, 0], [2, 1]]), [[1, 2], [0, 1]])


# --- functions -----------------------------------------------------------------------------------


def _reference(q):
    return np.array([np.cos(q), np.sin(q)])


def _function_message(answer, inputs=(0.0, 0.5)) -> str:
    result = check(answer, _reference, inputs=list(inputs))
    assert isinstance(result, CheckResult) and not result, result
    assert LAST_RESORT not in result.message, result.message
    return result.message


def test_a_function_that_raises_is_quoted_with_its_input():
    def slope(q):
        return np.array([np.cos(q), 1.0 / q])

    assert (
        _function_message(slope) == "slope(0.0) raised ZeroDivisionError: float division by zero."
    )

    def silent(q):
        raise ValueError

    assert _function_message(silent) == "silent(0.0) raised ValueError."

    def wordy(q):
        raise RuntimeError("x" * 1000)

    assert len(_function_message(wordy)) < 400
    assert _function_message(lambda: 1.0) == (
        "<lambda>(0.0) raised TypeError: test_a_function_that_raises_is_quoted_with_its_input."
        "<locals>.<lambda>() takes 0 positional arguments but 1 was given."
    )


@pytest.mark.parametrize(
    ("returns", "words"),
    [
        (None, "for f(0.0): No answer yet: the result is None (replace None with your result)."),
        ("1, 0", "for f(0.0): the result must be a number or an array of numbers, got the text"),
        ([1.0, "0"], "for f(0.0): the result[1] is the text '0', not a number: remove the quotes."),
        ([True, False], "for f(0.0): the result[0] is True, a truth value (bool), not a number"),
        ([1.0, 1j], "for f(0.0): the result[1] is 0+1j, a complex number, but the expected"),
        ([1.0], "for f(0.0): the result has shape (1,), expected shape (2,)."),
        ([[1.0], [0.0, 0.0]], "for f(0.0): the result is ragged"),
        ({"x": 1.0}, "for f(0.0): the result must be a number or an array of numbers, got a dict"),
        (q1, "for f(0.0): the result still contains the symbols q₁"),
        (np.cos, "for f(0.0): the result must be a number or an array of numbers, got the"),
    ],
)
def test_a_function_that_returns_the_wrong_thing(returns, words):
    def f(q):
        return returns

    assert words in _function_message(f)


def test_something_else_than_a_function():
    assert _function_message(None) == (
        "No answer yet: the answer is None; pass your function itself (f, not f(q))."
    )
    assert _function_message(_reference(0.0)) == (
        "the answer must be a function, got ndarray: pass the function itself (f, not f(q))."
    )
    assert "must be a function, got str" in _function_message("lambda q: q")


def test_a_function_for_a_symbolic_reference():
    def reference(length):
        return length * sp.cos(q1)

    assert check_function(lambda length: length * sp.cos(q1), reference, [2])
    message = check_function(lambda length: [length], reference, [2]).message
    assert message == "for <lambda>(2): the result must be a scalar expression, got a list ([2])."
    assert not check_function(lambda length: length * sp.sin(q1), reference, [2])


# --- the author's mistakes raise --------------------------------------------------------------


@pytest.mark.parametrize(
    ("tolerances", "error", "words"),
    [
        ({"rtol": -1e-6}, ValueError, "rtol must be a finite number ≥ 0, got -1e-06"),
        ({"atol": float("nan")}, ValueError, "atol must be a finite number ≥ 0, got nan"),
        ({"atol": math.inf}, ValueError, "atol must be a finite number ≥ 0, got inf"),
        ({"rtol": "1e-6"}, TypeError, "rtol must be a number ≥ 0, got the text '1e-6'"),
        ({"rtol": True}, TypeError, "rtol must be a number ≥ 0, got a bool (True)"),
        ({"atol": [1e-9]}, TypeError, "atol must be a number ≥ 0, got a list ([1e-09])"),
        ({"atol": 1j}, TypeError, "atol must be a number ≥ 0, got a complex (1j)"),
    ],
)
def test_bad_tolerances_are_the_authors_mistake(tolerances, error, words):
    for call in (
        lambda: check(1.0, 1.0, **tolerances),
        lambda: check_numeric(1.0, 1.0, **tolerances),
        lambda: check_expression(q1, q1, **tolerances),
        lambda: check_function(_reference, _reference, [0.0], **tolerances),
        lambda: check(_reference, _reference, inputs=[0.0], **tolerances),
        lambda: Exercise("t", "p", solve=lambda: 1.0, **tolerances),
    ):
        with pytest.raises(error, match=re.escape(words)):
            call()
    assert check(1.0, 1.0, rtol=0, atol=0)  # zero tolerances are fine: exact answers


def test_unusable_expected_values_are_the_authors_mistake():
    with pytest.raises(ValueError, match="the expected value is None"):
        check(1.0, None)
    with pytest.raises(ValueError, match="the expected value is not finite"):
        check(1.0, [1.0, np.nan])
    with pytest.raises(ValueError, match="the expected value is not numeric"):
        check(1.0, {"a": 1})
    with pytest.raises(TypeError, match="the expected value must be a SymPy expression"):
        check_expression(q1, {1, 2})
    with pytest.raises(ValueError, match="samples must be a whole number ≥ 1"):
        check_expression(q1, q1, samples=0)


def test_an_exercise_never_crashes_on_a_students_answer():
    exercise = Exercise(
        "Reach", "How far?", solve=lambda: 0.75, hint="Add the lengths.", rtol=1e-3, atol=1e-6
    )
    for answer in ("0.75", True, None, {}, sp.I, [0.75, None], [[0.75], 0.75], np.sin):
        result = exercise.check(answer)
        assert not result, result
        if answer is None:  # not a try: no hint before the first one
            assert "Hint" not in result.message, result
        else:
            assert result.message.endswith("Hint: Add the lengths."), result
    assert exercise.check(sp.Rational(3, 4))


# --- properties ---------------------------------------------------------------------------------

NUMBERS_EXPECTED = [HALF_PI, np.array([0.3127, -1.9]), np.array([[0.25, -0.5], [1.5, 2.0]])]
SYMBOLIC_EXPECTED = [l1 * sp.cos(q1), sp.Matrix([sp.cos(q1), sp.sin(q1)]), sp.Eq(q2, l1 * q1)]

junk_text = st.one_of(
    st.text(max_size=30),
    st.floats(allow_nan=False).map(repr),
    st.sampled_from(["1.5707963267948966", "pi/2", "np.pi / 2", "[1.57]", ""]),
    st.binary(max_size=8),
)
junk_sympy = st.sampled_from(
    [
        sp.I,
        sp.pi * sp.I,
        sp.Symbol("x"),
        q1,
        q2 * l1,
        sp.zoo,
        sp.oo,
        -sp.oo,
        sp.nan,
        sp.true,
        sp.false,
        sp.FiniteSet(1),
        sp.Tuple(1, 2),
        sp.Interval(0, 1),
        q1 < 1,
        sp.Matrix([sp.I]),
        sp.Matrix([[q1, 1]]),
        sp.Function("f")(q1),
        sp.cos,
        sp.Eq(q1, 2),
    ]
)
junk_leaf = st.one_of(
    junk_text,
    st.none(),
    st.booleans(),
    st.builds(np.bool_, st.booleans()),
    st.complex_numbers(allow_nan=False, allow_infinity=False, max_magnitude=1e6).filter(
        lambda z: abs(z.imag) > 1e-3
    ),
    st.sampled_from([math.nan, math.inf, -math.inf, np.nan, 10**400]),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.sets(st.integers(), max_size=3),
    junk_sympy,
    st.sampled_from([np.sin, len, print, object(), Ellipsis, range, np.array(["1.5"])]),
    st.sampled_from([np.array([True, False]), np.array([1 + 1j]), np.array([None])]),
)


def _has_junk(value) -> bool:
    if isinstance(value, list):
        return any(_has_junk(v) for v in value)
    return not isinstance(value, float)


# Nested lists with at least one junk entry, possibly ragged, among ordinary numbers.
junk_lists = st.recursive(
    st.one_of(junk_leaf, st.floats(-10, 10)), lambda children: st.lists(children, max_size=4)
).filter(lambda v: isinstance(v, list) and _has_junk(v))
junk = st.one_of(
    junk_leaf,
    junk_lists,
    st.builds(lambda v: (x for x in [v]), st.floats(-10, 10)),  # a generator
)


@given(junk, st.sampled_from(NUMBERS_EXPECTED + SYMBOLIC_EXPECTED))
def test_no_junk_answer_raises_or_passes(answer, expected):
    result = check(answer, expected)
    assert isinstance(result, CheckResult) and isinstance(result.message, str)
    assert not result, f"{answer!r} accepted for {expected!r}: {result}"
    assert result.message and LAST_RESORT not in result.message, result.message


@given(junk)
def test_no_junk_returned_by_a_function_raises_or_passes(returned):
    def attempt(q):
        return returned

    result = check(attempt, _reference, inputs=[0.0, 0.5])
    assert not result and result.message.startswith("for attempt(0.0): "), result
    assert LAST_RESORT not in result.message, result.message


finite = st.floats(-1e3, 1e3, allow_nan=False)
offsets = st.one_of(st.just(0.0), st.floats(-1e-6, 1e-6), st.floats(-1.0, 1.0))
containers = st.sampled_from(
    [
        lambda values: values,
        tuple,
        np.array,
        lambda values: [sp.Float(v) for v in values],
        lambda values: sp.Matrix(values).T,  # a row, compared with the flat vector below
        lambda values: np.array(values, dtype=object),
    ]
)


@given(st.lists(finite, min_size=1, max_size=5), st.data(), containers)
def test_a_numeric_answer_passes_exactly_when_within_the_tolerance(expected, data, container):
    answer = [e + data.draw(offsets) for e in expected]
    within = all(abs(a - e) <= 1e-9 + 1e-6 * abs(e) for a, e in zip(answer, expected, strict=True))
    wrapped = container(answer)
    target = np.array([expected]) if isinstance(wrapped, sp.MatrixBase) else np.array(expected)
    result = check(wrapped, target)
    assert bool(result) == within, (answer, expected, str(result))
    if not within:
        assert LAST_RESORT not in result.message, result.message


# --- how a verdict shows ---------------------------------------------------------------


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


# --- hostile answers (issue 29): each gets a sentence, none a traceback or a hang -----------------


class _FloatRaises:
    def __float__(self):
        raise RuntimeError("boom")


class _FloatLies:
    def __float__(self):
        return "1.57"


class _FloatNeverEnds:
    def __float__(self):
        while True:
            pass


class _GetattrRaises:
    def __getattr__(self, name):
        raise RuntimeError(f"no {name}")


class _ReprRaises:
    def __repr__(self):
        raise RuntimeError("no repr")


class _ReprNeverEnds:
    def __repr__(self):
        while True:
            pass


def _nested(depth):
    value = HALF_PI
    for _ in range(depth):
        value = [value]
    return value


def _contains_itself():
    loop = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (_nested(5000), "answer is nested more than 32 lists deep (does a list contain itself?)"),
        (_contains_itself(), "answer is nested more than 32 lists deep"),
        ([1.0] * 3_000_000, "answer has more than 1,000 entries in all, far more than the"),
        ([[1.0] * 1000] * 1000, "has more than 1,000 entries in all"),
        (_FloatRaises(), "answer must be a number or an array of numbers, got a _FloatRaises"),
        (_FloatLies(), "answer must be a number or an array of numbers, got a _FloatLies"),
        (_GetattrRaises(), "answer must be a number or an array of numbers, got a _GetattrRa"),
        (_ReprRaises(), "got a _ReprRaises (<_ReprRaises object>)."),
        (sp.MatrixSymbol("A", 2, 2), "answer is a SymPy MatrixSymbol (A), a SymPy matrix express"),
        (sp.Lambda(sp.Symbol("x"), sp.Symbol("x")), "a SymPy function: call it on its arguments"),
        (sp.Integer(10) ** 500, "too large to be a floating-point number."),
    ],
    ids=[
        "deep",
        "itself",
        "millions",
        "a million in rows",
        "float raises",
        "float lies",
        "getattr raises",
        "repr raises",
        "MatrixSymbol",
        "Lambda",
        "10^500",
    ],
)
def test_hostile_answers_for_a_number_are_named(answer, words):
    assert words in _wrong(answer, HALF_PI)


def test_a_repr_that_never_ends_is_not_waited_for():
    assert "got a _ReprNeverEnds (<_ReprNeverEnds object>)." in _wrong(_ReprNeverEnds(), HALF_PI)


def test_an_answer_that_never_turns_into_a_number_is_stopped(monkeypatch):
    from robolab.lessons.exercises import numeric_answers

    monkeypatch.setattr(numeric_answers, "ANSWER_SECONDS", 0.2)
    message = _wrong(_FloatNeverEnds(), HALF_PI)
    assert message.startswith("✗ reading answer as numbers took more than 0.2 s, so it was stop")
    assert message.endswith("expected a number or an array of numbers.")


def test_an_exercise_bounds_its_slip_search_too(monkeypatch):
    from robolab.lessons.exercises import exercise as exercise_module
    from robolab.lessons.exercises import numeric_answers

    monkeypatch.setattr(numeric_answers, "ANSWER_SECONDS", 0.2)
    monkeypatch.setattr(exercise_module, "ANSWER_SECONDS", 0.3)
    # With angles, the slip search reads the answer again for each candidate: one budget.
    angle = Exercise(
        "Turn", "Angle?", solve=lambda q: q, generate=lambda rng: {"q": 0.5}, angles=["q"]
    )
    result = angle.check(_FloatNeverEnds())
    assert not result and "took more than 0.2 s" in result.message


# --- the time budget and the size of an expression ----------------------------------------------


def _spin():
    while True:
        pass


def test_run_within_stops_python_code_and_leaves_no_timer_behind():
    import signal

    from robolab.lessons.exercises.check_result import run_within

    before = signal.getsignal(signal.SIGALRM)
    assert run_within(0.1, _spin) == (False, None)
    assert run_within(5.0, max, 2, 3) == (True, 3)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_run_within_nests_and_each_budget_reports_its_own():
    from robolab.lessons.exercises.check_result import run_within

    def inner_first():  # the inner budget ends first: the outer call goes on
        return run_within(0.1, _spin), "after"

    assert run_within(5.0, inner_first) == (True, ((False, None), "after"))

    reached = []

    def outer_first():  # the outer budget ends first: the inner one does not swallow it
        reached.append("in")
        run_within(60.0, _spin)
        reached.append("never")

    assert run_within(0.2, outer_first) == (False, None) and reached == ["in"]


def test_run_within_is_not_fooled_by_except_exception():
    from robolab.lessons.exercises.check_result import run_within

    def stubborn():
        while True:
            try:  # noqa: SIM105 - as a student writes it
                _spin()
            except Exception:  # what a student might write: the stop is no Exception
                pass

    assert run_within(0.1, stubborn) == (False, None)


def test_the_size_of_an_expression_is_measured_without_walking_repeats():
    from robolab.lessons.exercises.check_result import expression_size

    x = sp.Symbol("x")
    assert expression_size(x) == (1, 1)
    assert expression_size(sp.sin(x) + 1) == (4, 3)  # Add(1, sin(x)): Add, 1, sin, x
    assert expression_size(sp.Matrix([x, sp.cos(x)])) == (3, 2)
    doubled = x
    for _ in range(60):
        doubled = doubled**2 + doubled
    nodes, depth = expression_size(doubled)
    assert nodes > 2**60 and depth == 2 * 60 + 1


HOSTILE = {
    "code as text": "__import__('os').system('echo owned')",
    "deep list": _nested(200),
    "list containing itself": _contains_itself(),
    "float raises": _FloatRaises(),
    "float lies": _FloatLies(),
    "getattr raises": _GetattrRaises(),
    "repr raises": _ReprRaises(),
    "MatrixSymbol": sp.MatrixSymbol("A", 2, 1),
    "Lambda": sp.Lambda(sp.Symbol("x"), sp.cos(sp.Symbol("x"))),
    "look-alike q1": sp.Symbol("q1"),
    "equation": sp.Eq(sp.cos(q1), 0),
    "cases beyond the samples": sp.Piecewise((l1 * sp.cos(q1), sp.Abs(q1) < 2), (0, True)),
    "10^500": sp.Integer(10) ** 500,
    "complex nan": complex(math.nan, 1.0),
    "bytes": b"\x00\xff",
}


@pytest.mark.parametrize("answer", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("expected", NUMBERS_EXPECTED + SYMBOLIC_EXPECTED, ids=str)
def test_no_hostile_answer_raises_or_passes(answer, expected):
    _wrong(answer, expected)


@pytest.mark.parametrize("returned", HOSTILE.values(), ids=HOSTILE.keys())
def test_no_hostile_result_of_a_function_raises_or_passes(returned):
    assert _function_message(lambda q: returned).startswith("for <lambda>(0.0): ")
