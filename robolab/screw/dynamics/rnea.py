"""Dynamics of open chains (Modern Robotics, chapter 8): inverse dynamics and the mass matrix.

The equations of motion of an n-joint open chain are (eq. 8.1, 8.13)

    τ = M(θ) θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ(θ) F_tip,

with M the mass matrix, c the Coriolis and centripetal (velocity-quadratic)
terms, g the gravity torques and F_tip the wrench the end-effector applies to
the environment, written in the end-effector frame {n+1}. The functions here
take the arrays of the book's library: ``link_frames`` M_{i-1,i} (n+1
transforms between centre-of-mass frames, the last to the end-effector),
``spatial_inertias`` G_i (n 6×6 matrices [[I_c, 0], [0, m·1]] in the [ω; v]
ordering) and ``screw_axes`` S_i (6×n, space frame, as columns), in the
book's argument order, or a :class:`~robolab.ScrewRobot` in their place:
``inverse_dynamics_rnea(robot, q, qd, qdd)`` takes the arrays and, by default, the
gravity from the robot (see :mod:`robolab.screw.book_form`). The kernels are in
:mod:`robolab.screw.dynamics.kernel`.

Two forms of each algorithm
---------------------------
* :func:`inverse_dynamics_rnea_textbook` is the book's recursive Newton–Euler
  algorithm (section 8.3.2) line by line: twists, accelerations and wrenches
  in the link frames {i}, carried between neighbours by [Ad_{T_{i,i-1}}].
* :func:`inverse_dynamics_rnea` computes the same torques with the
  recursions written as running sums: in the space frame {s} every link's
  twist is a sum of joint contributions, V_i = Σ_{j≤i} S_j(θ) θ̇_j, its
  acceleration likewise, and the torque of joint i balances the wrenches of
  the links beyond it, a sum from the tip. NumPy then handles all links at
  once; only the product of exponentials along the chain is a loop. It
  accepts a batch of states, ``joint_positions`` of shape (..., n); batches of
  48 states or more go to the structure-of-arrays kernel of
  :mod:`robolab.screw._fast.batched` (Featherstone's recursions in joint-aligned
  frames, many states per NumPy call).
* :func:`mass_matrix_crba` is the composite-rigid-body algorithm: with
  G_k(θ) the spatial inertia of link k and Gc_j = Σ_{k≥j} G_k(θ) the inertia
  of links j..n welded together, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j.
  :func:`mass_matrix_rnea` is the book's way (section 8.2): column i of M is
  the torque needed for a unit acceleration of joint i alone, one
  inverse-dynamics call per column.

Conventions: twists [ω; v], wrenches [m; f], gravity a 3-vector in {s}
(e.g. (0, 0, -9.81)); the base is given the fictitious acceleration -g, so
gravity enters through the accelerations as in the book.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...spatial.rigid_body_motions import (
    ad_unchecked,
    adjoint_representation_unchecked,
    matrix_exp6_unchecked,
    transform_inv_unchecked,
    vec_to_se3_unchecked,
)
from ...support.arguments import as_float_array
from ..book_form import BookArrays, robot_or_arrays
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot
from .kernel import (
    DynamicsModel,
    KinematicState,
    gravity_of,
    inverse_dynamics_kernel,
    kinetic_energy_kernel,
    mass_matrix_kernel,
    model_of,
    one_state_floats,
    potential_energy_kernel,
    tip_of,
    tip_wrench_array,
)

__all__ = [
    "end_effector_forces",
    "gravity_forces",
    "inverse_dynamics_rnea",
    "inverse_dynamics_rnea_textbook",
    "kinetic_energy",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "potential_energy",
    "velocity_quadratic_forces",
]

#: The book's argument list of the dynamics functions, after the joint arrays.
BOOK_ARRAYS = "link_frames, spatial_inertias, screw_axes"
#: The book's argument list of inverse dynamics (and, with joint_torques, forward dynamics).
BOOK_INVERSE_DYNAMICS = (
    f"joint_positions, joint_velocities, joint_accelerations, gravity, tip_wrench, {BOOK_ARRAYS}"
)


# --------------------------------------------------------------------------- the book's functions


def _inverse_dynamics_rnea_book(
    joint_positions,
    joint_velocities,
    joint_accelerations,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`inverse_dynamics_rnea` with the book's arguments, in the book's order."""
    return inverse_dynamics_rnea(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_inverse_dynamics_rnea_book)
