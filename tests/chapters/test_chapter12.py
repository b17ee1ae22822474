"""Every number chapter 12 prints, recomputed without robolab.

References: Pinocchio (``pin.crba`` and ``pin.computeGeneralizedGravity`` on the Puma 560
built from its model file's screw data by ``reference.pinocchio_screw``) for M₂₂ and g₂; the
reflected inertia J = J_m + J_ℓ/r² and the second-order formulas (SHV §6.2–6.3; Ogata §5.3:
ω_n = √(K_p/J), ζ = (B + K_d)/(2√(K_p J)), overshoot, peak time, the closed-form step whose
10–90 % rise and 2 % settling are found here by root finding, and the envelope bound of the
settling time both in closed form and as a root); NumPy's ``np.roots`` of the PID cubic against
the Routh–Hurwitz condition; the PD steady-state error as the
rest point of K_p r² e = G cos(q_d - e); SciPy's ``solve_ivp`` of the joint's ODE with
gravity, the torque limit and conditional integration, written here from the chapter's
equations, and step measures computed here from its samples. The printed values are copied
from the notebook's outputs.
"""

from __future__ import annotations

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
from scipy.optimize import brentq

import robolab

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "12-independent-joint-control.ipynb"
NUMBER = re.compile(r"[-+]?\d+\.?\d*(?:e[-+]?\d+)?")
JM, BM, R, LIMIT = 200e-6, 0.817e-3, 107.815, 2.5
REACH = 0.45


@pytest.fixture(scope="module")
def cells():
    return nbformat.read(NOTEBOOK, as_version=4).cells


@pytest.fixture(scope="module")
def puma_pin():
    model, _ = pinocchio_from_screw(robolab.load_robot("puma560"))
    return model, model.createData()


def output_of(cells, snippet: str) -> str:
    hits = [c for c in cells if c.cell_type == "code" and snippet in c.source]
    assert len(hits) == 1, f"{len(hits)} cells contain {snippet!r}"
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                   for o in hits[0].outputs)  # fmt: skip


def numbers(line: str) -> np.ndarray:
    return np.array([float(x) for x in NUMBER.findall(line)])


def line_with(text: str, start: str) -> str:
    lines = [line for line in text.splitlines() if line.lstrip().startswith(start)]
    assert len(lines) == 1, f"{len(lines)} lines start with {start!r} in {text!r}"
    return lines[0]


def m22(puma_pin, elbow_deg: float) -> float:
    model, data = puma_pin
    q = np.radians([0, 0, elbow_deg, 0, 0, 0])
    return float(pin.crba(model, data, q)[1, 1])


def g2(puma_pin) -> float:
    model, data = puma_pin
    return float(pin.computeGeneralizedGravity(model, data, np.zeros(6))[1])


def reference_run(J, r, kp, kd, ki, target, gravity, windup, duration=2.0):
    """solve_ivp of [θ_m, θ̇_m, ∫e] on a 1 ms grid: (t, q, u, saturated)."""

    def torque(x):
        u = kp * (r * target - x[0]) - kd * x[1] + ki * x[2]
        return float(np.clip(u, -LIMIT, LIMIT)), abs(u) > LIMIT

    def rhs(_t, x):
        u, saturated = torque(x)
        grow = 0.0 if (windup and saturated) else r * target - x[0]
        return [x[1], (u - BM * x[1] - gravity * math.cos(x[0] / r) / r) / J, grow]

    t = np.arange(round(duration / 1e-3) + 1) * 1e-3
    sol = solve_ivp(rhs, (0, duration), [0, 0, 0], t_eval=t, max_step=2e-4, rtol=1e-10,
                    atol=1e-12)  # fmt: skip
    pairs = [torque(x) for x in sol.y.T]
    return t, sol.y[0] / r, np.array([u for u, _ in pairs]), np.array([s for _, s in pairs])


