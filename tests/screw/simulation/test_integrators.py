"""The integrators by name (chapter 10): one step against closed forms, orders, energy, SciPy;
the book's EulerStep (its printed example) and the RK4 step of a robot (fourth order).

References, none computed by robolab: the exact one-step maps of the three fixed-step
methods on the harmonic oscillator θ̈ = -θ (explicit Euler (1, -h), semi-implicit Euler
(1 - h², -h), RK4 the degree-4 Taylor polynomial of the exact flow); the pendulum
θ̈ = -(g/L) cos θ integrated by SciPy's ``solve_ivp`` at tight tolerances; SciPy's own
RK45 run of the UR5 with the Modern Robotics library's ``mr.ForwardDynamics`` as the
right-hand side; Pinocchio's kinetic and potential energies along the simulated motion.
"""

import math
import re

import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.pinocchio_screw import pinocchio_from_screw
from reference.screw_arms import panda_like, three_link_book, ur5
from scipy.integrate import solve_ivp

import robolab as rl
from robolab.screw.simulation import integrators
from robolab.screw.simulation.integrators import advance

G = 9.81
FRAMES, INERTIAS, SCREWS = three_link_book()


def pendulum(length=1.0, mass=1.0, friction=None):
    """A point mass at ``length`` from a revolute joint about z, gravity along -y."""
    x = np.eye(4)
    x[0, 3] = length
    return rl.ScrewRobot(
        "pendulum",
        x,
        [[0], [0], [1], [0], [0], [0]],
        [x, np.eye(4)],
        [np.diag([0, 0, 0, mass, mass, mass])],
        gravity=[0, -G, 0],
        friction=friction,
    )


def pendulum_reference(theta0, times, length=1.0):
    """θ(t) of θ̈ = -(g/L) cos θ from rest, by SciPy (rtol = atol = 1e-12)."""
    solution = solve_ivp(
        lambda t, x: [x[1], -(G / length) * math.cos(x[0])],
        (0.0, times[-1]),
        [theta0, 0.0],
        t_eval=times,
        rtol=1e-12,
        atol=1e-12,
        method="DOP853",
    )
    return solution.y[0], solution.y[1]


@pytest.mark.parametrize("h", [0.1, 0.01, 0.3])
def test_one_step_on_the_harmonic_oscillator_is_the_closed_form(h):
    oscillator = lambda q, qd: -q  # noqa: E731
    expected = {
        "euler": (1.0, -h),
        "semi_implicit_euler": (1.0 - h * h, -h),
        "rk4": (1 - h**2 / 2 + h**4 / 24, -h + h**3 / 6),
    }
    for name, (q_exact, qd_exact) in expected.items():
        q, qd = advance(oscillator, np.array([1.0]), np.array([0.0]), h, name)
        assert q[0] == pytest.approx(q_exact, abs=1e-15), name
        assert qd[0] == pytest.approx(qd_exact, abs=1e-15), name


def test_names_are_the_four_of_the_issue():
    assert rl.INTEGRATORS == ("euler", "semi_implicit_euler", "rk4", "rk45")


@pytest.mark.parametrize(("name", "order"), [("euler", 1), ("semi_implicit_euler", 1), ("rk4", 4)])
def test_order_of_convergence_on_a_pendulum(name, order):
    robot = pendulum()
    errors = []
    for dt in (0.01, 0.005):
        run = rl.simulate(robot, [0.3], duration=1.0, timestep=dt, integrator=name)
        exact, _ = pendulum_reference(0.3, run.times)
        errors.append(np.abs(run.joint_positions[:, 0] - exact).max())
    ratio = errors[0] / errors[1]
    assert 2**order * 0.8 < ratio < 2**order * 1.25, (name, errors)


