"""Chapter 8's new material checked against sources outside robolab.

The revised chapter adds: the energy statement of step 24 of ``lagrangian_derivation()``
(q̇ᵀ C q̇ = ½ q̇ᵀ Ṁ q̇ ≠ 0, the energy balance), a second matrix C' with the same C q̇, the
regressor Y of the planar 2R arm (τ = Y β) and two exercises on an RP arm (its M, C, G, and
the conservation of K + P in free motion). The references are the Modern Robotics library
(``modern_robotics``: mass matrix, velocity-product forces, gravity, inverse and forward
dynamics of the same arms as screw chains) and the closed forms derived by hand in the
notebook, which these tests hold against that library.
"""

from __future__ import annotations

import contextlib
import io

import modern_robotics as mr
import numpy as np
import pytest
import sympy as sp
from chapter_cells import notebook_cells, run_setup_cells

import robolab
from robolab.symbols import (
    Iyy1,
    Iyy2,
    Izz1,
    Izz2,
    g,
    l1,
    l2,
    lc1,
    lc2,
    m1,
    m2,
    q1,
    q2,
    qd1,
    qd2,
)

GRAVITY = np.array([0.0, -9.81, 0.0])  # y0 up, as in the chapter


def translation(x: float) -> np.ndarray:
    """A pure translation by x along x, 4×4."""
    T = np.eye(4)
    T[0, 3] = x
    return T


def spatial_inertia(mass: float, izz: float) -> np.ndarray:
    """MR's 6×6 spatial inertia of a planar link turning about z (small inertias about x, y)."""
    return np.diag([1e-3, 1e-3, izz, mass, mass, mass])


# --- the RP arm of exercises 4 and 5 ---------------------------------------------------------

RP = {"m1": 1.7, "m2": 0.9, "lc1": 0.31, "I1": 0.045, "I2": 0.012}


def rp_screw_chain(p: dict[str, float]) -> tuple[list, list, np.ndarray]:
    """The RP arm in MR's form: joint 1 about z0, joint 2 sliding along the arm (x at home)."""
    Mlist = [translation(p["lc1"]), translation(-p["lc1"]), np.eye(4)]
    Glist = [spatial_inertia(p["m1"], p["I1"]), spatial_inertia(p["m2"], p["I2"])]
    Slist = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0]], dtype=float).T
    return Mlist, Glist, Slist


def rp_closed_form(p: dict[str, float], q: np.ndarray, qd: np.ndarray):
    """The chapter's hand derivation (exercise 4's solution): M, C, G of the RP arm."""
    M = np.array(
        [[p["m1"] * p["lc1"] ** 2 + p["I1"] + p["I2"] + p["m2"] * q[1] ** 2, 0], [0, p["m2"]]]
    )
    C = np.array([[p["m2"] * q[1] * qd[1], p["m2"] * q[1] * qd[0]], [-p["m2"] * q[1] * qd[0], 0]])
    G = 9.81 * np.array(
        [(p["m1"] * p["lc1"] + p["m2"] * q[1]) * np.cos(q[0]), p["m2"] * np.sin(q[0])]
    )
    return M, C, G


def rp_robolab_model() -> sp.Matrix:
    """Exercise 4's reference, built as in the notebook's hidden setup cell."""
    rp = robolab.DHRobot((0, sp.pi / 2, 0, q1 + sp.pi / 2), (0, 0, q2, 0, "p"), name="RP arm")
    rp.cm_positions = [(0, 0, lc1), (0, 0, 0)]
    rp.gravity = (0, -g, 0)
    parts = (rp.inertia_matrix(), rp.coriolis_matrix(), rp.gravity_vector())
    return sp.Matrix.hstack(*parts).subs({Iyy1: Izz1, Iyy2: Izz2})


