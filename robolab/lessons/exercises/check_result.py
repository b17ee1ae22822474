"""A student's answer as the checks see it: the verdict, and numbers read from anything typed.

Every check of :mod:`robolab.lessons` returns a :class:`CheckResult`. The helpers here describe
any value in a few words and read numbers out of whatever a student typed (text, nested lists,
SymPy numbers, ragged rows), giving back a message instead of raising. They are shared by the
numeric, symbolic and function checks beside this module. The notebooks import
:class:`CheckResult` from :mod:`robolab.exercises` (the same class).
"""

from __future__ import annotations

import html
import numbers
import reprlib
import signal
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, SupportsFloat, SupportsIndex, TypeVar

import numpy as np
import sympy as sp

from ...dh.derivation import to_text

__all__ = ["CheckResult", "NoAnswerYet"]

T = TypeVar("T")

# --- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one answer: truthy when correct, with a message either way.

    In a notebook it shows as a coloured message (HTML, Markdown); its text
    form (``str``, and the ``text/plain`` output that nbval compares in saved
    notebooks) is the same message after a ✓ or ✗.

    A wrong answer's ``message`` is the whole diagnosis, naming the expected
    value where that helps. ``first_try`` and ``second_try`` say less: what an
    :class:`~robolab.lessons.exercises.exercise.Exercise` tells a student on the first
    wrong try (the slip or what is off, never the expected value) and on the
    second (which entries are off and which way); empty when the message
    itself reveals nothing. :meth:`feedback` picks one of them.

    Examples
    --------
    >>> result = CheckResult(False, "answer is 2, expected 1: it is off by 1.",
    ...                      first_try="answer is 2: not right yet.")
    >>> result.feedback(1), result.feedback(2)
    ('answer is 2: not right yet.', 'answer is 2: not right yet.')
    >>> result.feedback(1, show_expected=True)
    'answer is 2, expected 1: it is off by 1.'
    """

    correct: bool
    message: str
    first_try: str = ""
    second_try: str = ""

    def __bool__(self) -> bool:
        return self.correct

    def feedback(self, tries: int, *, show_expected: bool = False) -> str:
        """The message for the ``tries``-th wrong try (1, 2, ...), or the whole one if asked.

        Before ``show_expected``, the expected value is never named: the first
        try gets ``first_try``, later ones ``second_try`` (each falls back on
        the one before it, and on ``message`` when the result has neither).
        """
        if show_expected or self.correct or not self.first_try:
            return self.message
        if tries >= 2 and self.second_try:
            return self.second_try
        return self.first_try

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


class NoAnswerYet(CheckResult):
    """A checker's verdict on an answer not given yet: not a try, and told no hint.

    An exercise whose answer is a function the student fills in from a template returns it
    when the template still returns ``None``, as ``answer = None`` is "no answer yet".

    Examples
    --------
    >>> result = NoAnswerYet("No answer yet: your plan_motion returns None.")
    >>> bool(result), str(result)
    (False, '✗ No answer yet: your plan_motion returns None.')
    """

    def __init__(self, message: str = "No answer yet.") -> None:
        super().__init__(False, message)


def right_result(message: str) -> CheckResult:
    return CheckResult(True, message)


def with_hint(message: str, hint: str | None) -> str:
    return f"{message} Hint: {hint}" if hint and message else message


def wrong_result(
    message: str, hint: str | None, *, first_try: str = "", second_try: str = ""
) -> CheckResult:
    """A wrong answer; ``first_try``/``second_try`` are the messages that name no expected value."""
    return CheckResult(
        False,
        with_hint(message, hint),
        with_hint(first_try, hint),
        with_hint(second_try, hint),
    )


def reworded(result: CheckResult, prefix: str, hint: str | None) -> CheckResult:
    """A wrong result's messages (all of them) after ``prefix`` and with ``hint``."""
    return wrong_result(
        prefix + result.message,
        hint,
        first_try=prefix + result.first_try if result.first_try else "",
        second_try=prefix + result.second_try if result.second_try else "",
    )


def fmt(value: Any) -> str:
    """A short rendering of a number for messages (complex only with an imaginary part)."""
    if np.iscomplexobj(value):
        value = complex(value)
        if not np.isfinite(value):
            return "nan" if np.isnan(value) else "inf"
        if value.imag != 0:
            return f"{value:.4g}"
        value = value.real
    return f"{float(value):.4g}"