def measures(t, q, target):
    """Overshoot (%), 10–90 % rise, 2 % settling and e_ss of samples, written here."""
    s = q / target
    up = [np.interp(level, s[: np.argmax(s >= level) + 1], t[: np.argmax(s >= level) + 1])
          for level in (0.1, 0.9)]  # fmt: skip
    outside = np.nonzero(np.abs(s - 1) > 0.02)[0][-1]
    return max(0.0, s.max() - 1) * 100, up[1] - up[0], t[outside + 1], target - q[-1]


def test_section_1_reflected_inertia(cells, puma_pin):
    text = output_of(cells, "variation of J over the elbow")
    table = {}
    for elbow in (-90, 0, 90):
        row = numbers(line_with(text, f"{elbow} "))
        link = m22(puma_pin, elbow)
        table[elbow] = link
        assert row[1] == pytest.approx(link, abs=6e-5)
        assert row[2] == pytest.approx(JM + link / R**2, abs=6e-9)
        assert row[3] == pytest.approx(JM + link, abs=6e-5)
    low, high = min(table.values()), max(table.values())
    printed = numbers(line_with(text, "variation of J"))
    geared = ((JM + high / R**2) / (JM + low / R**2) - 1) * 100
    assert printed == pytest.approx([geared, (high / low - 1) * 100], abs=0.06)


def test_section_1_gravity(cells, puma_pin):
    printed = numbers(output_of(cells, "G_SHOULDER = gravity_forces"))
    assert printed[[2, 3]] == pytest.approx([g2(puma_pin), g2(puma_pin) / R], abs=6e-5)


def _pd_gains(puma_pin):
    J = JM + m22(puma_pin, 0) / R**2
    return J, J * 900.0, 2 * 0.7 * 30 * J - BM


def test_section_2_pd_step_against_ogata(cells, puma_pin):
    text = output_of(cells, "rise 10–90")
    gains = output_of(cells, "Kp, Kd = J * wn**2")  # the gains print before exercise 1
    J, kp, kd = _pd_gains(puma_pin)
    assert numbers(line_with(gains, "J = ")) == pytest.approx([J, BM, kp, kd], abs=6e-5)
    zeta, wn = 0.7, 30.0
    wd = wn * math.sqrt(1 - zeta**2)
    overshoot = 100 * math.exp(-zeta * math.pi / math.sqrt(1 - zeta**2))
    assert numbers(line_with(text, "overshoot")) == pytest.approx([overshoot] * 2, abs=0.006)
    peak = numbers(line_with(text, "peak time"))
    assert peak[0] == pytest.approx(math.pi / wd, abs=1.5e-3)
    assert peak[1] == pytest.approx(math.pi / wd, abs=6e-4)

    def y(t):  # Ogata §5.3: the closed-loop step (B is inside ζ by construction)
        return 1 - math.exp(-zeta * wn * t) * (
            math.cos(wd * t) + zeta / math.sqrt(1 - zeta**2) * math.sin(wd * t)
        )

    grid = np.linspace(0, 1, 100001)
    values = np.array([y(t) for t in grid])
    k = np.nonzero(np.abs(values - 1) > 0.02)[0][-1]
    sign = 1.0 if values[k] > 1 else -1.0
    settle = brentq(lambda t: sign * (y(t) - 1) - 0.02, grid[k], grid[k + 1])
    settling = numbers(line_with(text, "settling"))
    assert settling[0] == pytest.approx(settle, abs=1.5e-3)
    assert numbers(line_with(text, "estimate"))[0] == pytest.approx(4 / (zeta * wn), abs=6e-5)
    # The envelope bound, two ways: the closed form, and the root of e^(-ζω_n t)/√(1-ζ²) = 0.02.
    closed = math.log(1 / (0.02 * math.sqrt(1 - zeta**2))) / (zeta * wn)
    root = brentq(lambda t: math.exp(-zeta * wn * t) / math.sqrt(1 - zeta**2) - 0.02, 0, 1)
    assert closed == pytest.approx(root, abs=1e-12)
    assert numbers(line_with(text, "bound"))[0] == pytest.approx(root, abs=6e-5)
    # The text's claims: the envelope bounds |y - 1| at every time, so the exact settling time
    # lies below it; the rule of thumb 4/(ζω_n) lies below the settling time here (not a bound).
    assert np.all(np.abs(values - 1) <= np.exp(-zeta * wn * grid) / math.sqrt(1 - zeta**2) + 1e-12)
    assert 4 / (zeta * wn) < settle < root
    assert 4 / (zeta * wn) < settling[0] < root
    tp = math.pi / wd
    rise = brentq(lambda t: y(t) - 0.9, 0, tp) - brentq(lambda t: y(t) - 0.1, 0, tp)
    assert numbers(line_with(text, "rise 10"))[-1] == pytest.approx(rise, abs=2e-4)
    torque = numbers(line_with(text, "largest motor torque"))
    assert torque[0] == pytest.approx(kp * R * 0.05, abs=6e-4)  # the jump at t = 0


