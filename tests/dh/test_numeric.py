"""robolab.DHRobot.numeric(): compiled functions agree with the symbolic model, batches, errors."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.dh_arms import MORO_ARMS, PUMA_560_ROWS

from robolab import DHRobot
from robolab.dh.numeric import compile_expressions, newton_euler_program
from robolab.symbols import g, l1, l2, m1, q1, q2, q3, q4


@pytest.fixture(scope="module")
def arm() -> DHRobot:
    """A numeric RPR arm with float parameters, full inertia tensors and joint offsets."""
    robot = DHRobot(
        (0, 0, 0.4, q1 + 0.3),
        (0.05, -sp.pi / 2, q2 + 0.1, 0, "p"),
        (0.25, 0.2, 0, q3 + sp.pi / 2),
        name="RPR",
    )
    arm = MORO_ARMS["numeric_rpr"]
    robot.masses = arm["masses"]
    robot.cm_positions = arm["cm_positions"]
    robot.plausibility_exceptions = arm["plausibility_exceptions"]
    robot.inertia_tensors = arm["inertia_tensors"]
    return robot


def substitute(matrix, robot, q, qd=None):
    point = {}
    if qd is not None:
        point.update({robot.q_dot(i + 1): v for i, v in enumerate(qd)})
    expression = sp.Matrix(matrix).xreplace(point)
    expression = expression.xreplace(dict(zip(robot.qs, q, strict=True)))
    return np.array(expression.evalf().tolist(), dtype=float)


def test_compiled_functions_equal_the_symbolic_results(arm):
    fast = arm.numeric()
    rng = np.random.default_rng(2)
    for _ in range(3):
        q, qd = rng.uniform(-1, 1, 3), rng.uniform(-1, 1, 3)
        np.testing.assert_allclose(
            fast.forward_kinematics(q), substitute(arm.T, arm, q), atol=1e-13
        )
        frames = fast.frames(q)
        for i in range(4):
            np.testing.assert_allclose(frames[i], substitute(arm.T_i0(i), arm, q), atol=1e-13)
        np.testing.assert_allclose(fast.jacobian(q), substitute(arm.J, arm, q), atol=1e-13)
        M = substitute(arm.inertia_matrix(), arm, q)
        np.testing.assert_allclose(fast.inertia_matrix(q), M, atol=1e-13)
        C = substitute(arm.coriolis_matrix(), arm, q, qd)
        np.testing.assert_allclose(fast.coriolis_matrix(q, qd), C, atol=1e-13)
        G = substitute(arm.gravity_vector(), arm, q)[:, 0]
        np.testing.assert_allclose(fast.gravity_vector(q), G, atol=1e-13)


def test_newton_euler_equals_the_lagrangian_matrix_form(arm):
    # two derivations of the same tau: recursive Newton-Euler vs M qdd + C qd + G
    fast = arm.numeric()
    rng = np.random.default_rng(4)
    q, qd, qdd = rng.uniform(-1, 1, (3, 3))
    expected = fast.inertia_matrix(q) @ qdd + fast.coriolis_matrix(q, qd) @ qd
    expected += fast.gravity_vector(q)
    np.testing.assert_allclose(fast.inverse_dynamics(q, qd, qdd), expected, atol=1e-12)


def test_batches_give_the_same_numbers_as_single_calls(arm):
    fast = arm.numeric()
    rng = np.random.default_rng(6)
    q, qd, qdd = rng.uniform(-1, 1, (3, 7, 3))
    results = {
        "frames": (fast.frames(q), (7, 4, 4, 4)),
        "forward_kinematics": (fast.forward_kinematics(q), (7, 4, 4)),
        "jacobian": (fast.jacobian(q), (7, 6, 3)),
        "inertia_matrix": (fast.inertia_matrix(q), (7, 3, 3)),
        "gravity_vector": (fast.gravity_vector(q), (7, 3)),
        "coriolis_matrix": (fast.coriolis_matrix(q, qd), (7, 3, 3)),
        "inverse_dynamics": (fast.inverse_dynamics(q, qd, qdd), (7, 3)),
    }
    for name, (batch, shape) in results.items():
        assert batch.shape == shape, name
    k = 4
    np.testing.assert_array_equal(results["frames"][0][k], fast.frames(q[k]))
    np.testing.assert_allclose(results["jacobian"][0][k], fast.jacobian(q[k]), atol=1e-15)
    np.testing.assert_allclose(
        results["coriolis_matrix"][0][k], fast.coriolis_matrix(q[k], qd[k]), atol=1e-15
    )
    np.testing.assert_allclose(
        results["inverse_dynamics"][0][k], fast.inverse_dynamics(q[k], qd[k], qdd[k]), atol=1e-13
    )
    # one state broadcast against a batch of accelerations
    assert fast.inverse_dynamics(q[0], qd[0], qdd).shape == (7, 3)


def test_numeric_is_cached_and_rebuilt_after_a_setter():
    robot = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2))
    robot.cm_positions = [(-0.5, 0, 0), (-0.25, 0, 0)]
    robot.masses = [1.0, 1.0]
    robot.inertia_tensors = [np.zeros((3, 3))] * 2
    first = robot.numeric()
    assert robot.numeric() is first
    q = np.array([0.3, -0.2])
    before = first.gravity_vector(q)
    robot.masses = [2.0, 2.0]
    second = robot.numeric()
    assert second is not first
    np.testing.assert_allclose(second.gravity_vector(q), 2 * before, atol=1e-12)
    with pytest.raises(
        RuntimeError, match=r"the robot's parameters changed after numeric\(\) was called"
    ):
        first.inertia_matrix(q)
    # joint limits change no compiled function: the numeric robot stays valid
    second.inertia_matrix(q)
    robot.joint_limits = [(-1, 1), (-1, 1)]
    assert robot.numeric() is second
    second.coriolis_matrix(q, q)


def test_kinematics_work_while_masses_are_symbolic_and_dynamics_name_what_is_missing():
    robot = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    fast = robot.numeric()
    np.testing.assert_allclose(fast.forward_kinematics([0, 0])[:3, 3], [1.5, 0, 0], atol=1e-12)
    message = (
        r"inertia_matrix\(\) needs numbers for every dynamic parameter; still symbolic: "
        r"m_1 \(mass of link 1\), I_xx1 \(inertia tensor of link 1\)"
    )
    with pytest.raises(ValueError, match=message):
        fast.inertia_matrix([0, 0])
    with pytest.raises(
        ValueError, match=r"inverse_dynamics\(\) needs numbers .* m_2 \(mass of link 2\)"
    ):
        fast.inverse_dynamics([0, 0], [0, 0], [0, 0])


def test_symbolic_geometry_is_named_and_values_can_be_passed():
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    robot.gravity = (0, -g, 0)
    with pytest.raises(
        ValueError,
        match=r"frames\(\) needs numbers for every kinematic parameter; still symbolic: "
        r"l_1 \(row 1, a\), l_2 \(row 2, a\)",
    ):
        robot.numeric().frames([0, 0])
    values = {l1: 1.0, "l_2": 0.5, m1: 1.0, "m_2": 2.0, "g": 9.81}
    values.update({f"I_{axis}{i}": 0.0 for axis in ("xx", "yy", "zz") for i in (1, 2)})
    fast = robot.numeric(values)
    np.testing.assert_allclose(
        fast.forward_kinematics([0, np.pi / 2])[:3, 3], [1.0, 0.5, 0], atol=1e-15
    )
    # point masses at the ends of the links, P = g (m1 l1 s1 + m2 (l1 s1 + l2 s12)):
    # at q = 0, G = g (m1 l1 + m2 (l1 + l2), m2 l2) = 9.81 (4, 1)
    np.testing.assert_allclose(fast.gravity_vector([0, 0]), [9.81 * 4.0, 9.81], atol=1e-12)
    with pytest.raises(ValueError, match=r"values: 'l_3' is not a parameter of this robot"):
        robot.numeric({"l_3": 1.0})
    with pytest.raises(TypeError, match=r"values\['l_1'\]: expected a real number, got the text"):
        robot.numeric({"l_1": "long"})
    with pytest.raises(TypeError, match=r"values: expected a mapping"):
        robot.numeric([1.0])


def test_bad_states_are_named(arm):
    fast = arm.numeric()
    with pytest.raises(ValueError, match=r"q must have shape \(\.\.\., 3\), got shape \(2,\)"):
        fast.frames([0.0, 0.0])
    with pytest.raises(ValueError, match=r"qd contains a non-finite value \(nan\)"):
        fast.coriolis_matrix([0, 0, 0], [0, np.nan, 0])
    with pytest.raises(ValueError, match=r"qdd must have shape"):
        fast.inverse_dynamics([0, 0, 0], [0, 0, 0], [[0, 0]])


def test_newton_euler_program_is_compact():
    robot = DHRobot(*PUMA_560_ROWS)
    robot.cm_positions = [(0, 0, 0)] * 6
    robot.masses = [1.0] * 6
    robot.inertia_tensors = [np.eye(3) * 0.01] * 6
    assignments, torques = newton_euler_program(robot.model)
    operations = sum(sp.count_ops(e) for _, e in assignments) + sum(
        sp.count_ops(e) for e in torques
    )
    assert len(torques) == 6
    assert operations < 1500  # the expanded M qdd + C qd + G has tens of thousands


def test_generated_code_reads_like_the_maths():
    x, y = sp.symbols("u v")
    scalar, batch, source = compile_expressions("f", [[x], [y]], [x**2 * y, sp.cos(x) + 1])
    assert scalar([2.0], [3.0]) == (12.0, np.cos(2.0) + 1)
    assert "u*u" in source
    np.testing.assert_allclose(batch([np.array([1.0, 2.0])], [np.array([1.0, 1.0])])[0], [1.0, 4.0])


@settings(max_examples=15)
@given(
    st.lists(
        st.tuples(
            st.floats(-1, 1),
            st.sampled_from([0.0, np.pi / 2, -np.pi / 2, np.pi, 0.7]),
            st.floats(-1, 1),
            st.floats(-np.pi, np.pi),
            st.sampled_from(["r", "p"]),
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.floats(-np.pi, np.pi), min_size=4, max_size=4),
)
def test_frames_match_products_of_link_transforms(rows, q):
    # property: the merged-rotation construction equals the plain product of A_i
    from robolab.spatial.transforms import dh_modified, dh_standard

    joints = [q1, q2, q3, q4]
    for convention, transform in (("standard", dh_standard), ("modified", dh_modified)):
        table = []
        for (a, alpha, d, theta, kind), joint in zip(rows, joints, strict=False):
            table.append(
                (a, alpha, d, joint + theta, "r")
                if kind == "r"
                else (a, alpha, joint + d, theta, "p")
            )
        frames = DHRobot(*table, convention=convention).numeric().frames(q[: len(rows)])
        expected = np.eye(4)
        for (a, alpha, d, theta, kind), value, frame in zip(rows, q, frames[1:], strict=False):
            if kind == "r":
                expected = expected @ transform(a, alpha, d, value + theta)
            else:
                expected = expected @ transform(a, alpha, value + d, theta)
            np.testing.assert_allclose(frame, expected, atol=1e-12)


@settings(max_examples=10)
@given(st.lists(st.floats(-np.pi, np.pi), min_size=3, max_size=3))
def test_inertia_matrix_is_symmetric_positive_definite(arm, q):
    M = arm.numeric().inertia_matrix(q)
    np.testing.assert_allclose(M, M.T, atol=1e-15)
    assert np.linalg.eigvalsh(M).min() > 0
