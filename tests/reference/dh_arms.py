"""Arms and helpers shared by the DH tests and the Moro reference generator.

The arms are written once here, in plain SymPy with :mod:`robolab.symbols`
(whose ``q_i(t)`` are the same functions as ``moro.abc.q1``), so that
``generate_moro_reference.py`` builds Moro's robots from exactly the tables
the tests give to :class:`robolab.DHRobot` (:func:`moro_arm` builds it).
:func:`pinocchio_model` builds an independent Pinocchio model from numeric DH
rows, in test code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from robolab import DHRobot
from robolab.symbols import (
    g,
    l1,
    l2,
    l3,
    lc1,
    lc2,
    lc3,
    q1,
    q2,
    q3,
    q4,
    q5,
    q6,
)

# name -> rows (a, alpha, d, theta[, type]), centres of mass in frames {i}, gravity in {0}
MORO_ARMS: dict[str, dict[str, Any]] = {
    # Spong's planar 2R in the x-y plane, gravity along -y
    "planar_rr": {
        "rows": [(l1, 0, 0, q1), (l2, 0, 0, q2)],
        "cm_positions": [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)],
        "gravity": (0, -g, 0),
    },
    # Spong's elbow (articulated) manipulator, every parameter symbolic
    "elbow_rrr": {
        "rows": [(0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), (l3, 0, 0, q3)],
        "cm_positions": [(0, lc1 - l1, 0), (lc2 - l2, 0, 0), (lc3 - l3, 0, 0)],
        "gravity": (0, 0, -g),
    },
    # SCARA: two revolute joints and a prismatic one pointing down (alpha = pi)
    "scara_rrp": {
        "rows": [(l1, 0, 0, q1), (l2, sp.pi, 0, q2), (0, 0, q3, 0, "p")],
        "cm_positions": [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0), (0, 0, -lc3)],
        "gravity": (0, 0, -g),
    },
    # numeric RPR arm with float parameters (Moro cannot take joint offsets such as q2 + 0.1)
    "numeric_rpr": {
        "rows": [
            (0, 0, 0.4, q1),
            (0, -sp.pi / 2, q2, 0, "p"),
            (0.25, 0, 0, q3),
        ],
        "cm_positions": [(0, 0, -0.2), (0, 0.05, -0.1), (-0.12, 0, 0.01)],
        "gravity": (0, 0, -9.81),
        "masses": [1.5, 2.0, 0.75],
        "inertia_tensors": [
            np.diag([0.02, 0.02, 0.01]).tolist(),
            [[0.03, 0.001, 0.0], [0.001, 0.02, 0.002], [0.0, 0.002, 0.01]],
            np.diag([0.001, 0.004, 0.004]).tolist(),
        ],
        # Link 2's made-up moments (0.0096, 0.0203, 0.0301) miss the triangle inequality by
        # 0.0002 kg·m²; the reference data was computed with them, so they are kept, accepted.
        "plausibility_exceptions": [(2, "inertia_triangle", "made-up test data of the reference")],
    },
}

#: The Puma 560's kinematics, Corke's standard DH table: rows (a, α, d, θ) with the joint variables.
PUMA_560_ROWS = [
    (0.0, sp.pi / 2, 0.0, q1),
    (0.4318, 0, 0.0, q2),
    (0.0203, -sp.pi / 2, 0.15005, q3),
    (0.0, sp.pi / 2, 0.4318, q4),
    (0.0, -sp.pi / 2, 0.0, q5),
    (0.0, 0, 0.0, q6),
]


def moro_arm(name: str) -> DHRobot:
    """The DHRobot of ``MORO_ARMS[name]``: its rows, centres of mass, gravity and, where the
    arm gives them, masses and inertia tensors (the rest are robolab's placeholders)."""
    arm = MORO_ARMS[name]
    robot = DHRobot(*arm["rows"], name=name)
    robot.cm_positions = arm["cm_positions"]
    robot.gravity = arm["gravity"]
    if "masses" in arm:
        robot.masses = arm["masses"]
        robot.plausibility_exceptions = arm.get("plausibility_exceptions", ())
        robot.inertia_tensors = arm["inertia_tensors"]
    return robot


def inertia_names(i: int) -> sp.Matrix:
    """Diagonal inertia tensor with robolab's placeholder names, plain symbols (for Moro)."""
    return sp.diag(*[sp.Symbol(f"I_{axis}{i}") for axis in ("xx", "yy", "zz")])


def evaluate(
    expr: Any, qs: list, q: np.ndarray, qd: np.ndarray, values: dict[str, float]
) -> np.ndarray:
    """Evaluate a SymPy expression/matrix at joint positions and velocities, symbols by name.

    ``q_i(t)`` and ``dq_i/dt`` are replaced first, then every remaining symbol
    by ``values[name]``: two engines whose symbols differ only in assumptions
    (Moro's ``m_1`` is real, robolab's positive) are compared at the same point.
    """
    time = qs[0].args[0]
    replacements = {}
    for function, position, velocity in zip(qs, q, qd, strict=True):
        replacements[function.diff(time)] = float(velocity)
        replacements[function] = float(position)
    expr = sp.sympify(expr)
    expr = expr.xreplace({k: v for k, v in replacements.items() if isinstance(k, sp.Derivative)})
    expr = expr.xreplace(
        {k: v for k, v in replacements.items() if not isinstance(k, sp.Derivative)}
    )
    expr = expr.xreplace({s: values[s.name] for s in expr.free_symbols})
    if isinstance(expr, sp.MatrixBase):
        return np.array(expr.evalf().tolist(), dtype=float)
    return np.array(float(expr.evalf()))


def random_values(names: set[str], rng: np.random.Generator) -> dict[str, float]:
    """Positive random numbers (lengths, masses, inertias, g) for the given symbol names."""
    return {name: float(rng.uniform(0.5, 2.0)) for name in sorted(names)}


def _x(value: float, axis: str) -> np.ndarray:
    c, s = np.cos(value), np.sin(value)
    T = np.eye(4)
    if axis == "x":
        T[1:3, 1:3] = [[c, -s], [s, c]]
    else:
        T[0:2, 0:2] = [[c, -s], [s, c]]
    return T


def _shift(axis: int, value: float) -> np.ndarray:
    T = np.eye(4)
    T[axis, 3] = value
    return T


def pinocchio_model(
    rows: list[tuple[float, float, float, float, str]],
    convention: str,
    masses: list[float],
    cm_positions: list[list[float]],
    inertia_tensors: list[np.ndarray],
    gravity: tuple[float, float, float] = (0.0, 0.0, -9.81),
):
    """Build a Pinocchio model from numeric DH rows ``(a, alpha, d_offset, theta_offset, type)``.

    For a revolute joint ``theta_offset`` is the constant added to q, for a
    prismatic one ``d_offset``. Standard: joint i moves about z of DH frame
    {i-1}; link i's DH frame is the joint frame times ``Rz(θ0) Tz(d0) Tx(a) Rx(α)``.
    Modified: joint i's frame is DH frame {i}; its placement in frame {i-1}
    is ``Rx(α) Tx(a) Rz(θ0) Tz(d0)``. Returns ``(model, link_frame)`` where
    ``link_frame[i]`` maps Pinocchio's joint frame i+1 to DH frame {i+1}.
    """
    import pinocchio as pin

    model = pin.Model()
    model.gravity.linear = np.array(gravity, dtype=float)
    parent, placement = 0, np.eye(4)
    link_frames = []
    for i, (a, alpha, d0, theta0, kind) in enumerate(rows):
        joint = pin.JointModelRZ() if kind == "r" else pin.JointModelPZ()
        if convention == "standard":
            inside = _x(theta0, "z") @ _shift(2, d0) @ _shift(0, a) @ _x(alpha, "x")
            joint_placement = placement
        else:
            inside = np.eye(4)
            joint_placement = _x(alpha, "x") @ _shift(0, a) @ _x(theta0, "z") @ _shift(2, d0)
        parent = model.addJoint(parent, joint, pin.SE3(joint_placement), f"joint{i + 1}")
        inertia = pin.Inertia(
            float(masses[i]),
            np.array(cm_positions[i], dtype=float),
            np.array(inertia_tensors[i], dtype=float),
        )
        model.appendBodyToJoint(parent, pin.SE3(inside).act(inertia), pin.SE3.Identity())
        placement = inside
        link_frames.append(inside)
    return model, link_frames
