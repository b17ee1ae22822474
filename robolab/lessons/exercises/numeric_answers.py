"""Checking numbers, vectors and matrices, and naming the classic slips.

:func:`check_numeric` compares entry by entry within ``atol + rtol·|expected|`` and, for a
wrong answer, says which entry is off and by how much, and recognises degrees for radians,
millimetres for metres, the opposite sign, a transposed matrix and a wrong shape. The
diagnoses of a 6-row answer (halves swapped, frames mixed up) are here too, and the symbolic
check uses them. :mod:`robolab.exercises` re-exports :func:`check_numeric` (the same function).
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from .check_result import (
    ANSWER_SECONDS,
    CheckResult,
    as_numbers,
    checked_tolerance,
    could_not_compare,
    describe_value,
    entry_text,
    fmt,
    index_text,
    is_boolean,
    right_result,
    run_within,
    short_text,
    wrong_result,
)

__all__ = ["check_numeric"]


def _close(answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float) -> bool:
    return bool(np.all(np.abs(answer - expected) <= atol + rtol * np.abs(expected)))


def subject(name: str, first: bool = False) -> str:
    """How a message names the answer: "your answer", or the name the check was given."""
    if name == "answer":
        return "Your answer" if first else "your answer"
    return name


#: What a message says, from the whole diagnosis to the gentlest: (full, first try, second try).
Diagnosis = tuple[str, str, str]


def same_numbers(text: str) -> Diagnosis:
    """A diagnosis that names no expected value: every try is told the same."""
    return text, text, text


def _unit_slip(answer: np.ndarray, expected: np.ndarray, name: str, in_degrees: bool) -> Diagnosis:
    """The answer is the expected angle in degrees (or in radians where degrees are expected)."""
    given, wanted = ("°", " rad") if in_degrees else (" rad", "°")
    advice = (
        "robolab works in radians: convert with np.radians."
        if in_degrees
        else "degrees are expected here: convert with np.degrees."
    )
    unit = "degrees" if in_degrees else "radians"
    gentle = f"{subject(name, first=True)} looks like it is in {unit}; {advice}"
    if answer.ndim == 0:
        full = (
            f"{name} is {fmt(answer)}, expected {fmt(expected)}: {subject(name)} looks like it "
            f"is in {unit} ({fmt(answer)}{given} is {fmt(expected)}{wanted}); {advice}"
        )
        return full, gentle, gentle
    index = np.unravel_index(int(np.argmax(np.abs(expected))), expected.shape)
    full = (
        f"{subject(name, first=True)} looks like it is in {unit}: each entry is the expected "
        f"angle in {unit} ({name}{index_text(index)} = {fmt(answer[index])}{given} is "
        f"{fmt(expected[index])}{wanted}); {advice}"
    )
    return full, gentle, gentle


#: Factors a slip plausibly puts into an answer, with what they suggest. Any other factor gets
#: the neutral message of a wrong answer: "1.37 times the expected value" teaches nothing.
_FACTORS: tuple[tuple[float, str, str], ...] = (
    (2.0, "2 times", "a factor ½ missing (½ m v², a half angle) or an extra 2?"),
    (0.5, "half", "an extra ½, or a factor 2 missing?"),
    (np.pi, "π times", "an extra factor π?"),
    (1 / np.pi, "1/π times", "a factor π missing?"),
    (2 * np.pi, "2π times", "rad/s where revolutions per second (Hz) belong, or an extra 2π?"),
    (1 / (2 * np.pi), "1/(2π) times", "revolutions (Hz) where radians (rad/s) belong?"),
    (9.81, "g = 9.81 times", "a weight m·g where a mass belongs, or an extra g?"),
    (1 / 9.81, "1/g times", "a mass where a weight m·g belongs, or g missing?"),
    (1000.0, "1000 times", "millimetres instead of metres?"),
    (0.001, "0.001 times", "metres where millimetres are expected?"),
)


def _factor_slip(
    answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float, name: str, start: str
) -> Diagnosis | None:
    """The answer is a plausible factor (2, ½, π, g, 1000...) times the expected value."""
    nonzero = np.abs(expected) > atol
    if not nonzero.any() or np.any(np.abs(answer[~nonzero]) > atol):
        return None
    ratios = answer[nonzero] / expected[nonzero]
    factor = float(np.median(ratios))
    if abs(factor - 1.0) <= rtol or not np.allclose(ratios, factor, rtol=1e-6, atol=0.0):
        return None
    for value, times, words in _FACTORS:
        for sign in (1.0, -1.0):
            if abs(sign * factor / value - 1.0) < 1e-3:
                opposite = " with the opposite sign" if sign < 0 else ""
                what = f"{times} the expected value{opposite}: {words}"
                gentle = f"{subject(name, first=True)} is {what}"
                return start + f"is {what}", gentle, gentle
    return None


def _is_transform(matrix: np.ndarray, atol: float) -> bool:
    """A 4×4 homogeneous transform: last row [0, 0, 0, 1] and a rotation block."""
    if matrix.shape != (4, 4) or not np.allclose(matrix[3], [0, 0, 0, 1], atol=1e-9):
        return False
    rotation = matrix[:3, :3]
    return bool(np.allclose(rotation.T @ rotation, np.eye(3), atol=1e-6))


def is_rotation(matrix: np.ndarray) -> bool:
    """A 3×3 matrix with orthonormal columns."""
    return matrix.shape == (3, 3) and bool(np.allclose(matrix.T @ matrix, np.eye(3), atol=1e-6))


def transposed_text(name: str, rotation: bool) -> str:
    """The message for a transposed matrix (a rotation: say what its transpose means)."""
    text = f"{name} looks transposed: rows and columns are swapped"
    if rotation:
        text += " (a rotation's transpose is its inverse: R_ba where R_ab is asked?)"
    return text + "."


def _matrix_slip(
    answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float, name: str
) -> Diagnosis | None:
    """A transposed matrix, a transposed rotation block, the inverse transform."""
    if expected.ndim != 2 or expected.shape[0] != expected.shape[1]:
        return None
    if not _close(expected, expected.T, rtol, atol) and _close(answer, expected.T, rtol, atol):
        return same_numbers(transposed_text(name, is_rotation(expected)))
    if _is_transform(expected, atol) and _is_transform(answer, atol):
        rotation_t = expected.copy()
        rotation_t[:3, :3] = expected[:3, :3].T
        if not _close(expected, rotation_t, rtol, atol) and _close(answer, rotation_t, rtol, atol):
            return same_numbers(
                f"the rotation block {name}[:3, :3] looks transposed (Rᵀ where R belongs, or the "
                "reverse); the position column is right."
            )
        inverse = np.eye(4)
        inverse[:3, :3] = expected[:3, :3].T
        inverse[:3, 3] = -expected[:3, :3].T @ expected[:3, 3]
        if not _close(expected, inverse, rtol, atol) and _close(answer, inverse, rtol, atol):
            return same_numbers(
                f"{name} is the inverse of the expected transform: T_ba where T_ab is asked (or "
                "the reverse)? Read the subscripts: T_ab is the pose of {b} in {a}."
            )
    return None


#: The order of a 6-row answer's two halves: "omega_v" (robolab's twists [ω; v], screw axes,
#: J_s and J_b), "v_omega" (the DH geometric Jacobian [v; ω] of Spong and Moro, ``DHRobot.J``),
#: or None (six numbers that are not a twist: joint torques, two 3-vectors).
Rows: TypeAlias = Literal["omega_v", "v_omega"] | None

_ROWS = ("omega_v", "v_omega", None)


def row_convention(rows: object) -> Rows:
    """The row convention given by the notebook's author, checked."""
    if rows not in _ROWS:
        raise ValueError(f'rows must be "omega_v", "v_omega" or None, got {rows!r}')
    return rows  # type: ignore[return-value]


