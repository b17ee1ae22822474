"""Model-based joint control: PD, PD + gravity compensation, feed-forward, computed torque.

Four controllers of the joint error θ_e = θ_d - θ and its rate θ̇_e, each a feedback
u = K_p θ_e + K_i ∫θ_e dt + K_d θ̇_e plus what the controller's *model* of the robot
(tilde quantities, a second :class:`~robolab.screw.robot.ScrewRobot`) predicts:

``"pd"``
    τ = u: no model at all (Spong, Hutchinson & Vidyasagar, *Robot Modeling and
    Control*, §8.3); gravity makes a steady error unless K_i > 0.
``"pd_gravity"``
    τ = u + g̃(θ), PD plus gravity compensation (Modern Robotics (MR) §11.4.1; Spong
    §9.3): with an exact g̃ and a constant θ_d it is globally asymptotically stable for
    any K_p, K_d > 0 (Lyapunov function ½θ̇ᵀMθ̇ + ½θ_eᵀK_pθ_e).
``"pd_feedforward"``
    τ = u + τ̃_d with the planned torques τ̃_d = M̃(θ_d)θ̈_d + h̃(θ_d, θ̇_d), computed
    once along the reference (MR §11.4.1, feedforward plus feedback; Siciliano et al.
    §8.5.2).
``"computed_torque"``
    τ = M̃(θ)(θ̈_d + u) + h̃(θ, θ̇), inverse-dynamics control (MR eq. 11.35; Spong
    §9.4; Siciliano §8.5.2). With an exact model every joint error obeys the linear ODE
    θ̈_e + K_d θ̇_e + K_p θ_e + K_i ∫θ_e = 0.

:func:`simulate_tracking` runs any of them, all as one batch of states through the
vectorised dynamics, against the *true* robot (its joint friction included) with
optional torque limits |τ_j| ≤ τ_max,j (the commanded torque is clipped, and the
result says by how much it asked for more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from .._fast.loops import track_generated
from ..dynamics.forward import forward_dynamics_crba_kernel, friction_of, minus_friction
from ..dynamics.kernel import gravity_of, mass_matrix_and_inverse_dynamics_kernel, model_of
from ..kinematics.forward import joint_array
from ..robot import ScrewRobot
from ..simulation.dynamics_trajectory import (
    SimulationDiverged,
    checked_integrator,
    checked_timestep,
)
from ..simulation.integrators import FIXED_STEP_INTEGRATORS, advance

__all__ = [
    "CONTROLLERS",
    "TrackingRun",
    "pd_gravity_torque",
    "scaled_inertias",
    "simulate_tracking",
    "with_payload",
]

#: The controllers of :func:`simulate_tracking`, by name.
CONTROLLERS = ("pd", "pd_gravity", "pd_feedforward", "computed_torque")

_QUANTITIES = ("positions", "velocities", "accelerations")

#: A joint speed (rad/s or m/s) no arm reaches: past it the closed loop has run away.
_RUNAWAY_SPEED = 1e6

#: Steps between two finiteness checks of the batch of states.
_CHECK_EVERY = 50


@dataclass(frozen=True, eq=False)
class TrackingRun:
    """One controller's run of :func:`simulate_tracking`.

    Attributes
    ----------
    controller : str
        One of :data:`CONTROLLERS`.
    times : ndarray, shape (N,)
        t_i = i Δt.
    joint_positions, joint_velocities : ndarray, shape (N, n)
        The true robot's state at t_i (row 0 is the initial state).
    joint_torques : ndarray, shape (N, n)
        The torque applied on [t_i, t_i + Δt) (after the torque limits).
    errors : ndarray, shape (N, n)
        θ_d(t_i) - θ(t_i), radians (metres for a prismatic joint).
    peak_torques : ndarray, shape (n,)
        max_i |τ_j| the controller *commanded* (before the limits).
    torque_limits : ndarray or None, shape (n,)
    """

    controller: str
    times: np.ndarray
    joint_positions: np.ndarray
    joint_velocities: np.ndarray
    joint_torques: np.ndarray
    errors: np.ndarray
    peak_torques: np.ndarray
    torque_limits: np.ndarray | None

    @property
    def rms_error(self) -> float:
        """√(mean_i |θ_e(t_i)|²), the RMS of the error vector's norm over the run."""
        return float(np.sqrt(np.mean(np.sum(self.errors**2, axis=1))))

    @property
    def max_error(self) -> float:
        """max_i,j |θ_e,j(t_i)|."""
        return float(np.abs(self.errors).max())

    @property
    def exceeds_limits(self) -> bool:
        """Whether the controller asked for more than a torque limit (False without limits)."""
        if self.torque_limits is None:
            return False
        return bool(np.any(self.peak_torques > self.torque_limits))