@pytest.mark.parametrize("name", rl.INTEGRATORS)
def test_every_integrator_follows_scipys_pendulum(name):
    robot = pendulum(length=0.5)
    run = rl.simulate(robot, [-0.2], duration=0.5, timestep=0.001, integrator=name)
    exact, exact_velocity = pendulum_reference(-0.2, run.times, length=0.5)
    tolerance = {"euler": 1e-2, "semi_implicit_euler": 1e-2, "rk4": 1e-9, "rk45": 1e-7}[name]
    np.testing.assert_allclose(run.joint_positions[:, 0], exact, atol=tolerance)
    np.testing.assert_allclose(run.joint_velocities[:, 0], exact_velocity, atol=10 * tolerance)


def test_explicit_euler_gains_energy_semi_implicit_euler_keeps_it_bounded():
    """A pendulum (constant M: a separable Hamiltonian) over 20 s at 10 ms."""
    robot = pendulum()
    explicit = rl.simulate(robot, [0.5], duration=20.0, timestep=0.01, integrator="euler")
    symplectic = rl.simulate(
        robot, [0.5], duration=20.0, timestep=0.01, integrator="semi_implicit_euler"
    )
    # the exact energy, m g L sin θ0 at rest, by hand
    exact = -(-G * math.sin(0.5))  # P = -m gᵀ r = m g y with y = L sin θ
    assert symplectic.energy[0] == pytest.approx(G * math.sin(0.5), abs=1e-12)
    assert exact == pytest.approx(G * math.sin(0.5), abs=1e-12)
    half = len(symplectic.times) // 2
    first = np.abs(symplectic.energy[:half] - symplectic.energy[0]).max()
    second = np.abs(symplectic.energy[half:] - symplectic.energy[0]).max()
    assert second < 1.5 * first  # bounded: no growth from the first 10 s to the next
    assert symplectic.energy_drift < 0.1 * explicit.energy_drift
    assert explicit.energy[-1] > explicit.energy[half] > explicit.energy[0]  # it grows


def test_rk4_on_the_frictionless_ur5_keeps_the_energy_pinocchio_computes():
    """1 s of the dropped UR5 at 1 ms (the 5 s run is in benchmarks/bench_integrators.py)."""
    robot = ur5()
    q0 = np.array([0.0, -0.5, 0.8, -0.3, 0.6, 0.0])
    run = rl.simulate(robot, q0, duration=1.0, timestep=0.001, integrator="rk4")
    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    rows = range(0, len(run.times), 50)
    energy = []
    for k in rows:
        q, qd = run.joint_positions[k], run.joint_velocities[k]
        kinetic = pin.computeKineticEnergy(model, data, q, qd)
        potential = pin.computePotentialEnergy(model, data, q)
        energy.append(kinetic + potential)
        assert run.kinetic_energy[k] == pytest.approx(kinetic, abs=1e-9)
        assert run.potential_energy[k] == pytest.approx(potential, abs=1e-9)
    energy = np.array(energy)
    peak_kinetic = run.kinetic_energy.max()
    assert peak_kinetic > 1.0  # it really fell
    assert np.abs(energy - energy[0]).max() / peak_kinetic < 1e-6
    assert run.relative_energy_drift < 1e-6


def test_rk45_matches_scipys_own_run_with_the_books_forward_dynamics():
    robot = ur5()
    q0 = np.array([0.3, -0.8, 1.0, 0.2, -0.4, 0.1])
    times = np.linspace(0.0, 0.3, 31)
    run = rl.simulate(
        robot, q0, duration=0.3, timestep=0.01, integrator="rk45", rtol=1e-8, atol=1e-8
    )
    frames, inertias, screws = robot.link_frames, robot.spatial_inertias, robot.screw_axes_space

    def rate(_t, x):
        qdd = mr.ForwardDynamics(
            x[:6], x[6:], np.zeros(6), robot.gravity, np.zeros(6), frames, inertias, screws
        )
        return np.concatenate([x[6:], qdd])

    scipy_run = solve_ivp(
        rate,
        (0, 0.3),
        np.concatenate([q0, np.zeros(6)]),
        method="RK45",
        t_eval=times,
        rtol=1e-8,
        atol=1e-8,
    )
    np.testing.assert_allclose(run.times, times, atol=1e-15)
    np.testing.assert_allclose(run.joint_positions, scipy_run.y[:6].T, atol=1e-7)
    np.testing.assert_allclose(run.joint_velocities, scipy_run.y[6:].T, atol=1e-6)


