"""The control laws (Modern Robotics, section 11.4) and their one gain validator.

References: the printed example of the book library's ComputedTorque; ``modern_robotics``'s
GravityForces for PD + gravity compensation; the defining property of computed torque:
with a perfect model the closed loop is θ̈ = θ̈_d + K_p e + K_i (∫e + e) + K_d ė, so a
trajectory followed from its start is tracked exactly; Routh–Hurwitz for the gains.
"""

import modern_robotics as mr
import numpy as np
import pytest
from reference import planar_elbow as elbow
from reference.screw_arms import three_link_book, ur5

import robolab as rl
from robolab.screw.control import laws

FRAMES, INERTIAS, SCREWS = three_link_book()


def arm() -> rl.ScrewRobot:
    return rl.load_robot("planar2r")


def book_arrays(robot: rl.ScrewRobot) -> tuple[list, list, np.ndarray]:
    return list(robot.link_frames), list(robot.spatial_inertias), robot.screw_axes_space


def test_book_computed_torque_example():
    tau = laws.computed_torque(
        [0.1, 0.1, 0.1],
        [0.1, 0.2, 0.3],
        [0.2, 0.2, 0.2],
        [0, 0, -9.8],
        FRAMES,
        INERTIAS,
        SCREWS,
        [1.0, 1.0, 1.0],
        [2, 1.2, 2],
        [0.1, 0.1, 0.1],
        1.3,
        1.2,
        1.1,
    )
    np.testing.assert_allclose(tau, [133.00525246, -29.94223324, -3.03276856], atol=5e-9)


def quintic_reference(T, t, start, end):
    s = [rl.quintic_time_scaling(T, t, derivative=k) for k in (0, 1, 2)]
    return start + s[0] * (end - start), s[1] * (end - start), s[2] * (end - start)


def test_perfect_model_linearises_the_closed_loop():
    robot = ur5(gravity=(0.2, -0.1, -9.8))
    rng = np.random.default_rng(11)
    q, qd, q_d, qd_d, qdd_d, integral = rng.uniform(-1.5, 1.5, (6, 6))
    Kp, Ki, Kd = 30.0, np.linspace(1, 6, 6), 12.0
    tau = rl.computed_torque(robot, q, qd, integral, q_d, qd_d, qdd_d, Kp, Ki, Kd)
    e, e_dot = q_d - q, qd_d - qd
    np.testing.assert_allclose(
        rl.forward_dynamics_crba(robot, q, qd, tau),
        qdd_d + Kp * e + Ki * (integral + e) + Kd * e_dot,
        atol=1e-9,
    )


