"""Pinocchio models built from the screw form of a robot: the independent engine of the tests.

Shared by ``generate_pinocchio_screw_reference.py`` (which stores Pinocchio's
results for the arms of ``screw_arms.py``) and ``test_bundled_models.py``
(which checks every bundled model file). Written here, in test code, without
robolab: joint i gets a frame whose z axis lies on its screw axis S_i, the
link's inertia is placed from its centre-of-mass frame, and an operational
frame "ee" sits at the end-effector.

Pinocchio orders spatial vectors [v; ω] (robolab: [ω; v]); joint-space
quantities and 4×4 poses need no reordering.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin


def se3(T: np.ndarray) -> pin.SE3:
    """A 4×4 pose as Pinocchio's SE3."""
    return pin.SE3(np.array(T[:3, :3]), np.array(T[:3, 3]))


def frame_with_z(z: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """A pose whose z axis is the unit vector ``z`` and whose origin is ``origin``."""
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    T = np.eye(4)
    T[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    T[:3, 3] = origin
    return T


def add_joint(model: pin.Model, parent: int, name: str, placement: np.ndarray, prismatic: bool):
    """A revolute (about z) or prismatic (along z) joint at ``placement`` in its parent's frame."""
    joint = pin.JointModelPZ() if prismatic else pin.JointModelRZ()
    return model.addJoint(parent, joint, se3(placement), name)


def inertia(mass: float, com: np.ndarray, rotation: np.ndarray, inertia_c: np.ndarray):
    """Pinocchio inertia of a body with centre-of-mass frame (rotation, com) in the joint frame."""
    return pin.Inertia(float(mass), np.array(com), rotation @ inertia_c @ rotation.T)


def pinocchio_from_screw(robot, gravity=None) -> tuple[pin.Model, int]:
    """Pinocchio model of a screw-form robot and the id of its end-effector frame "ee".

    ``robot`` has ``link_frames``, ``screw_axes_space``, ``spatial_inertias``,
    ``joint_types``, ``joint_names``, ``home_ee_pose`` and ``gravity`` (a
    ``ScrewRobot`` or a model file's ``RobotModelData``); ``gravity``
    overrides the robot's.
    """
    model = pin.Model()
    model.gravity = pin.Motion(np.array(robot.gravity if gravity is None else gravity), np.zeros(3))
    centre = np.eye(4)
    parent, parent_pose = 0, np.eye(4)
    for i in range(len(robot.joint_names)):
        centre = centre @ robot.link_frames[i]  # M_0i, centre-of-mass frame {i} at home
        omega, v = robot.screw_axes_space[:3, i], robot.screw_axes_space[3:, i]
        prismatic = robot.joint_types[i] == "prismatic"
        if prismatic:
            joint_pose = frame_with_z(v, centre[:3, 3])
        else:
            joint_pose = frame_with_z(omega, np.cross(omega, v))  # ω × v lies on the axis
        placement = np.linalg.solve(parent_pose, joint_pose)
        parent = add_joint(model, parent, robot.joint_names[i], placement, prismatic)
        X = np.linalg.solve(joint_pose, centre)  # centre-of-mass frame in the joint frame
        G = robot.spatial_inertias[i]
        model.appendBodyToJoint(
            parent, inertia(G[3, 3], X[:3, 3], X[:3, :3], G[:3, :3]), pin.SE3.Identity()
        )
        parent_pose = joint_pose
    ee = np.linalg.solve(parent_pose, robot.home_ee_pose)
    frame = model.addFrame(pin.Frame("ee", parent, se3(ee), pin.FrameType.OP_FRAME))
    return model, frame
