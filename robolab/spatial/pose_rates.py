"""How fast a pose changes: the twist of a moving frame and the rates of its roll–pitch–yaw angles.

A moving frame ``T(t) = (R(t), p(t))`` has a velocity that the derivative ``Ṫ`` holds,
but not as a vector: ``Ṫ`` is a 4×4 matrix with twelve changing entries for six
velocities. Multiplying by ``T⁻¹`` on either side gives an element of se(3), the matrix
of a twist (Lynch & Park, *Modern Robotics*, section 3.3.2):

    [V_s] = Ṫ T⁻¹   the **space twist**: ω_s, and v_s the velocity of the body point
                    passing through the origin of the fixed frame {s};
    [V_b] = T⁻¹ Ṫ   the **body twist**: ω_b and v_b, the angular velocity and the
                    velocity of the frame's origin, both in the moving frame's axes.

:func:`twist_from_pose_rate` computes either one and checks that ``Ṫ`` really is the
derivative of a pose at ``T`` (its rotation block ``Ṙ Rᵀ`` skew-symmetric, its last row
zero).

A **minimal** description of an orientation, such as the roll, pitch and yaw angles of
:func:`robolab.rotation_to_rpy` (``R = Rz(yaw) Ry(pitch) Rx(roll)``), has rates that are
not the angular velocity. :func:`rpy_rate_matrix` is the 3×3 matrix ``E`` with
``ω_s = E(rpy) [roll̇; pitcḣ; yaẇ]`` (ω in the fixed frame; Siciliano et al., *Robotics:
Modelling, Planning and Control*, section 3.6, for Euler angles); its determinant is
``cos(pitch)``, so the rates are not defined at pitch = ±90°, the representation
singularity (gimbal lock).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array, as_real_number, as_transform, require_choice
from .rigid_body_motions import transform_inv_unchecked

__all__ = ["rpy_rate_matrix", "twist_from_pose_rate"]

_FRAMES = ("space", "body")


def twist_from_pose_rate(
    T: ArrayLike,
    T_dot: ArrayLike,
    frame: Literal["space", "body"] = "space",
    *,
    tolerance: float = 1e-6,
) -> NDArray[np.float64]:
    """Return the twist ``[ω; v]`` of a frame moving with pose ``T`` and derivative ``Ṫ``.

    ``frame="space"`` gives ``V_s`` from ``[V_s] = Ṫ T⁻¹``, ``frame="body"``
    gives ``V_b`` from ``[V_b] = T⁻¹ Ṫ`` (Modern Robotics, section 3.3.2).
    The two are related by the adjoint, ``V_s = [Ad_T] V_b``.

    Parameters
    ----------
    T : array_like, shape (4, 4) or (..., 4, 4)
        The pose, a homogeneous transform (e.g. ``T_sb`` of an end-effector).
    T_dot : array_like, shape (4, 4) or (..., 4, 4)
        Its time derivative (per second, or per unit of whatever parameter
        ``T`` depends on), e.g. a finite difference.
    frame : {"space", "body"}
    tolerance : float
        How far ``Ṫ T⁻¹`` (or ``T⁻¹ Ṫ``) may be from an se(3) matrix, relative
        to the size of ``Ṫ`` (at least 1): finite differences are never exact.

    Returns
    -------
    V : ndarray, shape (6,) or (..., 6)
        The twist, rows ``[ω; v]``; the skew-symmetric part of the rotation
        block gives ω.

    Raises
    ------
    ValueError
        When ``T_dot`` is not the derivative of a pose at ``T``: its last row
        is not zero, or its rotation block is not ``[ω] R`` for any ω.

    Examples
    --------
    A frame carried round a circle of radius 1 m about the z axis of {s}, at
    1 rad/s, sampled at t = 0.3 s and differentiated numerically:

    >>> import numpy as np, robolab
    >>> def pose(t):
    ...     return robolab.trotz(t) @ robolab.transl(1.0, 0, 0)
    >>> h = 1e-6
    >>> T_dot = (pose(0.3 + h) - pose(0.3 - h)) / (2 * h)
    >>> twist_from_pose_rate(pose(0.3), T_dot, "body").round(6) + 0.0
    array([0., 0., 1., 0., 1., 0.])
    >>> twist_from_pose_rate(pose(0.3), T_dot, "space").round(6) + 0.0
    array([0., 0., 1., 0., 0., 0.])

    In the body twist, v_b = (0, 1, 0) is the frame origin's velocity in its
    own axes; in the space twist, v_s = 0 is the velocity of the (imagined)
    body point at the origin of {s}, which lies on the axis of rotation.
    A matrix that is not the derivative of a pose is refused:

    >>> twist_from_pose_rate(np.eye(4), np.diag([1.0, 0, 0, 0]))
    Traceback (most recent call last):
    ...
    ValueError: T_dot is not the derivative of a pose at T: the rotation block of ...
    """
    pose = as_transform(T, "T", batch=True)
    rate = as_float_array(T_dot, "T_dot", (4, 4), batch=True)
    require_choice(frame, "frame", _FRAMES)
    tolerance = as_real_number(tolerance, "tolerance", positive=True)
    inverse = transform_inv_unchecked(pose)
    matrix = rate @ inverse if frame == "space" else inverse @ rate
    scale = np.maximum(1.0, np.abs(rate).max(axis=(-2, -1)))
    bottom = np.abs(rate[..., 3, :]).max(axis=-1)
    if np.any(bottom > tolerance * scale):
        raise ValueError(
            "T_dot is not the derivative of a pose: its last row must be zero (the last row of "
            f"every pose is [0, 0, 0, 1]), got a largest entry of {bottom.max():.3g}"
        )
    block = matrix[..., :3, :3]
    asymmetry = np.abs(block + np.swapaxes(block, -1, -2)).max(axis=(-2, -1)) / 2.0
    if np.any(asymmetry > tolerance * scale):
        product = "Ṫ T⁻¹" if frame == "space" else "T⁻¹ Ṫ"
        raise ValueError(
            f"T_dot is not the derivative of a pose at T: the rotation block of {product} must "
            f"be skew-symmetric ([ω]), but its symmetric part is {asymmetry.max():.3g} "
            f"(tolerance {tolerance:g}); is T_dot the derivative of this T?"
        )
    skew = (block - np.swapaxes(block, -1, -2)) / 2.0
    omega = np.stack([skew[..., 2, 1], skew[..., 0, 2], skew[..., 1, 0]], axis=-1)
    return np.concatenate([omega, matrix[..., :3, 3]], axis=-1)


def rpy_rate_matrix(rpy: ArrayLike) -> NDArray[np.float64]:
    """Return ``E`` with ``ω_s = E [roll̇; pitcḣ; yaẇ]`` for ``R = Rz(yaw) Ry(pitch) Rx(roll)``.

    ω is the angular velocity in the fixed frame. Each column is the axis one
    angle turns about, in the fixed frame: yaw about ``z``, pitch about the
    y axis turned by yaw, roll about the x axis turned by yaw and pitch::

        E = [[cos y cos p, -sin y, 0],
             [sin y cos p,  cos y, 0],
             [-sin p,       0,     1]],      det E = cos p.

    Parameters
    ----------
    rpy : array_like, shape (3,) or (..., 3)
        (roll, pitch, yaw) in radians, as :func:`robolab.rotation_to_rpy` returns.

    Returns
    -------
    E : ndarray, shape (3, 3) or (..., 3, 3)
        Singular at pitch = ±π/2, where roll and yaw turn about the same axis.

    Examples
    --------
    >>> import numpy as np
    >>> rpy_rate_matrix([0.0, 0.0, 0.0])
    array([[ 1., -0.,  0.],
           [ 0.,  1.,  0.],
           [-0.,  0.,  1.]])
    >>> E = rpy_rate_matrix([0.3, np.pi / 2, 0.0])  # gimbal lock
    >>> E[:, 0].round(12) + 0.0, E[:, 2]  # roll now turns about -z, yaw about z
    (array([ 0.,  0., -1.]), array([0., 0., 1.]))
    >>> round(float(np.linalg.det(E)), 12)
    0.0
    """
    angles = as_float_array(rpy, "rpy", (3,), batch=True)
    pitch, yaw = angles[..., 1], angles[..., 2]
    cp, sp, cy, sy = np.cos(pitch), np.sin(pitch), np.cos(yaw), np.sin(yaw)
    zero, one = np.zeros_like(pitch), np.ones_like(pitch)
    rows = [
        np.stack([cy * cp, -sy, zero], axis=-1),
        np.stack([sy * cp, cy, zero], axis=-1),
        np.stack([-sp, zero, one], axis=-1),
    ]
    return np.stack(rows, axis=-2)
