"""Derivations as data: :class:`Derivation`, an ordered sequence of named :class:`Step`.

A derivation (forward kinematics link by link, the Lagrangian dynamics term by
term) is returned as a :class:`Derivation`, a tuple of :class:`Step`. Each step
holds a short title, one or two sentences of explanation, the SymPy object it
produces (an expression, a matrix or an equation) and the symbols it
introduces. The same data feeds a step-by-step reveal widget
(:func:`robolab.reveal`), a static rendering for nbval and HTML export, and
the tests, which iterate over the steps. This module holds the two classes and
the printing of joint variables (:func:`to_latex`, :func:`to_text`); the two
derivations of a DH robot are made beside it, in :mod:`robolab.dh.worked_derivations`.

Examples
--------
>>> import sympy as sp
>>> m, v = sp.symbols("m v", positive=True)
>>> K = sp.Symbol("K")
>>> steps = Derivation(
...     "Kinetic energy of a point mass",
...     [Step("Kinetic energy", "Half the mass times the speed squared.",
...           sp.Eq(K, m * v**2 / 2), introduces=(K,))],
... )
>>> len(steps), steps[0].title
(1, 'Kinetic energy')
>>> print(steps.to_text())
Kinetic energy of a point mass
==============================
<BLANKLINE>
Step 1/1. Kinetic energy
Half the mass times the speed squared.
       2
    m⋅v
K = ────
     2
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.physics.vector.printing import vlatex

__all__ = ["Derivation", "Step", "to_latex", "to_text"]


def to_latex(expression: Any) -> str:
    r"""LaTeX of a SymPy object with joint variables written as in textbooks.

    Functions of time print without their argument and time derivatives with
    dots: ``q_1(t)`` becomes :math:`q_1`, its derivative :math:`\dot q_1`.

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab.symbols import q1, t
    >>> print(to_latex(q1.diff(t) ** 2 + sp.cos(q1)))
    \cos{\left(q_{1} \right)} + \dot{q}_{1}^{2}
    """
    return vlatex(expression)


def to_text(expression: Any) -> str:
    """Unicode pretty text of a SymPy object, joint variables without ``(t)``.

    The textbook form of :func:`to_latex`, for consoles and text outputs:
    ``q_1(t)`` prints as q₁, its first and second time derivatives as q̇₁ and q̈₁.

    Examples
    --------
    >>> from robolab.symbols import q1, q2, t
    >>> print(to_text(q1.diff(t) + q2.diff(t, 2)))
    q̇₁ + q̈₂
    """
    return sp.pretty(_time_functions_as_symbols(expression), use_unicode=True)


_DOTS = {1: "\u0307", 2: "\u0308", 3: "\u20db", 4: "\u20dc"}  # combining dots above


def _time_functions_as_symbols(expression: Any) -> Any:
    """Replace q(t), q̇(t) and q̈(t) by plain symbols named q, q̇, q̈ (subscripts kept)."""
    if not isinstance(expression, sp.Basic | sp.MatrixBase):
        return expression
    replacements: dict[Any, Any] = {}
    for derivative in expression.atoms(sp.Derivative):
        function, (variable, order) = derivative.expr, derivative.variable_count[0]
        if (
            len(derivative.variable_count) == 1
            and order in _DOTS
            and isinstance(function, AppliedUndef)
            and function.args == (variable,)
        ):
            base, _, subscript = function.func.__name__.partition("_")
            name = base + _DOTS[order] + (f"_{subscript}" if subscript else "")
            replacements[derivative] = sp.Symbol(name)
    expression = expression.xreplace(replacements)
    functions = {
        f: sp.Symbol(f.func.__name__)
        for f in expression.atoms(AppliedUndef)
        if len(f.args) == 1 and isinstance(f.args[0], sp.Symbol)
    }
    return expression.xreplace(functions)


@dataclass(frozen=True)
class Step:
    """One step of a derivation.

    Parameters
    ----------
    title : str
        A few words, e.g. ``"Kinetic energy of link 2"``.
    explanation : str
        One or two sentences saying where the expression comes from. May
        contain inline LaTeX between ``$`` signs.
    expression : sympy object
        The expression, matrix or :class:`sympy.Eq` this step produces.
    introduces : tuple of sympy.Symbol
        Symbols that appear here for the first time (placeholders, names of
        intermediate quantities).
    """

    title: str
    explanation: str
    expression: Any
    introduces: tuple[Any, ...] = field(default=())

    def latex(self) -> str:
        """Return the LaTeX of the expression (no surrounding ``$``; q_i(t) printed as q_i)."""
        return to_latex(self.expression)

    def text(self) -> str:
        """Return the expression as Unicode pretty-printed text (q_i(t) printed as q_i)."""
        return to_text(self.expression)

    def _repr_markdown_(self) -> str:
        return f"**{self.title}.** {self.explanation}\n\n$$\n{self.latex()}\n$$\n"


class Derivation(tuple):
    """An ordered, immutable sequence of :class:`Step`, with a title.

    Renders itself in notebooks as Markdown with LaTeX (every step shown),
    and as plain text with :meth:`to_text` (also its ``str``).
    """

    title: str

    def __new__(cls, title: str, steps: Iterable[Step]) -> Derivation:
        steps = tuple(steps)
        for index, step in enumerate(steps):
            if not isinstance(step, Step):
                raise TypeError(
                    f"step {index + 1} of derivation {title!r} must be a Step, "
                    f"got {type(step).__name__}"
                )
        self = super().__new__(cls, steps)
        self.title = title
        return self

    def __getitem__(self, index):  # type: ignore[override]
        result = super().__getitem__(index)
        if isinstance(index, slice):
            return Derivation(self.title, result)
        return result

    def __repr__(self) -> str:
        return f"Derivation({self.title!r}, {len(self)} steps)"

    def to_markdown(self) -> str:
        """Return every step as Markdown with display LaTeX."""
        parts = [f"### {self.title}\n"]
        for number, step in enumerate(self, start=1):
            parts.append(
                f"**Step {number}/{len(self)}. {step.title}.** {step.explanation}\n\n"
                f"$$\n{step.latex()}\n$$\n"
            )
        return "\n".join(parts)

    def to_text(self) -> str:
        """Return every step as plain Unicode text (for consoles and text outputs)."""
        parts = [self.title, "=" * len(self.title)]
        for number, step in enumerate(self, start=1):
            parts.append("")
            parts.append(f"Step {number}/{len(self)}. {step.title}")
            parts.append(step.explanation)
            parts.append(step.text())
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_markdown_(self) -> str:
        return self.to_markdown()
