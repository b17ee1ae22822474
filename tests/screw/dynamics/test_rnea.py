"""Inverse dynamics by Newton–Euler (Modern Robotics, section 8.3): ``screw/dynamics/rnea.py``.

References:

* the printed examples of the book library's InverseDynamics, VelQuadraticForces,
  GravityForces and EndEffectorForces (the three-link arm);
* the book's closed-form dynamics of the planar 2R arm with point masses
  (section 8.1.1, eq. 8.9);
* Pinocchio's rnea and computeGeneralizedGravity for the book's UR5, a Panda-like 7-DOF
  arm and a SCARA-like arm with a prismatic joint, at 25 random states with tilted gravity
  and a tip wrench (stored by ``reference/generate_pinocchio_screw_reference.py``;
  joint-space quantities need no [v; ω] reordering, the tip wrench is converted there);
* ``modern_robotics`` on random robots (random screw axes including pitched,
  prismatic and non-unit ones, random link frames and inertias);
* identities: τ = M θ̈ + c + g + J_bᵀF, c quadratic in θ̇.

Both kernels are exercised: one state or a small batch (space-frame kernel)
and batches of at least ``BATCH_THRESHOLD`` states (joint-aligned kernel).

The recursion's intermediate values (``inverse_dynamics_rnea_steps``, the one body of the
book's recursion) are checked, at the end, against outside engines, none of them robolab:

* **Pinocchio**'s ``rnea`` on the model that ``reference/pinocchio_screw.py`` builds from a
  robot's screw form (joint i's frame has z on its screw axis). After ``pin.rnea`` the
  data hold, per joint i, the link's spatial velocity ``data.v[i]``, its acceleration with
  the base's fictitious -g ``data.a_gf[i]`` (without it: ``data.a[i]``) and the wrench
  transmitted through joint i ``data.f[i]``, all in Pinocchio's joint frame, ordered
  [v; ω] (forces [f; m]). The comparison goes through {s}: ``data.oMi[i].act`` writes them
  in the world frame, where a spatial vector no longer depends on which frame of the link
  it was attached to; a swap of the halves gives robolab's [ω; v] and [m; f]. The space-frame
  records must equal these directly; the link-frame records after
  [Ad_{T_si⁻¹}] (twists) and [Ad_{T_si}]ᵀ (wrenches), with T_si from ``mr.FKinSpace``.
  Pinocchio's external force on the last link is minus the tip wrench (MR's F_tip is the
  wrench the end-effector applies to the environment).
* **modern_robotics**: ``FKinSpace`` for the link poses, ``JacobianSpace`` for the space
  twists V_i = J_s(θ_1..θ_i) θ̇, ``InverseDynamics`` for τ, and the printed digits of the
  book library's three-link example.
"""

import dataclasses
from pathlib import Path

import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.pinocchio_screw import pinocchio_from_screw
from reference.screw_arms import ARMS, panda_like, three_link_book, twists, ur5