@pytest.mark.parametrize("name", ["semi_implicit_euler", "rk45"])
def test_forward_dynamics_trajectory_takes_the_new_names(name):
    """The book's arrays; the reference is a hand loop / SciPy over mr.ForwardDynamics."""
    robot = ur5()
    args = (
        robot.gravity,
        np.zeros(6),
        robot.link_frames,
        robot.spatial_inertias,
        robot.screw_axes_space,
    )
    q0, qd0 = np.array([0.1, -0.4, 0.5, 0.0, 0.3, 0.0]), np.array([0.2, 0.0, -0.1, 0, 0, 0.3])
    torques = np.tile([1.0, -2.0, 0.5, 0.1, 0.0, 0.05], (6, 1))
    q, qd = rl.forward_dynamics_trajectory(robot, q0, qd0, torques, 0.01, 4, integrator=name)
    expected_q, expected_qd = [q0], [qd0]
    state_q, state_qd = q0.copy(), qd0.copy()
    for row in range(5):
        if name == "semi_implicit_euler":
            for _ in range(4):
                qdd = mr.ForwardDynamics(state_q, state_qd, torques[row], *args)
                state_qd = state_qd + 0.0025 * qdd
                state_q = state_q + 0.0025 * state_qd
        else:

            def rate(_t, x, tau=torques[row]):
                qdd = mr.ForwardDynamics(x[:6], x[6:], tau, *args)
                return np.concatenate([x[6:], qdd])

            x = solve_ivp(
                rate,
                (0, 0.01),
                np.concatenate([state_q, state_qd]),
                rtol=1e-9,
                atol=1e-9,
                max_step=0.0025,
            ).y[:, -1]
            state_q, state_qd = x[:6], x[6:]
        expected_q.append(state_q)
        expected_qd.append(state_qd)
    np.testing.assert_allclose(q, expected_q, atol=1e-8)
    np.testing.assert_allclose(qd, expected_qd, atol=1e-7)


def test_explicit_euler_with_a_huge_step_diverges_with_a_clear_error():
    with pytest.raises(rl.SimulationDiverged, match=r"diverged .* joint \d's velocity"):
        rl.simulate(
            ur5(), np.zeros(6), np.full(6, 50.0), duration=200.0, timestep=0.5, integrator="euler"
        )


def test_a_singular_mass_matrix_gets_a_clear_error():
    x = np.eye(4)
    x[0, 3] = 1.0
    massless = rl.ScrewRobot(
        "massless", x, [[0], [0], [1], [0], [0], [0]], [x, np.eye(4)], [np.zeros((6, 6))]
    )
    for name in rl.INTEGRATORS:
        with pytest.raises(ValueError, match=r"mass matrix M.* is singular .* joint 1"):
            rl.simulate(massless, [0.0], duration=0.01, timestep=0.001, integrator=name)


@settings(max_examples=60, deadline=None)
@given(
    h=st.floats(1e-4, 0.5),
    q=st.floats(-3, 3),
    qd=st.floats(-3, 3),
    omega=st.floats(0.1, 5.0),
)
def test_one_step_maps_of_the_oscillator_are_the_closed_forms(h, q, qd, omega):
    """θ̈ = -ω²θ: each method's step is a known 2×2 matrix on (θ, θ̇)."""
    w2 = omega * omega
    maps = {
        "euler": [[1, h], [-w2 * h, 1]],
        "semi_implicit_euler": [[1 - w2 * h * h, h], [-w2 * h, 1]],
        # RK4: the degree-4 Taylor polynomial of exp(hA), A = [[0, 1], [-ω², 0]]
        "rk4": [
            [1 - (w2 * h**2) / 2 + (w2 * h**2) ** 2 / 24, h - w2 * h**3 / 6],
            [-w2 * h + w2**2 * h**3 / 6, 1 - (w2 * h**2) / 2 + (w2 * h**2) ** 2 / 24],
        ],
    }
    for name, matrix in maps.items():
        new_q, new_qd = advance(lambda a, b: -w2 * a, np.array([q]), np.array([qd]), h, name)
        expected = np.array(matrix) @ [q, qd]
        np.testing.assert_allclose([new_q[0], new_qd[0]], expected, atol=1e-12)


