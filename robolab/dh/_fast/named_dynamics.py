"""M, ∂M/∂q and G of a DH robot as one straight-line program of named pieces.

The readable derivation (:mod:`robolab.dh.lagrangian`) expands every entry of M and
every Christoffel symbol into sines and cosines and simplifies it: the textbook
forms, and for 2–4 joints the best ones. Its cost grows steeply with the joints
(each expanded Christoffel symbol of a 7-joint arm has hundreds of thousands of
terms). This module computes the same quantities so that nothing is expanded:

* **M by composite rigid bodies** (Featherstone's CRBA) in the DH link frames:
  the composite inertia of links i..n in frame {i},
  ``Ic_i = G_i + ⁱX_{i+1}ᵀ Ic_{i+1} ⁱX_{i+1}``, the wrench ``F = Ic_k S_k`` carried
  down the chain, and ``M_jk = S_jᵀ F`` in frame {j} (j ≤ k), where S_j is joint
  j's screw axis in its own frame (a constant). So M_jk depends only on
  q_{j+1} … q_n, as it must.
* **∂M/∂q by forward differentiation of that program**: every named piece w
  that depends on q_c gets a named derivative ∂w/∂q_c by the chain rule over the
  few names it is made of; ``∂M_ab/∂q_c`` is the derivative of M_ab's name.
* **G from the composite masses**: ``G_j = −S_jᵀ [h_j × g_j; m_j g_j]`` with
  ``g_j`` gravity in frame {j} and ``m_j``, ``h_j = Σ m_i c_i`` of links j..n.

Every piece has a name (a SymPy ``Dummy``) and a small defining expression, so
the program grows polynomially (about n³ pieces for all of ∂M/∂q) where the
expanded expressions grow much faster. :meth:`DynamicsProgram.expression`
substitutes the pieces back (each once: a shared tree) for symbolic results, and
:mod:`robolab.dh.numeric` compiles the program itself to Python.

It reproduces the readable :func:`robolab.dh.lagrangian.mass_matrix` (and ∂M/∂q, C, G;
``robolab.dh._fast.REPRODUCES``) and is called only through it: by
:meth:`robolab.dh.lagrangian.DerivedDynamics.program`, for a long arm or for ``numeric()``.

Examples
--------
A planar 2R arm with point masses at the ends of its unit links: M_22 = m_2 + I_zz2
needs no joint angle, ∂M_11/∂q_2 = −2 m_2 sin q_2 is its only joint-dependent part.

>>> from robolab import DHRobot
>>> from robolab.dh.simplify import simplify_trig
>>> from robolab.symbols import q1, q2
>>> arm = DHRobot((1, 0, 0, q1), (1, 0, 0, q2))
>>> arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
>>> program = dynamics_program(arm.model)
>>> program.expression(program.mass_matrix[1, 1])
I_zz2 + m_2
>>> dM11_dq2 = simplify_trig(program.expression(program.derivative(0, 0, 1)))
>>> dM11_dq2.xreplace(arm.model.chain.to_time)  # the chain's joint symbols as q_i(t)
-2*m_2*sin(q_2(t))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import sympy as sp

from ...spatial.transforms import dh_modified, dh_standard
from ..model import DHChain, DHInertial, DHModel
from ..simplify import derivative as _partial
from ..simplify import replace_shared

__all__ = ["DynamicsProgram", "dynamics_program", "program_of"]

Vector = list[sp.Expr]


class _Builder:
    """Named pieces with their derivatives by the joint variables (forward mode)."""

    def __init__(self, joints: Sequence[sp.Symbol]) -> None:
        self.assignments: list[tuple[sp.Symbol, sp.Expr]] = []
        self.derivatives: dict[sp.Basic, dict[int, sp.Expr]] = {
            q: {c: sp.S.One} for c, q in enumerate(joints)
        }

    def _name(self, expr: sp.Expr) -> sp.Expr:
        if expr.is_Atom:
            return expr  # a number or a name: no new name
        symbol = sp.Dummy(f"w{len(self.assignments)}")
        self.assignments.append((symbol, expr))
        return symbol

    def derivative(self, expr: sp.Expr) -> dict[int, sp.Expr]:
        """∂expr/∂q_c for every c it depends on, by the chain rule over its names."""
        result: dict[int, sp.Expr] = {}
        for u in expr.free_symbols:
            known = self.derivatives.get(u)
            if not known:
                continue
            partial = _partial(expr, u)
            for c, value in known.items():
                result[c] = result.get(c, sp.S.Zero) + partial * value
        return {c: v for c, v in result.items() if v != 0}

    def let(self, expr: sp.Expr, derive: bool = True) -> sp.Expr:
        """A name for ``expr`` (a number or a single name stays as it is), with its derivatives."""
        expr = sp.sympify(expr)
        if expr.is_Atom:
            return expr
        symbol = self._name(expr)
        if derive:
            derivatives = self.derivative(expr)
            if derivatives:
                self.derivatives[symbol] = {c: self._name(v) for c, v in derivatives.items()}
        return symbol

    def trig(self, angle: sp.Expr, derive: bool) -> tuple[sp.Expr, sp.Expr]:
        """cos and sin of a joint angle, named, with ∂cos = −sin dθ and ∂sin = cos dθ."""
        cosine = self._name(sp.cos(angle))
        sine = self._name(sp.sin(angle))
        if derive and cosine.is_Symbol and sine.is_Symbol:
            rate = self.derivative(angle)
            self.derivatives[cosine] = {c: self._name(-sine * v) for c, v in rate.items()}
            self.derivatives[sine] = {c: self._name(cosine * v) for c, v in rate.items()}
        return cosine, sine

    def vector(self, entries: Sequence[sp.Expr], derive: bool = True) -> Vector:
        return [self.let(e, derive) for e in entries]


def _cross(a: Sequence[sp.Expr], b: Sequence[sp.Expr]) -> Vector:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _dot(a: Sequence[sp.Expr], b: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(*[x * y for x, y in zip(a, b, strict=True)])


def _times(R: sp.MatrixBase, v: Sequence[sp.Expr]) -> Vector:
    return [sp.Add(*[R[r, k] * v[k] for k in range(3)]) for r in range(3)]


@dataclass
class DynamicsProgram:
    """The named pieces of M, ∂M/∂q and G, in evaluation order.

    Attributes
    ----------
    assignments : list of (Symbol, Expr)
        Each piece's name and its expression in earlier names, the joint symbols
        ``chain.q`` and numbers (or parameters left symbolic).
    mass_matrix : dict
        ``(a, b) -> Expr`` for a <= b (0-based): M_ab in names.
    mass_matrix_derivatives : dict
        ``(a, b, c) -> Expr`` for a <= b: ∂M_ab/∂q_c in names (absent when zero).
    gravity : list of Expr
        G_1 … G_n in names.
    """

    assignments: list[tuple[sp.Symbol, sp.Expr]]
    mass_matrix: dict[tuple[int, int], sp.Expr]
    mass_matrix_derivatives: dict[tuple[int, int, int], sp.Expr]
    gravity: list[sp.Expr]
    _expanded: dict[sp.Basic, sp.Expr] = field(default_factory=dict, repr=False)
    _memo: dict[sp.Basic, sp.Basic] = field(default_factory=dict, repr=False)

    def derivative(self, a: int, b: int, c: int) -> sp.Expr:
        """∂M_ab/∂q_c in names (0-based, any order of a and b)."""
        return self.mass_matrix_derivatives.get((min(a, b), max(a, b), c), sp.S.Zero)

    def christoffel(self, i: int, j: int, k: int) -> sp.Expr:
        """c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i) in names (0-based)."""
        d = self.derivative
        return (d(i, j, k) + d(i, k, j) - d(j, k, i)) / 2

    def expression(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with every name replaced by what it stands for (shared, not expanded)."""
        if not self._expanded:
            for symbol, value in self.assignments:
                self._expanded[symbol] = replace_shared(value, self._expanded, self._memo)
        return cast(sp.Expr, replace_shared(sp.sympify(expr), self._expanded, self._memo))

    def needed(self, outputs: Sequence[sp.Expr]) -> list[tuple[sp.Symbol, sp.Expr]]:
        """The assignments ``outputs`` need, in order (the others are dropped)."""
        wanted: set[sp.Basic] = set().union(*(sp.sympify(e).free_symbols for e in outputs))
        kept = []
        for symbol, value in reversed(self.assignments):
            if symbol in wanted:
                kept.append((symbol, value))
                wanted |= value.free_symbols
        return kept[::-1]

    def operations(self) -> int:
        """``count_ops`` of every piece and output: the size of the shared form."""
        outputs = [*self.mass_matrix.values(), *self.mass_matrix_derivatives.values()]
        outputs += self.gravity
        pieces = self.needed(outputs)
        return int(sum(sp.count_ops(value) for _, value in pieces))


