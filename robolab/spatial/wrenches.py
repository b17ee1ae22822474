"""Wrenches between frames (Modern Robotics, section 3.4): the transpose of the adjoint.

A wrench ``F = [m; f]`` (moment first, then force; ``docs/conventions.md``) is the dual
of a twist ``V = [ω; v]``: the power ``Vᵀ F`` does not depend on the frame both are
written in. Twists move between frames with the adjoint, ``V_a = [Ad_T_ab] V_b``;
requiring ``V_aᵀ F_a = V_bᵀ F_b`` for every twist gives the rule for wrenches
(Lynch & Park, *Modern Robotics*, eq. 3.98):

    F_b = [Ad_T_ab]ᵀ F_a,

with ``T_ab`` the pose of {b} in {a}. The wrench goes the *other* way than the twist:
``[Ad_T_ab]`` takes a twist from {b} to {a}, its transpose takes a wrench from {a}
to {b}. :func:`adjoint_transpose` is that matrix, :func:`wrench_transform` applies it.

Both accept stacks of inputs with leading batch axes, as the rest of
:mod:`robolab.spatial` does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..support.arguments import as_float_array, as_transform
from .rigid_body_motions import adjoint_representation_unchecked

__all__ = ["adjoint_transpose", "wrench_transform"]


def adjoint_transpose(T: ArrayLike) -> NDArray[np.float64]:
    """Return ``[Ad_T]ᵀ = [[Rᵀ, -Rᵀ[p]], [0, Rᵀ]]``, the map of wrenches (MR eq. 3.98).

    With ``T = T_ab`` (the pose of {b} in {a}), ``[Ad_T_ab]ᵀ F_a = F_b``
    re-expresses a wrench ``[m; f]`` written in {a} in frame {b}: the opposite
    direction to twists, which ``[Ad_T_ab]`` takes from {b} to {a}.

    Parameters
    ----------
    T : array_like, shape (4, 4) or (..., 4, 4)
        A homogeneous transform (a rotation part that is not a rotation,
        or a last row other than ``[0, 0, 0, 1]``, raises ``ValueError``).

    Returns
    -------
    ndarray, shape (6, 6) or (..., 6, 6)

    Examples
    --------
    A frame {b} 2 m along x of {a}, not turned. A pure force of 1 N along y
    of {a} acting at {a}'s origin is, about {b}'s origin, the same force and
    a moment of -2 N·m about z:

    >>> import numpy as np
    >>> T_ab = np.array([[1, 0, 0, 2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    >>> adjoint_transpose(T_ab) @ [0, 0, 0, 0, 1.0, 0]
    array([ 0.,  0., -2.,  0.,  1.,  0.])
    >>> adjoint_transpose(np.eye(3))
    Traceback (most recent call last):
    ...
    ValueError: T must have shape (..., 4, 4), got shape (3, 3)
    """
    checked = as_transform(T, "T", batch=True)
    return np.swapaxes(adjoint_representation_unchecked(checked), -1, -2)


def wrench_transform(T_ab: ArrayLike, F_a: ArrayLike) -> NDArray[np.float64]:
    """Return ``F_b = [Ad_T_ab]ᵀ F_a``: a wrench written in {a}, written in {b} (MR eq. 3.98).

    Parameters
    ----------
    T_ab : array_like, shape (4, 4) or (..., 4, 4)
        The pose of frame {b} in frame {a}.
    F_a : array_like, shape (6,) or (..., 6)
        The wrench ``[m; f]`` (N·m, N) written in {a}: the moment about
        {a}'s origin and the force, in {a}'s axes.

    Returns
    -------
    F_b : ndarray, shape (6,) or (..., 6)
        The same wrench, moment about {b}'s origin, both in {b}'s axes.

    See Also
    --------
    adjoint_transpose : the matrix itself.
    robolab.adjoint_representation : the map of twists, ``V_a = [Ad_T_ab] V_b``.

    Examples
    --------
    The power of a twist against a wrench is the same in every frame:

    >>> import numpy as np, robolab
    >>> T_ab = robolab.transl(0.3, -0.2, 0.5) @ robolab.trotz(0.7) @ robolab.trotx(-0.4)
    >>> F_a = np.array([0.1, -0.5, 0.2, 3.0, 1.0, -2.0])
    >>> V_b = np.array([0.4, 0.0, -0.3, 0.2, 0.1, 0.5])
    >>> V_a = robolab.adjoint_representation(T_ab) @ V_b
    >>> F_b = wrench_transform(T_ab, F_a)
    >>> bool(np.isclose(V_a @ F_a, V_b @ F_b, atol=1e-12))
    True

    A 5 N weight hangs at the origin of {a}; about the origin of {b}, 0.4 m
    along x of {a}, it has a moment of -2 N·m about y:

    >>> wrench_transform(robolab.transl(0.4, 0, 0), [0, 0, 0, 0, 0, -5.0]) + 0.0
    array([ 0., -2.,  0.,  0.,  0., -5.])
    >>> wrench_transform(np.eye(4), [0.0, 1.0, np.nan, 0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: F_a contains a non-finite value (nan) at index (2,); expected finite numbers
    """
    T = as_transform(T_ab, "T_ab", batch=True)
    F = as_float_array(F_a, "F_a", (6,), batch=True)
    matrix = np.swapaxes(adjoint_representation_unchecked(T), -1, -2)
    return np.einsum("...ij,...j->...i", matrix, F)
