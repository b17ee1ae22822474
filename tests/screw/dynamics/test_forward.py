"""Forward dynamics (Modern Robotics, section 8.5): CRBA + Cholesky, ABA and the book's form.

References: the printed example of the book library's ForwardDynamics;
Pinocchio's aba (with tilted gravity and a tip wrench, stored by
``reference/generate_pinocchio_screw_reference.py``); identities FD(ID(θ̈)) = θ̈
and agreement of the three algorithms; a spatial arm whose mass matrix is
singular at one configuration only.
"""

from pathlib import Path

import numpy as np
import pytest
from reference.screw_arms import ARMS, panda_like, scara_like, three_link_book, ur5

import robolab as rl
from robolab.screw._fast.batched import BATCH_THRESHOLD
from robolab.screw.dynamics import forward as fd

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")
GRAVITY = REFERENCE["gravity"]
FRAMES, INERTIAS, SCREWS = three_link_book()
FORWARD = [rl.forward_dynamics_crba, rl.forward_dynamics_aba, rl.forward_dynamics_rnea]


def test_book_forward_dynamics_example_by_all_three_algorithms():
    expected = [-0.97392907, 25.58466784, -32.91499212]
    arguments = (
        [0.1, 0.1, 0.1],
        [0.1, 0.2, 0.3],
        [0.5, 0.6, 0.7],
        [0, 0, -9.8],
        [1, 1, 1, 1, 1, 1],
        FRAMES,
        INERTIAS,
        SCREWS,
    )
    for forward in (fd.forward_dynamics_crba, fd.forward_dynamics_aba, fd.forward_dynamics_rnea):
        np.testing.assert_allclose(forward(*arguments), expected, atol=5e-9)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_accelerations_match_pinocchio(name):
    robot = ARMS[name](gravity=GRAVITY)
    q, qd, tau, tip = (
        REFERENCE[f"{name}__{key}"] for key in ("q", "qd", "tau_applied", "tip_wrench")
    )
    expected = REFERENCE[f"{name}__acceleration"]
    expected_tip = REFERENCE[f"{name}__acceleration_tip"]
    # Accelerations reach 4000 rad/s² here (±20 N·m on light links); the agreement is absolute.
    large = np.tile(np.arange(25), 3)  # above the batch threshold: the joint-aligned kernel
    for rows in (np.arange(25), large):
        np.testing.assert_allclose(
            rl.forward_dynamics_crba(robot, q[rows], qd[rows], tau[rows]),
            expected[rows],
            atol=1e-9,
        )
        np.testing.assert_allclose(
            rl.forward_dynamics_crba(robot, q[rows], qd[rows], tau[rows], tip_wrench=tip[rows]),
            expected_tip[rows],
            atol=1e-9,
        )
    np.testing.assert_allclose(
        rl.forward_dynamics_aba(robot, q, qd, tau, tip_wrench=tip), expected_tip, atol=1e-9
    )
    for i in (0, 12, 24):
        np.testing.assert_allclose(
            rl.forward_dynamics_rnea(robot, q[i], qd[i], tau[i]), expected[i], atol=1e-9
        )
        np.testing.assert_allclose(
            rl.forward_dynamics_crba(robot, q[i], qd[i], tau[i]), expected[i], atol=1e-9
        )


@pytest.mark.parametrize("factory", [ur5, panda_like, scara_like])
@pytest.mark.parametrize("count", [1, 4, BATCH_THRESHOLD + 1])
def test_forward_dynamics_inverts_inverse_dynamics(factory, count):
    robot = factory(gravity=(0.3, -0.4, -9.7))
    n = robot.n_joints
    rng = np.random.default_rng(count)
    q, qd, qdd = rng.uniform(-2, 2, (3, count, n))
    tip = rng.normal(size=(count, 6))
    tau = rl.inverse_dynamics_rnea(robot, q, qd, qdd, tip_wrench=tip)
    for forward in FORWARD:
        np.testing.assert_allclose(forward(robot, q, qd, tau, tip_wrench=tip), qdd, atol=1e-8)


def test_batched_equals_one_at_a_time_for_every_algorithm():
    robot = panda_like()
    rng = np.random.default_rng(9)
    for count in (3, BATCH_THRESHOLD):
        q, qd, tau = rng.uniform(-2, 2, (3, count, 7))
        for forward in FORWARD:
            batch = forward(robot, q, qd, tau)
            for i in (0, count - 1):
                np.testing.assert_allclose(
                    batch[i], forward(robot, q[i], qd[i], tau[i]), atol=1e-10
                )