def test_rp_closed_form_matches_modern_robotics() -> None:
    # The hand-derived M, C q̇ and G of the RP arm against MR's dynamics of the same screw chain.
    Mlist, Glist, Slist = rp_screw_chain(RP)
    rng = np.random.default_rng(84)
    for _ in range(20):
        q, qd = rng.uniform(-1.5, 1.5, 2), rng.uniform(-2.0, 2.0, 2)
        M, C, G = rp_closed_form(RP, q, qd)
        np.testing.assert_allclose(M, mr.MassMatrix(q, Mlist, Glist, Slist), atol=1e-10)
        np.testing.assert_allclose(
            C @ qd, mr.VelQuadraticForces(q, qd, Mlist, Glist, Slist), atol=1e-10
        )
        np.testing.assert_allclose(G, mr.GravityForces(q, GRAVITY, Mlist, Glist, Slist), atol=1e-10)


def test_rp_reference_of_exercise_4_is_the_closed_form() -> None:
    # The notebook's reference (robolab's derivation) equals the hand derivation, term by term.
    expected = rp_robolab_model()
    M = sp.Matrix([[m1 * lc1**2 + Izz1 + Izz2 + m2 * q2**2, 0], [0, m2]])
    C = sp.Matrix([[m2 * q2 * qd2, m2 * q2 * qd1], [-m2 * q2 * qd1, 0]])
    G = sp.Matrix([g * (m1 * lc1 + m2 * q2) * sp.cos(q1), g * m2 * sp.sin(q1)])
    assert sp.simplify(expected - sp.Matrix.hstack(M, C, G)) == sp.zeros(2, 5)


def test_rp_free_motion_conserves_energy_with_modern_robotics() -> None:
    # Exercise 5's premise: with τ = 0, K + P after 1 s equals its starting value (the expected
    # answer). MR's forward dynamics, integrated with RK4 at 1 ms, from the seed-85 start state.
    p = {"m1": 1.1, "m2": 1.2, "lc1": 0.34, "I1": 0.058, "I2": 0.018}
    Mlist, Glist, Slist = rp_screw_chain(p)

    def rate(state: np.ndarray) -> np.ndarray:
        q, qd = state[:2], state[2:]
        qdd = mr.ForwardDynamics(q, qd, np.zeros(2), GRAVITY, np.zeros(6), Mlist, Glist, Slist)
        return np.concatenate([qd, qdd])

    def energy(state: np.ndarray) -> float:
        q, qd = state[:2], state[2:]
        kinetic = 0.5 * qd @ mr.MassMatrix(q, Mlist, Glist, Slist) @ qd
        return kinetic + 9.81 * (p["m1"] * p["lc1"] + p["m2"] * q[1]) * np.sin(q[0])

    state = np.array([-0.28, 0.37, 1.16, 0.0])
    start = energy(state)
    closed_form = 0.5 * (p["m1"] * p["lc1"] ** 2 + p["I1"] + p["I2"] + p["m2"] * 0.37**2) * 1.16**2
    closed_form += 9.81 * (p["m1"] * p["lc1"] + p["m2"] * 0.37) * np.sin(-0.28)
    assert abs(start - closed_form) < 1e-9
    step = 1e-3
    for _ in range(1000):
        k1 = rate(state)
        k2 = rate(state + step / 2 * k1)
        k3 = rate(state + step / 2 * k2)
        k4 = rate(state + step * k3)
        state = state + step / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    assert abs(energy(state) - start) < 1e-7


# --- the planar 2R arm: energy statement, C', regressor ---------------------------------------

TWO_R = {
    "l1": 0.8,
    "l2": 0.6,
    "lc1": 0.35,
    "lc2": 0.25,
    "m1": 2.3,
    "m2": 1.4,
    "I1": 0.06,
    "I2": 0.03,
}


