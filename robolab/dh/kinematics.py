"""The kinematics derived from a DH chain: link transforms, frames, poses, Jacobians.

:class:`DerivedKinematics` computes, with the chain's internal joint symbols, what
:class:`robolab.DHRobot` shows with ``q_i(t)``: the link transforms ``A_i``, the poses
of every frame (rotations about parallel consecutive z axes merged, so ``T_0i`` come
out compact without a simplifier) and geometric Jacobians ``[v; ω]`` of points fixed
in a link. One instance belongs to one :class:`robolab.dh.model.DHChain`
(:meth:`DerivedKinematics.of`), kept in its memo: a new chain has new results.
The functions below it (:func:`end_effector_pose`, :func:`point_jacobian`, ...) take a
description (:class:`robolab.dh.model.DHModel`) and return those results with ``q_i(t)``:
the kinematics methods of :class:`robolab.DHRobot` (``T``, ``J``, ``T_i0``, Moro's names)
each call one of them with the robot's ``model``.

Examples
--------
>>> from robolab.symbols import q1, q2, l1, l2
>>> from robolab.dh.model import DHChain
>>> chain = DHChain.read([(l1, 0, 0, q1), (l2, 0, 0, q2)])
>>> kinematics = DerivedKinematics.of(chain)
>>> kinematics is DerivedKinematics.of(chain)
True
>>> kinematics.timed(kinematics.pose(2)[0, 3])
l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import sympy as sp
from numpy.typing import ArrayLike

from ..spatial.transforms import dh_modified, dh_standard, rotx, rotz
from .model import DHChain, DHModel
from .parameters import vector3
from .simplify import replace_shared
from .simplify import simplify_piece_matrix as simplify_matrix

__all__ = [
    "DerivedKinematics",
    "centre_of_mass_jacobian",
    "centre_of_mass_velocity",
    "end_effector_jacobian",
    "end_effector_pose",
    "frame_origin",
    "frame_pose",
    "frame_rotation",
    "frame_z_axis",
    "joint_angular_velocity",
    "link_angular_velocity",
    "link_transforms",
    "point_jacobian",
    "relative_frame_pose",
]

_T = TypeVar("_T")

_FLIP = sp.ImmutableMatrix(sp.diag(1, -1, -1))

Frames = list[tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]]


class DerivedKinematics:
    """The kinematic results of one :class:`DHChain`, computed on first use and kept."""

    def __init__(self, chain: DHChain) -> None:
        self.chain = chain
        self._cache: dict[Any, Any] = {}

    @classmethod
    def of(cls, chain: DHChain) -> DerivedKinematics:
        """Return the results of ``chain`` (one object per chain, kept in its memo)."""
        found = chain.memo.get(cls)
        if found is None:
            found = chain.memo[cls] = cls(chain)
        return found

    def cached(self, key: Any, compute: Callable[[], _T]) -> _T:
        """Return ``compute()``, computed once per key."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def timed(self, value: _T) -> _T:
        """Internal symbols → q_i(t) and their derivatives (a mutable copy for matrices)."""
        memo: dict = {}
        to_time = self.chain.to_time
        if isinstance(value, sp.MatrixBase):
            entries = [replace_shared(entry, to_time, memo) for entry in value]
            return sp.Matrix(value.rows, value.cols, entries)
        if isinstance(value, list):
            return cast(_T, [self.timed(v) for v in value])
        return cast(_T, replace_shared(value, to_time, memo))

    def link_transform(self, i: int) -> sp.ImmutableMatrix:
        """A_i = T_{i-1,i} with internal symbols."""
        transform = dh_standard if self.chain.convention == "standard" else dh_modified
        return self.cached(
            ("A", i), lambda: sp.ImmutableMatrix(transform(*self.chain.entries[i - 1]))
        )

    def frames(self, start: int) -> Frames:
        """Poses (R, p) of frames {start}, …, {n} in frame {start}, internal symbols.

        The rotation is kept as ``R_b Rz(Θ) Rx(π)^flip``: a joint rotation about
        a z axis parallel to the previous one (α = 0, or α = π with a sign
        change) is added to the angle Θ instead of being multiplied out.
        """
        standard = self.chain.convention == "standard"

        def compute() -> Frames:
            base, angle, flip = sp.eye(3), sp.S.Zero, False
            p = sp.zeros(3, 1)

            def rotation() -> sp.Matrix:
                R = base * rotz(angle) if angle != 0 else base
                return R * _FLIP if flip else R

            def twist(alpha: sp.Expr) -> tuple[sp.Matrix, sp.Expr, bool]:
                half_turns = alpha / sp.pi
                if alpha == 0:
                    return base, angle, flip
                if half_turns.is_integer:
                    return base, angle, flip != bool(half_turns.is_odd)
                return rotation() * rotx(alpha), sp.S.Zero, False

            frames = [(sp.ImmutableMatrix(sp.eye(3)), sp.ImmutableMatrix(p))]
            for a, alpha, d, theta in self.chain.entries[start:]:
                if standard:  # Rz(θ) Tz(d) Tx(a) Rx(α)
                    p = p + rotation()[:, 2] * d
                    angle = angle + (-theta if flip else theta)
                    p = p + rotation()[:, 0] * a
                    base, angle, flip = twist(alpha)
                else:  # Rx(α) Tx(a) Rz(θ) Tz(d)
                    p = p + rotation()[:, 0] * a
                    base, angle, flip = twist(alpha)
                    angle = angle + (-theta if flip else theta)
                    p = p + rotation()[:, 2] * d
                frames.append((sp.ImmutableMatrix(rotation()), sp.ImmutableMatrix(p)))
            return frames

        return self.cached(("chain", start), compute)

    def pose(self, i: int) -> sp.ImmutableMatrix:
        """T_0i (4×4), internal symbols."""
        R, p = self.frames(0)[i]
        return sp.ImmutableMatrix(R.row_join(p).col_join(sp.Matrix([[0, 0, 0, 1]])))

    def relative_pose(self, i: int, j: int) -> sp.ImmutableMatrix:
        """The pose of frame {i} in frame {j} (4×4), internal symbols."""
        if j <= i:
            R, p = self.frames(j)[i - j]
            return sp.ImmutableMatrix(R.row_join(p).col_join(sp.Matrix([[0, 0, 0, 1]])))

        def compute() -> sp.ImmutableMatrix:
            R, p = self.frames(i)[j - i]
            inverse = R.T.row_join(simplify_matrix(-R.T * p)).col_join(sp.Matrix([[0, 0, 0, 1]]))
            return sp.ImmutableMatrix(inverse)

        return self.cached(("inverse", i, j), compute)

    def end_effector_pose(self) -> sp.ImmutableMatrix:
        """T_0n · tool, internal symbols."""
        pose, tool = self.pose(self.chain.dof), self.chain.tool
        return pose if tool == sp.eye(4) else pose * tool

    def jacobian_point(self, point: sp.MatrixBase, i: int) -> sp.ImmutableMatrix:
        """6×n Jacobian [v; ω] (base frame) of a point fixed in link i, internal symbols."""
        chain = self.chain

        def compute() -> sp.ImmutableMatrix:
            columns = []
            for j in range(1, chain.dof + 1):
                if j > i:
                    columns.append(sp.zeros(6, 1))
                    continue
                k = chain.axis_frame(j)
                R0k = self.frames(0)[k][0]
                z = R0k[:, 2]
                if chain.rows[j - 1].joint_type == "p":
                    columns.append(z.col_join(sp.zeros(3, 1)))
                    continue
                Rki, pki = self.frames(k)[i - k]
                w = Rki * point + pki  # the point in frame {k}, where the axis is z
                v = simplify_matrix(R0k * sp.Matrix([-w[1], w[0], 0]))
                columns.append(v.col_join(z))
            return sp.ImmutableMatrix(sp.Matrix.hstack(*columns))

        return self.cached(("J_point", i, sp.ImmutableMatrix(point)), compute)

    def end_effector_jacobian(self) -> sp.ImmutableMatrix:
        """The Jacobian of the tool frame's origin, internal symbols."""
        return self.jacobian_point(self.chain.tool[:3, 3], self.chain.dof)