def order_text(name: str, vector: bool, rows: Rows) -> str:
    """The message for a 6-row answer whose top and bottom three rows are swapped."""
    what = "its first and last three entries are" if vector else "the top and bottom three rows are"
    start = f"{subject(name, first=True)} has the right numbers in the wrong order: "
    if rows == "omega_v":
        return (
            f"{start}{what} swapped, as in a twist written [v; ω] instead of robolab's [ω; v] "
            "(the angular part first, as in Modern Robotics; a wrench is [m; f])."
        )
    if rows == "v_omega":
        return (
            f"{start}{what} swapped. This question asks for the rows in the order [v; ω] (the "
            "linear velocity first, as in the DH geometric Jacobian of Spong and Moro, "
            "DHRobot.J); yours are in robolab's twist order [ω; v]."
        )
    what = "the top and bottom three entries are" if vector else what
    return f"{start}{what} swapped."


def swap_halves(value: np.ndarray, axis: int = 0) -> np.ndarray:
    """The bottom three rows (entries) of a 6-row array on top of the top three."""
    return np.roll(value, 3, axis=axis)


def _twist_order_slip(
    answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float, name: str, rows: Rows
) -> Diagnosis | None:
    """A 6-row answer with its halves swapped: [v; ω] for [ω; v], or the reverse."""
    if expected.ndim not in (1, 2) or expected.shape[0] != 6:
        return None
    swapped = swap_halves(expected)
    if _close(expected, swapped, rtol, atol) or not _close(answer, swapped, rtol, atol):
        return None
    return same_numbers(order_text(name, expected.ndim == 1, rows))