def test_section_3_gravity_error_and_pid(cells, puma_pin):
    text = output_of(cells, "Routh–Hurwitz bound")
    J, kp, kd = _pd_gains(puma_pin)
    G, target = g2(puma_pin), 0.05
    rest = brentq(lambda e: kp * R**2 * e - G * math.cos(target - e), 0, 0.05)
    pd = numbers(line_with(text, "PD:"))
    assert pd[0] == pytest.approx(rest, abs=6e-8)
    assert pd[-1] == pytest.approx(G * math.cos(target) / (R**2 * kp), abs=6e-8)
    pid = numbers(line_with(text, "PID:"))
    assert pid[0] < 1e-8  # the printed |e_ss|: zero at the rest point of a stable PID
    _, q, _, _ = reference_run(J, R, kp, kd, 2.0, target, G, False)
    assert abs(target - q[-1]) < 1e-6
    assert pid[-1] == pytest.approx((BM + kd) * kp / J, abs=6e-3)
    unstable = numbers(line_with(text, "Kd = 0, Ki = 20"))
    assert unstable[-2:] == pytest.approx([BM * kp, J * 20.0], rel=2e-3, abs=1e-9)
    roots = np.roots([J, BM, kp, 20.0])
    assert roots.real.max() > 0  # really unstable


def test_section_3_routh_hurwitz_worked_example(cells, puma_pin):
    """The bound (B + Kd)·Kp/J and the roots of the cubic on both sides of it, by NumPy."""
    text = output_of(cells, "a3, a2, a1 = J, B + Kd, Kp")
    J, kp, kd = _pd_gains(puma_pin)
    assert numbers(line_with(text, "a3 = J")) == pytest.approx(
        [3, J, 2, BM + kd, 1, kp], rel=2e-4
    )  # "a3", "a2", "a1" carry their index
    bound = (BM + kd) * kp / J
    assert numbers(line_with(text, "Routh–Hurwitz"))[-1] == pytest.approx(bound, abs=6e-3)
    for ki in (2.0, 14.0, 15.0, 20.0):
        row = numbers(line_with(text, f"Ki = {ki:4.1f}"))
        largest = np.roots([J, BM + kd, kp, ki]).real.max()
        assert row[-2] == pytest.approx((BM + kd) * kp - J * ki, rel=2e-3)
        assert row[-1] == pytest.approx(largest, abs=6e-4)
        verdict = "→ stable" if largest < 0 else "→ unstable"
        assert line_with(text, f"Ki = {ki:4.1f}").endswith(verdict)
        assert (largest < 0) == (ki < bound)  # Routh–Hurwitz agrees with the roots


def test_section_4_windup_against_solve_ivp(cells, puma_pin):
    text = output_of(cells, "clean = simulate_joint(motor, anti_windup=True")
    J, kp, kd = _pd_gains(puma_pin)
    G = g2(puma_pin)
    for label, windup in (("plain PID", False), ("conditional integration", True)):
        t, q, _, saturated = reference_run(J, R, kp, kd, 1.0, 0.5, G, windup)
        printed = numbers(line_with(text, label))
        assert printed[0] == pytest.approx(saturated.mean() * 100, abs=0.3)
        assert printed[1] == pytest.approx(measures(t, q, 0.5)[0], abs=0.3)


