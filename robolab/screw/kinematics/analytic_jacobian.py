"""The analytical Jacobian: joint velocities to the rates of a minimal pose description.

The geometric Jacobians (:func:`robolab.jacobian_space`, :func:`robolab.jacobian_body`,
``DHRobot.J``) give the angular velocity ω, which is not the derivative of any three
numbers describing the orientation. A task written in position and roll–pitch–yaw
angles, ``x = (p, φ)`` with ``φ = (roll, pitch, yaw)`` as :func:`robolab.rotation_to_rpy`
defines them (``R = Rz(yaw) Ry(pitch) Rx(roll)``), needs ``ẋ = J_A(q) q̇`` instead
(Siciliano et al., *Robotics: Modelling, Planning and Control*, section 3.6):

    J_A = [[I, 0], [0, E(φ)⁻¹]] [J_v; J_ω],

where ``J_v`` and ``J_ω`` are the linear (velocity of the end-effector origin) and angular
rows of the geometric Jacobian in the base frame, and ``E(φ)`` maps the angle rates to
ω (:func:`robolab.rpy_rate_matrix`). ``det E = cos(pitch)``: at pitch = ±90° the
angles stop describing the orientation smoothly (gimbal lock), and ``J_A`` does not
exist there although the arm itself may be far from any singularity. This is a
*representation singularity*; :func:`jacobian_analytic` refuses it with a clear error.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...spatial.pose_rates import rpy_rate_matrix
from ...spatial.transforms import rotation_to_rpy
from ...support.arguments import as_real_number, require_choice
from ..robot import ScrewRobot
from .forward import forward_kinematics_space
from .jacobian import jacobian_space

__all__ = ["ConvertsToScrew", "jacobian_analytic"]

_REPRESENTATIONS = ("rpy",)


class ConvertsToScrew(Protocol):
    """A robot that gives its screw model, as :meth:`robolab.DHRobot.to_screw` does."""

    def to_screw(self, values: Any = None, kinematics_only: bool = False) -> Any:
        """The robot's :class:`~robolab.ScrewRobot`."""


def _screw_robot(robot: object) -> ScrewRobot:
    if isinstance(robot, ScrewRobot):
        return robot
    convert = getattr(robot, "to_screw", None)
    if callable(convert):
        screw = convert(kinematics_only=True)
        if isinstance(screw, ScrewRobot):
            return screw
    raise TypeError(
        "robot must be a robolab.ScrewRobot or a robolab.DHRobot with numeric parameters "
        f"(e.g. robolab.load_robot('puma560')), got {type(robot).__name__}"
    )


def jacobian_analytic(
    robot: ScrewRobot | ConvertsToScrew,
    joint_positions: ArrayLike,
    representation: Literal["rpy"] = "rpy",
    *,
    singularity_tolerance: float = 1e-6,
) -> NDArray[np.float64]:
    """Analytical Jacobian ``J_A(q)``, rows ``[ẋ, ẏ, ż, roll̇, pitcḣ, yaẇ]``, base frame.

    ``ẋ = J_A q̇`` where ``x = (p, roll, pitch, yaw)``: ``p`` the position of
    the end-effector origin in the base (space) frame, and the angles those of
    :func:`robolab.rotation_to_rpy`, ``R = Rz(yaw) Ry(pitch) Rx(roll)``. The
    first three rows are those of ``DHRobot.J`` (Siciliano et al., section 3.6).

    Parameters
    ----------
    robot : ScrewRobot or DHRobot
        A DH robot is used through its screw model (``robot.to_screw()``, the
        same end-effector, tool included); its parameters must be numbers.
    joint_positions : array_like, shape (n,) or (..., n)
        Radians (revolute) and metres (prismatic).
    representation : {"rpy"}
        The minimal orientation description; roll–pitch–yaw is the one robolab
        uses everywhere.
    singularity_tolerance : float
        ``|cos(pitch)|`` below this counts as the representation singularity.

    Returns
    -------
    J_A : ndarray, shape (6, n) or (..., 6, n)
        Rows ``[ṗ; φ̇]``: linear first, then the angle rates (rad/s per unit q̇).

    Raises
    ------
    ValueError
        At the representation singularity, pitch = ±90° (``cos(pitch)`` below
        ``singularity_tolerance``), where the roll and yaw rates are not defined.

    See Also
    --------
    robolab.rpy_rate_matrix : ``E(φ)``, with ``ω = E(φ) φ̇``.
    robolab.jacobian_space : the geometric Jacobian ``[ω; v]`` it is built from.

    Examples
    --------
    A planar 2R arm with unit links: the yaw rate is q̇1 + q̇2, roll and pitch
    never change:

    >>> import numpy as np, robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> jacobian_analytic(arm, [0.0, np.pi / 2]).round(12) + 0.0
    array([[-1., -1.],
           [ 1.,  0.],
           [ 0.,  0.],
           [ 0.,  0.],
           [ 0.,  0.],
           [ 1.,  1.]])

    At pitch = 90° it does not exist:

    >>> puma = robolab.load_robot("puma560")
    >>> jacobian_analytic(puma, [0, 0, 0, 0, -np.pi / 2, 0])
    Traceback (most recent call last):
    ...
    ValueError: the analytical Jacobian does not exist at pitch = 90.00°: roll and yaw ...
    """
    require_choice(representation, "representation", _REPRESENTATIONS)
    tolerance = as_real_number(singularity_tolerance, "singularity_tolerance", positive=True)
    screw = _screw_robot(robot)
    pose = forward_kinematics_space(screw, joint_positions)
    J_s = jacobian_space(screw, joint_positions)
    flat_poses = pose.reshape(-1, 4, 4)
    rpy = np.array([rotation_to_rpy(T[:3, :3]) for T in flat_poses]).reshape(*pose.shape[:-2], 3)
    cos_pitch = np.cos(rpy[..., 1])
    if np.any(np.abs(cos_pitch) < tolerance):
        index = int(np.argmin(np.abs(cos_pitch).reshape(-1)))
        pitch = np.degrees(rpy.reshape(-1, 3)[index, 1])
        at = ", ".join(str(int(i)) for i in np.unravel_index(index, cos_pitch.shape))
        where = f" (joint_positions[{at}])" if pose.ndim > 2 else ""
        raise ValueError(
            f"the analytical Jacobian does not exist at pitch = {pitch:.2f}°{where}: "
            "roll and yaw turn about the same axis there (gimbal lock, a singularity of the "
            "roll–pitch–yaw angles, not of the arm), so their rates are not defined; use the "
            "geometric Jacobian (robolab.jacobian_space) there"
        )
    omega_rows = J_s[..., :3, :]
    position = pose[..., :3, 3]
    # velocity of the end-effector origin: v_p = v_s + ω × p = v_s - [p] ω
    linear = J_s[..., 3:, :] + np.cross(omega_rows, position[..., :, None], axis=-2)
    rates = np.linalg.solve(rpy_rate_matrix(rpy), omega_rows)
    return np.concatenate([linear, rates], axis=-2)
