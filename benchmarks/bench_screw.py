"""Screw-robot dynamics: robolab vs the Python Modern Robotics library vs Pinocchio.

Run with ``python benchmarks/run_all.py screw``. On the book's UR5 and the
Panda of the model library (``robolab.load_robot``) it times, in this one
process:

* one state per call: inverse dynamics (RNEA), the mass matrix and forward
  dynamics, robolab's robot-first functions against ``modern_robotics`` 1.1.1
  (``InverseDynamics``, ``MassMatrix``, ``ForwardDynamics``) and Pinocchio
  (``rnea``, ``crba``, ``aba``);
* a batch of B = 1000 states in one call, per state, against Pinocchio called
  once per state from a Python loop;
* one second of UR5 simulation at 1 kHz (``forward_dynamics_trajectory``,
  Euler steps of 1 ms, 1000 forward-dynamics calls), next to Pinocchio's ``aba`` with the
  same Euler steps in a Python loop;
* the CPU time to write and compile each robot's generated one-state functions.

Pinocchio's models are built from the same screw data (joint frames on the
screw axes); robolab and Pinocchio are checked to agree before timing.
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable

import numpy as np

import robolab as rl

BATCH = 1000
TARGETS = {
    "rnea_vs_mr": 15.0,
    "mass_vs_mr": 300.0,
    "fd_vs_mr": 100.0,
    "simulation_s": 0.02,
    "one_state_vs_pin": 15.0,
    "rnea_batch_vs_pin": 2.0,
    "mass_batch_vs_pin": 2.0,
    "fd_batch_vs_pin": 3.0,
}


def _time(function: Callable[[], object], number: int) -> float:
    """CPU seconds of this process for ``number`` calls.

    Process CPU time, not wall time: the machine is shared, and time spent
    running other people's work must not count against either side.
    """
    return timeit.Timer(function, timer=time.process_time).timeit(number)


def _calibrate(function: Callable[[], object], seconds: float) -> int:
    """Calls per timing sample so that one sample takes about ``seconds``."""
    number = 1
    while _time(function, number) < seconds and number < 1_000_000:
        number *= 2
    return number


def _interleaved(functions: list[Callable[[], object]], rounds: int = 15) -> list[float]:
    """Best time per call of each function, in seconds, sampled in turns.

    The machine is shared: taking the minimum over many short samples, taken
    in turns for the functions being compared, gives each the same chance of
    a quiet moment.
    """
    numbers = [_calibrate(function, 0.02) for function in functions]
    best = [float("inf")] * len(functions)
    for _ in range(rounds):
        for i, (function, number) in enumerate(zip(functions, numbers, strict=True)):
            best[i] = min(best[i], _time(function, number) / number)
    return best


def _pinocchio_model(robot):
    """Pinocchio model of a revolute-jointed ScrewRobot: joint frames with z on the screw axes."""
    import pinocchio as pin

    def se3(T):
        return pin.SE3(np.array(T[:3, :3]), np.array(T[:3, 3]))

    model = pin.Model()
    model.gravity = pin.Motion(np.array(robot.gravity), np.zeros(3))
    centre, parent, parent_pose = np.eye(4), 0, np.eye(4)
    for i in range(robot.n_joints):
        centre = centre @ robot.link_frames[i]
        omega, v = robot.screw_axes_space[:3, i], robot.screw_axes_space[3:, i]
        helper = np.array([1.0, 0, 0]) if abs(omega[0]) < 0.9 else np.array([0, 1.0, 0])
        x = np.cross(helper, omega)
        x /= np.linalg.norm(x)
        pose = np.eye(4)
        pose[:3, :3] = np.column_stack([x, np.cross(omega, x), omega])
        pose[:3, 3] = np.cross(omega, v)
        parent = model.addJoint(
            parent, pin.JointModelRZ(), se3(np.linalg.solve(parent_pose, pose)), f"j{i}"
        )
        X = np.linalg.solve(pose, centre)
        G = robot.spatial_inertias[i]
        model.appendBodyToJoint(
            parent,
            pin.Inertia(float(G[3, 3]), X[:3, 3], X[:3, :3] @ G[:3, :3] @ X[:3, :3].T),
            pin.SE3.Identity(),
        )
        parent_pose = pose
    return model


def _states(robot) -> tuple[np.ndarray, ...]:
    """One state (q, q̇, q̈, τ) and a batch of BATCH states (Q, Q̇, Q̈, T), seeded."""
    n = robot.n_joints
    rng = np.random.default_rng(1)
    single = tuple(rng.uniform(-1.5, 1.5, n) for _ in range(4))
    batch = tuple(rng.uniform(-1.5, 1.5, (BATCH, n)) for _ in range(4))
    return single + batch


def _batched_calls(robot) -> dict[str, Callable[[], object]]:
    _, _, _, _, Q, QD, QDD, TAU = _states(robot)
    return {
        "RNEA": lambda: rl.inverse_dynamics_rnea(robot, Q, QD, QDD),
        "mass matrix": lambda: rl.mass_matrix_crba(robot, Q),
        "forward dynamics": lambda: rl.forward_dynamics_crba(robot, Q, QD, TAU),
    }


def _robot_rows(
    name: str,
    robot,
    lines: list[str],
    verdicts: list[tuple[str, bool]],
    alone: dict[tuple[str, str], float],
) -> None:
    import modern_robotics as mr
    import pinocchio as pin

    q, qd, qdd, tau, Q, QD, QDD, TAU = _states(robot)
    g = np.array(robot.gravity)
    zero_tip = np.zeros(6)
    M_list, G_list, S_list = robot.link_frames, robot.spatial_inertias, robot.screw_axes_space
    model = _pinocchio_model(robot)
    data = model.createData()

    agreement = max(
        np.abs(
            rl.inverse_dynamics_rnea(robot, q, qd, qdd) - pin.rnea(model, data, q, qd, qdd)
        ).max(),
        np.abs(
            rl.forward_dynamics_crba(robot, q, qd, tau) - pin.aba(model, data, q, qd, tau)
        ).max(),
    )
    print(f"{name}: robolab vs Pinocchio max |difference| {agreement:.1e}", flush=True)
    assert agreement < 1e-8, "robolab and Pinocchio disagree; the comparison would be meaningless"

    single = {
        "RNEA": (
            lambda: rl.inverse_dynamics_rnea(robot, q, qd, qdd),
            lambda: mr.InverseDynamics(q, qd, qdd, g, zero_tip, M_list, G_list, S_list),
            lambda: pin.rnea(model, data, q, qd, qdd),
            "rnea_vs_mr",
        ),
        "mass matrix": (
            lambda: rl.mass_matrix_crba(robot, q),
            lambda: mr.MassMatrix(q, M_list, G_list, S_list),
            lambda: pin.crba(model, data, q),
            "mass_vs_mr",
        ),
        "forward dynamics": (
            lambda: rl.forward_dynamics_crba(robot, q, qd, tau),
            lambda: mr.ForwardDynamics(q, qd, tau, g, zero_tip, M_list, G_list, S_list),
            lambda: pin.aba(model, data, q, qd, tau),
            "fd_vs_mr",
        ),
    }
    for label, (ours, book, pinocchio, key) in single.items():
        t_ours, t_book, t_pin = _interleaved([ours, book, pinocchio])
        ratio = t_book / t_ours
        ok = ratio >= TARGETS[key]
        behind = t_ours / t_pin
        near = behind <= TARGETS["one_state_vs_pin"]
        verdicts.append((f"{name} {label}, one state: ≥ {TARGETS[key]:g}× modern_robotics", ok))
        verdicts.append(
            (f"{name} {label}, one state: ≤ {TARGETS['one_state_vs_pin']:g}× Pinocchio", near)
        )
        print(
            f"{name} {label:16s} robolab {t_ours * 1e6:7.1f} µs  modern_robotics "
            f"{t_book * 1e6:8.1f} µs ({ratio:5.0f}×)  Pinocchio {t_pin * 1e6:5.2f} µs "
            f"({behind:.1f}× Pinocchio's time)",
            flush=True,
        )
        lines.append(
            f"| {name} | {label}, one state | {t_ours * 1e6:.1f} µs | {t_book * 1e6:.0f} µs | "
            f"{t_pin * 1e6:.2f} µs | **{ratio:.0f}×** faster than modern_robotics "
            f"(target ≥ {TARGETS[key]:g}×) {'✓' if ok else '✗'}; **{behind:.1f}×** "
            f"Pinocchio's time (target ≤ {TARGETS['one_state_vs_pin']:g}×) "
            f"{'✓' if near else '✗'} |"
        )
    (aba,) = _interleaved([lambda: rl.forward_dynamics_aba(robot, q, qd, tau)], rounds=5)
    lines.append(
        f"| {name} | forward dynamics by ABA, one state | {aba * 1e6:.1f} µs | | | "
        "(for comparison; the fast path is CRBA + Cholesky) |"
    )

    def loop(function):
        def run():
            for i in range(BATCH):
                function(i)

        return run

    ours = _batched_calls(robot)
    batched = {
        "RNEA": (
            ours["RNEA"],
            loop(lambda i: pin.rnea(model, data, Q[i], QD[i], QDD[i])),
            "rnea_batch_vs_pin",
        ),
        "mass matrix": (
            ours["mass matrix"],
            loop(lambda i: pin.crba(model, data, Q[i])),
            "mass_batch_vs_pin",
        ),
        "forward dynamics": (
            ours["forward dynamics"],
            loop(lambda i: pin.aba(model, data, Q[i], QD[i], TAU[i])),
            "fd_batch_vs_pin",
        ),
    }
    for label, (ours, pinocchio, key) in batched.items():
        t_ours, t_pin = (t / BATCH for t in _interleaved([ours, pinocchio], rounds=9))
        ratio = t_ours / t_pin
        ok = ratio <= TARGETS[key]
        verdicts.append((f"{name} {label}, batch: ≤ {TARGETS[key]:g}× Pinocchio per state", ok))
        print(
            f"{name} {label:16s} batch of {BATCH}: robolab {t_ours * 1e6:5.2f} µs/state, "
            f"Pinocchio loop {t_pin * 1e6:5.2f} µs/state ({ratio:.2f}×)",
            flush=True,
        )
        before = alone.get((name, label))
        note = f" ({before * 1e6:.2f} µs before Pinocchio is imported)" if before else ""
        lines.append(
            f"| {name} | {label}, B = {BATCH} in one call, per state | {t_ours * 1e6:.2f} µs{note} "
            f"| | {t_pin * 1e6:.2f} µs (Python loop) | **{ratio:.2f}×** Pinocchio's time "
            f"(target ≤ {TARGETS[key]:g}×) {'✓' if ok else '✗'} |"
        )


#: Measured once (numba 0.62.1 and llvmlite 0.45.1 installed with pip into a scratch folder,
#: this machine, loaded), not re-run by this benchmark: Numba is not a dependency.
NUMBA_NOTE = (
    "Numba, measured and not adopted: `numba.njit` of the same generated UR5 forward "
    "dynamics runs in 1.2 µs (Panda 1.5 µs), but compiling it took 2.7 CPU-s (Panda 4.2) "
    "per function per robot, and chapter 13's slider makes a new model robot at every step "
    "(its folded constants change), so each step would wait seconds; a generic kernel with "
    "the parameters as arrays would compile once (with an on-disk cache, which a read-only "
    "Binder image cannot keep between sessions). `import numba` took 1.1 s wall (the issue's "
    "target for all of `import robolab` is 0.3 s), numba + llvmlite take 196 MB installed, "
    "and numba 0.62.1 brought numpy 2.3.5 with it (the project runs numpy 2.4). The "
    "generated Python needs no dependency and compiles in milliseconds."
)


def _generation_rows(robots: dict) -> list[str]:
    """CPU time to write and compile a robot's one-state functions (once per robot)."""
    from robolab.screw._fast.compiled import CompiledDynamics

    rows = []
    for name, robot in robots.items():
        arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
        n = robot.n_joints
        start = time.process_time()
        compiled = CompiledDynamics(*arrays)
        compiled.inverse_dynamics(np.zeros(n), np.zeros(n), np.zeros(n), robot.gravity, None)
        compiled.mass_matrix(np.zeros(n))
        compiled.forward_dynamics(np.zeros(n), np.zeros(n), np.zeros(n), robot.gravity, None)
        seconds = time.process_time() - start
        lines = sum(len(f.source.splitlines()) for f in compiled.functions.values())
        rows.append(
            f"| {name} | writing and compiling RNEA, M and forward dynamics (first call) | "
            f"{seconds * 1e3:.0f} ms | | | once per robot, {lines} lines of Python |"
        )
    return rows