def test_section_5_the_tuner_start_against_solve_ivp(cells, puma_pin):
    text = output_of(cells, "first = tuned_step")
    link = m22(puma_pin, 0)
    J = JM + link / 110**2
    zeta = (BM + 0.015) / (2 * math.sqrt(0.35 * J))
    printed = numbers(text)
    assert printed[0] == pytest.approx(zeta, abs=6e-4)
    assert printed[1] == pytest.approx(math.sqrt(0.35 / J), abs=6e-3)
    t, q, _, _ = reference_run(J, 110, 0.35, 0.015, 1.0, 0.05, g2(puma_pin), True)
    overshoot, rise, settle, error = measures(t, q, 0.05)
    assert printed[2] == pytest.approx(rise * 1000, abs=0.3)  # ms
    assert printed[3] == pytest.approx(overshoot, abs=0.1)
    assert printed[4] == pytest.approx(settle * 1000, abs=2.0)  # ms
    assert printed[-1] == pytest.approx(error, abs=1e-6)
    widget = output_of(cells, "tuner = joint_tuner(")
    assert "rise (10–90 %) 79 ms, overshoot 1.8 %, settling (2 %) 328 ms" in widget
    assert "ζ = 0.689, ω_n = 30.5 rad/s" in widget


def test_exercise_2_warning_for_the_seeded_numbers(cells):
    """Exercise 2's text: the rule's gains meet the overshoot but do not settle at t_s; for the
    seeded numbers the exact 2 % settling time (root finding on Ogata's closed-form step) is
    shorter, and below the envelope bound."""
    text = output_of(cells, "exercise_2 = specification_exercise(seed=2)")
    value = {
        name: float(re.search(pattern, text)[1])
        for name, pattern in {
            "Jm": r"J_m = ([\d.e+-]+)\$", "Bm": r"B_m = ([\d.e+-]+)\$", "r": r"r = (\d+)",
            "Jl": r"J_\\ell = ([\d.]+)", "Mp": r"by exactly ([\d.]+) %", "ts": r"gives ([\d.]+) s",
        }.items()
    }  # fmt: skip
    assert value["Jm"] == pytest.approx(2.05e-4) and value["Bm"] == pytest.approx(0.95e-3)  # SI
    log = math.log(value["Mp"] / 100)
    zeta = -log / math.sqrt(math.pi**2 + log**2)
    wn = 4 / (zeta * value["ts"])  # the rule the exercise asks for
    wd = wn * math.sqrt(1 - zeta**2)

    def y(t):
        return 1 - math.exp(-zeta * wn * t) * (
            math.cos(wd * t) + zeta / math.sqrt(1 - zeta**2) * math.sin(wd * t)
        )

    grid = np.linspace(0, 2 * value["ts"], 200001)
    values = np.array([y(t) for t in grid])
    k = np.nonzero(np.abs(values - 1) > 0.02)[0][-1]
    sign = 1.0 if values[k] > 1 else -1.0
    settle = brentq(lambda t: sign * (y(t) - 1) - 0.02, grid[k], grid[k + 1])
    envelope = math.log(1 / (0.02 * math.sqrt(1 - zeta**2))) / (zeta * wn)
    assert settle < 0.95 * value["ts"] < value["ts"] < envelope
    # and the loop simulate_joint runs has exactly this ζ and ω_n (B = B_m, no link friction)
    J = value["Jm"] + value["Jl"] / value["r"] ** 2
    kp, kd = J * wn**2, 2 * zeta * wn * J - value["Bm"]
    run = robolab.simulate_joint(
        robolab.JointActuator(value["Jm"], value["Bm"], value["r"]),
        link_inertia=value["Jl"], Kp=kp, Kd=kd, target=0.05, duration=1.0,
    )  # fmt: skip
    assert run.metrics.settling_time == pytest.approx(settle, abs=1.5e-3)


