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
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference.screw_arms import panda_like, ur5

import robolab as rl
from robolab.screw.kinematics import inverse as ik

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
        (
            ik.inverse_kinematics_body(B, M, T, guess, 1e-3, 1e-4),
            mr.IKinBody(B, M, T, guess, 1e-3, 1e-4),
        ),
        (
            ik.inverse_kinematics_space(S, M, T, guess, 1e-3, 1e-4),
            mr.IKinSpace(S, M, T, guess, 1e-3, 1e-4),
        ),
    ):
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


# --- damped least squares and the history of the iteration -----------------------------------


def mr_error_twist_body(B, M, T, theta):
    return mr.se3ToVec(mr.MatrixLog6(mr.TransInv(mr.FKinBody(M, B, theta)) @ T))


def test_history_holds_every_iterate_and_its_error():
    target = mr.FKinBody(M_2R, B_2R, [0.4, 0.9])
    for method in ik.METHODS:
        result = ik.inverse_kinematics_body(
            B_2R, M_2R, target, [0.1, 0.5], 1e-8, 1e-8, method=method, max_iterations=300
        )
        assert result.success and result.method == method
        assert result.joint_history.shape == (result.iterations + 1, 2)
        assert result.error_history.shape == (result.iterations + 1, 2)
        np.testing.assert_array_equal(result.joint_history[0], [0.1, 0.5])
        np.testing.assert_array_equal(result.joint_history[-1], result.joint_positions)
        for theta, (angular, linear) in zip(
            result.joint_history, result.error_history, strict=True
        ):
            # (modern_robotics' MatrixLog3 rounds rotations under ~1e-6 rad to zero)
            V = mr_error_twist_body(B_2R, M_2R, target, theta)
            assert angular == pytest.approx(np.linalg.norm(V[:3]), abs=1e-6)
            assert linear == pytest.approx(np.linalg.norm(V[3:]), abs=1e-6)
        assert not result.joint_history.flags.writeable


def test_newton_history_matches_modern_robotics_iterates():
    # IKinBody with maxiterations = k returns θᵏ: row k of the history.
    target = mr.FKinBody(M_2R, B_2R, np.radians([30, 90]))
    result = ik.inverse_kinematics_body(B_2R, M_2R, target, np.radians([0, 30]), 1e-12, 1e-12)
    for k in range(1, result.iterations + 1):
        theta = _ikinbody_limited(B_2R, M_2R, target, np.radians([0, 30]), k)
        np.testing.assert_allclose(result.joint_history[k], theta, atol=1e-9)


def _ikinbody_limited(B, M, T, guess, iterations):
    """The book's IKinBody loop, stopped after ``iterations`` updates (its own code, inlined)."""
    theta = np.array(guess, dtype=float)
    for _ in range(iterations):
        theta = theta + np.linalg.pinv(mr.JacobianBody(B, theta)) @ mr_error_twist_body(
            B, M, T, theta
        )
    return theta


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_damped_least_squares_reaches_modern_robotics_solution(seed):
    robot = ur5()
    rng = np.random.default_rng(seed)
    q_target = rng.uniform(-2, 2, 6)
    guess = q_target + rng.uniform(-0.1, 0.1, 6)
    T = rl.forward_kinematics_space(robot, q_target)
    B, S, M = robot.screw_axes_body, robot.screw_axes_space, robot.home_ee_pose
    # Away from singularities: near one (σ_min of J_b not well above λ = 0.01) a damped step
    # shrinks the error only by about σ²/(σ² + λ²) and needs thousands of steps (seed 882:
    # σ_min = 9e-4 leaves 1e-5 rad after 1000), which test_damped_step_stays_bounded_... covers.
    assume(np.linalg.svd(mr.JacobianBody(B, q_target), compute_uv=False)[-1] > 0.05)
    pairs = (
        (ik.inverse_kinematics_body, mr.IKinBody, B),
        (ik.inverse_kinematics_space, mr.IKinSpace, S),
    )
    for ours, theirs, axes in pairs:
        reference, converged = theirs(axes, M, T, guess, 1e-9, 1e-9)
        if not converged:
            continue
        result = ours(axes, M, T, guess, 1e-9, 1e-9, method="damped_least_squares", damping=0.01)
        assert result.success
        np.testing.assert_allclose(result.joint_positions, reference, atol=1e-6)


