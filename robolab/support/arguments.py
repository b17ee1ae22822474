"""Input checks shared by every module: clear errors instead of silent NaN.

Every public function of robolab validates what the user typed before it
computes anything. The helpers here turn an argument into a float array of
the expected shape and raise an exception with a message that names the
argument, what was expected and what was given:

* :class:`TypeError` for something that is not a real number at all: text
  (``"12"``, even though ``float("12")`` works), booleans (``True`` is an
  ``int`` in Python, not a number here), complex numbers (NumPy would drop
  the imaginary part), ``None``, dicts and sets (NumPy would take a dict's
  keys), SymPy expressions that still have free symbols, and other objects;
* :class:`ValueError` for real numbers of the wrong shape, or NaN/infinity.

Real numbers are Python ``int`` and ``float``, NumPy integer and floating
scalars and arrays, :class:`fractions.Fraction`, :class:`decimal.Decimal`,
and SymPy numbers that are real (``sympy.pi / 2``, ``sympy.Float(0.5)``).

A shape is written as a tuple whose entries are an ``int`` (that exact size)
or ``None`` (any size). With ``batch=True`` any number of leading axes is
accepted in front of it, so ``(4, 4)`` with ``batch=True`` accepts a single
transform or a stack of shape ``(B, 4, 4)``.

Names (of robots, joints, links) are text a person reads: :func:`as_name` returns them in
Unicode normal form NFC, so that two spellings of the same name are the same name, and
refuses the characters that cannot be seen or that act on a terminal or on the text
around them (:data:`REFUSED_NAME_CATEGORIES`); :func:`repeated_name` finds a name used
twice. Every door that takes names asks them.

The physical checks of a link's inertia, which every door through which
inertial data enters applies alike, are in :mod:`robolab.spatial.inertia`.

A slip in what a student typed (a DH row without its ``'p'``, a target out of reach) is
shown by IPython in one line, the message, with the line of the student's cell that led to
it, instead of a traceback through robolab: robolab's own exceptions of a slip
(``OutOfReachError``) define IPython's ``_render_traceback_`` hook as
:func:`short_traceback_lines`, :func:`short_traceback` gives it to one raised ``TypeError``
or ``ValueError`` (whose type stays what it was), and :func:`with_short_tracebacks` to those
a function raises. Outside IPython (a script,
pytest) the traceback is Python's usual one.
"""

from __future__ import annotations

import functools
import math
import numbers
import sys
import traceback
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..conventions import ROTATION_TOLERANCE

# ROTATION_TOLERANCE (is a matrix a rotation, a transform?) and INERTIA_TOLERANCE (the
# physical checks of a link's inertia) are robolab.conventions', importable here as before.

_REAL_KINDS = frozenset("fiu")
_PLAIN_NUMBERS = frozenset({float, int})
_PLAIN_ROWS = frozenset({list, tuple})
_DTYPE_WORDS = {
    "b": "a boolean array",
    "c": "a complex array",
    "U": "an array of text",
    "S": "an array of bytes",
    "V": "an array of records",
    "M": "an array of dates",
    "m": "an array of time differences",
}


# --- slips shown in one line --------------------------------------------------------------------

_PACKAGE = Path(__file__).resolve().parents[1]  # robolab/
_E = TypeVar("_E", bound=BaseException)
_F = TypeVar("_F", bound=Callable[..., Any])


def _where_in_the_students_code(error: BaseException) -> str:
    """The last line outside robolab that the error passed through: ``Cell In[5], line 3``."""
    place = ""
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).resolve().is_relative_to(_PACKAGE):
            break  # robolab's own frames, and what they call, are not the student's
        name = frame.filename
        try:
            from IPython import get_ipython  # lazy: only inside IPython is there a cell name

            shell = get_ipython()
            if shell is not None and hasattr(shell.compile, "format_code_name"):
                kind, cell = shell.compile.format_code_name(frame.filename) or ("", "")
                name = f"{kind} {cell}".strip() or name
        except ImportError:  # pragma: no cover - IPython comes with ipywidgets
            pass
        code = frame.line or ""
        code = code if len(code) <= 80 else code[:77] + "..."
        place = f"{name}, line {frame.lineno}" + (f": {code}" if code else "")
    return place


