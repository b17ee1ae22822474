"""Robot control (Modern Robotics, section 11.4): computed-torque control and its simulation.

The computed-torque (inverse-dynamics) controller (eq. 11.35) cancels the
arm's nonlinear dynamics with a model and adds PID feedback on the joint error
θ_e = θ_d - θ:

    τ = M̃(θ) (θ̈_d + K_p θ_e + K_i ∫θ_e dt + K_d θ̇_e) + h̃(θ, θ̇),

where M̃ and h̃ = c̃ + g̃ come from the controller's *model* of the robot
(link frames, inertias, screw axes and gravity), which may differ from the
real robot. With a perfect model the closed loop is the linear system
θ̈_e + K_d θ̇_e + K_p θ_e + K_i ∫θ_e = 0 for every joint.

:func:`simulate_control` runs the controller against a simulated robot: at
each reference point it computes τ from the *estimated* model, then
integrates the *true* dynamics for one time step. Gains are scalars (the same
for every joint, as in the book) or arrays of shape (n,).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.forward import friction_of
from ..dynamics.kernel import (
    DynamicsModel,
    gravity_of,
    mass_matrix_and_inverse_dynamics_kernel,
    model_of,
)
from ..friction import JointFriction
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot
from ..simulation.dynamics_trajectory import (
    CHECK_EVERY,
    QUIET,
    SimulationDiverged,
    checked_integrator,
    checked_resolution,
    checked_timestep,
    checked_trajectories,
    closed_form_dynamics,
    diverged,
    divergence_advice,
    finite,
    first_bad_row,
    tip_trajectory,
)
from ..simulation.integrators import FIXED_STEP_INTEGRATORS, advance

__all__ = [
    "computed_torque",
    "simulate_control",
]


def _gain(value: Any, name: str, n: int) -> np.ndarray | float:
    gain = as_float_array(value, name)
    if gain.ndim == 0:
        return float(gain)
    if gain.shape != (n,):
        raise ValueError(f"{name} must be a number or have shape ({n},), got shape {gain.shape}")
    return gain


def _gains(n: int, Kp: Any, Ki: Any, Kd: Any) -> tuple[np.ndarray | float, ...]:
    return _gain(Kp, "Kp", n), _gain(Ki, "Ki", n), _gain(Kd, "Kd", n)


def _control_law(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    error_integral: np.ndarray,
    gravity: np.ndarray,
    q_desired: np.ndarray,
    qd_desired: np.ndarray,
    qdd_desired: np.ndarray,
    Kp: Any,
    Ki: Any,
    Kd: Any,
) -> np.ndarray:
    error = q_desired - q
    feedback = Kp * error + Ki * (error_integral + error) + Kd * (qd_desired - qd)
    # M̃ θ̈_d + h̃ is inverse dynamics at θ̈_d (one pass), plus M̃ times the feedback.
    M, torques = mass_matrix_and_inverse_dynamics_kernel(model, q, qd, qdd_desired, gravity, None)
    return (M @ feedback[..., None])[..., 0] + torques


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
    """Joint torques of the computed-torque controller (the book's ``ComputedTorque``, eq. 11.35).

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
        Proportional, integral and derivative gains.
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
    return _computed_torque(
        model_of(robot), gravity_of(robot, gravity), joint_positions, joint_velocities,
        error_integral, desired_joint_positions, desired_joint_velocities,
        desired_joint_accelerations, Kp, Ki, Kd,
    )  # fmt: skip


def _computed_torque(
    model: DynamicsModel,
    gravity: np.ndarray,
    joint_positions: Any,
    joint_velocities: Any,
    error_integral: Any,
    desired_joint_positions: Any,
    desired_joint_velocities: Any,
    desired_joint_accelerations: Any,
    Kp: Any,
    Ki: Any,
    Kd: Any,
) -> np.ndarray:
    """:func:`computed_torque` of a model, with gravity checked; checks the rest."""
    q, qd, integral, q_desired, qd_desired, qdd_desired = joint_arrays(
        model.n, joint_positions, joint_velocities=joint_velocities,
        error_integral=error_integral, desired_joint_positions=desired_joint_positions,
        desired_joint_velocities=desired_joint_velocities,
        desired_joint_accelerations=desired_joint_accelerations,
    )  # fmt: skip
    return _control_law(
        model, q, qd, integral, gravity, q_desired, qd_desired, qdd_desired,
        *_gains(model.n, Kp, Ki, Kd),
    )  # fmt: skip


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

    1. τ_i = :func:`computed_torque` at the current state with the
       *estimated* model and the reference θ_d[i], θ̇_d[i], θ̈_d[i];
    2. the *true* robot moves under τ_i (and the tip wrench of row i) for one
       ``timestep``, in ``integration_resolution`` integration steps;
    3. the row i of the results is τ_i and the joint positions reached;
       ∫θ_e += Δt (θ_d[i] - θ).

    The true robot's joint friction (``robot.friction``, a
    :class:`robolab.screw.friction.JointFriction`) acts on it; the controller
    does not know it (the estimated robot's friction is not used).

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
    robolab.screw.simulation.dynamics_trajectory.SimulationDiverged
        If the simulated state becomes NaN or infinite (usually gains too
        stiff for the time step); the message names the step, the time and
        the joint.

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
    if estimated.n != model.n:
        raise ValueError(f"the estimated model has {estimated.n} joints, the true robot {model.n}")
    return _simulate_control(
        model, estimated, gravity_of(robot, gravity),
        gravity_of(estimated_robot, estimated_gravity), joint_positions, joint_velocities,
        tip_wrench_traj, desired_joint_position_traj, desired_joint_velocity_traj,
        desired_joint_acceleration_traj, Kp, Ki, Kd, timestep, integration_resolution, integrator,
        friction_of(robot),
    )  # fmt: skip


def _simulate_control(
    model: DynamicsModel,
    estimated: DynamicsModel,
    gravity: np.ndarray,
    estimated_gravity: np.ndarray,
    joint_positions: Any,
    joint_velocities: Any,
    tip_wrench_traj: Any,
    desired_joint_position_traj: Any,
    desired_joint_velocity_traj: Any,
    desired_joint_acceleration_traj: Any,
    Kp: Any,
    Ki: Any,
    Kd: Any,
    timestep: Any,
    integration_resolution: Any,
    integrator: Any,
    friction: JointFriction | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`simulate_control` of two models with the same number of joints, gravity checked."""
    n = model.n
    q = joint_array(joint_positions, n, "joint_positions", batch=False)
    qd = joint_array(joint_velocities, n, "joint_velocities", batch=False)
    q_desired, qd_desired, qdd_desired = checked_trajectories(
        n, (), desired_joint_position_traj=desired_joint_position_traj,
        desired_joint_velocity_traj=desired_joint_velocity_traj,
        desired_joint_acceleration_traj=desired_joint_acceleration_traj,
    )  # fmt: skip
    return _control_loop(
        model, estimated, q, qd, gravity, tip_trajectory(tip_wrench_traj, len(q_desired), ()),
        q_desired, qd_desired, qdd_desired, estimated_gravity, *_gains(n, Kp, Ki, Kd),
        checked_timestep(timestep), checked_resolution(integration_resolution),
        checked_integrator(integrator, FIXED_STEP_INTEGRATORS), friction,
    )  # fmt: skip


def _control_loop(
    model: DynamicsModel,
    estimated: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    gravity: np.ndarray,
    tip: np.ndarray | None,
    q_desired: np.ndarray,
    qd_desired: np.ndarray,
    qdd_desired: np.ndarray,
    estimated_gravity: np.ndarray,
    Kp: Any,
    Ki: Any,
    Kd: Any,
    timestep: float,
    resolution: int,
    integrator: str,
    friction: JointFriction | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    N, n = q_desired.shape
    torques = np.empty((N, n))
    positions = np.empty((N, n))
    velocities = np.empty((N, n))
    start = (q, qd)
    error_integral = np.zeros(n)
    dt = timestep / resolution
    checked = 0  # rows [0, checked) are known to be finite
    with np.errstate(**QUIET):
        for i in range(N):
            tau = _control_law(
                estimated, q, qd, error_integral, estimated_gravity,
                q_desired[i], qd_desired[i], qdd_desired[i], Kp, Ki, Kd,
            )  # fmt: skip
            dynamics = closed_form_dynamics(
                model, tau, gravity, None if tip is None else tip[i], friction
            )
            for _ in range(resolution):
                q, qd = advance(dynamics, q, qd, dt, integrator)
            torques[i] = tau
            positions[i], velocities[i] = q, qd
            error_integral = error_integral + timestep * (q_desired[i] - q)
            if i + 1 - checked >= CHECK_EVERY or i == N - 1:
                row = first_bad_row(positions, velocities, checked, i + 1)
                if row >= 0:
                    before = start if row == 0 else (positions[row - 1], velocities[row - 1])
                    raise _locate_control(
                        model, gravity, tip, torques[row], before, row, timestep, resolution,
                        integrator, friction,
                    )  # fmt: skip
                checked = i + 1
    return torques, positions


def _locate_control(
    model: DynamicsModel,
    gravity: np.ndarray,
    tip: np.ndarray | None,
    tau: np.ndarray,
    before: tuple[np.ndarray, np.ndarray],
    row: int,
    timestep: float,
    resolution: int,
    integrator: str,
    friction: JointFriction | None = None,
) -> SimulationDiverged:
    """The error for reference point ``row``, whose integration left the finite state ``before``.

    A torque that is already infinite (gains so stiff that τ overflowed) is
    named as such; otherwise the row's integration steps are repeated to
    find the first one that gave a non-finite state.
    """
    if not finite(tau):
        joint = int(np.flatnonzero(~np.isfinite(tau))[0]) + 1
        value = float(tau[joint - 1])
        time = row * timestep
        speed = float(np.abs(before[1]).max())
        return SimulationDiverged(
            f"the simulation diverged at reference point {row} (t = {time:.6g} s): the "
            f"controller's torque on joint {joint} became "
            f"{'NaN' if np.isnan(value) else f'{value:g}'}, with joint velocities up to "
            f"{speed:.3g} (gains too stiff for the time step make the state run away); "
            + divergence_advice(timestep, resolution, integrator),
            step=row * resolution + 1,
            time=time,
            joint=joint,
        )
    q, qd = before
    dt = timestep / resolution
    dynamics = closed_form_dynamics(
        model, tau, gravity, None if tip is None else tip[row], friction
    )
    with np.errstate(**QUIET):
        k = 0
        while k < resolution:
            k += 1
            previous = q, qd
            q, qd = advance(dynamics, q, qd, dt, integrator)
            if not finite(q, qd):
                break
    during = f"on the way to row {row} of the result"
    return diverged(
        q, qd, row * resolution + k, row * timestep + k * dt, timestep, resolution, integrator,
        during, previous,
    )  # fmt: skip
