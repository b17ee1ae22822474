"""Velocity kinematics and statics (Modern Robotics, chapter 5): Jacobians and manipulability.

The space Jacobian J_s(θ) maps joint velocities to the end-effector twist in
the space frame, V_s = J_s(θ) θ̇; the body Jacobian J_b(θ) maps them to the
twist in the end-effector frame, V_b = J_b(θ) θ̇. Both have rows ordered
**[ω; v]** (Modern Robotics), unlike the geometric Jacobian ``DHRobot.J`` of
the DH world, whose rows are [v; ω] (see ``docs/conventions.md``). Their
columns are the screw axes at the current configuration (eqs. 5.11, 5.18):

    J_si(θ) = [Ad_{e^{[S_1]θ_1} ⋯ e^{[S_{i-1}]θ_{i-1}}}] S_i,
    J_bi(θ) = [Ad_{e^{-[B_n]θ_n} ⋯ e^{-[B_{i+1}]θ_{i+1}}}] B_i,

and they are related by J_b = [Ad_{T_bs}] J_s. By statics the joint torques
that balance a wrench F_b applied by the end-effector are τ = J_bᵀ F_b.

Joint positions of shape (..., n) give Jacobians of shape (..., 6, n). Each Jacobian
takes a :class:`~robolab.ScrewRobot` or the book's screw axes first
(:mod:`robolab.screw.two_forms`).

Manipulability (section 5.4) measures how well the arm moves (or pushes) in
each direction: :func:`manipulability` is Yoshikawa's √det(J Jᵀ), and
:func:`manipulability_ellipsoid` returns the principal semi-axes of the
velocity or force ellipsoid of any k×n block of a Jacobian, e.g. its linear
3×n part for a 3D drawing.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ..support.checks import as_float_array
from ..support.docstrings import shared_examples
from .kinematics import (
    _body_chain,
    _inverse_adjoints,
    _joint_array,
    _running_products,
    _ScrewChain,
    _space_chain,
)
from .robot import ScrewRobot
from .two_forms import robot_or_arrays

__all__ = [
    "jacobian_body",
    "jacobian_space",
    "manipulability",
    "manipulability_ellipsoid",
]

#: Singular values below this fraction of the largest count as zero (a singular direction).
_SINGULAR_RATIO = 1e-12


@shared_examples
@robot_or_arrays("screw_axes, joint_positions")
def jacobian_space(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Space Jacobian J_s(θ), rows [ω; v], so that V_s = J_s θ̇ (the book's ``JacobianSpace``).

    {forms}

    Parameters
    ----------
    robot : ScrewRobot
        Gives the S_i; in the book's form pass them instead:
    screw_axes : array_like, shape (6, n)
        Screw axes S_i in the space frame at home, as columns.
    joint_positions : array_like, shape (n,) or (..., n)

    Returns
    -------
    J_s : ndarray, shape (6, n) or (..., 6, n)

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import jacobian_space
    >>> jacobian_space(arm, [np.pi / 2, 0.0]).round(12) + 0.0
    array([[0., 0.],
           [0., 0.],
           [1., 1.],
           [0., 1.],
           [0., 0.],
           [0., 0.]])

    The example of the book's ``JacobianSpace``, with its screw axes:

    >>> S = np.array([[0, 0, 1, 0, 0.2, 0.2], [1, 0, 0, 2, 0, 3],
    ...               [0, 1, 0, 0, 2, 1], [1, 0, 0, 0.2, 0.3, 0.4]]).T
    >>> jacobian_space(S, [0.2, 1.1, 0.1, 1.2]).round(6) + 0.0
    array([[ 0.      ,  0.980067, -0.090116,  0.957494],
           [ 0.      ,  0.198669,  0.444554,  0.284876],
           [ 1.      ,  0.      ,  0.891207, -0.045284],
           [ 0.      ,  1.952186, -2.216352, -0.511615],
           [ 0.2     ,  0.436541, -2.437126,  2.775357],
           [ 0.2     ,  2.960266,  3.235731,  2.225124]])
    """
    chain = _space_chain(robot)
    return _jacobian_space(chain, _joint_array(joint_positions, chain.n, "joint_positions"))


