"""Dynamics along trajectories (Modern Robotics, section 8.5): torques and the motion under them.

References: the printed examples of the book library's
ForwardDynamicsTrajectory and InverseDynamicsTrajectory (the values printed
in ModernRoboticsBook.jl's documentation for the three-link arm) and
``modern_robotics`` on longer runs; conservation of energy for a torque-free,
frictionless arm under gravity.
"""

import re

import modern_robotics as mr
import numpy as np
import pytest
from reference.screw_arms import three_link_book, ur5

import robolab as rl
from robolab.screw.dynamics.model import model_of
from robolab.screw.simulation import dynamics_trajectory as sim
from robolab.screw.simulation.integrators import advance, closed_form_dynamics

FRAMES, INERTIAS, SCREWS = three_link_book()
TORQUES = np.array(
    [
        [3.63, -6.58, -5.57],
        [3.74, -5.55, -5.5],
        [4.31, -0.68, -5.19],
        [5.18, 5.63, -4.31],
        [5.85, 8.17, -2.59],
        [5.78, 2.79, -1.7],
        [4.99, -5.3, -1.19],
        [4.08, -9.41, 0.07],
        [3.56, -10.1, 0.97],
        [3.49, -9.41, 1.23],
    ]
)


def test_book_forward_dynamics_trajectory_example():
    args = ([0.1, 0.1, 0.1], [0.1, 0.2, 0.3])
    arrays = (FRAMES, INERTIAS, SCREWS)
    q, qd = sim.forward_dynamics_trajectory(
        *args, TORQUES[:3], [0, 0, -9.8], np.ones((3, 6)), *arrays, 0.1, 8
    )
    printed = [[0.1, 0.1, 0.1], [0.106431, 0.2626, -0.226649], [0.10198, 0.715813, -1.22522]]
    np.testing.assert_allclose(q, printed, atol=5e-6)
    # The whole ten-step run of the book's Python example, against its code.
    q, qd = sim.forward_dynamics_trajectory(
        *args, TORQUES, [0, 0, -9.8], np.ones((10, 6)), *arrays, 0.1, 8
    )
    q_book, qd_book = mr.ForwardDynamicsTrajectory(
        np.array(args[0]),
        np.array(args[1]),
        TORQUES,
        [0, 0, -9.8],
        np.ones((10, 6)),
        *arrays,
        0.1,
        8,
    )
    np.testing.assert_allclose(q, q_book, atol=1e-10)
    np.testing.assert_allclose(qd, qd_book, atol=1e-9)


def test_book_inverse_dynamics_trajectory_example():
    positions = [[0, 0, 0], [0.5, 0.5, 0.5], [1, 1, 1]]
    accelerations = [[0.5, 0.5, 0.5]] * 3
    tau = sim.inverse_dynamics_trajectory(
        positions, positions, accelerations, [0, 0, -9.8], np.ones((3, 6)), FRAMES, INERTIAS, SCREWS
    )
    printed = [
        [23.7113, -35.2321, -3.87345],
        [105.336, -27.6441, -1.41169],
        [129.143, -17.3084, 2.30991],
    ]
    np.testing.assert_allclose(tau, printed, atol=5e-4)
    trajectory = np.array(mr.JointTrajectory(np.zeros(3), np.full(3, np.pi / 2), 3, 60, 5))
    velocity = np.gradient(trajectory, axis=0)
    expected = mr.InverseDynamicsTrajectory(
        trajectory, velocity, velocity, [0, 0, -9.8], np.ones((60, 6)), FRAMES, INERTIAS, SCREWS
    )
    np.testing.assert_allclose(
        sim.inverse_dynamics_trajectory(
            trajectory, velocity, velocity, [0, 0, -9.8], [1] * 6, FRAMES, INERTIAS, SCREWS
        ),
        expected,
        atol=1e-10,
    )


def total_energy(robot, q, qd):
    return rl.kinetic_energy(robot, q, qd) + rl.potential_energy(robot, q)


