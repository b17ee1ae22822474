"""Model-based control (robolab.screw.control.tracking) against outside references.

References: ``modern_robotics.SimulateControl``/``ComputedTorque``/``GravityForces``
(the book's library, Lynch & Park, *Modern Robotics* §11.4); the analytic solution of
the error ODE ë + K_d ė + K_p e = 0 that computed torque with an exact model imposes
(MR eq. 11.35ff; Spong, Hutchinson & Vidyasagar §9.4); the planar 2R's closed-form
gravity torques and mass matrix (Spong §7.4.2, links of mass m, length l, centre at
l/2, inertia m l²/12 about it; g = 9.81 in the arm's plane).
"""

import modern_robotics as mr
import numpy as np
import pytest
from reference import planar_elbow as elbow

import robolab as rl
from robolab.screw.control import tracking as mbc

G = elbow.G


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


@pytest.mark.parametrize("q", [[0.0, 0.0], [0.4, -1.1], [2.0, 0.7]])
def test_pd_gravity_torque_is_pd_plus_books_gravity_forces(q):
    robot = rl.load_robot("ur5") if len(q) == 6 else arm()
    frames, inertias, S = book_arrays(robot)
    q = np.array(q)
    qd, q_d, qd_d = np.array([0.3, -0.2]), q + np.array([0.1, -0.05]), np.array([0.0, 0.4])
    tau = mbc.pd_gravity_torque(robot, q, qd, q_d, qd_d, 50.0, [8.0, 6.0])
    expected = (
        50.0 * (q_d - q)
        + np.array([8.0, 6.0]) * (qd_d - qd)
        + mr.GravityForces(q, robot.gravity, frames, inertias, S)
    )
    np.testing.assert_allclose(tau, expected, atol=1e-10)
    np.testing.assert_allclose(
        mbc.pd_gravity_torque(robot, q, 0 * q, q, 0 * q, 1, 1), gravity_2r(q), atol=1e-10
    )


def test_pd_gravity_torque_on_the_ur5_matches_the_book():
    robot = rl.load_robot("ur5")
    frames, inertias, S = book_arrays(robot)
    rng = np.random.default_rng(13)
    q, qd, q_d = rng.uniform(-1, 1, (3, 6))
    tau = mbc.pd_gravity_torque(robot, q, qd, q_d, np.zeros(6), 30.0, 4.0)
    expected = 30 * (q_d - q) - 4 * qd + mr.GravityForces(q, robot.gravity, frames, inertias, S)
    np.testing.assert_allclose(tau, expected, atol=1e-9)


@pytest.mark.parametrize("payload", [0.5, 2.0])
def test_payload_matches_the_closed_form_2r(payload):
    loaded = mbc.with_payload(arm(), payload)
    for q in ([0.0, 0.0], [0.7, -1.3], [-2.2, 2.5]):
        q = np.array(q)
        np.testing.assert_allclose(
            mbc.pd_gravity_torque(loaded, q, 0 * q, q, 0 * q, 1, 1),
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
        q0, qd0, robot.gravity, np.zeros((N, 6)), frames, inertias, S, q_d, qd_d, qdd_d,
        estimated.gravity, est_frames, est_inertias, Kp, 0.0, Kd, dt, res,
    )  # fmt: skip


@pytest.mark.parametrize(("name", "factor", "payload"), [("planar2r", 0.8, 0.0), ("ur5", 1.2, 0.5)])
def test_computed_torque_matches_modern_robotics_simulate_control(
    name, factor, payload, monkeypatch
):
    monkeypatch.setattr("matplotlib.pyplot.show", lambda *a, **k: None)
    robot = mbc.with_payload(rl.load_robot(name), payload) if payload else rl.load_robot(name)
    estimated = mbc.scaled_inertias(rl.load_robot(name), factor)
    n, N, dt = len(robot.spatial_inertias), 60, 0.01
    refs = sine_reference(n, N, dt)
    q0, qd0 = refs[0][0] + 0.05, refs[1][0]
    tau_mr, q_mr = mr_simulate(robot, estimated, q0, qd0, refs, dt, 4, 40.0, 10.0)
    runs = mbc.simulate_tracking(
        robot, estimated, *refs, dt, 40.0, 10.0, controllers="computed_torque",
        joint_positions=q0, joint_velocities=qd0, integrator="euler", integration_resolution=4,
    )  # fmt: skip
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
        robot, estimated, *refs, 0.01, [30, 31, 32, 33, 34, 35], 7.0, joint_positions=q0,
        joint_velocities=qd0,
    )["computed_torque"]  # fmt: skip
    expected = mr.ComputedTorque(
        q0, qd0, np.zeros(6), estimated.gravity, est_frames, est_inertias, S, refs[0][0],
        refs[1][0], refs[2][0], np.arange(30, 36.0), 0.0, 7.0,
    )  # fmt: skip
    np.testing.assert_allclose(run.joint_torques[0], expected, atol=1e-9)


