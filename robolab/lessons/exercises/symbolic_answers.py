"""Checking SymPy expressions, matrices and equations.

:func:`check_expression` evaluates answer and expected value at seeded random points (physical
magnitudes such as masses and lengths positive) and, for small expressions, asks SymPy to
simplify the difference; a wrong answer gives a point where the two differ and names symbols
that should not be there. :mod:`robolab.exercises` re-exports :func:`check_expression` (the
same function).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp

from ...dh import symbols
from .check_result import (
    CheckResult,
    atom_order,
    atom_text,
    checked_tolerance,
    could_not_compare,
    describe_value,
    fmt,
    index_text,
    right_result,
    unknowns,
    wrong_result,
)
from .numeric_answers import (
    SIGN_ADVICE,
    Diagnosis,
    Rows,
    is_rotation,
    order_text,
    row_convention,
    same_numbers,
    sign_where,
    subject,
    swap_halves,
    transposed_text,
)

__all__ = ["check_expression"]

# --- SymPy expressions --------------------------------------------------------------------------


@functools.cache
def _physical_magnitudes() -> frozenset[Any]:
    """robolab's predefined link lengths l_i, l_ci and principal moments of inertia.

    :mod:`robolab.symbols` declares them only real (the placeholders that
    ``DHRobot`` generates must be the same symbols), but they are lengths
    and moments of inertia: never negative.
    """
    names = [f"{stem}{i}" for stem in ("l", "lc", "Ixx", "Iyy", "Izz") for i in range(1, 8)]
    return frozenset(getattr(symbols, name) for name in names if hasattr(symbols, name))


def _sign_of(atom: Any) -> int:
    """+1 or -1 when the assumptions (or the meaning) fix the sign of the atom's values, else 0."""
    if getattr(atom, "is_positive", None) or getattr(atom, "is_nonnegative", None):
        return 1
    if isinstance(atom, sp.Symbol) and atom in _physical_magnitudes():
        return 1
    if getattr(atom, "is_negative", None) or getattr(atom, "is_nonpositive", None):
        return -1
    return 0


def _random_value(atom: Any, rng: np.random.Generator, sign: int | None = None) -> float:
    """A sample for ``atom`` that respects its assumptions (positive, negative, integer).

    Magnitudes lie in [0.3, 1.7] (integers in 1..4); the sign is random unless
    the assumptions (or ``sign``) fix it, so a mass, a length declared
    positive, or one of robolab's link lengths ``l_i``, ``l_ci`` is never
    sampled negative.
    """
    if sign is None:
        sign = _sign_of(atom)
    if getattr(atom, "is_integer", None):
        magnitude = float(rng.integers(1, 5))
    else:
        magnitude = float(rng.uniform(0.3, 1.7))
    if sign == 0:
        sign = 1 if rng.random() < 0.5 else -1
    return sign * magnitude


def _same_names(answer: Any, expected: Any) -> tuple[Any, dict[Any, int]]:
    """Give the answer the expected expression's symbols where only the assumptions differ.

    ``sp.Symbol("l_1", positive=True)`` and robolab's real ``l_1`` are two
    different symbols to SymPy; a student who declares a length positive
    means the same length. Returns the answer with the expected symbols and
    functions put in, and the sign that either declaration fixes per atom.
    """
    from sympy.core.function import AppliedUndef

    def by_name(expr: Any) -> dict[str, Any]:
        basic = expr if isinstance(expr, sp.Basic) else sp.ImmutableMatrix(expr)
        return {str(s): s for s in basic.free_symbols if isinstance(s, sp.Symbol)}

    ours, theirs = by_name(answer), by_name(expected)
    signs: dict[Any, int] = {}
    swap = {}
    for name, symbol in ours.items():
        target = theirs.get(name)
        if target is not None and target != symbol:
            swap[symbol] = target
            signs[target] = _sign_of(symbol) or _sign_of(target)
    if swap:
        answer = answer.xreplace(swap)
    basic = answer if isinstance(answer, sp.Basic) else sp.ImmutableMatrix(answer)
    reference = expected if isinstance(expected, sp.Basic) else sp.ImmutableMatrix(expected)
    functions = {str(f.func): f for f in reference.atoms(AppliedUndef)}
    swap = {
        f: functions[str(f.func)]
        for f in basic.atoms(AppliedUndef)
        if str(f.func) in functions
        and functions[str(f.func)] != f
        and functions[str(f.func)].args == f.args
    }
    if swap:
        answer = answer.xreplace(swap)
    return answer, signs


