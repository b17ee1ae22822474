"""Simulating the dynamics (Modern Robotics, section 8.5): integrators and trajectories.

* :func:`euler_step` is the book's first-order step: given θ̈, move
  (θ, θ̇) on by Δt. It knows nothing of the robot.
* :func:`runge_kutta4_step` is the classical fourth-order Runge–Kutta step of
  the state (θ, θ̇) with the joint torques held constant over the step; it
  evaluates the forward dynamics four times and conserves energy far better
  than Euler's method (error O(Δt⁴) per unit time instead of O(Δt)).
* :func:`inverse_dynamics_trajectory` gives the torques along a trajectory
  (one batched Newton–Euler call for all its points);
  :func:`forward_dynamics_trajectory` integrates the motion under a torque
  history, with ``integration_resolution`` steps per trajectory interval
  (Euler as in the book, or another integrator of :mod:`robolab.screw.simulation.integrators`
  by name: ``"semi_implicit_euler"``, ``"rk4"`` or the adaptive ``"rk45"``).
  The robot's joint friction (:mod:`robolab.screw.friction`) acts in every step.

Trajectories are arrays with time along the first axis: (N, n) for one robot
state, (N, ..., n) for a batch of robots simulated together.

A simulation never returns NaN or infinite values quietly: when a step makes
θ or θ̇ non-finite (a time step too large for the arm's dynamics, or for the
gains of a controller), :class:`SimulationDiverged` is raised, naming the
step, the time and the joint.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from .._fast.loops import torque_rows
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.forward import (
    forward_dynamics_crba_kernel,
    forward_inputs,
    friction_of,
    minus_friction,
)
from ..dynamics.kernel import (
    DynamicsModel,
    dynamics_model,  # noqa: F401 (used by the tests of divergence)
    gravity_of,
    inverse_dynamics_kernel,
    model_of,
)
from ..friction import JointFriction
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot
from .integrators import INTEGRATORS, solve_ivp_interval
from .integrators import advance as _advance

__all__ = [
    "SimulationDiverged",
    "euler_step",
    "forward_dynamics_trajectory",
    "inverse_dynamics_trajectory",
    "runge_kutta4_step",
]

#: The integrators of the control simulations (the book's two; the trajectories take all).
_INTEGRATORS = ("euler", "rk4")

#: Trajectory rows integrated between two finiteness checks of the state (one vectorised
#: ``np.isfinite`` per block; a bad block is then searched step by step).
CHECK_EVERY = 32

#: NumPy's overflow and invalid-value warnings of a diverging step are replaced by
#: :class:`SimulationDiverged`, which says where it happened.
QUIET = {"over": "ignore", "invalid": "ignore", "divide": "ignore"}


class SimulationDiverged(FloatingPointError, ValueError):
    """The simulated state θ or θ̇ became NaN or infinite: the integration diverged.

    Raised by :func:`forward_dynamics_trajectory`,
    :func:`~robolab.screw.control.laws.simulate_control`, :func:`euler_step`
    and :func:`runge_kutta4_step` (with a robot or the book's arrays) instead of
    returning garbage. The usual cause is a time step too large for the
    arm's dynamics or for the controller's gains; the message names the
    step, the time and the joint. It is a :class:`FloatingPointError` and
    also a :class:`ValueError`, so ``except ValueError`` catches it like
    robolab's other errors about arguments.

    Attributes
    ----------
    step : int or None
        The integration step (counted from 1) whose result was not finite.
    time : float or None
        The simulated time at the end of that step, in seconds.
    joint : int or None
        The joint (counted from 1) whose position or velocity became non-finite.

    Examples
    --------
    >>> err = SimulationDiverged("the simulation diverged", step=3, time=0.003, joint=2)
    >>> isinstance(err, ValueError), err.step, err.joint
    (True, 3, 2)
    """

    def __init__(
        self,
        message: str,
        *,
        step: int | None = None,
        time: float | None = None,
        joint: int | None = None,
    ) -> None:
        super().__init__(message)
        self.step, self.time, self.joint = step, time, joint


def finite(*arrays: np.ndarray) -> bool:
    return all(bool(np.isfinite(a).all()) for a in arrays)


def non_finite_entry(q: np.ndarray, qd: np.ndarray) -> tuple[tuple[int, ...], int, str, str]:
    """(batch index, joint from 1, "velocity" or "position", value) of the first bad entry.

    The first robot of a batch with a bad entry; in it the velocity first (it
    blows up before the position does).
    """
    q, qd = np.broadcast_arrays(q, qd)
    robot: tuple[int, ...] = ()
    if q.ndim > 1:
        bad = (~np.isfinite(q) | ~np.isfinite(qd)).any(axis=-1)
        robot = tuple(int(i) for i in np.argwhere(bad)[0])
    for quantity, values in (("velocity", qd[robot]), ("position", q[robot])):
        joints = np.flatnonzero(~np.isfinite(values))
        if joints.size:
            value = float(values[joints[0]])
            return robot, int(joints[0]) + 1, quantity, "NaN" if np.isnan(value) else f"{value:g}"
    raise AssertionError("no non-finite entry")  # pragma: no cover - callers check first


def divergence_advice(timestep: float, resolution: int | None, integrator: str | None) -> str:
    """What to try: a smaller step; more steps per row and RK4 where the caller has them."""
    advice = f"try a smaller timestep (now {timestep:g} s)"
    if resolution is not None:
        advice += f" or a larger integration_resolution (now {resolution})"
    if integrator == "euler":
        advice += ", or integrator='rk4'"
    return advice


def diverged(
    q: np.ndarray,
    qd: np.ndarray,
    step: int,
    time: float,
    timestep: float,
    resolution: int,
    integrator: str,
    during: str,
    previous: tuple[np.ndarray, np.ndarray] | None = None,
) -> SimulationDiverged:
    """The error for a non-finite state (q, qd) after integration ``step`` (from 1).

    ``during`` says where the step lies in the trajectory (shown when there
    are several integration steps per trajectory step); ``previous`` is the
    state before the step, whose value of the bad entry is shown.
    """
    robot, joint, quantity, value = non_finite_entry(q, qd)
    if previous is not None:
        before = np.broadcast_arrays(*previous)[0 if quantity == "position" else 1]
        value += f" (it was {float(before[(*robot, joint - 1)]):.3g} one step before)"
    where = f" (batch index {robot})" if robot else ""
    if resolution == 1:
        when = f"at step {step} (t = {time:.6g} s)"
    else:
        when = f"at integration step {step} (t = {time:.6g} s, {during})"
    return SimulationDiverged(
        f"the simulation diverged {when}{where}: joint {joint}'s {quantity} became {value}; "
        + divergence_advice(timestep, resolution, integrator),
        step=step,
        time=time,
        joint=joint,
    )


def first_bad_row(positions: np.ndarray, velocities: np.ndarray, start: int, stop: int) -> int:
    """The first row in [start, stop) with a non-finite entry, or -1 (one check if all is well)."""
    if finite(positions[start:stop], velocities[start:stop]):
        return -1
    for row in range(start, stop):
        if not finite(positions[row], velocities[row]):
            return row
    return -1  # pragma: no cover - the block check found one


def euler_step(
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_accelerations: ArrayLike,
    timestep: float,
) -> tuple[np.ndarray, np.ndarray]:
    """One first-order Euler step: θ + Δt θ̇ and θ̇ + Δt θ̈ (the book's ``EulerStep``).

    Parameters
    ----------
    joint_positions, joint_velocities, joint_accelerations : array_like, shape (n,) or (..., n)
    timestep : float
        Δt in seconds.

    Returns
    -------
    joint_positions, joint_velocities : ndarray, shape (n,) or (..., n)
        The state after Δt.

    Raises
    ------
    SimulationDiverged
        If the new state is not finite (it overflowed).

    Examples
    --------
    >>> euler_step([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1], 0.1)
    (array([0.11, 0.12, 0.13]), array([0.3 , 0.35, 0.4 ]))
    """
    q = as_float_array(joint_positions, "joint_positions", (None,), batch=True)
    n = q.shape[-1]
    qd = joint_array(joint_velocities, n, "joint_velocities")
    qdd = joint_array(joint_accelerations, n, "joint_accelerations")
    dt = checked_timestep(timestep)
    with np.errstate(**QUIET):
        q, qd = q + dt * qd, qd + dt * qdd
    _check_step(q, qd, dt, "euler")
    return q, qd


def checked_timestep(timestep: Any, name: str = "timestep") -> float:
    value = float(as_float_array(timestep, name, ()))
    if value <= 0.0:
        raise ValueError(f"{name} must be positive, got {value:g}")
    return value


def checked_resolution(integration_resolution: Any) -> int:
    if isinstance(integration_resolution, bool) or not isinstance(
        integration_resolution, int | np.integer
    ):
        raise TypeError(
            "integration_resolution must be an int ≥ 1 (integration steps per timestep), "
            f"got {type(integration_resolution).__name__} {integration_resolution!r}"
        )
    if integration_resolution < 1:
        raise ValueError(
            f"integration_resolution must be ≥ 1 (integration steps per timestep), "
            f"got {integration_resolution}"
        )
    return int(integration_resolution)


def checked_integrator(integrator: str, allowed: tuple[str, ...] = _INTEGRATORS) -> str:
    if not isinstance(integrator, str) or integrator not in allowed:
        names = " or ".join(", ".join(repr(name) for name in allowed).rsplit(", ", 1))
        raise ValueError(f"integrator must be {names}, got {integrator!r}")
    return integrator


Accelerations = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _check_step(q: np.ndarray, qd: np.ndarray, dt: float, integrator: str) -> None:
    """Raise :class:`SimulationDiverged` if one step gave a non-finite state."""
    if not finite(q, qd):
        robot, joint, quantity, value = non_finite_entry(q, qd)
        where = f" (batch index {robot})" if robot else ""
        method = "Euler" if integrator == "euler" else "Runge–Kutta"
        raise SimulationDiverged(
            f"the {method} step of {dt:g} s diverged{where}: joint {joint}'s {quantity} became "
            f"{value}; " + divergence_advice(dt, None, None),
            step=1,
            time=dt,
            joint=joint,
        )


def _step(
    accelerations: Accelerations, q: np.ndarray, qd: np.ndarray, dt: float, integrator: str
) -> tuple[np.ndarray, np.ndarray]:
    """One step of (θ, θ̇) under θ̈ = accelerations(θ, θ̇), checked: a single public step.

    Raises :class:`SimulationDiverged` when the new state is not finite.
    Loops use :func:`_advance` and check blocks of steps instead.
    """
    with np.errstate(**QUIET):
        q, qd = _advance(accelerations, q, qd, dt, integrator)
    _check_step(q, qd, dt, integrator)
    return q, qd


def closed_form_dynamics(
    model: DynamicsModel,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    friction: JointFriction | None = None,
) -> Accelerations:
    """θ̈(θ, θ̇) under the torques τ held constant, less the friction τ_f(θ̇) if any."""
    if friction is None:
        return lambda q, qd: forward_dynamics_crba_kernel(model, q, qd, tau, gravity, tip_wrench)
    return lambda q, qd: forward_dynamics_crba_kernel(
        model, q, qd, minus_friction(tau, qd, friction), gravity, tip_wrench
    )


def _runge_kutta4_step_book(
    joint_positions,
    joint_velocities,
    joint_torques,
    gravity,
    tip_wrench,
    link_frames,
    spatial_inertias,
    screw_axes,
    timestep,
):
    """:func:`runge_kutta4_step` with the book's arguments, in the book's order."""
    return runge_kutta4_step(
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
        timestep=timestep,
    )


@robot_or_arrays(_runge_kutta4_step_book)
def runge_kutta4_step(
    robot: ScrewRobot | BookArrays,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_torques: ArrayLike,
    timestep: float,
    gravity: ArrayLike | None = None,
    tip_wrench: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One classical Runge–Kutta (RK4) step of the state (θ, θ̇) under constant torques.

    With x = (θ, θ̇) and ẋ = f(x) = (θ̇, FD(θ, θ̇, τ)),

        k1 = f(x), k2 = f(x + Δt/2 k1), k3 = f(x + Δt/2 k2), k4 = f(x + Δt k3),
        x(t + Δt) ≈ x + Δt/6 (k1 + 2 k2 + 2 k3 + k4),

    where FD is :func:`~robolab.screw.dynamics.forward.forward_dynamics_crba`; the
    Euler step is :func:`euler_step`.

    Call it with a robot, or with the book's arguments::

        runge_kutta4_step(robot, joint_positions, joint_velocities, joint_torques,
                          timestep)
        runge_kutta4_step(joint_positions, joint_velocities, joint_torques, gravity,
                          tip_wrench, link_frames, spatial_inertias, screw_axes,
                          timestep)

    Parameters
    ----------
    robot : ScrewRobot
        Or, in the book's form, its arrays as in
        :func:`~robolab.screw.dynamics.forward.forward_dynamics_crba`, before the timestep.
    joint_positions, joint_velocities, joint_torques : array_like, shape (n,) or (..., n)
    timestep : float
        Δt in seconds.
    gravity, tip_wrench
        As in :func:`~robolab.screw.dynamics.forward.forward_dynamics_crba`.

    Returns
    -------
    joint_positions, joint_velocities : ndarray, shape (n,) or (..., n)

    Raises
    ------
    SimulationDiverged
        If the new state is not finite (the step is far too long).

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import runge_kutta4_step
    >>> q, qd = runge_kutta4_step(arm, [0.0, 0.0], [0.0, 0.0], [29.43, 9.81], 0.01)
    >>> q.round(12) + 0.0, qd.round(12) + 0.0  # gravity compensated: it stays
    (array([0., 0.]), array([0., 0.]))

    A pendulum released from horizontal, in the book's form: after 1 ms it has fallen
    by ½ (g/L) t²:

    >>> q, qd = runge_kutta4_step([0.0], [0.0], [0.0], [0, -9.81, 0], np.zeros(6),
    ...                           [x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    ...                           [[0], [0], [1], [0], [0], [0]], 0.001)
    >>> float(q[0]), float(qd[0])
    (-4.905e-06, -0.00981)
    """
    model, q, qd, tau, gravity, tip_wrench = forward_inputs(
        robot, joint_positions, joint_velocities, joint_torques, gravity, tip_wrench
    )
    dynamics = closed_form_dynamics(model, tau, gravity, tip_wrench, friction_of(robot))
    return _step(dynamics, q, qd, checked_timestep(timestep), "rk4")


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
        model_of(robot), gravity_of(robot, gravity), joint_position_traj, joint_velocity_traj,
        joint_acceleration_traj, tip_wrench_traj,
    )  # fmt: skip


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
        model.n, (), joint_position_traj=joint_position_traj,
        joint_velocity_traj=joint_velocity_traj, joint_acceleration_traj=joint_acceleration_traj,
    )  # fmt: skip
    tip = tip_trajectory(tip_wrench_traj, len(q), ())
    return inverse_dynamics_kernel(model, q, qd, qdd, gravity, tip)


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
        If a step makes the state NaN or infinite (the time step is too
        long for the motion); the message names the step, the time and
        the joint.

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
        model_of(robot), gravity_of(robot, gravity), joint_positions, joint_velocities,
        joint_torque_traj, tip_wrench_traj, timestep, integration_resolution, integrator,
        friction_of(robot),
    )  # fmt: skip


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
    batch = q0.shape[:-1]
    tau = _trajectory("joint_torque_traj", joint_torque_traj, model.n, batch)
    tip = tip_trajectory(tip_wrench_traj, tau.shape[0], batch)
    return simulate_kernel(
        model,
        q0,
        qd0,
        tau,
        gravity,
        tip,
        checked_timestep(timestep),
        checked_resolution(integration_resolution),
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
    N = tau.shape[0]
    positions = np.empty((N, *q.shape))
    velocities = np.empty((N, *q.shape))
    positions[0], velocities[0] = q, qd
    dt = timestep / resolution
    # One state: rows by the generated dynamics on floats, as far as they go (the same numbers).
    start = 0
    if q.ndim == 1 and tip is None and friction is None and integrator != "rk45":
        start = torque_rows(model, q, qd, tau, gravity, dt, resolution, integrator,
                             positions, velocities)  # fmt: skip
        q, qd = positions[start], velocities[start]
    checked = 1  # rows [0, checked) are known to be finite
    with np.errstate(**QUIET):
        # The generated rows are checked in one block at the first step of the loop.
        for i in range(max(start - 1, 0), N - 1):
            if i >= start:
                dynamics = closed_form_dynamics(
                    model, tau[i], gravity, None if tip is None else tip[i], friction
                )
                if integrator == "rk45":
                    q, qd = _adaptive(dynamics, q, qd, timestep, dt, i)
                else:
                    for _ in range(resolution):
                        q, qd = _advance(dynamics, q, qd, dt, integrator)
                positions[i + 1], velocities[i + 1] = q, qd
            if i + 2 - checked >= CHECK_EVERY or i == N - 2:
                row = first_bad_row(positions, velocities, checked, i + 2)
                if row >= 0:
                    dynamics = closed_form_dynamics(
                        model, tau[row - 1], gravity, None if tip is None else tip[row - 1],
                        friction,
                    )  # fmt: skip
                    raise _locate(
                        dynamics, positions[row - 1], velocities[row - 1], row,
                        (positions[row], velocities[row]), timestep, resolution, integrator,
                    )  # fmt: skip
                checked = i + 2
    return positions, velocities


def _adaptive(
    dynamics: Accelerations, q: np.ndarray, qd: np.ndarray, timestep: float, dt: float, row: int
) -> tuple[np.ndarray, np.ndarray]:
    """The state one trajectory interval on by SciPy's RK45 (steps of at most ``dt``)."""
    try:
        q_end, qd_end = solve_ivp_interval(dynamics, q, qd, np.array([0.0, timestep]), max_step=dt)
    except FloatingPointError as error:
        raise SimulationDiverged(
            f"the adaptive integration diverged between rows {row} and {row + 1} of the "
            f"trajectory (t = {row * timestep:.6g} to {(row + 1) * timestep:.6g} s): {error}",
            step=row + 1,
            time=(row + 1) * timestep,
        ) from error
    return q_end[-1], qd_end[-1]


def _locate(
    dynamics: Accelerations,
    q: np.ndarray,
    qd: np.ndarray,
    row: int,
    stored: tuple[np.ndarray, np.ndarray],
    timestep: float,
    resolution: int,
    integrator: str,
) -> SimulationDiverged:
    """The error for trajectory ``row`` (``stored``), reached non-finite from the state (q, qd).

    Repeats the row's ``resolution`` integration steps (deterministic, so
    the same numbers) to find the first one that gave a non-finite state.
    """
    dt = timestep / resolution
    with np.errstate(**QUIET):
        k = 0
        while k < resolution:
            k += 1
            previous = q, qd
            q, qd = _advance(dynamics, q, qd, dt, integrator)
            if not finite(q, qd):
                break
    if finite(q, qd):  # pragma: no cover - the repeat is bitwise the same as the first run
        q, qd = stored
    step = (row - 1) * resolution + k
    time = (row - 1) * timestep + k * dt
    during = f"between rows {row - 1} and {row} of the trajectory"
    return diverged(q, qd, step, time, timestep, resolution, integrator, during, previous)