def _space_axes_now(chain: _ScrewChain, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[Ad_{P_i}] (n, ..., 6, 6) with P_i = e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i}, and S_i(θ) (n, ..., 6).

    S_i(θ) = [Ad_{P_i}] S_i is column i of the space Jacobian (e^{[S_i]θ_i} fixes S_i).
    """
    adjoints = _running_products(chain.adjoint_exponentials(q))
    columns = chain.screw_axes.T.reshape((chain.n,) + (1,) * (q.ndim - 1) + (6, 1))
    return adjoints, (adjoints @ columns)[..., 0]


def _jacobian_space(chain: _ScrewChain, q: np.ndarray) -> np.ndarray:
    _, axes_now = _space_axes_now(chain, q)
    return np.moveaxis(axes_now, 0, -1)


@shared_examples
@robot_or_arrays("body_screw_axes, joint_positions")
def jacobian_body(robot: ScrewRobot, joint_positions: Any) -> np.ndarray:
    """Body Jacobian J_b(θ), rows [ω; v], so that V_b = J_b θ̇ (the book's ``JacobianBody``).

    {forms}

    Parameters
    ----------
    robot : ScrewRobot
        Gives the B_i; in the book's form pass them instead:
    body_screw_axes : array_like, shape (6, n)
        Screw axes B_i in the end-effector frame at home, as columns.
    joint_positions : array_like, shape (n,) or (..., n)

    Returns
    -------
    J_b : ndarray, shape (6, n) or (..., 6, n)

    Examples
    --------
    {planar_2r_robot}
    >>> from robolab import jacobian_body
    >>> jacobian_body(arm, [0.0, np.pi / 2]).round(12) + 0.0  # the forearm points along y
    array([[0., 0.],
           [0., 0.],
           [1., 1.],
           [1., 0.],
           [1., 1.],
           [0., 0.]])

    The example of the book's ``JacobianBody``, with its body screw axes:

    >>> B = np.array([[0, 0, 1, 0, 0.2, 0.2], [1, 0, 0, 2, 0, 3],
    ...               [0, 1, 0, 0, 2, 1], [1, 0, 0, 0.2, 0.3, 0.4]]).T
    >>> jacobian_body(B, [0.2, 1.1, 0.1, 1.2]).round(6)[:, 0] + 0.0
    array([-0.045284,  0.743593, -0.667097,  2.32586 , -1.443212, -2.066396])
    """
    chain = _body_chain(robot)
    return _jacobian_body(chain, _joint_array(joint_positions, chain.n, "joint_positions"))


def _jacobian_body(body_chain: _ScrewChain, q: np.ndarray) -> np.ndarray:
    # Column i is [Ad_{X_i}]⁻¹ B_i with X_i = e^{[B_i]θ_i} ⋯ e^{[B_n]θ_n}
    # (e^{[B_i]θ_i} fixes B_i): running products from the tip, inverted by index.
    suffixes = _running_products(body_chain.adjoint_exponentials(q)[::-1].swapaxes(-1, -2))
    inverses = _inverse_adjoints(suffixes[::-1].swapaxes(-1, -2))
    columns = body_chain.screw_axes.T.reshape((body_chain.n,) + (1,) * (q.ndim - 1) + (6, 1))
    return np.moveaxis((inverses @ columns)[..., 0], 0, -1)


# --------------------------------------------------------------------------- manipulability


def manipulability(jacobian: Any) -> np.ndarray | float:
    """Yoshikawa's manipulability √det(J Jᵀ) of a k×n Jacobian (or a block of one).

    It is the volume factor of the manipulability ellipsoid, the product of
    the singular values of J; zero at a singularity (and whenever k > n).
    Use the block that matters: all of J_b, its angular rows ``J[:3]`` or
    its linear rows ``J[3:]``.

    Parameters
    ----------
    jacobian : array_like, shape (k, n) or (..., k, n)

    Returns
    -------
    float, or ndarray of shape (...) for a batch

    Examples
    --------
    A planar 2R arm with unit links has linear Jacobian block
    [[-sin θ1 - sin(θ1+θ2), -sin(θ1+θ2)], [cos θ1 + cos(θ1+θ2), cos(θ1+θ2)]],
    whose determinant is sin θ2:

    >>> import numpy as np
    >>> t1, t2 = 0.3, np.pi / 2
    >>> J = [[-np.sin(t1) - np.sin(t1 + t2), -np.sin(t1 + t2)],
    ...      [np.cos(t1) + np.cos(t1 + t2), np.cos(t1 + t2)]]
    >>> round(manipulability(J), 12)
    1.0
    >>> round(manipulability([[1.0, 1.0], [0.0, 0.0]]), 12)  # stretched out: singular
    0.0
    """
    J = as_float_array(jacobian, "jacobian", (None, None), batch=True)
    k, n = J.shape[-2:]
    if k > n:
        value = np.zeros(J.shape[:-2])
    else:
        value = np.prod(np.linalg.svd(J, compute_uv=False), axis=-1)
    return float(value) if value.ndim == 0 else value


def manipulability_ellipsoid(
    jacobian: Any, kind: Literal["velocity", "force"] = "velocity"
) -> tuple[np.ndarray, np.ndarray]:
    """Principal semi-axes of the velocity or force manipulability ellipsoid of a k×n Jacobian.

    The **velocity** ellipsoid {J θ̇ : ‖θ̇‖ ≤ 1} is the set of (end-effector)
    velocities reachable with unit joint speed; its semi-axes point along the
    left singular vectors u_i of J and have lengths σ_i (√ of the eigenvalues
    of J Jᵀ). The **force** ellipsoid {F : ‖Jᵀ F‖ ≤ 1} is the set of wrenches
    (or forces) producible with unit joint torque; same axes, lengths 1/σ_i.
    Velocity and force are dual: the arm moves fast where it pushes weakly.

    For a 3D drawing at the end-effector use the linear block of the
    Jacobian written in the frame you draw in, e.g. ``R_sb @ J_b[3:]`` for
    the velocity of the end-effector origin expressed in the space frame.

    Parameters
    ----------
    jacobian : array_like, shape (k, n) or (..., k, n)
    kind : {"velocity", "force"}

    Returns
    -------
    radii : ndarray, shape (k,) or (..., k)
        Semi-axis lengths. Velocity radii are the singular values in
        decreasing order (0 in singular directions); force radii are their
        reciprocals in the same order (``inf`` in singular directions, where
        the arm can resist any force without torque).
    axes : ndarray, shape (k, k) or (..., k, k)
        Unit directions as columns: ``axes[..., :, i]`` goes with ``radii[..., i]``.

    Examples
    --------
    >>> import numpy as np
    >>> J = np.diag([2.0, 0.5])
    >>> radii, axes = manipulability_ellipsoid(J)
    >>> radii
    array([2. , 0.5])
    >>> np.abs(axes)
    array([[1., 0.],
           [0., 1.]])
    >>> manipulability_ellipsoid(J, kind="force")[0]
    array([0.5, 2. ])
    """
    if kind not in ("velocity", "force"):
        raise ValueError(f"kind must be 'velocity' or 'force', got {kind!r}")
    J = as_float_array(jacobian, "jacobian", (None, None), batch=True)
    k = J.shape[-2]
    U, sigma, _ = np.linalg.svd(J, full_matrices=True)
    radii = np.zeros((*J.shape[:-2], k))
    radii[..., : sigma.shape[-1]] = sigma
    if kind == "force":
        largest = radii.max(axis=-1, keepdims=True)
        singular = radii <= _SINGULAR_RATIO * largest
        with np.errstate(divide="ignore"):
            radii = np.where(singular, np.inf, 1.0 / np.where(singular, 1.0, radii))
    return radii, U
