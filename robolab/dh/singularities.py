"""The singularities of a 6-joint arm with a spherical wrist, from the factors of det J.

When the axes of joints 4, 5 and 6 meet in one point, the **wrist centre** p_c, the
Jacobian of p_c (rows [v; ω], base frame) is block lower triangular,

    J_c = [[J11, 0], [J21, J22]],   det J = det J11 · det J22

(Spong, Hutchinson & Vidyasagar, *Robot Modeling and Control*, §4.10 "Singularities",
"decoupling of singularities"): the wrist joints do not move p_c, so the top right block
is 0. det J is the same at every point of the last link (moving the reference point
multiplies J by a block triangular matrix of determinant 1), so the factors below are
those of ``DHRobot.J``'s determinant too.

* **arm singularities**, det J11 = 0, where J11 (3×3) maps the first three joint
  velocities to the velocity of p_c. Its factors are named after the joints they
  depend on: a factor that depends on joint 2 is a **shoulder** singularity (for the
  elbow manipulator and the Puma: the wrist centre on the axis of joint 1, or, with a
  shoulder offset, in the plane of that axis and the upper arm), one that depends on
  the later joints only is an **elbow** singularity (the forearm lined up with the upper
  arm: stretched or folded);
* **wrist singularities**, det J22 = 0, J22 = [z_3 z_4 z_5] (the wrist axes): two of them
  in line, s5 = 0 for the usual wrists.

:func:`singularity_factors` works symbolically on a :class:`robolab.DHRobot` (standard
or modified table, symbolic or numeric lengths).

Examples
--------
Spong's elbow manipulator with a spherical wrist (§4.10: det J11 = a2 a3 s3 (a2 c2 + a3 c23),
up to sign):

>>> import sympy as sp
>>> from robolab import DHRobot
>>> from robolab.symbols import q1, q2, q3, q4, q5, q6
>>> a2, a3, d1 = sp.symbols("a_2 a_3 d_1", positive=True)
>>> elbow_arm = DHRobot((0, sp.pi / 2, d1, q1), (a2, 0, 0, q2), (a3, 0, 0, q3),
...     (0, -sp.pi / 2, 0, q4), (0, sp.pi / 2, 0, q5), (0, 0, 0, q6))
>>> factors = singularity_factors(elbow_arm)
>>> factors.elbow, factors.shoulder, factors.wrist, factors.constant
(sin(q_3(t)), a_2*cos(q_2(t)) + a_3*cos(q_2(t) + q_3(t)), sin(q_5(t)), a_2*a_3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from ..support.arguments import as_float_array
from .kinematics import DerivedKinematics
from .robot import DHRobot
from .simplify import simplify_trig

__all__ = ["SingularityFactors", "singularity_factors"]

#: Distances (relative to the arm's size) below which the wrist axes count as meeting.
_MEET_TOLERANCE = 1e-9

_NAMES = ("shoulder", "elbow", "wrist")


@dataclass(frozen=True)
class SingularityFactors:
    """The factors of det J of a 6-joint arm with a spherical wrist, named.

    ``det J = constant · shoulder · elbow · wrist``; each named factor is a
    SymPy expression in the joint variables q_i(t) whose zeros are that kind of
    singularity (1 when the arm has none of that kind).

    Attributes
    ----------
    shoulder, elbow : sympy.Expr
        The factors of det J11 (arm singularities), named by the joints they
        depend on: with joint 2 (shoulder), joints 3 on only (elbow).
    wrist : sympy.Expr
        det J22 up to a constant (wrist singularities).
    constant : sympy.Expr
        What is left: a product of lengths and signs.
    wrist_centre : sympy.Matrix
        The point p_c where the wrist axes meet, in the base frame (3×1).
    robot_name : str
        The robot's name.
    """

    shoulder: sp.Expr
    elbow: sp.Expr
    wrist: sp.Expr
    constant: sp.Expr
    wrist_centre: sp.Matrix
    robot_name: str
    joint_variables: tuple[sp.Expr, ...] = field(repr=False)

    @property
    def determinant(self) -> sp.Expr:
        """det J = constant · shoulder · elbow · wrist."""
        return self.constant * self.shoulder * self.elbow * self.wrist

    def named(self) -> dict[str, sp.Expr]:
        """The three named factors, ``{"shoulder": ..., "elbow": ..., "wrist": ...}``."""
        return {"shoulder": self.shoulder, "elbow": self.elbow, "wrist": self.wrist}

    @cached_property
    def _compiled(self) -> dict[str, Callable[..., float]]:
        variables = list(self.joint_variables)
        return {
            name: sp.lambdify([variables], expression, "numpy")
            for name, expression in self.named().items()
        }

    def functions(self) -> dict[str, Callable[..., float]]:
        """The named factors as NumPy functions of the configuration q (n numbers or arrays).

        Compiled once (:func:`sympy.lambdify`); each takes one sequence of n
        joint values, numbers or arrays of one shape (e.g. a grid).
        """
        return dict(self._compiled)

    def evaluate(self, q: ArrayLike) -> dict[str, float]:
        """The values of the three named factors at the configuration ``q``.

        A factor that is 0 (to round-off) means that kind of singularity.

        Parameters
        ----------
        q : array_like, shape (n,)
            Joint positions (radians, metres), joint 1 first.

        Examples
        --------
        >>> import numpy as np
        >>> from robolab import load_robot
        >>> puma = singularity_factors(load_robot("puma560", form="dh"))
        >>> values = puma.evaluate(np.radians([0, 30, -60, 0, 0, 0]))
        >>> round(values["wrist"], 12)  # q5 = 0: joints 4 and 6 in line
        0.0
        """
        n = len(self.joint_variables)
        configuration = as_float_array(q, "q", (n,))
        return {name: float(f(configuration)) for name, f in self.functions().items()}

    def __str__(self) -> str:
        lines = [f"det J of {self.robot_name} = constant · shoulder · elbow · wrist"]
        for name, expression in (("constant", self.constant), *self.named().items()):
            lines.append(f"  {name:9} {expression}")
        return "\n".join(lines)


def _numbers(vector: sp.Matrix, values: dict[sp.Symbol, float]) -> np.ndarray:
    return np.array(vector.xreplace(values), dtype=float).ravel()


def _require_spherical_wrist(
    robot: DHRobot, kinematics: DerivedKinematics, axes: list[tuple[sp.Matrix, sp.Matrix]]
) -> int:
    """The frame whose origin is the wrist centre, or a ValueError saying what is wrong."""
    chain = kinematics.chain
    rng = np.random.default_rng(0)
    parameters = sorted(
        set().union(*(entry.free_symbols for row in chain.entries for entry in row)) - set(chain.q),
        key=str,
    )
    frames = kinematics.frames(0)
    candidates = sorted({chain.axis_frame(j) for j in (4, 5, 6)} | {3, 4, 5, 6})
    trials = []
    for _ in range(3):
        values = dict(zip(chain.q, rng.uniform(-np.pi, np.pi, chain.dof), strict=True))
        values.update({p: float(rng.uniform(0.5, 1.5)) for p in parameters})
        numeric = [(_numbers(z, values), _numbers(o, values)) for z, o in axes]
        trials.append((numeric, {k: _numbers(frames[k][1], values) for k in candidates}))
    scale = max(1.0, *(np.abs(o).max() for _, origins in trials for o in origins.values()))
    for (z4, _), (z5, _), (z6, _) in (numeric for numeric, _ in trials):
        for a, b, joints in ((z4, z5, "4 and 5"), (z5, z6, "5 and 6")):
            if np.linalg.norm(np.cross(a, b)) < _MEET_TOLERANCE:
                raise ValueError(
                    f"{robot.name} has no spherical wrist: the axes of joints {joints} are "
                    "parallel (a spherical wrist needs three axes meeting in one point)"
                )
    for k in candidates:
        if all(
            np.linalg.norm(np.cross(origins[k] - o, z)) < _MEET_TOLERANCE * scale
            for numeric, origins in trials
            for z, o in numeric
        ):
            return k
    raise ValueError(
        f"{robot.name} has no spherical wrist: the axes of joints 4, 5 and 6 do not meet in "
        "one point (in a standard DH table: a_4 = a_5 = d_5 = 0; modified: a_4 = d_5 = a_5 = 0)"
    )


def _split(matrix: sp.Matrix, joints: tuple[sp.Dummy, ...]) -> tuple[sp.Expr, list[sp.Expr]]:
    """The constant part of det(matrix) and its factors that depend on the joints, simplified.

    ``sp.factor`` needs exact coefficients, so every float of the matrix is stood in for by a
    symbol while the determinant is formed and factored, and put back at the end:
    0.4318*(0.0203*x + 0.4318*y) rather than one float polynomial.
    """
    sizes = sorted({abs(f) for f in matrix.atoms(sp.Float)}, key=float)
    back = {sp.Dummy(f"c{i}", positive=True): size for i, size in enumerate(sizes)}
    stand_ins = {size: symbol for symbol, size in back.items()}
    stand_ins.update({-size: -symbol for symbol, size in back.items()})
    constant, varying = sp.Integer(1), []
    for factor in sp.Mul.make_args(sp.factor(matrix.xreplace(stand_ins).det())):
        base, power = factor.as_base_exp()
        if not base.free_symbols & set(joints):
            constant *= factor
            continue
        for inner in sp.Mul.make_args(sp.factor(simplify_trig(sp.expand(base)))):
            if not inner.free_symbols & set(joints):
                constant *= inner**power
                continue
            if inner.could_extract_minus_sign():  # the sign goes to the constant
                inner, constant = -inner, constant * (-1) ** power
            varying.append(inner**power)
    return constant.xreplace(back), [f.xreplace(back) for f in varying]


def singularity_factors(robot: DHRobot) -> SingularityFactors:
    """The factors of det J of a 6-joint arm with a spherical wrist, decoupled at the wrist centre.

    det J = det J11 · det J22 with J11 the 3×3 Jacobian of the wrist centre's
    velocity by the first three joints and J22 = [z_3 z_4 z_5] the wrist axes
    (Spong et al., *Robot Modeling and Control*, §4.10). J11 is written in the
    frame of joint 2's axis, where its entries are short, its determinant is
    factored and each factor simplified; a factor that depends on joint 2 is
    named *shoulder*, one that depends on joint 3 only *elbow*, det J22 is the
    *wrist* factor.

    Parameters
    ----------
    robot : DHRobot
        Six joints, the last three revolute with axes meeting in one point.

    Returns
    -------
    SingularityFactors

    Raises
    ------
    TypeError
        For anything but a :class:`robolab.DHRobot`.
    ValueError
        For an arm that does not have six joints, whose wrist joints are not
        revolute or whose wrist axes do not meet in one point (no spherical
        wrist), or that is singular in every configuration.

    Examples
    --------
    The bundled Puma 560 (Corke's parameters a2 = 0.4318, a3 = 0.0203, d3 = 0.15005,
    d4 = 0.4318 m): the elbow factor is a3 s3 + d4 c3, not s3, because the forearm
    runs along z_3 (d4) with a small offset a3 along x_3:

    >>> from robolab import load_robot
    >>> puma = singularity_factors(load_robot("puma560", form="dh"))
    >>> puma.elbow
    0.0203*sin(q_3(t)) + 0.4318*cos(q_3(t))
    >>> puma.shoulder
    -0.4318*sin(q_2(t) + q_3(t)) + 0.0203*cos(q_2(t) + q_3(t)) + 0.4318*cos(q_2(t))
    >>> puma.wrist
    sin(q_5(t))
    >>> singularity_factors(load_robot("planar2r", form="dh"))
    Traceback (most recent call last):
    ...
    ValueError: singularity_factors needs an arm of 6 joints with a spherical wrist; \