def inverse_dynamics_rnea(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_accelerations: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> np.ndarray:
    """Joint torques τ = M(θ)θ̈ + c(θ, θ̇) + g(θ) + J_bᵀ F_tip, by Newton–Euler in the space frame.

    The book's ``InverseDynamics``, computed in {s} with running sums (see the
    module notes), for one state or a batch.

    Call it with a robot, or with the book's arguments::

        inverse_dynamics_rnea(robot, joint_positions, joint_velocities,
                              joint_accelerations)
        inverse_dynamics_rnea(joint_positions, joint_velocities, joint_accelerations,
                              gravity, tip_wrench, link_frames, spatial_inertias,
                              screw_axes)

    Educational note: :func:`inverse_dynamics_rnea_textbook` is the book's
    link-frame recursion line by line, and gives the same numbers. Both exist
    because they answer different needs: the textbook form is to be read next
    to the book (one state, loops over the links), this one is to be used (all
    links at once, batches, the robot's constants computed once).

    Parameters
    ----------
    robot : ScrewRobot
        Gives the link frames, spatial inertias, screw axes and gravity; in
        the book's form pass them instead (gravity and tip wrench then required):
    joint_positions, joint_velocities, joint_accelerations : array_like, shape (n,) or (..., n)
        θ, θ̇, θ̈ (a batch of states gives a batch of torques).
    gravity : array_like, shape (3,)
        Gravitational acceleration in {s}, e.g. (0, 0, -9.8); by default the robot's.
    tip_wrench : array_like, shape (6,) or (..., 6)
        F_tip = [m; f] applied by the end-effector, written in frame {n+1};
        by default zero.
    link_frames : sequence of n+1 array_like, shape (4, 4)
        M_{i-1,i}, the pose of centre-of-mass frame {i} in {i-1} at home.
    spatial_inertias : sequence of n array_like, shape (6, 6)
        G_i in frame {i}.
    screw_axes : array_like, shape (6, n)
        S_i in {s} at home, as columns.

    Returns
    -------
    joint_torques : ndarray, shape (n,) or (..., n)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import inverse_dynamics_rnea
    >>> inverse_dynamics_rnea(arm, [0.0, 0.0], [0.0, 0.0], [1.0, 0.0])  # M[:, 0] + g
    array([34.43, 11.81])
    >>> inverse_dynamics_rnea(arm, [[0.0, 0.0], [np.pi / 2, 0.0]], np.zeros((2, 2)),
    ...                       np.zeros((2, 2))).round(12) + 0.0  # a batch of two states
    array([[29.43,  9.81],
           [ 0.  ,  0.  ]])

    The book's three-link example (the first three links of the UR5), with its arrays:

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
    >>> inverse_dynamics_rnea([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1], [0, 0, -9.8],
    ...                       [1, 1, 1, 1, 1, 1], link_frames, spatial_inertias, screw_axes)
    array([ 74.69616155, -33.06766016,  -3.23057314])
    """
    model = model_of(robot)
    values = one_state_floats(model.n, joint_positions, joint_velocities, joint_accelerations)
    if values is not None and tip_wrench is None:  # one checked state: the generated code
        values += gravity_of(robot, gravity).tolist()
        torques = model.compiled.call((True, True, True, False), values)
        if torques is not None:
            return torques
    q, qd, qdd = joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )  # fmt: skip
    return inverse_dynamics_kernel(
        model, q, qd, qdd, gravity_of(robot, gravity), tip_of(q, tip_wrench)
    )


