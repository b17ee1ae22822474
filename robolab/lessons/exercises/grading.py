"""The one check for every kind of answer, and the slips an exercise's author declares.

:func:`check` compares a student's answer with the expected value and returns a
:class:`~robolab.lessons.exercises.check_result.CheckResult` that is truthy when the answer
is right and displays as a short coloured message in a notebook. It sends the answer to the
check of the expected value's kind:

* numbers, vectors and matrices (:mod:`robolab.lessons.exercises.numeric_answers`): equal
  within ``atol + rtol·|expected|`` entry by entry; a wrong answer names the worst entry,
  the value given, the value expected and how far off it is, and recognises the classic
  slips (degrees for radians, millimetres for metres, the opposite sign, a transposed
  matrix, a wrong shape, an unfilled ``None``);
* SymPy expressions, matrices and equations
  (:mod:`robolab.lessons.exercises.symbolic_answers`): equal when they agree at random
  points (seeded) and, for small expressions, when SymPy simplifies the difference to zero;
  a wrong answer gives a point where they differ and names symbols that should not be there;
* functions (:mod:`robolab.lessons.exercises.function_answers`): the student's function and
  the reference are called on the same inputs; the first input where they disagree (or
  where the student's function raises) is reported.

Whatever the student types, a check returns a wrong-answer result that says what was
expected and what was given (text, ``None``, a truth value, a complex number for a real
one, a dict, a function, SymPy symbols, a ragged list...); it never raises because of the
answer. Only the notebook author's mistakes raise (a negative or NaN tolerance, an unusable
expected value).

:func:`known_slip` compares a wrong answer with what the solution gives for the angles in
degrees and with the author's own known wrong answers (``Exercise(angles=..., slips=...)``).
The notebooks import :func:`check` from :mod:`robolab.exercises` (the same object).

Examples
--------
>>> import numpy as np
>>> bool(check(np.pi / 2, np.pi / 2))
True
>>> print(check(90.0, np.pi / 2))
✗ answer is 90, expected 1.571: your answer looks like it is in degrees (90° is 1.571 rad);
robolab works in radians: convert with np.radians.
>>> print(check([[1, 0], [2, 1]], [[1, 2], [0, 1]]))
✗ answer looks transposed: rows and columns are swapped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, TypeAlias, TypedDict

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from .check_result import CheckResult, as_numbers, checked_tolerance
from .function_answers import check_function
from .numeric_answers import Rows, check_numeric, row_convention
from .symbolic_answers import check_expression

__all__ = ["check", "known_slip"]

#: What an answer is checked against: numbers or arrays, SymPy objects, a reference function.
Expected: TypeAlias = "ArrayLike | sp.Expr | sp.MatrixBase | sp.Equality | Callable[..., object]"

#: The row convention of a 6-row expected value, or "auto" (by its kind; see :func:`check`).
RowsOption: TypeAlias = Literal["auto", "omega_v", "v_omega"] | None


class _Tolerances(TypedDict, total=False):
    rtol: float
    atol: float


def check(
    answer: object,
    expected: Expected,
    *,
    rtol: float | None = None,
    atol: float | None = None,
    name: str = "answer",
    hint: str | None = None,
    inputs: Iterable[object] | None = None,
    pose: ArrayLike | None = None,
    rows: RowsOption = "auto",
) -> CheckResult:
    """Check an answer against the expected one: numbers, arrays, SymPy objects or functions.

    Dispatches to :func:`check_function` (the expected value is a function;
    give ``inputs``), :func:`check_expression` (SymPy expected value) or
    :func:`check_numeric` (everything else). Default tolerances: rtol 1e-6,
    atol 1e-9 (numbers); rtol 1e-8, atol 1e-10 (expressions, evaluated).

    Whatever the student typed, the check returns a :class:`CheckResult`:
    text, ``None``, a truth value, a complex number for a real value, a
    dict, a function where a number is expected (or a number where an
    expression is), SymPy symbols, a ragged list, a function that raises
    are wrong answers whose message says what was expected and what was
    given. Only the author's mistakes raise: a tolerance that is negative,
    NaN or not a number, an expected value that is not usable.

    Parameters
    ----------
    answer : Any
        What the student typed.
    expected : Any
        A number or array, a SymPy expression, matrix or equation, or a
        reference function.
    rtol, atol : float, optional
        Tolerances (finite numbers ≥ 0); the defaults above when None.
    name : str
        How messages call the answer.
    hint : str, optional
        Appended to the message of a wrong answer.
    inputs : iterable, optional
        The inputs to call a function with (required when ``expected``
        is a function).
    pose : array_like, optional
        A 4×4 transform between the question's frames, for naming a
        twist or Jacobian given in the other frame (numbers only).
    rows : {"auto", "omega_v", "v_omega", None}
        The order of the halves of a 6-row expected value, for naming an
        answer with them swapped: ``"omega_v"`` ([ω; v]: robolab's twists,
        screw axes, J_s and J_b), ``"v_omega"`` ([v; ω]: the DH geometric
        Jacobian of Spong and Moro, ``DHRobot.J``), None (six numbers that
        are not a twist, such as joint torques: the message only says the
        halves are swapped). ``"auto"``: ``"omega_v"`` for numbers,
        ``"v_omega"`` for SymPy matrices (robolab's symbolic Jacobians are
        the DH ones).

    Returns
    -------
    CheckResult
        Truthy when the answer is right.

    Raises
    ------
    TypeError, ValueError
        For the author's mistakes: bad tolerances, no ``inputs`` for a
        function, an unusable expected value.

    Examples
    --------
    >>> import numpy as np, sympy as sp
    >>> print(check(True, 1.0))
    ✗ answer is True, a truth value (bool), not a number; if you mean 1, write the number.
    >>> print(check(sp.pi / 2, np.pi / 2))
    ✓ Correct: answer matches the expected value (within rtol=1e-06, atol=1e-09).
    >>> print(check(sp.I, np.pi / 2))
    ✗ answer is 0+1j, a complex number, but the expected value is real: its imaginary part 1
    should be 0.
    >>> print(check([1.0, [2.0, 3.0]], [1.0, 2.0]))
    ✗ answer is ragged: answer[0] has a single number but answer[1] has 2 entries; every row
    needs the same number of entries.
    >>> torques = [0.1, 0.2, 0.3, 1.0, 2.0, 3.0]
    >>> print(check(torques[3:] + torques[:3], torques, rows=None))
    ✗ Your answer has the right numbers in the wrong order: the top and bottom three entries are
    swapped.
    >>> check(1.0, 1.0, rtol=-1e-6)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be a finite number ≥ 0, got -1e-06
    """
    tolerances: _Tolerances = {}  # the checks' own defaults for those not given
    if rtol is not None:
        tolerances["rtol"] = checked_tolerance(rtol, "rtol")
    if atol is not None:
        tolerances["atol"] = checked_tolerance(atol, "atol")
    if callable(expected) and not isinstance(expected, sp.Basic):
        if inputs is None:
            raise ValueError(
                "inputs must be given to check a function (the arguments to call it with)"
            )
        return check_function(answer, expected, inputs, hint=hint, **tolerances)
    if rows != "auto":
        rows = row_convention(rows)
    if isinstance(expected, sp.Basic | sp.MatrixBase) and getattr(expected, "free_symbols", None):
        order: Rows = "v_omega" if rows == "auto" else rows
        return check_expression(answer, expected, name=name, hint=hint, rows=order, **tolerances)
    order = "omega_v" if rows == "auto" else rows
    return check_numeric(
        answer, expected, name=name, hint=hint, pose=pose, rows=order, **tolerances
    )


def known_slip(
    answer: object,
    expected: Expected,
    solve: Callable[..., Expected],
    parameters: Mapping[str, Any],
    *,
    angles: Sequence[str] = (),
    slips: Mapping[str, Callable[..., Expected]] | None = None,
    rtol: float | None = None,
    atol: float | None = None,
) -> CheckResult | None:
    """The wrong answer that ``solve`` gives with angles in degrees, or an author's slip.

    Tries ``solve`` with all the ``angles`` parameters in degrees, then with each alone,
    then each of the author's ``slips`` (``{message: wrong(**parameters)}``). Returns the
    wrong-answer result naming the first that matches (its messages never name the expected
    value), or None.

    Examples
    --------
    >>> import math
    >>> hand = lambda l, q: l * math.cos(q)
    >>> print(known_slip(math.cos(math.degrees(0.5)), 0.88, hand, {"l": 1.0, "q": 0.5},
    ...                  angles=["q"]))
    ✗ Your answer is what the formula gives with q in degrees: np.cos, np.sin, rotz,
    trotz... take radians (convert with np.radians).
    """
    if callable(expected) and not isinstance(expected, sp.Basic | sp.MatrixBase):
        return None
    symbolic = isinstance(expected, sp.Basic | sp.MatrixBase) and bool(
        getattr(expected, "free_symbols", None)
    )
    if not symbolic and isinstance(as_numbers(answer, "answer"), str):
        return None
    candidates: list[tuple[str, Callable[..., Expected], dict[str, Any]]] = []
    groups = [(a,) for a in angles] if len(angles) > 1 else []
    for group in [tuple(angles), *groups] if angles else []:
        changed = {**parameters, **{a: np.degrees(parameters[a]) for a in group}}
        candidates.append(
            (
                f"Your answer is what the formula gives with {', '.join(group)} in degrees: "
                "np.cos, np.sin, rotz, trotz... take radians (convert with np.radians).",
                solve,
                changed,
            )
        )
    candidates += [(message, wrong, dict(parameters)) for message, wrong in (slips or {}).items()]
    for message, formula, values in candidates:
        try:
            slipped = formula(**values)
            if check(answer, slipped, rtol=rtol, atol=atol, rows=None):
                return CheckResult(False, message, first_try=message, second_try=message)
        except Exception:  # the formula may not take degrees: no slip to name
            continue
    return None
