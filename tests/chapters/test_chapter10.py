"""Every number chapter 10 prints, recomputed without robolab.

References: Pinocchio (``pin.crba``, ``pin.rnea``, ``pin.aba`` and its kinetic and potential
energies, on the UR5 built from the model file's screw data by ``reference.pinocchio_screw``);
the integrators written out here from their textbook formulas (explicit and semi-implicit
Euler, classical RK4) and SciPy's ``solve_ivp`` (RK45) over Pinocchio's forward dynamics;
closed forms for the rod pendulum (I_O = m L²/3, K = m g L/2, T0 = 2π√(2L/3g) and the
amplitude series T0 (1 + θ0²/16 + 11θ0⁴/3072)) and for the turntable of exercise 4.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pinocchio as pin
import pytest
from chapter_cells import notebook_cells, run_setup_cells
from exercise_tries import first_try
from reference.pinocchio_screw import pinocchio_from_screw
from scipy.integrate import solve_ivp
from scipy.special import ellipk

import robolab

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "10-forward-dynamics-and-simulation.ipynb"
NUMBER = re.compile(r"[-+]?\d+\.?\d*(?:e[-+]?\d+)?")
PRINTED = 6e-5  # half a unit of the fourth decimal, and some rounding
G = 9.81
Q = np.array([0.0, -0.5, 0.8, -0.3, 0.6, 0.0])
QD = np.array([0.2, -0.1, 0.3, 0.0, 0.5, -0.2])
Q0 = Q  # released from rest there in sections 5 to 7


@pytest.fixture(scope="module")
def cells():
    return nbformat.read(NOTEBOOK, as_version=4).cells


@pytest.fixture(scope="module")
def ur5_pin():
    model, _ = pinocchio_from_screw(robolab.load_robot("ur5"))
    return model, model.createData()


def output_of(cells, snippet: str) -> str:
    hits = [c for c in cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {snippet!r}"
    return "".join(o.get("text", "") for o in hits[0].outputs)


def numbers_after(text: str, label: str) -> np.ndarray:
    lines = [line for line in text.splitlines() if line.startswith(label)]
    assert len(lines) == 1, f"{len(lines)} lines start with {label!r} in {text!r}"
    return np.array([float(x) for x in NUMBER.findall(lines[0][len(label) :])])


def energy(ur5_pin, q, qd) -> float:
    model, data = ur5_pin
    return pin.computeKineticEnergy(model, data, q, qd) + pin.computePotentialEnergy(model, data, q)


def integrate(rate, q, qd, dt, steps, method):
    """States after each step of ``method`` (written from the formulas) for θ̈ = rate(θ, θ̇)."""
    states = [(q, qd)]
    for _ in range(steps):
        if method == "euler":
            q, qd = q + dt * qd, qd + dt * rate(q, qd)
        elif method == "semi_implicit_euler":
            qd = qd + dt * rate(q, qd)
            q = q + dt * qd
        else:
            k1q, k1v = qd, rate(q, qd)
            k2q, k2v = qd + dt / 2 * k1v, rate(q + dt / 2 * k1q, qd + dt / 2 * k1v)
            k3q, k3v = qd + dt / 2 * k2v, rate(q + dt / 2 * k2q, qd + dt / 2 * k2v)
            k4q, k4v = qd + dt * k3v, rate(q + dt * k3q, qd + dt * k3v)
            q = q + dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q)
            qd = qd + dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        states.append((q, qd))
    return states


def ur5_run(ur5_pin, dt, duration, method, friction=None):
    """(energies, kinetic energies, states) of the dropped UR5, Pinocchio throughout."""
    model, data = ur5_pin

    def rate(q, qd):
        tau = np.zeros(6) if friction is None else -friction(qd)
        return pin.aba(model, data, q, qd, tau).copy()

    steps = round(duration / dt)
    if method == "rk45":
        solution = solve_ivp(
            lambda t, x: np.concatenate([x[6:], rate(x[:6], x[6:])]), (0, duration),
            np.concatenate([Q0, np.zeros(6)]), t_eval=dt * np.arange(steps + 1), rtol=1e-9,
            atol=1e-9,
        )  # fmt: skip
        states = [(x[:6], x[6:]) for x in solution.y.T]
    else:
        states = integrate(rate, Q0.copy(), np.zeros(6), dt, steps, method)
    energies = np.array([energy(ur5_pin, q, qd) for q, qd in states])
    kinetic = np.array([pin.computeKineticEnergy(model, data, q, qd) for q, qd in states])
    return energies, kinetic, states


def test_mass_matrix_and_bias(cells, ur5_pin):
    model, data = ur5_pin
    text = output_of(cells, "M = robolab.mass_matrix_crba(ur5, q)")
    M = pin.crba(model, data, Q)
    M = np.triu(M) + np.triu(M, 1).T
    lines = text.splitlines()
    start = lines.index("M(θ) in kg·m²:") + 1
    printed = np.array(
        [[float(x) for x in NUMBER.findall(line)] for line in lines[start : start + 6]]
    )
    np.testing.assert_allclose(printed, M, atol=PRINTED)
    h = pin.rnea(model, data, Q, QD, np.zeros(6))
    np.testing.assert_allclose(numbers_after(text, "h(θ, θ̇) in N·m:"), h, atol=PRINTED)


def test_cholesky_and_accelerations(cells, ur5_pin):
    model, data = ur5_pin
    M = pin.crba(model, data, Q)
    M = np.triu(M) + np.triu(M, 1).T
    text = output_of(cells, "y = np.linalg.solve(L, tau - h)")
    np.testing.assert_allclose(
        numbers_after(text, "diagonal of L:"), np.diag(np.linalg.cholesky(M)), atol=PRINTED
    )
    eigenvalues = np.linalg.eigvalsh(M)
    assert numbers_after(text, "condition number of M:")[0] == pytest.approx(
        eigenvalues[-1] / eigenvalues[0], abs=0.06
    )
    qdd = pin.aba(model, data, Q, QD, np.zeros(6))
    for label in ("θ̈ by Cholesky (rad/s²):", "forward_dynamics_crba:"):
        np.testing.assert_allclose(numbers_after(text, label), qdd, atol=PRINTED)
    aba_text = output_of(cells, "robolab.forward_dynamics_aba(arm, *states, torques)")
    np.testing.assert_allclose(numbers_after(aba_text, "one state:"), qdd, atol=PRINTED)


def test_aba_equals_crba_claim_against_pinocchio(cells):
    """The printed "agree to 1e-10": robolab's ABA and CRBA both against pin.aba."""
    text = output_of(cells, "robolab.forward_dynamics_aba(arm, *states, torques)")
    assert text.count("agree to 1e-10 of the largest θ̈: True") == 2
    rng = np.random.default_rng(5)
    for name in ("ur5", "puma560"):
        robot = robolab.load_robot(name)
        model, _ = pinocchio_from_screw(robot)
        data = model.createData()
        for _ in range(20):
            q, qd, tau = (
                rng.uniform(-np.pi, np.pi, 6),
                rng.uniform(-2, 2, 6),
                rng.uniform(-20, 20, 6),
            )
            reference = pin.aba(model, data, q, qd, tau)
            scale = 1e-10 * max(1.0, np.abs(reference).max())
            for algorithm in (robolab.forward_dynamics_aba, robolab.forward_dynamics_crba):
                np.testing.assert_allclose(algorithm(robot, q, qd, tau), reference, atol=scale)


