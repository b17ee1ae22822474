"""The :class:`Exercise`: a question with seeded numbers, a solution and staged feedback.

:class:`Exercise` bundles a prompt, a seeded random instance (each student
can get their own numbers with :func:`seed_for`), the teacher's solution
function, hints, the tolerances and the slips it knows. Its
:meth:`~Exercise.check` compares an answer with the solution's value by the one
check of every kind of answer (:func:`robolab.lessons.exercises.grading.check`)
and tells a student more on each wrong try. Solutions (:class:`Solution`) stay
hidden until the teacher calls :func:`show_solutions` (or sets
``ROBOLAB_SHOW_SOLUTIONS=1`` before starting Jupyter); the switch lives in this
module only. The notebooks import all of it from :mod:`robolab.exercises`, which
re-exports the same objects.

Examples
--------
>>> quarter = Exercise("A quarter turn", "How many radians is 90°?", solve=lambda: np.pi / 2)
>>> bool(quarter.check(np.pi / 2))
True
>>> print(quarter.check(90.0))  # a first wrong try: the slip, never the expected value
✗ Your answer looks like it is in degrees; robolab works in radians: convert with np.radians.
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from ...support import widgets as _widgets
from ...support.progress import front_end
from .check_result import (
    ANSWER_SECONDS,
    CALL_SECONDS,
    CheckResult,
    NoAnswerYet,
    checked_tolerance,
    error_text,
    fmt,
    run_within,
    value_text,
)
from .exercise_record import record_check
from .grading import Expected, RowsOption, check, known_slip
from .numeric_answers import row_convention
from .worked_solutions import WorkedSolutionCheck

__all__ = ["Exercise", "ExerciseCheck", "Solution", "seed_for", "show_solutions", "solutions_shown"]

_SHOW_SOLUTIONS: bool | None = None

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
        return f"```\n{np.asarray(value)!r}\n```" if np.ndim(value) else f"`{fmt(value)}`"


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


#: What a verdict shown above says once :meth:`Exercise.new_numbers` has drawn other numbers.
_STALE = (
    "This verdict was for the earlier numbers: new numbers are drawn, so run the cells below "
    "the exercise and your answer again."
)


class ExerciseCheck(CheckResult):
    """A verdict of :meth:`Exercise.check`: a :class:`CheckResult` whose shown box can go stale.

    With a person at the front end (JupyterLab, Notebook, VS Code) it shows as a small widget
    that :meth:`Exercise.new_numbers` (the *New numbers* button) turns grey, saying that the
    verdict was for the earlier numbers: a ✓ above never claims new numbers are solved. Saved
    notebooks, nbval and exports get the plain coloured message, as from any
    :class:`CheckResult`; it equals a :class:`CheckResult` with the same fields.
    """

    def __init__(self, result: CheckResult, exercise: Exercise) -> None:
        super().__init__(result.correct, result.message, result.first_try, result.second_try)
        object.__setattr__(self, "_exercise", exercise)
        object.__setattr__(self, "_seed", exercise.seed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CheckResult):
            return NotImplemented
        fields = ("correct", "message", "first_try", "second_try")
        return all(getattr(self, f) == getattr(other, f) for f in fields)

    __hash__ = CheckResult.__hash__

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """A widget the exercise can grey out; ``{}`` (the usual reprs) without a person."""
        if front_end() != "widget":
            return {}
        static = {"text/plain": str(self), "text/html": self._repr_html_()}
        exercise: Exercise = self._exercise  # type: ignore[attr-defined]
        return _widgets.widget_bundle(exercise._verdict_widget(self), static)


#: Help for a student on the wrong tries after the first: how to see the expected value.
_ASK_FOR_EXPECTED = "To see the expected value: {name}.check(answer, show_expected=True)."


def _hints(hint: str | Sequence[str] | None) -> tuple[str, ...]:
    """An exercise's hints in the order they are given: one text, or several, or none."""
    if hint is None:
        return ()
    if isinstance(hint, str):
        return (hint,) if hint else ()
    hints = tuple(hint)
    if not all(isinstance(h, str) for h in hints):
        raise TypeError(f"hint must be a text or a list of texts, got {hint!r}")
    return tuple(h for h in hints if h)


def _stale_html(shown: str) -> str:
    """A verdict's box greyed out, saying it was for the earlier numbers."""
    if "robolab-stale" in shown:
        return shown
    return (
        '<div class="robolab-stale" style="color:#555;background:#EEE;padding:4px 8px;'
        f'border-radius:4px"><i>{html.escape(_STALE)}</i><div style="opacity:0.55">'
        f"{shown}</div></div>"
    )


