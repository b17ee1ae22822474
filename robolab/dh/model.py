"""The description of a DH robot: one immutable value that the helpers of DHRobot read.

A :class:`DHModel` holds everything a :class:`robolab.DHRobot` is made of: its
kinematic chain (:class:`DHChain`: convention, rows, tool and the internal joint
symbols), its dynamic parameters (:class:`DHInertial`: masses, centres of mass,
inertia tensors, gravity), and what the robot shows about them (name, joint limits,
sampling ranges, accepted plausibility exceptions, which parameters were given and
which assumed). The robot is the friendly mutable shell: each setter checks the new
value and puts a new description in place of the old one with :func:`dataclasses.replace`;
the old one is never changed.

The results derived from a description (link frames, Jacobians, M, C, G, compiled
functions) are kept in the ``memo`` of the part they depend on: the chain for the
kinematics (:mod:`robolab.dh.kinematics`), the dynamic parameters for the dynamics
(:mod:`robolab.dh.lagrangian`, keyed by the chain). A setter makes a new part with an
empty memo, so a cache never outlives the values it was computed from, and a change of
the joint limits (which no result depends on) keeps every cache. Descriptions compare
by identity: a description is the key of its results.

Examples
--------
>>> from robolab.symbols import q1, l1
>>> model = DHModel.new([(l1, 0, 0, q1)], name="pendulum")
>>> model.chain.dof, model.chain.joint_types, model.inertial.masses
(1, ('r',), (m_1,))
>>> heavier = replace_inertial(model, masses=(2,))
>>> heavier.inertial.masses, model.inertial.masses  # the old description is unchanged
((2,), (m_1,))
>>> heavier.chain is model.chain  # the kinematics (and their cache) are shared
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..support.arguments import as_name
from .parameters import (
    DEFAULT_GRAVITY,
    check_gravity,
    check_tool,
    default_joint_limits,
    placeholder_inertia_tensors,
    placeholder_masses,
)
from .table import CONVENTIONS, DHRow, read_rows

__all__ = ["DHChain", "DHInertial", "DHModel", "refuse_joint_names", "replace_inertial"]


@dataclass(frozen=True, eq=False)
class DHChain:
    """The kinematic chain of a DH robot: rows, convention, tool and joint symbols.

    Attributes
    ----------
    convention : str
        ``"standard"`` or ``"modified"``.
    rows : tuple of DHRow
        The checked rows (:class:`robolab.dh.table.DHRow`), joint 1 first.
    tool : sympy.ImmutableMatrix
        The constant transform ``T_n,ee`` (4×4).
    time : sympy.Symbol
        The time ``t`` of the joint variables ``q_i(t)``.
    q, qd, qdd : tuple of sympy.Dummy
        Plain real symbols for q_i, q̇_i, q̈_i: the results are computed with these.
    entries : tuple of tuple
        The rows ``(a, alpha, d, theta)`` with q_i(t) replaced by ``q[i]``.
    to_time, to_internal : dict
        The replacements internal symbol → q_i(t) (or its derivatives) and back.
    memo : dict
        Results derived from this chain, filled on first use; not part of the description.
    """

    convention: str
    rows: tuple[DHRow, ...]
    tool: sp.ImmutableMatrix
    time: sp.Symbol
    q: tuple[sp.Dummy, ...]
    qd: tuple[sp.Dummy, ...]
    qdd: tuple[sp.Dummy, ...]
    entries: tuple[tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr], ...]
    to_time: dict[sp.Expr, sp.Expr]
    to_internal: dict[sp.Expr, sp.Expr]
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def read(cls, rows: Sequence[Any], convention: str = "standard", tool: Any = None) -> DHChain:
        """Check the rows and the tool (:func:`robolab.dh.table.read_rows`) and make the chain.

        Examples
        --------
        >>> from robolab.symbols import q1, q2, l1
        >>> DHChain.read([(l1, 0, 0, q1), (0, 0, q2, 0, "p")]).joint_types
        ('r', 'p')
        """
        checked, time = read_rows(rows, convention)
        n = len(checked)
        q = tuple(sp.Dummy(f"q{i}", real=True) for i in range(1, n + 1))
        qd = tuple(sp.Dummy(f"qd{i}", real=True) for i in range(1, n + 1))
        qdd = tuple(sp.Dummy(f"qdd{i}", real=True) for i in range(1, n + 1))
        to_time: dict[sp.Expr, sp.Expr] = {}
        to_internal: dict[sp.Expr, sp.Expr] = {}
        for row, qi, qdi, qddi in zip(checked, q, qd, qdd, strict=True):
            velocity, acceleration = row.variable.diff(time), row.variable.diff(time, 2)
            to_time.update({qi: row.variable, qdi: velocity, qddi: acceleration})
            to_internal.update({row.variable: qi, velocity: qdi, acceleration: qddi})
        entries = tuple(
            tuple(e.xreplace({row.variable: qi}) for e in row.entries)
            for row, qi in zip(checked, q, strict=True)
        )
        chain = cls(
            convention=convention,
            rows=tuple(checked),
            tool=check_tool(tool),
            time=time,
            q=q,
            qd=qd,
            qdd=qdd,
            entries=entries,
            to_time=to_time,
            to_internal=to_internal,
        )
        refuse_joint_names(chain, [chain.tool], "tool")
        return chain

    @property
    def dof(self) -> int:
        """The number of joints n."""
        return len(self.rows)

    @property
    def joint_types(self) -> tuple[str, ...]:
        """``"r"`` or ``"p"`` per joint, joint 1 first."""
        return tuple(row.joint_type for row in self.rows)

    def axis_frame(self, j: int) -> int:
        """Return the frame whose z axis is joint j's axis: {j-1} (standard) or {j} (modified).

        Examples
        --------
        >>> from robolab.symbols import q1
        >>> DHChain.read([(0, 0, 0, q1)], "modified").axis_frame(1)
        1
        """
        return j - 1 if self.convention == "standard" else j

    def check_link(self, i: Any, what: str = "link") -> int:
        """Return ``i`` if it numbers a link (or joint) 1..n, else raise naming the range.

        Examples
        --------
        >>> from robolab.symbols import q1
        >>> DHChain.read([(0, 0, 0, q1)]).check_link(2)
        Traceback (most recent call last):
        ...
        IndexError: link 2 is out of range: links are numbered 1..1 ({0} is the fixed base)
        """
        n = self.dof
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"{what} number must be an integer 1..{n}, got {i!r}")
        if not 1 <= i <= n:
            raise IndexError(
                f"{what} {i} is out of range: {what}s are numbered 1..{n} ({{0}} is the fixed base)"
            )
        return i

    def check_frame(self, i: Any) -> int:
        """Return ``i`` if it numbers a frame 0..n, else raise naming the range."""
        n = self.dof
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"frame number must be an integer 0..{n}, got {i!r}")
        if not 0 <= i <= n:
            raise IndexError(f"frame {i} is out of range: frames are numbered 0..{n}")
        return i


@dataclass(frozen=True, eq=False)
class DHInertial:
    """The dynamic parameters of a DH robot, link 1 first.

    Attributes
    ----------
    masses : tuple of sympy.Expr
    centres : tuple of sympy.ImmutableMatrix, or None
        Link i's centre of mass in frame {i} (3×1); None while missing.
    inertias : tuple of sympy.ImmutableMatrix
        Link i's inertia tensor about its centre of mass, axes of {i} (3×3).
    gravity : sympy.ImmutableMatrix
        The gravity vector in the base frame {0} (3×1).
    memo : dict
        Results derived from these parameters (keyed by the chain), filled on first use.
    """

    masses: tuple[sp.Expr, ...]
    centres: tuple[sp.ImmutableMatrix, ...] | None
    inertias: tuple[sp.ImmutableMatrix, ...]
    gravity: sp.ImmutableMatrix
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False)

    def centres_of_mass(self) -> tuple[sp.ImmutableMatrix, ...]:
        """Return the centres of mass; ``ValueError`` saying how to set them while missing.

        Examples
        --------
        >>> from robolab.symbols import q1
        >>> DHModel.new([(0, 0, 0, q1)]).inertial.centres_of_mass()
        Traceback (most recent call last):
        ...
        ValueError: the centres of mass are missing: set robot.cm_positions = [(x, y, z), ...] ...
        """
        if self.centres is None:
            raise ValueError(
                "the centres of mass are missing: set robot.cm_positions = [(x, y, z), ...] "
                "with link i's centre of mass in frame {i} (or None for symbolic placeholders "
                "x_ci, y_ci, z_ci)"
            )
        return self.centres


@dataclass(frozen=True, eq=False)
class DHModel:
    """Everything a :class:`robolab.DHRobot` is made of, as one immutable value.

    Attributes
    ----------
    name : str
    chain : DHChain
        Rows, convention, tool, joint symbols (what the kinematics depend on).
    inertial : DHInertial
        Masses, centres of mass, inertia tensors, gravity (what the dynamics add).
    given : frozenset of str
        The parameters set by the user, of ``"masses"``, ``"cm_positions"``,
        ``"inertia_tensors"``, ``"gravity"``, ``"joint_limits"``; the others are assumed.
    centres_assumed_in, inertias_assumed_in : str or None
        For placeholders re-expressed from another table (:meth:`DHRobot.to_modified`):
        the convention of the table in whose frames they were assumed.
    joint_limits : tuple of (float, float)
    qis_range : tuple of (float, float), or None
        Sampling ranges of the joint variables; the joint limits when None.
    plausibility_exceptions : tuple of PlausibilityException
    standard_form : (a_n, alpha_n, tool) or None
        For a modified table made from a standard one: what its last row and tool were.
    """

    name: str
    chain: DHChain
    inertial: DHInertial
    given: frozenset[str] = frozenset()
    centres_assumed_in: str | None = None
    inertias_assumed_in: str | None = None
    joint_limits: tuple[tuple[float, float], ...] = ()
    qis_range: tuple[tuple[float, float], ...] | None = None
    plausibility_exceptions: tuple[Any, ...] = ()
    standard_form: tuple[sp.Expr, sp.Expr, sp.ImmutableMatrix] | None = None

    @classmethod
    def new(
        cls,
        rows: Sequence[Any],
        convention: str = "standard",
        tool: Any = None,
        name: str | None = None,
    ) -> DHModel:
        """Return the description of a new robot: checked rows, assumed parameters.

        Examples
        --------
        >>> from robolab.symbols import q1, q2, l1
        >>> model = DHModel.new([(l1, 0, 0, q1), (0, 0, q2, 0, "p")])
        >>> model.name, model.joint_limits[1], model.inertial.centres
        ('RP', (0.0, 1000.0), None)
        """
        chain = DHChain.read(rows, convention, tool)
        if name is not None:
            name = as_name(name, "name")  # NFC, no control or invisible characters
        n = chain.dof
        inertial = DHInertial(
            tuple(placeholder_masses(n)),
            None,
            tuple(placeholder_inertia_tensors(n)),
            check_gravity(DEFAULT_GRAVITY),
        )
        return cls(
            name if name is not None else "".join(chain.joint_types).upper(),
            chain,
            inertial,
            joint_limits=tuple(default_joint_limits(chain.joint_types)),
        )

    def triangle_exempt(self) -> set[int]:
        """Return the links whose inertia may break the triangle inequality (accepted)."""
        return {e.link for e in self.plausibility_exceptions if e.check == "inertia_triangle"}

    def symbolic_parameters(self, dynamics: bool = True) -> dict[sp.Symbol, list[str]]:
        """Return every symbol other than the joint variables, with where it appears.

        Examples
        --------
        >>> from robolab.symbols import q1, l1
        >>> DHModel.new([(l1, 0, 0, q1)]).symbolic_parameters(dynamics=False)
        {l_1: ['row 1, a']}
        """
        where: dict[sp.Symbol, list[str]] = {}
        joints = set(self.chain.q)

        def note(expr: sp.Basic, label: str) -> None:
            for symbol in sorted(expr.free_symbols - joints, key=sp.default_sort_key):
                where.setdefault(symbol, [])
                if label not in where[symbol]:
                    where[symbol].append(label)

        for i, entries in enumerate(self.chain.entries, start=1):
            for name, value in zip(("a", "alpha", "d", "theta"), entries, strict=True):
                note(value, f"row {i}, {name}")
        note(self.chain.tool, "tool")
        if dynamics:
            inertial = self.inertial
            for i in range(1, self.chain.dof + 1):
                note(inertial.masses[i - 1], f"mass of link {i}")
                if inertial.centres is not None:
                    note(inertial.centres[i - 1], f"centre of mass of link {i}")
                note(inertial.inertias[i - 1], f"inertia tensor of link {i}")
            note(inertial.gravity, "gravity")
        return where

    def summary(self) -> str:
        """Return what was given, what is assumed and what is missing (``model_summary``)."""
        chain, inertial, n = self.chain, self.inertial, self.chain.dof
        joints = set(chain.q)

        def symbolic(values: Any) -> str:
            found: set[sp.Symbol] = set()
            for value in values:
                found |= sp.sympify(value).free_symbols
            found -= joints
            if not found:
                return "numeric"
            names = sorted((str(s) for s in found), key=str)
            return "symbolic: " + ", ".join(names[:8]) + (", …" if len(names) > 8 else "")

        def state(given: str, values: Any, assumption: str) -> str:
            return (
                f"given ({symbolic(values)})" if given in self.given else f"assumed ({assumption})"
            )

        def frames(assumed_in: str | None) -> str:
            if assumed_in is None:
                return ""
            return f", in the frames of the {assumed_in} table, re-expressed in these"

        table_symbols = symbolic([e for entries in chain.entries for e in entries])
        table_state = "given" + ("" if table_symbols == "numeric" else f"; {table_symbols}")
        tool = "given" if chain.tool != sp.eye(4) else f"none (end-effector = frame {{{n}}})"
        first = ", ".join(str(m) for m in inertial.masses[:3]) + (", …" if n > 3 else "")
        masses = state("masses", inertial.masses, "symbolic " + first)
        if inertial.centres is None:
            centres = "MISSING (set robot.cm_positions)"
        else:
            centres = state(
                "cm_positions",
                inertial.centres,
                "general symbolic x_ci, y_ci, z_ci" + frames(self.centres_assumed_in),
            )
        inertias = state(
            "inertia_tensors",
            inertial.inertias,
            "diagonal I_xx_i, I_yy_i, I_zz_i: zero products of inertia"
            + frames(self.inertias_assumed_in),
        )
        gravity = state("gravity", inertial.gravity, "(0, 0, -9.81) m/s² in {0}")
        limits = (
            "given"
            if "joint_limits" in self.given
            else "assumed (defaults: (-π, π) revolute, (0, 1000) prismatic)"
        )
        return "\n".join(
            [
                f"DHRobot {self.name!r}: {n} joint{'s' if n > 1 else ''} "
                f"({''.join(chain.joint_types).upper()}), {CONVENTIONS[chain.convention][0]}",
                f"  DH table         : {table_state}",
                f"  tool             : {tool}",
                f"  joint limits     : {limits}",
                f"  masses           : {masses}",
                f"  centres of mass  : {centres}",
                f"  inertia tensors  : {inertias}",
                f"  gravity          : {gravity}",
            ]
        )


def replace_inertial(model: DHModel, **changes: Any) -> DHModel:
    """Return ``model`` with new dynamic parameters (``masses=...``, ``gravity=...``).

    The new :class:`DHInertial` starts with an empty memo: the dynamics of the old
    values are not carried over. The chain (and its kinematics) is shared.
    """
    return dataclasses.replace(model, inertial=dataclasses.replace(model.inertial, **changes))


def refuse_joint_names(chain: DHChain, values: Sequence[Any], what: str) -> None:
    """One name, one meaning: no parameter may be a symbol named like a joint variable.

    (A function of time ``q_i(t)`` itself is refused by the checks as not constant.)

    Examples
    --------
    >>> from robolab.symbols import q1
    >>> refuse_joint_names(DHChain.read([(0, 0, 0, q1)]), [sp.Symbol("q_1")], "masses")
    Traceback (most recent call last):
    ...
    ValueError: masses: the symbol q_1 has the name of the joint variable q_1(t) of joint 1 ...
    """
    names = {row.variable.func.__name__: i for i, row in enumerate(chain.rows, start=1)}
    for k, value in enumerate(values):
        for symbol in value.free_symbols:  # SymPy objects, checked already
            if isinstance(symbol, sp.Symbol) and symbol.name in names:
                i = names[symbol.name]
                column = "theta" if chain.rows[i - 1].joint_type == "r" else "d"
                where = f"{what}[{k}]" if len(values) > 1 else what
                raise ValueError(
                    f"{where}: the symbol {symbol.name} has the name of the joint variable "
                    f"{symbol.name}(t) of joint {i} (row {i}, {column}) but is another SymPy "
                    "object: one name, one meaning. Rename the parameter"
                )
