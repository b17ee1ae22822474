"""Benchmark: symbolic DH models, robolab.DHRobot against Moro 0.5.0 (and numeric anchors).

Two arms, as in the issue:

* a 3-DOF RRR elbow arm with **every parameter symbolic** (lengths, centres
  of mass, masses, diagonal inertia tensors, g): CPU time for T, J, M, C, G
  and SymPy ``count_ops`` of M, C, G (readability) for both libraries;
* a **Puma-560-like 6-DOF** arm with numeric parameters (Corke's table) and
  symbolic joint variables: CPU time for M, C, G, time until ``numeric()`` has
  compiled every function, and µs per call of the compiled functions, with
  Pinocchio's and the Modern Robotics library's inverse dynamics as anchors;
* the 7-joint Franka Panda of ``robots/panda.json`` (full inertia tensors),
  robolab only.

Moro runs in a subprocess with a time limit (``ROBOLAB_BENCH_MORO_TIMEOUT``,
default 120 s): it does not finish the Puma's M. Run with
``python benchmarks/run_all.py dh`` (writes docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import timeit

import numpy as np
import sympy as sp

MORO_TIMEOUT = float(os.environ.get("ROBOLAB_BENCH_MORO_TIMEOUT", "120"))

# --- the arms, written once as source text so that Moro's subprocess builds the same ---------

ELBOW = """
from sympy import pi
from robolab.symbols import q1, q2, q3, l1, l2, l3, lc1, lc2, lc3, m1, m2, m3, g
from robolab.symbols import inertia_tensor
rows = [(0, pi / 2, l1, q1), (l2, 0, 0, q2), (l3, 0, 0, q3)]
masses = [m1, m2, m3]
cm_positions = [(0, lc1 - l1, 0), (lc2 - l2, 0, 0), (lc3 - l3, 0, 0)]
inertia_tensors = [inertia_tensor(i) for i in (1, 2, 3)]
gravity = (0, 0, -g)
"""

PUMA = """
from sympy import pi, diag
from robolab.symbols import q1, q2, q3, q4, q5, q6
rows = [(0, pi / 2, 0, q1), (0.4318, 0, 0, q2), (0.0203, -pi / 2, 0.15005, q3),
        (0, pi / 2, 0.4318, q4), (0, -pi / 2, 0, q5), (0, 0, 0, q6)]
masses = [0, 17.4, 4.8, 0.82, 0.34, 0.09]
cm_positions = [(0, 0, 0), (-0.3638, 0.006, 0.2275), (-0.0203, -0.0141, 0.070),
                (0, 0.019, 0), (0, 0, 0), (0, 0, 0.032)]
inertia_tensors = [diag(*d) for d in [(0, 0.35, 0), (0.13, 0.524, 0.539), (0.066, 0.086, 0.0125),
                   (1.8e-3, 1.3e-3, 1.8e-3), (0.3e-3, 0.4e-3, 0.3e-3), (0.15e-3, 0.15e-3, 0.04e-3)]]
gravity = (0, 0, -9.81)
# links 1 and 3 break the triangle inequality as published (robolab refuses them otherwise)
plausibility_exceptions = [(1, "inertia_triangle", "Corke"), (3, "inertia_triangle", "1994")]
"""

# Moro in a subprocess prints one JSON line per finished quantity, so partial results survive
# a timeout
MORO_SCRIPT = """
import json, sys, time
import sympy as sp
from moro import Robot
exec(sys.argv[1])
start = time.process_time()
robot = Robot(*rows)
robot.masses = masses
robot.inertia_tensors = [sp.Matrix(t) for t in inertia_tensors]
robot.cm_positions = cm_positions
robot.gravity = gravity
for name, compute in (("T", lambda: robot.T), ("J", lambda: robot.J),
                      ("M", robot.inertia_matrix), ("C", robot.coriolis_matrix),
                      ("G", robot.gravity_vector)):
    value = compute()
    print(json.dumps({"name": name, "seconds": time.process_time() - start,
                      "ops": int(sp.count_ops(value))}), flush=True)
