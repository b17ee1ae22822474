"""Checking SymPy expressions, matrices and equations.

:func:`check_expression` evaluates answer and expected value at seeded random points (physical
magnitudes such as masses and lengths positive), in as many digits as cancellation needs, and
asks SymPy to simplify the difference; a wrong answer gives a point where the two differ and
names symbols that should not be there. Sampling alone cannot prove two expressions with cases
(Piecewise, Abs, sign, Min, Max, floor...) equal: those are also compared far and wide and on
both sides of each place where a case changes, and an answer that adds cases the expected
expression does not need is right only when SymPy proves it. :mod:`robolab.exercises`
re-exports :func:`check_expression` (the same function).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp

from ...dh import symbols
from .check_result import (
    ANSWER_SECONDS,
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_NODES,
    SIMPLIFY_SECONDS,
    CheckResult,
    atom_order,
    atom_text,
    checked_tolerance,
    could_not_compare,
    describe_value,
    expression_problem,
    expression_size,
    fmt,
    index_text,
    right_result,
    run_within,
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


# --- evaluating both sides at points --------------------------------------------------------

#: Significant digits SymPy's evalf is asked for at each point. evalf raises its working
#: precision where terms cancel ((q1 + 1)**20 expanded), so the digits are the value's own,
#: not what float arithmetic leaves of them.
_DIGITS = 30
#: Bits a value must hold to count as evaluated (a double's 53, less a few).
_RELIABLE_BITS = 40

#: Functions whose value jumps or bends at some point: sampling alone cannot prove two
#: expressions with them equal, since they may differ only where no sample fell.
_CASE_KINDS: tuple[type, ...] = (
    sp.Piecewise,
    sp.Abs,
    sp.sign,
    sp.Heaviside,
    sp.Min,
    sp.Max,
    sp.floor,
    sp.ceiling,
    sp.frac,
    sp.Mod,
    sp.arg,
    sp.DiracDelta,
    sp.KroneckerDelta,
    sp.Rel,
    sp.logic.boolalg.BooleanFunction,
)


def _entries(expr: Any) -> list[Any]:
    return list(expr) if isinstance(expr, sp.MatrixBase) else [expr]


def _cases(entries: list[Any]) -> set[Any]:
    """The parts of the entries that make them functions with cases (Piecewise, Abs, ...)."""
    return {atom for entry in entries for atom in entry.atoms(*_CASE_KINDS)}


def _case_names(cases: set[Any]) -> str:
    """ "Piecewise and Abs": the kinds of cases, conditions (q1 < 2) only when alone."""
    conditions = sp.Rel | sp.logic.boolalg.BooleanFunction
    names = sorted({c.func.__name__ for c in cases if not isinstance(c, conditions)})
    if not names:
        return "conditions"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Sides:
    """The answer and the expected value, ready to be evaluated at points.

    Joint variables q(t), their derivatives and symbols are replaced by real stand-ins (the
    same for both sides), with the sign and integrality that sampling gives them.
    """

    def __init__(self, answer: Any, expected: Any, atoms: list[Any], signs: dict[Any, int]):
        self.atoms = atoms
        self.stand_in: dict[Any, Any] = {}
        for atom in atoms:
            sign = signs.get(atom) or _sign_of(atom)
            assumptions = {"real": True}
            if getattr(atom, "is_integer", None):
                assumptions = {"integer": True}
            if sign:
                assumptions["positive" if sign > 0 else "negative"] = True
            self.stand_in[atom] = sp.Dummy(str(atom), **assumptions)
        derivatives = {a: s for a, s in self.stand_in.items() if isinstance(a, sp.Derivative)}
        others = {a: s for a, s in self.stand_in.items() if not isinstance(a, sp.Derivative)}

        def replaced(expr: Any) -> list[Any]:
            return [e.xreplace(derivatives).xreplace(others) for e in _entries(expr)]

        self.answer, self.expected = replaced(answer), replaced(expected)
        self.shape = expected.shape if isinstance(expected, sp.MatrixBase) else ()

    def values(self, entries: list[Any], point: Mapping[Any, float]) -> tuple[np.ndarray, bool]:
        """The entries' values at ``point`` (complex; nan where undefined) and whether every
        one of them was evaluated to its digits."""
        subs = {self.stand_in[a]: sp.Float(v, _DIGITS) for a, v in point.items()}
        numbers, reliable = [], True
        for entry in entries:
            number, exact = _value(entry, subs)
            numbers.append(number)
            reliable = reliable and exact
        return np.array(numbers, dtype=complex).reshape(self.shape), reliable


def _value(entry: Any, subs: dict[Any, Any]) -> tuple[complex, bool]:
    """One entry's value at a point and whether its digits are its own (see _DIGITS)."""
    for digits, most in ((_DIGITS, 100), (3 * _DIGITS, 400)):
        result = entry.evalf(digits, subs=subs, maxn=most)
        if not result.is_number or result.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            return complex(np.nan, np.nan), True  # not a number there (a pole, 0/0)
        parts = result.as_real_imag()
        try:
            number = complex(float(parts[0]), float(parts[1]))
        except (TypeError, ValueError):  # something SymPy could not evaluate
            return complex(np.nan, np.nan), True
        if all(_accurate(part) for part in parts):
            return number, True
    return number, False


