"""Point-to-point trajectories (Modern Robotics, chapter 9): a path and a time scaling.

A point-to-point motion is a path followed with a time scaling s(t) that
goes from 0 at t = 0 to 1 at t = T, the ``duration`` (MR §9.2; the
scalings are in :mod:`robolab.screw.trajectories.time_scaling`).

The paths: a straight line in joint space (:func:`joint_trajectory`), a
constant screw motion of the end-effector (:func:`screw_trajectory`) and a
straight line of the end-effector origin with the rotation along the
shortest path (:func:`cartesian_trajectory`). ``method`` chooses the time
scaling: 3 or ``"cubic"``, 5 or ``"quintic"``, as in the book's library.
Trajectories are arrays with time along the first axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...spatial.rigid_body_motions import (
    log3_vector_unchecked,
    log6_vector_unchecked,
    matrix_exp3_unchecked,
    matrix_exp6_unchecked,
    rotation_position_to_transform_unchecked,
    transform_inv_unchecked,
    vec_to_se3_unchecked,
    vec_to_so3_unchecked,
)
from ...support.arguments import as_float_array, as_transform
from ...support.renames import renamed_keywords
from .time_scaling import checked_duration, cubic_time_scaling, quintic_time_scaling

__all__ = [
    "cartesian_trajectory",
    "joint_trajectory",
    "screw_trajectory",
]

_METHODS = {3: cubic_time_scaling, 5: quintic_time_scaling}
_METHOD_NAMES = {"cubic": 3, "quintic": 5}
#: The most points of one trajectory (a million: a millisecond apart for 16 minutes).
MAX_POINTS = 1_000_000


def _scaling_at_points(duration: Any, n_points: Any, method: Any) -> np.ndarray:
    """s at the N times i T / (N - 1)."""
    T = checked_duration(duration)
    if isinstance(n_points, bool) or not isinstance(n_points, int | np.integer):
        raise TypeError(f"n_points must be an int ≥ 2, got {type(n_points).__name__} {n_points!r}")
    if n_points < 2:
        raise ValueError(f"n_points must be ≥ 2 (the start and the end), got {n_points}")
    if n_points > MAX_POINTS:
        raise ValueError(
            f"n_points must be at most {MAX_POINTS:,} (the points are stored), got {n_points:,}"
        )
    key = _METHOD_NAMES.get(method, method) if isinstance(method, str) else method
    if isinstance(key, bool) or key not in _METHODS:
        raise ValueError(f"method must be 3 or 'cubic', 5 or 'quintic', got {method!r}")
    times = np.arange(int(n_points)) * (T / (n_points - 1))
    return np.asarray(_METHODS[key](T, np.minimum(times, T)))


@renamed_keywords(total_time="duration")
def joint_trajectory(
    joint_position_start: ArrayLike,
    joint_position_end: ArrayLike,
    duration: float,
    n_points: int,
    method: int | str,
) -> np.ndarray:
    """A straight line in joint space with a cubic or quintic time scaling (``JointTrajectory``).

    θ(t) = θ_start + s(t) (θ_end - θ_start) at N equally spaced times.

    Parameters
    ----------
    joint_position_start, joint_position_end : array_like, shape (n,)
    duration : float
        T in seconds.
    n_points : int
        N ≥ 2; the points are T/(N - 1) apart in time.
    method : {3, "cubic", 5, "quintic"}

    Returns
    -------
    joint_position_traj : ndarray, shape (N, n)
        Row 0 is the start, row N-1 the end.

    Examples
    --------
    >>> joint_trajectory([0, 0], [1, 2], 2, 4, 3)
    array([[0.        , 0.        ],
           [0.25925926, 0.51851852],
           [0.74074074, 1.48148148],
           [1.        , 2.        ]])
    """
    start = as_float_array(joint_position_start, "joint_position_start", (None,))
    end = as_float_array(joint_position_end, "joint_position_end", (None,))
    if start.size == 0:
        raise ValueError("joint_position_start must hold at least one joint, got none")
    if end.shape != start.shape:
        raise ValueError(
            f"joint_position_end must have the shape of joint_position_start {start.shape}, "
            f"got {end.shape}"
        )
    s = _scaling_at_points(duration, n_points, method)[:, None]
    with np.errstate(over="ignore", invalid="ignore"):
        change = end - start
    if not np.isfinite(change).all():
        raise ValueError(
            "joint_position_end - joint_position_start overflows (more than 1.8e308); "
            "expected joint positions whose difference is a float"
        )
    return start + s * change


def _pose_endpoints(
    transform_start: Any, transform_end: Any, duration: Any, n_points: Any, method: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The checked start and end poses and s at the N points, shape (N,)."""
    X_start = as_transform(transform_start, "transform_start")
    X_end = as_transform(transform_end, "transform_end")
    return X_start, X_end, _scaling_at_points(duration, n_points, method)


