"""Simulations stop with SimulationDiverged instead of returning NaN or infinite states.

A planar 2R arm pushed by a large torque with a 1 s time step, and a
pendulum under computed-torque control with gains far too stiff for the
time step, blow up; the error names the step, the time and the joint, and
suggests a smaller time step. Normal simulations give the same numbers as
the unchecked integration loop, bit for bit.
"""

import pickle
import re
import warnings

import numpy as np
import pytest

import robolab as rl
from robolab.screw.control import tracking as control
from robolab.screw.dynamics.model import dynamics_model
from robolab.screw.simulation import divergence, integrators
from robolab.screw.simulation import dynamics_trajectory as sim
from robolab.screw.simulation.divergence import SimulationDiverged

X = np.eye(4)
X[0, 3] = 1.0
ARM = rl.ScrewRobot(
    "2R",
    X @ X,
    [[0, 0], [0, 0], [1, 1], [0, 0], [0, -1], [0, 0]],
    [X, X, np.eye(4)],
    [np.diag([0, 0, 0, 1.0, 1.0, 1.0])] * 2,
    gravity=[0, -9.81, 0],
)
PUSH = [1000.0, -500.0]  # N·m: with Δt = 1 s Euler's method blows up after a few steps
PENDULUM = ([X, np.eye(4)], [np.diag([0, 0, 0, 1.0, 1.0, 1.0])])
PENDULUM_AXIS = [[0], [0], [1], [0], [0], [0]]
GRAVITY = [0, -9.81, 0]


def _pendulum_control(Kp, Kd, resolution, rows=1000, integrator="euler"):
    hold = np.zeros((rows, 1))
    return control.simulate_control(
        [0.5],
        [0.0],
        GRAVITY,
        None,
        *PENDULUM,
        PENDULUM_AXIS,
        hold,
        hold,
        hold,
        GRAVITY,
        *PENDULUM,
        Kp,
        0,
        Kd,
        0.01,
        resolution,
        integrator=integrator,
    )