def _evaluate(expr: Any, values: Mapping[Any, float]) -> np.ndarray:
    derivatives = {a: v for a, v in values.items() if isinstance(a, sp.Derivative)}
    others = {a: v for a, v in values.items() if not isinstance(a, sp.Derivative)}
    basic = expr if isinstance(expr, sp.Basic) else sp.ImmutableMatrix(expr)
    result = sp.N(basic.xreplace(derivatives).xreplace(others))
    entries = result.tolist() if isinstance(result, sp.MatrixBase) else result

    def number(entry: Any) -> complex:
        try:
            return complex(entry)
        except (TypeError, ValueError):  # zoo, or a symbol left over: not a number there
            return complex(np.nan, np.nan)

    if isinstance(entries, list):
        return np.array([[number(e) for e in row] for row in entries], dtype=complex)
    return np.array(number(entries), dtype=complex)


def _as_difference(expr: Any) -> Any:
    """An equation becomes ``lhs - rhs``; everything else stays."""
    if isinstance(expr, sp.Equality):
        return expr.lhs - expr.rhs
    return expr


def check_expression(
    answer: object,
    expected: sp.Expr | sp.MatrixBase | sp.Equality,
    *,
    samples: int = 6,
    seed: int = 0,
    rtol: float = 1e-8,
    atol: float = 1e-10,
    name: str = "answer",
    hint: str | None = None,
    rows: Rows = "v_omega",
) -> CheckResult:
    """Compare SymPy expressions, matrices or equations for equivalence.

    Both are evaluated at ``samples`` random points (seeded; positive
    symbols get positive values); any point where they differ makes the
    answer wrong and is reported. When they agree everywhere and the
    expression is small, SymPy also simplifies the difference; if it is not
    0 the answer is still accepted (it agrees numerically) and the message
    says so. Equations count as equal when their sides differ by the same
    amount (``lhs - rhs``), up to the sign.

    A wrong matrix or expression is compared at the same points with the
    usual slips made of the expected one: the whole answer negated, the
    matrix transposed, the top and bottom three rows of a 6-row matrix
    swapped ([ω; v] for [v; ω]), one entry, row or column with the other
    sign; a match is named (never with the expected expression), and a
    matrix of the transposed shape is asked whether it needs ``.T``.

    An answer that is not an expression of the right kind is wrong, with a
    message saying what it is: text, ``None``, a truth value, a function
    (``sp.cos`` instead of ``sp.cos(q1)``), a list or array where a SymPy
    Matrix is expected, a set or relation; a number where the expected
    expression depends on symbols says so. The check never raises because
    of the answer.

    Parameters
    ----------
    answer : Any
        What the student typed.
    expected : sympy.Expr, sympy.Matrix or sympy.Eq
        The expected expression, matrix or equation.
    samples : int
        Random points to compare at (≥ 1).
    seed : int
        Seed of the random points.
    rtol, atol : float
        Tolerances of the comparison at each point, finite numbers ≥ 0.
    name : str
        How messages call the answer.
    hint : str, optional
        Appended to the message of a wrong answer.
    rows : {"v_omega", "omega_v", None}
        The order of the halves of a 6-row expected matrix, for the message
        of an answer with them swapped: ``"v_omega"`` (the default, the DH
        geometric Jacobian [v; ω] of ``DHRobot.J``), ``"omega_v"``
        (robolab's twists [ω; v]) or None (not a twist).

    Returns
    -------
    CheckResult
        Truthy when the answer is equivalent.

    Raises
    ------
    TypeError, ValueError
        If ``expected`` is not a SymPy expression, matrix or equation, or
        ``samples``, ``rtol`` or ``atol`` are not usable (the author's
        mistakes).

    Examples
    --------
    >>> import sympy as sp
    >>> q = sp.Symbol("q")
    >>> check_expression(sp.sin(q) ** 2, 1 - sp.cos(q) ** 2).correct
    True
    >>> print(check_expression(sp.sin(q), sp.cos(q), name="x"))
    ✗ x differs from the expected expression: at q = 1.192, x = 0.929 but the expected
    value is 0.37.
    >>> print(check_expression(0.5, sp.cos(q)))
    ✗ answer is a number, but the expected expression depends on q: at q = 1.192, answer =
    0.5 but the expected value is 0.37.
    >>> print(check_expression(sp.cos, sp.cos(q)))
    ✗ answer is the function cos, not a SymPy expression: apply it to its arguments
    (sp.cos(q1), not sp.cos).
    >>> R = sp.Matrix([[sp.cos(q), -sp.sin(q)], [sp.sin(q), sp.cos(q)]])
    >>> print(check_expression(R, R.T))
    ✗ answer looks transposed: rows and columns are swapped.
    >>> print(check_expression(R.row_join(sp.Matrix([1, 2])), R))
    ✗ answer has shape (2, 3), expected shape (2, 2).
    """
    rtol, atol = checked_tolerance(rtol, "rtol"), checked_tolerance(atol, "atol")
    rows = row_convention(rows)
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
        raise ValueError(f"samples must be a whole number ≥ 1, got {describe_value(samples)}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {describe_value(name)}")
    try:
        expected_expr = _as_difference(sp.sympify(expected, strict=True))
    except (sp.SympifyError, TypeError, ValueError):
        expected_expr = None
    if not isinstance(expected_expr, sp.Expr | sp.MatrixBase):
        raise TypeError(
            "the expected value must be a SymPy expression, matrix or equation, got "
            f"{describe_value(expected)}"
        )
    answer_expr, problem = _as_expression(answer, expected_expr, name)
    if problem:
        return wrong_result(problem, hint)
    try:
        return _compare_expressions(
            answer,
            answer_expr,
            expected,
            expected_expr,
            samples,
            seed,
            rtol,
            atol,
            name,
            hint,
            rows,
        )
    except Exception as error:  # nothing a student types may crash the check
        return wrong_result(could_not_compare(answer, name, error), hint)


