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

import numpy as np

from ...conventions import DEFAULT_INTEGRATOR_ATOL, DEFAULT_INTEGRATOR_RTOL

__all__ = [
    "FIXED_STEP_INTEGRATORS",
    "INTEGRATORS",
    "advance",
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
