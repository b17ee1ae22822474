"""Every engine of ``robolab.screw._fast`` gives the numbers of the readable function it reproduces.

``REPRODUCES`` (``robolab/screw/_fast/__init__.py``) names, for each piece of code that
exists only for speed, the readable function it must equal. Here each pair runs on random
states of four arms (the book's UR5, a Panda-like 7-DOF arm, a SCARA-like arm with a
prismatic joint, and an arm with a screw joint of pitch 0.2 m/rad) and must agree to
1e-9 of the size of the numbers (for accelerations, times the condition number of M), or
bit for bit where the engine is documented so. The readable functions are the book's
recursion (``inverse_dynamics_rnea_textbook``, the torques of
``inverse_dynamics_rnea_steps``), the composite-rigid-body loop as written
(``composite_rigid_body_algorithm``), the articulated-body algorithm
(``articulated_body_algorithm``) and the NumPy loops of the simulations.

The table itself is checked too: every entry names real objects and has a check here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np
import pytest
from reference.screw_arms import ARMS

import robolab as rl
from robolab.screw import _fast
from robolab.screw._fast import batched, compiled, loops, space_frame, tracing
from robolab.screw.control import tracking
from robolab.screw.dynamics.forward import articulated_body_algorithm, solve_mass_matrix
from robolab.screw.dynamics.mass_matrix import composite_rigid_body_algorithm
from robolab.screw.dynamics.model import DynamicsModel, KinematicState, robot_model
from robolab.screw.kinematics.forward import joint_arrays
from robolab.screw.simulation import dynamics_trajectory

TOLERANCE = 1e-9
PIVOT = 1e-12
LARGE = batched.BATCH_THRESHOLD + 2


def _screw_joint_arm() -> rl.ScrewRobot:
    """A revolute joint, then a screw joint (pitch 0.2 m/rad): k ≠ 0 and d ≠ 0 at once."""
    frames = [np.eye(4), np.eye(4), np.eye(4)]
    frames[1][:3, 3] = [0.4, 0.1, -0.2]
    frames[2][:3, 3] = [0.2, 0.0, 0.1]
    inertias = [np.diag([0.1, 0.2, 0.3, 2.0, 2.0, 2.0]), np.diag([0.05, 0.04, 0.03, 1, 1, 1.0])]
    screws = np.array([[0, 1], [0, 0], [1, 0], [0, 0.2], [0, 0.3], [0, 0.1]], dtype=float)
    home = frames[0] @ frames[1] @ frames[2]
    return rl.ScrewRobot("screw joint", home, screws, frames, inertias, gravity=[0, -9.81, 1.0])


ROBOTS = {name: make(gravity=(0.3, -0.2, -9.7)) for name, make in ARMS.items()}
ROBOTS["screw joint"] = _screw_joint_arm()


def _close(ours, reference, tolerance=TOLERANCE):
    ours, reference = np.asarray(ours), np.asarray(reference)
    assert ours.shape == reference.shape
    scale = max(1.0, float(np.abs(reference).max()))
    assert np.abs(ours - reference).max() <= tolerance * scale, (ours, reference)


class Case:
    """One robot's model and random states: θ, θ̇, θ̈, τ, tip wrenches of shape (B, n)."""

    def __init__(self, robot: rl.ScrewRobot, seed: int) -> None:
        self.robot = robot
        self.model: DynamicsModel = robot_model(robot)
        self.n = n = self.model.n
        rng = np.random.default_rng(seed)
        self.q, self.qd, self.qdd = rng.uniform(-1.5, 1.5, (3, LARGE, n))
        self.tau = rng.uniform(-5.0, 5.0, (LARGE, n))
        self.tip = rng.normal(size=(LARGE, 6))
        self.gravity = np.asarray(robot.gravity, dtype=float)

    def optional_arguments(self, rows) -> list[tuple]:
        """(θ̇, θ̈, gravity, tip wrench) in combinations, None standing for zero."""
        qd, qdd, tip, g = self.qd[rows], self.qdd[rows], self.tip[rows], self.gravity
        return [
            (qd, qdd, g, None),
            (None, None, g, None),
            (qd, None, None, None),
            (None, qdd, None, None),
            (None, None, None, tip),
            (qd, qdd, g, tip),
            (None, None, None, None),
        ]


