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
    state is reported (and bounds the solver's step).

The book's two steps of a robot are here by name too: :func:`euler_step` (the book's
``EulerStep``, given θ̈) and :func:`runge_kutta4_step` (one RK4 step of a robot under
constant torques, the robot's joint friction included); both raise
:class:`~robolab.screw.simulation.divergence.SimulationDiverged` when the new state is not
finite. :func:`closed_form_dynamics` is the θ̈ = f(θ, θ̇) of a robot under held torques
that the simulations integrate.

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
from ...support.arguments import as_float_array
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
from .divergence import QUIET, check_step

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


def solve_ivp_interval(
    accelerations: Accelerations,
    q: np.ndarray,
    qd: np.ndarray,
    times: np.ndarray,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    max_step: float = np.inf,
) -> tuple[np.ndarray, np.ndarray]:
    """The states at ``times`` (from ``times[0]``) by SciPy's adaptive ``solve_ivp`` (RK45).

    A batch of states (..., n) is integrated as one system (the solver's step then
    suits the fastest robot of the batch). Raises ``FloatingPointError`` when the
    solver gives up (its message, e.g. a step size below the machine's spacing).

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

    def rate(_t: float, x: np.ndarray) -> np.ndarray:
        position, velocity = x[:size].reshape(shape), x[size:].reshape(shape)
        return np.concatenate([velocity.ravel(), accelerations(position, velocity).ravel()])

    start = np.concatenate([q.ravel(), qd.ravel()])
    result = solve_ivp(
        rate,
        (float(times[0]), float(times[-1])),
        start,
        method="RK45",
        t_eval=times,
        rtol=rtol,
        atol=atol,
        max_step=max_step,
    )
    if result.status != 0 or result.y.shape[1] != len(times):
        raise FloatingPointError(f"solve_ivp (RK45) failed: {result.message}")
    states = result.y.T
    return (
        states[:, :size].reshape(len(times), *shape),
        states[:, size:].reshape(len(times), *shape),
    )


def checked_timestep(timestep: Any, name: str = "timestep") -> float:
    """A positive time step (or another span of time named ``name``), as a float."""
    value = float(as_float_array(timestep, name, ()))
    if value <= 0.0:
        raise ValueError(f"{name} must be positive, got {value:g}")
    return value


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
    state is not finite. Loops use :func:`advance` and check blocks of steps instead.
    """
    with np.errstate(**QUIET):
        q, qd = advance(accelerations, q, qd, dt, integrator)
    check_step(q, qd, dt, integrator)
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
    return checked_step(dynamics, q, qd, checked_timestep(timestep), "rk4")
