"""robolab.dh.parameters: every value given to a DHRobot is checked and normalised here.

Numbers keep their type (floats stay floats, exact zeros and quarter turns become exact),
what is no real number is a ``TypeError``, a value of the wrong size or physics a
``ValueError`` naming the row or link, the field, what was expected and what was given.
Symbolic masses and inertias are checked once ``DHRobot.numeric(values)`` makes them numbers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from robolab import DHRobot
from robolab.dh.parameters import as_sympy_scalar, check_joint_limits, check_tool, textbook_text
from robolab.symbols import Ixx1, Iyy1, Izz1, l1, l2, m1, m2, q1, q2, t

# --- numbers -------------------------------------------------------------------------------------


def test_floats_stay_floats_and_quarter_turns_become_exact():
    robot = DHRobot((0.4318, np.pi / 2, 0.0, q1), (0.25, -1.5707963267948966, 0.1, q2 + np.pi))
    a, alpha, d, _ = robot.dh_parameters[0]
    assert alpha == sp.pi / 2 and d == 0 and d.is_Integer
    assert isinstance(a, sp.Float) and a == sp.Float(0.4318)
    assert robot.dh_parameters[1][1] == -sp.pi / 2
    assert robot.dh_parameters[1][3] == q2 + sp.pi
    T = robot.T
    assert not any(abs(f) < 1e-12 for f in T.atoms(sp.Float)), "no 6e-17 left from cos(pi/2)"
    assert T[:3, :3].atoms(sp.Float) == set()  # the rotations are exact


@pytest.mark.parametrize(
    ("value", "expected", "kind"),
    [
        (2, sp.Integer(2), sp.Integer),
        (np.int64(3), sp.Integer(3), sp.Integer),
        (Fraction(1, 3), sp.Rational(1, 3), sp.Rational),
        (Decimal("0.25"), sp.Float(0.25), sp.Float),
        (np.float32(0.5), sp.Float(0.5), sp.Float),
        (np.array(1.5), sp.Float(1.5), sp.Float),
        (np.float64(0.0), sp.S.Zero, sp.core.numbers.Zero),
        (-0.0, sp.S.Zero, sp.core.numbers.Zero),
    ],
)
def test_numbers_keep_their_type_and_a_float_zero_becomes_exact(value, expected, kind):
    converted = as_sympy_scalar(value, "row 1, a")
    assert converted == expected and isinstance(converted, kind)


def test_only_angles_within_the_tolerance_of_a_quarter_turn_become_exact():
    assert as_sympy_scalar(np.pi, "row 1, alpha", angle=True) == sp.pi
    assert as_sympy_scalar(3 * np.pi / 2, "row 1, alpha", angle=True) == 3 * sp.pi / 2
    assert as_sympy_scalar(-np.pi / 2, "row 1, alpha", angle=True) == -sp.pi / 2
    within = as_sympy_scalar(np.pi / 2 + 5e-13, "row 1, alpha", angle=True)
    assert within == sp.pi / 2
    beyond = as_sympy_scalar(np.pi / 2 + 1e-9, "row 1, alpha", angle=True)
    assert isinstance(beyond, sp.Float) and float(beyond) == np.pi / 2 + 1e-9
    not_an_angle = as_sympy_scalar(np.pi / 2, "row 1, a")  # a length is never snapped
    assert isinstance(not_an_angle, sp.Float) and float(not_an_angle) == np.pi / 2
    offset = as_sympy_scalar(q1 + 1.5707963267948966, "row 1, theta", angle=True)
    assert offset == q1 + sp.pi / 2  # the float inside an expression too


def test_a_tool_turned_by_a_float_quarter_turn_is_exact():
    c, s = np.cos(np.pi / 2), np.sin(np.pi / 2)  # 6.1e-17 and 1.0
    tool = check_tool([[c, -s, 0, 0.1], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])
    assert tool == sp.Matrix([[0, -1, 0, 0.1], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    assert tool[:3, :3].atoms(sp.Float) == set()


def test_textbook_text_writes_joint_variables_without_their_time():
    assert textbook_text(q1.diff(t, 2)) == "q̈₁"
    assert textbook_text(m1 + q2) == "m₁ + q₂"
    assert textbook_text(3.5) == "3.5"  # what is no SymPy object prints as itself


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "options", "message"),
    [
        ([(float("nan"), 0, 0, q1)], {}, r"row 1, a: expected a finite number, got nan"),
        (
            [(l1, 0, 0, q1)],
            {"tool": np.eye(3)},
            r"tool: expected a 4×4 homogeneous transform T_n,ee, got shape \(3, 3\)",
        ),
        (
            [(l1, 0, 0, q1)],
            {"tool": 2 * np.eye(4)},
            r"tool: expected the bottom row \[0, 0, 0, 1\], got \[0, 0, 0, 2",
        ),
        (
            [(l1, 0, 0, q1)],
            {"tool": np.diag([1.0, 1.0, -1.0, 1.0])},
            r"tool: expected a rotation in the upper-left 3×3 block \(orthonormal, det \+1\)",
        ),
    ],
)
def test_a_non_finite_entry_or_a_bad_tool_names_the_field_and_what_was_expected(
    rows, options, message
):
    with pytest.raises(ValueError, match=message):
        DHRobot(*rows, **options)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [("l1", 0, 0, q1)],
            r"row 1, a: expected a number or a SymPy expression, got the text 'l1'",
        ),
        (
            [(l1, [0], 0, q1)],
            r"row 1, alpha: expected a number or a SymPy expression, got list \[0\]",
        ),
        (
            [(l1, None, 0, q1)],
            r"row 1, alpha: expected a number or a SymPy expression, got NoneType None",
        ),
        ([(sp.I, 0, 0, q1)], r"row 1, a: expected a real value, got I"),
    ],
)
def test_entries_that_are_not_real_numbers_are_type_errors(rows, message):
    # text, lists, None and complex values: not a value of the right kind
    with pytest.raises(TypeError, match=message):
        DHRobot(*rows)


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        (
            "masses",
            [1.0, -2.0],
            ValueError,
            r"link 2, mass: expected a non-negative mass, got -2.0",
        ),
        ("masses", [1.0], ValueError, r"masses: expected 2 entries \(one per link\), got 1"),
        (
            "masses",
            [1.0, "heavy"],
            TypeError,
            r"link 2, mass: expected a number or a SymPy expression, got the text 'heavy'",
        ),
        ("masses", [1.0, -m2], ValueError, r"link 2, mass: expected a non-negative mass, got -m_2"),
        (
            "masses",
            [1.0, q1],
            ValueError,
            r"link 2, mass: expected a constant parameter, got q₁, which depends on q₁$",
        ),
        (
            "inertia_tensors",
            [np.eye(3), np.eye(2)],
            ValueError,
            r"link 2, inertia tensor: expected a 3×3 matrix, got shape \(2, 2\)",
        ),
        (
            "inertia_tensors",
            [np.eye(3), [[1, 0.5, 0], [0.2, 1, 0], [0, 0, 1]]],
            ValueError,
            r"link 2, inertia tensor: expected a symmetric matrix, got I\[0, "
            r"1\] = 0.5\d* but I\[1, 0\] = 0.2",
        ),
        (
            "inertia_tensors",
            [np.eye(3), np.diag([1.0, -1.0, 1.0])],
            ValueError,
            r"link 2, inertia tensor: expected a positive semi-definite matrix, "
            r"got eigenvalues -1, 1, 1",
        ),
        (
            "inertia_tensors",
            [np.eye(3)],
            ValueError,
            r"inertia_tensors: expected 2 entries \(one per link\), got 1",
        ),
        (
            "cm_positions",
            [(0, 0, 0), (0.2, 0)],
            ValueError,
            r"link 2, centre of mass: expected 3 coordinates \(x, y, z\) in frame \{2\}, "
            r"got 2 values",
        ),
        (
            "cm_positions",
            [(0, 0, 0), "middle"],
            TypeError,
            r"link 2, centre of mass: expected 3 coordinates \(x, y, z\) in frame \{2\}, "
            r"got the text 'middle'",
        ),
        (
            "gravity",
            (0, -9.81),
            ValueError,
            r"gravity: expected 3 coordinates \(x, y, z\) in the base frame \{0\}, got 2 values",
        ),
        (
            "joint_limits",
            [(1, -1), (0, 1)],
            ValueError,
            r"joint_limits, joint 1: expected lower <= upper, got \(1.0, -1.0\)",
        ),
        (
            "joint_limits",
            [(0, 1)],
            ValueError,
            r"joint_limits: expected 2 entries \(one per link\), got 1",
        ),
        (
            "joint_limits",
            [(0, 1), ("a", "b")],
            TypeError,
            r"joint_limits, joint 2: expected a pair of numbers \(lower, upper\), got the text 'a'",
        ),
        (
            "joint_limits",
            [(0, 1), (0, np.inf)],
            ValueError,
            r"joint_limits, joint 2: expected finite numbers, got \(0.0, inf\)",
        ),
        (
            "qis_range",
            [(0, 1), (0, 1, 2)],
            ValueError,
            r"qis_range, joint 2: expected a pair \(lower, upper\), got 3 values",
        ),
    ],
)
def test_bad_parameters_name_the_link_the_field_and_what_was_expected(field, value, error, message):
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    with pytest.raises(error, match=message):
        setattr(robot, field, value)


@pytest.mark.parametrize(
    ("pair", "given"),
    [("12", r"the text '12'"), ({1: 2}, r"dict \{1: 2\}"), (5, r"int 5")],
)
def test_a_joint_limit_that_is_no_pair_is_never_read_as_one(pair, given):
    # "12" would be the pair ("1", "2"), a dict its keys
    with pytest.raises(TypeError, match=rf"joint 1: expected a pair of numbers .*, got {given}"):
        check_joint_limits([pair], ["r"])


# --- symbolic masses and inertias, checked when numeric(values) makes them numbers ----------------


def test_numeric_values_are_checked_like_the_setters_and_accepted_exceptions_hold():
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    with pytest.raises(
        ValueError, match=r"values: with these numbers link 1 has the mass -2, expected a non-negat"
    ):
        robot.numeric({m1: -2.0})
    rod = {Ixx1: 0.0, Iyy1: 0.0, Izz1: 0.35}  # principal moments 0, 0, 0.35: no rigid body
    with pytest.raises(
        ValueError, match=r"values: with these numbers link 1, inertia tensor: .* 0, 0, 0.35 kg"
    ):
        robot.numeric(rod)
    robot.plausibility_exceptions = [(1, "inertia_triangle", "a thin rod, as published")]
    assert robot.numeric(rod).dof == 2