def _inverse_dynamics_rnea_textbook_book(
    joint_positions,
    joint_velocities,
    joint_accelerations,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`inverse_dynamics_rnea_textbook` with the book's arguments, in the book's order."""
    return inverse_dynamics_rnea_textbook(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_inverse_dynamics_rnea_textbook_book)
def inverse_dynamics_rnea_textbook(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_accelerations: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> np.ndarray:
    """Joint torques by the book's recursive Newton–Euler algorithm, in the link frames.

    Section 8.3.2 of the book, written to be read next to it (one
    configuration at a time; :func:`inverse_dynamics_rnea` is the fast,
    batched form and agrees to rounding). With M_i = M_01 ⋯ M_{i-1,i} the home
    pose of frame {i}:

    Forward iterations, i = 1..n (V_0 = 0, V̇_0 = [0; -g]):

        A_i = [Ad_{M_i⁻¹}] S_i                              screw axis of joint i in {i}
        T_{i,i-1} = e^{-[A_i]θ_i} M_{i-1,i}⁻¹
        V_i = [Ad_{T_{i,i-1}}] V_{i-1} + A_i θ̇_i
        V̇_i = [Ad_{T_{i,i-1}}] V̇_{i-1} + [ad_{V_i}] A_i θ̇_i + A_i θ̈_i

    Backward iterations, i = n..1 (F_{n+1} = F_tip, T_{n+1,n} = M_{n,n+1}⁻¹):

        F_i = [Ad_{T_{i+1,i}}]ᵀ F_{i+1} + G_i V̇_i - [ad_{V_i}]ᵀ (G_i V_i)
        τ_i = F_iᵀ A_i

    Parameters and returns are those of :func:`inverse_dynamics_rnea` for a
    single state (shape (n,)).

    Call it with a robot, or with the book's arguments::

        inverse_dynamics_rnea_textbook(robot, joint_positions, joint_velocities,
                                       joint_accelerations)
        inverse_dynamics_rnea_textbook(joint_positions, joint_velocities,
                                       joint_accelerations, gravity, tip_wrench,
                                       link_frames, spatial_inertias, screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import inverse_dynamics_rnea, inverse_dynamics_rnea_textbook
    >>> inverse_dynamics_rnea_textbook(arm, [0.0, 0.0], [0.0, 0.0], [1.0, 0.0])
    array([34.43, 11.81])
    >>> S = [[0], [0], [1], [0], [0], [0]]      # one revolute joint about z, the book's way
    >>> G = [np.diag([0, 0, 0, 2.0, 2.0, 2.0])]  # a point mass 1 m out along x
    >>> inverse_dynamics_rnea_textbook([0.0], [0.0], [3.0], [0, 0, -9.81],
    ...                                np.zeros(6), [x, np.eye(4)], G, S)  # m r² θ̈
    array([6.])
    """
    model = model_of(robot)
    n = model.n
    theta = joint_array(joint_positions, n, "joint_positions", batch=False)
    dtheta = joint_array(joint_velocities, n, "joint_velocities", batch=False)
    ddtheta = joint_array(joint_accelerations, n, "joint_accelerations", batch=False)
    g = gravity_of(robot, gravity)
    F = np.zeros(6) if tip_wrench is None else as_float_array(tip_wrench, "tip_wrench", (6,))
    M, G, S = model.arrays  # M_{i-1,i}, G_i, S_i as checked float arrays

    Mi = np.eye(4)
    A = np.zeros((n, 6))
    AdT = np.zeros((n + 1, 6, 6))
    V = np.zeros((n + 1, 6))
    Vdot = np.zeros((n + 1, 6))
    Vdot[0, 3:] = -g
    AdT[n] = adjoint_representation_unchecked(transform_inv_unchecked(M[n]))
    for i in range(n):
        Mi = Mi @ M[i]
        A[i] = adjoint_representation_unchecked(transform_inv_unchecked(Mi)) @ S[:, i]
        AdT[i] = adjoint_representation_unchecked(
            matrix_exp6_unchecked(vec_to_se3_unchecked(A[i] * -theta[i]))
            @ transform_inv_unchecked(M[i])
        )
        V[i + 1] = AdT[i] @ V[i] + A[i] * dtheta[i]
        Vdot[i + 1] = (
            AdT[i] @ Vdot[i] + A[i] * ddtheta[i] + ad_unchecked(V[i + 1]) @ A[i] * dtheta[i]
        )
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        F = AdT[i + 1].T @ F + G[i] @ Vdot[i + 1] - ad_unchecked(V[i + 1]).T @ (G[i] @ V[i + 1])
        tau[i] = F @ A[i]
    return tau


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
    Jacobian, M_ij = S_i(θ)ᵀ Gc_j S_j(θ) for i ≤ j, and M is symmetric.

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
        form pass them instead, as in :func:`inverse_dynamics_rnea`.
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
    if values is not None:  # one checked state: the generated code
        M = model.compiled.call(("mass",), values)
        if M is not None:
            return M
    return mass_matrix_kernel(model, joint_array(joint_positions, model.n, "joint_positions"))


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
    """Mass matrix M(θ) the book's way: column i is the torque for θ̈ = e_i (section 8.2).

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
    return _mass_matrix_rnea(model, joint_array(joint_positions, model.n, "joint_positions"))


def _mass_matrix_rnea(model: DynamicsModel, q: np.ndarray) -> np.ndarray:
    """Column i of M(θ) is τ for θ̈ = e_i with zero velocity, gravity and tip wrench."""
    columns = []
    for i in range(model.n):
        unit_acceleration = np.zeros(q.shape)
        unit_acceleration[..., i] = 1.0
        columns.append(inverse_dynamics_kernel(model, q, None, unit_acceleration, None, None))
    return np.stack(columns, axis=-1)


def _velocity_quadratic_forces_book(
    joint_positions, joint_velocities, link_frames, spatial_inertias, screw_axes
):
    """:func:`velocity_quadratic_forces` with the book's arguments, in the book's order."""
    return velocity_quadratic_forces(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
    )


@robot_or_arrays(_velocity_quadratic_forces_book)
def velocity_quadratic_forces(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, joint_velocities: ArrayLike
) -> np.ndarray:
    """Coriolis and centripetal torques c(θ, θ̇) (the book's ``VelQuadraticForces``).

    Inverse dynamics with zero acceleration, zero gravity and no tip wrench;
    c is quadratic in θ̇ (c(θ, kθ̇) = k² c(θ, θ̇)).

    Call it with a robot, or with the book's arguments::

        velocity_quadratic_forces(robot, joint_positions, joint_velocities)
        velocity_quadratic_forces(joint_positions, joint_velocities, link_frames,
                                  spatial_inertias, screw_axes)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, ``link_frames, spatial_inertias, screw_axes``
        after the joint arrays, as in :func:`inverse_dynamics_rnea`.
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)

    Returns
    -------
    c : ndarray, shape (n,) or (..., n)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import velocity_quadratic_forces
    >>> velocity_quadratic_forces(arm, [0.0, np.pi / 2], [1.0, 0.0]).round(12) + 0.0
    array([0., 1.])
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> c = velocity_quadratic_forces([0.0, np.pi / 2], [1.0, 0.0], [x, x, np.eye(4)], G, S)
    >>> c.round(12) + 0.0  # m2 L1 L2 θ̇1² sin θ2 on joint 2 (book, eq. 8.9)
    array([0., 1.])
    """
    model = model_of(robot)
    q, qd = joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    return inverse_dynamics_kernel(model, q, qd, None, None, None)


def _gravity_forces_book(joint_positions, gravity, link_frames, spatial_inertias, screw_axes):
    """:func:`gravity_forces` with the book's arguments, in the book's order."""
    return gravity_forces(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_gravity_forces_book)
def gravity_forces(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, gravity: ArrayLike | None = None
) -> np.ndarray:
    """Gravity torques g(θ) that hold the arm still (the book's ``GravityForces``).

    Inverse dynamics with zero velocity and acceleration and no tip wrench;
    g(θ) = ∂P/∂θ with P the potential energy (see :func:`potential_energy`).

    Call it with a robot, or with the book's arguments::

        gravity_forces(robot, joint_positions)
        gravity_forces(joint_positions, gravity, link_frames, spatial_inertias,
                       screw_axes)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, ``gravity, link_frames, spatial_inertias,
        screw_axes`` after the joint positions.
    joint_positions : array_like, shape (n,) or (..., n)
    gravity : array_like, shape (3,)
        By default the robot's.

    Returns
    -------
    g : ndarray, shape (n,) or (..., n)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import gravity_forces
    >>> gravity_forces(arm, [0.0, 0.0])
    array([29.43,  9.81])
    >>> gravity_forces(arm, [0.0, 0.0], gravity=[0, 0, -9.81]) + 0.0  # lying on a table
    array([0., 0.])
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> gravity_forces([0.0, 0.0], [0, -9.81, 0], [x, x, np.eye(4)], G, S)  # the book's way
    array([29.43,  9.81])
    """
    model = model_of(robot)
    q = joint_array(joint_positions, model.n, "joint_positions")
    return inverse_dynamics_kernel(model, q, None, None, gravity_of(robot, gravity), None)


def _end_effector_forces_book(
    joint_positions, tip_wrench, link_frames, spatial_inertias, screw_axes
):
    """:func:`end_effector_forces` with the book's arguments, in the book's order."""
    return end_effector_forces(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_end_effector_forces_book)
def end_effector_forces(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, tip_wrench: ArrayLike
) -> np.ndarray:
    """Joint torques J_bᵀ(θ) F_tip that create the tip wrench alone (``EndEffectorForces``).

    Call it with a robot, or with the book's arguments::

        end_effector_forces(robot, joint_positions, tip_wrench)
        end_effector_forces(joint_positions, tip_wrench, link_frames, spatial_inertias,
                            screw_axes)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, ``link_frames, spatial_inertias, screw_axes``
        after the tip wrench.
    joint_positions : array_like, shape (n,) or (..., n)
    tip_wrench : array_like, shape (6,) or (..., 6)
        F_tip = [m; f] applied by the end-effector, in frame {n+1}.

    Returns
    -------
    joint_torques : ndarray, shape (n,) or (..., n)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import end_effector_forces
    >>> end_effector_forces(arm, [0.0, 0.0], [0, 0, 0, 0, 10.0, 0])  # push 10 N along y
    array([20., 10.])
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> end_effector_forces([0.0, 0.0], [0, 0, 0, 0, 1.0, 0], [x, x, np.eye(4)], G, S)
    array([2., 1.])
    """
    model = model_of(robot)
    q = joint_array(joint_positions, model.n, "joint_positions")
    return inverse_dynamics_kernel(
        model, q, None, None, None, tip_wrench_array(tip_wrench, q.shape[:-1])
    )


def _kinetic_energy_book(
    joint_positions, joint_velocities, link_frames, spatial_inertias, screw_axes
):
    """:func:`kinetic_energy` with the book's arguments, in the book's order."""
    return kinetic_energy(
        BookArrays(
            link_frames=link_frames, spatial_inertias=spatial_inertias, screw_axes=screw_axes
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
    )


@robot_or_arrays(_kinetic_energy_book)
def kinetic_energy(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, joint_velocities: ArrayLike
) -> np.ndarray | float:
    """Kinetic energy K = ½ θ̇ᵀ M(θ) θ̇ = ½ Σ_i V_iᵀ G_i V_i of the links.

    Parameters as in :func:`velocity_quadratic_forces`; returns a float, or an
    ndarray of shape (...) for a batch.

    Call it with a robot, or with the book's arguments::

        kinetic_energy(robot, joint_positions, joint_velocities)
        kinetic_energy(joint_positions, joint_velocities, link_frames, spatial_inertias,
                       screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import kinetic_energy
    >>> kinetic_energy(arm, [0.0, 0.0], [1.0, 0.0])  # ½ (1·1² + 1·2²)
    2.5
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> kinetic_energy([0.0, 0.0], [1.0, 0.0], [x, x, np.eye(4)], G, S)  # the book's way
    2.5
    """
    model = model_of(robot)
    q, qd = joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    energy = kinetic_energy_kernel(model, KinematicState(model, q), qd)
    return float(energy) if energy.ndim == 0 else energy


def _potential_energy_book(joint_positions, gravity, link_frames, spatial_inertias, screw_axes):
    """:func:`potential_energy` with the book's arguments, in the book's order."""
    return potential_energy(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
    )


@robot_or_arrays(_potential_energy_book)
def potential_energy(
    robot: ScrewRobot | BookArrays, joint_positions: ArrayLike, gravity: ArrayLike | None = None
) -> np.ndarray | float:
    """Potential energy P = -Σ_i m_i gᵀ r_ci of the links in the gravity field.

    r_ci is the position of link i's centre of mass in {s}; the zero of P is
    at the origin of {s} (see ``docs/conventions.md``).
    Parameters as in :func:`gravity_forces`; returns a float, or an ndarray of
    shape (...) for a batch.

    Call it with a robot, or with the book's arguments::

        potential_energy(robot, joint_positions)
        potential_energy(joint_positions, gravity, link_frames, spatial_inertias,
                         screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import potential_energy
    >>> round(potential_energy(arm, [np.pi / 2, 0.0]), 12)  # standing straight up
    29.43
    >>> import numpy as np
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> S = [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]]
    >>> G = [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2
    >>> round(potential_energy([np.pi / 2, 0.0], [0, -9.81, 0], [x, x, np.eye(4)], G, S), 12)
    29.43
    """
    model = model_of(robot)
    q = joint_array(joint_positions, model.n, "joint_positions")
    energy = potential_energy_kernel(model, q, gravity_of(robot, gravity))
    return float(energy) if energy.ndim == 0 else energy
