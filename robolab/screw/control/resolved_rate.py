"""Resolved-rate motion control (Whitney 1969; Modern Robotics §11.3): q̇ = J⁺ V, step by step.

The hand is driven toward a fixed target pose T_sd by the body twist that would carry it
there in 1/K seconds (MR §11.3.1, task-space kinematic control with V_d = 0):

    V_b = K log(T_sb(q)⁻¹ T_sd),        q̇ = J_b(q)^# V_b + (1 - J_b⁺ J_b) k₀ ∇w(q),

integrated with Euler steps q ← q + Δt q̇ (each step multiplies the error by about
1 - KΔt, so the loop is stable only for 0 < KΔt < 2; KΔt = 1 is a Newton–Raphson step).

* J^# = J_bᵀ (J_b J_bᵀ + λ² 1)⁻¹ is the **damped least-squares** inverse (Nakamura &
  Hanafusa 1986; Wampler 1986; Siciliano et al. §3.7.1): λ = 0 gives the pseudo-inverse
  J_b⁺, whose joint speeds grow without bound near a singularity; with λ > 0 they stay
  below ‖V_b‖ / (2λ).
* The second term moves the joints in the **null space** of J_b (the projector
  1 - J_b⁺ J_b, exact: it does not move the hand) along the gradient of an objective w
  (Liégeois 1977; Siciliano §3.5.1, eq. 3.54). ``null_space="joint_limits"`` uses
  Liégeois' distance from the middle of the joint ranges,
  w(q) = -1/(2n) Σ ((q_i - q̄_i) / (q_i,max - q_i,min))²; a callable q ↦ ∇w(q) gives
  another objective.

:func:`resolved_rate_control` returns the whole motion, Yoshikawa's manipulability
√det(J_b J_bᵀ) along the way and what stopped it: ``"reached"`` (both errors within the
tolerances), ``"joint_limit"`` (the next step would leave a joint's range: the motion
stops before it), ``"singularity"`` (the undamped inverse at a singular configuration,
or a damped motion stalled at one) or ``"iteration_limit"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...spatial.rigid_body_motions import log6_vector_unchecked, transform_inv_unchecked
from ...support.arguments import as_float_array, as_real_number, as_transform, require_int
from ..kinematics.forward import body_chain_of, forward_kinematics_body_kernel, joint_array
from ..kinematics.inverse import (
    checked_damping,
    checked_iterations,
    checked_tolerance,
)
from ..kinematics.jacobian import jacobian_body_kernel
from ..robot import ScrewRobot
from ..trajectories.time_scaling import time_span

__all__ = [
    "STOP_REASONS",
    "ResolvedRateResult",
    "joint_limit_gradient",
    "resolved_rate_control",
]

#: What can stop a resolved-rate motion.
STOP_REASONS = ("reached", "joint_limit", "singularity", "iteration_limit")
#: The largest null-space gain k₀ accepted (the motion climbs ∇w at k₀ per second).
MAX_NULL_SPACE_GAIN = 1e6

#: A null-space objective: the gradient ∇w(q), shape (n,), of what the arm should increase.
NullSpaceObjective = Callable[[NDArray[np.float64]], ArrayLike]


@dataclass(frozen=True, eq=False)
class ResolvedRateResult:
    """A resolved-rate motion, sample by sample (k = 0 is the start), and why it stopped.

    Attributes
    ----------
    joint_positions : ndarray, shape (N+1, n)
    times : ndarray, shape (N+1,)
        k Δt, seconds.
    angular_errors, linear_errors : ndarray, shape (N+1,)
        ‖ω‖ (rad) and ‖v‖ (m) of log(T_sb⁻¹ T_sd) at each sample.
    manipulability : ndarray, shape (N+1,)
        Yoshikawa's √det(J_b J_bᵀ) (the product of the singular values of J_b).
    smallest_singular_value : ndarray, shape (N+1,)
    limit_margin : ndarray, shape (N+1,)
        The smallest distance of a joint to either end of its range, as a fraction of the
        range (0.5 is the middle; 0 at a limit; inf if no joint has a finite range).
    status : str
        One of :data:`STOP_REASONS`.
    message : str
        The reason in words (the joint and limit, the singular value, ...).
    """

    joint_positions: NDArray[np.float64]
    times: NDArray[np.float64]
    angular_errors: NDArray[np.float64]
    linear_errors: NDArray[np.float64]
    manipulability: NDArray[np.float64]
    smallest_singular_value: NDArray[np.float64]
    limit_margin: NDArray[np.float64]
    status: str
    message: str

    @property
    def reached(self) -> bool:
        """True if the target was reached within the tolerances."""
        return self.status == "reached"

    @property
    def final_joint_positions(self) -> NDArray[np.float64]:
        """The last sample, where the motion stopped."""
        return self.joint_positions[-1]

    @property
    def steps(self) -> int:
        """The number of Euler steps taken, N."""
        return len(self.times) - 1

    def __repr__(self) -> str:
        return (
            f"ResolvedRateResult(status={self.status!r}, steps={self.steps}, "
            f"angular_error={self.angular_errors[-1]:.3g}, "
            f"linear_error={self.linear_errors[-1]:.3g})"
        )


def _limits(robot: ScrewRobot) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    low, high = np.array(robot.joint_limits, dtype=float).T
    return low, high


def joint_limit_gradient(robot: ScrewRobot, joint_positions: ArrayLike) -> NDArray[np.float64]:
    """∇w of Liégeois' joint-limit objective w(q) = -1/(2n) Σ ((q_i - q̄_i)/(q_i,max - q_i,min))².

    w is largest (0) with every joint in the middle q̄_i of its range; a joint with an
    infinite range adds nothing (Liégeois 1977; Siciliano et al. §3.5.1, eq. 3.57).

    Parameters
    ----------
    robot : ScrewRobot
    joint_positions : array_like, shape (n,)

    Returns
    -------
    gradient : ndarray, shape (n,)
        ∂w/∂q_i = -(q_i - q̄_i) / (n (q_i,max - q_i,min)²).

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab.screw.control.resolved_rate import joint_limit_gradient
    >>> arm.joint_limits  # the default, ±π
    ((-3.141592653589793, 3.141592653589793), (-3.141592653589793, 3.141592653589793))
    >>> joint_limit_gradient(arm, [np.pi / 2, 0.0]).round(4)  # -(π/2) / (2 (2π)²)
    array([-0.0199,  0.    ])
    """
    robot = _require_robot(robot)
    q = joint_array(joint_positions, robot.n_joints, "joint_positions", batch=False)
    return _joint_limit_gradient(*_limits(robot), q)


def _joint_limit_gradient(
    low: NDArray[np.float64], high: NDArray[np.float64], q: NDArray[np.float64]
) -> NDArray[np.float64]:
    finite = np.isfinite(low) & np.isfinite(high)
    span = np.where(finite, high - low, 1.0)
    middle = np.where(finite, (low + high) / 2, 0.0)
    gradient = -(q - middle) / (len(q) * span**2)
    return np.where(finite, gradient, 0.0)


def _limit_margin(
    low: NDArray[np.float64], high: NDArray[np.float64], q: NDArray[np.float64]
) -> float:
    finite = np.isfinite(low) & np.isfinite(high)
    if not finite.any():
        return float("inf")
    span = (high - low)[finite]
    room = np.minimum(q[finite] - low[finite], high[finite] - q[finite])
    return float(np.min(room / span))


def _require_robot(robot: object) -> ScrewRobot:
    if not isinstance(robot, ScrewRobot):
        hint = " (convert a DHRobot with its to_screw())" if hasattr(robot, "to_screw") else ""
        raise TypeError(f"robot must be a ScrewRobot{hint}, got {type(robot).__name__}")
    return robot


def _nonnegative(value: object, name: str) -> float:
    number = as_real_number(value, name)
    if number < 0:
        raise ValueError(f"{name} must be zero or positive, got {number!r}")
    return number


def _speed_limits(value: ArrayLike | None, n: int) -> NDArray[np.float64] | None:
    if value is None:
        return None
    limits = as_float_array(value, "max_joint_speed")
    if limits.ndim == 0:
        limits = np.full(n, float(limits))
    if limits.shape != (n,):
        raise ValueError(
            f"max_joint_speed must be a number or have shape ({n},), got shape {limits.shape}"
        )
    if not np.all(limits > 0):
        raise ValueError(f"max_joint_speed must be positive for every joint, got {limits}")
    return limits


def _objective(
    null_space: str | NullSpaceObjective | None,
    low: NDArray[np.float64],
    high: NDArray[np.float64],
    n: int,
) -> Callable[[NDArray[np.float64]], NDArray[np.float64]] | None:
    if null_space is None:
        return None
    if null_space == "joint_limits":
        return lambda q: _joint_limit_gradient(low, high, q)
    if isinstance(null_space, str) or not callable(null_space):
        raise ValueError(
            "null_space must be None, 'joint_limits' or a function q -> gradient of shape "
            f"({n},), got {null_space!r}"
        )
    user = null_space

    def gradient(q: NDArray[np.float64]) -> NDArray[np.float64]:
        value = as_float_array(user(q.copy()), "the null-space objective's gradient")
        if value.shape != (n,):
            raise ValueError(
                f"the null-space objective must return a gradient of shape ({n},), "
                f"got shape {value.shape}"
            )
        if not np.all(np.isfinite(value)):
            raise ValueError(f"the null-space objective returned non-finite values at q = {q}")
        return value

    return gradient


def _check_start(robot: ScrewRobot, q: NDArray[np.float64]) -> None:
    for i, (value, (low, high)) in enumerate(zip(q, robot.joint_limits, strict=True)):
        if not low <= value <= high:
            raise ValueError(
                f"joint_positions[{i}] (joint {robot.joint_names[i]!r}) = {value:.6g} is outside "
                f"its range [{low:.6g}, {high:.6g}]: start inside the joint limits"
            )


def resolved_rate_control(
    robot: ScrewRobot,
    joint_positions: ArrayLike,
    target_pose: ArrayLike,
    *,
    gain: float = 1.0,
    timestep: float = 0.05,
    damping: float = 0.0,
    null_space: str | NullSpaceObjective | None = None,
    null_space_gain: float = 1.0,
    max_joint_speed: ArrayLike | None = None,
    max_steps: int = 500,
    angular_tolerance: float = 1e-3,
    linear_tolerance: float = 1e-4,
    singularity_tolerance: float = 1e-3,
) -> ResolvedRateResult:
    """Drive the hand to ``target_pose`` with resolved rates q̇ = J_b^# V_b (+ null-space motion).

    Each step: V_b = K log(T_sb(q)⁻¹ T_sd); q̇ = J^# V_b + (1 - J_b⁺J_b) k₀ ∇w(q), with
    J^# = J_bᵀ(J_b J_bᵀ + λ²1)⁻¹; q̇ scaled down uniformly if a joint would exceed its speed
    limit; q ← q + Δt q̇ (Whitney 1969; MR §11.3.1; Siciliano §3.5, §3.7).

    Parameters
    ----------
    robot : ScrewRobot
    joint_positions : array_like, shape (n,)
        The start q₀, inside the joint limits.
    target_pose : array_like, shape (4, 4)
        T_sd, in SE(3).
    gain : float
        K (1/s), > 0. With ``timestep`` Δt, KΔt must be below 2 (the loop is unstable
        otherwise); KΔt = 1 is the Newton–Raphson step of numerical inverse kinematics.
    timestep : float
        Δt (s), from a nanosecond to 10⁹ s.
    damping : float
        λ of the damped least-squares inverse (rad and m): 0 (the pseudo-inverse) or in
        [10⁻⁶, 10⁶] (:data:`~robolab.screw.kinematics.inverse.DAMPING_RANGE`).
    null_space : None, "joint_limits" or callable
        The objective whose gradient ∇w(q) (shape (n,)) the null-space motion climbs;
        ``"joint_limits"`` is Liégeois' (:func:`joint_limit_gradient`).
    null_space_gain : float
        k₀ ≥ 0.
    max_joint_speed : float or array_like, shape (n,), optional
        Speed limits |q̇_i| (rad/s or m/s), > 0.
    max_steps : int
        The iteration limit, ≥ 1 and at most the budget
        :data:`~robolab.screw.kinematics.inverse.MAX_ITERATIONS` (10⁵).
    angular_tolerance, linear_tolerance : float
        Reached when ‖ω‖ ≤ ε_ω (rad) and ‖v‖ ≤ ε_v (m) of the error twist log(T_sb⁻¹T_sd);
        at least 10⁻¹⁵, and ε_ω at most π.
    singularity_tolerance : float
        The motion stops as ``"singularity"`` when the smallest singular value of J_b falls
        below it with λ = 0 (the pseudo-inverse would blow up), or when a damped motion runs
        out of steps there.

    Returns
    -------
    ResolvedRateResult

    Raises
    ------
    TypeError
        For a robot that is not a ScrewRobot, or arguments that are not numbers.
    ValueError
        For a start outside the joint limits, a target that is not in SE(3), a gain, time
        step, damping or speed limit out of range, or KΔt ≥ 2 (unstable).

    Examples
    --------
    >>> import numpy as np
    >>> from robolab import ScrewRobot
    >>> x = np.eye(4); x[0, 3] = 1.0
    >>> arm = ScrewRobot("2R", x @ x, [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    ...                  [x, x, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    ...                  gravity=[0, -9.81, 0])
    >>> from robolab import forward_kinematics_space, resolved_rate_control
    >>> target = forward_kinematics_space(arm, [0.6, 0.9])
    >>> motion = resolved_rate_control(arm, [0.2, 0.5], target, gain=2.0, timestep=0.1)
    >>> motion.status, motion.steps, motion.final_joint_positions.round(4)
    ('reached', 42, array([0.6, 0.9]))
    >>> resolved_rate_control(arm, [0.2, 0.5], target, gain=25.0, timestep=0.1)
    Traceback (most recent call last):
    ...
    ValueError: gain·timestep = 2.5 ≥ 2: the loop is unstable (each step multiplies the error
    by about 1 - gain·timestep = -1.5); use gain·timestep ≤ 1
    """
    robot = _require_robot(robot)
    n = robot.n_joints
    q = joint_array(joint_positions, n, "joint_positions", batch=False).astype(float)
    _check_start(robot, q)
    target = as_transform(target_pose, "target_pose")
    gain = as_real_number(gain, "gain", positive=True)
    timestep = time_span(as_real_number(timestep, "timestep", positive=True), "timestep")
    if gain * timestep >= 2:
        raise ValueError(
            f"gain·timestep = {gain * timestep:.6g} ≥ 2: the loop is unstable (each step "
            f"multiplies the error by about 1 - gain·timestep = {1 - gain * timestep:.6g}); "
            "use gain·timestep ≤ 1"
        )
    as_real_number(damping, "damping")
    damping = checked_damping(damping, zero=True)
    null_space_gain = _nonnegative(null_space_gain, "null_space_gain")
    if null_space_gain > MAX_NULL_SPACE_GAIN:
        raise ValueError(
            f"null_space_gain must be at most {MAX_NULL_SPACE_GAIN:g}, got {null_space_gain:g}"
        )
    max_steps = require_int(max_steps, "max_steps")
    if max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    max_steps = checked_iterations(max_steps, "max_steps")
    angular_tolerance = as_real_number(angular_tolerance, "angular_tolerance", positive=True)
    angular_tolerance = checked_tolerance(angular_tolerance, "angular_tolerance", np.pi)
    linear_tolerance = as_real_number(linear_tolerance, "linear_tolerance", positive=True)
    linear_tolerance = checked_tolerance(linear_tolerance, "linear_tolerance")
    singularity_tolerance = _nonnegative(singularity_tolerance, "singularity_tolerance")
    speed_limits = _speed_limits(max_joint_speed, n)
    low, high = _limits(robot)
    objective = _objective(null_space, low, high, n)
    chain, home = body_chain_of(robot), robot.home_ee_pose
    history: dict[str, list[float]] = {key: [] for key in ("w", "w_min", "ang", "lin", "margin")}
    qs = [q]
    status, message = "iteration_limit", f"the target was not reached in {max_steps} steps"
    for step in range(max_steps + 1):
        error = log6_vector_unchecked(
            transform_inv_unchecked(forward_kinematics_body_kernel(chain, home, q)) @ target
        )
        J = jacobian_body_kernel(chain, q)
        singular_values = np.linalg.svd(J, compute_uv=False)
        angular, linear = float(np.linalg.norm(error[:3])), float(np.linalg.norm(error[3:]))
        for key, value in zip(
            history,
            (
                np.prod(singular_values),
                singular_values[-1],
                angular,
                linear,
                _limit_margin(low, high, q),
            ),
            strict=True,
        ):
            history[key].append(float(value))
        if angular <= angular_tolerance and linear <= linear_tolerance:
            status, message = "reached", f"reached in {step} steps"
            break
        if singular_values[-1] < singularity_tolerance and (damping == 0 or step == max_steps):
            status = "singularity"
            message = (
                f"J_b is singular at step {step}: smallest singular value "
                f"{singular_values[-1]:.3g} < {singularity_tolerance:.3g}"
                + (
                    f"; the damped motion stalled there in {max_steps} steps (is the target "
                    "out of reach?)"
                    if damping
                    else "; the pseudo-inverse would blow up (add damping)"
                )
            )
            break
        if step == max_steps:
            break
        twist = gain * error
        if damping:
            rates = J.T @ np.linalg.solve(J @ J.T + damping**2 * np.eye(6), twist)
        else:
            rates = np.linalg.pinv(J) @ twist
        with np.errstate(over="ignore", invalid="ignore"):  # a non-finite step is named below
            if objective is not None and null_space_gain:
                projector = np.eye(n) - np.linalg.pinv(J) @ J
                rates = rates + projector @ (null_space_gain * objective(q))
            if speed_limits is not None:
                rates = rates / max(1.0, float(np.max(np.abs(rates) / speed_limits)))
            q_next = q + timestep * rates
        if not np.isfinite(q_next).all():
            raise ValueError(
                f"step {step + 1} of the resolved-rate motion left the finite numbers (joint "
                f"rates {rates}): lower gain, null_space_gain or the null-space objective"
            )
        outside = np.flatnonzero((q_next < low) | (q_next > high))
        if outside.size:
            i = int(outside[0])
            bound = low[i] if q_next[i] < low[i] else high[i]
            status = "joint_limit"
            message = (
                f"step {step + 1} would take joint {i + 1} ({robot.joint_names[i]!r}) to "
                f"{q_next[i]:.6g}, past its limit {bound:.6g}: stopped before it"
            )
            break
        q = q_next
        qs.append(q)

    def frozen(values: list[float] | list[NDArray[np.float64]]) -> NDArray[np.float64]:
        array = np.array(values, dtype=float)
        array.setflags(write=False)
        return array

    return ResolvedRateResult(
        joint_positions=frozen(qs),
        times=frozen(list(timestep * np.arange(len(qs)))),
        angular_errors=frozen(history["ang"]),
        linear_errors=frozen(history["lin"]),
        manipulability=frozen(history["w"]),
        smallest_singular_value=frozen(history["w_min"]),
        limit_margin=frozen(history["margin"]),
        status=status,
        message=message,
    )