def test_singular_mass_matrix_message(cells):
    text = output_of(cells, "no_wrist_mass = ur5.replace(")
    assert text.strip() == (
        "the mass matrix M(θ) is singular at joint_positions [0, -0.5, 0.8, -0.3, 0.6, 0]: joint "
        "6 would move no mass or inertia, so its acceleration is undefined; give the links it "
        "moves a mass or rotational inertia"
    )


def test_energy_per_integrator(cells, ur5_pin):
    text = output_of(cells, "for name in robolab.INTEGRATORS")
    energies, kinetic, _ = ur5_run(ur5_pin, 0.005, 2.0, "rk4")
    head = numbers_after(text, "E(0) =")
    assert head[0] == pytest.approx(energies[0], abs=PRINTED)
    assert head[1] == pytest.approx(kinetic.max(), abs=0.006)
    for name in robolab.INTEGRATORS:
        energies, kinetic, _ = ur5_run(ur5_pin, 0.005, 2.0, name)
        printed = numbers_after(text, name + " ")
        drift = np.abs(energies - energies[0]).max()
        # the numbers: 2 (of "E(2 s)"), E(2 s), 0 (of "E(0)"), the drift, the relative drift
        final, printed_drift, relative = printed[1], printed[-2], printed[-1]
        if name == "rk45":  # the adaptive steps depend on rounding: the order of magnitude
            assert final == pytest.approx(energies[-1], abs=6e-4)
            assert 0.2 < printed_drift / drift < 5
            continue
        assert final == pytest.approx(energies[-1], abs=6e-4)
        assert printed_drift == pytest.approx(drift, rel=6e-3)
        assert relative == pytest.approx(drift / kinetic.max(), rel=6e-2)