def dynamics_program(
    model: DHModel, values: Mapping[sp.Symbol, Any] | None = None
) -> DynamicsProgram:
    """Return M, ∂M/∂q and G of ``model`` as a :class:`DynamicsProgram` of named pieces.

    Parameters
    ----------
    model : DHModel
        The robot's description (``robot.model``), centres of mass set.
    values : mapping, optional
        Numbers for symbolic parameters (``{symbol: float}``).

    Returns
    -------
    DynamicsProgram

    Examples
    --------
    A pendulum of length 1 with its mass m_1 at the tip and I_zz1: M = m_1 + I_zz1.

    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1
    >>> pendulum = DHRobot((1, 0, 0, q1))
    >>> pendulum.cm_positions = [(0, 0, 0)]
    >>> program = dynamics_program(pendulum.model)
    >>> program.expression(program.mass_matrix[0, 0])
    I_zz1 + m_1
    """
    return program_of(model.chain, model.inertial, values)


def program_of(
    chain: DHChain, inertial: DHInertial, values: Mapping[sp.Symbol, Any] | None = None
) -> DynamicsProgram:
    """:func:`dynamics_program` of a chain and its dynamic parameters (a model's two parts)."""
    values = dict(values or {})
    n = chain.dof
    standard = chain.convention == "standard"
    transform = dh_standard if standard else dh_modified
    build = _Builder(chain.q)
    phi = sp.Dummy("phi")
    links = []  # (R, p, S_w, S_v) of each joint i: A_i = (R, p), S_i in frame {i}
    for i in range(1, n + 1):
        a, alpha, d, theta = (sp.sympify(e).xreplace(values) for e in chain.entries[i - 1])
        if chain.rows[i - 1].joint_type == "r":
            cosine, sine = build.trig(theta, derive=True)
            A = cast(sp.Matrix, transform(a, alpha, d, phi)).xreplace(
                {sp.cos(phi): cosine, sp.sin(phi): sine}
            )
        else:
            A = cast(sp.Matrix, transform(a, alpha, build.let(d), theta))
        if standard:  # joint i turns about z_{i-1}: its axis and a point on it in frame {i}
            axis = [sp.S.Zero, sp.sin(alpha), sp.cos(alpha)]
            offset = [sp.S.Zero, a * sp.cos(alpha), -a * sp.sin(alpha)]
        else:
            axis, offset = [sp.S.Zero, sp.S.Zero, sp.S.One], [sp.S.Zero] * 3
        revolute = chain.rows[i - 1].joint_type == "r"
        S_w, S_v = (axis, offset) if revolute else ([sp.S.Zero] * 3, axis)
        links.append((A[:3, :3], [A[r, 3] for r in range(3)], S_w, S_v))

    # each link's spatial inertia about the origin of its frame: m, h = m c, I_o
    own = []
    centres = inertial.centres_of_mass()
    for i in range(n):
        m = sp.sympify(inertial.masses[i]).xreplace(values)
        c = sp.Matrix(centres[i]).xreplace(values)
        I_c = sp.Matrix(inertial.inertias[i]).xreplace(values)
        I_o = I_c + m * ((c.T * c)[0, 0] * sp.eye(3) - c * c.T)
        own.append((m, [m * x for x in c], I_o))

    # composite inertias of links i..n in frame {i}, from the tip down
    composites: list[Any] = [None] * n
    mass, h, inertia = own[n - 1][0], build.vector(own[n - 1][1]), own[n - 1][2]
    inertia = sp.Matrix(3, 3, lambda r, k: build.let(inertia[r, k]) if r <= k else 0)
    inertia = _symmetrise(inertia)
    composites[n - 1] = (mass, h, inertia)
    for i in range(n - 2, -1, -1):
        R, p = links[i + 1][0], links[i + 1][1]  # A_{i+2}: frame {i+2} in frame {i+1}
        u = build.vector(_times(R, h))
        RI = [[build.let(_dot(R[r, :], inertia[:, k])) for k in range(3)] for r in range(3)]
        ptu, ptp = _dot(p, u), _dot(p, p)
        m_i, h_i, I_i = own[i]
        new_inertia = sp.zeros(3, 3)
        for r in range(3):
            for k in range(r, 3):
                value = _dot(RI[r], R[k, :]) + I_i[r, k]
                value += -u[r] * p[k] - p[r] * u[k] - mass * p[r] * p[k]
                if r == k:
                    value += 2 * ptu + mass * ptp
                new_inertia[r, k] = build.let(value)
        h = build.vector([u[r] + mass * p[r] + h_i[r] for r in range(3)])
        mass = mass + m_i
        inertia = _symmetrise(new_inertia)
        composites[i] = (mass, h, inertia)

    # M_jk = S_jᵀ F with F = Ic_k S_k carried from frame {k} down to frame {j}
    mass_matrix: dict[tuple[int, int], sp.Expr] = {}
    for k in range(n - 1, -1, -1):
        mass, h, inertia = composites[k]
        S_w, S_v = links[k][2], links[k][3]
        hv, hw = _cross(h, S_v), _cross(h, S_w)
        moment = build.vector([_times(inertia, S_w)[r] + hv[r] for r in range(3)])
        force = build.vector([mass * S_v[r] - hw[r] for r in range(3)])
        for j in range(k, -1, -1):
            S_w, S_v = links[j][2], links[j][3]
            mass_matrix[j, k] = build.let(_dot(S_w, moment) + _dot(S_v, force))
            if j > 0:
                R, p = links[j][0], links[j][1]
                force = build.vector(_times(R, force))
                pf = _cross(p, force)
                moment = build.vector([_times(R, moment)[r] + pf[r] for r in range(3)])

    derivatives = {
        (j, k, c): value
        for (j, k), entry in mass_matrix.items()
        for c, value in build.derivatives.get(entry, {}).items()
    }

    # gravity in each frame, then G_j = -S_jᵀ [h_j × g_j; m_j g_j]
    g = [sp.sympify(x).xreplace(values) for x in inertial.gravity]
    gravity = []
    for j in range(n):
        R = links[j][0]
        g = build.vector(_times(R.T, g), derive=False)
        mass, h, _ = composites[j]
        S_w, S_v = links[j][2], links[j][3]
        moment = _cross(h, g)
        gravity.append(build.let(-_dot(S_w, moment) - _dot(S_v, [mass * x for x in g]), False))
    return DynamicsProgram(build.assignments, mass_matrix, derivatives, gravity)


def _symmetrise(upper: sp.MatrixBase) -> sp.Matrix:
    return sp.Matrix(3, 3, lambda r, k: upper[min(r, k), max(r, k)])
