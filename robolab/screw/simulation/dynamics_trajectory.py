"""Dynamics along a trajectory (Modern Robotics, section 8.5): torques, and the motion under them.

* :func:`inverse_dynamics_trajectory` gives the torques along a trajectory
  (one batched Newton–Euler call for all its points);
* :func:`forward_dynamics_trajectory` integrates the motion under a torque
  history, with ``integration_resolution`` steps per trajectory interval
  (Euler as in the book, or another integrator of :mod:`robolab.screw.simulation.integrators`
  by name: ``"semi_implicit_euler"``, ``"rk4"`` or the adaptive ``"rk45"``).
  The robot's joint friction (:mod:`robolab.screw.friction`) acts in every step.

Trajectories are arrays with time along the first axis: (N, n) for one robot
state, (N, ..., n) for a batch of robots simulated together.

A simulation never returns NaN or infinite values quietly: when a step makes
θ or θ̇ non-finite (a time step too large for the arm's dynamics, or for the
gains of a controller), :class:`~robolab.screw.simulation.divergence.SimulationDiverged`
is raised, naming the step, the time and the joint; so it is when a joint speed runs past
:data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` (10⁶ rad/s) while the numbers are
still finite. Every run is bounded (:mod:`robolab.screw.simulation.integrators`: at most
10⁶ fixed steps a call, and a budget of evaluations for ``"rk45"``).

The motion of one state under torques alone (no tip wrench, no friction, a fixed-step
integrator) is computed by a generated loop (:func:`robolab.screw._fast.loops.torque_rows`,
the same numbers bit for bit); :func:`simulate_kernel` asks it first and runs the
readable loop only where it gives up.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from .._fast import space_frame
from .._fast.loops import torque_rows
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.forward import friction_of
from ..dynamics.model import (
    DynamicsModel,
    gravity_of,
    model_of,
)
from ..friction import JointFriction
from ..kinematics.forward import joint_arrays
from ..robot import ScrewRobot
from .divergence import (
    CHECK_EVERY,
    QUIET,
    RUNAWAY_SPEED,
    SimulationDiverged,
    finite,
    first_bad_row,
    first_runaway_row,
    locate,
)
from .integrators import (
    INTEGRATORS,
    Accelerations,
    AdaptiveBudget,
    adaptive_budget,
    advance,
    checked_integrator,
    checked_resolution,
    checked_start_speed,
    checked_step_count,
    checked_timestep,
    checked_torques,
    closed_form_dynamics,
    solve_ivp_interval,
)

__all__ = [
    "forward_dynamics_trajectory",
    "inverse_dynamics_trajectory",
]


def _trajectory(
    name: str, value: Any, n: int, batch: tuple[int, ...], length: int | None = None
) -> np.ndarray:
    """A (N, *batch, n) array; N must equal ``length`` when given."""
    array = as_float_array(value, name)
    expected = (*batch, n)
    if array.ndim != len(expected) + 1 or array.shape[1:] != expected:
        raise ValueError(
            f"{name} must have shape (N, {', '.join(map(str, expected))}): one row per "
            f"trajectory point, got shape {array.shape}"
        )
    if length is not None and array.shape[0] != length:
        raise ValueError(
            f"{name} must have {length} rows like the other trajectories, got {array.shape[0]}"
        )
    if array.shape[0] < 1:
        raise ValueError(f"{name} must have at least one row, got none")
    return array


def checked_trajectories(n: int, batch: tuple[int, ...], **trajectories: Any) -> list[np.ndarray]:
    """Trajectories of shape (N, *batch, n), checked by name; the first one sets N."""
    arrays: list[np.ndarray] = []
    for name, value in trajectories.items():
        arrays.append(_trajectory(name, value, n, batch, len(arrays[0]) if arrays else None))
    return arrays


def tip_trajectory(value: Any, length: int, batch: tuple[int, ...]) -> np.ndarray | None:
    """The tip wrench at each of ``length`` points, (N, *batch, 6), or None for zero."""
    if value is None:
        return None
    array = as_float_array(value, "tip_wrench_traj")
    if array.shape == (6,):
        return np.broadcast_to(array, (length, *batch, 6))
    return _trajectory("tip_wrench_traj", array, 6, batch, length)


def _inverse_dynamics_trajectory_book(
    joint_position_traj,
    joint_velocity_traj,
    joint_acceleration_traj,
    gravity,
    tip_wrench_traj,
    link_frames,
    spatial_inertias,
    screw_axes,
):
    """:func:`inverse_dynamics_trajectory` with the book's arguments, in the book's order."""
    return inverse_dynamics_trajectory(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_position_traj=joint_position_traj,
        joint_velocity_traj=joint_velocity_traj,
        joint_acceleration_traj=joint_acceleration_traj,
        tip_wrench_traj=tip_wrench_traj,
    )


@robot_or_arrays(_inverse_dynamics_trajectory_book)
def inverse_dynamics_trajectory(
    robot: ScrewRobot | BookArrays,
    joint_position_traj: ArrayLike,
    joint_velocity_traj: ArrayLike,
    joint_acceleration_traj: ArrayLike,
    gravity: ArrayLike | None = None,
    tip_wrench_traj: ArrayLike | None = None,
) -> np.ndarray:
    """Joint torques along a trajectory (the book's ``InverseDynamicsTrajectory``).

    Inverse dynamics at every point; computed as one batched call.

    Call it with a robot, or with the book's arguments::

        inverse_dynamics_trajectory(robot, joint_position_traj, joint_velocity_traj,
                                    joint_acceleration_traj)
        inverse_dynamics_trajectory(joint_position_traj, joint_velocity_traj,
                                    joint_acceleration_traj, gravity, tip_wrench_traj,
                                    link_frames, spatial_inertias, screw_axes)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, its arrays after ``tip_wrench_traj``, as in
        :func:`~robolab.screw.dynamics.rnea.inverse_dynamics_rnea`.
    joint_position_traj, joint_velocity_traj, joint_acceleration_traj : array_like, shape (N, n)
        Row i is the state at time step i.
    gravity : array_like, shape (3,)
        By default the robot's.
    tip_wrench_traj : array_like, shape (N, 6) or (6,), or None
        Tip wrench at each step (in {n+1}); a single wrench for all steps; None for zero.

    Returns
    -------
    joint_torque_traj : ndarray, shape (N, n)

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import inverse_dynamics_trajectory
    >>> inverse_dynamics_trajectory(arm, [[0.0, 0.0], [np.pi / 2, 0.0]], np.zeros((2, 2)),
    ...                             np.zeros((2, 2))).round(12) + 0.0
    array([[29.43,  9.81],
           [ 0.  ,  0.  ]])

    In the book's form, a pendulum (1 kg at 1 m) accelerated at 1 rad/s² while
    horizontal, then while hanging:

    >>> inverse_dynamics_trajectory([[0.0], [-np.pi / 2]], [[0.0], [0.0]], [[1.0], [1.0]],
    ...                             [0, -9.81, 0], None, [x, np.eye(4)],
    ...                             [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    ...                             [[0], [0], [1], [0], [0], [0]]).round(12)
    array([[10.81],
           [ 1.  ]])
    """
    return _inverse_dynamics_trajectory(
        model_of(robot),
        gravity_of(robot, gravity),
        joint_position_traj,
        joint_velocity_traj,
        joint_acceleration_traj,
        tip_wrench_traj,
    )


def _inverse_dynamics_trajectory(
    model: DynamicsModel,
    gravity: np.ndarray,
    joint_position_traj: Any,
    joint_velocity_traj: Any,
    joint_acceleration_traj: Any,
    tip_wrench_traj: Any,
) -> np.ndarray:
    """:func:`inverse_dynamics_trajectory` of a model, with gravity checked; checks the rest."""
    q, qd, qdd = checked_trajectories(
        model.n,
        (),
        joint_position_traj=joint_position_traj,
        joint_velocity_traj=joint_velocity_traj,
        joint_acceleration_traj=joint_acceleration_traj,
    )
    tip = tip_trajectory(tip_wrench_traj, len(q), ())
    return space_frame.inverse_dynamics(model, q, qd, qdd, gravity, tip)


def _forward_dynamics_trajectory_book(
    joint_positions,
    joint_velocities,
    joint_torque_traj,
    gravity,
    tip_wrench_traj,
    link_frames,
    spatial_inertias,
    screw_axes,
    timestep,
    integration_resolution,
    *,
    integrator: Literal["euler", "semi_implicit_euler", "rk4", "rk45"] = "euler",
):
    """:func:`forward_dynamics_trajectory` with the book's arguments, in the book's order."""
    return forward_dynamics_trajectory(
        BookArrays(
            gravity=gravity,
            link_frames=link_frames,
            spatial_inertias=spatial_inertias,
            screw_axes=screw_axes,
        ),
        joint_positions=joint_positions,
        joint_velocities=joint_velocities,
        joint_torque_traj=joint_torque_traj,
        tip_wrench_traj=tip_wrench_traj,
        timestep=timestep,
        integration_resolution=integration_resolution,
        integrator=integrator,
    )


@robot_or_arrays(_forward_dynamics_trajectory_book)
def forward_dynamics_trajectory(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_torque_traj: ArrayLike,
    timestep: float,
    integration_resolution: int,
    gravity: ArrayLike | None = None,
    tip_wrench_traj: ArrayLike | None = None,
    *,
    integrator: Literal["euler", "semi_implicit_euler", "rk4", "rk45"] = "euler",
) -> tuple[np.ndarray, np.ndarray]:
    """Simulate the motion under a torque history (the book's ``ForwardDynamicsTrajectory``).

    Row 0 of the result is the initial state; the torques (and tip wrench)
    of row i act, held constant, from step i to step i+1, integrated with
    ``integration_resolution`` steps of length Δt / ``integration_resolution``.

    Call it with a robot, or with the book's arguments::

        forward_dynamics_trajectory(robot, joint_positions, joint_velocities,
                                    joint_torque_traj, timestep, integration_resolution)
        forward_dynamics_trajectory(joint_positions, joint_velocities,
                                    joint_torque_traj, gravity, tip_wrench_traj,
                                    link_frames, spatial_inertias, screw_axes, timestep,
                                    integration_resolution)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, its arrays after ``tip_wrench_traj``, as in
        :func:`~robolab.screw.dynamics.rnea.inverse_dynamics_rnea`.
    joint_positions, joint_velocities : array_like, shape (n,) or (..., n)
        The initial state; a batch simulates many robots at once.
    joint_torque_traj : array_like, shape (N, n) or (N, ..., n)
    timestep : float
        Δt between trajectory points, in seconds.
    integration_resolution : int
        Integration steps per Δt (≥ 1).
    gravity : array_like, shape (3,)
        By default the robot's.
    tip_wrench_traj : array_like, shape (N, 6) or (N, ..., 6) or (6,), or None
    integrator : {"euler", "semi_implicit_euler", "rk4", "rk45"}
        Euler's method as in the book, semi-implicit (symplectic) Euler, fourth-order
        Runge–Kutta, or SciPy's adaptive RK45 (``solve_ivp`` over each Δt, its step at
        most Δt / ``integration_resolution``); see :mod:`robolab.screw.simulation.integrators`.
        A robot's joint friction acts in every step.

    Returns
    -------
    joint_position_traj, joint_velocity_traj : ndarray, shape (N, n) or (N, ..., n)

    Raises
    ------
    SimulationDiverged
        If a step makes the state NaN or infinite, or a joint speed passes 10⁶ rad/s (the
        time step is too long for the motion); the message names the step, the time and
        the joint. With ``"rk45"`` also when the solver spends its budget of evaluations
        (:func:`~robolab.screw.simulation.integrators.adaptive_budget`: a stiff motion).
    ValueError
        For more than 10⁶ integration steps (rows × ``integration_resolution``), a step
        shorter than a nanosecond, torques or tip-wrench entries over 10¹² (N·m, N), or
        initial joint speeds over 10⁶.

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_dynamics_trajectory
    >>> q, qd = forward_dynamics_trajectory(arm, [0.0, 0.0], [0.0, 0.0],
    ...                                     [[29.43, 9.81]] * 3, 0.01, 2)
    >>> q + 0.0  # held still by gravity-compensating torques
    array([[0., 0.],
           [0., 0.],
           [0., 0.]])

    In the book's form, a pendulum released from horizontal, 10 ms in steps of 5 ms:

    >>> q, qd = forward_dynamics_trajectory([0.0], [0.0], np.zeros((3, 1)), [0, -9.81, 0],
    ...                                     None, [x, np.eye(4)],
    ...                                     [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    ...                                     [[0], [0], [1], [0], [0], [0]], 0.005, 5,
    ...                                     integrator="rk4")
    >>> q.round(8)[:, 0], qd.round(8)[:, 0]
    (array([ 0.        , -0.00012262, -0.0004905 ]), array([ 0.     , -0.04905, -0.0981 ]))
    """
    return _forward_dynamics_trajectory(
        model_of(robot),
        gravity_of(robot, gravity),
        joint_positions,
        joint_velocities,
        joint_torque_traj,
        tip_wrench_traj,
        timestep,
        integration_resolution,
        integrator,
        friction_of(robot),
    )


def _forward_dynamics_trajectory(
    model: DynamicsModel,
    gravity: np.ndarray,
    joint_positions: Any,
    joint_velocities: Any,
    joint_torque_traj: Any,
    tip_wrench_traj: Any,
    timestep: Any,
    integration_resolution: Any,
    integrator: Any,
    friction: JointFriction | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`forward_dynamics_trajectory` of a model, with gravity checked; checks the rest."""
    q0, qd0 = joint_arrays(model.n, joint_positions, joint_velocities=joint_velocities)
    checked_start_speed(qd0)
    batch = q0.shape[:-1]
    tau = checked_torques(
        _trajectory("joint_torque_traj", joint_torque_traj, model.n, batch), "joint_torque_traj"
    )
    tip = tip_trajectory(tip_wrench_traj, tau.shape[0], batch)
    if tip is not None:
        checked_torques(tip, "tip_wrench_traj")
    dt = checked_timestep(timestep)
    resolution = checked_resolution(integration_resolution)
    checked_step_count(len(tau), resolution, dt)
    return simulate_kernel(
        model,
        q0,
        qd0,
        tau,
        gravity,
        tip,
        dt,
        resolution,
        checked_integrator(integrator, INTEGRATORS),
        friction,
    )


def simulate_kernel(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip: np.ndarray | None,
    timestep: float,
    resolution: int,
    integrator: str,
    friction: JointFriction | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The states along the torque history ``tau`` from (q, qd), arguments checked.

    Row 0 is the start; row i + 1 the state after row i's torques (and tip wrench) held
    over ``resolution`` steps of the integrator. One state under torques alone goes to
    the generated loop first (:func:`robolab.screw._fast.loops.torque_rows`, the same
    numbers); where it gives up, or its rows ran away (a speed over
    :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED`), the readable loop
    :func:`integrate_rows` runs and says what diverged.
    """
    if q.ndim == 1 and tip is None and friction is None and integrator != "rk45":
        rows = _generated_rows(model, q, qd, tau, gravity, timestep, resolution, integrator)
        if rows is not None and not (np.abs(rows[1]) > RUNAWAY_SPEED).any():
            return rows
    return integrate_rows(
        model, q, qd, tau, gravity, tip, timestep, resolution, integrator, friction
    )


def _generated_rows(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    timestep: float,
    resolution: int,
    integrator: str,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Every row by the generated loop, all finite; None where it gave up before the end."""
    N = tau.shape[0]
    positions = np.empty((N, *q.shape))
    velocities = np.empty((N, *q.shape))
    positions[0], velocities[0] = q, qd
    done = torque_rows(
        model,
        q,
        qd,
        tau,
        gravity,
        timestep / resolution,
        resolution,
        integrator,
        positions,
        velocities,
    )
    if done < N - 1 or not finite(positions, velocities):
        return None
    return positions, velocities


def integrate_rows(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip: np.ndarray | None,
    timestep: float,
    resolution: int,
    integrator: str,
    friction: JointFriction | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The readable loop of :func:`simulate_kernel`: NumPy steps, checked in blocks of rows.

    A block with a non-finite row is reported at its first non-finite integration step;
    a finite block with a joint speed over :data:`~.divergence.RUNAWAY_SPEED` at the first
    step past it.
    """
    N = tau.shape[0]
    positions = np.empty((N, *q.shape))
    velocities = np.empty((N, *q.shape))
    positions[0], velocities[0] = q, qd
    dt = timestep / resolution
    budget = adaptive_budget((N - 1) * resolution) if integrator == "rk45" else None
    checked = 1  # rows [0, checked) are known to be finite and not to have run away
    with np.errstate(**QUIET):
        for i in range(N - 1):
            dynamics = closed_form_dynamics(
                model, tau[i], gravity, None if tip is None else tip[i], friction
            )
            if budget is not None:
                q, qd = _adaptive(dynamics, q, qd, timestep, dt, i, budget)
            else:
                for _ in range(resolution):
                    q, qd = advance(dynamics, q, qd, dt, integrator)
            positions[i + 1], velocities[i + 1] = q, qd
            if i + 2 - checked >= CHECK_EVERY or i == N - 2:
                limit = None
                row = first_bad_row(positions, velocities, checked, i + 2)
                if row < 0:
                    limit = RUNAWAY_SPEED
                    row = first_runaway_row(velocities, checked, i + 2, limit)
                if row >= 0:
                    dynamics = closed_form_dynamics(
                        model,
                        tau[row - 1],
                        gravity,
                        None if tip is None else tip[row - 1],
                        friction,
                    )

                    def step(
                        q_: np.ndarray, qd_: np.ndarray, dynamics: Any = dynamics
                    ) -> tuple[np.ndarray, np.ndarray]:
                        return advance(dynamics, q_, qd_, dt, integrator)

                    raise locate(
                        step,
                        positions[row - 1],
                        velocities[row - 1],
                        row - 1,
                        (positions[row], velocities[row]),
                        timestep,
                        resolution,
                        integrator,
                        f"between rows {row - 1} and {row} of the trajectory",
                        limit,
                    )
                checked = i + 2
    return positions, velocities


def _adaptive(
    dynamics: Accelerations,
    q: np.ndarray,
    qd: np.ndarray,
    timestep: float,
    dt: float,
    row: int,
    budget: AdaptiveBudget,
) -> tuple[np.ndarray, np.ndarray]:
    """The state one trajectory interval on by SciPy's RK45 (steps of at most ``dt``), with
    what is left of the call's ``budget``."""
    try:
        q_end, qd_end = solve_ivp_interval(
            dynamics, q, qd, np.array([0.0, timestep]), max_step=dt, budget=budget
        )
    except FloatingPointError as error:
        raise SimulationDiverged(
            f"the adaptive integration diverged between rows {row} and {row + 1} of the "
            f"trajectory (t = {row * timestep:.6g} to {(row + 1) * timestep:.6g} s): {error}",
            step=row + 1,
            time=(row + 1) * timestep,
        ) from error
    return q_end[-1], qd_end[-1]