def _accurate(part: Any) -> bool:
    """A real number SymPy evaluated with enough bits, or exact, or all but zero."""
    if not isinstance(part, sp.Float):
        return True
    return part._prec >= _RELIABLE_BITS or abs(float(part)) < 1e-40


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

    def checked() -> CheckResult:
        equation = isinstance(expected, sp.Equality)
        answer_expr, problem = _as_expression(answer, expected_expr, name, equation)
        if problem:
            return wrong_result(problem, hint)
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

    try:
        finished, result = run_within(ANSWER_SECONDS, checked)
    except RecursionError:  # SymPy's recursion through an answer nested too deeply
        return wrong_result(
            f"{name} is nested too deeply for SymPy to evaluate: write it in a flatter form "
            "(sp.simplify may help).",
            hint,
        )
    except Exception as error:  # nothing a student types may crash the check
        return wrong_result(could_not_compare(answer, name, error), hint)
    if not finished or result is None:
        return wrong_result(
            f"checking {name} took more than {ANSWER_SECONDS:g} s, so it was stopped: it is "
            f"{describe_value(answer)}, and a SymPy expression is expected that SymPy can "
            "evaluate in time; simplify it (sp.simplify, sp.trigsimp) and check again.",
            hint,
        )
    return result


def _as_expression(
    answer: Any, expected: Any, name: str, equation: bool = False
) -> tuple[Any, str | None]:
    """The answer as a SymPy expression or matrix like ``expected``, or why it is not one.

    ``equation``: the expected answer is an equation (``expected`` is its ``lhs - rhs``).
    """
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
    if isinstance(answer, sp.Lambda):
        return None, (
            f"{name} is {describe_value(answer)}, a SymPy function, not {kind}: call it on its "
            "arguments."
        )
    if isinstance(answer, sp.MatrixExpr) and not isinstance(answer, sp.MatrixBase):
        return None, (
            f"{name} is {describe_value(answer)}, a SymPy matrix expression, not {kind} of "
            "entries: write the entries (sp.Matrix([[...], ...]))."
        )
    try:
        sympified = sp.sympify(answer, strict=True)
    except Exception:  # SympifyError, or whatever a strange object raises
        return None, f"{name} must be {kind}, got {describe_value(answer)}."
    if isinstance(sympified, sp.Basic | sp.MatrixBase):
        nodes, depth = expression_size(expected)
        problem = expression_problem(
            sympified,
            name,
            nodes=max(MAX_EXPRESSION_NODES, 20 * nodes),
            depth=max(MAX_EXPRESSION_DEPTH, 2 * depth),
        )
        if problem:
            return None, problem
    if equation and not isinstance(sympified, sp.Equality):
        return None, (
            f"{name} must be an equation, sp.Eq(left side, right side), got "
            f"{describe_value(answer)}."
        )
    if isinstance(sympified, sp.Equality) and not equation:
        return None, (
            f"{name} is an equation ({describe_value(answer)}), but the expected answer is "
            f"{kind}: give the {'matrix' if is_matrix else 'expression'} itself (its right-hand "
            "side, not the equation)."
        )
    answer_expr = _as_difference(sympified)
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


# --- where cases change: sampling on both sides ------------------------------------------------