import robolab as rl
from robolab.screw._fast.batched import BATCH_THRESHOLD
from robolab.screw.dynamics import mass_matrix as mm
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
    np.testing.assert_allclose(mm.mass_matrix_crba(q, *arrays), M, atol=1e-10 * scale)
    # A large batch (joint-aligned kernel) of the same state.
    batch = np.tile(np.array([q, qd, qdd]), (BATCH_THRESHOLD, 1, 1)).transpose(1, 0, 2)
    np.testing.assert_allclose(
        dy.inverse_dynamics_rnea(*batch, g, tip, *arrays),
        np.tile(tau, (BATCH_THRESHOLD, 1)),
        atol=1e-10 * scale,
    )
    np.testing.assert_allclose(
        mm.mass_matrix_crba(batch[0], *arrays),
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


def test_velocity_forces_are_quadratic():
    robot = panda_like()
    q, qd, _ = random_states(1, 7, seed=2)
    q, qd = q[0], qd[0]
    np.testing.assert_allclose(
        rl.velocity_quadratic_forces(robot, q, 3 * qd),
        9 * rl.velocity_quadratic_forces(robot, q, qd),
        atol=1e-10,
    )


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
            lambda: dy.gravity_forces(Q3, G98, FRAMES, INERTIAS, SCREWS[:, :2]),
            ValueError,
            r"link_frames must hold n \+ 1 = 3 transforms .* for 2 joints, got 4",
        ),
        (
            lambda: dy.inverse_dynamics_rnea_textbook(
                [Q3] * 2, [QD3] * 2, [QDD3] * 2, G98, TIP3, FRAMES, INERTIAS, SCREWS
            ),
            ValueError,
            r"joint_positions must have shape \(3,\): the steps are those of one state, got "
            r"shape \(2, 3\)",
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
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ----------------------------------------------------------- the steps: inverse_dynamics_rnea_steps

SWAP = [3, 4, 5, 0, 1, 2]
ROBOTS = ["ur5", "puma560", "panda", "scara", "stanford"]


def screw_robot(name: str) -> rl.ScrewRobot:
    robot = rl.load_robot(name)
    return robot if isinstance(robot, rl.ScrewRobot) else robot.to_screw()


def state(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.5, 1.5, n), rng.uniform(-1.0, 1.0, n), rng.uniform(-2.0, 2.0, n)


def pinocchio_run(robot, q, qd, qdd, tip=None):
    """Pinocchio's per-joint velocity, acceleration (with -g) and wrench, in {s}, [ω; v] order."""
    model, ee = pinocchio_from_screw(robot)
    data = model.createData()
    pin.framesForwardKinematics(model, data, q)
    if tip is None:
        pin.rnea(model, data, q, qd, qdd)
    else:
        # The environment pushes on the end-effector with -F_tip; Pinocchio wants it in the
        # local frame of the last joint. F_tip is in the end-effector frame {n+1}.
        world_tip = pin.Force(np.concatenate([tip[3:], tip[:3]]))  # [f; m]
        on_robot = -(data.oMf[ee].act(world_tip))
        fext = pin.StdVec_Force()
        for _ in range(model.njoints):
            fext.append(pin.Force.Zero())
        fext[model.njoints - 1] = data.oMi[model.njoints - 1].actInv(on_robot)
        pin.rnea(model, data, q, qd, qdd, fext)
    values = {"twist": [], "acceleration": [], "wrench": []}
    for i in range(1, model.njoints):
        placement = data.oMi[i]
        values["twist"].append(placement.act(data.v[i]).vector[SWAP])
        values["acceleration"].append(placement.act(data.a_gf[i]).vector[SWAP])
        values["wrench"].append(placement.act(data.f[i]).vector[SWAP])
    return {key: np.array(rows) for key, rows in values.items()}, np.array(data.tau)


def link_poses_mr(robot, q):
    """T_si of every centre-of-mass frame by the book's FKinSpace on the first i joints."""
    poses, home = [], np.eye(4)
    for i in range(robot.n_joints):
        home = home @ robot.link_frames[i]
        poses.append(mr.FKinSpace(home, robot.screw_axes_space[:, : i + 1], q[: i + 1]))
    return poses


@pytest.mark.parametrize("name", ROBOTS)
def test_space_frame_values_equal_pinocchio(name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, 9)
    expected, tau = pinocchio_run(robot, q, qd, qdd)
    steps = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame="space")
    assert steps.frame == "space"
    np.testing.assert_allclose(steps.twists, expected["twist"], atol=1e-10)
    np.testing.assert_allclose(steps.accelerations, expected["acceleration"], atol=1e-9)
    np.testing.assert_allclose(steps.wrenches, expected["wrench"], atol=1e-8)
    np.testing.assert_allclose(steps.torques, tau, atol=1e-8)


@pytest.mark.parametrize("name", ["ur5", "scara"])
def test_link_frame_values_equal_pinocchio_written_in_the_link_frames(name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, 19)
    tip = np.array([0.3, -0.2, 0.5, 4.0, -2.0, 7.0])
    expected, tau = pinocchio_run(robot, q, qd, qdd, tip)
    steps = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd, tip_wrench=tip)
    assert steps.frame == "link"
    for i, (record, pose) in enumerate(zip(steps.links, link_poses_mr(robot, q), strict=True)):
        np.testing.assert_allclose(record.pose, pose, atol=1e-12)
        to_link = mr.Adjoint(mr.TransInv(pose))
        np.testing.assert_allclose(record.twist, to_link @ expected["twist"][i], atol=1e-10)
        np.testing.assert_allclose(
            record.acceleration, to_link @ expected["acceleration"][i], atol=1e-9
        )
        np.testing.assert_allclose(
            record.wrench, mr.Adjoint(pose).T @ expected["wrench"][i], atol=1e-8
        )
    np.testing.assert_allclose(steps.torques, tau, atol=1e-8)


def test_space_twists_are_space_jacobian_columns_times_rates():
    robot = screw_robot("puma560")
    q, qd, qdd = state(6, 29)
    steps = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame="space")
    for i, record in enumerate(steps.links):
        jacobian = mr.JacobianSpace(robot.screw_axes_space[:, : i + 1], q[: i + 1])
        np.testing.assert_allclose(record.twist, jacobian @ qd[: i + 1], atol=1e-12)
        np.testing.assert_allclose(record.screw_axis, jacobian[:, i], atol=1e-12)


def test_book_three_link_example_digits_and_modern_robotics():
    frames, inertias, screws = three_link_book()
    q, qd, qdd, g, tip = [0.1] * 3, [0.1, 0.2, 0.3], [2, 1.5, 1], [0, 0, -9.8], [1] * 6
    steps = rl.inverse_dynamics_rnea_steps(q, qd, qdd, g, tip, frames, inertias, screws)
    np.testing.assert_allclose(steps.torques, [74.69616155, -33.06766016, -3.23057314], atol=5e-9)
    reference = mr.InverseDynamics(q, qd, qdd, g, tip, frames, inertias, screws)
    np.testing.assert_allclose(steps.torques, reference, atol=1e-10)
    np.testing.assert_allclose(steps.tip_wrench, tip, atol=0)
    np.testing.assert_allclose(steps.gravity, g, atol=0)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(ROBOTS))