def _as_expression(answer: Any, expected: Any, name: str) -> tuple[Any, str | None]:
    """The answer as a SymPy expression or matrix like ``expected``, or why it is not one."""
    is_matrix = isinstance(expected, sp.MatrixBase)
    kind = "a SymPy Matrix" if is_matrix else "a SymPy expression"
    if answer is None:
        return None, f"No answer yet: {name} is None (replace None with your result)."
    if isinstance(answer, str | bytes):
        return None, (
            f"{name} must be a SymPy expression, not text; build it from symbols "
            "(e.g. sp.cos(q1) * l1)."
        )
    if isinstance(answer, bool | np.bool_ | sp.logic.boolalg.BooleanAtom):
        return None, f"{name} is {answer}, a truth value, not {kind}."
    if callable(answer) and not isinstance(answer, sp.Basic | sp.MatrixBase):
        return None, (
            f"{name} is {describe_value(answer)}, not {kind}: apply it to its arguments "
            "(sp.cos(q1), not sp.cos)."
        )
    if isinstance(answer, list | tuple | np.ndarray | sp.NDimArray):
        if is_matrix:
            return None, (
                f"{name} is {describe_value(answer)}, but the expected answer is a SymPy Matrix: "
                "wrap it in sp.Matrix(...)."
            )
        return None, f"{name} must be a scalar expression, got {describe_value(answer)}."
    if isinstance(answer, Mapping | set | frozenset):
        return None, f"{name} must be {kind}, got {describe_value(answer)}."
    try:
        answer_expr = _as_difference(sp.sympify(answer, strict=True))
    except Exception:  # SympifyError, or whatever a strange object raises
        return None, f"{name} must be {kind}, got {describe_value(answer)}."
    if isinstance(answer_expr, sp.MatrixBase):
        if not all(isinstance(entry, sp.Expr) for entry in answer_expr):
            odd = next(entry for entry in answer_expr if not isinstance(entry, sp.Expr))
            return None, f"{name} must be a matrix of expressions, but holds {describe_value(odd)}."
    elif not isinstance(answer_expr, sp.Expr):
        return None, f"{name} must be {kind}, got {describe_value(answer)}."
    if is_matrix != isinstance(answer_expr, sp.MatrixBase):
        kind = "a matrix" if is_matrix else "a scalar expression"
        return None, f"{name} must be {kind}, got {type(answer).__name__}."
    if is_matrix and answer_expr.shape != expected.shape:
        message = f"{name} has shape {answer_expr.shape}, expected shape {expected.shape}"
        rows, columns = expected.shape
        if answer_expr.shape == (columns, rows):
            message += " (transposed? .T swaps rows and columns)"
        elif answer_expr.rows * answer_expr.cols == rows * columns:
            message += f" (same number of entries: .reshape({rows}, {columns})?)"
        return None, message + "."
    return answer_expr, None


