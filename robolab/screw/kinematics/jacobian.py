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
(:mod:`robolab.screw.book_form`).

Manipulability (MR §5.4) measures how well the arm moves (or pushes) in
each direction: :func:`manipulability` gives Yoshikawa's √det(J Jᵀ) or another
measure by name, and :func:`manipulability_ellipsoid` the principal semi-axes
of the velocity or force ellipsoid of any k×n block of a Jacobian, e.g. its
linear 3×n part for a 3D drawing. Both live in
:mod:`robolab.screw.kinematics.manipulability` and are importable from here too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..book_form import BookArrays, robot_or_arrays
from ..robot import ScrewRobot
from .forward import (
    ScrewChain,
    body_chain_of,
    inverse_adjoints_of,
    joint_array,
    running_products,
    space_chain,
)
from .manipulability import manipulability, manipulability_ellipsoid

__all__ = [
    "jacobian_body",
    "jacobian_space",
    "manipulability",
    "manipulability_ellipsoid",
]


def _jacobian_space_book(screw_axes, joint_positions):
    """:func:`jacobian_space` with the book's arguments, in the book's order."""
    return jacobian_space(
        BookArrays(screw_axes=screw_axes),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_jacobian_space_book)
def jacobian_space(robot: ScrewRobot | BookArrays, joint_positions: Any) -> np.ndarray:
    """Space Jacobian J_s(θ), rows [ω; v], so that V_s = J_s θ̇ (the book's ``JacobianSpace``).

    Call it with a robot, or with the book's arguments::

        jacobian_space(robot, joint_positions)
        jacobian_space(screw_axes, joint_positions)

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
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
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
    chain = space_chain(robot)
    return jacobian_space_kernel(chain, joint_array(joint_positions, chain.n, "joint_positions"))


def _space_axes_now(chain: ScrewChain, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[Ad_{P_i}] (n, ..., 6, 6) with P_i = e^{[S_1]θ_1} ⋯ e^{[S_i]θ_i}, and S_i(θ) (n, ..., 6).

    S_i(θ) = [Ad_{P_i}] S_i is column i of the space Jacobian (e^{[S_i]θ_i} fixes S_i).
    """
    adjoints = running_products(chain.adjoint_exponentials(q))
    columns = chain.screw_axes.T.reshape((chain.n,) + (1,) * (q.ndim - 1) + (6, 1))
    return adjoints, (adjoints @ columns)[..., 0]


def jacobian_space_kernel(chain: ScrewChain, q: np.ndarray) -> np.ndarray:
    _, axes_now = _space_axes_now(chain, q)
    return np.moveaxis(axes_now, 0, -1)


def _jacobian_body_book(body_screw_axes, joint_positions):
    """:func:`jacobian_body` with the book's arguments, in the book's order."""
    return jacobian_body(
        BookArrays(body_screw_axes=body_screw_axes),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_jacobian_body_book)
def jacobian_body(robot: ScrewRobot | BookArrays, joint_positions: Any) -> np.ndarray:
    """Body Jacobian J_b(θ), rows [ω; v], so that V_b = J_b θ̇ (the book's ``JacobianBody``).

    Call it with a robot, or with the book's arguments::

        jacobian_body(robot, joint_positions)
        jacobian_body(body_screw_axes, joint_positions)

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
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
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
    chain = body_chain_of(robot)
    return jacobian_body_kernel(chain, joint_array(joint_positions, chain.n, "joint_positions"))


def jacobian_body_kernel(body_chain: ScrewChain, q: np.ndarray) -> np.ndarray:
    # Column i is [Ad_{X_i}]⁻¹ B_i with X_i = e^{[B_i]θ_i} ⋯ e^{[B_n]θ_n}
    # (e^{[B_i]θ_i} fixes B_i): running products from the tip, inverted by index.
    suffixes = running_products(body_chain.adjoint_exponentials(q)[::-1].swapaxes(-1, -2))
    inverses = inverse_adjoints_of(suffixes[::-1].swapaxes(-1, -2))
    columns = body_chain.screw_axes.T.reshape((body_chain.n,) + (1,) * (q.ndim - 1) + (6, 1))
    return np.moveaxis((inverses @ columns)[..., 0], 0, -1)