def test_drift_against_step_table(cells, ur5_pin):
    text = output_of(cells, "steps = np.array([0.0005, 0.001, 0.002, 0.005, 0.01])")
    for name in ("euler", "semi_implicit_euler", "rk4"):
        printed = numbers_after(text, name + " ")
        for dt, value in zip((0.0005, 0.001, 0.002, 0.005, 0.01), printed, strict=True):
            energies, kinetic, _ = ur5_run(ur5_pin, dt, 1.0, name)
            drift = np.abs(energies - energies[0]).max() / kinetic.max()
            assert value == pytest.approx(drift, rel=6e-2), (name, dt)
    energies, kinetic, _ = ur5_run(ur5_pin, 0.001, 1.0, "rk45")
    adaptive = numbers_after(text, "rk45 (rtol = atol = 1e-9):")[-1]
    assert 0.1 < adaptive / (np.abs(energies - energies[0]).max() / kinetic.max()) < 10


def rod_rate(length):
    # I_O θ̈ = -m g (L/2) sin θ, I_O = m L²/3 (θ from the downward vertical)
    return lambda q, qd: -(3 * G / (2 * length)) * np.sin(q)


def test_explicit_and_semi_implicit_euler_on_the_rod(cells):
    text = output_of(cells, "def rod_pendulum(mass, length, friction=None):")
    for name in ("euler", "semi_implicit_euler"):
        states = integrate(rod_rate(1.0), np.array([1.0]), np.array([0.0]), 0.01, 2000, name)
        energies = np.array([0.5 / 3 * qd[0] ** 2 - G / 2 * math.cos(q[0]) for q, qd in states])
        halves = np.split(energies[1:] - energies[0], 2)
        printed = numbers_after(text, name + " ")
        np.testing.assert_allclose(
            printed[[2, 4]], [np.abs(halves[0]).max(), np.abs(halves[1]).max()], atol=PRINTED
        )


def test_friction_energy_balance(cells, ur5_pin):
    text = output_of(cells, "friction = robolab.JointFriction(viscous=0.5, coulomb=0.2")

    def tau_f(qd):
        return 0.5 * qd + 0.2 * np.tanh(qd / 0.05)

    energies, _, states = ur5_run(ur5_pin, 0.001, 2.0, "rk4", friction=tau_f)
    power = np.array([qd @ tau_f(qd) for _, qd in states])
    work = np.sum(0.5 * (power[1:] + power[:-1]) * 0.001)
    assert numbers_after(text, "energy lost in 2 s:")[-1] == pytest.approx(
        energies[0] - energies[-1], abs=6e-4
    )
    assert numbers_after(text, "work of friction:")[-1] == pytest.approx(work, abs=6e-4)
    assert "does the energy ever rise? False" in text
    assert (np.diff(energies) <= 1e-9).all()


def test_small_oscillations(cells):
    text = output_of(cells, "rod = rod_pendulum(2.0, 0.8)")
    m, length = 2.0, 0.8
    printed = numbers_after(text, "M =")
    assert printed[0] == pytest.approx(m * length**2 / 3, abs=PRINTED)
    assert printed[-1] == pytest.approx(m * G * length / 2, abs=PRINTED)
    linear = 2 * math.pi * math.sqrt(2 * length / (3 * G))
    printed = numbers_after(text, "linearised period T0 =")
    np.testing.assert_allclose(printed[[0, -1]], [linear, linear], atol=PRINTED)
    true = linear * (1 + 0.05**2 / 16 + 11 * 0.05**4 / 3072)
    assert numbers_after(text, "simulated period")[0] == pytest.approx(true, abs=1.2e-4)


