"""Robot control (Modern Robotics, section 11.4): computed torque and its simulation.

References: the printed examples of the book library's ComputedTorque and
(in ModernRoboticsBook.jl's documentation) SimulateControl; the book's Python
SimulateControl example, with a wrong model of the robot, run by
``modern_robotics``; the defining property of computed torque: with a perfect
model the closed loop is θ̈ = θ̈_d + K_p e + K_i (∫e + e) + K_d ė, so a
trajectory followed from its start is tracked exactly.
"""

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from reference.screw_arms import three_link_book, ur5

import robolab as rl
from robolab.screw.control import laws as rc

FRAMES, INERTIAS, SCREWS = three_link_book()


def test_book_computed_torque_example():
    tau = rc.computed_torque(
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


def test_book_simulate_control_example():
    desired = np.array([[0.1] * 3, [0.2] * 3, [0.3] * 3])
    tau, _ = rc.simulate_control(
        [0.1, 0.1, 0.1],
        [0.1, 0.2, 0.3],
        [0, 0, -9.8],
        np.ones((3, 6)),
        FRAMES,
        INERTIAS,
        SCREWS,
        desired,
        np.full((3, 3), 0.1),
        np.zeros((3, 3)),
        [0, 0, -9.8],
        FRAMES,
        INERTIAS,
        20,
        10,
        18,
        0.1,
        4,
    )
    printed = [
        [29.2466, -42.7951, -6.91623],
        [93.5113, -24.4938, -0.00376585],
        [45.3612, -39.6324, -5.62033],
    ]
    np.testing.assert_allclose(tau, printed, rtol=5e-6, atol=5e-8)


def test_book_python_example_with_a_wrong_model(monkeypatch):
    monkeypatch.setattr(plt, "show", lambda *args, **kwargs: None)  # the book's code plots
    theta = np.array([0.1, 0.1, 0.1])
    dtheta = np.array([0.1, 0.2, 0.3])
    N = 25  # the book's example has 100 points and 8 Euler steps each; its code is slow
    trajectory = np.array(mr.JointTrajectory(theta, [np.pi / 2, np.pi, 1.5 * np.pi], 1, N, 5))
    dt = 1 / (N - 1.0)
    velocity, acceleration = np.zeros((N, 3)), np.zeros((N, 3))
    velocity[1:] = np.diff(trajectory, axis=0) / dt
    acceleration[1:] = np.diff(velocity, axis=0) / dt
    frames_hat = np.array(FRAMES, copy=True)
    frames_hat[:, :3, 3] = [[0, 0, 0.1], [0.3, 0.2, 0], [0, -0.2, 0.4], [0, 0, 0.2]]
    inertias_hat = np.array(
        [
            np.diag([0.1, 0.1, 0.1, 4, 4, 4]),
            np.diag([0.3, 0.3, 0.1, 9, 9, 9]),
            np.diag([0.1, 0.1, 0.1, 3, 3, 3]),
        ]
    )
    arguments = (
        theta,
        dtheta,
        [0, 0, -9.8],
        np.ones((N, 6)),
        FRAMES,
        INERTIAS,
        SCREWS,
        trajectory,
        velocity,
        acceleration,
        [0.8, 0.2, -8.8],
        frames_hat,
        inertias_hat,
        20,
        10,
        18,
        dt,
        2,
    )
    try:
        tau_book, theta_book = mr.SimulateControl(*arguments)
    finally:
        plt.close("all")
    tau, positions = rc.simulate_control(*arguments)
    np.testing.assert_allclose(tau, tau_book, atol=1e-8)
    np.testing.assert_allclose(positions, theta_book, atol=1e-10)


# --------------------------------------------------------------------------- the control law


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


def test_simulate_control_follows_a_quintic_with_the_books_discrete_controller():
    # The book's loop holds each torque for a whole time step and integrates the error against
    # the previous reference point, so it tracks to O(Δt): here about 3e-4 rad at 1 kHz.
    robot = ur5()
    t = np.linspace(0, 1, 1001)
    q_d, qd_d, qdd_d = quintic_reference(
        1.0, t[:, None], np.zeros(6), np.array([1.0, -0.8, 1.2, -0.5, 0.9, -1.1])
    )
    tau, q = rl.simulate_control(
        robot, q_d[0], qd_d[0], None, q_d, qd_d, qdd_d, robot, 20, 10, 18, 1e-3, 1, integrator="rk4"
    )
    assert tau.shape == q.shape == (1001, 6)
    assert np.abs(q[:-1] - q_d[1:]).max() < 1e-3


def test_controller_uses_the_estimated_robot_throughout():
    robot = ur5()
    # A model with every screw axis and link frame of the true robot but 30 % heavier links
    # and another gravity: the first torque is the model's computed torque.
    model = robot.replace(spatial_inertias=1.3 * robot.spatial_inertias, gravity=(0, 0, -9.0))
    q0 = np.array([0.1, -0.4, 0.6, 0.2, -0.3, 0.5])
    hold = np.tile(q0, (3, 1))
    arguments = (robot, q0, np.zeros(6), None, hold, np.zeros((3, 6)), np.zeros((3, 6)), model)
    tau, _ = rl.simulate_control(*arguments, 20, 10, 18, 0.01, 2)
    np.testing.assert_allclose(tau[0], rl.gravity_forces(model, q0), atol=1e-10)
    # With another estimated gravity given explicitly it is that one.
    tau, _ = rl.simulate_control(*arguments, 20, 10, 18, 0.01, 2, estimated_gravity=(0, 0, -1.0))
    np.testing.assert_allclose(
        tau[0], rl.gravity_forces(model, q0, gravity=(0, 0, -1.0)), atol=1e-10
    )


def ur5_held_still(**changes):
    """rl.simulate_control holding the UR5 at zero for 3 steps, with some arguments changed."""
    arguments = {
        "joint_positions": np.zeros(6),
        "joint_velocities": np.zeros(6),
        "tip_wrench_traj": None,
        "desired_joint_position_traj": np.zeros((3, 6)),
        "desired_joint_velocity_traj": np.zeros((3, 6)),
        "desired_joint_acceleration_traj": np.zeros((3, 6)),
        "estimated_robot": ur5(),
        "Kp": 1,
        "Ki": 1,
        "Kd": 1,
        "timestep": 0.1,
        "integration_resolution": 1,
    }
    return rl.simulate_control(ur5(), **(arguments | changes))


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
            lambda: ur5_held_still(desired_joint_velocity_traj=np.zeros((2, 6))),
            "desired_joint_velocity_traj must have 3 rows like the other trajectories, got 2",
        ),
        (
            lambda: ur5_held_still(tip_wrench_traj=np.zeros((2, 6))),
            "tip_wrench_traj must have 3 rows like the other trajectories, got 2",
        ),
        (
            lambda: ur5_held_still(estimated_robot="model"),
            "estimated_robot must be a ScrewRobot, got str",
        ),
        (
            lambda: rc.simulate_control(
                np.zeros(3),
                np.zeros(3),
                [0, 0, -9.8],
                None,
                FRAMES,
                INERTIAS,
                SCREWS,
                np.zeros((2, 3)),
                np.zeros((2, 3)),
                np.zeros((2, 3)),
                [0, 0, -9.8],
                FRAMES[:3],
                INERTIAS[:2],
                1,
                1,
                1,
                0.1,
                1,
                estimated_screw_axes=SCREWS[:, :2],
            ),
            "the estimated model has 2 joints, the true robot 3",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def turntable(friction=None) -> rl.ScrewRobot:
    """One revolute joint about z, gravity along -z: M = I_zz = 0.5 kg m², no gravity torque."""
    return rl.ScrewRobot(
        "turntable",
        home_ee_pose=np.eye(4),
        screw_axes_space=[[0], [0], [1], [0], [0], [0]],
        link_frames=[np.eye(4), np.eye(4)],
        spatial_inertias=[np.diag([0.3, 0.3, 0.5, 2.0, 2.0, 2.0])],
        friction=friction,
    )


def test_simulate_control_applies_the_true_robots_viscous_friction():
    # Holding θ_d = 0 from θ = 0.2 with a model that knows no friction b: the loop is
    # ë + (K_d + b/I) ė + K_p e = 0, here ë + 12 ė + 36 e = 0 (a double root at -6):
    # e(t) = -0.2 (1 + 6 t) exp(-6 t), closed form.
    b, inertia, dt = 1.0, 0.5, 1e-3
    true = turntable(rl.JointFriction(viscous=b))
    hold = np.zeros((1500, 1))
    _, q = rl.simulate_control(
        true, [0.2], [0.0], None, hold, hold, hold, turntable(), 36.0, 0.0, 12.0 - b / inertia,
        dt, 4, integrator="rk4",
    )  # fmt: skip
    t = dt * np.arange(1, 1501)
    np.testing.assert_allclose(q[:, 0], 0.2 * (1 + 6 * t) * np.exp(-6 * t), atol=2e-3)
    # without the friction the same gains ring less damped: the result differs
    _, q_free = rl.simulate_control(
        turntable(), [0.2], [0.0], None, hold, hold, hold, turntable(), 36.0, 0.0, 10.0, dt, 4,
        integrator="rk4",
    )  # fmt: skip
    assert np.abs(q_free[:, 0] - q[:, 0]).max() > 1e-2


@pytest.mark.parametrize("integrator", ["euler", "semi_implicit_euler", "rk4"])
def test_simulate_control_takes_every_fixed_step_integrator(integrator):
    # θ̈_e = -K_p e - K_d ė exactly (a perfect model); every integrator converges to the
    # closed form e(t) = 0.2 (1 + 6 t) exp(-6 t) of ë + 12 ė + 36 e = 0.
    hold = np.zeros((1000, 1))
    _, q = rl.simulate_control(
        turntable(), [0.2], [0.0], None, hold, hold, hold, turntable(), 36.0, 0.0, 12.0, 1e-3, 10,
        integrator=integrator,
    )  # fmt: skip
    t = 1e-3 * np.arange(1, 1001)
    np.testing.assert_allclose(q[:, 0], 0.2 * (1 + 6 * t) * np.exp(-6 * t), atol=3e-3)


def test_simulate_control_refuses_the_adaptive_integrator():
    hold = np.zeros((3, 1))
    with pytest.raises(ValueError, match="integrator must be 'euler', 'semi_implicit_euler' or"):
        rl.simulate_control(
            turntable(), [0.2], [0.0], None, hold, hold, hold, turntable(), 1, 0, 1, 1e-3, 1,
            integrator="rk45",
        )  # fmt: skip
