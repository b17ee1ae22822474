"""Projections onto SO(3) and SE(3), the book's distances from them and its membership tests
(Modern Robotics ch. 3: ProjectToSO3, DistanceToSO3, TestIfSO3 and their SE(3) twins)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import robolab as rl


def rotation_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def test_projections_and_distances_printed():
    mat = [[0.675, 0.150, 0.720], [0.370, 0.771, -0.511], [-0.630, 0.619, 0.472]]
    expected = [
        [0.67901136, 0.14894516, 0.71885945],
        [0.37320708, 0.77319584, -0.51272279],
        [-0.63218672, 0.61642804, 0.46942137],
    ]
    np.testing.assert_allclose(rl.project_to_so3(mat), expected, atol=5e-9)
    bad = [[1.0, 0.0, 0.0], [0.0, 0.1, -0.95], [0.0, 1.0, 0.1]]
    assert rl.distance_to_so3(bad) == pytest.approx(0.08835298523536149, abs=1e-15)
    badT = [
        [1.0, 0.0, 0.0, 1.2],
        [0.0, 0.1, -0.95, 1.5],
        [0.0, 1.0, 0.1, -0.9],
        [0.0, 0.0, 0.1, 0.98],
    ]
    assert rl.distance_to_se3(badT) == pytest.approx(0.134930537685, abs=1e-12)
    assert not rl.is_so3(bad) and not rl.is_se3(badT)


def test_projection_fixes_a_reflection():
    R = rl.project_to_so3(np.diag([1.0, 1.0, -1.0]) + 1e-3)
    assert rl.is_so3(R) and np.linalg.det(R) == pytest.approx(1.0)


def test_a_scaled_rotation_projects_onto_the_rotation():
    stack = np.stack([2.0 * rotation_z(0.3), 0.5 * rotation_z(-1.2)])
    projected = rl.project_to_so3(stack)
    np.testing.assert_allclose(projected[0], rotation_z(0.3), atol=1e-15)
    np.testing.assert_allclose(projected[1], rotation_z(-1.2), atol=1e-15)


def test_the_transform_projection_keeps_the_translation_and_fixes_the_bottom_row():
    mat = np.zeros((4, 4))
    mat[:3, :3] = 3.0 * rotation_z(0.7)
    mat[:3, 3] = [1.0, -2.0, 0.5]
    mat[3] = [0.1, 0.0, 0.2, 0.9]
    expected = np.eye(4)
    expected[:3, :3] = rotation_z(0.7)
    expected[:3, 3] = [1.0, -2.0, 0.5]
    np.testing.assert_allclose(rl.project_to_se3(mat), expected, atol=1e-15)


def test_the_distances_are_frobenius_norms_in_closed_form():
    # 2·1: ‖(2·1)ᵀ(2·1) - 1‖ = ‖3·1‖ = 3√3
    assert rl.distance_to_so3(2.0 * np.eye(3)) == pytest.approx(3 * math.sqrt(3), abs=1e-15)
    assert rl.distance_to_so3(np.diag([1.0, 1.0, -1.0])) == math.inf  # det < 0
    assert rl.distance_to_so3(rotation_z(2.0)) == pytest.approx(0.0, abs=1e-15)
    lifted = np.eye(4)
    lifted[3, 3] = 2.0  # only the bottom row is off: distance |2 - 1| = 1
    assert rl.distance_to_se3(lifted) == pytest.approx(1.0, abs=1e-15)
    assert rl.distance_to_se3(np.diag([1.0, -1.0, 1.0, 1.0])) == math.inf


def test_membership_is_a_distance_below_one_thousandth():
    # (1 + ε)·1 lies (2ε + ε²)·√3 from SO(3)
    assert rl.is_so3(1.0001 * np.eye(3))  # 3.5e-4
    assert not rl.is_so3(1.001 * np.eye(3))  # 3.5e-3
    assert rl.is_se3(np.eye(4)) and not rl.is_se3(2.0 * np.eye(4))


def test_wrong_shapes_are_named():
    with pytest.raises(
        ValueError, match=r"mat must have shape \(\.\.\., 3, 3\), got shape \(4, 4\)"
    ):
        rl.project_to_so3(np.eye(4))
    with pytest.raises(ValueError, match=r"mat must have shape \(4, 4\), got shape \(3, 3\)"):
        rl.distance_to_se3(np.eye(3))
    with pytest.raises(TypeError, match=r"mat must be numeric, got the text 'I'"):
        rl.is_so3("I")
