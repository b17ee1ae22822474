"""Auto-checked exercises: compare an answer with the expected one and say what is wrong.

:func:`check` compares a student's answer with the expected value and returns
a :class:`CheckResult` that is truthy when the answer is right and displays
as a short coloured message in a notebook. It understands

* numbers, vectors and matrices: equal within ``atol + rtol·|expected|``
  entry by entry; a wrong answer names the worst entry, the value given, the
  value expected and how far off it is, and recognises the classic slips
  (degrees for radians, millimetres for metres, the opposite sign, a
  transposed matrix, a wrong shape, an unfilled ``None``);
* SymPy expressions, matrices and equations: equal when they agree at
  random points (seeded) and, for small expressions, when SymPy simplifies
  the difference to zero; a wrong answer gives a point where they differ and
  names symbols that should not be there;
* functions: the student's function and the reference are called on the
  same inputs; the first input where they disagree (or where the student's
  function raises) is reported.

:class:`Exercise` bundles a prompt, a seeded random instance (each student
can get their own numbers with :func:`seed_for`), the teacher's solution
function, a hint and the tolerances. Solutions stay hidden until the teacher
calls :func:`show_solutions` (or sets ``ROBOLAB_SHOW_SOLUTIONS=1`` before
starting Jupyter).

Examples
--------
>>> import numpy as np
>>> from robolab.exercises import check
>>> bool(check(np.pi / 2, np.pi / 2))
True
>>> print(check(90.0, np.pi / 2))
✗ answer is 90, expected 1.571: your answer looks like it is in degrees (90° is 1.571 rad);
robolab works in radians: convert with np.radians.
>>> print(check([[1, 0], [2, 1]], [[1, 2], [0, 1]]))
✗ answer looks transposed: rows and columns are swapped.
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

__all__ = [
    "CheckResult",
    "Exercise",
    "Solution",
    "check",
    "check_expression",
    "check_function",
    "check_numeric",
    "seed_for",
    "show_solutions",
    "solutions_shown",
]

_SHOW_SOLUTIONS: bool | None = None


# --- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one answer: truthy when correct, with a message either way.

    In a notebook it shows as a coloured message (HTML, Markdown); its text
    form (``str``, and the ``text/plain`` output that nbval compares in saved
    notebooks) is the same message after a ✓ or ✗.
    """

    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return ("✓ " if self.correct else "✗ ") + self.message

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's text form (the ``text/plain`` output): the message, not the dataclass."""
        printer.text(str(self))

    def _repr_markdown_(self) -> str:
        mark = "✅" if self.correct else "❌"
        return f"{mark} {self.message}"

    def _repr_html_(self) -> str:
        colour, background = ("#1B5E20", "#E8F5E9") if self.correct else ("#B00020", "#FDECEA")
        mark = "✓" if self.correct else "✗"
        return (
            f'<div class="robolab-check" style="color:{colour};background:{background};'
            f'padding:4px 8px;border-radius:4px"><b>{mark}</b> {html.escape(self.message)}</div>'
        )


def _right(message: str) -> CheckResult:
    return CheckResult(True, message)


def _wrong(message: str, hint: str | None) -> CheckResult:
    return CheckResult(False, f"{message} Hint: {hint}" if hint else message)


def _fmt(value: Any) -> str:
    """A short rendering of a number for messages."""
    if isinstance(value, complex | np.complexfloating):
        return f"{complex(value):.4g}"
    return f"{float(value):.4g}"


