"""Twists from Ṫ and the roll–pitch–yaw rate matrix (robolab.spatial.pose_rates).

References: the Modern Robotics library (``mr.VecTose3``, ``mr.Adjoint``: a pose moving
with twist V has Ṫ = [V_s] T = T [V_b], MR §3.3.2), SciPy's rotations
(``Rotation.from_euler("ZYX", [yaw, pitch, roll])`` is Rz(yaw) Ry(pitch) Rx(roll)) and
the closed form of E with det E = cos(pitch) (Siciliano et al. §3.6).
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from robolab import rpy_rate_matrix, twist_from_pose_rate

COMPONENTS = st.floats(-3.0, 3.0)
six_vectors = st.lists(COMPONENTS, min_size=6, max_size=6).map(np.array)


def scipy_rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    return Rotation.from_euler("ZYX", [yaw, pitch, roll]).as_matrix()


@given(six_vectors, six_vectors)
def test_space_and_body_twists_of_an_exact_derivative(exponential, V_s):
    T = mr.MatrixExp6(mr.VecTose3(exponential))
    T_dot = mr.VecTose3(V_s) @ T  # Ṫ = [V_s] T
    np.testing.assert_allclose(twist_from_pose_rate(T, T_dot, "space"), V_s, atol=1e-9)
    V_b = mr.Adjoint(mr.TransInv(T)) @ V_s
    np.testing.assert_allclose(twist_from_pose_rate(T, T_dot, "body"), V_b, atol=1e-9)


def test_a_central_difference_gives_the_twist_of_mr_fkin():
    # MR's JacobianSpace example robot (MR §5.1, the book's code) moving at constant q̇.
    S = np.array(
        [[0, 0, 1, 0, 0.2, 0.2], [1, 0, 0, 2, 0, 3], [0, 1, 0, 0, 2, 1], [1, 0, 0, 0.2, 0.3, 0.4]]
    ).T
    M = mr.RpToTrans(np.eye(3), [1.0, 0.5, 0.2])
    q = np.array([0.2, 1.1, 0.1, 1.2])
    qdot = np.array([0.3, -0.4, 0.8, 0.1])
    h = 1e-6
    T = mr.FKinSpace(M, S, q)
    T_dot = (mr.FKinSpace(M, S, q + h * qdot) - mr.FKinSpace(M, S, q - h * qdot)) / (2 * h)
    expected = mr.JacobianSpace(S, q) @ qdot
    np.testing.assert_allclose(twist_from_pose_rate(T, T_dot), expected, atol=1e-7)


def test_batches():
    rng = np.random.default_rng(5)
    Ts = np.stack([mr.MatrixExp6(mr.VecTose3(v)) for v in rng.normal(size=(3, 6))])
    Vs = rng.normal(size=(3, 6))
    T_dots = np.stack([mr.VecTose3(V) @ T for V, T in zip(Vs, Ts, strict=True)])
    np.testing.assert_allclose(twist_from_pose_rate(Ts, T_dots), Vs, atol=1e-9)


def test_not_the_derivative_of_a_pose_is_refused():
    with pytest.raises(ValueError, match="skew-symmetric"):
        twist_from_pose_rate(np.eye(4), np.diag([1.0, 0.0, 0.0, 0.0]))
    last_row = np.zeros((4, 4))
    last_row[3, 3] = 1.0
    with pytest.raises(ValueError, match="last row must be zero"):
        twist_from_pose_rate(np.eye(4), last_row)


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ((np.eye(4), np.zeros((3, 3))), ValueError, "T_dot must have shape"),
        ((np.eye(3), np.zeros((4, 4))), ValueError, "T must have shape"),
        ((np.eye(4), np.full((4, 4), np.nan)), ValueError, "T_dot contains a non-finite"),
        ((np.eye(4), np.zeros((4, 4)), "world"), ValueError, "frame must be one of"),
    ],
)
def test_bad_input(args, error, words):
    with pytest.raises(error, match=words):
        twist_from_pose_rate(*args)


@pytest.mark.parametrize("seed", range(5))
def test_rpy_rates_give_the_angular_velocity_of_scipys_rotation(seed):
    rng = np.random.default_rng(seed)
    angles = rng.uniform([-np.pi, -1.4, -np.pi], [np.pi, 1.4, np.pi])
    rates = rng.normal(size=3)
    h = 1e-6
    R = scipy_rotation(*angles)
    R_dot = (scipy_rotation(*(angles + h * rates)) - scipy_rotation(*(angles - h * rates))) / (
        2 * h
    )
    omega_s = mr.so3ToVec(R_dot @ R.T)
    np.testing.assert_allclose(rpy_rate_matrix(angles) @ rates, omega_s, atol=1e-8)
    assert np.linalg.det(rpy_rate_matrix(angles)) == pytest.approx(np.cos(angles[1]), abs=1e-12)


def test_rpy_rate_matrix_is_singular_at_gimbal_lock():
    for pitch in (np.pi / 2, -np.pi / 2):
        E = rpy_rate_matrix([0.4, pitch, -1.1])
        assert abs(np.linalg.det(E)) < 1e-12
        assert np.linalg.matrix_rank(E, tol=1e-9) == 2


def test_rpy_rate_matrix_bad_input():
    with pytest.raises(ValueError, match="rpy must have shape"):
        rpy_rate_matrix([0.1, 0.2])
    with pytest.raises(TypeError, match="rpy"):
        rpy_rate_matrix(["roll", 0, 0])
