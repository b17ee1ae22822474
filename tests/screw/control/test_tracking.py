"""Closed-loop control (robolab.screw.control.tracking) against outside references.

simulate_control (the book's SimulateControl) and simulate_tracking (four controllers at
once) are two forms of one loop. References: ``modern_robotics.SimulateControl``/
``ComputedTorque``/``GravityForces``, run on the book's Python example with a wrong model and
on the printed example of SimulateControl (ModernRoboticsBook.jl's documentation)
(the book's library, Lynch & Park, *Modern Robotics* §11.4); the analytic solution of
the error ODE ë + K_d ė + K_p e = 0 that computed torque with an exact model imposes
(MR eq. 11.35ff; Spong, Hutchinson & Vidyasagar §9.4); the planar 2R's closed-form
gravity torques and mass matrix (Spong §7.4.2, links of mass m, length l, centre at
l/2, inertia m l²/12 about it; g = 9.81 in the arm's plane).
"""

import re

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from reference import planar_elbow as elbow
from reference.screw_arms import three_link_book, ur5

import robolab as rl
from robolab.screw.control import tracking as mbc

G = elbow.G
FRAMES, INERTIAS, SCREWS = three_link_book()


def arm() -> rl.ScrewRobot:
    return rl.load_robot("planar2r")


def book_arrays(robot: rl.ScrewRobot) -> tuple[list, list, np.ndarray]:
    return list(robot.link_frames), list(robot.spatial_inertias), robot.screw_axes_space


def gravity_2r(q: np.ndarray, payload: float = 0.0) -> np.ndarray:
    return elbow.gravity(q, payload)


def mass_matrix_2r(q: np.ndarray, payload: float = 0.0) -> np.ndarray:
    return elbow.mass_matrix(q, payload)


def sine_reference(n: int, N: int, dt: float, amplitude: float = 0.5):
    t = dt * np.arange(N)[:, None]
    w = 2 * np.pi * 0.5 * (1 + np.arange(n))[None, :] / n
    return (
        amplitude * np.sin(w * t),
        amplitude * w * np.cos(w * t),
        -amplitude * w**2 * np.sin(w * t),
    )


@pytest.mark.parametrize("payload", [0.5, 2.0])
def test_payload_matches_the_closed_form_2r(payload):
    loaded = mbc.with_payload(arm(), payload)
    for q in ([0.0, 0.0], [0.7, -1.3], [-2.2, 2.5]):
        q = np.array(q)
        np.testing.assert_allclose(
            rl.pd_gravity_torque(loaded, q, 0 * q, q, 0 * q, 1, 1),
            gravity_2r(q, payload),
            atol=1e-10,
        )
        np.testing.assert_allclose(
            rl.mass_matrix_crba(loaded, q), mass_matrix_2r(q, payload), atol=1e-10
        )
    # the kinematics do not move
    np.testing.assert_allclose(loaded.home_ee_pose, arm().home_ee_pose, atol=1e-12)


def test_scaled_inertias_scale_the_books_mass_matrix():
    robot = rl.load_robot("ur5")
    frames, inertias, S = book_arrays(robot)
    q = np.linspace(-1, 1, 6)
    np.testing.assert_allclose(
        rl.mass_matrix_crba(mbc.scaled_inertias(robot, 1.2), q),
        1.2 * mr.MassMatrix(q, frames, inertias, S),
        atol=1e-10,
    )


def mr_simulate(robot, estimated, q0, qd0, refs, dt, res, Kp, Kd):
    frames, inertias, S = book_arrays(robot)
    est_frames, est_inertias, _ = book_arrays(estimated)
    q_d, qd_d, qdd_d = refs
    N = len(q_d)
    return mr.SimulateControl(
        q0,
        qd0,
        robot.gravity,
        np.zeros((N, 6)),
        frames,
        inertias,
        S,
        q_d,
        qd_d,
        qdd_d,
        estimated.gravity,
        est_frames,
        est_inertias,
        Kp,
        0.0,
        Kd,
        dt,
        res,
    )