#: What the display of a fixed exercise says where others have a *New numbers* button.
#: What an exercise asks of the student (``kind=``), and how its statement names it.
KINDS = {"apply": "", "model": "modelling", "predict": "predict first", "explain": "explain"}
_FIXED = "(fixed numbers: this exercise has one set)"
#: ... and of an exercise whose numbers were drawn for one student (``with_seed(s, own=True)``).
_OWN = "(your own numbers, drawn for you: they are the ones graded)"


class Exercise:
    """An exercise with seeded random numbers, a reference solution and an answer check.

    Feedback comes in stages. The first wrong answer is told what kind of
    slip it looks like (degrees, a transpose, a sign, [v; ω] order...) or
    how many entries are off, with the first hint, but never the expected
    value; the second is told which entries are off and which way, with the
    next hint; the expected value only when asked:
    ``exercise.check(answer, show_expected=True)``. An unanswered ``None``
    is not a try, and is told no hint: only what to answer. A worked
    solution checks itself with :meth:`check_solution`, whose
    :class:`WorkedSolutionCheck` reads "Worked solution — checked" and never
    looks like the student's result.

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
    hint : str or sequence of str, optional
        Told with a wrong answer; several hints are told one more per try.
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
    angles : sequence of str
        Names of parameters that are angles in radians: a wrong answer
        equal to ``solve`` with them (all, or one) in degrees is told that
        it used degrees inside ``np.cos`` or ``trotz``. Declare it for every
        exercise whose numbers include angles.
    pose : str or callable, optional
        The 4×4 pose relating the question's frames: a parameter name, or
        ``pose(**parameters)``. A twist, wrench or Jacobian answer in the
        other frame (the adjoint of the pose applied, or undone) is called a
        frame mix-up.
    slips : mapping, optional
        The author's own known wrong answers: ``{message: wrong(**parameters)}``;
        an answer equal to ``wrong``'s value is told ``message`` (numbers or
        SymPy answers). Write the message so that it names the slip, not
        the expected value.
    kind : {"apply", "model", "predict", "explain"}
        What the exercise asks of the student: ``"apply"`` a method just
        shown to new numbers; ``"model"`` set up something the chapter did
        not (a new arm, constraint, controller, or a recursion by hand);
        ``"predict"`` a number or a choice before the cell that shows it;
        ``"explain"`` a reason, checked as a choice or a short word answer.
        The statement names it (*Modelling*, *Predict first*, *Explain*).
    rows : {"auto", "omega_v", "v_omega", None}
        The order of the two halves of a 6-row expected value, for the
        message of an answer with them swapped: ``"omega_v"`` for robolab's
        twists, screw axes, J_s and J_b ([ω; v]); ``"v_omega"`` for the DH
        geometric Jacobian of Spong and Moro, ``DHRobot.J`` ([v; ω]); None
        for six numbers that are not a twist (joint torques): the message
        then only says the halves are swapped. The default ``"auto"`` is
        ``"omega_v"`` for numbers and ``"v_omega"`` for SymPy matrices.

    Notes
    -----
    A fixed exercise (no ``generate``) has one set of numbers: its display
    says so instead of offering a *New numbers* button, and
    :meth:`new_numbers` raises.

    Examples
    --------
    >>> import numpy as np
    >>> reach = Exercise(
    ...     "Reach of a 2R arm",
    ...     "Links of {l1:.2f} m and {l2:.2f} m: how far can the hand get from the base?",
    ...     solve=lambda l1, l2: l1 + l2,
    ...     generate=lambda rng: {"l1": rng.uniform(0.2, 0.5), "l2": rng.uniform(0.1, 0.4)},
    ...     seed=3,
    ...     hint=["Stretch the arm out.", "The lengths add up."],
    ... )
    >>> reach.check(reach.parameters["l1"] + reach.parameters["l2"]).correct
    True
    >>> print(reach.check(0.1))
    ✗ answer is 0.1: not right yet. Hint: Stretch the arm out.
    >>> print(reach.check(0.1))
    ✗ answer is 0.1: not right yet, it is too small. Hint: Stretch the arm out. The lengths add
    up. To see the expected value: <exercise>.check(answer, show_expected=True).
    >>> print(reach.check(0.1, show_expected=True))
    ✗ answer is 0.1, expected 0.3967: it is off by 0.2967 (tolerance 3.977e-07). Hint: Stretch the
    arm out. The lengths add up.
    >>> print(reach.solution())
    The solution of 'Reach of a 2R arm' is hidden (robolab.exercises.show_solutions()).

    The hints come one more per wrong try: the first try above was told
    the first hint, the second both (in a notebook the pointer names the
    exercise: ``exercise_1.check(answer, show_expected=True)``).

    Angles in radians, declared with ``angles``, make degrees a named slip:

    >>> hand_x = Exercise(
    ...     "The hand's x", "A 1 m link at q = {q} rad: the hand's x?",
    ...     solve=lambda q: np.cos(q), generate=lambda rng: {"q": 0.5}, angles=["q"],
    ... )
    >>> print(hand_x.check(np.cos(np.degrees(0.5))))
    ✗ Your answer is what the formula gives with q in degrees: np.cos, np.sin, rotz, trotz...
    take radians (convert with np.radians).

    The pose between the frames, declared with ``pose``, names a twist in
    the wrong frame (here S, the space axis, where the body axis B is asked):

    >>> M = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    >>> S = np.array([0, 0, 1, 0, 0, 0])  # about z through the origin of {s}
    >>> body = Exercise(
    ...     "A body screw axis", "B of S = {S} for the home pose M = {M}?",
    ...     solve=lambda M, S: np.array([0, 0, 1, 0, 1, 0]),  # [Ad_M⁻¹] S, worked by hand
    ...     generate=lambda rng: {"M": M, "S": S}, pose="M",
    ... )
    >>> print(body.check(S))
    ✗ Your answer is the expected twist (or wrench) expressed in the other frame: a space-frame
    one where the body frame is asked, or the reverse? The adjoint [Ad_T] of the pose takes one
    to the other.

    The author's own known wrong answers, with ``slips``; later tries add
    where to see the expected value:

    >>> tool = Exercise(
    ...     "The tool tip", "The flange is at x = {x} m and the tool is 0.1 m long: the tip's x?",
    ...     solve=lambda x: x + 0.1, generate=lambda rng: {"x": 0.5},
    ...     slips={"That is the flange, not the tool tip: add the tool.": lambda x: x},
    ... )
    >>> print(tool.check(0.5))
    ✗ That is the flange, not the tool tip: add the tool.
    >>> print(tool.check(0.5))
    ✗ That is the flange, not the tool tip: add the tool. To see the expected value:
    <exercise>.check(answer, show_expected=True).

    A Jacobian in the DH rows [v; ω] (``rows="v_omega"``, the default for a
    SymPy matrix) answered in robolab's twist order [ω; v]:

    >>> import sympy as sp
    >>> q = sp.Symbol("q")
    >>> one_joint = Exercise(
    ...     "The Jacobian of a 1R arm", "A 1 m link turning about z at q: J, rows [v; ω]?",
    ...     solve=lambda: sp.Matrix([-sp.sin(q), sp.cos(q), 0, 0, 0, 1]), rows="v_omega",
    ... )
    >>> print(one_joint.check(sp.Matrix([0, 0, 1, -sp.sin(q), sp.cos(q), 0])))
    ✗ Your answer has the right numbers in the wrong order: its first and last three entries are
    swapped. This question asks for the rows in the order [v; ω] (the linear velocity first, as
    in the DH geometric Jacobian of Spong and Moro, DHRobot.J); yours are in robolab's twist
    order [ω; v].

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
        hint: str | Sequence[str] | None = None,
        explanation: str = "",
        rtol: float | None = None,
        atol: float | None = None,
        inputs: Iterable[object] | None = None,
        checker: Callable[..., CheckResult] | None = None,
        angles: Sequence[str] = (),
        pose: str | Callable[..., ArrayLike] | None = None,
        slips: Mapping[str, Callable[..., Expected]] | None = None,
        rows: RowsOption = "auto",
        kind: str = "apply",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(map(repr, KINDS))}, got {kind!r}")
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
        if isinstance(angles, str) or not all(isinstance(a, str) for a in angles):
            raise TypeError(f"angles must be a list of parameter names, got {angles!r}")
        if pose is not None and not (isinstance(pose, str) or callable(pose)):
            raise TypeError(f"pose must be a parameter name or a function, got {pose!r}")
        if slips is not None and not all(
            isinstance(k, str) and callable(v) for k, v in slips.items()
        ):
            raise TypeError("slips must map a message to a function of the parameters")
        if rows != "auto":
            row_convention(rows)
        self.title = title
        self.kind = kind
        self.hints = _hints(hint)
        self.hint = self.hints[0] if self.hints else None
        self.explanation = explanation
        self.rtol = None if rtol is None else checked_tolerance(rtol, "rtol")
        self.atol = None if atol is None else checked_tolerance(atol, "atol")
        self.inputs = None if inputs is None else list(inputs)
        self.angles = tuple(angles)
        self._pose = pose
        self._slips = dict(slips or {})
        self.rows: RowsOption = rows
        self._solve = solve
        self._checker = checker
        self._generate = generate
        self._template = prompt
        self._widget: Any = None
        self._verdicts: list[Any] = []  # the verdict widgets shown for these numbers
        self._own = False  # numbers drawn for one student (with_seed(..., own=True))
        self._draw(int(seed))
        unknown = [a for a in self.angles if a not in self.parameters]
        if unknown or (isinstance(pose, str) and pose not in self.parameters):
            raise ValueError(
                f"exercise {title!r} names parameters {unknown or [pose]} that generate() does "
                f"not return (it returns {sorted(self.parameters)})"
            )

    def _draw(self, seed: int) -> None:
        """Draw the parameters of ``seed``; fill in the prompt and the expected answer."""
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.parameters: dict[str, Any] = (
            dict(self._generate(rng)) if self._generate is not None else {}
        )
        try:
            self.prompt = self._template.format(**self.parameters)
        except (KeyError, IndexError) as error:
            raise ValueError(
                f"prompt of exercise {self.title!r} refers to {error}, which generate() does not "
                f"return (it returns {sorted(self.parameters)})"
            ) from None
        self.expected = self._solve(**self.parameters)
        self.wrong_tries = 0

    def with_seed(self, seed: int, *, own: bool = False) -> Exercise:
        """The same exercise with other numbers (a new object; see also :meth:`new_numbers`).

        ``own=True``: the numbers are one student's own (a graded assignment draws them with
        :func:`seed_for`), so the exercise has no *New numbers* button and refuses
        :meth:`new_numbers`, which would make the student answer other numbers than the graded
        ones.

        Examples
        --------
        >>> twice = Exercise("Twice", "Double {x}.", solve=lambda x: 2 * x,
        ...                  generate=lambda rng: {"x": int(rng.integers(1, 1000))}, seed=1)
        >>> print(twice.with_seed(seed_for("ada", "twice"), own=True)._repr_mimebundle_()[
        ...     "text/plain"].splitlines()[-1])
        (your own numbers, drawn for you: they are the ones graded)
        """
        exercise = Exercise(
            self.title,
            self._template,
            self._solve,
            generate=self._generate,
            seed=seed,
            hint=self.hints,
            explanation=self.explanation,
            rtol=self.rtol,
            atol=self.atol,
            inputs=self.inputs,
            checker=self._checker,
            angles=self.angles,
            pose=self._pose,
            slips=self._slips,
            rows=self.rows,
            kind=self.kind,
        )
        exercise._own = bool(own)
        return exercise

    @property
    def fixed(self) -> bool:
        """True for an exercise with one set of numbers (no ``generate``)."""
        return self._generate is None

    def new_numbers(self, seed: int | None = None) -> Exercise:
        """Draw new numbers for this exercise, in place, and return it (it shows the statement).

        ``seed`` chooses them (:func:`seed_for` gives one per student); without it they are
        new each time. The cells that read ``exercise.parameters`` must run again. The
        *New numbers* button of the exercise's display calls this.

        Examples
        --------
        >>> twice = Exercise("Twice", "Double {x}.", solve=lambda x: 2 * x,
        ...                  generate=lambda rng: {"x": int(rng.integers(1, 1000))}, seed=1)
        >>> twice.new_numbers(seed=7).parameters == twice.with_seed(7).parameters
        True
        >>> bool(twice.check(2 * twice.parameters["x"]))
        True
        >>> Exercise("Half a turn", "How many radians?", solve=lambda: np.pi).new_numbers()
        Traceback (most recent call last):
        ...
        ValueError: exercise 'Half a turn' has fixed numbers (it has no generate=...): ...
        """
        if self.fixed:
            raise ValueError(
                f"exercise {self.title!r} has fixed numbers (it has no generate=...): there is "
                "one set, no new numbers to draw"
            )
        if self._own:
            raise ValueError(
                f"exercise {self.title!r} has your own numbers, drawn for you; they are the ones "
                "graded, so new numbers would make you answer the wrong ones"
            )
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        elif not isinstance(seed, int | np.integer) or isinstance(seed, bool):
            raise TypeError(f"seed must be a whole number or None, got {seed!r}")
        self._draw(int(seed))
        if self._widget is not None:
            self._widget.children[0].value = self._statement_html()
        for verdict in self._verdicts:  # a ✓ above is not a ✓ for the new numbers
            verdict.value = _stale_html(verdict.value)
        self._verdicts.clear()
        return self

    # --- checking -------------------------------------------------------------------------------

    def check(self, answer: object, *, show_expected: bool = False) -> CheckResult:
        """Check an answer; the result displays as a coloured message.

        Never raises because of the answer: text, ``None``, a truth value, a
        wrong type or shape give a wrong-answer result that says what was
        expected, followed by the exercise's hint. A first wrong try is not
        told the expected value, a second is told more; ``show_expected=True``
        tells everything. An unanswered ``None`` is told what to answer, no
        hint. A worked solution calls :meth:`check_solution` instead.

        Examples
        --------
        >>> exercise = Exercise("Half a turn", "How many radians?", solve=lambda: np.pi)
        >>> print(exercise.check("3.14159"))
        ✗ answer is the text '3.14159', not a number: remove the quotes.
        """
        result = self._check(answer, show_expected)
        record_check(self.title, result.correct)  # this kernel's passes (exercise_record)
        return ExerciseCheck(result, self)

    def _verdict_widget(self, verdict: ExerciseCheck) -> Any:
        """The shown box of a verdict; grey at once if the numbers changed since the check."""
        import ipywidgets as widgets  # lazy: only with a person at the front end

        box = widgets.HTML(verdict._repr_html_())
        if getattr(verdict, "_seed", None) != self.seed:
            box.value = _stale_html(box.value)
        else:
            self._verdicts.append(box)
        return box

    def check_solution(self, answer: object) -> WorkedSolutionCheck:
        """The worked solution's check of itself: reads "Worked solution — checked", no ✓.

        Examples
        --------
        >>> exercise = Exercise("Half a turn", "How many radians?", solve=lambda: np.pi)
        >>> print(exercise.check_solution(np.pi))
        Worked solution — checked: it matches the expected answer. (This checks the hidden worked
        solution, not your answer.)
        """
        tries = self.wrong_tries
        result = self._check(answer, show_expected=True)
        self.wrong_tries = tries  # the solution's check is not the student's try
        return WorkedSolutionCheck(result.correct, result.message)

    def _check(self, answer: object, show_expected: bool) -> CheckResult:
        if self._checker is not None:
            result = self._checked(answer)
        else:
            result = check(
                answer,
                self.expected,
                rtol=self.rtol,
                atol=self.atol,
                inputs=self.inputs,
                pose=self._pose_matrix(),
                rows=self.rows,
            )
            if not result.correct and answer is not None:  # degrees, or an author's slip
                # one budget for all the slips tried: an answer slow to read is slow each time
                _, slip = run_within(
                    ANSWER_SECONDS,
                    functools.partial(
                        known_slip,
                        answer,
                        self.expected,
                        self._solve,
                        self.parameters,
                        angles=self.angles,
                        slips=self._slips,
                        rtol=self.rtol,
                        atol=self.atol,
                    ),
                )
                result = result if slip is None else slip
        if result.correct:
            return result
        if answer is None or isinstance(result, NoAnswerYet):  # not a try, and no hint yet
            return CheckResult(False, result.message)
        self.wrong_tries += 1
        tries = self.wrong_tries
        text = result.feedback(tries, show_expected=show_expected)
        if show_expected and self._checker is None and not callable(self.expected):
            shown = value_text(self.expected)
            if not (np.ndim(self.expected) == 0 and f"expected {shown}" in text):
                text += f" The expected value: {shown}."
        hints = self.hints if show_expected else self.hints[: min(tries, 2)]
        if hints:
            text += " Hint: " + " ".join(hints)
        if tries >= 2 and not show_expected and result.first_try:
            text += " " + _ASK_FOR_EXPECTED.format(name=self._name("<exercise>"))
        return CheckResult(False, text)

    def _checked(self, answer: object) -> CheckResult:
        """The comparison by the exercise's own ``checker``."""
        if answer is None:
            return CheckResult(False, "No answer yet: the answer is None.")
        if self._checker is None:  # pragma: no cover - called only with a checker
            raise RuntimeError(f"exercise {self.title!r} has no checker")
        checker = functools.partial(self._checker, answer, **self.parameters)
        try:
            finished, result = run_within(CALL_SECONDS, checker)
        except (Exception, SystemExit) as error:  # the student's code may raise anything
            return CheckResult(
                False, f"checking the answer raised {type(error).__name__}{error_text(error)}."
            )
        if not finished:
            return CheckResult(
                False,
                f"checking the answer took more than {CALL_SECONDS:g} s, so it was stopped: does "
                "your answer (or a function in it) loop forever?",
            )
        if not isinstance(result, CheckResult):
            raise TypeError(
                f"the checker of exercise {self.title!r} must return a CheckResult, got "
                f"{type(result).__name__}"
            )
        return result

    def _pose_matrix(self) -> ArrayLike | None:
        if self._pose is None:
            return None
        if isinstance(self._pose, str):
            return self.parameters[self._pose]
        return self._pose(**self.parameters)

    def solution(self) -> Solution:
        """The teacher's solution (hidden unless :func:`show_solutions` was called)."""
        return Solution(self.title, self.expected, self.explanation, solutions_shown())

    # --- display --------------------------------------------------------------------------------

    def _heading(self) -> str:
        title = self.title.rstrip()
        ending = "" if title.endswith((".", "?", "!", ":", "…")) else "."
        label = KINDS[self.kind]
        return f"Exercise{f' ({label})' if label else ''}: {title}{ending}"

    def _repr_markdown_(self) -> str:
        return f"**{self._heading()}** {self.prompt}"

    def _name(self, unknown: str = "exercise") -> str:
        """The notebook's name for this exercise (``exercise_1``), or ``unknown``."""
        try:
            from IPython import get_ipython

            shell = get_ipython()
        except ImportError:  # pragma: no cover - IPython comes with ipywidgets
            shell = None
        names = [] if shell is None else [k for k, v in shell.user_ns.items() if v is self]
        return next((k for k in names if not k.startswith("_")), unknown)

    def _statement_html(self) -> str:
        prompt = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(self.prompt, quote=False))
        return f"<b>{html.escape(self._heading())}</b> {prompt}"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The statement with a *New numbers* button; text and Markdown say the call instead.

        The button shows only in a kernel with a person at the front end (JupyterLab, Notebook,
        VS Code); a notebook run by nbval, nbclient or nbconvert saves the text, so a saved
        chapter holds no widget of it (and its output is compared like any other).
        """
        if self.fixed or self._own:  # no button that would change nothing, or the grade
            note = _FIXED if self.fixed else _OWN
            return {
                "text/plain": f"{self._heading()} {self.prompt}\n{note}",
                "text/markdown": f"{self._repr_markdown_()}\n\n*{note}*",
            }
        call = f"{self._name()}.new_numbers()"
        static = {
            "text/plain": f"{self._heading()} {self.prompt}\n(New numbers: {call})",
            "text/markdown": f"{self._repr_markdown_()}\n\n*New numbers: run `{call}`.*",
        }
        if front_end() != "widget":  # nbval, nbclient, an export: the saved output stays text
            return static
        return _widgets.widget_bundle(self._display(), static)

    def _display(self) -> Any:
        """The exercise's widget: its statement, a *New numbers* button and a note.

        A fixed exercise's widget has its statement and the note that it has one set of numbers.
        """
        if self._widget is None and (self.fixed or self._own):
            import ipywidgets as widgets

            statement = widgets.HTMLMath(self._statement_html())
            note = html.escape(_FIXED if self.fixed else _OWN)
            self._widget = widgets.VBox([statement, widgets.HTML(f"<i>{note}</i>")])
        if self._widget is None:
            import ipywidgets as widgets

            statement = widgets.HTMLMath(self._statement_html())
            button = widgets.Button(
                description="New numbers",
                tooltip="New numbers for this exercise",
                icon="refresh",
            )
            note = widgets.HTML("")

            def on_click(_: Any) -> None:
                self.new_numbers()
                note.value = (
                    "<i>New numbers: run the cells below again (they read the exercise's "
                    "parameters), then your answer.</i>"
                )

            button.on_click(on_click)
            self._widget = widgets.VBox([statement, widgets.HBox([button, note])])
        return self._widget

    def __repr__(self) -> str:
        return f"<Exercise {self.title!r}, seed {self.seed}>"