# Corke's Puma 560 motor data (Robotics Toolbox ``puma560``, from Armstrong, Khatib and Burdick
# 1986 and Corke and Armstrong-Hélouvry 1994): rotor inertias J_m (kg·m²) and |gear ratios|.
PUMA_ROTOR_INERTIA = np.array([200e-6, 200e-6, 200e-6, 33e-6, 33e-6, 33e-6])
PUMA_GEAR_RATIO = np.array([62.6111, 107.815, 53.7063, 76.0364, 71.923, 76.686])


def test_puma_accelerations_with_and_without_rotors(cells):
    """Section 3: the Puma's θ̈ under ±20 N·m, rigid links and with r² J_m, by Pinocchio's ABA."""
    text = output_of(cells, "rotors = gear_ratio**2 * motor_inertia")
    model, _ = pinocchio_from_screw(robolab.load_robot("puma560"))
    rng = np.random.default_rng(11)
    q = rng.uniform(-np.pi, np.pi, (1000, 6))
    qd = rng.uniform(-2, 2, (1000, 6))
    tau = rng.uniform(-20, 20, (1000, 6))
    rotors = PUMA_GEAR_RATIO**2 * PUMA_ROTOR_INERTIA
    data = model.createData()
    rigid = np.array(
        [pin.aba(model, data, *state).copy() for state in zip(q, qd, tau, strict=True)]
    )
    diagonal = []
    for state in q:
        M = pin.crba(model, data, state)
        diagonal.append(np.diag(M).copy())
    model.armature = rotors
    data = model.createData()
    geared = np.array(
        [pin.aba(model, data, *state).copy() for state in zip(q, qd, tau, strict=True)]
    )
    links = np.median(diagonal, axis=0)
    rigid_median = np.median(np.abs(rigid), axis=0)
    geared_median = np.median(np.abs(geared), axis=0)
    # printed to two or three significant digits
    np.testing.assert_allclose(numbers_after(text, "r² J_m (kg·m²):"), rotors, rtol=0.03)
    np.testing.assert_allclose(numbers_after(text, "median M_ii, links (kg·m²):"), links, rtol=0.03)
    np.testing.assert_allclose(
        numbers_after(text, "median |θ̈|, links only (rad/s²):"), rigid_median, rtol=0.005
    )
    np.testing.assert_allclose(
        numbers_after(text, "median |θ̈|, with rotors:"), geared_median, rtol=0.005
    )
    # the reading below the cell
    assert np.all((rotors[:3] / links[:3] > 0.2) & (rotors[:3] / links[:3] < 5))  # same order
    assert np.all(rotors[3:] / links[3:] >= 100)  # a hundred times or more at the wrist
    assert np.all(rigid_median[3:] >= 1000) and rigid_median[5] >= 1e5
    assert np.all((geared_median[3:] >= 10) & (geared_median[3:] < 100))  # tens


def test_next_chapter_text(cells):
    summary = cells[-1].source
    assert "chapter 11 puts a controller" not in summary
    assert "chapter 11 plans" in summary and "`simulate_tracking`" in summary


# --- the chapter's exercises given the usual slips ------------------------------------------------
#
# The exercises are built by running the chapter's own set-up cells; every expected value below
# comes from Pinocchio (ABA with armature for the motors; the UR5's energies), SciPy (the elliptic
# integral, solve_ivp) or a closed form, never from robolab.


CANDIDATES = (0.02, 0.01, 0.005, 0.002, 0.001, 0.0005)
PUMA_JM = np.array([200e-6, 200e-6, 200e-6, 33e-6, 33e-6, 33e-6])
PUMA_BM = np.array([1.48e-3, 0.817e-3, 1.38e-3, 71.2e-6, 82.6e-6, 36.7e-6])


@pytest.fixture(scope="module")
def chapter() -> dict:
    cells = notebook_cells("10-forward-dynamics-and-simulation.ipynb")
    with contextlib.redirect_stdout(io.StringIO()):
        return run_setup_cells(
            cells,
            "%matplotlib widget",
            "q0 = np.array(",
            "def rod_pendulum(",
            "# Exercise 1's set-up",
            "# The exercises of this chapter",
        )


