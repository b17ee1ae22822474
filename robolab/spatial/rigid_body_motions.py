"""Rigid-body motions (Modern Robotics, chapter 3), in NumPy.

Rotations, homogeneous transforms, twists and screw axes, and the
exponential and logarithm maps between them. Names follow
ModernRoboticsBook.jl (``matrix_exp6`` for the book's ``MatrixExp6``).

Conventions (see ``docs/conventions.md``):

* A twist or screw axis is a 6-vector ordered **[ω; v]**; its 4×4 matrix
  form is ``[[ [ω], v ], [0, 0]]``.
* ``T_ab`` is the pose of frame {b} in frame {a}; ``adjoint_representation(T_ab)``
  maps a twist written in {b} to the same twist written in {a}.

Every function accepts a stack of inputs with any number of leading (batch)
axes, e.g. ``matrix_exp6`` of shape ``(B, 4, 4)`` returns ``(B, 4, 4)``.
Bad input (wrong shape, NaN or infinity, a matrix that is not a rotation
where one is required) raises :class:`ValueError` naming the argument.

The exponential and logarithm maps are accurate for every angle, including
angles within 1e-9 of 0 and of π where the textbook formulas lose digits
(the book's reference code returns a wrong axis near θ = π).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array, as_transform, require_rotation

# *_unchecked: kernels without the argument checks, for loops of the layers above; not on the face.
__all__ = [
    "ad",
    "ad_unchecked",
    "adjoint_representation",
    "adjoint_representation_unchecked",
    "axis_angle3",
    "axis_angle6",
    "log3_vector_unchecked",
    "log6_vector_unchecked",
    "matrix_exp3",
    "matrix_exp3_unchecked",
    "matrix_exp6",
    "matrix_exp6_unchecked",
    "matrix_log3",
    "matrix_log6",
    "near_zero",
    "normalize",
    "rotation_position_to_transform",
    "rotation_position_to_transform_unchecked",
    "screw_to_axis",
    "se3_to_vec",
    "so3_to_vec",
    "transform_inv",
    "transform_inv_unchecked",
    "transform_to_rotation_position",
    "vec_to_se3",
    "vec_to_se3_unchecked",
    "vec_to_so3",
    "vec_to_so3_unchecked",
]

#: Below this angle the exp/log coefficients are evaluated by their Taylor series.
_SMALL_ANGLE = 1e-2
#: Tolerance of ``near_zero`` (the book's value).
_NEAR_ZERO = 1e-6
#: Tolerance for "is this matrix skew-symmetric / an se(3) matrix".
_ALGEBRA_TOLERANCE = 1e-9


# --------------------------------------------------------------------------- helpers


def near_zero(z: float) -> bool:
    """Return True if the scalar ``z`` is small enough to be treated as zero (|z| < 1e-6).

    Examples
    --------
    >>> near_zero(-1e-7)
    True
    >>> near_zero(1e-3)
    False
    """
    return bool(abs(z) < _NEAR_ZERO)


def normalize(v: ArrayLike) -> NDArray[np.float64]:
    """Return ``v`` scaled to unit length.

    Raises ``ValueError`` for a zero vector, whose direction is undefined.

    Examples
    --------
    >>> normalize([1, 2, 3])
    array([0.26726124, 0.53452248, 0.80178373])
    """
    v = as_float_array(v, "v", (None,))
    norm = np.linalg.norm(v)
    if norm == 0.0:
        raise ValueError("v must be a non-zero vector to be normalised, got all zeros")
    return v / norm


def vec_to_so3_unchecked(omega: np.ndarray) -> np.ndarray:
    """[ω] of 3-vectors ω (``vec_to_so3`` without the argument checks)."""
    x, y, z = omega[..., 0], omega[..., 1], omega[..., 2]
    zero = np.zeros_like(x)
    return np.stack(
        [
            np.stack([zero, -z, y], axis=-1),
            np.stack([z, zero, -x], axis=-1),
            np.stack([-y, x, zero], axis=-1),
        ],
        axis=-2,
    )


def _vee(so3mat: np.ndarray) -> np.ndarray:
    return np.stack([so3mat[..., 2, 1], so3mat[..., 0, 2], so3mat[..., 1, 0]], axis=-1)


def _require_skew(so3mat: np.ndarray, name: str) -> None:
    asym = np.abs(so3mat + np.swapaxes(so3mat, -1, -2)).max(axis=(-2, -1))
    scale = np.maximum(1.0, np.abs(so3mat).max(axis=(-2, -1)))
    if np.any(asym > _ALGEBRA_TOLERANCE * scale):
        raise ValueError(
            f"{name} must be skew-symmetric (an so(3) matrix [ω] with [ω]ᵀ = -[ω]), "
            f"but max |{name} + {name}ᵀ| = {float(np.max(asym)):.3g}"
        )


def _require_se3(se3mat: np.ndarray, name: str) -> None:
    _require_skew(se3mat[..., :3, :3], f"the rotation block of {name}")
    bottom = np.abs(se3mat[..., 3, :]).max(axis=-1)
    if np.any(bottom > _ALGEBRA_TOLERANCE):
        raise ValueError(f"{name} must be an se(3) matrix with a zero bottom row")


# --------------------------------------------------------------------------- so(3), SO(3)


def vec_to_so3(omega: ArrayLike) -> NDArray[np.float64]:
    """Return the 3×3 skew-symmetric matrix [ω] of a 3-vector ω.

    Parameters
    ----------
    omega : array_like, shape (..., 3)

    Returns
    -------
    so3mat : ndarray, shape (..., 3, 3)
        ``[[0, -ω3, ω2], [ω3, 0, -ω1], [-ω2, ω1, 0]]``, so that ``[ω] p = ω × p``.

    Examples
    --------
    >>> vec_to_so3([1, 2, 3])
    array([[ 0., -3.,  2.],
           [ 3.,  0., -1.],
           [-2.,  1.,  0.]])
    """
    return vec_to_so3_unchecked(as_float_array(omega, "omega", (3,), batch=True))


def so3_to_vec(so3mat: ArrayLike) -> NDArray[np.float64]:
    """Return the 3-vector ω of a skew-symmetric matrix [ω] (inverse of :func:`vec_to_so3`).

    Examples
    --------
    >>> so3_to_vec([[0, -3, 2], [3, 0, -1], [-2, 1, 0]])
    array([1., 2., 3.])
    """
    so3mat = as_float_array(so3mat, "so3mat", (3, 3), batch=True)
    _require_skew(so3mat, "so3mat")
    return _vee(so3mat)


def axis_angle3(expc3: ArrayLike) -> tuple[NDArray[np.float64], float]:
    """Split exponential coordinates ω̂θ of a rotation into the unit axis ω̂ and angle θ ≥ 0.

    Raises ``ValueError`` for the zero vector (no rotation has no axis).

    Examples
    --------
    >>> omega_hat, theta = axis_angle3([1, 2, 3])
    >>> omega_hat, round(theta, 6)
    (array([0.26726124, 0.53452248, 0.80178373]), 3.741657)
    """
    expc3 = as_float_array(expc3, "expc3", (3,))
    theta = float(np.linalg.norm(expc3))
    if theta == 0.0:
        raise ValueError("expc3 is the zero vector: a zero rotation has no axis")
    return expc3 / theta, theta


def _exp3_coefficients(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sin θ/θ and (1 - cos θ)/θ², accurate for every θ ≥ 0."""
    small = theta < _SMALL_ANGLE
    t2 = theta * theta
    safe = np.where(small, 1.0, theta)
    a = np.where(small, 1.0 - t2 / 6.0 + t2 * t2 / 120.0, np.sin(safe) / safe)
    half = np.sin(safe / 2.0) / safe
    b = np.where(small, 0.5 - t2 / 24.0 + t2 * t2 / 720.0, 2.0 * half * half)
    return a, b


