"""The integrators of the simulations, by name: one step of (θ, θ̇) under θ̈ = f(θ, θ̇).

Forward dynamics gives the joint accelerations θ̈ = f(θ, θ̇) (Modern Robotics,
section 8.5); a simulation advances the state x = (θ, θ̇) with ẋ = (θ̇, f(θ, θ̇)).
The four integrators of :data:`INTEGRATORS`, by the name the simulation functions
take (``integrator=...``):

``"euler"``
    Explicit (forward) Euler, the book's ``EulerStep``: θ ← θ + Δt θ̇,
    θ̇ ← θ̇ + Δt f(θ, θ̇). First order; on an undamped oscillation it *gains*
    energy every step (its amplification factor has modulus √(1 + ω²Δt²) > 1).
``"semi_implicit_euler"``
    Semi-implicit (symplectic) Euler: θ̇ ← θ̇ + Δt f(θ, θ̇) first, then
    θ ← θ + Δt θ̇ with the *new* velocity. Also first order and as cheap, but
    symplectic for a separable Hamiltonian (a constant mass matrix, a pendulum;
    Hairer, Lubich & Wanner, *Geometric Numerical Integration*, §VI.3), so its
    energy error oscillates without growing. With a configuration-dependent
    M(θ) it is no longer exactly symplectic: on a whipping UR5 its energy error
    is smaller than explicit Euler's but of the same first order
    (docs/benchmarks.md, "Integrators").
``"rk4"``
    The classical fourth-order Runge–Kutta step (four evaluations of f per step;
    error O(Δt⁴) per unit time).
``"rk45"``
    Adaptive: SciPy's :func:`scipy.integrate.solve_ivp` with the Dormand–Prince
    5(4) pair ``method="RK45"``, which chooses its own steps to meet the tolerances
    ``rtol`` and ``atol``; the time step of a simulation then only says where the
    state is reported (and bounds the solver's step). Every adaptive run has a budget:
    at most :data:`ADAPTIVE_EVALUATIONS` (10⁵) evaluations of θ̈ = f(θ, θ̇), plus 12 for
    each step that the bound on its step forces (:func:`adaptive_budget`); a stiff motion
    (a friction smoothing ε far below the joint speeds, say) that would make the solver
    crawl raises :class:`~robolab.screw.simulation.divergence.SimulationDiverged` naming
    the budget instead of running for hours, and so does a joint speed over
    :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` (the state ran away).

Every simulation is bounded: at most :data:`MAX_INTEGRATION_STEPS` (10⁶) fixed steps a
call, a time step of at least a nanosecond
(:data:`~robolab.screw.trajectories.time_scaling.SHORTEST_TIME`), applied torques (and
tip wrenches) of at most :data:`MAX_JOINT_TORQUE` (10¹² N·m or N) and initial joint
speeds under :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED`.

The book's two steps of a robot are here by name too: :func:`euler_step` (the book's
``EulerStep``, given θ̈) and :func:`runge_kutta4_step` (one RK4 step of a robot under
constant torques, the robot's joint friction included); both raise
:class:`~robolab.screw.simulation.divergence.SimulationDiverged` when the new state is not
finite, or when the step took a joint speed from at most
:data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` (10⁶) to more: a step far too
long for the dynamics runs away (one RK4 step of 100 s of a dropped arm gives speeds of
10³³) rather than overflowing. :func:`closed_form_dynamics` is the θ̈ = f(θ, θ̇) of a
robot under held torques that the simulations integrate.

Examples
--------
A unit harmonic oscillator θ̈ = -θ from θ = 1, one step of 0.1 s with each fixed-step
integrator; the exact answer is (cos 0.1, -sin 0.1) = (0.995004, -0.099833):

>>> import numpy as np
>>> f = lambda q, qd: -q
>>> for name in FIXED_STEP_INTEGRATORS:
...     q, qd = advance(f, np.array([1.0]), np.array([0.0]), 0.1, name)
...     print(f"{name:20s} {q[0]:.6f} {qd[0]:.6f}")
euler                1.000000 -0.100000
semi_implicit_euler  0.990000 -0.100000
rk4                  0.995004 -0.099833
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ...conventions import DEFAULT_INTEGRATOR_ATOL, DEFAULT_INTEGRATOR_RTOL
from ...support.arguments import as_float_array, as_real_number
from ..book_form import BookArrays, robot_or_arrays
from ..dynamics.forward import (
    forward_dynamics_crba_kernel,
    forward_inputs,
    friction_of,
    minus_friction,
)
from ..dynamics.model import DynamicsModel
from ..friction import JointFriction
from ..kinematics.forward import joint_array
from ..robot import ScrewRobot
from ..trajectories.time_scaling import SHORTEST_TIME, time_span
from .divergence import QUIET, RUNAWAY_SPEED, SimulationDiverged, check_step

__all__ = [
    "FIXED_STEP_INTEGRATORS",
    "INTEGRATORS",
    "advance",
    "euler_step",
    "runge_kutta4_step",
    "solve_ivp_interval",
]

#: Every integrator of the simulations, by the name ``integrator=`` takes.
INTEGRATORS = ("euler", "semi_implicit_euler", "rk4", "rk45")

#: The integrators with a fixed step (all but the adaptive ``"rk45"``).
FIXED_STEP_INTEGRATORS = ("euler", "semi_implicit_euler", "rk4")

#: Tolerances of the adaptive integrator unless given (robolab.conventions).
DEFAULT_RTOL = DEFAULT_INTEGRATOR_RTOL
DEFAULT_ATOL = DEFAULT_INTEGRATOR_ATOL
#: The accepted relative tolerance of the adaptive integrator: SciPy raises a smaller one
#: to 100 ε (2.2e-14), and 1 (an error of 100 %) is no accuracy at all.
RTOL_RANGE = (1e-13, 1.0)

#: The most fixed integration steps of one simulation call (rows × integration_resolution).
MAX_INTEGRATION_STEPS = 1_000_000
#: The budget of the adaptive integrator: evaluations of θ̈ = f(θ, θ̇) a call may use,
#: besides 12 for each step the bound on its step forces (:func:`adaptive_budget`). An
#: ordinary run uses a few thousand (a UR5 dropped for 5 s, reported every ms: 4000).
ADAPTIVE_EVALUATIONS = 100_000
#: The largest applied joint torque (N·m) or force (N), and tip-wrench entry, a simulation
#: accepts: a million times the strongest robot joint; larger ones only make it run away.
MAX_JOINT_TORQUE = 1e12

Accelerations = Callable[[np.ndarray, np.ndarray], np.ndarray]


def advance(
    accelerations: Accelerations, q: np.ndarray, qd: np.ndarray, dt: float, integrator: str
) -> tuple[np.ndarray, np.ndarray]:
    """One fixed step of (θ, θ̇) under θ̈ = ``accelerations(θ, θ̇)``, unchecked.

    Parameters
    ----------
    accelerations : callable
        ``accelerations(q, qd) -> qdd``, arrays of shape (n,) or (..., n).
    q, qd : ndarray, shape (n,) or (..., n)
        The state at the start of the step.
    dt : float
        The step in seconds (the caller checks that it is positive).
    integrator : {"euler", "semi_implicit_euler", "rk4"}
        One of :data:`FIXED_STEP_INTEGRATORS` (the caller checks the name).

    Returns
    -------
    q, qd : ndarray
        The state after ``dt``; not checked for finiteness (the simulations check
        blocks of steps and say where a state stopped being finite).

    Examples
    --------
    A body falling under θ̈ = -9.81 for 0.1 s from rest (exactly -0.04905 m):

    >>> import numpy as np
    >>> fall = lambda q, qd: np.full_like(q, -9.81)
    >>> [float(advance(fall, np.zeros(1), np.zeros(1), 0.1, k)[0][0])
    ...  for k in ("euler", "semi_implicit_euler", "rk4")]
    [0.0, -0.0981, -0.04905]
    """
    if integrator == "euler":
        qdd = accelerations(q, qd)
        return q + dt * qd, qd + dt * qdd
    if integrator == "semi_implicit_euler":
        qd = qd + dt * accelerations(q, qd)
        return q + dt * qd, qd
    half = 0.5 * dt
    a1 = accelerations(q, qd)
    v2 = qd + half * a1
    a2 = accelerations(q + half * qd, v2)
    v3 = qd + half * a2
    a3 = accelerations(q + half * v2, v3)
    v4 = qd + dt * a3
    a4 = accelerations(q + dt * v3, v4)
    sixth = dt / 6.0
    return (
        q + sixth * (qd + 2.0 * (v2 + v3) + v4),
        qd + sixth * (a1 + 2.0 * (a2 + a3) + a4),
    )


class AdaptiveBudget:
    """What an adaptive run may still spend: evaluations of θ̈ = f(θ, θ̇) (see
    :func:`adaptive_budget`), shared by the intervals of one simulation call.

    Examples
    --------
    >>> budget = AdaptiveBudget(10)
    >>> budget.limit, budget.used
    (10, 0)
    """

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0


class BudgetSpent(Exception):
    """Raised inside the solver's right-hand side when the budget is spent (at time ``t``)."""

    def __init__(self, t: float) -> None:
        super().__init__(t)
        self.t = t


