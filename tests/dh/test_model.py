"""DHRobot holds one immutable description (robolab.dh.model.DHModel); setters replace it.

What the helpers of DHRobot (dynamics, numeric compilation, conversions, screw export)
read is the description, never the robot's private attributes; caches belong to the
description's parts, so a setter cannot leave a stale one behind.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from robolab import DHRobot
from robolab.dh.lagrangian import DerivedDynamics
from robolab.dh.model import DHChain, DHInertial, DHModel
from robolab.symbols import l1, l2, m1, m2, q1, q2

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "robolab"


def _arm() -> DHRobot:
    arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="2R")
    arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
    return arm


def test_the_model_is_immutable_and_public():
    arm = _arm()
    assert isinstance(arm.model, DHModel)
    assert isinstance(arm.model.chain, DHChain) and isinstance(arm.model.inertial, DHInertial)
    with pytest.raises(dataclasses.FrozenInstanceError):
        arm.model.name = "other"
    with pytest.raises(dataclasses.FrozenInstanceError):
        arm.model.inertial.masses = (1, 2)
    with pytest.raises(AttributeError):
        arm.model = arm.model  # read-only


@pytest.mark.parametrize(
    "attribute, value",
    [
        ("masses", [1.0, 2.0]),
        ("cm_positions", [(-0.5, 0, 0), (-0.25, 0, 0)]),
        ("inertia_tensors", [np.eye(3), np.eye(3)]),
        ("gravity", (0, -9.81, 0)),
        ("joint_limits", [(-1, 1), (-2, 2)]),
        ("qis_range", [(-1, 1), (-2, 2)]),
        ("plausibility_exceptions", [(1, "inertia_triangle", "test")]),
    ],
)
def test_a_setter_makes_a_new_model_and_leaves_the_old_one(attribute, value):
    arm = _arm()
    old = arm.model
    snapshot = dict(vars(old))
    inertial = dict(vars(old.inertial))
    setattr(arm, attribute, value)
    assert arm.model is not old
    assert dict(vars(old)) == snapshot and dict(vars(old.inertial)) == inertial
    assert arm.model.chain is old.chain  # no setter changes the kinematic chain


def test_a_setter_refused_leaves_the_model():
    arm = _arm()
    old = arm.model
    with pytest.raises(ValueError, match="expected a non-negative mass"):
        arm.masses = [-1.0, 1.0]
    assert arm.model is old


def test_dynamics_caches_do_not_survive_a_setter():
    arm = _arm()
    before = DerivedDynamics.of(arm.model)
    M = arm.inertia_matrix()
    assert DerivedDynamics.of(arm.model) is before  # cached with the description
    arm.masses = [2 * sp.Symbol("m_1"), sp.Symbol("m_2")]
    assert DerivedDynamics.of(arm.model) is not before
    assert arm.inertia_matrix() != M
    # the kinematics depend on the chain only: kept
    assert arm.model.chain.memo


def test_joint_limits_keep_every_cache():
    arm = _arm()
    arm.masses, arm.inertia_tensors = [1.0, 1.0], [np.zeros((3, 3))] * 2
    dynamics = DerivedDynamics.of(arm.model)
    arm.joint_limits = [(-1, 1), (-1, 1)]
    assert DerivedDynamics.of(arm.model) is dynamics


def test_a_numeric_robot_notices_a_new_model():
    arm = DHRobot((1.0, 0, 0, q1))
    arm.cm_positions, arm.masses, arm.inertia_tensors = [(0, 0, 0)], [1.0], [np.zeros((3, 3))]
    fast = arm.numeric()
    arm.gravity = (0, -1.0, 0)
    with pytest.raises(RuntimeError, match="parameters changed after numeric"):
        fast.gravity_vector([0.0])
    np.testing.assert_allclose(arm.numeric().gravity_vector([0.0]), [1.0])


def test_from_model_shares_the_description():
    arm = _arm()
    twin = DHRobot.from_model(arm.model)
    assert twin.model is arm.model and twin.T == arm.T
    twin.masses = [1, 1]
    assert arm.masses == [m1, m2]  # the original is its own
    with pytest.raises(TypeError, match="expected a DHModel"):
        DHRobot.from_model(arm)


def test_robots_sharing_a_model_have_their_own_numeric_robots():
    arm = DHRobot((1.0, 0, 0, q1))
    arm.cm_positions, arm.masses, arm.inertia_tensors = [(0, 0, 0)], [1.0], [np.zeros((3, 3))]
    arm.gravity = (0, -9.81, 0)
    twin = DHRobot.from_model(arm.model)
    fast, twin_fast = arm.numeric(), twin.numeric()
    assert fast is not twin_fast and arm.numeric() is fast
    arm.masses = [2.0]
    np.testing.assert_allclose(twin_fast.gravity_vector([0.0]), [9.81])  # twin unchanged
    with pytest.raises(RuntimeError, match="parameters changed after numeric"):
        fast.gravity_vector([0.0])


@pytest.mark.parametrize("convert", ["to_modified", "to_standard", "to_screw"])
def test_a_conversion_does_not_touch_the_source(convert):
    arm = DHRobot((1.0, sp.pi / 2, 0.5, q1), (0.5, 0, 0, q2))
    arm.cm_positions = [(-0.5, 0, 0), (-0.25, 0, 0)]
    arm.masses, arm.inertia_tensors = [1.0, 2.0], [np.diag([1.0, 2.0, 2.5])] * 2
    arm.joint_limits = [(-1, 1), (-2, 2)]
    if convert == "to_standard":
        arm = arm.to_modified()
    model = arm.model
    fields = dict(vars(model))
    inertial = dict(vars(model.inertial))
    summary = arm.model_summary()
    getattr(arm, convert)()
    assert arm.model is model
    assert dict(vars(model)) == fields and dict(vars(model.inertial)) == inertial
    assert arm.model_summary() == summary


# --------------------------------------------------------------------------- no friends


def _dhrobot_privates(path: Path) -> set[str]:
    """The underscore attributes DHRobot defines in robot.py (assigned to self, or methods)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "DHRobot":
            for inner in ast.walk(node):
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(inner.name)
                elif isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
                    names.add(inner.attr)
    # IPython's display protocol (_repr_html_, _ipython_display_) is public, not DHRobot's own
    protocol = re.compile(r"_(repr|ipython)_\w+_")
    return {
        n
        for n in names
        if n.startswith("_") and not n.startswith("__") and not protocol.fullmatch(n)
    }


