"""The mass matrix M(θ) of an open chain (Modern Robotics, sections 8.2 and 8.4).

M(θ) is the matrix of the kinetic energy, K = ½ θ̇ᵀ M(θ) θ̇, and of the equations of
motion τ = M(θ) θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ(θ) F_tip. Two algorithms give it:

* the composite-rigid-body algorithm (:func:`mass_matrix_crba`): with G_k(θ) the
  spatial inertia of link k in {s} and Gc_j = Σ_{k≥j} G_k(θ) the inertia of links j..n
  welded together, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j, S_i(θ) the columns of the space
  Jacobian. :func:`composite_rigid_body_algorithm` is that loop as written;
  :func:`mass_matrix_crba` gives its numbers (to rounding) by the engines of
  :mod:`robolab.screw._fast`, for one state or a batch;
* the book's way (Modern Robotics §8.5, :func:`mass_matrix_rnea`): column i of M is the torque
  needed for a unit acceleration of joint i alone, one inverse-dynamics call per column.

Arguments as in :mod:`robolab.screw.dynamics.rnea`: the book's ``link_frames``,
``spatial_inertias`` and ``screw_axes``, or a :class:`~robolab.ScrewRobot` in their place.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._fast import space_frame
from .._fast.space_frame import one_state_floats, one_state_mass_matrix
from ..book_form import BookArrays, robot_or_arrays
from ..kinematics.forward import joint_array
from ..robot import ScrewRobot
from .model import DynamicsModel, KinematicState, model_of

__all__ = ["mass_matrix_crba", "mass_matrix_rnea"]


def _mass_matrix_crba_book(joint_positions, link_frames, spatial_inertias, screw_axes):
    """:func:`mass_matrix_crba` with the book's arguments, in the book's order."""
    return mass_matrix_crba(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_mass_matrix_crba_book)
def mass_matrix_crba(robot: ScrewRobot | BookArrays, joint_positions: ArrayLike) -> np.ndarray:
    """Mass matrix M(θ) by the composite-rigid-body algorithm (the book's ``MassMatrix``).

    With G_k(θ) the spatial inertia of link k in {s}, Gc_j = Σ_{k≥j} G_k(θ)
    the composite inertia of links j..n, and S_i(θ) the columns of the space
    Jacobian, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j, and M is symmetric. That loop
    is :func:`composite_rigid_body_algorithm`; this function gives its numbers (to
    rounding) by the engines of :mod:`robolab.screw._fast`: code generated for the robot
    for one state, the same sums for all links at once for a few states, and
    structure-of-arrays kernels for large batches.

    Call it with a robot, or with the book's arguments::

        mass_matrix_crba(robot, joint_positions)
        mass_matrix_crba(joint_positions, link_frames, spatial_inertias, screw_axes)

    Educational note: the book builds M with n inverse-dynamics calls, one
    column per unit joint acceleration; that form is :func:`mass_matrix_rnea`
    and agrees with this one to rounding. CRBA needs no velocities or
    accelerations and shares one pass over the chain for all columns.

    Parameters
    ----------
    robot : ScrewRobot
        Gives the link frames, spatial inertias and screw axes; in the book's
        form pass them instead, as in :func:`~robolab.inverse_dynamics_rnea`.
    joint_positions : array_like, shape (n,) or (..., n)

    Returns
    -------
    M : ndarray, shape (n, n) or (..., n, n)
        Symmetric; positive definite unless links without mass or inertia
        leave some joint motion without inertia.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import mass_matrix_crba
    >>> mass_matrix_crba(arm, [0.0, np.pi / 2]).round(12)  # m2 L1 L2 cos θ2 terms vanish
    array([[3., 1.],
           [1., 1.]])

    The book's three-link example, with its arrays:

    >>> import numpy as np
    >>> def transform(R, p):
    ...     T = np.eye(4); T[:3, :3] = R; T[:3, 3] = p; return T
    >>> Ry = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
    >>> link_frames = [transform(np.eye(3), [0, 0, 0.089159]),
    ...                transform(Ry, [0.28, 0.13585, 0]),
    ...                transform(np.eye(3), [0, -0.1197, 0.395]),
    ...                transform(np.eye(3), [0, 0, 0.14225])]
    >>> spatial_inertias = [np.diag([0.010267, 0.010267, 0.00666, 3.7, 3.7, 3.7]),
    ...                     np.diag([0.22689, 0.22689, 0.0151074, 8.393, 8.393, 8.393]),
    ...                     np.diag([0.0494433, 0.0494433, 0.004095, 2.275, 2.275, 2.275])]
    >>> screw_axes = np.array([[1, 0, 1, 0, 1, 0], [0, 1, 0, -0.089, 0, 0],
    ...                        [0, 1, 0, -0.089, 0, 0.425]]).T
    >>> mass_matrix_crba([0.1, 0.1, 0.1], link_frames, spatial_inertias, screw_axes)
    array([[ 2.25433380e+01, -3.07146754e-01, -7.18426391e-03],
           [-3.07146754e-01,  1.96850717e+00,  4.32157368e-01],
           [-7.18426391e-03,  4.32157368e-01,  1.91630858e-01]])
    """
    model = model_of(robot)
    values = one_state_floats(model.n, joint_positions)
    if values is not None:  # one state, float64 and finite: checked
        return one_state_mass_matrix(model, values)
    q = joint_array(joint_positions, model.n, "joint_positions")
    return space_frame.mass_matrix(model, q)


def composite_rigid_body_algorithm(model: DynamicsModel, q: np.ndarray) -> np.ndarray:
    """M(θ) by the composite-rigid-body loop, as written: M_ij = S_iᵀ Gc_j S_j for i ≤ j.

    Everything in the space frame {s}, for θ of shape (..., n) (checked):
    S_i(θ) = [Ad_{P_i}] S_i is joint i's screw axis at θ (P_i = e^{[S_1]θ_1} ⋯
    e^{[S_i]θ_i}), and G_k(θ) = [Ad_{P_k⁻¹}]ᵀ G'_k [Ad_{P_k⁻¹}] link k's spatial
    inertia, G'_k being the inertia in the frame {k'} of link k that coincides with {s}
    at home. From the tip inwards, Gc_j = G_j(θ) + Gc_{j+1} is the inertia of links
    j..n welded together, and Gc_j S_j(θ) the wrench they need for a unit acceleration
    of joint j; its power on joint i ≤ j is M_ij = M_ji.

    :func:`mass_matrix_crba` gives the same numbers (to rounding) by the engines of
    :mod:`robolab.screw._fast`; ``tests/screw/_fast/test_reproduces.py`` compares them.

    Examples
    --------
    >>> import numpy as np
    >>> import robolab
    >>> from robolab.screw.dynamics.model import robot_model
    >>> arm = robolab.load_robot("planar2r")
    >>> M = composite_rigid_body_algorithm(robot_model(arm), np.array([0.0, 0.5]))
    >>> bool(np.allclose(M, robolab.mass_matrix_crba(arm, [0.0, 0.5]), atol=1e-12))
    True
    """
    state = KinematicState.at(model, q)
    S = state.axes  # (n, ..., 6)
    to_link = state.inverse_adjoints  # [Ad_{P_k⁻¹}]
    inertias = to_link.swapaxes(-1, -2) @ model.inertia_shape(state.batch_ndim) @ to_link
    n = model.n
    M = np.empty((*q.shape, n))
    composite = np.zeros(inertias.shape[1:])
    for j in range(n - 1, -1, -1):
        composite = composite + inertias[j]  # Gc_j
        wrench = (composite @ S[j][..., None])[..., 0]  # Gc_j S_j
        for i in range(j + 1):
            M[..., i, j] = M[..., j, i] = np.einsum("...a,...a->...", S[i], wrench)
    return M


def _mass_matrix_rnea_book(joint_positions, link_frames, spatial_inertias, screw_axes):
    """:func:`mass_matrix_rnea` with the book's arguments, in the book's order."""
    return mass_matrix_rnea(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_mass_matrix_rnea_book)
def mass_matrix_rnea(robot: ScrewRobot | BookArrays, joint_positions: ArrayLike) -> np.ndarray:
    """Mass matrix M(θ) the book's way: column i is the torque for θ̈ = e_i (Modern Robotics §8.5).

    Calls inverse dynamics n times with zero velocity, zero gravity, no tip
    wrench and a unit acceleration of one joint. Slower than
    :func:`mass_matrix_crba` (n Newton–Euler passes instead of one), and
    equal to it to rounding; it shows what a column of M means.
    Parameters and returns as in :func:`mass_matrix_crba`.

    Call it with a robot, or with the book's arguments::

        mass_matrix_rnea(robot, joint_positions)
        mass_matrix_rnea(joint_positions, link_frames, spatial_inertias, screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import mass_matrix_rnea
    >>> mass_matrix_rnea(arm, [0.0, 0.0])
    array([[5., 2.],
           [2., 1.]])
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> mass_matrix_rnea([0.0, 0.0], [x, x, np.eye(4)], G, S)  # the same arm, the book's way
    array([[5., 2.],
           [2., 1.]])
    """
    model = model_of(robot)
    q = joint_array(joint_positions, model.n, "joint_positions")
    # Column i of M(θ) is τ for θ̈ = e_i with zero velocity, gravity and tip wrench.
    columns = []
    for i in range(model.n):
        unit_acceleration = np.zeros(q.shape)
        unit_acceleration[..., i] = 1.0
        columns.append(space_frame.inverse_dynamics(model, q, None, unit_acceleration, None, None))
    return np.stack(columns, axis=-1)