@pytest.mark.parametrize("readable", [False, True])
@pytest.mark.parametrize(("name", "factor", "payload"), [("planar2r", 0.8, 0.0), ("ur5", 1.2, 0.5)])
def test_computed_torque_matches_modern_robotics_simulate_control(
    name, factor, payload, readable, monkeypatch
):
    """Both loops: the generated one, and the readable one (what runs where it gives up)."""
    monkeypatch.setattr("matplotlib.pyplot.show", lambda *a, **k: None)
    if readable:
        monkeypatch.setattr(mbc, "track_generated", lambda *a, **k: None)
    robot = mbc.with_payload(rl.load_robot(name), payload) if payload else rl.load_robot(name)
    estimated = mbc.scaled_inertias(rl.load_robot(name), factor)
    n, N, dt = len(robot.spatial_inertias), 60, 0.01
    refs = sine_reference(n, N, dt)
    q0, qd0 = refs[0][0] + 0.05, refs[1][0]
    tau_mr, q_mr = mr_simulate(robot, estimated, q0, qd0, refs, dt, 4, 40.0, 10.0)
    runs = mbc.simulate_tracking(
        robot,
        estimated,
        *refs,
        dt,
        40.0,
        10.0,
        controllers="computed_torque",
        joint_positions=q0,
        joint_velocities=qd0,
        integrator="euler",
        integration_resolution=4,
    )
    run = runs["computed_torque"]
    # robolab's row i is the state at t_i (the book's row i is the state reached after it)
    np.testing.assert_allclose(run.joint_torques, tau_mr, atol=1e-8)
    np.testing.assert_allclose(run.joint_positions[1:], q_mr[:-1], atol=1e-9)


def test_computed_torque_first_torque_is_the_books_computed_torque():
    robot, estimated = rl.load_robot("ur5"), mbc.scaled_inertias(rl.load_robot("ur5"), 0.9)
    est_frames, est_inertias, S = book_arrays(estimated)
    refs = sine_reference(6, 3, 0.01)
    q0, qd0 = refs[0][0] - 0.1, refs[1][0] + 0.2
    run = mbc.simulate_tracking(
        robot,
        estimated,
        *refs,
        0.01,
        [30, 31, 32, 33, 34, 35],
        7.0,
        joint_positions=q0,
        joint_velocities=qd0,
    )["computed_torque"]
    expected = mr.ComputedTorque(
        q0,
        qd0,
        np.zeros(6),
        estimated.gravity,
        est_frames,
        est_inertias,
        S,
        refs[0][0],
        refs[1][0],
        refs[2][0],
        np.arange(30, 36.0),
        0.0,
        7.0,
    )
    np.testing.assert_allclose(run.joint_torques[0], expected, atol=1e-9)


@pytest.mark.parametrize(("Kp", "Kd"), [(100.0, 20.0), (64.0, 4.0), (25.0, 30.0)])
def test_exact_model_error_follows_the_linear_error_ode(Kp, Kd):
    """ë + K_d ė + K_p e = 0 from e(0) = e0, ė(0) = 0, solved analytically."""
    dt, T = 0.0005, 1.5
    N = round(T / dt) + 1
    refs = sine_reference(2, N, dt)
    e0 = np.array([0.1, -0.08])
    run = mbc.simulate_tracking(
        arm(),
        arm(),
        *refs,
        dt,
        Kp,
        Kd,
        controllers="computed_torque",
        joint_positions=refs[0][0] - e0,
        joint_velocities=refs[1][0],
        integrator="rk4",
    )["computed_torque"]
    t = run.times[:, None]
    r = np.roots([1.0, Kd, Kp])
    if np.isclose(r[0], r[1]):
        s = r[0].real
        expected = e0 * (1 - s * t) * np.exp(s * t)
    else:
        a, b = r
        expected = (e0 * (b * np.exp(a * t) - a * np.exp(b * t)) / (b - a)).real
    # the torque is held over each Δt: the discrete loop differs by O(Δt)
    np.testing.assert_allclose(run.errors, expected, atol=0.01 * np.abs(e0).max())


