"""One symbol, one meaning (issue item 6).

A symbol that is a joint variable may appear nowhere else in the DH table and
no other symbol may have its name; the error names both places (row and
column). A plain SymPy ``Symbol`` given as a joint variable still becomes a
function of time, with one :class:`robolab.dh.table.PlainSymbolWarning` per
robot, because ``robot.T.subs(q, 0)`` would then silently change nothing.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sympy as sp

from robolab import DHRobot, transl
from robolab.dh.table import PlainSymbolWarning
from robolab.symbols import l1, l2, m1, q1, q2, t


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [(l1, 0, 0, l1)],
            r"l₁ is the joint variable of joint 1 \(row 1, theta\) and is also used in "
            r"row 1, a \(a = l₁\): one symbol, one meaning",
        ),
        (
            [(l1, 0, 0, q1), (l2, 0, 0, l1)],
            r"l₁ is the joint variable of joint 2 \(row 2, theta\) and is also used in "
            r"row 1, a \(a = l₁\)",
        ),
        (
            [(l1, 0, 0, q1), (0, 0, l1, 0, "p")],
            r"l₁ is the joint variable of joint 2 \(row 2, d\) and is also used in row 1, a",
        ),
        (
            [(0, 0, l1, 0, "p"), (l2, l1, 0, q2)],
            r"l₁ is the joint variable of joint 1 \(row 1, d\) and is also used in "
            r"row 2, alpha \(alpha = l₁\)",
        ),
        (
            [(l1, 0, 0, q1), (l2, 0, 0, q2 + l1 + 0 * q1)],
            None,  # l1 is a constant in both rows: allowed
        ),
        (
            [(q1, 0, 0, q1)],
            r"q₁ is the joint variable of joint 1 \(row 1, theta\) and is also used in "
            r"row 1, a \(a = q₁\)",
        ),
        (
            [(l1, 0, 0, q1), (2 * q1, 0, 0, q2)],
            r"q₁ is the joint variable of joint 1 \(row 1, theta\) and is also used in "
            r"row 2, a \(a = 2\*q₁\)",
        ),
        (
            [(l1, 0, 0, q1), (l2, 0, 0, q2 + q1)],
            r"q₁ is the joint variable of joint 1 \(row 1, theta\) and is also used in "
            r"row 2, theta \(theta = q₁ \+ q₂\)",
        ),
        (
            [(l1, 0, 0, q1 + q2), (l2, 0, 0, q2)],
            r"q₂ is the joint variable of joint 2 \(row 2, theta\) and is also used in "
            r"row 1, theta \(theta = q₁ \+ q₂\)",
        ),
        (
            [(l1, 0, 0, q1), (sp.Symbol("q_1"), 0, 0, q2)],
            r"the symbol q_1 in row 2, a \(a = q₁\) has the name of the joint variable q₁ of "
            r"joint 1 \(row 1, theta\) but is another SymPy object: one name, one meaning",
        ),
        (
            [(sp.Symbol("q_2", positive=True), 0, 0, q1), (l2, 0, 0, q2)],
            r"the symbol q_2 in row 1, a .* has the name of the joint variable q₂ of joint 2 "
            r"\(row 2, theta\)",
        ),
    ],
)
def test_a_symbol_with_two_roles_is_an_error_naming_both_places(rows, message):
    if message is None:
        DHRobot(*rows)
        return
    with pytest.raises(ValueError, match=message):
        DHRobot(*rows)


def test_the_old_messages_stay_where_there_is_no_second_role():
    # variable in the wrong column of a single row, and one variable for two joints
    with pytest.raises(ValueError, match=r"row 1: joint 1 is revolute .* but d = q₁ contains q₁"):
        DHRobot((l1, 0, q1, 0))
    with pytest.raises(ValueError, match=r"row 2: the joint variable q₁ is already the variable"):
        DHRobot((l1, 0, 0, q1), (l2, 0, 0, q1))
    q = sp.Symbol("q")
    with pytest.raises(ValueError, match=r"row 2: the joint variable q is already the variable"):
        DHRobot((l1, 0, 0, q), (l2, 0, 0, q))


def test_a_plain_symbol_joint_variable_warns_once_per_robot_and_says_what_to_substitute():
    a, b = sp.symbols("a b")
    with pytest.warns(PlainSymbolWarning) as caught:
        robot = DHRobot((1, 0, 0, a), (1, 0, 0, b), (0, 0, q1 + 0.1, 0, "p"))
    assert len(caught) == 1
    text = str(caught[0].message)
    assert (
        "row 1, theta: the plain symbol a is now the joint variable a(t) (use robot.q(1))" in text
    )
    assert "row 2, theta: the plain symbol b is now the joint variable b(t)" in text
    assert "expr.subs(symbol, value) would change nothing" in text
    assert issubclass(PlainSymbolWarning, UserWarning)
    assert caught[0].filename == __file__  # points at the DHRobot(...) call
    # the reason: T holds a(t), so substituting the plain symbol changes nothing
    assert robot.T.subs(a, 0) == robot.T
    assert robot.T.subs(robot.q(1), 0) != robot.T
    assert robot.qs[:2] == [sp.Function("a")(t), sp.Function("b")(t)]


def test_functions_of_time_give_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        DHRobot((l1, 0, 0, sp.Function("theta_1")(t)))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("masses", [m1, sp.Symbol("q_2")], r"masses\[1\]: the symbol q_2 has the name of the "),
        (
            "cm_positions",
            [(0, 0, 0), (sp.Symbol("q_1"), 0, 0)],
            r"cm_positions\[1\]: the symbol q_1",
        ),
        (
            "inertia_tensors",
            [np.eye(3), sp.eye(3) * sp.Symbol("q_1", positive=True)],
            r"inertia_tensors\[1\]: the symbol q_1 has the name of the joint variable q_1\(t\) "
            r"of joint 1 \(row 1, theta\)",
        ),
        (
            "gravity",
            (0, 0, -sp.Symbol("q_2")),
            r"gravity: the symbol q_2 has the name of the joint",
        ),
    ],
)
def test_dynamic_parameters_may_not_reuse_a_joint_variables_name(field, value, message):
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    with pytest.raises(ValueError, match=message):
        setattr(robot, field, value)


def test_dynamic_parameters_may_not_be_the_joint_variable_itself():
    robot = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
    with pytest.raises(ValueError, match=r"link 2, mass: expected a constant parameter, got q₁"):
        robot.masses = [1.0, q1]


def test_a_tool_may_not_reuse_a_joint_variables_name():
    with pytest.raises(ValueError, match=r"tool: the symbol q_1 has the name of the joint"):
        DHRobot((l1, 0, 0, q1), tool=transl(sp.Symbol("q_1"), 0, 0))
