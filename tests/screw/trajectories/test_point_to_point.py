"""Point-to-point trajectories (Modern Robotics, chapter 9): joint, screw and Cartesian paths.

References: the printed examples of the book library's JointTrajectory, ScrewTrajectory
and CartesianTrajectory; ``modern_robotics`` on random inputs.
"""

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robolab as rl
from robolab.screw.trajectories import point_to_point as tg

X_START = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1]]
X_END = [[0, 0, 1, 0.1], [1, 0, 0, 0], [0, 1, 0, 4.1], [0, 0, 0, 1]]


def test_book_joint_trajectory_example():
    expected = [[0, 0], [0.259259, 0.518519], [0.740741, 1.48148], [1, 2]]
    np.testing.assert_allclose(rl.joint_trajectory([0, 0], [1, 2], 2, 4, 3), expected, atol=5e-6)


# Poses the book's library prints for its ScrewTrajectory (cubic) and CartesianTrajectory
# (quintic) examples: X_START to X_END in 5 s, 4 points; rows 1 and 2 of the result.
BOOK_TRAJECTORY_POINTS = [
    (rl.screw_trajectory, 3, 1, [[0.904, -0.25, 0.346, 0.441], [0.346, 0.904, -0.25, 0.529],
                                 [-0.25, 0.346, 0.904, 1.601], [0, 0, 0, 1]]),
    (rl.screw_trajectory, 3, 2, [[0.346, -0.25, 0.904, -0.117], [0.904, 0.346, -0.25, 0.473],
                                 [-0.25, 0.904, 0.346, 3.274], [0, 0, 0, 1]]),
    (rl.cartesian_trajectory, 5, 1, [[0.937, -0.214, 0.277, 0.811], [0.277, 0.937, -0.214, 0],
                                     [-0.214, 0.277, 0.937, 1.651], [0, 0, 0, 1]]),
    (rl.cartesian_trajectory, 5, 2, [[0.277, -0.214, 0.937, 0.289], [0.937, 0.277, -0.214, 0],
                                     [-0.214, 0.937, 0.277, 3.449], [0, 0, 0, 1]]),
]  # fmt: skip


@pytest.mark.parametrize(("trajectory", "method", "row", "expected"), BOOK_TRAJECTORY_POINTS)
def test_book_screw_and_cartesian_trajectory_examples(trajectory, method, row, expected):
    poses = trajectory(X_START, X_END, 5, 4, method)
    np.testing.assert_allclose(poses[row], expected, atol=5e-4)
    np.testing.assert_array_equal(poses[0], X_START)
    np.testing.assert_array_equal(poses[-1], X_END)


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n_points=st.integers(2, 12), method=st.sampled_from([3, 5]))
def test_trajectories_match_modern_robotics(seed, n_points, method):
    rng = np.random.default_rng(seed)
    start = mr.RpToTrans(mr.MatrixExp3(mr.VecToso3(rng.normal(size=3))), rng.normal(size=3))
    end = mr.RpToTrans(mr.MatrixExp3(mr.VecToso3(rng.normal(size=3))), rng.normal(size=3))
    duration = rng.uniform(0.5, 5)
    for ours, theirs in (
        (tg.screw_trajectory, mr.ScrewTrajectory),
        (tg.cartesian_trajectory, mr.CartesianTrajectory),
    ):
        np.testing.assert_allclose(
            ours(start, end, duration, n_points, method),
            theirs(start, end, duration, n_points, method),
            atol=1e-9,
        )
    q_start, q_end = rng.normal(size=(2, 5))
    np.testing.assert_allclose(
        tg.joint_trajectory(q_start, q_end, duration, n_points, method),
        mr.JointTrajectory(q_start, q_end, duration, n_points, method),
        atol=1e-12,
    )


def test_method_names_and_array_times():
    np.testing.assert_array_equal(
        rl.joint_trajectory([0], [1], 1, 5, "quintic"), rl.joint_trajectory([0], [1], 1, 5, 5)
    )
    assert rl.cubic_time_scaling(1.0, np.zeros((2, 3))).shape == (2, 3)
    assert rl.screw_trajectory(X_START, X_END, 5, 7, "cubic").shape == (7, 4, 4)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rl.joint_trajectory([0], [1], 0, 4, 3), ValueError, "duration must be positive"),
        (
            lambda: rl.joint_trajectory([0, 0], [1, 2], 2, 1, 3),
            ValueError,
            r"n_points must be ≥ 2 \(the start and the end\), got 1",
        ),
        (
            lambda: rl.joint_trajectory([0, 0], [1, 2], 2, 4.0, 3),
            TypeError,
            "n_points must be an int ≥ 2, got float 4.0",
        ),
        (
            lambda: rl.joint_trajectory([0, 0], [1, 2], 2, 4, 4),
            ValueError,
            "method must be 3 or 'cubic', 5 or 'quintic', got 4",
        ),
        (
            lambda: rl.joint_trajectory([0, 0], [1, 2, 3], 2, 4, 3),
            ValueError,
            r"joint_position_end must have the shape of joint_position_start \(2,\), got \(3,\)",
        ),
        (
            lambda: rl.screw_trajectory(np.eye(3), X_END, 5, 4, 3),
            ValueError,
            r"transform_start must have shape \(4, 4\)",
        ),
        (
            lambda: rl.cartesian_trajectory(X_START, 2 * np.eye(4), 5, 4, 3),
            ValueError,
            "transform_end must be a homogeneous transform",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_old_keyword_total_time_still_works_with_a_warning():
    with pytest.warns(DeprecationWarning, match=r"joint_trajectory\(total_time=\.\.\.\) is now"):
        old = rl.joint_trajectory([0, 0], [1, 2], total_time=2, n_points=4, method=3)
    np.testing.assert_array_equal(old, rl.joint_trajectory([0, 0], [1, 2], 2, 4, 3))


# --------------------------------------------------------- issue 29: sizes in range


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: rl.joint_trajectory([0], [1], 1.0, 10**10, 3),
            r"n_points must be at most 1,000,000",
        ),
        (lambda: rl.screw_trajectory(X_START, X_END, 1.0, 10**9, 5), r"n_points must be at most"),
        (lambda: rl.joint_trajectory([], [], 1.0, 3, 3), r"must hold at least one joint, got none"),
        (lambda: rl.joint_trajectory([-1e308], [1e308], 1.0, 3, 3), r"start overflows"),
        (lambda: rl.joint_trajectory([0], [1], 1e-300, 3, 3), r"duration must be at least 1e-09"),
    ],
)
def test_sizes_and_spans_out_of_range_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_a_million_points_are_accepted():
    assert rl.joint_trajectory([0.0], [1.0], 1.0, 1_000_000, 3).shape == (1_000_000, 1)
