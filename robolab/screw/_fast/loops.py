"""Generated time loops: ``simulate_tracking``'s controllers and one state's torque-driven run.

Chapter 13's widget re-runs three controllers for 3 s at 1 kHz at every slider step:
9000 control-law evaluations and forward-dynamics calls on a planar 2R or a UR5. The
readable loop of ``simulate_tracking`` does each step with NumPy on a batch of the
controllers' states; for a few joints NumPy's overhead per call is most of the time. Here
the loop of one controller is written out as Python source for the number of joints, the
controller and the integrator (joints unrolled, the state in local variables), compiled
once per such combination and kept; it calls the robots' generated dynamics
(:mod:`robolab.screw._fast.compiled`): the true arm's forward dynamics and the model's
gravity torques, or its mass matrix and inverse dynamics.

The equations are those of ``simulate_tracking`` (``tests/screw/control/test_tracking.py``
checks both loops against each other and against ``modern_robotics``): at t_i the
feedback u = K_p θ_e + K_i ∫θ_e + K_d θ̇_e, the controller's torque (u; u + g̃(θ);
u + τ̃_d,i; M̃(θ)(u) + h̃(θ, θ̇, θ̈_d)), its peak and the torque limits, ∫θ_e += Δt θ_e,
then ``resolution`` integration steps of the true arm under the held torque less its
friction. Computed torque is one call of the model's inverse dynamics at the commanded
acceleration, τ = RNEA(θ, θ̇, θ̈_d + u), the same torque as M̃(θ) u + h̃(θ, θ̇, θ̈_d) to
rounding at a third of the work of forming M̃. Without torque limits the peaks are taken
from the recorded torques after the loop. A state that runs away (a speed over 10⁶, NaN)
or generated code that cannot go on returns None: the caller then runs the NumPy loop,
which says what diverged.

:func:`torque_rows` does the same for
:func:`~robolab.screw.simulation.dynamics_trajectory.forward_dynamics_trajectory` of one
state (the torques of each row held over the row's integration steps), with the same
numbers as its NumPy loop, bit for bit.

Examples
--------
>>> source = _loop_source(1, "pd", "semi_implicit_euler", 1, False, False)
>>> "for i in range(N):" in source and "fd(q0, v0, t0, *g)" in source
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...support.codegen import compiled_once
from ..dynamics.model import DynamicsModel
from ..friction import JointFriction

__all__: list[str] = []

#: A joint speed (rad/s or m/s) no arm reaches: past it the closed loop has run away.
_RUNAWAY_SPEED = 1e6

_LOOPS: dict[tuple[object, ...], Callable[..., Any]] = {}


def _names(prefix: str, n: int) -> str:
    return ", ".join(f"{prefix}{j}" for j in range(n))


def _rate_lines(n: int, q: str, v: str, out: str, has_friction: bool, indent: str) -> list[str]:
    """``out0, ... = θ̈`` of the true arm at (q, v) under the held torques t (less friction)."""
    lines = []
    torque = "t"
    if has_friction:
        torque = "u"
        lines += [
            f"{indent}u{j} = t{j} - (b{j} * {v}{j} + c{j} * tanh({v}{j} / scale))" for j in range(n)
        ]
    arguments = ", ".join([f"{q}{j}" for j in range(n)] + [f"{v}{j}" for j in range(n)])
    lines.append(f"{indent}{_names(out, n)}, = fd({arguments}, {_names(torque, n)}, *g)")
    return lines


def _step_lines(n: int, integrator: str, has_friction: bool, indent: str) -> list[str]:
    """One integration step of (q, v) by h, operation for operation as ``advance``."""
    J = range(n)
    if integrator == "euler":
        lines = _rate_lines(n, "q", "v", "a", has_friction, indent)
        lines += [f"{indent}q{j}, v{j} = q{j} + h * v{j}, v{j} + h * a{j}" for j in J]
        return lines
    if integrator == "semi_implicit_euler":
        lines = _rate_lines(n, "q", "v", "a", has_friction, indent)
        lines += [f"{indent}v{j} = v{j} + h * a{j}" for j in J]
        lines += [f"{indent}q{j} = q{j} + h * v{j}" for j in J]
        return lines
    # rk4, as robolab.screw.simulation.integrators.advance
    lines = _rate_lines(n, "q", "v", "k1_", has_friction, indent)
    lines += [f"{indent}w2_{j} = v{j} + half * k1_{j}" for j in J]
    lines += [f"{indent}x2_{j} = q{j} + half * v{j}" for j in J]
    lines += _rate_lines(n, "x2_", "w2_", "k2_", has_friction, indent)
    lines += [f"{indent}w3_{j} = v{j} + half * k2_{j}" for j in J]
    lines += [f"{indent}x3_{j} = q{j} + half * w2_{j}" for j in J]
    lines += _rate_lines(n, "x3_", "w3_", "k3_", has_friction, indent)
    lines += [f"{indent}w4_{j} = v{j} + h * k3_{j}" for j in J]
    lines += [f"{indent}x4_{j} = q{j} + h * w3_{j}" for j in J]
    lines += _rate_lines(n, "x4_", "w4_", "k4_", has_friction, indent)
    lines += [
        f"{indent}q{j}, v{j} = q{j} + sixth * (v{j} + 2.0 * (w2_{j} + w3_{j}) + w4_{j}), "
        f"v{j} + sixth * (k1_{j} + 2.0 * (k2_{j} + k3_{j}) + k4_{j})"
        for j in J
    ]
    return lines


def _loop_source(
    n: int, controller: str, integrator: str, resolution: int, has_friction: bool,
    has_limits: bool,
) -> str:  # fmt: skip
    """The source of one controller's loop (see the module notes)."""
    J = range(n)
    q, v = _names("q", n), _names("v", n)
    lines = [
        "def track(fd, law, desired, rates, wanted, plan, start, speed, KP, KI, KD, top, B, C,",
        "          scale, g, gm, dt, h, N, check):",
        f"    {q}, = start",
        f"    {v}, = speed",
        f"    {_names('kp', n)}, = KP",
        f"    {_names('ki', n)}, = KI",
        f"    {_names('kd', n)}, = KD",
        f"    {_names('i', n)}, = {', '.join(['0.0'] * n)},",
        f"    {_names('p', n)}, = {', '.join(['0.0'] * n)},",
        "    half = 0.5 * h",
        "    sixth = h / 6.0",
        "    rows_q, rows_v, rows_t = [], [], []",
        "    keep_q, keep_v, keep_t = rows_q.append, rows_v.append, rows_t.append",
        "    last = N - 1",
    ]
    if has_friction:
        lines += [f"    {_names('b', n)}, = B", f"    {_names('c', n)}, = C"]
    if has_limits:
        lines.append(f"    {_names('top', n)}, = top")
    lines += [
        "    for i in range(N):",
        f"        keep_q(({q},))",
        f"        keep_v(({v},))",
        f"        {_names('d', n)}, = desired[i]",
        f"        {_names('r', n)}, = rates[i]",
    ]
    lines += [f"        e{j} = d{j} - q{j}" for j in J]
    lines += [f"        f{j} = kp{j} * e{j} + ki{j} * i{j} + kd{j} * (r{j} - v{j})" for j in J]
    if controller == "pd":
        lines += [f"        t{j} = f{j}" for j in J]
    elif controller in ("pd_gravity", "pd_feedforward"):
        source = f"law({q}, *gm)" if controller == "pd_gravity" else "plan[i]"
        lines.append(f"        {_names('w', n)}, = {source}")
        lines += [f"        t{j} = f{j} + w{j}" for j in J]
    else:  # computed torque: M̃(θ) u + h̃(θ, θ̇, θ̈_d) = RNEÃ(θ, θ̇, θ̈_d + u), one call
        lines.append(f"        {_names('w', n)}, = wanted[i]")
        commanded = ", ".join(f"w{j} + f{j}" for j in J)
        lines.append(f"        {_names('t', n)}, = law({q}, {v}, {commanded}, *gm)")
    if has_limits:  # the peaks of the asked torques (without limits: of the rows, afterwards)
        for j in J:
            lines.append(f"        a = abs(t{j})")
            lines.append(f"        if a > p{j}: p{j} = a")
        lines += [f"        t{j} = min(max(t{j}, -top{j}), top{j})" for j in J]
    lines.append(f"        keep_t(({_names('t', n)},))")
    lines += [f"        i{j} = i{j} + dt * e{j}" for j in J]
    lines.append("        if i == last: break")
    step = _step_lines(
        n, integrator, has_friction, "            " if resolution > 1 else "        "
    )
    if resolution > 1:
        lines.append(f"        for _ in range({resolution}):")
    lines += step
    speeds = " and ".join(f"abs(v{j}) < {_RUNAWAY_SPEED!r}" for j in J)
    lines.append("        if ((i + 1) % check == 0 or i == last - 1) and not (" + speeds + "):")
    lines.append("            return None")
    peaks = f"[{_names('p', n)}]" if has_limits else "None"
    lines.append(f"    return rows_q, rows_v, rows_t, {peaks}")
    return "\n".join(lines)