# --------------------------------------------------------------------------- singular mass matrices


def leaning_arm() -> rl.ScrewRobot:
    """Joint 1 about z, joint 2 about y, both at the origin; link 1 has no mass or inertia and
    link 2 is a 1 kg point 1 m along x. M = diag(cos²θ2, 1): singular only at θ2 = ±π/2, when
    the point mass sits on joint 1's axis."""
    x = np.eye(4)
    x[0, 3] = 1.0
    return rl.ScrewRobot(
        "leaning 2R",
        x,
        [[0, 0], [0, 1], [1, 0], [0, 0], [0, 0], [0, 0]],
        [np.eye(4), x, np.eye(4)],
        [np.zeros((6, 6)), np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    )


def test_idealised_robot_is_fine_where_its_mass_matrix_is_regular():
    robot = leaning_arm()
    np.testing.assert_allclose(rl.mass_matrix_crba(robot, [0.3, 0.0]), np.eye(2), atol=1e-15)
    for forward in FORWARD:
        np.testing.assert_allclose(
            forward(robot, [0.3, 0.0], [0.0, 0.0], [2.0, -9.81]), [2.0, 0.0], atol=1e-12
        )


@pytest.mark.parametrize("forward", FORWARD, ids=lambda f: f.__name__)
def test_singular_mass_matrix_is_reported_where_it_is_used(forward):
    robot = leaning_arm()
    with pytest.raises(
        ValueError,
        match=r"the mass matrix M\(θ\) is singular at joint_positions "
        r"\[0.3, 1.5708\]: joint 1 would move no mass",
    ):
        forward(robot, [0.3, np.pi / 2], [0.0, 0.0], [0.0, 0.0])


@pytest.mark.parametrize("count", [5, BATCH_THRESHOLD + 3])
def test_singular_state_in_a_batch_is_named(count):
    robot = leaning_arm()
    q = np.zeros((count, 2))
    q[count - 2, 1] = -np.pi / 2
    with pytest.raises(ValueError, match=rf"\(batch index \({count - 2},\)\): joint 1"):
        rl.forward_dynamics_crba(robot, q, np.zeros((count, 2)), np.zeros((count, 2)))
    with pytest.raises(ValueError, match=rf"batch index \({count - 2},\)"):
        rl.forward_dynamics_aba(robot, q, np.zeros((count, 2)), np.zeros((count, 2)))


def test_link_without_mass_or_inertia_at_the_tip_makes_forward_dynamics_undefined():
    robot = ur5()
    weightless = robot.replace(spatial_inertias=[*robot.spatial_inertias[:5], np.zeros((6, 6))])
    rl.inverse_dynamics_rnea(weightless, np.zeros(6), np.zeros(6), np.ones(6))  # fine
    with pytest.raises(ValueError, match="joint 6 would move no mass or inertia"):
        rl.forward_dynamics_crba(weightless, np.zeros(6), np.zeros(6), np.zeros(6))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: fd.forward_dynamics_crba(
                [0.1] * 3, [0] * 3, [0] * 2, [0, 0, -9.8], np.zeros(6), FRAMES, INERTIAS, SCREWS
            ),
            r"joint_torques must have shape \(3,\) or \(\.\.\., 3\)",
        ),
        (
            lambda: fd.forward_dynamics_aba(
                [0.1] * 3,
                [0] * 3,
                [0, np.inf, 0],
                [0, 0, -9.8],
                np.zeros(6),
                FRAMES,
                INERTIAS,
                SCREWS,
            ),
            "joint_torques contains a non-finite value",
        ),
        (
            lambda: fd.forward_dynamics_rnea(
                [0.1] * 3, [0] * 3, [0] * 3, [0, 0], np.zeros(6), FRAMES, INERTIAS, SCREWS
            ),
            r"gravity must have shape \(3,\)",
        ),
        (
            lambda: rl.forward_dynamics_crba(
                ur5(), np.zeros((2, 6)), np.zeros((3, 6)), np.zeros((2, 6))
            ),
            r"joint_velocities must have the shape of joint_positions \(2, 6\), got \(3, 6\)",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
