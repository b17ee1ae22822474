"""The running sums in {s} and the choice of engine (``screw/_fast/space_frame.py``).

That each engine gives the readable algorithm's numbers is checked in
``test_reproduces.py``; here: which engine a call goes to (the generated code for one
state, the running sums for a few states, the structure-of-arrays kernels from
``BATCH_THRESHOLD`` states on), what happens where the generated code gives up, and the
quick check of one state.
"""

import numpy as np
import pytest

import robolab as rl
from robolab.screw._fast import batched, space_frame
from robolab.screw.dynamics.model import robot_model

ARM = rl.load_robot("ur5")
MODEL = robot_model(ARM)
GRAVITY = np.array([0.0, 0.0, -9.81])


def _states(count):
    rng = np.random.default_rng(count)
    return rng.uniform(-1, 1, (3, count, 6)) if count else rng.uniform(-1, 1, (3, 6))


@pytest.fixture
def engines(monkeypatch):
    """The names of the batched kernels called, in order."""
    called = []
    for name in ("rnea", "crba"):
        original = getattr(batched, name)

        def spy(*arguments, _name=name, _original=original, **keywords):
            called.append(_name)
            return _original(*arguments, **keywords)

        monkeypatch.setattr(batched, name, spy)
    return called


def test_a_batch_is_large_from_the_threshold_on():
    n, threshold = 6, batched.BATCH_THRESHOLD
    assert not space_frame.is_large(np.zeros(n))
    assert not space_frame.is_large(np.zeros((threshold - 1, n)))
    assert space_frame.is_large(np.zeros((threshold, n)))
    assert space_frame.is_large(np.zeros((2, threshold // 2, n)))  # any shape of batch


@pytest.mark.parametrize(("count", "expected"), [(0, []), (5, []), (60, ["rnea", "crba"])])
def test_each_batch_size_goes_to_its_engine(engines, count, expected):
    q, qd, qdd = _states(count)
    MODEL.compiled.functions.clear()
    tau = space_frame.inverse_dynamics(MODEL, q, qd, qdd, GRAVITY, None)
    M = space_frame.mass_matrix(MODEL, q)
    assert engines == expected
    assert tau.shape == q.shape and M.shape == (*q.shape, 6)
    generated = set(MODEL.compiled.functions)
    assert generated == ({(True, True, True, False), ("mass",)} if count == 0 else set())


def test_where_the_generated_code_gives_up_the_running_sums_say_inf_or_nan():
    q, qd, qdd = _states(0)
    with np.errstate(over="ignore", invalid="ignore"):
        assert MODEL.compiled.inverse_dynamics(q, 1e200 * qd, qdd, GRAVITY, None) is None
        torques = space_frame.inverse_dynamics(MODEL, q, 1e200 * qd, qdd, GRAVITY, None)
        values = [*q, *(1e200 * qd), *qdd, *GRAVITY]
        assert not np.isfinite(space_frame.one_state_inverse_dynamics(MODEL, values)).all()
    assert not np.isfinite(torques).all()


def test_the_quick_check_takes_only_finite_float64_states_of_the_right_shape():
    q = np.linspace(-1, 1, 6)
    assert space_frame.one_state_floats(6, q, 2 * q) == [*q, *(2 * q)]
    assert space_frame.one_state_floats(6, q.astype(np.float32)) is None
    assert space_frame.one_state_floats(6, np.arange(6)) is None  # integers: checked the usual way
    assert space_frame.one_state_floats(6, list(q)) is None
    assert space_frame.one_state_floats(6, q[:5]) is None
    assert space_frame.one_state_floats(6, q, np.full(6, np.inf)) is None


def test_one_state_kinematics_for_one_state_only():
    q = _states(5)[0]
    assert space_frame.kinematics(MODEL, q).batch_ndim == 1
    assert space_frame.kinematics(MODEL, q[0]).batch_ndim == 0


def test_singular_mass_matrices_of_a_large_batch_are_located():
    inertias = np.array(ARM.spatial_inertias)
    inertias[-1] = 0.0  # the wrist's last link has no mass: M is singular everywhere
    model = robot_model(ARM.replace(spatial_inertias=inertias))
    q, qd, tau = _states(60)
    q = q.reshape(3, 20, 6)
    qd, tau = qd.reshape(q.shape), tau.reshape(q.shape)
    where = space_frame.forward_dynamics_aba(model, q, qd, tau, GRAVITY, None, 1e-12)
    assert where == (0, 0, 5)
    M = space_frame.mass_matrix(model, q)
    assert space_frame.solve_mass_matrix(M, tau, q, 1e-12) == (0, 0, 5)
