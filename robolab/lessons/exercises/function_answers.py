"""Checking a student's function: call it and the reference on the same inputs.

:func:`check_function` reports the first input where the two disagree, or where the student's
function raises, with the numeric or symbolic check's message for the result.
:mod:`robolab.exercises` re-exports :func:`check_function` (the same function).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import sympy as sp

from .check_result import (
    CheckResult,
    checked_tolerance,
    error_text,
    reworded,
    right_result,
    short_text,
    wrong_result,
)
from .numeric_answers import check_numeric
from .symbolic_answers import check_expression

__all__ = ["check_function"]

# --- functions -----------------------------------------------------------------------------------


def _converted(value: object, convert: Callable[..., Any]) -> object:
    """A number or array of numbers converted (np.degrees, np.radians); anything else as is."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.number | np.ndarray):
        return value
    if isinstance(value, np.ndarray) and value.dtype.kind not in "iuf":
        return value
    return convert(value)


def _angle_slip(
    got: object,
    expected: Callable[..., object],
    args: tuple[object, ...],
    kwargs: dict[str, object],
    rtol: float,
    atol: float,
) -> str | None:
    """What the student's result is when it is the reference's at the inputs in other units.

    ``f(q) = reference(np.degrees(q))``: the function turned radians into degrees before
    ``np.cos`` or ``trotz`` (which take radians); ``f(q) = reference(np.radians(q))``: it
    read its radians as degrees.
    """
    for convert, words in (
        (
            np.degrees,
            "is what the reference gives for the input in degrees: your function seems to use "
            "degrees where radians belong (np.cos, np.sin, trotz... take radians; the input is "
            "already in radians).",
        ),
        (
            np.radians,
            "is what the reference gives for the input converted to radians once more: your "
            "function seems to read its input as degrees (np.radians inside?), but it is "
            "already in radians.",
        ),
    ):
        new_args = tuple(_converted(a, convert) for a in args)
        new_kwargs = {k: _converted(v, convert) for k, v in kwargs.items()}
        if all(a is b for a, b in zip(new_args, args, strict=True)) and all(
            new_kwargs[k] is kwargs[k] for k in kwargs
        ):
            return None  # no numeric input: nothing to convert
        try:
            other = expected(*new_args, **new_kwargs)
            if isinstance(other, sp.Basic | sp.MatrixBase):
                return None
            if check_numeric(got, other, rtol=rtol, atol=atol).correct:
                return words
        except Exception:  # the reference may refuse the converted input: no slip to name
            continue
    return None


def check_function(
    answer: object,
    expected: Callable[..., object],
    inputs: Iterable[object],
    *,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    name: str | None = None,
    hint: str | None = None,
) -> CheckResult:
    """Call the student's function and the reference on the same inputs and compare.

    The student's function may raise anything or return anything: the
    check then fails, quoting the exception (type and message) with the
    input, or saying what the result should have been (as
    :func:`check_numeric` and :func:`check_expression` do).

    Parameters
    ----------
    answer, expected : callable
        The student's function and the reference.
    inputs : iterable
        Arguments: a tuple is unpacked into positional arguments, a dict
        into keyword arguments, anything else is passed as one argument.
    rtol, atol : float
        Tolerances for comparing the results, finite numbers ≥ 0.
    name : str, optional
        How messages call the function (default: its ``__name__``).
    hint : str, optional
        Appended to the message of a wrong answer.

    Returns
    -------
    CheckResult
        Truthy when the function agrees with the reference on every input.

    Raises
    ------
    TypeError, ValueError
        If ``inputs`` is empty, or ``rtol``/``atol`` are not finite numbers
        ≥ 0; an exception of the reference function propagates (they are
        the author's mistakes).

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
    >>> def slope(q):
    ...     return np.array([np.cos(q), 1.0 / q])
    >>> print(check_function(slope, reference, [0.0, 0.5]))
    ✗ slope(0.0) raised ZeroDivisionError: float division by zero.
    >>> print(check_function(lambda q: [q] * "2", reference, [0.5]))
    ✗ <lambda>(0.5) raised TypeError: can't multiply sequence by non-int of type 'str'.
    """
    rtol, atol = checked_tolerance(rtol, "rtol"), checked_tolerance(atol, "atol")
    if answer is None:
        return wrong_result(
            "No answer yet: the answer is None; pass your function itself (f, not f(q)).", hint
        )
    if not callable(answer):
        return wrong_result(
            f"the answer must be a function, got {type(answer).__name__}: pass the function "
            "itself (f, not f(q)).",
            hint,
        )
    label = name or getattr(answer, "__name__", None) or "your function"
    label = label if isinstance(label, str) else short_text(label)
    cases = list(inputs)
    if not cases:
        raise ValueError("inputs must hold at least one input to call the functions with")
    args: tuple[object, ...]
    kwargs: dict[str, object]
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
            text = error_text(error)
            return wrong_result(f"{label}({shown}) raised {type(error).__name__}{text}.", hint)
        if isinstance(want, sp.Basic | sp.MatrixBase):
            result = check_expression(got, want, rtol=rtol, atol=atol, name="the result")
        else:
            result = check_numeric(got, want, rtol=rtol, atol=atol, name="the result")
        if not result:
            slip = _angle_slip(got, expected, args, kwargs, rtol, atol)
            if slip is not None:
                return wrong_result(f"{label}({shown}) {slip}", hint)
            return reworded(result, f"for {label}({shown}): ", hint)
    return right_result(f"Correct: {label} agrees with the reference on {len(cases)} inputs.")