def _adjoint(T: np.ndarray) -> np.ndarray:
    R, p = T[:3, :3], T[:3, 3]
    p_hat = np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
    adjoint = np.zeros((6, 6))
    adjoint[:3, :3] = adjoint[3:, 3:] = R
    adjoint[3:, :3] = p_hat @ R
    return adjoint


def _frame_slip(
    answer: np.ndarray,
    expected: np.ndarray,
    rtol: float,
    atol: float,
    name: str,
    pose: np.ndarray | None,
) -> Diagnosis | None:
    """A twist, wrench or Jacobian in the other frame: [Ad_T] (or [Ad_T]ᵀ) applied, or undone."""
    if pose is None or expected.ndim not in (1, 2) or expected.shape[0] != 6:
        return None
    adjoint = _adjoint(pose)
    inverse = np.linalg.inv(adjoint)
    for mapped in (
        adjoint @ expected,
        inverse @ expected,
        adjoint.T @ expected,
        inverse.T @ expected,
    ):
        if not _close(expected, mapped, rtol, atol) and _close(answer, mapped, rtol, atol):
            kind = "Jacobian" if expected.ndim == 2 else "twist (or wrench)"
            return same_numbers(
                f"{subject(name, first=True)} is the expected {kind} expressed in the other "
                "frame: a space-frame one where the body frame is asked, or the reverse? The "
                "adjoint [Ad_T] of the pose takes one to the other."
            )
    return None


#: What a sign slip's message adds: the rest is right, so the convention is the suspect.
SIGN_ADVICE = (
    "the others are right: check the sign convention (which way an axis, an angle or a joint "
    "turns positive)."
)


def sign_where(off: np.ndarray, name: str) -> tuple[str, str] | None:
    """The entries with the wrong sign named: one entry, one row or column, or a block of them.

    Returns where they are (``answer[4]``, ``column 2 of answer``) and what a first try is
    told instead (``One entry of your answer``), or None for any other pattern.
    """
    places = [tuple(int(i) for i in index) for index in np.argwhere(off)]
    if len(places) == 1:
        return entry_text(name, places[0]), f"One entry of {subject(name)}"
    if off.ndim != 2:
        return None
    rows = {i for i, _ in places}
    columns = {j for _, j in places}
    if len(rows) == 1:
        return f"row {next(iter(rows))} of {name}", f"One row or column of {subject(name)}"
    if len(columns) == 1:
        return (
            f"column {next(iter(columns))} of {name}",
            f"One row or column of {subject(name)}",
        )
    for lines, word, count in (
        (sorted(columns), "columns", off.shape[1]),
        (sorted(rows), "rows", off.shape[0]),
    ):
        if lines[-1] - lines[0] + 1 == len(lines) and 2 * len(lines) <= count:  # a block: -C
            return (
                f"the block of {word} {lines[0]} to {lines[-1]} of {name}",
                f"One block of rows or columns of {subject(name)}",
            )
    return None


def _sign_slip(
    answer: np.ndarray, expected: np.ndarray, rtol: float, atol: float, name: str
) -> Diagnosis | None:
    """One entry, or one row or column, with the wrong sign; the rest right."""
    if answer.ndim == 0:
        return None
    tolerance = atol + rtol * np.abs(expected)
    off = np.abs(answer - expected) > tolerance
    flipped = (np.abs(answer + expected) <= tolerance) & (np.abs(expected) > atol)
    if not off.any() or np.any(off & ~flipped):
        return None
    named = sign_where(off, name)
    if named is None:
        return None
    where, vague = named
    second = f"{where} has the wrong sign, {SIGN_ADVICE}"
    full = second
    if off.sum() == 1:
        place = tuple(int(i) for i in np.argwhere(off)[0])
        full = (
            f"{where} is {fmt(answer[place])}, expected {fmt(expected[place])}: that entry "
            f"has the wrong sign, {SIGN_ADVICE}"
        )
    return full, f"{vague} has the wrong sign, {SIGN_ADVICE}", second


