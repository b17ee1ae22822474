"""The generated one-state dynamics equal the NumPy kernel, and Pinocchio, on random states.

:mod:`robolab.screw._fast.compiled` writes the RNEA, the CRBA and forward dynamics of
each robot as straight-line Python. The running sums of
:mod:`robolab.screw._fast.space_frame` (``rnea``, ``crba``) are compared here: the two
must agree to 1e-12 (relative to the size of the numbers) on random states of every
bundled robot, including the prismatic joints of the SCARA and the Stanford arm and a
joint with a pitch, and for every combination of the optional arguments. The public
functions must use the generated code for one state; the outside anchors are the stored
Pinocchio values of ``tests/reference`` and the closed form of a pendulum. (The comparison
with the readable algorithms themselves is in ``test_reproduces.py``.)
"""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.screw_arms import ARMS

import robolab as rl
from robolab.screw._fast.space_frame import crba, kinematics, rnea
from robolab.screw.dynamics.model import dynamics_model, robot_model

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")
ROBOTS = {name: rl.load_robot(name) for name in rl.list_robots()}
#: A screw joint (pitch 0.2 m/rad) after a revolute one, to exercise k ≠ 0 and d ≠ 0 at once.
SCREW = (
    [np.eye(4), np.eye(4), np.eye(4)],
    [np.diag([0.1, 0.2, 0.3, 2.0, 2.0, 2.0]), np.diag([0.05, 0.04, 0.03, 1.0, 1.0, 1.0])],
    np.array([[0, 1], [0, 0], [1, 0], [0, 0.2], [0, 0.3], [0, 0.1]], dtype=float),
)
SCREW[0][1][:3, 3] = [0.4, 0.1, -0.2]
SCREW[0][2][:3, 3] = [0.2, 0.0, 0.1]


def _models():
    yield from ((name, robot_model(robot), robot.gravity) for name, robot in ROBOTS.items())
    yield "screw joint", dynamics_model(*SCREW), np.array([0.0, -9.81, 1.0])


MODELS = list(_models())
values = st.floats(-3.0, 3.0, allow_nan=False)


def _close(ours, reference, tolerance=1e-12):
    scale = max(1.0, float(np.abs(reference).max()))
    assert np.abs(ours - reference).max() <= tolerance * scale, (ours, reference)


@pytest.mark.parametrize(("name", "model", "gravity"), MODELS, ids=[m[0] for m in MODELS])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rnea_and_crba_equal_the_running_sums(name, model, gravity, data):
    n = model.n
    q, qd, qdd = (np.array(data.draw(st.lists(values, min_size=n, max_size=n))) for _ in range(3))
    tip = np.array(data.draw(st.lists(values, min_size=6, max_size=6)))
    compiled = model.compiled
    state = kinematics(model, q)
    for arguments in [
        (qd, qdd, gravity, None),
        (None, None, gravity, None),
        (qd, None, None, None),
        (None, qdd, None, None),
        (None, None, None, tip),
        (qd, qdd, gravity, tip),
        (None, None, None, None),
    ]:
        _close(compiled.inverse_dynamics(q, *arguments), rnea(model, state, *arguments))
    M = crba(model, state)
    compiled_M = compiled.mass_matrix(q)
    _close(compiled_M, M)
    assert np.array_equal(compiled_M, compiled_M.T)
    both = compiled.mass_matrix_and_inverse_dynamics(q, qd, qdd, gravity)
    _close(both[0], M)
    _close(both[1], rnea(model, state, qd, qdd, gravity, None))


@pytest.mark.parametrize(("name", "model", "gravity"), MODELS, ids=[m[0] for m in MODELS])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_forward_dynamics_equals_the_running_sums(name, model, gravity, data):
    n = model.n
    q, qd, tau = (np.array(data.draw(st.lists(values, min_size=n, max_size=n))) for _ in range(3))
    tip = np.array(data.draw(st.lists(values, min_size=6, max_size=6)))
    state = kinematics(model, q)
    M = crba(model, state)
    for g, wrench in [(gravity, None), (None, None), (gravity, tip)]:
        expected = np.linalg.solve(M, tau - rnea(model, state, qd, None, g, wrench))
        # A solve amplifies rounding by the condition number of M.
        _close(
            model.compiled.forward_dynamics(q, qd, tau, g, wrench),
            expected,
            1e-12 * np.linalg.cond(M),
        )


def test_the_public_functions_use_the_generated_code_for_one_state():
    arm = ROBOTS["ur5"]
    compiled = robot_model(arm).compiled
    rng = np.random.default_rng(3)
    q, qd, qdd, tau = rng.uniform(-1, 1, (4, 6))
    compiled.functions.clear()
    rl.inverse_dynamics_rnea(arm, q, qd, qdd)
    rl.mass_matrix_crba(arm, q)
    rl.forward_dynamics_crba(arm, q, qd, tau)
    rl.gravity_forces(arm, q)
    assert set(compiled.functions) == {
        (True, True, True, False),
        ("mass",),
        ("forward", True, False),
        (False, False, True, False),
    }


