"""Unit quaternions and ZYZ Euler angles (robolab.spatial.orientations) against references
robolab did not compute: SciPy's ``Rotation`` (quaternions scalar last, intrinsic "ZYZ"
Euler angles), the Modern Robotics library's ``MatrixExp3`` for half turns, and the
closed forms of Spong, Hutchinson & Vidyasagar §2.5.1 and Siciliano et al. §2.6.
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from robolab.spatial.orientations import (
    quaternion_multiply,
    quaternion_to_rotation,
    rotation_to_quaternion,
    rotation_to_zyz,
    zyz_to_rotation,
)

ATOL = 1e-10
angles = st.floats(-np.pi, np.pi, allow_nan=False)


def scipy_quaternion(R: np.ndarray) -> np.ndarray:
    """SciPy's quaternion of R, reordered to (w, x, y, z) and signed so that w ≥ 0."""
    x, y, z, w = Rotation.from_matrix(R).as_quat()
    q = np.array([w, x, y, z])
    return -q if w < 0 else q


def random_rotations(count: int, seed: int) -> np.ndarray:
    return Rotation.random(count, random_state=seed).as_matrix()


@pytest.mark.parametrize("R", random_rotations(50, seed=7))
def test_quaternion_of_a_rotation_matches_scipy(R):
    np.testing.assert_allclose(rotation_to_quaternion(R), scipy_quaternion(R), atol=ATOL)


@pytest.mark.parametrize("R", random_rotations(50, seed=8))
def test_quaternion_to_rotation_matches_scipy(R):
    x, y, z, w = Rotation.from_matrix(R).as_quat()
    np.testing.assert_allclose(quaternion_to_rotation([w, x, y, z]), R, atol=ATOL)
    np.testing.assert_allclose(quaternion_to_rotation([-w, -x, -y, -z]), R, atol=ATOL)


@settings(max_examples=200, deadline=None)
@given(
    axis=st.tuples(*[st.floats(-1, 1, allow_nan=False)] * 3).filter(
        lambda v: np.linalg.norm(v) > 1e-3
    ),
    angle=st.floats(0.0, np.pi, allow_nan=False),
)
def test_quaternion_is_cos_and_axis_times_sin_of_the_half_angle(axis, angle):
    # Siciliano (2.33): eta = cos(theta/2), epsilon = sin(theta/2) r, for R = Rot(r, theta)
    omega = np.array(axis) / np.linalg.norm(axis)
    R = Rotation.from_rotvec(omega * angle).as_matrix()  # MR's MatrixExp3 rounds θ < 1e-6 to 0
    expected = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * omega])
    q = rotation_to_quaternion(R)
    # at angle = pi both signs have w = 0: compare up to the sign there
    assert min(np.abs(q - expected).max(), np.abs(q + expected).max()) < 1e-9
    assert q[0] >= -1e-12


def test_half_turns_keep_their_accuracy_and_sign():
    for axis in ([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, -1, 1], [-1, 2, 2]):
        omega = np.array(axis, float) / np.linalg.norm(axis)
        R = mr.MatrixExp3(mr.VecToso3(omega * np.pi))
        q = rotation_to_quaternion(R)
        sign = np.sign(omega[np.flatnonzero(np.abs(omega) > 0)[0]])
        np.testing.assert_allclose(q, np.concatenate([[0.0], sign * omega]), atol=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_hamilton_product_composes_like_the_matrices(seed):
    A, B = random_rotations(2, seed)
    p, q = rotation_to_quaternion(A), rotation_to_quaternion(B)
    np.testing.assert_allclose(quaternion_to_rotation(quaternion_multiply(p, q)), A @ B, atol=ATOL)
    # SciPy composes the same way: (A * B).as_quat() is the quaternion of A @ B
    composed = Rotation.from_matrix(A) * Rotation.from_matrix(B)
    np.testing.assert_allclose(
        rotation_to_quaternion(quaternion_to_rotation(quaternion_multiply(p, q))),
        scipy_quaternion(composed.as_matrix()),
        atol=ATOL,
    )


@settings(max_examples=200, deadline=None)
@given(phi=angles, theta=st.floats(0.0, np.pi, allow_nan=False), psi=angles)
def test_zyz_matrix_is_scipys_intrinsic_zyz(phi, theta, psi):
    expected = Rotation.from_euler("ZYZ", [phi, theta, psi]).as_matrix()
    np.testing.assert_allclose(zyz_to_rotation(phi, theta, psi), expected, atol=ATOL)


def test_zyz_matrix_is_spongs_closed_form():
    # SHV §2.5.1: the ZYZ matrix written out by hand
    phi, theta, psi = 0.3, 1.1, -2.0
    c, s = np.cos, np.sin
    expected = np.array(
        [
            [
                c(phi) * c(theta) * c(psi) - s(phi) * s(psi),
                -c(phi) * c(theta) * s(psi) - s(phi) * c(psi),
                c(phi) * s(theta),
            ],
            [
                s(phi) * c(theta) * c(psi) + c(phi) * s(psi),
                -s(phi) * c(theta) * s(psi) + c(phi) * c(psi),
                s(phi) * s(theta),
            ],
            [-s(theta) * c(psi), s(theta) * s(psi), c(theta)],
        ]
    )
    np.testing.assert_allclose(zyz_to_rotation(phi, theta, psi), expected, atol=1e-14)


@pytest.mark.parametrize("R", random_rotations(50, seed=9))
def test_zyz_angles_match_scipy_away_from_the_singularity(R):
    phi, theta, psi = Rotation.from_matrix(R).as_euler("ZYZ")
    np.testing.assert_allclose(rotation_to_zyz(R), [phi, theta, psi], atol=1e-9)


@pytest.mark.parametrize("phi, psi", [(0.4, 0.3), (-1.0, 2.5), (3.0, 0.5)])
def test_zyz_singularities_keep_only_the_sum_or_the_difference(phi, psi):
    wrap = np.angle(np.exp(1j * np.array([phi + psi, psi - phi])))
    at_zero = rotation_to_zyz(Rotation.from_euler("ZYZ", [phi, 0.0, psi]).as_matrix())
    np.testing.assert_allclose(at_zero, [0.0, 0.0, wrap[0]], atol=1e-9)
    at_pi = rotation_to_zyz(Rotation.from_euler("ZYZ", [phi, np.pi, psi]).as_matrix())
    np.testing.assert_allclose(at_pi, [0.0, np.pi, wrap[1]], atol=1e-9)


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match=r"unit quaternion .* norm 2"):
        quaternion_to_rotation([2.0, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"q must have shape \(4,\)"):
        quaternion_to_rotation([1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="non-finite"):
        quaternion_multiply([np.nan, 0, 0, 0], [1.0, 0, 0, 0])
    with pytest.raises(ValueError, match="rotation matrix"):
        rotation_to_quaternion(np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(ValueError, match="rotation matrix"):
        rotation_to_zyz(2 * np.eye(3))
    with pytest.raises(TypeError, match="theta"):
        zyz_to_rotation(0.0, "90", 0.0)
