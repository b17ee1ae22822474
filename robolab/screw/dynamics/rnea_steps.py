"""The recursive Newton–Euler algorithm with its intermediate values kept, link by link.

:func:`inverse_dynamics_rnea_steps` runs the book's recursion (Modern Robotics, section
8.3.2, the same lines as :func:`~robolab.inverse_dynamics_rnea_textbook`) for one state
and returns what it computed on the way, as data:

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
[Ad_{T_si}], wrenches by [Ad_{T_is}]ᵀ. The torques are the same numbers as those of
:func:`~robolab.inverse_dynamics_rnea` (the tests compare them).

Conventions as in :mod:`robolab.screw.dynamics.rnea`: twists [ω; v], wrenches [m; f],
gravity a 3-vector in {s}.
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
from ..book_form import BookArrays, robot_or_arrays
from ..kinematics.forward import joint_arrays
from ..robot import ScrewRobot
from .kernel import gravity_of, model_of, tip_of

__all__ = ["RNEA_FRAMES", "RneaLinkStep", "RneaSteps", "inverse_dynamics_rnea_steps"]

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

    The recursion of the book's section 8.3.2 (see
    :func:`~robolab.inverse_dynamics_rnea_textbook` for its lines), for one
    state; the torques equal :func:`~robolab.inverse_dynamics_rnea`'s.

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
        n, joint_positions, joint_velocities=joint_velocities,
        joint_accelerations=joint_accelerations,
    )  # fmt: skip
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
        T = matrix_exp6_unchecked(vec_to_se3_unchecked(-axis * theta[i])) @ transform_inv_unchecked(
            M[i]
        )
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