def two_r_screw_chain(p: dict[str, float]) -> tuple[list, list, np.ndarray]:
    """The planar 2R arm of section 2 in MR's form (joints about z, links along x at home)."""
    Mlist = [
        translation(p["lc1"]),
        translation(p["l1"] - p["lc1"] + p["lc2"]),
        translation(p["l2"] - p["lc2"]),
    ]
    Glist = [spatial_inertia(p["m1"], p["I1"]), spatial_inertia(p["m2"], p["I2"])]
    Slist = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -p["l1"], 0]], dtype=float).T
    return Mlist, Glist, Slist


def test_velocity_power_is_half_qd_mdot_qd_not_zero() -> None:
    # q̇ᵀ (C q̇) from MR equals ½ q̇ᵀ Ṁ q̇ (Ṁ by central differences of MR's mass matrix along q̇),
    # and equals the chapter's closed form h q̇1 q̇2 (q̇1 + q̇2), h = −m2 l1 l_c2 sin q2: not zero.
    Mlist, Glist, Slist = two_r_screw_chain(TWO_R)
    rng = np.random.default_rng(8)
    for _ in range(10):
        q, qd = rng.uniform(-2.0, 2.0, 2), rng.uniform(-2.0, 2.0, 2)
        power = qd @ mr.VelQuadraticForces(q, qd, Mlist, Glist, Slist)
        eps = 1e-6
        Mdot = (
            mr.MassMatrix(q + eps * qd, Mlist, Glist, Slist)
            - mr.MassMatrix(q - eps * qd, Mlist, Glist, Slist)
        ) / (2 * eps)
        h = -TWO_R["m2"] * TWO_R["l1"] * TWO_R["lc2"] * np.sin(q[1])
        assert abs(power - 0.5 * qd @ Mdot @ qd) < 1e-6
        assert abs(power - h * qd[0] * qd[1] * (qd[0] + qd[1])) < 1e-10
    assert abs(power) > 1e-3  # the velocity terms do work


def test_second_coriolis_matrix_same_torques_not_skew() -> None:
    # C' = [[2h q̇2, h q̇2], [−h q̇1, 0]] gives MR's velocity-product torques, but Ṁ − 2C' is not skew.
    Mlist, Glist, Slist = two_r_screw_chain(TWO_R)
    q, qd = np.array([0.4, 1.1]), np.array([0.7, -1.3])
    h = -TWO_R["m2"] * TWO_R["l1"] * TWO_R["lc2"] * np.sin(q[1])
    C_other = np.array([[2 * h * qd[1], h * qd[1]], [-h * qd[0], 0.0]])
    np.testing.assert_allclose(
        C_other @ qd, mr.VelQuadraticForces(q, qd, Mlist, Glist, Slist), atol=1e-10
    )
    Mdot = np.array([[2 * h * qd[1], h * qd[1]], [h * qd[1], 0.0]])  # from M_11, M_12 of Spong
    N_other = Mdot - 2 * C_other
    np.testing.assert_allclose(
        N_other + N_other.T, [[-4 * h * qd[1], 2 * h * qd[0]], [2 * h * qd[0], 0]], atol=1e-12
    )
    assert abs(qd @ N_other @ qd) < 1e-12


def test_regressor_times_parameters_is_modern_robotics_inverse_dynamics() -> None:
    # The chapter's Y(q, q̇, q̈) and θ (five parameters) against MR's inverse dynamics.
    p = TWO_R
    Mlist, Glist, Slist = two_r_screw_chain(p)
    theta = np.array(
        [
            p["m1"] * p["lc1"] ** 2 + p["m2"] * (p["l1"] ** 2 + p["lc2"] ** 2) + p["I1"] + p["I2"],
            p["m2"] * p["l1"] * p["lc2"],
            p["m2"] * p["lc2"] ** 2 + p["I2"],
            p["m1"] * p["lc1"] + p["m2"] * p["l1"],
            p["m2"] * p["lc2"],
        ]
    )
    rng = np.random.default_rng(5)
    for _ in range(20):
        (a1, a2), (w1, w2), (u1, u2) = (rng.uniform(-2.0, 2.0, 2) for _ in range(3))
        c1, c2, s2, c12 = np.cos(a1), np.cos(a2), np.sin(a2), np.cos(a1 + a2)
        Y = np.array(
            [
                [u1, c2 * (2 * u1 + u2) - s2 * (2 * w1 * w2 + w2**2), u2, 9.81 * c1, 9.81 * c12],
                [0.0, c2 * u1 + s2 * w1**2, u1 + u2, 0.0, 9.81 * c12],
            ]
        )
        tau = mr.InverseDynamics(
            [a1, a2], [w1, w2], [u1, u2], GRAVITY, np.zeros(6), Mlist, Glist, Slist
        )
        np.testing.assert_allclose(Y @ theta, tau, atol=1e-10)


