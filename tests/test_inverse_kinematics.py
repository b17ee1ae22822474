"""Numerical inverse kinematics (Modern Robotics, section 6.2): Newton–Raphson, honest success.

References: the book's Example 6.1 (planar 2R arm, Table 6.1 iterates) and the
printed examples of its library's IKinBody/IKinSpace; ``modern_robotics`` at
random targets (same algorithm, same iterates); forward kinematics for
checking that every reported success really reaches the target.
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.screw_arms import panda_like, ur5

import robolab as rl
from robolab.screw import inverse_kinematics as ik

B_LIBRARY = np.array([[0, 0, -1, 2, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0.1]]).T
S_LIBRARY = np.array([[0, 0, 1, 4, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, -1, -6, 0, -0.1]]).T
M_LIBRARY = np.array([[-1, 0, 0, 0], [0, 1, 0, 6], [0, 0, -1, 2], [0, 0, 0, 1]], dtype=float)
T_LIBRARY = np.array([[0, 1, 0, -5], [1, 0, 0, 4], [0, 0, -1, 1.6858], [0, 0, 0, 1]])

# Planar 2R arm with unit links, end-effector frame at the tip (Example 6.1).
M_2R = np.eye(4)
M_2R[0, 3] = 2.0
B_2R = np.array([[0, 0, 1, 0, 2, 0], [0, 0, 1, 0, 1, 0]]).T


def test_book_library_examples():
    theta, success = ik.inverse_kinematics_body(
        B_LIBRARY, M_LIBRARY, T_LIBRARY, [1.5, 2.5, 3], 0.01, 0.001
    )
    np.testing.assert_allclose(theta, [1.57073819, 2.999667, 3.14153913], atol=5e-9)
    assert success is True
    theta, success = ik.inverse_kinematics_space(
        S_LIBRARY, M_LIBRARY, T_LIBRARY, [1.5, 2.5, 3], 0.01, 0.001
    )
    np.testing.assert_allclose(theta, [1.57073783, 2.99966384, 3.1415342], atol=5e-9)
    assert success is True


def test_book_example_6_1_iterates():
    # Target (x, y) = (0.366, 1.366), orientation 120°; guess (0°, 30°); ε_ω = 0.001, ε_v = 1e-4.
    # Table 6.1: (34.23°, 79.18°), (29.98°, 90.22°), then (30.00°, 90.00°), converged.
    target = mr.FKinBody(M_2R, B_2R, np.radians([30, 90]))
    np.testing.assert_allclose(target[:2, 3], [0.366, 1.366], atol=5e-4)
    iterates = []
    for iterations in (1, 2, 3):
        result = ik.inverse_kinematics_body(
            B_2R, M_2R, target, np.radians([0, 30]), 0.001, 1e-4, max_iterations=iterations
        )
        iterates.append(np.degrees(result.joint_positions))
    np.testing.assert_allclose(
        iterates, [[34.23, 79.18], [29.98, 90.22], [30.00, 90.00]], atol=0.005
    )
    assert result.success and result.iterations == 3


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000))
def test_same_answer_as_modern_robotics(seed):
    robot = ur5()
    rng = np.random.default_rng(seed)
    q_target = rng.uniform(-2, 2, 6)
    guess = q_target + rng.uniform(-0.1, 0.1, 6)  # close: a few quadratic steps, no wandering
    T = rl.forward_kinematics_space(robot, q_target)
    B, S, M = robot.screw_axes_body, robot.screw_axes_space, robot.home_ee_pose
    for ours, theirs in (
        (ik.inverse_kinematics_body(B, M, T, guess, 1e-3, 1e-4), mr.IKinBody(B, M, T, guess, 1e-3,
                                                                            1e-4)),
        (ik.inverse_kinematics_space(S, M, T, guess, 1e-3, 1e-4), mr.IKinSpace(S, M, T, guess,
                                                                              1e-3, 1e-4)),
    ):  # fmt: skip
        # Where the book's code converges, the iterates (and answers) are the same; from a
        # diverging start both wander and rounding decides where they end.
        if theirs[1]:
            assert ours.success
            np.testing.assert_allclose(ours.joint_positions, theirs[0], atol=1e-6)


def test_robot_first_forms_converge_tightly():
    robot = panda_like()
    q = np.array([0.2, -0.5, 0.3, -1.8, 0.1, 1.5, 0.4])
    target = rl.forward_kinematics_space(robot, q)
    for solve in (rl.inverse_kinematics_body, rl.inverse_kinematics_space):
        theta, success = solve(robot, target, q + 0.1)
        assert success
        np.testing.assert_allclose(rl.forward_kinematics_space(robot, theta), target, atol=1e-6)


def test_unreachable_target_reports_failure_honestly():
    robot = ur5()
    far = np.eye(4)
    far[:3, 3] = [2.0, 0.0, 0.5]  # the UR5 reaches under 1 m
    result = rl.inverse_kinematics_body(robot, far, np.zeros(6), max_iterations=50)
    assert result.success is False
    assert result.iterations == 50
    # The reported error is the error of the returned joint positions.
    T = rl.forward_kinematics_space(robot, result.joint_positions)
    twist = mr.se3ToVec(mr.MatrixLog6(mr.TransInv(T) @ far))
    assert result.linear_error == pytest.approx(np.linalg.norm(twist[3:]), rel=1e-9)
    assert result.linear_error > 0.5


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), reach=st.floats(0.0, 1.5))
def test_success_is_never_claimed_for_a_wrong_pose(seed, reach):
    robot = ur5()
    rng = np.random.default_rng(seed)
    target = mr.RpToTrans(
        mr.MatrixExp3(mr.VecToso3(rng.normal(size=3))), reach * rng.normal(size=3) / 1.7
    )
    result = rl.inverse_kinematics_space(robot, target, rng.uniform(-3, 3, 6), 1e-4, 1e-5)
    if result.success:
        T = rl.forward_kinematics_space(robot, result.joint_positions)
        V_b = mr.se3ToVec(mr.MatrixLog6(mr.TransInv(T) @ target))
        V_s = mr.Adjoint(T) @ V_b
        assert np.linalg.norm(V_s[:3]) <= 1e-4 and np.linalg.norm(V_s[3:]) <= 1e-5


def test_result_unpacks_like_the_book_and_keeps_details():
    target = mr.FKinBody(M_2R, B_2R, [0.4, 0.9])
    result = ik.inverse_kinematics_body(B_2R, M_2R, target, [0.3, 1.0], 1e-6, 1e-6)
    theta, success = result
    assert len(result) == 2 and result[1] is success and result[0] is theta
    assert result.iterations >= 1 and result.angular_error <= 1e-6
    at_guess = ik.inverse_kinematics_body(
        B_2R, M_2R, target, [0.3, 1.0], 1e-6, 1e-6, max_iterations=0
    )
    assert not at_guess.success and at_guess.iterations == 0
    np.testing.assert_array_equal(at_guess.joint_positions, [0.3, 1.0])


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: ik.inverse_kinematics_body(B_2R, M_2R, M_2R, [0.0], 1e-3, 1e-3),
            ValueError,
            r"initial_guess must have shape \(2,\) for 2 joints, got shape \(1,\)",
        ),
        (
            lambda: ik.inverse_kinematics_body(B_2R, M_2R, M_2R, [[0.0, 0.0]], 1e-3, 1e-3),
            ValueError,
            r"initial_guess must have shape \(2,\)",
        ),
        (
            lambda: ik.inverse_kinematics_body(B_2R, M_2R, np.eye(3), [0, 0], 1e-3, 1e-3),
            ValueError,
            r"target_pose must have shape \(4, 4\)",
        ),
        (
            lambda: ik.inverse_kinematics_space(B_2R, M_2R, 2 * M_2R, [0, 0], 1e-3, 1e-3),
            ValueError,
            "target_pose must be a homogeneous transform",
        ),
        (
            lambda: ik.inverse_kinematics_body(B_2R, M_2R, M_2R, [0, 0], 0.0, 1e-3),
            ValueError,
            "angular_tolerance must be positive, got 0",
        ),
        (
            lambda: ik.inverse_kinematics_body(B_2R, M_2R, M_2R, [0, 0], 1e-3, -1),
            ValueError,
            "linear_tolerance must be positive, got -1",
        ),
        (
            lambda: ik.inverse_kinematics_body(
                B_2R, M_2R, M_2R, [0, 0], 1e-3, 1e-3, max_iterations=-1
            ),
            ValueError,
            "max_iterations must be ≥ 0, got -1",
        ),
        (
            lambda: ik.inverse_kinematics_body(
                B_2R, M_2R, M_2R, [0, 0], 1e-3, 1e-3, max_iterations=2.5
            ),
            TypeError,
            "max_iterations must be an int",
        ),
        (
            lambda: rl.inverse_kinematics_space(ur5(), np.eye(4), [0, math.nan, 0, 0, 0, 0]),
            ValueError,
            "initial_guess contains a non-finite value",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
