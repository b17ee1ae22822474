"""Every number chapter 9 prints, checked against sources outside robolab.

The UR5 of the chapter (``load_robot("ur5")``) is compared with the book's UR5 as typed into
``reference/screw_arms.py`` (its M_i, G_i, S_i from the Modern Robotics software), run through

* **Pinocchio** (``reference/pinocchio_screw.py``): per-joint velocity ``data.v``, acceleration
  with the base's fictitious -g ``data.a_gf`` and transmitted wrench ``data.f`` after
  ``pin.rnea``; Pinocchio writes them in its joint frames and orders them [v; ω] ([f; m]), so
  they are moved to {s} with ``data.oMi[i].act``, their halves swapped, and written in the
  chapter's link frames {i} with [Ad_{T_si⁻¹}] (twists) and [Ad_{T_si}]ᵀ (wrenches), T_si by
  ``mr.FKinSpace``; ``pin.crba`` for M;
* **modern_robotics**: ``Adjoint`` for A_i = [Ad_{M_i⁻¹}] S_i, ``JacobianSpace``,
  ``InverseDynamics``, ``MassMatrix``, ``VelQuadraticForces``, ``GravityForces``,
  ``EndEffectorForces``;
* **closed forms**: Spong, Hutchinson and Vidyasagar's planar elbow (RMC ch. 7: d_11, d_12,
  d_22, h, φ_1, φ_2) for the symbolic 2R section and exercise 1; the gravity torque of a
  pan-tilt boom, -m2 g (L/2) cos θ2, for exercise 4; the book's printed τ of its three-link
  example.

The chapter's code cells (all but the widget) run once in this module to reach the exercise
objects and the SymPy recursion of section 6.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import modern_robotics as mr
import nbformat
import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from exercise_tries import declared_slips_are_named
from reference.pinocchio_screw import pinocchio_from_screw
from reference.screw_arms import (
    UR5_LINK_FRAMES,
    UR5_SCREW_AXES,
    UR5_SPATIAL_INERTIAS,
    three_link_book,
    ur5,
)

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "09-newton-euler-and-mass-matrix.ipynb"
)
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")
PRINTED = 1e-4  # numbers print with four decimals
SWAP = [3, 4, 5, 0, 1, 2]
Q = np.array([0.3, -0.8, 1.2, -0.5, 0.4, 0.2])
QD = np.array([0.5, -0.4, 0.6, 0.3, -0.2, 0.4])
QDD = np.array([0.5, 0.3, -0.2, 0.4, 0.1, -0.3])
GRAVITY = [0.0, 0.0, -9.81]
FRAMES, INERTIAS, SCREWS = list(UR5_LINK_FRAMES), list(UR5_SPATIAL_INERTIAS), UR5_SCREW_AXES


@pytest.fixture(scope="module")
def cells() -> list[nbformat.NotebookNode]:
    return nbformat.read(NOTEBOOK, as_version=4).cells


@pytest.fixture(scope="module")
def chapter(cells) -> dict:
    """The namespace after running the chapter's code cells (not the widget cell)."""
    namespace: dict = {}
    for cell in cells:
        if cell.cell_type != "code" or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.startswith("%matplotlib")
        )
        if source.strip() in {f"exercise_{i}" for i in range(1, 6)}:
            continue
        # the chapter sets NumPy's print options: keep them from leaking into other tests
        with contextlib.redirect_stdout(io.StringIO()), np.printoptions(**np.get_printoptions()):
            exec(compile(source, str(NOTEBOOK), "exec"), namespace)
    return namespace


def output_of(cells, snippet: str) -> str:
    """The printed text of the one code cell whose source contains ``snippet``."""
    hits = [c for c in cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {snippet!r}"
    return "".join(o.get("text", "") for o in hits[0].outputs)


def numbers_on(lines: list[str], label: str, after: int = 0) -> np.ndarray:
    """The numbers of the line ``after`` lines below the one line starting with ``label``."""
    starts = [k for k, line in enumerate(lines) if line.strip().startswith(label)]
    assert len(starts) == 1, f"{len(starts)} lines start with {label!r}"
    line = lines[starts[0] + after]
    if after == 0:
        line = line.strip()[len(label) :]
    return np.array([float(x) for x in NUMBER.findall(line)])


def link_blocks(text: str) -> list[list[str]]:
    """The three printed lines (A, V, dV) of each link of section 2."""
    lines = text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("link ")]
    return [lines[k : k + 3] for k in starts]