def _own_privates(tree: ast.AST) -> dict[int, set[str]]:
    """For each class of a module (by id), the underscore attributes it defines itself."""
    owned: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = set()
            for inner in ast.walk(node):
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(inner.name)
                elif isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
                    names.add(inner.attr)
            owned[id(node)] = names
    return owned


def private_reads(source: str, privates: set[str]) -> list[str]:
    """Accesses ``x._name`` (or ``getattr(x, "_name")``) of a DHRobot private in ``source``.

    An access inside a class that defines the same name itself is that class's own.
    """
    tree = ast.parse(source)
    owned = _own_privates(tree)
    problems = []

    def visit(node: ast.AST, own: set[str]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = own | owned.get(id(child), set()) if isinstance(child, ast.ClassDef) else own
            if isinstance(child, ast.Attribute) and child.attr in privates - own:
                problems.append(f"line {child.lineno}: .{child.attr}")
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id in {"getattr", "setattr", "hasattr"}
                and len(child.args) >= 2
                and isinstance(child.args[1], ast.Constant)
                and child.args[1].value in privates
            ):
                call = f"{child.func.id}(..., {child.args[1].value!r})"
                problems.append(f"line {child.lineno}: {call}")
            visit(child, inner)

    visit(tree, set())
    return problems


def test_dhrobot_has_a_few_privates_only():
    privates = _dhrobot_privates(PACKAGE / "dh" / "robot.py")
    assert "_model" in privates
    assert "_version" not in privates  # caches are keyed by the description, not a counter


def test_no_module_but_robot_py_touches_dhrobot_privates():
    privates = _dhrobot_privates(PACKAGE / "dh" / "robot.py")
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "dh" / "robot.py" or "__pycache__" in path.parts:
            continue
        for problem in private_reads(path.read_text(encoding="utf-8"), privates):
            problems.append(f"{path.relative_to(ROOT)} {problem}")
    assert problems == []


def test_the_private_check_can_fail():
    source = (
        "def f(robot):\n    return robot._model, getattr(robot, '_model', None)\n"
        "class Mixin:\n    def g(self):\n        return self._model\n"
        "class Own:\n    def __init__(self):\n        self._model = 1\n"
        "    def h(self):\n        return self._model\n"
    )
    assert len(private_reads(source, {"_model"})) == 3


def test_a_robot_name_is_normalised_and_hidden_characters_are_refused():
    from robolab.dh.model import DHModel
    from robolab.symbols import q1

    decomposed, composed = "Gelenk\u0301", "Gelenḱ"
    assert DHModel.new([(1.0, 0, 0, q1)], name=decomposed).name == composed
    with pytest.raises(ValueError, match=r"U\+202E"):
        DHModel.new([(1.0, 0, 0, q1)], name="arm\u202e")  # a right-to-left override
    with pytest.raises(TypeError, match="name must be a str"):
        DHModel.new([(1.0, 0, 0, q1)], name=3)
