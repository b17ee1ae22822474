"""Energy drift of the four integrators on the frictionless UR5 (chapter 10).

Run with ``python benchmarks/run_all.py integrators`` (or this file alone, which prints the
section). The UR5 of the model library is released from rest at
θ0 = (0, -0.5, 0.8, -0.3, 0.6, 0) rad with no torques and no friction, and simulated for 5 s
with ``robolab.simulate`` and each integrator (``euler``, ``semi_implicit_euler``,
``rk4`` at steps of 1, 5 and 10 ms; the adaptive ``rk45`` at two tolerances, reporting every
1 ms). The exact motion conserves the total energy E = K + P, so for each run the table
gives

* the drift max_t |E(t) - E(0)| in joules,
* the relative drift: that over the largest kinetic energy of the run (robolab's
  ``Simulation.relative_energy_drift``; the zero of P is arbitrary, so E(0) is no scale)
  and, for comparison, over |E(0)|,
* the CPU time of the run (process time, best of three for the short ones).

The energies of the table are Pinocchio's (``computeKineticEnergy`` +
``computePotentialEnergy`` along robolab's trajectory), not robolab's own. The acceptance
line of issue 13 is RK4 at 1 ms for 5 s: relative drift below 1e-6. A last row compares
robolab's ``rk45`` with SciPy's own ``solve_ivp`` RK45 run over Pinocchio's forward
dynamics (``aba``) at the same tolerances.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import robolab as rl

Q0 = np.array([0.0, -0.5, 0.8, -0.3, 0.6, 0.0])
DURATION = 5.0
STEPS = (0.001, 0.005, 0.01)
TOLERANCES = (1e-6, 1e-9)
TARGET = 1e-6  # RK4, 1 ms, 5 s: relative energy drift
# The tests' Pinocchio model of a screw robot (tests/reference/pinocchio_screw.py), written
# without robolab, gives the energies.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def _pinocchio_energy(
    robot: rl.ScrewRobot, run: rl.SimulationResult
) -> tuple[np.ndarray, np.ndarray]:
    """(E, K) along the run, by Pinocchio (the model built from the same screw data)."""
    import pinocchio as pin
    from reference.pinocchio_screw import pinocchio_from_screw

    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    kinetic = np.array(
        [
            pin.computeKineticEnergy(model, data, q, qd)
            for q, qd in zip(run.joint_positions, run.joint_velocities, strict=True)
        ]
    )
    potential = np.array([pin.computePotentialEnergy(model, data, q) for q in run.joint_positions])
    return kinetic + potential, kinetic


def _timed(function: Callable[[], rl.SimulationResult]) -> tuple[rl.SimulationResult, float]:
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def _row(robot: rl.ScrewRobot, name: str, label: str, **keywords: float) -> tuple[str, float]:
    try:
        run, seconds = _timed(
            lambda: rl.simulate(robot, Q0, duration=DURATION, integrator=name, **keywords)
        )
    except rl.SimulationDiverged as error:
        print(f"{name} {label}: diverged", flush=True)
        return f"| `{name}` | {label} | diverged at t = {error.time:.3g} s | | | |", float("inf")
    energy, kinetic = _pinocchio_energy(robot, run)
    drift = float(np.abs(energy - energy[0]).max())
    relative = drift / float(kinetic.max())
    print(f"{name} {label}: drift {drift:.3g} J, relative {relative:.2g}, {seconds:.2f} s",
          flush=True)  # fmt: skip
    return (
        f"| `{name}` | {label} | {drift:.3g} | {relative:.2g} | {drift / abs(energy[0]):.2g} | "
        f"{seconds:.2f} |",
        relative,
    )


def _scipy_comparison(robot: rl.ScrewRobot) -> str:
    """robolab's rk45 against SciPy's own solve_ivp over Pinocchio's aba, same tolerances."""
    import pinocchio as pin
    from reference.pinocchio_screw import pinocchio_from_screw
    from scipy.integrate import solve_ivp

    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    times = np.linspace(0.0, 1.0, 1001)
    ours = rl.simulate(robot, Q0, duration=1.0, timestep=0.001, integrator="rk45", rtol=1e-9,
                       atol=1e-9)  # fmt: skip

    def rate(_t: float, x: np.ndarray) -> np.ndarray:
        return np.concatenate([x[6:], pin.aba(model, data, x[:6], x[6:], np.zeros(6))])

    theirs = solve_ivp(rate, (0.0, 1.0), np.concatenate([Q0, np.zeros(6)]), method="RK45",
                       t_eval=times, rtol=1e-9, atol=1e-9)  # fmt: skip
    difference = float(np.abs(ours.joint_positions - theirs.y[:6].T).max())
    print(
        f"rk45 vs SciPy's own RK45 over pin.aba, 1 s: max |Δθ| = {difference:.2g} rad", flush=True
    )
    return (
        f"robolab's `rk45` against SciPy's own `solve_ivp(method=\"RK45\")` over Pinocchio's "
        f"`aba`, rtol = atol = 1e-9, 1 s: the joint positions differ by at most "
        f"{difference:.2g} rad."
    )


def main() -> str:
    robot = rl.load_robot("ur5")
    lines = [
        "| integrator | step | max\\|E − E(0)\\| (J) | relative to max K | relative to \\|E(0)\\| "
        "| CPU s |",
        "|---|---|---:|---:|---:|---:|",
    ]
    acceptance = float("nan")
    for name in ("euler", "semi_implicit_euler", "rk4"):
        for step in STEPS:
            row, relative = _row(robot, name, f"{step * 1000:g} ms", timestep=step)
            lines.append(row)
            if name == "rk4" and step == 0.001:
                acceptance = relative
    for tolerance in TOLERANCES:
        row, _ = _row(robot, "rk45", f"adaptive, rtol = atol = {tolerance:g}", timestep=0.001,
                      rtol=tolerance, atol=tolerance)  # fmt: skip
        lines.append(row)
    ok = acceptance < TARGET
    comparison = _scipy_comparison(robot)
    return "\n".join(
        [
            "## Integrators: energy drift on the frictionless UR5 (chapter 10)",
            "",
            "The UR5 of the model library released from rest at θ0 = (0, −0.5, 0.8, −0.3, 0.6, 0)"
            " rad, no torques, no friction, 5 s with `robolab.simulate`. The exact motion keeps "
            "E = K + P; the energies here are Pinocchio's along robolab's trajectory. The "
            "relative drift divides by the largest kinetic energy of the run (the energy that "
            "changed form; the zero of P is arbitrary), and for comparison by |E(0)|. CPU time of "
            "the whole run (including robolab's own energies).",
            "",
            *lines,
            "",
            f"Acceptance (issue 13): RK4 at 1 ms for 5 s, relative energy drift {acceptance:.2g} "
            f"< {TARGET:g} {'✓' if ok else '✗'}.",
            "",
            comparison,
        ]
    )


if __name__ == "__main__":
    print(main())
