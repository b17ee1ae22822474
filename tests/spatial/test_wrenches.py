"""Wrenches between frames (robolab.spatial.wrenches) against the Modern Robotics library.

References: ``mr.Adjoint`` (MR eq. 3.83; its transpose is the wrench map of eq. 3.98),
the moment of a force about a point worked out by hand (m = r × f), and the invariance
of the power Vᵀ F between frames.
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from robolab import adjoint_transpose, wrench_transform

ANGLES = st.floats(-np.pi, np.pi)
LENGTHS = st.floats(-2.0, 2.0)
COMPONENTS = st.floats(-10.0, 10.0)


def pose(yaw: float, pitch: float, roll: float, x: float, y: float, z: float) -> np.ndarray:
    """A transform built with MR's exponential, independent of robolab."""
    R = (
        mr.MatrixExp3(mr.VecToso3([0, 0, yaw]))
        @ mr.MatrixExp3(mr.VecToso3([0, pitch, 0]))
        @ mr.MatrixExp3(mr.VecToso3([roll, 0, 0]))
    )
    return mr.RpToTrans(R, np.array([x, y, z]))


poses = st.builds(pose, ANGLES, ANGLES, ANGLES, LENGTHS, LENGTHS, LENGTHS)
six_vectors = st.lists(COMPONENTS, min_size=6, max_size=6).map(np.array)


@given(poses)
def test_adjoint_transpose_is_the_transpose_of_mr_adjoint(T):
    np.testing.assert_allclose(adjoint_transpose(T), mr.Adjoint(T).T, atol=1e-12)


@given(poses, six_vectors)
def test_wrench_transform_is_mr_eq_3_98(T_ab, F_a):
    np.testing.assert_allclose(wrench_transform(T_ab, F_a), mr.Adjoint(T_ab).T @ F_a, atol=1e-10)


@given(poses, six_vectors, six_vectors)
def test_power_is_the_same_in_both_frames(T_ab, F_a, V_b):
    V_a = mr.Adjoint(T_ab) @ V_b
    F_b = wrench_transform(T_ab, F_a)
    assert V_a @ F_a == pytest.approx(V_b @ F_b, abs=1e-8)


def test_moment_of_a_force_about_another_point_by_hand():
    # {b} is at r_ab = (0.4, -0.2, 0.3) in {a}, turned 90° about z. A force f = (1, 2, -3) N
    # whose line passes through {a}'s origin has, about {b}'s origin, the moment
    # (0 - r_ab) × f, written in {b}'s axes by Rᵀ.
    r_ab = np.array([0.4, -0.2, 0.3])
    R = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    T_ab = mr.RpToTrans(R, r_ab)
    f = np.array([1.0, 2.0, -3.0])
    moment = np.cross(-r_ab, f)  # (-0.6 + 0.6, -0.3 - 1.2, -0.8 - 0.2) = (0, -1.5, -1.0)
    np.testing.assert_allclose(moment, [0.0, -1.5, -1.0], atol=1e-12)
    expected = np.r_[R.T @ moment, R.T @ f]
    np.testing.assert_allclose(wrench_transform(T_ab, np.r_[0, 0, 0, f]), expected, atol=1e-12)


def test_batches_follow_the_leading_axes():
    rng = np.random.default_rng(3)
    Ts = np.stack([pose(*rng.uniform(-1, 1, 6)) for _ in range(4)])
    Fs = rng.normal(size=(4, 6))
    out = wrench_transform(Ts, Fs)
    assert out.shape == (4, 6)
    for T, F, F_b in zip(Ts, Fs, out, strict=True):
        np.testing.assert_allclose(F_b, mr.Adjoint(T).T @ F, atol=1e-12)
    assert adjoint_transpose(Ts).shape == (4, 6, 6)


@pytest.mark.parametrize(
    ("T", "F", "error", "words"),
    [
        (np.eye(3), np.zeros(6), ValueError, "T_ab must have shape"),
        (np.diag([2.0, 1, 1, 1]), np.zeros(6), ValueError, "T_ab"),
        (np.eye(4), np.zeros(3), ValueError, "F_a must have shape"),
        (np.eye(4), [0, 0, np.inf, 0, 0, 0], ValueError, "F_a contains a non-finite"),
        (np.eye(4), "force", TypeError, "F_a"),
    ],
)
def test_bad_input_names_the_argument(T, F, error, words):
    with pytest.raises(error, match=words):
        wrench_transform(T, F)


def test_adjoint_transpose_refuses_a_non_rotation():
    T = np.eye(4)
    T[0, 1] = 0.5
    with pytest.raises(ValueError, match="T"):
        adjoint_transpose(T)