def matrix_exp3_unchecked(so3mat: np.ndarray) -> np.ndarray:
    """exp([ω̂]θ) of so(3) matrices (``matrix_exp3`` without the checks)."""
    theta = np.linalg.norm(_vee(so3mat), axis=-1)
    a, b = _exp3_coefficients(theta)
    return np.eye(3) + a[..., None, None] * so3mat + b[..., None, None] * (so3mat @ so3mat)


def matrix_exp3(so3mat: ArrayLike) -> NDArray[np.float64]:
    """Return the rotation ``exp([ω̂]θ)`` of a matrix in so(3) (Rodrigues' formula).

    ``R = I + sin θ [ω̂] + (1 - cos θ) [ω̂]²``, evaluated without loss of
    accuracy for small θ.

    Parameters
    ----------
    so3mat : array_like, shape (..., 3, 3)
        A skew-symmetric matrix [ω̂]θ.

    Returns
    -------
    R : ndarray, shape (..., 3, 3)

    Examples
    --------
    >>> matrix_exp3([[0, -3, 2], [3, 0, -1], [-2, 1, 0]]).round(6)
    array([[-0.694921,  0.713521,  0.089293],
           [-0.192007, -0.303785,  0.933192],
           [ 0.692978,  0.63135 ,  0.348107]])
    """
    so3mat = as_float_array(so3mat, "so3mat", (3, 3), batch=True)
    _require_skew(so3mat, "so3mat")
    return matrix_exp3_unchecked(so3mat)