def fresh(chapter: dict, name: str):
    exercise = chapter[name]
    return exercise.with_seed(exercise.seed)


def drifts_pin(ur5_pin, q0, dt):
    """(relative, absolute) energy drift over 1 s of RK4 from rest at q0, Pinocchio's ABA."""
    model, data = ur5_pin
    rate = lambda q, qd: pin.aba(model, data, q, qd, np.zeros(6)).copy()  # noqa: E731
    states = integrate(rate, np.array(q0, float), np.zeros(6), dt, round(1.0 / dt), "rk4")
    energies = np.array([energy(ur5_pin, q, qd) for q, qd in states])
    kinetic = max(pin.computeKineticEnergy(model, data, q, qd) for q, qd in states)
    drift = np.abs(energies - energies[0]).max()
    return drift / kinetic, drift


def test_exercise_1_predicts_rk4_by_its_order(chapter, ur5_pin):
    exercise = fresh(chapter, "exercise_1")
    p = exercise.parameters
    small, large = p["small_ms"] / 1000, p["large_ms"] / 1000
    given = drifts_pin(ur5_pin, Q0, small)[0]
    assert given == pytest.approx(p["small_drift"], rel=0.05)
    simulated = drifts_pin(ur5_pin, Q0, large)[0]
    ratio = large / small
    assert exercise.check(given * ratio**4)  # the fourth-order prediction
    assert fresh(chapter, "exercise_1").check(simulated)
    slips = {1: "like Δt, as a first-order", 2: "like Δt², as a second-order", 3: "like Δt³"}
    slips[-4] = "Your drift shrinks"
    for order, words in slips.items():
        first_try(fresh(chapter, "exercise_1"), given * ratio**order, simulated, words)
    assert chapter["exercise_1"].kind == "predict"


def test_exercise_1_is_checked_before_the_plot_that_shows_it():
    cells = notebook_cells("10-forward-dynamics-and-simulation.ipynb")
    sources = [c.source for c in cells]
    check = next(i for i, s in enumerate(sources) if "exercise_1.check(answer)" in s)
    table = next(i for i, s in enumerate(sources) if s.startswith("steps = np.array([0.0005"))
    assert check < table


def test_exercise_2_the_largest_step(chapter, ur5_pin):
    for seed in (101, 7, 12):
        exercise = chapter["exercise_2"].with_seed(seed)
        q0, bound = exercise.parameters["q0"], exercise.parameters["bound"]
        drifts = {dt: drifts_pin(ur5_pin, q0, dt) for dt in CANDIDATES}
        best = next(dt for dt in CANDIDATES if drifts[dt][0] < bound)
        assert exercise.check(best), seed
        exercise = chapter["exercise_2"].with_seed(seed)
        message = exercise.check(1000 * best).message
        assert "milliseconds" in message
        absolute = next((dt for dt in CANDIDATES if drifts[dt][1] < bound), CANDIDATES[-1])
        if absolute != best:
            assert "absolute drift" in exercise.check(absolute).message
        smaller = [dt for dt in CANDIDATES if dt < best and dt != absolute]
        if smaller:
            assert "a larger candidate does too" in exercise.check(smaller[0]).message
        larger = [dt for dt in CANDIDATES if dt > best]
        if larger:
            assert "above" in exercise.check(larger[-1]).message
        assert "not one of the candidate" in exercise.check(0.003).message


def puma_motor_accelerations(q, qd, tau, gain=2, friction=1.0, bias=1.0, rotors=True):
    """θ̈ of the Puma with its motors by Pinocchio: armature r^gain J_m, torque − r^gain B_m θ̇."""
    model, _ = pinocchio_from_screw(robolab.load_robot("puma560"))
    reflected = PUMA_GEAR_RATIO**gain
    q, qd, tau = (np.array(x, float) for x in (q, qd, tau))
    data = model.createData()
    h = pin.rnea(model, data, q, qd, np.zeros(6))
    if rotors:
        model.armature = reflected * PUMA_ROTOR_INERTIA
    data = model.createData()
    effective = tau - friction * reflected * PUMA_BM * qd + (1.0 - bias) * h
    return pin.aba(model, data, q, qd, effective).copy()


