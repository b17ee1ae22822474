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

Whatever the student types, a check returns a wrong-answer result that says
what was expected and what was given (text, ``None``, a truth value, a
complex number for a real one, a dict, a function, SymPy symbols, a ragged
list...); it never raises because of the answer. Only the notebook author's
mistakes raise (a negative or NaN tolerance, an unusable expected value).

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
import numbers
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, SupportsFloat, SupportsIndex, TypeAlias, TypedDict

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from ..dh import symbols
from ..dh.derivation import to_text

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

#: What an answer is checked against: numbers or arrays, SymPy objects, a reference function.
Expected: TypeAlias = "ArrayLike | sp.Expr | sp.MatrixBase | sp.Equality | Callable[..., object]"


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
    """A short rendering of a number for messages (complex only with an imaginary part)."""
    if np.iscomplexobj(value):
        value = complex(value)
        if not np.isfinite(value):
            return "nan" if np.isnan(value) else "inf"
        if value.imag != 0:
            return f"{value:.4g}"
        value = value.real
    return f"{float(value):.4g}"


def _index(index: tuple[int | np.integer, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


# --- numbers, vectors, matrices ---------------------------------------------------------------


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, with an ellipsis."""
    try:
        text = repr(value)
    except Exception:  # a student's object may have a broken __repr__
        text = f"<{type(value).__name__} object>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _sympy_text(value: Any, limit: int = 40) -> str:
    """A SymPy object on one line, as in textbooks (q₁, not q_1(t)), cut to ``limit``."""
    try:
        shown = value.tolist() if isinstance(value, sp.MatrixBase | sp.NDimArray) else value
        text = _atom_text(shown) if isinstance(shown, sp.Basic) else str(shown)
        if "\n" in text:
            text = str(shown)
    except Exception:  # printing must not fail the check
        return _short(value, limit)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(value: Any) -> str:
    """What an answer is, in words: "a dict ({'a': 1})", "the function sin", "a generator"."""
    if isinstance(value, str | bytes):
        return f"the text {_short(value)}"
    if callable(value) and not isinstance(value, sp.Basic | sp.MatrixBase):
        return f"the function {getattr(value, '__name__', _short(value))}"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    if isinstance(value, np.ndarray):
        kind, article = "NumPy array", "a"
    if isinstance(value, sp.Basic | sp.MatrixBase | sp.NDimArray):
        return f"a SymPy {kind} ({_sympy_text(value)})"
    if isinstance(value, list | tuple) and any(isinstance(v, sp.Basic) for v in value):
        shown = ", ".join(_sympy_text(v) for v in value)
        brackets = "[]" if isinstance(value, list) else "()"
        text = f"{brackets[0]}{shown}{brackets[1]}"
        return f"{article} {kind} ({text if len(text) <= 40 else text[:39] + '…'})"
    if isinstance(value, Mapping | set | frozenset | list | tuple | np.ndarray):
        return f"{article} {kind} ({_short(value)})"
    if isinstance(value, Iterable):  # a generator, map, dict view...
        return f"{article} {kind}"
    return f"{article} {kind} ({_short(value)})"


def _is_number_text(text: str | bytes) -> bool:
    """Text that Python would read as a finite number: '1.57', ' -2e3 '."""
    try:
        return bool(np.isfinite(complex(text.decode() if isinstance(text, bytes) else text)))
    except (ValueError, UnicodeDecodeError):
        return False


class _NotNumbers(Exception):
    """Why an answer is not a number or an array of numbers: the sentence for the student."""


def _entry(name: str, path: tuple[int, ...]) -> str:
    return name + _index(path) if path else name


def _text_problem(text: str | bytes, name: str, path: tuple[int, ...]) -> str:
    where = _entry(name, path)
    if _is_number_text(text):
        return f"{where} is the text {_short(text)}, not a number: remove the quotes."
    if path:
        return f"{where} must be a number, got the text {_short(text)}."
    return (
        f"{name} must be a number or an array of numbers, got the text {_short(text)}; write "
        "it without quotes, as Python (np.pi / 2 for π/2)."
    )


def _numbers_of(
    value: Any, name: str, path: tuple[int, ...], bools: bool
) -> tuple[Any, tuple[int, ...]]:
    """(float, complex or nested list of them, shape) of an answer; raises _NotNumbers."""
    where = _entry(name, path)
    if isinstance(value, bool | np.bool_):
        if bools:
            return float(value), ()
        raise _NotNumbers(
            f"{where} is {bool(value)}, a truth value (bool), not a number; if you mean "
            f"{int(value)}, write the number."
        )
    if isinstance(value, str | bytes):
        raise _NotNumbers(_text_problem(value, name, path))
    if value is None:
        if path:
            raise _NotNumbers(f"{where} is None: replace it with a number.")
        raise _NotNumbers(f"No answer yet: {name} is None (replace None with your result).")
    if isinstance(value, np.ndarray):
        return _numbers_of_array(value, name, path, bools)
    if isinstance(value, sp.MatrixBase | sp.NDimArray):
        return _numbers_of_sequence(value.tolist(), name, path, bools)
    if isinstance(value, sp.Basic):
        return _sympy_number(value, name, path), ()
    if isinstance(value, numbers.Number):
        try:
            if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
                return complex(value), ()
            if isinstance(value, SupportsFloat | SupportsIndex):  # what float() takes (Decimal)
                return float(value), ()
        except OverflowError:
            raise _NotNumbers(
                f"{where} is {_short(value)}, too large to be a floating-point number."
            ) from None
        except (TypeError, ValueError):  # a conversion that fails: no real or complex number
            pass
        raise _NotNumbers(
            f"{where} must be a number robolab can compute with, got {_describe(value)}."
        )
    if isinstance(value, list | tuple | range):
        return _numbers_of_sequence(list(value), name, path, bools)
    if hasattr(value, "__array__") and not isinstance(value, Mapping):
        try:
            array = np.asarray(value)
        except Exception:  # an array-like object that cannot be converted
            array = None
        if isinstance(array, np.ndarray) and array.dtype != object:
            return _numbers_of_array(array, name, path, bools)
    for convert in (float, complex):
        if hasattr(value, f"__{convert.__name__}__") and not callable(value):
            try:
                return convert(value), ()
            except Exception:  # a broken conversion: say what it is instead
                break
    if path:
        raise _NotNumbers(f"{where} must be a number, got {_describe(value)}.")
    advice = ""
    if callable(value):
        advice = " (call it to get its value)"
    elif isinstance(value, Iterable) and not isinstance(value, Mapping | set | frozenset):
        advice = " (make it a list or an array first: list(...) or np.array(...))"
    raise _NotNumbers(
        f"{name} must be a number or an array of numbers, got {_describe(value)}{advice}."
    )


def _sympy_number(value: sp.Basic, name: str, path: tuple[int, ...]) -> float | complex:
    """A SymPy object that should be a number: its value, or why it is not one."""
    where = _entry(name, path)
    if isinstance(value, sp.logic.boolalg.BooleanAtom):
        raise _NotNumbers(f"{where} is the SymPy truth value {value}, not a number.")
    free = [_atom_text(a) for a in sorted(_unknowns(value), key=_atom_order)]
    if free:
        if path:
            raise _NotNumbers(
                f"{where} still contains the symbols {', '.join(free)}; substitute numbers "
                "(expr.subs({...}))."
            )
        raise _NotNumbers(
            f"{name} still contains the symbols {', '.join(free)}; substitute numbers "
            "(expr.subs({...})) or compare expressions with check_expression."
        )
    if not isinstance(value, sp.Expr):
        raise _NotNumbers(f"{where} must be a number, got {_describe(value)}.")
    number = complex(sp.N(value))
    if not np.isfinite(number):
        raise _NotNumbers(f"{where} is {_short(value)}, not a finite number.")
    return number if number.imag != 0 else number.real


def _numbers_of_array(
    array: np.ndarray, name: str, path: tuple[int, ...], bools: bool
) -> tuple[np.ndarray, tuple[int, ...]]:
    kind = array.dtype.kind
    if kind in "iuf":
        return array.astype(float), array.shape
    if kind == "c":
        return array.astype(complex), array.shape
    if kind == "b":
        if bools:
            return array.astype(float), array.shape
        raise _NotNumbers(
            f"{_entry(name, path)} is an array of truth values (dtype bool), not of numbers; if "
            "you mean 1 and 0, convert it with .astype(float)."
        )
    if kind in "US":
        if array.size == 0:
            raise _NotNumbers(
                f"{_entry(name, path)} is an array of text (dtype {array.dtype}), not numbers."
            )
        first = tuple(int(i) for i in np.unravel_index(0, array.shape))
        raise _NotNumbers(_text_problem(array.flat[0].item(), name, path + first))
    if kind == "O" and array.ndim:
        return _numbers_of_sequence(array.tolist(), name, path, bools)
    if kind == "O":
        return _numbers_of(array.item(), name, path, bools)
    raise _NotNumbers(f"{_entry(name, path)} must be numbers, got an array of {array.dtype}.")


def _count(shape: tuple[int, ...]) -> str:
    if not shape:
        return "a single number"
    if len(shape) == 1:
        return f"{shape[0]} entr{'y' if shape[0] == 1 else 'ies'}"
    return f"shape {shape}"


def _numbers_of_sequence(
    items: list[Any], name: str, path: tuple[int, ...], bools: bool
) -> tuple[Any, tuple[int, ...]]:
    values, shapes = [], []
    for i, item in enumerate(items):
        value, shape = _numbers_of(item, name, (*path, i), bools)
        values.append(value)
        shapes.append(shape)
    for i, shape in enumerate(shapes[1:], start=1):
        if shape != shapes[0]:
            where = _entry(name, path)
            raise _NotNumbers(
                f"{where} is ragged: {_entry(name, (*path, 0))} has {_count(shapes[0])} but "
                f"{_entry(name, (*path, i))} has {_count(shape)}; every row needs the same "
                "number of entries."
            )
    return values, (len(values), *(shapes[0] if shapes else ()))


def _as_numbers(answer: object, name: str, *, bools: bool = False) -> np.ndarray | str:
    """The answer as a float (or complex) array, or a sentence saying why it is not one.

    Text, None, truth values (unless ``bools``), dicts, functions, SymPy
    objects with symbols and ragged lists are refused, also as entries of a
    list; SymPy numbers (``sp.pi / 2``) and matrices of them are numbers.
    """
    try:
        values, _ = _numbers_of(answer, name, (), bools)
    except _NotNumbers as problem:
        return str(problem)
    array = np.array(values)
    if array.dtype.kind not in "fc":  # an empty list: no entries to tell the type by
        array = array.astype(float)
    return array


def _is_boolean(value: Any) -> bool:
    """True for True/False and arrays (or lists) of them: then answers may be truth values too."""
    if isinstance(value, bool | np.bool_):
        return True
    if isinstance(value, np.ndarray | list | tuple):
        try:
            return np.asarray(value).dtype.kind == "b"
        except Exception:  # ragged or odd: not a boolean array
            return False
    return False


def _tolerance(value: Any, name: str) -> float:
    """A tolerance given by the notebook's author: a finite number ≥ 0, else an error."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number ≥ 0, got {_describe(value)}")
    tolerance = float(value)
    if not np.isfinite(tolerance) or tolerance < 0:
        raise ValueError(f"{name} must be a finite number ≥ 0, got {tolerance!r}")
    return tolerance


def _could_not_compare(answer: Any, name: str, error: Exception) -> str:
    """The last resort for an answer no check foresaw: wrong, and say what it was."""
    return (
        f"{name} could not be compared with the expected value: it is {_describe(answer)} "
        f"({type(error).__name__}: {error})."
    )


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
) -> CheckResult:
    """Compare SymPy expressions, matrices or equations for equivalence.

    Both are evaluated at ``samples`` random points (seeded; positive
    symbols get positive values); any point where they differ makes the
    answer wrong and is reported. When they agree everywhere and the
    expression is small, SymPy also simplifies the difference; if it is not
    0 the answer is still accepted (it agrees numerically) and the message
    says so. Equations count as equal when their sides differ by the same
    amount (``lhs - rhs``), up to the sign.

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
    """
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
        raise ValueError(f"samples must be a whole number ≥ 1, got {_describe(samples)}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {_describe(name)}")
    try:
        expected_expr = _as_difference(sp.sympify(expected, strict=True))
    except (sp.SympifyError, TypeError, ValueError):
        expected_expr = None
    if not isinstance(expected_expr, sp.Expr | sp.MatrixBase):
        raise TypeError(
            "the expected value must be a SymPy expression, matrix or equation, got "
            f"{_describe(expected)}"
        )
    answer_expr, problem = _as_expression(answer, expected_expr, name)
    if problem:
        return _wrong(problem, hint)
    try:
        return _compare_expressions(
            answer, answer_expr, expected, expected_expr, samples, seed, rtol, atol, name, hint
        )
    except Exception as error:  # nothing a student types may crash the check
        return _wrong(_could_not_compare(answer, name, error), hint)


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
            f"{name} is {_describe(answer)}, not {kind}: apply it to its arguments "
            "(sp.cos(q1), not sp.cos)."
        )
    if isinstance(answer, list | tuple | np.ndarray | sp.NDimArray):
        if is_matrix:
            return None, (
                f"{name} is {_describe(answer)}, but the expected answer is a SymPy Matrix: "
                "wrap it in sp.Matrix(...)."
            )
        return None, f"{name} must be a scalar expression, got {_describe(answer)}."
    if isinstance(answer, Mapping | set | frozenset):
        return None, f"{name} must be {kind}, got {_describe(answer)}."
    try:
        answer_expr = _as_difference(sp.sympify(answer, strict=True))
    except Exception:  # SympifyError, or whatever a strange object raises
        return None, f"{name} must be {kind}, got {_describe(answer)}."
    if isinstance(answer_expr, sp.MatrixBase):
        if not all(isinstance(entry, sp.Expr) for entry in answer_expr):
            odd = next(entry for entry in answer_expr if not isinstance(entry, sp.Expr))
            return None, f"{name} must be a matrix of expressions, but holds {_describe(odd)}."
    elif not isinstance(answer_expr, sp.Expr):
        return None, f"{name} must be {kind}, got {_describe(answer)}."
    if is_matrix != isinstance(answer_expr, sp.MatrixBase):
        kind = "a matrix" if is_matrix else "a scalar expression"
        return None, f"{name} must be {kind}, got {type(answer).__name__}."
    if is_matrix and answer_expr.shape != expected.shape:
        return None, f"{name} has shape {answer_expr.shape}, expected shape {expected.shape}."
    return answer_expr, None


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
) -> CheckResult:
    """:func:`check_expression` once both sides are expressions (or matrices) of one shape."""
    is_matrix = isinstance(expected_expr, sp.MatrixBase)
    answer_expr, signs = _same_names(answer_expr, expected_expr)
    extra = _unknowns(answer_expr) - _unknowns(expected_expr)
    used = (
        ", ".join(_atom_text(a) for a in sorted(_unknowns(expected_expr), key=_atom_order))
        or "no symbols"
    )
    if extra:
        names = ", ".join(_atom_text(a) for a in sorted(extra, key=_atom_order))
        return _wrong(
            f"{name} uses {names}, which the expected expression does not (it uses {used}).", hint
        )
    # A number (or a matrix of numbers) where the expected expression depends on symbols.
    constant = not _unknowns(answer_expr) and bool(_unknowns(expected_expr))

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
                detail = f"{name} = {_fmt(got)} but the expected value is {_fmt(want)}"
            else:
                bad = ~(np.abs(got - want) <= atol + rtol * np.abs(want))
                index = tuple(int(i) for i in np.argwhere(bad)[0])
                detail = (
                    f"entry {_index(index)} is {_fmt(got[index])} but the expected value is "
                    f"{_fmt(want[index])}"
                )
            if constant:
                what = "a matrix of numbers" if is_matrix else "a number"
                return _wrong(
                    f"{name} is {what}, but the expected expression depends on {used}: at "
                    f"{point}, {detail}.",
                    hint,
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


def _error_text(error: BaseException) -> str:
    """ ": message" of an exception (cut to a few lines' worth), or "" if it has none."""
    try:
        text = " ".join(str(error).split())
    except Exception:  # a student's exception with a broken __str__
        return ""
    if not text:
        return ""
    return ": " + (text if len(text) <= 300 else text[:299] + "…")


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
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    if answer is None:
        return _wrong(
            "No answer yet: the answer is None; pass your function itself (f, not f(q)).", hint
        )
    if not callable(answer):
        return _wrong(
            f"the answer must be a function, got {type(answer).__name__}: pass the function "
            "itself (f, not f(q)).",
            hint,
        )
    label = name or getattr(answer, "__name__", None) or "your function"
    label = label if isinstance(label, str) else _short(label)
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
            text = _error_text(error)
            return _wrong(f"{label}({shown}) raised {type(error).__name__}{text}.", hint)
        if isinstance(want, sp.Basic | sp.MatrixBase):
            result = check_expression(got, want, rtol=rtol, atol=atol, name="the result")
        else:
            result = check_numeric(got, want, rtol=rtol, atol=atol, name="the result")
        if not result:
            return _wrong(f"for {label}({shown}): {result.message}", hint)
    return _right(f"Correct: {label} agrees with the reference on {len(cases)} inputs.")


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
    >>> check(1.0, 1.0, rtol=-1e-6)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be a finite number ≥ 0, got -1e-06
    """
    tolerances: _Tolerances = {}  # the checks' own defaults for those not given
    if rtol is not None:
        tolerances["rtol"] = _tolerance(rtol, "rtol")
    if atol is not None:
        tolerances["atol"] = _tolerance(atol, "atol")
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
    flag = os.environ.get("ROBOLAB_SHOW_SOLUTIONS", "").strip().lower()
    return flag in {"1", "true", "yes", "on"}


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


def _render_value(value: Expected) -> str:
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
    value: Expected
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
        solve: Callable[..., Expected],
        *,
        generate: Callable[[np.random.Generator], Mapping[str, object]] | None = None,
        seed: int = 0,
        hint: str | None = None,
        explanation: str = "",
        rtol: float | None = None,
        atol: float | None = None,
        inputs: Iterable[object] | None = None,
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
        self.rtol = None if rtol is None else _tolerance(rtol, "rtol")
        self.atol = None if atol is None else _tolerance(atol, "atol")
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

    def check(self, answer: object) -> CheckResult:
        """Check an answer with :func:`check`; the result displays as a coloured message.

        Never raises because of the answer: text, ``None``, a truth value, a
        wrong type or shape give a wrong-answer result that says what was
        expected, followed by the exercise's hint.

        Examples
        --------
        >>> exercise = Exercise("Half a turn", "How many radians?", solve=lambda: np.pi)
        >>> print(exercise.check("3.14159"))
        ✗ answer is the text '3.14159', not a number: remove the quotes.
        """
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