def test_section_3_whole_arm_against_pinocchio_with_armature(cells, puma_pin):
    """The geared and direct-drive Puma, by solve_ivp over pin.aba with the rotors as armature."""
    text = output_of(cells, "from robolab import simulate_joints")
    gears = np.array([62.6111, 107.815, 53.7063, 76.0364, 71.923, 76.686])
    rotors = np.array([200e-6] * 3 + [33e-6] * 3)
    friction = np.array([1.48e-3, 0.817e-3, 1.38e-3, 71.2e-6, 82.6e-6, 36.7e-6])
    model, data = puma_pin
    diagonal = np.diag(pin.crba(model, data, np.zeros(6)))
    target = np.array([0.0, 0.3, 0.0, 0.0, 0.0, 0.0])
    for label, r in (("geared", gears), ("direct drive", np.ones(6))):
        J = rotors + diagonal / r**2
        kp, kd = J * 400.0, 2 * 0.7 * 20.0 * J - friction
        model.armature = r**2 * rotors
        local = model.createData()

        def rhs(_t, x, r=r, kp=kp, kd=kd, local=local):
            q, v = x[:6], x[6:]
            u = kp * r * (target - q) - kd * r * v
            return np.concatenate([v, pin.aba(model, local, q, v, r * u - r**2 * friction * v)])

        sol = solve_ivp(rhs, (0, 1.0), np.zeros(12), t_eval=np.arange(1001) * 1e-3,
                        rtol=1e-10, atol=1e-12, max_step=1e-3)  # fmt: skip
        q = sol.y[:6].T
        printed = numbers(line_with(text, label))
        pushed = np.abs(q - target).max(axis=0)[[0, 2, 3, 4, 5]]
        assert printed[1] == pytest.approx(target[1] - q[-1, 1], abs=6e-5)  # after "at 1 s"
        assert printed[-5:] == pytest.approx(pushed, abs=6e-5)
    model.armature = np.zeros(6)


# --- The chapter's own exercises: correct answers by routes outside robolab, and the slips -------
#
# The exercises are the notebook's (its import and exercise cells run as in the chapter). Each
# declared slip must be named, and a first wrong try must not show the expected value.

SETUP = ("%matplotlib widget", "# The exercises of this chapter")


@pytest.fixture(scope="module")
def chapter():
    return run_setup_cells(notebook_cells(NOTEBOOK.name), *SETUP)


def assert_slips_named(exercise) -> None:
    """Every declared slip, fed as a first try, is told its own message, never the expected."""
    assert exercise.hints and len(exercise.hints) >= 2
    for message, wrong in exercise._slips.items():
        fresh = exercise.with_seed(exercise.seed)
        first_try(fresh, wrong(**fresh.parameters), fresh.expected, message)


def test_exercise_1_peak_torque_is_kp_r_qd_by_solve_ivp(chapter, puma_pin):
    """The largest |u| of the 0.05 rad step, from a solve_ivp run of the loop written here."""
    J, kp, kd = _pd_gains(puma_pin)
    _, _, u, _ = reference_run(J, R, kp, kd, 0.0, 0.05, 0.0, False, duration=1.0)
    peak = np.abs(u).max()
    assert peak == pytest.approx(kp * R * 0.05, rel=1e-9)  # u(0⁺): no kick, no later peak
    exercise = chapter["peak_torque_exercise"](kp, kd, R, target=0.05)
    assert exercise.kind == "predict"
    assert exercise.check(peak).correct
    assert_slips_named(exercise)
    assert "No answer yet" in str(exercise.check(None)) and "Hint" not in str(exercise.check(None))


def test_exercise_1_comes_before_the_step_that_reveals_it(cells):
    sources = [c.source for c in cells if c.cell_type == "code"]
    asked = next(i for i, s in enumerate(sources) if s.startswith("exercise_1 = "))
    shown = next(i for i, s in enumerate(sources) if 'print(f"largest motor torque' in s)
    assert asked < shown
    before = "".join(o.get("text", "") for c in cells[: [c.source for c in cells].index(
        sources[asked])] if c.cell_type == "code" for o in c.outputs)  # fmt: skip
    assert "1.86" not in before


