"""Speed of the control chapters (12–14): chapter 12's joint tuner, one gain-slider step.

Run with ``python benchmarks/run_all.py control`` (or this file alone, which prints the
section). The joint is chapter 12's: the Puma 560's shoulder (Corke's motor data, J_m =
200·10⁻⁶ kg·m², B_m = 0.817·10⁻³ N·m·s/rad, r = 107.815, an assumed 2.5 N·m limit) driving
M₂₂(0) of the bundled Puma, gravity g₂(0), a 0.05 rad step. Rows:

* ``simulate_joint``: 2 s at 1 kHz (2001 samples) with PID, gravity, the torque limit and
  anti-wind-up, for a new gain set each time (the matrix exponentials are recomputed);
* the anchor: SciPy's ``solve_ivp`` (RK45, ``max_step`` = 1 ms, rtol 1e-6) of the same ODE
  on the same grid, as a user would write it;
* one gain-slider step of ``joint_tuner`` kernel side: a new K_p value, the simulation, both
  plots updated, an Agg draw of the 760×320 figure and its PNG for the image widget (the
  ipympl canvas sends a diff of the same Agg draw).

:func:`capstone` adds chapter 14's rows: one ``resolved_rate_control`` run on the Panda
(section 3's target, damped, Liégeois' null-space objective, 89 steps) and the pick-and-place
``simulate_control`` (computed torque against a 10 % heavier model, 561 reference points, 2
Euler steps each).

Target of the issue: the slider step under 30 ms kernel side. Key press to new pixels in
JupyterLab is recorded by ``tests/browser/test_chapter12.py`` (it prints its median).
"""

from __future__ import annotations

import math
import statistics
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np
from scipy.integrate import solve_ivp

import robolab

REPEATS = 40
TARGET_MS = 30.0
JM, BM, R, LIMIT = 200e-6, 0.817e-3, 107.815, 2.5


def _joint() -> tuple[float, float]:
    puma = robolab.load_robot("puma560")
    q = np.zeros(6)
    return float(robolab.mass_matrix_crba(puma, q)[1, 1]), float(robolab.gravity_forces(puma, q)[1])


def _median_ms(step, count: int = REPEATS) -> tuple[float, float]:
    """Median and best wall-clock time, ms (the machine may be shared: see the best)."""
    for k in range(3):
        step(k)
    times = []
    for k in range(count):
        start = time.perf_counter()
        step(k + 3)
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times), min(times)


def main() -> str:
    link, gravity = _joint()
    motor = robolab.JointActuator(JM, BM, R, LIMIT)
    J = motor.reflected_inertia(link)

    def run(kp: float, kd: float = 0.015, ki: float = 1.0, ratio: float = R, payload: float = 0.0):
        actuator = robolab.JointActuator(JM, BM, ratio, LIMIT)
        return robolab.simulate_joint(
            actuator,
            link_inertia=link + payload * 0.2025,
            Kp=kp,
            Kd=kd,
            Ki=ki,
            target=0.05,
            duration=2.0,
            gravity_torque=gravity + payload * 9.81 * 0.45,
            anti_windup=True,
        )

    rows = []
    median, best = _median_ms(lambda k: run(0.30 + 0.001 * k))
    rows.append(("`simulate_joint`, 2 s at 1 kHz, PID + gravity + limit", median, best))
    print(f"simulate_joint: median {median:.2f} ms", flush=True)

    def anchor(k: int) -> None:
        kp, kd, ki = 0.30 + 0.001 * k, 0.015, 1.0

        def rhs(_t, x):
            u = kp * (R * 0.05 - x[0]) - kd * x[1] + ki * x[2]
            saturated = abs(u) > LIMIT
            u = min(max(u, -LIMIT), LIMIT)
            grow = 0.0 if saturated else R * 0.05 - x[0]
            return [x[1], (u - BM * x[1] - gravity * math.cos(x[0] / R) / R) / J, grow]

        solve_ivp(
            rhs, (0, 2.0), [0.0, 0.0, 0.0], t_eval=np.arange(2001) * 1e-3, max_step=1e-3, rtol=1e-6
        )

    median_anchor, best_anchor = _median_ms(anchor, 10)
    rows.append(
        ("anchor: `scipy.integrate.solve_ivp` (RK45) of the same ODE", median_anchor, best_anchor)
    )
    print(f"solve_ivp anchor: median {median_anchor:.1f} ms", flush=True)

    robolab.set_test_mode(False)
    try:
        tuner = robolab.joint_tuner(
            lambda kp, kd, ki, r, payload: run(kp, kd, ki, r, payload),
            Kp=(0.35, 0.05, 1.5, 0.05),
            Kd=(0.015, 0.0, 0.04, 0.001),
            Ki=(1.0, 0.0, 5.0, 0.1),
            gear_ratio=(110, 10, 200, 10),
            payload=(0.0, 0.0, 10.0, 0.5),
            duration=2.0,
            canvas="image",
        )

        def slider_step(k: int) -> None:
            tuner._cache.clear()  # every step simulates (the view keeps runs seen before)
            tuner.controls["kp"].value = round(0.05 * (1 + k % 29), 2)

        median_step, best_step = _median_ms(slider_step, REPEATS)
    finally:
        robolab.set_test_mode(True)
    rows.append(
        (
            "`joint_tuner` gain-slider step, kernel side (simulate, plots, Agg, PNG)",
            median_step,
            best_step,
        )
    )
    print(f"joint_tuner step: median {median_step:.1f} ms", flush=True)
    verdict = "meets" if median_step < TARGET_MS else "misses"
    lines = [
        "## Control: chapter 12's joint tuner (`bench_control.py`)",
        "",
        "One joint of chapter 12 (the Puma's shoulder behind its 107.8:1 gear, PID, gravity, "
        "torque limit, anti-wind-up), 2 s simulated at 1 kHz for a new gain set each time, "
        f"median of {REPEATS} (the anchor: of 10). Target: one gain-slider step under "
        f"{TARGET_MS:.0f} ms kernel side; this machine {verdict} it.",
        "",
        "| one step | median (ms) | best (ms) |",
        "|---|---:|---:|",
    ]
    for name, median, best in rows:
        lines.append(f"| {name} | {median:.2f} | {best:.2f} |")
    lines += [
        "",
        f"`simulate_joint` is {median_anchor / rows[0][1]:.0f}× faster than the `solve_ivp` "
        "anchor: the linear part is discretised exactly once per gain set (a 5×5 matrix "
        "exponential) and the 2000 steps are plain-float Python arithmetic.",
        "",
    ]
    return "\n".join(lines) + "\n" + capstone() + "\n" + model_based()


