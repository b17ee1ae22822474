"""robolab.dh.gathered_equation: energies and the Lagrangian gathered by joint velocities."""

from __future__ import annotations

import pytest
import sympy as sp
from reference.dh_arms import moro_arm

from robolab import to_text
from robolab.dh.gathered_equation import TEXT_LINE_COLUMNS, GatheredEquation

GATHERED_TITLES = ("Kinetic energy", "Potential energy", "Lagrangian", "Inertia matrix entry")


@pytest.mark.parametrize("name", ["planar_rr", "elbow_rrr", "scara_rrp", "numeric_rpr"])
def test_gathered_groups_add_up_to_the_expression(name):
    robot = moro_arm(name)
    derivation = robot.lagrangian_derivation()
    gathered = [step for step in derivation if isinstance(step.expression, GatheredEquation)]
    assert {step.title for step in gathered} >= {"Kinetic energy", "Lagrangian"}
    for step in gathered:
        equation = step.expression
        total = sum(
            (
                sign * factor * sp.Add(*[s * term for s, term in terms]) * product
                for sign, factor, terms, product in equation.groups()
            ),
            sp.S.Zero,
        )
        assert sp.expand(total - equation.rhs) == 0, step.title


@pytest.mark.parametrize("name", ["planar_rr", "elbow_rrr"])
def test_gathered_steps_fit_a_page(name):
    derivation = moro_arm(name).lagrangian_derivation()
    for step in derivation:
        if step.title.startswith(GATHERED_TITLES):
            widest = max(len(line) for line in step.text().splitlines())
            assert widest <= TEXT_LINE_COLUMNS + 4, (step.title, step.text())
            assert "↪" not in step.text()  # never wrapped by SymPy's printer


def test_gathered_equation_is_an_ordinary_equation():
    x, y, v, L = sp.symbols("x y v L")
    equation = GatheredEquation(L, x * v**2 / 2 + y * v**2 / 2 - x * y, (v,))
    assert isinstance(equation, sp.Eq) and equation.lhs == L and equation.velocities == (v,)
    moved = equation.subs(x, 2)
    assert isinstance(moved, GatheredEquation) and moved.rhs == v**2 + y * v**2 / 2 - 2 * y
    assert to_text(equation).splitlines() == [
        "               2      ",
        "L = ½ (x + y) v  - x⋅y",
    ]
    assert sp.latex(equation) == r"L = \tfrac{1}{2} \left( x + y \right) v^{2} - x y"
