"""The two worked derivations of a DH robot: the steps are complete, consistent and the robot's.

The classes they are made of (Derivation, Step) and their printing: tests/dh/test_derivation.py.
"""

from __future__ import annotations

import pytest
import sympy as sp
from reference.dh_arms import moro_arm

from robolab import Derivation, DHRobot, Step
from robolab.dh.simplify import simplify_matrix, simplify_trig
from robolab.symbols import l1, l2, q1, q2


@pytest.fixture(scope="module")
def elbow():
    robot = moro_arm("elbow_rrr")
    return robot, robot.lagrangian_derivation()


def steps_titled(derivation: Derivation, prefix: str) -> list[Step]:
    return [step for step in derivation if step.title.startswith(prefix)]


def one(derivation: Derivation, title: str) -> Step:
    (step,) = [step for step in derivation if step.title == title]
    return step


def test_forward_kinematics_steps_multiply_the_link_transforms():
    tool = sp.eye(4)
    tool[0, 3] = 0.1
    robot = DHRobot((l1, 0, 0, q1), (l2, sp.pi / 2, 0, q2), tool=tool, name="arm")
    derivation = robot.forward_kinematics_derivation()
    assert derivation.title == "Forward kinematics of arm"
    titles = [step.title for step in derivation]
    assert titles == [
        "Link transform",
        "Link transform A_1",
        "Link transform A_2",
        "Pose of frame {1}",
        "Pose of frame {2}",
        "End-effector pose",
    ]
    A1, A2 = derivation[1].expression.rhs, derivation[2].expression.rhs
    assert robot.Ts[0] == A1 and robot.Ts[1] == A2
    T1, T2 = derivation[3].expression.rhs, derivation[4].expression.rhs
    assert T1 == A1
    assert simplify_matrix(T2 - T1 * A2) == sp.zeros(4, 4)
    assert simplify_matrix(derivation[5].expression.rhs - T2 * tool) == sp.zeros(4, 4)
    general = derivation[0].expression.rhs
    a, alpha, d, theta = sp.symbols("a_i alpha_i d_i theta_i", real=True)
    assert general.subs({a: l1, alpha: 0, d: 0, theta: q1}) == A1
    assert all(
        isinstance(symbol, sp.MatrixSymbol) for step in derivation for symbol in step.introduces
    )


def test_modified_forward_kinematics_names_its_convention():
    robot = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified")
    first = robot.forward_kinematics_derivation()[0]
    assert "Modified DH (Craig)" in first.explanation
    assert first.expression.rhs[0, 3] == sp.Symbol("a_i", real=True)


def test_lagrangian_steps_come_in_order(elbow):
    _, derivation = elbow
    titles = [step.title for step in derivation]
    assert titles[:6] == [
        "Centre of mass of link 1",
        "Jacobian of link 1",
        "Centre of mass of link 2",
        "Jacobian of link 2",
        "Centre of mass of link 3",
        "Jacobian of link 3",
    ]
    expected_order = [
        "Kinetic energy of link 1",
        "Potential energy of link 3",
        "Kinetic energy",
        "Potential energy",
        "Lagrangian",
        "Inertia matrix entry M_11",
        "Inertia matrix entry M_33",
        "Inertia matrix",
        "Coriolis matrix",
        "Gravity vector",
        "Equations of motion",
        "Check: M is symmetric",
        "Check: M is positive definite",
        "Check: Ṁ − 2C is skew-symmetric",
    ]
    positions = [titles.index(title) for title in expected_order]
    assert positions == sorted(positions)
    assert titles[-3:] == expected_order[-3:]
    for step in derivation:
        assert len(step.title) <= 40
        assert step.explanation.count(". ") <= 1  # one or two sentences
        assert step.latex()


