"""The space-frame kinematics of one robot, its constants prepared once.

Code that evaluates many configurations of the same robot (a view redraws the arm on
every slider move and every animation frame) builds a :class:`KinematicChain` once and
asks it for the link frames and the space Jacobian: the same kernels, and the same
numbers, as :func:`robolab.link_frames_space` and :func:`robolab.jacobian_space`,
without the dynamics constants those cache on the robot.

Examples
--------
>>> import numpy as np
>>> from robolab import load_robot
>>> chain = KinematicChain.of(load_robot("planar2r"))
>>> chain.link_frames_space([np.pi / 2, 0.0]).shape  # base, two links, end-effector
(4, 4, 4)
>>> chain.jacobian_space([0.0, 0.0]).shape
(6, 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..robot import check_link_frames
from .forward import (
    ScrewChain,
    home_link_poses,
    joint_array,
    link_frames_space_kernel,
    screw_axes_array,
)
from .jacobian import jacobian_space_kernel

__all__ = ["KinematicChain"]


class KinematicChain:
    """Link frames and space Jacobian of a serial chain for any joint positions.

    Parameters
    ----------
    link_frames : array_like, shape (n+1, 4, 4)
        M_{i-1,i} at home, as in :class:`robolab.ScrewRobot`.
    screw_axes : array_like, shape (6, n)
        Space-frame screw axes, one per column.
    """

    def __init__(self, link_frames: Any, screw_axes: Any) -> None:
        screws = screw_axes_array(screw_axes)
        self.n_joints = int(screws.shape[1])
        self._chain = ScrewChain(screws)
        self._home_poses = home_link_poses(check_link_frames(link_frames, self.n_joints))

    @classmethod
    def of(cls, robot: Any) -> KinematicChain:
        """The chain of a :class:`robolab.ScrewRobot` (its link frames and space screw axes)."""
        return cls(robot.link_frames, robot.screw_axes_space)

    def link_frames_space(self, joint_positions: ArrayLike) -> np.ndarray:
        """Poses of {s}, the link frames and the end-effector, shape (n+2, 4, 4) (or a batch)."""
        q = joint_array(joint_positions, self.n_joints, "joint_positions")
        return link_frames_space_kernel(self._chain, self._home_poses, q)

    def jacobian_space(self, joint_positions: ArrayLike) -> np.ndarray:
        """The space Jacobian J_s(θ), rows [ω; v], shape (6, n) (or a batch)."""
        q = joint_array(joint_positions, self.n_joints, "joint_positions")
        return jacobian_space_kernel(self._chain, q)