def _row(values, index, width):
    """State ``index`` of a batch of values (or the one state, or zeros for None)."""
    if values is None:
        return np.zeros(width)
    values = np.asarray(values)
    return values if values.ndim == 1 else values[index]


def textbook(case: Case, q, qd=None, qdd=None, gravity=None, tip=None) -> np.ndarray:
    """The readable RNEA, state by state (``None`` stands for zero)."""
    q = np.asarray(q)
    torques = np.empty(q.shape)
    for index in np.ndindex(q.shape[:-1]):
        torques[index] = rl.inverse_dynamics_rnea_textbook(
            case.robot,
            q[index],
            _row(qd, index, case.n),
            _row(qdd, index, case.n),
            gravity=np.zeros(3) if gravity is None else gravity,
            tip_wrench=_row(tip, index, 6),
        )
    return torques


def crba(case: Case, q) -> np.ndarray:
    return composite_rigid_body_algorithm(case.model, np.asarray(q))


def aba(case: Case, q, qd, tau, gravity, tip) -> np.ndarray:
    return articulated_body_algorithm(case.model, q, qd, tau, gravity, tip)


def _close_accelerations(case: Case, ours, reference, q):
    condition = float(np.max(np.linalg.cond(crba(case, q))))
    _close(ours, reference, TOLERANCE * condition)


# --------------------------------------------------------------------------- space_frame


def check_one_state_floats(case: Case) -> None:
    q, qd = case.q[0], case.qd[0]
    expected = np.concatenate(joint_arrays(case.n, q, joint_velocities=qd))
    assert space_frame.one_state_floats(case.n, q, qd) == expected.tolist()
    for refused in (list(q), q[None], q[:-1], np.where(np.arange(case.n) == 0, np.nan, q)):
        assert space_frame.one_state_floats(case.n, refused, qd) is None


def check_one_state_kinematics(case: Case) -> None:
    for q in case.q[:3]:
        fast = space_frame.one_state_kinematics(case.model, q)
        readable = KinematicState.at(case.model, q)
        for name in ("axes", "inverse_adjoints", "jacobians"):
            _close(getattr(fast, name), getattr(readable, name))
        assert fast.batch_ndim == readable.batch_ndim == 0


def check_rnea(case: Case) -> None:
    rows = slice(0, 5)
    state = KinematicState.at(case.model, case.q[rows])
    for arguments in case.optional_arguments(rows):
        _close(
            space_frame.rnea(case.model, state, *arguments),
            textbook(case, case.q[rows], *arguments),
        )


def check_rnea_one_state(case: Case) -> None:
    state = space_frame.one_state_kinematics(case.model, case.q[0])
    for arguments in case.optional_arguments(0):
        if arguments[0] is not None:  # (θ̇ given: the one-state steps)
            _close(
                space_frame.rnea_one_state(case.model, state, *arguments),
                textbook(case, case.q[0], *arguments),
            )


def check_crba(case: Case) -> None:
    q = case.q[:5]
    _close(space_frame.crba(case.model, KinematicState.at(case.model, q)), crba(case, q))
    state = space_frame.one_state_kinematics(case.model, q[0])
    _close(space_frame.crba(case.model, state), crba(case, q[0]))


BATCHES = [0, slice(0, 5), slice(0, LARGE)]  # one state, a few, a large batch


def check_inverse_dynamics(case: Case) -> None:
    for rows in BATCHES:
        for arguments in case.optional_arguments(rows)[:2] + case.optional_arguments(rows)[5:6]:
            _close(
                space_frame.inverse_dynamics(case.model, case.q[rows], *arguments),
                textbook(case, case.q[rows], *arguments),
            )
    shaped = case.q[:6].reshape(2, 3, case.n)  # a batch of any shape
    _close(
        space_frame.inverse_dynamics(case.model, shaped, None, None, case.gravity, None),
        textbook(case, shaped, gravity=case.gravity),
    )


