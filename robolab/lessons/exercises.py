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

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias, TypedDict

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from .answers import CheckResult, _error_text, _fmt, _tolerance, _wrong
from .function_answers import check_function
from .numeric_answers import check_numeric
from .symbolic_answers import check_expression

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
    checker : callable, optional
        ``checker(answer, **parameters) -> CheckResult`` judges the answer
        itself, for questions with more than one right answer (any branch
        of an inverse kinematics, a student's function judged by what its
        result does). It replaces the comparison with ``solve``'s value,
        which remains the solution shown. ``None`` is "no answer yet"
        before the checker is called; an exception inside the checker (the
        student's code raising) gives a wrong-answer result that names it.

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

    An answer that is right in more than one way gets a ``checker``:

    >>> def has_cosine(answer, c):
    ...     off = abs(np.cos(float(answer)) - c)
    ...     return CheckResult(bool(off < 1e-9), f"cos(answer) is off by {off:.2g}.")
    >>> angle = Exercise(
    ...     "An angle", "Give an angle whose cosine is {c}.",
    ...     solve=lambda c: np.arccos(c), generate=lambda rng: {"c": 0.5}, checker=has_cosine,
    ... )
    >>> angle.check(-np.pi / 3).correct, angle.check(np.pi / 3).correct
    (True, True)
    >>> print(angle.check("60°"))
    ✗ checking the answer raised ValueError: could not convert string to float: '60°'.
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
        checker: Callable[..., CheckResult] | None = None,
    ) -> None:
        if not callable(solve):
            raise TypeError(
                f"solve must be a function of the parameters, got {type(solve).__name__}"
            )
        if checker is not None and not callable(checker):
            raise TypeError(
                f"checker must be a function of the answer and the parameters, got "
                f"{type(checker).__name__}"
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
        self._checker = checker
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
            checker=self._checker,
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
        if self._checker is not None:
            return self._checked(answer)
        return check(
            answer,
            self.expected,
            rtol=self.rtol,
            atol=self.atol,
            hint=self.hint,
            inputs=self.inputs,
        )

    def _checked(self, answer: object) -> CheckResult:
        """:meth:`check` with the exercise's own ``checker``."""
        if answer is None:
            return _wrong("No answer yet: the answer is None.", self.hint)
        try:
            result = self._checker(answer, **self.parameters)  # type: ignore[misc]
        except Exception as error:  # the student's code may raise anything
            return _wrong(
                f"checking the answer raised {type(error).__name__}{_error_text(error)}.",
                self.hint,
            )
        if not isinstance(result, CheckResult):
            raise TypeError(
                f"the checker of exercise {self.title!r} must return a CheckResult, got "
                f"{type(result).__name__}"
            )
        return result if result.correct else _wrong(result.message, self.hint)

    def solution(self) -> Solution:
        """The teacher's solution (hidden unless :func:`show_solutions` was called)."""
        return Solution(self.title, self.expected, self.explanation, solutions_shown())

    def _repr_markdown_(self) -> str:
        title = self.title.rstrip()
        ending = "" if title.endswith((".", "?", "!", ":", "…")) else "."
        return f"**Exercise: {title}{ending}** {self.prompt}"

    def __repr__(self) -> str:
        return f"<Exercise {self.title!r}, seed {self.seed}>"