@pytest.mark.parametrize(("Kp", "Kd"), [(100.0, 20.0), (64.0, 4.0), (25.0, 30.0)])
def test_exact_model_error_follows_the_linear_error_ode(Kp, Kd):
    """ë + K_d ė + K_p e = 0 from e(0) = e0, ė(0) = 0, solved analytically."""
    dt, T = 0.0005, 1.5
    N = round(T / dt) + 1
    refs = sine_reference(2, N, dt)
    e0 = np.array([0.1, -0.08])
    run = mbc.simulate_tracking(
        arm(), arm(), *refs, dt, Kp, Kd, controllers="computed_torque",
        joint_positions=refs[0][0] - e0, joint_velocities=refs[1][0], integrator="rk4",
    )["computed_torque"]  # fmt: skip
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
        arm(), arm(), hold, 0 * hold, 0 * hold, 0.001, 200.0, 40.0,
        controllers=("pd", "pd_gravity"), joint_positions=[0.0, 0.0],
    )  # fmt: skip
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
        arm(), arm(), hold, 0 * hold, 0 * hold, 0.001, 100.0, 20.0,
        controllers=("pd_gravity",), torque_limits=[15.0, 10.0],
    )  # fmt: skip
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
        ({"Kp": -5.0}, "Kp = -5 on joint 1 makes the closed loop unstable"),
        ({"Kd": [20.0, 0.0]}, "Kd = 0 on joint 2 makes the closed loop unstable"),
        ({"Ki": 3000.0}, "stable only if K_i < K_p K_d"),
        ({"Ki": -1.0}, "Ki = -1 on joint 1"),
        ({"Kp": np.nan}, "Kp contains a non-finite value"),
        ({"Kp": [1.0, 2.0, 3.0]}, r"Kp must be a number or have shape \(2,\)"),
        ({"torque_limits": [10.0, -1.0]}, "torque_limits must be positive"),
        ({"torque_limits": [10.0]}, "torque_limits must be a number or have shape"),
        ({"controllers": ("pd", "lqr")}, "controllers must be among"),
        ({"controllers": ()}, "controllers must name at least one"),
        ({"integrator": "rk45"}, "integrator must be"),
        ({"integration_resolution": 0}, "integration_resolution must be a whole number"),
        ({"timestep": -0.001}, "timestep"),
        ({"estimated_robot": "ur5"}, "the estimated model has 6 joints"),
        ({"desired_joint_velocity_traj": np.zeros((5, 2))}, "same number of rows"),
        ({"desired_joint_position_traj": np.zeros(2)}, "must have shape"),
    ],
)
def test_bad_input_is_refused_with_a_message(changes, message):
    hold = np.zeros((11, 2))
    arguments = {
        "robot": arm(), "estimated_robot": arm(), "desired_joint_position_traj": hold,
        "desired_joint_velocity_traj": hold, "desired_joint_acceleration_traj": hold,
        "timestep": 0.001, "Kp": 100.0, "Kd": 20.0,
    }  # fmt: skip
    if changes.get("estimated_robot") == "ur5":
        changes = {"estimated_robot": rl.load_robot("ur5")}
    arguments.update(changes)
    with pytest.raises(ValueError, match=message):
        mbc.simulate_tracking(**arguments)


def test_gains_too_stiff_for_the_period_are_said_to_diverge():
    hold = np.tile([0.3, 0.0], (400, 1))
    with pytest.raises(rl.SimulationDiverged, match="computed_torque controller's closed loop"):
        mbc.simulate_tracking(
            arm(), arm(), hold, 0 * hold, 0 * hold, 0.01, 1e5, 1e3, controllers="computed_torque",
            joint_positions=[0.0, 0.0],
        )  # fmt: skip


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mbc.with_payload(arm(), -1.0), "mass must be a payload mass"),
        (lambda: mbc.scaled_inertias(arm(), 0.0), "factor must be a positive number"),
        (lambda: mbc.scaled_inertias(arm(), np.inf), "factor"),
        (
            lambda: mbc.pd_gravity_torque(arm(), [0, 0, 0], [0, 0], [0, 0], [0, 0], 1, 1),
            "joint_positions",
        ),
    ],
)
def test_bad_models_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
