"""The analytical (roll–pitch–yaw) Jacobian against references robolab did not compute.

* finite differences of (p, roll, pitch, yaw) along a joint motion, with the pose from
  the Modern Robotics library (``mr.FKinSpace``) and the angles from SciPy
  (``Rotation.as_euler("ZYX")`` gives yaw, pitch, roll of Rz(yaw) Ry(pitch) Rx(roll));
* the position rows against Pinocchio's frame Jacobian in ``LOCAL_WORLD_ALIGNED``
  (rows [v; ω], v the velocity of the frame origin in world axes);
* the closed form of the planar 2R arm (Spong et al., ch. 4: ẋ, ẏ and the yaw rate
  q̇1 + q̇2) and Siciliano et al.'s J_A = diag(I, E⁻¹) J (§3.6) with E written here.
"""

from __future__ import annotations

import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw
from scipy.spatial.transform import Rotation

import robolab
from robolab import jacobian_analytic

ARMS = ("puma560", "ur5", "panda", "scara", "stanford")


def pose_and_angles(robot: robolab.ScrewRobot, q: np.ndarray) -> np.ndarray:
    T = mr.FKinSpace(robot.home_ee_pose, robot.screw_axes_space, q)
    yaw, pitch, roll = Rotation.from_matrix(T[:3, :3]).as_euler("ZYX")
    return np.r_[T[:3, 3], roll, pitch, yaw]


def finite_difference(robot: robolab.ScrewRobot, q: np.ndarray, h: float = 1e-6) -> np.ndarray:
    columns = []
    for i in range(len(q)):
        step = np.zeros(len(q))
        step[i] = h
        difference = pose_and_angles(robot, q + step) - pose_and_angles(robot, q - step)
        difference[3:] = (difference[3:] + np.pi) % (2 * np.pi) - np.pi  # angles wrap at ±π
        columns.append(difference / (2 * h))
    return np.column_stack(columns)


def configurations(robot: robolab.ScrewRobot, count: int, seed: int) -> list[np.ndarray]:
    """Seeded configurations within the limits, away from pitch = ±90° (|pitch| < 80°)."""
    rng = np.random.default_rng(seed)
    limits = np.array(robot.joint_limits, dtype=float)
    low = np.maximum(limits[:, 0], -np.pi)
    high = np.minimum(limits[:, 1], np.pi)
    found = []
    while len(found) < count:
        q = rng.uniform(low, high)
        if abs(pose_and_angles(robot, q)[4]) < np.radians(80):
            found.append(q)
    return found


@pytest.mark.parametrize("name", ARMS)
def test_analytic_jacobian_is_the_derivative_of_position_and_angles(name):
    robot = robolab.load_robot(name)
    for q in configurations(robot, 4, seed=7):
        np.testing.assert_allclose(
            jacobian_analytic(robot, q), finite_difference(robot, q), atol=1e-6
        )


@pytest.mark.parametrize("name", ("puma560", "ur5", "panda"))
def test_position_rows_are_pinocchios_local_world_aligned_jacobian(name):
    robot = robolab.load_robot(name)
    model, frame = pinocchio_from_screw(robot)
    data = model.createData()
    for q in configurations(robot, 3, seed=11):
        J = pin.computeFrameJacobian(model, data, q, frame, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(jacobian_analytic(robot, q)[:3], J[:3], atol=1e-10)
        # Siciliano §3.6: the angle rows are E⁻¹ times the ω rows, E written out here
        yaw, pitch, _roll = Rotation.from_matrix(data.oMf[frame].rotation).as_euler("ZYX")
        cy, sy, cp, sp = np.cos(yaw), np.sin(yaw), np.cos(pitch), np.sin(pitch)
        E = np.array([[cy * cp, -sy, 0], [sy * cp, cy, 0], [-sp, 0, 1]])
        np.testing.assert_allclose(
            jacobian_analytic(robot, q)[3:], np.linalg.solve(E, J[3:]), atol=1e-9
        )


def test_planar_2r_closed_form():
    arm = robolab.load_robot("planar2r")  # l1 = l2 = 1 m
    q1, q2 = 0.4, -1.1
    s1, c1, s12, c12 = np.sin(q1), np.cos(q1), np.sin(q1 + q2), np.cos(q1 + q2)
    expected = np.array([[-s1 - s12, -s12], [c1 + c12, c12], [0, 0], [0, 0], [0, 0], [1.0, 1.0]])
    np.testing.assert_allclose(jacobian_analytic(arm, [q1, q2]), expected, atol=1e-12)


def test_a_dh_robot_goes_through_its_screw_model():
    dh = robolab.load_robot("puma560", form="dh")
    screw = robolab.load_robot("puma560")
    q = np.array([0.3, -0.2, 0.5, 0.1, 0.7, -0.4])
    np.testing.assert_allclose(jacobian_analytic(dh, q), finite_difference(screw, q), atol=1e-6)


def test_batches_of_configurations():
    robot = robolab.load_robot("ur5")
    qs = np.array(configurations(robot, 3, seed=2))
    batch = jacobian_analytic(robot, qs)
    assert batch.shape == (3, 6, 6)
    for q, J_A in zip(qs, batch, strict=True):
        np.testing.assert_allclose(J_A, finite_difference(robot, q), atol=1e-6)


def test_pitch_of_90_degrees_is_refused_although_the_arm_is_regular():
    puma = robolab.load_robot("puma560")
    q = np.radians([0, 0, 0, 0, -90, 0])  # the tool points straight up: pitch = 90°
    sigma = np.linalg.svd(mr.JacobianSpace(puma.screw_axes_space, q), compute_uv=False)
    assert sigma[-1] > 0.1  # the arm is far from a singularity
    with pytest.raises(ValueError, match=r"pitch = 90\.00°.*gimbal lock"):
        jacobian_analytic(puma, q)
    with pytest.raises(ValueError, match=r"\(joint_positions\[1\]\)"):
        jacobian_analytic(puma, np.stack([q + 0.3, q]))
    near = jacobian_analytic(puma, np.radians([0, 0, 0, 0, -89.9, 0]))
    assert np.abs(near).max() > 500  # it grows like 1 / cos(pitch)


@pytest.mark.parametrize(
    ("args", "keywords", "error", "words"),
    [
        (("puma560", np.zeros(6)), {}, TypeError, "robot must be a robolab.ScrewRobot"),
        ((None, np.zeros(5)), {}, ValueError, "joint_positions must have shape"),
        ((None, np.zeros(6), "zyz"), {}, ValueError, "representation must be one of"),
        ((None, np.zeros(6)), {"singularity_tolerance": -1.0}, ValueError, "positive"),
        ((None, [0, 0, np.nan, 0, 0, 0]), {}, ValueError, "joint_positions"),
    ],
)
def test_bad_input(args, keywords, error, words):
    robot = robolab.load_robot("puma560")
    args = tuple(robot if a is None else a for a in args[:1]) + args[1:]
    with pytest.raises(error, match=words):
        jacobian_analytic(*args, **keywords)