def test_derivation_step_states_the_energy_balance() -> None:
    # Step 24's text no longer claims that the velocity forces do no work.
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    arm.gravity = (0, -g, 0)
    step = arm.lagrangian_derivation()[-1]
    assert step.title == "Check: Ṁ − 2C is skew-symmetric"
    text = step.explanation
    assert "do no work" not in text
    assert "energy balance" in text
    assert "\\tfrac12 \\dot q^T \\dot M \\dot q \\ne 0" in text
    assert text.count(". ") <= 1


# --- the chapter's real exercises given the usual slips ------------------------------------------
#
# The exercises are built by running the chapter's own set-up cells; every expected value below is
# a closed form by hand (Spong, Hutchinson and Vidyasagar §7.4.1 for the planar elbow; the RP
# arm's M, C, G of exercise 4's worked solution), never robolab's.


@pytest.fixture(scope="module")
def chapter() -> dict:
    cells = notebook_cells("08-lagrangian-dynamics.ipynb")
    with contextlib.redirect_stdout(io.StringIO()):  # the set-up cells print summaries
        return run_setup_cells(
            cells,
            "%matplotlib widget",
            "from robolab.symbols import g, l1",
            "M = arm.inertia_matrix()",
            "from robolab.symbols import d1, l3",
            "# The exercises of this chapter",
        )


def fresh(chapter: dict, name: str):
    """The chapter's exercise with its own numbers and no tries yet."""
    exercise = chapter[name]
    return exercise.with_seed(exercise.seed)


def spong_m11(l1, lc1, lc2, m1, m2, I1, I2, q2, sign=1.0):
    """d_11 of the planar elbow; ``sign=-1`` is the law of cosines with the interior angle."""
    return m1 * lc1**2 + m2 * (l1**2 + lc2**2 + sign * 2 * l1 * lc2 * np.cos(q2)) + I1 + I2


def planar2r_gravity(q1, q2, centre=0.5, elbow_load=1.0):
    """G of the uniform 1 m, 1 kg planar 2R arm, gravity 9.81 along −y0 (centres at ``centre``)."""
    outer = 9.81 * centre * np.cos(q1 + q2)
    return np.array([9.81 * (centre + elbow_load) * np.cos(q1) + outer, outer])


def christoffel_pattern() -> np.ndarray:
    """The non-zero c_ijk of the elbow manipulator, by hand (exercise 2's worked solution)."""
    nonzero = np.zeros((3, 3, 3))
    hand = [(1, 1, 2), (1, 2, 1), (1, 1, 3), (1, 3, 1), (2, 1, 1), (3, 1, 1)]
    hand += [(2, 2, 3), (2, 3, 2), (2, 3, 3), (3, 2, 2)]
    for i, j, k in hand:
        nonzero[i - 1, j - 1, k - 1] = 1
    return nonzero


def rp_model_by_hand(M_of=lambda M: M, C_of=lambda C: C, G_of=lambda G: G) -> sp.Matrix:
    """hstack(M, C, G) of the RP arm by hand, one block changed by a slip if asked."""
    M = sp.Matrix([[m1 * lc1**2 + Izz1 + Izz2 + m2 * q2**2, 0], [0, m2]])
    C = sp.Matrix([[m2 * q2 * qd2, m2 * q2 * qd1], [-m2 * q2 * qd1, 0]])
    G = sp.Matrix([g * (m1 * lc1 + m2 * q2) * sp.cos(q1), g * m2 * sp.sin(q1)])
    return sp.Matrix.hstack(M_of(M), C_of(C), G_of(G))