def index_text(index: tuple[int | np.integer, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


def value_text(value: Any) -> str:
    """A value on one line, for a message: numbers to 4 digits, SymPy as in textbooks (q₁)."""
    symbolic = isinstance(value, sp.Basic | sp.MatrixBase) and bool(
        getattr(value, "free_symbols", None)
    )

    def entry(number: Any) -> str:
        if not symbolic:
            return fmt(number)
        text = atom_text(number)  # q₁, not q_1(t); a fraction on three lines: plain text
        return sp.sstr(number) if "\n" in text else text

    def nested(entries: Any) -> str:
        if isinstance(entries, list):
            return "[" + ", ".join(nested(e) for e in entries) + "]"
        return entry(entries)

    if symbolic:
        return nested(value.tolist() if isinstance(value, sp.MatrixBase) else value)
    numbers = np.asarray(value)
    numbers = numbers.astype(complex if numbers.dtype.kind == "c" else float)
    return nested(numbers.tolist())


# --- numbers, vectors, matrices ---------------------------------------------------------------


#: ``repr`` of lists, tuples, sets and dicts that stops after a few entries and levels (a
#: list of millions, or one that contains itself, is shown at once).
_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel = 4
_SHORT_REPR.maxlist = _SHORT_REPR.maxtuple = _SHORT_REPR.maxset = 12
_SHORT_REPR.maxfrozenset = _SHORT_REPR.maxdict = 12
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 200


def _repr(value: Any) -> str:
    if type(value) in (list, tuple, set, frozenset, dict):
        return _SHORT_REPR.repr(value)
    return repr(value)


def short_text(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, with an ellipsis.

    A ``__repr__`` that raises, or takes more than a second, gives ``<type object>``.
    """
    try:
        finished, text = run_within(1.0, _repr, value)
    except Exception:  # a student's object may have a broken __repr__
        finished, text = False, None
    if not finished or not isinstance(text, str):
        text = f"<{type(value).__name__} object>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: The largest SymPy object a message prints (more would take seconds).
_PRINTED_NODES = 2_000


def _sympy_text(value: Any, limit: int = 40) -> str:
    """A SymPy object on one line, as in textbooks (q₁, not q_1(t)), cut to ``limit``.

    One too large to print quickly is named by its size instead.
    """
    try:
        nodes = expression_size(value)[0] if isinstance(value, sp.Basic | sp.MatrixBase) else 0
        if nodes > _PRINTED_NODES:
            return f"{nodes:,} parts"
        shown = value.tolist() if isinstance(value, sp.MatrixBase | sp.NDimArray) else value
        text = atom_text(shown) if isinstance(shown, sp.Basic) else str(shown)
        if "\n" in text:
            text = str(shown)
    except Exception:  # printing must not fail the check
        return short_text(value, limit)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_value(value: Any) -> str:
    """What an answer is, in words: "a dict ({'a': 1})", "the function sin", "a generator"."""
    try:
        return _described(value)
    except Exception:  # a student's object may raise from anything it is asked
        kind = type(value).__name__
        return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def _described(value: Any) -> str:
    if isinstance(value, str | bytes):
        return f"the text {short_text(value)}"
    if callable(value) and not isinstance(value, sp.Basic | sp.MatrixBase):
        return f"the function {getattr(value, '__name__', short_text(value))}"
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
        return f"{article} {kind} ({short_text(value)})"
    if isinstance(value, Iterable):  # a generator, map, dict view...
        return f"{article} {kind}"
    return f"{article} {kind} ({short_text(value)})"


def _is_number_text(text: str | bytes) -> bool:
    """Text that Python would read as a finite number: '1.57', ' -2e3 '."""
    try:
        return bool(np.isfinite(complex(text.decode() if isinstance(text, bytes) else text)))
    except (ValueError, UnicodeDecodeError):
        return False


class _NotNumbers(Exception):
    """Why an answer is not a number or an array of numbers: the sentence for the student."""


#: The most entries an answer given as lists (or a SymPy or object array) may have by default,
#: and how deep its lists may nest: reading each entry is Python work, so a list of millions
#: would keep a student waiting, and a list that contains itself would never end.
MAX_ENTRIES = 100_000
MAX_NESTING = 32


def entry_text(name: str, path: tuple[int, ...]) -> str:
    return name + index_text(path) if path else name


def _text_problem(text: str | bytes, name: str, path: tuple[int, ...]) -> str:
    where = entry_text(name, path)
    if _is_number_text(text):
        return f"{where} is the text {short_text(text)}, not a number: remove the quotes."
    if path:
        return f"{where} must be a number, got the text {short_text(text)}."
    return (
        f"{name} must be a number or an array of numbers, got the text {short_text(text)}; write "
        "it without quotes, as Python (np.pi / 2 for π/2)."
    )


def has_attribute(value: Any, attribute: str) -> bool:
    """``hasattr`` that is False, not an exception, for an object whose ``__getattr__`` raises."""
    try:
        return hasattr(value, attribute)
    except Exception:  # a student's object may raise anything from __getattr__
        return False


class _NumberReader:
    """Reads an answer's numbers entry by entry, counting them (at most ``limit``)."""

    def __init__(self, name: str, bools: bool, limit: int) -> None:
        self.name, self.bools, self.limit = name, bools, limit
        self.entries = 0

    def read(self, value: Any, path: tuple[int, ...]) -> tuple[Any, tuple[int, ...]]:
        """(float, complex or nested list of them, shape) of an answer; raises _NotNumbers."""
        name = self.name
        where = entry_text(name, path)
        if len(path) > MAX_NESTING:
            raise _NotNumbers(
                f"{name} is nested more than {MAX_NESTING} lists deep (does a list contain "
                "itself?); an answer is a number or an array of numbers."
            )
        if isinstance(value, bool | np.bool_):
            if self.bools:
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
            return self.array(value, path)
        if isinstance(value, sp.MatrixBase | sp.NDimArray):
            self.count(len(value), path)
            return self.sequence(value.tolist(), path)
        if isinstance(value, sp.MatrixExpr):
            raise _NotNumbers(
                f"{where} is {describe_value(value)}, a SymPy matrix expression, not numbers: "
                "write its entries (a list, np.array or sp.Matrix of numbers)."
            )
        if isinstance(value, sp.Basic):
            return self.sympy_number(value, path), ()
        if isinstance(value, numbers.Number):
            return self.number(value, path), ()
        if isinstance(value, list | tuple | range):
            self.count(len(value), path)
            return self.sequence(list(value), path)
        if has_attribute(value, "__array__") and not isinstance(value, Mapping):
            try:
                array = np.asarray(value)
            except Exception:  # an array-like object that cannot be converted
                array = None
            if isinstance(array, np.ndarray) and array.dtype != object:
                return self.array(array, path)
        for convert in (float, complex):
            if has_attribute(value, f"__{convert.__name__}__") and not callable(value):
                try:
                    number = convert(value)
                except Exception:  # a broken conversion: say what it is instead
                    break
                if isinstance(number, float | complex):  # __float__ may return anything
                    return number, ()
                break
        if path:
            raise _NotNumbers(f"{where} must be a number, got {describe_value(value)}.")
        advice = ""
        if callable(value):
            advice = " (call it to get its value)"
        elif isinstance(value, Iterable) and not isinstance(value, Mapping | set | frozenset):
            advice = " (make it a list or an array first: list(...) or np.array(...))"
        raise _NotNumbers(
            f"{name} must be a number or an array of numbers, got {describe_value(value)}{advice}."
        )

    def count(self, entries: int, path: tuple[int, ...]) -> None:
        """Count ``entries`` more; too many in all is the answer's problem, said in words."""
        self.entries += entries
        if self.entries > self.limit:
            raise _NotNumbers(
                f"{entry_text(self.name, path)} has more than {self.limit:,} entries in all, "
                "far more than the expected answer: check what you pass."
            )

    def number(self, value: numbers.Number, path: tuple[int, ...]) -> float | complex:
        """A Python, NumPy or other ``numbers.Number`` as a float or complex."""
        where = entry_text(self.name, path)
        try:
            if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
                return complex(value)
            if isinstance(value, SupportsFloat | SupportsIndex):  # what float() takes (Decimal)
                return float(value)
        except OverflowError:
            raise _NotNumbers(
                f"{where} is {short_text(value)}, too large to be a floating-point number."
            ) from None
        except (TypeError, ValueError):  # a conversion that fails: no real or complex number
            pass
        raise _NotNumbers(
            f"{where} must be a number robolab can compute with, got {describe_value(value)}."
        )

    def sympy_number(self, value: sp.Basic, path: tuple[int, ...]) -> float | complex:
        """A SymPy object that should be a number: its value, or why it is not one."""
        name = self.name
        where = entry_text(name, path)
        if isinstance(value, sp.logic.boolalg.BooleanAtom):
            raise _NotNumbers(f"{where} is the SymPy truth value {value}, not a number.")
        if isinstance(value, sp.Lambda):
            raise _NotNumbers(
                f"{where} is {describe_value(value)}, a SymPy function: call it on its "
                "arguments to get a number."
            )
        problem = expression_problem(value, where)
        if problem:
            raise _NotNumbers(problem)
        free = [atom_text(a) for a in sorted(unknowns(value), key=atom_order)]
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
            raise _NotNumbers(f"{where} must be a number, got {describe_value(value)}.")
        try:
            number = complex(sp.N(value))
        except (TypeError, ValueError):  # sp.N left something that is no number
            raise _NotNumbers(f"{where} must be a number, got {describe_value(value)}.") from None
        if not np.isfinite(number):
            if value.is_finite:
                raise _NotNumbers(
                    f"{where} is {short_text(value)}, too large to be a floating-point number."
                )
            raise _NotNumbers(f"{where} is {short_text(value)}, not a finite number.")
        return number if number.imag != 0 else number.real

    def array(self, array: np.ndarray, path: tuple[int, ...]) -> tuple[Any, tuple[int, ...]]:
        """A NumPy array's numbers (an object array entry by entry)."""
        name = self.name
        kind = array.dtype.kind
        if kind in "iuf":
            return array.astype(float), array.shape
        if kind == "c":
            return array.astype(complex), array.shape
        if kind == "b":
            if self.bools:
                return array.astype(float), array.shape
            raise _NotNumbers(
                f"{entry_text(name, path)} is an array of truth values (dtype bool), not of "
                "numbers; if you mean 1 and 0, convert it with .astype(float)."
            )
        if kind in "US":
            if array.size == 0:
                raise _NotNumbers(
                    f"{entry_text(name, path)} is an array of text (dtype {array.dtype}), not "
                    "numbers."
                )
            first = tuple(int(i) for i in np.unravel_index(0, array.shape))
            raise _NotNumbers(_text_problem(array.flat[0].item(), name, path + first))
        if kind == "O" and array.ndim:
            self.count(array.size, path)
            return self.sequence(array.tolist(), path)
        if kind == "O":
            return self.read(array.item(), path)
        raise _NotNumbers(
            f"{entry_text(name, path)} must be numbers, got an array of {array.dtype}."
        )

    def sequence(self, items: list[Any], path: tuple[int, ...]) -> tuple[Any, tuple[int, ...]]:
        """A list's entries, each read; rows of different lengths are named."""
        name = self.name
        values, shapes = [], []
        for i, item in enumerate(items):
            value, shape = self.read(item, (*path, i))
            values.append(value)
            shapes.append(shape)
        for i, shape in enumerate(shapes[1:], start=1):
            if shape != shapes[0]:
                where = entry_text(name, path)
                raise _NotNumbers(
                    f"{where} is ragged: {entry_text(name, (*path, 0))} has {_count(shapes[0])} "
                    f"but {entry_text(name, (*path, i))} has {_count(shape)}; every row needs the "
                    "same number of entries."
                )
        return values, (len(values), *(shapes[0] if shapes else ()))


def _count(shape: tuple[int, ...]) -> str:
    if not shape:
        return "a single number"
    if len(shape) == 1:
        return f"{shape[0]} entr{'y' if shape[0] == 1 else 'ies'}"
    return f"shape {shape}"


def as_numbers(
    answer: object, name: str, *, bools: bool = False, limit: int = MAX_ENTRIES
) -> np.ndarray | str:
    """The answer as a float (or complex) array, or a sentence saying why it is not one.

    Text, None, truth values (unless ``bools``), dicts, functions, SymPy
    objects with symbols and ragged lists are refused, also as entries of a
    list; SymPy numbers (``sp.pi / 2``) and matrices of them are numbers.
    Lists (and SymPy or object arrays) of more than ``limit`` entries in all,
    or nested more than :data:`MAX_NESTING` deep, are refused before they
    are read.
    """
    try:
        values, _ = _NumberReader(name, bools, limit).read(answer, ())
    except _NotNumbers as problem:
        return str(problem)
    except RecursionError:  # a SymPy object too deep for SymPy itself
        return f"{name} is nested too deeply to be read as numbers: {describe_value(answer)}."
    array = np.array(values)
    if array.dtype.kind not in "fc":  # an empty list: no entries to tell the type by
        array = array.astype(float)
    return array


def is_boolean(value: Any) -> bool:
    """True for True/False and arrays (or lists) of them: then answers may be truth values too."""
    if isinstance(value, bool | np.bool_):
        return True
    if isinstance(value, np.ndarray | list | tuple):
        try:
            return np.asarray(value).dtype.kind == "b"
        except Exception:  # ragged or odd: not a boolean array
            return False
    return False


def checked_tolerance(value: Any, name: str) -> float:
    """A tolerance given by the notebook's author: a finite number ≥ 0, else an error."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number ≥ 0, got {describe_value(value)}")
    tolerance = float(value)
    if not np.isfinite(tolerance) or tolerance < 0:
        raise ValueError(f"{name} must be a finite number ≥ 0, got {tolerance!r}")
    return tolerance


def could_not_compare(answer: Any, name: str, error: Exception) -> str:
    """The last resort for an answer no check foresaw: wrong, and say what it was."""
    return (
        f"{name} could not be compared with the expected value: it is {describe_value(answer)} "
        f"({type(error).__name__}: {error})."
    )


# --- what a SymPy answer holds -------------------------------------------------------------


def unknowns(expr: Any) -> set[Any]:
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


def atom_text(atom: Any) -> str:
    """A symbol, joint variable or its time derivative as in textbooks: l₁, q₁, q̇₁, q̈₁."""
    return to_text(atom)


def atom_order(atom: Any) -> tuple[int, str, int]:
    """Sort key: constants first (l₁, m₁), then each joint variable with its derivatives."""
    if isinstance(atom, sp.Derivative):
        order = sum(count for _, count in atom.variable_count)
        return (1, str(atom.expr), order)
    return (1, str(atom), 0) if not isinstance(atom, sp.Symbol) else (0, str(atom), 0)


# --- limits: how large an answer may be, how long checking it may take ------------------------

#: The largest SymPy answer checked (its nodes counted as a tree, repeats included) and how
#: deeply it may nest: beyond them SymPy's evaluation takes minutes or overflows Python's stack.
MAX_EXPRESSION_NODES = 200_000
MAX_EXPRESSION_DEPTH = 100

#: Seconds one answer may take to be read and compared (its ``__float__``, SymPy's evaluation).
ANSWER_SECONDS = 10.0
#: Seconds one call of a student's function may take (the default of ``check_function``).
CALL_SECONDS = 30.0
#: Seconds SymPy may spend simplifying a difference to prove it is zero (then sampling decides).
SIMPLIFY_SECONDS = 3.0


def expression_size(expr: Any) -> tuple[int, int]:
    """(nodes, depth) of a SymPy expression or matrix seen as a tree, repeated parts counted.

    The walk visits each distinct part once, without recursion, so an expression built by
    squaring itself forty times (2⁴⁰ nodes as a tree) is measured at once; it stops after
    :data:`MAX_EXPRESSION_NODES` distinct parts (the size is then at least that).

    Examples
    --------
    >>> import sympy as sp
    >>> x = sp.Symbol("x")
    >>> expression_size(sp.sin(x) + 1)
    (4, 3)
    >>> e = x
    >>> for _ in range(40):
    ...     e = e**2 + e
    >>> expression_size(e)[0] > 2**40
    True
    """
    roots = list(expr) if isinstance(expr, sp.MatrixBase) else [expr]
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False) for root in roots]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in size:
            continue
        args = node.args if isinstance(node, sp.Basic) else ()
        if children_done:
            size[key] = 1 + sum(size[id(a)] for a in args)
            depth[key] = 1 + max((depth[id(a)] for a in args), default=0)
        elif len(size) >= MAX_EXPRESSION_NODES:
            return max(MAX_EXPRESSION_NODES, sum(size.values())), max(depth.values())
        else:
            stack.append((node, True))
            stack.extend((a, False) for a in args if id(a) not in size)
    nodes = sum(size[id(root)] for root in roots)
    return nodes, max((depth[id(root)] for root in roots), default=0)


def expression_problem(
    expr: Any, name: str, nodes: int = MAX_EXPRESSION_NODES, depth: int = MAX_EXPRESSION_DEPTH
) -> str | None:
    """Why a SymPy answer is too large or too deep to check, or None when it is fine."""
    size, levels = expression_size(expr)
    if levels > depth:
        return (
            f"{name} is nested {levels} levels deep (at most {depth} are checked): SymPy cannot "
            "evaluate it reliably; write it in a flatter form (sp.simplify may help)."
        )
    if size > nodes:
        return (
            f"{name} has {size:,} parts as a tree (at most {nodes:,} are checked): too large to "
            "evaluate in time; simplify it first (sp.simplify, sp.trigsimp)."
        )
    return None


class TimeBudgetExceeded(BaseException):
    """Raised inside :func:`run_within` when its time is up.

    A BaseException, like KeyboardInterrupt, so that a student's ``except Exception``
    does not swallow it; :func:`run_within` catches its own and never lets it out.
    """

    def __init__(self, budget: object) -> None:
        super().__init__("time budget exceeded")
        self.budget = budget


class _Budget:
    """One running :func:`run_within`."""


_deadlines: dict[_Budget, float] = {}  # the budgets running now, with their deadlines
_handlers: list[Any] = []  # the SIGALRM handler before the first budget, to put back after


def _on_alarm(signum: int, frame: Any) -> None:
    """SIGALRM: raise for the earliest budget if its deadline has come, else wait for it."""
    if not _deadlines:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    budget = min(_deadlines.keys(), key=_deadlines.__getitem__)
    if time.monotonic() >= _deadlines[budget] - 1e-3:
        raise TimeBudgetExceeded(budget)
    _arm()


def _arm() -> None:
    """Set the timer to the earliest deadline; it repeats every 0.2 s until disarmed, so a
    student's bare ``except:`` that swallows one alarm meets the next."""
    if _deadlines:
        left = min(_deadlines.values()) - time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-4), 0.2)
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _can_interrupt() -> bool:
    """SIGALRM is usable here: POSIX, the main thread, and no one else's timer running."""
    if not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGALRM) is _on_alarm or (
        signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )


