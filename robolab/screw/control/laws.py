"""Joint control laws (Modern Robotics §11.4): PD, PD + gravity, PD + feed-forward, computed torque.

Four controllers of the joint error θ_e = θ_d - θ and its rate θ̇_e, each the feedback
:func:`pd_law` u = K_p θ_e + K_i ∫θ_e dt + K_d θ̇_e plus what the controller's *model* of
the robot (tilde quantities: link frames, inertias, screw axes and gravity, which may
differ from the real robot's) predicts:

PD (:func:`pd_law`)
    τ = u: no model at all (Spong, Hutchinson & Vidyasagar, *Robot Modeling and
    Control*, 1st ed. 2006, ch. 6 "Independent joint control"); gravity makes a steady
    error unless K_i > 0.
PD + gravity compensation (:func:`pd_gravity_law`, :func:`pd_gravity_torque`)
    τ = u + g̃(θ) (MR §11.4; SHV 1st ed., ch. 8, "PD control revisited"): with an exact
    g̃ and a constant θ_d it is globally asymptotically stable for any K_p, K_d > 0
    (Lyapunov function ½θ̇ᵀMθ̇ + ½θ_eᵀK_pθ_e).
PD + feed-forward (:func:`pd_feedforward_law`)
    τ = u + τ̃_d with the planned torques τ̃_d = M̃(θ_d)θ̈_d + h̃(θ_d, θ̇_d)
    (:func:`planned_torques`, computed once along the reference; MR §11.4, feedforward
    plus feedback; Siciliano et al., *Robotics: Modelling, Planning and Control*, 2009,
    §8.4 "Computed torque feedforward control").
Computed torque (:func:`computed_torque_law`, :func:`computed_torque`)
    τ = M̃(θ)(θ̈_d + u) + h̃(θ, θ̇), inverse-dynamics control (MR §11.4; SHV
    1st ed., ch. 8, "Inverse dynamics"; Siciliano §8.5.2 "Inverse dynamics control"),
    where h̃ = c̃ + g̃. With an exact model every joint error obeys the linear ODE
    θ̈_e + K_d θ̇_e + K_p θ_e + K_i ∫θ_e = 0.

Each law is written once here and takes one state (n,) or a batch of states (..., n);
:mod:`robolab.screw.control.tracking` runs them in closed loop against a simulated
robot. Gains are scalars (the same for every joint, as in the book) or arrays of shape
(n,), checked by :func:`checked_gains`, the one gain validator of the control chapters
(positivity and the Routh–Hurwitz condition of the closed loop, also for one geared joint
of :mod:`robolab.screw.control.independent_joint`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array, as_real_number
from .._fast import space_frame
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.model import DynamicsModel, gravity_of, model_of
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot

__all__ = [
    "checked_gains",
    "computed_torque",
    "computed_torque_law",
    "pd_feedforward_law",
    "pd_gravity_law",
    "pd_gravity_torque",
    "pd_law",
    "planned_torques",
]

#: The closed loop of a model-based controller with an exact model, and its stability
#: condition (Routh–Hurwitz of s³ + K_d s² + K_p s + K_i).
_ERROR_DYNAMICS = ("θ̈_e + Kd θ̇_e + Kp θ_e + Ki ∫θ_e = 0", "Kd·Kp > Ki")
#: The closed loop of one geared joint at its motor (inertia J, damping B), and its condition.
_JOINT_LOOP = ("J s³ + (B + Kd) s² + Kp s + Ki", "(B + Kd)·Kp > J·Ki")


def _three_digits(value: float) -> str:
    """A number to three significant digits, written plainly (0.000282, 2000)."""
    return f"{float(f'{value:.3g}'):g}"


def per_joint(value: ArrayLike, name: str, n: int) -> np.ndarray:
    """A number (the same for every joint) or an array of shape (n,), as an array (n,)."""
    array = as_float_array(value, name)
    if array.ndim == 0:
        array = np.full(n, float(array))
    if array.shape != (n,):
        raise ValueError(f"{name} must be a number or have shape ({n},), got shape {array.shape}")
    return array


def checked_gains(
    Kp: ArrayLike,
    Ki: ArrayLike,
    Kd: ArrayLike,
    n: int | None = None,
    *,
    positive: tuple[str, ...] = ("Kp", "Kd"),
    plant: tuple[ArrayLike, ArrayLike] | None = None,
) -> tuple[Any, Any, Any]:
    """The gains K_p, K_i, K_d of a PID loop, checked: a stable closed loop or a clear error.

    Each gain is a number, or with ``n`` joints an array of shape (n,), finite; the gains
    named in ``positive`` must be > 0, the others ≥ 0. Where K_i > 0 the closed loop is of
    third order, J s³ + (B + K_d) s² + K_p s + K_i, stable only if (B + K_d) K_p > J K_i
    (Routh–Hurwitz). ``plant`` is (J, B) of a geared joint at its motor (numbers, or arrays
    of shape (n,)); without it J = 1 and B = 0, the error dynamics of a model-based
    controller with an exact model (θ⃛_e + K_d θ̈_e + K_p θ̇_e + K_i θ_e = 0).

    Parameters
    ----------
    Kp, Ki, Kd : float or array_like, shape (n,)
    n : int, optional
        The number of joints: the gains are returned as arrays of shape (n,). Without it
        each gain is one number, returned as a float.
    positive : tuple of str
        The names of the gains that must be positive (not zero).
    plant : (float or array_like, float or array_like), optional
        (J, B), the inertia and the damping of the loop.

    Returns
    -------
    Kp, Ki, Kd : float or ndarray, shape (n,)

    Raises
    ------
    ValueError
        A gain of the wrong shape, not finite, negative (or zero where it must be positive),
        or gains for which the closed loop is unstable.

    Examples
    --------
    >>> checked_gains(100, 0, [20, 30], 2)
    (array([100., 100.]), array([0., 0.]), array([20., 30.]))
    >>> checked_gains(100, 5000, 20, 2)
    Traceback (most recent call last):
    ...
    ValueError: unstable gains at joint 1: the closed loop θ̈_e + Kd θ̇_e + Kp θ_e + Ki ∫θ_e = 0 \