def rp_energy_by_hand(m1, m2, lc1, I1, I2, q1, q2, qd1, sign=1.0):
    """K + P of the RP arm at the start (q̇2 = 0), which free motion keeps."""
    kinetic = 0.5 * (m1 * lc1**2 + I1 + I2 + m2 * q2**2) * qd1**2
    return kinetic + sign * 9.81 * (m1 * lc1 + m2 * q2) * np.sin(q1)


def printed_values(value) -> set[str]:
    """The ways a number (or each entry of an array) could be printed in a message."""
    forms = set()
    for x in np.ravel(np.asarray(value, dtype=float)):
        if abs(x) > 1e-12 and x not in (0.0, 1.0):
            forms |= {f"{x:.4g}", f"{x:.3f}", f"{x:.4f}", f"{x:.6g}", repr(round(float(x), 4))}
    return forms


def assert_reveals_nothing(message: str, expected) -> None:
    shown = [form for form in printed_values(expected) if form in message]
    assert shown == [], f"{shown} of the expected value in: {message}"


EX1_SLIPS = {
    "in degrees": lambda p: spong_m11(**{**p, "q2": np.degrees(p["q2"])}),
    "distance l1 from joint 1": lambda p: spong_m11(**{**p, "lc1": p["l1"]}),
    "law of cosines has a minus sign": lambda p: spong_m11(**p, sign=-1.0),
    "moments of inertia": lambda p: spong_m11(**p) - p["I1"] - p["I2"],
    "half the expected value": lambda p: spong_m11(**p) / 2,  # K's ½ read as M_11's
}


@pytest.mark.parametrize("diagnosis", EX1_SLIPS)
def test_exercise_1_names_each_slip_and_reveals_no_value(chapter, diagnosis) -> None:
    exercise = fresh(chapter, "exercise_1")
    p = exercise.parameters
    assert exercise.check(spong_m11(**p))  # the hand closed form is right
    exercise = fresh(chapter, "exercise_1")
    first = exercise.check(EX1_SLIPS[diagnosis](p)).message
    assert diagnosis in first
    assert_reveals_nothing(first, spong_m11(**p))
    assert "M_11 is the arm's moment of inertia about joint 1" in first  # the first hint only
    assert "law of cosines in the triangle" not in first
    second = exercise.check(EX1_SLIPS[diagnosis](p)).message
    assert "law of cosines in the triangle" in second  # the second hint comes with the 2nd try
    assert_reveals_nothing(second, spong_m11(**p))
    shown = exercise.check(EX1_SLIPS[diagnosis](p), show_expected=True).message
    assert printed_values(spong_m11(**p)) & {w.strip(".,:;()") for w in shown.split()}


EX3_SLIPS = {
    "q1, q2 in degrees": lambda q1, q2: planar2r_gravity(np.degrees(q1), np.degrees(q2)),
    "q1 in degrees": lambda q1, q2: planar2r_gravity(np.degrees(q1), q2),
    "wrong sign": lambda q1, q2: -planar2r_gravity(q1, q2),  # gravity's torque, not the motors'
    "ends of the links": lambda q1, q2: planar2r_gravity(q1, q2, centre=1.0),
    "holds link 2 too": lambda q1, q2: planar2r_gravity(q1, q2, elbow_load=0.0),
}


