"""Simulating an arm left to itself: :func:`simulate` and the energy along the motion.

:func:`simulate` integrates M(θ) θ̈ = τ - τ_f(θ̇) - c(θ, θ̇) - g(θ) (Modern Robotics,
section 8.5, with the robot's joint friction τ_f of :mod:`robolab.screw.friction`)
under constant joint torques τ (zero by default: the arm is *dropped*), with any of the
integrators of :mod:`robolab.screw.simulation.integrators` by name, and returns a
:class:`SimulationResult`: the times, the states and the energy at every step.

Without friction and with constant torques the total energy

    E(θ, θ̇) = K + P - τᵀθ,  K = ½ θ̇ᵀ M(θ) θ̇,  P = -Σ_i m_i gᵀ r_ci(θ),

is conserved by the exact motion (Lynch & Park, *Modern Robotics*, §8.1: the
Lagrangian's energy; -τᵀθ is the potential of the constant torques). What an
integrator does to E is therefore a measure of its error: :attr:`SimulationResult.energy_drift`
is max_t |E(t) - E(0)|, and :attr:`SimulationResult.relative_energy_drift` divides it by the
largest kinetic energy of the motion, the energy that changed form (the zero of P is
arbitrary, the origin of {s}, so E(0) itself is not a scale). With friction E falls:
the friction takes the power θ̇ᵀτ_f ≥ 0.

Examples
--------
A pendulum (1 kg at 1 m) dropped from horizontal, simulated for 0.5 s:

>>> import numpy as np, robolab
>>> arm = robolab.load_robot("planar2r")
>>> run = simulate(arm, [0.0, 0.0], duration=0.5, timestep=0.001, integrator="rk4")
>>> run.times.shape, run.joint_positions.shape
((501,), (501, 2))
>>> bool(run.relative_energy_drift < 1e-8)
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array
from ..dynamics.energy import kinetic_energy, potential_energy
from ..dynamics.forward import friction_of
from ..dynamics.model import gravity_of, model_of
from ..kinematics.forward import joint_array, joint_arrays
from ..robot import ScrewRobot
from .divergence import QUIET, SimulationDiverged, finite, non_finite_entry
from .dynamics_trajectory import simulate_kernel
from .integrators import (
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    INTEGRATORS,
    adaptive_budget,
    checked_integrator,
    checked_start_speed,
    checked_timestep,
    checked_tolerances,
    checked_torques,
    closed_form_dynamics,
    solve_ivp_interval,
)

__all__ = ["SimulationResult", "simulate", "total_energy"]

#: Most rows a :func:`simulate` call returns (10⁶: 5 s at 5 µs); more is a typo.
_MAX_ROWS = 1_000_000


@dataclass(frozen=True, eq=False)  # arrays: compare the fields you mean, not the runs
class SimulationResult:
    """The result of :func:`simulate`: times, states and energies, one row per step.

    Attributes
    ----------
    times : ndarray, shape (N,)
        0, Δt, 2Δt, …, the duration (seconds).
    joint_positions, joint_velocities : ndarray, shape (N, n)
        The state at each time; row 0 is the initial state.
    joint_torques : ndarray, shape (n,)
        The constant applied torques τ.
    kinetic_energy, potential_energy : ndarray, shape (N,)
        K = ½ θ̇ᵀMθ̇ and P = -Σ m_i gᵀ r_ci - τᵀθ (joules), the second with the potential of
        the constant torques.
    integrator : str
    timestep : float
    friction : bool
        Whether the robot had joint friction.
    """

    times: np.ndarray
    joint_positions: np.ndarray
    joint_velocities: np.ndarray
    joint_torques: np.ndarray
    kinetic_energy: np.ndarray
    potential_energy: np.ndarray
    integrator: str
    timestep: float
    friction: bool

    @property
    def energy(self) -> np.ndarray:
        """The total energy E = K + P at each time (joules), shape (N,)."""
        return self.kinetic_energy + self.potential_energy

    @property
    def energy_drift(self) -> float:
        """max_t |E(t) - E(0)| in joules: zero for the exact frictionless motion."""
        energy = self.energy
        return float(np.abs(energy - energy[0]).max())

    @property
    def relative_energy_drift(self) -> float:
        """:attr:`energy_drift` over the largest kinetic energy of the motion (0 at rest)."""
        scale = float(self.kinetic_energy.max())
        drift = self.energy_drift
        if scale == 0.0:
            return 0.0 if drift == 0.0 else float("inf")
        return drift / scale

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {self.integrator}, Δt = {self.timestep:g} s, {len(self.times)} "
            f"rows to t = {self.times[-1]:g} s, energy drift {self.energy_drift:.3g} J>"
        )


def total_energy(
    robot: ScrewRobot,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    gravity: ArrayLike | None = None,
) -> np.ndarray | float:
    """Total mechanical energy E = ½ θ̇ᵀM(θ)θ̇ - Σ_i m_i gᵀ r_ci(θ) of states or a trajectory.

    Parameters
    ----------
    robot : ScrewRobot
    joint_positions, joint_velocities : array_like, shape (n,) or (N, n) or (..., n)
        One state, or a trajectory (rows in time).
    gravity : array_like, shape (3,), optional
        By default the robot's.

    Returns
    -------
    float or ndarray, shape (N,) or (...)
        Joules; the zero of the potential energy is at the origin of {s}.

    Examples
    --------
    >>> import numpy as np, robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> total_energy(arm, [[0.0, 0.0], [np.pi / 2, 0.0]], [[1.0, 0.0], [0.0, 0.0]]).round(12)
    array([ 1.33333333, 19.62      ])

    Two uniform 1 kg, 1 m rods: ½ (1/3 + 1/12 + 1.5²) J turning the shoulder at 1 rad/s
    while stretched out, and m g (0.5 + 1.5) J standing straight up.
    """
    return kinetic_energy(robot, joint_positions, joint_velocities) + potential_energy(
        robot, joint_positions, gravity
    )


def _rows(duration: float, timestep: float) -> int:
    steps = duration / timestep
    count = round(steps)
    if count < 1 or abs(count - steps) > 1e-9 * max(1.0, steps):
        raise ValueError(
            f"duration must be a whole number of timesteps, got duration {duration:g} s and "
            f"timestep {timestep:g} s ({steps:.6g} steps)"
        )
    if count + 1 > _MAX_ROWS:
        raise ValueError(
            f"duration / timestep = {count} steps is more than {_MAX_ROWS - 1}; "
            "use a larger timestep or a shorter duration"
        )
    return count + 1


def simulate(
    robot: ScrewRobot,
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike | None = None,
    *,
    duration: float,
    timestep: float,
    integrator: str = "rk4",
    joint_torques: ArrayLike | None = None,
    gravity: ArrayLike | None = None,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
) -> SimulationResult:
    """Simulate the arm from a state under constant torques (zero: dropped), with energies.

    Parameters
    ----------
    robot : ScrewRobot
        Its joint friction (``robot.friction``) acts throughout.
    joint_positions : array_like, shape (n,)
        θ(0).
    joint_velocities : array_like, shape (n,), optional
        θ̇(0); default zero (released from rest).
    duration, timestep : float
        Seconds; the duration must be a whole number of timesteps. For the fixed-step
        integrators Δt is the step; for ``"rk45"`` the solver chooses its own steps
        and Δt only says where the state is reported.
    integrator : {"euler", "semi_implicit_euler", "rk4", "rk45"}
        See :mod:`robolab.screw.simulation.integrators`.
    joint_torques : array_like, shape (n,), optional
        Constant applied torques τ (default zero).
    gravity : array_like, shape (3,), optional
        By default the robot's.
    rtol, atol : float
        Tolerances of ``"rk45"`` (:func:`scipy.integrate.solve_ivp`), checked always, used
        only by it: 10⁻¹³ ≤ rtol < 1 and 0 < atol < 1.

    Returns
    -------
    SimulationResult

    Raises
    ------
    SimulationDiverged
        If the state becomes NaN or infinite, or a joint speed passes 10⁶ rad/s (the step is
        too large for the motion, typically explicit Euler), naming the step, the time and
        the joint; with ``"rk45"`` also when the solver spends its budget of evaluations of
        the dynamics (:func:`~robolab.screw.simulation.integrators.adaptive_budget`: the
        motion is too stiff, e.g. a tiny friction smoothing).
    ValueError
        For bad arguments (torques over 10¹² N·m, initial speeds over 10⁶ rad/s, a step
        outside [10⁻⁹, 10⁹] s, more than 10⁶ steps), or a mass matrix that is singular
        along the way (naming the joint that moves no mass).

    Examples
    --------
    The planar 2R arm (two uniform 1 kg, 1 m rods) dropped from horizontal, one second in
    steps of 10 ms: both Euler methods are off by several per cent of the peak kinetic
    energy, RK4 and the adaptive RK45 keep the energy.

    >>> import robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> for name in ("euler", "semi_implicit_euler", "rk4", "rk45"):
    ...     run = simulate(arm, [0.0, 0.0], duration=1.0, timestep=0.01, integrator=name)
    ...     print(f"{name:20s} {run.relative_energy_drift:.0e}")
    euler                8e-02
    semi_implicit_euler  5e-02
    rk4                  2e-07
    rk45                 1e-09
    """
    if not isinstance(robot, ScrewRobot):
        raise TypeError(
            f"robot must be a ScrewRobot (robolab.load_robot(name) gives one), "
            f"got {type(robot).__name__}"
        )
    name = checked_integrator(integrator, INTEGRATORS)
    model = model_of(robot)
    n = model.n
    if joint_velocities is None:
        q0 = joint_array(joint_positions, n, "joint_positions")
        qd0 = np.zeros(n)
    else:
        q0, qd0 = joint_arrays(n, joint_positions, joint_velocities=joint_velocities)
    if q0.ndim != 1:
        raise ValueError(f"joint_positions must have shape ({n},): one state, got {q0.shape}")
    checked_start_speed(qd0)
    tau = np.zeros(n) if joint_torques is None else joint_array(joint_torques, n, "joint_torques")
    if tau.shape != (n,):
        raise ValueError(f"joint_torques must have shape ({n},), got {tau.shape}")
    checked_torques(tau, "joint_torques")
    rtol, atol = checked_tolerances(rtol, atol)
    dt = checked_timestep(timestep)
    rows = _rows(float(as_float_array(duration, "duration", ())), dt)
    g = gravity_of(robot, gravity)
    friction = friction_of(robot)
    times = dt * np.arange(rows)
    if name == "rk45":
        q, qd = _adaptive_run(model, q0, qd0, tau, g, friction, times, rtol, atol)
    else:
        torques = np.broadcast_to(tau, (rows, n))
        q, qd = simulate_kernel(model, q0, qd0, torques, g, None, dt, 1, name, friction)
    potential = potential_energy(robot, q, g) - q @ tau
    return SimulationResult(
        times=times,
        joint_positions=q,
        joint_velocities=qd,
        joint_torques=tau,
        kinetic_energy=np.asarray(kinetic_energy(robot, q, qd)),
        potential_energy=np.asarray(potential),
        integrator=name,
        timestep=dt,
        friction=friction is not None,
    )


def _adaptive_run(
    model: object,
    q0: np.ndarray,
    qd0: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray,
    friction: object,
    times: np.ndarray,
    rtol: float,
    atol: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The states at ``times`` by one SciPy RK45 run (within its budget, checked tolerances);
    a failure is SimulationDiverged."""
    dynamics = closed_form_dynamics(model, tau, gravity, None, friction)  # type: ignore[arg-type]
    try:
        with np.errstate(**QUIET):
            q, qd = solve_ivp_interval(
                dynamics, q0, qd0, times, rtol=rtol, atol=atol, budget=adaptive_budget()
            )
    except FloatingPointError as error:
        raise SimulationDiverged(f"the adaptive integration (rk45) diverged: {error}") from error
    if not finite(q, qd):
        row = int(np.flatnonzero(~np.isfinite(q).all(axis=1) | ~np.isfinite(qd).all(axis=1))[0])
        _, joint, quantity, value = non_finite_entry(q[row], qd[row])
        raise SimulationDiverged(
            f"the adaptive integration (rk45) diverged at t = {times[row]:.6g} s: joint "
            f"{joint}'s {quantity} became {value}",
            step=row,
            time=float(times[row]),
            joint=joint,
        )
    return q, qd