def test_perfect_model_tracks_a_quintic_trajectory():
    # The control law evaluated continuously (RK4 on the closed loop, 4 ms steps, 1 s): starting
    # on the reference, the error stays at rounding level; the requirement is 1e-6 rad.
    robot = ur5()
    T, dt = 1.0, 4e-3
    start, end = np.zeros(6), np.array([1.0, -0.8, 1.2, -0.5, 0.9, -1.1])

    def closed_loop(t, q, qd, integral):
        q_d, qd_d, qdd_d = quintic_reference(T, min(t, T), start, end)
        tau = rl.computed_torque(robot, q, qd, integral, q_d, qd_d, qdd_d, 25.0, 5.0, 10.0)
        return qd, rl.forward_dynamics_crba(robot, q, qd, tau), q_d - q

    state = (start.copy(), np.zeros(6), np.zeros(6))
    worst = 0.0
    for k in range(round(T / dt)):
        t = k * dt
        k1 = closed_loop(t, *state)
        k2 = closed_loop(t + dt / 2, *(x + dt / 2 * d for x, d in zip(state, k1, strict=True)))
        k3 = closed_loop(t + dt / 2, *(x + dt / 2 * d for x, d in zip(state, k2, strict=True)))
        k4 = closed_loop(t + dt, *(x + dt * d for x, d in zip(state, k3, strict=True)))
        state = tuple(
            x + dt / 6 * (a + 2 * b + 2 * c + d)
            for x, a, b, c, d in zip(state, k1, k2, k3, k4, strict=True)
        )
        worst = max(worst, np.abs(state[0] - quintic_reference(T, t + dt, start, end)[0]).max())
    assert worst < 1e-6, f"tracking error {worst:.3g} rad"
    np.testing.assert_allclose(state[0], end, atol=1e-6)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rl.computed_torque(ur5(), *np.zeros((6, 6)), np.ones(5), 1, 1),
            r"Kp must be a number or have shape \(6,\), got shape \(5,\)",
        ),
        (
            lambda: rl.computed_torque(ur5(), *np.zeros((5, 6)), np.zeros(5), 1, 1, 1),
            r"desired_joint_accelerations must have shape \(6,\) or \(\.\.\., 6\)",
        ),
        (
            lambda: rl.computed_torque(ur5(), *np.zeros((6, 6)), -1.0, 0.0, 1.0),
            "Kp = -1 at joint 1: Kp must be zero or positive",
        ),
        (
            lambda: rl.computed_torque(ur5(), *np.zeros((6, 6)), 2.0, 3.0, 1.0),
            r"unstable gains at joint 1: .* needs Kd·Kp > Ki \(Routh–Hurwitz\), got 2 ≤ 3",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


@pytest.mark.parametrize("q", [[0.0, 0.0], [0.4, -1.1], [2.0, 0.7]])
def test_pd_gravity_torque_is_pd_plus_books_gravity_forces(q):
    robot = rl.load_robot("ur5") if len(q) == 6 else arm()
    frames, inertias, S = book_arrays(robot)
    q = np.array(q)
    qd, q_d, qd_d = np.array([0.3, -0.2]), q + np.array([0.1, -0.05]), np.array([0.0, 0.4])
    tau = rl.pd_gravity_torque(robot, q, qd, q_d, qd_d, 50.0, [8.0, 6.0])
    expected = (
        50.0 * (q_d - q)
        + np.array([8.0, 6.0]) * (qd_d - qd)
        + mr.GravityForces(q, robot.gravity, frames, inertias, S)
    )
    np.testing.assert_allclose(tau, expected, atol=1e-10)
    np.testing.assert_allclose(
        rl.pd_gravity_torque(robot, q, 0 * q, q, 0 * q, 1, 1), elbow.gravity(q, 0.0), atol=1e-10
    )


def test_pd_gravity_torque_on_the_ur5_matches_the_book():
    robot = rl.load_robot("ur5")
    frames, inertias, S = book_arrays(robot)
    rng = np.random.default_rng(13)
    q, qd, q_d = rng.uniform(-1, 1, (3, 6))
    tau = rl.pd_gravity_torque(robot, q, qd, q_d, np.zeros(6), 30.0, 4.0)
    expected = 30 * (q_d - q) - 4 * qd + mr.GravityForces(q, robot.gravity, frames, inertias, S)
    np.testing.assert_allclose(tau, expected, atol=1e-9)


def test_the_four_laws_take_a_batch_of_states_as_one_by_one():
    robot = rl.load_robot("ur5")
    model = rl.screw.dynamics.model.model_of(robot)
    rng = np.random.default_rng(5)
    q, qd, qdd_d, planned, feedback = rng.uniform(-1, 1, (5, 4, 6))
    g = robot.gravity
    batch = [
        laws.pd_law(q, qd, qdd_d, 3.0, 2.0, 1.0),
        laws.pd_gravity_law(model, g, q, feedback),
        laws.pd_feedforward_law(planned, feedback),
        laws.computed_torque_law(model, g, q, qd, qdd_d, feedback),
        laws.computed_torque_law(model, g, q, qd, qdd_d[0], feedback),  # one θ̈_d for all
    ]
    for k in range(4):
        one = [
            laws.pd_law(q[k], qd[k], qdd_d[k], 3.0, 2.0, 1.0),
            laws.pd_gravity_law(model, g, q[k], feedback[k]),
            laws.pd_feedforward_law(planned[k], feedback[k]),
            laws.computed_torque_law(model, g, q[k], qd[k], qdd_d[k], feedback[k]),
            laws.computed_torque_law(model, g, q[k], qd[k], qdd_d[0], feedback[k]),
        ]
        for a, b in zip(batch, one, strict=True):
            np.testing.assert_allclose(a[k], b, atol=1e-10)
    # PD + gravity at rest on target is the book's gravity forces
    frames, inertias, S = book_arrays(robot)
    np.testing.assert_allclose(
        laws.pd_gravity_law(model, g, q[0], np.zeros(6)),
        mr.GravityForces(q[0], g, frames, inertias, S),
        atol=1e-10,
    )


@pytest.mark.parametrize(
    ("arguments", "options", "message"),
    [
        ((-5.0, 0.0, 20.0, 2), {}, "Kp = -5 at joint 1: Kp must be positive for a stable"),
        ((100.0, 0.0, [20.0, 0.0], 2), {}, "Kd = 0 at joint 2: Kd must be positive"),
        ((100.0, -1.0, 20.0, 2), {}, "Ki = -1 at joint 1: Ki must be zero or positive"),
        ((100.0, 2000.0, 20.0, 2), {}, r"unstable gains at joint 1: .* got 2000 ≤ 2000;"),
        ((np.nan, 0.0, 1.0, 2), {}, "Kp contains a non-finite value"),
        (([1.0, 2.0, 3.0], 0.0, 1.0, 2), {}, r"Kp must be a number or have shape \(2,\)"),
        ((0.0, 0.0, 1.0, 2), {"positive": ()}, None),
        ((0.0, 0.0, 0.0), {"positive": ("Kp",), "plant": (1.0, 1.0)}, "Kp = 0: Kp must be"),
        (
            (0.5, 20.0, 0.0),
            {"positive": ("Kp",), "plant": (3.834e-4, 8.17e-4)},
            r"^unstable gains: the closed loop J s³ \+ \(B \+ Kd\) s² \+ Kp s \+ Ki needs "
            r"\(B \+ Kd\)·Kp > J·Ki \(Routh–Hurwitz\), got 0.000409 ≤ 0.00767; raise Kd",
        ),
    ],
)
def test_one_gain_validator(arguments, options, message):
    if message is None:
        kp, _, _ = laws.checked_gains(*arguments, **options)
        np.testing.assert_array_equal(kp, [0.0, 0.0])
        return
    with pytest.raises(ValueError, match=message):
        laws.checked_gains(*arguments, **options)


@pytest.mark.parametrize(("Kp", "Kd"), [(30.0, 2.0), (4.0, 0.5), (100.0, 20.0)])
def test_routh_hurwitz_bound_is_the_stability_of_the_third_order_loop(Kp, Kd):
    """Ki just below K_p K_d: all roots of s³ + K_d s² + K_p s + K_i in the left half-plane."""
    for factor, stable in ((0.99, True), (1.01, False)):
        Ki = factor * Kp * Kd
        assert (np.roots([1.0, Kd, Kp, Ki]).real.max() < 0) == stable
        if stable:
            laws.checked_gains(Kp, Ki, Kd, 1)
        else:
            with pytest.raises(ValueError, match="unstable gains"):
                laws.checked_gains(Kp, Ki, Kd, 1)