def log3_vector_unchecked(R: np.ndarray) -> np.ndarray:
    """Exponential coordinates ω̂θ (θ in [0, π]) of rotations R, accurate near 0 and π."""
    cos_theta = np.clip((np.trace(R, axis1=-2, axis2=-1) - 1.0) / 2.0, -1.0, 1.0)
    s_vec = 0.5 * _vee(R - np.swapaxes(R, -1, -2))  # sin θ · ω̂
    sin_theta = np.linalg.norm(s_vec, axis=-1)
    theta = np.arctan2(sin_theta, cos_theta)

    # θ < π/2: ω̂θ = (θ / sin θ) · sin θ ω̂, with the series of θ/sin θ near 0.
    safe_sin = np.where(sin_theta > 0.0, sin_theta, 1.0)
    t2 = theta * theta
    ratio = np.where(theta < _SMALL_ANGLE, 1.0 + t2 / 6.0 + 7.0 * t2 * t2 / 360.0, theta / safe_sin)
    near_identity = s_vec * ratio[..., None]

    # θ ≥ π/2: the axis from the symmetric part (R + Rᵀ)/2 - cos θ I = (1 - cos θ) ω̂ω̂ᵀ,
    # using its largest column; the sign from sin θ ω̂.
    sym = 0.5 * (R + np.swapaxes(R, -1, -2)) - cos_theta[..., None, None] * np.eye(3)
    diag = np.diagonal(sym, axis1=-2, axis2=-1)
    k = np.argmax(diag, axis=-1)
    column = np.take_along_axis(sym, k[..., None, None], axis=-1)[..., 0]
    scale = np.sqrt(np.maximum(np.take_along_axis(diag, k[..., None], axis=-1)[..., 0], 1e-300))
    axis = column / scale[..., None]
    norm = np.linalg.norm(axis, axis=-1, keepdims=True)
    axis = axis / np.where(norm > 0.0, norm, 1.0)
    sign = np.where(np.sum(axis * s_vec, axis=-1) < 0.0, -1.0, 1.0)
    near_half_turn = axis * (sign * theta)[..., None]

    return np.where((cos_theta > 0.0)[..., None], near_identity, near_half_turn)


def matrix_log3(R: ArrayLike) -> NDArray[np.float64]:
    """Return the matrix logarithm [ω̂]θ (θ in [0, π]) of a rotation matrix.

    Accurate for every rotation: near θ = 0 through the series of θ/sin θ,
    near θ = π by reading the axis from the symmetric part of R (the book's
    reference code divides by sin θ there and loses the axis).

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        A rotation matrix (orthonormal, det +1, to within 1e-6).

    Returns
    -------
    so3mat : ndarray, shape (..., 3, 3)

    Examples
    --------
    >>> matrix_log3([[0, 0, 1], [1, 0, 0], [0, 1, 0]]).round(4)
    array([[ 0.    , -1.2092,  1.2092],
           [ 1.2092,  0.    , -1.2092],
           [-1.2092,  1.2092,  0.    ]])
    """
    R = as_float_array(R, "R", (3, 3), batch=True)
    require_rotation(R, "R")
    return vec_to_so3_unchecked(log3_vector_unchecked(R))


# --------------------------------------------------------------------------- SE(3)