def adaptive_budget(forced_steps: int = 0) -> AdaptiveBudget:
    """The budget of one adaptive simulation call: :data:`ADAPTIVE_EVALUATIONS` evaluations,
    plus 12 (two Dormand–Prince steps of six) for each of the ``forced_steps`` that a bound on
    the step (``max_step``) forces.

    Examples
    --------
    >>> adaptive_budget().limit, adaptive_budget(1000).limit
    (100000, 112000)
    """
    return AdaptiveBudget(ADAPTIVE_EVALUATIONS + 12 * forced_steps)


def solve_ivp_interval(
    accelerations: Accelerations,
    q: np.ndarray,
    qd: np.ndarray,
    times: np.ndarray,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    max_step: float = np.inf,
    budget: AdaptiveBudget | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The states at ``times`` (from ``times[0]``) by SciPy's adaptive ``solve_ivp`` (RK45).

    A batch of states (..., n) is integrated as one system (the solver's step then
    suits the fastest robot of the batch). Raises ``FloatingPointError`` when the
    solver gives up (its message, e.g. a step size below the machine's spacing), when it
    has spent its ``budget`` of evaluations (by default :func:`adaptive_budget`: a stiff
    motion makes it crawl), or when a joint speed passes
    :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` (the state ran away; the
    solver stops there).

    Parameters
    ----------
    accelerations : callable
        ``accelerations(q, qd) -> qdd``.
    q, qd : ndarray, shape (n,) or (..., n)
        The state at ``times[0]``.
    times : ndarray, shape (N,)
        Increasing times; the first is the start.
    rtol, atol, max_step : float
        Passed to :func:`scipy.integrate.solve_ivp`.
    budget : AdaptiveBudget, optional
        The evaluations left to the call (spent here); by default a fresh
        :func:`adaptive_budget`.

    Returns
    -------
    q, qd : ndarray, shape (N, ...) + q.shape[-1:]
        Row k is the state at ``times[k]`` (row 0 the start).

    Examples
    --------
    The harmonic oscillator θ̈ = -θ after a quarter period, π/2 s: θ = cos(π/2) = 0,
    θ̇ = -1.

    >>> import numpy as np
    >>> q, qd = solve_ivp_interval(lambda q, qd: -q, np.array([1.0]), np.array([0.0]),
    ...                            np.array([0.0, np.pi / 2]))
    >>> round(float(q[-1, 0]), 6) + 0.0, round(float(qd[-1, 0]), 6)
    (0.0, -1.0)
    """
    # lazy, SciPy is imported only when rk45 is used
    from scipy.integrate import solve_ivp  # type: ignore[import-untyped]

    shape = q.shape
    size = q.size
    spend = adaptive_budget() if budget is None else budget

    def rate(t: float, x: np.ndarray) -> np.ndarray:
        if spend.used >= spend.limit:
            raise BudgetSpent(t)
        spend.used += 1
        position, velocity = x[:size].reshape(shape), x[size:].reshape(shape)
        return np.concatenate([velocity.ravel(), accelerations(position, velocity).ravel()])

    def speed_margin(_t: float, x: np.ndarray) -> float:
        return RUNAWAY_SPEED - float(np.abs(x[size:]).max())

    speed_margin.terminal = True  # type: ignore[attr-defined]
    speed_margin.direction = -1  # type: ignore[attr-defined]
    start = np.concatenate([q.ravel(), qd.ravel()])
    try:
        result = solve_ivp(
            rate,
            (float(times[0]), float(times[-1])),
            start,
            method="RK45",
            t_eval=times,
            rtol=rtol,
            atol=atol,
            max_step=max_step,
            events=speed_margin,
        )
    except BudgetSpent as spent:
        raise FloatingPointError(
            f"solve_ivp (RK45) spent its budget of {spend.limit:,} evaluations of the "
            f"dynamics by t = {spent.t:.6g} s of [{times[0]:g}, {times[-1]:g}] s: the motion "
            "is too stiff for an explicit solver (a friction smoothing ε far below the joint "
            "speeds, or huge torques, make it crawl in tiny steps); try integrator='rk4' with "
            "a small timestep, or larger rtol and atol"
        ) from None
    if result.status == 1 and result.t_events[0].size:  # the runaway event stopped it
        when, state = float(result.t_events[0][0]), result.y_events[0][0]
        velocity = state[size:]
        joint = int(np.argmax(np.abs(velocity))) % shape[-1] + 1
        raise FloatingPointError(
            f"joint {joint}'s velocity reached {RUNAWAY_SPEED:g} at t = {when:.6g} s (a speed "
            "no arm reaches: the state ran away)"
        )
    if result.status != 0 or result.y.shape[1] != len(times):
        raise FloatingPointError(f"solve_ivp (RK45) failed: {result.message}")
    states = result.y.T
    return (
        states[:, :size].reshape(len(times), *shape),
        states[:, size:].reshape(len(times), *shape),
    )


def checked_timestep(timestep: Any, name: str = "timestep") -> float:
    """A positive time step (or another span of time named ``name``), as a float, from a
    nanosecond to about 32 years (:func:`~robolab.screw.trajectories.time_scaling.time_span`).

    Examples
    --------
    >>> checked_timestep(0.01)
    0.01
    >>> checked_timestep(-1)
    Traceback (most recent call last):
    ...
    ValueError: timestep must be positive, got -1
    """
    return time_span(float(as_float_array(timestep, name, ())), name)


def checked_tolerances(rtol: Any, atol: Any) -> tuple[float, float]:
    """The tolerances of the adaptive integrator: rtol in :data:`RTOL_RANGE`, 0 < atol < 1.

    Examples
    --------
    >>> checked_tolerances(1e-6, 1e-9)
    (1e-06, 1e-09)
    >>> checked_tolerances(10, 1e-9)
    Traceback (most recent call last):
    ...
    ValueError: rtol must lie in [1e-13, 1) (a relative error; SciPy raises a smaller one to
    2.2e-14, and 1 is no accuracy at all), got 10
    """
    relative = as_real_number(rtol, "rtol")
    absolute = as_real_number(atol, "atol")
    if relative <= 0 or absolute <= 0:
        raise ValueError(f"rtol and atol must be positive, got {relative:g} and {absolute:g}")
    low, high = RTOL_RANGE
    if not low <= relative < high:
        raise ValueError(
            f"rtol must lie in [{low:g}, {high:g}) (a relative error; SciPy raises a smaller "
            f"one to 2.2e-14, and 1 is no accuracy at all), got {relative:g}"
        )
    if absolute >= 1.0:
        raise ValueError(
            f"atol must lie in (0, 1) (an absolute error in rad, m, rad/s and m/s), "
            f"got {absolute:g}"
        )
    return relative, absolute


def checked_step_count(rows: int, resolution: int, timestep: float) -> int:
    """The fixed integration steps of a run of ``rows`` rows, (rows - 1) × resolution, at
    most :data:`MAX_INTEGRATION_STEPS`, each at least a nanosecond long.

    Examples
    --------
    >>> checked_step_count(101, 10, 0.01)
    1000
    >>> checked_step_count(10**6, 10, 0.01)
    Traceback (most recent call last):
    ...
    ValueError: the simulation would take 999,999 timesteps × integration_resolution 10 =
    9,999,990 integration steps, more than the budget of 1,000,000 a call; use fewer
    timesteps or a smaller integration_resolution
    """
    steps = (rows - 1) * resolution
    if steps > MAX_INTEGRATION_STEPS:
        raise ValueError(
            f"the simulation would take {rows - 1:,} timesteps × integration_resolution "
            f"{resolution:,} = {steps:,} integration steps, more than the budget of "
            f"{MAX_INTEGRATION_STEPS:,} a call; use fewer timesteps or a smaller "
            "integration_resolution"
        )
    if timestep / resolution < SHORTEST_TIME:
        raise ValueError(
            f"timestep / integration_resolution = {timestep / resolution:.3g} s must be at "
            f"least {SHORTEST_TIME:g} s (a nanosecond: shorter steps lose the motion in "
            "rounding); use a smaller integration_resolution"
        )
    return steps


def refuse_over(values: np.ndarray, name: str, bound: float, expected: str) -> None:
    """Raise ``ValueError`` naming the first entry of ``values`` over ``bound`` in size."""
    over = np.abs(values) > bound
    if over.any():
        index = tuple(int(i) for i in np.argwhere(over)[0])
        raise ValueError(f"{name} holds {float(values[index]):g} at index {index}: {expected}")


def checked_torques(torques: np.ndarray, name: str) -> np.ndarray:
    """``torques`` (finite) if no entry exceeds :data:`MAX_JOINT_TORQUE` in size."""
    refuse_over(
        torques,
        name,
        MAX_JOINT_TORQUE,
        f"applied torques (N·m), forces (N) and wrenches must be at most {MAX_JOINT_TORQUE:g} "
        "in size (a million times the strongest robot joint)",
    )
    return torques


def checked_start_speed(joint_velocities: np.ndarray, name: str = "joint_velocities") -> None:
    """Refuse initial joint speeds over :data:`~.divergence.RUNAWAY_SPEED` (no arm moves so)."""
    refuse_over(
        joint_velocities,
        name,
        RUNAWAY_SPEED,
        f"an initial joint speed must be at most {RUNAWAY_SPEED:g} rad/s (m/s), which no arm "
        "reaches",
    )


def checked_resolution(integration_resolution: Any) -> int:
    """Integration steps per time step: an int ≥ 1."""
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


def checked_integrator(integrator: str, allowed: tuple[str, ...]) -> str:
    """The name of an integrator among ``allowed``, or a ValueError that lists them."""
    if not isinstance(integrator, str) or integrator not in allowed:
        names = " or ".join(", ".join(repr(name) for name in allowed).rsplit(", ", 1))
        raise ValueError(f"integrator must be {names}, got {integrator!r}")
    return integrator


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


def checked_step(
    accelerations: Accelerations, q: np.ndarray, qd: np.ndarray, dt: float, integrator: str
) -> tuple[np.ndarray, np.ndarray]:
    """One step of (θ, θ̇) under θ̈ = accelerations(θ, θ̇), checked: a single public step.

    Raises :class:`~robolab.screw.simulation.divergence.SimulationDiverged` when the new
    state is not finite, or when the step took the joint speeds from at most
    :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` to more (it ran away). Loops
    use :func:`advance` and check blocks of steps instead.
    """
    limit = RUNAWAY_SPEED if not (np.abs(qd) > RUNAWAY_SPEED).any() else None
    with np.errstate(**QUIET):
        q, qd = advance(accelerations, q, qd, dt, integrator)
    check_step(q, qd, dt, integrator, limit)
    return q, qd


def euler_step(
    joint_positions: ArrayLike,
    joint_velocities: ArrayLike,
    joint_accelerations: ArrayLike,
    timestep: float,
) -> tuple[np.ndarray, np.ndarray]:
    """One first-order Euler step: θ + Δt θ̇ and θ̇ + Δt θ̈ (the book's ``EulerStep``).

    The ``"euler"`` step of :func:`advance` with the accelerations given.

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
        If the new state is not finite (it overflowed), or the step took a joint speed from
        at most 10⁶ to more (it ran away).

    Examples
    --------
    >>> euler_step([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1], 0.1)
    (array([0.11, 0.12, 0.13]), array([0.3 , 0.35, 0.4 ]))
    """
    q = as_float_array(joint_positions, "joint_positions", (None,), batch=True)
    n = q.shape[-1]
    qd = joint_array(joint_velocities, n, "joint_velocities")
    qdd = joint_array(joint_accelerations, n, "joint_accelerations")
    return checked_step(lambda _q, _qd: qdd, q, qd, checked_timestep(timestep), "euler")


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

    where FD is :func:`~robolab.screw.dynamics.forward.forward_dynamics_crba` (less the
    robot's joint friction); the ``"rk4"`` step of :func:`advance`. The Euler step is
    :func:`euler_step`.

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
        If the new state is not finite, or the step took a joint speed from at most
        :data:`~robolab.screw.simulation.divergence.RUNAWAY_SPEED` (10⁶ rad/s) to more, or
        two steps of Δt/2 end further from the step than it moves the state
        (:func:`check_step_length`): the step is far too long for the dynamics (one step of
        100 s of a dropped arm).
    ValueError
        For a torque or tip-wrench entry over :data:`MAX_JOINT_TORQUE` (10¹² N·m or N), or
        a time step outside [10⁻⁹, 10⁹] s.

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
    checked_torques(tau, "joint_torques")
    if tip_wrench is not None:
        checked_torques(tip_wrench, "tip_wrench")
    dynamics = closed_form_dynamics(model, tau, gravity, tip_wrench, friction_of(robot))
    dt = checked_timestep(timestep)
    q_end, qd_end = checked_step(dynamics, q, qd, dt, "rk4")
    check_step_length(dynamics, q, qd, (q_end, qd_end), dt)
    return q_end, qd_end


def check_step_length(
    accelerations: Accelerations,
    q: np.ndarray,
    qd: np.ndarray,
    result: tuple[np.ndarray, np.ndarray],
    dt: float,
) -> None:
    """Raise :class:`SimulationDiverged` if one RK4 step of ``dt`` is meaningless.

    The step ``result`` is compared with two RK4 steps of dt/2 from the same state: for a
    step within the dynamics' time scale they agree to a small fraction of the change
    (the error of RK4 is O(dt⁵)); where they differ by more than the step changes the
    state itself (plus 10⁻⁹ of it, the rounding), dt is far longer than the motion's time
    scale and the numbers are garbage even if finite and slow.
    """
    with np.errstate(**QUIET):
        halves = advance(accelerations, q, qd, 0.5 * dt, "rk4")
        halves = advance(accelerations, *halves, 0.5 * dt, "rk4")
    for name, start, full, half in zip(
        ("position", "velocity"), (q, qd), result, halves, strict=True
    ):
        start, full, half = np.broadcast_arrays(start, full, half)
        change = np.maximum(np.abs(full - start), np.abs(half - start))
        with np.errstate(**QUIET):
            bad = ~(np.abs(full - half) <= change + 1e-9 * (1.0 + np.abs(start)))
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            where = f" (batch index {index[:-1]})" if len(index) > 1 else ""
            raise SimulationDiverged(
                f"the Runge–Kutta step of {dt:g} s is far too long for the motion{where}: two "
                f"steps of {0.5 * dt:g} s give joint {index[-1] + 1}'s {name} "
                f"{float(half[index]):.6g} where the step gives {float(full[index]):.6g}, "
                "further apart than either is from the start (RK4 agrees with itself to "
                f"O(Δt⁵) only within the dynamics' time scale); try a smaller timestep (now "
                f"{dt:g} s)",
                step=1,
                time=dt,
                joint=index[-1] + 1,
            )
