"""robolab.dh.derivation: Derivation and Step as data, and joint variables printed as in textbooks.

``to_latex`` and ``to_text`` write ``q_1(t)`` as q₁ and its time derivatives with dots; a
:class:`Step` prints its expression that way; a :class:`Derivation` is an immutable tuple of
steps with a title that renders as Markdown and as plain text.
"""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp
from reference.dh_arms import moro_arm

from robolab import Derivation, Step, to_latex, to_text
from robolab.symbols import q1, q2, t

x, m, v, K = sp.symbols("x m v K")


def energy_steps() -> Derivation:
    return Derivation(
        "A point mass",
        [
            Step("Speed", "The joint rate.", sp.Eq(v, q1.diff(t))),
            Step("Kinetic energy", "Half $m v^2$.", sp.Eq(K, m * v**2 / 2), introduces=(K,)),
        ],
    )


# --- joint variables as in textbooks ------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "latex", "text"),
    [
        (q1, "q_{1}", "q₁"),
        (q1.diff(t), r"\dot{q}_{1}", "q\u0307₁"),
        (q1.diff(t, 2), r"\ddot{q}_{1}", "q\u0308₁"),
        (q1.diff(t, 3), r"\dddot{q}_{1}", "q\u20db₁"),
        (sp.sin(q2) * q2.diff(t), r"\sin{\left(q_{2} \right)} \dot{q}_{2}", "q\u0307₂⋅sin(q₂)"),
        (x, "x", "x"),
    ],
)
def test_joint_variables_print_without_their_time_and_rates_with_dots(expression, latex, text):
    assert to_latex(expression) == latex
    assert to_text(expression) == text


def test_what_is_not_a_joint_variable_prints_as_sympy_prints_it():
    f = sp.Function("f")(t, x)  # a function of two variables keeps its arguments
    assert to_text(f) == sp.pretty(f, use_unicode=True) == "f(t, x)"
    assert to_text(f.diff(t)) == sp.pretty(f.diff(t), use_unicode=True)
    fifth = q1.diff(t, 5)  # no dots for a fifth derivative
    assert "(q₁)" in to_text(fifth) and "q_1(t)" not in to_text(fifth)
    assert to_text("text") == "text"
    assert to_text(sp.Matrix([q1, q2.diff(t)])) == "⎡q₁⎤\n⎢  ⎥\n⎣q\u0307₂⎦"


# --- Step -----------------------------------------------------------------------------------------


def test_a_step_prints_its_expression_and_cannot_be_changed():
    step = Step("Speed", "The joint rate.", sp.Eq(v, q1.diff(t)))
    assert step.introduces == ()
    assert step.latex() == r"v = \dot{q}_{1}"
    assert step.text() == "v = q\u0307₁"
    assert step._repr_markdown_() == "**Speed.** The joint rate.\n\n$$\nv = \\dot{q}_{1}\n$$\n"
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.title = "Velocity"


# --- Derivation -----------------------------------------------------------------------------------


def test_a_derivation_is_a_titled_tuple_of_steps_and_a_slice_keeps_the_title():
    steps = energy_steps()
    assert isinstance(steps, tuple) and len(steps) == 2
    assert steps[1].title == "Kinetic energy" and steps[1].introduces == (K,)
    first = steps[:1]
    assert isinstance(first, Derivation) and first.title == "A point mass" and len(first) == 1
    assert repr(steps) == "Derivation('A point mass', 2 steps)"
    with pytest.raises(TypeError, match=r"step 2 of derivation 'Mixed' must be a Step, got str"):
        Derivation("Mixed", [steps[0], "not a step"])


def test_a_derivation_renders_every_step_as_markdown_and_as_text():
    steps = energy_steps()
    assert steps.to_markdown() == (
        "### A point mass\n\n"
        "**Step 1/2. Speed.** The joint rate.\n\n$$\nv = \\dot{q}_{1}\n$$\n\n"
        "**Step 2/2. Kinetic energy.** Half $m v^2$.\n\n"
        "$$\nK = \\frac{m v^{2}}{2}\n$$\n"
    )
    assert steps._repr_markdown_() == steps.to_markdown()
    assert steps.to_text().splitlines() == [
        "A point mass",
        "============",
        "",
        "Step 1/2. Speed",
        "The joint rate.",
        "v = q\u0307₁",
        "",
        "Step 2/2. Kinetic energy",
        "Half $m v^2$.",
        "       2",
        "    m⋅v ",
        "K = ────",
        "     2  ",
    ]
    assert str(steps) == steps.to_text()


def test_derivations_render():
    robot = moro_arm("planar_rr")
    derivation = robot.lagrangian_derivation()
    assert derivation.title == "Lagrangian dynamics of planar_rr"
    markdown = derivation.to_markdown()
    assert markdown.count("**Step ") == len(derivation)
    assert "Christoffel symbol c_112" in derivation.to_text()