# ------------------------------------------------------------------------------------------
# what DHRobot shows: the results of a description, with q_i(t)
# ------------------------------------------------------------------------------------------


def link_transforms(model: DHModel) -> list[sp.Matrix]:
    """Return the link transforms ``A_i = T_{i-1,i}``, i = 1..n (:attr:`DHRobot.Ts`).

    Examples
    --------
    >>> from robolab.symbols import q1, l1
    >>> link_transforms(DHModel.new([(l1, 0, 0, q1)]))[0][:2, 3].T
    Matrix([[l_1*cos(q_1(t)), l_1*sin(q_1(t))]])
    """
    kinematics = DerivedKinematics.of(model.chain)
    return [kinematics.timed(kinematics.link_transform(i)) for i in range(1, model.chain.dof + 1)]


def frame_pose(model: DHModel, i: int) -> sp.Matrix:
    """Return ``T_0i`` (4×4), frame {i} in the base frame, i = 0..n (:meth:`DHRobot.T_i0`)."""
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.pose(model.chain.check_frame(i)))


def relative_frame_pose(model: DHModel, i: int, j: int) -> sp.Matrix:
    """Return the pose of frame {i} in frame {j} (4×4), i, j = 0..n (:meth:`DHRobot.T_ij`)."""
    chain, kinematics = model.chain, DerivedKinematics.of(model.chain)
    i, j = chain.check_frame(i), chain.check_frame(j)
    return kinematics.timed(kinematics.relative_pose(i, j))