def main() -> str:
    robots = {"UR5": rl.load_robot("ur5"), "Panda": rl.load_robot("panda")}
    lines = [
        "| robot | what | robolab | modern_robotics 1.1.1 | Pinocchio | result |",
        "|---|---|---|---|---|---|",
    ]
    verdicts: list[tuple[str, bool]] = []
    # Importing Pinocchio changes how glibc returns freed memory to the system, and every large
    # NumPy temporary then costs page faults; robolab's batched calls are also timed before.
    alone: dict[tuple[str, str], float] = {}
    if "pinocchio" not in sys.modules:
        for name, robot in robots.items():
            calls = _batched_calls(robot)
            times = _interleaved(list(calls.values()), rounds=5)
            for label, best in zip(calls, times, strict=True):
                alone[(name, label)] = best / BATCH
    for name, robot in robots.items():
        _robot_rows(name, robot, lines, verdicts, alone)

    ur5 = robots["UR5"]
    torques = np.zeros((1001, 6))
    start = np.array([0.3, -1.0, 1.2, -0.5, 0.8, 0.1])

    def simulate():
        return rl.forward_dynamics_trajectory(ur5, start, np.zeros(6), torques, 0.001, 1)

    import pinocchio as pin

    pin_model = _pinocchio_model(ur5)
    pin_data = pin_model.createData()
    zero = np.zeros(6)

    def pinocchio_steps():  # the anchor: 1000 aba calls and Euler steps in a Python loop
        q, qd = start.copy(), zero.copy()
        for _ in range(1000):
            qdd = pin.aba(pin_model, pin_data, q, qd, zero)
            q, qd = q + 0.001 * qd, qd + 0.001 * qdd

    seconds, anchor = (min(_time(f, 1) for _ in range(9)) for f in (simulate, pinocchio_steps))
    ok = seconds < TARGETS["simulation_s"]
    verdicts.append((f"UR5, 1 s at 1 kHz: < {TARGETS['simulation_s'] * 1e3:g} ms", ok))
    print(
        f"UR5 1 s at 1 kHz (1000 Euler steps): {seconds * 1e3:.1f} ms, Pinocchio's aba in a "
        f"Python loop {anchor * 1e3:.1f} ms",
        flush=True,
    )
    lines.append(
        f"| UR5 | 1 s of simulation at 1 kHz (1000 Euler steps, torque-free) | "
        f"{seconds * 1e3:.1f} ms | | {anchor * 1e3:.1f} ms (`aba` + Euler in a Python loop) | "
        f"{seconds / anchor:.1f}× the Pinocchio loop; target < "
        f"{TARGETS['simulation_s'] * 1e3:g} ms {'✓' if ok else '✗'} |"
    )
    lines += _generation_rows(robots)
    passed = sum(ok for _, ok in verdicts)
    summary = f"{passed} of {len(verdicts)} targets met" + (
        "."
        if passed == len(verdicts)
        else ": missed " + "; ".join(t for t, ok in verdicts if not ok)
    )
    return "\n".join(
        [
            "## Screw robots: dynamics (robolab vs modern_robotics vs Pinocchio)",
            "",
            "The book's UR5 and the Panda of the model library, robot-first functions "
            "(`inverse_dynamics_rnea`, `mass_matrix_crba`, `forward_dynamics_crba`) with gravity "
            "and no tip wrench. `modern_robotics` builds the mass matrix from n inverse-dynamics "
            "calls and forward dynamics from n + 3. Pinocchio is C++ called from Python "
            "(per-state numbers in a batch include the Python loop). Times are the CPU time of "
            "the benchmark process, best of samples taken in turns, so that other work on a "
            "shared machine does not count. One state per call runs straight-line Python "
            "generated once per robot (`robolab/screw/_fast/compiled.py`: Featherstone's "
            "recursions in joint-aligned frames with the robot's constants folded in, dead lines "
            "dropped, equal sums shared; equal to the NumPy space-frame kernel to 1e-12); a batch "
            "of 48 or more states uses the structure-of-arrays kernel in joint-aligned frames. "
            "Once Pinocchio is imported, glibc returns freed memory to the system at "
            "every free in this process, so NumPy's large temporaries cost page faults: the "
            "batched rows also give robolab's time measured before the import.",
            "",
            *lines,
            "",
            f"Targets: {summary}",
            "",
            NUMBA_NOTE,
        ]
    )


if __name__ == "__main__":
    print(main())