def test_energy_steps_add_up(elbow):
    robot, derivation = elbow
    n = robot.dof
    kinetic = [
        one(derivation, f"Kinetic energy of link {i}").expression.rhs for i in range(1, n + 1)
    ]
    potential = [
        one(derivation, f"Potential energy of link {i}").expression.rhs for i in range(1, n + 1)
    ]
    K = one(derivation, "Kinetic energy").expression.rhs
    P = one(derivation, "Potential energy").expression.rhs
    assert simplify_trig(sum(kinetic) - K) == 0
    assert simplify_trig(sum(potential) - P) == 0
    assert simplify_trig(one(derivation, "Lagrangian").expression.rhs - (K - P)) == 0
    # the link quantities are the robot's
    for i in range(1, n + 1):
        assert one(derivation, f"Centre of mass of link {i}").expression.rhs == robot.r_cm(i)
        assert one(derivation, f"Jacobian of link {i}").expression.rhs == robot.J_cm_i(i)


def test_inertia_matrix_entries_assemble_m_and_come_from_k(elbow):
    robot, derivation = elbow
    M = one(derivation, "Inertia matrix").expression.rhs
    K = one(derivation, "Kinetic energy").expression.rhs
    velocities = [robot.q_dot(i) for i in (1, 2, 3)]
    for j in range(3):
        for k in range(j, 3):
            entry = one(derivation, f"Inertia matrix entry M_{j + 1}{k + 1}").expression.rhs
            assert entry == M[j, k] == M[k, j]
            # M_jk = d²K / dq̇_j dq̇_k, differentiating the K of the derivation itself
            second = K.diff(velocities[j]).diff(velocities[k])
            assert simplify_trig(second - entry) == 0
    assert robot.inertia_matrix() == M


def test_every_nonzero_christoffel_symbol_is_a_step(elbow):
    robot, derivation = elbow
    M = one(derivation, "Inertia matrix").expression.rhs
    qs = robot.qs
    found = {
        step.introduces[0]: step.expression.rhs for step in steps_titled(derivation, "Christoffel")
    }
    expected = {}
    for i in range(3):
        for j in range(3):
            for k in range(j, 3):
                value = (M[i, j].diff(qs[k]) + M[i, k].diff(qs[j]) - M[j, k].diff(qs[i])) / 2
                if simplify_trig(value) != 0:
                    expected[sp.Symbol(f"c_{{{i + 1}{j + 1}{k + 1}}}")] = value
    assert set(found) == set(expected)
    for symbol, value in expected.items():
        assert simplify_trig(found[symbol] - value) == 0
    # C from the Christoffel steps (c_ikj = c_ijk), G from the potential energy step
    C = one(derivation, "Coriolis matrix").expression.rhs
    for i in range(3):
        for j in range(3):
            total = sum(
                found.get(sp.Symbol(f"c_{{{i + 1}{min(j, k) + 1}{max(j, k) + 1}}}"), 0)
                * robot.q_dot(k + 1)
                for k in range(3)
            )
            assert simplify_trig(C[i, j] - total) == 0
    P = one(derivation, "Potential energy").expression.rhs
    G = one(derivation, "Gravity vector").expression.rhs
    assert simplify_matrix(G - sp.Matrix([P.diff(q) for q in qs])) == sp.zeros(3, 1)
    motion = one(derivation, "Equations of motion").expression  # the same maths, printed short
    model = robot.dynamic_model()
    assert (motion.lhs, motion.rhs) == (model.lhs, model.rhs)
    M = one(derivation, "Inertia matrix").expression.rhs
    assert [(str(symbol), matrix) for symbol, matrix in motion.definitions] == [
        ("M", M),
        ("C", C),
        ("G", G),
    ]


def test_property_checks_hold(elbow):
    _, derivation = elbow
    for title in (
        "Check: M is symmetric",
        "Check: M is positive definite",
        "Check: Ṁ − 2C is skew-symmetric",
    ):
        assert "(holds)" in one(derivation, title).explanation
    N = one(derivation, "Check: Ṁ − 2C is skew-symmetric").expression.rhs
    assert simplify_matrix(N + N.T) == sp.zeros(3, 3)


def test_checks_hold_with_float_parameters():
    # round-off in float coefficients must not turn a check into "FAILS"
    derivation = moro_arm("numeric_rpr").lagrangian_derivation()
    checks = steps_titled(derivation, "Check:")
    assert len(checks) == 3
    assert all("(holds)" in step.explanation for step in checks)


# --- readable steps ------------------------------------------------------------------------------


