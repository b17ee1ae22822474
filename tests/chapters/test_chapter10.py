"""Every number chapter 10 prints, recomputed without robolab.

References: Pinocchio (``pin.crba``, ``pin.rnea``, ``pin.aba`` and its kinetic and potential
energies, on the UR5 built from the model file's screw data by ``reference.pinocchio_screw``);
the integrators written out here from their textbook formulas (explicit and semi-implicit
Euler, classical RK4) and SciPy's ``solve_ivp`` (RK45) over Pinocchio's forward dynamics;
closed forms for the rod pendulum (I_O = m L²/3, K = m g L/2, T0 = 2π√(2L/3g) and the
amplitude series T0 (1 + θ0²/16 + 11θ0⁴/3072)) and for the turntable of exercise 4.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw
from scipy.integrate import solve_ivp

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


def test_exercise_references_are_closed_forms():
    """The turntable's half-speed time by its closed form, against SciPy on I ω̇ = -b ω - f_c."""
    rng = np.random.default_rng(104)
    R, m = round(float(rng.uniform(0.2, 0.4)), 2), round(float(rng.uniform(2.0, 5.0)), 1)
    b, fc = round(float(rng.uniform(0.05, 0.2)), 3), round(float(rng.uniform(0.02, 0.1)), 3)
    w0 = round(float(rng.uniform(5.0, 15.0)), 1)
    inertia = m * R**2 / 2
    closed = inertia / b * math.log((w0 + fc / b) / (w0 / 2 + fc / b))
    solution = solve_ivp(
        lambda t, w: [(-b * w[0] - fc) / inertia], (0, 20), [w0], rtol=1e-11, atol=1e-11,
        events=lambda t, w: w[0] - w0 / 2,
    )  # fmt: skip
    assert solution.t_events[0][0] == pytest.approx(closed, abs=1e-7)
    # and the period series of exercise 3 against the exact elliptic-integral period
    from scipy.special import ellipk

    for amplitude in (0.02, 0.05, 0.08):
        exact = 4 * math.sqrt(2 / (3 * G)) * ellipk(math.sin(amplitude / 2) ** 2)
        series = (
            2
            * math.pi
            * math.sqrt(2 / (3 * G))
            * (1 + amplitude**2 / 16 + 11 * amplitude**4 / 3072)
        )
        assert series == pytest.approx(exact, rel=1e-9)


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


def test_exercise_3_prompt_and_next_chapter_text(cells):
    """Exercise 3 says what it compares with; the summary points to the right chapters."""
    setup = next(c.source for c in cells if "def judge_period" in c.source)
    assert "linearised formula of section 8" not in setup
    assert "T0 (1 + θ0²/16 + 11 θ0⁴/3072)" in setup
    assert "{linear" not in setup  # a wrong answer is not told a value the check accepts
    # the series is within 0.1 % of the linearised period at every amplitude drawn (0.02-0.08)
    assert 0.08**2 / 16 + 11 * 0.08**4 / 3072 < 1e-3
    summary = cells[-1].source
    assert "chapter 11 puts a controller" not in summary
    assert "chapter 11 plans" in summary and "`simulate_tracking`" in summary
