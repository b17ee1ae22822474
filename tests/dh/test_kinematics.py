"""robolab.dh.kinematics: poses of the frames, Jacobians and angular velocities of a DH chain.

Through the robot's methods (Moro's names), which each call one function of the module with
the robot's description, and through the functions themselves.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from robolab import DHRobot
from robolab.dh import kinematics
from robolab.dh.kinematics import DerivedKinematics
from robolab.dh.simplify import simplify_matrix
from robolab.symbols import l1, l2, q1, q2, q3


def numeric_value(expr, point) -> np.ndarray:
    return np.array(sp.Matrix(expr).xreplace(point).evalf().tolist(), dtype=float)


def test_poses_between_frames_are_consistent():
    robot = DHRobot((0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), (l2, sp.pi / 2, 0, q3))
    assert robot.T_i0(0) == sp.eye(4) and robot.T_ij(2, 2) == sp.eye(4)
    product = robot.T_i0(1) * robot.Ts[1] * robot.Ts[2]
    assert simplify_matrix(robot.T_i0(3) - product) == sp.zeros(4, 4)
    assert simplify_matrix(robot.T_ij(3, 1) * robot.T_ij(1, 3)) == sp.eye(4)
    assert simplify_matrix(robot.T_i0(1) * robot.T_ij(3, 1) - robot.T_i0(3)) == sp.zeros(4, 4)
    assert robot.R_i0(2) == robot.T_i0(2)[:3, :3]
    assert robot.r_o(2) == robot.T_i0(2)[:3, 3]
    assert robot.z(1) == robot.T_i0(1)[:3, 2]
    assert robot.T_i0(3) == robot.T


def test_jacobian_of_a_point_is_the_derivative_of_its_position():
    # independent check: finite differences of the point's position T_0i [p; 1]
    robot = DHRobot((0.3, sp.pi / 2, 0.2, q1), (0.5, 0, 0, q2), (0.1, -sp.pi / 2, q3, 0, "p"))
    point = (0.05, -0.02, 0.1)
    J = robot.J_point(point, 3)
    position = (robot.T_i0(3) * sp.Matrix([*point, 1]))[:3, 0]
    rng = np.random.default_rng(1)
    for _ in range(3):
        q = rng.uniform(-1, 1, 3)
        at = dict(zip(robot.qs, q, strict=True))
        numeric_J = numeric_value(J, at)
        for j in range(3):
            h = np.zeros(3)
            h[j] = 1e-6
            plus = numeric_value(position, dict(zip(robot.qs, q + h, strict=True)))
            minus = numeric_value(position, dict(zip(robot.qs, q - h, strict=True)))
            np.testing.assert_allclose(numeric_J[:3, j], ((plus - minus) / 2e-6)[:, 0], atol=1e-8)
    # the angular rows are the joint axes of the revolute joints, zero for the prismatic one
    assert J[3:, 0] == robot.z(0) and J[3:, 1] == robot.z(1) and J[3:, 2] == sp.zeros(3, 1)


def test_angular_velocities():
    robot = DHRobot((0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), (0, 0, q3, 0, "p"))
    robot.cm_positions = [(0, 0, 0)] * 3
    qd = sp.Matrix([robot.q_dot(i) for i in (1, 2, 3)])
    assert robot.w_rel0(1) == robot.z(0) * robot.q_dot(1)
    assert robot.w_rel0(3) == sp.zeros(3, 1)
    assert simplify_matrix(robot.w(3) - robot.Jw_cm_i(3) * qd) == sp.zeros(3, 1)
    assert robot.J_cm_i(2)[:3, :] == robot.Jv_cm_i(2)


def test_tool_moves_the_end_effector():
    tool = np.eye(4)
    tool[:3, 3] = [0.0, 0.0, 0.1]
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), tool=tool)
    assert robot.T_i0(2) * robot.tool == robot.T
    assert robot.J_point((0, 0, 0.1), 2) == robot.J
    assert robot.tool[2, 3] == sp.Float(0.1)


def test_modified_convention_puts_the_joint_axis_on_z_i():
    # same planar arm: modified rows (a_{i-1}, alpha_{i-1}, d_i, theta_i) and a tool for a_2
    standard = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    tool = sp.eye(4)
    tool[0, 3] = l2
    modified = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified", tool=tool)
    assert simplify_matrix(standard.T - modified.T) == sp.zeros(4, 4)
    assert simplify_matrix(standard.J - modified.J) == sp.zeros(6, 2)
    # joint 2's axis goes through frame {2}'s origin in the modified table
    assert modified.r_o(2) == standard.r_o(1)


def test_the_functions_take_a_description_and_share_its_chains_results():
    robot = DHRobot((0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), (0, 0, q3, 0, "p"))
    robot.cm_positions = [(0, 0, 0)] * 3
    model = robot.model
    assert kinematics.end_effector_pose(model) == robot.T
    assert kinematics.end_effector_jacobian(model) == robot.J
    assert kinematics.frame_pose(model, 2) == robot.T_i0(2)
    assert kinematics.relative_frame_pose(model, 3, 1) == robot.T_ij(3, 1)
    assert kinematics.centre_of_mass_velocity(model, 2) == robot.v_cm(2)
    assert kinematics.link_angular_velocity(model, 3) == robot.w(3)
    # a setter of the dynamic parameters keeps the chain, and with it the kinematics
    robot.masses = [1, 2, 3]
    assert robot.model.chain is model.chain
    assert DerivedKinematics.of(robot.model.chain) is DerivedKinematics.of(model.chain)