# ------------------------------------------------ the book's steps of a robot


def test_book_euler_step_example():
    q, qd = rl.euler_step([0.1, 0.1, 0.1], [0.1, 0.2, 0.3], [2, 1.5, 1], 0.1)
    np.testing.assert_allclose(q, [0.11, 0.12, 0.13], atol=1e-15)
    np.testing.assert_allclose(qd, [0.3, 0.35, 0.4], atol=1e-15)


def test_runge_kutta_step_is_fourth_order():
    robot = panda_like()
    q0, qd0, tau = np.full(7, 0.3), np.full(7, -0.4), np.linspace(-5, 5, 7)
    reference = (q0, qd0)
    for _ in range(64):  # a fine reference solution over 0.064 s
        reference = rl.runge_kutta4_step(robot, *reference, tau, 0.001)
    errors = []
    for steps in (4, 8):
        state = (q0, qd0)
        for _ in range(steps):
            state = rl.runge_kutta4_step(robot, *state, tau, 0.064 / steps)
        errors.append(np.abs(state[0] - reference[0]).max())
    assert 10 < errors[0] / errors[1] < 24  # 2⁴ = 16


def test_robot_first_and_array_forms_agree():
    robot = ur5(gravity=(0.2, 0.0, -9.7))
    q, qd, tau = np.full(6, 0.2), np.full(6, 0.1), np.linspace(-3, 3, 6)
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    ours = rl.runge_kutta4_step(robot, q, qd, tau, 0.01, tip_wrench=np.ones(6))
    theirs = integrators.runge_kutta4_step(q, qd, tau, robot.gravity, np.ones(6), *arrays, 0.01)
    np.testing.assert_allclose(ours, theirs, atol=1e-14)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rl.euler_step([0, 0], [0, 0, 0], [0, 0], 0.1),
            r"joint_velocities must have shape \(2,\) or \(\.\.\., 2\)",
        ),
        (lambda: rl.euler_step([0, 0], [0, 0], [0, 0], 0.0), "timestep must be positive, got 0"),
        (
            lambda: rl.runge_kutta4_step(ur5(), np.zeros(6), np.zeros(6), np.zeros(6), -0.1),
            "timestep must be positive, got -0.1",
        ),
    ],
)
def test_bad_steps_are_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_euler_step_is_the_euler_step_of_advance():
    rng = np.random.default_rng(3)
    q, qd, qdd = rng.normal(size=(3, 4, 3))
    np.testing.assert_array_equal(
        rl.euler_step(q, qd, qdd, 0.01), advance(lambda _q, _qd: qdd, q, qd, 0.01, "euler")
    )


# ------------------------------------------------ issue 29: finite garbage, budgets, doors


def test_one_rk4_step_of_100_s_runs_away_instead_of_returning_garbage():
    """One RK4 step of 100 s of the dropped planar 2R gave θ ≈ 1e17 rad; a step that takes a
    joint speed from at most 10⁶ rad/s to more is refused (issue 29, item 8)."""
    arm = rl.load_robot("planar2r")
    with pytest.raises(rl.SimulationDiverged) as info:
        rl.runge_kutta4_step(arm, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0], 100.0)
    assert re.fullmatch(
        r"the Runge–Kutta step of 100 s diverged: joint \d's velocity reached \S+, over 1e\+06 "
        r"\(a speed no arm reaches: the state ran away\); try a smaller timestep \(now 100 s\)",
        str(info.value),
    ), str(info.value)
    assert (info.value.step, info.value.time) == (1, 100.0)


