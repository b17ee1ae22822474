"""Forward kinematics (Modern Robotics, chapter 4): product of exponentials, space and body forms.

References: the book's Example 4.5 (UR5) and the printed example of its
library's FKinSpace/FKinBody; the ``modern_robotics`` package at random
configurations (any twist, including pitched and non-unit axes); Pinocchio's
end-effector poses for the arms of ``reference/screw_arms.py`` (stored by
``reference/generate_pinocchio_screw_reference.py``).
"""

import math
from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.screw_arms import ARMS, book_angles, twists, ur5

import robolab as rl
from robolab.screw.kinematics import forward as fk

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")

# The library example (book section 4.1.3 software): an RRP-like 3-joint chain.
M_EXAMPLE = np.array([[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]], dtype=float)
S_EXAMPLE = np.array([[0, 0, 1, 4, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, -1, -6, 0, -0.1]]).T
B_EXAMPLE = np.array([[0, 0, -1, 2, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0.1]]).T
T_EXAMPLE = [[0, 1, 0, -5], [1, 0, 0, 4], [0, 0, -1, 1.68584073], [0, 0, 0, 1]]


def test_book_library_example_space_and_body():
    theta = [math.pi / 2, 3, math.pi]
    np.testing.assert_allclose(
        fk.forward_kinematics_space(M_EXAMPLE, S_EXAMPLE, theta), T_EXAMPLE, atol=5e-9
    )
    np.testing.assert_allclose(
        fk.forward_kinematics_body(M_EXAMPLE, B_EXAMPLE, theta), T_EXAMPLE, atol=5e-9
    )


def test_book_example_4_5_ur5():
    # Book, Example 4.5: W1 = 109, W2 = 82, L1 = 425, L2 = 392, H1 = 89, H2 = 95 mm;
    # θ2 = -π/2, θ5 = π/2 gives T = [[0, -1, 0, 0.095], [1, 0, 0, 0.109], [0, 0, 1, 0.988]].
    W1, W2, L1, L2, H1, H2 = 0.109, 0.082, 0.425, 0.392, 0.089, 0.095
    M = [[-1, 0, 0, L1 + L2], [0, 0, 1, W1 + W2], [0, 1, 0, H1 - H2], [0, 0, 0, 1]]
    S = np.array(
        [
            [0, 0, 1, 0, 0, 0],
            [0, 1, 0, -H1, 0, 0],
            [0, 1, 0, -H1, 0, L1],
            [0, 1, 0, -H1, 0, L1 + L2],
            [0, 0, -1, -W1, L1 + L2, 0],
            [0, 1, 0, H2 - H1, 0, L1 + L2],
        ]
    ).T
    T = fk.forward_kinematics_space(M, S, [0, -math.pi / 2, 0, 0, math.pi / 2, 0])
    expected = [[0, -1, 0, 0.095], [1, 0, 0, 0.109], [0, 0, 1, 0.988], [0, 0, 0, 1]]
    np.testing.assert_allclose(T, expected, atol=5e-13)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_end_effector_pose_matches_pinocchio(name):
    robot = ARMS[name]()
    q = REFERENCE[f"{name}__q"]
    expected = REFERENCE[f"{name}__pose"]
    np.testing.assert_allclose(rl.forward_kinematics_space(robot, q), expected, atol=1e-12)
    np.testing.assert_allclose(rl.forward_kinematics_body(robot, q), expected, atol=1e-12)
    for i in range(3):  # one state at a time too
        np.testing.assert_allclose(
            rl.forward_kinematics_space(robot, q[i]), expected[i], atol=1e-12
        )


# ----------------------------------------------------------------- against modern_robotics


@settings(max_examples=40)
@given(data=st.data(), n=st.integers(1, 7))
def test_space_and_body_forms_match_modern_robotics(data, n):
    S = data.draw(twists(n))
    theta = np.array([data.draw(book_angles) for _ in range(n)])
    M = mr.RpToTrans(mr.MatrixExp3(mr.VecToso3([0.3, -0.2, 0.5])), [0.1, 0.2, 0.3])
    B = mr.Adjoint(mr.TransInv(M)) @ S
    expected = mr.FKinSpace(M, S, theta)
    np.testing.assert_allclose(fk.forward_kinematics_space(M, S, theta), expected, atol=1e-10)
    np.testing.assert_allclose(fk.forward_kinematics_body(M, B, theta), expected, atol=1e-10)