def after_equals(line: str) -> np.ndarray:
    return np.array([float(x) for x in NUMBER.findall(line.split("=", 1)[1])])


def newton_euler_classical(mass, inertia, V, dV):
    """One rigid body, frame at its centre of mass: m_b = I ω̇ + ω × I ω, f_b = m (v̇ + ω × v)."""
    w, v, dw, dv = V[:3], V[3:], dV[:3], dV[3:]
    return np.concatenate([inertia @ dw + np.cross(w, inertia @ w), mass * (dv + np.cross(w, v))])


BOX_MASS = 3.0
BOX_INERTIA = BOX_MASS / 12 * np.diag([0.2**2 + 0.1**2, 0.4**2 + 0.1**2, 0.4**2 + 0.2**2])
BOX_TWIST = np.array([0.0, 3.0, 4.0, 0.5, 0.0, 0.0])
BOX_ACCELERATION = np.array([1.0, -2.0, 0.5, 0.2, 0.3, -1.0])


def test_single_body_section_matrices(cells):
    """Section 2: G_b of the box, [ad_V] (MR's ad), the Lie bracket and d/dt [Ad] = [ad]."""
    text = output_of(cells, "commutator = robolab.vec_to_se3(V_b)")
    lines = text.splitlines()
    # the box's inertia from the textbook formula m (b² + c²)/12 ..., by hand
    np.testing.assert_allclose(BOX_INERTIA.diagonal(), [0.0125, 0.0425, 0.05], atol=1e-15)
    np.testing.assert_allclose(
        numbers_on(lines, "diagonal of G_b = diag(I_b, m 1):"),
        [*BOX_INERTIA.diagonal(), 3, 3, 3],
        atol=PRINTED,
    )
    start = lines.index("[ad_V] of V_b:")
    printed = np.array(
        [[float(x) for x in NUMBER.findall(line)] for line in lines[start + 1 : start + 7]]
    )
    np.testing.assert_allclose(printed, mr.ad(BOX_TWIST), atol=PRINTED)
    other = np.array([0.2, 0.0, -0.1, 0.0, 1.0, 0.0])
    bracket = mr.VecTose3(BOX_TWIST) @ mr.VecTose3(other) - mr.VecTose3(other) @ mr.VecTose3(
        BOX_TWIST
    )
    np.testing.assert_allclose(mr.se3ToVec(bracket), mr.ad(BOX_TWIST) @ other, atol=1e-12)
    np.testing.assert_allclose(numbers_on(lines, "[ad_V] V_2:"), mr.se3ToVec(bracket), atol=PRINTED)
    np.testing.assert_allclose(
        numbers_on(lines, "[V][V_2] - [V_2][V] as a twist:"), mr.se3ToVec(bracket), atol=PRINTED
    )
    # d/dt [Ad_exp([V] t)] at 0 is [ad_V]: MR's Adjoint and MatrixExp6, a central difference
    h = 1e-5
    rate = (
        mr.Adjoint(mr.MatrixExp6(mr.VecTose3(BOX_TWIST * h)))
        - mr.Adjoint(mr.MatrixExp6(mr.VecTose3(-BOX_TWIST * h)))
    ) / (2 * h)
    error = np.abs(rate - mr.ad(BOX_TWIST)).max()
    assert error < 1e-8
    printed_error = float(text.split("largest entry:")[1].split()[0])
    assert printed_error < 1e-8
    assert "[ad_V] V = 0: True" in text