def _breakpoints(cases: set[Any]) -> list[Any]:
    """Expressions that change sign where a case changes: Abs(x) at x, Max(a, b) at a - b..."""
    found: list[Any] = []
    for case in cases:
        if isinstance(case, sp.Rel):
            found.append(case.lhs - case.rhs)
        elif isinstance(case, sp.Min | sp.Max):
            found += [a - b for a, b in itertools.combinations(case.args, 2)]
        elif isinstance(case, sp.floor | sp.ceiling | sp.frac):
            found.append(sp.sin(sp.pi * case.args[0]))
        elif isinstance(case, sp.Mod):
            found.append(sp.sin(sp.pi * case.args[0] / case.args[1]))
        elif isinstance(case, sp.KroneckerDelta):
            found.append(case.args[0] - case.args[1])
        elif not isinstance(case, sp.Piecewise | sp.logic.boolalg.BooleanFunction):
            found.append(case.args[0])  # Abs, sign, Heaviside, arg, DiracDelta: at 0
    unique = list(dict.fromkeys(g for g in found if isinstance(g, sp.Expr) and g.free_symbols))
    return unique[:_MAX_BREAKPOINTS]


_MAX_BREAKPOINTS = 12
_MAX_SEARCHES = 16  # (breakpoint, variable) pairs searched, each along the first two points
#: How far from 0 the values of a symbol are searched for the places where a case changes.
_REACH = 8.0


def _roots(g: Any, variable: Any, base: dict[Any, Any], low: float, high: float) -> list[float]:
    """Where ``g`` changes sign as ``variable`` runs over [low, high], the others at ``base``."""

    def at(x: float) -> float:
        value = g.evalf(15, subs={**base, variable: sp.Float(x, 15)})
        try:
            return float(sp.re(value))
        except (TypeError, ValueError):
            return float("nan")

    grid = np.linspace(low, high, 33)
    heights = [at(float(x)) for x in grid]
    roots: list[float] = []
    for a, b, ha, hb in zip(grid[:-1], grid[1:], heights[:-1], heights[1:], strict=True):
        if not (np.isfinite(ha) and np.isfinite(hb)) or ha * hb > 0:
            continue
        a, b = float(a), float(b)
        for _ in range(30):  # bisection: to about 1e-8 of the grid step
            middle = (a + b) / 2
            height = at(middle)
            if ha * height <= 0:
                b = middle
            else:
                a, ha = middle, height
        roots.append((a + b) / 2)
        if len(roots) >= 4:
            break
    return roots


def _points_around_breakpoints(
    sides: _Sides, cases: set[Any], bases: list[dict[Any, float]]
) -> list[dict[Any, float]]:
    """Points just before and just after each place where a case changes (near the bases)."""
    points = []
    searches = [
        (g, atom)
        for g in _breakpoints(cases)
        for atom in sides.atoms
        if sides.stand_in[atom] in g.free_symbols and not sides.stand_in[atom].is_integer
    ]
    for g, atom in searches[:_MAX_SEARCHES]:
        stand_in = sides.stand_in[atom]
        low, high = (-_REACH, _REACH)
        if stand_in.is_positive:
            low, high = 1e-3, _REACH
        elif stand_in.is_negative:
            low, high = -_REACH, -1e-3
        for base in bases:
            fixed = {sides.stand_in[a]: sp.Float(v, 15) for a, v in base.items() if a != atom}
            for root in _roots(g, stand_in, fixed, low, high):
                step = 1e-6 * max(1.0, abs(root))
                points += [{**base, atom: root - step}, {**base, atom: root + step}]
    return points


def _wide_points(
    atoms: list[Any], signs: dict[Any, int], rng: np.random.Generator, count: int
) -> list[dict[Any, float]]:
    """Points spread far wider than the usual samples (magnitudes 0.05 to 8, both signs)."""
    points = []
    for _ in range(count):
        point = {}
        for atom in atoms:
            sign = signs.get(atom) or _sign_of(atom) or (1 if rng.random() < 0.5 else -1)
            if getattr(atom, "is_integer", None):
                point[atom] = float(sign * rng.integers(1, 9))
            else:
                point[atom] = float(sign * np.exp(rng.uniform(np.log(0.05), np.log(_REACH))))
        points.append(point)
    return points


# --- the verdict --------------------------------------------------------------------------------


def _proved_equal(sides: _Sides, equation: bool, cases: bool) -> bool:
    """SymPy simplifies the difference (or, for equations, the sum) to 0 in time."""

    def zero(entries: list[Any]) -> bool:
        if sum(sp.count_ops(e) for e in entries) > 400:
            return False
        for entry in entries:
            if cases:
                entry = sp.piecewise_fold(entry)
            if sp.simplify(entry) != 0:
                return False
        return True

    def proved() -> bool:
        differences = [a - e for a, e in zip(sides.answer, sides.expected, strict=True)]
        if zero(differences):
            return True
        sums = [a + e for a, e in zip(sides.answer, sides.expected, strict=True)]
        return equation and zero(sums)

    finished, result = run_within(SIMPLIFY_SECONDS, proved)
    return bool(finished and result)