def _which_way(answer: np.ndarray, expected: np.ndarray, index: tuple[int, ...]) -> str:
    if np.iscomplexobj(answer) or np.iscomplexobj(expected):
        return "is off"
    return "is too large" if answer[index] > expected[index] else "is too small"


def _diagnose(
    answer: np.ndarray,
    expected: np.ndarray,
    rtol: float,
    atol: float,
    name: str,
    pose: np.ndarray | None = None,
    rows: Rows = "omega_v",
) -> Diagnosis:
    """How a numeric answer of the right shape differs from the expected one.

    Returns the whole diagnosis (with the expected value where it helps) and the messages of a
    first and a second wrong try, which never name the expected value.
    """
    scale = float(np.abs(expected).max()) if expected.size else 0.0
    scalar = answer.ndim == 0
    # A number is "it" after "answer is 2, expected 1: "; an array is named.
    start = f"{name} is {fmt(answer)}, expected {fmt(expected)}: it " if scalar else f"{name} "
    real = not (np.iscomplexobj(expected) or np.iscomplexobj(answer))
    if real and scale > atol:  # the slips are of real numbers; else name the worst entry
        if _close(answer, np.degrees(expected), 1e-3, 1e-6):
            return _unit_slip(answer, expected, name, in_degrees=True)
        if _close(answer, np.radians(expected), 1e-3, 1e-9):
            return _unit_slip(answer, expected, name, in_degrees=False)
        if _close(answer, -expected, rtol, atol):
            gentle = f"{subject(name, first=True)} has the opposite sign."
            return start + "has the opposite sign.", gentle, gentle
        for slip in (
            _matrix_slip(answer, expected, rtol, atol, name),
            _twist_order_slip(answer, expected, rtol, atol, name, rows),
            _frame_slip(answer, expected, rtol, atol, name, pose),
            _sign_slip(answer, expected, rtol, atol, name),
            _factor_slip(answer, expected, rtol, atol, name, start),
        ):
            if slip is not None:
                return slip
    error = np.abs(answer - expected)
    tolerance = atol + rtol * np.abs(expected)
    bad = error > tolerance
    if scalar:
        return (
            start + f"is off by {fmt(error)} (tolerance {fmt(tolerance)}).",
            f"{name} is {fmt(answer)}: not right yet.",
            f"{name} is {fmt(answer)}: not right yet, it {_which_way(answer, expected, ())}.",
        )
    worst = np.unravel_index(int(np.argmax(np.where(bad, error, -1.0))), answer.shape)
    count = int(bad.sum())
    full = (
        f"{name}{index_text(worst)} is {fmt(answer[worst])}, expected {fmt(expected[worst])} "
        f"(off by {fmt(error[worst])}; tolerance {fmt(tolerance[worst])}); "
        f"{count} of {answer.size} entries are off."
    )
    first = (
        f"{subject(name, first=True)} is not right yet: {count} of {answer.size} entries are off."
    )
    order = np.argsort(-np.where(bad, error, -1.0), axis=None)[: min(count, 3)]
    places = [tuple(int(i) for i in np.unravel_index(int(k), answer.shape)) for k in order]
    listed = ", ".join(f"{entry_text(name, p)} {_which_way(answer, expected, p)}" for p in places)
    more = f" (and {count - len(places)} more)" if count > len(places) else ""
    rest = "; the other entries are right." if count < answer.size else "."
    return full, first, f"{listed}{more}{rest}"


