"""A simulation that diverged: :class:`SimulationDiverged`, where it happened and what to try.

A simulation never returns NaN or infinite values quietly, nor a state that ran away: a
joint speed over :data:`RUNAWAY_SPEED` (10⁶ rad/s or m/s, which no arm reaches) is
finite garbage, the sign of a time step far too long for the dynamics. The time loops
(:func:`~robolab.screw.simulation.dynamics_trajectory.forward_dynamics_trajectory`,
:func:`~robolab.screw.control.tracking.simulate_control`,
:func:`~robolab.screw.control.tracking.simulate_tracking`) integrate blocks of rows
unchecked and test each block once (:func:`first_bad_row`); when a row is not finite,
:func:`locate` repeats that row's integration steps (deterministic, so the same
numbers) to find the first step that left the finite numbers, and
:func:`diverged` writes the error: the step, the time, the joint, the value it had one
step before, and what to try (:func:`divergence_advice`). A block whose rows are finite
but run away (:func:`first_runaway_row`) is located the same way, with the speed limit.
A single step
(:func:`~robolab.screw.simulation.integrators.euler_step`,
:func:`~robolab.screw.simulation.integrators.runge_kutta4_step`) is checked by
:func:`check_step`.

Examples
--------
A state that overflowed in its second step of four (Δt = 0.25 s each) on the way from
row 0 to row 1 of a trajectory:

>>> import numpy as np
>>> double = lambda q, qd: (q * 1e200, qd * 1e200)
>>> error = locate(double, np.ones(2), np.ones(2), 0, (None, None), 1.0, 4, "euler",
...                "between rows 0 and 1 of the trajectory")
>>> print(error)  # doctest: +NORMALIZE_WHITESPACE
the simulation diverged at integration step 2 (t = 0.5 s, between rows 0 and 1 of the
trajectory): joint 1's velocity became inf (it was 1e+200 one step before); try a smaller
timestep (now 1 s) or a larger integration_resolution (now 4), or integrator='rk4'
>>> error.step, error.time, error.joint
(2, 0.5, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["SimulationDiverged"]

#: A joint speed (rad/s, or m/s for a prismatic joint) no arm reaches: a simulated state
#: past it has run away (the time step is far too long for the dynamics, or the gains too
#: stiff for it), even while its numbers are still finite.
RUNAWAY_SPEED = 1e6

#: Trajectory rows integrated between two finiteness checks of the state (one vectorised
#: ``np.isfinite`` per block; a bad block is then searched step by step).
CHECK_EVERY = 32

#: NumPy's overflow and invalid-value warnings of a diverging step are replaced by
#: :class:`SimulationDiverged`, which says where it happened.
QUIET: dict[str, Any] = {"over": "ignore", "invalid": "ignore", "divide": "ignore"}

#: One integration step of the state, (θ, θ̇) → (θ, θ̇).
Step = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


class SimulationDiverged(FloatingPointError, ValueError):
    """The simulated state θ or θ̇ became NaN or infinite: the integration diverged.

    Raised by :func:`~robolab.screw.simulation.dynamics_trajectory.forward_dynamics_trajectory`,
    :func:`~robolab.screw.control.tracking.simulate_control`,
    :func:`~robolab.screw.control.tracking.simulate_tracking`,
    :func:`~robolab.screw.simulation.free_motion.simulate`,
    :func:`~robolab.screw.simulation.integrators.euler_step` and
    :func:`~robolab.screw.simulation.integrators.runge_kutta4_step` (with a robot or the
    book's arrays) instead of returning garbage. The usual cause is a time step too large
    for the arm's dynamics or for the controller's gains; the message names the step, the
    time and the joint. It is a :class:`FloatingPointError` and also a
    :class:`ValueError`, so ``except ValueError`` catches it like robolab's other errors
    about arguments.

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
    """Whether every entry of every array is finite (no NaN, no ±inf)."""
    return all(bool(np.isfinite(a).all()) for a in arrays)


def sane(q: np.ndarray, qd: np.ndarray, speed_limit: float | None = None) -> bool:
    """Whether the state is finite and, with ``speed_limit``, no joint speed exceeds it."""
    if not finite(q, qd):
        return False
    return speed_limit is None or not bool((np.abs(qd) > speed_limit).any())


def non_finite_entry(
    q: np.ndarray, qd: np.ndarray, speed_limit: float | None = None
) -> tuple[tuple[int, ...], int, str, str]:
    """(batch index, joint from 1, "velocity" or "position", value) of the first bad entry.

    The first robot of a batch with a bad entry; in it the velocity first (it
    blows up before the position does). A bad entry is a non-finite one or, with
    ``speed_limit`` and a finite state, a speed over the limit.
    """
    q, qd = np.broadcast_arrays(q, qd)
    over = speed_limit is not None and finite(q, qd)
    bad_q = np.zeros(q.shape, bool) if over else ~np.isfinite(q)
    bad_qd = np.abs(qd) > speed_limit if over else ~np.isfinite(qd)
    robot: tuple[int, ...] = ()
    if q.ndim > 1:
        robot = tuple(int(i) for i in np.argwhere((bad_q | bad_qd).any(axis=-1))[0])
    for quantity, values, bad in (
        ("velocity", qd[robot], bad_qd[robot]),
        ("position", q[robot], bad_q[robot]),
    ):
        joints = np.flatnonzero(bad)
        if joints.size:
            value = float(values[joints[0]])
            return robot, int(joints[0]) + 1, quantity, "NaN" if np.isnan(value) else f"{value:g}"
    raise AssertionError("no bad entry")  # pragma: no cover - callers check first


def what_happened(quantity: str, value: str, speed_limit: float | None) -> str:
    """ "became inf" of a non-finite entry, "reached 3e+07, over ..." of a runaway speed."""
    if speed_limit is None:
        return f"{quantity} became {value}"
    return (
        f"{quantity} reached {value}, over {speed_limit:g} (a speed no arm reaches: the state "
        "ran away)"
    )


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
    speed_limit: float | None = None,
) -> SimulationDiverged:
    """The error for a non-finite state (q, qd) after integration ``step`` (from 1).

    ``during`` says where the step lies in the trajectory (shown when there
    are several integration steps per trajectory step); ``previous`` is the
    state before the step, whose value of the bad entry is shown. With
    ``speed_limit`` the state is finite and a speed ran past the limit.
    """
    robot, joint, quantity, value = non_finite_entry(q, qd, speed_limit)
    if previous is not None:
        before = np.broadcast_arrays(*previous)[0 if quantity == "position" else 1]
        entry = (*robot, joint - 1)
        value += f" (it was {float(before[entry]):.3g} one step before)"
    where = f" (batch index {robot})" if robot else ""
    if resolution == 1:
        when = f"at step {step} (t = {time:.6g} s)"
    else:
        when = f"at integration step {step} (t = {time:.6g} s, {during})"
    return SimulationDiverged(
        f"the simulation diverged {when}{where}: joint {joint}'s "
        f"{what_happened(quantity, value, speed_limit)}; "
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


def first_runaway_row(velocities: np.ndarray, start: int, stop: int, speed_limit: float) -> int:
    """The first row in [start, stop) with a joint speed over ``speed_limit``, or -1.

    The rows are finite (:func:`first_bad_row` found none that is not).
    """
    fast = (np.abs(velocities[start:stop]) > speed_limit).reshape(stop - start, -1).any(axis=1)
    rows = np.flatnonzero(fast)
    return start + int(rows[0]) if rows.size else -1


def locate(
    step: Step,
    q: np.ndarray,
    qd: np.ndarray,
    interval: int,
    stored: tuple[np.ndarray, np.ndarray],
    timestep: float,
    resolution: int,
    integrator: str,
    during: str,
    speed_limit: float | None = None,
) -> SimulationDiverged:
    """The error for trajectory interval ``interval``, which led from (q, qd) to a bad state.

    The interval (counted from 0, ``timestep`` long) started at the finite state
    (q, qd) and its ``resolution`` integration steps ``step`` ended in the non-finite
    state ``stored`` (with ``speed_limit``: the finite state ``stored`` with a speed over
    it). The steps are repeated (deterministic, so the same numbers) to find the first
    one that gave such a state; ``during`` names the interval in the message (see
    :func:`diverged`).
    """
    dt = timestep / resolution
    previous = q, qd
    with np.errstate(**QUIET):
        k = 0
        while k < resolution:
            k += 1
            previous = q, qd
            q, qd = step(q, qd)
            if not sane(q, qd, speed_limit):
                break
    if sane(q, qd, speed_limit):  # pragma: no cover - the repeat is bitwise the same
        q, qd = stored
    return diverged(
        q,
        qd,
        interval * resolution + k,
        interval * timestep + k * dt,
        timestep,
        resolution,
        integrator,
        during,
        previous,
        speed_limit,
    )


def check_step(
    q: np.ndarray, qd: np.ndarray, dt: float, integrator: str, speed_limit: float | None = None
) -> None:
    """Raise :class:`SimulationDiverged` if one public step gave a non-finite state, or
    (with ``speed_limit``) a speed over the limit."""
    if not sane(q, qd, speed_limit):
        limit = None if not finite(q, qd) else speed_limit
        robot, joint, quantity, value = non_finite_entry(q, qd, limit)
        where = f" (batch index {robot})" if robot else ""
        method = "Euler" if integrator == "euler" else "Runge–Kutta"
        raise SimulationDiverged(
            f"the {method} step of {dt:g} s diverged{where}: joint {joint}'s "
            f"{what_happened(quantity, value, limit)}; " + divergence_advice(dt, None, None),
            step=1,
            time=dt,
            joint=joint,
        )