def _answer_seed(answer: Any) -> int:
    """A seed drawn from the answer itself: the second points cannot be known in advance."""
    text = sp.srepr(answer) if expression_size(answer)[0] < 20_000 else str(id(answer))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


class _Comparison:
    """The values of both sides at the points tried so far, and the first where they differ."""

    def __init__(
        self, sides: _Sides, rtol: float, atol: float, equation: bool, constant: bool
    ) -> None:
        self.sides, self.rtol, self.atol = sides, rtol, atol
        self.equation, self.constant = equation, constant
        self.points: list[dict[Any, float]] = []
        self.gots: list[np.ndarray] = []
        self.wants: list[np.ndarray] = []
        self.unreliable: dict[Any, float] | None = None

    def add(self, point: dict[Any, float]) -> bool:
        """Evaluate both sides at ``point``; False where the expected value is not finite there
        (the point is left out)."""
        want, want_exact = self.sides.values(self.sides.expected, point)
        if not np.all(np.isfinite(want)):
            return False
        got, got_exact = self.sides.values(self.sides.answer, point)
        if not (want_exact and got_exact):
            if self.unreliable is None:
                self.unreliable = point
            return True
        self.points.append(point)
        self.gots.append(got)
        self.wants.append(want)
        return True

    def close(self, got: np.ndarray, want: np.ndarray) -> bool:
        return bool(np.all(np.abs(got - want) <= self.atol + self.rtol * np.abs(want)))

    def first_difference(self) -> int | None:
        """The index of the first point where the sides differ (for an equation: with either
        sign, the same at every point), or None."""
        first = None
        for sign in (1, -1) if self.equation else (1,):
            pairs = enumerate(zip(self.gots, self.wants, strict=True))
            off = next((i for i, (got, want) in pairs if not self.close(got, sign * want)), None)
            if off is None:
                return None
            first = off if first is None else first
        return first


def _point_text(values: Mapping[Any, float]) -> str:
    return ", ".join(f"{atom_text(a)} = {v:.4g}" for a, v in values.items()) or "every point"


def _difference_result(
    comparison: _Comparison, index: int, name: str, hint: str | None, rows: Rows, used: str
) -> CheckResult:
    """The wrong-answer result for the point ``index`` where the two sides differ."""
    values, got, want = comparison.points[index], comparison.gots[index], comparison.wants[index]
    rtol, atol = comparison.rtol, comparison.atol
    point = _point_text(values)
    if got.ndim == 0:
        detail = f"{name} = {fmt(got)} but the expected value is {fmt(want)}"
        gentle = f"{name} = {fmt(got)}, which is not the expected value"
    else:
        bad = ~(np.abs(got - want) <= atol + rtol * np.abs(want))
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        detail = (
            f"entry {index_text(where)} is {fmt(got[where])} but the expected value is "
            f"{fmt(want[where])}"
        )
        gentle = f"entry {index_text(where)} is {fmt(got[where])}, which is not right"
    if comparison.constant:
        what = "a matrix of numbers" if got.ndim else "a number"
        return wrong_result(
            f"{name} is {what}, but the expected expression depends on {used}: at "
            f"{point}, {detail}.",
            hint,
            first_try=f"{name} is {what}, but the expected expression depends on {used}.",
        )
    slip = None
    if not comparison.equation:
        gots, wants = np.array(comparison.gots), np.array(comparison.wants)
        slip = _slip(gots, wants, rtol, atol, name, rows)
    if slip is not None:
        full, first, second = slip
        return wrong_result(full, hint, first_try=first, second_try=second)
    return wrong_result(
        f"{name} differs from the expected expression: at {point}, {detail}.",
        hint,
        first_try=f"{name} differs from the expected expression: at {point}, {gentle}.",
    )


def _foreign_symbols(extra: set[Any], expected: Any, name: str, used: str) -> str:
    """The message for symbols the expected expression does not use, look-alikes named."""
    theirs = {atom_text(a): a for a in unknowns(expected)}
    for atom in sorted(extra, key=atom_order):
        twin = theirs.get(atom_text(atom))
        if twin is not None:
            return (
                f"{name} uses a {_kind(atom)} {atom_text(atom)} ({sp.srepr(atom)[:60]}) that is "
                f"not the expected expression's {atom_text(twin)} (a {_kind(twin)}): build the "
                "answer from the same symbols (those of robolab.symbols: from robolab.symbols "
                "import q1, l1, ...)."
            )
    names = ", ".join(atom_text(a) for a in sorted(extra, key=atom_order))
    return f"{name} uses {names}, which the expected expression does not (it uses {used})."