def check_one_state_inverse_dynamics(case: Case) -> None:
    q, qd, qdd = case.q[0], case.qd[0], case.qdd[0]
    values = [*q, *qd, *qdd, *case.gravity]
    _close(
        space_frame.one_state_inverse_dynamics(case.model, values),
        textbook(case, q, qd, qdd, case.gravity),
    )


def check_mass_matrix(case: Case) -> None:
    for rows in BATCHES:
        _close(space_frame.mass_matrix(case.model, case.q[rows]), crba(case, case.q[rows]))


def check_one_state_mass_matrix(case: Case) -> None:
    q = case.q[0]
    _close(space_frame.one_state_mass_matrix(case.model, q.tolist()), crba(case, q))


def check_mass_matrix_and_inverse_dynamics(case: Case) -> None:
    for rows in BATCHES:
        q = case.q[rows]
        for arguments in case.optional_arguments(rows)[:2] + case.optional_arguments(rows)[5:6]:
            M, torques = space_frame.mass_matrix_and_inverse_dynamics(case.model, q, *arguments)
            _close(M, crba(case, q))
            _close(torques, textbook(case, q, *arguments))


def check_space_frame_forward_dynamics_aba(case: Case) -> None:
    q, qd, tau, tip = case.q, case.qd, case.tau, case.tip
    for g, wrench in [(case.gravity, None), (None, tip)]:
        ours = space_frame.forward_dynamics_aba(case.model, q, qd, tau, g, wrench, PIVOT)
        _close_accelerations(case, ours, aba(case, q, qd, tau, g, wrench), q)


def check_space_frame_solve_mass_matrix(case: Case) -> None:
    M, rhs = crba(case, case.q), case.tau
    ours = space_frame.solve_mass_matrix(M, rhs, case.q, PIVOT)
    readable = np.concatenate(
        [
            solve_mass_matrix(M[k : k + 5], rhs[k : k + 5], case.q[k : k + 5])
            for k in range(0, LARGE, 5)
        ]
    )
    _close_accelerations(case, ours, readable, case.q)


# --------------------------------------------------------------------------- compiled


def check_compiled_inverse_dynamics(case: Case) -> None:
    for arguments in case.optional_arguments(1):
        _close(
            case.model.compiled.inverse_dynamics(case.q[1], *arguments),
            textbook(case, case.q[1], *arguments),
        )


def check_compiled_mass_matrix(case: Case) -> None:
    M = case.model.compiled.mass_matrix(case.q[2])
    _close(M, crba(case, case.q[2]))
    np.testing.assert_array_equal(M, M.T)


def check_compiled_mass_matrix_and_inverse_dynamics(case: Case) -> None:
    q, qd, qdd = case.q[3], case.qd[3], case.qdd[3]
    M, torques = case.model.compiled.mass_matrix_and_inverse_dynamics(q, qd, qdd, case.gravity)
    _close(M, crba(case, q))
    _close(torques, textbook(case, q, qd, qdd, case.gravity))


def check_compiled_forward_dynamics(case: Case) -> None:
    q, qd, tau, tip = case.q[4], case.qd[4], case.tau[4], case.tip[4]
    for g, wrench in [(case.gravity, None), (None, None), (case.gravity, tip)]:
        ours = case.model.compiled.forward_dynamics(q, qd, tau, g, wrench)
        _close_accelerations(case, ours, aba(case, q, qd, tau, g, wrench), q)


def check_compiled_call(case: Case) -> None:
    q, qd, qdd, tau, g = case.q[5], case.qd[5], case.qdd[5], case.tau[5], case.gravity
    call = case.model.compiled.call
    _close(call((True, True, True, False), [*q, *qd, *qdd, *g]), textbook(case, q, qd, qdd, g))
    _close(call((False, False, True, False), [*q, *g]), textbook(case, q, gravity=g))
    _close(call(("mass",), list(q)), crba(case, q))
    forward = call(("forward", True, False), [*q, *qd, *tau, *g])
    _close_accelerations(case, forward, aba(case, q, qd, tau, g, None), q)


