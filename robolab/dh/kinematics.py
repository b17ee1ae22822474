"""The kinematics derived from a DH chain: link transforms, frames, poses, Jacobians.

:class:`DerivedKinematics` computes, with the chain's internal joint symbols, what
:class:`robolab.DHRobot` shows with ``q_i(t)``: the link transforms ``A_i``, the poses
of every frame (rotations about parallel consecutive z axes merged, so ``T_0i`` come
out compact without a simplifier) and geometric Jacobians ``[v; ω]`` of points fixed
in a link. One instance belongs to one :class:`robolab.dh.model.DHChain`
(:meth:`DerivedKinematics.of`), kept in its memo: a new chain has new results.
:class:`KinematicsMethods` holds the public kinematics methods of
:class:`robolab.DHRobot` (which inherits it, Moro's names); it reads the robot's
public ``model`` only.

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

__all__ = ["DerivedKinematics", "KinematicsMethods"]

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


class KinematicsMethods:
    """The kinematics methods of :class:`robolab.DHRobot` (Moro's names), with q_i(t).

    A base of :class:`robolab.DHRobot` that reads the robot's public ``model``
    only: the results are :meth:`DerivedKinematics.of` its chain.
    """

    model: DHModel

    def _chain_results(self) -> DerivedKinematics:
        return DerivedKinematics.of(self.model.chain)

    @property
    def Ts(self) -> list[sp.Matrix]:
        """The link transforms ``A_i = T_{i-1,i}``, i = 1..n."""
        kinematics = self._chain_results()
        n = self.model.chain.dof
        return [kinematics.timed(kinematics.link_transform(i)) for i in range(1, n + 1)]

    def T_i0(self, i: int) -> sp.Matrix:
        """Return ``T_0i``, the pose of frame {i} in the base frame (Moro's T_i^0), i = 0..n."""
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.pose(self.model.chain.check_frame(i)))

    def T_ij(self, i: int, j: int) -> sp.Matrix:
        """Return the pose of frame {i} in frame {j} (Moro's T_i^j, our ``T_ji``), 0..n."""
        chain, kinematics = self.model.chain, self._chain_results()
        i, j = chain.check_frame(i), chain.check_frame(j)
        return kinematics.timed(kinematics.relative_pose(i, j))

    def R_i0(self, i: int) -> sp.Matrix:
        """Return ``R_0i``, the orientation of frame {i} in the base frame, i = 0..n."""
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.frames(0)[self.model.chain.check_frame(i)][0])

    def r_o(self, i: int) -> sp.Matrix:
        """Return the position of the origin of frame {i} in the base frame, i = 0..n."""
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.frames(0)[self.model.chain.check_frame(i)][1])

    def z(self, i: int) -> sp.Matrix:
        """Return the direction of the axis z_i of frame {i} in the base frame, i = 0..n."""
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.frames(0)[self.model.chain.check_frame(i)][0][:, 2])

    @property
    def T(self) -> sp.Matrix:
        """The end-effector pose ``T_0n · tool`` in the base frame (Moro's T when no tool).

        Rotations about parallel z axes are merged as the chain is multiplied,
        so no simplifier is needed:

        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).T[:2, :2]
        Matrix([
        [cos(q_1(t) + q_2(t)), -sin(q_1(t) + q_2(t))],
        [sin(q_1(t) + q_2(t)),  cos(q_1(t) + q_2(t))]])
        """
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.end_effector_pose())

    def J_point(self, point: ArrayLike, i: int) -> sp.Matrix:
        """Return the 6×n geometric Jacobian ``[v; ω]`` of a point fixed in link ``i``.

        Parameters
        ----------
        point : array_like (3,)
            The point's coordinates in frame {i}.
        i : int
            The link (1..n) that carries the point; joints after i do not move it.

        Returns
        -------
        sympy.Matrix (6, n)
            Rows ``[v; ω]`` in the base frame: ``v = J[:3] q̇`` is the point's
            velocity, ``ω = J[3:] q̇`` the angular velocity of link i. Column j
            is ``[z × (p − o); z]`` for a revolute joint (z, o its axis and a
            point of it: z_{j-1}, o_{j-1} standard, z_j, o_j modified) and
            ``[z; 0]`` for a prismatic joint.

        Examples
        --------
        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.J_point((0, 0, 0), 1)[:, 0].T
        Matrix([[-l_1*sin(q_1(t)), l_1*cos(q_1(t)), 0, 0, 0, 1]])
        """
        i = self.model.chain.check_link(i)
        coordinates = vector3(point, "point", f" in frame {{{i}}}")
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.jacobian_point(coordinates, i))

    @property
    def J(self) -> sp.Matrix:
        """The 6×n geometric Jacobian ``[v; ω]`` of the end-effector origin, base frame.

        Moro's and Spong's J (see :meth:`J_point`); with a tool, the origin of
        the tool frame. The Modern Robotics ``[ω; v]`` Jacobians are
        ``robolab.jacobian_space`` / ``jacobian_body`` of the screw model.

        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).J[:, 1].T
        Matrix([[-l_2*sin(q_1(t) + q_2(t)), l_2*cos(q_1(t) + q_2(t)), 0, 0, 0, 1]])
        """
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.end_effector_jacobian())

    def J_cm_i(self, i: int) -> sp.Matrix:
        """Return the 6×n Jacobian ``[v; ω]`` of the centre of mass of link ``i``."""
        i = self.model.chain.check_link(i)
        centre = self.model.inertial.centres_of_mass()[i - 1]
        kinematics = self._chain_results()
        return kinematics.timed(kinematics.jacobian_point(centre, i))

    def Jv_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n linear-velocity Jacobian of the centre of mass of link ``i``."""
        return self.J_cm_i(i)[:3, :]

    def Jw_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n angular-velocity Jacobian of link ``i``."""
        return self.J_cm_i(i)[3:, :]

    def w_rel0(self, i: int) -> sp.Matrix:
        """Return ``q̇_i z`` along joint i's axis (zero if prismatic): ω of link i w.r.t. i-1."""
        chain, kinematics = self.model.chain, self._chain_results()
        i = chain.check_link(i)
        if chain.rows[i - 1].joint_type == "p":
            return sp.zeros(3, 1)
        axis = kinematics.frames(0)[chain.axis_frame(i)][0][:, 2]
        return kinematics.timed(axis * chain.qd[i - 1])

    def w(self, i: int) -> sp.Matrix:
        """Return the angular velocity of link ``i`` in the base frame, ``Σ_{k≤i} ω_{k-1,k}``."""
        last = self.model.chain.check_link(i)
        return sum((self.w_rel0(k) for k in range(1, last + 1)), sp.zeros(3, 1))