@pytest.mark.parametrize("diagnosis", EX3_SLIPS)
def test_exercise_3_names_each_slip_and_reveals_no_value(chapter, diagnosis) -> None:
    exercise = fresh(chapter, "exercise_3")
    q = exercise.parameters
    assert exercise.check(planar2r_gravity(**q))
    exercise = fresh(chapter, "exercise_3")
    first = exercise.check(EX3_SLIPS[diagnosis](**q)).message
    assert diagnosis in first
    assert_reveals_nothing(first, planar2r_gravity(**q))
    assert "which term of M q̈ + C q̇ + G = τ is left?" in first
    assert "∂P/∂q with P = Σ m_i g y_ci" not in first


@pytest.mark.parametrize(
    ("wrong", "diagnosis"),
    [
        (lambda E: E * np.triu(np.ones((3, 3))), "only for j ≤ k"),
        (lambda E: np.einsum("kij->ijk", E), "Spong's index order"),
    ],
)
def test_exercise_2_names_each_slip(chapter, wrong, diagnosis) -> None:
    exercise = fresh(chapter, "exercise_2")
    assert exercise.check(christoffel_pattern())
    exercise = fresh(chapter, "exercise_2")
    first = exercise.check(wrong(christoffel_pattern())).message
    assert diagnosis in first
    assert "list first which entries of M" in first and "remember c_ijk = c_ikj" not in first


@pytest.mark.parametrize(
    ("slip", "diagnosis"),
    [
        ({"C_of": lambda C: C.T}, "Your C is transposed"),
        ({"G_of": lambda G: -G}, "Your G has the wrong sign"),
        ({"M_of": lambda M: M - sp.diag(*M.diagonal()) / 2}, "half of it on the diagonal"),
    ],
)
def test_exercise_4_names_each_slip_and_reveals_no_expression(chapter, slip, diagnosis) -> None:
    exercise = fresh(chapter, "exercise_4")
    assert exercise.check(rp_model_by_hand())
    exercise = fresh(chapter, "exercise_4")
    first = exercise.check(rp_model_by_hand(**slip)).message
    assert diagnosis in first
    for entry in ("m_{2} q_{2}", "m2*q2", "m₂⋅q₂", "q_2*m_2"):  # no entry of M, C or G
        assert entry not in first


@pytest.mark.parametrize(
    ("wrong", "diagnosis"),
    [
        (lambda p: rp_energy_by_hand(**{**p, "q1": np.degrees(p["q1"])}), "q1 in degrees"),
        (lambda p: rp_energy_by_hand(**p, sign=-1.0), "potential energy has the wrong sign"),
    ],
)
def test_exercise_5_names_each_slip_and_reveals_no_value(chapter, wrong, diagnosis) -> None:
    exercise = fresh(chapter, "exercise_5")
    p = exercise.parameters
    assert exercise.check(rp_energy_by_hand(**p))
    exercise = fresh(chapter, "exercise_5")
    first = exercise.check(wrong(p)).message
    assert diagnosis in first
    assert_reveals_nothing(first, rp_energy_by_hand(**p))


def test_every_exercise_hint_comes_in_stages_and_is_not_the_answer(chapter) -> None:
    for name in ("exercise_1", "exercise_2", "exercise_3", "exercise_4", "exercise_5"):
        exercise = chapter[name]
        assert len(exercise.hints) >= 2, name
        assert all(hint[0].isupper() for hint in exercise.hints), name
        if name != "exercise_4":  # (its expected value is a SymPy matrix)
            for hint in exercise.hints:
                assert_reveals_nothing(hint, exercise.expected)
    assert chapter["exercise_1"].angles == ("q2",)
    assert chapter["exercise_3"].angles == ("q1", "q2")
    assert chapter["exercise_5"].angles == ("q1",)


def test_the_exercises_intro_names_progress_summary_and_save_progress() -> None:
    cells = notebook_cells("08-lagrangian-dynamics.ipynb")
    (intro,) = [c.source for c in cells if c.cell_type == "markdown" and "## Exercises" in c.source]
    assert "`robolab.progress_summary()`" in intro and "`robolab.save_progress()`" in intro
    assert "~/.robolab/progress.json" in intro and "nothing is sent anywhere" in intro