def test_torques_equal_the_fast_path_and_modern_robotics(seed, name):
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, seed)
    tip = np.random.default_rng(seed + 1).normal(size=6)
    steps = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd, tip_wrench=tip)
    fast = rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip)
    np.testing.assert_allclose(steps.torques, fast, atol=1e-9)
    textbook = rl.inverse_dynamics_rnea_textbook(robot, q, qd, qdd, tip_wrench=tip)
    np.testing.assert_array_equal(steps.torques, textbook)  # the same recursion, one body
    reference = mr.InverseDynamics(
        q,
        qd,
        qdd,
        robot.gravity,
        tip,
        list(robot.link_frames),
        list(robot.spatial_inertias),
        robot.screw_axes_space,
    )
    np.testing.assert_allclose(steps.torques, reference, atol=1e-9)


def test_torque_is_the_wrench_on_the_screw_axis_in_either_frame():
    robot = screw_robot("panda")
    q, qd, qdd = state(7, 39)
    for frame in ("link", "space"):
        steps = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd, frame=frame)
        by_axis = [record.wrench @ record.screw_axis for record in steps.links]
        np.testing.assert_allclose(by_axis, steps.torques, atol=1e-9)


def test_frames_convert_both_ways_and_records_are_frozen():
    robot = screw_robot("ur5")
    q, qd, qdd = state(6, 49)
    link = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd)
    back = link.in_frame("space").in_frame("link")
    for key in ("twists", "accelerations", "wrenches"):
        np.testing.assert_allclose(getattr(back, key), getattr(link, key), atol=1e-10)
    assert link.in_frame("link") is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        link.links[0].torque = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        link.links[0].twist[0] = 1.0
    assert link.order == tuple(("forward", i) for i in range(1, 7)) + tuple(
        ("backward", i) for i in range(6, 0, -1)
    )
    text = str(link)
    assert text.count("(link frame)") == 6 and "τ =" in text


def test_a_link_at_rest_accelerates_up_by_g():
    """Gravity enters as the base's acceleration [0; -g]: at rest, V̇_i = [0; -R_siᵀ g]."""
    robot = screw_robot("puma560")
    q = state(6, 59)[0]
    steps = rl.inverse_dynamics_rnea_steps(robot, q, np.zeros(6), np.zeros(6))
    for record in steps.links:
        expected = np.concatenate([np.zeros(3), -record.pose[:3, :3].T @ robot.gravity])
        np.testing.assert_allclose(record.acceleration, expected, atol=1e-12)
    np.testing.assert_allclose(steps.torques, rl.gravity_forces(robot, q), atol=1e-10)


def test_bad_input_is_refused_with_a_clear_message():
    robot = screw_robot("ur5")
    zeros = np.zeros(6)
    with pytest.raises(ValueError, match="frame"):
        rl.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros, frame="world")
    with pytest.raises(ValueError, match=r"joint_velocities must have the shape of joint_pos"):
        rl.inverse_dynamics_rnea_steps(robot, zeros, np.zeros((2, 6)), zeros)
    with pytest.raises(ValueError, match=r"must have shape \(6,\): the steps are those of one"):
        rl.inverse_dynamics_rnea_steps(robot, *np.zeros((3, 2, 6)))
    with pytest.raises(ValueError, match="joint_positions"):
        rl.inverse_dynamics_rnea_steps(robot, [0.0] * 5, zeros, zeros)
    with pytest.raises(ValueError, match="tip_wrench"):
        rl.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros, tip_wrench=[1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        rl.inverse_dynamics_rnea_steps(robot, [np.nan] + [0.0] * 5, zeros, zeros)
    with pytest.raises(TypeError, match="robot must be a ScrewRobot"):
        rl.inverse_dynamics_rnea_steps("ur5", zeros, zeros, zeros)
    with pytest.raises(ValueError, match="frame"):
        rl.inverse_dynamics_rnea_steps(robot, zeros, zeros, zeros).in_frame("body")


@settings(max_examples=20)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["ur5", "scara", "stanford"]))
def test_power_and_kinetic_energy_do_not_depend_on_the_frame(seed, name):
    """F_iᵀ V_i (power) and ½ V_iᵀ G_i V_i (link i's kinetic energy) are frame invariants;
    Σ_i ½ V_iᵀ G_i V_i is mr's ½ θ̇ᵀ M θ̇."""
    robot = screw_robot(name)
    q, qd, qdd = state(robot.n_joints, seed)
    link = rl.inverse_dynamics_rnea_steps(robot, q, qd, qdd)
    space = link.in_frame("space")
    for a, b in zip(link.links, space.links, strict=True):
        assert a.wrench @ a.twist == pytest.approx(b.wrench @ b.twist, abs=1e-9)
    energy = sum(
        0.5 * record.twist @ G @ record.twist
        for record, G in zip(link.links, robot.spatial_inertias, strict=True)
    )
    M = mr.MassMatrix(
        q, list(robot.link_frames), list(robot.spatial_inertias), robot.screw_axes_space
    )
    assert energy == pytest.approx(0.5 * qd @ M @ qd, abs=1e-10)