def short_traceback_lines(error: BaseException) -> list[str]:
    """What IPython shows for a slip: the error in one line, and where in the student's code.

    Examples
    --------
    >>> lines = short_traceback_lines(ValueError("row 3: joint 3 is revolute"))
    >>> len(lines), lines[0].endswith("ValueError\x1b[0m: row 3: joint 3 is revolute")
    (1, True)
    """
    lines = [f"\x1b[0;31m{type(error).__name__}\x1b[0m: {error}"]
    place = _where_in_the_students_code(error)
    return [*lines, f"(from {place})"] if place else lines


def short_traceback(error: _E) -> _E:
    """Mark one exception of a slip to be shown in one line by IPython; returns it, to raise.

    Examples
    --------
    >>> error = short_traceback(ValueError("q must have 6 entries, got 5"))
    >>> type(error).__name__, error._render_traceback_()[0].endswith("got 5")
    ('ValueError', True)
    """
    error._render_traceback_ = functools.partial(short_traceback_lines, error)  # type: ignore[attr-defined]
    return error


def with_short_tracebacks(function: _F) -> _F:
    """Decorate a function students call: its ``TypeError`` and ``ValueError`` show short."""

    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except (TypeError, ValueError) as error:
            short_traceback(error)
            raise

    return wrapped  # type: ignore[return-value]


def _format_shape(shape: Sequence[int | None], batch: bool) -> str:
    dims = ", ".join("n" if d is None else str(d) for d in shape)
    if batch:
        return f"(..., {dims})"
    return f"({dims},)" if len(shape) == 1 else f"({dims})"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _sympy() -> Any:
    """The sympy module if it has been imported (robolab never imports it just to check)."""
    return sys.modules.get("sympy")


def _sympy_problem(value: Any, sp: Any) -> tuple[str, str] | None:
    if not isinstance(value, sp.Expr):
        return f"the SymPy object {_short(value)}", ""
    free = sorted(str(s) for s in value.free_symbols)
    if free:
        return (
            f"the SymPy expression {_short(value)} with free symbols {', '.join(free)}",
            "; a number was expected: substitute numbers for the symbols first "
            "(expr.subs({symbol: number}))",
        )
    if value.has(sp.zoo) or (value.is_real is False and value.is_infinite is not True):
        return f"the complex SymPy number {_short(value)}", ""
    try:
        number = complex(value)
    except (TypeError, ValueError):
        return f"the SymPy expression {_short(value)}, which is not a number", ""
    if number.imag != 0 and not math.isnan(number.imag):
        return f"the complex SymPy number {_short(value)}", ""
    return None


def scalar_problem(value: object) -> tuple[str, str] | None:
    """Why ``value`` is not one real number: ``(what it is, hint)``, or None if it is one.

    Real numbers: ``int``, ``float``, NumPy integer and floating scalars,
    ``Fraction``, ``Decimal``, and real SymPy numbers without free symbols.
    ``bool`` is refused although it is an ``int`` subclass.

    Examples
    --------
    >>> scalar_problem(0.5) is None, scalar_problem(True)[0], scalar_problem("12")[0]
    (True, 'the boolean True', "the text '12'")
    """
    if isinstance(value, bool | np.bool_):
        return f"the boolean {bool(value)!r}", " (booleans are not numbers here; write 0 or 1)"
    if isinstance(value, numbers.Real | Decimal):
        return None
    if isinstance(value, str):
        return f"the text {_short(value)}", " (text is never read as a number; write the number)"
    if isinstance(value, bytes | bytearray):
        return f"the bytes {_short(value)}", ""
    if value is None:
        return "None", ""
    if isinstance(value, numbers.Complex):
        return f"the complex number {_short(value)}", " (only real numbers are accepted)"
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return scalar_problem(value[()])
        return f"an array of shape {value.shape}", ""
    if isinstance(value, Mapping):
        return f"a {type(value).__name__} {_short(value)}", ""
    if isinstance(value, AbstractSet):
        return f"a {type(value).__name__} {_short(value)}", ""
    sp = _sympy()
    if sp is not None and isinstance(value, sp.Basic):
        return _sympy_problem(value, sp)
    return f"{type(value).__name__} {_short(value)}", ""