@pytest.mark.parametrize(
    ("slip", "words"),
    [
        ({"rotors": False, "friction": 0.0}, "rigid-link Puma"),
        ({"friction": 0.0}, "left out the motors' viscous friction"),
        ({"friction": -1.0}, "pushes the joints along"),
        ({"gain": 1}, "through r, not r²"),
        ({"gain": 0}, "as they are at the motor"),
        ({"bias": -1.0}, "wrong sign"),
    ],
)
def test_exercise_3_the_motors(chapter, slip, words):
    exercise = fresh(chapter, "exercise_3")
    p = exercise.parameters
    expected = puma_motor_accelerations(**p)
    assert exercise.check(expected)
    first_try(fresh(chapter, "exercise_3"), puma_motor_accelerations(**p, **slip), expected, words)
    assert np.all(PUMA_JM == PUMA_ROTOR_INERTIA)


def rod_period(length, amplitude):
    """The exact period of the rod pendulum, from SciPy's ODE solver (two downward crossings)."""
    w2 = 3 * G / (2 * length)

    def crossing(t, x):
        return x[0]

    crossing.direction = -1
    solution = solve_ivp(
        lambda t, x: [x[1], -w2 * math.sin(x[0])], (0, 20), [amplitude, 0.0], rtol=1e-11,
        atol=1e-11, events=crossing,
    )  # fmt: skip
    down = solution.t_events[0]
    return down[1] - down[0]


@pytest.mark.parametrize("seed", [103, 5, 9])
def test_exercise_4_the_large_swing(chapter, seed):
    exercise = chapter["exercise_4"].with_seed(seed)
    length, amplitude = exercise.parameters["L"], exercise.parameters["amplitude"]
    period = rod_period(length, amplitude)
    assert period == pytest.approx(
        4 * math.sqrt(2 * length / (3 * G)) * ellipk(math.sin(amplitude / 2) ** 2), rel=1e-8
    )
    assert exercise.check(period)
    T0 = 2 * math.pi * math.sqrt(2 * length / (3 * G))
    slips = {
        T0: "linearised period",
        T0 * (1 + amplitude**2 / 16): "first amplitude correction",
        T0 * (1 + amplitude**2 / 16 + 11 * amplitude**4 / 3072): "a series for small swings",
        period / 2: "half a period",
        2 * math.pi * math.sqrt(length / G): "point mass",
    }
    for wrong, words in slips.items():
        assert abs(wrong / period - 1) > 3e-3  # the check cannot accept any of them
        first_try(chapter["exercise_4"].with_seed(seed), wrong, period, words)


def turntable_time(R, m, b, fc, w0, inertia=None):
    inertia = m * R**2 / 2 if inertia is None else inertia
    solution = solve_ivp(
        lambda t, w: [(-b * w[0] - fc) / inertia], (0, 60), [w0], rtol=1e-11, atol=1e-11,
        events=lambda t, w: w[0] - w0 / 2,
    )  # fmt: skip
    return solution.t_events[0][0]


def test_exercise_5_the_turntable(chapter):
    exercise = fresh(chapter, "exercise_5")
    p = exercise.parameters
    expected = turntable_time(**p)
    assert exercise.check(expected)
    R, m = p["R"], p["m"]
    slips = {
        turntable_time(**p, inertia=m * R**2): "inertia of a ring",
        turntable_time(**p, inertia=m * R**2 / 4): "about a diameter",
        turntable_time(**{**p, "fc": 0.0}): "no Coulomb friction",
        turntable_time(**{**p, "b": 0.0}): "only Coulomb friction",
    }
    for wrong, words in slips.items():
        first_try(fresh(chapter, "exercise_5"), wrong, expected, words)
    assert chapter["exercise_5"].kind == "model"


def test_every_exercise_has_staged_hints_that_are_not_the_answer(chapter):
    for n in range(1, 6):
        exercise = chapter[f"exercise_{n}"]
        assert len(exercise.hints) >= 2, n
        unanswered = exercise.check(None).message
        assert "Hint" not in unanswered and exercise.wrong_tries == 0, n
        for hint in exercise.hints:
            first = hint  # no number of the expected answer in any hint
            assert f"{float(np.ravel(exercise.expected)[0]):.3g}" not in first, n
    kinds = [chapter[f"exercise_{n}"].kind for n in range(1, 6)]
    assert kinds.count("model") >= 1 and kinds.count("predict") >= 1
