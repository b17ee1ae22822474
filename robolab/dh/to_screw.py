"""From a DH robot to its screw (product-of-exponentials) form.

At the home configuration q = 0 (every joint variable zero, the DH offsets
kept) the DH frames give everything the screw model of Modern Robotics needs
(``docs/conventions.md``):

* the home end-effector pose ``M = T_0n(0) · tool``;
* the space screw axes ``S_j = [ω; v]`` (``[ω; v]``, angular part first): for a
  revolute joint ``ω = z`` and ``v = -z × o``, for a prismatic joint ``ω = 0``
  and ``v = z``, with ``z`` and ``o`` the direction and a point of joint j's
  axis (z and origin of frame {j-1} in the standard convention, of {j} in the
  modified one);
* the link frames ``M_{i-1,i}`` between centre-of-mass frames (frame {i}
  moved to the centre of mass, axes parallel), from the base to link 1 and
  from link n to the end-effector;
* the spatial inertias ``G_i = [[I_c, 0], [0, m 1]]`` in those frames.

Then ``T(q) = e^{[S_1] q_1} ⋯ e^{[S_n] q_n} M`` equals the DH forward
kinematics for every q (tested), and both models give the same dynamics.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from ..conventions import DEFAULT_GRAVITY
from ..screw.robot import ScrewRobot
from .numeric import missing_parameters, normalise_values

__all__ = ["dh_to_screw", "home_ee_pose", "screw_axes_space", "screw_parameters"]


def _home_frames(robot: Any, values: Mapping[Any, Any] | None) -> tuple[Any, np.ndarray]:
    numeric = robot.numeric(values)
    return numeric, numeric.frames(np.zeros(robot.n_joints))


def home_ee_pose(robot: Any, values: Mapping[Any, Any] | None = None) -> np.ndarray:
    """Return the end-effector pose at q = 0, ``T_0n(0) · tool`` (4×4).

    Examples
    --------
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, q2
    >>> home_ee_pose(DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2)))[:3, 3]
    array([1.5, 0. , 0. ])
    """
    numeric = robot.numeric(values)
    return numeric.forward_kinematics(np.zeros(robot.n_joints))


def screw_axes_space(robot: Any, values: Mapping[Any, Any] | None = None) -> np.ndarray:
    """Return the joint screw axes ``[ω; v]`` in the base (space) frame at q = 0, shape (6, n).

    Examples
    --------
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, q2
    >>> screw_axes_space(DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2)))[:, 1]
    array([ 0.,  0.,  1.,  0., -1.,  0.])
    """
    _, frames = _home_frames(robot, values)
    axes = np.zeros((6, robot.n_joints))
    for j in range(1, robot.n_joints + 1):
        frame = frames[robot.model.chain.axis_frame(j)]
        z, o = frame[:3, 2], frame[:3, 3]
        if robot.joint_type(j) == "r":
            axes[:3, j - 1], axes[3:, j - 1] = z, -np.cross(z, o)
        else:
            axes[3:, j - 1] = z
    return axes


def _number(value: sp.Expr) -> float:
    return float(value)


def screw_parameters(
    robot: Any, values: Mapping[Any, Any] | None = None, kinematics_only: bool = False
) -> dict[str, Any]:
    """Return the keyword arguments of :class:`robolab.ScrewRobot` for ``robot``.

    Parameters
    ----------
    robot : DHRobot
        Every parameter numeric (or given in ``values``) and the centres of
        mass set; with ``kinematics_only``, the DH table and the tool only.
    values : mapping, optional
        Numbers for parameters that are still symbolic.
    kinematics_only : bool
        Ignore the masses, centres of mass and inertia tensors: spatial
        inertias are zero and the link frames are the DH frames {i} at q = 0
        (their centres of mass unknown). Gravity is the robot's if numeric,
        else ``(0, 0, -9.81)``. The home pose and screw axes are exact.

    Returns
    -------
    dict
        ``name, home_ee_pose (4, 4), screw_axes_space (6, n), link_frames
        (n+1, 4, 4), spatial_inertias (n, 6, 6), gravity (3,), joint_names,
        joint_types ("revolute"/"prismatic"), joint_limits``.

    Examples
    --------
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, l1
    >>> pendulum = DHRobot((l1, 0, 0, q1))
    >>> screw_parameters(pendulum, {l1: 0.5}, kinematics_only=True)["spatial_inertias"].max()
    np.float64(0.0)
    """

    substitutions = normalise_values(robot.model, values)
    hint = (
        " For the kinematic model alone (home pose and screw axes, zero inertias) use "
        "robot.to_screw(kinematics_only=True)."
    )
    if kinematics_only:
        missing = missing_parameters(robot.model, substitutions, dynamics=False)
        if missing:
            raise ValueError(
                f"the kinematic screw form needs numbers for the DH table and the tool; still "
                f"symbolic: {', '.join(missing)}. Give them numbers or pass them: "
                "robot.to_screw({symbol_or_name: value, ...}, kinematics_only=True)"
            )
    else:
        missing = missing_parameters(robot.model, substitutions, dynamics=True)
        if missing:
            geometric = set(missing_parameters(robot.model, substitutions, dynamics=False))
            dynamic_only = all(item not in geometric for item in missing)
            raise ValueError(
                f"the screw form needs numbers for every parameter; still symbolic: "
                f"{', '.join(missing)}. Give them numbers (robot.masses = [...], etc.) or pass "
                "them: robot.to_screw({symbol_or_name: value, ...})."
                + (hint if dynamic_only else "")
            )
        if not robot.has_centres_of_mass:
            raise ValueError(
                "the screw form needs the centres of mass, which are missing: set "
                "robot.cm_positions = [(x, y, z), ...] (link i's in frame {i})." + hint
            )
    numeric, frames = _home_frames(robot, values)
    n = robot.n_joints
    home = numeric.forward_kinematics(np.zeros(n))
    centre_frames = []
    inertias = []
    for i in range(1, n + 1):
        if kinematics_only:
            centre_frames.append(frames[i])
            inertias.append(np.zeros((6, 6)))
            continue
        centre = [_number(x.xreplace(substitutions)) for x in robot.cm_positions[i - 1]]
        shift = np.eye(4)
        shift[:3, 3] = centre
        centre_frames.append(frames[i] @ shift)
        tensor = np.array(
            [[_number(x.xreplace(substitutions)) for x in row] for row in robot.I_cm(i).tolist()]
        )
        mass = _number(robot.m(i).xreplace(substitutions))
        G = np.zeros((6, 6))
        G[:3, :3], G[3:, 3:] = tensor, mass * np.eye(3)
        inertias.append(G)
    chain = [np.eye(4), *centre_frames, home]
    link_frames = np.array([np.linalg.solve(chain[i], chain[i + 1]) for i in range(n + 1)])
    gravity_entries = [x.xreplace(substitutions) for x in robot.gravity]
    if kinematics_only and any(x.free_symbols for x in gravity_entries):
        gravity = list(DEFAULT_GRAVITY)
    else:
        gravity = [_number(x) for x in gravity_entries]
    return {
        "name": robot.name,
        "home_ee_pose": home,
        "screw_axes_space": screw_axes_space(robot, values),
        "link_frames": link_frames,
        "spatial_inertias": np.array(inertias),
        "gravity": np.array(gravity),
        "joint_names": [variable.func.__name__ for variable in robot.qs],
        "joint_types": ["revolute" if kind == "r" else "prismatic" for kind in robot.joint_types],
        "joint_limits": [tuple(limits) for limits in robot.joint_limits],
    }


def dh_to_screw(
    robot: Any, values: Mapping[Any, Any] | None = None, kinematics_only: bool = False
) -> ScrewRobot:
    """Return the :class:`robolab.ScrewRobot` of a DH robot (see :func:`screw_parameters`)."""

    return ScrewRobot(**screw_parameters(robot, values, kinematics_only))