def _first_problem(value: Any, index: tuple[int, ...]) -> tuple[str, str, tuple[int, ...]] | None:
    """The first entry of a (nested) value that is not a real number, with its index."""
    kind = type(value)
    if kind is float or kind is int:
        return None
    if isinstance(value, np.ndarray):
        dtype_kind = value.dtype.kind
        if dtype_kind in _REAL_KINDS:
            return None
        if dtype_kind == "O":
            for position in np.ndindex(value.shape):
                found = _first_problem(value[position], index + position)
                if found:
                    return found
            return None
        words = _DTYPE_WORDS.get(dtype_kind, "an array")
        hint = " (booleans are not numbers here)" if dtype_kind == "b" else ""
        return f"{words} (dtype {value.dtype})", hint, index
    if isinstance(value, list | tuple):
        kinds = set(map(type, value))
        if kinds <= _PLAIN_NUMBERS:  # the common case, at C speed
            return None
        if kinds <= _PLAIN_ROWS and all(set(map(type, row)) <= _PLAIN_NUMBERS for row in value):
            return None
        for position, item in enumerate(value):
            item_kind = type(item)
            if item_kind is float or item_kind is int:
                continue
            found = _first_problem(item, (*index, position))
            if found:
                return found
        return None
    sp = _sympy()
    if sp is not None and isinstance(value, sp.MatrixBase):
        return _first_problem(value.tolist(), index)
    if isinstance(value, range):
        return None
    problem = scalar_problem(value)
    if problem is None:
        return None
    if not isinstance(
        value, str | bytes | bytearray | Mapping | AbstractSet | np.generic | numbers.Number
    ) and not (sp is not None and isinstance(value, sp.Basic)):
        if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
            return _first_problem(np.asarray(value), index)  # pandas, xarray, memoryview, ...
        if isinstance(value, Sequence):
            return _first_problem(list(value), index)
    return (*problem, index)


@with_short_tracebacks
def require_real_entries(value: object, name: str) -> None:
    """Raise ``TypeError`` unless ``value`` is a real number or a nested sequence/array of them.

    Walks nested lists before NumPy converts anything (``np.asarray(["12"],
    float)`` would give 12.0, a dict would give its keys, ``True`` 1.0 and a
    complex number its real part). Shapes are not checked here.

    Examples
    --------
    >>> require_real_entries([0.5, [1, 2]], "q")
    >>> require_real_entries([0.5, 1 + 2j], "q")
    Traceback (most recent call last):
    ...
    TypeError: q must be numeric, got the complex number (1+2j) at index (1,) (only real numbers
    are accepted); expected a real number or an array of real numbers
    """
    found = _first_problem(value, ())
    if found:
        what, hint, index = found
        where = f" at index {index}" if index else ""
        raise TypeError(
            f"{name} must be numeric, got {what}{where}{hint}; "
            "expected a real number or an array of real numbers"
        )


