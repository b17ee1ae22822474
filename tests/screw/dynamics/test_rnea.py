"""Inverse dynamics and the mass matrix (Modern Robotics, chapter 8).

References:

* the printed examples of the book library's InverseDynamics, MassMatrix,
  VelQuadraticForces, GravityForces and EndEffectorForces (the three-link arm);
* the book's closed-form dynamics of the planar 2R arm with point masses
  (section 8.1.1, eq. 8.9);
* Pinocchio's rnea, crba, computeGeneralizedGravity for the book's UR5, a
  Panda-like 7-DOF arm and a SCARA-like arm with a prismatic joint, at 25
  random states with tilted gravity and a tip wrench (stored by
  ``reference/generate_pinocchio_screw_reference.py``; joint-space quantities
  need no [v; ω] reordering, the tip wrench is converted there);
* ``modern_robotics`` on random robots (random screw axes including pitched,
  prismatic and non-unit ones, random link frames and inertias);
* identities: τ = M θ̈ + c + g + J_bᵀF, c quadratic in θ̇, g = ∂P/∂θ, K = ½θ̇ᵀMθ̇.

Both kernels are exercised: one state or a small batch (space-frame kernel)
and batches of at least ``BATCH_THRESHOLD`` states (joint-aligned kernel).
"""

from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.screw_arms import ARMS, panda_like, three_link_book, twists, ur5

import robolab as rl
from robolab.screw._fast.batched import BATCH_THRESHOLD
from robolab.screw.dynamics import rnea as dy

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")
GRAVITY = REFERENCE["gravity"]
FRAMES, INERTIAS, SCREWS = three_link_book()
Q3, QD3, QDD3 = [0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1]
G98 = [0, 0, -9.8]
TIP3 = [1, 1, 1, 1, 1, 1]
LARGE = 3  # tiling the 25 reference states 3 times gives a batch above the threshold
assert 25 < BATCH_THRESHOLD <= 25 * LARGE


def reference(name, key):
    return REFERENCE[f"{name}__{key}"]


# ---------------------------------------------------------------- the book's printed digits


def test_book_inverse_dynamics_example_fast_and_textbook():
    expected = [74.69616155, -33.06766016, -3.23057314]
    arrays = (G98, TIP3, FRAMES, INERTIAS, SCREWS)
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea(Q3, QD3, QDD3, *arrays), expected, atol=5e-9
    )
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea_textbook(Q3, QD3, QDD3, *arrays), expected, atol=5e-9
    )


def test_book_mass_matrix_example_crba_and_rnea():
    expected = [
        [2.25433380e01, -3.07146754e-01, -7.18426391e-03],
        [-3.07146754e-01, 1.96850717e00, 4.32157368e-01],
        [-7.18426391e-03, 4.32157368e-01, 1.91630858e-01],
    ]
    np.testing.assert_allclose(
        dy.mass_matrix_crba(Q3, FRAMES, INERTIAS, SCREWS), expected, atol=5e-9
    )
    np.testing.assert_allclose(
        dy.mass_matrix_rnea(Q3, FRAMES, INERTIAS, SCREWS), expected, atol=5e-9
    )


def test_book_force_terms_examples():
    arrays = (FRAMES, INERTIAS, SCREWS)
    np.testing.assert_allclose(
        dy.velocity_quadratic_forces(Q3, QD3, *arrays),
        [0.26453118, -0.05505157, -0.00689132],
        atol=5e-9,
    )
    np.testing.assert_allclose(
        dy.gravity_forces(Q3, G98, *arrays), [28.40331262, -37.64094817, -5.4415892], atol=5e-9
    )
    np.testing.assert_allclose(
        dy.end_effector_forces(Q3, TIP3, *arrays), [1.40954608, 1.85771497, 1.392409], atol=5e-9
    )


# --------------------------------------------------------------------------- the book's 2R arm


def planar_2r(L1, L2, m1, m2, g):
    def x(length):
        T = np.eye(4)
        T[0, 3] = length
        return T

    point = [np.diag([0, 0, 0, m, m, m]) for m in (m1, m2)]
    return rl.ScrewRobot(
        "2R",
        x(L1 + L2),
        [[0, 0], [0, 0], [1, 1], [0, 0], [0, -L1], [0, 0]],
        [x(L1), x(L2), np.eye(4)],
        point,
        gravity=[0, -g, 0],
    )


