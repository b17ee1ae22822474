"""Standard ↔ modified DH: to_modified() / to_standard() give the same robot, exactly.

Independent references: Pinocchio models built from the *standard* rows
(``tests/reference/dh_arms.py``) for the converted modified tables, the
bundled ``puma560`` file's own modified table (derived by its authors, see its
``source.changes``), and the hand-written modified planar 3R of chapter 2.
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.dh_arms import pinocchio_model

from robolab import DHRobot, compare_models, load_robot, transl
from robolab.dh.simplify import simplify_matrix, simplify_trig
from robolab.symbols import (
    alpha2,
    alpha3,
    d1,
    g,
    l1,
    l2,
    l3,
    lc2,
    lc3,
    q1,
    q2,
    q3,
    q4,
)

PUMA = load_robot("puma560", form="dh")


def scara() -> DHRobot:
    robot = DHRobot(
        (0.35, 0, 0.4, q1),
        (0.3, np.pi, 0, q2),
        (0, 0, q3 + 0.05, 0, "p"),
        (0, 0, 0.1, q4),
        name="SCARA",
    )
    robot.masses = [3.0, 2.0, 0.5, 0.2]
    robot.cm_positions = [(-0.17, 0, 0.05), (-0.15, 0.01, 0), (0, 0, -0.1), (0, 0, -0.02)]
    robot.inertia_tensors = [
        np.diag([0.01, 0.04, 0.04]),
        [[0.02, 0.001, 0], [0.001, 0.03, 0.002], [0, 0.002, 0.03]],
        np.diag([0.002, 0.002, 0.0001]),
        np.diag([0.0002, 0.0002, 0.0001]),
    ]
    return robot


def symbolic_arm() -> DHRobot:
    """Every kind of entry: symbolic twists, exact and float angles, a general tool."""
    tool = transl(0.05, -0.02, 0.1) @ np.array(
        [[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0, 0, 0, 1.0]]
    )
    robot = DHRobot(
        (0, sp.pi / 2, d1, q1),
        (l2, alpha2, 0, q2 + sp.pi / 2),
        (l3, alpha3, 0, q3),
        tool=tool,
        name="symbolic RRR",
    )
    robot.masses = None
    robot.cm_positions = [(0, lc2, 0), (lc2 - l2, 0, 0.01), (lc3 - l3, 0, 0)]
    robot.gravity = (0, 0, -g)
    return robot


def assert_same_model(a: DHRobot, b: DHRobot) -> None:
    """Structurally identical: table, tool, every parameter (not merely equal numbers)."""
    assert a.convention == b.convention
    assert a.dh_parameters == b.dh_parameters
    assert a.joint_types == b.joint_types
    assert a.tool == b.tool
    assert a.masses == b.masses
    assert a.cm_positions == b.cm_positions
    assert a.inertia_tensors == b.inertia_tensors
    assert a.gravity == b.gravity
    assert a.joint_limits == b.joint_limits
    assert a.name == b.name
    assert a.model_summary() == b.model_summary()


# --- the tables ----------------------------------------------------------------------------------


def test_modified_table_moves_a_and_alpha_down_one_row():
    robot = symbolic_arm()
    modified = robot.to_modified()
    assert modified.convention == "modified"
    rows = [(a, alpha, d, theta) for a, alpha, d, theta in modified.dh_parameters]
    assert rows == [
        (0, 0, d1, q1),
        (0, sp.pi / 2, 0, q2 + sp.pi / 2),
        (l2, alpha2, 0, q3),
    ]
    # the last standard factor Tx(l3) Rx(alpha3) went into the tool, before the old tool
    X3 = transl(l3, 0, 0) * sp.Matrix(
        [
            [1, 0, 0, 0],
            [0, sp.cos(alpha3), -sp.sin(alpha3), 0],
            [0, sp.sin(alpha3), sp.cos(alpha3), 0],
            [0, 0, 0, 1],
        ]
    )
    assert simplify_matrix(modified.tool - X3 * robot.tool) == sp.zeros(4, 4)


def test_chapter_two_planar_arm_by_hand():
    # notebooks/02: the modified planar 3R written by hand from the standard one
    standard = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), (l3, 0, 0, q3))
    by_hand = DHRobot(
        (0, 0, 0, q1), (l1, 0, 0, q2), (l2, 0, 0, q3), convention="modified", tool=transl(l3, 0, 0)
    )
    converted = standard.to_modified()
    assert converted.dh_parameters == by_hand.dh_parameters
    assert converted.tool == by_hand.tool
    # and back: the pure Tx(l3) tool is read as a_3 = l3
    assert by_hand.to_standard().dh_parameters == standard.dh_parameters
    assert by_hand.to_standard().tool == sp.eye(4)


def test_bundled_puma_modified_table_is_to_modified_of_its_standard_table():
    # robots/puma560.json derives its modified table from the standard one with the same rules
    # (Craig's frames, r -> Tx(a_i) Rx(alpha_i) r, I -> Rx I Rxᵀ); the comparison is exact
    from_file = load_robot("puma560", form="dh", convention="modified")
    assert_same_model(PUMA.to_modified(), from_file)
    assert_same_model(from_file.to_standard(), PUMA)


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make", [symbolic_arm, scara, lambda: PUMA], ids=["symbolic", "scara", "puma"]
)
def test_standard_modified_standard_round_trip_is_exact(make):
    robot = make()
    assert_same_model(robot.to_modified().to_standard(), robot)


def test_round_trip_with_a_tool_and_last_link_given():
    robot = symbolic_arm()
    modified = robot.to_modified()
    # a modified table typed in by hand does not remember a_3, alpha_3: give them
    typed = DHRobot(
        *[
            (*row, kind)
            for row, kind in zip(modified.dh_parameters, modified.joint_types, strict=True)
        ],
        convention="modified",
        tool=modified.tool,
        name=robot.name,
    )
    back = typed.to_standard(last_link=(l3, alpha3))
    assert back.dh_parameters == robot.dh_parameters
    assert simplify_matrix(back.tool - robot.tool) == sp.zeros(4, 4)
    # without them: a_3 = alpha_3 = 0, the tool keeps the whole motion, same end-effector
    guessed = typed.to_standard()
    assert guessed.dh_parameters[-1][:2] == (0, 0)
    assert guessed.tool == typed.tool
    assert simplify_matrix(guessed.T - robot.T) == sp.zeros(4, 4)


def test_modified_standard_modified_round_trip():
    robot = DHRobot(
        (0, 0, 0.3, q1 + 0.2),
        (0.4, sp.pi / 2, 0, q2),
        (0.1, -sp.pi / 2, q3 + 0.05, sp.pi / 2, "p"),
        convention="modified",
        tool=transl(0.0, 0.0, 0.12),
        name="modified RRP",
    )
    robot.masses = [1.0, 2.0, 0.5]
    robot.cm_positions = [(0.0, 0.1, 0.2), (0.2, 0.0, 0.01), (0.0, 0.0, -0.1)]
    robot.inertia_tensors = [np.diag([0.01, 0.02, 0.03])] * 3
    back = robot.to_standard().to_modified()
    assert back.dh_parameters == robot.dh_parameters
    assert back.tool == robot.tool
    assert back.cm_positions == robot.cm_positions
    assert back.inertia_tensors == robot.inertia_tensors


def test_converting_to_the_same_convention_gives_a_copy():
    robot = scara()
    copy = robot.to_standard()
    assert copy is not robot
    assert_same_model(copy, robot)
    copy.masses = [1.0, 1.0, 1.0, 1.0]
    assert robot.masses[0] == 3.0
    # a copy of a converted table still remembers where it came from
    arm = symbolic_arm()
    assert_same_model(arm.to_modified().to_modified().to_standard(), arm)


# --- same robot: kinematics and dynamics ---------------------------------------------------------


def test_symbolic_kinematics_and_dynamics_agree():
    robot = DHRobot((0, sp.pi / 2, d1, q1), (l2, 0, 0, q2), (l3, alpha3, 0, q3), name="elbow")
    robot.cm_positions = [(0, 0, 0), (lc2 - l2, 0, 0), (lc3 - l3, 0, 0.01)]
    robot.gravity = (0, 0, -g)
    modified = robot.to_modified()
    assert simplify_matrix(modified.T - robot.T) == sp.zeros(4, 4)
    assert simplify_matrix(modified.J - robot.J) == sp.zeros(6, 3)
    for i in (1, 2, 3):  # the centres of mass are the same points of the same links
        assert simplify_matrix(modified.r_cm(i) - robot.r_cm(i)) == sp.zeros(3, 1)
    M, M_modified = robot.inertia_matrix(), modified.inertia_matrix()
    assert all(simplify_trig(M[k] - M_modified[k]) == 0 for k in range(9))
    G = robot.gravity_vector() - modified.gravity_vector()
    assert simplify_matrix(G) == sp.zeros(3, 1)


@pytest.mark.parametrize("name", ["puma", "scara"])
def test_converted_modified_table_against_pinocchio(name):
    # Pinocchio is built from the *standard* rows: an independent model of the same robot
    robot = PUMA if name == "puma" else scara()
    rows = []
    for row, kind in zip(robot.dh_parameters, robot.joint_types, strict=True):
        a, alpha, d, theta = row
        variable = robot.qs[len(rows)]
        offset = (theta if kind == "r" else d) - variable
        constant_d = float(d) if kind == "r" else float(offset)
        constant_theta = float(offset) if kind == "r" else float(theta)
        rows.append((float(a), float(alpha), constant_d, constant_theta, kind))
    masses = [float(m) for m in robot.masses]
    centres = [[float(x) for x in c] for c in robot.cm_positions]
    tensors = [np.array(tensor.tolist(), dtype=float) for tensor in robot.inertia_tensors]
    model, _ = pinocchio_model(rows, "standard", masses, centres, tensors)
    data = model.createData()
    fast = robot.to_modified().numeric()
    rng = np.random.default_rng(3)
    for _ in range(5):
        q, qd, qdd = rng.uniform(-1.5, 1.5, (3, robot.dof))
        tau = pin.rnea(model, data, q, qd, qdd)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(fast.inverse_dynamics(q, qd, qdd), tau, atol=1e-10)
        np.testing.assert_allclose(fast.inertia_matrix(q), M, atol=1e-10)


@pytest.mark.parametrize("make", [lambda: PUMA, scara], ids=["puma", "scara"])
def test_standard_converted_modified_and_screw_are_one_robot(make):
    robot = make()
    report = compare_models(robot, robot.to_modified(), robot.to_screw(), samples=100)
    assert report.passed, str(report)
    assert [row.name for row in report.rows] == [
        "end-effector pose T",
        "Jacobian J",
        "mass matrix M",
        "torques τ",
    ]
    assert all(d is not None for row in report.rows for d in row.differences)


@settings(max_examples=25)
@given(
    st.lists(
        st.tuples(
            st.floats(-0.5, 0.5),
            st.sampled_from([0.0, np.pi / 2, -np.pi / 2, np.pi, 0.3, -1.1]),
            st.floats(-0.5, 0.5),
            st.floats(-3.0, 3.0),
            st.sampled_from(["r", "p"]),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_table_converts_to_the_same_robot(rows):
    table = []
    for i, (a, alpha, d, theta, kind) in enumerate(rows):
        q = (q1, q2, q3, q4)[i]
        table.append(
            (a, alpha, d, q + theta, kind) if kind == "r" else (a, alpha, q + d, theta, kind)
        )
    robot = DHRobot(*table)
    robot.cm_positions = [(0.1, -0.05, 0.02)] * len(rows)
    robot.masses = [1.0] * len(rows)
    # a rigid body's inertia (principal moments 0.0199, 0.0301, 0.04 satisfy the triangle
    # inequality; I_zz = 0.01 did not, which DHRobot now refuses)
    robot.inertia_tensors = [[[0.02, 0.001, 0.0], [0.001, 0.03, 0.0], [0.0, 0.0, 0.04]]] * len(rows)
    modified = robot.to_modified()
    back = modified.to_standard()
    assert back.dh_parameters == robot.dh_parameters
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.uniform(-1, 1, (3, 4, len(rows)))
    for other in (modified, back):
        np.testing.assert_allclose(
            other.numeric().forward_kinematics(q), robot.numeric().forward_kinematics(q), atol=1e-12
        )
    for centre, original in zip(back.cm_positions, robot.cm_positions, strict=True):
        np.testing.assert_allclose(
            np.array(centre, dtype=float), np.array(original, dtype=float), atol=1e-14
        )
    np.testing.assert_allclose(
        modified.numeric().inverse_dynamics(q, qd, qdd),
        robot.numeric().inverse_dynamics(q, qd, qdd),
        atol=1e-10,
    )


# --- what is said and what is refused ---------------------------------------------------------


def test_summary_says_where_assumed_inertias_were_assumed():
    robot = DHRobot((0, sp.pi / 2, d1, q1), (l2, 0, 0, q2))
    robot.cm_positions = None  # assumed x_ci, y_ci, z_ci
    modified = robot.to_modified()
    summary = modified.model_summary()
    assert (
        "inertia tensors  : assumed (diagonal I_xx_i, I_yy_i, I_zz_i: zero products of inertia, "
        "in the frames of the standard table, re-expressed in these)" in summary
    )
    assert "centres of mass  : assumed (general symbolic x_ci, y_ci, z_ci, in the frames" in summary
    # link 1's y axis turns into z: its assumed I_yy1 is now the moment about z
    assert modified.I_cm(1)[2, 2] == robot.I_cm(1)[1, 1]
    modified.inertia_tensors = None
    assert "in the frames of" not in modified.model_summary().split("inertia tensors")[1]


def test_a_modified_table_with_a_base_offset_has_no_standard_form():
    robot = DHRobot((0.1, sp.pi / 2, 0, q1), (0.2, 0, 0, q2), convention="modified")
    with pytest.raises(
        ValueError,
        match=r"row 1: a_0 = 0.1\d*, alpha_0 = pi/2; a standard DH table starts with z_0 along "
        r"joint 1 and has no base transform",
    ):
        robot.to_standard()


@pytest.mark.parametrize(
    ("last_link", "message"),
    [
        ((0.1,), r"last_link: expected a pair \(a_n, alpha_n\), got \(0.1,\)"),
        (("a", 0), r"last_link, a_n: expected a number or a SymPy expression, got the text 'a'"),
    ],
)
def test_bad_last_link_is_named(last_link, message):
    robot = DHRobot((0, 0, 0, q1), convention="modified")
    error = TypeError if "the text" in message else ValueError  # text is not a number at all
    with pytest.raises(error, match=message):
        robot.to_standard(last_link=last_link)
    with pytest.raises(ValueError, match=r"last_link: only a modified table needs it"):
        DHRobot((0, 0, 0, q1)).to_standard(last_link=(0, 0))