@with_short_tracebacks
def as_float_array(
    value: object,
    name: str,
    shape: Sequence[int | None] | None = None,
    *,
    batch: bool = False,
    finite: bool = True,
) -> np.ndarray:
    """Return ``value`` as a finite float array, or raise a helpful ``TypeError``/``ValueError``.

    Parameters
    ----------
    value : array_like
        What the user passed: a real number, a (nested) sequence of real
        numbers or a real numeric array (see the module documentation).
    name : str
        The argument's name as the user knows it, used in messages.
    shape : tuple of (int or None), optional
        Expected shape; ``None`` entries accept any size.
    batch : bool
        Accept any number of leading (batch) axes in front of ``shape``.
    finite : bool
        Refuse NaN and infinity (default). With False the caller checks them.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        For text, booleans, complex numbers, None, dicts, sets, SymPy
        expressions with free symbols and other objects (the message names
        the first bad entry and its index).
    ValueError
        For the wrong shape, ragged nested lists and non-finite entries.

    Examples
    --------
    >>> as_float_array([1, 2, 3], "omega", (3,))
    array([1., 2., 3.])
    >>> as_float_array([1, 2], "omega", (3,))
    Traceback (most recent call last):
    ...
    ValueError: omega must have shape (3,), got shape (2,)
    >>> as_float_array([0.5, True], "q")
    Traceback (most recent call last):
    ...
    TypeError: q must be numeric, got the boolean True at index (1,) (booleans are not numbers
    here; write 0 or 1); expected a real number or an array of real numbers
    """
    if type(value) is np.ndarray and value.dtype.kind in _REAL_KINDS:
        array = np.asarray(value, dtype=float)
    else:
        require_real_entries(value, name)
        try:
            array = np.asarray(value, dtype=float)
        except OverflowError as error:
            raise ValueError(
                f"{name} holds a number too large for a float (over 1.8e308)"
            ) from error
        except (TypeError, ValueError) as error:
            raise ValueError(
                f"{name} must be a number or a rectangular array of numbers (nested lists of "
                f"equal lengths), got {_describe(value)}"
            ) from error
    if shape is not None:
        expected = tuple(shape)
        rank_ok = array.ndim >= len(expected) if batch else array.ndim == len(expected)
        trailing = array.shape[array.ndim - len(expected) :] if rank_ok else ()
        ok = rank_ok and all(
            want is None or got == want for got, want in zip(trailing, expected, strict=True)
        )
        if not ok:
            raise ValueError(
                f"{name} must have shape {_format_shape(expected, batch)}, got shape {array.shape}"
            )
    if finite:
        require_finite(array, name)
    return array


@with_short_tracebacks
def as_real_number(value: object, name: str, *, positive: bool = False) -> float:
    """Return one real number as a float: ``TypeError`` if it is not one, ``ValueError`` if
    it is not finite (or not positive with ``positive=True``).

    Examples
    --------
    >>> as_real_number(2, "zoom", positive=True)
    2.0
    >>> as_real_number(True, "zoom")
    Traceback (most recent call last):
    ...
    TypeError: zoom must be a real number, got the boolean True (booleans are not numbers here;
    write 0 or 1)
    >>> as_real_number(0, "zoom", positive=True)
    Traceback (most recent call last):
    ...
    ValueError: zoom must be a positive number, got 0
    """
    kind = type(value)
    if kind is not float and kind is not int:
        problem = scalar_problem(value)
        if problem:
            raise TypeError(f"{name} must be a real number, got {problem[0]}{problem[1]}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {_short(value)}")
    if positive and not number > 0:
        raise ValueError(f"{name} must be a positive number, got {_short(value)}")
    return number


@with_short_tracebacks
def require_int(value: object, name: str) -> int:
    """Return ``value`` as an ``int``; ``TypeError`` for anything that is not a whole number
    type (``bool`` and ``2.0`` included: an index is never a float or a boolean).

    Examples
    --------
    >>> require_int(3, "index")
    3
    >>> require_int(1.0, "index")
    Traceback (most recent call last):
    ...
    TypeError: index must be an int, got float 1.0
    >>> require_int(True, "index")
    Traceback (most recent call last):
    ...
    TypeError: index must be an int, got the boolean True
    """
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be an int, got the boolean {bool(value)!r}")
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {_describe(value)}")
    return int(value)


