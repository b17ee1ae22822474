"""Time scalings s(t) from 0 to 1 (Modern Robotics §9.2): cubic, quintic, trapezoidal (LSPB).

A point-to-point motion is a path followed with a time scaling s(t) that goes from 0 at
t = 0 to 1 at t = T, the ``duration`` (MR §9.2.1):

* cubic, s = 3(t/T)² - 2(t/T)³ (:func:`cubic_time_scaling`): starts and stops at rest
  (ṡ = 0 at both ends);
* quintic, s = 10(t/T)³ - 15(t/T)⁴ + 6(t/T)⁵ (:func:`quintic_time_scaling`): also zero
  acceleration at both ends, so the motion starts and stops without a jump in torque;
* trapezoidal (:func:`trapezoidal_time_scaling`, :func:`trapezoidal_profile`), below, and
  the fastest one within joint limits (:func:`minimum_time_profile`).

A trapezoidal velocity profile (Modern Robotics §9.2.2, trapezoidal motion
profiles; Spong, Hutchinson & Vidyasagar ch. 5 and Siciliano et al. §4.2.1 call
it *linear segment with parabolic blends*, LSPB) accelerates at a constant ``a`` for a ramp time
``t_b = v/a``, coasts at the constant velocity ``v`` and decelerates at ``-a``
for the last ``t_b``. For a time scaling s from 0 to 1 (MR §9.2.2):

* ``s = a t²/2`` for ``0 ≤ t ≤ t_b``;
* ``s = v t - v²/(2a)`` for ``t_b < t ≤ T - t_b``;
* ``s = 1 - a (T - t)²/2`` for ``T - t_b < t ≤ T``;

and the area under the velocity is 1: ``v T - v²/a = 1`` (MR §9.2.2). Any
two of ``T``, ``v``, ``a`` fix the third (:func:`trapezoidal_profile`):

* ``v`` and ``a`` (the limits): the *minimum time* ``T = 1/v + v/a`` when
  ``v²/a ≤ 1``; otherwise the velocity limit is never reached and the fastest
  motion is the triangle (bang-bang) ``T = 2/√a`` with peak velocity ``√a``;
* ``T`` and ``v``: ``a = v²/(vT - 1)``, which needs ``1 < vT ≤ 2``;
* ``T`` and ``a``: ``v = (aT - √(a²T² - 4a))/2``, which needs ``aT² ≥ 4``.

A straight line in joint space θ(s) = θ_start + s (θ_end - θ_start) inherits
the limits of every joint: ``|θ̇_i| = |Δθ_i| ṡ``, so the time scaling may use
``v = min_i v_i/|Δθ_i|`` and ``a = min_i a_i/|Δθ_i|``
(:func:`minimum_time_profile`): the joint with the least room sets the pace,
the others follow in step.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...support.arguments import as_float_array, as_real_number
from ...support.renames import renamed_keywords

__all__ = [
    "TrapezoidalProfile",
    "cubic_time_scaling",
    "minimum_time_profile",
    "quintic_time_scaling",
    "trapezoidal_profile",
    "trapezoidal_time_scaling",
]

#: The shortest span of time robolab accepts, in seconds: a duration, a time step, the gap
#: between two via points (a nanosecond: robot motions and control periods are far longer,
#: and shorter spans only lose the motion in rounding or overflow its derivatives 1/T²).
SHORTEST_TIME = 1e-9
#: The longest duration of a motion, in seconds (about 32 years: a longer one is a typo).
LONGEST_TIME = 1e9

#: Relative slack on the conditions 1 < vT ≤ 2 and aT² ≥ 4 (rounding of numbers typed in).
_SLACK = 1e-12

#: t may exceed [0, T] by this fraction of T (rounding of t = i T / (N - 1)).
_TIME_TOLERANCE = 1e-12


def checked_duration(duration: Any, name: str = "duration") -> float:
    """T in seconds, as a float: positive, from :data:`SHORTEST_TIME` to :data:`LONGEST_TIME`.

    Examples
    --------
    >>> checked_duration(2)
    2.0
    >>> checked_duration(1e-300)
    Traceback (most recent call last):
    ...
    ValueError: duration must be at least 1e-09 s (a nanosecond: a shorter one loses the motion
    in rounding or overflows its derivatives), got 1e-300 s
    """
    value = float(as_float_array(duration, name, ()))
    return time_span(value, name)


def time_span(value: float, name: str) -> float:
    """``value`` (a finite float, seconds) if it lies in [SHORTEST_TIME, LONGEST_TIME]."""
    if value <= 0.0:
        raise ValueError(f"{name} must be positive, got {value:g}")
    if value < SHORTEST_TIME:
        raise ValueError(
            f"{name} must be at least {SHORTEST_TIME:g} s (a nanosecond: a shorter one loses "
            f"the motion in rounding or overflows its derivatives), got {value:g} s"
        )
    if value > LONGEST_TIME:
        raise ValueError(
            f"{name} must be at most {LONGEST_TIME:g} s (about 32 years), got {value:g} s"
        )
    return value


def normalised_time(duration: Any, t: Any) -> tuple[float, np.ndarray]:
    """(T, τ = t/T) for times t in [0, T] (a rounding slack of 10⁻¹² T allowed, then clipped)."""
    T = checked_duration(duration)
    times = as_float_array(t, "t")
    slack = _TIME_TOLERANCE * T
    if np.any(times < -slack) or np.any(times > T + slack):
        bad = times[(times < -slack) | (times > T + slack)].ravel()[0]
        raise ValueError(f"t must lie in [0, duration] = [0, {T:g}], got {bad:g}")
    return T, np.clip(times / T, 0.0, 1.0)


def checked_derivative(derivative: Any, words: str = "0 (s), 1 (ds/dt) or 2 (d²s/dt²)") -> int:
    """0, 1 or 2: which derivative to return (``words`` says what each one is).

    Examples
    --------
    >>> checked_derivative(1.0)
    Traceback (most recent call last):
    ...
    TypeError: derivative must be an int, 0 (s), 1 (ds/dt) or 2 (d²s/dt²), got float 1.0
    """
    if isinstance(derivative, bool) or not isinstance(derivative, numbers.Integral):
        raise TypeError(
            f"derivative must be an int, {words}, got {type(derivative).__name__} {derivative!r}"
        )
    if derivative not in (0, 1, 2):
        raise ValueError(f"derivative must be {words}, got {derivative!r}")
    return int(derivative)


def result(values: np.ndarray) -> np.ndarray | float:
    """A float for one time, else the array."""
    return float(values) if values.ndim == 0 else values


@renamed_keywords(total_time="duration")
def cubic_time_scaling(duration: float, t: ArrayLike, derivative: int = 0) -> np.ndarray | float:
    """Cubic time scaling s(t) = 3(t/T)² - 2(t/T)³ (the book's ``CubicTimeScaling``, eq. 9.11).

    Parameters
    ----------
    duration : float
        T > 0, the duration of the motion in seconds.
    t : float or array_like
        Times in [0, T].
    derivative : {0, 1, 2}
        Return s, ds/dt = 6(τ - τ²)/T or d²s/dt² = 6(1 - 2τ)/T², τ = t/T.

    Returns
    -------
    float, or ndarray of the shape of ``t``

    Examples
    --------
    >>> cubic_time_scaling(2, 0.6)
    0.216
    >>> cubic_time_scaling(2, [0.0, 1.0, 2.0], derivative=1)  # at rest at both ends
    array([0.  , 0.75, 0.  ])
    """
    T, tau = normalised_time(duration, t)
    order = checked_derivative(derivative)
    if order == 0:
        values = tau * tau * (3.0 - 2.0 * tau)
    elif order == 1:
        values = 6.0 * tau * (1.0 - tau) / T
    else:
        values = 6.0 * (1.0 - 2.0 * tau) / (T * T)
    return result(values)


@renamed_keywords(total_time="duration")
def quintic_time_scaling(duration: float, t: ArrayLike, derivative: int = 0) -> np.ndarray | float:
    """Quintic time scaling s(t) = 10τ³ - 15τ⁴ + 6τ⁵, τ = t/T (the book's ``QuinticTimeScaling``).

    Zero velocity and zero acceleration at t = 0 and t = T.

    Parameters
    ----------
    duration : float
        T > 0, the duration of the motion in seconds.
    t : float or array_like
        Times in [0, T].
    derivative : {0, 1, 2}
        Return s, ds/dt = 30τ²(1 - τ)²/T or d²s/dt² = 60τ(1 - τ)(1 - 2τ)/T².

    Returns
    -------
    float, or ndarray of the shape of ``t``

    Examples
    --------
    >>> round(quintic_time_scaling(2, 0.6), 12)
    0.16308
    >>> quintic_time_scaling(2, [0.0, 2.0], derivative=2) + 0.0  # no jump in acceleration
    array([0., 0.])
    """
    T, tau = normalised_time(duration, t)
    order = checked_derivative(derivative)
    if order == 0:
        values = tau**3 * (10.0 + tau * (-15.0 + 6.0 * tau))
    elif order == 1:
        values = 30.0 * (tau * (1.0 - tau)) ** 2 / T
    else:
        values = 60.0 * tau * (1.0 - tau) * (1.0 - 2.0 * tau) / (T * T)
    return result(values)


@dataclass(frozen=True)
class TrapezoidalProfile:
    """A trapezoidal (LSPB) time scaling s(t) from 0 to 1: made by :func:`trapezoidal_profile`.

    Attributes
    ----------
    duration : float
        T, seconds.
    velocity : float
        The coasting (peak) ṡ, 1/s; for a triangular profile the peak ``a t_b``.
    acceleration : float
        s̈ during the ramps, 1/s².

    Examples
    --------
    >>> profile = trapezoidal_profile(velocity=0.5, acceleration=0.5)
    >>> profile.duration, profile.ramp_time, profile.switching_times
    (3.0, 1.0, (1.0, 2.0))
    >>> profile([0.0, 1.5, 3.0]).round(12)
    array([0. , 0.5, 1. ])
    >>> TrapezoidalProfile(duration=2.0, velocity=1.0, acceleration=2.0)
    Traceback (most recent call last):
    ...
    ValueError: a trapezoid from s = 0 to 1 needs v T - v²/a = 1 and v/a ≤ T/2, got 1.5 and 0.5 \
for T = 2 (trapezoidal_profile computes the third value from two)
    """

    duration: float
    velocity: float
    acceleration: float

    def __post_init__(self) -> None:
        for name in ("duration", "velocity", "acceleration"):
            as_real_number(getattr(self, name), name, positive=True)
        time_span(float(self.duration), "duration")
        T, v, a = self.duration, self.velocity, self.acceleration
        area = v * T - v * v / a
        if abs(area - 1.0) > 1e-8 or v / a > 0.5 * T * (1.0 + 1e-8):
            raise ValueError(
                f"a trapezoid from s = 0 to 1 needs v T - v²/a = 1 and v/a ≤ T/2, got "
                f"{area:.6g} and {v / a:.6g} for T = {T:g} (trapezoidal_profile computes the "
                "third value from two)"
            )

    @property
    def ramp_time(self) -> float:
        """t_b = v/a: how long the acceleration (and the deceleration) lasts."""
        return self.velocity / self.acceleration

    @property
    def switching_times(self) -> tuple[float, float]:
        """(t_b, T - t_b): where the ramp up ends and the ramp down begins."""
        return self.ramp_time, self.duration - self.ramp_time

    @property
    def total_time(self) -> float:
        """The old name of :attr:`duration`: it still works, with a DeprecationWarning."""
        warnings.warn(
            "TrapezoidalProfile.total_time is now TrapezoidalProfile.duration; total_time "
            "still works for now",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.duration

    @property
    def triangular(self) -> bool:
        """True when there is no coasting phase (t_b = T/2)."""
        return bool(abs(2.0 * self.ramp_time - self.duration) <= 1e-12 * self.duration)

    def __call__(self, t: ArrayLike, derivative: int = 0) -> NDArray[np.float64] | float:
        """s(t), ṡ(t) or s̈(t) (``derivative`` 0, 1 or 2) at times in [0, T].

        Examples
        --------
        >>> profile = trapezoidal_profile(duration=3.0, velocity=0.5)
        >>> profile([0.5, 1.5, 2.5], derivative=1)
        array([0.25, 0.5 , 0.25])
        >>> profile(4.0)
        Traceback (most recent call last):
        ...
        ValueError: t must lie in [0, duration] = [0, 3], got 4
        """
        T, tau = normalised_time(self.duration, t)
        order = checked_derivative(derivative)
        v, a, tb = self.velocity, self.acceleration, self.ramp_time
        time = tau * T
        ramp_up, ramp_down = time <= tb, time > T - tb
        left = T - time
        if order == 0:
            values = np.where(
                ramp_up,
                0.5 * a * time**2,
                np.where(ramp_down, 1.0 - 0.5 * a * left**2, v * time - 0.5 * v * v / a),
            )
        elif order == 1:
            values = np.where(ramp_up, a * time, np.where(ramp_down, a * left, v))
        else:
            values = np.where(ramp_up, a, np.where(ramp_down, -a, 0.0))
        return result(np.asarray(values, dtype=float))


#: TrapezoidalProfile(total_time=...) still works, with a DeprecationWarning.
TrapezoidalProfile.__init__ = renamed_keywords(total_time="duration")(  # type: ignore[method-assign]
    TrapezoidalProfile.__init__
)


def _optional_positive(value: object, name: str) -> float | None:
    return None if value is None else as_real_number(value, name, positive=True)


@renamed_keywords(total_time="duration")
def trapezoidal_profile(
    *,
    duration: float | None = None,
    velocity: float | None = None,
    acceleration: float | None = None,
) -> TrapezoidalProfile:
    """The trapezoidal time scaling from two of T, v and a (MR §9.2.2).

    Parameters
    ----------
    duration : float, optional
        T > 0, seconds.
    velocity : float, optional
        The coasting velocity ṡ = v > 0 (1/s); with ``acceleration`` the limit
        of ṡ.
    acceleration : float, optional
        The ramp acceleration a > 0 (1/s²); with ``velocity`` the limit of |s̈|.

    Give exactly two. ``velocity`` and ``acceleration`` give the minimum time
    those limits allow: the trapezoid when ``v²/a ≤ 1``, else the triangle
    ``T = 2/√a`` that never reaches ``v``.

    Returns
    -------
    TrapezoidalProfile

    Raises
    ------
    ValueError
        Not exactly two values; a value that is not positive; limits that
        cannot be met (``vT ≤ 1``: too slow to get there in time; ``vT > 2``:
        no trapezoid coasts that fast; ``aT² < 4``: too weak to get there).

    Examples
    --------
    >>> trapezoidal_profile(duration=2.0, velocity=0.75)
    TrapezoidalProfile(duration=2.0, velocity=0.75, acceleration=1.125)
    >>> trapezoidal_profile(velocity=2.0, acceleration=1.0)  # v never reached: a triangle
    TrapezoidalProfile(duration=2.0, velocity=1.0, acceleration=1.0)
    >>> trapezoidal_profile(duration=2.0, velocity=0.4)
    Traceback (most recent call last):
    ...
    ValueError: velocity × duration = 0.8 must exceed 1: s cannot reach 1 in 2 s at ṡ ≤ 0.4 \
(the slowest trapezoid has v = 1/T = 0.5)
    """
    T = _optional_positive(duration, "duration")
    if T is not None:
        time_span(T, "duration")
    v = _optional_positive(velocity, "velocity")
    a = _optional_positive(acceleration, "acceleration")
    given = [name for name, x in (("duration", T), ("velocity", v), ("acceleration", a)) if x]
    if len(given) != 2:
        raise ValueError(
            "give exactly two of duration, velocity and acceleration (the third follows from "
            f"v T - v²/a = 1), got {', '.join(given) if given else 'none'}"
        )
    if T is None:
        assert v is not None and a is not None
        what = f"the duration of the profile (from velocity = {v:g}, acceleration = {a:g})"
        if v * v / a > 1.0:
            peak = math.sqrt(a)
            return TrapezoidalProfile(time_span(2.0 / peak, what), peak, a)
        return TrapezoidalProfile(time_span(1.0 / v + v / a, what), v, a)
    if a is None:
        assert v is not None
        product = v * T
        if product <= 1.0 + _SLACK:
            raise ValueError(
                f"velocity × duration = {product:.6g} must exceed 1: s cannot reach 1 in "
                f"{T:g} s at ṡ ≤ {v:g} (the slowest trapezoid has v = 1/T = {1.0 / T:.6g})"
            )
        if product > 2.0 * (1.0 + _SLACK):
            raise ValueError(
                f"velocity × duration = {product:.6g} must be at most 2: a trapezoid reaching "
                f"1 in {T:g} s coasts at most at v = 2/T = {2.0 / T:.6g} (the triangle)"
            )
        if product > 2.0:
            return TrapezoidalProfile(T, 2.0 / T, 4.0 / (T * T))
        return TrapezoidalProfile(T, v, v * v / (product - 1.0))
    assert v is None
    discriminant = a * a * T * T - 4.0 * a
    if discriminant < -_SLACK * a * a * T * T:
        raise ValueError(
            f"acceleration × duration² = {a * T * T:.6g} must be at least 4: at |s̈| ≤ {a:g} "
            f"s reaches 1 in {2.0 / math.sqrt(a):.6g} s at the earliest, not {T:g} s"
        )
    # the smaller root of v² - aT v + a = 0, written without the cancellation of aT - √(...)
    if math.isfinite(discriminant):
        return TrapezoidalProfile(T, 2.0 * a / (a * T + math.sqrt(max(discriminant, 0.0))), a)
    # a T² beyond the floats: the same root divided by a, 2 / (T + √(T² - 4/a))
    return TrapezoidalProfile(T, 2.0 / (T + math.sqrt(max(T * T - 4.0 / a, 0.0))), a)


@renamed_keywords(total_time="duration")
def trapezoidal_time_scaling(
    duration: float | None,
    t: ArrayLike,
    derivative: int = 0,
    *,
    velocity: float | None = None,
    acceleration: float | None = None,
) -> NDArray[np.float64] | float:
    """Trapezoidal (LSPB) time scaling s(t), like :func:`robolab.cubic_time_scaling`.

    Parameters
    ----------
    duration : float or None
        T in seconds; None with ``velocity`` and ``acceleration`` for the
        minimum time those limits allow.
    t : float or array_like
        Times in [0, T].
    derivative : {0, 1, 2}
        Return s, ṡ or s̈.
    velocity, acceleration : float, optional
        The coasting velocity and the ramp acceleration; two of
        ``duration``, ``velocity``, ``acceleration`` (see
        :func:`trapezoidal_profile`).

    Returns
    -------
    float, or ndarray of the shape of ``t``

    Examples
    --------
    >>> trapezoidal_time_scaling(2.0, [0.0, 0.5, 1.0, 2.0], velocity=0.75)
    array([0.      , 0.140625, 0.5     , 1.      ])
    >>> trapezoidal_time_scaling(None, 1.0, 1, velocity=0.5, acceleration=0.5)  # T = 3 s
    0.5
    """
    profile = trapezoidal_profile(duration=duration, velocity=velocity, acceleration=acceleration)
    return profile(t, derivative)


def _limits(value: ArrayLike, name: str, n: int) -> NDArray[np.float64]:
    limits = as_float_array(value, name)
    if limits.ndim == 0:
        limits = np.full(n, float(limits))
    if limits.shape != (n,):
        raise ValueError(
            f"{name} must be a number or have shape ({n},) (one per joint), got {limits.shape}"
        )
    if np.any(limits <= 0.0):
        index = int(np.argmax(limits <= 0.0))
        raise ValueError(f"{name} must be positive, got {limits[index]:g} for joint {index + 1}")
    return limits


def minimum_time_profile(
    joint_position_start: ArrayLike,
    joint_position_end: ArrayLike,
    max_velocity: ArrayLike,
    max_acceleration: ArrayLike,
) -> TrapezoidalProfile:
    """The fastest trapezoidal time scaling of a straight joint-space line within joint limits.

    θ(t) = θ_start + s(t) Δθ moves joint i at ``Δθ_i ṡ``: the limits of s
    are ``v = min_i v_i/|Δθ_i|`` and ``a = min_i a_i/|Δθ_i|`` over the joints
    that move, and the profile is :func:`trapezoidal_profile` of those
    limits (every joint starts and ends its ramps at the same times).

    Parameters
    ----------
    joint_position_start, joint_position_end : array_like, shape (n,)
    max_velocity, max_acceleration : float or array_like, shape (n,)
        Positive limits of |θ̇_i| (rad/s or m/s) and |θ̈_i| (rad/s², m/s²).

    Returns
    -------
    TrapezoidalProfile
        Of s; the joint velocities are ``Δθ ṡ``.

    Examples
    --------
    One joint, 90° at ≤ 1 rad/s and ≤ 2 rad/s² (Spong's LSPB): the ramps last
    0.5 s, and the motion ``Δθ/v + v/a`` = 2.071 s.

    >>> profile = minimum_time_profile([0.0], [np.pi / 2], 1.0, 2.0)
    >>> round(profile.duration, 4), profile.switching_times[0]
    (2.0708, 0.5)
    >>> minimum_time_profile([0.0, 1.0], [0.0, 1.0], 1.0, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: joint_position_end equals joint_position_start: no joint moves
    """
    start = as_float_array(joint_position_start, "joint_position_start", (None,))
    end = as_float_array(joint_position_end, "joint_position_end", start.shape)
    n = start.size
    speed = _limits(max_velocity, "max_velocity", n)
    accel = _limits(max_acceleration, "max_acceleration", n)
    with np.errstate(over="ignore"):
        distance = np.abs(end - start)
    if not np.isfinite(distance).all():
        raise ValueError(
            "joint_position_end - joint_position_start overflows (more than 1.8e308); "
            "expected joint positions whose difference is a float"
        )
    moving = distance > 0.0
    if not np.any(moving):
        raise ValueError("joint_position_end equals joint_position_start: no joint moves")
    with np.errstate(over="ignore"):
        velocity = float(np.min(speed[moving] / distance[moving]))
        acceleration = float(np.min(accel[moving] / distance[moving]))
    try:
        return trapezoidal_profile(velocity=velocity, acceleration=acceleration)
    except ValueError as error:
        raise ValueError(
            f"the fastest motion from joint_position_start to joint_position_end within "
            f"max_velocity and max_acceleration: {error}"
        ) from None