def frame_rotation(model: DHModel, i: int) -> sp.Matrix:
    """Return ``R_0i`` (3×3), frame {i}'s orientation in the base frame (:meth:`DHRobot.R_i0`)."""
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.frames(0)[model.chain.check_frame(i)][0])


def frame_origin(model: DHModel, i: int) -> sp.Matrix:
    """Return the origin of frame {i} in the base frame (3×1, :meth:`DHRobot.r_o`)."""
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.frames(0)[model.chain.check_frame(i)][1])


def frame_z_axis(model: DHModel, i: int) -> sp.Matrix:
    """Return the axis z_i of frame {i} in the base frame (3×1, :meth:`DHRobot.z`)."""
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.frames(0)[model.chain.check_frame(i)][0][:, 2])


def end_effector_pose(model: DHModel) -> sp.Matrix:
    """Return ``T_0n · tool`` (4×4) in the base frame (:attr:`DHRobot.T`).

    Examples
    --------
    >>> from robolab.symbols import q1, q2, l1, l2
    >>> end_effector_pose(DHModel.new([(l1, 0, 0, q1), (l2, 0, 0, q2)]))[0, 3]
    l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t))
    """
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.end_effector_pose())


def point_jacobian(model: DHModel, point: ArrayLike, i: int) -> sp.Matrix:
    """Return the 6×n Jacobian ``[v; ω]`` of a point fixed in link i (:meth:`DHRobot.J_point`)."""
    i = model.chain.check_link(i)
    coordinates = vector3(point, "point", f" in frame {{{i}}}")
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.jacobian_point(coordinates, i))


def end_effector_jacobian(model: DHModel) -> sp.Matrix:
    """Return the 6×n Jacobian ``[v; ω]`` of the end-effector origin (:attr:`DHRobot.J`)."""
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.end_effector_jacobian())


def centre_of_mass_jacobian(model: DHModel, i: int) -> sp.Matrix:
    """Return the 6×n Jacobian ``[v; ω]`` of link i's centre of mass (:meth:`DHRobot.J_cm_i`)."""
    i = model.chain.check_link(i)
    centre = model.inertial.centres_of_mass()[i - 1]
    kinematics = DerivedKinematics.of(model.chain)
    return kinematics.timed(kinematics.jacobian_point(centre, i))


def centre_of_mass_velocity(model: DHModel, i: int) -> sp.Matrix:
    """Return ``J_v q̇``, the velocity of link i's centre of mass (:meth:`DHRobot.v_cm`).

    Examples
    --------
    >>> from robolab.dh.model import replace_inertial
    >>> from robolab.symbols import q1, l1
    >>> pendulum = DHModel.new([(l1, 0, 0, q1)])
    >>> pendulum = replace_inertial(pendulum, centres=(sp.ImmutableMatrix([0, 0, 0]),))
    >>> centre_of_mass_velocity(pendulum, 1).T
    Matrix([[-l_1*sin(q_1(t))*Derivative(q_1(t), t), l_1*cos(q_1(t))*Derivative(q_1(t), t), 0]])
    """
    chain, kinematics = model.chain, DerivedKinematics.of(model.chain)
    i = chain.check_link(i)
    centre = model.inertial.centres_of_mass()[i - 1]
    J = kinematics.jacobian_point(centre, i)[:3, :]
    return kinematics.timed(simplify_matrix(J * sp.Matrix(chain.qd)))


def joint_angular_velocity(model: DHModel, i: int) -> sp.Matrix:
    """Return ``q̇_i z`` along joint i's axis, zero if prismatic (:meth:`DHRobot.w_rel0`)."""
    chain, kinematics = model.chain, DerivedKinematics.of(model.chain)
    i = chain.check_link(i)
    if chain.rows[i - 1].joint_type == "p":
        return sp.zeros(3, 1)
    axis = kinematics.frames(0)[chain.axis_frame(i)][0][:, 2]
    return kinematics.timed(axis * chain.qd[i - 1])


def link_angular_velocity(model: DHModel, i: int) -> sp.Matrix:
    """Return ``Σ_{k≤i} q̇_k z``, link i's angular velocity in the base frame (:meth:`DHRobot.w`)."""
    last = model.chain.check_link(i)
    return sum((joint_angular_velocity(model, k) for k in range(1, last + 1)), sp.zeros(3, 1))