@with_short_tracebacks
def require_bool(value: object, name: str) -> bool:
    """Return ``value`` as a ``bool``; ``TypeError`` unless it is ``True`` or ``False``.

    Examples
    --------
    >>> require_bool(1, "shadow")
    Traceback (most recent call last):
    ...
    TypeError: shadow must be True or False, got int 1
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {_describe(value)}")
    return bool(value)


@with_short_tracebacks
def require_str(value: object, name: str, *, optional: bool = False) -> str | None:
    """Return ``value`` if it is a ``str`` (or None with ``optional=True``), else ``TypeError``.

    Examples
    --------
    >>> require_str(None, "title", optional=True) is None
    True
    >>> require_str(3, "title", optional=True)
    Traceback (most recent call last):
    ...
    TypeError: title must be a str or None, got int 3
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        expected = "a str or None" if optional else "a str"
        raise TypeError(f"{name} must be {expected}, got {_describe(value)}")
    return value


@with_short_tracebacks
def as_figure_size(value: object, name: str = "figsize") -> tuple[float, float]:
    """Return ``(width, height)`` in inches: two positive real numbers.

    Examples
    --------
    >>> as_figure_size((4, 3.5))
    (4.0, 3.5)
    >>> as_figure_size("big")
    Traceback (most recent call last):
    ...
    TypeError: figsize must be a pair (width, height) of positive numbers in inches, got str 'big'
    """
    if isinstance(value, str | bytes | Mapping | AbstractSet) or not isinstance(
        value, Sequence | np.ndarray
    ):
        raise TypeError(
            f"{name} must be a pair (width, height) of positive numbers in inches, "
            f"got {_describe(value)}"
        )
    items = list(value)
    if len(items) != 2:
        raise ValueError(
            f"{name} must be a pair (width, height) of positive numbers in inches, "
            f"got {len(items)} values"
        )
    width = as_real_number(items[0], f"{name}[0] (width)", positive=True)
    height = as_real_number(items[1], f"{name}[1] (height)", positive=True)
    return width, height


# --------------------------------------------------------------------------- arrays


@with_short_tracebacks
def require_finite(array: np.ndarray, name: str) -> None:
    """Raise ``ValueError`` if ``array`` holds NaN or infinity, naming the first bad entry.

    Examples
    --------
    >>> require_finite(np.array([0.0, np.nan]), "q")
    Traceback (most recent call last):
    ...
    ValueError: q contains a non-finite value (nan) at index (1,); expected finite numbers
    """
    finite = np.isfinite(array)
    if not finite.all():
        index = tuple(int(i) for i in np.argwhere(~finite)[0])
        raise ValueError(
            f"{name} contains a non-finite value ({array[index]}) at index {index}; "
            "expected finite numbers"
        )


@with_short_tracebacks
def require_rotation(R: np.ndarray, name: str, tolerance: float = ROTATION_TOLERANCE) -> None:
    """Raise ``ValueError`` unless every 3×3 matrix in ``R`` is a proper rotation.

    Examples
    --------
    >>> require_rotation(np.diag([1.0, 1.0, -1.0]), "R")
    Traceback (most recent call last):
    ...
    ValueError: R must be a rotation matrix (orthonormal with det +1), but det(R) = -1
    """
    gram_error = np.abs(np.swapaxes(R, -1, -2) @ R - np.eye(3)).max(axis=(-2, -1))
    det = np.linalg.det(R)
    bad = (gram_error > tolerance) | (np.abs(det - 1.0) > tolerance)
    if np.any(bad):
        where = ""
        if R.ndim > 2:
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            where = f" at batch index {index}"
            gram_error, det = gram_error[index], det[index]
        if abs(float(det) + 1.0) < 1e-3 and gram_error < 1e-3:
            problem = f"det({name}) = -1"
        else:
            problem = f"max |{name}ᵀ{name} - I| = {float(gram_error):.3g}, det = {float(det):.6g}"
        raise ValueError(
            f"{name} must be a rotation matrix (orthonormal with det +1), but {problem}{where}"
        )


