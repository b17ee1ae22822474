"""SymPy answers: equivalent forms accepted, a point where they differ, foreign symbols."""

from __future__ import annotations

import re

import sympy as sp

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