def rotation_position_to_transform(R: ArrayLike, p: ArrayLike) -> NDArray[np.float64]:
    """Return the homogeneous transform ``[[R, p], [0, 1]]``.

    Examples
    --------
    >>> rotation_position_to_transform([[1, 0, 0], [0, 0, -1], [0, 1, 0]], [1, 2, 5])
    array([[ 1.,  0.,  0.,  1.],
           [ 0.,  0., -1.,  2.],
           [ 0.,  1.,  0.,  5.],
           [ 0.,  0.,  0.,  1.]])
    """
    R = as_float_array(R, "R", (3, 3), batch=True)
    require_rotation(R, "R")
    p = as_float_array(p, "p", (3,), batch=True)
    return rotation_position_to_transform_unchecked(R, p)


def rotation_position_to_transform_unchecked(R: np.ndarray, p: np.ndarray) -> np.ndarray:
    """T from R and p (``rotation_position_to_transform`` without the checks)."""
    batch = np.broadcast_shapes(R.shape[:-2], p.shape[:-1])
    T = np.zeros((*batch, 4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def transform_to_rotation_position(T: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Split a homogeneous transform into its rotation R and position p.

    Examples
    --------
    >>> R, p = transform_to_rotation_position(
    ...     [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]])
    >>> p
    array([0., 0., 3.])
    """
    T = as_transform(T, "T", batch=True)
    return T[..., :3, :3].copy(), T[..., :3, 3].copy()


def transform_inv(T: ArrayLike) -> NDArray[np.float64]:
    """Return the inverse ``[[Rᵀ, -Rᵀp], [0, 1]]`` of a homogeneous transform.

    Examples
    --------
    >>> transform_inv([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]])
    array([[ 1.,  0.,  0.,  0.],
           [ 0.,  0.,  1., -3.],
           [ 0., -1.,  0.,  0.],
           [ 0.,  0.,  0.,  1.]])
    """
    T = as_transform(T, "T", batch=True)
    return transform_inv_unchecked(T)


def transform_inv_unchecked(T: np.ndarray) -> np.ndarray:
    """T⁻¹ of homogeneous transforms (``transform_inv`` without the checks)."""
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    return rotation_position_to_transform_unchecked(
        Rt, -np.einsum("...ij,...j->...i", Rt, T[..., :3, 3])
    )


def vec_to_se3(V: ArrayLike) -> NDArray[np.float64]:
    """Return the 4×4 matrix ``[[ [ω], v ], [0, 0]]`` of a twist V = [ω; v].

    Examples
    --------
    >>> vec_to_se3([1, 2, 3, 4, 5, 6])
    array([[ 0., -3.,  2.,  4.],
           [ 3.,  0., -1.,  5.],
           [-2.,  1.,  0.,  6.],
           [ 0.,  0.,  0.,  0.]])
    """
    V = as_float_array(V, "V", (6,), batch=True)
    return vec_to_se3_unchecked(V)


def vec_to_se3_unchecked(V: np.ndarray) -> np.ndarray:
    """[V] of twists V = [ω; v] (``vec_to_se3`` without the checks)."""
    se3mat = np.zeros((*V.shape[:-1], 4, 4))
    se3mat[..., :3, :3] = vec_to_so3_unchecked(V[..., :3])
    se3mat[..., :3, 3] = V[..., 3:]
    return se3mat


def se3_to_vec(se3mat: ArrayLike) -> NDArray[np.float64]:
    """Return the twist [ω; v] of a 4×4 se(3) matrix (inverse of :func:`vec_to_se3`).

    Examples
    --------
    >>> se3_to_vec([[0, -3, 2, 4], [3, 0, -1, 5], [-2, 1, 0, 6], [0, 0, 0, 0]])
    array([1., 2., 3., 4., 5., 6.])
    """
    se3mat = as_float_array(se3mat, "se3mat", (4, 4), batch=True)
    _require_se3(se3mat, "se3mat")
    return np.concatenate([_vee(se3mat[..., :3, :3]), se3mat[..., :3, 3]], axis=-1)


def adjoint_representation(T: ArrayLike) -> NDArray[np.float64]:
    """Return the 6×6 adjoint ``[Ad_T] = [[R, 0], [[p]R, R]]`` of a transform T.

    With ``T = T_ab``, ``[Ad_T] V_b = V_a`` re-expresses a twist [ω; v]
    written in frame {b} in frame {a}.

    Examples
    --------
    >>> adjoint_representation([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]])
    array([[ 1.,  0.,  0.,  0.,  0.,  0.],
           [ 0.,  0., -1.,  0.,  0.,  0.],
           [ 0.,  1.,  0.,  0.,  0.,  0.],
           [ 0.,  0.,  3.,  1.,  0.,  0.],
           [ 3.,  0.,  0.,  0.,  0., -1.],
           [ 0.,  0.,  0.,  0.,  1.,  0.]])
    """
    T = as_transform(T, "T", batch=True)
    return adjoint_representation_unchecked(T)


def adjoint_representation_unchecked(T: np.ndarray) -> np.ndarray:
    """[Ad_T] of transforms T (``adjoint_representation`` without the checks)."""
    R = T[..., :3, :3]
    Ad = np.zeros((*T.shape[:-2], 6, 6))
    Ad[..., :3, :3] = R
    Ad[..., 3:, 3:] = R
    Ad[..., 3:, :3] = vec_to_so3_unchecked(T[..., :3, 3]) @ R
    return Ad


def ad(V: ArrayLike) -> NDArray[np.float64]:
    """Return the 6×6 matrix ``[ad_V] = [[ [ω], 0 ], [ [v], [ω] ]]`` of a twist V = [ω; v].

    ``[ad_V1] V2`` is the Lie bracket of two twists; ``-[ad_V]ᵀ`` acts on
    wrenches in the dynamics (Modern Robotics, chapter 8).

    Examples
    --------
    >>> ad([1, 2, 3, 4, 5, 6])
    array([[ 0., -3.,  2.,  0.,  0.,  0.],
           [ 3.,  0., -1.,  0.,  0.,  0.],
           [-2.,  1.,  0.,  0.,  0.,  0.],
           [ 0., -6.,  5.,  0., -3.,  2.],
           [ 6.,  0., -4.,  3.,  0., -1.],
           [-5.,  4.,  0., -2.,  1.,  0.]])
    """
    V = as_float_array(V, "V", (6,), batch=True)
    return ad_unchecked(V)


def ad_unchecked(V: np.ndarray) -> np.ndarray:
    """[ad_V] of twists V (``ad`` without the checks)."""
    w = vec_to_so3_unchecked(V[..., :3])
    out = np.zeros((*V.shape[:-1], 6, 6))
    out[..., :3, :3] = w
    out[..., 3:, 3:] = w
    out[..., 3:, :3] = vec_to_so3_unchecked(V[..., 3:])
    return out


def screw_to_axis(q: ArrayLike, s: ArrayLike, h: float) -> NDArray[np.float64]:
    """Return the screw axis S = [ŝ; -ŝ × q + h ŝ] of a screw through point q along ŝ with pitch h.

    Parameters
    ----------
    q : array_like, shape (3,)
        A point on the axis.
    s : array_like, shape (3,)
        Unit direction of the axis.
    h : float
        Pitch (linear motion per radian of rotation).

    Examples
    --------
    >>> screw_to_axis([3, 0, 0], [0, 0, 1], 2)
    array([ 0.,  0.,  1.,  0., -3.,  2.])
    """
    q = as_float_array(q, "q", (3,))
    s = as_float_array(s, "s", (3,))
    h = float(as_float_array(h, "h", ()))
    if abs(np.linalg.norm(s) - 1.0) > 1e-6:
        raise ValueError(f"s must be a unit vector, got |s| = {np.linalg.norm(s):.6g}")
    return np.concatenate([s, np.cross(q, s) + h * s])


def axis_angle6(expc6: ArrayLike) -> tuple[NDArray[np.float64], float]:
    """Split exponential coordinates Sθ into the screw axis S and the distance θ ≥ 0.

    θ is |ω| when the rotation is non-zero, otherwise |v| (a pure translation).

    Examples
    --------
    >>> axis_angle6([1, 0, 0, 1, 2, 3])
    (array([1., 0., 0., 1., 2., 3.]), 1.0)
    """
    expc6 = as_float_array(expc6, "expc6", (6,))
    theta = float(np.linalg.norm(expc6[:3]))
    if near_zero(theta):
        theta = float(np.linalg.norm(expc6[3:]))
    if theta == 0.0:
        raise ValueError("expc6 is the zero vector: a zero motion has no screw axis")
    return expc6 / theta, theta


def matrix_exp6_unchecked(se3mat: np.ndarray) -> np.ndarray:
    """exp([S]θ) of se(3) matrices (``matrix_exp6`` without the checks)."""
    W = se3mat[..., :3, :3]
    v = se3mat[..., :3, 3]
    theta = np.linalg.norm(_vee(W), axis=-1)
    a, b = _exp3_coefficients(theta)
    # c = (θ - sin θ)/θ³, by its series for small θ to avoid cancellation.
    small = theta < _SMALL_ANGLE
    safe = np.where(small, 1.0, theta)
    t2 = theta * theta
    c = np.where(
        small,
        1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0 - t2 * t2 * t2 / 362880.0,
        (safe - np.sin(safe)) / (safe * safe * safe),
    )
    W2 = W @ W
    R = np.eye(3) + a[..., None, None] * W + b[..., None, None] * W2
    G = np.eye(3) + b[..., None, None] * W + c[..., None, None] * W2
    return rotation_position_to_transform_unchecked(R, np.einsum("...ij,...j->...i", G, v))


def matrix_exp6(se3mat: ArrayLike) -> NDArray[np.float64]:
    """Return the transform ``exp([S]θ)`` of a matrix [S]θ in se(3).

    ``R = exp([ω̂]θ)`` and ``p = (Iθ + (1 - cos θ)[ω̂] + (θ - sin θ)[ω̂]²) v``,
    evaluated without loss of accuracy for small θ; a pure translation
    (ω = 0) gives ``p = vθ``.

    Parameters
    ----------
    se3mat : array_like, shape (..., 4, 4)

    Returns
    -------
    T : ndarray, shape (..., 4, 4)

    Examples
    --------
    >>> se3mat = [[0, 0, 0, 0], [0, 0, -1.5708, 2.3562], [0, 1.5708, 0, 2.3562], [0, 0, 0, 0]]
    >>> matrix_exp6(se3mat).round(4)
    array([[ 1.,  0.,  0.,  0.],
           [ 0., -0., -1.,  0.],
           [ 0.,  1., -0.,  3.],
           [ 0.,  0.,  0.,  1.]])
    """
    se3mat = as_float_array(se3mat, "se3mat", (4, 4), batch=True)
    _require_se3(se3mat, "se3mat")
    return matrix_exp6_unchecked(se3mat)


def log6_vector_unchecked(T: np.ndarray) -> np.ndarray:
    """Exponential coordinates [ω̂θ; vθ] of transforms (``se3_to_vec(matrix_log6(T))`` unchecked)."""
    omega_theta = log3_vector_unchecked(T[..., :3, :3])
    theta = np.linalg.norm(omega_theta, axis=-1)
    W = vec_to_so3_unchecked(omega_theta)
    # vθ = (I - W/2 + k W²) p with k = (1 - (θ/2) cot(θ/2)) / θ², series near 0.
    small = theta < _SMALL_ANGLE
    safe = np.where(small, 1.0, theta)
    half = safe / 2.0
    t2 = theta * theta
    k = np.where(
        small,
        1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0,
        (1.0 - half * np.cos(half) / np.sin(half)) / (safe * safe),
    )
    Ginv = np.eye(3) - 0.5 * W + k[..., None, None] * (W @ W)
    v_theta = np.einsum("...ij,...j->...i", Ginv, T[..., :3, 3])
    return np.concatenate([omega_theta, v_theta], axis=-1)


def matrix_log6(T: ArrayLike) -> NDArray[np.float64]:
    """Return the matrix logarithm [S]θ in se(3) of a homogeneous transform.

    The rotation part is :func:`matrix_log3` (θ in [0, π]); the linear part
    is ``vθ = G⁻¹(θ) p θ`` with ``G⁻¹ = I/θ - [ω̂]/2 + (1/θ - cot(θ/2)/2)[ω̂]²``,
    evaluated by its series near θ = 0 so that the result is continuous.

    Parameters
    ----------
    T : array_like, shape (..., 4, 4)

    Returns
    -------
    se3mat : ndarray, shape (..., 4, 4)

    Examples
    --------
    >>> matrix_log6([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]]).round(5) + 0.0
    array([[ 0.     ,  0.     ,  0.     ,  0.     ],
           [ 0.     ,  0.     , -1.5708 ,  2.35619],
           [ 0.     ,  1.5708 ,  0.     ,  2.35619],
           [ 0.     ,  0.     ,  0.     ,  0.     ]])
    """
    T = as_transform(T, "T", batch=True)
    return vec_to_se3_unchecked(log6_vector_unchecked(T))