@with_short_tracebacks
def require_transform(T: np.ndarray, name: str, tolerance: float = ROTATION_TOLERANCE) -> None:
    """Raise ``ValueError`` unless every 4×4 matrix in ``T`` is a rigid-body transform.

    Examples
    --------
    >>> T = np.eye(4); T[3, 2] = 0.5
    >>> require_transform(T, "T")
    Traceback (most recent call last):
    ...
    ValueError: T must be a homogeneous transform with bottom row [0, 0, 0, 1], got [0, 0, 0.5, 1]
    """
    bottom = T[..., 3, :]
    wrong = np.abs(bottom - np.array([0.0, 0.0, 0.0, 1.0])).max(axis=-1) > tolerance
    if np.any(wrong):
        row = bottom[tuple(np.argwhere(wrong)[0])] if T.ndim > 2 else bottom
        raise ValueError(
            f"{name} must be a homogeneous transform with bottom row [0, 0, 0, 1], "
            f"got [{', '.join(f'{float(x):g}' for x in row)}]"
        )
    require_rotation(T[..., :3, :3], f"the rotation part of {name}", tolerance)


@with_short_tracebacks
def as_transform(value: object, name: str, *, batch: bool = False) -> np.ndarray:
    """Return ``value`` as a float array of 4×4 rigid-body transforms, or raise ``ValueError``.

    :func:`as_float_array` with shape (4, 4) (and ``batch``) followed by
    :func:`require_transform` (so text, booleans and the like are a ``TypeError``).

    Examples
    --------
    >>> as_transform(np.eye(4), "T_sb").shape
    (4, 4)
    >>> as_transform(np.eye(3), "T_sb")
    Traceback (most recent call last):
    ...
    ValueError: T_sb must have shape (4, 4), got shape (3, 3)
    """
    T = as_float_array(value, name, (4, 4), batch=batch)
    require_transform(T, name)
    return T


@with_short_tracebacks
def require_choice(value: object, name: str, choices: Sequence[object]) -> None:
    """Raise unless ``value`` is one of ``choices``: ``TypeError`` when the choices are text
    (and None) and ``value`` is neither, ``ValueError`` for another text.

    Examples
    --------
    >>> require_choice("dashed", "style", ("-", "--"))
    Traceback (most recent call last):
    ...
    ValueError: style must be one of ['-', '--'], got 'dashed'
    >>> require_choice(True, "style", ("-", "--"))
    Traceback (most recent call last):
    ...
    TypeError: style must be one of ['-', '--'] (a str), got bool True
    """
    textual = all(choice is None or isinstance(choice, str) for choice in choices)
    if textual and not isinstance(value, str) and not (value is None and None in choices):
        kind = "a str or None" if None in choices else "a str"
        raise TypeError(f"{name} must be one of {list(choices)} ({kind}), got {_describe(value)}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


def _describe(value: object) -> str:
    return f"{type(value).__name__} {_short(value)}"


# --------------------------------------------------------------------------- names

#: The Unicode categories no name may hold, each with what it is: control characters
#: (``Cc``: NUL, the ESC of ANSI escape sequences, newlines, tabs), format characters
#: (``Cf``: zero-width spaces and joiners, bidirectional overrides and isolates, the
#: byte-order mark, the soft hyphen), surrogates (``Cs``: half of a character, not text)
#: and the line and paragraph separators (``Zl``, ``Zp``).
REFUSED_NAME_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a lone surrogate, half of a character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}

#: Longest name (of a robot, a joint, a link), in characters: a name is read, not stored
#: text; a longer one is refused rather than copied into every message and view.
MAX_NAME_LENGTH = 1000