def test_single_body_equation_is_newton_and_euler(cells):
    """Section 2: the printed wrenches are the classical Newton–Euler equations of the box."""
    text = output_of(cells, "steady = -robolab.ad(V_b).T @ G_b @ V_b")
    lines = text.splitlines()
    steady = newton_euler_classical(BOX_MASS, BOX_INERTIA, BOX_TWIST, np.zeros(6))
    np.testing.assert_allclose(
        numbers_on(lines, "steady turn, dV_b = 0:  F_b = [m_b; f_b] ="), steady, atol=PRINTED
    )
    # the reading: the steady moment lies along x_b, and the force is the centripetal m |v|²/r
    assert steady[0] > 0 and np.allclose(steady[1:3], 0)
    w, v = BOX_TWIST[:3], BOX_TWIST[3:]
    radius = np.linalg.norm(v) / np.linalg.norm(w)  # pitch 0: the centre of mass circles
    assert w @ v == 0
    assert np.linalg.norm(steady[3:]) == pytest.approx(BOX_MASS * (v @ v) / radius)
    assert not np.allclose(np.cross(w, BOX_INERTIA @ w), 0)  # not a principal axis
    moving = newton_euler_classical(BOX_MASS, BOX_INERTIA, BOX_TWIST, BOX_ACCELERATION)
    np.testing.assert_allclose(
        numbers_on(lines, "accelerating:           F_b ="), moving, atol=PRINTED
    )
    np.testing.assert_allclose(
        numbers_on(lines, "Euler, I ω̇ + ω × I ω:    m_b ="), moving[:3], atol=PRINTED
    )
    np.testing.assert_allclose(
        numbers_on(lines, "Newton, m (v̇ + ω × v):   f_b ="), moving[3:], atol=PRINTED
    )
    assert lines[-1] == "the same: True"


def test_exercise_1_reference_is_newton_and_euler(chapter):
    """Exercise 1: the cylinder's wrench against the classical equations; the slips are named."""
    exercise = chapter["exercise_1"]
    p = exercise.parameters
    m, r, L = p["m"], p["r"], p["L"]
    inertia = np.diag([m * (3 * r**2 + L**2) / 12] * 2 + [m * r**2 / 2])
    V, dV = np.array(p["V"]), np.array(p["dV"])
    expected = newton_euler_classical(m, inertia, V, dV)
    np.testing.assert_allclose(exercise.expected, expected, atol=1e-12)
    assert exercise.check(expected).correct
    G = np.diag([*inertia.diagonal(), m, m, m])
    rod = np.diag([m * L**2 / 12] * 2 + [m * r**2 / 2])
    wrong = {
        "is missing": G @ dV,
        "wrong sign": G @ dV + mr.ad(V).T @ G @ V,
        "transpose belongs": G @ dV - mr.ad(V) @ G @ V,
        "moment first": np.r_[expected[3:], expected[:3]],
        "thin rod": newton_euler_classical(m, rod, V, dV),
    }
    for words, answer in wrong.items():
        result = exercise.check(answer)
        assert not result.correct
        assert words in result.message, (words, result.message)
    exercise.wrong_tries = 0


@pytest.fixture(scope="module")
def pinocchio_values():
    """Pinocchio's V_i, V̇_i, F_i in the link frames {i}, and τ, at the chapter's state."""
    robot = ur5()
    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    pin.forwardKinematics(model, data, Q)
    tau = pin.rnea(model, data, Q, QD, QDD).copy()
    values = {"V": [], "dV": [], "F": [], "A": [], "pose": []}
    home = np.eye(4)
    for i in range(6):
        home = home @ FRAMES[i]
        pose = mr.FKinSpace(home, SCREWS[:, : i + 1], Q[: i + 1])
        to_link = mr.Adjoint(mr.TransInv(pose))
        placement = data.oMi[i + 1]
        values["V"].append(to_link @ placement.act(data.v[i + 1]).vector[SWAP])
        values["dV"].append(to_link @ placement.act(data.a_gf[i + 1]).vector[SWAP])
        values["F"].append(mr.Adjoint(pose).T @ placement.act(data.f[i + 1]).vector[SWAP])
        values["A"].append(mr.Adjoint(mr.TransInv(home)) @ SCREWS[:, i])
        values["pose"].append(pose)
    return {key: np.array(rows) for key, rows in values.items()}, tau, (model, data)