def _gain(value: ArrayLike, name: str, n: int, *, positive: bool) -> np.ndarray:
    gain = as_float_array(value, name)
    if gain.ndim == 0:
        gain = np.full(n, float(gain))
    if gain.shape != (n,):
        raise ValueError(f"{name} must be a number or have shape ({n},), got shape {gain.shape}")
    if not np.all(np.isfinite(gain)):
        raise ValueError(f"{name} must be finite, got {gain}")
    bad = gain <= 0 if positive else gain < 0
    if np.any(bad):
        joint = int(np.flatnonzero(bad)[0]) + 1
        need = "positive" if positive else "zero or positive"
        raise ValueError(
            f"{name} = {gain[joint - 1]:g} on joint {joint} makes the closed loop unstable: "
            f"the error dynamics θ̈_e + K_d θ̇_e + K_p θ_e (+ K_i ∫θ_e) = 0 need {name} {need}"
        )
    return gain


def _gains(n: int, Kp: ArrayLike, Ki: ArrayLike, Kd: ArrayLike) -> tuple[np.ndarray, ...]:
    kp = _gain(Kp, "Kp", n, positive=True)
    kd = _gain(Kd, "Kd", n, positive=True)
    ki = _gain(Ki, "Ki", n, positive=False)
    bad = ki >= kp * kd
    if np.any(bad):
        joint = int(np.flatnonzero(bad)[0]) + 1
        raise ValueError(
            f"Ki = {ki[joint - 1]:g} on joint {joint} makes the closed loop unstable: the error "
            "ODE θ⃛_e + K_d θ̈_e + K_p θ̇_e + K_i θ_e = 0 is stable only if K_i < K_p K_d "
            f"(Routh–Hurwitz), here K_p K_d = {kp[joint - 1] * kd[joint - 1]:g}"
        )
    return kp, ki, kd


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

    Modern Robotics §11.4.1; Spong, Hutchinson & Vidyasagar §9.3. The gravity
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
    ValueError: Kp = -1 on joint 1 makes the closed loop unstable: the error dynamics ...
    """
    model = model_of(robot)
    n = model.n
    q = joint_array(joint_positions, n, "joint_positions")
    qd = joint_array(joint_velocities, n, "joint_velocities")
    q_d = joint_array(desired_joint_positions, n, "desired_joint_positions")
    qd_d = joint_array(desired_joint_velocities, n, "desired_joint_velocities")
    kp, _, kd = _gains(n, Kp, 0.0, Kd)
    zero = np.zeros_like(q)
    _, g = mass_matrix_and_inverse_dynamics_kernel(
        model, q, zero, zero, gravity_of(robot, gravity), None
    )
    return kp * (q_d - q) + kd * (qd_d - qd) + g


def scaled_inertias(robot: ScrewRobot, factor: float) -> ScrewRobot:
    """The robot with every link's mass and rotational inertia times ``factor`` (a model error).

    Parameters
    ----------
    robot : ScrewRobot
    factor : float
        Positive; 0.8 is a model whose links are 20 % too light.

    Returns
    -------
    ScrewRobot

    Examples
    --------
    >>> import robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> float(scaled_inertias(arm, 0.8).spatial_inertias[0, 3, 3])
    0.8
    >>> scaled_inertias(arm, -1)
    Traceback (most recent call last):
    ...
    ValueError: factor must be a positive number (a mass scale), got -1
    """
    value = float(as_float_array(factor, "factor", ()))
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"factor must be a positive number (a mass scale), got {factor!r}")
    return robot.replace(spatial_inertias=robot.spatial_inertias * value)


def with_payload(robot: ScrewRobot, mass: float) -> ScrewRobot:
    """The robot carrying a point mass at its end-effector frame's origin (lumped into link n).

    The last link's mass becomes m + m_p, its centre of mass moves to
    c = m_p p / (m + m_p) (p: the end-effector origin in link n's frame) and its
    rotational inertia about c follows the parallel-axis (Steiner) theorem (MR §8.2.1). The
    frame of link n moves to c (``link_frames[n-1]`` and ``link_frames[n]`` change);
    the kinematics do not.

    Parameters
    ----------
    robot : ScrewRobot
    mass : float
        m_p ≥ 0 in kg.

    Returns
    -------
    ScrewRobot

    Examples
    --------
    A 1 kg payload at the tip of the planar 2R: link 2 (1 kg, centre at 0.5 m)
    becomes 2 kg centred at 0.75 m from joint 2, and the gravity torque of joint 2
    when horizontal is 1.5 g:

    >>> import robolab
    >>> arm = with_payload(robolab.load_robot("planar2r"), 1.0)
    >>> float(arm.spatial_inertias[1, 3, 3]), arm.link_frames[1][:3, 3].tolist()
    (2.0, [1.25, 0.0, 0.0])
    >>> pd_gravity_torque(arm, [0, 0], [0, 0], [0, 0], [0, 0], 1, 1).round(4)
    array([39.24 , 14.715])
    """
    m_p = float(as_float_array(mass, "mass", ()))
    if not np.isfinite(m_p) or m_p < 0:
        raise ValueError(f"mass must be a payload mass ≥ 0 in kg, got {mass!r}")
    frames = np.array(robot.link_frames)
    inertias = np.array(robot.spatial_inertias)
    G = inertias[-1]
    m = float(G[3, 3])
    total = m + m_p
    if total <= 0:
        return robot
    p = frames[-1][:3, 3]
    c = m_p * p / total

    def shift(mass_: float, r: np.ndarray) -> np.ndarray:
        return mass_ * (float(r @ r) * np.eye(3) - np.outer(r, r))

    inertia = G[:3, :3] + shift(m, -c) + shift(m_p, p - c)
    move = np.eye(4)
    move[:3, 3] = c
    back = np.eye(4)
    back[:3, 3] = -c
    frames[-2] = frames[-2] @ move
    frames[-1] = back @ frames[-1]
    G = np.zeros((6, 6))
    G[:3, :3] = inertia
    G[3:, 3:] = total * np.eye(3)
    inertias[-1] = G
    return robot.replace(link_frames=frames, spatial_inertias=inertias)


def _controller_names(controllers: str | Sequence[str]) -> tuple[str, ...]:
    names = (controllers,) if isinstance(controllers, str) else tuple(controllers)
    if not names:
        raise ValueError(f"controllers must name at least one of {CONTROLLERS}")
    for name in names:
        if not isinstance(name, str) or name not in CONTROLLERS:
            raise ValueError(f"controllers must be among {CONTROLLERS}, got {name!r}")
    return names


def _torque_limits(value: ArrayLike | None, n: int) -> np.ndarray | None:
    if value is None:
        return None
    limits = as_float_array(value, "torque_limits")
    if limits.ndim == 0:
        limits = np.full(n, float(limits))
    if limits.shape != (n,):
        raise ValueError(f"torque_limits must be a number or have shape ({n},), got {limits.shape}")
    if not np.all(limits > 0):  # also refuses NaN
        raise ValueError(f"torque_limits must be positive (|τ_j| ≤ limit), got {limits}")
    return limits


def simulate_tracking(
    robot: ScrewRobot,
    estimated_robot: ScrewRobot,
    desired_joint_position_traj: ArrayLike,
    desired_joint_velocity_traj: ArrayLike,
    desired_joint_acceleration_traj: ArrayLike,
    timestep: float,
    Kp: ArrayLike,
    Kd: ArrayLike,
    *,
    controllers: str | Sequence[str] = CONTROLLERS,
    Ki: ArrayLike = 0.0,
    joint_positions: ArrayLike | None = None,
    joint_velocities: ArrayLike | None = None,
    torque_limits: ArrayLike | None = None,
    integrator: str = "semi_implicit_euler",
    integration_resolution: int = 1,
) -> dict[str, TrackingRun]:
    """Track a joint reference with several controllers at once (one batch of states).

    At each t_i = i Δt every controller computes τ from the measured state and its
    model ``estimated_robot`` (see the module's description of the four laws), the
    torque is clipped to ``torque_limits`` and held for Δt (a zero-order hold, as a
    digital controller at 1/Δt Hz), and the *true* ``robot`` (with its gravity and
    joint friction) is integrated over Δt; ∫θ_e then grows by Δt θ_e(t_i).

    Parameters
    ----------
    robot : ScrewRobot
        The true arm.
    estimated_robot : ScrewRobot
        The controllers' model of it (:func:`scaled_inertias`, :func:`with_payload`
        make wrong ones); its gravity is the model's gravity.
    desired_joint_position_traj, desired_joint_velocity_traj, desired_joint_acceleration_traj
        θ_d, θ̇_d, θ̈_d at t_i, each of shape (N, n), N ≥ 2.
    timestep : float
        Δt in seconds, the control period.
    Kp, Kd : float or array_like, shape (n,)
        Positive gains.
    controllers : str or sequence of str
        Any of :data:`CONTROLLERS`; default all four.
    Ki : float or array_like, shape (n,)
        Integral gain, 0 ≤ K_i < K_p K_d (Routh–Hurwitz of the third-order error ODE).
    joint_positions, joint_velocities : array_like, shape (n,), optional
        Initial state of the true arm; by default the reference's first row.
    torque_limits : float or array_like, shape (n,), optional
        |τ_j| ≤ limit_j, positive.
    integrator : {"euler", "semi_implicit_euler", "rk4"}
    integration_resolution : int
        Integration steps per Δt.

    Returns
    -------
    dict of str to TrackingRun
        By controller name, in the order asked.

    Raises
    ------
    ValueError
        Bad shapes, gains that make the loop unstable, non-positive limits.
    robolab.screw.simulation.dynamics_trajectory.SimulationDiverged
        If a state becomes non-finite or a joint speed passes 10⁶ (gains too stiff
        for Δt: the discrete loop is unstable); names the controller.

    Examples
    --------
    The planar 2R holding θ = (0.5, -0.5) for 1 s with a model 20 % too light:
    PD alone sags under gravity, computed torque hardly moves.

    >>> import robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> hold = np.tile([0.5, -0.5], (1001, 1))
    >>> runs = simulate_tracking(arm, scaled_inertias(arm, 0.8), hold, 0 * hold, 0 * hold,
    ...                          0.001, 100, 20, controllers=("pd", "computed_torque"))
    >>> bool(runs["pd"].max_error > 0.1), bool(runs["computed_torque"].max_error < 0.05)
    (True, True)
    >>> simulate_tracking(arm, arm, hold, 0 * hold, 0 * hold, 0.001, 100, 20, Ki=5000)
    Traceback (most recent call last):
    ...
    ValueError: Ki = 5000 on joint 1 makes the closed loop unstable: ... K_p K_d = 2000
    """
    model, estimated = model_of(robot), model_of(estimated_robot, "estimated_robot")
    n = model.n
    if estimated.n != n:
        raise ValueError(f"the estimated model has {estimated.n} joints, the true robot {n}")
    names = _controller_names(controllers)
    references = [
        joint_array(value, n, name)
        for value, name in (
            (desired_joint_position_traj, "desired_joint_position_traj"),
            (desired_joint_velocity_traj, "desired_joint_velocity_traj"),
            (desired_joint_acceleration_traj, "desired_joint_acceleration_traj"),
        )
    ]
    for reference, name in zip(references, _QUANTITIES, strict=True):
        if reference.ndim != 2 or reference.shape[0] < 2:
            raise ValueError(
                f"the desired joint {name} must have shape (N, {n}) with N ≥ 2, "
                f"got shape {reference.shape}"
            )
    q_d, qd_d, qdd_d = references
    N = q_d.shape[0]
    if qd_d.shape[0] != N or qdd_d.shape[0] != N:
        raise ValueError(
            "the desired joint positions, velocities and accelerations must have the same "
            f"number of rows, got {N}, {qd_d.shape[0]} and {qdd_d.shape[0]}"
        )
    dt = checked_timestep(timestep)
    kp, ki, kd = _gains(n, Kp, Ki, Kd)
    limits = _torque_limits(torque_limits, n)
    integrator = checked_integrator(integrator, FIXED_STEP_INTEGRATORS)
    resolution = int(integration_resolution)
    if resolution != integration_resolution or resolution < 1:
        raise ValueError(
            f"integration_resolution must be a whole number ≥ 1, got {integration_resolution!r}"
        )
    q0 = q_d[0] if joint_positions is None else joint_array(joint_positions, n, "joint_positions")
    qd0 = (
        qd_d[0]
        if joint_velocities is None
        else joint_array(joint_velocities, n, "joint_velocities")
    )
    gravity = gravity_of(robot, None)
    estimated_gravity = gravity_of(estimated_robot, None)
    friction = friction_of(robot)
    k = len(names)
    # Rows of the batch evaluated with the model at each step: PD + g at (θ, 0, 0),
    # computed torque at (θ, θ̇, θ̈_d); the feed-forward torques are planned once.
    gravity_rows = [r for r, name in enumerate(names) if name == "pd_gravity"]
    torque_rows = [r for r, name in enumerate(names) if name == "computed_torque"]
    feedforward_rows = [r for r, name in enumerate(names) if name == "pd_feedforward"]
    planned = None
    if feedforward_rows:
        _, planned = mass_matrix_and_inverse_dynamics_kernel(
            estimated, q_d, qd_d, qdd_d, estimated_gravity, None
        )
    # The same loop generated for these joints and controllers (tracking_loop); the NumPy
    # loop below is its readable form, and runs where the generated one gives up.
    fast = track_generated(
        model, estimated, names, q_d, qd_d, qdd_d, planned, q0, qd0, gravity, estimated_gravity,
        friction, kp, ki, kd, limits, dt, resolution, integrator, _CHECK_EVERY,
    )  # fmt: skip
    if fast is not None:
        return _runs(names, dt, q_d, limits, *fast)
    model_rows = gravity_rows + torque_rows
    positions = np.empty((N, k, n))
    velocities = np.empty((N, k, n))
    applied = np.empty((N, k, n))
    peaks = np.zeros((k, n))
    q = np.tile(q0, (k, 1))
    qd = np.tile(qd0, (k, 1))
    integral = np.zeros((k, n))
    h = dt / resolution
    g_count = len(gravity_rows)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for i in range(N):
            positions[i], velocities[i] = q, qd
            error = q_d[i] - q
            feedback = kp * error + ki * integral + kd * (qd_d[i] - qd)
            tau = feedback.copy()
            if model_rows:
                eval_q = q[model_rows]
                eval_qd = qd[model_rows].copy()
                eval_qdd = np.tile(qdd_d[i], (len(model_rows), 1))
                eval_qd[:g_count] = 0.0
                eval_qdd[:g_count] = 0.0
                M, bias = mass_matrix_and_inverse_dynamics_kernel(
                    estimated, eval_q, eval_qd, eval_qdd, estimated_gravity, None
                )
                tau[gravity_rows] += bias[:g_count]
                if torque_rows:
                    tau[torque_rows] = (M[g_count:] @ feedback[torque_rows][..., None])[
                        ..., 0
                    ] + bias[g_count:]
            if planned is not None:
                tau[feedforward_rows] += planned[i]
            np.maximum(peaks, np.abs(tau), out=peaks)
            if limits is not None:
                tau = np.clip(tau, -limits, limits)
            applied[i] = tau
            integral = integral + dt * error
            if i == N - 1:
                break

            def accelerations(q_: np.ndarray, qd_: np.ndarray, tau: np.ndarray = tau) -> np.ndarray:
                return forward_dynamics_crba_kernel(
                    model, q_, qd_, minus_friction(tau, qd_, friction), gravity, None
                )

            for _ in range(resolution):
                q, qd = advance(accelerations, q, qd, h, integrator)
            if (i + 1) % _CHECK_EVERY == 0 or i == N - 2:
                _check_finite(q, qd, tau, names, i + 1, dt)
    return _runs(names, dt, q_d, limits, positions, velocities, applied, peaks)


def _runs(
    names: tuple[str, ...],
    dt: float,
    q_d: np.ndarray,
    limits: np.ndarray | None,
    positions: np.ndarray,
    velocities: np.ndarray,
    applied: np.ndarray,
    peaks: np.ndarray,
) -> dict[str, TrackingRun]:
    """The result of :func:`simulate_tracking` from its (N, k, n) arrays, by controller."""
    times = dt * np.arange(len(q_d))
    return {
        name: TrackingRun(
            controller=name,
            times=times,
            joint_positions=positions[:, r],
            joint_velocities=velocities[:, r],
            joint_torques=applied[:, r],
            errors=q_d - positions[:, r],
            peak_torques=peaks[r],
            torque_limits=limits,
        )
        for r, name in enumerate(names)
    }


def _check_finite(
    q: np.ndarray, qd: np.ndarray, tau: np.ndarray, names: tuple[str, ...], step: int, dt: float
) -> None:
    sane = (np.abs(qd) < _RUNAWAY_SPEED) & np.isfinite(q) & np.isfinite(tau)  # NaN fails too
    if sane.all():
        return
    row = int(np.flatnonzero(~sane.all(axis=1))[0])
    joint = int(np.flatnonzero(~sane[row])[0]) + 1
    raise SimulationDiverged(
        f"the {names[row]} controller's closed loop diverged by t = {step * dt:.6g} s (joint "
        f"{joint} ran away: a non-finite state or a speed over {_RUNAWAY_SPEED:g}): the "
        f"gains are too stiff for the control period Δt = {dt:g} s (the "
        "discrete loop is unstable although the continuous one is not); lower Kp and Kd or "
        "shorten the timestep",
        step=step,
        time=step * dt,
        joint=joint,
    )