def _transposed_block(
    got: np.ndarray, want: np.ndarray, close: Callable[[np.ndarray, np.ndarray], bool]
) -> str | None:
    """The index of a square block (of a wide or tall matrix) that the answer has transposed.

    A matrix of blocks side by side (``hstack(M, C, G)``) or stacked: the answer is the
    expected one with one non-symmetric square block transposed. Returns ``":, 2:4"``.
    """
    if want.ndim != 3 or want.shape[1] == want.shape[2]:
        return None
    rows, columns = want.shape[1:]
    size = min(rows, columns)
    for start in range(max(rows, columns) - size + 1):
        span = slice(start, start + size)
        part = (slice(None), slice(None), span) if rows < columns else (slice(None), span)
        candidate = want.copy()
        square = want[part]
        if close(square, square.transpose(0, 2, 1)):
            continue  # a symmetric block (M) looks the same transposed
        candidate[part] = square.transpose(0, 2, 1)
        if close(got, candidate):
            where = f"{start}:{start + size}"
            return f":, {where}" if rows < columns else f"{where}, :"
    return None


def _slip(
    got: np.ndarray, want: np.ndarray, rtol: float, atol: float, name: str, rows: Rows
) -> Diagnosis | None:
    """The usual slip that makes the answer's values ``got`` of the expected ``want``.

    ``got`` and ``want`` hold the two sides' values at the same sample points (the first
    axis). The candidate forms of the expected value: negated, transposed, with its top and
    bottom three rows swapped, one square block transposed (C in ``hstack(M, C, G)``), one
    entry, row or column with the other sign. None of the messages names the expected
    expression.
    """

    def close(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.all(np.abs(a - b) <= atol + rtol * np.abs(b)))

    shape = want.shape[1:]
    if close(got, -want):
        return same_numbers(
            f"{subject(name, first=True)} has the opposite sign: it is the expected expression "
            "times -1."
        )
    if len(shape) == 2 and shape[0] == shape[1] and close(got, want.transpose(0, 2, 1)):
        rotation = bool(np.all(np.abs(want.imag) <= atol)) and all(
            is_rotation(w.real) for w in want
        )
        return same_numbers(transposed_text(name, rotation))
    if shape and shape[0] == 6 and close(got, swap_halves(want, axis=1)):
        return same_numbers(order_text(name, len(shape) == 1 or shape[1] == 1, rows))
    block = _transposed_block(got, want, close)
    if block is not None:
        where = f"{name}[{block}]"
        text = "looks transposed (its rows and columns swapped); the rest is right."
        return (
            f"The square block {where} {text}",
            f"One square block of {subject(name)} (C in hstack(M, C, G)?) {text}",
            f"The square block {where} {text}",
        )
    tolerance = atol + rtol * np.abs(want)
    differs = np.abs(got - want) > tolerance
    not_flipped = np.abs(got + want) > tolerance
    if shape and not np.any(differs & not_flipped):
        named = sign_where(differs.any(axis=0), name)
        if named is not None:
            where, vague = named
            second = f"{where} has the wrong sign, {SIGN_ADVICE}"
            return second, f"{vague} has the wrong sign, {SIGN_ADVICE}", second
    return None