@pytest.fixture(autouse=True)
def _no_warnings():
    """NumPy's overflow warnings are replaced by the error, never shown along with it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    assert not caught, [str(w.message) for w in caught]


def test_the_error_is_a_floating_point_error_and_a_value_error():
    # importable from the face and from the module of the trajectories, its home before
    assert rl.SimulationDiverged is sim.SimulationDiverged is SimulationDiverged
    assert issubclass(SimulationDiverged, FloatingPointError)
    assert issubclass(SimulationDiverged, ValueError)
    error = pickle.loads(pickle.dumps(SimulationDiverged("x", step=3, time=0.5, joint=2)))
    assert (str(error), error.step, error.time, error.joint) == ("x", 3, 0.5, 2)


def test_euler_trajectory_names_step_time_joint_and_timestep():
    with pytest.raises(SimulationDiverged) as info:
        rl.forward_dynamics_trajectory(ARM, [0.1, 0.2], [0.0, 0.0], [PUSH] * 200, 1.0, 1)
    message = str(info.value)
    assert re.fullmatch(
        r"the simulation diverged at step 8 \(t = 8 s\): joint 1's velocity became NaN "
        r"\(it was \S+e\+\d+ one step before\); try a smaller timestep \(now 1 s\) or a larger "
        r"integration_resolution \(now 1\), or integrator='rk4'",
        message,
    ), message
    assert (info.value.step, info.value.time, info.value.joint) == (8, 8.0, 1)


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
@pytest.mark.parametrize("resolution", [1, 3])
def test_the_reported_step_is_the_first_non_finite_one(integrator, resolution):
    """Up to the step before, the same simulation gives finite numbers: it returns them, or
    (issue 29) refuses them as a runaway (a speed over 10⁶ at an earlier step), never as a
    non-finite state; one row more fails at the step reported."""
    with pytest.raises(SimulationDiverged) as info:
        rl.forward_dynamics_trajectory(
            ARM, [0.1, 0.2], [0.0, 0.0], [PUSH] * 200, 1.0, resolution, integrator=integrator
        )
    assert "became NaN" in str(info.value) or "became inf" in str(info.value)
    step = info.value.step
    row = -(-step // resolution)  # the trajectory row the failing step leads to
    try:
        q, qd = rl.forward_dynamics_trajectory(
            ARM, [0.1, 0.2], [0.0, 0.0], [PUSH] * row, 1.0, resolution, integrator=integrator
        )
    except SimulationDiverged as shorter:
        assert re.search(
            r"velocity reached \S+ .*over 1e\+06 \(a speed no arm reaches: the "
            r"state ran away\)",
            str(shorter),
        ), str(shorter)
        assert shorter.step < step
    else:
        assert np.isfinite(q).all() and np.isfinite(qd).all()
        assert np.abs(qd).max() <= 1e6
    with pytest.raises(SimulationDiverged, match=f"step {step} "):
        rl.forward_dynamics_trajectory(
            ARM, [0.1, 0.2], [0.0, 0.0], [PUSH] * (row + 1), 1.0, resolution, integrator=integrator
        )
    assert info.value.time == pytest.approx(step / resolution)
    if resolution > 1:
        assert f"between rows {row - 1} and {row} of the trajectory" in str(info.value)
        assert "integration_resolution (now 3)" in str(info.value)
    if integrator == "rk4":
        assert "integrator='rk4'" not in str(info.value)


def test_rk4_with_several_steps_per_row():
    with pytest.raises(SimulationDiverged) as info:
        rl.forward_dynamics_trajectory(
            ARM, [0.1, 0.2], [0.0, 0.0], [PUSH] * 200, 1.0, 4, integrator="rk4"
        )
    assert re.match(
        r"the simulation diverged at integration step 3 \(t = 0\.75 s, between rows 0 and 1 of "
        r"the trajectory\): joint 1's velocity became NaN",
        str(info.value),
    ), str(info.value)


@pytest.mark.parametrize("robots", [3, 60])  # 60: the structure-of-arrays kernels of big batches
def test_a_batch_names_the_robot_that_diverged(robots):
    torques = np.zeros((200, robots, 2))
    torques[:, 2] = PUSH
    start = np.tile([0.1, 0.2], (robots, 1))
    with pytest.raises(SimulationDiverged, match=r"at step 8 \(t = 8 s\) \(batch index \(2,\)\)"):
        rl.forward_dynamics_trajectory(ARM, start, np.zeros_like(start), torques, 1.0, 1)


def test_array_form_diverges_too():
    with pytest.raises(SimulationDiverged, match=r"at step 8 \(t = 8 s\): joint 1's velocity"):
        sim.forward_dynamics_trajectory(
            [0.1, 0.2],
            [0.0, 0.0],
            [PUSH] * 50,
            GRAVITY,
            None,
            ARM.link_frames,
            ARM.spatial_inertias,
            ARM.screw_axes_space,
            1.0,
            1,
        )


def test_stiff_pd_gains_in_simulate_control():
    """Kp = 10⁶, Kd = 10³ with Δt = 10 ms: Euler's method multiplies the error by ~9 a step.

    The pendulum's velocity would go on to ~1e304 (and the simulation return that garbage
    a row before the torque overflows); since issue 29 the first integration step that
    takes a joint speed past 10⁶ rad/s is named instead, as simulate_tracking does.
    """
    with pytest.raises(SimulationDiverged) as info:
        _pendulum_control(1e6, 1e3, 4)
    assert re.fullmatch(
        r"the simulation diverged at integration step 9 \(t = 0\.0225 s, on the way to row 2 "
        r"of the result\): joint 1's velocity reached -2\.35\d*e\+06 \(it was \S+ one step "
        r"before\), over 1e\+06 \(a speed no arm reaches: the state ran away\); try a smaller "
        r"timestep \(now 0\.01 s\) or a larger integration_resolution \(now 4\), or "
        r"integrator='rk4'; or lower Kp and Kd \(gains too stiff for the time step make the "
        r"discrete loop unstable although the continuous one is not\)",
        str(info.value),
    ), str(info.value)
    assert (info.value.step, info.value.joint) == (9, 1)
    # One reference point earlier the same simulation returns finite numbers that have not
    # run away (integration steps 1 to 8).
    tau, q = _pendulum_control(1e6, 1e3, 4, rows=2)
    assert np.isfinite(tau).all() and np.isfinite(q).all()


def test_a_torque_that_overflows_is_named():
    """Gains so stiff that the torque overflows before a row is recorded (Kp = 10²⁰⁰)."""
    with pytest.raises(SimulationDiverged) as info:
        _pendulum_control(1e200, 1e3, 1)
    assert re.match(
        r"the simulation diverged at reference point 2 \(t = 0\.02 s\): the controller's "
        r"torque on joint 1 became inf, with joint velocities up to \S+e\+19\d \(gains too stiff",
        str(info.value),
    ), str(info.value)


def test_robot_first_simulate_control():
    hold = np.zeros((50, 2))
    with pytest.raises(SimulationDiverged, match=r"joint 1's velocity became NaN"):
        rl.simulate_control(
            ARM, [0.5, 0.0], [0.0, 0.0], None, hold, hold, hold, ARM, 1e300, 0, 1e3, 0.01, 3
        )


def test_single_steps():
    with pytest.raises(
        SimulationDiverged,
        match=r"^the Euler step of 10 s diverged: joint 1's velocity became inf; try a smaller "
        r"timestep \(now 10 s\)$",
    ):
        rl.euler_step([0.0], [1e308], [1e308], 10.0)
    with pytest.raises(
        SimulationDiverged, match=r"^the Euler step of 10 s diverged: joint 2's position became"
    ):
        rl.euler_step([0.0, 1e308], [0.0, 1e308], [0.0, 0.0], 10.0)
    with pytest.raises(SimulationDiverged, match=r"batch index \(1,\)"):
        rl.euler_step([[0.0], [0.0]], [[0.0], [1e308]], [[0.0], [1e308]], 10.0)
    # 10¹² N·m, the largest torque accepted (issue 29: 1e200 is refused at the door)
    with pytest.raises(SimulationDiverged, match=r"^the Runge–Kutta step of 1 s diverged: joint"):
        rl.runge_kutta4_step(ARM, [0.1, 0.2], [0.0, 0.0], [1e12, 0.0], 1.0)
    with pytest.raises(SimulationDiverged, match=r"^the Runge–Kutta step of 1 s diverged: joint"):
        integrators.runge_kutta4_step(
            [0.1, 0.2],
            [0.0, 0.0],
            [1e12, 0.0],
            GRAVITY,
            np.zeros(6),
            ARM.link_frames,
            ARM.spatial_inertias,
            ARM.screw_axes_space,
            1.0,
        )


def _unchecked(model, q, qd, tau, timestep, resolution, integrator):
    """The integration loop without any check: what the simulation computed before."""
    positions, velocities = [q], [qd]
    for row in tau[:-1]:
        dynamics = integrators.closed_form_dynamics(model, row, np.array(GRAVITY, float), None)
        for _ in range(resolution):
            q, qd = integrators.advance(dynamics, q, qd, timestep / resolution, integrator)
        positions.append(q)
        velocities.append(qd)
    return np.array(positions), np.array(velocities)


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
@pytest.mark.parametrize("rows", [1, 2, 32, 33, 34, 100])  # around the blocks of checked rows
def test_normal_simulations_are_unchanged(integrator, rows):
    rng = np.random.default_rng(rows)
    tau = rng.normal(scale=5.0, size=(rows, 2))
    q, qd = rl.forward_dynamics_trajectory(
        ARM, [0.1, 0.2], [0.3, -0.1], tau, 0.01, 2, integrator=integrator
    )
    model = dynamics_model(ARM.link_frames, ARM.spatial_inertias, ARM.screw_axes_space)
    want_q, want_qd = _unchecked(
        model, np.array([0.1, 0.2]), np.array([0.3, -0.1]), tau, 0.01, 2, integrator
    )
    np.testing.assert_array_equal(q, want_q)
    np.testing.assert_array_equal(qd, want_qd)


def test_normal_control_is_unchanged_and_stable_gains_do_not_raise():
    tau, q = _pendulum_control(400, 40, 1, rows=200)
    assert np.isfinite(tau).all() and np.abs(q).max() <= 0.5
    _, q4 = _pendulum_control(400, 40, 1, rows=200, integrator="rk4")
    assert np.abs(q4[-1]).max() < 1e-3


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
@pytest.mark.parametrize("rows", [5, 40, 100])
def test_the_readable_loop_equals_the_generated_one_and_finds_the_same_step(integrator, rows):
    """forward_dynamics_trajectory asks the generated loop first; the readable loop runs
    where it gives up. Both give the same numbers, bit for bit, and the same error."""
    rng = np.random.default_rng(rows)
    tau = rng.normal(scale=5.0, size=(rows, 2))
    model = dynamics_model(ARM.link_frames, ARM.spatial_inertias, ARM.screw_axes_space)
    start = np.array([0.1, 0.2]), np.array([0.3, -0.1])
    g = np.array(GRAVITY, float)
    fast = sim.simulate_kernel(model, *start, tau, g, None, 0.01, 2, integrator)
    readable = sim.integrate_rows(model, *start, tau, g, None, 0.01, 2, integrator)
    np.testing.assert_array_equal(fast[0], readable[0])
    np.testing.assert_array_equal(fast[1], readable[1])
    push = np.array([PUSH] * max(rows, 20))  # Euler and RK4 leave the numbers by row 9
    errors = []
    for run in (sim.simulate_kernel, sim.integrate_rows):
        with pytest.raises(SimulationDiverged) as info:
            run(model, *start, push, g, None, 1.0, 1, integrator)
        errors.append((str(info.value), info.value.step))
    assert errors[0] == errors[1]


def test_one_locator_for_trajectories_and_control():
    """locate repeats an interval's steps from its finite start and names the first bad one."""

    def step(q, qd):
        return q + qd, qd * np.array([1.0, 1e160])

    error = divergence.locate(
        step,
        np.zeros(2),
        np.array([1.0, 1e100]),
        3,
        (None, None),
        0.5,
        4,
        "rk4",
        "on the way to row 3 of the result",
    )
    assert (error.step, error.joint) == (3 * 4 + 2, 2)
    assert error.time == pytest.approx(3 * 0.5 + 2 * 0.125)
    assert "on the way to row 3 of the result" in str(error)
    assert "integrator='rk4'" not in str(error)


