"""Checking numbers, vectors and matrices, and naming the classic slips.

:func:`check_numeric` compares entry by entry within ``atol + rtol·|expected|`` and, for a
wrong answer, says which entry is off and by how much, and recognises degrees for radians,
millimetres for metres, the opposite sign, a transposed matrix and a wrong shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from .answers import (
    CheckResult,
    _as_numbers,
    _could_not_compare,
    _describe,
    _entry,
    _fmt,
    _index,
    _is_boolean,
    _right,
    _short,
    _tolerance,
    _wrong,
)

__all__ = ["check_numeric"]


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
    if np.iscomplexobj(expected) or np.iscomplexobj(answer):
        scale = 0.0  # the slips below are of real numbers: name the worst entry
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
    answer: object,
    expected: ArrayLike | sp.Expr | sp.MatrixBase,
    *,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    name: str = "answer",
    hint: str | None = None,
) -> CheckResult:
    """Compare a number, vector or matrix with the expected one, entry by entry.

    An entry is right when ``|answer - expected| <= atol + rtol·|expected|``.
    Numbers are Python and NumPy numbers, SymPy numbers (``sp.pi / 2``),
    lists and arrays of them, SymPy matrices of numbers. Anything else is a
    wrong answer whose message says what was expected and what was given:
    text (``'1.57'``: remove the quotes), ``None``, a truth value (unless
    the expected value is one), a complex number where the expected value is
    real, a dict, a function, SymPy symbols, a ragged list. The check never
    raises because of the answer.

    Parameters
    ----------
    answer : Any
        What the student typed.
    expected : array_like
        The expected number or array (real or complex, finite).
    rtol, atol : float
        Relative and absolute tolerance, finite numbers ≥ 0.
    name : str
        How messages call the answer.
    hint : str, optional
        Appended to the message of a wrong answer.

    Returns
    -------
    CheckResult
        Truthy when the answer is right.

    Raises
    ------
    TypeError, ValueError
        If ``expected``, ``rtol`` or ``atol`` is not usable (the author's
        mistake, not the student's).

    Examples
    --------
    >>> print(check_numeric([1.0, 2.0, 3.1], [1.0, 2.0, 3.0], name="p"))
    ✗ p[2] is 3.1, expected 3 (off by 0.1; tolerance 3e-06); 1 of 3 entries are off.
    >>> print(check_numeric(250.0, 0.25, hint="Lengths are in metres."))
    ✗ answer is 250, expected 0.25: it is 1000 times the expected value: millimetres instead
    of metres? Hint: Lengths are in metres.
    >>> print(check_numeric(["1.5707963267948966"], np.pi / 2))
    ✗ answer[0] is the text '1.5707963267948966', not a number: remove the quotes.
    """
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {_describe(name)}")
    if expected is None:
        raise ValueError("the expected value is None (does the solution return its result?)")
    expected_array = _as_numbers(expected, "expected", bools=True)
    if isinstance(expected_array, str):
        raise ValueError(f"the expected value is not numeric: {expected_array}")
    if not np.all(np.isfinite(expected_array)):
        raise ValueError(f"the expected value is not finite: {_short(expected, 80)}")
    try:
        return _check_numbers(answer, expected_array, _is_boolean(expected), rtol, atol, name, hint)
    except Exception as error:  # nothing a student types may crash the check
        return _wrong(_could_not_compare(answer, name, error), hint)


def _check_numbers(
    answer: Any,
    expected_array: np.ndarray,
    bools: bool,
    rtol: float,
    atol: float,
    name: str,
    hint: str | None,
) -> CheckResult:
    """:func:`check_numeric` once the expected value and the tolerances are known to be fine."""
    answer_array = _as_numbers(answer, name, bools=bools)
    if isinstance(answer_array, str):
        return _wrong(answer_array, hint)
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
        value = answer_array[index]
        shown = value.real if np.iscomplexobj(value) and value.imag == 0 else value
        return _wrong(f"{_entry(name, index)} is {shown}, not a finite number.", hint)
    if np.iscomplexobj(answer_array) and not np.iscomplexobj(expected_array):
        # A real expected value: an imaginary part beyond the tolerance is wrong, not dropped.
        imaginary = np.abs(answer_array.imag) > atol + rtol * np.abs(expected_array)
        if imaginary.any():
            index = tuple(int(i) for i in np.argwhere(imaginary)[0])
            value = complex(answer_array[index])
            real = "the expected value is real" if not index else "the expected values are real"
            return _wrong(
                f"{_entry(name, index)} is {_fmt(value)}, a complex number, but {real}: its "
                f"imaginary part {value.imag:.4g} should be 0.",
                hint,
            )
        answer_array = answer_array.real
    if _close(answer_array, expected_array, rtol, atol):
        return _right(
            f"Correct: {name} matches the expected value (within rtol={rtol:g}, atol={atol:g})."
        )
    return _wrong(_diagnose(answer_array, expected_array, rtol, atol, name), hint)