@settings(max_examples=25)
@given(
    lengths=st.tuples(st.floats(0.2, 2.0), st.floats(0.2, 2.0)),
    masses=st.tuples(st.floats(0.1, 5.0), st.floats(0.1, 5.0)),
    state=st.lists(st.floats(-3.0, 3.0), min_size=6, max_size=6),
)
def test_planar_2r_closed_form_of_the_book(lengths, masses, state):
    (L1, L2), (m1, m2), g = lengths, masses, 9.81
    t1, t2, d1, d2, a1, a2 = state
    robot = planar_2r(L1, L2, m1, m2, g)
    c2, s2 = np.cos(t2), np.sin(t2)
    c1, c12 = np.cos(t1), np.cos(t1 + t2)
    M = np.array(
        [
            [m1 * L1**2 + m2 * (L1**2 + 2 * L1 * L2 * c2 + L2**2), m2 * (L1 * L2 * c2 + L2**2)],
            [m2 * (L1 * L2 * c2 + L2**2), m2 * L2**2],
        ]
    )
    c = np.array([-m2 * L1 * L2 * s2 * (2 * d1 * d2 + d2**2), m2 * L1 * L2 * d1**2 * s2])
    gravity = np.array([(m1 + m2) * L1 * g * c1 + m2 * g * L2 * c12, m2 * g * L2 * c12])
    q, qd, qdd = [t1, t2], [d1, d2], [a1, a2]
    scale = 1 + np.abs(M).max() * 10
    np.testing.assert_allclose(rl.mass_matrix_crba(robot, q), M, atol=1e-12 * scale)
    np.testing.assert_allclose(rl.velocity_quadratic_forces(robot, q, qd), c, atol=1e-11 * scale)
    np.testing.assert_allclose(rl.gravity_forces(robot, q), gravity, atol=1e-11 * scale)
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(robot, q, qd, qdd), M @ qdd + c + gravity, atol=1e-10 * scale
    )


# --------------------------------------------------------------------------- Pinocchio


@pytest.mark.parametrize("name", sorted(ARMS))
@pytest.mark.parametrize("tiles", [1, LARGE], ids=["small batch", "large batch"])
def test_dynamics_match_pinocchio(name, tiles):
    robot = ARMS[name](gravity=GRAVITY)
    q, qd, qdd, tip = (
        np.tile(reference(name, key), (tiles, 1)) for key in ("q", "qd", "qdd", "tip_wrench")
    )

    def expected(key):
        return np.tile(reference(name, key), (tiles,) + (1,) * (reference(name, key).ndim - 1))

    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(robot, q, qd, qdd), expected("tau"), atol=1e-9
    )
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip), expected("tau_tip"), atol=1e-9
    )
    np.testing.assert_allclose(rl.mass_matrix_crba(robot, q), expected("mass_matrix"), atol=1e-9)
    np.testing.assert_allclose(
        rl.velocity_quadratic_forces(robot, q, qd), expected("coriolis"), atol=1e-9
    )
    np.testing.assert_allclose(rl.gravity_forces(robot, q), expected("gravity_torques"), atol=1e-9)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_one_state_at_a_time_matches_pinocchio(name):
    robot = ARMS[name](gravity=GRAVITY)
    for i in range(0, 25, 4):
        q, qd, qdd, tip = (reference(name, key)[i] for key in ("q", "qd", "qdd", "tip_wrench"))
        np.testing.assert_allclose(
            rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip),
            reference(name, "tau_tip")[i],
            atol=1e-9,
        )
        np.testing.assert_allclose(
            rl.mass_matrix_crba(robot, q), reference(name, "mass_matrix")[i], atol=1e-9
        )
        np.testing.assert_allclose(
            dy.inverse_dynamics_rnea_textbook(
                q,
                qd,
                qdd,
                GRAVITY,
                tip,
                robot.link_frames,
                robot.spatial_inertias,
                robot.screw_axes_space,
            ),
            reference(name, "tau_tip")[i],
            atol=1e-9,
        )


# --------------------------------------------------------------------------- modern_robotics


@st.composite
def random_robots(draw):
    n = draw(st.integers(1, 7))
    screws = draw(twists(n))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    frames = [
        mr.RpToTrans(mr.MatrixExp3(mr.VecToso3(rng.normal(size=3))), rng.normal(size=3) / 3)
        for _ in range(n + 1)
    ]
    inertias = []
    for _ in range(n):
        A = rng.normal(size=(3, 3))
        G = np.zeros((6, 6))
        G[:3, :3] = A @ A.T + 0.1 * np.eye(3)
        G[3:, 3:] = rng.uniform(0.5, 5.0) * np.eye(3)
        inertias.append(G)
    return np.array(frames), np.array(inertias), screws, rng