planar2r has 2 joints
    """
    if not isinstance(robot, DHRobot):
        raise TypeError(
            f"singularity_factors needs a DHRobot (e.g. load_robot(name, form='dh')), got "
            f"{type(robot).__name__}"
        )
    kinematics = DerivedKinematics.of(robot.model.chain)
    chain = kinematics.chain
    if chain.dof != 6:
        raise ValueError(
            "singularity_factors needs an arm of 6 joints with a spherical wrist; "
            f"{robot.name} has {chain.dof} joints"
        )
    if chain.joint_types[3:] != ("r", "r", "r"):
        raise ValueError(
            f"{robot.name} has no spherical wrist: joints 4, 5 and 6 must be revolute, got "
            f"joint types {''.join(chain.joint_types)}"
        )
    found = kinematics.cached("singularity_factors", lambda: _derive(robot, kinematics))
    return found if found.robot_name == robot.name else replace(found, robot_name=robot.name)


def _derive(robot: DHRobot, kinematics: DerivedKinematics) -> SingularityFactors:
    """:func:`singularity_factors` once the joints are checked (kept in the chain's memo)."""
    chain = kinematics.chain
    frames = kinematics.frames(0)
    axes = [
        (frames[chain.axis_frame(j)][0][:, 2], frames[chain.axis_frame(j)][1]) for j in (4, 5, 6)
    ]
    centre_frame = _require_spherical_wrist(robot, kinematics, axes)

    # J11 in the frame of joint 2's axis (a rotation does not change a determinant).
    reference = chain.axis_frame(2)
    R_0r, p_0r = frames[reference]

    def local(vector: sp.Matrix) -> sp.Matrix:
        return (R_0r.T * vector).applyfunc(lambda e: simplify_trig(sp.expand(e)))

    centre = local(frames[centre_frame][1] - p_0r)
    columns = []
    for j in (1, 2, 3):
        R, origin = frames[chain.axis_frame(j)]
        z = local(R[:, 2])
        if chain.joint_types[j - 1] == "p":
            columns.append(z)
        else:
            offset = centre - local(origin - p_0r)
            columns.append(z.cross(offset).applyfunc(lambda e: simplify_trig(sp.expand(e))))
    arm_constant, arm_factors = _split(sp.Matrix.hstack(*columns), chain.q)
    wrist_constant, wrist_factors = _split(sp.Matrix.hstack(*(local(z) for z, _ in axes)), chain.q)
    if arm_constant == 0 or wrist_constant == 0:
        part = "det J11 (the arm)" if arm_constant == 0 else "det J22 (the wrist)"
        raise ValueError(f"{robot.name} is singular in every configuration: {part} is 0")
    shoulder_joint = chain.q[1]
    shoulder = sp.Mul(*(f for f in arm_factors if shoulder_joint in f.free_symbols))
    elbow = sp.Mul(*(f for f in arm_factors if shoulder_joint not in f.free_symbols))
    timed = kinematics.timed
    return SingularityFactors(
        shoulder=timed(shoulder),
        elbow=timed(elbow),
        wrist=timed(sp.Mul(*wrist_factors)),
        constant=arm_constant * wrist_constant,
        wrist_centre=timed(sp.Matrix(frames[centre_frame][1])),
        robot_name=robot.name,
        joint_variables=tuple(timed(qi) for qi in chain.q),
    )