needs Kd·Kp > Ki (Routh–Hurwitz), got 2000 ≤ 5000; raise Kd or lower Ki
    >>> checked_gains(0.5, 20.0, 0.0, positive=("Kp",), plant=(3.8e-4, 8.2e-4))
    Traceback (most recent call last):
    ...
    ValueError: unstable gains: the closed loop J s³ + (B + Kd) s² + Kp s + Ki needs \
(B + Kd)·Kp > J·Ki (Routh–Hurwitz), got 0.00041 ≤ 0.0076; raise Kd or lower Ki
    """
    loop, condition = _ERROR_DYNAMICS if plant is None else _JOINT_LOOP
    gains = []
    for name, value in (("Kp", Kp), ("Ki", Ki), ("Kd", Kd)):
        gain = np.asarray(as_real_number(value, name)) if n is None else per_joint(value, name, n)
        need = "positive" if name in positive else "zero or positive"
        bad = gain <= 0 if name in positive else gain < 0
        if np.any(bad):
            where, index = _first(bad)
            raise ValueError(
                f"{name} = {float(gain[index]):g}{where}: {name} must be {need} for a stable "
                f"closed loop {loop}"
            )
        gains.append(gain)
    kp, ki, kd = gains
    inertia, damping = (1.0, 0.0) if plant is None else plant
    lhs = np.broadcast_to((damping + kd) * kp, ki.shape)
    rhs = np.broadcast_to(inertia * ki, ki.shape)
    bad = (ki > 0) & (lhs <= rhs)
    if np.any(bad):
        where, index = _first(bad)
        raise ValueError(
            f"unstable gains{where}: the closed loop {loop} needs {condition} (Routh–Hurwitz), "
            f"got {_three_digits(float(lhs[index]))} ≤ {_three_digits(float(rhs[index]))}; "
            "raise Kd or lower Ki"
        )
    if n is None:
        return float(kp), float(ki), float(kd)
    return kp, ki, kd


def _first(bad: np.ndarray) -> tuple[str, tuple[int, ...]]:
    """(" at joint j", index) of the first bad entry; ("", ()) for a single number."""
    if bad.ndim == 0:
        return "", ()
    joint = int(np.flatnonzero(bad)[0])
    return f" at joint {joint + 1}", (joint,)


def pd_law(
    error: np.ndarray,
    error_integral: np.ndarray,
    error_rate: np.ndarray,
    Kp: Any,
    Ki: Any,
    Kd: Any,
) -> np.ndarray:
    """The PID feedback u = K_p θ_e + K_i ∫θ_e + K_d θ̇_e, also the torque of PD control.

    Parameters
    ----------
    error, error_integral, error_rate : ndarray, shape (n,) or (..., n)
        θ_e = θ_d - θ, the integral term's ∫θ_e (the book adds the current error to it)
        and θ̇_e = θ̇_d - θ̇.
    Kp, Ki, Kd : float or ndarray, shape (n,)
        Checked gains (:func:`checked_gains`).

    Returns
    -------
    ndarray, shape (n,) or (..., n)

    Examples
    --------
    >>> pd_law(np.array([0.1, 0.0]), np.zeros(2), np.array([0.0, -1.0]), 100.0, 5.0, 20.0)
    array([ 10., -20.])
    """
    return Kp * error + Ki * error_integral + Kd * error_rate


def pd_gravity_law(
    model: DynamicsModel, gravity: np.ndarray, q: np.ndarray, feedback: np.ndarray
) -> np.ndarray:
    """τ = u + g̃(θ): the feedback plus the model's gravity torques, one state or a batch."""
    return feedback + space_frame.inverse_dynamics(model, q, None, None, gravity, None)