@pytest.mark.parametrize("name", sorted(ARMS))
def test_public_one_state_calls_match_pinocchio(name):
    """Pinocchio's stored rnea, crba and aba (tests/reference), one state per call."""
    arm = ARMS[name](REFERENCE["gravity"])
    key = f"{name}__"
    names = ("q", "qd", "qdd", "tau", "mass_matrix", "tau_applied", "acceleration")
    rows = zip(*(REFERENCE[key + x] for x in names), strict=True)
    for q, qd, qdd, tau, M, tau_applied, qdd_pin in rows:
        _close(rl.inverse_dynamics_rnea(arm, q, qd, qdd), tau, 1e-9)
        _close(rl.mass_matrix_crba(arm, q), M, 1e-9)
        _close(rl.forward_dynamics_crba(arm, q, qd, tau_applied), qdd_pin, 1e-8)


def test_pendulum_closed_form():
    """A point mass m at L on a revolute joint: τ = m L² θ̈ + m g L cos θ, and θ̈ from τ."""
    x = np.eye(4)
    x[0, 3] = 0.7
    arrays = ([x, np.eye(4)], [np.diag([0, 0, 0, 1.5, 1.5, 1.5])], [[0], [0], [1], [0], [0], [0]])
    model = dynamics_model(*arrays)
    g = np.array([0.0, -9.81, 0.0])
    for theta in np.linspace(-3, 3, 7):
        tau = model.compiled.inverse_dynamics(
            np.array([theta]), np.array([2.0]), np.array([0.3]), g, None
        )
        expected = 1.5 * 0.49 * 0.3 + 1.5 * 9.81 * 0.7 * np.cos(theta)
        assert tau[0] == pytest.approx(expected, rel=1e-12)
        qdd = model.compiled.forward_dynamics(
            np.array([theta]), np.array([2.0]), np.array([1.0]), g, None
        )
        assert qdd[0] == pytest.approx(
            (1.0 - 1.5 * 9.81 * 0.7 * np.cos(theta)) / (1.5 * 0.49), rel=1e-12
        )


def test_a_singular_mass_matrix_and_non_finite_states_fall_back():
    """None from the generated code: the caller's NumPy path raises or gives NaN as before."""
    massless = ([np.eye(4), np.eye(4)], [np.zeros((6, 6))], [[0], [0], [1], [0], [0], [0]])
    model = dynamics_model(*massless)
    assert model.compiled.forward_dynamics(np.zeros(1), np.zeros(1), np.ones(1), None, None) is None
    with pytest.raises(ValueError, match="singular"):
        rl.forward_dynamics_crba(
            np.zeros(1), np.zeros(1), np.ones(1), [0, 0, -9.81], np.zeros(6), *massless
        )
    arm = robot_model(ROBOTS["planar2r"])
    assert (
        arm.compiled.inverse_dynamics(np.array([0.0, np.inf]), None, np.ones(2), None, None) is None
    )
    assert arm.compiled.mass_matrix(np.array([0.0, np.nan])) is None  # M depends on θ₂ only


def test_generated_source_is_straight_line():
    compiled = robot_model(ROBOTS["panda"]).compiled
    compiled.mass_matrix(np.zeros(7))
    source = compiled.functions[("mass",)].source
    assert "for " not in source and "while " not in source
    assert source.startswith("def crba(q0, q1, q2, q3, q4, q5, q6):")


def test_the_fast_check_of_one_state_leaves_bad_input_to_the_usual_messages():
    arm = ROBOTS["ur5"]
    q = np.array([0.1, 0.2, np.nan, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="joint_positions"):
        rl.inverse_dynamics_rnea(arm, q, np.zeros(6), np.zeros(6))
    with pytest.raises(ValueError, match="joint_torques"):
        rl.forward_dynamics_crba(arm, np.zeros(6), np.zeros(6), np.full(6, np.inf))
    with pytest.raises(ValueError, match="shape"):
        rl.mass_matrix_crba(arm, np.zeros(5))
    as_list = rl.inverse_dynamics_rnea(arm, [0, 1, 0, 1, 0, 1], [1] * 6, [0] * 6)  # the slow path
    as_array = rl.inverse_dynamics_rnea(
        arm, np.array([0.0, 1, 0, 1, 0, 1]), np.ones(6), np.zeros(6)
    )
    np.testing.assert_array_equal(as_list, as_array)


def test_robots_with_the_same_numbers_share_their_generated_code():
    """Chapter 13 rebuilds its arms at every slider step: equal numbers, one generated code."""
    arm = rl.load_robot("planar2r")
    again = rl.with_payload(arm, 0.0)  # a new robot object holding the same numbers
    heavier = rl.scaled_inertias(arm, 1.1)
    assert again is not arm
    assert robot_model(again).compiled is robot_model(arm).compiled
    assert robot_model(heavier).compiled is not robot_model(arm).compiled
    q, qd, qdd = np.array([0.3, -0.2]), np.array([0.1, 0.4]), np.array([1.0, -2.0])
    gravity = np.array([0.0, 0.0, -9.81])
    light = robot_model(arm).compiled.inverse_dynamics(q, qd, qdd, gravity, None)
    heavy = robot_model(heavier).compiled.inverse_dynamics(q, qd, qdd, gravity, None)
    np.testing.assert_allclose(heavy, 1.1 * light, rtol=1e-12)  # τ is linear in the inertias