def test_forward_pass_values(cells, pinocchio_values):
    values, _, _ = pinocchio_values
    text = output_of(cells, "steps = robolab.inverse_dynamics_rnea_steps(ur5, q, qd, qdd)")
    first = text.splitlines()[0]
    assert first.startswith("gravity g = [ 0.    0.   -9.81]")
    dv0 = [float(x) for x in NUMBER.findall(first.rsplit("=", 1)[1])]
    np.testing.assert_allclose(dv0, [0, 0, 0, 0, 0, 9.81], atol=0)
    blocks = link_blocks(text)
    assert len(blocks) == 6
    for i, (a, v, dv) in enumerate(blocks):
        np.testing.assert_allclose(after_equals(a), values["A"][i], atol=PRINTED)
        np.testing.assert_allclose(after_equals(v), values["V"][i], atol=PRINTED)
        np.testing.assert_allclose(after_equals(dv), values["dV"][i], atol=PRINTED)


def test_backward_pass_values_and_torques(cells, pinocchio_values):
    values, tau, _ = pinocchio_values
    text = output_of(cells, 'print(f"link {record.link}: F = ')
    lines = text.splitlines()
    for i in range(6):
        line = lines[i]
        wrench, torque = line.split("tau =")
        np.testing.assert_allclose(after_equals(wrench), values["F"][i], atol=PRINTED)
        assert float(torque) == pytest.approx(tau[i], abs=PRINTED)
    reference = mr.InverseDynamics(Q, QD, QDD, GRAVITY, np.zeros(6), FRAMES, INERTIAS, SCREWS)
    np.testing.assert_allclose(reference, tau, atol=1e-9)
    np.testing.assert_allclose(numbers_on(lines, "tau by the steps:"), reference, atol=PRINTED)
    np.testing.assert_allclose(
        numbers_on(lines, "tau by inverse_dynamics_rnea (fast):"), reference, atol=PRINTED
    )
    assert "the same to 1e-12 N·m: True" in text


def test_the_weight_carried_by_joint_1():
    """Section 3: F_1's force is almost the weight of the whole arm, (Σ m_i) g ≈ 167 N."""
    masses = [G[3, 3] for G in INERTIAS]
    np.testing.assert_allclose(masses, [3.7, 8.393, 2.275, 1.219, 1.219, 0.1879], atol=0)
    assert sum(masses) * 9.81 == pytest.approx(167, abs=0.5)


def test_space_frame_section(cells):
    text = output_of(cells, 'space = steps.in_frame("space")')
    lines = text.splitlines()
    J_s = mr.JacobianSpace(SCREWS, Q)
    np.testing.assert_allclose(
        numbers_on(lines, "V of link 3 in {s}:"), J_s[:, :3] @ QD[:3], atol=PRINTED
    )
    np.testing.assert_allclose(
        numbers_on(lines, "J_s[:, :3] qd[:3]:"), J_s[:, :3] @ QD[:3], atol=PRINTED
    )
    assert text.count("True") == 3


def test_at_rest_section(cells):
    text = output_of(cells, "at_rest = robolab.inverse_dynamics_rnea_steps")
    lines = text.splitlines()
    rows = np.array([[float(x) for x in NUMBER.findall(line)] for line in lines[1:7]])
    np.testing.assert_allclose(rows, np.tile([0, 0, 9.81], (6, 1)), atol=PRINTED)
    reference = mr.GravityForces(Q, GRAVITY, FRAMES, INERTIAS, SCREWS)
    np.testing.assert_allclose(numbers_on(lines, "tau at rest (N·m):"), reference, atol=PRINTED)
    np.testing.assert_allclose(numbers_on(lines, "gravity_forces(q):"), reference, atol=PRINTED)