def _torque_loop_source(n: int, integrator: str, resolution: int) -> str:
    """The loop of a torque-driven simulation of one state (``forward_dynamics_trajectory``).

    Row i's torques are held for ``resolution`` steps; a step whose accelerations are not
    finite (or generated code that cannot go on) ends the loop with the rows so far.
    """
    q, v = _names("q", n), _names("v", n)
    lines = [
        "def run(fd, rows, start, speed, g, h):",
        f"    {q}, = start",
        f"    {v}, = speed",
        "    half = 0.5 * h",
        "    sixth = h / 6.0",
        "    out_q, out_v = [], []",
        "    keep_q, keep_v = out_q.append, out_v.append",
        "    for row in rows:",
        f"        {_names('t', n)}, = row",
    ]
    step = _step_lines(n, integrator, False, "            " if resolution > 1 else "        ")
    checked = []
    for line in step:  # after each evaluation of θ̈: stop unless it is finite
        checked.append(line)
        if "= fd(" in line:
            indent = line[: len(line) - len(line.lstrip())]
            out = line.strip().split(",")[0][:-1]  # "a", "k1_", ...
            total = " + ".join(f"{out}{j}" for j in range(n))
            checked.append(f"{indent}if not isfinite({total}): return out_q, out_v")
    if resolution > 1:
        lines.append(f"        for _ in range({resolution}):")
    lines += checked
    lines += [f"        keep_q(({q},))", f"        keep_v(({v},))", "    return out_q, out_v"]
    return "\n".join(lines)