def capstone() -> str:
    """Chapter 14's rows: a resolved-rate run on the Panda and the pick-and-place simulation."""
    panda = robolab.load_robot("panda")
    ready = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
    goal = [1.191, -1.524, 1.677, -1.742, -0.346, 2.078, -1.186]  # chapter 14, section 3
    target = robolab.forward_kinematics_space(panda, goal)

    def reach(k: int) -> None:
        robolab.resolved_rate_control(
            panda,
            ready,
            target,
            gain=2.0,
            timestep=0.05,
            damping=0.02,
            null_space="joint_limits",
            null_space_gain=60.0 + k % 5,
        )

    rows = [("`resolved_rate_control`, Panda, 89 steps, damped, null space", *_median_ms(reach))]
    print(f"resolved_rate_control: median {rows[0][1]:.1f} ms", flush=True)
    pick = np.radians([-16.5, 26.5, -14.3, -120.0, 11.2, 145.3, 6.5])
    place = np.radians([29.6, 9.4, 23.1, -119.5, -4.7, 128.0, 66.0])
    configurations = np.array([ready, pick, place])
    plan = robolab.via_point_trajectory(configurations, [0.0, 2.3, 5.6], continuity="acceleration")
    times = np.arange(0.0, 5.605, 0.01)
    q, qd, qdd = plan(times), plan(times, 1), plan(times, 2)
    heavier = panda.replace(spatial_inertias=1.1 * np.array(panda.spatial_inertias))

    def track(k: int) -> None:
        robolab.simulate_control(
            panda, q[0], qd[0], None, q, qd, qdd, heavier, 100.0 + k % 5, 500.0, 20.0, 0.01, 2
        )

    rows.append(
        ("`simulate_control`, Panda pick and place, 561 steps × 2 (Euler)", *_median_ms(track, 10))
    )
    print(f"pick-and-place simulate_control: median {rows[1][1]:.0f} ms", flush=True)
    lines = [
        "## Control: chapter 14's capstone",
        "",
        "| one run | median (ms) | best (ms) |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {median:.1f} | {best:.1f} |" for name, median, best in rows]
    return "\n".join([*lines, ""])


def _median_cpu_ms(step, count: int) -> tuple[float, float, float]:
    """Median and best wall-clock ms, and the median CPU ms of this process (see the notes)."""
    for k in range(2):
        step(k)
    walls, cpus = [], []
    for k in range(count):
        start, cpu = time.perf_counter(), time.process_time()
        step(k + 2)
        walls.append(1e3 * (time.perf_counter() - start))
        cpus.append(1e3 * (time.process_time() - cpu))
    return statistics.median(walls), min(walls), statistics.median(cpus)