@renamed_keywords(total_time="duration")
def screw_trajectory(
    transform_start: ArrayLike,
    transform_end: ArrayLike,
    duration: float,
    n_points: int,
    method: int | str,
) -> np.ndarray:
    """End-effector poses along a constant screw motion (the book's ``ScrewTrajectory``).

    X(t) = X_start exp(log(X_start⁻¹ X_end) s(t)): the frame turns about and
    slides along one fixed screw axis, so its origin follows a helix in
    general.

    Parameters
    ----------
    transform_start, transform_end : array_like, shape (4, 4)
    duration : float
    n_points : int
    method : {3, "cubic", 5, "quintic"}

    Returns
    -------
    poses : ndarray, shape (N, 4, 4)
        Iterating over it gives the N poses (the book's list).

    Examples
    --------
    >>> X_start = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1]]
    >>> X_end = [[0, 0, 1, 0.1], [1, 0, 0, 0], [0, 1, 0, 4.1], [0, 0, 0, 1]]
    >>> screw_trajectory(X_start, X_end, 5, 4, 3)[1].round(3)
    array([[ 0.904, -0.25 ,  0.346,  0.441],
           [ 0.346,  0.904, -0.25 ,  0.529],
           [-0.25 ,  0.346,  0.904,  1.601],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    X_start, X_end, s = _pose_endpoints(transform_start, transform_end, duration, n_points, method)
    twist = log6_vector_unchecked(transform_inv_unchecked(X_start) @ X_end)
    poses = X_start @ matrix_exp6_unchecked(vec_to_se3_unchecked(s[:, None] * twist))
    poses[0], poses[-1] = X_start, X_end
    return poses


@renamed_keywords(total_time="duration")
def cartesian_trajectory(
    transform_start: ArrayLike,
    transform_end: ArrayLike,
    duration: float,
    n_points: int,
    method: int | str,
) -> np.ndarray:
    """Origin on a straight line, rotation on the shortest path (book: ``CartesianTrajectory``).

    p(t) = p_start + s(t)(p_end - p_start) and
    R(t) = R_start exp(log(R_startᵀ R_end) s(t)): translation and rotation
    are decoupled (compare :func:`screw_trajectory`).

    Parameters and returns as in :func:`screw_trajectory`.

    Examples
    --------
    >>> X_start = [[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1]]
    >>> X_end = [[0, 0, 1, 0.1], [1, 0, 0, 0], [0, 1, 0, 4.1], [0, 0, 0, 1]]
    >>> cartesian_trajectory(X_start, X_end, 5, 4, 5)[1].round(3) + 0.0
    array([[ 0.937, -0.214,  0.277,  0.811],
           [ 0.277,  0.937, -0.214,  0.   ],
           [-0.214,  0.277,  0.937,  1.651],
           [ 0.   ,  0.   ,  0.   ,  1.   ]])
    """
    X_start, X_end, s = _pose_endpoints(transform_start, transform_end, duration, n_points, method)
    R_start, p_start = X_start[:3, :3], X_start[:3, 3]
    R_end, p_end = X_end[:3, :3], X_end[:3, 3]
    rotation = log3_vector_unchecked(R_start.T @ R_end)
    R = R_start @ matrix_exp3_unchecked(vec_to_so3_unchecked(s[:, None] * rotation))
    poses = rotation_position_to_transform_unchecked(R, p_start + s[:, None] * (p_end - p_start))
    poses[0], poses[-1] = X_start, X_end
    return poses
