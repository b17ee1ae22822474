"""Checking a student's function: call it and the reference on the same inputs.

:func:`check_function` reports the first input where the two disagree, or where the student's
function raises, with the numeric or symbolic check's message for the result.
:mod:`robolab.exercises` re-exports :func:`check_function` (the same function).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import sympy as sp

from .check_result import (
    ANSWER_SECONDS,
    CALL_SECONDS,
    CheckResult,
    checked_tolerance,
    error_text,
    reworded,
    right_result,
    run_within,
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
    time_limit: float = CALL_SECONDS,
) -> CheckResult:
    """Call the student's function and the reference on the same inputs and compare.

    The student's function may raise anything or return anything: the
    check then fails, quoting the exception (type and message) with the
    input, or saying what the result should have been (as
    :func:`check_numeric` and :func:`check_expression` do). A call that
    runs longer than ``time_limit`` is stopped and named (on Linux and
    macOS, in the main thread: see
    :func:`~robolab.lessons.exercises.check_result.run_within`). The
    function gets copies of the inputs, so one that changes its input in
    place cannot change the reference's result it is compared with.

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
    time_limit : float
        Seconds one call of the student's function may take (a finite
        number > 0).

    Returns
    -------
    CheckResult
        Truthy when the function agrees with the reference on every input.

    Raises
    ------
    TypeError, ValueError
        If ``inputs`` is empty, or ``rtol``/``atol`` are not finite numbers
        ≥ 0, or ``time_limit`` is not a finite number > 0; an exception of
        the reference function propagates (they are the author's mistakes).

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
    >>> def spins(q):
    ...     while True:
    ...         pass
    >>> print(check_function(spins, reference, [0.5], time_limit=0.1))
    ✗ spins(0.5) did not finish within 0.1 s, so it was stopped: does a loop in it never end?
    """
    rtol, atol = checked_tolerance(rtol, "rtol"), checked_tolerance(atol, "atol")
    limit = checked_tolerance(time_limit, "time_limit")
    if limit == 0:
        raise ValueError(f"time_limit must be a finite number > 0, got {time_limit!r}")
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
    label = name or _name_of(answer)
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
        own_args, own_kwargs = _copies(args, kwargs)
        try:
            finished, got = run_within(limit, functools.partial(answer, *own_args, **own_kwargs))
        except (Exception, SystemExit) as error:  # a student's function may raise anything
            text = error_text(error)
            return wrong_result(f"{label}({shown}) raised {type(error).__name__}{text}.", hint)
        if not finished:
            return wrong_result(
                f"{label}({shown}) did not finish within {limit:g} s, so it was stopped: does a "
                "loop in it never end?",
                hint,
            )
        # one budget for the comparison and the slips: a result slow to read is slow each time
        finished, wrong = run_within(
            ANSWER_SECONDS, _wrong_result, got, want, expected, args, kwargs, rtol, atol
        )
        if not finished:
            return wrong_result(
                f"reading the result of {label}({shown}) took more than {ANSWER_SECONDS:g} s, so "
                "it was stopped: return a number, an array or a SymPy expression.",
                hint,
            )
        if wrong is not None:
            message, result = wrong
            if isinstance(result, CheckResult):
                return reworded(result, f"for {label}({shown}): ", hint)
            return wrong_result(f"{label}({shown}) {message}", hint)
    return right_result(f"Correct: {label} agrees with the reference on {len(cases)} inputs.")


def _wrong_result(
    got: object,
    want: object,
    expected: Callable[..., object],
    args: tuple[object, ...],
    kwargs: dict[str, object],
    rtol: float,
    atol: float,
) -> tuple[str, CheckResult | None] | None:
    """None when the student's result ``got`` is right; else the angle slip's words (and None),
    or the check's wrong result."""
    if isinstance(want, sp.Basic | sp.MatrixBase):
        result = check_expression(got, want, rtol=rtol, atol=atol, name="the result")
    else:
        result = check_numeric(got, want, rtol=rtol, atol=atol, name="the result")
    if result:
        return None
    slip = _angle_slip(got, expected, args, kwargs, rtol, atol)
    return (slip, None) if slip is not None else ("", result)


def _name_of(answer: object) -> str:
    """The function's ``__name__`` for messages, or "your function" (whatever it holds)."""
    try:
        label = getattr(answer, "__name__", None)
    except Exception:  # a student's object may raise anything from __getattr__
        label = None
    if isinstance(label, str) and label:
        return label
    return "your function" if label is None else short_text(label)


def _copies(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> tuple[tuple[object, ...], dict[str, object]]:
    """Deep copies of the inputs for the student's call (the inputs themselves when they
    cannot be copied)."""
    try:
        return copy.deepcopy(args), copy.deepcopy(kwargs)
    except Exception:  # an input that cannot be copied is passed as it is
        return args, kwargs