def check_numeric(
    answer: object,
    expected: ArrayLike | sp.Expr | sp.MatrixBase,
    *,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    name: str = "answer",
    hint: str | None = None,
    pose: ArrayLike | None = None,
    rows: Rows = "omega_v",
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
    pose : array_like, optional
        A 4×4 transform between the frames of the question: an answer equal
        to the expected twist, wrench or 6×n Jacobian carried to the other
        frame by its adjoint is then called a frame mix-up.
    rows : {"omega_v", "v_omega", None}
        The order of the halves of a 6-row expected value, for the message
        of an answer with them swapped: ``"omega_v"`` (robolab's twists,
        screw axes and J_s, J_b: [ω; v]), ``"v_omega"`` (the DH geometric
        Jacobian [v; ω]), None (six numbers that are not a twist: the
        message only says the halves are swapped).

    Returns
    -------
    CheckResult
        Truthy when the answer is right. A wrong one also holds the gentler
        messages of a first and second try (:meth:`CheckResult.feedback`).

    Raises
    ------
    TypeError, ValueError
        If ``expected``, ``rtol``, ``atol`` or ``pose`` is not usable (the author's
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
    >>> torques = [0.1, 0.2, 0.3, 1.0, 2.0, 3.0]  # six numbers, not a twist
    >>> print(check_numeric(torques[3:] + torques[:3], torques, rows=None))
    ✗ Your answer has the right numbers in the wrong order: the top and bottom three entries are
    swapped.
    """
    rtol, atol = checked_tolerance(rtol, "rtol"), checked_tolerance(atol, "atol")
    rows = row_convention(rows)
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {describe_value(name)}")
    if expected is None:
        raise ValueError("the expected value is None (does the solution return its result?)")
    expected_array = as_numbers(expected, "expected", bools=True)
    if isinstance(expected_array, str):
        raise ValueError(f"the expected value is not numeric: {expected_array}")
    if not np.all(np.isfinite(expected_array)):
        raise ValueError(f"the expected value is not finite: {short_text(expected, 80)}")
    pose_array = None
    if pose is not None:
        pose_array = np.asarray(pose, dtype=float)
        if pose_array.shape != (4, 4) or not np.all(np.isfinite(pose_array)):
            raise ValueError(f"pose must be a finite 4×4 transform, got {short_text(pose, 80)}")
    try:
        finished, result = run_within(
            ANSWER_SECONDS,
            _check_numbers,
            answer,
            expected_array,
            is_boolean(expected),
            rtol,
            atol,
            name,
            hint,
            pose_array,
            rows,
        )
    except Exception as error:  # nothing a student types may crash the check
        return wrong_result(could_not_compare(answer, name, error), hint)
    if not finished or result is None:
        return wrong_result(
            f"reading {name} as numbers took more than {ANSWER_SECONDS:g} s, so it was stopped: "
            f"it is {describe_value(answer)}; expected a number or an array of numbers.",
            hint,
        )
    return result


def _check_numbers(
    answer: Any,
    expected_array: np.ndarray,
    bools: bool,
    rtol: float,
    atol: float,
    name: str,
    hint: str | None,
    pose: np.ndarray | None = None,
    rows: Rows = "omega_v",
) -> CheckResult:
    """:func:`check_numeric` once the expected value and the tolerances are known to be fine."""
    answer_array = as_numbers(answer, name, bools=bools, limit=max(1000, 100 * expected_array.size))
    if isinstance(answer_array, str):
        return wrong_result(answer_array, hint)
    if expected_array.ndim == 0 and answer_array.size == 1:
        answer_array = answer_array.reshape(())
    if answer_array.shape != expected_array.shape:
        message = f"{name} has shape {answer_array.shape}, expected shape {expected_array.shape}"
        if answer_array.size == expected_array.size:
            if answer_array.ndim == 2 and answer_array.T.shape == expected_array.shape:
                message += " (transposed? .T swaps rows and columns)"
            else:
                message += f" (same number of entries: .reshape{expected_array.shape}?)"
        return wrong_result(message + ".", hint)
    if not np.all(np.isfinite(answer_array)):
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(answer_array))[0])
        value = answer_array[index]
        shown = value.real if np.iscomplexobj(value) and value.imag == 0 else value
        return wrong_result(f"{entry_text(name, index)} is {shown}, not a finite number.", hint)
    if np.iscomplexobj(answer_array) and not np.iscomplexobj(expected_array):
        # A real expected value: an imaginary part beyond the tolerance is wrong, not dropped.
        imaginary = np.abs(answer_array.imag) > atol + rtol * np.abs(expected_array)
        if imaginary.any():
            index = tuple(int(i) for i in np.argwhere(imaginary)[0])
            value = complex(answer_array[index])
            real = "the expected value is real" if not index else "the expected values are real"
            return wrong_result(
                f"{entry_text(name, index)} is {fmt(value)}, a complex number, but {real}: its "
                f"imaginary part {value.imag:.4g} should be 0.",
                hint,
            )
        answer_array = answer_array.real
    if _close(answer_array, expected_array, rtol, atol):
        return right_result(
            f"Correct: {name} matches the expected value (within rtol={rtol:g}, atol={atol:g})."
        )
    full, first, second = _diagnose(answer_array, expected_array, rtol, atol, name, pose, rows)
    return wrong_result(full, hint, first_try=first, second_try=second)