#: What a name must be, in the words of every door's error message.
NAME_EXPECTED = (
    f"a name of at most {MAX_NAME_LENGTH} characters without control or invisible "
    f"characters (Unicode categories {', '.join(REFUSED_NAME_CATEGORIES)})"
)


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


def hidden_character_problem(text: str) -> str | None:
    """The first control or invisible character of ``text``, described; None if there is none.

    The description gives the text (escaped), the character as ``U+XXXX`` with its Unicode
    name and what it is (:data:`REFUSED_NAME_CATEGORIES`), and where it is. For names
    (:func:`name_problem`) and for any text that is shown to a reader as it is (a model
    file's description and citation).

    Examples
    --------
    >>> hidden_character_problem("elbow") is None
    True
    >>> print(hidden_character_problem("elbow\\u200b"))
    the text 'elbow\\u200b', which holds U+200B ZERO WIDTH SPACE (an invisible format character) \
at index 5
    """
    if text.isprintable():  # the common case, at C speed: no Cc, Cf, Cs, Zl, Zp
        return None
    for index, character in enumerate(text):
        kind = REFUSED_NAME_CATEGORIES.get(unicodedata.category(character))
        if kind is not None:
            label = unicodedata.name(character, "")
            return (
                f"the text {_shown(text)}, which holds U+{ord(character):04X}"
                f"{' ' + label if label else ''} ({kind}) at index {index}"
            )
    return None  # only spaces other than U+0020, private-use or unassigned characters


def name_problem(text: str) -> str | None:
    """What keeps ``text`` from being a name, described (:data:`NAME_EXPECTED`); or None.

    A name longer than :data:`MAX_NAME_LENGTH` characters, or holding a control or
    invisible character (:func:`hidden_character_problem`).

    Examples
    --------
    >>> print(name_problem("x" * 5000))
    the text 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... of 5000 characters
    """
    if len(text) > MAX_NAME_LENGTH:
        return f"the text {_shown(text)} of {len(text)} characters"
    return hidden_character_problem(text)


@with_short_tracebacks
def as_name(value: object, name: str) -> str:
    """Return ``value``, a name, in Unicode normal form NFC; refuse what no name may hold.

    ``TypeError`` unless ``value`` is a ``str``; ``ValueError`` for a name longer than
    :data:`MAX_NAME_LENGTH` or one holding a control or invisible character, named as
    ``U+XXXX`` (:func:`name_problem`). The same name written with a precomposed letter
    or with a combining accent comes back the same.

    Examples
    --------
    >>> as_name("Gelenk\\u0301", "joint_names[0]") == as_name("Gelenḱ", "joint_names[0]")
    True
    >>> as_name("wrist\\x1b[31m", "joint_names[2]")
    Traceback (most recent call last):
    ...
    ValueError: joint_names[2] must be a name of at most 1000 characters without control or \
invisible characters (Unicode categories Cc, Cf, Cs, Zl, Zp), got the text 'wrist\\x1b[31m', \
which holds U+001B (a control character) at index 5
    >>> as_name(3, "name")
    Traceback (most recent call last):
    ...
    TypeError: name must be a str, got int 3
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {_describe(value)}")
    problem = name_problem(value)
    if problem is not None:
        raise ValueError(f"{name} must be {NAME_EXPECTED}, got {problem}")
    return unicodedata.normalize("NFC", value)


def repeated_name(names: Sequence[str]) -> tuple[int, int] | None:
    """``(first, second)``: the indices of the first name that ``names`` holds twice, or None.

    Compare names once normalised (:func:`as_name`): in one linear pass.

    Examples
    --------
    >>> repeated_name(["shoulder", "elbow", "wrist", "elbow"])
    (1, 3)
    >>> repeated_name(["shoulder", "elbow"]) is None
    True
    """
    seen: dict[str, int] = {}
    for index, text in enumerate(names):
        if text in seen:
            return seen[text], index
        seen[text] = index
    return None
