"""Inverse dynamics of open chains by Newton–Euler (Modern Robotics, MR §8.3).

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
gravity from the robot (see :mod:`robolab.screw.book_form`).

The recursive Newton–Euler algorithm
------------------------------------
:func:`inverse_dynamics_rnea_steps` is the book's algorithm (MR §8.3.2) line by
line, for one state, and returns what it computed on the way, as data:

* the **forward pass**, i = 1..n: the configuration T_{i,i-1} of frame {i-1} in the
  link frame {i}, the screw axis A_i of joint i in {i}, the link twist V_i and the link
  acceleration V̇_i (with the fictitious base acceleration V̇_0 = [0; -g] that brings
  gravity in);
* the **backward pass**, i = n..1: the wrench F_i that link i-1 applies to link i
  through joint i (in {i}, starting from F_{n+1} = F_tip) and the joint torque
  τ_i = F_iᵀ A_i.

Each link gives one :class:`RneaLinkStep` (a frozen record), written in the link frame
{i} (the centre-of-mass frame of link i, the book's frame) or, on request
(``frame="space"``), in the space frame {s}: twists and accelerations by
[Ad_{T_si}], wrenches by [Ad_{T_is}]ᵀ. :func:`inverse_dynamics_rnea_textbook` is its
torques.

:func:`inverse_dynamics_rnea` computes the same torques (to rounding) with the engines
of :mod:`robolab.screw._fast`, for one state or a batch, ``joint_positions`` of shape
(..., n): straight-line code generated for the robot for one state, the recursions as
running sums in {s} for a few states, and for batches of 48 states or more the
structure-of-arrays kernel of :mod:`robolab.screw._fast.batched` (Featherstone's
recursions in joint-aligned frames, many states per NumPy call).
:func:`velocity_quadratic_forces`, :func:`gravity_forces` and
:func:`end_effector_forces` are the terms c, g and J_bᵀF_tip, each one call of it, as in
the book. The mass matrix is in :mod:`robolab.screw.dynamics.mass_matrix`, the energies
in :mod:`robolab.screw.dynamics.energy`.

Conventions: twists [ω; v], wrenches [m; f], gravity a 3-vector in {s}
(e.g. (0, 0, -9.81)); the base is given the fictitious acceleration -g, so
gravity enters through the accelerations as in the book.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...spatial.rigid_body_motions import (
    ad_unchecked,
    adjoint_representation_unchecked,
    matrix_exp6_unchecked,
    transform_inv_unchecked,
    vec_to_se3_unchecked,
)
from ...support.arguments import require_choice
from .._fast import space_frame
from .._fast.space_frame import one_state_floats, one_state_inverse_dynamics
from ..book_form import BookArrays, robot_or_arrays
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot
from .model import gravity_of, model_of, tip_of, tip_wrench_array

__all__ = [
    "RNEA_FRAMES",
    "RneaLinkStep",
    "RneaSteps",
    "end_effector_forces",
    "gravity_forces",
    "inverse_dynamics_rnea",
    "inverse_dynamics_rnea_steps",
    "inverse_dynamics_rnea_textbook",
    "velocity_quadratic_forces",
]

#: The frames the intermediate values can be written in.
RNEA_FRAMES = ("link", "space")

_Array = NDArray[np.float64]


def _vector_text(values: _Array) -> str:
    return "[" + " ".join(f"{float(np.round(v, 4)) + 0.0:8.4f}" for v in values) + "]"


@dataclass(frozen=True)
class RneaLinkStep:
    """What the Newton–Euler recursion computed for link i (one link of :class:`RneaSteps`).

    Attributes
    ----------
    link : int
        i, from 1 (the link moved by joint 1) to n.
    frame : {"link", "space"}
        The frame the vectors are written in: {i} (the centre-of-mass frame of
        link i) or {s}.
    pose : ndarray, shape (4, 4)
        T_si, the pose of frame {i} in {s} at θ.
    transform : ndarray, shape (4, 4)
        T_{i,i-1} = e^{-[A_i]θ_i} M_{i-1,i}⁻¹, frame {i-1} seen from {i} (the
        same in both frames: it is a relation between two frames).
    screw_axis : ndarray, shape (6,)
        A_i, joint i's screw axis in {i}; in {s} it is S_i(θ), column i of the
        space Jacobian.
    twist : ndarray, shape (6,)
        V_i = [Ad_{T_{i,i-1}}] V_{i-1} + A_i θ̇_i, [ω; v].
    acceleration : ndarray, shape (6,)
        V̇_i = [Ad_{T_{i,i-1}}] V̇_{i-1} + [ad_{V_i}] A_i θ̇_i + A_i θ̈_i; it holds
        the fictitious base acceleration -g, so a link at rest has V̇_i = [0; -Rᵀg].
    wrench : ndarray, shape (6,)
        F_i = [Ad_{T_{i+1,i}}]ᵀ F_{i+1} + G_i V̇_i - [ad_{V_i}]ᵀ G_i V_i, [m; f]:
        the wrench link i-1 applies to link i through joint i.
    torque : float
        τ_i = F_iᵀ A_i (N·m or N), the same in either frame.
    """

    link: int
    frame: str
    pose: _Array
    transform: _Array
    screw_axis: _Array
    twist: _Array
    acceleration: _Array
    wrench: _Array
    torque: float

    def __post_init__(self) -> None:
        for name in ("pose", "transform", "screw_axis", "twist", "acceleration", "wrench"):
            array = np.array(getattr(self, name), dtype=float)  # a copy of its own, read-only
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    def in_frame(self, frame: str) -> RneaLinkStep:
        """The same values written in ``frame`` (``"link"`` or ``"space"``); wrenches by the
        dual adjoint, F_s = [Ad_{T_is}]ᵀ F_i."""
        require_choice(frame, "frame", RNEA_FRAMES)
        if frame == self.frame:
            return self
        to_space = adjoint_representation_unchecked(self.pose)  # [Ad_{T_si}]: {i} → {s}
        to_link = adjoint_representation_unchecked(transform_inv_unchecked(self.pose))
        motion, force = (to_space, to_link.T) if frame == "space" else (to_link, to_space.T)
        return replace(
            self,
            frame=frame,
            screw_axis=motion @ self.screw_axis,
            twist=motion @ self.twist,
            acceleration=motion @ self.acceleration,
            wrench=force @ self.wrench,
        )

    def __str__(self) -> str:
        return (
            f"link {self.link} ({self.frame} frame): V = {_vector_text(self.twist)}\n"
            f"  V̇ = {_vector_text(self.acceleration)}\n"
            f"  F = {_vector_text(self.wrench)}, τ = {self.torque + 0.0:.4f}"
        )


@dataclass(frozen=True)
class RneaSteps:
    """The intermediate values of one Newton–Euler run (from :func:`inverse_dynamics_rnea_steps`).

    Attributes
    ----------
    frame : {"link", "space"}
        The frame of the links' vectors.
    joint_positions, joint_velocities, joint_accelerations : ndarray, shape (n,)
        The state, θ, θ̇, θ̈.
    gravity : ndarray, shape (3,)
        g in {s}; the base acceleration is V̇_0 = [0; -g].
    tip_wrench : ndarray, shape (6,)
        F_tip = F_{n+1}, the wrench the end-effector applies, in {n+1}.
    links : tuple of RneaLinkStep
        One record per link, link 1 first.
    order : tuple of (str, int)
        The 2n steps of the algorithm: ``("forward", 1)`` … ``("forward", n)``,
        then ``("backward", n)`` … ``("backward", 1)``.
    """

    frame: str
    joint_positions: _Array
    joint_velocities: _Array
    joint_accelerations: _Array
    gravity: _Array
    tip_wrench: _Array
    links: tuple[RneaLinkStep, ...]
    order: tuple[tuple[str, int], ...] = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.links)
        forward = tuple(("forward", i) for i in range(1, n + 1))
        backward = tuple(("backward", i) for i in range(n, 0, -1))
        object.__setattr__(self, "order", forward + backward)

    @property
    def torques(self) -> _Array:
        """τ, shape (n,): the joint torques, τ_i = F_iᵀ A_i."""
        return np.array([step.torque for step in self.links])

    @property
    def twists(self) -> _Array:
        """V_1 … V_n as rows, shape (n, 6)."""
        return np.array([step.twist for step in self.links])

    @property
    def accelerations(self) -> _Array:
        """V̇_1 … V̇_n as rows, shape (n, 6)."""
        return np.array([step.acceleration for step in self.links])

    @property
    def wrenches(self) -> _Array:
        """F_1 … F_n as rows, (n, 6); F_i is what link i-1 applies to link i."""
        return np.stack([step.wrench for step in self.links])

    def in_frame(self, frame: str) -> RneaSteps:
        """The same run with every link's vectors written in ``frame`` (``"link"``, ``"space"``)."""
        require_choice(frame, "frame", RNEA_FRAMES)
        return replace(self, frame=frame, links=tuple(s.in_frame(frame) for s in self.links))

    def __str__(self) -> str:
        return "\n".join(str(step) for step in self.links)


