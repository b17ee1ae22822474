"""What a view asks of a robot: both adapters implement the protocol, and one snapshot per q
holds the frames, the Jacobian, its SVD and the manipulability ellipsoid."""

from __future__ import annotations

import numpy as np
import pytest

import robolab
from robolab.views.drawing.drawable import DrawableRobot, RobotAdapter


@pytest.mark.parametrize("form", ["dh", "screw"])
@pytest.mark.parametrize(
    "q",
    [
        [0.2, 0.7, -1.1, 0.4, 0.9, -0.3],
        [0.2, 0.7, -1.1, 0.4, 0.0, -0.3],  # wrist singularity
        [0.0, 0.0, -np.pi / 2, 0.0, 0.5, 0.0],
    ],
)
def test_the_snapshot_ellipsoid_is_the_manipulability_ellipsoid(form, q):

    adapter = RobotAdapter.of(robolab.load_robot("puma560", form=form))
    shot = adapter.snapshot(np.array(q))
    linear = adapter.linear_jacobian(np.array(q), shot.end_effector_pose)
    np.testing.assert_allclose(shot.linear_jacobian, linear, atol=1e-12)
    for kind in ("velocity", "force"):
        radii, axes = shot.ellipsoid(kind)
        expected_radii, expected_axes = robolab.manipulability_ellipsoid(linear, kind)
        np.testing.assert_allclose(radii, expected_radii, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-12)
        for i, radius in enumerate(radii):
            if 0 < radius < np.inf:  # a clear direction: the same axis, up to its sign
                assert abs(axes[:, i] @ expected_axes[:, i]) == pytest.approx(1.0, abs=1e-9)
    sigma = np.linalg.svd(shot.jacobian, compute_uv=False)
    np.testing.assert_allclose(shot.decomposition.jacobian_sigma, sigma, atol=1e-12)


def test_both_adapters_implement_the_drawing_protocol():

    for robot in (robolab.load_robot("ur5"), robolab.load_robot("scara", form="dh")):
        adapter = RobotAdapter.of(robot)
        assert isinstance(adapter, DrawableRobot)
        q = adapter.home()
        shot = adapter.snapshot(q)
        np.testing.assert_array_equal(adapter.frames(q), shot.frames)
        np.testing.assert_array_equal(adapter.end_effector_pose(q), shot.end_effector_pose)
        np.testing.assert_allclose(adapter.jacobian(q), shot.jacobian, atol=1e-12)
        assert len(adapter.frame_names) == len(shot.frames)
        assert adapter.joint_limits.shape == (adapter.dof, 2)


def test_the_adapter_of_a_name_or_path_is_that_of_the_robot_it_loads():
    from robolab.views.drawing.drawable import RobotAdapter, ScrewAdapter

    assert isinstance(RobotAdapter.of("planar2r"), ScrewAdapter)
    with pytest.raises(TypeError, match=r"a bundled robot's name or a robot file's path"):
        RobotAdapter.of(3)