"""

QUANTITIES = ("T", "J", "M", "C", "G")


def _arm(source: str) -> dict:
    namespace: dict = {}
    exec(source, namespace)
    return namespace


def _robolab(source: str) -> tuple[object, dict[str, float], dict[str, int]]:
    """Build the arm and compute T, J, M, C, G; cumulative CPU seconds and count_ops."""
    from robolab import DHRobot

    arm = _arm(source)
    start = time.process_time()
    robot = DHRobot(*arm["rows"])
    robot.masses = arm["masses"]
    robot.plausibility_exceptions = arm.get("plausibility_exceptions", ())
    robot.inertia_tensors = arm["inertia_tensors"]
    robot.cm_positions = arm["cm_positions"]
    robot.gravity = arm["gravity"]
    seconds, values = {}, {}
    for name, compute in (
        ("T", lambda: robot.T),
        ("J", lambda: robot.J),
        ("M", robot.inertia_matrix),
        ("C", robot.coriolis_matrix),
        ("G", robot.gravity_vector),
    ):
        values[name] = compute()
        seconds[name] = time.process_time() - start
    ops = {name: int(sp.count_ops(value)) for name, value in values.items()}
    return robot, seconds, ops


def _moro(source: str) -> tuple[dict[str, float], dict[str, int], bool]:
    """Run Moro in a subprocess; returns what finished and whether everything did."""
    command = [sys.executable, "-c", MORO_SCRIPT, source]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=MORO_TIMEOUT)
        output, finished = done.stdout, done.returncode == 0
        if not finished:
            print(done.stderr[-2000:], file=sys.stderr)
    except subprocess.TimeoutExpired as timeout:
        raw = timeout.stdout or b""
        output, finished = raw.decode() if isinstance(raw, bytes) else raw, False
    seconds, ops = {}, {}
    for line in output.splitlines():
        record = json.loads(line)
        seconds[record["name"]], ops[record["name"]] = record["seconds"], record["ops"]
    return seconds, ops, finished and len(seconds) == len(QUANTITIES)


def _per_call(function, repeat: int = 7, number: int = 200) -> float:
    """Best-of-``repeat`` time per call in µs (the minimum is robust on a busy machine)."""
    return min(timeit.repeat(function, repeat=repeat, number=number)) / number * 1e6


def _elbow_section() -> list[str]:
    print("3-DOF RRR, all symbolic: robolab ...", flush=True)
    best = None
    for _ in range(3):
        _, seconds, ops = _robolab(ELBOW)
        best = seconds if best is None or seconds["G"] < best["G"] else best
    print(f"  robolab T, J, M, C, G: {best['G']:.3f} CPU s", flush=True)
    print(f"3-DOF RRR: Moro 0.5.0 (subprocess, limit {MORO_TIMEOUT:.0f} s) ...", flush=True)
    moro_seconds, moro_ops, finished = _moro(ELBOW)
    lines = [
        "### 3-DOF RRR elbow arm, every parameter symbolic",
        "",
        "CPU seconds from construction to each result (cumulative), and SymPy `count_ops`.",
        "",
        "| result | robolab (s) | Moro 0.5.0 (s) | speed-up | robolab ops | Moro ops | ops ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in QUANTITIES:
        ours, theirs = best[name], moro_seconds.get(name)
        speed = f"{theirs / ours:.0f}×" if theirs else "—"
        theirs_text = f"{theirs:.2f}" if theirs else f"did not finish in {MORO_TIMEOUT:.0f} s"
        ratio = f"{ops[name] / moro_ops[name]:.2f}" if name in moro_ops else "—"
        lines.append(
            f"| {name} | {ours:.3f} | {theirs_text} | {speed} | {ops[name]} | "
            f"{moro_ops.get(name, '—')} | {ratio} |"
        )
        print(f"  {name}: robolab {ours:.3f} s, Moro {theirs_text} s ({speed})", flush=True)
    if finished:
        speed = moro_seconds["G"] / best["G"]
        verdict = (
            "met" if speed >= 10 and all(ops[k] <= 1.5 * moro_ops[k] for k in "MCG") else "MISSED"
        )
        lines += [
            "",
            f"Targets: T, J, M, C, G at least 10× faster than Moro (measured {speed:.0f}×); "
            f"`count_ops` of M, C, G within 1.5× of Moro's: **{verdict}**.",
        ]
    return lines


def _puma_section() -> list[str]:
    import modern_robotics as mr
    import pinocchio as pin

    print("Puma 560, numeric parameters: robolab ...", flush=True)
    robot, seconds, ops = _robolab(PUMA)
    symbolic = seconds["G"] - seconds["J"]  # M, C, G after the kinematics
    start = time.process_time()
    fast = robot.numeric()
    zero = np.zeros(6)
    fast.forward_kinematics(zero)
    fast.jacobian(zero)
    fast.inertia_matrix(zero)
    fast.coriolis_matrix(zero, zero)
    fast.gravity_vector(zero)
    fast.inverse_dynamics(zero, zero, zero)
    ready = time.process_time() - start
    total = seconds["G"] + ready
    print(f"  M, C, G {symbolic:.2f} s, numeric() ready {ready:.2f} s", flush=True)

    rng = np.random.default_rng(0)
    q, qd, qdd = rng.uniform(-1, 1, (3, 6))
    timings = {
        "inverse_dynamics(q, qd, qdd)": _per_call(lambda: fast.inverse_dynamics(q, qd, qdd)),
        "inertia_matrix(q)": _per_call(lambda: fast.inertia_matrix(q)),
        "coriolis_matrix(q, qd)": _per_call(lambda: fast.coriolis_matrix(q, qd)),
        "gravity_vector(q)": _per_call(lambda: fast.gravity_vector(q)),
        "forward_kinematics(q)": _per_call(lambda: fast.forward_kinematics(q)),
        "jacobian(q)": _per_call(lambda: fast.jacobian(q)),
    }
    batch = rng.uniform(-1, 1, (1000, 6))
    batch_time = _per_call(lambda: fast.inverse_dynamics(batch, batch, batch), repeat=5, number=5)

    # anchors: Pinocchio's C++ RNEA and the Modern Robotics library, on the same arm
    from robolab.dh.to_screw import screw_parameters

    screw = screw_parameters(robot)
    model = _pinocchio_puma(robot)
    data = model.createData()
    tau = fast.inverse_dynamics(q, qd, qdd)
    assert np.allclose(pin.rnea(model, data, q, qd, qdd), tau, atol=1e-9)
    mlist, glist = list(screw["link_frames"]), list(screw["spatial_inertias"])
    slist, gravity = screw["screw_axes_space"], screw["gravity"]
    assert np.allclose(
        mr.InverseDynamics(q, qd, qdd, gravity, np.zeros(6), mlist, glist, slist), tau
    )
    anchors = {
        "Pinocchio `rnea` (C++)": _per_call(lambda: pin.rnea(model, data, q, qd, qdd)),
        "modern_robotics `InverseDynamics`": _per_call(
            lambda: mr.InverseDynamics(q, qd, qdd, gravity, np.zeros(6), mlist, glist, slist),
            repeat=3,
            number=50,
        ),
    }
    for name, value in {**timings, **anchors}.items():
        print(f"  {name}: {value:.1f} µs", flush=True)

    print(f"Puma 560: Moro 0.5.0 (subprocess, limit {MORO_TIMEOUT:.0f} s) ...", flush=True)
    moro_seconds, _, _ = _moro(PUMA)
    moro_m = (
        f"{moro_seconds['M']:.1f}"
        if "M" in moro_seconds
        else f"did not finish in {MORO_TIMEOUT:.0f} s"
    )
    print(f"  Moro M: {moro_m}", flush=True)
    id_time = timings["inverse_dynamics(q, qd, qdd)"]
    lines = [
        "### Puma-560-like 6-DOF arm, numeric parameters (Corke's table), symbolic q",
        "",
        "| step | robolab | Moro 0.5.0 |",
        "|---|---:|---:|",
        f"| M (CPU s, from construction) | {seconds['M']:.2f} | {moro_m} |",
        f"| M, C, G (CPU s, from construction) | {seconds['G']:.2f} | — |",
        f"| `numeric()` ready: every function compiled (CPU s) | {ready:.2f} | — |",
        f"| M, C, G and `numeric()` ready (CPU s) | **{total:.2f}** | — |",
        "",
        f"Sizes (`count_ops`): M {ops['M']}, C {ops['C']}, G {ops['G']}.",
        "",
        "| compiled function (one configuration) | µs per call |",
        "|---|---:|",
    ]
    lines += [f"| `{name}` | {value:.1f} |" for name, value in timings.items()]
    lines += [
        f"| `inverse_dynamics`, batch of 1000 states, per state | {batch_time / 1000:.2f} |",
        *[f"| anchor: {name} | {value:.1f} |" for name, value in anchors.items()],
        "",
        f"Targets: M, C, G and `numeric()` ready in under 10 s (measured {total:.1f} s: "
        f"**{'met' if total < 10 else 'MISSED'}**); compiled `inverse_dynamics` under 50 µs "
        f"per call (measured {id_time:.1f} µs: **{'met' if id_time < 50 else 'MISSED'}**). "
        "µs are the best of several repeats (wall clock); CPU seconds are `time.process_time`.",
    ]
    return lines


def _panda_section() -> list[str]:
    """7 joints with full inertia tensors: exact results (nested where expanding would not pay)."""
    from robolab.models.library import load_robot

    print("Panda (7-DOF, library data, full inertia tensors): robolab ...", flush=True)
    robot = load_robot("panda", form="dh")
    start = time.process_time()
    robot.inertia_matrix()
    after_m = time.process_time() - start
    robot.coriolis_matrix()
    robot.gravity_vector()
    symbolic = time.process_time() - start
    start = time.process_time()
    fast = robot.numeric()
    zero = np.zeros(7)
    fast.inertia_matrix(zero)
    fast.coriolis_matrix(zero, zero)
    fast.gravity_vector(zero)
    fast.inverse_dynamics(zero, zero, zero)
    ready = time.process_time() - start
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-1, 1, (3, 7))
    per_call = _per_call(lambda: fast.inverse_dynamics(q, qd, qdd))
    print(f"  M {after_m:.1f} s, M, C, G {symbolic:.1f} s, numeric() {ready:.1f} s", flush=True)
    return [
        "### Franka Panda, 7 joints, modified DH, full inertia tensors (robots/panda.json)",
        "",
        "Exact M, C, G; pieces whose expansion would exceed "
        "`robolab.dh.simplify.PIECE_MAX_TERMS` terms stay as nested products.",
        "",
        "| step | robolab |",
        "|---|---:|",
        f"| M (CPU s) | {after_m:.1f} |",
        f"| M, C, G (CPU s) | {symbolic:.1f} |",
        f"| `numeric()` ready (CPU s) | {ready:.1f} |",
        f"| `inverse_dynamics` (µs per call) | {per_call:.1f} |",
    ]


def _pinocchio_puma(robot):
    """Pinocchio model of the same arm (standard DH: joint i about z of frame {i-1})."""
    import pinocchio as pin

    from robolab.spatial.transforms import dh_standard

    model = pin.Model()
    model.gravity.linear = np.array([0.0, 0.0, -9.81])
    parent, placement = 0, np.eye(4)
    for i, (a, alpha, d, _theta) in enumerate(robot.dh_parameters):
        parent = model.addJoint(parent, pin.JointModelRZ(), pin.SE3(placement), f"joint{i + 1}")
        inside = dh_standard(float(a), float(alpha), float(d), 0.0)
        inertia = pin.Inertia(
            float(robot.m(i + 1)),
            np.array(robot.cm_positions[i], dtype=float).ravel(),
            np.array(robot.I_cm(i + 1), dtype=float),
        )
        model.appendBodyToJoint(parent, pin.SE3(inside).act(inertia), pin.SE3.Identity())
        placement = inside
    return model


def main() -> str:
    lines = [
        "## Symbolic DH models: robolab.DHRobot vs Moro 0.5.0",
        "",
        "`benchmarks/bench_dh.py`. Moro runs in a subprocess with a time limit of "
        f"{MORO_TIMEOUT:.0f} s (set `ROBOLAB_BENCH_MORO_TIMEOUT`); robolab's symbolic times "
        "are the best of three fresh robots.",
        "",
    ]
    lines += _elbow_section()
    lines.append("")
    lines += _puma_section()
    lines.append("")
    lines += _panda_section()
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
