"""Trajectories through via points: MR §9.3 cubic segments, continuity, and the spline.

References: SciPy's ``CubicHermiteSpline`` (the same cubic segments from positions and
velocities, built independently) and ``CubicSpline(bc_type="clamped")`` (the C² spline
at rest at both ends); Craig's rule for the via velocities written out by hand; the
rest-to-rest cubic of ``modern_robotics`` (``mr.JointTrajectory`` with method 3) for two
points; one-sided limits at every via point for the continuity.
"""

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.interpolate import CubicHermiteSpline, CubicSpline

import robolab as rl

EPS = 1e-7


def random_vias(seed: int, k: int = 5, n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    times = np.concatenate([[0.0], np.cumsum(rng.uniform(0.3, 2.0, k - 1))])
    return rng.uniform(-2.0, 2.0, (k, n)), times


def test_segments_are_scipys_hermite_cubics():
    points, times = random_vias(1)
    velocities = np.random.default_rng(2).uniform(-1, 1, points.shape)
    path = rl.via_point_trajectory(points, times, velocities)
    reference = CubicHermiteSpline(times, points, velocities)
    t = np.linspace(times[0], times[-1], 257)
    for order in (0, 1, 2):
        np.testing.assert_allclose(path(t, order), reference(t, order), atol=1e-9)


def test_two_points_are_mrs_rest_to_rest_cubic():
    start, end = np.array([0.1, -0.4]), np.array([1.2, 0.9])
    path = rl.via_point_trajectory([start, end], [0.0, 3.0])
    expected = mr.JointTrajectory(start, end, 3.0, 7, 3)
    np.testing.assert_allclose(path(np.linspace(0.0, 3.0, 7)), expected, atol=1e-12)


def test_craigs_rule_for_the_via_velocities():
    points = np.array([0.0, 1.0, 3.0, 2.0, 2.5])
    times = np.array([0.0, 1.0, 2.0, 4.0, 5.0])
    path = rl.via_point_trajectory(points, times)
    # slopes 1, 2, -0.5, 0.5: mean where the sign stays, 0 where it turns, rest at the ends
    np.testing.assert_allclose(path.velocities[:, 0], [0.0, 1.5, 0.0, 0.0, 0.0], atol=1e-15)
    assert path(times).shape == (5,)
    np.testing.assert_allclose(path(times), points, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 7), st.sampled_from(["velocity", "acceleration"]))
def test_continuous_position_and_velocity_at_every_via(seed, k, continuity):
    points, times = random_vias(seed, k)
    path = rl.via_point_trajectory(points, times, continuity=continuity)
    np.testing.assert_allclose(path(times), points, atol=1e-9)
    inner = times[1:-1]
    for order, tolerance in ((0, 1e-5), (1, 1e-4)):
        left, right = path(inner - EPS, order), path(inner + EPS, order)
        np.testing.assert_allclose(left, right, atol=tolerance)
    np.testing.assert_allclose(path(times[[0, -1]], 1), 0.0, atol=1e-12)  # rest at the ends
    if continuity == "acceleration":
        np.testing.assert_allclose(path(inner - EPS, 2), path(inner + EPS, 2), atol=1e-3)


def test_acceleration_continuity_is_scipys_clamped_spline():
    points, times = random_vias(3, k=6)
    path = rl.via_point_trajectory(points, times, continuity="acceleration")
    reference = CubicSpline(times, points, bc_type="clamped")
    t = np.linspace(times[0], times[-1], 301)
    for order in (0, 1, 2):
        np.testing.assert_allclose(path(t, order), reference(t, order), atol=1e-9)


def test_velocity_continuity_alone_jumps_in_acceleration():
    path = rl.via_point_trajectory([0.0, 1.0, 3.0], [0.0, 1.0, 2.0])
    # MR §9.3's a_j2, a_j3 by hand. Segment 1 (0 -> 1, velocities 0 -> 1.5): a2 = 3 - 1.5 = 1.5,
    # a3 = -2 + 1.5 = -0.5, so q̈(1⁻) = 2a2 + 6a3 = 0; segment 2 (1 -> 3, 1.5 -> 0):
    # a2 = 9 - 3 - 3 = 3, so q̈(1⁺) = 2a2 = 6
    before, after = path(1.0 - EPS, 2), path(1.0 + EPS, 2)
    assert before == pytest.approx(0.0, abs=1e-5) and after == pytest.approx(6.0, abs=1e-5)


