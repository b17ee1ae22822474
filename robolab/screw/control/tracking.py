"""Closed-loop control simulations: the book's ``SimulateControl`` and four controllers at once.

One time loop, :func:`closed_loop`, runs joint controllers (the laws of
:mod:`robolab.screw.control.laws`) against a simulated *true* robot (its gravity and
joint friction included): at each reference point t_i = i Δt every controller computes
τ from the measured state and its *model* of the robot, the torque is held for Δt (a
zero-order hold, as a digital controller at 1/Δt Hz) while the true robot is integrated
over Δt in ``integration_resolution`` steps, and ∫θ_e grows by Δt (θ_d(t_i) - θ) with
the θ of the row just recorded. Its two public forms differ in what :class:`LoopForm`
names:

:func:`simulate_control` (the book's ``SimulateControl``, computed torque)
    one state; the integral term of the law adds the current error, K_i (∫θ_e + θ_e);
    row i of the result is the state *reached* after reference point i, and ∫θ_e grows
    by the error there.
:func:`simulate_tracking` (PD, PD + gravity, PD + feed-forward, computed torque)
    several controllers at once, one batch of states (one row each), with optional
    torque limits |τ_j| ≤ τ_max,j (the commanded torque is clipped, and the result says
    by how much it asked for more); row i is the state *at* t_i (row 0 the start).

For a few joints :func:`simulate_tracking` is computed by generated loops
(:func:`robolab.screw._fast.loops.track_generated`, the same numbers to rounding); the
readable loop runs where they give up (a run that diverged, a singular M̃), and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from .._fast.loops import track_generated
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.forward import friction_of
from ..dynamics.model import DynamicsModel, gravity_of, model_of
from ..friction import JointFriction
from ..kinematics.forward import joint_array
from ..robot import ScrewRobot
from ..simulation.divergence import (
    CHECK_EVERY,
    QUIET,
    RUNAWAY_SPEED,
    SimulationDiverged,
    divergence_advice,
    finite,
    first_bad_row,
    first_runaway_row,
    locate,
)
from ..simulation.dynamics_trajectory import checked_trajectories, tip_trajectory
from ..simulation.integrators import (
    FIXED_STEP_INTEGRATORS,
    advance,
    checked_integrator,
    checked_resolution,
    checked_start_speed,
    checked_step_count,
    checked_timestep,
    checked_torques,
    closed_form_dynamics,
)
from .laws import (
    checked_gains,
    computed_torque_law,
    pd_feedforward_law,
    pd_gravity_law,
    pd_law,
    per_joint,
    planned_torques,
)

__all__ = [
    "CONTROLLERS",
    "TrackingResult",
    "scaled_inertias",
    "simulate_control",
    "simulate_tracking",
    "with_payload",
]

#: The controllers of :func:`simulate_tracking`, by name.
CONTROLLERS = ("pd", "pd_gravity", "pd_feedforward", "computed_torque")

_QUANTITIES = ("positions", "velocities", "accelerations")
#: The factors :func:`scaled_inertias` accepts: a model error of the masses, not another arm.
MASS_FACTOR_RANGE = (1e-3, 1e3)
#: The largest payload :func:`with_payload` accepts, in kg (a thousand tonnes).
MAX_PAYLOAD = 1e6


@dataclass(frozen=True)
class LoopForm:
    """What the two forms of :func:`closed_loop` differ in.

    Attributes
    ----------
    current_error_in_integral : bool
        The integral term is K_i (∫θ_e + θ_e), the book's; else K_i ∫θ_e.
    row_zero_is_start : bool
        Row i of the result is the state at t_i, row 0 the start, and the torque of the
        last row is not integrated; else row i is the state reached after reference
        point i (the book's).
    runaway_speed : float or None
        A joint speed past which the loop has run away even if still finite (checked on
        the current states, as the generated loops check them); None: not there.
    check_every : int
        Rows between two checks of the states.
    runaway_rows : float or None
        A joint speed past which a recorded row has run away: checked on every row of a
        block of ``check_every`` rows after the non-finite ones (as
        :func:`~robolab.screw.simulation.dynamics_trajectory.forward_dynamics_trajectory`
        checks its rows), and located at its first integration step; None: not there.
    """

    current_error_in_integral: bool
    row_zero_is_start: bool
    runaway_speed: float | None
    check_every: int
    runaway_rows: float | None = None


#: The loop of :func:`simulate_control`, the book's ``SimulateControl``.
BOOK_LOOP = LoopForm(True, False, None, CHECK_EVERY, RUNAWAY_SPEED)
#: The loop of :func:`simulate_tracking` (and of its generated loops).
TRACKING_LOOP = LoopForm(False, True, RUNAWAY_SPEED, 50)


@dataclass(frozen=True, eq=False)
class TrackingResult:
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


def scaled_inertias(robot: ScrewRobot, factor: float) -> ScrewRobot:
    """The robot with every link's mass and rotational inertia times ``factor`` (a model error).

    Parameters
    ----------
    robot : ScrewRobot
    factor : float
        Positive, in [10⁻³, 10³]; 0.8 is a model whose links are 20 % too light.

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
    low, high = MASS_FACTOR_RANGE
    if not low <= value <= high:
        raise ValueError(
            f"factor must lie in [{low:g}, {high:g}] (a model error of the masses), got {value:g}"
        )
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
        m_p ≥ 0 in kg, at most 10⁶.

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
    >>> robolab.pd_gravity_torque(arm, [0, 0], [0, 0], [0, 0], [0, 0], 1, 1).round(4)
    array([39.24 , 14.715])
    """
    m_p = float(as_float_array(mass, "mass", ()))
    if not np.isfinite(m_p) or m_p < 0:
        raise ValueError(f"mass must be a payload mass ≥ 0 in kg, got {mass!r}")
    if m_p > MAX_PAYLOAD:
        raise ValueError(f"mass must be a payload mass of at most {MAX_PAYLOAD:g} kg, got {m_p:g}")
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
    limits = per_joint(value, "torque_limits", n)
    if not np.all(limits > 0):  # also refuses NaN
        raise ValueError(f"torque_limits must be positive (|τ_j| ≤ limit), got {limits}")
    return limits


#: Rows of a batch of states (a list of ints), or ``...`` for a single state (one controller).
Rows = Any


def controller_groups(names: tuple[str, ...], single_state: bool) -> list[tuple[str, Rows]]:
    """Each controller with the rows of the batch of states it controls, in order.

    A single state (shape (n,)) has one controller, which takes all of it (``...``).
    """
    if single_state:
        return [(names[0], ...)]
    rows: dict[str, list[int]] = {}
    for r, name in enumerate(names):
        rows.setdefault(name, []).append(r)
    return list(rows.items())


def law_torques(
    name: str,
    estimated: DynamicsModel,
    estimated_gravity: np.ndarray,
    q: np.ndarray,
    qd: np.ndarray,
    qdd_desired: np.ndarray,
    planned: np.ndarray | None,
    feedback: np.ndarray,
) -> np.ndarray:
    """τ of the controller ``name`` at the states q, qd (one or a batch), by its law."""
    if name == "pd":
        return feedback
    if name == "pd_gravity":
        return pd_gravity_law(estimated, estimated_gravity, q, feedback)
    if name == "pd_feedforward":
        assert planned is not None
        return pd_feedforward_law(planned, feedback)
    return computed_torque_law(estimated, estimated_gravity, q, qd, qdd_desired, feedback)


def controller_torques(
    groups: list[tuple[str, Rows]],
    estimated: DynamicsModel,
    estimated_gravity: np.ndarray,
    q: np.ndarray,
    qd: np.ndarray,
    qdd_desired: np.ndarray,
    planned: np.ndarray | None,
    feedback: np.ndarray,
) -> np.ndarray:
    """τ of every controller at its rows of the states (:func:`law_torques`)."""
    if len(groups) == 1:  # one controller for all the states
        return law_torques(
            groups[0][0], estimated, estimated_gravity, q, qd, qdd_desired, planned, feedback
        )
    tau = np.empty_like(feedback)
    for name, rows in groups:
        tau[rows] = law_torques(
            name,
            estimated,
            estimated_gravity,
            q[rows],
            qd[rows],
            qdd_desired,
            planned,
            feedback[rows],
        )
    return tau


def closed_loop(
    form: LoopForm,
    model: DynamicsModel,
    gravity: np.ndarray,
    friction: JointFriction | None,
    tip: np.ndarray | None,
    estimated: DynamicsModel,
    estimated_gravity: np.ndarray,
    names: tuple[str, ...],
    q: np.ndarray,
    qd: np.ndarray,
    q_desired: np.ndarray,
    qd_desired: np.ndarray,
    qdd_desired: np.ndarray,
    planned: np.ndarray | None,
    Kp: np.ndarray,
    Ki: np.ndarray,
    Kd: np.ndarray,
    limits: np.ndarray | None,
    timestep: float,
    resolution: int,
    integrator: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Controllers against the true robot along a reference: the one loop of this module.

    The true robot is ``model`` (with ``gravity``, ``friction`` and the tip wrench of each
    reference point, ``tip``); the controllers ``names`` (one per row of the states q, qd
    of shape (k, n), or one for a single state (n,)) see the ``estimated`` model. Row i of
    the reference (N, n) gives the feedback u (:func:`~.laws.pd_law`), each controller's
    torque (:func:`controller_torques`; ``planned`` the feed-forward torques along the
    reference), clipped to ``limits``; the true robot moves under it for ``timestep`` in
    ``resolution`` steps of ``integrator``. ``form`` (:data:`BOOK_LOOP`,
    :data:`TRACKING_LOOP`) says how the integral term is formed, what row i holds and
    how the states are checked.

    Returns
    -------
    positions, velocities, torques : ndarray, shape (N, k, n) or (N, n)
        The states (see :class:`LoopForm`) and the applied torques of each row.
    peaks : ndarray, shape (k, n) or (n,)
        max_i |τ| commanded (before the limits).

    Raises
    ------
    SimulationDiverged
        When a state is not finite (or, with ``form.runaway_speed``, runs away).
    """
    N = len(q_desired)
    groups = controller_groups(names, q.ndim == 1)
    offset = 1 if form.row_zero_is_start else 0  # torque i leads to row i + offset
    positions = np.empty((N, *q.shape))
    velocities = np.empty((N, *q.shape))
    torques = np.empty((N, *q.shape))
    peaks = np.zeros(q.shape)  # of the commanded torques (without limits: the applied ones)
    if offset:
        positions[0], velocities[0] = q, qd
    start = q, qd
    integral = np.zeros(q.shape)
    dt = timestep / resolution
    checked = offset  # rows [0, checked) are known to be finite
    with np.errstate(**QUIET):
        for i in range(N):
            error = q_desired[i] - q
            feedback = pd_law(
                error,
                integral + error if form.current_error_in_integral else integral,
                qd_desired[i] - qd,
                Kp,
                Ki,
                Kd,
            )
            tau = controller_torques(
                groups,
                estimated,
                estimated_gravity,
                q,
                qd,
                qdd_desired[i],
                None if planned is None else planned[i],
                feedback,
            )
            if limits is not None:
                np.maximum(peaks, np.abs(tau), out=peaks)
                tau = np.clip(tau, -limits, limits)
            torques[i] = tau
            row = i + offset
            if row == N:
                break
            dynamics = closed_form_dynamics(
                model, tau, gravity, None if tip is None else tip[i], friction
            )
            for _ in range(resolution):
                q, qd = advance(dynamics, q, qd, dt, integrator)
            positions[row], velocities[row] = q, qd
            # ∫θ_e grows by Δt times the error of row i: the state at t_i (row 0 the start),
            # or in the book's form the state reached after reference point i
            integral = integral + timestep * (q_desired[i] - positions[i])
            if (i + 1) % form.check_every == 0 or row == N - 1:
                if form.runaway_speed is not None:
                    _check_runaway(q, qd, tau, names, row, timestep, form.runaway_speed)
                limit = None
                bad = first_bad_row(positions, velocities, checked, row + 1)
                if bad < 0 and form.runaway_rows is not None:
                    limit = form.runaway_rows
                    bad = first_runaway_row(velocities, checked, row + 1, limit)
                if bad >= 0:
                    before = start if bad == 0 else (positions[bad - 1], velocities[bad - 1])
                    raise _diverged_on_the_way(
                        model,
                        gravity,
                        friction,
                        tip,
                        torques,
                        before,
                        bad,
                        offset,
                        (positions[bad], velocities[bad]),
                        timestep,
                        resolution,
                        integrator,
                        limit,
                    )
                checked = row + 1
    if limits is None:
        peaks = np.abs(torques).max(axis=0)
    return positions, velocities, torques, peaks


def _diverged_on_the_way(
    model: DynamicsModel,
    gravity: np.ndarray,
    friction: JointFriction | None,
    tip: np.ndarray | None,
    torques: np.ndarray,
    before: tuple[np.ndarray, np.ndarray],
    row: int,
    offset: int,
    stored: tuple[np.ndarray, np.ndarray],
    timestep: float,
    resolution: int,
    integrator: str,
    speed_limit: float | None = None,
) -> SimulationDiverged:
    """The error for row ``row`` of :func:`closed_loop`, reached non-finite from ``before``
    (with ``speed_limit``: finite, with a speed over the limit).

    A torque that is already infinite (gains so stiff that τ overflowed) is named as
    such; otherwise :func:`~robolab.screw.simulation.divergence.locate` finds the first
    integration step that gave a non-finite state (or a speed over the limit).
    """
    point = row - offset  # the reference point whose torque led to the row
    tau = torques[point]
    if speed_limit is None and not finite(tau):
        entry = tuple(np.argwhere(~np.isfinite(tau))[0])  # (joint,), or (state, joint)
        joint, value = int(entry[-1]) + 1, float(tau[entry])
        time = point * timestep
        speed = float(np.abs(before[1]).max())
        return SimulationDiverged(
            f"the simulation diverged at reference point {point} (t = {time:.6g} s): the "
            f"controller's torque on joint {joint} became "
            f"{'NaN' if np.isnan(value) else f'{value:g}'}, with joint velocities up to "
            f"{speed:.3g} (gains too stiff for the time step make the state run away); "
            + divergence_advice(timestep, resolution, integrator),
            step=point * resolution + 1,
            time=time,
            joint=joint,
        )
    dynamics = closed_form_dynamics(
        model, tau, gravity, None if tip is None else tip[point], friction
    )
    dt = timestep / resolution
    error = locate(
        lambda q, qd: advance(dynamics, q, qd, dt, integrator),
        *before,
        point,
        stored,
        timestep,
        resolution,
        integrator,
        f"on the way to row {row} of the result",
        speed_limit,
    )
    if speed_limit is None:
        return error
    return SimulationDiverged(
        f"{error}; or lower Kp and Kd (gains too stiff for the time step make the discrete "
        "loop unstable although the continuous one is not)",
        step=error.step,
        time=error.time,
        joint=error.joint,
    )


def _check_runaway(
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    names: tuple[str, ...],
    step: int,
    dt: float,
    runaway_speed: float,
) -> None:
    """Raise the error of a controller whose state ran away (as the generated loops see it)."""
    sane = (np.abs(qd) < runaway_speed) & np.isfinite(q) & np.isfinite(tau)  # NaN fails too
    if sane.all():
        return
    row = int(np.flatnonzero(~sane.all(axis=1))[0])
    joint = int(np.flatnonzero(~sane[row])[0]) + 1
    raise SimulationDiverged(
        f"the {names[row]} controller's closed loop diverged by t = {step * dt:.6g} s (joint "
        f"{joint} ran away: a non-finite state or a speed over {runaway_speed:g}): the "
        f"gains are too stiff for the control period Δt = {dt:g} s (the "
        "discrete loop is unstable although the continuous one is not); lower Kp and Kd or "
        "shorten the timestep",
        step=step,
        time=step * dt,
        joint=joint,
    )


def _simulate_control_book(
    joint_positions,
    joint_velocities,
    gravity,
    tip_wrench_traj,
    link_frames,
    spatial_inertias,
    screw_axes,
    desired_joint_position_traj,
    desired_joint_velocity_traj,
    desired_joint_acceleration_traj,
    estimated_gravity,
    estimated_link_frames,
    estimated_spatial_inertias,
    Kp,
    Ki,
    Kd,
    timestep,
    integration_resolution,
    *,
    estimated_screw_axes=None,
    integrator: Literal["euler", "semi_implicit_euler", "rk4"] = "euler",
):
    """:func:`simulate_control` with the book's arguments, in the book's order."""
    return simulate_control(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        estimated_robot=BookArrays(
            gravity=estimated_gravity,
            link_frames=estimated_link_frames,
            spatial_inertias=estimated_spatial_inertias,
            screw_axes=screw_axes if estimated_screw_axes is None else estimated_screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        tip_wrench_traj=tip_wrench_traj,
        desired_joint_position_traj=desired_joint_position_traj,
        desired_joint_velocity_traj=desired_joint_velocity_traj,
        desired_joint_acceleration_traj=desired_joint_acceleration_traj,
        Kp=Kp,
        Ki=Ki,
        Kd=Kd,
        timestep=timestep,
        integration_resolution=integration_resolution,
        integrator=integrator,
    )


@robot_or_arrays(_simulate_control_book)
def simulate_control(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    tip_wrench_traj: ArrayLike,
    desired_joint_position_traj: ArrayLike,
    desired_joint_velocity_traj: ArrayLike,
    desired_joint_acceleration_traj: ArrayLike,
    estimated_robot: ScrewRobot | BookArrays,
    Kp: ArrayLike,
    Ki: ArrayLike,
    Kd: ArrayLike,
    timestep: float,
    integration_resolution: int,
    gravity: ArrayLike | None = None,
    estimated_gravity: ArrayLike | None = None,
    *,
    integrator: Literal["euler", "semi_implicit_euler", "rk4"] = "euler",
) -> tuple[np.ndarray, np.ndarray]:
    """Simulate computed-torque control along a reference (the book's ``SimulateControl``).

    For each reference point i (as in the book's library):

    1. τ_i = :func:`~robolab.screw.control.laws.computed_torque` at the current state with
       the *estimated* model and the reference θ_d[i], θ̇_d[i], θ̈_d[i];
    2. the *true* robot moves under τ_i (and the tip wrench of row i) for one
       ``timestep``, in ``integration_resolution`` integration steps;
    3. the row i of the results is τ_i and the joint positions reached;
       ∫θ_e += Δt (θ_d[i] - θ).

    The true robot's joint friction (``robot.friction``, a
    :class:`robolab.screw.friction.JointFriction`) acts on it; the controller
    does not know it (the estimated robot's friction is not used). The loop is
    :func:`simulate_tracking`'s (:func:`closed_loop` in the book's form,
    :data:`BOOK_LOOP`).

    Call it with a robot, or with the book's arguments::

        simulate_control(robot, joint_positions, joint_velocities, tip_wrench_traj,
                         desired_joint_position_traj, desired_joint_velocity_traj,
                         desired_joint_acceleration_traj, estimated_robot, Kp, Ki, Kd,
                         timestep, integration_resolution)
        simulate_control(joint_positions, joint_velocities, gravity, tip_wrench_traj,
                         link_frames, spatial_inertias, screw_axes,
                         desired_joint_position_traj, desired_joint_velocity_traj,
                         desired_joint_acceleration_traj, estimated_gravity,
                         estimated_link_frames, estimated_spatial_inertias, Kp, Ki, Kd,
                         timestep, integration_resolution, *, estimated_screw_axes=None)

    Parameters
    ----------
    robot : ScrewRobot
        The true robot (and, by default, true gravity). In the book's form pass
        ``gravity`` (true gravity), ``link_frames, spatial_inertias, screw_axes``
        (the true robot) where the signature above shows them, and the
        controller's model as ``estimated_gravity, estimated_link_frames,
        estimated_spatial_inertias`` before the gains, and optionally
        ``estimated_screw_axes=`` (by default the true ones, as the book's
        library always uses).
    joint_positions, joint_velocities : array_like, shape (n,)
        The initial state of the true robot.
    tip_wrench_traj : array_like, shape (N, 6) or (6,), or None
        Wrench the end-effector applies at each step (in {n+1}); None for zero.
    desired_joint_position_traj, desired_joint_velocity_traj, desired_joint_acceleration_traj
        The reference, each of shape (N, n).
    estimated_robot : ScrewRobot
        The controller's model: link frames, inertias, screw axes and, by
        default, its gravity.
    Kp, Ki, Kd : float or array_like, shape (n,)
        Zero or positive, with K_i < K_p K_d where K_i > 0 (else the closed loop is
        unstable: refused).
    timestep : float
        Δt between reference points, in seconds.
    integration_resolution : int
        Integration steps per Δt (≥ 1).
    gravity, estimated_gravity : array_like, shape (3,)
        True gravity and the controller's; by default those of the two robots.
    integrator : {"euler", "semi_implicit_euler", "rk4"}
        A fixed-step integrator of :mod:`robolab.screw.simulation.integrators`.

    Returns
    -------
    joint_torque_traj, joint_position_traj : ndarray, shape (N, n)

    Raises
    ------
    robolab.screw.simulation.divergence.SimulationDiverged
        If the simulated state becomes NaN or infinite, or a joint speed passes 10⁶ rad/s
        (usually gains too stiff for the time step: the discrete loop is unstable and the
        state runs away); the message names the step, the time and the joint.
    ValueError
        Gains that make the loop unstable, a tip wrench over 10¹² (N·m, N), initial joint
        speeds over 10⁶, more than 10⁶ integration steps (reference points ×
        ``integration_resolution``) or a step shorter than a nanosecond.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import simulate_control
    >>> lighter = arm.replace(spatial_inertias=[np.diag([0, 0, 0, 0.8, 0.8, 0.8])] * 2)
    >>> hold = np.zeros((100, 2))                    # hold it horizontal for 1 s
    >>> tau, q = simulate_control(arm, [0.0, 0.0], [0.0, 0.0], None, hold, hold, hold,
    ...                           lighter, 20, 10, 18, 0.01, 5)
    >>> tau[0]  # the model's gravity torques, 20 % short of the true [29.43, 9.81]
    array([23.544,  7.848])
    >>> bool(np.abs(q).max() < 0.1)  # the arm sags a little; the feedback holds it
    True

    In the book's form, a pendulum (1 kg at 1 m) held still against gravity by a
    perfect model:

    >>> pendulum = ([x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])])
    >>> S = [[0], [0], [1], [0], [0], [0]]
    >>> hold = np.zeros((3, 1))
    >>> tau, q = simulate_control([0.0], [0.0], [0, -9.81, 0], None, *pendulum, S, hold, hold,
    ...                           hold, [0, -9.81, 0], *pendulum, 20, 10, 18, 0.01, 10)
    >>> tau.round(12), q.round(12)
    (array([[9.81],
           [9.81],
           [9.81]]), array([[0.],
           [0.],
           [0.]]))
    """
    model, estimated = model_of(robot), model_of(estimated_robot, "estimated_robot")
    n = model.n
    if estimated.n != n:
        raise ValueError(f"the estimated model has {estimated.n} joints, the true robot {n}")
    true_gravity = gravity_of(robot, gravity)
    model_gravity = gravity_of(estimated_robot, estimated_gravity)
    q = joint_array(joint_positions, n, "joint_positions", batch=False)
    qd = joint_array(joint_velocities, n, "joint_velocities", batch=False)
    checked_start_speed(qd)
    q_desired, qd_desired, qdd_desired = checked_trajectories(
        n,
        (),
        desired_joint_position_traj=desired_joint_position_traj,
        desired_joint_velocity_traj=desired_joint_velocity_traj,
        desired_joint_acceleration_traj=desired_joint_acceleration_traj,
    )
    tip = tip_trajectory(tip_wrench_traj, len(q_desired), ())
    if tip is not None:
        checked_torques(tip, "tip_wrench_traj")
    kp, ki, kd = checked_gains(Kp, Ki, Kd, n, positive=())
    dt, resolution = checked_timestep(timestep), checked_resolution(integration_resolution)
    checked_step_count(len(q_desired) + 1, resolution, dt)  # every reference point is integrated
    positions, _, torques, _ = closed_loop(
        BOOK_LOOP,
        model,
        true_gravity,
        friction_of(robot),
        tip,
        estimated,
        model_gravity,
        ("computed_torque",),
        q,
        qd,
        q_desired,
        qd_desired,
        qdd_desired,
        None,
        kp,
        ki,
        kd,
        None,
        dt,
        resolution,
        checked_integrator(integrator, FIXED_STEP_INTEGRATORS),
    )
    return torques, positions


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
) -> dict[str, TrackingResult]:
    """Track a joint reference with several controllers at once (one batch of states).

    At each t_i = i Δt every controller computes τ from the measured state and its
    model ``estimated_robot`` (the four laws of :mod:`robolab.screw.control.laws`), the
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
    dict of str to TrackingResult
        By controller name, in the order asked.

    Raises
    ------
    ValueError
        Bad shapes, gains that make the loop unstable, non-positive limits.
    robolab.screw.simulation.divergence.SimulationDiverged
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
    ValueError: unstable gains at joint 1: ... needs Kd·Kp > Ki (Routh–Hurwitz), got 2000 ≤ 5000; \
raise Kd or lower Ki
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
    kp, ki, kd = checked_gains(Kp, Ki, Kd, n)
    limits = _torque_limits(torque_limits, n)
    integrator = checked_integrator(integrator, FIXED_STEP_INTEGRATORS)
    resolution = checked_resolution(integration_resolution)
    checked_step_count(N, resolution, dt)
    q0 = q_d[0] if joint_positions is None else joint_array(joint_positions, n, "joint_positions")
    qd0 = (
        qd_d[0]
        if joint_velocities is None
        else joint_array(joint_velocities, n, "joint_velocities")
    )
    checked_start_speed(qd0, "the initial joint velocities")
    gravity = gravity_of(robot, None)
    estimated_gravity = gravity_of(estimated_robot, None)
    friction = friction_of(robot)
    planned = None
    if "pd_feedforward" in names:
        planned = planned_torques(estimated, estimated_gravity, q_d, qd_d, qdd_d)
    # The generated loops (one per controller, for these joints and this integrator) give
    # the whole run, or None where they give up: then the readable loop runs and says why.
    run = track_generated(
        model,
        estimated,
        names,
        q_d,
        qd_d,
        qdd_d,
        planned,
        q0,
        qd0,
        gravity,
        estimated_gravity,
        friction,
        kp,
        ki,
        kd,
        limits,
        dt,
        resolution,
        integrator,
        TRACKING_LOOP.check_every,
    )
    if run is None:
        k = len(names)
        run = closed_loop(
            TRACKING_LOOP,
            model,
            gravity,
            friction,
            None,
            estimated,
            estimated_gravity,
            names,
            np.tile(q0, (k, 1)),
            np.tile(qd0, (k, 1)),
            q_d,
            qd_d,
            qdd_d,
            planned,
            kp,
            ki,
            kd,
            limits,
            dt,
            resolution,
            integrator,
        )
    return _results(names, dt, q_d, limits, *run)


def _results(
    names: tuple[str, ...],
    dt: float,
    q_d: np.ndarray,
    limits: np.ndarray | None,
    positions: np.ndarray,
    velocities: np.ndarray,
    applied: np.ndarray,
    peaks: np.ndarray,
) -> dict[str, TrackingResult]:
    """The result of :func:`simulate_tracking` from its (N, k, n) arrays, by controller."""
    times = dt * np.arange(len(q_d))
    return {
        name: TrackingResult(
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