def test_pd_gravity_settles_exactly_and_pd_alone_sags_by_its_gravity_over_kp():
    hold = np.tile([0.3, 0.4], (4001, 1))
    runs = mbc.simulate_tracking(
        arm(),
        arm(),
        hold,
        0 * hold,
        0 * hold,
        0.001,
        200.0,
        40.0,
        controllers=("pd", "pd_gravity"),
        joint_positions=[0.0, 0.0],
    )
    np.testing.assert_allclose(runs["pd_gravity"].errors[-1], 0.0, atol=1e-5)
    q_end = runs["pd"].joint_positions[-1]
    # PD's equilibrium: K_p (θ_d - θ) = g(θ) (Spong §9.3)
    np.testing.assert_allclose(200.0 * (hold[0] - q_end), gravity_2r(q_end), atol=1e-3)


def test_feedforward_with_an_exact_model_tracks_from_the_start():
    refs = sine_reference(2, 2001, 0.001)
    run = mbc.simulate_tracking(
        arm(), arm(), *refs, 0.001, 100.0, 20.0, controllers="pd_feedforward", integrator="rk4"
    )["pd_feedforward"]
    assert run.max_error < 5e-3


def test_torque_limits_clip_and_report_the_commanded_peak():
    hold = np.tile([0.0, 0.0], (501, 1))
    runs = mbc.simulate_tracking(
        arm(),
        arm(),
        hold,
        0 * hold,
        0 * hold,
        0.001,
        100.0,
        20.0,
        controllers=("pd_gravity",),
        torque_limits=[15.0, 10.0],
    )
    run = runs["pd_gravity"]
    assert np.all(np.abs(run.joint_torques) <= [15.0, 10.0])
    # g(0) = (2g, g/2) is asked first; 2g = 19.62 is clipped to 15
    np.testing.assert_allclose(run.joint_torques[0], [15.0, G / 2], atol=1e-9)
    assert run.peak_torques[0] >= 2 * G - 1e-9
    assert run.exceeds_limits
    free = mbc.simulate_tracking(arm(), arm(), hold, 0 * hold, 0 * hold, 0.001, 100.0, 20.0)
    assert not free["pd_gravity"].exceeds_limits


def test_friction_of_the_true_robot_acts():
    friction = rl.JointFriction(viscous=2.0)
    rubbing = arm().replace(friction=friction)
    refs = sine_reference(2, 1001, 0.001)
    plain = mbc.simulate_tracking(
        arm(), arm(), *refs, 0.001, 100, 20, controllers="computed_torque"
    )
    rubbed = mbc.simulate_tracking(
        rubbing, arm(), *refs, 0.001, 100, 20, controllers="computed_torque"
    )
    # b θ̇ (up to 2 · 0.5 π rad/s) the model does not know makes a lag
    assert rubbed["computed_torque"].max_error > 10 * plain["computed_torque"].max_error


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"Kp": -5.0}, "Kp = -5 at joint 1: Kp must be positive for a stable closed loop"),
        ({"Kd": [20.0, 0.0]}, "Kd = 0 at joint 2: Kd must be positive"),
        ({"Ki": 3000.0}, r"unstable gains at joint 1: .* needs Kd·Kp > Ki \(Routh–Hurwitz\)"),
        ({"Ki": -1.0}, "Ki = -1 at joint 1"),
        ({"Kp": np.nan}, "Kp contains a non-finite value"),
        ({"Kp": [1.0, 2.0, 3.0]}, r"Kp must be a number or have shape \(2,\)"),
        ({"torque_limits": [10.0, -1.0]}, "torque_limits must be positive"),
        ({"torque_limits": [10.0]}, "torque_limits must be a number or have shape"),
        ({"controllers": ("pd", "lqr")}, "controllers must be among"),
        ({"controllers": ()}, "controllers must name at least one"),
        ({"integrator": "rk45"}, "integrator must be"),
        ({"integration_resolution": 0}, r"integration_resolution must be ≥ 1 \(integration steps"),
        ({"timestep": -0.001}, "timestep"),
        ({"estimated_robot": "ur5"}, "the estimated model has 6 joints"),
        ({"desired_joint_velocity_traj": np.zeros((5, 2))}, "same number of rows"),
        ({"desired_joint_position_traj": np.zeros(2)}, "must have shape"),
    ],
)
def test_bad_input_is_refused_with_a_message(changes, message):
    hold = np.zeros((11, 2))
    arguments = {
        "robot": arm(),
        "estimated_robot": arm(),
        "desired_joint_position_traj": hold,
        "desired_joint_velocity_traj": hold,
        "desired_joint_acceleration_traj": hold,
        "timestep": 0.001,
        "Kp": 100.0,
        "Kd": 20.0,
    }
    if changes.get("estimated_robot") == "ur5":
        changes = {"estimated_robot": rl.load_robot("ur5")}
    arguments.update(changes)
    with pytest.raises(ValueError, match=message):
        mbc.simulate_tracking(**arguments)