# --------------------------------------------------------------------------- batched


def check_batched_rnea(case: Case) -> None:
    rows = slice(0, LARGE)
    for arguments in case.optional_arguments(rows):
        _close(
            batched.rnea(case.model.joint_frames, case.q, *arguments),
            textbook(case, case.q, *arguments),
        )


def check_batched_crba(case: Case) -> None:
    _close(batched.crba(case.model.joint_frames, case.q), crba(case, case.q))


def check_batched_aba(case: Case) -> None:
    q, qd, tau = case.q, case.qd, case.tau
    for g, wrench in [(case.gravity, None), (None, case.tip)]:
        ours, bad = batched.aba(case.model.joint_frames, q, qd, tau, g, wrench, PIVOT)
        assert bad is None
        _close_accelerations(case, ours, aba(case, q, qd, tau, g, wrench), q)


def check_batched_cholesky_solve(case: Case) -> None:
    M, rhs = crba(case, case.q), case.tau
    ours, bad = batched.cholesky_solve(M, rhs, PIVOT)
    assert bad is None
    readable = solve_mass_matrix(M[:5], rhs[:5], case.q[:5])
    _close_accelerations(case, ours[:5], readable, case.q[:5])
    singular = M.copy()
    singular[7] = 0.0
    assert batched.cholesky_solve(singular, rhs, PIVOT) == (None, (7, 0))


# --------------------------------------------------------------------------- tracing


def check_traced_cholesky_solve(case: Case) -> None:
    n = case.n
    writer = tracing.Writer()
    M = [[(1.0, f"m{i}_{j}") for j in range(n)] for i in range(n)]
    rhs = [(1.0, f"b{i}") for i in range(n)]
    x = tracing.cholesky_solve(writer, M, rhs)
    header = [f"m{i}_{j}" for i in range(n) for j in range(n)] + [f"b{i}" for i in range(n)]
    result = "[" + ", ".join(writer.value(v) for v in x) + "]"
    solve = tracing.compile_source("solve", header, writer, result)
    for k in range(3):
        q, M, b = case.q[k], crba(case, case.q[k]), case.tau[k]
        ours = solve(*M.ravel().tolist(), *b.tolist())
        _close_accelerations(case, ours, solve_mass_matrix(M, b, q), q)
    assert solve(*np.zeros((n, n)).ravel().tolist(), *b.tolist()) is None  # M singular


# --------------------------------------------------------------------------- loops


def _spy(engine: Callable[..., object], results: list) -> Callable[..., object]:
    """``engine``, keeping what each call returns in ``results``."""

    def call(*arguments: object, **keywords: object) -> object:
        results.append(engine(*arguments, **keywords))
        return results[-1]

    return call