def test_mass_matrix_section(cells, pinocchio_values):
    _, _, (model, data) = pinocchio_values
    M_pin = pin.crba(model, data, Q)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    M_mr = mr.MassMatrix(Q, FRAMES, INERTIAS, SCREWS)
    np.testing.assert_allclose(M_mr, M_pin, atol=1e-10)
    text = output_of(cells, "unit[1] = 1.0")
    lines = text.splitlines()
    np.testing.assert_allclose(
        numbers_on(lines, "column 2 by one RNEA call:"), M_mr[:, 1], atol=PRINTED
    )
    np.testing.assert_allclose(
        numbers_on(lines, "column 2 of mass_matrix_rnea:"), M_mr[:, 1], atol=PRINTED
    )
    text = output_of(cells, "M_crba = robolab.mass_matrix_crba(ur5, q)")
    lines = text.splitlines()
    printed = np.array([[float(x) for x in NUMBER.findall(line)] for line in lines[1:7]])
    np.testing.assert_allclose(printed, M_mr, atol=PRINTED)
    assert np.all(np.linalg.eigvalsh(M_mr) > 0)
    # the reading below it: M_22 the largest entry, M_23 = 1.08 couples shoulder and elbow
    assert np.unravel_index(np.argmax(np.abs(M_mr)), M_mr.shape) == (1, 1)
    assert M_mr[1, 2] == pytest.approx(1.08, abs=0.005)
    assert "$M_{23} = 1.08$" in "".join(c.source for c in cells if c.cell_type == "markdown")
    assert lines[7:] == [
        "CRBA = n RNEA calls to 1e-12: True",
        "symmetric, positive definite: True True",
        "tau = M qdd + c + g: True",
    ]


def spong_planar_elbow():
    """Spong, Hutchinson and Vidyasagar's planar elbow τ = D q̈ + C q̇ + φ (RMC ch. 7)."""
    l1, lc1, lc2, m1, m2, I1, I2, g = sp.symbols("l1 lc1 lc2 m1 m2 I1 I2 g")
    q1, q2, qd1, qd2, qdd1, qdd2 = sp.symbols("q1 q2 qd1 qd2 qdd1 qdd2")
    h = -m2 * l1 * lc2 * sp.sin(q2)
    d11 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * sp.cos(q2)) + I1 + I2
    d12 = m2 * (lc2**2 + l1 * lc2 * sp.cos(q2)) + I2
    d22 = m2 * lc2**2 + I2
    phi1 = (m1 * lc1 + m2 * l1) * g * sp.cos(q1) + m2 * lc2 * g * sp.cos(q1 + q2)
    phi2 = m2 * lc2 * g * sp.cos(q1 + q2)
    tau = sp.Matrix(
        [
            d11 * qdd1 + d12 * qdd2 + h * qd2 * qd1 + h * (qd1 + qd2) * qd2 + phi1,
            d12 * qdd1 + d22 * qdd2 - h * qd1**2 + phi2,
        ]
    )
    names = (l1, lc1, lc2, m1, m2, I1, I2, g, q1, q2, qd1, qd2, qdd1, qdd2)
    return tau, names


def test_symbolic_newton_euler_is_spongs_planar_elbow(chapter, cells):
    """The chapter's SymPy recursion (section 6) against Spong's closed form, not robolab's."""
    spong, (l1, lc1, lc2, m1, m2, I1, I2, g, q1, q2, qd1, qd2, qdd1, qdd2) = spong_planar_elbow()
    s = chapter
    t = s["t"]
    ne = s["tau_ne"]
    joint = {
        s["q1"].diff(t, 2): qdd1, s["q2"].diff(t, 2): qdd2,
        s["q1"].diff(t): qd1, s["q2"].diff(t): qd2,
    }  # fmt: skip
    ne = ne.subs(joint).subs({s["q1"]: q1, s["q2"]: q2})
    ne = ne.subs({s["l1"]: l1, s["lc1"]: lc1, s["lc2"]: lc2, s["m1"]: m1, s["m2"]: m2})
    ne = ne.subs({s["Izz1"]: I1, s["Izz2"]: I2, s["g"]: g})
    assert sp.simplify(ne - spong) == sp.zeros(2, 1)
    text = output_of(cells, "tau_Newton-Euler - tau_Lagrange simplifies to 0:")
    assert text.splitlines() == [
        "tau_Newton-Euler - tau_Lagrange simplifies to 0: True",
        "I_xx and I_yy drop out (planar motion): True",
    ]


def test_exercise_1_slips_are_declared(chapter):
    exercise = chapter["exercise_1"]
    declared_slips_are_named(exercise, exercise.expected)