def test_peaks_are_the_extremes_of_a_dense_sampling():
    points, times = random_vias(4, k=5, n=2)
    for continuity in ("velocity", "acceleration"):
        path = rl.via_point_trajectory(points, times, continuity=continuity)
        speed, accel = path.peaks()
        t = np.linspace(times[0], times[-1], 200_001)
        np.testing.assert_allclose(speed, np.abs(path(t, 1)).max(axis=0), atol=1e-6)
        np.testing.assert_allclose(accel, np.abs(path(t, 2)).max(axis=0), atol=1e-3)


@pytest.mark.parametrize(
    ("args", "keywords", "error", "words"),
    [
        (([0, 1, 2], [0, 1, 1]), {}, ValueError, r"times must increase strictly: times\[1\] = 1"),
        (([0, 1, 2], [0, 1]), {}, ValueError, r"times must hold one time per via point \(3\)"),
        (([0.0], [0.0]), {}, ValueError, "at least two via points"),
        (
            ([[[0.0]], [[1.0]]], [0, 1]),
            {},
            ValueError,
            r"points must have shape \(k,\) or \(k, n\)",
        ),
        (([0, 1, 2], [0, 1, 2], [0, 0]), {}, ValueError, "velocities must have the shape of"),
        (([0, 1], [0, 1], [0, 0]), {"continuity": "acceleration"}, ValueError, "cannot be given"),
        (([0, 1], [0, 1]), {"continuity": "jerk"}, ValueError, "continuity must be one of"),
        (([0, float("nan")], [0, 1]), {}, ValueError, "points"),
        (([0, 1], [0, "1"]), {}, TypeError, "times"),
    ],
)
def test_bad_input(args, keywords, error, words):
    with pytest.raises(error, match=words):
        rl.via_point_trajectory(*args, **keywords)


def test_bad_evaluation():
    path = rl.via_point_trajectory([[0.0, 1.0], [1.0, 0.0]], [1.0, 2.0])
    assert path([1.0, 1.5]).shape == (2, 2)
    with pytest.raises(ValueError, match=r"t must lie in \[times\[0\], times\[-1\]\] = \[1, 2\]"):
        path(0.5)
    with pytest.raises(ValueError, match="derivative must be 0, 1"):
        path(1.5, derivative=3)


# --- stopping at every via point ----------------------------------------------------------------


@pytest.mark.parametrize(("method", "order"), [("cubic", 3), ("quintic", 5)])
def test_rest_to_rest_segments_are_mrs_joint_trajectories(method, order):
    points, times = random_vias(5, k=4)
    path = rl.rest_to_rest_trajectory(points, times, method)
    for j in range(3):
        t = np.linspace(times[j], times[j + 1], 9)
        expected = mr.JointTrajectory(points[j], points[j + 1], times[j + 1] - times[j], 9, order)
        np.testing.assert_allclose(path(t), expected, atol=1e-12)
    np.testing.assert_allclose(path(times, 1), 0.0, atol=1e-12)  # at rest at every via point


def test_rest_to_rest_trapezoid_is_spongs_lspb_with_ramps_of_a_third():
    # Spong ch. 5 (LSPB) with V = 1.5 (qf - q0)/tf: t_b = tf/3, acceleration 4.5 (qf - q0)/tf²
    path = rl.rest_to_rest_trajectory([0.2, 1.4], [0.0, 3.0], "trapezoidal")
    q0, qf, tf = 0.2, 1.4, 3.0
    V, tb = 1.5 * (qf - q0) / tf, tf / 3
    t = np.linspace(0.0, tf, 61)
    alpha = V / tb
    expected = np.where(
        t <= tb,
        q0 + alpha / 2 * t**2,
        np.where(t <= tf - tb, (qf + q0 - V * tf) / 2 + V * t, qf - alpha / 2 * (tf - t) ** 2),
    )
    np.testing.assert_allclose(path(t), expected, atol=1e-12)


