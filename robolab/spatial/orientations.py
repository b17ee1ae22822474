"""Unit quaternions and ZYZ Euler angles: two more ways of writing an orientation.

Roll–pitch–yaw angles live in :mod:`robolab.spatial.transforms`
(``rpy_to_rotation``, ``rotation_to_rpy``); this module adds

* **unit quaternions** (Euler parameters; Siciliano et al. §2.6, Craig §2.8),
  written scalar first, ``q = (w, x, y, z) = (cos θ/2, ω̂ sin θ/2)`` for a turn
  by θ about the unit axis ω̂. ``q`` and ``−q`` are the same rotation (the
  double cover); :func:`rotation_to_quaternion` returns the one with ``w ≥ 0``.
  The Hamilton product composes them like matrices:
  ``R(quaternion_multiply(p, q)) = R(p) R(q)``.
* **ZYZ Euler angles** (Spong, Hutchinson & Vidyasagar §2.5.1; Craig's
  Z–Y–Z Euler angles), ``R = Rz(φ) Ry(θ) Rz(ψ)``, turns about moving axes.
  They are singular at θ = 0 and θ = π, where only φ + ψ (θ = 0) or φ − ψ
  (θ = π) is determined.

All angles are radians.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array, as_real_number, require_rotation

__all__ = [
    "quaternion_multiply",
    "quaternion_to_rotation",
    "rotation_to_quaternion",
    "rotation_to_zyz",
    "zyz_to_rotation",
]

#: A quaternion whose norm is further than this from 1 is refused (it is not a rotation).
_UNIT_TOLERANCE = 1e-6
#: Below this sin θ the ZYZ angles are at their singularity (θ = 0 or θ = π).
_SINGULAR_SIN = 1e-9


def _unit_quaternion(q: ArrayLike, name: str) -> NDArray[np.float64]:
    """``q`` as a float array of shape (4,), refused unless its norm is 1."""
    array = as_float_array(q, name, (4,))
    norm = float(np.linalg.norm(array))
    if abs(norm - 1.0) > _UNIT_TOLERANCE:
        raise ValueError(
            f"{name} must be a unit quaternion (w, x, y, z) with norm 1, got norm {norm:.6g}; "
            f"divide it by its norm if it only drifted"
        )
    return array


def _rotation(R: ArrayLike) -> NDArray[np.float64]:
    """``R`` as a 3×3 float array, refused unless it is a rotation matrix."""
    array = as_float_array(R, "R", (3, 3))
    require_rotation(array, "R")
    return array


def rotation_to_quaternion(R: ArrayLike) -> NDArray[np.float64]:
    """Return the unit quaternion ``(w, x, y, z)`` of a rotation matrix, with ``w ≥ 0``.

    ``w = cos(θ/2)`` and ``(x, y, z) = ω̂ sin(θ/2)`` for the turn by θ ∈ [0, π]
    about ω̂. Computed from the largest of ``1 + trace R`` and ``1 + 2 r_ii −
    trace R`` (Shepperd's method), so it stays accurate near θ = π, where
    ``w`` is small. At θ = π both ``q`` and ``−q`` have ``w = 0``; the one
    whose first non-zero entry is positive is returned.

    Parameters
    ----------
    R : array_like, shape (3, 3)
        A rotation matrix.

    Returns
    -------
    ndarray, shape (4,)
        ``(w, x, y, z)`` with ``w ≥ 0``.

    Raises
    ------
    ValueError
        If ``R`` is not 3×3, not finite or not a rotation.

    Examples
    --------
    >>> from robolab.spatial.transforms import rotz
    >>> rotation_to_quaternion(rotz(np.pi / 2)).round(4)  # cos 45°, 0, 0, sin 45°
    array([0.7071, 0.    , 0.    , 0.7071])
    >>> rotation_to_quaternion([[0, 0, 1], [1, 0, 0], [0, 1, 0]]).round(4)  # 120° about (1,1,1)
    array([0.5, 0.5, 0.5, 0.5])
    """
    R = _rotation(R)
    trace = float(np.trace(R))
    candidates = [1.0 + trace, *(1.0 + 2.0 * R[i, i] - trace for i in range(3))]
    k = int(np.argmax(candidates))
    s = 2.0 * np.sqrt(candidates[k])  # 4 times the largest entry
    if k == 0:
        q = [s / 4, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
    elif k == 1:
        q = [(R[2, 1] - R[1, 2]) / s, s / 4, (R[0, 1] + R[1, 0]) / s, (R[0, 2] + R[2, 0]) / s]
    elif k == 2:
        q = [(R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, s / 4, (R[1, 2] + R[2, 1]) / s]
    else:
        q = [(R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, (R[1, 2] + R[2, 1]) / s, s / 4]
    quaternion = np.array(q) / np.linalg.norm(q)
    first = quaternion[np.flatnonzero(np.abs(quaternion) > 1e-12)[0]]
    if quaternion[0] < -1e-12 or (abs(quaternion[0]) <= 1e-12 and first < 0):
        quaternion = -quaternion
    return quaternion + 0.0  # no -0.0


def quaternion_to_rotation(q: ArrayLike) -> NDArray[np.float64]:
    """Return the rotation matrix of a unit quaternion ``q = (w, x, y, z)``.

    .. math::

        R = \\begin{bmatrix}
        1 - 2(y^2 + z^2) & 2(xy - wz) & 2(xz + wy) \\\\
        2(xy + wz) & 1 - 2(x^2 + z^2) & 2(yz - wx) \\\\
        2(xz - wy) & 2(yz + wx) & 1 - 2(x^2 + y^2)
        \\end{bmatrix}

    ``q`` and ``−q`` give the same matrix.

    Parameters
    ----------
    q : array_like, shape (4,)
        A unit quaternion, scalar part first.

    Returns
    -------
    ndarray, shape (3, 3)

    Raises
    ------
    ValueError
        If ``q`` does not have four finite entries or its norm is not 1.

    Examples
    --------
    >>> quaternion_to_rotation([0.5, 0.5, 0.5, 0.5]).round(12)  # x → y → z → x
    array([[0., 0., 1.],
           [1., 0., 0.],
           [0., 1., 0.]])
    >>> np.allclose(quaternion_to_rotation([-0.5, -0.5, -0.5, -0.5]),
    ...             quaternion_to_rotation([0.5, 0.5, 0.5, 0.5]))
    True
    """
    w, x, y, z = _unit_quaternion(q, "q")
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def quaternion_multiply(p: ArrayLike, q: ArrayLike) -> NDArray[np.float64]:
    """Return the Hamilton product ``p ⊗ q`` of two unit quaternions (scalar first).

    ``(p_w, p_v) ⊗ (q_w, q_v) = (p_w q_w − p_v·q_v,  p_w q_v + q_w p_v + p_v × q_v)``,
    so that ``quaternion_to_rotation(p ⊗ q) = quaternion_to_rotation(p) @
    quaternion_to_rotation(q)``: the product composes rotations in the order
    of the matrices.

    Parameters
    ----------
    p, q : array_like, shape (4,)
        Unit quaternions ``(w, x, y, z)``.

    Returns
    -------
    ndarray, shape (4,)
        The quaternion of the composed rotation (not re-signed: ``w`` may be negative).

    Raises
    ------
    ValueError
        If either is not a finite unit quaternion.

    Examples
    --------
    >>> quarter_z = [np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)]
    >>> quaternion_multiply(quarter_z, quarter_z).round(12)  # half a turn about z
    array([0., 0., 0., 1.])
    """
    p = _unit_quaternion(p, "p")
    q = _unit_quaternion(q, "q")
    w = p[0] * q[0] - p[1:] @ q[1:]
    v = p[0] * q[1:] + q[0] * p[1:] + np.cross(p[1:], q[1:])
    return np.concatenate([[w], v])


def zyz_to_rotation(phi: float, theta: float, psi: float) -> NDArray[np.float64]:
    """Return ``R = Rz(φ) Ry(θ) Rz(ψ)`` for ZYZ Euler angles (radians).

    Turn by φ about z, then by θ about the new y, then by ψ about the newest
    z (moving axes; Spong, Hutchinson & Vidyasagar §2.5.1).

    Examples
    --------
    >>> zyz_to_rotation(np.pi / 2, np.pi / 2, 0.0).round(12)
    array([[ 0., -1.,  0.],
           [ 0.,  0.,  1.],
           [-1.,  0.,  0.]])
    """
    angles = [as_real_number(v, n) for v, n in ((phi, "phi"), (theta, "theta"), (psi, "psi"))]
    (c1, c2, c3), (s1, s2, s3) = np.cos(angles), np.sin(angles)
    return np.array(
        [
            [c1 * c2 * c3 - s1 * s3, -c1 * c2 * s3 - s1 * c3, c1 * s2],
            [s1 * c2 * c3 + c1 * s3, -s1 * c2 * s3 + c1 * c3, s1 * s2],
            [-s2 * c3, s2 * s3, c2],
        ]
    )


def rotation_to_zyz(R: ArrayLike) -> NDArray[np.float64]:
    """Return ZYZ Euler angles ``(φ, θ, ψ)`` with ``R = Rz(φ) Ry(θ) Rz(ψ)`` and θ ∈ [0, π].

    Away from the singularity (SHV §2.5.1, the solution with sin θ > 0)::

        θ = atan2(√(r13² + r23²), r33),  φ = atan2(r23, r13),  ψ = atan2(r32, −r31).

    At θ = 0 the matrix is ``Rz(φ + ψ)`` and at θ = π it is ``Rz(φ − ψ) Ry(π)``:
    only the sum (or the difference) is determined. Then φ is set to 0 and
    ``ψ = atan2(r21, r22)`` (the sum at θ = 0, minus the difference at θ = π).

    ``R`` must be a 3×3 rotation matrix (``ValueError`` otherwise); the result
    is ``(φ, θ, ψ)`` in radians, φ and ψ in (−π, π].

    Examples
    --------
    >>> rotation_to_zyz(zyz_to_rotation(0.1, 0.2, 0.3)).round(12)
    array([0.1, 0.2, 0.3])
    >>> rotation_to_zyz(zyz_to_rotation(0.4, 0.0, 0.3)).round(12)  # only φ + ψ = 0.7 is known
    array([0. , 0. , 0.7])
    """
    R = _rotation(R)
    sin_theta = float(np.hypot(R[0, 2], R[1, 2]))
    theta = float(np.arctan2(sin_theta, R[2, 2]))
    if sin_theta < _SINGULAR_SIN:
        return np.array([0.0, theta, np.arctan2(R[1, 0], R[1, 1])]) + 0.0
    return np.array([np.arctan2(R[1, 2], R[0, 2]), theta, np.arctan2(R[2, 1], -R[2, 0])]) + 0.0