def test_centres_of_mass_are_collected():
    # planar 2R: c_1 = (l_c1 - l_1, 0, 0) in frame {1}; no l_1 cos q1 + (-l_1 + l_c1) cos q1
    derivation = moro_arm("planar_rr").lagrangian_derivation()
    r_c1 = one(derivation, "Centre of mass of link 1").expression.rhs
    r_c2 = one(derivation, "Centre of mass of link 2").expression.rhs
    lc1, lc2 = sp.symbols("l_c1 l_c2", real=True)
    assert r_c1 == sp.Matrix([lc1 * sp.cos(q1), lc1 * sp.sin(q1), 0])
    assert r_c2 == sp.Matrix(
        [l1 * sp.cos(q1) + lc2 * sp.cos(q1 + q2), l1 * sp.sin(q1) + lc2 * sp.sin(q1 + q2), 0]
    )


def test_inertia_entries_say_which_links_contribute_in_plain_english(elbow):
    _, derivation = elbow  # M_12 = M_13 = 0 for the elbow manipulator

    def said(title: str) -> str:
        return one(derivation, title).explanation.split(". ", 1)[1]

    assert said("Inertia matrix entry M_11") == (
        "All 3 links move with joint 1, so all of them contribute."
    )
    assert said("Inertia matrix entry M_12") == (
        "Only links 2 and 3 move with both joints 1 and 2, and their terms add up to zero."
    )
    assert said("Inertia matrix entry M_13") == (
        "Only link 3 moves with both joints 1 and 3, and its term is zero."
    )
    assert said("Inertia matrix entry M_22") == (
        "Only links 2 and 3 move with joint 2, so only they contribute."
    )
    assert said("Inertia matrix entry M_23") == (
        "Only link 3 moves with both joints 2 and 3, so it alone contributes."
    )
    two = moro_arm("planar_rr").lagrangian_derivation()
    assert one(two, "Inertia matrix entry M_11").explanation.endswith(
        "Both links move with joint 1, so both contribute."
    )
    assert (
        r"\partial^2 K / \partial \dot q_1^2" in one(two, "Inertia matrix entry M_11").explanation
    )


def test_jacobian_and_coriolis_steps_say_what_is_true(elbow):
    _, derivation = elbow
    explanations = {step.title: step.explanation for step in derivation}
    assert explanations["Jacobian of link 1"].endswith(
        "; joints 2 and 3 do not move link 1, so their columns are zero."
    )
    assert explanations["Jacobian of link 2"].endswith(
        "; joint 3 does not move link 2, so its column is zero."
    )
    assert "do not move" not in explanations["Jacobian of link 3"]
    assert explanations["Coriolis matrix"].endswith(
        "; the remaining 17 of the 27 Christoffel symbols are zero."
    )
    listed = 0  # c_ijk with j < k stands for its twin c_ikj too
    for step in steps_titled(derivation, "Christoffel symbol"):
        _, j, k = step.title[-3:]
        listed += 1 if j == k else 2
    assert listed == 27 - 17