def planar_2r_link_values(p, q, qd, qdd):
    """V_i, V̇_i of the 2R's links in their centre-of-mass frames, F_2 and τ, by the classical
    equations: velocities and accelerations of the centres of mass from their positions written
    out, v̇_b = Rᵀ a − ω × v_b (MR's V̇ in a turning frame), gravity as the base accelerating up."""
    q1, q2 = q
    heading = (q1, q1 + q2)
    w = (qd[0], qd[0] + qd[1])
    dw = (qdd[0], qdd[0] + qdd[1])

    def u(a):
        return np.array([np.cos(a), np.sin(a), 0.0])

    def du(a):
        return np.array([-np.sin(a), np.cos(a), 0.0])

    velocity = [p["lc1"] * w[0] * du(q1), p["l1"] * w[0] * du(q1) + p["lc2"] * w[1] * du(q1 + q2)]
    accel = [
        p["lc1"] * (dw[0] * du(q1) - w[0] ** 2 * u(q1)),
        p["l1"] * (dw[0] * du(q1) - w[0] ** 2 * u(q1))
        + p["lc2"] * (dw[1] * du(q1 + q2) - w[1] ** 2 * u(q1 + q2)),
    ]
    V, dV = [], []
    for i in range(2):
        R = np.array([u(heading[i]), du(heading[i]), [0, 0, 1]]).T
        omega, v_b = np.array([0, 0, w[i]]), R.T @ velocity[i]
        a_b = R.T @ (accel[i] + [0, 9.81, 0])
        V.append(np.r_[omega, v_b])
        dV.append(np.r_[0, 0, dw[i], a_b - np.cross(omega, v_b)])
    R2 = np.array([u(heading[1]), du(heading[1]), [0, 0, 1]]).T
    F2 = np.r_[0, 0, p["I2"] * dw[1], p["m2"] * R2.T @ (accel[1] + [0, 9.81, 0])]
    return np.array(V), np.array(dV), F2


def test_exercise_2_values_link_by_link(chapter):
    exercise = chapter["exercise_2"]
    assert exercise.kind == "model"
    p = exercise.parameters
    spong, names = spong_planar_elbow()
    closed_form = sp.lambdify(names, spong, "numpy")
    numbers = (p["l1"], p["lc1"], p["lc2"], p["m1"], p["m2"], p["I1"], p["I2"], 9.81)
    rnea = exercise.expected
    for q, qd, qdd in chapter["RNEA_STATES"]:
        V, dV, F, tau = rnea(q, qd, qdd)
        np.testing.assert_allclose(tau, np.ravel(closed_form(*numbers, *q, *qd, *qdd)), atol=1e-9)
        V_ref, dV_ref, F2_ref = planar_2r_link_values(p, q, qd, qdd)
        np.testing.assert_allclose(V, V_ref, atol=1e-12)
        np.testing.assert_allclose(dV, dV_ref, atol=1e-9)
        np.testing.assert_allclose(F[1], F2_ref, atol=1e-9)

    def lambdified_torques_only(q, qd, qdd):  # the old loophole: torques alone do not pass
        return (
            np.zeros((2, 6)),
            np.zeros((2, 6)),
            np.zeros((2, 6)),
            closed_form(*numbers, *q, *qd, *qdd),
        )

    tried = exercise.with_seed(exercise.seed)
    assert "V (twists) of link" in str(tried.check(lambdified_torques_only))
    declared_slips_are_named(exercise)


def test_exercise_3_prediction_is_the_book_softwares_torque(chapter, cells):
    frames, inertias, screws = three_link_book()
    exercise = chapter["exercise_3"]
    assert exercise.kind == "predict"
    p = exercise.parameters
    g = [0, 0, -9.8]
    theta, dtheta, ddtheta = (np.array(p[k]) for k in ("theta", "dtheta", "ddtheta"))
    tau = mr.InverseDynamics(theta, dtheta, ddtheta, g, [0] * 6, frames, inertias, screws)
    c = mr.VelQuadraticForces(theta, dtheta, frames, inertias, screws)
    np.testing.assert_allclose(p["tau"], tau, atol=1e-4)
    np.testing.assert_allclose(p["c"], c, atol=1e-4)
    np.testing.assert_allclose(
        p["g"], mr.GravityForces(theta, g, frames, inertias, screws), atol=1e-4
    )
    new = mr.InverseDynamics(theta, 2 * dtheta, -ddtheta, g, [0] * 6, frames, inertias, screws)
    assert exercise.check(new).correct
    declared_slips_are_named(exercise, new)
    reveal = next(i for i, c in enumerate(cells) if c.source.startswith("# After your prediction"))
    above = "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
        for c in cells[:reveal] if c.cell_type == "code" for o in c.outputs
    )  # fmt: skip
    assert not any(f"{x:.4f}" in above for x in new)
    printed = numbers_on(output_of(cells, "# After your prediction").splitlines(), "τ at")
    np.testing.assert_allclose(printed[-3:], new, atol=PRINTED)


