"""Trajectories through via points: cubic segments with continuous velocity or acceleration.

Modern Robotics §9.3: the joint values β_1 … β_k are reached at the times
T_1 < … < T_k, with velocities β̇_j there. Between two via points the motion
is the cubic (MR §9.3; ΔT_j = T_{j+1} - T_j, Δt = t - T_j)::

    β(T_j + Δt) = a_j0 + a_j1 Δt + a_j2 Δt² + a_j3 Δt³
    a_j0 = β_j,  a_j1 = β̇_j,
    a_j2 = (3β_{j+1} - 3β_j - 2β̇_j ΔT_j - β̇_{j+1} ΔT_j) / ΔT_j²,
    a_j3 = (2β_j + (β̇_j + β̇_{j+1}) ΔT_j - 2β_{j+1}) / ΔT_j³,

so position and velocity are continuous at every via point whatever the
velocities chosen (``continuity="velocity"``). Unless given, the via
velocities follow the usual rule (Craig, *Introduction to Robotics*
ch. 7; Spong ch. 5): at rest at the two ends; inside, the mean of the slopes of the
two neighbouring segments when they have the same sign, zero when the motion
turns back.

``continuity="acceleration"`` chooses the interior velocities instead so
that the acceleration is continuous too: the cubic spline that starts and
ends at rest (a tridiagonal system, Siciliano §4.2.2):
``β̇_{j-1}/ΔT_{j-1} + 2β̇_j (1/ΔT_{j-1} + 1/ΔT_j) + β̇_{j+1}/ΔT_j =
3((β_j - β_{j-1})/ΔT_{j-1}² + (β_{j+1} - β_j)/ΔT_j²)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...support.arguments import as_float_array, require_choice
from .time_scaling import (
    LONGEST_TIME,
    SHORTEST_TIME,
    checked_derivative,
    cubic_time_scaling,
    quintic_time_scaling,
    trapezoidal_profile,
)

__all__ = [
    "CONTINUITY_CHOICES",
    "REST_TO_REST_METHODS",
    "RestToRestTrajectory",
    "ViaPointTrajectory",
    "rest_to_rest_trajectory",
    "via_point_trajectory",
]

#: What stays continuous at the via points: position and velocity, or also acceleration.
CONTINUITY_CHOICES = ("velocity", "acceleration")
#: The time scalings of :func:`rest_to_rest_trajectory`, stopping at every via point.
REST_TO_REST_METHODS = ("cubic", "quintic", "trapezoidal")
#: Peak ṡ·T and |s̈|·T² of the cubic (1.5, 6) and quintic (15/8, 10/√3) scalings (MR §9.2.2).
_SCALING_PEAKS = {"cubic": (1.5, 6.0), "quintic": (15.0 / 8.0, 10.0 / np.sqrt(3.0))}
#: The trapezoid of each rest-to-rest segment coasts at ṡ = 1.5/ΔT (ramps of ΔT/3, Spong ch. 5).
TRAPEZOID_VELOCITY = 1.5
#: t may exceed [T_1, T_k] by this fraction of T_k - T_1 (rounding of sample times).
_TIME_TOLERANCE = 1e-12
#: Two via times must differ by this fraction of the largest |T_j| at least: closer, their
#: difference is mostly the rounding of the times (fewer than four digits of it are left).
TIME_RESOLUTION = 1e-12


def heuristic_velocities(
    points: NDArray[np.float64], times: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Via velocities by Craig's rule: rest at the ends, the mean slope where it keeps its sign.

    Examples
    --------
    >>> heuristic_velocities(np.array([[0.0], [1.0], [3.0], [2.0]]), np.arange(4.0))[:, 0]
    array([0. , 1.5, 0. , 0. ])
    """
    slopes = np.diff(points, axis=0) / np.diff(times)[:, None]
    velocities = np.zeros_like(points)
    before, after = slopes[:-1], slopes[1:]
    same_sign = np.sign(before) * np.sign(after) > 0
    velocities[1:-1] = np.where(same_sign, 0.5 * (before + after), 0.0)
    return velocities