# --------------------------------------------------------------------------- link by link


def _inverse_dynamics_rnea_steps_book(
    joint_positions,
    joint_velocities,
    joint_accelerations,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
    *,
    frame: str = "link",
):
    """:func:`inverse_dynamics_rnea_steps` with the book's arguments, in the book's order."""
    return inverse_dynamics_rnea_steps(
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
        frame=frame,
    )


@robot_or_arrays(_inverse_dynamics_rnea_steps_book)
def inverse_dynamics_rnea_steps(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_accelerations: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
    *,
    frame: str = "link",
) -> RneaSteps:
    """Newton–Euler inverse dynamics with every link's twist, acceleration and wrench kept.

    The recursion of MR §8.3.2, for one state, written to be read
    next to it; its torques are :func:`inverse_dynamics_rnea_textbook`, and equal
    :func:`inverse_dynamics_rnea`'s to rounding. With M_i = M_01 ⋯ M_{i-1,i} the home
    pose of frame {i}:

    Forward iterations, i = 1..n (V_0 = 0, V̇_0 = [0; -g]):

        A_i = [Ad_{M_i⁻¹}] S_i                              screw axis of joint i in {i}
        T_{i,i-1} = e^{-[A_i]θ_i} M_{i-1,i}⁻¹
        V_i = [Ad_{T_{i,i-1}}] V_{i-1} + A_i θ̇_i
        V̇_i = [Ad_{T_{i,i-1}}] V̇_{i-1} + [ad_{V_i}] A_i θ̇_i + A_i θ̈_i

    Backward iterations, i = n..1 (F_{n+1} = F_tip, T_{n+1,n} = M_{n,n+1}⁻¹):

        F_i = [Ad_{T_{i+1,i}}]ᵀ F_{i+1} + G_i V̇_i - [ad_{V_i}]ᵀ (G_i V_i)
        τ_i = F_iᵀ A_i

    Call it with a robot, or with the book's arguments::

        inverse_dynamics_rnea_steps(robot, joint_positions, joint_velocities,
                                    joint_accelerations)
        inverse_dynamics_rnea_steps(joint_positions, joint_velocities,
                                    joint_accelerations, gravity, tip_wrench,
                                    link_frames, spatial_inertias, screw_axes)

    Parameters
    ----------
    robot : ScrewRobot
        Gives the link frames, spatial inertias, screw axes and gravity; in
        the book's form pass them instead (gravity and tip wrench then required).
    joint_positions, joint_velocities, joint_accelerations : array_like, shape (n,)
        θ, θ̇, θ̈ of one state.
    gravity : array_like, shape (3,), optional
        In {s}; by default the robot's.
    tip_wrench : array_like, shape (6,), optional
        F_tip = [m; f] applied by the end-effector, in {n+1}; by default zero.
    frame : {"link", "space"}
        Write the vectors in each link's frame {i} (the book's) or in {s}.

    Returns
    -------
    RneaSteps
        ``links[i-1]`` holds V_i, V̇_i, F_i and τ_i; ``torques`` is τ.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import inverse_dynamics_rnea_steps
    >>> steps = inverse_dynamics_rnea_steps(arm, [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    >>> steps.order
    (('forward', 1), ('forward', 2), ('backward', 2), ('backward', 1))
    >>> steps.links[0].twist  # [ω; v] in {1}, the point mass 1 m out: v = 1 m/s along y1
    array([0., 0., 1., 0., 1., 0.])
    >>> steps.links[0].acceleration  # v̇ in {1}: the fictitious 9.81 m/s² up (gravity)
    array([0.  , 0.  , 0.  , 0.  , 9.81, 0.  ])
    >>> steps.in_frame("space").links[1].twist.round(12) + 0.0  # V_2 in {s}: a turn about z
    array([0., 0., 1., 0., 0., 0.])
    >>> steps.torques  # = inverse_dynamics_rnea(arm, ...): gravity only, as ω × v is radial
    array([29.43,  9.81])

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
    >>> steps = inverse_dynamics_rnea_steps([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1],
    ...     [0, 0, -9.8], [1, 1, 1, 1, 1, 1], link_frames, spatial_inertias, screw_axes)
    >>> steps.torques
    array([ 74.69616155, -33.06766016,  -3.23057314])
    """
    require_choice(frame, "frame", RNEA_FRAMES)
    model = model_of(robot)
    n = model.n
    theta, dtheta, ddtheta = joint_arrays(
        n,
        joint_positions,
        joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )
    if theta.ndim != 1:
        raise ValueError(
            f"joint_positions must have shape ({n},): the steps are those of one state, "
            f"got shape {theta.shape} (call it once per state)"
        )
    g = gravity_of(robot, gravity)
    tip = tip_of(theta, tip_wrench)
    tip = np.zeros(6) if tip is None else tip
    M, G, S = model.arrays  # M_{i-1,i}, G_i, S_i as checked float arrays

    # Forward pass: V_i and V̇_i in {i}, from the base (V_0 = 0, V̇_0 = [0; -g]).
    home = np.eye(4)
    pose = np.eye(4)
    axes, transforms, poses, twists, accelerations = [], [], [], [], []
    twist, acceleration = np.zeros(6), np.concatenate([np.zeros(3), -g])
    for i in range(n):
        home = home @ M[i]
        axis = adjoint_representation_unchecked(transform_inv_unchecked(home)) @ S[:, i]
        turn = matrix_exp6_unchecked(vec_to_se3_unchecked(-axis * theta[i]))  # e^{-[A_i]θ_i}
        T = turn @ transform_inv_unchecked(M[i])
        carry = adjoint_representation_unchecked(T)
        twist = carry @ twist + axis * dtheta[i]
        acceleration = (
            carry @ acceleration + ad_unchecked(twist) @ axis * dtheta[i] + axis * ddtheta[i]
        )
        pose = pose @ transform_inv_unchecked(T)
        axes.append(axis)
        transforms.append(T)
        poses.append(pose)
        twists.append(twist)
        accelerations.append(acceleration)

    # Backward pass: F_i in {i} and τ_i, from the tip (F_{n+1} = F_tip, T_{n+1,n} = M_{n,n+1}⁻¹).
    wrenches: list[_Array] = [np.zeros(6)] * n
    torques = np.zeros(n)
    wrench, outward = tip, transform_inv_unchecked(M[n])
    for i in range(n - 1, -1, -1):
        V = twists[i]
        wrench = (
            adjoint_representation_unchecked(outward).T @ wrench
            + G[i] @ accelerations[i]
            - ad_unchecked(V).T @ (G[i] @ V)
        )
        wrenches[i] = wrench
        torques[i] = wrench @ axes[i]
        outward = transforms[i]

    links = tuple(
        RneaLinkStep(
            link=i + 1,
            frame="link",
            pose=poses[i],
            transform=transforms[i],
            screw_axis=axes[i],
            twist=twists[i],
            acceleration=accelerations[i],
            wrench=wrenches[i],
            torque=float(torques[i]),
        )
        for i in range(n)
    )
    steps = RneaSteps(
        frame="link",
        joint_positions=theta.copy(),
        joint_velocities=dtheta.copy(),
        joint_accelerations=ddtheta.copy(),
        gravity=np.array(g, dtype=float),
        tip_wrench=np.array(tip, dtype=float),
        links=links,
    )
    return steps if frame == "link" else steps.in_frame(frame)


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

    The torques of :func:`inverse_dynamics_rnea_steps`: MR §8.3.2,
    written to be read next to it (one configuration at a time;
    :func:`inverse_dynamics_rnea` is the fast, batched form and agrees to rounding).

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
    return inverse_dynamics_rnea_steps(
        robot, joint_positions, joint_velocities, joint_accelerations, gravity, tip_wrench
    ).torques


# --------------------------------------------------------------------------- fast, and the terms


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
    if values is not None and tip_wrench is None:  # one state, float64 and finite: checked
        values += gravity_of(robot, gravity).tolist()
        return one_state_inverse_dynamics(model, values)
    q, qd, qdd = joint_arrays(
        model.n,
        joint_positions,
        joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )
    return space_frame.inverse_dynamics(
        model, q, qd, qdd, gravity_of(robot, gravity), tip_of(q, tip_wrench)
    )


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
    return space_frame.inverse_dynamics(model, q, qd, None, None, None)


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
    return space_frame.inverse_dynamics(model, q, None, None, gravity_of(robot, gravity), None)


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
    return space_frame.inverse_dynamics(
        model, q, None, None, None, tip_wrench_array(tip_wrench, q.shape[:-1])
    )
