"""Independent joint control: one geared joint, its actuator and a PD/PID loop.

Spong, Hutchinson & Vidyasagar, *Robot Modeling and Control* (SHV) ch. 6 model each joint
of an arm as a motor behind a gear of ratio r (motor angle θ_m = r q, q the link angle).
Seen from the motor, the link's inertia J_ℓ and damping B_ℓ shrink by r²:

    J θ̈_m + B θ̇_m = u - d / r,     J = J_m + J_ℓ / r²,   B = B_m + B_ℓ / r²,

where u is the motor torque (limited to |u| ≤ u_max) and d the link-side torque that the
rest of the arm puts on the joint (gravity, coupling), a **disturbance** divided by r. The
controller of SHV §6.3 acts on the motor angle:

    u = K_p (θ_m^d - θ_m) - K_d θ̇_m + K_i ∫ (θ_m^d - θ_m) dt,

so the closed loop is J s³ + (B + K_d) s² + K_p s + K_i (K_i = 0: a second-order system with
ω_n² = K_p / J and 2 ζ ω_n = (B + K_d) / J). Its Routh–Hurwitz condition, (B + K_d) K_p >
J K_i, is checked: unstable gains raise an error that says so.

:func:`simulate_joint` runs the loop on a time grid with the **exact discretisation** of the
linear part (the matrix exponential, by scaling and squaring, of the three-state system
[θ_m, θ̇_m, ∫e], computed once per gain set); gravity d = G cos q is held over each step
(a zero-order hold) and the torque limit switches between the closed-loop map and the
saturated open-loop map at every sample.
With ``anti_windup=True`` the integral stops while the motor is saturated (conditional
integration). :func:`step_response_metrics` measures rise time (10–90 %), peak time,
overshoot, 2 % settling time and steady-state error of any sampled step response.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from ...support.arguments import as_float_array, as_real_number, require_bool
from ...support.renames import renamed_keywords
from ..dynamics.mass_matrix import mass_matrix_crba
from ..dynamics.rnea import inverse_dynamics_rnea
from ..robot import ScrewRobot
from ..simulation.divergence import QUIET, RUNAWAY_SPEED, SimulationDiverged
from .laws import checked_gains

__all__ = [
    "JointActuator",
    "JointResult",
    "JointsResult",
    "StepMetrics",
    "simulate_joint",
    "simulate_joints",
    "step_response_metrics",
]

GRAVITY = 9.81
#: The most samples of :func:`simulate_joint` (duration / timestep; a step is a few µs).
MAX_JOINT_STEPS = 10_000_000
#: The most RK4 steps of :func:`simulate_joints` (each evaluates the arm's dynamics four
#: times: 10⁵ steps take 20 to 40 s).
MAX_ARM_STEPS = 100_000
#: The largest gear ratio r accepted (harmonic drives reach a few hundred).
MAX_GEAR_RATIO = 1e6
#: The largest link angle (rad) a target or start may have: a million radians.
LARGEST_ANGLE = 1e6


def _nonnegative(value: object, name: str) -> float:
    number = as_real_number(value, name)
    if number < 0:
        raise ValueError(f"{name} must be zero or positive, got {number:g}")
    return number


@dataclass(frozen=True)
class JointActuator:
    """A motor behind a gear: motor inertia, viscous friction, gear ratio and torque limit.

    Parameters
    ----------
    motor_inertia : float
        J_m, kg·m² (rotor and gear, seen at the motor shaft), positive.
    motor_damping : float
        B_m, N·m·s/rad at the motor shaft, zero or positive.
    gear_ratio : float
        r = θ_m / q, at least 1 (1 is a direct drive).
    torque_limit : float
        u_max, the largest motor torque in N·m (``math.inf``: no limit).

    Examples
    --------
    The Puma 560's joint 2 motor (Corke, *Robotics, Vision and Control*, the ``puma560``
    model's motor data: J_m, B_m, r), a 1.2 N·m limit and a 1.2 kg·m² link: the link adds
    only J_ℓ / r² at the motor.

    >>> motor = JointActuator(200e-6, 0.817e-3, 107.815, 1.2)
    >>> round(motor.reflected_inertia(1.2), 7)
    0.0003032
    >>> JointActuator(-1e-4, 0.0, 100.0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: motor_inertia must be positive, got -0.0001 kg·m²
    """

    motor_inertia: float
    motor_damping: float = 0.0
    gear_ratio: float = 1.0
    torque_limit: float = math.inf

    def __post_init__(self) -> None:
        inertia = as_real_number(self.motor_inertia, "motor_inertia")
        if inertia <= 0:
            raise ValueError(f"motor_inertia must be positive, got {inertia:g} kg·m²")
        ratio = as_real_number(self.gear_ratio, "gear_ratio")
        if not 1 <= ratio <= MAX_GEAR_RATIO:
            raise ValueError(
                f"gear_ratio must be at least 1 (θ_m = r q; 1 is a direct drive) and at most "
                f"{MAX_GEAR_RATIO:g}, got {ratio:g}"
            )
        limit = self.torque_limit
        if not (isinstance(limit, float | int) and limit == math.inf):
            limit = as_real_number(limit, "torque_limit")
            if limit <= 0:
                raise ValueError(f"torque_limit must be positive, got {limit:g} N·m")
        object.__setattr__(self, "motor_inertia", inertia)
        object.__setattr__(self, "motor_damping", _nonnegative(self.motor_damping, "motor_damping"))
        object.__setattr__(self, "gear_ratio", ratio)
        object.__setattr__(self, "torque_limit", float(limit))

    def reflected_inertia(self, link_inertia: float) -> float:
        """J = J_m + J_ℓ / r², kg·m² at the motor (SHV §6.2)."""
        return self.motor_inertia + _nonnegative(link_inertia, "link_inertia") / self.gear_ratio**2

    def reflected_damping(self, link_damping: float = 0.0) -> float:
        """B = B_m + B_ℓ / r², N·m·s/rad at the motor."""
        return self.motor_damping + _nonnegative(link_damping, "link_damping") / self.gear_ratio**2


@dataclass(frozen=True, eq=False)
class StepMetrics:
    """Measures of a step response (:func:`step_response_metrics`).

    Attributes
    ----------
    rise_time : float
        From 10 % to 90 % of the step, seconds (nan if 90 % is never reached).
    peak_time : float
        Time of the largest excursion beyond the start, seconds.
    overshoot : float
        (peak - target) / step in percent (0 when the response never passes the target).
    settling_time : float
        Last time the response is outside target ± band·|step| (nan if it ends outside).
    steady_state_error : float
        target - y at the last sample.
    """

    rise_time: float
    peak_time: float
    overshoot: float
    settling_time: float
    steady_state_error: float

    def __str__(self) -> str:
        return (
            f"rise {self.rise_time * 1000:.1f} ms, overshoot {self.overshoot:.1f} %, "
            f"settling {self.settling_time * 1000:.0f} ms, "
            f"e_ss = {self.steady_state_error:.3g}"
        )


def _crossing(t: np.ndarray, s: np.ndarray, level: float) -> float:
    """First time the normalised response s reaches ``level`` (linear interpolation)."""
    above = np.nonzero(s >= level)[0]
    if above.size == 0:
        return math.nan
    k = int(above[0])
    if k == 0:
        return float(t[0])
    return float(t[k - 1] + (level - s[k - 1]) * (t[k] - t[k - 1]) / (s[k] - s[k - 1]))


def step_response_metrics(
    t: ArrayLike, y: ArrayLike, target: float, *, initial: float | None = None, band: float = 0.02
) -> StepMetrics:
    """Rise time, peak time, overshoot, settling time and steady-state error of a step response.

    The step goes from ``initial`` (default ``y[0]``) to ``target``; the response is
    normalised to s = (y - initial) / (target - initial). Rise time is the 10–90 % rise
    (Franklin, Powell & Emami-Naeini §3.4; ≈ 1.8/ω_n at ζ = 0.5), crossings interpolated
    linearly between samples. For the second-order step (Ogata §5.3) the overshoot is
    100·exp(-ζπ/√(1-ζ²)) % at t_p = π/ω_d; its 2 % settling time is at most
    ln(1/(0.02·√(1-ζ²)))/(ζ ω_n), where the envelope e^(-ζω_n t)/√(1-ζ²) reaches 2 %, and the rule
    of thumb 4/(ζ ω_n) only estimates it (on either side).

    Parameters
    ----------
    t : array_like, shape (N,)
        Increasing times, seconds.
    y : array_like, shape (N,)
        The response.
    target : float
        The commanded value (must differ from ``initial``).
    initial : float, optional
        The value before the step (default ``y[0]``).
    band : float
        The settling band as a fraction of the step (0.02: 2 %).

    Returns
    -------
    StepMetrics

    Examples
    --------
    An exact second-order step, ζ = 0.5 and ω_n = 10 rad/s: 16.3 % overshoot at π/ω_d.

    >>> import numpy as np
    >>> t = np.linspace(0.0, 2.0, 20001)
    >>> z, w = 0.5, 10.0
    >>> wd = w * np.sqrt(1 - z**2)
    >>> y = 1 - np.exp(-z * w * t) * (np.cos(wd * t) + z / np.sqrt(1 - z**2) * np.sin(wd * t))
    >>> m = step_response_metrics(t, y, 1.0)
    >>> round(m.overshoot, 2), round(m.peak_time, 4), round(float(np.pi / wd), 4)
    (16.3, 0.3628, 0.3628)
    """
    times = as_float_array(t, "t", (None,))
    values = as_float_array(y, "y", (None,))
    if times.shape != values.shape or times.size < 2:
        raise ValueError(
            f"t and y must be two arrays of the same length (at least 2), got shapes "
            f"{times.shape} and {values.shape}"
        )
    if np.any(np.diff(times) <= 0):
        raise ValueError("t must be strictly increasing")
    goal = as_real_number(target, "target")
    start = float(values[0]) if initial is None else as_real_number(initial, "initial")
    step = goal - start
    if step == 0:
        raise ValueError(f"target must differ from the initial value {start:g}: no step")
    width = as_real_number(band, "band")
    if not 0 < width < 1:
        raise ValueError(f"band must be a fraction between 0 and 1 (0.02 is 2 %), got {width:g}")
    s = (values - start) / step
    rise = _crossing(times, s, 0.9) - _crossing(times, s, 0.1)
    peak = int(np.argmax(s))
    overshoot = max(0.0, float(s[peak]) - 1.0) * 100.0
    outside = np.nonzero(np.abs(s - 1.0) > width)[0]
    if outside.size == 0:
        settling = float(times[0])
    elif outside[-1] == times.size - 1:
        settling = math.nan
    else:
        k = int(outside[-1])
        e0, e1 = abs(s[k] - 1.0), abs(s[k + 1] - 1.0)
        settling = float(times[k] + (e0 - width) * (times[k + 1] - times[k]) / (e0 - e1))
    return StepMetrics(rise, float(times[peak]), overshoot, settling, goal - float(values[-1]))


@dataclass(frozen=True, eq=False)
class JointResult:
    """One joint's closed-loop motion (:func:`simulate_joint`).

    Attributes
    ----------
    times : ndarray (N,)
    positions, velocities : ndarray (N,)
        The link angle q = θ_m / r (rad) and its rate.
    motor_torque : ndarray (N,)
        u at each sample, after the limit.
    saturated : ndarray of bool (N,)
        Where |u| was at the limit.
    target : float
        The commanded link angle.
    initial : float
        q(0).
    natural_frequency, damping_ratio : float
        ω_n = √(K_p/J) and ζ = (B + K_d)/(2√(K_p J)) of the PD part.
    torque_limit : float
    """

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    motor_torque: np.ndarray
    saturated: np.ndarray
    target: float
    initial: float
    natural_frequency: float
    damping_ratio: float
    torque_limit: float
    metrics: StepMetrics = field(init=False)

    def __post_init__(self) -> None:
        metrics = step_response_metrics(
            self.times, self.positions, self.target, initial=self.initial
        )
        object.__setattr__(self, "metrics", metrics)


def matrix_exponential(matrix: np.ndarray) -> np.ndarray:
    """exp of a small matrix: scaling and squaring of an 18-term Taylor series.

    Not ``scipy.linalg.expm``: its BLAS and LAPACK calls wake OpenBLAS's worker threads,
    which then spin and take the CPU from the simulation loop that follows; on a busy
    2-core machine a slider step of chapter 12 took 5-24 ms with it and 2.3 ms with this
    (``np.einsum`` on 5×5 matrices calls no BLAS). Tested equal to SciPy's to 1e-13.
    """
    norm = float(np.abs(matrix).sum(axis=1).max())
    squarings = max(0, math.ceil(math.log2(norm)) + 1) if norm > 0 else 0
    scaled = matrix / 2.0**squarings
    term = np.eye(len(matrix))
    total = term.copy()
    for k in range(1, 18):
        term = np.einsum("ij,jk->ik", term, scaled) / k
        total += term
    for _ in range(squarings):
        total = np.einsum("ij,jk->ik", total, total)
    return total


def _link_angle(value: object, name: str) -> float:
    """A link angle in rad, at most :data:`LARGEST_ANGLE` in size."""
    angle = as_real_number(value, name)
    if abs(angle) > LARGEST_ANGLE:
        raise ValueError(
            f"{name} must be at most {LARGEST_ANGLE:g} rad in size (a link angle), got {angle:g}"
        )
    return angle


def _sample_count(timestep: object, duration: object, most: int) -> tuple[float, int]:
    """(Δt, duration / Δt rounded): at least 2 steps, at most ``most``."""
    h = as_real_number(timestep, "timestep", positive=True)
    span = as_real_number(duration, "duration", positive=True)
    steps = span / h
    if steps < 1.5:
        raise ValueError(f"duration {span:g} s must cover at least two steps of {h:g} s")
    if steps > most + 0.5:
        raise ValueError(
            f"duration / timestep = {span:g} s / {h:g} s = {steps:.3g} steps is too many (at "
            f"most {most:,}: a longer duration or a shorter timestep than that is a typo)"
        )
    return h, round(steps)


def _maps(a: np.ndarray, timestep: float) -> tuple[list[list[float]], list[list[float]]]:
    """Exact zero-order-hold map x⁺ = Φ x + Γ w of x' = A x + E w (E = the last 2 columns)."""
    n = 3
    block = np.zeros((n + 2, n + 2))
    block[:n, :] = a
    exp = matrix_exponential(block * timestep)
    return exp[:n, :n].tolist(), exp[:n, n:].tolist()


@renamed_keywords(kp="Kp", kd="Kd", ki="Ki", initial="joint_position")
def simulate_joint(
    actuator: JointActuator,
    *,
    link_inertia: float,
    Kp: float,
    Kd: float,
    Ki: float = 0.0,
    target: float,
    duration: float,
    timestep: float = 0.001,
    joint_position: float = 0.0,
    link_damping: float = 0.0,
    gravity_torque: float = 0.0,
    disturbance: float = 0.0,
    anti_windup: bool = False,
) -> JointResult:
    """A set-point step of one geared joint under PD or PID control (SHV §6.3).

    The gains act on the motor angle θ_m = r q (see the module documentation); the link
    side feels ``disturbance + gravity_torque·cos q`` (N·m), which reaches the motor as
    d / r. Exact for the linear part at every ``timestep``; the gravity torque is held over
    each step and the torque limit is applied at every sample.

    Parameters
    ----------
    actuator : JointActuator
    link_inertia : float
        J_ℓ about the joint axis, kg·m² (link and payload).
    Kp, Kd, Ki : float
        Gains at the motor: N·m/rad, N·m·s/rad, N·m/(rad·s); zero or positive, Kp > 0.
    target : float
        Commanded link angle q_d, rad (at most 10⁶ in size).
    duration, timestep : float
        Seconds simulated and between samples: 2 to :data:`MAX_JOINT_STEPS` (10⁷) samples.
    joint_position : float
        q(0), the link angle at the start, at rest (at most 10⁶ rad in size).
    link_damping : float
        B_ℓ, N·m·s/rad at the link.
    gravity_torque : float
        G in d = G cos q (m g ℓ_c of the link and payload), N·m.
    disturbance : float
        A constant link-side torque, N·m.
    anti_windup : bool
        Stop the integral while the motor torque is at its limit.

    Returns
    -------
    JointResult

    Raises
    ------
    ValueError
        Negative gains, Kp = 0, or gains for which the closed loop is unstable
        (Routh–Hurwitz: (B + K_d) K_p ≤ J K_i; :func:`~.laws.checked_gains`).

    Examples
    --------
    Critical damping, K_d = 2√(K_p J) - B: no overshoot.

    >>> motor = JointActuator(200e-6, 0.817e-3, 107.815, 1.2)
    >>> J = motor.reflected_inertia(1.2)
    >>> Kd = 2 * (0.5 * J) ** 0.5 - motor.motor_damping
    >>> run = simulate_joint(motor, link_inertia=1.2, Kp=0.5, Kd=Kd, target=0.1, duration=1.0)
    >>> round(run.damping_ratio, 6), run.metrics.overshoot
    (1.0, 0.0)
    >>> simulate_joint(motor, link_inertia=1.2, Kp=0.5, Kd=0.0, Ki=5.0, target=0.1,
    ...                duration=1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unstable gains: ... needs (B + Kd)·Kp > J·Ki (Routh–Hurwitz), got 0.000409 ≤ ...
    """
    if not isinstance(actuator, JointActuator):
        raise TypeError(f"actuator must be a JointActuator, got {type(actuator).__name__}")
    inertia = actuator.reflected_inertia(link_inertia)
    damping = actuator.reflected_damping(link_damping)
    p, i, d = checked_gains(Kp, Ki, Kd, positive=("Kp",), plant=(inertia, damping))
    if damping + d == 0:
        raise ValueError("Kd must be positive when there is no damping B: the loop would ring")
    h, steps = _sample_count(timestep, duration, MAX_JOINT_STEPS)
    q_d, q_0 = _link_angle(target, "target"), _link_angle(joint_position, "joint_position")
    grav = as_real_number(gravity_torque, "gravity_torque")
    load = as_real_number(disturbance, "disturbance")
    windup = require_bool(anti_windup, "anti_windup")
    r, limit = actuator.gear_ratio, actuator.torque_limit
    # states x = [θ_m, θ̇_m, z = ∫(θ_m^d - θ_m)]; inputs w = [θ_m^d, torque at the motor]
    # closed loop: the torque input is -d/r; open loop (saturated): it is u_max·sign - d/r
    closed = np.array(
        [
            [0.0, 1.0, 0.0, 0.0, 0.0],
            [-p / inertia, -(damping + d) / inertia, i / inertia, p / inertia, 1 / inertia],
            [-1.0, 0.0, 0.0, 1.0, 0.0],
        ]
    )
    opened = closed.copy()
    opened[1, :4] = [0.0, -damping / inertia, 0.0, 0.0]
    if windup:
        opened[2, :] = 0.0
    maps = _maps(closed, h), _maps(opened, h)
    coefficients = [tuple(f[row] + g[row]) for f, g in maps for row in range(3)]
    closed_map = coefficients[0] + coefficients[1] + coefficients[2]
    open_map = coefficients[3] + coefficients[4] + coefficients[5]
    x0, x1, x2 = r * q_0, 0.0, 0.0
    ref = r * q_d
    n = steps + 1
    q, v, u_out, sat = [0.0] * n, [0.0] * n, [0.0] * n, [False] * n
    cos = math.cos
    for k in range(n):
        u = p * (ref - x0) - d * x1 + i * x2
        w = -(load + grav * cos(x0 / r)) / r
        clipped = abs(u) > limit
        if clipped:
            u = math.copysign(limit, u)
            w += u
            a0, a1, a2, a3, a4, b0, b1, b2, b3, b4, c0, c1, c2, c3, c4 = open_map
        else:
            a0, a1, a2, a3, a4, b0, b1, b2, b3, b4, c0, c1, c2, c3, c4 = closed_map
        q[k], v[k], u_out[k], sat[k] = x0 / r, x1 / r, u, clipped
        x0, x1, x2 = (
            a0 * x0 + a1 * x1 + a2 * x2 + a3 * ref + a4 * w,
            b0 * x0 + b1 * x1 + b2 * x2 + b3 * ref + b4 * w,
            c0 * x0 + c1 * x1 + c2 * x2 + c3 * ref + c4 * w,
        )
    if not all(map(math.isfinite, (x0, x1, x2))):
        raise ValueError("the simulation left the finite numbers: check the gains and loads")
    wn = math.sqrt(p / inertia)
    return JointResult(
        times=np.arange(n) * h,
        positions=np.array(q),
        velocities=np.array(v),
        motor_torque=np.array(u_out),
        saturated=np.array(sat),
        target=q_d,
        initial=q_0,
        natural_frequency=wn,
        damping_ratio=(damping + d) / (2 * math.sqrt(p * inertia)),
        torque_limit=limit,
    )


@dataclass(frozen=True, eq=False)
class JointsResult:
    """The motion of a whole arm under independent joint control (:func:`simulate_joints`).

    Attributes
    ----------
    times : ndarray (N,)
    positions, velocities : ndarray (N, n)
        Link angles q (rad) and rates.
    motor_torque : ndarray (N, n)
        u of each motor at each sample, after the limit.
    saturated : ndarray of bool (N, n)
    target : ndarray (n,)
    """

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    motor_torque: np.ndarray
    saturated: np.ndarray
    target: np.ndarray

    def metrics(self, joint: int) -> StepMetrics:
        """:func:`step_response_metrics` of one joint (0-based)."""
        return step_response_metrics(
            self.times, self.positions[:, joint], float(self.target[joint])
        )


@renamed_keywords(kp="Kp", kd="Kd", ki="Ki", initial="joint_positions")
def simulate_joints(
    robot: ScrewRobot,
    actuators: Sequence[JointActuator],
    *,
    Kp: ArrayLike,
    Kd: ArrayLike,
    Ki: ArrayLike = 0.0,
    target: ArrayLike,
    duration: float,
    timestep: float = 0.001,
    joint_positions: ArrayLike | None = None,
    anti_windup: bool = False,
) -> JointsResult:
    """Every joint of an arm under its own PD/PID loop, the arm's full dynamics as disturbance.

    Each joint i has a :class:`JointActuator` (J_m, B_m, r, u_max) and the gains of
    :func:`simulate_joint` on its motor angle r_i q_i. The arm's equations, in link
    coordinates (SHV §6.2, with the rotor inertias as *armature*),

        (M(q) + diag(r² J_m)) q̈ + diag(r² B_m) q̇ + c(q, q̇) + g(q) = r ∘ u,

    couple the joints through M, c and g: what the independent loops treat as disturbance.
    Classical RK4 at ``timestep``, the control law (saturated; with ``anti_windup`` the
    integral of a saturated joint stops) evaluated at every stage.

    Parameters
    ----------
    robot : ScrewRobot
        Revolute joints only (a motor angle per joint).
    actuators : sequence of JointActuator
        One per joint.
    Kp, Kd, Ki : float or array_like (n,)
        Gains at the motors (zero or positive; Kp > 0 and a stable Routh–Hurwitz condition
        for each joint's own loop with its link's M_ii at the start).
    target : array_like (n,)
        Link angles commanded from t = 0, rad.
    duration, timestep : float
        Seconds: 2 to :data:`MAX_ARM_STEPS` (10⁵) RK4 steps.
    joint_positions : array_like (n,), optional
        q(0), the link angles at the start, at rest (default zeros).
    anti_windup : bool

    Returns
    -------
    JointsResult

    Raises
    ------
    SimulationDiverged
        When a joint speed becomes non-finite or passes 10⁶ rad/s (a timestep too long for
        the gains), naming the step, the time and the joint.

    Examples
    --------
    The planar 2R arm (1 m, 1 kg links) behind 100:1 gears under PD: the shoulder stops
    short by its gravity torque over r² K_p (SHV §6.3), the gravity of both links at rest.

    >>> import numpy as np, robolab
    >>> arm = robolab.load_robot("planar2r")
    >>> motors = [JointActuator(1e-4, 1e-4, 100.0, 5.0)] * 2
    >>> run = simulate_joints(arm, motors, Kp=0.5, Kd=0.02, target=[0.3, -0.2], duration=1.0)
    >>> q1, q2 = run.positions[-1]
    >>> g1 = 9.81 * (1.5 * np.cos(q1) + 0.5 * np.cos(q1 + q2))  # m g ℓ_c of both links
    >>> round(float(0.3 - q1), 5), round(float(g1 / (100**2 * 0.5)), 5)
    (0.00379, 0.00379)
    """
    if not isinstance(robot, ScrewRobot):
        raise TypeError(f"robot must be a ScrewRobot, got {type(robot).__name__}")
    n = robot.n_joints
    if any(kind != "revolute" for kind in robot.joint_types):
        raise ValueError(f"simulate_joints needs revolute joints, got {list(robot.joint_types)}")
    if isinstance(actuators, str | bytes) or not isinstance(actuators, Sequence):
        raise TypeError(
            f"actuators must be a list of {n} JointActuator objects, one per joint, got "
            f"{type(actuators).__name__}"
        )
    motors = list(actuators)
    if len(motors) != n or not all(isinstance(m, JointActuator) for m in motors):
        raise ValueError(f"actuators must be {n} JointActuator objects, one per joint")
    goal = as_float_array(target, "target", (n,))
    q0 = (
        np.zeros(n)
        if joint_positions is None
        else as_float_array(joint_positions, "joint_positions", (n,))
    )
    for name, angles in (("target", goal), ("joint_positions", q0)):
        for j, angle in enumerate(angles):
            _link_angle(float(angle), f"{name}[{j}]")
    h, steps = _sample_count(timestep, duration, MAX_ARM_STEPS)
    windup = require_bool(anti_windup, "anti_windup")
    r = np.array([m.gear_ratio for m in motors])
    rotor = r**2 * np.array([m.motor_inertia for m in motors])
    friction = r**2 * np.array([m.motor_damping for m in motors])
    limit = np.array([m.torque_limit for m in motors])
    diagonal = np.diag(mass_matrix_crba(robot, q0))
    # each joint's own loop, at the motor: J = J_m + M_kk / r², B = B_m
    plant = (rotor + diagonal) / r**2, friction / r**2
    p, i, d = checked_gains(Kp, Ki, Kd, n, positive=("Kp",), plant=plant)
    zero = np.zeros(n)

    def control(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q, v, z = x[:n], x[n : 2 * n], x[2 * n :]
        u = p * r * (goal - q) - d * r * v + i * z
        return np.clip(u, -limit, limit), np.abs(u) > limit

    def rate(x: np.ndarray) -> np.ndarray:
        q, v = x[:n], x[n : 2 * n]
        u, saturated = control(x)
        bias = inverse_dynamics_rnea(robot, q, v, zero)
        mass = mass_matrix_crba(robot, q) + np.diag(rotor)
        accel = np.linalg.solve(mass, r * u - friction * v - bias)
        grow = r * (goal - q)
        if windup:
            grow = np.where(saturated, 0.0, grow)
        return np.concatenate([v, accel, grow])

    x = np.concatenate([q0, zero, zero])
    states, torques, flags = [x], [], []
    for step in range(1, steps + 1):
        with np.errstate(**QUIET):
            k1 = rate(x)
            k2 = rate(x + h / 2 * k1)
            k3 = rate(x + h / 2 * k2)
            k4 = rate(x + h * k3)
            x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        speed = np.abs(x[n : 2 * n])
        if not np.all(np.isfinite(x)) or speed.max() > RUNAWAY_SPEED:
            joint = int(np.argmax(~np.isfinite(speed) | (speed > RUNAWAY_SPEED))) + 1
            raise SimulationDiverged(
                f"the simulation diverged at step {step} (t = {step * h:.6g} s): joint {joint}'s "
                f"velocity became {x[n + joint - 1]:g} (non-finite or over "
                f"{RUNAWAY_SPEED:g} rad/s, a speed no arm reaches); try a smaller timestep "
                f"(now {h:g} s) or lower gains",
                step=step,
                time=step * h,
                joint=joint,
            )
        states.append(x)
    for state in states:
        u, saturated = control(state)
        torques.append(u)
        flags.append(saturated)
    array = np.array(states)
    return JointsResult(
        times=np.arange(steps + 1) * h,
        positions=array[:, :n],
        velocities=array[:, n : 2 * n],
        motor_torque=np.array(torques),
        saturated=np.array(flags),
        target=goal,
    )
