"""Forward dynamics (Modern Robotics, MR §8.5): joint accelerations from torques.

Forward dynamics solves the equations of motion for θ̈:

    M(θ) θ̈ = τ - c(θ, θ̇) - g(θ) - J_bᵀ(θ) F_tip.

Three algorithms give the same answer (to rounding):

* :func:`forward_dynamics_crba`: the mass matrix by the composite-rigid-body
  algorithm, the right-hand side by one Newton–Euler pass with θ̈ = 0, then a
  Cholesky factorisation (which also proves M positive definite). Fastest for
  the small n of robot arms, and batched.
* :func:`forward_dynamics_aba`: Featherstone's articulated-body algorithm,
  O(n), never forming M. Written in the space frame {s}, where the
  articulated inertias of the links beyond a joint simply add up (no
  transforms between link frames are needed).
* :func:`forward_dynamics_rnea`: the book's way, line by line: M from n
  inverse-dynamics calls (:func:`~robolab.screw.dynamics.mass_matrix.mass_matrix_rnea`), c, g
  and J_bᵀF_tip from one call each, and θ̈ = M⁻¹(τ - c - g - J_bᵀF_tip).

A robot with joint friction (``ScrewRobot(..., friction=JointFriction(...))``, see
:mod:`robolab.screw.friction`) has its friction torques τ_f(θ̇) subtracted from τ by all
three: M θ̈ = τ - τ_f(θ̇) - c - g - J_bᵀF_tip. The book's arrays carry no friction.

A mass matrix that is singular at θ (links without mass or inertia that a
joint would have to move) makes forward dynamics undefined: all three raise
``ValueError`` naming the joint, instead of returning NaN or infinity.

Arguments follow the book's library: joint arrays of shape (n,) or (..., n),
gravity (3,) in {s}, the tip wrench [m; f] in the end-effector frame {n+1},
then ``link_frames``, ``spatial_inertias``, ``screw_axes`` (see
:mod:`robolab.screw.dynamics.rnea`); or a :class:`~robolab.ScrewRobot` first in place of
the arrays, gravity then defaulting to the robot's and the tip wrench to zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._fast import space_frame
from .._fast.space_frame import one_state_floats
from ..book_form import BookArrays, robot_or_arrays
from ..friction import JointFriction
from ..kinematics.forward import joint_arrays
from ..robot import ScrewRobot
from .mass_matrix import mass_matrix_rnea
from .model import (
    DynamicsModel,
    ad_of,
    gravity_of,
    joint_first,
    model_of,
    tip_of,
    tip_wrench_space,
)
from .rnea import end_effector_forces, gravity_forces, velocity_quadratic_forces

__all__ = [
    "forward_dynamics_aba",
    "forward_dynamics_crba",
    "forward_dynamics_rnea",
]

#: A Cholesky pivot d with d² below this fraction of the largest diagonal entry of M is zero.
_SINGULAR_PIVOT = 1e-12


def _singular_error(index: tuple[int, ...], joint: int, q: np.ndarray) -> ValueError:
    where = f" (batch index {index})" if index else ""
    values = ", ".join(f"{x:.6g}" for x in q[index])
    return ValueError(
        f"the mass matrix M(θ) is singular at joint_positions [{values}]{where}: joint "
        f"{joint + 1} would move no mass or inertia, so its acceleration is undefined; "
        "give the links it moves a mass or rotational inertia"
    )


def solve_mass_matrix(M: np.ndarray, rhs: np.ndarray, q: np.ndarray) -> np.ndarray:
    """θ̈ = M⁻¹ rhs for M of shape (..., n, n), with a clear error where M is singular.

    M = L Lᵀ by Cholesky: a pivot of L with d² ≤ 1e-12 max diag(M) means that some joint
    moves no mass. A large batch (:func:`~robolab.screw._fast.space_frame.is_large`) is
    solved by the batched factorisation of :mod:`robolab.screw._fast.batched`.
    """
    if space_frame.is_large(q):
        solution = space_frame.solve_mass_matrix(M, rhs, q, _SINGULAR_PIVOT)
        if isinstance(solution, tuple):  # (batch index..., joint) of a singular M
            raise _singular_error(solution[:-1], solution[-1], q)
        return solution
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        L = None
    if L is not None:
        pivots = np.diagonal(L, axis1=-2, axis2=-1)
        scale = np.diagonal(M, axis1=-2, axis2=-1).max(axis=-1, keepdims=True)
        tiny = pivots * pivots <= _SINGULAR_PIVOT * scale
        if not tiny.any():
            return np.linalg.solve(M, rhs[..., None])[..., 0]
    # Find the first singular matrix and its first zero pivot, to say which joint.
    for index in np.ndindex(M.shape[:-2]):
        matrix = M[index]
        scale = float(np.diagonal(matrix).max())
        for k in range(1, matrix.shape[0] + 1):
            eigenvalues = np.linalg.eigvalsh(matrix[:k, :k])
            if eigenvalues[0] <= _SINGULAR_PIVOT * max(scale, 1e-300):
                raise _singular_error(index, k - 1, q)
    raise _singular_error((), M.shape[-1] - 1, q)  # pragma: no cover - tiny pivot only


def forward_inputs(
    robot: ScrewRobot | BookArrays,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torques: Any,
    gravity: Any,
    tip_wrench: Any,
) -> tuple[DynamicsModel, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """The checked arguments of a forward-dynamics call: (model, θ, θ̇, τ, gravity, F_tip)."""
    model = model_of(robot)
    q, qd, tau = joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities, joint_torques=joint_torques
    )
    return model, q, qd, tau, gravity_of(robot, gravity), tip_of(q, tip_wrench)


def friction_of(robot: ScrewRobot | BookArrays) -> JointFriction | None:
    """The robot's joint friction, or None (none, or the book's arrays, which carry none)."""
    friction = getattr(robot, "friction", None)
    return None if friction is None or friction.is_zero() else friction


def minus_friction(tau: np.ndarray, qd: np.ndarray, friction: JointFriction | None) -> np.ndarray:
    """τ - τ_f(θ̇): the torques left to accelerate the links."""
    return tau if friction is None else tau - friction.torques(qd)


def forward_dynamics_crba_kernel(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """θ̈ of checked arrays: M(θ) and the bias τ(θ, θ̇, 0) by the engines, M θ̈ = τ - bias.

    One state goes to the code generated for the robot, which also solves; where it
    cannot (M singular, a number not finite) the steps below say why.
    """
    if q.ndim == 1:
        accelerations = model.compiled.forward_dynamics(q, qd, tau, gravity, tip_wrench)
        if accelerations is not None:
            return accelerations
    M, bias = space_frame.mass_matrix_and_inverse_dynamics(model, q, qd, None, gravity, tip_wrench)
    return solve_mass_matrix(M, tau - bias, q)


def _forward_dynamics_crba_book(
    joint_positions,
    joint_velocities,
    joint_torques,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`forward_dynamics_crba` with the book's arguments, in the book's order."""
    return forward_dynamics_crba(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_torques=joint_torques,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_forward_dynamics_crba_book)