def spline_velocities(
    points: NDArray[np.float64], times: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Interior via velocities of the cubic spline that starts and ends at rest (C² at the vias).

    Examples
    --------
    Equal steps of 1 reached at equal times: the middle point moves at 1.5, the
    mean slope corrected for the stops at the ends.

    >>> spline_velocities(np.array([[0.0], [1.0], [2.0]]), np.arange(3.0))[:, 0]
    array([0. , 1.5, 0. ])
    """
    k = points.shape[0]
    velocities = np.zeros_like(points)
    if k < 3:
        return velocities
    h = np.diff(times)
    inner = k - 2
    system = np.zeros((inner, inner))
    rhs = np.zeros((inner, points.shape[1]))
    for row in range(inner):
        j = row + 1  # the via point
        system[row, row] = 2.0 * (1.0 / h[j - 1] + 1.0 / h[j])
        if row > 0:
            system[row, row - 1] = 1.0 / h[j - 1]
        if row < inner - 1:
            system[row, row + 1] = 1.0 / h[j]
        rhs[row] = 3.0 * (
            (points[j] - points[j - 1]) / h[j - 1] ** 2 + (points[j + 1] - points[j]) / h[j] ** 2
        )
    velocities[1:-1] = np.linalg.solve(system, rhs)
    return velocities


class ViaPointTrajectory:
    """Cubic segments through via points (made by :func:`via_point_trajectory`).

    Attributes
    ----------
    times : ndarray, shape (k,)
        T_1 < … < T_k, seconds.
    points : ndarray, shape (k, n)
        β_j, one row per via point (n = 1 for a single joint).
    velocities : ndarray, shape (k, n)
        β̇_j at the via points.
    coefficients : ndarray, shape (k - 1, 4, n)
        a_j0 … a_j3 of segment j in its own time Δt = t - T_j (MR §9.3).
    continuity : str
        ``"velocity"`` or ``"acceleration"``.
    scalar : bool
        The points were given as a 1-D array (one joint): evaluation returns
        arrays of the shape of ``t``.
    """

    def __init__(
        self,
        times: NDArray[np.float64],
        points: NDArray[np.float64],
        velocities: NDArray[np.float64],
        continuity: str,
        scalar: bool,
    ) -> None:
        self.times, self.points, self.velocities = times, points, velocities
        self.continuity, self.scalar = continuity, scalar
        h = np.diff(times)[:, None]
        b0, b1, v0, v1 = points[:-1], points[1:], velocities[:-1], velocities[1:]
        with np.errstate(over="ignore", invalid="ignore"):
            a2 = (3.0 * b1 - 3.0 * b0 - 2.0 * v0 * h - v1 * h) / h**2
            a3 = (2.0 * b0 + (v0 + v1) * h - 2.0 * b1) / h**3
        self.coefficients = np.stack([b0, v0, a2, a3], axis=1)
        if not np.isfinite(self.coefficients).all():
            j = int(np.flatnonzero(~np.isfinite(self.coefficients).reshape(len(h), -1).all(1))[0])
            raise ValueError(
                f"the cubic from via point {j} to {j + 1} leaves the floats (its coefficients "
                f"overflow): the points or velocities are too large for the {float(h[j, 0]):g} s "
                f"between times[{j}] = {times[j]:g} and times[{j + 1}] = {times[j + 1]:g}; "
                "expected via points whose change over each segment is a float"
            )

    @property
    def duration(self) -> float:
        """T_k - T_1, seconds."""
        return float(self.times[-1] - self.times[0])

    def __call__(self, t: ArrayLike, derivative: int = 0) -> NDArray[np.float64]:
        """β(t), β̇(t) or β̈(t) (``derivative`` 0, 1 or 2) at times in [T_1, T_k].

        Returns
        -------
        ndarray, shape ``t.shape + (n,)`` (``t.shape`` for one joint given as 1-D points)

        Examples
        --------
        >>> path = via_point_trajectory([0.0, 1.0, 0.0], [0.0, 1.0, 2.0])
        >>> path([0.5, 1.0, 1.5])
        array([0.5, 1. , 0.5])
        >>> path(2.5)
        Traceback (most recent call last):
        ...
        ValueError: t must lie in [times[0], times[-1]] = [0, 2], got 2.5
        """
        clipped = _check_evaluation(t, derivative, self.times)
        segment = _segment_of(self.times, clipped)
        dt = (clipped - self.times[segment])[..., None]
        a0, a1, a2, a3 = np.moveaxis(self.coefficients[segment], -2, 0)
        if derivative == 0:
            values = a0 + dt * (a1 + dt * (a2 + dt * a3))
        elif derivative == 1:
            values = a1 + dt * (2.0 * a2 + 3.0 * dt * a3)
        else:
            values = 2.0 * a2 + 6.0 * dt * a3
        return values[..., 0] if self.scalar else values

    def peaks(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The largest |β̇| and |β̈| of each joint over the whole motion (exact, not sampled).

        On a cubic the velocity is a parabola (its extreme at an end or at
        its vertex) and the acceleration a line (its extreme at an end).

        Examples
        --------
        >>> speed, accel = via_point_trajectory([0.0, 1.0], [0.0, 2.0]).peaks()
        >>> speed, accel  # a rest-to-rest cubic: 1.5 Δ/T and 6 Δ/T²
        (array([0.75]), array([1.5]))
        """
        a1, a2, a3 = (self.coefficients[:, i] for i in (1, 2, 3))
        h = np.diff(self.times)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            vertex = np.where(a3 != 0.0, -a2 / (3.0 * np.where(a3 != 0.0, a3, 1.0)), 0.0)
        vertex = np.clip(vertex, 0.0, h)
        candidates = [np.zeros_like(a1), np.broadcast_to(h, a1.shape), vertex]
        speed = np.max([np.abs(a1 + dt * (2.0 * a2 + 3.0 * dt * a3)) for dt in candidates], axis=0)
        accel = np.max([np.abs(2.0 * a2 + 6.0 * dt * a3) for dt in candidates[:2]], axis=0)
        return speed.max(axis=0), accel.max(axis=0)

    def __repr__(self) -> str:
        n = self.points.shape[1]
        return (
            f"<ViaPointTrajectory: {self.times.size} via points of {n} joint"
            f"{'s' if n != 1 else ''} over {self.duration:g} s, continuous {self.continuity}>"
        )


def _check_evaluation(
    t: ArrayLike, derivative: object, times: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The checked times, clipped into [times[0], times[-1]] (after the rounding slack)."""
    checked_derivative(derivative, "0, 1 (velocity) or 2 (acceleration)")
    values = as_float_array(t, "t")
    first, last = float(times[0]), float(times[-1])
    slack = _TIME_TOLERANCE * (last - first)
    outside = (values < first - slack) | (values > last + slack)
    if np.any(outside):
        raise ValueError(
            f"t must lie in [times[0], times[-1]] = [{first:g}, {last:g}], "
            f"got {values[outside].ravel()[0]:g}"
        )
    return np.clip(values, first, last)


def _segment_of(times: NDArray[np.float64], t: NDArray[np.float64]) -> NDArray[np.intp]:
    """The segment j with times[j] ≤ t < times[j + 1] (the last one for t = times[-1])."""
    return np.clip(np.searchsorted(times, t, side="right") - 1, 0, times.size - 2)


def _check_points(points: ArrayLike) -> tuple[NDArray[np.float64], bool]:
    """Points as a (k, n) array and whether they came as 1-D (one joint)."""
    values = as_float_array(points, "points")
    scalar = values.ndim == 1
    if scalar:
        values = values[:, None]
    if values.ndim != 2:
        raise ValueError(
            f"points must have shape (k,) or (k, n): one row per via point, got {values.shape}"
        )
    if values.shape[0] < 2:
        raise ValueError(
            f"points must hold at least two via points (start and end), got {values.shape[0]}"
        )
    if values.shape[1] < 1:
        raise ValueError(f"points must hold at least one coordinate each, got shape {values.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        steps = np.diff(values, axis=0)
    if not np.isfinite(steps).all():
        j = int(np.flatnonzero(~np.isfinite(steps).all(axis=1))[0])
        raise ValueError(
            f"points[{j}] and points[{j + 1}] differ by more than the largest float (1.8e308); "
            "expected via points whose differences are finite"
        )
    return values, scalar


def _check_times(times: Any, k: int) -> NDArray[np.float64]:
    values = as_float_array(times, "times", (None,))
    if values.size != k:
        raise ValueError(f"times must hold one time per via point ({k}), got {values.size}")
    steps = np.diff(values)
    if np.any(steps <= 0.0):
        j = int(np.argmax(steps <= 0.0))
        raise ValueError(
            f"times must increase strictly: times[{j}] = {values[j]:g} is not before "
            f"times[{j + 1}] = {values[j + 1]:g}"
        )
    shortest = max(SHORTEST_TIME, TIME_RESOLUTION * float(np.abs(values).max()))
    if np.any(steps < shortest):
        j = int(np.argmax(steps < shortest))
        hint = (
            "(a nanosecond at least: a shorter gap loses the motion in rounding or overflows "
            "its derivatives)"
            if shortest == SHORTEST_TIME
            else "(10⁻¹² of the largest |time|: count the times from the first via point)"
        )
        raise ValueError(
            f"times[{j}] = {values[j]:.17g} and times[{j + 1}] = {values[j + 1]:.17g} are "
            f"{steps[j]:.3g} s apart: via times must be at least {shortest:.3g} s apart {hint}"
        )
    span = float(values[-1] - values[0])
    if span > LONGEST_TIME:
        raise ValueError(
            f"times must span at most {LONGEST_TIME:g} s (about 32 years), got {span:g} s "
            f"from times[0] = {values[0]:g} to times[{k - 1}] = {values[-1]:g}"
        )
    return values


def via_point_trajectory(
    points: ArrayLike,
    times: ArrayLike,
    velocities: ArrayLike | None = None,
    *,
    continuity: str = "velocity",
) -> ViaPointTrajectory:
    """Cubic segments through via points at given times (Modern Robotics §9.3).

    Parameters
    ----------
    points : array_like, shape (k,) or (k, n)
        The via points β_1 … β_k (k ≥ 2), one row per point: joint values,
        or any coordinates (a Cartesian position, say).
    times : array_like, shape (k,)
        When each is reached, strictly increasing, seconds.
    velocities : array_like, shape (k,) or (k, n), optional
        β̇ at the via points (``continuity="velocity"`` only); default rest at
        the two ends and Craig's rule inside (see the module documentation).
    continuity : {"velocity", "acceleration"}
        Continuous position and velocity (any via velocities), or also
        acceleration: the cubic spline from rest to rest.

    Returns
    -------
    ViaPointTrajectory
        Call it with times to get positions (``derivative=1``: velocities,
        ``2``: accelerations); ``peaks()`` gives the largest speeds.

    Raises
    ------
    ValueError
        Fewer than two points, times not strictly increasing or not one per
        point, velocities of the wrong shape, or velocities given with
        ``continuity="acceleration"`` (that choice sets them).

    Examples
    --------
    Three via points of one joint, 1 s apart:

    >>> path = via_point_trajectory([0.0, 1.0, 3.0], [0.0, 1.0, 2.0])
    >>> path.velocities[:, 0]  # rest, the mean slope (1 + 2)/2, rest
    array([0. , 1.5, 0. ])
    >>> path([1.0, 1.0 - 1e-9, 1.0 + 1e-9], derivative=1).round(6)  # continuous at the via
    array([1.5, 1.5, 1.5])
    >>> spline = via_point_trajectory([0.0, 1.0, 3.0], [0.0, 1.0, 2.0], continuity="acceleration")
    >>> spline([1.0 - 1e-9, 1.0 + 1e-9], derivative=2).round(6)  # and so is the acceleration
    array([3., 3.])
    >>> via_point_trajectory([0.0, 1.0, 3.0], [0.0, 2.0, 1.0])
    Traceback (most recent call last):
    ...
    ValueError: times must increase strictly: times[1] = 2 is not before times[2] = 1
    """
    require_choice(continuity, "continuity", CONTINUITY_CHOICES)
    values, scalar = _check_points(points)
    k, n = values.shape
    when = _check_times(times, k)
    if velocities is None:
        with np.errstate(over="ignore", invalid="ignore"):  # the cubics are checked below
            chosen = (
                heuristic_velocities(values, when)
                if continuity == "velocity"
                else spline_velocities(values, when)
            )
    else:
        if continuity == "acceleration":
            raise ValueError(
                "velocities cannot be given with continuity='acceleration': the spline chooses "
                "them (give continuity='velocity' to set your own)"
            )
        chosen = as_float_array(velocities, "velocities")
        chosen = chosen[:, None] if chosen.ndim == 1 and scalar else chosen
        if chosen.shape != (k, n):
            raise ValueError(
                f"velocities must have the shape of points {np.shape(points)}, got "
                f"{np.shape(velocities)}"
            )
    return ViaPointTrajectory(when, values, np.array(chosen, dtype=float), continuity, scalar)


class RestToRestTrajectory:
    """Straight joint-space lines between via points, at rest at each.

    Made by :func:`rest_to_rest_trajectory`. Segment j is
    θ_j + s((t - T_j)/ΔT_j) (θ_{j+1} - θ_j) with the same time scaling s in
    each segment. Attributes ``times``, ``points``, ``scalar`` as in
    :class:`ViaPointTrajectory`, and ``method``.
    """

    def __init__(
        self, times: NDArray[np.float64], points: NDArray[np.float64], method: str, scalar: bool
    ) -> None:
        self.times, self.points, self.method, self.scalar = times, points, method, scalar

    @property
    def duration(self) -> float:
        """T_k - T_1, seconds."""
        return float(self.times[-1] - self.times[0])

    def _scaling(self, duration: float, t: NDArray[np.float64], order: int) -> NDArray[np.float64]:
        if self.method == "trapezoidal":
            velocity = TRAPEZOID_VELOCITY / duration
            profile = trapezoidal_profile(duration=duration, velocity=velocity)
            return np.asarray(profile(t, order))
        scaling = cubic_time_scaling if self.method == "cubic" else quintic_time_scaling
        return np.asarray(scaling(duration, t, order))

    def __call__(self, t: ArrayLike, derivative: int = 0) -> NDArray[np.float64]:
        """θ(t), θ̇(t) or θ̈(t) (``derivative`` 0, 1 or 2) at times in [T_1, T_k].

        Examples
        --------
        >>> path = rest_to_rest_trajectory([0.0, 1.0, 0.0], [0.0, 1.0, 2.0], "cubic")
        >>> path([0.5, 1.0, 1.5], derivative=1)  # 1.5 Δ/ΔT mid-segment, at rest at the via
        array([ 1.5,  0. , -1.5])
        """
        clipped = _check_evaluation(t, derivative, self.times)
        segment = _segment_of(self.times, clipped)
        values = np.zeros((*clipped.shape, self.points.shape[1]))
        for j in range(self.times.size - 1):
            inside = segment == j
            if not np.any(inside):
                continue
            step = float(self.times[j + 1] - self.times[j])
            local = np.clip(clipped[inside] - self.times[j], 0.0, step)
            s = self._scaling(step, local, int(derivative))[..., None]
            base = self.points[j] if derivative == 0 else 0.0
            values[inside] = base + s * (self.points[j + 1] - self.points[j])
        return values[..., 0] if self.scalar else values

    def peaks(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The largest |θ̇| and |θ̈| of each joint (exact: the scaling's peaks times |Δθ|).

        Examples
        --------
        >>> speed, accel = rest_to_rest_trajectory([0.0, 2.0], [0.0, 2.0], "quintic").peaks()
        >>> speed, accel.round(6)  # 15/8 Δ/T and 10/√3 Δ/T²
        (array([1.875]), array([2.886751]))
        """
        steps = np.diff(self.times)[:, None]
        distance = np.abs(np.diff(self.points, axis=0))
        if self.method == "trapezoidal":
            speed_factor = TRAPEZOID_VELOCITY
            accel_factor = TRAPEZOID_VELOCITY**2 / (TRAPEZOID_VELOCITY - 1.0)
        else:
            speed_factor, accel_factor = _SCALING_PEAKS[self.method]
        speed = speed_factor * distance / steps
        accel = accel_factor * distance / steps**2
        return speed.max(axis=0), accel.max(axis=0)

    def __repr__(self) -> str:
        return (
            f"<RestToRestTrajectory: {self.times.size} via points, {self.method} scaling, "
            f"{self.duration:g} s>"
        )


def rest_to_rest_trajectory(
    points: ArrayLike, times: ArrayLike, method: str = "cubic"
) -> RestToRestTrajectory:
    """Straight joint-space lines from via point to via point, stopping at each (MR §9.2).

    The simplest way through via points: a point-to-point motion per segment
    (as :func:`robolab.joint_trajectory`), each starting and ending at rest.
    Compare :func:`via_point_trajectory`, which passes through without
    stopping.

    Parameters
    ----------
    points : array_like, shape (k,) or (k, n)
    times : array_like, shape (k,)
        Strictly increasing, seconds.
    method : {"cubic", "quintic", "trapezoidal"}
        The time scaling of every segment; the trapezoid coasts at
        ``ṡ = 1.5/ΔT`` (ramps of a third of the segment, Spong ch. 5).

    Returns
    -------
    RestToRestTrajectory

    Examples
    --------
    >>> path = rest_to_rest_trajectory([[0.0, 0.0], [1.0, 2.0]], [0.0, 2.0], "trapezoidal")
    >>> path(1.0, derivative=1)  # coasting: 1.5 Δθ/T
    array([0.75, 1.5 ])
    >>> rest_to_rest_trajectory([0.0, 1.0], [0.0, 1.0], "linear")
    Traceback (most recent call last):
    ...
    ValueError: method must be one of ['cubic', 'quintic', 'trapezoidal'], got 'linear'
    """
    require_choice(method, "method", REST_TO_REST_METHODS)
    values, scalar = _check_points(points)
    return RestToRestTrajectory(_check_times(times, values.shape[0]), values, method, scalar)