def _compare_expressions(
    answer: Any,
    answer_expr: Any,
    expected: Any,
    expected_expr: Any,
    samples: int,
    seed: int,
    rtol: float,
    atol: float,
    name: str,
    hint: str | None,
    rows: Rows = "v_omega",
) -> CheckResult:
    """:func:`check_expression` once both sides are expressions (or matrices) of one shape."""
    is_matrix = isinstance(expected_expr, sp.MatrixBase)
    answer_expr, signs = _same_names(answer_expr, expected_expr)
    extra = unknowns(answer_expr) - unknowns(expected_expr)
    used = (
        ", ".join(atom_text(a) for a in sorted(unknowns(expected_expr), key=atom_order))
        or "no symbols"
    )
    if extra:
        names = ", ".join(atom_text(a) for a in sorted(extra, key=atom_order))
        return wrong_result(
            f"{name} uses {names}, which the expected expression does not (it uses {used}).", hint
        )
    # A number (or a matrix of numbers) where the expected expression depends on symbols.
    constant = not unknowns(answer_expr) and bool(unknowns(expected_expr))

    rng = np.random.default_rng(seed)
    atoms = sorted(unknowns(expected_expr), key=atom_order)
    equation = isinstance(answer, sp.Equality) and isinstance(expected, sp.Equality)
    points, gots, wants = [], [], []
    for _ in range(samples):
        values = {atom: _random_value(atom, rng, signs.get(atom)) for atom in atoms}
        points.append(values)
        gots.append(_evaluate(answer_expr, values))
        wants.append(_evaluate(expected_expr, values))
    for values, got, want in zip(points, gots, wants, strict=True):
        agree = np.allclose(got, want, rtol=rtol, atol=atol) or (
            equation and np.allclose(got, -want, rtol=rtol, atol=atol)
        )
        if agree:
            continue
        point = ", ".join(f"{atom_text(a)} = {v:.4g}" for a, v in values.items()) or "every point"
        if got.ndim == 0:
            detail = f"{name} = {fmt(got)} but the expected value is {fmt(want)}"
            gentle = f"{name} = {fmt(got)}, which is not the expected value"
        else:
            bad = ~(np.abs(got - want) <= atol + rtol * np.abs(want))
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            detail = (
                f"entry {index_text(index)} is {fmt(got[index])} but the expected value is "
                f"{fmt(want[index])}"
            )
            gentle = f"entry {index_text(index)} is {fmt(got[index])}, which is not right"
        if constant:
            what = "a matrix of numbers" if is_matrix else "a number"
            return wrong_result(
                f"{name} is {what}, but the expected expression depends on {used}: at "
                f"{point}, {detail}.",
                hint,
                first_try=f"{name} is {what}, but the expected expression depends on {used}.",
            )
        slip = None if equation else _slip(np.array(gots), np.array(wants), rtol, atol, name, rows)
        if slip is not None:
            full, first, second = slip
            return wrong_result(full, hint, first_try=first, second_try=second)
        return wrong_result(
            f"{name} differs from the expected expression: at {point}, {detail}.",
            hint,
            first_try=f"{name} differs from the expected expression: at {point}, {gentle}.",
        )

    difference = (
        sp.ImmutableMatrix(answer_expr - expected_expr)
        if is_matrix
        else answer_expr - expected_expr
    )
    if sp.count_ops(difference) <= 400:
        simplified = sp.simplify(difference)
        zero = simplified.is_zero_matrix if is_matrix else simplified == 0
        if equation and not zero:
            other = sp.simplify(answer_expr + expected_expr)
            zero = other.is_zero_matrix if is_matrix else other == 0
        if zero:
            return right_result(f"Correct: {name} is equivalent to the expected expression.")
    return right_result(
        f"Correct: {name} agrees with the expected expression at {samples} random points "
        "(SymPy did not simplify the difference to 0, so the forms differ)."
    )