def check_track_generated(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    N, dt, n = 60, 0.001, case.n
    t = dt * np.arange(N)
    goal = np.linspace(0.4, -0.3, n)
    reference = [np.outer(np.sin(t), goal), np.outer(np.cos(t), goal), np.outer(-np.sin(t), goal)]
    model = rl.scaled_inertias(case.robot, 0.9)
    arguments = (case.robot, model, *reference, dt, 20.0, 2.0)
    options = {"controllers": tracking.CONTROLLERS, "integrator": "rk4", "Ki": 10.0}
    with monkeypatch.context() as patch:
        patch.setattr(tracking, "track_generated", _spy(loops.track_generated, runs := []))
        fast = tracking.simulate_tracking(*arguments, **options)
    assert runs[0] is not None  # the generated loops ran to the end
    with monkeypatch.context() as patch:
        patch.setattr(tracking, "track_generated", lambda *a, **k: None)  # the NumPy loop
        readable = tracking.simulate_tracking(*arguments, **options)
    for controller in tracking.CONTROLLERS:
        a, b = fast[controller], readable[controller]
        for name in ("joint_positions", "joint_velocities", "joint_torques", "peak_torques"):
            _close(getattr(a, name), getattr(b, name), 1e-8)


def check_torque_rows(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    torques = 0.3 * case.tau[:40]
    for integrator in ("euler", "semi_implicit_euler", "rk4"):
        arguments = (case.robot, case.q[0], case.qd[0], torques, 0.004, 2)
        with monkeypatch.context() as patch:
            patch.setattr(dynamics_trajectory, "torque_rows", _spy(loops.torque_rows, rows := []))
            fast = rl.forward_dynamics_trajectory(*arguments, integrator=integrator)
        assert rows == [len(torques) - 1]  # every row by the generated loop
        with monkeypatch.context() as patch:
            patch.setattr(dynamics_trajectory, "torque_rows", lambda *a, **k: 0)  # NumPy rows
            readable = rl.forward_dynamics_trajectory(*arguments, integrator=integrator)
        for ours, theirs in zip(fast, readable, strict=True):
            np.testing.assert_array_equal(ours, theirs)  # bit for bit, as documented


# --------------------------------------------------------------------------- the table

CHECKS: dict[str, Callable[..., None]] = {
    "space_frame.one_state_floats": check_one_state_floats,
    "space_frame.one_state_kinematics": check_one_state_kinematics,
    "space_frame.rnea": check_rnea,
    "space_frame.rnea_one_state": check_rnea_one_state,
    "space_frame.crba": check_crba,
    "space_frame.inverse_dynamics": check_inverse_dynamics,
    "space_frame.one_state_inverse_dynamics": check_one_state_inverse_dynamics,
    "space_frame.mass_matrix": check_mass_matrix,
    "space_frame.one_state_mass_matrix": check_one_state_mass_matrix,
    "space_frame.mass_matrix_and_inverse_dynamics": check_mass_matrix_and_inverse_dynamics,
    "space_frame.forward_dynamics_aba": check_space_frame_forward_dynamics_aba,
    "space_frame.solve_mass_matrix": check_space_frame_solve_mass_matrix,
    "compiled.CompiledDynamics.inverse_dynamics": check_compiled_inverse_dynamics,
    "compiled.CompiledDynamics.mass_matrix": check_compiled_mass_matrix,
    "compiled.CompiledDynamics.mass_matrix_and_inverse_dynamics": (
        check_compiled_mass_matrix_and_inverse_dynamics
    ),
    "compiled.CompiledDynamics.forward_dynamics": check_compiled_forward_dynamics,
    "compiled.CompiledDynamics.call": check_compiled_call,
    "batched.rnea": check_batched_rnea,
    "batched.crba": check_batched_crba,
    "batched.aba": check_batched_aba,
    "batched.cholesky_solve": check_batched_cholesky_solve,
    "tracing.cholesky_solve": check_traced_cholesky_solve,
    "loops.track_generated": check_track_generated,
    "loops.torque_rows": check_torque_rows,
}
NEEDS_MONKEYPATCH = {"loops.track_generated", "loops.torque_rows"}


def resolve(dotted: str, package: str) -> object:
    """The object ``package.dotted``: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join([package, *parts[:split]]))
        except ModuleNotFoundError:
            continue
        for name in parts[split:]:
            found = getattr(found, name)
        return found
    raise AssertionError(f"{package}.{dotted} does not resolve")


@pytest.mark.parametrize(("engine", "readable"), sorted(_fast.REPRODUCES.items()))
def test_every_entry_names_real_functions_and_has_a_check(engine, readable):
    assert callable(resolve(engine, "robolab.screw._fast"))
    assert callable(resolve(readable, "robolab"))
    assert engine in CHECKS


def test_every_check_is_in_the_table():
    assert set(CHECKS) == set(_fast.REPRODUCES)
    assert {compiled.__name__, loops.__name__} <= {
        resolve(engine, "robolab.screw._fast").__module__ for engine in _fast.REPRODUCES
    }


@pytest.mark.parametrize("name", sorted(ROBOTS))
@pytest.mark.parametrize("engine", sorted(CHECKS))
def test_engine_reproduces_its_readable_function(engine, name, monkeypatch):
    case = Case(ROBOTS[name], seed=sorted(ROBOTS).index(name))
    if engine in NEEDS_MONKEYPATCH:
        CHECKS[engine](case, monkeypatch)
    else:
        CHECKS[engine](case)
