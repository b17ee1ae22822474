"""Dynamics of robolab.DHRobot against Spong's closed forms and Pinocchio.

* The planar 2R arm: M, the Christoffel symbols and G written here from
  Spong, Hutchinson & Vidyasagar, *Robot Modeling and Control* (2006), §7.4.2.
* Puma 560 (Corke's standard table and the same arm as a modified table),
  a SCARA with a prismatic joint and an arm with joint offsets: M, C q̇, G and
  τ against Pinocchio at random states, Pinocchio built from the DH geometry
  in ``tests/reference/dh_arms.py``. Pinocchio orders spatial vectors
  ``[v; ω]``, as does the DH Jacobian, so no swap is needed for J.
* Ṁ − 2C skew-symmetric: symbolically for arms of up to 3 joints, numerically
  (finite differences of M) for the Puma.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from reference.dh_arms import moro_arm, pinocchio_model

from robolab import DHRobot
from robolab.dh.simplify import simplify_matrix, simplify_trig
from robolab.symbols import (
    g,
    l1,
    lc1,
    lc2,
    m1,
    m2,
    q1,
    q2,
    q3,
    q4,
    q5,
    q6,
    t,
)

# --- Puma 560, Corke's standard DH table and dynamic parameters ----------------------------

PUMA_ROWS = [  # a, alpha, d, theta offset
    (0.0, np.pi / 2, 0.0, 0.0),
    (0.4318, 0.0, 0.0, 0.0),
    (0.0203, -np.pi / 2, 0.15005, 0.0),
    (0.0, np.pi / 2, 0.4318, 0.0),
    (0.0, -np.pi / 2, 0.0, 0.0),
    (0.0, 0.0, 0.0, 0.0),
]
PUMA_MASSES = [0.0, 17.4, 4.8, 0.82, 0.34, 0.09]
PUMA_CMS = [
    [0, 0, 0],
    [-0.3638, 0.006, 0.2275],
    [-0.0203, -0.0141, 0.070],
    [0, 0.019, 0],
    [0, 0, 0],
    [0, 0, 0.032],
]
PUMA_INERTIAS = [
    np.diag(d)
    for d in [
        [0, 0.35, 0],
        [0.13, 0.524, 0.539],
        [0.066, 0.086, 0.0125],
        [1.8e-3, 1.3e-3, 1.8e-3],
        [0.3e-3, 0.4e-3, 0.3e-3],
        [0.15e-3, 0.15e-3, 0.04e-3],
    ]
]
JOINTS = [q1, q2, q3, q4, q5, q6]


def _rotx(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _modified_from_standard(rows, cms, inertias):
    """The same arm as a modified table, written from the frame relation (test code).

    Modified frame {i}' sits on joint i's axis: {i}' = {i-1} Rz(θ_i) Tz(d_i) of the
    standard table, so {i}' -> {i+1}' is Tx(a_i) Rx(α_i) Rz(θ_i+1) Tz(d_i+1): the
    modified row i+1 holds (a_i, α_i, d_i+1, θ_i+1) and row 1 (0, 0, d_1, θ_1).
    Standard frame {i} = {i}' Tx(a_i) Rx(α_i), so the tool is Tx(a_n) Rx(α_n), a
    centre of mass c in {i} is Tx(a_i) Rx(α_i) c in {i}', inertia Rx I Rxᵀ.
    """
    modified = []
    previous = (0.0, 0.0)
    for a, alpha, d, theta in rows:
        modified.append((previous[0], previous[1], d, theta))
        previous = (a, alpha)
    a_n, alpha_n = previous
    tool = np.eye(4)
    tool[:3, :3] = _rotx(alpha_n)
    tool[0, 3] = a_n
    new_cms, new_inertias = [], []
    for (a, alpha, _, _), c, inertia in zip(rows, cms, inertias, strict=True):
        R = _rotx(alpha)
        new_cms.append((R @ np.array(c, dtype=float) + [a, 0, 0]).tolist())
        new_inertias.append(R @ inertia @ R.T)
    return modified, tool, new_cms, new_inertias


#: Corke's Puma moments of links 1 and 3 break the triangle inequality: accepted as published.
PUMA_EXCEPTIONS = [
    (1, "inertia_triangle", "Corke: only the moment about joint 1"),
    (3, "inertia_triangle", "the 1994 consensus moments of link 3"),
]


def _dh_robot(rows, convention, masses, cms, inertias, kinds=None, tool=None, exceptions=()):
    kinds = kinds or ["r"] * len(rows)
    table = []
    for (a, alpha, d, theta), kind, q in zip(rows, kinds, JOINTS, strict=False):
        if kind == "r":
            table.append((a, alpha, d, q + theta, "r"))
        else:
            table.append((a, alpha, q + d, theta, "p"))
    robot = DHRobot(*table, convention=convention, tool=tool)
    robot.masses = masses
    robot.cm_positions = cms
    robot.plausibility_exceptions = exceptions
    robot.inertia_tensors = inertias
    return robot


def _pinocchio(rows, convention, masses, cms, inertias, kinds=None):
    kinds = kinds or ["r"] * len(rows)
    pin_rows = [
        (a, alpha, d, theta, kind) for (a, alpha, d, theta), kind in zip(rows, kinds, strict=False)
    ]
    return pinocchio_model(pin_rows, convention, masses, cms, inertias)


@pytest.fixture(scope="module")
def puma():
    return _dh_robot(
        PUMA_ROWS, "standard", PUMA_MASSES, PUMA_CMS, PUMA_INERTIAS, exceptions=PUMA_EXCEPTIONS
    )


@pytest.fixture(scope="module")
def puma_modified():
    rows, tool, cms, inertias = _modified_from_standard(PUMA_ROWS, PUMA_CMS, PUMA_INERTIAS)
    return _dh_robot(
        rows, "modified", PUMA_MASSES, cms, inertias, tool=tool, exceptions=PUMA_EXCEPTIONS
    )


def _compare_with_pinocchio(robot, model, link_frames, tool=None, states=4, seed=0):
    tool = np.eye(4) if tool is None else tool
    fast = robot.numeric()
    rng = np.random.default_rng(seed)
    n = robot.dof
    end = model.addFrame(
        pin.Frame("ee", n, 0, pin.SE3(link_frames[-1] @ tool), pin.FrameType.OP_FRAME)
    )
    data = model.createData()
    for _ in range(states):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, n), rng.uniform(-2, 2, n), rng.uniform(-3, 3, n)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        G = pin.computeGeneralizedGravity(model, data, q)
        Cqd = pin.nonLinearEffects(model, data, q, qd) - G
        np.testing.assert_allclose(fast.inertia_matrix(q), M, atol=1e-10)
        np.testing.assert_allclose(fast.gravity_vector(q), G, atol=1e-10)
        np.testing.assert_allclose(fast.coriolis_matrix(q, qd) @ qd, Cqd, atol=1e-10)
        np.testing.assert_allclose(
            fast.inverse_dynamics(q, qd, qdd), pin.rnea(model, data, q, qd, qdd), atol=1e-10
        )
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        frames = fast.frames(q)
        for i in range(1, n + 1):
            np.testing.assert_allclose(
                frames[i], data.oMi[i].homogeneous @ link_frames[i - 1], atol=1e-12
            )
        np.testing.assert_allclose(
            fast.forward_kinematics(q), data.oMf[end].homogeneous, atol=1e-12
        )
        J = pin.computeFrameJacobian(model, data, q, end, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(fast.jacobian(q), J, atol=1e-12)  # both [v; ω]


# --- Spong's planar 2R -------------------------------------------------------------------


@pytest.fixture(scope="module")
def planar():
    return moro_arm("planar_rr")


def test_planar_2r_inertia_matrix_is_spongs(planar):
    I1, I2 = sp.Symbol("I_zz1", real=True), sp.Symbol("I_zz2", real=True)
    c2 = sp.cos(q2)
    d11 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * c2) + I1 + I2
    d12 = m2 * (lc2**2 + l1 * lc2 * c2) + I2
    d22 = m2 * lc2**2 + I2
    expected = sp.Matrix([[d11, d12], [d12, d22]])
    assert simplify_matrix(planar.inertia_matrix() - expected) == sp.zeros(2, 2)


def test_planar_2r_christoffel_symbols_are_spongs(planar):
    # Spong writes c_ijk with k the equation: tau_k = sum d_kj qdd_j + sum c_ijk qd_i qd_j + phi_k.
    # robolab (like Moro) puts the equation first: christoffel_symbols(k, i, j) = Spong's c_ijk.
    h = -m2 * l1 * lc2 * sp.sin(q2)
    spong = {(1, 1, 1): 0, (1, 2, 1): h, (2, 1, 1): h, (2, 2, 1): h}
    spong.update({(1, 1, 2): -h, (1, 2, 2): 0, (2, 1, 2): 0, (2, 2, 2): 0})
    for (i, j, k), value in spong.items():
        assert simplify_trig(planar.christoffel_symbols(k, i, j) - value) == 0, (i, j, k)


def test_planar_2r_gravity_vector_is_spongs(planar):
    phi1 = (m1 * lc1 + m2 * l1) * g * sp.cos(q1) + m2 * lc2 * g * sp.cos(q1 + q2)
    phi2 = m2 * lc2 * g * sp.cos(q1 + q2)
    assert simplify_matrix(planar.gravity_vector() - sp.Matrix([phi1, phi2])) == sp.zeros(2, 1)


def test_planar_2r_equations_of_motion(planar):
    model = planar.dynamic_model()
    tau = sp.Matrix(sp.symbols("tau_1 tau_2", real=True))
    assert model.rhs == tau
    M, C, G = planar.inertia_matrix(), planar.coriolis_matrix(), planar.gravity_vector()
    qd = sp.Matrix([planar.q_dot(i) for i in (1, 2)])
    qdd = qd.diff(t)
    assert simplify_matrix(sp.Matrix(model.lhs.doit()) - (M * qdd + C * qd + G)) == sp.zeros(2, 1)
    lagrange = planar.euler_lagrange_equations()
    matrix_form = M * qdd + C * qd + G
    for i, equation in enumerate(lagrange):
        assert equation.rhs == tau[i]
        assert simplify_trig(equation.lhs - matrix_form[i]) == 0


def test_equations_of_motion_display_in_textbook_order(planar):
    from robolab import to_latex, to_text

    model = planar.dynamic_model()
    assert isinstance(model, sp.Eq) and model == planar.dynamic_model_matrix_form()
    M, C, G = planar.inertia_matrix(), planar.coriolis_matrix(), planar.gravity_vector()
    qd = sp.Matrix([planar.q_dot(i) for i in (1, 2)])
    pieces = [M * qd.diff(t), C * qd, G]
    assert [sp.Matrix(term.doit()) for term in model.lhs.args] == pieces
    # SymPy's own LaTeX of the sum puts G first; the equation prints M q̈ + C q̇ + G = τ
    for latex in (sp.latex(model), to_latex(model)):
        blocks = [latex.index(r"\left[\begin{matrix}" + sp.latex(M[0, 0])[:12])]
        blocks.append(latex.index(r"\left[\begin{matrix}" + sp.latex(C[0, 0])[:12]))
        blocks.append(latex.index(r"\left[\begin{matrix}" + sp.latex(G[0])[:12]))
        assert blocks == sorted(blocks), latex
        # one term per line: M q̈, + C q̇, + G = τ
        assert latex.startswith(r"\begin{aligned} & \left[\begin{matrix}")
        assert latex.count(r" \\ &+ ") == 2 and latex.endswith(
            r"\tau_{2}\end{matrix}\right] \end{aligned}"
        )
    assert "M" not in to_text(model) and to_text(model).index("q̈₁") < to_text(model).index("q̇₁")
    assert str(model).startswith("Eq(Matrix([")
    assert str(model).index("Derivative(q_1(t), (t, 2))") < str(model).index("g*l_c2")


# --- symbolic identities for small arms ----------------------------------------------------


@pytest.mark.parametrize("name", ["planar_rr", "elbow_rrr", "scara_rrp"])
def test_mdot_minus_2c_is_skew_symmetric_symbolically(name):
    robot = moro_arm(name)
    robot.inertia_tensors = [robolab_general_inertia(i) for i in range(1, robot.dof + 1)]
    M, C = robot.inertia_matrix(), robot.coriolis_matrix()
    n = robot.dof
    rate = sum((M.diff(q) * robot.q_dot(i + 1) for i, q in enumerate(robot.qs)), sp.zeros(n, n))
    N = rate - 2 * C
    assert simplify_matrix(N + N.T) == sp.zeros(robot.dof, robot.dof)
    assert simplify_matrix(M - M.T) == sp.zeros(robot.dof, robot.dof)


def robolab_general_inertia(i):
    from robolab.symbols import inertia_tensor

    return inertia_tensor(i, diagonal=False)


def test_kinetic_energy_is_half_qdot_m_qdot():
    robot = moro_arm("elbow_rrr")
    qd = sp.Matrix([robot.q_dot(i) for i in range(1, 4)])
    K = robot.kinetic_energy()
    assert simplify_trig(K - (qd.T * robot.inertia_matrix() * qd)[0, 0] / 2) == 0
    assert simplify_trig(K - sum(robot.link_kinetic_energy(i) for i in range(1, 4))) == 0
    # Moro's definition of a link's kinetic energy, from v_cm and w
    for i in range(1, 4):
        v, w, R = robot.v_cm(i), robot.w(i), robot.R_i0(i)
        moro = (robot.m(i) * v.T * v + w.T * R * robot.I_cm(i) * R.T * w)[0, 0] / 2
        assert simplify_trig(robot.link_kinetic_energy(i) - moro) == 0
    assert robot.lagrangian() == robot.kinetic_energy() - robot.potential_energy()


def test_velocity_of_centre_of_mass_is_time_derivative_of_its_position():
    robot = moro_arm("scara_rrp")
    for i in range(1, 4):
        assert simplify_matrix(robot.v_cm(i) - robot.r_cm(i).diff(t)) == sp.zeros(3, 1)


# --- Pinocchio ------------------------------------------------------------------------------


def test_puma_standard_against_pinocchio(puma):
    model, frames = _pinocchio(PUMA_ROWS, "standard", PUMA_MASSES, PUMA_CMS, PUMA_INERTIAS)
    _compare_with_pinocchio(puma, model, frames)


def test_puma_modified_against_pinocchio(puma_modified):
    rows, tool, cms, inertias = _modified_from_standard(PUMA_ROWS, PUMA_CMS, PUMA_INERTIAS)
    model, frames = _pinocchio(rows, "modified", PUMA_MASSES, cms, inertias)
    _compare_with_pinocchio(puma_modified, model, frames, tool=tool)


def test_standard_and_modified_tables_of_the_puma_agree(puma, puma_modified):
    standard, modified = puma.numeric(), puma_modified.numeric()
    rng = np.random.default_rng(7)
    q, qd, qdd = rng.uniform(-np.pi, np.pi, (3, 5, 6))
    np.testing.assert_allclose(
        modified.forward_kinematics(q), standard.forward_kinematics(q), atol=1e-12
    )
    np.testing.assert_allclose(modified.jacobian(q), standard.jacobian(q), atol=1e-12)
    np.testing.assert_allclose(modified.inertia_matrix(q), standard.inertia_matrix(q), atol=1e-10)
    np.testing.assert_allclose(
        modified.coriolis_matrix(q, qd), standard.coriolis_matrix(q, qd), atol=1e-10
    )
    np.testing.assert_allclose(modified.gravity_vector(q), standard.gravity_vector(q), atol=1e-10)
    np.testing.assert_allclose(
        modified.inverse_dynamics(q, qd, qdd), standard.inverse_dynamics(q, qd, qdd), atol=1e-10
    )
    # the symbolic end-effector poses agree too
    point = dict(zip(JOINTS, q[0], strict=True))
    difference = (puma.T - puma_modified.T).xreplace(point)
    assert np.abs(np.array(difference.evalf().tolist(), dtype=float)).max() < 1e-12


def test_puma_mdot_minus_2c_is_skew_symmetric_numerically(puma):
    fast = puma.numeric()
    rng = np.random.default_rng(11)
    h = 1e-6
    for _ in range(3):
        q, qd = rng.uniform(-np.pi, np.pi, 6), rng.uniform(-2, 2, 6)
        M_dot = (fast.inertia_matrix(q + h * qd) - fast.inertia_matrix(q - h * qd)) / (2 * h)
        N = M_dot - 2 * fast.coriolis_matrix(q, qd)
        np.testing.assert_allclose(N + N.T, 0, atol=1e-7)


SCARA = [(0.35, 0.0, 0.0, 0.0), (0.3, np.pi, 0.0, 0.0), (0.0, 0.0, 0.05, 0.0), (0.0, 0.0, 0.1, 0.0)]
SCARA_KINDS = ["r", "r", "p", "r"]
SCARA_MASSES = [3.0, 2.0, 0.5, 0.2]
SCARA_CMS = [[-0.17, 0.0, 0.05], [-0.15, 0.01, 0.0], [0.0, 0.0, -0.1], [0.0, 0.0, -0.02]]
SCARA_INERTIAS = [
    np.diag([0.01, 0.05, 0.05]),
    np.diag([0.005, 0.02, 0.02]),
    np.diag([0.002, 0.002, 0.0001]),
    np.diag([1e-4, 1e-4, 2e-4]),
]


def test_scara_with_a_prismatic_joint_against_pinocchio():
    robot = _dh_robot(SCARA, "standard", SCARA_MASSES, SCARA_CMS, SCARA_INERTIAS, SCARA_KINDS)
    model, frames = _pinocchio(
        SCARA, "standard", SCARA_MASSES, SCARA_CMS, SCARA_INERTIAS, SCARA_KINDS
    )
    _compare_with_pinocchio(robot, model, frames)
    # alpha_2 = pi turns z_2 downwards: the quill slides down, with gravity, so
    # G_3 = dP/dq_3 = -(m_3 + m_4) g whatever the configuration
    G = robot.gravity_vector()
    assert G[2].free_symbols == set()
    assert float(G[2]) == pytest.approx(-(0.5 + 0.2) * 9.81, rel=1e-14)


def test_offsets_and_modified_prismatic_against_pinocchio():
    rows = [(0.0, 0.0, 0.3, 0.2), (0.1, -np.pi / 2, 0.15, np.pi / 2), (0.25, 0.4, 0.0, -0.3)]
    kinds = ["r", "p", "r"]
    masses = [1.0, 2.0, 0.7]
    cms = [[0.0, 0.01, -0.1], [0.02, 0.0, -0.05], [-0.1, 0.02, 0.03]]
    inertias = [
        np.diag([0.01, 0.02, 0.015]),
        # a rigid body's inertia (I_yy was 0.02: moments 0.0096, 0.0203, 0.0301 broke the
        # triangle inequality, which DHRobot refuses now)
        np.array([[0.03, 0.001, 0.0], [0.001, 0.025, 0.002], [0.0, 0.002, 0.01]]),
        np.diag([0.001, 0.004, 0.004]),
    ]
    for convention in ("standard", "modified"):
        robot = _dh_robot(rows, convention, masses, cms, inertias, kinds)
        model, frames = _pinocchio(rows, convention, masses, cms, inertias, kinds)
        _compare_with_pinocchio(robot, model, frames, states=2)
