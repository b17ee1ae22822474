"""One geared joint under PD/PID control (robolab/screw/control/independent_joint.py).

References outside robolab: the closed-form step response of a second-order system and its
measures (Ogata §5.3: overshoot exp(-ζπ/√(1-ζ²)), peak time π/ω_d; rise and settling times
found by root finding on the closed form), the PD steady-state error under a constant load
(SHV §6.3: θ_ss = θ_d - d/(r K_p)), and SciPy's ``solve_ivp`` on the joint's ODE written
here from SHV eq. J θ̈_m + B θ̇_m = u - d/r, with the saturation and gravity as written.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

import robolab
from robolab import JointActuator, simulate_joint, step_response_metrics

MOTOR = JointActuator(200e-6, 0.817e-3, 107.815)  # Corke's Puma joint 2 motor, no torque limit
LINK = 1.2  # kg·m²


def second_order_step(t, zeta, wn):
    """Ogata §5.3: the unit step of ω_n²/(s² + 2ζω_n s + ω_n²), 0 < ζ < 1."""
    wd = wn * math.sqrt(1 - zeta**2)
    return 1 - np.exp(-zeta * wn * t) * (
        np.cos(wd * t) + zeta / math.sqrt(1 - zeta**2) * np.sin(wd * t)
    )


@settings(max_examples=25, deadline=None, derandomize=True)
@given(zeta=st.floats(0.2, 0.9), wn=st.floats(5.0, 50.0))
def test_metrics_of_the_exact_second_order_step(zeta, wn):
    wd = wn * math.sqrt(1 - zeta**2)
    t = np.linspace(0.0, 12.0 / (zeta * wn), 60001)
    m = step_response_metrics(t, second_order_step(t, zeta, wn), 1.0)
    assert m.overshoot == pytest.approx(
        100 * math.exp(-zeta * math.pi / math.sqrt(1 - zeta**2)), abs=1e-4
    )
    assert m.peak_time == pytest.approx(math.pi / wd, abs=t[1])

    def y(s):
        return float(second_order_step(np.array(s), zeta, wn))

    tp = math.pi / wd
    rise = brentq(lambda s: y(s) - 0.9, 0, tp) - brentq(lambda s: y(s) - 0.1, 0, tp)
    assert m.rise_time == pytest.approx(rise, abs=1e-6 / wn + 1e-6)
    # the exact 2 % settling time: the last crossing of |y - 1| = 0.02 (the envelope bounds it)
    dense = np.linspace(0, 12.0 / (zeta * wn), 600001)
    outside = np.nonzero(np.abs(second_order_step(dense, zeta, wn) - 1) > 0.02)[0][-1]
    a, b = dense[outside], dense[outside + 1]
    sign = 1.0 if y(a) > 1 else -1.0
    settle = brentq(lambda s: sign * (y(s) - 1) - 0.02, a, b)
    assert m.settling_time == pytest.approx(settle, abs=2 * t[1])
    envelope = -math.log(0.02 * math.sqrt(1 - zeta**2)) / (zeta * wn)
    assert m.settling_time <= envelope + 1e-9
    assert abs(m.steady_state_error) < 1e-3


def test_pd_step_is_the_closed_form_second_order_response():
    kp, kd = 0.5, 0.004
    J, B = MOTOR.reflected_inertia(LINK), MOTOR.reflected_damping()
    assert abs(J - (200e-6 + 1.2 / 107.815**2)) < 1e-15
    run = simulate_joint(MOTOR, link_inertia=LINK, Kp=kp, Kd=kd, target=0.2, duration=1.0)
    wn, zeta = math.sqrt(kp / J), (B + kd) / (2 * math.sqrt(kp * J))
    assert run.natural_frequency == pytest.approx(wn, abs=1e-9)
    assert run.damping_ratio == pytest.approx(zeta, abs=1e-12)
    np.testing.assert_allclose(
        run.positions, 0.2 * second_order_step(run.times, zeta, wn), atol=1e-10
    )
    # Ogata's formulas on the simulated samples (1 kHz: peak time to a sample)
    m = run.metrics
    assert m.overshoot == pytest.approx(
        100 * math.exp(-zeta * math.pi / math.sqrt(1 - zeta**2)), abs=0.05
    )
    assert m.peak_time == pytest.approx(math.pi / (wn * math.sqrt(1 - zeta**2)), abs=1e-3)


def test_pd_steady_state_error_under_a_constant_load_and_pid_removes_it():
    kp, kd, load = 0.5, 0.01, 30.0
    pd = simulate_joint(
        MOTOR, link_inertia=LINK, Kp=kp, Kd=kd, target=0.2, duration=3.0, disturbance=load
    )
    r = MOTOR.gear_ratio
    assert pd.metrics.steady_state_error == pytest.approx(load / (r**2 * kp), abs=1e-8)
    pid = simulate_joint(
        MOTOR, link_inertia=LINK, Kp=kp, Kd=kd, Ki=2.0, target=0.2, duration=6.0, disturbance=load
    )
    assert abs(pid.metrics.steady_state_error) < 1e-6


def _reference(kp, kd, ki, limit, gravity, target, duration, windup=False):
    """solve_ivp of [θ_m, θ̇_m, ∫e] with the saturated PID and d = G cos(θ_m / r)."""
    J, B, r = MOTOR.reflected_inertia(LINK), MOTOR.motor_damping, MOTOR.gear_ratio

    def rhs(_t, x):
        u = kp * (r * target - x[0]) - kd * x[1] + ki * x[2]
        saturated = abs(u) > limit
        u = float(np.clip(u, -limit, limit))
        grow = 0.0 if (windup and saturated) else r * target - x[0]
        return [x[1], (u - B * x[1] - gravity * math.cos(x[0] / r) / r) / J, grow]

    t = np.arange(round(duration / 1e-3) + 1) * 1e-3
    sol = solve_ivp(rhs, (0, duration), [0, 0, 0], t_eval=t, max_step=2e-4, rtol=1e-9, atol=1e-12)
    return sol.y[0] / r


@pytest.mark.parametrize("windup", [False, True])
def test_gravity_and_saturation_follow_the_ode(windup):
    actuator = JointActuator(200e-6, 0.817e-3, 107.815, 0.6)
    run = simulate_joint(
        actuator,
        link_inertia=LINK,
        Kp=0.5,
        Kd=0.01,
        Ki=1.0,
        target=0.5,
        duration=1.5,
        gravity_torque=25.0,
        anti_windup=windup,
    )
    assert run.saturated.any()
    assert np.abs(run.motor_torque).max() <= 0.6 + 1e-12
    q = _reference(0.5, 0.01, 1.0, 0.6, 25.0, 0.5, 1.5, windup)
    np.testing.assert_allclose(run.positions, q, atol=2e-3)


def test_anti_windup_cuts_the_overshoot_of_a_saturated_step():
    actuator = JointActuator(200e-6, 0.817e-3, 107.815, 0.3)
    common = dict(link_inertia=LINK, Kp=0.5, Kd=0.01, Ki=1.5, target=1.0, duration=3.0)
    wound = simulate_joint(actuator, **common)
    clean = simulate_joint(actuator, anti_windup=True, **common)
    assert wound.metrics.overshoot > clean.metrics.overshoot + 5.0


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ((-1e-4, 0.0, 100.0, 1.0), "motor_inertia must be positive"),
        ((1e-4, -1.0, 100.0, 1.0), "motor_damping must be zero or positive"),
        ((1e-4, 0.0, 0.5, 1.0), "gear_ratio must be at least 1"),
        ((1e-4, 0.0, 100.0, 0.0), "torque_limit must be positive"),
        ((1e-4, 0.0, float("nan"), 1.0), "gear_ratio"),
    ],
)
def test_bad_actuators_are_refused(arguments, words):
    with pytest.raises(ValueError, match=words):
        JointActuator(*arguments)


def test_bad_gains_and_loads_are_refused():
    base = dict(link_inertia=LINK, Kp=0.5, Kd=0.01, target=0.1, duration=1.0)
    with pytest.raises(ValueError, match="unstable gains"):
        simulate_joint(MOTOR, **{**base, "Kd": 0.0, "Ki": 5.0})
    with pytest.raises(ValueError, match="Kd must be zero or positive"):
        simulate_joint(MOTOR, **{**base, "Kd": -0.1})
    with pytest.raises(ValueError, match="Kp must be positive"):
        simulate_joint(MOTOR, **{**base, "Kp": 0.0})
    with pytest.raises(ValueError, match="link_inertia must be zero or positive"):
        simulate_joint(MOTOR, **{**base, "link_inertia": -1.0})
    with pytest.raises(TypeError, match="JointActuator"):
        simulate_joint("motor", **base)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="target must differ"):
        step_response_metrics([0, 1], [1.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="same length"):
        step_response_metrics([0, 1, 2], [0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="strictly increasing"):
        step_response_metrics([0, 0], [0.0, 1.0], 1.0)


def test_a_marginal_routh_hurwitz_boundary_is_unstable():
    """(B + Kd) Kp = J Ki exactly: a pair of poles on the imaginary axis."""
    J, B = MOTOR.reflected_inertia(LINK), MOTOR.motor_damping
    kp, kd = 0.5, 0.01
    ki = (B + kd) * kp / J
    roots = np.roots([J, B + kd, kp, ki])
    assert np.abs(roots.real).min() < 1e-6  # the boundary of SciPy-free Routh–Hurwitz
    with pytest.raises(ValueError, match="unstable gains"):
        simulate_joint(
            MOTOR, link_inertia=LINK, Kp=kp, Kd=kd, Ki=ki * 1.001, target=0.1, duration=0.5
        )
    run = simulate_joint(
        MOTOR, link_inertia=LINK, Kp=kp, Kd=kd, Ki=ki * 0.5, target=0.1, duration=0.5
    )
    assert np.isfinite(run.positions).all()


# --- the whole arm: simulate_joints against Pinocchio with the rotors as armature ------------


def _pinocchio_run(robot, r, jm, bm, limit, kp, kd, ki, target, duration):
    """solve_ivp over pin.aba (armature r² J_m) of the same saturated PID at each motor."""
    import pinocchio as pin
    from reference.pinocchio_screw import pinocchio_from_screw

    model, _ = pinocchio_from_screw(robot)
    model.armature = r**2 * jm
    data = model.createData()
    n = model.nv

    def rhs(_t, x):
        q, v, z = x[:n], x[n : 2 * n], x[2 * n :]
        u = np.clip(kp * r * (target - q) - kd * r * v + ki * z, -limit, limit)
        accel = pin.aba(model, data, q, v, r * u - r**2 * bm * v)
        return np.concatenate([v, accel, r * (target - q)])

    t = np.arange(round(duration / 1e-3) + 1) * 1e-3
    sol = solve_ivp(
        rhs, (0, duration), np.zeros(3 * n), t_eval=t, rtol=1e-10, atol=1e-12, max_step=1e-3
    )
    return sol.y[:n].T


@pytest.mark.parametrize(("limit", "tolerance"), [(math.inf, 1e-7), (0.8, 2e-3)])
def test_simulate_joints_on_the_puma_against_pinocchio(limit, tolerance):
    from robolab import simulate_joints

    puma = robolab.load_robot("puma560")
    r = np.array([62.6, 107.8, 53.7, 76.0, 71.9, 76.7])  # Corke's puma560 gear ratios
    jm = np.full(6, 200e-6)
    bm = np.array([1.48e-3, 0.817e-3, 1.38e-3, 71.2e-6, 82.6e-6, 36.7e-6])
    motors = [JointActuator(a, b, c, limit) for a, b, c in zip(jm, bm, r, strict=True)]
    kp, kd, ki = 0.4, 0.01, 0.3
    target = np.array([0.3, -0.2, 0.4, 0.2, -0.3, 0.5])
    run = simulate_joints(puma, motors, Kp=kp, Kd=kd, Ki=ki, target=target, duration=0.6)
    lim = np.full(6, limit)
    q = _pinocchio_run(puma, r, jm, bm, lim, kp, kd, ki, target, 0.6)
    np.testing.assert_allclose(run.positions, q, atol=tolerance)
    assert np.abs(run.motor_torque).max() <= limit + 1e-12
    if math.isfinite(limit):
        assert run.saturated.any()


def test_simulate_joints_refuses_bad_input():
    from robolab import simulate_joints

    arm = robolab.load_robot("planar2r")
    motor = JointActuator(1e-4, 1e-4, 100.0)
    base = dict(Kp=0.5, Kd=0.02, target=[0.1, 0.1], duration=0.1)
    with pytest.raises(ValueError, match="2 JointActuator"):
        simulate_joints(arm, [motor], **base)
    with pytest.raises(ValueError, match="Kd must be zero or positive"):
        simulate_joints(arm, [motor] * 2, **{**base, "Kd": [-1.0, 0.0]})
    with pytest.raises(ValueError, match="unstable gains at joint 1"):
        simulate_joints(arm, [motor] * 2, **{**base, "Kd": 0.0, "Ki": 100.0})
    with pytest.raises(TypeError, match="ScrewRobot"):
        simulate_joints("arm", [motor] * 2, **base)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(5))
def test_the_zero_order_hold_exponential_matches_scipy(seed):
    """simulate_joint's own matrix exponential (no BLAS: no OpenBLAS threads woken) is SciPy's."""
    from scipy.linalg import expm

    from robolab.screw.control.independent_joint import matrix_exponential

    rng = np.random.default_rng(seed)
    # A·Δt of a joint's loop: from a soft joint at 1 ms (~1e-3) to a stiff one at 20 ms (~5);
    # the scaling and squaring then runs 0 to 5 squarings.
    for scale in (1e-3, 0.1, 1.0, 5.0):
        block = rng.normal(size=(5, 5)) * scale
        expected = expm(block)
        np.testing.assert_allclose(
            matrix_exponential(block), expected, rtol=1e-11, atol=1e-13 * np.abs(expected).max()
        )


def test_the_old_keywords_still_work_with_a_warning():
    """kp, kd, ki and initial were renamed Kp, Kd, Ki and joint_position(s) (one vocabulary)."""
    with pytest.warns(DeprecationWarning, match="still works for now"):
        old = simulate_joint(
            MOTOR, link_inertia=LINK, kp=0.5, Kd=0.01, target=0.1, duration=0.2, initial=0.05
        )
    new = simulate_joint(
        MOTOR, link_inertia=LINK, Kp=0.5, Kd=0.01, target=0.1, duration=0.2, joint_position=0.05
    )
    np.testing.assert_array_equal(old.positions, new.positions)
    assert new.positions[0] == pytest.approx(0.05)
    from robolab import simulate_joints

    arm = robolab.load_robot("planar2r")
    motors = [JointActuator(1e-4, 1e-4, 100.0)] * 2
    with pytest.warns(DeprecationWarning, match="still works for now"):
        run = simulate_joints(
            arm, motors, Kp=0.5, Kd=0.02, target=[0.1, 0.1], duration=0.01, initial=[0.05, 0.0]
        )
    np.testing.assert_allclose(run.positions[0], [0.05, 0.0])


# --------------------------------------------------------- issue 29: bounded, in range


def _joint(**changes):
    arguments = dict(link_inertia=1.2, Kp=0.5, Kd=0.01, target=0.1, duration=0.1) | changes
    return simulate_joint(MOTOR, **arguments)


def _arm(actuators=None, **changes):
    """simulate_joints of the planar 2R behind two 100:1 gears (PD), with ``changes``."""
    if actuators is None:
        actuators = [JointActuator(1e-4, 1e-4, 100.0, 5.0)] * 2
    arguments = dict(Kp=0.5, Kd=0.02, target=[0.3, -0.2], duration=1.0) | changes
    return robolab.simulate_joints(robolab.load_robot("planar2r"), actuators, **arguments)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: _joint(timestep=1e-300), ValueError, r"= 1e\+299 steps is too many \(at most 1"),
        (lambda: _joint(duration=1e300), ValueError, r"steps is too many \(at most 10,000,000"),
        (lambda: _joint(target=1e308), ValueError, r"target must be at most 1e\+06 rad in size"),
        (lambda: _joint(joint_position=-2e6), ValueError, r"joint_position must be at most 1e\+06"),
        (lambda: JointActuator(1e-4, gear_ratio=1e308), ValueError, r"gear_ratio must be at least"),
        (
            lambda: _arm("none"),
            TypeError,
            r"actuators must be a list of 2 JointActuator objects, one per joint, got str",
        ),
        (
            lambda: _arm(duration=1000.0, timestep=0.001),
            ValueError,
            r"= 1e\+06 steps is too many \(at most 100,000",
        ),
        (lambda: _arm(target=[0.3, 1e300]), ValueError, r"target\[1\] must be at most 1e\+06"),
    ],
)
def test_runs_and_values_out_of_range_are_refused(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_an_arm_whose_joint_loops_run_away_is_said_to_diverge():
    """Steps of 10 s (the loops' time constants are milliseconds) made NumPy warn of an
    overflow before a ValueError without a place; the step and joint are named now."""
    with pytest.raises(robolab.SimulationDiverged) as info:
        _arm(duration=100.0, timestep=10.0)
    assert re.match(
        r"the simulation diverged at step 1 \(t = 10 s\): joint \d's velocity became \S+ "
        r"\(non-finite or over 1e\+06 rad/s, a speed no arm reaches\); try a smaller timestep "
        r"\(now 10 s\) or lower gains",
        str(info.value),
    ), str(info.value)