def test_exercise_4_crba_is_spongs_mass_matrix(chapter):
    exercise = chapter["exercise_4"]
    assert exercise.kind == "model"
    p = exercise.parameters
    assert max(abs(p["q1"]), abs(p["q2"])) > np.pi  # angles beyond π
    c2 = np.cos(p["q2"])
    d11 = (
        p["m1"] * p["lc1"] ** 2
        + p["m2"] * (p["l1"] ** 2 + p["lc2"] ** 2 + 2 * p["l1"] * p["lc2"] * c2)
        + p["I1"]
        + p["I2"]
    )
    d12 = p["m2"] * (p["lc2"] ** 2 + p["l1"] * p["lc2"] * c2) + p["I2"]
    d22 = p["m2"] * p["lc2"] ** 2 + p["I2"]
    expected = np.array([[d11, d12], [d12, d22]])
    np.testing.assert_allclose(exercise.expected, expected, atol=1e-12)
    assert exercise.check(expected).correct
    declared_slips_are_named(exercise, expected)


def test_exercise_5_slips_are_declared(chapter):
    declared_slips_are_named(chapter["exercise_5"])


def test_tau_2_is_shown_one_term_per_line(cells):
    """Section 7's τ₂ is an aligned display of short lines (it ran off a 1024 px page)."""
    hits = [c for c in cells if c.cell_type == "code" and "tau_2 = sp.collect" in c.source]
    latex = "".join(hits[0].outputs[-1]["data"]["text/latex"])
    lines = latex.split(r"\\")
    assert len(lines) == 4
    assert max(len(re.sub(r"\\left|\\right|\\[a-z]+|[{}\\]", "", line)) for line in lines) < 90


def test_exercise_5_reference_holds_the_boom_against_gravity(chapter):
    exercise = chapter["exercise_5"]
    p = exercise.parameters
    frames, inertias, screws = exercise.expected
    rng = np.random.default_rng(940)
    for theta in rng.uniform(-1.5, 1.5, (5, 2)):
        at_rest = mr.GravityForces(theta, GRAVITY, frames, inertias, screws)
        boom = -p["m2"] * 9.81 * p["L"] / 2 * np.cos(theta[1])  # tilt down: θ2 > 0
        np.testing.assert_allclose(at_rest, [0.0, boom], atol=1e-10)
    # the pan joint turns the post (Ip) and the boom, a rod of m2 L²/12 about its centre at L/2
    theta = np.array([0.3, 0.0])
    M = mr.MassMatrix(theta, frames, inertias, screws)
    rod = p["m2"] * p["L"] ** 2 / 12 + p["m2"] * (p["L"] / 2) ** 2
    np.testing.assert_allclose(M, np.diag([p["Ip"] + rod, rod]), atol=1e-12)
    # a wrong model (the boom's centre at its tip) fails the check
    wrong = [frames[0], frames[1] @ np.diag([1.0, 1, 1, 1]), frames[2]]
    wrong[1] = wrong[1].copy()
    wrong[1][0, 3] = p["L"]
    assert not exercise.check((wrong, inertias, screws)).correct
    assert exercise.check((frames, inertias, screws)).correct


def test_what_the_try_it_paragraph_says_about_the_arrows(pinocchio_values):
    """Section 4: the forces grow towards the base, the accelerations stay near g."""
    values, _, _ = pinocchio_values
    forces = np.linalg.norm(values["F"][:, 3:], axis=1)
    assert np.all(np.diff(forces) < 0)  # |f_1| > |f_2| > ... > |f_6|
    accelerations = np.linalg.norm(values["dV"][:, 3:], axis=1)
    np.testing.assert_allclose(accelerations, 9.81, atol=0.7)