def model_based() -> str:
    """Chapter 13's rows: one model-error slider step of ``controller_comparison``, kernel side.

    PD, PD + gravity compensation and computed torque (``simulate_tracking``, one batch of
    three states) track a 2 s quintic plus a 1 s hold at 1 kHz (3001 points, semi-implicit
    Euler) with a model whose masses are scaled; for the view row, the slider moves to a value
    not seen before (so it simulates) and the 760×300 figure is drawn by Agg into a PNG.
    Targets of the issue: under 60 ms on the planar 2R, under 250 ms on the UR5.
    """
    rows = []
    controllers = ("pd", "pd_gravity", "computed_torque")
    for name in ("planar2r", "ur5"):
        arm = robolab.load_robot(name)
        n = len(arm.spatial_inertias)
        times = np.arange(3001) * 0.001
        s = [
            robolab.quintic_time_scaling(2.0, np.minimum(times, 2.0), derivative=k)
            for k in range(3)
        ]
        goal = np.linspace(0.5, -0.5, n)
        reference = [np.outer(s[k] * (1 if k == 0 else times <= 2.0), goal) for k in range(3)]

        def compare(model_error: float, payload: float, arm=arm, reference=reference) -> dict:
            return robolab.simulate_tracking(
                robolab.with_payload(arm, payload),
                robolab.scaled_inertias(arm, model_error),
                *reference,
                0.001,
                100.0,
                20.0,
                controllers=controllers,
            )

        def run(k: int, compare=compare) -> None:
            compare(0.8 + 0.01 * (k % 5), 0.0)

        rows.append(
            (f"`simulate_tracking`, {name}, 3 controllers × 3001 steps", *_median_cpu_ms(run, 7))
        )
        panel = robolab.controller_comparison(compare, canvas="image")
        values = iter(np.round(np.arange(0.8, 1.2001, 0.05), 2).tolist() * 3)

        def slide(k: int, panel=panel, values=values) -> None:
            panel._cache.clear()  # every step simulates
            panel.controls["model_error"].value = next(values)

        rows.append((f"`controller_comparison` slider step, {name}", *_median_cpu_ms(slide, 5)))
        print(
            f"{name}: simulate_tracking median {rows[-2][1]:.0f} ms, slider step "
            f"{rows[-1][1]:.0f} ms",
            flush=True,
        )
    anchor = _pinocchio_anchor_ms()
    lines = [
        "## Control: chapter 13's controller comparison",
        "",
        "Each controller's loop is generated Python (`robolab/screw/_fast/loops.py`) calling "
        "the robots' generated one-state dynamics (shared by robots with the same numbers: the "
        "slider step rebuilds the true arm, and only the model's inverse dynamics and gravity "
        "are written again; computed torque is one inverse-dynamics call at θ̈_d + u). "
        "The CPU column is this process's time, "
        "which other work on a shared machine inflates less than the wall clock. For scale: "
        "9000 calls of "
        f"Pinocchio's `aba` on the UR5 from a Python loop took {anchor:.1f} ms CPU here (the "
        "UR5 run makes 9000 forward-dynamics calls). Targets: 60 ms (2R) and 250 ms (UR5) "
        "kernel side.",
        "",
        "| one run | median (ms) | best (ms) | median CPU (ms) |",
        "|---|---:|---:|---:|",
    ]
    lines += [
        f"| {name} | {median:.1f} | {best:.1f} | {cpu:.1f} |" for name, median, best, cpu in rows
    ]
    return "\n".join([*lines, ""])


def _pinocchio_anchor_ms() -> float:
    """CPU ms of 9000 ``pinocchio.aba`` calls on the UR5 (best of 5), or NaN without it."""
    try:
        import pinocchio as pin
    except ImportError:  # pragma: no cover - the benchmarks' environment has it
        return float("nan")
    import importlib.util
    from pathlib import Path

    # The Pinocchio model built from the same screw data, as bench_screw.py builds it.
    spec = importlib.util.spec_from_file_location(
        "bench_screw", Path(__file__).with_name("bench_screw.py")
    )
    assert spec is not None and spec.loader is not None
    bench_screw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_screw)
    model = bench_screw._pinocchio_model(robolab.load_robot("ur5"))
    data = model.createData()
    q, zero = np.full(6, 0.3), np.zeros(6)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(9000):
            pin.aba(model, data, q, zero, zero)
        best = min(best, time.process_time() - start)
    return 1e3 * best


if __name__ == "__main__":
    print(main())
