"""The symbolic Denavit–Hartenberg robot: kinematics and Lagrangian dynamics with SymPy.

:class:`DHRobot` has everything Moro's ``Robot`` has, with the same names and
meanings (frames and links numbered 1..n, {0} the base), in both DH
conventions, and fast enough for 6–7 joint arms:

* **Kinematics by construction.** Rotations about parallel consecutive z axes
  are merged while the chain is multiplied out (``Rz(q2) Rz(q3) = Rz(q2 + q3)``),
  so the poses ``T_0i`` come out compact without any simplifier.
* **Dynamics from small pieces** (:mod:`robolab.dh.lagrangian`, inherited):
  ``M = Σ_i m_i J_vᵀJ_v + J_ωᵀ I_i J_ω`` with each link's Jacobian written in
  its own frame {i}, where it depends only on the joints between, each piece
  reduced by :func:`robolab.dh.simplify.simplify_trig` (Pythagoras and angle
  sums by hashed look-up; never one global ``trigsimp``). The n²(n+1)/2
  derivatives ∂M_ab/∂q_c are taken once and cached; every Christoffel symbol
  c_ijk, hence C (with Ṁ − 2C skew-symmetric), comes from them. G is the
  gradient of the potential energy.
* **Symbols that cannot go wrong.** Joint variables are functions of time
  ``q_i(t)`` in every result, so velocity terms are never lost; internally
  the work is done with plain real symbols and converted back at the end.

Numbers for simulation come from :meth:`DHRobot.numeric` (compiled functions
with common-subexpression elimination and a symbolic Newton–Euler for τ).

Examples
--------
The planar 2R arm of Spong, Hutchinson and Vidyasagar (section 7.3), with the
centre of mass of link i at distance l_ci from joint i:

>>> from robolab.symbols import q1, q2, l1, l2, lc1, lc2, m1, m2, g
>>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
>>> arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
>>> arm.gravity = (0, -g, 0)
>>> arm.T[:2, 3]
Matrix([
[l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t))],
[l_1*sin(q_1(t)) + l_2*sin(q_1(t) + q_2(t))]])
>>> arm.inertia_matrix()[1, 1]
I_zz2 + l_c2**2*m_2
>>> arm.gravity_vector()[1]
g*l_c2*m_2*cos(q_1(t) + q_2(t))
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import sympy as sp

from ..screw.robot import ScrewRobot
from ..spatial.transforms import dh_modified, dh_standard, rotx, rotz
from ..support.plausibility import as_plausibility_exceptions
from .lagrangian import LagrangianDynamics
from .parameters import (
    DEFAULT_GRAVITY,
    _vector3,
    check_centres_of_mass,
    check_gravity,
    check_inertia_tensors,
    check_joint_limits,
    check_masses,
    check_substituted_dynamics,
    check_tool,
    default_joint_limits,
    placeholder_centres_of_mass,
    placeholder_inertia_tensors,
    placeholder_masses,
)
from .simplify import replace_shared
from .simplify import simplify_piece_matrix as simplify_matrix
from .table import CONVENTIONS, DHTable, read_rows

__all__ = ["DHRobot"]

_T = TypeVar("_T")

_FLIP = sp.ImmutableMatrix(sp.diag(1, -1, -1))


class DHRobot(LagrangianDynamics):
    """A serial robot from a Denavit–Hartenberg table, with symbolic kinematics and dynamics.

    Parameters
    ----------
    *rows : tuple
        One row per joint, ``(a, alpha, d, theta[, joint_type])`` with
        ``joint_type`` ``"r"`` (revolute, the default) or ``"p"`` (prismatic).
        Standard convention: ``a_i, α_i, d_i, θ_i``; modified (Craig):
        ``a_{i-1}, α_{i-1}, d_i, θ_i``. Entries are numbers or SymPy
        expressions; the joint variable (``robolab.symbols.q1`` …, or a plain
        symbol, made a function of time with a
        :class:`robolab.dh.table.PlainSymbolWarning`) must be in θ (revolute) or
        d (prismatic), plus a constant, and nowhere else: a symbol has one
        meaning (``(l1, 0, 0, l1)`` is an error naming both places).
    convention : {"standard", "modified"}
        The DH convention of the rows (``docs/conventions.md``).
    tool : array_like (4, 4), optional
        A constant transform ``T_n,ee`` from frame {n} to the end-effector;
        identity by default. :attr:`T` and :attr:`J` refer to the end-effector.
    name : str, optional
        Shown in displays; the joint types (``"RRP"``) by default.

    Notes
    -----
    Frames and links are numbered as in the textbooks and Moro: {0} is the
    base, link i is moved by joint i and carries frame {i}. Centres of mass and
    inertia tensors of link i are given in frame {i} (inertia about the centre
    of mass, axes parallel to {i}). Geometric Jacobians are in the base frame
    with rows ``[v; ω]`` (Moro, Spong); the Modern Robotics ``[ω; v]`` twists
    are in :mod:`robolab.screw.robot`.

    Numbers keep their type: floats stay floats (Moro turns them into
    15-digit fractions), except that a float angle within 1e-12 of a multiple
    of π/2 (``np.pi / 2``) becomes exact, so numeric tables give clean matrices.
    Angles are radians: a numeric α or θ offset above a full turn (|value| > 2π,
    ``alpha=90``) gives a ``UserWarning`` naming the row and the field, since it
    is almost always in degrees (:mod:`robolab.dh.table`).

    The same robot in the other convention comes from :meth:`to_modified` /
    :meth:`to_standard`, its screw form from :meth:`to_screw`; check any of
    them against each other with :func:`robolab.compare_models`.

    Results are computed on first use and cached. When one takes longer than
    0.75 s (M, C, G of a 6–7 joint arm, the first call of a compiled
    function of :meth:`numeric`), a notebook shows a progress bar naming the
    link, joint or stage being worked on, and removes it at the end; a script
    in a terminal shows one line on stderr, erased at the end; test runs,
    nbval and pipes show nothing (:mod:`robolab.support.progress`).

    Parameters not given are **assumed** (masses ``m_i``, diagonal inertia
    tensors ``diag(I_xx_i, I_yy_i, I_zz_i)``, gravity ``(0, 0, -9.81)``, default
    joint limits) or **missing** (centres of mass), see :meth:`model_summary`.
    The placeholders are the symbols of :mod:`robolab.symbols`.

    Examples
    --------
    >>> import sympy as sp
    >>> from robolab.symbols import q1, q2, q3, l1, l2
    >>> scara = DHRobot((l1, 0, 0, q1), (l2, sp.pi, 0, q2), (0, 0, q3, 0, "p"), name="SCARA")
    >>> scara
    DHRobot('SCARA', joints='RRP', convention='standard')
    >>> scara.joint_types
    ['r', 'r', 'p']
    >>> scara.T[0, 3], scara.T[2, 3]
    (l_1*cos(q_1(t)) + l_2*cos(q_1(t) + q_2(t)), -q_3(t))
    """

    def __init__(
        self,
        *rows: Sequence[Any],
        convention: str = "standard",
        tool: Any = None,
        name: str | None = None,
    ) -> None:
        self._rows, self._time = read_rows(rows, convention)
        self._convention = convention
        self._tool = check_tool(tool)
        self._refuse_joint_names([self._tool], "tool")
        self._n = n = len(self._rows)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name: expected a str, got {type(name).__name__} {name!r}")
        self._name = name if name is not None else "".join(self.joint_types).upper()
        self._q = [sp.Dummy(f"q{i}", real=True) for i in range(1, n + 1)]
        self._qd = [sp.Dummy(f"qd{i}", real=True) for i in range(1, n + 1)]
        self._qdd = [sp.Dummy(f"qdd{i}", real=True) for i in range(1, n + 1)]
        self._to_time: dict[sp.Expr, sp.Expr] = {}
        self._to_internal: dict[sp.Expr, sp.Expr] = {}
        for row, q, qd, qdd in zip(self._rows, self._q, self._qd, self._qdd, strict=True):
            velocity = row.variable.diff(self._time)
            acceleration = row.variable.diff(self._time, 2)
            self._to_time.update({q: row.variable, qd: velocity, qdd: acceleration})
            self._to_internal.update({row.variable: q, velocity: qd, acceleration: qdd})
        self._entries = [
            tuple(e.xreplace({row.variable: q}) for e in row.entries)
            for row, q in zip(self._rows, self._q, strict=True)
        ]
        self._masses = placeholder_masses(n)
        self._masses_given = False
        self._cms: list[sp.ImmutableMatrix] | None = None
        self._cms_given = False
        self._inertias = placeholder_inertia_tensors(n)
        self._inertias_given = False
        self._plausibility_exceptions: tuple[Any, ...] = ()
        # assumed placeholders re-expressed from another table (to_modified, to_standard):
        # the convention of the table in whose frames they were assumed
        self._cms_assumed_in: str | None = None
        self._inertias_assumed_in: str | None = None
        # (a_n, alpha_n, tool) of the standard table this modified robot was made from
        self._standard_form: tuple[sp.Expr, sp.Expr, sp.ImmutableMatrix] | None = None
        self._gravity = check_gravity(DEFAULT_GRAVITY)
        self._gravity_given = False
        self._limits = default_joint_limits(self.joint_types)
        self._limits_given = False
        self._qis_range: list[tuple[float, float]] | None = None
        self._kinematics: dict[Any, Any] = {}
        self._dynamics: dict[Any, Any] = {}
        self._numerics: dict[Any, Any] = {}
        self._version = 0

    # ----------------------------------------------------------------------------------
    # structure
    # ----------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The robot's name, used in displays."""
        return self._name

    @property
    def convention(self) -> str:
        """``"standard"`` or ``"modified"``: the DH convention of the table."""
        return self._convention

    @property
    def dof(self) -> int:
        """The number of joints n (degrees of freedom)."""
        return self._n

    @property
    def tool(self) -> sp.Matrix:
        """The constant end-effector transform ``T_n,ee`` (identity unless given)."""
        return sp.Matrix(self._tool)

    @property
    def qs(self) -> list[sp.Expr]:
        """The joint variables ``[q_1(t), …, q_n(t)]``."""
        return [row.variable for row in self._rows]

    def q(self, i: int) -> sp.Expr:
        """Return the variable ``q_i(t)`` of joint ``i`` (1..n)."""
        return self._rows[self._link(i, "joint") - 1].variable

    def q_dot(self, i: int) -> sp.Expr:
        """Return the velocity ``dq_i/dt`` of joint ``i`` (1..n)."""
        return self.q(i).diff(self._time)

    def joint_type(self, i: int) -> str:
        """Return ``"r"`` (revolute) or ``"p"`` (prismatic) for joint ``i`` (1..n)."""
        return self._rows[self._link(i, "joint") - 1].joint_type

    @property
    def joint_types(self) -> list[str]:
        """The joint types, ``"r"`` or ``"p"``, joint 1 first."""
        return [row.joint_type for row in self._rows]

    @property
    def dh_parameters(self) -> list[tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]]:
        """The rows ``(a, alpha, d, theta)`` as checked (floats near kπ/2 made exact)."""
        return [row.entries for row in self._rows]

    @property
    def dh_table(self) -> DHTable:
        """The DH table; displays itself with its convention named."""
        return DHTable(self._rows, self._convention, self._tool)

    @property
    def joint_limits(self) -> list[tuple[float, float]]:
        """``(lower, upper)`` per joint; default (-π, π) revolute, (0, 1000) prismatic."""
        return list(self._limits)

    @joint_limits.setter
    def joint_limits(self, limits: Any) -> None:
        if limits is None:
            self._limits, self._limits_given = default_joint_limits(self.joint_types), False
        else:
            self._limits, self._limits_given = check_joint_limits(limits, self.joint_types), True
        # limits change no symbolic result and no compiled function: the caches stay

    @property
    def qis_range(self) -> list[tuple[float, float]]:
        """Ranges of the joint variables for sampling (workspace plots); the limits unless set."""
        return list(self._qis_range) if self._qis_range is not None else self.joint_limits

    @qis_range.setter
    def qis_range(self, ranges: Any) -> None:
        self._qis_range = (
            None if ranges is None else check_joint_limits(ranges, self.joint_types, "qis_range")
        )

    # ----------------------------------------------------------------------------------
    # dynamic parameters
    # ----------------------------------------------------------------------------------

    @property
    def masses(self) -> list[sp.Expr]:
        """Link masses ``[m_1, …, m_n]``; symbolic placeholders unless set."""
        return list(self._masses)

    @masses.setter
    def masses(self, masses: Any) -> None:
        if masses is None:
            self._masses, self._masses_given = placeholder_masses(self._n), False
        else:
            checked = check_masses(masses, self._n)
            self._refuse_joint_names(checked, "masses")
            self._masses, self._masses_given = checked, True
        self._changed()

    def m(self, i: int) -> sp.Expr:
        """Return the mass of link ``i`` (1..n)."""
        return self._masses[self._link(i) - 1]

    @property
    def cm_positions(self) -> list[sp.Matrix]:
        """Centre of mass of each link in its own frame {i}, as 3×1 matrices."""
        return [sp.Matrix(c) for c in self._centres()]

    @property
    def has_centres_of_mass(self) -> bool:
        """False while the centres of mass are missing (then :attr:`cm_positions` raises)."""
        return self._cms is not None

    @cm_positions.setter
    def cm_positions(self, positions: Any) -> None:
        if positions is None:
            self._cms, self._cms_given = placeholder_centres_of_mass(self._n), False
        else:
            checked = check_centres_of_mass(positions, self._n)
            self._refuse_joint_names(checked, "cm_positions")
            self._cms, self._cms_given = checked, True
        self._cms_assumed_in = None
        self._changed()

    @property
    def inertia_tensors(self) -> list[sp.Matrix]:
        """Inertia tensor of each link about its centre of mass, axes parallel to {i}."""
        return [sp.Matrix(tensor) for tensor in self._inertias]

    @inertia_tensors.setter
    def inertia_tensors(self, tensors: Any) -> None:
        if tensors is None:
            self._inertias, self._inertias_given = placeholder_inertia_tensors(self._n), False
        else:
            checked = check_inertia_tensors(tensors, self._n, self._triangle_exempt())
            self._refuse_joint_names(checked, "inertia_tensors")
            self._inertias, self._inertias_given = checked, True
        self._inertias_assumed_in = None
        self._changed()

    @property
    def plausibility_exceptions(self) -> tuple[Any, ...]:
        """Published idealisations this robot accepts (:class:`robolab.PlausibilityException`).

        A numeric inertia tensor whose principal moments break the triangle
        inequality (no rigid body has them) is refused unless its link is
        named here with ``"inertia_triangle"``; set this before
        :attr:`inertia_tensors`. Entries are ``PlausibilityException`` or
        tuples ``(link, check, reason)``; :func:`robolab.check_plausibility`
        names them, :meth:`to_screw` and the conversions keep them. The
        bundled models bring their own (``load_robot("puma560", form="dh")``).

        Examples
        --------
        >>> import sympy as sp
        >>> from robolab.symbols import q1
        >>> arm = DHRobot((0, 0, 0, q1))
        >>> arm.inertia_tensors = [sp.diag(0, 0, 0.35)]
        Traceback (most recent call last):
        ...
        ValueError: link 1, inertia tensor: expected a rigid body's inertia ...
        >>> arm.plausibility_exceptions = [(1, "inertia_triangle", "only I_zz is published")]
        >>> arm.inertia_tensors = [sp.diag(0, 0, 0.35)]
        >>> arm.I_cm(1)[2, 2]
        0.350000000000000
        """
        return self._plausibility_exceptions

    @plausibility_exceptions.setter
    def plausibility_exceptions(self, exceptions: Any) -> None:

        checked = as_plausibility_exceptions(exceptions, self._n)
        exempt = {e.link for e in checked if e.check == "inertia_triangle"}
        if self._inertias_given:  # what is set already must pass without the old exceptions
            check_inertia_tensors(self._inertias, self._n, exempt)
        self._plausibility_exceptions = checked

    def _refuse_joint_names(self, values: Sequence[Any], what: str) -> None:
        """One name, one meaning: no parameter may be a symbol named like a joint variable.

        (A function of time ``q_i(t)`` itself is refused by the checks as not constant.)
        """
        names = {row.variable.func.__name__: i for i, row in enumerate(self._rows, start=1)}
        for k, value in enumerate(values):
            for symbol in value.free_symbols:  # SymPy objects, checked already
                if isinstance(symbol, sp.Symbol) and symbol.name in names:
                    i = names[symbol.name]
                    field = "theta" if self._rows[i - 1].joint_type == "r" else "d"
                    where = f"{what}[{k}]" if len(values) > 1 else what
                    raise ValueError(
                        f"{where}: the symbol {symbol.name} has the name of the joint variable "
                        f"{symbol.name}(t) of joint {i} (row {i}, {field}) but is another SymPy "
                        "object: one name, one meaning. Rename the parameter"
                    )

    def _triangle_exempt(self) -> set[int]:
        return {e.link for e in self._plausibility_exceptions if e.check == "inertia_triangle"}

    @property
    def gravity(self) -> sp.Matrix:
        """The gravity vector in the base frame {0}; ``(0, 0, -9.81)`` unless set."""
        return sp.Matrix(self._gravity)

    @gravity.setter
    def gravity(self, gravity: Any) -> None:
        if gravity is None:
            self._gravity, self._gravity_given = check_gravity(DEFAULT_GRAVITY), False
        else:
            checked = check_gravity(gravity)
            self._refuse_joint_names([checked], "gravity")
            self._gravity, self._gravity_given = checked, True
        self._changed()

    def I_cm(self, i: int) -> sp.Matrix:
        """Return the inertia tensor of link ``i`` about its centre of mass, axes of {i}."""
        return sp.Matrix(self._inertias[self._link(i) - 1])

    def I_cm0(self, i: int) -> sp.Matrix:
        """Return the inertia tensor of link ``i`` about its centre of mass, axes of {0}.

        ``R_0i I_i R_0iᵀ``, which depends on the configuration.
        """
        i = self._link(i)

        def compute() -> sp.ImmutableMatrix:
            R = self._chain(0)[i][0]
            return sp.ImmutableMatrix(simplify_matrix(R * self._inertias[i - 1] * R.T))

        return self._timed(self._cache(self._dynamics, ("I_cm0", i), compute))

    def _changed(self) -> None:
        """A dynamic parameter changed: drop the dynamics and numeric caches."""
        self._dynamics.clear()
        self._numerics.clear()
        self._version += 1

    def _centres(self) -> list[sp.ImmutableMatrix]:
        if self._cms is None:
            raise ValueError(
                "the centres of mass are missing: set robot.cm_positions = [(x, y, z), ...] "
                "with link i's centre of mass in frame {i} (or None for symbolic placeholders "
                "x_ci, y_ci, z_ci)"
            )
        return self._cms

    # ----------------------------------------------------------------------------------
    # kinematics
    # ----------------------------------------------------------------------------------

    def _link_transform(self, i: int) -> sp.ImmutableMatrix:
        """A_i = T_{i-1,i} with internal symbols."""
        transform = dh_standard if self._convention == "standard" else dh_modified
        return self._cache(
            self._kinematics,
            ("A", i),
            lambda: sp.ImmutableMatrix(transform(*self._entries[i - 1])),
        )

    def _chain(self, start: int) -> list[tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]]:
        """Poses (R, p) of frames {start}, …, {n} in frame {start}, internal symbols.

        The rotation is kept as ``R_b Rz(Θ) Rx(π)^flip``: a joint rotation about
        a z axis parallel to the previous one (α = 0, or α = π with a sign
        change) is added to the angle Θ instead of being multiplied out.
        """

        def compute() -> list[tuple[sp.ImmutableMatrix, sp.ImmutableMatrix]]:
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
            for a, alpha, d, theta in self._entries[start:]:
                if self._convention == "standard":  # Rz(θ) Tz(d) Tx(a) Rx(α)
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

        return self._cache(self._kinematics, ("chain", start), compute)

    def _pose(self, i: int) -> sp.ImmutableMatrix:
        R, p = self._chain(0)[i]
        return sp.ImmutableMatrix(R.row_join(p).col_join(sp.Matrix([[0, 0, 0, 1]])))

    def _axis_frame(self, j: int) -> int:
        """The frame whose z axis is joint j's axis: {j-1} (standard) or {j} (modified)."""
        return j - 1 if self._convention == "standard" else j

    def _timed(self, value: _T) -> _T:
        """Internal symbols → q_i(t) and their derivatives (a mutable copy for matrices)."""
        memo: dict = {}
        if isinstance(value, sp.MatrixBase):
            entries = [replace_shared(entry, self._to_time, memo) for entry in value]
            return sp.Matrix(value.rows, value.cols, entries)
        if isinstance(value, list):
            return [self._timed(v) for v in value]
        return replace_shared(value, self._to_time, memo)

    @property
    def Ts(self) -> list[sp.Matrix]:
        """The link transforms ``A_i = T_{i-1,i}``, i = 1..n."""
        return [self._timed(self._link_transform(i)) for i in range(1, self._n + 1)]

    def T_i0(self, i: int) -> sp.Matrix:
        """Return ``T_0i``, the pose of frame {i} in the base frame (Moro's T_i^0), i = 0..n."""
        return self._timed(self._pose(self._frame(i)))

    def T_ij(self, i: int, j: int) -> sp.Matrix:
        """Return the pose of frame {i} in frame {j} (Moro's T_i^j, our ``T_ji``), 0..n."""
        i, j = self._frame(i), self._frame(j)
        if j <= i:
            R, p = self._chain(j)[i - j]
            return self._timed(R.row_join(p).col_join(sp.Matrix([[0, 0, 0, 1]])))

        def compute() -> sp.ImmutableMatrix:
            R, p = self._chain(i)[j - i]
            inverse = R.T.row_join(simplify_matrix(-R.T * p)).col_join(sp.Matrix([[0, 0, 0, 1]]))
            return sp.ImmutableMatrix(inverse)

        return self._timed(self._cache(self._kinematics, ("inverse", i, j), compute))

    def R_i0(self, i: int) -> sp.Matrix:
        """Return ``R_0i``, the orientation of frame {i} in the base frame, i = 0..n."""
        return self._timed(self._chain(0)[self._frame(i)][0])

    def r_o(self, i: int) -> sp.Matrix:
        """Return the position of the origin of frame {i} in the base frame, i = 0..n."""
        return self._timed(self._chain(0)[self._frame(i)][1])

    def z(self, i: int) -> sp.Matrix:
        """Return the direction of the axis z_i of frame {i} in the base frame, i = 0..n."""
        return self._timed(self._chain(0)[self._frame(i)][0][:, 2])

    @property
    def T(self) -> sp.Matrix:
        """The end-effector pose ``T_0n · tool`` in the base frame (Moro's T when no tool).

        Rotations about parallel z axes are merged as the chain is multiplied,
        so no simplifier is needed:

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).T[:2, :2]
        Matrix([
        [cos(q_1(t) + q_2(t)), -sin(q_1(t) + q_2(t))],
        [sin(q_1(t) + q_2(t)),  cos(q_1(t) + q_2(t))]])
        """
        pose = self._pose(self._n)
        return self._timed(pose if self._tool == sp.eye(4) else pose * self._tool)

    def _jacobian_point(self, point: sp.MatrixBase, i: int) -> sp.ImmutableMatrix:
        """6×n Jacobian [v; ω] (base frame) of a point fixed in link i, internal symbols."""

        def compute() -> sp.ImmutableMatrix:
            columns = []
            for j in range(1, self._n + 1):
                if j > i:
                    columns.append(sp.zeros(6, 1))
                    continue
                k = self._axis_frame(j)
                R0k = self._chain(0)[k][0]
                z = R0k[:, 2]
                if self._rows[j - 1].joint_type == "p":
                    columns.append(z.col_join(sp.zeros(3, 1)))
                    continue
                Rki, pki = self._chain(k)[i - k]
                w = Rki * point + pki  # the point in frame {k}, where the axis is z
                v = simplify_matrix(R0k * sp.Matrix([-w[1], w[0], 0]))
                columns.append(v.col_join(z))
            return sp.ImmutableMatrix(sp.Matrix.hstack(*columns))

        return self._cache(self._kinematics, ("J_point", i, sp.ImmutableMatrix(point)), compute)

    def J_point(self, point: Any, i: int) -> sp.Matrix:
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
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.J_point((0, 0, 0), 1)[:, 0].T
        Matrix([[-l_1*sin(q_1(t)), l_1*cos(q_1(t)), 0, 0, 0, 1]])
        """
        i = self._link(i)
        coordinates = _vector3(point, "point", f" in frame {{{i}}}")
        return self._timed(self._jacobian_point(coordinates, i))

    @property
    def J(self) -> sp.Matrix:
        """The 6×n geometric Jacobian ``[v; ω]`` of the end-effector origin, base frame.

        Moro's and Spong's J (see :meth:`J_point`); with a tool, the origin of
        the tool frame. The Modern Robotics ``[ω; v]`` Jacobians are
        ``robolab.jacobian_space`` / ``jacobian_body`` of the screw model.

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2)).J[:, 1].T
        Matrix([[-l_2*sin(q_1(t) + q_2(t)), l_2*cos(q_1(t) + q_2(t)), 0, 0, 0, 1]])
        """
        return self._timed(self._jacobian_point(self._tool[:3, 3], self._n))

    def J_cm_i(self, i: int) -> sp.Matrix:
        """Return the 6×n Jacobian ``[v; ω]`` of the centre of mass of link ``i``."""
        i = self._link(i)
        return self._timed(self._jacobian_point(self._centres()[i - 1], i))

    def Jv_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n linear-velocity Jacobian of the centre of mass of link ``i``."""
        return self.J_cm_i(i)[:3, :]

    def Jw_cm_i(self, i: int) -> sp.Matrix:
        """Return the 3×n angular-velocity Jacobian of link ``i``."""
        return self.J_cm_i(i)[3:, :]

    def w_rel0(self, i: int) -> sp.Matrix:
        """Return ``q̇_i z`` along joint i's axis (zero if prismatic): ω of link i w.r.t. i-1."""
        i = self._link(i)
        if self._rows[i - 1].joint_type == "p":
            return sp.zeros(3, 1)
        return self._timed(self._chain(0)[self._axis_frame(i)][0][:, 2] * self._qd[i - 1])

    def w(self, i: int) -> sp.Matrix:
        """Return the angular velocity of link ``i`` in the base frame, ``Σ_{k≤i} ω_{k-1,k}``."""
        return sum((self.w_rel0(k) for k in range(1, self._link(i) + 1)), sp.zeros(3, 1))

    def r_cm(self, i: int) -> sp.Matrix:
        """Return the position of the centre of mass of link ``i`` in the base frame.

        ``r_ci = R_0i c_i + p_0i``, each coordinate collected and reduced (like
        terms added, Pythagoras and angle sums), so a centre of mass given as
        ``(l_c1 - l_1, 0, 0)`` comes out as ``l_c1 cos q_1``:

        >>> from robolab.symbols import q1, l1, lc1
        >>> arm = DHRobot((l1, 0, 0, q1))
        >>> arm.cm_positions = [(lc1 - l1, 0, 0)]
        >>> arm.r_cm(1).T
        Matrix([[l_c1*cos(q_1(t)), l_c1*sin(q_1(t)), 0]])
        """
        return self._timed(self._centre_position(self._link(i)))

    def _centre_position(self, i: int) -> sp.ImmutableMatrix:
        def compute() -> sp.ImmutableMatrix:
            R, p = self._chain(0)[i]
            return sp.ImmutableMatrix(simplify_matrix(R * self._centres()[i - 1] + p))

        return self._cache(self._dynamics, ("r_cm", i), compute)

    def v_cm(self, i: int) -> sp.Matrix:
        """Return the velocity of the centre of mass of link ``i`` in the base frame."""
        i = self._link(i)
        J = self._jacobian_point(self._centres()[i - 1], i)[:3, :]
        return self._timed(simplify_matrix(J * sp.Matrix(self._qd)))

    # ----------------------------------------------------------------------------------
    # numbers, screw form, derivations
    # ----------------------------------------------------------------------------------

    def numeric(self, values: Mapping[Any, Any] | None = None) -> Any:
        """Return compiled numeric functions of this robot (built once and cached).

        Parameters
        ----------
        values : mapping, optional
            Numbers for parameters that are still symbolic, keyed by symbol or
            by name (``{l1: 0.5, "m_1": 2.0}``).

        Returns
        -------
        robolab.dh.numeric.NumericDHRobot
            With ``forward_kinematics(q)``, ``frames(q)``, ``jacobian(q)``,
            ``inertia_matrix(q)``, ``coriolis_matrix(q, qd)``,
            ``gravity_vector(q)``, ``inverse_dynamics(q, qd, qdd)``; each takes
            ``(n,)`` arrays or batches ``(B, n)``. Kinematic functions need a
            numeric table only; dynamic ones name any parameter still symbolic.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> fast = pendulum.numeric({"l_1": 0.5, "m_1": 2.0, "I_xx1": 0, "I_yy1": 0, "I_zz1": 0})
        >>> fast.inverse_dynamics([0.0], [0.0], [1.0])  # m l² q̈
        array([0.5])
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .numeric import NumericDHRobot, normalise_values

        substitutions = normalise_values(self, values)
        key = frozenset(substitutions.items())

        def build() -> NumericDHRobot:
            # masses and inertias that the values make numeric: the setters' physical checks
            check_substituted_dynamics(
                self._masses, self._inertias, substitutions, self._triangle_exempt()
            )
            return NumericDHRobot(self, substitutions)

        return self._cache(self._numerics, key, build)

    def to_screw(
        self, values: Mapping[Any, Any] | None = None, kinematics_only: bool = False
    ) -> Any:
        """Return the screw (product-of-exponentials) model of this robot, a ``ScrewRobot``.

        Home pose, space screw axes ``[ω; v]``, centre-of-mass link frames
        and spatial inertias at q = 0 (:mod:`robolab.dh.to_screw`). Both models
        give the same forward kinematics and dynamics (tested; check any pair
        with :func:`robolab.compare_models`).

        Parameters
        ----------
        values : mapping, optional
            Numbers for parameters that are still symbolic, keyed by symbol or
            by name (as in :meth:`numeric`).
        kinematics_only : bool
            False (default): every parameter must be numeric (or in
            ``values``). True: only the DH table and the tool must be; the
            result has the right home pose and screw axes, zero spatial
            inertias and link frames at the DH frames {i}, and gravity as
            given (or (0, 0, -9.81) if symbolic). Its kinematics are exact;
            its mass matrix is zero, so forward dynamics refuses it (singular
            M), as the Clarifications in the product notes allow.

        Examples
        --------
        >>> from robolab.symbols import q1, q2
        >>> arm = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R")
        >>> arm.masses, arm.cm_positions = [1.0, 1.0], [(0, 0, 0), (0, 0, 0)]
        >>> arm.inertia_tensors = [[[0] * 3] * 3] * 2
        >>> screw = arm.to_screw()
        >>> screw.screw_axes_space[:, 1]
        array([ 0.,  0.,  1.,  0., -1.,  0.])
        >>> screw.home_ee_pose[:3, 3]
        array([1.5, 0. , 0. ])

        Without dynamic parameters, the kinematic model only:

        >>> kinematic = DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2)).to_screw(kinematics_only=True)
        >>> kinematic.home_ee_pose[0, 3], kinematic.spatial_inertias.max()
        (np.float64(1.5), np.float64(0.0))
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .to_screw import screw_parameters

        parameters = screw_parameters(self, values, kinematics_only)
        return ScrewRobot(**parameters, plausibility_exceptions=self._plausibility_exceptions)

    def to_modified(self) -> DHRobot:
        """Return the same robot as a modified-DH (Craig) table, dynamics re-expressed exactly.

        The columns a, α move down one row (row 1 gets ``a_0 = α_0 = 0``),
        ``Tx(a_n) Rx(α_n)`` joins the tool, and each centre of mass and inertia
        tensor is re-expressed in the new frame {i}: ``c → Rx(α_i) c + (a_i, 0, 0)``,
        ``I → Rx(α_i) I Rx(α_i)ᵀ`` (:mod:`robolab.dh.conversion`). Symbols stay
        symbols. A modified robot gives an independent copy of itself.

        The bundled ``puma560`` file's modified table (Craig's frames, derived by
        the same rules) is exactly ``load_robot("puma560", form="dh").to_modified()``:
        rows, tool, centres of mass and inertias (tested).

        Examples
        --------
        >>> import sympy as sp
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((0, sp.pi / 2, l1, q1), (l2, 0, 0, q2), name="RR")
        >>> arm.cm_positions = [(0, 0, 0), (-l2 / 2, 0, 0)]
        >>> craig = arm.to_modified()
        >>> print(craig.dh_table)
        modified DH (Craig): T_{i-1,i} = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)
        i | a_{i-1} | α_{i-1} | d_i | θ_i | joint
        1 | 0       | 0       | l_1 | q_1 | revolute
        2 | 0       | pi/2    | 0   | q_2 | revolute
        tool T_n,ee = [[1, 0, 0, l_2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        >>> craig.cm_positions[1].T  # the middle of link 2, now measured from joint 2
        Matrix([[l_2/2, 0, 0]])
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .conversion import standard_to_modified

        return standard_to_modified(self)

    def to_standard(self, last_link: Sequence[Any] | None = None) -> DHRobot:
        """Return the same robot as a standard-DH table, dynamics re-expressed exactly.

        The inverse of :meth:`to_modified`: a, α move up one row. The standard
        table needs ``a_n, α_n``, which a modified table does not hold: from
        ``last_link`` if given, else remembered by a robot made with
        :meth:`to_modified` (an exact round trip), else read from a tool that
        is exactly ``Tx(a) Rx(α)``, else 0 (:func:`robolab.dh.conversion.modified_to_standard`).
        A modified table whose first row has ``a_0 ≠ 0`` or ``α_0 ≠ 0`` has no
        standard form with the same base frame: ``ValueError``.

        Examples
        --------
        >>> from robolab import transl
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> craig = DHRobot((0, 0, 0, q1), (l1, 0, 0, q2), convention="modified",
        ...                 tool=transl(l2, 0, 0))
        >>> craig.to_standard().dh_parameters
        [(l_1, 0, 0, q_1(t)), (l_2, 0, 0, q_2(t))]
        """
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .conversion import modified_to_standard

        return modified_to_standard(self, last_link)

    def forward_kinematics_derivation(self) -> Any:
        """Return the forward kinematics step by step (a :class:`robolab.Derivation`)."""
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .derivations import forward_kinematics_derivation

        return forward_kinematics_derivation(self)

    def lagrangian_derivation(self) -> Any:
        """Return the Lagrangian dynamics step by step (a :class:`robolab.Derivation`)."""
        # lazy, to keep `import robolab` fast: the module is loaded on first use
        from .derivations import lagrangian_derivation

        return lagrangian_derivation(self)

    # ----------------------------------------------------------------------------------
    # summary and display
    # ----------------------------------------------------------------------------------

    def symbolic_parameters(self, dynamics: bool = True) -> dict[sp.Symbol, list[str]]:
        """Return every symbol other than the joint variables, with where it appears.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> DHRobot((l1, 0, 0, q1)).symbolic_parameters(dynamics=False)
        {l_1: ['row 1, a']}
        """
        where: dict[sp.Symbol, list[str]] = {}

        def note(expr: sp.Basic, label: str) -> None:
            for symbol in sorted(expr.free_symbols - set(self._q), key=sp.default_sort_key):
                where.setdefault(symbol, [])
                if label not in where[symbol]:
                    where[symbol].append(label)

        for i, entries in enumerate(self._entries, start=1):
            for field, value in zip(("a", "alpha", "d", "theta"), entries, strict=True):
                note(value, f"row {i}, {field}")
        note(self._tool, "tool")
        if dynamics:
            for i in range(1, self._n + 1):
                note(self._masses[i - 1], f"mass of link {i}")
                if self._cms is not None:
                    note(self._cms[i - 1], f"centre of mass of link {i}")
                note(self._inertias[i - 1], f"inertia tensor of link {i}")
            note(self._gravity, "gravity")
        return where

    def model_summary(self) -> str:
        """Return what was given, what is assumed and what is missing, one line per item.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> print(DHRobot((l1, 0, 0, q1), name="pendulum").model_summary())
        DHRobot 'pendulum': 1 joint (R), standard DH (Spong, Corke, Moro)
          DH table         : given; symbolic: l_1
          tool             : none (end-effector = frame {1})
          joint limits     : assumed (defaults: (-π, π) revolute, (0, 1000) prismatic)
          masses           : assumed (symbolic m_1)
          centres of mass  : MISSING (set robot.cm_positions)
          inertia tensors  : assumed (diagonal I_xx_i, I_yy_i, I_zz_i: zero products of inertia)
          gravity          : assumed ((0, 0, -9.81) m/s² in {0})
        """

        def symbolic(values: Any) -> str:
            found: set[sp.Symbol] = set()
            for value in values:
                found |= sp.sympify(value).free_symbols
            found -= set(self._q)
            if not found:
                return "numeric"
            names = sorted((str(s) for s in found), key=str)
            return "symbolic: " + ", ".join(names[:8]) + (", …" if len(names) > 8 else "")

        joints = "".join(self.joint_types).upper()
        plural = "s" if self._n > 1 else ""
        table_symbols = symbolic([e for entries in self._entries for e in entries])
        table_state = "given" + ("" if table_symbols == "numeric" else f"; {table_symbols}")
        tool = "given" if self._tool != sp.eye(4) else f"none (end-effector = frame {{{self._n}}})"

        def state(given: bool, values: Any, assumption: str) -> str:
            return f"given ({symbolic(values)})" if given else f"assumed ({assumption})"

        masses = state(
            self._masses_given,
            self._masses,
            "symbolic "
            + ", ".join(str(m) for m in self._masses[:3])
            + (", …" if self._n > 3 else ""),
        )

        def frames(assumed_in: str | None) -> str:
            if assumed_in is None:
                return ""
            return f", in the frames of the {assumed_in} table, re-expressed in these"

        if self._cms is None:
            centres = "MISSING (set robot.cm_positions)"
        else:
            centres = state(
                self._cms_given,
                self._cms,
                "general symbolic x_ci, y_ci, z_ci" + frames(self._cms_assumed_in),
            )
        inertias = state(
            self._inertias_given,
            self._inertias,
            "diagonal I_xx_i, I_yy_i, I_zz_i: zero products of inertia"
            + frames(self._inertias_assumed_in),
        )
        gravity = state(self._gravity_given, self._gravity, "(0, 0, -9.81) m/s² in {0}")
        limits = (
            "given"
            if self._limits_given
            else "assumed (defaults: (-π, π) revolute, (0, 1000) prismatic)"
        )
        lines = [
            f"DHRobot {self._name!r}: {self._n} joint{plural} ({joints}), "
            f"{CONVENTIONS[self._convention][0]}",
            f"  DH table         : {table_state}",
            f"  tool             : {tool}",
            f"  joint limits     : {limits}",
            f"  masses           : {masses}",
            f"  centres of mass  : {centres}",
            f"  inertia tensors  : {inertias}",
            f"  gravity          : {gravity}",
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        joints = "".join(self.joint_types).upper()
        return f"DHRobot({self._name!r}, joints={joints!r}, convention={self._convention!r})"

    def _repr_html_(self) -> str:
        title = (
            f"<p><b>DHRobot {html.escape(repr(self._name))}</b>: {self._n} joints "
            f"({''.join(self.joint_types).upper()})</p>"
        )
        return f"<div>{title}{self.dh_table._repr_html_()}</div>"

    def _repr_latex_(self) -> str:
        name = self._name.replace("_", r"\_").replace("{", "").replace("}", "")
        return rf"$$\text{{DHRobot {name}}}\quad {self.dh_table._latex_body()}$$"

    # ----------------------------------------------------------------------------------
    # helpers
    # ----------------------------------------------------------------------------------

    @staticmethod
    def _cache(store: dict[Any, Any], key: Any, compute: Callable[[], _T]) -> _T:
        if key not in store:
            store[key] = compute()
        return store[key]

    def _link(self, i: Any, what: str = "link") -> int:
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"{what} number must be an integer 1..{self._n}, got {i!r}")
        if not 1 <= i <= self._n:
            raise IndexError(
                f"{what} {i} is out of range: {what}s are numbered 1..{self._n} "
                f"({{0}} is the fixed base)"
            )
        return i

    def _frame(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"frame number must be an integer 0..{self._n}, got {i!r}")
        if not 0 <= i <= self._n:
            raise IndexError(f"frame {i} is out of range: frames are numbered 0..{self._n}")
        return i