def test_a_finite_row_that_ran_away_is_found_and_named():
    """Rows whose speeds pass RUNAWAY_SPEED (10⁶ rad/s) are bad though finite (issue 29)."""
    assert divergence.RUNAWAY_SPEED == 1e6
    velocities = np.zeros((6, 2))
    velocities[4, 1] = -2e6
    velocities[5, 0] = 3e6
    assert divergence.first_runaway_row(velocities, 1, 6, 1e6) == 4
    assert divergence.first_runaway_row(velocities, 1, 4, 1e6) == -1
    assert divergence.non_finite_entry(np.zeros(2), velocities[4], 1e6) == (
        (),
        2,
        "velocity",
        "-2e+06",
    )
    assert divergence.sane(np.zeros(2), velocities[3], 1e6)
    assert not divergence.sane(np.zeros(2), velocities[4], 1e6)
    assert divergence.sane(np.zeros(2), velocities[4])  # without a limit: finite is enough
    error = divergence.locate(
        lambda q, qd: (q + qd, 10.0 * qd),
        np.zeros(2),
        np.array([1.0, 10.0]),
        0,
        (None, None),
        1.0,
        8,
        "euler",
        "x",
        1e6,
    )
    # joint 2: 10 → 1e2, 1e3, 1e4, 1e5, 1e6 (not over), 1e7 at step 6
    assert (error.step, error.joint, error.time) == (6, 2, 0.75)
    assert "velocity reached 1e+07 (it was 1e+06 one step before), over 1e+06" in str(error)