def test_damped_step_stays_bounded_near_a_singularity():
    # The Puma with an almost straight wrist (θ5 = 1e-4): axes 4 and 6 nearly line up and
    # J_b is nearly singular. The target is turned by 0.05 rad about the direction J_b
    # almost cannot produce. The Newton step is huge (about 0.05 / σ_min); the damped step
    # is at most ‖V‖ / (2λ) (the largest σ / (σ² + λ²) is 1 / (2λ)).
    robot = rl.load_robot("puma560")
    B, M = np.array(robot.screw_axes_body), np.array(robot.home_ee_pose)
    guess = np.array([0.2, 0.5, -0.9, 0.3, 1e-4, 0.2])
    U, sigma, _ = np.linalg.svd(mr.JacobianBody(B, guess))
    assert sigma[-1] < 1e-3
    target = mr.FKinBody(M, B, guess) @ mr.MatrixExp6(mr.VecTose3(0.05 * U[:, -1]))
    newton = rl.inverse_kinematics_body(robot, target, guess, max_iterations=1)
    damped = rl.inverse_kinematics_body(
        robot, target, guess, max_iterations=1, method="damped_least_squares", damping=0.1
    )
    V = mr_error_twist_body(B, M, target, guess)
    assert np.linalg.norm(newton.joint_positions - guess) > 10.0
    assert np.linalg.norm(damped.joint_positions - guess) <= np.linalg.norm(V) / 0.2 + 1e-12
    reached = rl.inverse_kinematics_body(
        robot, target, guess, method="damped_least_squares", damping=0.1
    )
    assert reached.success
    np.testing.assert_allclose(mr.FKinBody(M, B, reached.joint_positions), target, atol=1e-5)


def test_damped_least_squares_out_of_reach_reports_the_remaining_error():
    robot = ur5()
    far = np.eye(4)
    far[:3, 3] = [2.0, 0.0, 0.5]
    result = rl.inverse_kinematics_space(
        robot, far, np.zeros(6), method="damped_least_squares", max_iterations=80
    )
    assert result.success is False and result.iterations == 80
    T = rl.forward_kinematics_space(robot, result.joint_positions)
    V_s = mr.Adjoint(T) @ mr.se3ToVec(mr.MatrixLog6(mr.TransInv(T) @ far))
    assert result.linear_error == pytest.approx(np.linalg.norm(V_s[3:]), abs=1e-9)
    assert result.linear_error > 0.9  # at least the 2.0 m target minus the ~1 m reach


def test_default_iteration_limits_per_method():
    far = mr.FKinBody(M_2R, B_2R, [0.0, 0.0]) @ np.diag([1.0, 1.0, 1.0, 1.0])
    far[0, 3] = 3.0
    newton = ik.inverse_kinematics_body(B_2R, M_2R, far, [0.3, 0.3], 1e-6, 1e-6)
    damped = ik.inverse_kinematics_body(
        B_2R, M_2R, far, [0.3, 0.3], 1e-6, 1e-6, method="damped_least_squares"
    )
    assert (newton.iterations, damped.iterations) == (
        ik.DEFAULT_MAX_ITERATIONS,
        ik.DEFAULT_DLS_MAX_ITERATIONS,
    )


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"method": "gauss"}, ValueError, "method must be one of"),
        (
            {"method": "damped_least_squares", "damping": 0.0},
            ValueError,
            "damping must be positive",
        ),
        ({"damping": math.inf}, ValueError, "damping"),
        ({"damping": "big"}, TypeError, "damping"),
    ],
)
def test_bad_method_or_damping_is_refused(keywords, error, message):
    with pytest.raises(error, match=message):
        ik.inverse_kinematics_body(B_2R, M_2R, M_2R, [0, 0], 1e-3, 1e-3, **keywords)


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        # issue 29: the iteration is bounded by a budget, every number in its range
        ({"max_iterations": 10**9}, ValueError, r"max_iterations must be at most 100,000 \(the "),
        ({"max_iterations": 100_001}, ValueError, r"max_iterations must be at most 100,000"),
        (
            {"method": "damped_least_squares", "damping": 1e-300},
            ValueError,
            r"damping must lie in \[1e-06, 1e\+06\] \(rad and m\), got 1e-300: below it λ² is "
            r"lost in the rounding of J Jᵀ",
        ),
        ({"method": "damped_least_squares", "damping": 1e300}, ValueError, r"got 1e\+300"),
        ({"angular_tolerance": 1e-300}, ValueError, r"angular_tolerance must be at least 1e-15"),
        ({"linear_tolerance": 1e-16}, ValueError, r"linear_tolerance must be at least 1e-15"),
        ({"angular_tolerance": 10.0}, ValueError, r"angular_tolerance must be at most 3\.14159"),
    ],
)
def test_out_of_range_budgets_and_tolerances_are_refused(keywords, error, message):
    """max_iterations=10⁹ with a tolerance of 1e-300 ran for hours; λ = 1e-300 gave
    LinAlgError, λ = 1e300 OverflowError."""
    tolerances = {"angular_tolerance": 1e-3, "linear_tolerance": 1e-3}
    keywords = tolerances | keywords
    for inverse in (ik.inverse_kinematics_body, ik.inverse_kinematics_space):
        with pytest.raises(error, match=message):
            inverse(B_2R, M_2R, M_2R, [0, 0], **keywords)


def test_the_budget_and_the_ends_of_the_ranges_are_accepted():
    result = ik.inverse_kinematics_body(
        B_2R, M_2R, M_2R, [0.3, 0.2], 1e-15, 1e-15, max_iterations=ik.MAX_ITERATIONS
    )
    assert result.success and result.iterations < 10
    for damping in ik.DAMPING_RANGE:
        ik.inverse_kinematics_body(
            B_2R,
            M_2R,
            M_2R,
            [0.3, 0.2],
            np.pi,
            1.0,
            method="damped_least_squares",
            damping=damping,
        )