def _index(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


# --- numbers, vectors, matrices ---------------------------------------------------------------


def _as_numbers(answer: Any, name: str) -> tuple[np.ndarray | None, str | None]:
    """The answer as a float array, or a message saying why it is not one."""
    if answer is None:
        return None, f"No answer yet: {name} is None (replace None with your result)."
    if isinstance(answer, str | bytes):
        return None, f"{name} must be a number or an array of numbers, got the text {answer!r}."
    if isinstance(answer, sp.Basic | sp.MatrixBase):
        free = [_atom_text(a) for a in sorted(_unknowns(answer), key=_atom_order)]
        if free:
            return None, (
                f"{name} still contains the symbols {', '.join(free)}; substitute numbers "
                "(expr.subs({...})) or compare expressions with check_expression."
            )
        answer = np.array(answer.evalf() if hasattr(answer, "evalf") else answer).astype(float)
    try:
        array = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, (
            f"{name} must be a number or an array of numbers, got {type(answer).__name__}."
        )
    return array, None


def _close(answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    return bool(np.all(np.abs(answer - expected) <= atol + rtol * np.abs(expected)))


def _subject(name: str, first: bool = False) -> str:
    """How a message names the answer: "your answer", or the name the check was given."""
    if name == "answer":
        return "Your answer" if first else "your answer"
    return name


def _unit_slip(answer: np.ndarray, expected: np.ndarray, name: str, in_degrees: bool) -> str:
    """The answer is the expected angle in degrees (or in radians where degrees are expected)."""
    given, wanted = ("°", " rad") if in_degrees else (" rad", "°")
    advice = (
        "robolab works in radians: convert with np.radians."
        if in_degrees
        else "degrees are expected here: convert with np.degrees."
    )
    unit = "degrees" if in_degrees else "radians"
    if answer.ndim == 0:
        return (
            f"{name} is {_fmt(answer)}, expected {_fmt(expected)}: {_subject(name)} looks like it "
            f"is in {unit} ({_fmt(answer)}{given} is {_fmt(expected)}{wanted}); {advice}"
        )
    index = np.unravel_index(int(np.argmax(np.abs(expected))), expected.shape)
    return (
        f"{_subject(name, first=True)} looks like it is in {unit}: each entry is the expected "
        f"angle in {unit} ({name}{_index(index)} = {_fmt(answer[index])}{given} is "
        f"{_fmt(expected[index])}{wanted}); {advice}"
    )


def _diagnose(answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float, name: str) -> str:
    """Explain how a numeric answer of the right shape differs from the expected one."""
    scale = float(np.abs(expected).max()) if expected.size else 0.0
    scalar = answer.ndim == 0
    # A number is "it" after "answer is 2, expected 1: "; an array is named.
    start = f"{name} is {_fmt(answer)}, expected {_fmt(expected)}: it " if scalar else f"{name} "
    if scale > atol and _close(answer, np.degrees(expected), 1e-3, 1e-6):
        return _unit_slip(answer, expected, name, in_degrees=True)
    if scale > atol and _close(answer, np.radians(expected), 1e-3, 1e-9):
        return _unit_slip(answer, expected, name, in_degrees=False)
    if scale > atol and _close(answer, -expected, rtol, atol):
        return start + "has the opposite sign."
    if (
        expected.ndim == 2
        and expected.shape[0] == expected.shape[1]
        and not _close(expected, expected.T, rtol, atol)
        and _close(answer, expected.T, rtol, atol)
    ):
        return f"{name} looks transposed: rows and columns are swapped."
    nonzero = np.abs(expected) > atol
    if scale > atol and np.all(np.abs(answer[~nonzero]) <= atol):
        ratios = answer[nonzero] / expected[nonzero]
        factor = float(np.median(ratios))
        if abs(factor - 1.0) > rtol and np.allclose(ratios, factor, rtol=1e-6, atol=0.0):
            for value, words in (
                (1000.0, "millimetres instead of metres?"),
                (0.001, "metres where millimetres are expected?"),
            ):
                if abs(factor / value - 1.0) < 1e-6:
                    return start + f"is {factor:g} times the expected value: {words}"
            return start + f"is {factor:.4g} times the expected value (a missing or extra factor?)."
    error = np.abs(answer - expected)
    tolerance = atol + rtol * np.abs(expected)
    bad = error > tolerance
    if scalar:
        return start + f"is off by {_fmt(error)} (tolerance {_fmt(tolerance)})."
    worst = np.unravel_index(int(np.argmax(np.where(bad, error, -1.0))), answer.shape)
    count = int(bad.sum())
    return (
        f"{name}{_index(worst)} is {_fmt(answer[worst])}, expected {_fmt(expected[worst])} "
        f"(off by {_fmt(error[worst])}; tolerance {_fmt(tolerance[worst])}); "
        f"{count} of {answer.size} entries are off."
    )


def check_numeric(
    answer: Any,
    expected: Any,
    *,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    name: str = "answer",
    hint: str | None = None,
) -> CheckResult:
    """Compare a number, vector or matrix with the expected one, entry by entry.

    An entry is right when ``|answer - expected| <= atol + rtol·|expected|``.

    Examples
    --------
    >>> print(check_numeric([1.0, 2.0, 3.1], [1.0, 2.0, 3.0], name="p"))
    ✗ p[2] is 3.1, expected 3 (off by 0.1; tolerance 3e-06); 1 of 3 entries are off.
    >>> print(check_numeric(250.0, 0.25, hint="Lengths are in metres."))
    ✗ answer is 250, expected 0.25: it is 1000 times the expected value: millimetres instead
    of metres? Hint: Lengths are in metres.
    """
    expected_array, problem = _as_numbers(expected, "expected")
    if problem:
        raise ValueError(f"the expected value is not numeric: {problem}")
    answer_array, problem = _as_numbers(answer, name)
    if problem:
        return _wrong(problem, hint)
    if expected_array.ndim == 0 and answer_array.size == 1:
        answer_array = answer_array.reshape(())
    if answer_array.shape != expected_array.shape:
        message = f"{name} has shape {answer_array.shape}, expected shape {expected_array.shape}"
        if answer_array.size == expected_array.size:
            if answer_array.ndim == 2 and answer_array.T.shape == expected_array.shape:
                message += " (transposed? .T swaps rows and columns)"
            else:
                message += f" (same number of entries: .reshape{expected_array.shape}?)"
        return _wrong(message + ".", hint)
    if not np.all(np.isfinite(answer_array)):
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(answer_array))[0])
        where = _index(index) if index else ""
        return _wrong(f"{name}{where} is {answer_array[index]}, not a finite number.", hint)
    if _close(answer_array, expected_array, rtol, atol):
        return _right(
            f"Correct: {name} matches the expected value (within rtol={rtol:g}, atol={atol:g})."
        )
    return _wrong(_diagnose(answer_array, expected_array, rtol, atol, name), hint)


