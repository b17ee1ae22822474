"""The manipulability map (robolab.views.chapters.manipulability_map) against closed forms.

References: the planar 2R arm's √det(J Jᵀ) = l1 l2 |sin q2| (Spong §4.12); for Corke's Puma
560, whose wrist centre is the flange origin, the linear rows give |det J11| =
|a2 (a2 c2 + a3 c23 - d4 s23)(a3 s3 + d4 c3)| (reference/singular_arms.py) and all six
rows |det J| (a plain-NumPy geometric Jacobian); the Modern Robotics library's Jacobian.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from reference.singular_arms import PUMA_ROWS, geometric_jacobian, puma_factors

import robolab as rl
from robolab.views.chapters.manipulability_map import point_jacobian_function
from robolab.views.drawing.drawable import RobotAdapter


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_the_2r_map_is_sin_q2():
    view = rl.manipulability_map(rl.load_robot("planar2r"), [0.2, 1.0], joints=(1, 2), resolution=9)
    _, q2 = np.meshgrid(*view.grid)
    np.testing.assert_allclose(view.values, np.abs(np.sin(q2)), atol=1e-12)
    assert view.value() == pytest.approx(abs(np.sin(1.0)), abs=1e-12)


@pytest.mark.parametrize("form", ["dh", "screw"])
def test_the_puma_map_is_det_j11(form):
    q = np.radians([20, 30, -60, 10, 45, 0])
    view = rl.manipulability_map(rl.load_robot("puma560", form=form), q, resolution=11)
    q2, q3 = np.meshgrid(*view.grid)
    f = puma_factors([0, q2, q3, 0, 0, 0])
    np.testing.assert_allclose(
        view.values, np.abs(f["constant"] * f["shoulder"] * f["elbow"]), atol=1e-12
    )


def test_all_six_rows_give_det_j():
    q = np.radians([20, 30, -60, 10, 45, 0])
    view = rl.manipulability_map(rl.load_robot("puma560"), q, rows="full", resolution=6)
    for i, q3 in enumerate(view.grid[1]):
        for j, q2 in enumerate(view.grid[0]):
            qq = q.copy()
            qq[1], qq[2] = q2, q3
            det = abs(np.linalg.det(geometric_jacobian(PUMA_ROWS, qq)))
            assert view.values[i, j] == pytest.approx(det, abs=1e-12)


def test_screw_jacobians_are_converted_to_the_end_effector_origin():
    robot = rl.load_robot("ur5")
    q = np.array([0.1, -0.6, 1.1, 0.3, -0.4, 0.8])
    J_s = mr.JacobianSpace(robot.screw_axes_space, q)
    p = mr.FKinSpace(robot.home_ee_pose, robot.screw_axes_space, q)[:3, 3]
    expected = np.vstack([J_s[3:] + np.cross(J_s[:3].T, p).T, J_s[:3]])
    np.testing.assert_allclose(
        point_jacobian_function(RobotAdapter.of(robot))(q), expected, atol=1e-12
    )


def test_other_measures_and_the_condition_numbers_infinity():
    view = rl.manipulability_map(
        rl.load_robot("planar2r"),
        joints=(1, 2),
        measure="condition",
        resolution=5,
        ranges=[(-1, 1), (0, np.pi)],
    )
    assert np.isinf(view.values[0]).all()  # q2 = 0: stretched out
    assert np.isfinite(view.image.get_array()).all()  # drawn as the largest finite value


def test_set_q_moves_the_marker_and_recomputes_when_a_held_joint_moves():
    q = np.radians([20, 30, -60, 10, 45, 0])
    view = rl.manipulability_map(rl.load_robot("puma560", form="dh"), q, rows="full", resolution=7)
    before = view.values.copy()
    q2 = q.copy()
    q2[2] = np.radians(-80)
    view.set_q(q2)
    np.testing.assert_allclose(view.marker.get_xdata(), [30.0], atol=1e-9)
    np.testing.assert_allclose(view.marker.get_ydata(), [-80.0], atol=1e-9)
    assert view.values is not None and np.array_equal(view.values, before)
    q2[4] = np.radians(5)  # a held joint: det J changes with s5
    view.set_q(q2, draw=False)
    np.testing.assert_allclose(
        view.values, before * abs(np.sin(np.radians(5)) / np.sin(np.radians(45))), atol=1e-12
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"joints": (2, 2)}, ValueError, "two different joint numbers 1..6"),
        ({"joints": (0, 1)}, ValueError, "two different joint numbers"),
        ({"joints": 2}, TypeError, "joints must be two joint numbers"),
        ({"resolution": 1}, ValueError, "resolution must be 2..400"),
        ({"resolution": 2.5}, TypeError, "resolution"),
        ({"ranges": [(1, 0), (0, 1)]}, ValueError, "low < high"),
        ({"ranges": [(0, 1)]}, ValueError, "ranges"),
        ({"measure": "volume"}, ValueError, "measure must be one of"),
        ({"rows": "angular"}, ValueError, "rows must be one of"),
        ({"q": [0.0, 1.0]}, ValueError, "q"),
    ],
)
def test_bad_input_is_refused_with_a_message(kwargs, error, message):
    with pytest.raises(error, match=message):
        rl.manipulability_map(rl.load_robot("puma560"), **kwargs)


def test_not_a_robot():
    with pytest.raises(TypeError, match=r"robot must be a robolab\.DHRobot"):
        rl.manipulability_map(3.5)  # a bundled name or a file path would be loaded