@pytest.mark.parametrize("method", ["cubic", "quintic", "trapezoidal"])
def test_rest_to_rest_peaks_are_the_extremes_of_a_dense_sampling(method):
    points, times = random_vias(6, k=4, n=2)
    path = rl.rest_to_rest_trajectory(points, times, method)
    speed, accel = path.peaks()
    t = np.linspace(times[0], times[-1], 200_001)
    np.testing.assert_allclose(speed, np.abs(path(t, 1)).max(axis=0), atol=1e-6)
    np.testing.assert_allclose(accel, np.abs(path(t, 2)).max(axis=0), atol=1e-3)


def test_rest_to_rest_bad_input():
    with pytest.raises(ValueError, match="method must be one of"):
        rl.rest_to_rest_trajectory([0, 1], [0, 1], "linear")
    with pytest.raises(ValueError, match="times must increase strictly"):
        rl.rest_to_rest_trajectory([0, 1], [1, 1])
    with pytest.raises(ValueError, match=r"t must lie in"):
        rl.rest_to_rest_trajectory([0, 1], [0, 1])(1.5)


# --------------------------------------------------------- issue 29: times too close, overflow


@pytest.mark.parametrize(
    ("points", "times", "words"),
    [
        # issue 29, item 8: via points 1e-300 s apart returned NaN
        (
            [0, 1, 2],
            [0, 1e-300, 2e-300],
            r"times\[0\] = 0 and times\[1\] = 1e-300 are 1e-300 s "
            r"apart: via times must be at least 1e-09 s apart \(a nanosecond",
        ),
        (
            [0, 1],
            [1e9, 1e9 + 1e-7],
            r"are 1.19e-07 s apart: via times must be at least 0.001 s "
            r"apart \(10⁻¹² of the largest \|time\|: count the times from the first via point\)",
        ),
        (
            [0, 1, 2],
            [0, 1e300, 2e300],
            r"times must span at most 1e\+09 s \(about 32 years\), "
            r"got 2e\+300 s",
        ),
        ([-1e308, 1e308], [0, 1], r"points\[0\] and points\[1\] differ by more than the largest"),
        (
            [0, 1e300],
            [0, 1e-9],
            r"the cubic from via point 0 to 1 leaves the floats \(its "
            r"coefficients overflow\)",
        ),
        (np.zeros((3, 0)), [0, 1, 2], r"points must hold at least one coordinate each"),
    ],
)
def test_via_times_and_points_the_floats_cannot_carry_are_refused(points, times, words):
    for continuity in ("velocity", "acceleration"):
        with pytest.raises(ValueError, match=words):
            rl.via_point_trajectory(points, times, continuity=continuity)
    if "cubic from" not in words:  # rest to rest has no cubic coefficients to overflow
        with pytest.raises(ValueError, match=words):
            rl.rest_to_rest_trajectory(points, times, "trapezoidal")


def test_times_a_nanosecond_apart_give_finite_numbers():
    path = rl.via_point_trajectory([0.0, 1e-9, 2e-9], [0.0, 1e-9, 2e-9])
    velocity = path(1e-9, derivative=1)
    assert velocity == pytest.approx(1.0)  # the mean slope 1 of Craig's rule, continuous
    assert np.isfinite(path([0.0, 5e-10, 2e-9], derivative=2)).all()


def test_the_derivative_is_an_int():
    path = rl.via_point_trajectory([0.0, 1.0], [0.0, 1.0])
    with pytest.raises(TypeError, match=r"derivative must be an int, 0, 1 \(velocity\) or 2"):
        path(0.5, derivative=1.0)
    with pytest.raises(TypeError, match=r"derivative must be an int, .* got bool True"):
        path(0.5, derivative=True)
    assert path(0.5, derivative=np.int64(1)) == pytest.approx(1.5)