# --- SymPy expressions --------------------------------------------------------------------------


def _unknowns(expr: Any) -> set[Any]:
    """Symbols, undefined functions q(t) and their derivatives in an expression.

    The time ``t`` inside ``q1(t)`` is not an unknown of its own: once q1(t)
    and its derivatives have values, t does not matter.
    """
    from sympy.core.function import AppliedUndef

    basic = expr if isinstance(expr, sp.Basic) else sp.ImmutableMatrix(expr)
    derivatives = set(basic.atoms(sp.Derivative))
    functions = set(basic.atoms(AppliedUndef))
    stand_ins = {atom: sp.Dummy() for atom in derivatives | functions}
    rest = basic.xreplace({d: stand_ins[d] for d in derivatives})
    rest = rest.xreplace({f: stand_ins[f] for f in functions})
    symbols = {
        s for s in rest.free_symbols if isinstance(s, sp.Symbol) and not isinstance(s, sp.Dummy)
    }
    return derivatives | functions | symbols


def _atom_text(atom: Any) -> str:
    """A symbol, joint variable or its time derivative as in textbooks: l₁, q₁, q̇₁, q̈₁."""
    from .derivation import to_text

    return to_text(atom)


def _atom_order(atom: Any) -> tuple[int, str, int]:
    """Sort key: constants first (l₁, m₁), then each joint variable with its derivatives."""
    if isinstance(atom, sp.Derivative):
        order = sum(count for _, count in atom.variable_count)
        return (1, str(atom.expr), order)
    return (1, str(atom), 0) if not isinstance(atom, sp.Symbol) else (0, str(atom), 0)