@settings(max_examples=30)
@given(robot=random_robots())
def test_every_form_matches_modern_robotics_on_random_robots(robot):
    frames, inertias, screws, rng = robot
    n = screws.shape[1]
    q, qd, qdd = rng.uniform(-2, 2, (3, n))
    g, tip = rng.normal(size=3), rng.normal(size=6)
    arrays = (frames, inertias, screws)
    tau = mr.InverseDynamics(q, qd, qdd, g, tip, *arrays)
    M = mr.MassMatrix(q, *arrays)
    scale = 1 + np.abs(tau).max() + np.abs(M).max()
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea(q, qd, qdd, g, tip, *arrays), tau, atol=1e-10 * scale
    )
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea_textbook(q, qd, qdd, g, tip, *arrays), tau, atol=1e-10 * scale
    )
    np.testing.assert_allclose(dy.mass_matrix_crba(q, *arrays), M, atol=1e-10 * scale)
    # A large batch (joint-aligned kernel) of the same state.
    batch = np.tile(np.array([q, qd, qdd]), (BATCH_THRESHOLD, 1, 1)).transpose(1, 0, 2)
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea(*batch, g, tip, *arrays),
        np.tile(tau, (BATCH_THRESHOLD, 1)),
        atol=1e-10 * scale,
    )
    np.testing.assert_allclose(
        dy.mass_matrix_crba(batch[0], *arrays),
        np.tile(M, (BATCH_THRESHOLD, 1, 1)),
        atol=1e-10 * scale,
    )


# --------------------------------------------------------------------------- identities


def random_states(count, n, seed=0):
    rng = np.random.default_rng(seed)
    return (
        rng.uniform(-3, 3, (count, n)),
        rng.uniform(-2, 2, (count, n)),
        rng.uniform(-3, 3, (count, n)),
    )


@pytest.mark.parametrize("count", [1, 5, BATCH_THRESHOLD + 2])
def test_equation_of_motion_splits_into_its_terms(count):
    robot = panda_like()
    q, qd, qdd = random_states(count, 7)
    tip = np.random.default_rng(1).normal(size=(count, 6))
    M = rl.mass_matrix_crba(robot, q)
    parts = (
        (M @ qdd[..., None])[..., 0]
        + rl.velocity_quadratic_forces(robot, q, qd)
        + rl.gravity_forces(robot, q)
        + rl.end_effector_forces(robot, q, tip)
    )
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip), parts, atol=1e-9
    )
    # Statics (chapter 5): the torques that apply F_tip are J_bᵀ F_tip.
    J_b = rl.jacobian_body(robot, q)
    np.testing.assert_allclose(
        rl.end_effector_forces(robot, q, tip),
        (J_b.swapaxes(-1, -2) @ tip[..., None])[..., 0],
        atol=1e-12,
    )


def test_mass_matrix_is_symmetric_positive_definite_and_crba_equals_rnea():
    robot = ur5()
    for count in (1, 7, BATCH_THRESHOLD):
        q, _, _ = random_states(count, 6, seed=count)
        M = rl.mass_matrix_crba(robot, q)
        np.testing.assert_array_equal(M, M.swapaxes(-1, -2))
        assert np.all(np.linalg.eigvalsh(M) > 0)
        np.testing.assert_allclose(rl.mass_matrix_rnea(robot, q), M, atol=1e-12)
        np.testing.assert_allclose(
            dy.mass_matrix_rnea(
                q, robot.link_frames, robot.spatial_inertias, robot.screw_axes_space
            ),
            M,
            atol=1e-12,
        )


def test_velocity_forces_are_quadratic_and_kinetic_energy_is_half_qd_m_qd():
    robot = panda_like()
    q, qd, _ = random_states(1, 7, seed=2)
    q, qd = q[0], qd[0]
    np.testing.assert_allclose(
        rl.velocity_quadratic_forces(robot, q, 3 * qd),
        9 * rl.velocity_quadratic_forces(robot, q, qd),
        atol=1e-10,
    )
    assert rl.kinetic_energy(robot, q, qd) == pytest.approx(
        0.5 * qd @ rl.mass_matrix_crba(robot, q) @ qd, rel=1e-12
    )


def test_gravity_torques_are_the_gradient_of_the_potential_energy():
    robot = panda_like(gravity=(0.5, -1.0, -9.6))
    q = random_states(1, 7, seed=3)[0][0]
    h = 1e-6
    gradient = [
        (rl.potential_energy(robot, q + h * e) - rl.potential_energy(robot, q - h * e)) / (2 * h)
        for e in np.eye(7)
    ]
    np.testing.assert_allclose(rl.gravity_forces(robot, q), gradient, atol=1e-7)