def test_a_step_far_longer_than_the_motion_is_refused_though_slow_and_finite():
    """The pendulum's θ̈ = -(g/L) cos θ is bounded, so a 2 s step does not run away; it is
    still garbage (the exact fall from 0.1 rad swings back up by t = 2 s): two steps of
    1 s end further from it than it moves the state, and that is said."""
    with pytest.raises(rl.SimulationDiverged) as info:
        rl.runge_kutta4_step(pendulum(), [0.1], [0.0], [0.0], 2.0)
    assert re.match(
        r"the Runge–Kutta step of 2 s is far too long for the motion: two steps of 1 s give "
        r"joint 1's (position|velocity) \S+ where the step gives \S+, further apart than either "
        r"is from the start",
        str(info.value),
    ), str(info.value)
    # Steps within the motion's time scale are untouched: against SciPy's pendulum
    times = np.array([0.0, 0.1])
    theta, omega = pendulum_reference(0.1, times)
    q, qd = rl.runge_kutta4_step(pendulum(), [0.1], [0.0], [0.0], 0.1)
    assert q[0] == pytest.approx(theta[-1], abs=1e-5)
    assert qd[0] == pytest.approx(omega[-1], abs=1e-4)


def test_an_euler_step_that_runs_away_is_refused_and_one_that_starts_fast_is_not():
    with pytest.raises(rl.SimulationDiverged, match=r"velocity reached 1e\+07, over 1e\+06"):
        rl.euler_step([0.0], [0.0], [1e8], 0.1)
    q, qd = rl.euler_step([0.0], [2e6], [0.0], 0.1)  # it was that fast already: arithmetic
    assert (q[0], qd[0]) == (2e5, 2e6)


def stiff(q, qd):
    """θ̈ = -10⁸ θ̇: a damping so steep that an explicit solver crawls in 10⁻⁸ s steps."""
    return -1e8 * qd


def test_the_adaptive_run_is_bounded_by_its_budget_of_evaluations():
    budget = integrators.AdaptiveBudget(600)
    with pytest.raises(FloatingPointError) as info:
        integrators.solve_ivp_interval(
            stiff, np.zeros(1), np.ones(1), np.array([0.0, 1.0]), budget=budget
        )
    assert budget.used == 600
    assert re.match(
        r"solve_ivp \(RK45\) spent its budget of 600 evaluations of the dynamics by t = \S+ s "
        r"of \[0, 1\] s: the motion is too stiff for an explicit solver",
        str(info.value),
    ), str(info.value)
    # a mild motion within the same budget: e⁻ᵗ of θ̇ = -θ̇... θ̇(1) = e⁻¹
    _, qd = integrators.solve_ivp_interval(
        lambda q, qd: -qd,
        np.zeros(1),
        np.ones(1),
        np.array([0.0, 1.0]),
        budget=integrators.AdaptiveBudget(600),
    )
    assert qd[-1, 0] == pytest.approx(math.exp(-1.0), rel=1e-7)


def test_the_default_budget_is_documented_and_grows_with_the_forced_steps():
    assert integrators.adaptive_budget().limit == integrators.ADAPTIVE_EVALUATIONS == 100_000
    assert integrators.adaptive_budget(10).limit == 100_000 + 120


def test_rk45_stops_where_a_joint_speed_passes_a_million():
    """θ̈ = 10⁹ from rest reaches 10⁶ rad/s at t = 10⁻³ s, where the solver stops."""
    with pytest.raises(FloatingPointError) as info:
        integrators.solve_ivp_interval(
            lambda q, qd: np.full_like(q, 1e9), np.zeros(2), np.zeros(2), np.array([0.0, 1.0])
        )
    match = re.fullmatch(
        r"joint \d's velocity reached 1e\+06 at t = (\S+) s \(a speed no arm reaches: the "
        r"state ran away\)",
        str(info.value),
    )
    assert match, str(info.value)
    assert float(match.group(1)) == pytest.approx(1e-3, rel=1e-6)