def forward_dynamics_crba(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_torques: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> np.ndarray:
    """Joint accelerations θ̈ by the mass matrix (CRBA) and one Newton–Euler pass.

    The book's ``ForwardDynamics`` computed efficiently: the bias
    τ_bias = c + g + J_bᵀF_tip comes from one call of the Newton–Euler
    recursion with θ̈ = 0 (instead of three), and M θ̈ = τ - τ_bias is solved
    by a Cholesky factorisation (instead of forming M⁻¹).

    Call it with a robot, or with the book's arguments::

        forward_dynamics_crba(robot, joint_positions, joint_velocities, joint_torques)
        forward_dynamics_crba(joint_positions, joint_velocities, joint_torques, gravity,
                              tip_wrench, link_frames, spatial_inertias, screw_axes)

    Educational note: :func:`forward_dynamics_rnea` is the book's way, with M
    from n inverse-dynamics calls and an explicit inverse; it agrees with this
    one to rounding and shows the formula, this one is the one to simulate with.

    Parameters
    ----------
    robot : ScrewRobot
        Gives the link frames, spatial inertias, screw axes and gravity; in
        the book's form pass them instead, as in
        :func:`~robolab.screw.dynamics.rnea.inverse_dynamics_rnea`.
    joint_positions, joint_velocities, joint_torques : array_like, shape (n,) or (..., n)
    gravity : array_like, shape (3,)
        By default the robot's.
    tip_wrench : array_like, shape (6,) or (..., 6)
        F_tip applied by the end-effector, in frame {n+1}; by default zero.

    Returns
    -------
    joint_accelerations : ndarray, shape (n,) or (..., n)

    Raises
    ------
    ValueError
        If M(θ) is singular (names the joint).

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_dynamics_crba
    >>> forward_dynamics_crba(arm, [0.0, 0.0], [0.0, 0.0], [29.43, 9.81]) + 0.0  # held still
    array([0., 0.])

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
    >>> forward_dynamics_crba([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [0.5, 0.6, 0.7], [0, 0, -9.8],
    ...                       [1, 1, 1, 1, 1, 1], link_frames, spatial_inertias, screw_axes)
    array([ -0.97392907,  25.58466784, -32.91499212])
    """
    model = model_of(robot)
    values = one_state_floats(model.n, joint_positions, joint_velocities, joint_torques)
    if values is not None and tip_wrench is None and friction_of(robot) is None:
        values += gravity_of(robot, gravity).tolist()  # one state, float64 and finite: checked
        accelerations = model.compiled.call(("forward", True, False), values)
        if accelerations is not None:  # (None: M singular; the checks below say where)
            return accelerations
    model, q, qd, tau, gravity, tip = forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    return forward_dynamics_crba_kernel(
        model, q, qd, minus_friction(tau, qd, friction_of(robot)), gravity, tip
    )


def articulated_body_algorithm(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
) -> np.ndarray:
    """θ̈ by the articulated-body algorithm in {s} (see :func:`forward_dynamics_aba`).

    For checked arrays θ, θ̇, τ of shape (..., n); ``None`` stands for no gravity or no
    tip wrench. :func:`forward_dynamics_aba` runs a large batch through the batched
    engine instead, which gives the same numbers to rounding.
    """
    n = model.n
    state = space_frame.kinematics(model, q)  # KinematicState.at(model, q), fast for one state
    S = state.axes  # (n, ..., 6), S_i(θ) in {s}
    inverse = state.inverse_adjoints
    inertias = inverse.swapaxes(-1, -2) @ model.inertia_shape(state.batch_ndim) @ inverse
    # Pass 1 (outward): link twists V_i, velocity-product accelerations c_i, bias forces.
    qd_first = joint_first(qd)
    velocities = np.cumsum(S * qd_first, axis=0)
    ad_velocities = ad_of(velocities)
    products = (ad_velocities @ S[..., None])[..., 0] * qd_first  # c_i = [ad_{V_i}] S_i θ̇_i
    momenta = inertias @ velocities[..., None]
    bias = -(ad_velocities.swapaxes(-1, -2) @ momenta)[..., 0]  # -[ad_{V_i}]ᵀ G_i V_i
    if tip_wrench is not None:
        bias[-1] += tip_wrench_space(model, state, tip_wrench)
    # Pass 2 (inward): articulated inertias; in {s} a child's simply adds to its parent's.
    tau_first = np.moveaxis(tau, -1, 0)
    U = np.empty(S.shape)
    D = np.empty(tau_first.shape)
    u = np.empty(tau_first.shape)
    articulated = inertias[n - 1]
    force = bias[n - 1]
    for i in range(n - 1, -1, -1):
        U[i] = (articulated @ S[i][..., None])[..., 0]
        D[i] = np.einsum("...a,...a->...", S[i], U[i])
        u[i] = tau_first[i] - np.einsum("...a,...a->...", S[i], force)
        scale = np.abs(articulated).max(axis=(-2, -1))
        if np.any(D[i] <= _SINGULAR_PIVOT * scale):
            _raise_singular(D[i] > _SINGULAR_PIVOT * scale, i, q)
        if i > 0:
            ratio = U[i] / D[i][..., None]
            reduced = articulated - U[i][..., :, None] * ratio[..., None, :]
            passed = force + (reduced @ products[i][..., None])[..., 0] + ratio * u[i][..., None]
            articulated = inertias[i - 1] + reduced
            force = bias[i - 1] + passed
    # Pass 3 (outward): accelerations, starting from the base's fictitious -g.
    acceleration = np.zeros(S.shape[1:])
    if gravity is not None:
        acceleration[..., 3:] = -gravity
    qdd = np.empty(tau_first.shape)
    for i in range(n):
        acceleration = acceleration + products[i]
        qdd[i] = (u[i] - np.einsum("...a,...a->...", U[i], acceleration)) / D[i]
        acceleration = acceleration + S[i] * qdd[i][..., None]
    return np.moveaxis(qdd, 0, -1)


def _raise_singular(regular: np.ndarray, joint: int, q: np.ndarray) -> None:
    index = tuple(int(k) for k in np.argwhere(~regular)[0]) if regular.ndim else ()
    raise _singular_error(index, joint, q)


def _forward_dynamics_aba_book(
    joint_positions,
    joint_velocities,
    joint_torques,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`forward_dynamics_aba` with the book's arguments, in the book's order."""
    return forward_dynamics_aba(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_torques=joint_torques,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_forward_dynamics_aba_book)
def forward_dynamics_aba(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_torques: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> np.ndarray:
    """Joint accelerations θ̈ by Featherstone's articulated-body algorithm, in the space frame.

    Three passes over the chain, O(n), without forming M(θ):

    1. outward: link twists V_i = Σ_{j≤i} S_j θ̇_j, the velocity-product
       accelerations c_i = [ad_{V_i}] S_i θ̇_i and bias wrenches
       p_i = -[ad_{V_i}]ᵀ G_i V_i (minus the tip wrench on the last link);
    2. inward: articulated inertias I^A_i = G_i + Σ (I^A_{i+1} - U Uᵀ/D), with
       U_i = I^A_i S_i, D_i = S_iᵀ U_i and u_i = τ_i - S_iᵀ p^A_i;
    3. outward: θ̈_i = (u_i - U_iᵀ (a_{i-1} + c_i)) / D_i and
       a_i = a_{i-1} + c_i + S_i θ̈_i, from a_0 = [0; -g].

    Everything is written in {s}, where the quantities of neighbouring links
    need no transformation to be added (MR §8.5 and
    ModernRoboticsBook.jl use the link frames). Agrees with
    :func:`forward_dynamics_crba` to rounding. A batch of many states
    (``BATCH_THRESHOLD`` of :mod:`robolab.screw._fast.batched` or more) runs the same three
    passes there, in joint-aligned link frames as Pinocchio does, over blocks of states.

    Parameters, returns and errors as in :func:`forward_dynamics_crba`; a
    pivot D_i ≤ 0 means M(θ) is singular.

    Call it with a robot, or with the book's arguments::

        forward_dynamics_aba(robot, joint_positions, joint_velocities, joint_torques)
        forward_dynamics_aba(joint_positions, joint_velocities, joint_torques, gravity,
                             tip_wrench, link_frames, spatial_inertias, screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_dynamics_aba
    >>> forward_dynamics_aba(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])  # dropped from horizontal
    array([-9.81,  9.81])

    A pendulum in the book's form: a 1 kg point mass 1 m from a revolute joint, held
    horizontal:

    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> forward_dynamics_aba([0.0], [0.0], [0.0], [0, -9.81, 0], np.zeros(6),
    ...                      [x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    ...                      [[0], [0], [1], [0], [0], [0]])  # θ̈ = -g/L
    array([-9.81])
    """
    model, q, qd, tau, gravity, tip = forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    tau = minus_friction(tau, qd, friction_of(robot))
    if space_frame.is_large(q):  # the same three passes, batched
        accelerations = space_frame.forward_dynamics_aba(
            model, q, qd, tau, gravity, tip, _SINGULAR_PIVOT
        )
        if isinstance(accelerations, tuple):  # (batch index..., joint) of a singular M
            raise _singular_error(accelerations[:-1], accelerations[-1], q)
        return accelerations
    return articulated_body_algorithm(model, q, qd, tau, gravity, tip)


def _forward_dynamics_rnea_book(
    joint_positions,
    joint_velocities,
    joint_torques,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`forward_dynamics_rnea` with the book's arguments, in the book's order."""
    return forward_dynamics_rnea(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_torques=joint_torques,
        tip_wrench=tip_wrench,
    )


@robot_or_arrays(_forward_dynamics_rnea_book)
def forward_dynamics_rnea(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_torques: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> np.ndarray:
    """Joint accelerations θ̈ = M⁻¹(τ - c - g - J_bᵀF_tip), the book's way (``ForwardDynamics``).

    M(θ) from n inverse-dynamics calls with unit accelerations
    (:func:`~robolab.screw.dynamics.mass_matrix.mass_matrix_rnea`), then one call each for
    c(θ, θ̇) (:func:`~robolab.screw.dynamics.rnea.velocity_quadratic_forces`), g(θ)
    (:func:`~robolab.screw.dynamics.rnea.gravity_forces`) and J_bᵀF_tip
    (:func:`~robolab.screw.dynamics.rnea.end_effector_forces`), and an explicit inverse
    of M. Slow but transparent; :func:`forward_dynamics_crba` does the same
    with one pass for the bias and a factorisation instead of M⁻¹.
    Parameters, returns and errors as in :func:`forward_dynamics_crba`.

    Call it with a robot, or with the book's arguments::

        forward_dynamics_rnea(robot, joint_positions, joint_velocities, joint_torques)
        forward_dynamics_rnea(joint_positions, joint_velocities, joint_torques, gravity,
                              tip_wrench, link_frames, spatial_inertias, screw_axes)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_dynamics_rnea
    >>> forward_dynamics_rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]).round(12)
    array([-9.81,  9.81])
    >>> forward_dynamics_rnea([0.0], [0.0], [2.0], [0, -9.81, 0], np.zeros(6),
    ...                       [x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    ...                       [[0], [0], [1], [0], [0], [0]])  # a pendulum: (τ - m g L) / (m L²)
    array([-7.81])
    """
    _, q, qd, tau, gravity, tip_wrench = forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    M = mass_matrix_rnea(robot, q)
    c = velocity_quadratic_forces(robot, q, qd)
    g = gravity_forces(robot, q, gravity)
    f = 0.0 if tip_wrench is None else end_effector_forces(robot, q, tip_wrench)
    solve_mass_matrix(M, np.zeros(q.shape), q)  # a clear error if M is singular
    tau = minus_friction(tau, qd, friction_of(robot))
    return (np.linalg.inv(M) @ (tau - c - g - f)[..., None])[..., 0]
