"""Manipulability measures by name (robolab.screw.kinematics.manipulability).

References robolab did not compute: the planar 2R closed form √det(J Jᵀ) = l1 l2 |sin q2|
and Yoshikawa's result that it is largest at q2 = ±90° (Spong §4.12), and NumPy's SVD of
Jacobians computed by the Modern Robotics library (``mr.JacobianSpace``).
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.singular_arms import planar_2r_jacobian

import robolab as rl
from robolab.screw.kinematics import jacobian
from robolab.screw.kinematics import manipulability as manipulability_module

angles = st.floats(-np.pi, np.pi, allow_nan=False)
lengths = st.floats(0.1, 2.0, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(angles, angles, lengths, lengths)
def test_yoshikawa_of_the_2r_arm_is_l1_l2_sin_q2(q1, q2, l1, l2):
    J = planar_2r_jacobian(q1, q2, l1, l2)
    expected = l1 * l2 * abs(np.sin(q2))
    assert rl.manipulability(J) == pytest.approx(expected, abs=1e-12)
    assert rl.manipulability(J, measure="yoshikawa") == pytest.approx(expected, abs=1e-12)


def test_the_2r_arm_is_most_manipulable_at_q2_plus_or_minus_90_degrees():
    q2 = np.linspace(-np.pi, np.pi, 721)  # half-degree steps
    J = np.stack([planar_2r_jacobian(0.4, angle, 1.0, 0.7) for angle in q2])
    values = rl.manipulability(J)
    best = q2[values >= values.max() - 1e-12]
    np.testing.assert_allclose(np.sort(np.abs(best)), [np.pi / 2, np.pi / 2], atol=1e-12)


def test_the_2r_arm_is_isotropic_where_the_closed_form_says():
    # J Jᵀ ∝ I needs |J e1| = |J e2| and J e1 ⟂ J e2: for l1 = √2 l2 that is q2 = ±135° (Asada).
    J = planar_2r_jacobian(0.3, 3 * np.pi / 4, np.sqrt(2.0), 1.0)
    assert rl.manipulability(J, measure="inverse_condition") == pytest.approx(1.0, abs=1e-12)
    assert rl.manipulability(J, measure="condition") == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("name", ["puma560", "ur5", "stanford"])
def test_measures_are_those_of_numpy_svd_of_modern_robotics_jacobians(name):
    robot = rl.load_robot(name)
    rng = np.random.default_rng(6)
    for q in rng.uniform(-np.pi, np.pi, (5, robot.n_joints)):
        J = mr.JacobianSpace(robot.screw_axes_space, q)
        sigma = np.linalg.svd(J, compute_uv=False)
        for rows, s in ((J, sigma), (J[3:], np.linalg.svd(J[3:], compute_uv=False))):
            assert rl.manipulability(rows) == pytest.approx(np.prod(s), abs=1e-12)
            assert rl.manipulability(rows, "condition") == pytest.approx(s[0] / s[-1], abs=1e-9)
            assert rl.manipulability(rows, "inverse_condition") == pytest.approx(
                s[-1] / s[0], abs=1e-12
            )
            assert rl.manipulability(rows, "smallest_singular") == pytest.approx(s[-1], abs=1e-12)
        assert rl.manipulability(J, rank=3) == pytest.approx(np.prod(sigma[:3]), abs=1e-12)


def test_at_a_singularity():
    J = planar_2r_jacobian(0.2, 0.0)  # stretched out
    assert rl.manipulability(J) == pytest.approx(0.0, abs=1e-12)
    assert rl.manipulability(J, "condition") == np.inf
    assert rl.manipulability(J, "inverse_condition") == pytest.approx(0.0, abs=1e-12)
    assert rl.manipulability(J, "smallest_singular") == pytest.approx(0.0, abs=1e-12)
    zero = np.zeros((3, 3))
    assert rl.manipulability(zero, "condition") == np.inf
    assert rl.manipulability(zero, "inverse_condition") == 0.0


def test_more_rows_than_joints_is_singular_unless_a_rank_is_given():
    J = np.vstack([planar_2r_jacobian(0.1, 1.0), np.zeros((1, 2))])
    assert rl.manipulability(J) == 0.0
    assert rl.manipulability(J, "condition") == np.inf
    assert rl.manipulability(J, rank=2) == pytest.approx(abs(np.sin(1.0)), abs=1e-12)


def test_batches_keep_their_shape():
    q2 = np.linspace(0.1, 3.0, 12).reshape(3, 4)
    J = np.stack([planar_2r_jacobian(0.0, a) for a in q2.ravel()]).reshape(3, 4, 2, 2)
    for measure in manipulability_module.MANIPULABILITY_MEASURES:
        assert rl.manipulability(J, measure).shape == (3, 4)
    np.testing.assert_allclose(rl.manipulability(J), np.abs(np.sin(q2)), atol=1e-12)


def test_the_same_functions_from_every_path():
    assert jacobian.manipulability is manipulability_module.manipulability
    assert rl.manipulability is manipulability_module.manipulability
    assert rl.manipulability_ellipsoid is jacobian.manipulability_ellipsoid


def test_ellipsoids_are_numpy_svd():
    J = mr.JacobianSpace(rl.load_robot("ur5").screw_axes_space, [0.1, -0.5, 1.0, 0.3, 0.2, 0.0])
    U, sigma, _ = np.linalg.svd(J[3:])
    radii, axes = rl.manipulability_ellipsoid(J[3:])
    np.testing.assert_allclose(radii, sigma, atol=1e-12)
    np.testing.assert_allclose(np.abs(axes), np.abs(U), atol=1e-12)
    np.testing.assert_allclose(rl.manipulability_ellipsoid(J[3:], "force")[0], 1 / sigma, atol=1e-9)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rl.manipulability(np.eye(2), "volume"), ValueError, "measure must be one of"),
        (lambda: rl.manipulability(np.eye(2), 3), TypeError, "measure must be one of"),
        (lambda: rl.manipulability([1.0, 2.0]), ValueError, "jacobian"),
        (lambda: rl.manipulability([[1.0, np.nan]]), ValueError, "jacobian"),
        (lambda: rl.manipulability("J"), TypeError, "jacobian"),
        (lambda: rl.manipulability(np.eye(2), rank=3), ValueError, "rank must be 1..2"),
        (lambda: rl.manipulability(np.eye(2), rank=1.5), TypeError, "rank"),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()