@functools.cache
def _physical_magnitudes() -> frozenset[Any]:
    """robolab's predefined link lengths l_i, l_ci and principal moments of inertia.

    :mod:`robolab.symbols` declares them only real (the placeholders that
    ``DHRobot`` generates must be the same symbols), but they are lengths
    and moments of inertia: never negative.
    """
    from . import symbols

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
        if str(f.func) in functions and functions[str(f.func)] != f
        and functions[str(f.func)].args == f.args
    }  # fmt: skip
    if swap:
        answer = answer.xreplace(swap)
    return answer, signs


def _evaluate(expr: Any, values: Mapping[Any, float]) -> np.ndarray:
    derivatives = {a: v for a, v in values.items() if isinstance(a, sp.Derivative)}
    others = {a: v for a, v in values.items() if not isinstance(a, sp.Derivative)}
    basic = expr if isinstance(expr, sp.Basic) else sp.ImmutableMatrix(expr)
    result = basic.xreplace(derivatives).xreplace(others)
    return np.array(sp.N(result), dtype=complex)


def _as_difference(expr: Any) -> Any:
    """An equation becomes ``lhs - rhs``; everything else stays."""
    if isinstance(expr, sp.Equality):
        return expr.lhs - expr.rhs
    return expr


def check_expression(
    answer: Any,
    expected: Any,
    *,
    samples: int = 6,
    seed: int = 0,
    rtol: float = 1e-8,
    atol: float = 1e-10,
    name: str = "answer",
    hint: str | None = None,
) -> CheckResult:
    """Compare SymPy expressions, matrices or equations for equivalence.

    Both are evaluated at ``samples`` random points (seeded; positive
    symbols get positive values); any point where they differ makes the
    answer wrong and is reported. When they agree everywhere and the
    expression is small, SymPy also simplifies the difference; if it is not
    0 the answer is still accepted (it agrees numerically) and the message
    says so. Equations count as equal when their sides differ by the same
    amount (``lhs - rhs``), up to the sign.

    Examples
    --------
    >>> import sympy as sp
    >>> q = sp.Symbol("q")
    >>> check_expression(sp.sin(q) ** 2, 1 - sp.cos(q) ** 2).correct
    True
    >>> print(check_expression(sp.sin(q), sp.cos(q), name="x"))
    ✗ x differs from the expected expression: at q = 1.192, x = 0.929 but the expected
    value is 0.37.
    """
    if answer is None:
        return _wrong(f"No answer yet: {name} is None (replace None with your result).", hint)
    if isinstance(answer, str | bytes):
        return _wrong(
            f"{name} must be a SymPy expression, not text; build it from symbols "
            "(e.g. sp.cos(q1) * l1).",
            hint,
        )
    try:
        answer_expr = _as_difference(sp.sympify(answer, strict=True))
        expected_expr = _as_difference(sp.sympify(expected, strict=True))
    except sp.SympifyError:
        return _wrong(f"{name} must be a SymPy expression, got {type(answer).__name__}.", hint)
    is_matrix = isinstance(expected_expr, sp.MatrixBase)
    if is_matrix != isinstance(answer_expr, sp.MatrixBase):
        kind = "a matrix" if is_matrix else "a scalar expression"
        return _wrong(f"{name} must be {kind}, got {type(answer).__name__}.", hint)
    if is_matrix and answer_expr.shape != expected_expr.shape:
        return _wrong(
            f"{name} has shape {answer_expr.shape}, expected shape {expected_expr.shape}.", hint
        )

    answer_expr, signs = _same_names(answer_expr, expected_expr)
    extra = _unknowns(answer_expr) - _unknowns(expected_expr)
    if extra:
        names = ", ".join(_atom_text(a) for a in sorted(extra, key=_atom_order))
        used = (
            ", ".join(_atom_text(a) for a in sorted(_unknowns(expected_expr), key=_atom_order))
            or "no symbols"
        )
        return _wrong(
            f"{name} uses {names}, which the expected expression does not (it uses {used}).", hint
        )

    rng = np.random.default_rng(seed)
    atoms = sorted(_unknowns(expected_expr), key=_atom_order)
    equation = isinstance(answer, sp.Equality) and isinstance(expected, sp.Equality)
    for _ in range(samples):
        values = {atom: _random_value(atom, rng, signs.get(atom)) for atom in atoms}
        got = _evaluate(answer_expr, values)
        want = _evaluate(expected_expr, values)
        agree = np.allclose(got, want, rtol=rtol, atol=atol) or (
            equation and np.allclose(got, -want, rtol=rtol, atol=atol)
        )
        if not agree:
            point = (
                ", ".join(f"{_atom_text(a)} = {v:.4g}" for a, v in values.items()) or "every point"
            )
            if got.ndim == 0:
                shown_got = got.real if got.imag == 0 else got
                shown_want = want.real if want.imag == 0 else want
                detail = f"{name} = {_fmt(shown_got)} but the expected value is {_fmt(shown_want)}"
            else:
                bad = np.abs(got - want) > atol + rtol * np.abs(want)
                index = tuple(int(i) for i in np.argwhere(bad)[0])
                detail = (
                    f"entry {_index(index)} is {_fmt(got[index].real)} but the expected value is "
                    f"{_fmt(want[index].real)}"
                )
            return _wrong(
                f"{name} differs from the expected expression: at {point}, {detail}.", hint
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
            return _right(f"Correct: {name} is equivalent to the expected expression.")
    return _right(
        f"Correct: {name} agrees with the expected expression at {samples} random points "
        "(SymPy did not simplify the difference to 0, so the forms differ)."
    )


# --- functions -----------------------------------------------------------------------------------


def check_function(
    answer: Callable[..., Any],
    expected: Callable[..., Any],
    inputs: Iterable[Any],
    *,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    name: str | None = None,
    hint: str | None = None,
) -> CheckResult:
    """Call the student's function and the reference on the same inputs and compare.

    Parameters
    ----------
    answer, expected : callable
        The student's function and the reference.
    inputs : iterable
        Arguments: a tuple is unpacked into positional arguments, a dict
        into keyword arguments, anything else is passed as one argument.

    Examples
    --------
    >>> import numpy as np
    >>> def reference(q):
    ...     return np.array([np.cos(q), np.sin(q)])
    >>> def attempt(q):
    ...     return np.array([np.sin(q), np.cos(q)])
    >>> print(check_function(attempt, reference, [0.0, 0.5]))
    ✗ for attempt(0.0): the result[0] is 0, expected 1 (off by 1; tolerance 1e-06);
    2 of 2 entries are off.
    """
    if not callable(answer):
        return _wrong(f"the answer must be a function, got {type(answer).__name__}.", hint)
    label = name or getattr(answer, "__name__", "the function")
    cases = list(inputs)
    if not cases:
        raise ValueError("inputs must hold at least one input to call the functions with")
    for case in cases:
        if isinstance(case, dict):
            args, kwargs = (), case
            shown = ", ".join(f"{k}={v!r}" for k, v in case.items())
        elif isinstance(case, tuple):
            args, kwargs = case, {}
            shown = ", ".join(repr(a) for a in case)
        else:
            args, kwargs = (case,), {}
            shown = repr(case)
        want = expected(*args, **kwargs)
        try:
            got = answer(*args, **kwargs)
        except Exception as error:  # a student's function may raise anything
            return _wrong(f"{label}({shown}) raised {type(error).__name__}: {error}.", hint)
        if isinstance(want, sp.Basic | sp.MatrixBase):
            result = check_expression(got, want, rtol=rtol, atol=atol, name="the result")
        else:
            result = check_numeric(got, want, rtol=rtol, atol=atol, name="the result")
        if not result:
            return _wrong(f"for {label}({shown}): {result.message}", hint)
    return _right(f"Correct: {label} agrees with the reference on {len(cases)} inputs.")


def check(
    answer: Any,
    expected: Any,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    name: str = "answer",
    hint: str | None = None,
    inputs: Iterable[Any] | None = None,
) -> CheckResult:
    """Check an answer against the expected one: numbers, arrays, SymPy objects or functions.

    Dispatches to :func:`check_function` (the expected value is a function;
    give ``inputs``), :func:`check_expression` (SymPy expected value) or
    :func:`check_numeric` (everything else). Default tolerances: rtol 1e-6,
    atol 1e-9 (numbers); rtol 1e-8, atol 1e-10 (expressions, evaluated).
    """
    tolerances = {k: v for k, v in (("rtol", rtol), ("atol", atol)) if v is not None}
    if callable(expected) and not isinstance(expected, sp.Basic):
        if inputs is None:
            raise ValueError(
                "inputs must be given to check a function (the arguments to call it with)"
            )
        return check_function(answer, expected, inputs, hint=hint, **tolerances)
    if isinstance(expected, sp.Basic | sp.MatrixBase) and getattr(expected, "free_symbols", None):
        return check_expression(answer, expected, name=name, hint=hint, **tolerances)
    return check_numeric(answer, expected, name=name, hint=hint, **tolerances)


# --- exercises and solutions --------------------------------------------------------------------


def show_solutions(on: bool = True) -> None:
    """Let :meth:`Exercise.solution` show the teacher's solutions (``on=False`` hides them)."""
    global _SHOW_SOLUTIONS
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, got {on!r}")
    _SHOW_SOLUTIONS = on


def solutions_shown() -> bool:
    """True after :func:`show_solutions`, or when ``ROBOLAB_SHOW_SOLUTIONS=1`` is set."""
    if _SHOW_SOLUTIONS is not None:
        return _SHOW_SOLUTIONS
    return os.environ.get("ROBOLAB_SHOW_SOLUTIONS", "").strip().lower() in {
        "1",
        "true",
        "yes",
        "on",
    }


def seed_for(student: str, exercise: str = "") -> int:
    """A stable seed from a student's name (and an exercise label), for personal instances.

    The same name always gives the same numbers, on every machine (SHA-256,
    not Python's salted ``hash``).

    Examples
    --------
    >>> seed_for("ada") == seed_for("ada"), seed_for("ada") == seed_for("alan")
    (True, False)
    """
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"student must be a non-empty name, got {student!r}")
    digest = hashlib.sha256(f"{student.strip().lower()}|{exercise}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _render_value(value: Any) -> str:
    if isinstance(value, sp.Basic | sp.MatrixBase):
        return f"$$\n{sp.latex(value)}\n$$"
    if callable(value):
        return f"`{getattr(value, '__name__', 'function')}` (the reference function)"
    with np.printoptions(precision=4, suppress=True):
        return f"```\n{np.asarray(value)!r}\n```" if np.ndim(value) else f"`{_fmt(value)}`"


@dataclass(frozen=True)
class Solution:
    """The teacher's solution of an exercise; shown only when solutions are on."""

    title: str
    value: Any
    explanation: str
    visible: bool

    def _repr_markdown_(self) -> str:
        if not self.visible:
            return (
                f"*The solution of “{self.title}” is hidden. A teacher shows solutions with "
                "`robolab.exercises.show_solutions()`.*"
            )
        text = f"**Solution: {self.title}.** {self.explanation}".rstrip()
        return f"{text}\n\n{_render_value(self.value)}\n"

    def __str__(self) -> str:
        if not self.visible:
            return f"The solution of {self.title!r} is hidden (robolab.exercises.show_solutions())."
        return f"Solution: {self.title}. {self.explanation}\n{self.value!r}"


class Exercise:
    """An exercise with seeded random numbers, a reference solution and an answer check.

    Parameters
    ----------
    title : str
        A few words.
    prompt : str
        The question; ``{name}`` fields are filled from the generated
        parameters (format specs allowed: ``{l1:.2f}``).
    solve : callable
        ``solve(**parameters)`` returns the expected answer (a number, an
        array, a SymPy object, or a reference function).
    generate : callable, optional
        ``generate(rng) -> dict`` draws the parameters from a
        ``numpy.random.Generator``; omit for a fixed exercise.
    seed : int
        Seed of the instance (see :func:`seed_for` for one per student).
    hint : str, optional
        Appended to the message of a wrong answer.
    explanation : str
        Shown with the solution.
    rtol, atol : float, optional
        Tolerances (see :func:`check`).
    inputs : iterable, optional
        Inputs for checking a function answer.

    Examples
    --------
    >>> import numpy as np
    >>> reach = Exercise(
    ...     "Reach of a 2R arm",
    ...     "Links of {l1:.2f} m and {l2:.2f} m: how far can the hand get from the base?",
    ...     solve=lambda l1, l2: l1 + l2,
    ...     generate=lambda rng: {"l1": rng.uniform(0.2, 0.5), "l2": rng.uniform(0.1, 0.4)},
    ...     seed=3,
    ...     hint="Stretch the arm out.",
    ... )
    >>> reach.check(reach.parameters["l1"] + reach.parameters["l2"]).correct
    True
    >>> reach.check(0.0).correct
    False
    >>> print(reach.solution())
    The solution of 'Reach of a 2R arm' is hidden (robolab.exercises.show_solutions()).
    """

    def __init__(
        self,
        title: str,
        prompt: str,
        solve: Callable[..., Any],
        *,
        generate: Callable[[np.random.Generator], Mapping[str, Any]] | None = None,
        seed: int = 0,
        hint: str | None = None,
        explanation: str = "",
        rtol: float | None = None,
        atol: float | None = None,
        inputs: Iterable[Any] | None = None,
    ) -> None:
        if not callable(solve):
            raise TypeError(
                f"solve must be a function of the parameters, got {type(solve).__name__}"
            )
        if not isinstance(seed, int | np.integer):
            raise TypeError(f"seed must be a whole number, got {seed!r}")
        self.title = title
        self.seed = int(seed)
        self.hint = hint
        self.explanation = explanation
        self.rtol, self.atol = rtol, atol
        self.inputs = None if inputs is None else list(inputs)
        self._solve = solve
        self._generate = generate
        self._template = prompt
        rng = np.random.default_rng(self.seed)
        self.parameters: dict[str, Any] = dict(generate(rng)) if generate is not None else {}
        try:
            self.prompt = prompt.format(**self.parameters)
        except (KeyError, IndexError) as error:
            raise ValueError(
                f"prompt of exercise {title!r} refers to {error}, which generate() does not "
                f"return (it returns {sorted(self.parameters)})"
            ) from None
        self.expected = solve(**self.parameters)

    def with_seed(self, seed: int) -> Exercise:
        """The same exercise with other numbers."""
        return Exercise(
            self.title,
            self._template,
            self._solve,
            generate=self._generate,
            seed=seed,
            hint=self.hint,
            explanation=self.explanation,
            rtol=self.rtol,
            atol=self.atol,
            inputs=self.inputs,
        )

    def check(self, answer: Any) -> CheckResult:
        """Check an answer; the result displays as a coloured message."""
        return check(
            answer,
            self.expected,
            rtol=self.rtol,
            atol=self.atol,
            hint=self.hint,
            inputs=self.inputs,
        )

    def solution(self) -> Solution:
        """The teacher's solution (hidden unless :func:`show_solutions` was called)."""
        return Solution(self.title, self.expected, self.explanation, solutions_shown())

    def _repr_markdown_(self) -> str:
        title = self.title.rstrip()
        ending = "" if title.endswith((".", "?", "!", ":", "…")) else "."
        return f"**Exercise: {title}{ending}** {self.prompt}"

    def __repr__(self) -> str:
        return f"<Exercise {self.title!r}, seed {self.seed}>"