def run_within(seconds: float, function: Callable[..., T], *args: Any) -> tuple[bool, T | None]:
    """Call ``function(*args)``, stopping it after ``seconds``: (True, result) or (False, None).

    The stop is a SIGALRM raised into the running Python code, so it works on Linux and
    macOS in the main thread (where a notebook's kernel runs its cells); elsewhere (Windows,
    another thread, or while another SIGALRM timer runs) the call has no time limit. It
    stops Python code only: a loop inside one C function (``sum(itertools.count())``) or a
    bare ``except:`` that swallows every alarm in a loop runs on until the kernel is
    interrupted. Budgets nest: an inner one ends at its own deadline or the outer one's,
    whichever comes first, and each reports only its own.

    Examples
    --------
    >>> run_within(1.0, sum, [1, 2, 3])
    (True, 6)
    >>> def forever():
    ...     while True:
    ...         pass
    >>> run_within(0.05, forever)
    (False, None)
    """
    if not _can_interrupt():
        return True, function(*args)
    budget = _Budget()
    if signal.getsignal(signal.SIGALRM) is not _on_alarm:
        _handlers[:] = [signal.signal(signal.SIGALRM, _on_alarm)]
    deadline = time.monotonic() + seconds
    # The book-keeping below makes no call between the try and the store, nor in the finally
    # before the deletion: an alarm (a Python-level signal handler runs only at calls and
    # loops) cannot leave a budget behind.
    try:
        _deadlines[budget] = deadline
        _arm()
        return True, function(*args)
    except TimeBudgetExceeded as stop:
        if stop.budget is not budget:  # an outer budget's time is up: it reports
            raise
        return False, None
    finally:
        if budget in _deadlines:  # not .pop(): a call, where an alarm could come first
            del _deadlines[budget]  # noqa: RUF051
        _arm()
        if not _deadlines:
            signal.signal(signal.SIGALRM, (_handlers or [None])[0] or signal.SIG_DFL)


# --- what a student's code raised ------------------------------------------------------------


def error_text(error: BaseException) -> str:
    """ ": message" of an exception (cut to a few lines' worth), or "" if it has none."""
    try:
        text = " ".join(str(error).split())
    except Exception:  # a student's exception with a broken __str__
        return ""
    if not text:
        return ""
    return ": " + (text if len(text) <= 300 else text[:299] + "…")
