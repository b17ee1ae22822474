"""SymPy answers: equivalent forms accepted, a point where they differ, foreign symbols."""

from __future__ import annotations

import math
import re

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from robolab.exercises import (
    check,
    check_expression,
)
from robolab.symbols import l1, l2, lc1, m1, q1, q2, t


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
    # Large enough that SymPy is not asked to simplify; agreement at random points decides:
    # the 6 seeded ones and 6 drawn from the answer itself.
    big = sum(sp.cos(k * q1) ** 2 + sp.sin(k * q1) ** 2 for k in range(1, 80)) + sp.cos(q1)
    result = check_expression(big, 79 + sp.cos(q1))
    assert result and "agrees with the expected expression at 12 random points" in result.message


# --- a verdict sound both ways (issue 29, item 6) ------------------------------------------------


NUMBER = r"(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"


def _point_of(message: str, symbol: str = "q₁") -> float:
    """The value of ``symbol`` at the point a wrong answer's message names."""
    return float(re.search(rf"{symbol} = {NUMBER}", message).group(1))


def test_an_expansion_is_not_wrong_because_floats_cancel():
    # (q1 + 1)**20 near q1 = -1.4 is about 7e-8, the terms of its expansion up to 1e5: in
    # double precision the expansion loses most digits. Both forms are the same polynomial.
    expanded = sp.expand((q1 + 1) ** 20)
    assert check(expanded, (q1 + 1) ** 20)
    assert check((q1 + 1) ** 20, expanded)
    assert not check(expanded - q1**10, (q1 + 1) ** 20)  # one coefficient off by one: wrong
    # An exact zero times 10^200: no number of digits evaluates it, SymPy proves it is zero.
    zero = (sp.sin(q1) ** 2 + sp.cos(q1) ** 2 - 1) * 10**200
    assert check(zero + sp.cos(q1), sp.cos(q1))


def test_a_piecewise_answer_equal_only_where_the_samples_fall_is_wrong():
    answer = sp.Piecewise((sp.sin(q1), sp.Abs(q1) < 2), (0, True))
    result = check(answer, sp.sin(q1))
    assert not result
    where = _point_of(result.message)
    assert abs(where) >= 2 - 1e-6  # a point outside the cases where the answer is sin(q1)
    shown = float(re.search(rf"the expected value is {NUMBER}", result.message).group(1))
    assert abs(shown - math.sin(where)) < 1e-3  # sin at the point, both shown to 4 digits


@pytest.mark.parametrize(
    ("answer", "expected", "between"),
    [
        (sp.Heaviside(q1 - 0.5) * q1, sp.Max(q1, 0), (0.0, 0.5)),  # differs on (0, 0.5) only
        (sp.Max(q1, sp.Rational(1, 1000)), sp.Max(q1, 0), (-8.0, 0.001)),
        (sp.Min(q1, 3) + 1, sp.Min(q1, 3.01) + 1, (3.0, 8.0)),
        (sp.Abs(sp.sin(q1)), sp.sin(q1), (-8.0, 0.0)),
        (sp.floor(q1 + sp.Rational(1, 3)), sp.floor(q1), (-8.0, 8.0)),
    ],
)
def test_answers_with_cases_that_differ_somewhere_are_wrong_with_that_point(
    answer, expected, between
):
    result = check(answer, expected)
    assert not result, result
    assert between[0] <= _point_of(result.message) <= between[1], result.message


@given(st.floats(-7.5, 7.5, allow_nan=False))
def test_an_answer_that_changes_at_any_reachable_breakpoint_is_wrong(breakpoint):
    answer = sp.Piecewise((sp.cos(q1), q1 < breakpoint), (sp.cos(q1) + 1, True))
    assert not check(answer, sp.cos(q1))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (sp.Max(q1, 0), sp.Piecewise((q1, q1 > 0), (0, True))),
        (sp.Min(q1, 1), sp.Piecewise((q1, q1 < 1), (1, True))),
        (sp.Heaviside(q1) * q1, sp.Max(q1, 0)),
        (sp.sign(q1) * q1, sp.Abs(q1)),
        (sp.Abs(l1) * sp.cos(q1), l1 * sp.cos(q1)),  # a length is positive: |l₁| = l₁
    ],
)
def test_answers_with_cases_that_are_right_everywhere_are_right(answer, expected):
    assert check(answer, expected)


def test_cases_the_expected_expression_does_not_need_are_refused_unless_proved():
    # Equal to sin(q1) for |q1| < 2000 rad: no sample tells, SymPy cannot prove it.
    far = sp.Piecewise((sp.sin(q1), sp.Abs(q1) < 2000), (0, True))
    result = check(far, sp.sin(q1))
    assert not result
    assert "uses Abs and Piecewise, which the expected expression does not need" in result.message
    assert "write it without cases" in result.message
    identity = check(sp.floor(q1) + sp.frac(q1), q1)  # true, but SymPy cannot show it
    assert not identity and "uses floor and frac" in identity.message


def test_an_equation_and_an_expression_are_not_each_other():
    tau = sp.Symbol("tau")
    result = check(sp.Eq(sp.cos(q1), 0), sp.cos(q1))
    assert not result and "is an equation" in result.message
    assert "give the expression itself" in result.message
    equation = check(tau - l1 * sp.cos(q1), sp.Eq(tau, l1 * sp.cos(q1)))
    assert not equation and "must be an equation, sp.Eq(left side, right side)" in equation.message
    assert not check(sp.Eq(tau, l1 * sp.Abs(sp.cos(q1))), sp.Eq(tau, l1 * sp.cos(q1)))


def test_a_symbol_named_like_the_expected_one_is_told_apart():
    result = check(sp.cos(sp.Symbol("q1")), sp.cos(q1))
    assert not result
    assert "uses a symbol q₁ (Symbol('q1')) that is not the expected expression's q₁ (a " in (
        result.message
    )
    assert "function of time" in result.message and "from robolab.symbols import" in (
        result.message
    )


def test_sympy_objects_that_are_not_expressions():
    x = sp.Symbol("x")
    assert "a SymPy function, not a SymPy expression: call it on its arguments" in (
        check(sp.Lambda(x, sp.cos(x)), sp.cos(q1)).message
    )
    matrix = sp.Matrix([sp.cos(q1), sp.sin(q1)])
    assert "a SymPy matrix expression, not a SymPy Matrix of entries" in (
        check(sp.MatrixSymbol("A", 2, 1), matrix).message
    )


def test_answers_too_deep_or_too_large_are_named_at_once():
    deep = q1
    for _ in range(300):
        deep = sp.sin(deep, evaluate=False)
    result = check(deep, sp.sin(q1))
    assert not result and "is nested 302 levels deep (at most 100 are checked)" in result.message
    huge = q1
    for _ in range(40):  # 2⁴⁰ parts as a tree, a few hundred objects in memory
        huge = huge**2 + huge
    result = check(huge, sp.sin(q1))
    assert not result and "parts as a tree (at most 200,000 are checked)" in result.message


def test_an_answer_sympy_cannot_evaluate_in_time_is_stopped(monkeypatch):
    from robolab.lessons.exercises import symbolic_answers

    class Endless(sp.Function):
        def _eval_evalf(self, precision):
            while True:
                pass

    monkeypatch.setattr(symbolic_answers, "ANSWER_SECONDS", 0.3)
    result = check(Endless(q1), sp.sin(q1))
    assert not result
    assert result.message.startswith("checking answer took more than 0.3 s, so it was stopped")