@pytest.mark.parametrize("seed", [2, 5, 7, 11])
def test_exercise_2_gains_by_root_finding(chapter, seed):
    """ζ as the root of Ogata's overshoot formula (brentq), ω_n from the rule, then the
    coefficients of J s² + (B + K_d)s + K_p matched by NumPy's polynomial product."""
    exercise = chapter["specification_exercise"](seed)
    p = exercise.parameters
    assert p["Jm"] < 1e-3 and p["Bm"] < 1e-2  # SI: kg·m² and N·m·s/rad, powers of ten included
    zeta = brentq(lambda z: 100 * math.exp(-z * math.pi / math.sqrt(1 - z**2)) - p["Mp"], 1e-6,
                  1 - 1e-9)  # fmt: skip
    wn = 4 / (zeta * p["ts"])
    J = p["Jm"] + p["Jl"] / p["r"] ** 2
    target = J * np.polymul([1, 2 * zeta * wn, wn**2], [1])
    gains = np.array([target[2], target[1] - p["Bm"]])
    assert exercise.with_seed(seed).check(gains).correct
    assert_slips_named(exercise)


def design_measures(payload, target, gains):
    """Overshoot (%), 2 % settling (s) and |error at 2 s| by the solve_ivp loop written here."""
    J = JM + (m22_at_zero() + payload * REACH**2) / R**2
    gravity = G2_AT_ZERO + payload * 9.81 * REACH
    t, q, _, _ = reference_run(J, R, *gains, target, gravity, True)
    overshoot, _, settle, error = measures(t, q, target)
    return overshoot, settle, abs(error)


_PUMA = {}


def m22_at_zero() -> float:
    if "m22" not in _PUMA:
        model, _ = pinocchio_from_screw(robolab.load_robot("puma560"))
        data = model.createData()
        _PUMA["m22"] = float(pin.crba(model, data, np.zeros(6))[1, 1])
        _PUMA["g2"] = float(pin.computeGeneralizedGravity(model, data, np.zeros(6))[1])
    return _PUMA["m22"]


G2_AT_ZERO = 37.4837  # checked against Pinocchio in test_exercise_3_design_against_solve_ivp


@pytest.mark.parametrize("seed", [3, 8])
def test_exercise_3_design_against_solve_ivp(chapter, seed):
    m22_at_zero()
    assert _PUMA["g2"] == pytest.approx(G2_AT_ZERO, abs=1e-4)
    exercise = chapter["pid_design_exercise"](seed)
    p = exercise.parameters
    good = (0.7, 0.025, 1.5)  # meets all three by the reference run, with a margin
    overshoot, settle, error = design_measures(p["payload"], p["target"], good)
    assert overshoot < 4.5 and settle < 0.28 and error < 8e-5, (overshoot, settle, error)
    assert exercise.with_seed(seed).check(np.array(good)).correct
    # section 2's gains with the tuner's K_i: the reference run overshoots, and the check says so
    overshoot, _, _ = design_measures(p["payload"], p["target"], (0.3451, 0.0153, 1.0))
    assert overshoot > 5.5
    message = str(exercise.with_seed(seed).check([0.3451, 0.0153, 1.0]))
    assert "overshoot" in message and not message.startswith("✓")
    assert_slips_named(exercise)
    unstable = str(exercise.with_seed(seed).check([0.5, 0.0, 20.0]))
    assert "Routh–Hurwitz" in unstable and "Traceback" not in unstable


@pytest.mark.parametrize("seed", [4, 6, 9, 13])
def test_exercise_4_gear_ratio_by_brentq(chapter, seed):
    exercise = chapter["gear_ratio_exercise"](seed)
    assert exercise.kind == "model"
    p = exercise.parameters
    heavy, light, f = p["Jmax"] + p["m"] * p["reach"] ** 2, p["Jmin"], p["p"] / 100
    r = brentq(lambda r: (p["Jm"] + heavy / r**2) / (p["Jm"] + light / r**2) - (1 + f), 1, 1e5)
    assert exercise.with_seed(seed).check(r).correct
    assert not exercise.with_seed(seed).check(0.9 * r).correct  # a smaller r misses the spec
    assert_slips_named(exercise)