def planned_torques(
    model: DynamicsModel,
    gravity: np.ndarray,
    q_desired: np.ndarray,
    qd_desired: np.ndarray,
    qdd_desired: np.ndarray,
) -> np.ndarray:
    """τ̃_d = M̃(θ_d)θ̈_d + h̃(θ_d, θ̇_d) along a reference (N, n): the feed-forward torques."""
    _, torques = space_frame.mass_matrix_and_inverse_dynamics(
        model, q_desired, qd_desired, qdd_desired, gravity, None
    )
    return torques


def pd_feedforward_law(planned: np.ndarray, feedback: np.ndarray) -> np.ndarray:
    """τ = u + τ̃_d: the feedback plus the torques planned for this point of the reference."""
    return feedback + planned


def computed_torque_law(
    model: DynamicsModel,
    gravity: np.ndarray,
    q: np.ndarray,
    qd: np.ndarray,
    qdd_desired: np.ndarray,
    feedback: np.ndarray,
) -> np.ndarray:
    """τ = M̃(θ)(θ̈_d + u) + h̃(θ, θ̇), one state or a batch (θ̈_d for each or for all)."""
    if qdd_desired.shape != q.shape:
        qdd_desired = np.broadcast_to(qdd_desired, q.shape)
    # M̃ θ̈_d + h̃ is inverse dynamics at θ̈_d (one pass), plus M̃ times the feedback.
    M, torques = space_frame.mass_matrix_and_inverse_dynamics(
        model, q, qd, qdd_desired, gravity, None
    )
    return (M @ feedback[..., None])[..., 0] + torques


def pd_gravity_torque(
    robot: ScrewRobot,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    desired_joint_positions: ArrayLike,
    desired_joint_velocities: ArrayLike,
    Kp: ArrayLike,
    Kd: ArrayLike,
    gravity: ArrayLike | None = None,
) -> np.ndarray:
    """Torques of PD control plus gravity compensation: τ = K_p θ_e + K_d θ̇_e + g̃(θ).

    Modern Robotics §11.4; Spong, Hutchinson & Vidyasagar, 1st ed., ch. 8, "PD control
    revisited". The gravity
    torques g̃(θ) come from ``robot``, the controller's model.

    Parameters
    ----------
    robot : ScrewRobot
        The controller's model of the arm (and, by default, of gravity).
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)
        The measured θ, θ̇.
    desired_joint_positions, desired_joint_velocities : array_like, shape (n,) or (..., n)
        θ_d, θ̇_d.
    Kp, Kd : float or array_like, shape (n,)
        Positive gains (a gain ≤ 0 is refused: the loop would be unstable).
    gravity : array_like, shape (3,), optional
        The model's gravity; by default the robot's.

    Returns
    -------
    joint_torques : ndarray, shape (n,) or (..., n)

    Examples
    --------
    The planar 2R (two uniform 1 m, 1 kg links) held horizontal, on target: just
    the gravity torques (m₁ l₁/2 + m₂ l₁ + m₂ l₂/2) g = 2 g and m₂ l₂ g/2 = g/2:

    >>> import robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> pd_gravity_torque(arm, [0, 0], [0, 0], [0, 0], [0, 0], 100, 20).round(4)
    array([19.62 ,  4.905])
    >>> pd_gravity_torque(arm, [0, 0], [0, 0], [0.1, 0], [0, 0], 100, 20).round(4)
    array([29.62 ,  4.905])
    >>> pd_gravity_torque(arm, [0, 0], [0, 0], [0, 0], [0, 0], -1, 20)
    Traceback (most recent call last):
    ...
    ValueError: Kp = -1 at joint 1: Kp must be positive for a stable closed loop θ̈_e + ...
    """
    model = model_of(robot)
    n = model.n
    q = joint_array(joint_positions, n, "joint_positions")
    qd = joint_array(joint_velocities, n, "joint_velocities")
    q_d = joint_array(desired_joint_positions, n, "desired_joint_positions")
    qd_d = joint_array(desired_joint_velocities, n, "desired_joint_velocities")
    kp, ki, kd = checked_gains(Kp, 0.0, Kd, n)
    feedback = pd_law(q_d - q, np.zeros_like(q), qd_d - qd, kp, ki, kd)
    return pd_gravity_law(model, gravity_of(robot, gravity), q, feedback)