def test_gains_too_stiff_for_the_period_are_said_to_diverge():
    hold = np.tile([0.3, 0.0], (400, 1))
    with pytest.raises(rl.SimulationDiverged, match="computed_torque controller's closed loop"):
        mbc.simulate_tracking(
            arm(),
            arm(),
            hold,
            0 * hold,
            0 * hold,
            0.01,
            1e5,
            1e3,
            controllers="computed_torque",
            joint_positions=[0.0, 0.0],
        )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mbc.with_payload(arm(), -1.0), "mass must be a payload mass"),
        (lambda: mbc.scaled_inertias(arm(), 0.0), "factor must be a positive number"),
        (lambda: mbc.scaled_inertias(arm(), np.inf), "factor"),
        (
            lambda: rl.pd_gravity_torque(arm(), [0, 0, 0], [0, 0], [0, 0], [0, 0], 1, 1),
            "joint_positions",
        ),
    ],
)
def test_bad_models_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ----------------------------------------------- the book's form: simulate_control


def test_book_simulate_control_example():
    desired = np.array([[0.1] * 3, [0.2] * 3, [0.3] * 3])
    tau, _ = mbc.simulate_control(
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
    tau, positions = mbc.simulate_control(*arguments)
    np.testing.assert_allclose(tau, tau_book, atol=1e-8)
    np.testing.assert_allclose(positions, theta_book, atol=1e-10)


def quintic_reference(T, t, start, end):
    s = [rl.quintic_time_scaling(T, t, derivative=k) for k in (0, 1, 2)]
    return start + s[0] * (end - start), s[1] * (end - start), s[2] * (end - start)


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
        "Ki": 0.5,
        "Kd": 1,
        "timestep": 0.1,
        "integration_resolution": 1,
    }
    return rl.simulate_control(ur5(), **(arguments | changes))