def torque_rows(
    model: DynamicsModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    dt: float,
    resolution: int,
    integrator: str,
    positions: np.ndarray,
    velocities: np.ndarray,
) -> int:
    """Fill rows 1, 2, ... of a torque-driven simulation of one state by a generated loop.

    The loop of :func:`robolab.screw.simulation.dynamics_trajectory.integrate_rows` (the same
    generated forward dynamics, the integration step operation for operation as
    :func:`~robolab.screw.simulation.integrators.advance`, so the same numbers) with the state
    in local
    variables. Stops where the generated code gives up (a number not finite, M singular)
    and returns the last row filled; the caller goes on from there with its checks.
    """
    n = model.n
    key = ("torques", n, integrator, resolution)
    loop = compiled_once(
        _LOOPS,
        key,
        "run",
        lambda: _torque_loop_source(n, integrator, resolution),
        {"isfinite": math.isfinite},
        f"<robolab simulation loop {key}>",
    )
    fd = model.compiled.function(("forward", gravity is not None, False))
    g = [] if gravity is None else gravity.tolist()
    try:
        rows_q, rows_v = loop(fd, tau[:-1].tolist(), q.tolist(), qd.tolist(), g, dt)
    except (ValueError, TypeError):  # cos(±inf), M singular: the caller's loop says so
        return 0
    done = len(rows_q)
    if done:
        positions[1 : done + 1], velocities[1 : done + 1] = rows_q, rows_v
    return done


def _loop(key: tuple[int, str, str, int, bool, bool]) -> Callable[..., Any]:
    return compiled_once(
        _LOOPS,
        key,
        "track",
        lambda: _loop_source(*key),
        {"tanh": math.tanh},
        f"<robolab tracking loop {key}>",
    )


def track_generated(
    model: DynamicsModel,
    estimated: DynamicsModel,
    names: tuple[str, ...],
    q_d: np.ndarray,
    qd_d: np.ndarray,
    qdd_d: np.ndarray,
    planned: np.ndarray | None,
    q0: np.ndarray,
    qd0: np.ndarray,
    gravity: np.ndarray,
    estimated_gravity: np.ndarray,
    friction: JointFriction | None,
    kp: np.ndarray,
    ki: np.ndarray,
    kd: np.ndarray,
    limits: np.ndarray | None,
    dt: float,
    resolution: int,
    integrator: str,
    check_every: int,
) -> tuple[np.ndarray, ...] | None:
    """Every controller's run by its generated loop: (positions, velocities, torques, peaks).

    Arrays of shape (N, k, n) and (k, n) as the NumPy loop of ``simulate_tracking`` makes
    them, or None where a run diverged or the generated code could not go on.
    """
    N, n = q_d.shape
    k = len(names)
    fd = model.compiled.function(("forward", True, False))
    laws = {
        "pd_gravity": estimated.compiled.function((False, False, True, False)),
        "computed_torque": estimated.compiled.function((True, True, True, False)),
    }
    B = C = None
    scale = 1.0
    if friction is not None:
        B, C, scale = (
            friction.viscous.tolist(),
            friction.coulomb.tolist(),
            float(friction.smoothing),
        )
    shared = (
        q_d.tolist(), qd_d.tolist(), qdd_d.tolist(), None if planned is None else planned.tolist(),
        q0.tolist(), qd0.tolist(), kp.tolist(), ki.tolist(), kd.tolist(),
        None if limits is None else limits.tolist(), B, C, scale, gravity.tolist(),
        estimated_gravity.tolist(), dt, dt / resolution, N, check_every,
    )  # fmt: skip
    positions = np.empty((N, k, n))
    velocities = np.empty((N, k, n))
    applied = np.empty((N, k, n))
    peaks = np.zeros((k, n))
    for r, name in enumerate(names):
        loop = _loop((n, name, integrator, resolution, friction is not None, limits is not None))
        try:
            result = loop(fd, laws.get(name), *shared)
        except (ValueError, TypeError, ZeroDivisionError):  # cos(±inf); M singular (None)
            return None
        if result is None:
            return None
        rows_q, rows_v, rows_t, peak = result
        positions[:, r], velocities[:, r], applied[:, r] = rows_q, rows_v, rows_t
        peaks[r] = np.abs(applied[:, r]).max(axis=0) if peak is None else peak
    if not (np.isfinite(positions).all() and np.isfinite(applied).all()):
        return None  # pragma: no cover - a NaN is caught by the speed check first
    return positions, velocities, applied, peaks
