"""robolab.dh.simplify: fast trigonometric simplification, size estimates, shared-tree walks.

Every result is checked against SymPy itself, never against robolab: an equal expression
(the difference written with exponentials expands to zero, and the two agree at random
numbers), the textbook form where there is one (sin²x + cos²x = 1, the planar 2R
Jacobian), as short as ``sympy.trigsimp``'s expanded result, never more terms than the
expansion of the input.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
import sympy as sp

from robolab.dh.simplify import (
    PIECE_MAX_TERMS,
    derivative,
    expanded_size,
    replace_shared,
    simplify_matrix,
    simplify_piece,
    simplify_piece_matrix,
    simplify_trig,
)

x, y, a, b = sp.symbols("x y a b", real=True)
q1, q2, l1, l2 = sp.symbols("q1 q2 l1 l2", real=True)


def is_zero(expr: sp.Expr) -> bool:
    """SymPy's own proof that an expression in sines and cosines vanishes.

    Written with exp(±ix), it is a Laurent polynomial in those, zero only if every
    coefficient is (sin³x + sin x cos²x - sin x is not zero term by term in sines and cosines).
    """
    return sp.expand(expr.rewrite(sp.exp)) == 0


def agree_at_random_numbers(one: sp.Expr, other: sp.Expr, seed: int = 0) -> bool:
    symbols = sorted(one.free_symbols | other.free_symbols, key=str)
    f, g = sp.lambdify(symbols, one, "numpy"), sp.lambdify(symbols, other, "numpy")
    rng = np.random.default_rng(seed)
    points = rng.uniform(-3.0, 3.0, size=(5, len(symbols)))
    return all(np.isclose(f(*point), g(*point), rtol=1e-12, atol=1e-12) for point in points)


def number_of_terms(expr: sp.Expr) -> int:
    return len(sp.Add.make_args(expr))


# --- the identities give the textbook forms -------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "textbook"),
    [
        (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.S.One),
        (a * sp.sin(x) ** 2 + a * sp.cos(x) ** 2, a),
        (a - a * sp.sin(x) ** 2, a * sp.cos(x) ** 2),
        (3 - 3 * sp.cos(x) ** 2, 3 * sp.sin(x) ** 2),
        (sp.cos(x) * sp.cos(y) - sp.sin(x) * sp.sin(y), sp.cos(x + y)),
        (sp.cos(x) * sp.cos(y) + sp.sin(x) * sp.sin(y), sp.cos(x - y)),
        (sp.sin(x) * sp.cos(y) + sp.cos(x) * sp.sin(y), sp.sin(x + y)),
        (sp.sin(x) * sp.cos(y) - sp.cos(x) * sp.sin(y), sp.sin(x - y)),
        (b * sp.sin(x) ** 4 + 2 * b * sp.sin(x) ** 2 * sp.cos(x) ** 2 + b * sp.cos(x) ** 4, b),
    ],
)
def test_pythagoras_and_angle_sums_give_the_textbook_form(given, textbook):
    simplified = simplify_trig(given)
    assert simplified == textbook
    assert is_zero(simplified - sp.trigsimp(given))


def test_the_planar_2r_jacobian_terms_become_the_textbook_ones():
    # J of the planar 2R arm (Spong eq. 4.87), its sines and cosines of q1 + q2 written out
    J = sp.Matrix(
        [
            [-l1 * sp.sin(q1) - l2 * sp.sin(q1 + q2), -l2 * sp.sin(q1 + q2)],
            [l1 * sp.cos(q1) + l2 * sp.cos(q1 + q2), l2 * sp.cos(q1 + q2)],
        ]
    )
    written_out = J.applyfunc(lambda entry: sp.expand(sp.expand_trig(entry)))
    assert simplify_matrix(written_out) == J
    determinant = sp.expand(written_out.det())
    assert simplify_trig(determinant) == l1 * l2 * sp.sin(q2)  # Spong eq. 4.90
    JTJ = (written_out.T * written_out).applyfunc(sp.expand)
    textbook = sp.Matrix(
        [
            [l1**2 + 2 * l1 * l2 * sp.cos(q2) + l2**2, l1 * l2 * sp.cos(q2) + l2**2],
            [l1 * l2 * sp.cos(q2) + l2**2, l2**2],
        ]
    )
    simplified = simplify_matrix(JTJ)
    assert simplified == textbook
    for given, ours in zip(JTJ, simplified, strict=True):
        theirs = sp.trigsimp(given)
        assert is_zero(ours - theirs)
        assert sp.count_ops(ours) <= sp.count_ops(sp.expand(theirs)) < sp.count_ops(given)


def _random_trig_polynomial(rng: np.random.Generator) -> sp.Expr:
    factors = [sp.sin(x), sp.cos(x), sp.sin(y), sp.cos(y), sp.sin(x + y), sp.cos(x - y), a]
    terms = []
    for _ in range(int(rng.integers(2, 7))):
        coefficient = sp.Rational(int(rng.integers(-3, 4)), int(rng.integers(1, 3)))
        chosen = rng.choice(len(factors), size=int(rng.integers(1, 4)))
        powers = rng.integers(1, 3, size=len(chosen))
        monomial = sp.Mul(*[factors[i] ** int(p) for i, p in zip(chosen, powers, strict=True)])
        terms.append(coefficient * monomial)
    return sp.Add(*terms)


@pytest.mark.parametrize("seed", range(20))
def test_a_random_trigonometric_polynomial_keeps_its_value_and_never_grows(seed):
    given = _random_trig_polynomial(np.random.default_rng(seed))
    simplified = simplify_trig(given)
    assert is_zero(simplified - given)
    assert agree_at_random_numbers(simplified, given, seed)
    assert number_of_terms(simplified) <= number_of_terms(sp.expand(given))


def test_float_coefficients_match_to_round_off_and_round_off_terms_are_dropped():
    nearly = 0.3 * sp.sin(x) ** 2 + 0.30000000000000004 * sp.cos(x) ** 2
    simplified = simplify_trig(nearly)
    assert simplified.is_Float and abs(float(simplified) - 0.3) < 1e-15
    assert simplify_trig(2.0 * sp.sin(x) + 1e-15 * sp.cos(x)) == 2.0 * sp.sin(x)
    kept = simplify_trig(2.0 * sp.sin(x) + 1e-12 * sp.cos(x))  # above 1e-13 of the largest
    assert kept == 2.0 * sp.sin(x) + 1e-12 * sp.cos(x)
    exact = simplify_trig(2 * sp.sin(x) + sp.Rational(1, 10**15) * sp.cos(x))
    assert exact == 2 * sp.sin(x) + sp.Rational(1, 10**15) * sp.cos(x)  # exact numbers stay


# --- the size guard -------------------------------------------------------------------------------


def _sum_of_symbols(name: str, count: int) -> sp.Expr:
    return sp.Add(*sp.symbols(f"{name}0:{count}"))


def test_an_expansion_above_the_limit_is_returned_unchanged():
    product = (sp.sin(x) ** 2 + sp.cos(x) ** 2) * (a + b)  # 4 terms once expanded
    assert simplify_trig(product, max_terms=3) is product
    assert simplify_trig(product, max_terms=4) == a + b
    at_limit = _sum_of_symbols("u", 5) * _sum_of_symbols("v", 10) * _sum_of_symbols("w", 10)
    assert PIECE_MAX_TERMS == 500
    assert number_of_terms(simplify_piece(at_limit)) == 500  # expanded: 5·10·10 terms
    above = _sum_of_symbols("u", 3) * _sum_of_symbols("v", 167)  # 501 terms
    assert simplify_piece(above) is above
    pythagoras = sp.sin(x) ** 2 + sp.cos(x) ** 2
    matrix = simplify_piece_matrix(sp.Matrix([[pythagoras, above]]))
    assert matrix[0, 0] == 1 and matrix[0, 1] is above


@pytest.mark.parametrize(
    ("expr", "terms"),
    [
        (a, 1),
        (sp.sin(a + b), 1),  # a function is one factor
        (_sum_of_symbols("u", 2) * _sum_of_symbols("v", 3), 6),
        (_sum_of_symbols("u", 3) ** 3, comb(5, 3)),  # monomials of degree 3 in 3 symbols
        (_sum_of_symbols("u", 4) ** 2 * _sum_of_symbols("v", 2) + a, comb(5, 2) * 2 + 1),
    ],
)
def test_expanded_size_counts_the_terms_of_the_expansion(expr, terms):
    assert expanded_size(expr) == terms == number_of_terms(sp.expand(expr))


def test_expanded_size_is_an_upper_bound_when_terms_cancel_and_shares_its_memo():
    product = (a + b) * (a - b)  # a² - b²: 4 products, 2 survive
    assert expanded_size(product) == 4 >= number_of_terms(sp.expand(product)) == 2
    memo: dict = {}
    shared = _sum_of_symbols("u", 4)
    assert expanded_size(shared * a, memo) == 4
    assert memo[shared] == 4  # the subexpression is counted once for every expression
    assert expanded_size(shared**2, memo) == comb(5, 2)


# --- walking shared subexpressions once ---------------------------------------------------------


def test_derivative_of_a_function_of_time_is_sympys():
    t = sp.Symbol("t")
    p1, p2 = sp.Function("p1")(t), sp.Function("p2")(t)
    kinetic = (l1 * sp.cos(p1) * p1.diff(t)) ** 2 / 2 + l2 * sp.sin(p1 + p2) * p2**3 + sp.exp(p2)
    found = derivative(kinetic, t)
    assert sp.expand(found - kinetic.diff(t)) == 0
    assert found.has(p1.diff(t, 2))  # the chain rule reaches the joint variables


def test_derivative_with_respect_to_a_symbol_shares_its_memo_and_is_sympys():
    memo: dict = {}
    inner = l1 * sp.cos(q1) + l2 * sp.cos(q1 + q2)
    for expr in (inner**2, inner * sp.sin(q1), sp.sqrt(inner) + q1**a):
        assert sp.simplify(derivative(expr, q1, memo) - expr.diff(q1)) == 0
    assert derivative(l2 * sp.sin(q2), q1, memo) == 0


def test_replace_shared_is_xreplace():
    inner = sp.sin(x) * sp.cos(x) + x
    expr = inner**2 + sp.exp(inner) * x
    mapping = {x: y + 1, sp.cos(x): b}
    memo: dict = {}
    assert replace_shared(expr, mapping, memo) == expr.xreplace(mapping)
    assert replace_shared(inner, mapping, memo) == inner.xreplace(mapping)
    untouched = a * sp.sin(b) + b
    assert replace_shared(untouched, mapping) is untouched  # nothing rebuilt where nothing changes
