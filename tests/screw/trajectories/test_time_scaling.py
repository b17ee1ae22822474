"""The time scalings: cubic, quintic, trapezoidal (LSPB) and its minimum-time form.

References: the printed examples of the book library's CubicTimeScaling and
QuinticTimeScaling; the boundary conditions that define the cubic and quintic scalings
(Modern Robotics §9.2.2) and finite differences for their derivatives; Spong, Hutchinson &
Vidyasagar, *Robot Modeling and Control* ch. 5 (LSPB:
the blend time t_b = (q0 - qf + V tf)/V and the three pieces of q(t), written out here by
hand); Modern Robotics §9.2.2 (v T - v²/a = 1 and the conditions 1 < vT ≤ 2, aT² ≥ 4);
the classic minimum-time results for a rest-to-rest motion of length D under |q̇| ≤ V,
|q̈| ≤ A (trapezoid T = D/V + V/A when D ≥ V²/A, triangle T = 2√(D/A) otherwise).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robolab as rl


def spong_lspb(q0: float, qf: float, tf: float, V: float, t: np.ndarray) -> np.ndarray:
    """Spong ch. 5 (LSPB): q(t) of the LSPB from q0 to qf at cruise V."""
    tb = (q0 - qf + V * tf) / V
    alpha = V / tb
    return np.piecewise(
        t,
        [t <= tb, (t > tb) & (t <= tf - tb), t > tf - tb],
        [
            lambda t: q0 + alpha / 2 * t**2,
            lambda t: (qf + q0 - V * tf) / 2 + V * t,
            lambda t: qf - alpha * tf**2 / 2 + alpha * tf * t - alpha / 2 * t**2,
        ],
    )


@pytest.mark.parametrize(("q0", "qf", "tf", "V"), [(0.0, 1.0, 2.0, 0.75), (0.3, -1.1, 3.0, -0.6)])
def test_lspb_matches_spongs_closed_form(q0, qf, tf, V):
    t = np.linspace(0.0, tf, 301)
    s = rl.trapezoidal_time_scaling(tf, t, velocity=V / (qf - q0))
    np.testing.assert_allclose(q0 + (qf - q0) * s, spong_lspb(q0, qf, tf, V, t), atol=1e-12)
    tb = (q0 - qf + V * tf) / V
    profile = rl.trapezoidal_profile(duration=tf, velocity=V / (qf - q0))
    assert profile.switching_times == pytest.approx((tb, tf - tb), abs=1e-12)
    assert profile.acceleration * (qf - q0) == pytest.approx(V / tb, abs=1e-12)


def test_derivatives_are_those_of_the_pieces():
    # a = 1.125 (T = 2, v = 0.75): t_b = 2/3; at 0.5 s accelerating, at 1 s coasting, 1.8 s braking
    t = np.array([0.5, 1.0, 1.8])
    velocity = rl.trapezoidal_time_scaling(2.0, t, 1, velocity=0.75)
    acceleration = rl.trapezoidal_time_scaling(2.0, t, 2, velocity=0.75)
    np.testing.assert_allclose(velocity, [1.125 * 0.5, 0.75, 1.125 * 0.2], atol=1e-12)
    np.testing.assert_allclose(acceleration, [1.125, 0.0, -1.125], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.2, 5.0), st.floats(1.0 + 1e-3, 2.0))
def test_the_three_forms_agree_with_mr_area_condition(duration, product):
    v = product / duration
    by_velocity = rl.trapezoidal_profile(duration=duration, velocity=v)
    a = by_velocity.acceleration
    # MR §9.2.2: v T - v²/a = 1
    assert v * duration - v * v / a == pytest.approx(1.0, abs=1e-9)
    by_acceleration = rl.trapezoidal_profile(duration=duration, acceleration=a)
    assert by_acceleration.velocity == pytest.approx(v, abs=1e-7 * max(1.0, v))
    by_limits = rl.trapezoidal_profile(velocity=v, acceleration=a)
    assert by_limits.duration == pytest.approx(duration, abs=1e-9 * duration)
    # s ends at 1 with zero velocity, and never leaves [0, 1]
    t = np.linspace(0.0, duration, 101)
    s = by_velocity(t)
    assert s[0] == 0.0 and s[-1] == pytest.approx(1.0, abs=1e-12)
    assert np.all(np.diff(s) >= -1e-15) and np.all(s <= 1 + 1e-12)
    assert by_velocity(duration, 1) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("D", "V", "A", "T", "tb"),
    [
        (math.pi / 2, 1.0, 2.0, math.pi / 2 + 0.5, 0.5),  # trapezoid: D/V + V/A
        (0.2, 1.0, 2.0, 2 * math.sqrt(0.1), math.sqrt(0.1)),  # triangle: 2√(D/A)
    ],
)
def test_minimum_time_of_one_joint(D, V, A, T, tb):
    profile = rl.minimum_time_profile([0.0], [D], V, A)
    assert profile.duration == pytest.approx(T, abs=1e-12)
    assert profile.switching_times[0] == pytest.approx(tb, abs=1e-12)
    t = np.linspace(0.0, profile.duration, 2001)
    assert np.max(np.abs(D * profile(t, 1))) <= V + 1e-12
    assert np.max(np.abs(D * profile(t, 2))) == pytest.approx(A, abs=1e-12)


def test_minimum_time_of_a_joint_line_respects_every_joint():
    rng = np.random.default_rng(11)
    start, end = rng.uniform(-1, 1, 4), rng.uniform(-1, 1, 4)
    speed, accel = np.array([1.0, 2.0, 0.5, 1.5]), np.array([3.0, 1.0, 2.0, 4.0])
    profile = rl.minimum_time_profile(start, end, speed, accel)
    distance = np.abs(end - start)
    # each joint alone would take its own minimum time; the line takes the longest of them
    alone = [
        rl.minimum_time_profile([0.0], [d], v, a).duration
        for d, v, a in zip(distance, speed, accel, strict=True)
    ]
    assert profile.duration >= max(alone) - 1e-12
    t = np.linspace(0.0, profile.duration, 2001)
    peak_speed = np.max(np.abs(np.outer(profile(t, 1), end - start)), axis=0)
    peak_accel = np.max(np.abs(np.outer(profile(t, 2), end - start)), axis=0)
    assert np.all(peak_speed <= speed + 1e-12) and np.all(peak_accel <= accel + 1e-12)
    assert np.any(np.isclose(peak_accel, accel, atol=1e-12))  # one joint at its limit


@pytest.mark.parametrize(
    ("keywords", "words"),
    [
        ({"duration": 2.0}, "give exactly two of duration, velocity and acceleration"),
        ({"duration": 2, "velocity": 1, "acceleration": 1}, "exactly two"),
        ({"duration": 2.0, "velocity": 0.4}, r"velocity × duration = 0.8 must exceed 1"),
        ({"duration": 2.0, "velocity": 1.2}, r"must be at most 2"),
        ({"duration": 2.0, "acceleration": 0.5}, r"acceleration × duration² = 2 must be"),
        ({"duration": -1.0, "velocity": 1.0}, "duration must be a positive number, got -1"),
        ({"velocity": float("nan"), "acceleration": 1.0}, "velocity"),
    ],
)
def test_bad_profiles(keywords, words):
    with pytest.raises(ValueError, match=words):
        rl.trapezoidal_profile(**keywords)


def test_bad_times_and_limits():
    with pytest.raises(ValueError, match=r"t must lie in \[0, duration\]"):
        rl.trapezoidal_time_scaling(2.0, [0.0, 2.5], velocity=0.75)
    with pytest.raises(ValueError, match="derivative must be 0"):
        rl.trapezoidal_time_scaling(2.0, 1.0, 3, velocity=0.75)
    with pytest.raises(ValueError, match=r"max_velocity must be a number or have shape \(2,\)"):
        rl.minimum_time_profile([0, 0], [1, 1], [1, 1, 1], 1)
    with pytest.raises(ValueError, match="max_acceleration must be positive, got -1 for joint 2"):
        rl.minimum_time_profile([0, 0], [1, 1], 1, [1, -1])
    with pytest.raises(ValueError, match="joint_position_end must have shape"):
        rl.minimum_time_profile([0, 0], [1, 1, 1], 1, 1)
    with pytest.raises(TypeError):
        rl.minimum_time_profile([0, 0], ["a", 1], 1, 1)


def test_a_profile_made_by_hand_must_be_a_trapezoid():
    # MR: the area v T - v²/a must be 1, and the ramps v/a cannot overlap (v/a ≤ T/2)
    assert rl.TrapezoidalProfile(2.0, 1.0, 1.0).triangular  # 2 - 1 = 1, v/a = T/2
    with pytest.raises(ValueError, match=r"needs v T - v²/a = 1 and v/a ≤ T/2, got 1.5 and 0.5"):
        rl.TrapezoidalProfile(2.0, 1.0, 2.0)
    with pytest.raises(ValueError, match="velocity must be a positive number"):
        rl.TrapezoidalProfile(2.0, -1.0, 1.0)


# ---------------------------------------------------------- cubic and quintic


def test_book_time_scaling_examples():
    assert rl.cubic_time_scaling(2, 0.6) == pytest.approx(0.216, abs=1e-15)
    assert rl.quintic_time_scaling(2, 0.6) == pytest.approx(0.16308, abs=1e-15)


@pytest.mark.parametrize("scaling", [rl.cubic_time_scaling, rl.quintic_time_scaling])
def test_time_scalings_start_and_stop_at_rest(scaling):
    T = 1.7
    assert scaling(T, 0.0) == 0.0 and scaling(T, T) == pytest.approx(1.0, abs=1e-15)
    assert scaling(T, [0.0, T], derivative=1) == pytest.approx([0.0, 0.0], abs=1e-15)
    t = np.linspace(0.01, T - 0.01, 9)
    h = 1e-6
    np.testing.assert_allclose(
        scaling(T, t, derivative=1), (scaling(T, t + h) - scaling(T, t - h)) / (2 * h), atol=1e-8
    )
    np.testing.assert_allclose(
        scaling(T, t, derivative=2),
        (scaling(T, t + h, derivative=1) - scaling(T, t - h, derivative=1)) / (2 * h),
        atol=1e-7,
    )


def test_quintic_also_starts_and_stops_without_acceleration():
    assert rl.quintic_time_scaling(2.0, [0.0, 2.0], derivative=2) == pytest.approx(
        [0, 0], abs=1e-15
    )
    assert abs(rl.cubic_time_scaling(2.0, 0.0, derivative=2)) > 1  # the cubic jumps


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rl.cubic_time_scaling(0, 0.1), "duration must be positive, got 0"),
        (
            lambda: rl.quintic_time_scaling(2, 2.5),
            r"t must lie in \[0, duration\] = \[0, 2\], got 2.5",
        ),
        (lambda: rl.quintic_time_scaling(2, [0.5, np.nan]), "t contains a non-finite value"),
        (
            lambda: rl.cubic_time_scaling(2, 1, derivative=3),
            r"derivative must be 0 \(s\), 1 \(ds/dt\) or 2",
        ),
    ],
)
def test_bad_scalings_are_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_old_name_total_time_still_works_with_a_warning():
    with pytest.warns(DeprecationWarning, match="total_time still works"):
        assert rl.cubic_time_scaling(total_time=2, t=0.6) == pytest.approx(0.216)
    with pytest.warns(DeprecationWarning, match="total_time still works"):
        profile = rl.trapezoidal_profile(total_time=2.0, velocity=0.75)
    assert profile == rl.trapezoidal_profile(duration=2.0, velocity=0.75)
    with pytest.warns(DeprecationWarning, match="TrapezoidalProfile.total_time is now"):
        assert profile.total_time == 2.0
    with pytest.warns(DeprecationWarning, match="total_time still works"):
        assert rl.TrapezoidalProfile(total_time=2.0, velocity=0.75, acceleration=1.125) == profile
    with pytest.warns(DeprecationWarning, match="total_time still works"):
        assert rl.trapezoidal_time_scaling(total_time=2.0, t=1.0, velocity=0.75) == 0.5


# --------------------------------------------------------- issue 29: durations in range


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: rl.cubic_time_scaling(1e-300, 0.0, 2), r"duration must be at least 1e-09 s"),
        (lambda: rl.quintic_time_scaling(1e300, 0.0), r"duration must be at most 1e\+09 s"),
        (lambda: rl.trapezoidal_profile(duration=1e-300, velocity=1.5e300), r"at least 1e-09"),
        (
            lambda: rl.trapezoidal_profile(velocity=1e-300, acceleration=1e-300),
            r"the duration of the profile \(from velocity = 1e-300, acceleration = 1e-300\) "
            r"must be at most 1e\+09 s",
        ),
        (
            lambda: rl.trapezoidal_profile(velocity=1e300, acceleration=1e300),
            r"the duration of the profile .* must be at least 1e-09 s .* got 2e-150 s",
        ),
        (
            lambda: rl.minimum_time_profile([0.0], [1e-300], 1.0, 1.0),
            r"the fastest motion from joint_position_start to joint_position_end within "
            r"max_velocity and max_acceleration: the duration of the profile",
        ),
        (
            lambda: rl.minimum_time_profile([-1e308], [1e308], 1.0, 1.0),
            r"joint_position_end - joint_position_start overflows",
        ),
        (
            lambda: rl.TrapezoidalProfile(duration=1e-12, velocity=2e12, acceleration=4e24),
            r"duration must be at least 1e-09 s",
        ),
    ],
)
def test_durations_out_of_range_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_the_derivative_of_a_scaling_is_an_int():
    with pytest.raises(TypeError, match=r"derivative must be an int, 0 \(s\), 1 \(ds/dt\)"):
        rl.cubic_time_scaling(2.0, 1.0, 1.0)
    assert rl.cubic_time_scaling(2.0, 1.0, np.int64(1)) == pytest.approx(0.75)


def test_a_steep_ramp_whose_a_t_squared_overflows_still_gives_the_trapezoid():
    """a = 10²⁰⁰ over T = 10 s: a²T² leaves the floats; the ramps last v/a ≈ 10⁻²⁰¹ s and
    the profile coasts at v = 1/T (from v T - v²/a = 1)."""
    profile = rl.trapezoidal_profile(duration=10.0, acceleration=1e200)
    assert profile.velocity == pytest.approx(0.1, rel=1e-15)
    assert profile.velocity * 10.0 - profile.velocity**2 / 1e200 == pytest.approx(1.0)