def test_a_tiny_friction_smoothing_with_rk45_spends_the_budget_not_hours(monkeypatch):
    """Issue 29, item 7: ε = 1e-9 hung; it is refused now, and the smallest ε accepted with a
    large Coulomb level makes the solver crawl until it has spent its budget (made small
    here so that the test is quick)."""
    monkeypatch.setattr(integrators, "ADAPTIVE_EVALUATIONS", 3000)
    sticky = pendulum(friction=rl.JointFriction(coulomb=100.0, smoothing=1e-6))
    with pytest.raises(rl.SimulationDiverged, match=r"spent its budget of 3,000 evaluations"):
        rl.simulate(sticky, [0.3], duration=1.0, timestep=0.01, integrator="rk45")
    with pytest.raises(rl.SimulationDiverged, match=r"spent its budget of 3,\d{3} evaluations"):
        rl.forward_dynamics_trajectory(
            sticky, [0.3], [0.0], np.zeros((3, 1)), 0.01, 1, integrator="rk45"
        )


@pytest.mark.parametrize("integrator", ["rk45", "rk4"])
def test_huge_torques_are_refused_at_the_door(integrator):
    for torque in (1e150, -2e12):
        with pytest.raises(ValueError, match=r"joint_torques holds \S+ at index \(0,\): applied "):
            rl.simulate(
                pendulum(),
                [0.1],
                duration=1.0,
                timestep=0.01,
                integrator=integrator,
                joint_torques=[torque],
            )
    with pytest.raises(ValueError, match=r"joint_torques holds 1e\+150 at index \(0,\)"):
        rl.runge_kutta4_step(pendulum(), [0.1], [0.0], [1e150], 0.01)
    with pytest.raises(ValueError, match=r"tip_wrench holds 1e\+13 at index \(5,\)"):
        rl.runge_kutta4_step(pendulum(), [0.1], [0.0], [0.0], 0.01, tip_wrench=[0] * 5 + [1e13])


@pytest.mark.parametrize(
    ("rtol", "atol", "error", "message"),
    [
        (1e-300, 1e-9, ValueError, r"rtol must lie in \[1e-13, 1\)"),
        (10.0, 1e-9, ValueError, r"rtol must lie in \[1e-13, 1\) .* got 10"),
        (1e-6, 2.0, ValueError, r"atol must lie in \(0, 1\) .* got 2"),
        (1e-6, -1.0, ValueError, r"rtol and atol must be positive, got 1e-06 and -1"),
        ("x", 1e-9, TypeError, r"rtol must be a real number, got the text 'x'"),
        (1e-6, None, TypeError, r"atol must be a real number, got None"),
    ],
)
def test_tolerances_are_checked_even_when_unused(rtol, atol, error, message):
    for name in ("rk45", "rk4"):
        with pytest.raises(error, match=message):
            rl.simulate(
                pendulum(),
                [0.1],
                duration=0.1,
                timestep=0.01,
                integrator=name,
                rtol=rtol,
                atol=atol,
            )


@pytest.mark.parametrize(
    ("timestep", "message"),
    [
        (1e-300, r"timestep must be at least 1e-09 s \(a nanosecond"),
        (1e300, r"timestep must be at most 1e\+09 s"),
        (float("nan"), r"timestep contains a non-finite value"),
        (-1.0, r"timestep must be positive, got -1"),
    ],
)
def test_timesteps_out_of_range_are_refused(timestep, message):
    with pytest.raises(ValueError, match=message):
        rl.runge_kutta4_step(pendulum(), [0.1], [0.0], [0.0], timestep)
    with pytest.raises(ValueError, match=message):
        rl.euler_step([0.0], [0.0], [0.0], timestep)