@pytest.mark.parametrize(
    ("call", "message"),
    [
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
        (lambda: ur5_held_still(Kd=-1.0), "Kd = -1 at joint 1: Kd must be zero or positive"),
        (lambda: ur5_held_still(Ki=1.0), r"unstable gains at joint 1: .* got 1 ≤ 1"),
        (
            lambda: mbc.simulate_control(
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
def test_simulate_control_refuses_bad_input_with_a_message(call, message):
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
        true,
        [0.2],
        [0.0],
        None,
        hold,
        hold,
        hold,
        turntable(),
        36.0,
        0.0,
        12.0 - b / inertia,
        dt,
        4,
        integrator="rk4",
    )
    t = dt * np.arange(1, 1501)
    np.testing.assert_allclose(q[:, 0], 0.2 * (1 + 6 * t) * np.exp(-6 * t), atol=2e-3)
    # without the friction the same gains ring less damped: the result differs
    _, q_free = rl.simulate_control(
        turntable(),
        [0.2],
        [0.0],
        None,
        hold,
        hold,
        hold,
        turntable(),
        36.0,
        0.0,
        10.0,
        dt,
        4,
        integrator="rk4",
    )
    assert np.abs(q_free[:, 0] - q[:, 0]).max() > 1e-2


@pytest.mark.parametrize("integrator", ["euler", "semi_implicit_euler", "rk4"])
def test_simulate_control_takes_every_fixed_step_integrator(integrator):
    # θ̈_e = -K_p e - K_d ė exactly (a perfect model); every integrator converges to the
    # closed form e(t) = 0.2 (1 + 6 t) exp(-6 t) of ë + 12 ė + 36 e = 0.
    hold = np.zeros((1000, 1))
    _, q = rl.simulate_control(
        turntable(),
        [0.2],
        [0.0],
        None,
        hold,
        hold,
        hold,
        turntable(),
        36.0,
        0.0,
        12.0,
        1e-3,
        10,
        integrator=integrator,
    )
    t = 1e-3 * np.arange(1, 1001)
    np.testing.assert_allclose(q[:, 0], 0.2 * (1 + 6 * t) * np.exp(-6 * t), atol=3e-3)


def test_simulate_control_refuses_the_adaptive_integrator():
    hold = np.zeros((3, 1))
    with pytest.raises(ValueError, match="integrator must be 'euler', 'semi_implicit_euler' or"):
        rl.simulate_control(
            turntable(),
            [0.2],
            [0.0],
            None,
            hold,
            hold,
            hold,
            turntable(),
            1,
            0,
            1,
            1e-3,
            1,
            integrator="rk45",
        )


def test_simulate_control_is_the_loop_of_simulate_tracking_in_the_books_form():
    """Computed torque through both forms: the book's integral (∫θ_e + θ_e) and rows (the
    states reached) against tracking's (∫θ_e, the states at t_i), from the same start."""
    robot, estimated = (
        rl.load_robot("planar2r"),
        mbc.scaled_inertias(rl.load_robot("planar2r"), 0.9),
    )
    refs = sine_reference(2, 40, 0.01)
    q0 = refs[0][0] + 0.05
    tau_book, q_book = mbc.simulate_control(
        robot, q0, refs[1][0], None, *refs, estimated, 40.0, 0.0, 10.0, 0.01, 3
    )
    run = mbc.simulate_tracking(
        robot,
        estimated,
        *refs,
        0.01,
        40.0,
        10.0,
        controllers="computed_torque",
        joint_positions=q0,
        joint_velocities=refs[1][0],
        integrator="euler",
        integration_resolution=3,
    )["computed_torque"]
    # With K_i = 0 the two forms differ only in where their rows start
    np.testing.assert_allclose(run.joint_torques, tau_book, atol=1e-9)
    np.testing.assert_allclose(run.joint_positions[1:], q_book[:-1], atol=1e-12)
    # and in the book's form the integral term holds the current error
    with_integral, _ = mbc.simulate_control(
        robot, q0, refs[1][0], None, *refs, estimated, 40.0, 5.0, 10.0, 0.01, 3
    )
    model = rl.screw.dynamics.model.model_of(estimated)
    error = refs[0][0] - q0
    expected = rl.screw.control.laws.computed_torque_law(
        model,
        estimated.gravity,
        q0,
        refs[1][0],
        refs[2][0],
        40.0 * error + 5.0 * error + 10.0 * (refs[1][0] - refs[1][0]),
    )
    np.testing.assert_allclose(with_integral[0], expected, atol=1e-10)


# --------------------------------------------------------- issue 29: stiff gains, budgets, doors


def stiff_control(rows=100, **changes):
    """The issue's case: the planar 2R from (0.1, 0.2) held at 0 with Kp = 10⁶, Kd = 10³."""
    hold = np.zeros((rows, 2))
    arguments = {
        "joint_positions": [0.1, 0.2],
        "joint_velocities": [0.0, 0.0],
        "tip_wrench_traj": None,
        "desired_joint_position_traj": hold,
        "desired_joint_velocity_traj": hold,
        "desired_joint_acceleration_traj": hold,
        "estimated_robot": arm(),
        "Kp": 1e6,
        "Ki": 0.0,
        "Kd": 1e3,
        "timestep": 0.01,
        "integration_resolution": 1,
        **changes,
    }
    return mbc.simulate_control(arm(), **arguments)


def test_stiff_gains_in_simulate_control_raise_instead_of_returning_1e26_rad():
    """Issue 29, item 5: the run returned joint positions up to 1e26 rad; the first
    integration step that takes a joint speed past 10⁶ rad/s is named now, as
    simulate_tracking names a loop that ran away."""
    with pytest.raises(rl.SimulationDiverged) as info:
        stiff_control()
    message = str(info.value)
    assert re.fullmatch(
        r"the simulation diverged at step (\d) \(t = 0\.0\1 s\): joint \d's velocity reached \S+ "
        r"\(it was \S+ one step before\), over 1e\+06 \(a speed no arm reaches: the state ran "
        r"away\); try a smaller timestep \(now 0\.01 s\) or a larger integration_resolution "
        r"\(now 1\), or integrator='rk4'; or lower Kp and Kd \(gains too stiff for the time "
        r"step make the discrete loop unstable although the continuous one is not\)",
        message,
    ), message
    step = info.value.step
    # stopped one reference point earlier, the run is finite and under 10⁶ rad/s
    tau, q = stiff_control(rows=step - 1)
    assert np.isfinite(tau).all() and np.isfinite(q).all()
    # gains the time step can carry hold the arm: the error decays (Euler, Δt = 10 ms)
    tau, q = stiff_control(Kp=400.0, Kd=40.0)
    assert np.abs(q[-1]).max() < 1e-3


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"integration_resolution": 10**12}, ValueError, r"integration steps, more than the budg"),
        ({"integration_resolution": 2.0}, TypeError, r"integration_resolution must be an int"),
        ({"timestep": 1e-300}, ValueError, r"timestep must be at least 1e-09 s"),
        ({"tip_wrench_traj": [1e150] * 6}, ValueError, r"tip_wrench_traj holds 1e\+150 at index"),
        ({"joint_velocities": [0.0, 1e7]}, ValueError, r"joint_velocities holds 1e\+07 at index"),
        ({"Kp": -1.0}, ValueError, r"Kp = -1 at joint 1: Kp must be zero or positive"),
        ({"Ki": 1e9}, ValueError, r"unstable gains at joint 1"),
        ({"estimated_robot": None}, TypeError, r"estimated_robot must be a ScrewRobot"),
    ],
)
def test_simulate_control_refuses_what_it_cannot_run(changes, error, message):
    with pytest.raises(error, match=message):
        stiff_control(**changes)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"integration_resolution": "2"}, TypeError, r"integration_resolution must be an int ≥ 1"),
        ({"integration_resolution": 2.5}, TypeError, r"integration_resolution must be an int ≥ 1"),
        ({"integration_resolution": 10**12}, ValueError, r"more than the budget of 1,000,000"),
        ({"joint_velocities": [1e7, 0.0]}, ValueError, r"the initial joint velocities holds 1e"),
        ({"timestep": 2e9}, ValueError, r"timestep must be at most 1e\+09 s"),
    ],
)
def test_simulate_tracking_refuses_what_it_cannot_run(changes, error, message):
    hold = np.zeros((11, 2))
    with pytest.raises(error, match=message):
        mbc.simulate_tracking(
            arm(), arm(), hold, hold, hold, changes.pop("timestep", 0.001), 100.0, 20.0, **changes
        )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mbc.scaled_inertias(arm(), 1e308), r"factor must lie in \[0.001, 1000\]"),
        (lambda: mbc.scaled_inertias(arm(), 1e-300), r"factor must lie in \[0.001, 1000\]"),
        (lambda: mbc.with_payload(arm(), 1e308), r"payload mass of at most 1e\+06 kg"),
    ],
)
def test_model_errors_out_of_range_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