def test_explanations_print_joint_variables_as_in_textbooks():
    robot = DHRobot((l1, 0, 0, q1 + sp.pi / 2), (l2, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    steps = [*robot.forward_kinematics_derivation(), *robot.lagrangian_derivation()]
    assert all(r"\left(t" not in step.explanation for step in steps)
    assert "$\\theta = q_{1} + \\frac{\\pi}{2}$" in steps[1].explanation


def test_equations_of_motion_print_in_textbook_order(elbow):
    _, derivation = elbow
    step = one(derivation, "Equations of motion")
    latex = step.latex()
    M_at, C_at, G_at = (latex.index(rf"\\ {name} &= ") for name in "MCG")  # lines of their own
    assert latex.index(r"M \ddot{q} + C \dot{q} + G &= \tau") < M_at < C_at < G_at
    assert "g l_{2} m_{3}" in latex[G_at:]
    text = step.text()
    assert text.index("M⋅q̈ + C⋅q̇ + G = τ") < text.index("M = ") < text.index("C = ")


def test_equations_of_motion_of_the_planar_2r_arm_match_the_closed_form():
    """Spong, Hutchinson and Vidyasagar §7.4.1 (planar elbow), written out by hand: the M, C, G
    the equations-of-motion step shows, and its one equation M q̈ + C q̇ + G = τ, row by row."""
    from robolab.symbols import Izz1, Izz2, g, lc1, lc2, m1, m2, t

    arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    arm.gravity = (0, -g, 0)
    motion = one(arm.lagrangian_derivation(), "Equations of motion").expression
    qd1, qd2, qdd1, qdd2 = q1.diff(t), q2.diff(t), q1.diff(t, 2), q2.diff(t, 2)
    d11 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * sp.cos(q2)) + Izz1 + Izz2
    d12 = m2 * (lc2**2 + l1 * lc2 * sp.cos(q2)) + Izz2
    d22 = m2 * lc2**2 + Izz2
    h = -m2 * l1 * lc2 * sp.sin(q2)
    M = sp.Matrix([[d11, d12], [d12, d22]])
    C = sp.Matrix([[h * qd2, h * qd2 + h * qd1], [-h * qd1, 0]])
    G = sp.Matrix(
        [
            (m1 * lc1 + m2 * l1) * g * sp.cos(q1) + m2 * lc2 * g * sp.cos(q1 + q2),
            m2 * lc2 * g * sp.cos(q1 + q2),
        ]
    )
    shown = dict((str(symbol), matrix) for symbol, matrix in motion.definitions)
    for name, hand in (("M", M), ("C", C), ("G", G)):
        assert simplify_matrix(sp.Matrix(shown[name]) - hand) == sp.zeros(*hand.shape), name
    torques = M * sp.Matrix([qdd1, qdd2]) + C * sp.Matrix([qd1, qd2]) + G
    assert simplify_matrix(sp.Matrix(motion.lhs.doit()) - torques) == sp.zeros(2, 1)
    assert list(motion.rhs) == [sp.Symbol("tau_1", real=True), sp.Symbol("tau_2", real=True)]


# --- the energy and Lagrangian steps, gathered by joint velocities (GatheredEquation) ----------


def test_kinetic_energy_brackets_are_the_entries_of_m(elbow):
    robot, derivation = elbow
    M = robot.inertia_matrix()
    K = one(derivation, "Kinetic energy").expression
    velocities = [robot.q_dot(i) for i in (1, 2, 3)]
    found = {}
    for sign, factor, terms, product in K.groups():
        bracket = sign * factor * sp.Add(*[s * term for s, term in terms])
        found[product] = bracket
    for j in range(3):
        for k in range(j, 3):
            product = velocities[j] * velocities[k]
            expected = M[j, k] / 2 if j == k else M[j, k]  # K = ½ Σ M_jj q̇_j² + Σ_{j<k} M_jk …
            assert simplify_trig(found.get(product, 0) - expected) == 0, (j, k)
    # ½ in front of every square: the brackets themselves are M_11, M_22, M_33
    squares = [group for group in K.groups() if group[3].is_Pow]
    assert [factor for _, factor, _, _ in squares] == [sp.S.Half] * 3


def test_lagrangian_prints_one_bracket_per_velocity_product_then_minus_p():
    robot = moro_arm("planar_rr")
    step = one(robot.lagrangian_derivation(), "Lagrangian")
    assert "$L = K - P$" in step.explanation
    assert step.expression.rhs == robot.kinetic_energy() - robot.potential_energy()
    latex = step.latex()
    qd1, qd2 = r"\dot{q}_{1}", r"\dot{q}_{2}"
    assert latex.startswith(r"\begin{aligned} L = {} & \tfrac{1}{2} \left( I_{zz1} + I_{zz2}")
    assert latex.count(r"\\") == 2 and latex.endswith(r"\end{aligned}")  # three lines
    order = [latex.index(f"{qd1}^{{2}}"), latex.index(f"{qd1} {qd2}"), latex.index(f"{qd2}^{{2}}")]
    assert order == sorted(order)
    assert r"&\quad - g \left( l_{1} m_{2} \sin{\left(q_{1} \right)}" in latex
    text = step.text()
    assert text.splitlines()[1].startswith("L = ½ ")
    assert "- g (l₁⋅m₂⋅sin(q₁) + l_c1⋅m₁⋅sin(q₁) + l_c2⋅m₂⋅sin(q₁ + q₂))" in text