def _computed_torque_book(
    joint_positions,
    joint_velocities,
    error_integral,
    gravity,
    link_frames,
    spatial_inertias,
    screw_axes,
    desired_joint_positions,
    desired_joint_velocities,
    desired_joint_accelerations,
    Kp,
    Ki,
    Kd,
):
    """:func:`computed_torque` with the book's arguments, in the book's order."""
    return computed_torque(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        error_integral=error_integral,
        desired_joint_positions=desired_joint_positions,
        desired_joint_velocities=desired_joint_velocities,
        desired_joint_accelerations=desired_joint_accelerations,
        Kp=Kp,
        Ki=Ki,
        Kd=Kd,
    )


@robot_or_arrays(_computed_torque_book)
def computed_torque(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    error_integral: ArrayLike,
    desired_joint_positions: ArrayLike,
    desired_joint_velocities: ArrayLike,
    desired_joint_accelerations: ArrayLike,
    Kp: ArrayLike,
    Ki: ArrayLike,
    Kd: ArrayLike,
    gravity: ArrayLike | None = None,
) -> np.ndarray:
    """Joint torques of the computed-torque controller (MR's ``ComputedTorque``, MR §11.4).

    τ = M̃(θ)(K_p θ_e + K_i (∫θ_e + θ_e) + K_d θ̇_e) + M̃(θ) θ̈_d + h̃(θ, θ̇), with
    θ_e = θ_d - θ. As in the book's library, the integral term adds the
    current error to the running integral ``error_integral``.

    Call it with a robot, or with the book's arguments::

        computed_torque(robot, joint_positions, joint_velocities, error_integral,
                        desired_joint_positions, desired_joint_velocities,
                        desired_joint_accelerations, Kp, Ki, Kd)
        computed_torque(joint_positions, joint_velocities, error_integral, gravity,
                        link_frames, spatial_inertias, screw_axes,
                        desired_joint_positions, desired_joint_velocities,
                        desired_joint_accelerations, Kp, Ki, Kd)

    Parameters
    ----------
    robot : ScrewRobot
        The controller's model of the robot and, by default, of gravity; in
        the book's form pass ``gravity, link_frames, spatial_inertias,
        screw_axes`` (see :func:`robolab.screw.dynamics.rnea.inverse_dynamics_rnea`).
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)
        The measured state θ, θ̇.
    error_integral : array_like, shape (n,) or (..., n)
        ∫θ_e dt so far.
    desired_joint_positions, desired_joint_velocities, desired_joint_accelerations : array_like
        θ_d, θ̇_d, θ̈_d, shape (n,) or (..., n).
    Kp, Ki, Kd : float or array_like, shape (n,)
        Proportional, integral and derivative gains, zero or positive, with
        K_i < K_p K_d where K_i > 0 (else the closed loop is unstable: refused).
    gravity : array_like, shape (3,)
        The controller's model of gravity; by default the robot's.

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
    >>> from robolab import computed_torque
    >>> computed_torque(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0],
    ...                 [0.0, 0.0], 20, 10, 18)  # on target: just gravity compensation
    array([29.43,  9.81])

    The book's example (the three-link arrays of
    :func:`robolab.screw.dynamics.rnea.inverse_dynamics_rnea`):

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
    >>> computed_torque([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [0.2, 0.2, 0.2], [0, 0, -9.8],
    ...                 link_frames, spatial_inertias, screw_axes, [1.0, 1.0, 1.0],
    ...                 [2, 1.2, 2], [0.1, 0.1, 0.1], 1.3, 1.2, 1.1)
    array([133.00525246, -29.94223324,  -3.03276856])
    """
    model, model_gravity = model_of(robot), gravity_of(robot, gravity)
    q, qd, integral, q_desired, qd_desired, qdd_desired = joint_arrays(
        model.n,
        joint_positions,
        joint_velocities=joint_velocities,
        error_integral=error_integral,
        desired_joint_positions=desired_joint_positions,
        desired_joint_velocities=desired_joint_velocities,
        desired_joint_accelerations=desired_joint_accelerations,
    )
    kp, ki, kd = checked_gains(Kp, Ki, Kd, model.n, positive=())
    error = q_desired - q
    feedback = pd_law(error, integral + error, qd_desired - qd, kp, ki, kd)
    return computed_torque_law(model, model_gravity, q, qd, qdd_desired, feedback)
