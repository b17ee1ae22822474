"""KinematicChain: the link frames and the space Jacobian of one robot, its constants
prepared once (the views ask it on every slider move and animation frame)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import robolab as rl
from robolab.screw.kinematics.chain import KinematicChain

#: A planar 2R arm: links of 1 m and 0.5 m along x, centres of mass halfway, joints about z.
SCREW_AXES = np.array([[0, 0, 1, 0, 0, 0], [0, 0, 1, 0, -1, 0]], dtype=float).T


def along_x(length: float) -> np.ndarray:
    T = np.eye(4)
    T[0, 3] = length
    return T


LINK_FRAMES = [along_x(0.5), along_x(0.75), along_x(0.25)]  # {s}→{1}, {1}→{2}, {2}→tip


def planar_pose(angle: float, x: float, y: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0, x], [s, c, 0, y], [0, 0, 1, 0], [0, 0, 0, 1]])


@pytest.mark.parametrize("q", [(0.0, 0.0), (math.pi / 2, -math.pi / 2), (0.4, 1.1)])
def test_the_link_frames_are_the_planar_arm_s_closed_form(q):
    q1, q2 = q
    c1, s1 = math.cos(q1), math.sin(q1)
    c12, s12 = math.cos(q1 + q2), math.sin(q1 + q2)
    expected = [
        np.eye(4),  # {s}
        planar_pose(q1, 0.5 * c1, 0.5 * s1),  # centre of mass of link 1
        planar_pose(q1 + q2, c1 + 0.25 * c12, s1 + 0.25 * s12),  # centre of mass of link 2
        planar_pose(q1 + q2, c1 + 0.5 * c12, s1 + 0.5 * s12),  # the end-effector
    ]
    chain = KinematicChain(LINK_FRAMES, SCREW_AXES)
    np.testing.assert_allclose(chain.link_frames_space(q), expected, atol=1e-15)


@pytest.mark.parametrize("q", [(0.0, 0.0), (math.pi / 2, 0.3), (-2.0, 1.1)])
def test_the_space_jacobian_is_the_planar_arm_s_closed_form(q):
    # J_s2 = [ω; -ω × p] with ω = z and p = (cos q1, sin q1, 0), the elbow
    c1, s1 = math.cos(q[0]), math.sin(q[0])
    expected = [[0, 0], [0, 0], [1, 1], [0, s1], [0, -c1], [0, 0]]
    chain = KinematicChain(LINK_FRAMES, SCREW_AXES)
    np.testing.assert_allclose(chain.jacobian_space(q), expected, atol=1e-15)


def test_the_chain_of_a_robot_gives_the_robot_s_numbers():
    robot = rl.load_robot("puma560")
    chain = KinematicChain.of(robot)
    q = np.random.default_rng(5).uniform(-1.0, 1.0, (4, 6))
    assert chain.n_joints == 6
    np.testing.assert_allclose(
        chain.link_frames_space(q), rl.link_frames_space(robot, q), atol=1e-15
    )
    np.testing.assert_allclose(chain.jacobian_space(q), rl.jacobian_space(robot, q), atol=1e-15)


def test_batches_keep_their_shape():
    chain = KinematicChain(LINK_FRAMES, SCREW_AXES)
    assert chain.link_frames_space(np.zeros((3, 2))).shape == (3, 4, 4, 4)
    assert chain.jacobian_space(np.zeros((3, 5, 2))).shape == (3, 5, 6, 2)


def test_wrong_arrays_are_named():
    chain = KinematicChain(LINK_FRAMES, SCREW_AXES)
    with pytest.raises(
        ValueError, match=r"joint_positions must have shape \(2,\) or \(\.\.\., 2\)"
    ):
        chain.jacobian_space([1.0])
    with pytest.raises(ValueError, match=r"link_frames must hold n \+ 1 = 3 transforms .*, got 2"):
        KinematicChain(LINK_FRAMES[:2], SCREW_AXES)
    with pytest.raises(
        ValueError, match=r"screw_axes must have shape \(6, n\), got shape \(5, 2\)"
    ):
        KinematicChain(LINK_FRAMES, SCREW_AXES[:5])