def test_energies_batched_and_array_forms():
    robot = ur5()
    q, qd, _ = random_states(4, 6, seed=4)
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    K = rl.kinetic_energy(robot, q, qd)
    P = rl.potential_energy(robot, q)
    assert K.shape == (4,) and P.shape == (4,)
    for i in range(4):
        assert dy.kinetic_energy(q[i], qd[i], *arrays) == pytest.approx(K[i], rel=1e-12)
        assert dy.potential_energy(q[i], robot.gravity, *arrays) == pytest.approx(P[i], rel=1e-12)


@pytest.mark.parametrize("count", [3, BATCH_THRESHOLD + 5])
def test_batches_of_any_shape_equal_one_at_a_time(count):
    robot = panda_like()
    q, qd, qdd = (x.reshape(count, 1, 7) for x in random_states(count, 7, seed=5))
    tau = rl.inverse_dynamics_rnea(robot, q, qd, qdd)
    M = rl.mass_matrix_crba(robot, q)
    assert tau.shape == (count, 1, 7) and M.shape == (count, 1, 7, 7)
    for i in (0, count - 1):
        np.testing.assert_allclose(
            tau[i, 0], rl.inverse_dynamics_rnea(robot, q[i, 0], qd[i, 0], qdd[i, 0]), atol=1e-10
        )
        np.testing.assert_allclose(M[i, 0], rl.mass_matrix_crba(robot, q[i, 0]), atol=1e-12)


def test_robot_first_forms_equal_the_array_forms_and_default_gravity():
    robot = ur5(gravity=(0.1, 0.2, -9.7))
    q, qd, qdd = (x[0] for x in random_states(1, 6, seed=6))
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(robot, q, qd, qdd),
        dy.inverse_dynamics_rnea(q, qd, qdd, robot.gravity, np.zeros(6), *arrays),
        atol=1e-13,
    )
    np.testing.assert_allclose(
        rl.gravity_forces(robot, q, gravity=[0, 0, -1]),
        dy.gravity_forces(q, [0, 0, -1], *arrays),
        atol=1e-13,
    )


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: dy.inverse_dynamics_rnea(
                [0, 0], QD3, QDD3, G98, TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"joint_positions must have shape \(3,\) or \(\.\.\., 3\) for 3 joints",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                Q3, [[0, 0, 0]] * 2, QDD3, G98, TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"joint_velocities must have the shape of joint_positions \(3,\), got \(2, 3\)",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                Q3, QD3, [0, np.nan, 0], G98, TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            "joint_accelerations contains a non-finite value",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                Q3, QD3, QDD3, [0, -9.8], TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"gravity must have shape \(3,\)",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                Q3, QD3, QDD3, G98, [1, 1, 1], FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"tip_wrench must have shape \(\.\.\., 6\), got shape \(3,\)",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                [Q3] * 2, [QD3] * 2, [QDD3] * 2, G98, [TIP3] * 3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"tip_wrench must have shape \(6,\) or \(2, 6\) to match joint_positions",
        ),
        (
            lambda: dy.inverse_dynamics_rnea(
                Q3, QD3, QDD3, G98, TIP3, FRAMES[:3], INERTIAS, SCREWS
            ),
            ValueError,
            r"link_frames must hold n \+ 1 = 4 transforms",
        ),
        (
            lambda: dy.mass_matrix_crba(Q3, FRAMES, INERTIAS[:2], SCREWS),
            ValueError,
            r"spatial_inertias must hold 3 matrices \(one per link\), got 2",
        ),
        (
            lambda: dy.mass_matrix_crba(
                Q3, FRAMES, INERTIAS * np.r_[1, -1, 1][:, None, None], SCREWS
            ),
            ValueError,
            r"spatial_inertias\[1\] \(link 2\): the mass must be non-negative",
        ),
        (
            lambda: dy.gravity_forces(Q3, G98, FRAMES, INERTIAS, SCREWS[:, :2]),
            ValueError,
            r"link_frames must hold n \+ 1 = 3 transforms .* for 2 joints, got 4",
        ),
        (
            lambda: dy.inverse_dynamics_rnea_textbook(
                [Q3] * 2, [QD3] * 2, [QDD3] * 2, G98, TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"joint_positions must have shape \(3,\) for 3 joints, got shape \(2, 3\)",
        ),
        (
            lambda: rl.inverse_dynamics_rnea(ur5(), np.zeros(6), np.zeros(6), np.zeros(5)),
            ValueError,
            r"joint_accelerations must have shape \(6,\) or \(\.\.\., 6\)",
        ),
        (
            lambda: rl.end_effector_forces(ur5(), np.zeros(6), [0, 0, 0]),
            ValueError,
            r"tip_wrench must have shape \(\.\.\., 6\), got shape \(3,\)",
        ),
        (
            lambda: rl.mass_matrix_crba(None, np.zeros(6)),
            TypeError,
            "robot must be a ScrewRobot, got NoneType",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
