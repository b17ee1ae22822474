"""Step-by-step reveals of derivations: Next, Previous, Show all.

:func:`reveal` takes a :class:`robolab.Derivation` (for example
``robot.lagrangian_derivation()`` or ``robot.forward_kinematics_derivation()``)
or any sequence of :class:`robolab.Step` and returns a :class:`Reveal`: a
widget that shows the first step and adds one step per click on *Next*, with
*Previous*, *Show all* and a step counter. Each step shows its title and
explanation above its expression, typeset by MathJax.

Without a widget front end (nbval, an HTML export without widget state, a
plain console, test mode) the same object renders **all** the steps
statically, as Markdown with LaTeX and as plain text, so the output still
means something.

Examples
--------
>>> import sympy as sp
>>> from robolab import Derivation, Step, reveal
>>> x = sp.Symbol("x")
>>> steps = Derivation("A tiny derivation", [
...     Step("Start", "A square.", sp.Eq(sp.Symbol("y"), x**2)),
...     Step("Differentiate", "Power rule: $d(x^2)/dx = 2x$.", sp.Eq(sp.Symbol("y'"), 2 * x)),
... ])
>>> shown = reveal(steps)
>>> shown.counter_text()
'Step 1 of 2'
>>> shown.next_button.click()  # what a click in the browser does
>>> shown.shown, shown.counter_text(), shown.next_button.disabled
(2, 'Step 2 of 2', True)
>>> shown.previous()
>>> shown.shown
1
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import sympy as sp

from ..dh.derivation import Derivation, Step, to_latex
from ..dh.gathered_equation import LATEX_LINE_COLUMNS, GatheredEquation, printed_columns
from ..support import widgets as _widgets
from ..support.arguments import require_int, require_str

__all__ = ["Reveal", "reveal"]


def _escape(text: str) -> str:
    """Escape HTML but keep ``$...$`` for MathJax (the browser decodes entities first)."""
    return html.escape(text, quote=False)


def step_html(step: Step, number: int, total: int) -> str:
    """HTML of one step: bold title, explanation, display-math expression, new symbols.

    The symbols a step introduces are listed under it in textbook print
    (:func:`robolab.to_latex`): "new symbol: $r_{c1}$".

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab import Step
    >>> K, m, v = sp.symbols("K m v")
    >>> step = Step("Kinetic energy", "Half m v squared.", sp.Eq(K, m * v**2 / 2),
    ...             introduces=(K,))
    >>> step_html(step, 1, 3).split("<small>")[1]
    'new symbol: $K$</small></div></div>'
    """
    parts = [
        '<div class="robolab-step" style="margin-bottom:12px">',
        f'<div class="robolab-step-title"><b>Step {number}/{total}. {_escape(step.title)}.</b> '
        f"{_escape(step.explanation)}</div>",
        f'<div class="robolab-step-expression">$$ {_escape(fitting_latex(step))} $$</div>',
    ]
    if step.introduces:
        symbols = ", ".join(f"${_escape(_latex(symbol))}$" for symbol in step.introduces)
        label = "new symbol" if len(step.introduces) == 1 else "new symbols"
        parts.append(
            f'<div class="robolab-step-introduces"><small>{label}: {symbols}</small></div>'
        )
    parts.append("</div>")
    return "".join(parts)


def fitting_latex(step: Step) -> str:
    r"""LaTeX of a step's expression that fits a notebook: a long equation over several lines.

    An ``sp.Eq`` of scalars whose printed form is wider than
    :data:`robolab.dh.gathered_equation.LATEX_LINE_COLUMNS` columns is printed as a
    :class:`~robolab.dh.gathered_equation.GatheredEquation` (its terms in an ``aligned`` block of
    lines that fit); anything else, a short equation and a matrix equation (not a sum of terms
    to gather: it prints its own lines, as the equations of motion,
    :class:`robolab.dh.worked_derivations.MatrixFormEquation`, do), as :meth:`Step.latex` prints it.

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab import Step
    >>> x = sp.symbols("x1:30")
    >>> short = Step("Short", "Fits.", sp.Eq(sp.Symbol("y"), x[0] + x[1]))
    >>> fitting_latex(short)
    'y = x_{1} + x_{2}'
    >>> long = Step("Long", "Too wide for one line.", sp.Eq(sp.Symbol("y"), sum(v**2 for v in x)))
    >>> fitting_latex(long).startswith(r"\begin{aligned} y = {} &")
    True
    """
    expression = step.expression
    if (
        isinstance(expression, sp.Equality)
        and not isinstance(expression, GatheredEquation)
        and not (expression.lhs.is_Matrix or expression.rhs.is_Matrix)
        and printed_columns(expression) > LATEX_LINE_COLUMNS
    ):
        return to_latex(GatheredEquation(expression.lhs, expression.rhs))
    return step.latex()


def _latex(value: Any) -> str:

    return to_latex(value)


class Reveal:
    """A derivation shown one step at a time (made by :func:`reveal`).

    Attributes
    ----------
    derivation : Derivation
        The steps.
    shown : int
        How many steps are visible (1..len(derivation)).
    next_button, previous_button, all_button : ipywidgets.Button
    counter : ipywidgets.HTML
        "Step k of n".
    step_widgets : list of ipywidgets.HTMLMath
        One per step; the first ``shown`` are the children of ``body``.
    body : ipywidgets.VBox
    widget : ipywidgets.VBox
        The whole panel.
    """

    def __init__(
        self, steps: Derivation | Sequence[Step], *, title: str | None = None, start: int = 1
    ):
        title = require_str(title, "title", optional=True)
        if isinstance(steps, Derivation):
            derivation = steps if title is None else Derivation(title, steps)
        elif isinstance(steps, Step):
            raise TypeError("steps must be a Derivation or a sequence of Step, got a single Step")
        else:
            try:
                derivation = Derivation(title or "Derivation", list(steps))
            except TypeError as error:
                if "must be a Step" in str(error):
                    raise
                raise TypeError(
                    f"steps must be a Derivation or a sequence of Step, got {type(steps).__name__}"
                ) from error
        if len(derivation) == 0:
            raise ValueError("steps must hold at least one Step, got an empty sequence")
        start = require_int(start, "start")
        if not 1 <= start <= len(derivation):
            raise ValueError(f"start must be a step number 1..{len(derivation)}, got {start!r}")
        self.derivation = derivation
        self.shown = start
        total = len(derivation)
        self.step_widgets = [
            widgets.HTMLMath(value=step_html(step, number, total))
            for number, step in enumerate(derivation, start=1)
        ]
        for box in self.step_widgets:
            box.add_class("robolab-step-widget")
        self.previous_button = widgets.Button(description="Previous", icon="arrow-left")
        self.next_button = widgets.Button(
            description="Next", icon="arrow-right", button_style="primary"
        )
        self.all_button = widgets.Button(description="Show all", icon="list")
        self.previous_button.add_class("robolab-reveal-previous")
        self.next_button.add_class("robolab-reveal-next")
        self.all_button.add_class("robolab-reveal-all")
        self.previous_button.on_click(self.on_previous_click)
        self.next_button.on_click(self.on_next_click)
        self.all_button.on_click(self.on_show_all_click)
        self.counter = widgets.HTML()
        self.counter.add_class("robolab-reveal-counter")
        self.body = widgets.VBox()
        heading = widgets.HTML(f"<h4 style='margin:4px 0'>{_escape(derivation.title)}</h4>")
        controls = widgets.HBox(
            [self.previous_button, self.next_button, self.all_button, self.counter]
        )
        self.widget = widgets.VBox([heading, controls, self.body])
        self.widget.add_class("robolab-reveal")
        self._sync()

    # --- callbacks (plain methods; the buttons call them) ------------------------------------

    def on_next_click(self, _button: Any = None) -> None:
        """Next-button handler."""
        self.next()

    def on_previous_click(self, _button: Any = None) -> None:
        """Previous-button handler."""
        self.previous()

    def on_show_all_click(self, _button: Any = None) -> None:
        """Show-all-button handler."""
        self.show_all()

    # --- state ------------------------------------------------------------------------------

    def next(self) -> None:
        """Show one more step (no-op at the last one)."""
        self.show(min(self.shown + 1, len(self.derivation)))

    def previous(self) -> None:
        """Hide the last shown step (the first one always stays)."""
        self.show(max(self.shown - 1, 1))

    def show_all(self) -> None:
        """Show every step."""
        self.show(len(self.derivation))

    def show(self, count: int) -> None:
        """Show the first ``count`` steps (1..n; an ``int``, not a float or a bool).

        Examples
        --------
        >>> import robolab
        >>> from robolab.symbols import l1, q1
        >>> steps = robolab.reveal(robolab.DHRobot((l1, 0, 0, q1)).forward_kinematics_derivation())
        >>> steps.show(2); steps.counter_text()
        'Step 2 of 3'
        >>> steps.show(2.0)
        Traceback (most recent call last):
        ...
        TypeError: count must be an int, got float 2.0
        """
        count = require_int(count, "count")
        if not 1 <= count <= len(self.derivation):
            raise ValueError(f"count must be 1..{len(self.derivation)}, got {count!r}")
        self.shown = count
        self._sync()

    def counter_text(self) -> str:
        return f"Step {self.shown} of {len(self.derivation)}"

    def _sync(self) -> None:
        self.body.children = tuple(self.step_widgets[: self.shown])
        self.counter.value = f"<span style='margin-left:8px'>{self.counter_text()}</span>"
        last = self.shown == len(self.derivation)
        self.next_button.disabled = last
        self.all_button.disabled = last
        self.previous_button.disabled = self.shown == 1

    # --- static renderings ------------------------------------------------------------------

    def to_markdown(self) -> str:
        """Every step as Markdown with display LaTeX (the static rendering)."""
        return self.derivation.to_markdown()

    def to_text(self) -> str:
        """Every step as plain text."""
        return self.derivation.to_text()

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<Reveal {self.derivation.title!r}: {self.counter_text().lower()}>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return _widgets.widget_bundle(
            self.widget, {"text/plain": self.to_text(), "text/markdown": self.to_markdown()}
        )


def reveal(
    steps: Derivation | Sequence[Step], *, title: str | None = None, start: int = 1
) -> Reveal:
    """Show a derivation one step at a time (Next, Previous, Show all).

    Parameters
    ----------
    steps : Derivation or sequence of Step
        For example ``robot.lagrangian_derivation()``.
    title : str, optional
        Heading; default the derivation's own title ("Derivation" for a
        plain sequence). Anything but a ``str`` or None is a ``TypeError``.
    start : int
        Number of steps visible at first (default 1); an ``int`` (a float or
        a bool is a ``TypeError``), 1..n (``ValueError`` otherwise).

    Returns
    -------
    Reveal
        Displays as the widget in a notebook with a widget front end, and as
        all steps (Markdown/LaTeX and text) everywhere else.

    Examples
    --------
    >>> import robolab
    >>> from robolab.symbols import l1, l2, q1, q2
    >>> arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    >>> steps = robolab.reveal(arm.forward_kinematics_derivation())
    >>> steps.counter_text()
    'Step 1 of 5'
    >>> steps.all_button.click()
    >>> len(steps.body.children)
    5
    """
    return Reveal(steps, title=title, start=start)