def test_batches_of_any_shape_equal_one_at_a_time():
    robot = ur5()
    q = np.random.default_rng(0).uniform(-3, 3, (2, 3, 6))
    poses = rl.forward_kinematics_space(robot, q)
    assert poses.shape == (2, 3, 4, 4)
    for index in np.ndindex(2, 3):
        np.testing.assert_allclose(
            poses[index], rl.forward_kinematics_space(robot, q[index]), atol=1e-12
        )
    assert rl.forward_kinematics_body(robot, q).shape == (2, 3, 4, 4)


# --------------------------------------------------------------------------- link frames


def test_link_frames_space_base_centres_of_mass_and_end_effector():
    robot = ur5()
    q = np.array([0.3, -1.1, 0.8, 0.2, -0.5, 1.3])
    poses = rl.link_frames_space(robot, q)
    assert poses.shape == (8, 4, 4)
    np.testing.assert_array_equal(poses[0], np.eye(4))
    # Frame {i}: e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i} M_0i, written out with modern_robotics.
    home = np.eye(4)
    for i in range(6):
        home = home @ robot.link_frames[i]
        expected = mr.FKinSpace(home, robot.screw_axes_space[:, : i + 1], q[: i + 1])
        np.testing.assert_allclose(poses[i + 1], expected, atol=1e-12)
    np.testing.assert_allclose(poses[7], rl.forward_kinematics_space(robot, q), atol=1e-12)
    np.testing.assert_allclose(
        fk.link_frames_space(robot.link_frames, robot.screw_axes_space, q), poses, atol=1e-15
    )


def test_link_frames_space_batched():
    robot = ur5()
    q = np.random.default_rng(1).uniform(-3, 3, (4, 6))
    poses = rl.link_frames_space(robot, q)
    assert poses.shape == (4, 8, 4, 4)
    for i in range(4):
        np.testing.assert_allclose(poses[i], rl.link_frames_space(robot, q[i]), atol=1e-15)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: fk.forward_kinematics_space(M_EXAMPLE, S_EXAMPLE, [1, 2]),
            r"joint_positions must have shape \(3,\) or \(\.\.\., 3\) for 3 joints, "
            r"got shape \(2,\)",
        ),
        (
            lambda: fk.forward_kinematics_space(M_EXAMPLE, S_EXAMPLE, [1, np.nan, 2]),
            r"joint_positions contains a non-finite value \(nan\) at index \(1,\)",
        ),
        (
            lambda: fk.forward_kinematics_space(M_EXAMPLE, S_EXAMPLE, "abc"),
            "joint_positions must be numeric",
        ),
        (
            lambda: fk.forward_kinematics_space(M_EXAMPLE, S_EXAMPLE[:5], [1, 2, 3]),
            r"screw_axes must have shape \(6, n\), got shape \(5, 3\)",
        ),
        (
            lambda: fk.forward_kinematics_space(np.eye(3), S_EXAMPLE, [1, 2, 3]),
            r"home_ee_pose must have shape \(4, 4\)",
        ),
        (
            lambda: fk.forward_kinematics_body(2 * np.eye(4), B_EXAMPLE, [1, 2, 3]),
            "home_ee_pose must be a homogeneous transform",
        ),
        (
            lambda: fk.forward_kinematics_body(M_EXAMPLE, B_EXAMPLE[:, :0], []),
            "body_screw_axes must have at least one column",
        ),
        (
            lambda: fk.link_frames_space([np.eye(4)] * 3, S_EXAMPLE, [1, 2, 3]),
            r"link_frames must hold n \+ 1 = 4 transforms",
        ),
        (
            lambda: fk.link_frames_space(
                [np.eye(4), np.eye(4), np.ones((4, 4)), np.eye(4)], S_EXAMPLE, [1, 2, 3]
            ),
            r"link_frames\[2\] \(M_2,3, link 3\) must be a homogeneous transform",
        ),
        (
            lambda: rl.forward_kinematics_space(ur5(), [0.0] * 5),
            r"joint_positions must have shape \(6,\) or \(\.\.\., 6\)",
        ),
        (
            lambda: rl.forward_kinematics_space(ur5(), [[0.0] * 6, [np.inf] * 6]),
            r"joint_positions contains a non-finite value \(inf\) at index \(1, 0\)",
        ),
        (lambda: rl.link_frames_space("ur5", [0.0] * 6), "robot must be a ScrewRobot, got str"),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
