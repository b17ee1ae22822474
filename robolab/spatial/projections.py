"""Projections onto SO(3) and SE(3) and membership tests (Modern Robotics, chapter 3).

The book's ``ProjectToSO3``, ``ProjectToSE3``, ``DistanceToSO3``,
``DistanceToSE3``, ``TestIfSO3`` and ``TestIfSE3``: the nearest rotation
(by the SVD) to a matrix that drifted off the manifold, and the book's
measures of how far a matrix is from being a rotation or a transform. They
take stacks of matrices like the rest of :mod:`robolab.spatial`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array
from .rigid_body_motions import rotation_position_to_transform_unchecked

__all__ = [
    "distance_to_se3",
    "distance_to_so3",
    "is_se3",
    "is_so3",
    "project_to_se3",
    "project_to_so3",
]

#: A matrix closer than this to SO(3) or SE(3) (the book's distance) counts as one.
_MANIFOLD_TOLERANCE = 1e-3


def project_to_so3(mat: ArrayLike) -> NDArray[np.float64]:
    """Return the rotation matrix nearest to ``mat`` in the Frobenius norm.

    Uses the SVD ``mat = U Σ Vᵀ`` and returns ``U diag(1, 1, det(UVᵀ)) Vᵀ``,
    so the result is a proper rotation even when ``det(mat) < 0``.

    Examples
    --------
    >>> mat = [[0.675, 0.150, 0.720], [0.370, 0.771, -0.511], [-0.630, 0.619, 0.472]]
    >>> project_to_so3(mat).round(6)
    array([[ 0.679011,  0.148945,  0.718859],
           [ 0.373207,  0.773196, -0.512723],
           [-0.632187,  0.616428,  0.469421]])
    """
    mat = as_float_array(mat, "mat", (3, 3), batch=True)
    U, _, Vt = np.linalg.svd(mat)
    d = np.sign(np.linalg.det(U @ Vt))
    d = np.where(d == 0.0, 1.0, d)
    U = U.copy()
    U[..., :, 2] *= d[..., None]
    return U @ Vt


def project_to_se3(mat: ArrayLike) -> NDArray[np.float64]:
    """Return the transform nearest to a 4×4 ``mat``: its rotation block projected onto SO(3).

    Examples
    --------
    >>> mat = [[0.675, 0.150, 0.720, 1.2], [0.370, 0.771, -0.511, 5.4],
    ...        [-0.630, 0.619, 0.472, 3.6], [0.003, 0.002, 0.010, 0.9]]
    >>> project_to_se3(mat).round(6)
    array([[ 0.679011,  0.148945,  0.718859,  1.2     ],
           [ 0.373207,  0.773196, -0.512723,  5.4     ],
           [-0.632187,  0.616428,  0.469421,  3.6     ],
           [ 0.      ,  0.      ,  0.      ,  1.      ]])
    """
    mat = as_float_array(mat, "mat", (4, 4), batch=True)
    return rotation_position_to_transform_unchecked(
        project_to_so3(mat[..., :3, :3]), mat[..., :3, 3]
    )


def distance_to_so3(mat: ArrayLike) -> float:
    """Return ``‖matᵀmat - I‖_F`` if det(mat) > 0, else infinity (the book's code returns 1e9).

    Examples
    --------
    >>> round(distance_to_so3([[1.0, 0.0, 0.0], [0.0, 0.1, -0.95], [0.0, 1.0, 0.1]]), 6)
    0.088353
    """
    mat = as_float_array(mat, "mat", (3, 3))
    if np.linalg.det(mat) <= 0.0:
        return float("inf")
    return float(np.linalg.norm(mat.T @ mat - np.eye(3)))


def distance_to_se3(mat: ArrayLike) -> float:
    """Return the Frobenius distance of a 4×4 ``mat`` from SE(3) (infinity if det R ≤ 0).

    The measure is ``‖[[RᵀR, 0], [bottom row of mat]] - I‖_F``, as in the book.

    Examples
    --------
    >>> mat = [[1.0, 0.0, 0.0, 1.2], [0.0, 0.1, -0.95, 1.5],
    ...        [0.0, 1.0, 0.1, -0.9], [0.0, 0.0, 0.1, 0.98]]
    >>> round(distance_to_se3(mat), 6)
    0.134931
    """
    mat = as_float_array(mat, "mat", (4, 4))
    R = mat[:3, :3]
    if np.linalg.det(R) <= 0.0:
        return float("inf")
    check = np.zeros((4, 4))
    check[:3, :3] = R.T @ R
    check[3, :] = mat[3, :]
    return float(np.linalg.norm(check - np.eye(4)))


def is_so3(mat: ArrayLike) -> bool:
    """Return True if ``mat`` is within 1e-3 of SO(3) (see :func:`distance_to_so3`).

    Examples
    --------
    >>> is_so3([[1.0, 0.0, 0.0], [0.0, 0.1, -0.95], [0.0, 1.0, 0.1]])
    False
    >>> is_so3(np.eye(3))
    True
    """
    return distance_to_so3(mat) < _MANIFOLD_TOLERANCE


def is_se3(mat: ArrayLike) -> bool:
    """Return True if ``mat`` is within 1e-3 of SE(3) (see :func:`distance_to_se3`).

    Examples
    --------
    >>> is_se3(np.eye(4))
    True
    """
    return distance_to_se3(mat) < _MANIFOLD_TOLERANCE