def test_rk4_conserves_energy_of_a_torque_free_arm():
    # One second of the UR5 swinging under gravity at 1 kHz, no torques, no friction. Measured:
    # RK4 drifts by about 1e-8 J while the kinetic energy sweeps over 50 J; Euler's method
    # gains or loses about 0.6 J.
    robot = ur5()
    q0, qd0 = np.linspace(0.3, -0.6, 6), np.linspace(1.0, -0.5, 6)
    torques = np.zeros((1001, 6))
    q, qd = rl.forward_dynamics_trajectory(robot, q0, qd0, torques, 1e-3, 1, integrator="rk4")
    energy = total_energy(robot, q, qd)
    drift = np.abs(energy - energy[0]).max()
    swing = np.ptp(rl.kinetic_energy(robot, q, qd))
    assert swing > 10.0, "the arm must actually move for the test to mean something"
    assert drift < 1e-6, f"RK4 energy drift {drift:.3g} J over 1 s"
    q_euler, qd_euler = rl.forward_dynamics_trajectory(robot, q0, qd0, torques, 1e-3, 1)
    euler_drift = np.abs(total_energy(robot, q_euler, qd_euler) - energy[0]).max()
    assert euler_drift > 1e3 * drift


def test_many_robots_simulated_at_once_equal_one_by_one():
    robot = ur5()
    rng = np.random.default_rng(8)
    q0, qd0 = rng.uniform(-1, 1, (2, 5, 6))
    torques = rng.uniform(-5, 5, (20, 5, 6))
    q, qd = rl.forward_dynamics_trajectory(robot, q0, qd0, torques, 0.01, 2, integrator="rk4")
    assert q.shape == qd.shape == (20, 5, 6)
    for i in (0, 4):
        q_i, qd_i = rl.forward_dynamics_trajectory(
            robot, q0[i], qd0[i], torques[:, i], 0.01, 2, integrator="rk4"
        )
        np.testing.assert_allclose(q[:, i], q_i, atol=1e-12)
        np.testing.assert_allclose(qd[:, i], qd_i, atol=1e-11)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: rl.forward_dynamics_trajectory(
                ur5(), np.zeros(6), np.zeros(6), np.zeros((5, 6)), 0.01, 0
            ),
            ValueError,
            r"integration_resolution must be ≥ 1 \(integration steps per timestep\), got 0",
        ),
        (
            lambda: rl.forward_dynamics_trajectory(
                ur5(), np.zeros(6), np.zeros(6), np.zeros((5, 6)), 0.01, 2.5
            ),
            TypeError,
            "integration_resolution must be an int ≥ 1",
        ),
        (
            lambda: rl.forward_dynamics_trajectory(
                ur5(), np.zeros(6), np.zeros(6), np.zeros((5, 6)), 0.01, 1, integrator="rk2"
            ),
            ValueError,
            "integrator must be 'euler', 'semi_implicit_euler', 'rk4' or 'rk45', got 'rk2'",
        ),
        (
            lambda: rl.forward_dynamics_trajectory(
                ur5(), np.zeros(6), np.zeros(6), np.zeros((5, 5)), 0.01, 1
            ),
            ValueError,
            r"joint_torque_traj must have shape \(N, 6\): one row per trajectory point, "
            r"got shape \(5, 5\)",
        ),
        (
            lambda: rl.forward_dynamics_trajectory(
                ur5(),
                np.zeros(6),
                np.zeros(6),
                np.zeros((5, 6)),
                0.01,
                1,
                tip_wrench_traj=np.zeros((4, 6)),
            ),
            ValueError,
            "tip_wrench_traj must have 5 rows like the other trajectories, got 4",
        ),
        (
            lambda: rl.inverse_dynamics_trajectory(
                ur5(), np.zeros((5, 6)), np.zeros((4, 6)), np.zeros((5, 6))
            ),
            ValueError,
            "joint_velocity_traj must have 5 rows like the other trajectories, got 4",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------ issue 29: bounded runs, no finite garbage

PLANAR = rl.load_robot("planar2r")


@pytest.mark.parametrize(("integrator", "rows"), [("euler", 3), ("rk4", 2)])
def test_rows_that_ran_away_are_refused_though_finite(integrator, rows):
    """Rows of 100 s gave θ ≈ 1e17 rad: the first step whose joint speed passes 10⁶ rad/s
    is named (a block of rows that also holds NaN rows names the first non-finite step)."""
    with pytest.raises(rl.SimulationDiverged) as info:
        rl.forward_dynamics_trajectory(
            PLANAR, [0.1, 0.2], [0.0, 0.0], np.zeros((rows, 2)), 100.0, 1, integrator=integrator
        )
    assert re.match(
        r"the simulation diverged at step \d \(t = \d+ s\): joint \d's velocity reached \S+ "
        r"\(it was \S+ one step before\), over 1e\+06 \(a speed no arm reaches: the state ran "
        r"away\); try a smaller timestep \(now 100 s\)",
        str(info.value),
    ), str(info.value)
    step = info.value.step
    # the steps before it stay under 10⁶ rad/s, the step itself passes it
    model = model_of(PLANAR)
    q, qd = np.array([0.1, 0.2]), np.zeros(2)
    dynamics = closed_form_dynamics(model, np.zeros(2), np.array(PLANAR.gravity), None)
    for _ in range(step - 1):
        q, qd = advance(dynamics, q, qd, 100.0, integrator)
    assert np.isfinite(q).all() and np.abs(qd).max() <= 1e6
    q, qd = advance(dynamics, q, qd, 100.0, integrator)
    assert np.isfinite(qd).all() and np.abs(qd).max() > 1e6


def test_the_generated_and_the_readable_loop_refuse_the_same_runaway():
    model = model_of(PLANAR)
    g = np.array(PLANAR.gravity)
    start = np.array([0.1, 0.2]), np.zeros(2)
    errors = []
    for run in (sim.simulate_kernel, sim.integrate_rows):
        with pytest.raises(rl.SimulationDiverged) as info:
            run(model, *start, np.zeros((2, 2)), g, None, 100.0, 1, "rk4")
        errors.append((str(info.value), info.value.step))
    assert errors[0] == errors[1]
    assert "ran away" in errors[0][0]


@pytest.mark.parametrize(
    ("rows", "resolution", "timestep", "message"),
    [
        (3, 10**12, 0.01, r"2 timesteps × integration_resolution 1,000,000,000,000 = "),
        (1_000_002, 1, 0.01, r"= 1,000,001 integration steps, more than the budget of 1,000,000"),
        (2, 10**6, 1e-4, r"timestep / integration_resolution = 1e-10 s must be at least 1e-09"),
    ],
)
def test_the_integration_steps_of_a_call_are_bounded(rows, resolution, timestep, message):
    torques = np.broadcast_to(np.zeros(2), (rows, 2))
    for integrator in ("euler", "rk45"):
        with pytest.raises(ValueError, match=message):
            rl.forward_dynamics_trajectory(
                PLANAR,
                [0.1, 0.2],
                [0.0, 0.0],
                torques,
                timestep,
                resolution,
                integrator=integrator,
            )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"joint_velocities": [1e7, 0.0]}, r"joint_velocities holds 1e\+07 at index \(0,\): an "),
        ({"joint_torque_traj": [[0.0, 1e150]] * 3}, r"joint_torque_traj holds 1e\+150 at index "),
        ({"tip_wrench_traj": [1e150] * 6}, r"tip_wrench_traj holds 1e\+150 at index \(0, 0\)"),
        ({"timestep": 1e-300}, r"timestep must be at least 1e-09 s"),
    ],
)
def test_doors_of_the_trajectory(changes, message):
    arguments = {
        "joint_positions": [0.1, 0.2],
        "joint_velocities": [0.0, 0.0],
        "joint_torque_traj": np.zeros((3, 2)),
        "timestep": 0.01,
        "integration_resolution": 1,
        **changes,
    }
    for integrator in ("euler", "rk45"):
        with pytest.raises(ValueError, match=message):
            rl.forward_dynamics_trajectory(PLANAR, integrator=integrator, **arguments)