def _kind(atom: Any) -> str:
    if isinstance(atom, sp.Derivative):
        return "derivative"
    if isinstance(atom, sp.Symbol):
        return "symbol"
    return "function of time"


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
    """:func:`check_expression` once both sides are expressions (or matrices) of one shape.

    The verdict: a point where the sides differ makes the answer wrong. Otherwise SymPy's
    simplification of the difference to 0 proves it right; failing that, an answer without
    cases (Piecewise, Abs, sign, Min, Max, floor...) is right when it also agrees at points
    drawn from the answer itself, and an answer with cases is compared far and wide and on
    both sides of each place where a case changes: it is right only when the expected
    expression has cases too (an answer that adds cases the expected one does not need is
    refused, as sampling cannot confirm it).
    """
    answer_expr, signs = _same_names(answer_expr, expected_expr)
    extra = unknowns(answer_expr) - unknowns(expected_expr)
    atoms = sorted(unknowns(expected_expr), key=atom_order)
    used = ", ".join(atom_text(a) for a in atoms) or "no symbols"
    if extra:
        return wrong_result(_foreign_symbols(extra, expected_expr, name, used), hint)
    # A number (or a matrix of numbers) where the expected expression depends on symbols.
    constant = not unknowns(answer_expr) and bool(atoms)
    equation = isinstance(answer, sp.Equality) and isinstance(expected, sp.Equality)
    sides = _Sides(answer_expr, expected_expr, atoms, signs)
    comparison = _Comparison(sides, rtol, atol, equation, constant)

    def compare(points: list[dict[Any, float]]) -> CheckResult | None:
        for point in points:
            comparison.add(point)
        index = comparison.first_difference()
        if index is None:
            return None
        return _difference_result(comparison, index, name, hint, rows, used)

    def draw(rng: np.random.Generator, count: int) -> list[dict[Any, float]]:
        return [{a: _random_value(a, rng, signs.get(a)) for a in atoms} for _ in range(count)]

    rng = np.random.default_rng(seed)
    points: list[dict[Any, float]] = []
    for _ in range(3 * samples):  # points where the expected value is finite
        point = draw(rng, 1)[0]
        if comparison.add(point):
            points.append(point)
        if len(points) == samples:
            break
    wrong = compare([])
    if wrong is not None:
        return wrong
    answer_cases, expected_cases = _cases(sides.answer), _cases(sides.expected)
    cases = bool(answer_cases or expected_cases)
    if cases:  # compare far and wide, and on both sides of each place where a case changes
        wrong = compare(_wide_points(atoms, signs, rng, 16))
        wrong = wrong or compare(
            _points_around_breakpoints(sides, answer_cases | expected_cases, points[:2])
        )
        if wrong is not None:
            return wrong
    if _proved_equal(sides, equation, cases):
        return right_result(f"Correct: {name} is equivalent to the expected expression.")
    if comparison.unreliable is not None:
        return wrong_result(
            f"{name} cannot be evaluated accurately: at {_point_text(comparison.unreliable)} "
            f"its terms cancel beyond {3 * _DIGITS} digits, and SymPy could not simplify the "
            "difference to 0 in time; simplify it (sp.simplify, sp.factor) and check again.",
            hint,
        )
    if answer_cases and not expected_cases:
        return wrong_result(
            f"{name} uses {_case_names(answer_cases)}, which the expected expression does not "
            f"need. It agrees at the {len(comparison.points)} points tried, but an expression "
            "with cases can differ where no point fell, and SymPy could not simplify the "
            "difference to 0: write it without cases (no Piecewise, Abs, sign, Min, Max, "
            "floor...).",
            hint,
        )
    if cases:
        return right_result(
            f"Correct: {name} agrees with the expected expression at "
            f"{len(comparison.points)} points, on both sides of each place where a case "
            "changes (SymPy did not simplify the difference to 0, so the forms differ)."
        )
    wrong = compare(draw(np.random.default_rng(_answer_seed(answer_expr)), samples))
    if wrong is not None:
        return wrong
    return right_result(
        f"Correct: {name} agrees with the expected expression at {len(comparison.points)} "
        "random points (SymPy did not simplify the difference to 0, so the forms differ)."
    )
