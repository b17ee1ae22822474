"""The Lagrangian dynamics of a DH robot: energies, M, Christoffel symbols, C, G.

:class:`DerivedDynamics` computes them from one description of a robot
(:class:`robolab.dh.model.DHModel`: its chain and dynamic parameters) and keeps them,
with the kinematics of :class:`robolab.dh.kinematics.DerivedKinematics`. The functions
below it (:func:`mass_matrix`, :func:`coriolis_matrix`, :func:`gravity_forces`, the
energies, :func:`equation_of_motion`, ...) take a description and return those results
with ``q_i(t)``: the dynamics methods of :class:`robolab.DHRobot` each call one of them
with the robot's ``model``.

How it scales:

* **M from small pieces**: ``M = Σ_i m_i J_vᵀJ_v + J_ωᵀ I_i J_ω`` with link i's
  Jacobian written in its own frame {i}, where it depends only on the joints
  between; each piece is simplified (:func:`robolab.dh.simplify.simplify_piece`)
  and M is symmetric by construction.
* **Christoffel symbols from ∂M/∂q computed once**: the n²(n+1)/2 derivatives
  ∂M_ab/∂q_c (a ≤ b) are cached; ``c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``
  and ``C_ij = Σ_k c_ijk q̇_k``, so Ṁ − 2C is skew-symmetric.
* **G from the potential energy**: ``G = ∂P/∂q`` with ``P = −Σ m_i gᵀ r_ci``.

That is the readable derivation: every piece is expanded into sines and cosines
and simplified, the textbook forms of the course. Its cost grows steeply with the
joints (an expanded Christoffel symbol of a 7-joint arm has hundreds of thousands
of terms), so an arm of more than ``READABLE_MAX_JOINTS`` joints whose M would
expand to more than ``READABLE_MAX_TERMS`` terms takes M, ∂M/∂q and G from the
named pieces of :mod:`robolab.dh._fast.named_dynamics` instead (composite
rigid bodies, differentiated piece by piece): each entry is simplified when its
expansion is small (``NAMED_PIECE_MAX_TERMS``) and otherwise kept as the shared nested
expression, exact all the same. The choice is :attr:`DerivedDynamics.shared`, the first
line of each readable step it replaces (``inertia_matrix``, ``inertia_derivatives``,
``christoffel``, ``gravity_vector``); :meth:`DerivedDynamics.program` is the one way to
the named pieces (also for :mod:`robolab.dh.numeric`, which compiles them). The energies
and the link shares of M stay readable for every arm. ``tests/dh/_fast/`` checks that
both routes agree.

All of it is computed with plain real symbols for q, q̇, q̈ and returned with
the joint variables ``q_i(t)`` and their derivatives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..support.progress import Progress
from ._fast.named_dynamics import DynamicsProgram, program_of
from .kinematics import DerivedKinematics
from .model import DHInertial, DHModel
from .simplify import (
    PIECE_MAX_TERMS,
    derivative,
    expanded_size,
    simplify_piece,
    simplify_piece_matrix,
    simplify_trig,
)

__all__ = [
    "NAMED_PIECE_MAX_TERMS",
    "READABLE_MAX_JOINTS",
    "READABLE_MAX_TERMS",
    "DerivedDynamics",
    "EquationOfMotion",
    "centre_of_mass_position",
    "christoffel_symbol",
    "coriolis_matrix",
    "equation_of_motion",
    "euler_lagrange_equations",
    "gravity_forces",
    "inertia_in_base_frame",
    "kinetic_energy",
    "link_kinetic_energy",
    "link_potential_energy",
    "mass_matrix",
    "potential_energy",
]

#: Arms of up to this many joints get M, C and G by the readable derivation (every
#: piece expanded and simplified); longer arms from named pieces
#: (:mod:`robolab.dh._fast.named_dynamics`), whose cost grows gently with the joints, unless
#: their M is small (``READABLE_MAX_TERMS``).
READABLE_MAX_JOINTS = 4
#: A longer arm still takes the readable route if the entries of its M, written out from
#: the named pieces, would expand to at most this many terms in all (the Puma 560: 386,
#: the Stanford arm: 135; a generic spatial 5R with full inertia tensors: 1165, the
#: Panda: 6109): then expanding is cheap and gives the compact textbook forms.
READABLE_MAX_TERMS = 600
#: An entry from named pieces is expanded and simplified only if its expansion has at
#: most this many terms (a short sum reads better than the nested form, and shows a
#: zero); simplifying longer ones costs more than the rest of a 7-joint arm.
NAMED_PIECE_MAX_TERMS = 50


class DerivedDynamics:
    """The dynamic results of one description (its chain and dynamic parameters), kept.

    Everything with the chain's internal symbols for q, q̇, q̈; :meth:`of` returns the
    one instance of a :class:`robolab.dh.model.DHModel`, kept in the memo of its
    dynamic parameters: new parameters (a setter) have new results. ``shared``
    takes M, ∂M/∂q and G from :meth:`program` instead of the readable derivation;
    unless given, it is chosen on first use: readable for up to
    ``READABLE_MAX_JOINTS`` joints, and for longer arms whose M expands to at most
    ``READABLE_MAX_TERMS`` terms.
    """

    def __init__(
        self, kinematics: DerivedKinematics, inertial: DHInertial, shared: bool | None = None
    ) -> None:
        self.kinematics = kinematics
        self.chain = kinematics.chain
        self.inertial = inertial
        self._shared = shared
        self._cache: dict[Any, Any] = {}
        self._sizes: dict[sp.Basic, int] = {}  # expanded sizes of the shared expressions

    @classmethod
    def of(cls, model: DHModel) -> DerivedDynamics:
        """Return the results of ``model`` (one object per chain and dynamic parameters)."""
        key = (cls, model.chain)
        found = model.inertial.memo.get(key)
        if found is None:
            kinematics = DerivedKinematics.of(model.chain)
            found = model.inertial.memo[key] = cls(kinematics, model.inertial)
        return found

    def _cached(self, key: Any, compute: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    @property
    def shared(self) -> bool:
        """True if M, ∂M/∂q and G come from the named pieces (see the class)."""
        if self._shared is None:
            if self.chain.dof <= READABLE_MAX_JOINTS:
                self._shared = False
            else:
                program = self.program()
                terms = sum(
                    expanded_size(program.expression(entry), self._sizes)
                    for entry in program.mass_matrix.values()
                )
                self._shared = terms > READABLE_MAX_TERMS
        return self._shared

    def program(self, values: Mapping[sp.Symbol, Any] | None = None) -> DynamicsProgram:
        """M, ∂M/∂q and G as named pieces (:mod:`robolab.dh._fast.named_dynamics`).

        The fast route of :meth:`inertia_matrix`, :meth:`inertia_derivatives`,
        :meth:`christoffel` and :meth:`gravity_vector` (when :attr:`shared`), and what
        :meth:`robolab.DHRobot.numeric` compiles. Kept, unless ``values`` put numbers in
        for symbolic parameters (then the caller keeps it).
        """
        if values:
            return program_of(self.chain, self.inertial, values)
        return self._cached("program", lambda: program_of(self.chain, self.inertial))

    def _from_program(self, named: sp.Expr) -> sp.Expr:
        """A named result written out (shared subexpressions), simplified if small."""
        program = self.program()
        return simplify_trig(program.expression(named), NAMED_PIECE_MAX_TERMS, None, self._sizes)

    def centre_position(self, i: int) -> sp.ImmutableMatrix:
        """r_ci = R_0i c_i + p_0i, reduced."""

        def compute() -> sp.ImmutableMatrix:
            R, p = self.kinematics.frames(0)[i]
            centre = self.inertial.centres_of_mass()[i - 1]
            return sp.ImmutableMatrix(simplify_piece_matrix(R * centre + p))

        return self._cached(("r_cm", i), compute)

    def inertia_in_base(self, i: int) -> sp.ImmutableMatrix:
        """R_0i I_i R_0iᵀ, reduced."""

        def compute() -> sp.ImmutableMatrix:
            R = self.kinematics.frames(0)[i][0]
            return sp.ImmutableMatrix(
                simplify_piece_matrix(R * self.inertial.inertias[i - 1] * R.T)
            )

        return self._cached(("I_cm0", i), compute)

    def link_inertia_matrix(self, i: int) -> sp.ImmutableMatrix:
        """Link i's share of M: m_i J_vᵀJ_v + J_ωᵀ I_i J_ω, Jacobians written in frame {i}."""

        def compute() -> sp.ImmutableMatrix:
            chain, n = self.chain, self.chain.dof
            c = self.inertial.centres_of_mass()[i - 1]
            linear, angular = sp.zeros(3, n), sp.zeros(3, n)
            for j in range(1, i + 1):
                k = chain.axis_frame(j)
                Rki, pki = self.kinematics.frames(k)[i - k]
                z = Rki[2, :].T  # the joint axis in frame {i}
                if chain.rows[j - 1].joint_type == "p":
                    linear[:, j - 1] = z
                    continue
                w = Rki * c + pki
                linear[:, j - 1] = simplify_piece_matrix(Rki.T * sp.Matrix([-w[1], w[0], 0]))
                angular[:, j - 1] = z
            share = self.inertial.masses[i - 1] * linear.T * linear
            share += angular.T * self.inertial.inertias[i - 1] * angular
            return _symmetric(share)

        return self._cached(("M_i", i), compute)

    def inertia_matrix(self) -> sp.ImmutableMatrix:
        """M(q), the sum of the links' shares."""

        def compute() -> sp.ImmutableMatrix:
            n = self.chain.dof
            if self.shared:
                with Progress("M(q) from named pieces", 2) as progress:
                    progress.update(0, "composite rigid bodies")
                    program = self.program()
                    progress.update(1, "writing out the entries")
                    entries = {key: self._from_program(e) for key, e in program.mass_matrix.items()}
                return sp.ImmutableMatrix(n, n, lambda a, b: entries[min(a, b), max(a, b)])
            total = sp.zeros(n, n)
            with Progress("M(q)", n + 1) as progress:
                for i in range(1, n + 1):
                    progress.update(i - 1, f"link {i} of {n}")
                    total += self.link_inertia_matrix(i)
                progress.update(n, "adding the links")
                return _symmetric(total)

        return self._cached("M", compute)

    def inertia_derivatives(self) -> dict[tuple[int, int, int], sp.Expr]:
        """∂M_ab/∂q_c (0-based), computed once for a <= b and shared by symmetry."""

        def compute() -> dict[tuple[int, int, int], sp.Expr]:
            n = self.chain.dof
            if self.shared:
                program, shared = self.program(), {}
                for a in range(n):
                    for b in range(a, n):
                        for c in range(n):
                            value = program.expression(program.derivative(a, b, c))
                            shared[a, b, c] = shared[b, a, c] = value
                return shared
            with Progress("∂M/∂q", n + 1) as progress:
                progress.update(0, "M(q)")
                M = self.inertia_matrix()
                derivatives = {}
                for c in range(n):
                    progress.update(c + 1, f"joint {c + 1} of {n}")
                    memo: dict = {}  # shared by the entries: they have common factors
                    for a in range(n):
                        for b in range(a, n):
                            value = derivative(M[a, b], self.chain.q[c], memo)
                            derivatives[a, b, c] = derivatives[b, a, c] = value
            return derivatives

        return self._cached("dM", compute)

    def christoffel(self, i: int, j: int, k: int) -> sp.Expr:
        """c_ijk (0-based) = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i), symmetric in j, k."""
        j, k = min(j, k), max(j, k)

        def compute() -> sp.Expr:
            if self.shared:
                return self._from_program(self.program().christoffel(i, j, k))
            D = self.inertia_derivatives()
            return simplify_piece((D[i, j, k] + D[i, k, j] - D[j, k, i]) / 2)

        return self._cached(("c", i, j, k), compute)

    def _christoffel_symbols(self) -> None:
        """Compute (and cache) every c_ijk, one row i of C at a time, reporting progress."""
        n = self.chain.dof
        with Progress("Christoffel symbols", n + 1) as progress:
            progress.update(0, "∂M/∂q")
            if not self.shared:
                self.inertia_derivatives()
            for i in range(n):
                progress.update(i + 1, f"row {i + 1} of {n}")
                for j in range(n):
                    for k in range(j, n):
                        self.christoffel(i, j, k)

    def coriolis_matrix(self) -> sp.ImmutableMatrix:
        """C(q, q̇) with C_ij = Σ_k c_ijk q̇_k."""

        def compute() -> sp.ImmutableMatrix:
            n, qd = self.chain.dof, self.chain.qd
            self._christoffel_symbols()
            return sp.ImmutableMatrix(
                n,
                n,
                lambda i, j: sum((self.christoffel(i, j, k) * qd[k] for k in range(n)), sp.S.Zero),
            )

        return self._cached("C", compute)

    def link_potential_energy(self, i: int) -> sp.Expr:
        """P_i = -m_i gᵀ r_ci."""

        def compute() -> sp.Expr:
            height = (self.inertial.gravity.T * self.centre_position(i))[0, 0]
            return simplify_piece(-self.inertial.masses[i - 1] * height)

        return self._cached(("P_i", i), compute)

    def potential_energy(self) -> sp.Expr:
        """P = Σ P_i."""
        return sp.Add(*[self.link_potential_energy(i) for i in range(1, self.chain.dof + 1)])

    def gravity_vector(self) -> sp.ImmutableMatrix:
        """G(q) = ∂P/∂q."""

        def compute() -> sp.ImmutableMatrix:
            n = self.chain.dof
            if self.shared:
                return sp.ImmutableMatrix([self._from_program(e) for e in self.program().gravity])
            with Progress("G(q)", n + 1) as progress:
                progress.update(0, "potential energy")
                P = self.potential_energy()
                torques = []
                for i, q in enumerate(self.chain.q, start=1):
                    progress.update(i, f"joint {i} of {n}")
                    torques.append(simplify_piece(P.diff(q)))
            return sp.ImmutableMatrix(torques)

        return self._cached("G", compute)

    def link_kinetic_energy(self, i: int) -> sp.Expr:
        """K_i = ½ q̇ᵀ M_i q̇."""

        def compute() -> sp.Expr:
            qd = sp.Matrix(self.chain.qd)
            return simplify_piece((qd.T * self.link_inertia_matrix(i) * qd)[0, 0] / 2)

        return self._cached(("K_i", i), compute)

    def kinetic_energy(self) -> sp.Expr:
        """K = Σ K_i."""
        n = self.chain.dof
        with Progress("K", n) as progress:
            terms = []
            for i in range(1, n + 1):
                progress.update(i - 1, f"link {i} of {n}")
                terms.append(self.link_kinetic_energy(i))
        return sp.Add(*terms)

    def reported(self, title: str, compute: Any) -> Any:
        """``compute()`` written with q_i(t), under one progress report (long for 6–7 joints)."""
        with Progress(title, 2) as progress:
            value = compute()
            progress.update(1, "writing it with q_i(t)")
            return self.kinematics.timed(value)


# ------------------------------------------------------------------------------------------
# what DHRobot shows: the results of a description, with q_i(t)
# ------------------------------------------------------------------------------------------


def centre_of_mass_position(model: DHModel, i: int) -> sp.Matrix:
    """Return ``r_ci = R_0i c_i + p_0i``, link i's centre of mass in {0} (:meth:`DHRobot.r_cm`)."""
    derived = DerivedDynamics.of(model)
    return derived.kinematics.timed(derived.centre_position(model.chain.check_link(i)))


def inertia_in_base_frame(model: DHModel, i: int) -> sp.Matrix:
    """Return ``R_0i I_i R_0iᵀ``, link i's inertia in the axes of {0} (:meth:`DHRobot.I_cm0`)."""
    derived = DerivedDynamics.of(model)
    return derived.kinematics.timed(derived.inertia_in_base(model.chain.check_link(i)))


def link_kinetic_energy(model: DHModel, i: int) -> sp.Expr:
    """Return ``K_i = ½ q̇ᵀ M_i q̇``, link i's share of K (:meth:`DHRobot.link_kinetic_energy`)."""
    derived = DerivedDynamics.of(model)
    return derived.kinematics.timed(derived.link_kinetic_energy(model.chain.check_link(i)))


def kinetic_energy(model: DHModel) -> sp.Expr:
    """Return ``K = Σ K_i = ½ q̇ᵀ M(q) q̇`` (:meth:`DHRobot.kinetic_energy`)."""
    derived = DerivedDynamics.of(model)
    return derived.reported("K", derived.kinetic_energy)


def link_potential_energy(model: DHModel, i: int) -> sp.Expr:
    """Return ``P_i = -m_i gᵀ r_ci`` (:meth:`DHRobot.link_potential_energy`)."""
    derived = DerivedDynamics.of(model)
    return derived.kinematics.timed(derived.link_potential_energy(model.chain.check_link(i)))


def potential_energy(model: DHModel) -> sp.Expr:
    """Return ``P = Σ P_i`` (:meth:`DHRobot.potential_energy`)."""
    derived = DerivedDynamics.of(model)
    return derived.kinematics.timed(derived.potential_energy())


def mass_matrix(model: DHModel) -> sp.Matrix:
    """Return M(q), n×n (:meth:`DHRobot.mass_matrix`; Moro's ``inertia_matrix``).

    The readable derivation (:meth:`DerivedDynamics.inertia_matrix`) for short or light
    arms, the named pieces of :mod:`robolab.dh._fast.named_dynamics` for long ones.

    Examples
    --------
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, l1
    >>> pendulum = DHRobot((l1, 0, 0, q1))
    >>> pendulum.cm_positions = [(0, 0, 0)]
    >>> mass_matrix(pendulum.model)
    Matrix([[I_zz1 + l_1**2*m_1]])
    """
    derived = DerivedDynamics.of(model)
    return derived.reported("M(q)", derived.inertia_matrix)


def christoffel_symbol(model: DHModel, i: int, j: int, k: int, M: Any = None) -> sp.Expr:
    """Return ``c_ijk`` (1..n) of M(q), or of a given M (:meth:`DHRobot.christoffel_symbols`)."""
    chain, derived = model.chain, DerivedDynamics.of(model)
    i, j, k = (chain.check_link(x, "joint") for x in (i, j, k))
    timed = derived.kinematics.timed
    if M is None or sp.Matrix(M) == mass_matrix(model):
        return timed(derived.christoffel(i - 1, j - 1, k - 1))
    M = sp.Matrix(M).xreplace(chain.to_internal)
    q = chain.q
    value = (
        M[i - 1, j - 1].diff(q[k - 1])
        + M[i - 1, k - 1].diff(q[j - 1])
        - M[j - 1, k - 1].diff(q[i - 1])
    ) / 2
    return timed(simplify_piece(value))


def coriolis_matrix(model: DHModel) -> sp.Matrix:
    """Return C(q, q̇), ``C_ij = Σ_k c_ijk q̇_k`` (:meth:`DHRobot.coriolis_matrix`)."""
    derived = DerivedDynamics.of(model)
    return derived.reported("C(q, q̇)", derived.coriolis_matrix)


def gravity_forces(model: DHModel) -> sp.Matrix:
    """Return ``G(q) = ∂P/∂q``, n×1 (:meth:`DHRobot.gravity_forces`; Moro's ``gravity_vector``).

    Examples
    --------
    >>> from robolab import DHRobot
    >>> from robolab.symbols import q1, l1, g
    >>> pendulum = DHRobot((l1, 0, 0, q1))
    >>> pendulum.cm_positions = [(0, 0, 0)]
    >>> pendulum.gravity = (0, -g, 0)
    >>> gravity_forces(pendulum.model)
    Matrix([[g*l_1*m_1*cos(q_1(t))]])
    """
    derived = DerivedDynamics.of(model)
    return derived.reported("G(q)", derived.gravity_vector)


def equation_of_motion(model: DHModel) -> EquationOfMotion:
    """Return ``M(q) q̈ + C(q, q̇) q̇ + G(q) = τ``, unevaluated (:meth:`DHRobot.dynamic_model`)."""
    chain = model.chain
    qd = sp.ImmutableMatrix([row.variable.diff(chain.time) for row in chain.rows])
    qdd = sp.ImmutableMatrix([row.variable.diff(chain.time, 2) for row in chain.rows])
    M = sp.ImmutableMatrix(mass_matrix(model))
    C = sp.ImmutableMatrix(coriolis_matrix(model))
    G = sp.ImmutableMatrix(gravity_forces(model))
    left = sp.MatAdd(sp.MatMul(M, qdd), sp.MatMul(C, qd), G)
    return EquationOfMotion(left, sp.ImmutableMatrix(_torque_symbols(chain.dof)), evaluate=False)


def euler_lagrange_equations(model: DHModel) -> list[sp.Eq]:
    """Return ``d/dt(∂L/∂q̇_i) − ∂L/∂q_i = τ_i`` (:meth:`DHRobot.euler_lagrange_equations`)."""
    chain, derived = model.chain, DerivedDynamics.of(model)
    q, qd, qdd, n = chain.q, chain.qd, chain.qdd, chain.dof
    equations = []
    with Progress("Euler–Lagrange equations", n + 1) as progress:
        progress.update(0, "the Lagrangian")
        L = derived.kinetic_energy() - derived.potential_energy()
        for i, tau in enumerate(_torque_symbols(n)):
            progress.update(i + 1, f"joint {i + 1} of {n}")
            momentum = L.diff(qd[i])
            rate = sum(
                (momentum.diff(q[k]) * qd[k] + momentum.diff(qd[k]) * qdd[k] for k in range(n)),
                sp.S.Zero,
            )
            left = simplify_piece(rate - L.diff(q[i]))
            equations.append(sp.Eq(derived.kinematics.timed(left), tau))
    return equations


class EquationOfMotion(sp.Equality):
    r"""``M(q) q̈ + C(q, q̇) q̇ + G(q) = τ``: a SymPy ``Eq`` that prints its terms in this order.

    SymPy's LaTeX printer sorts the terms of a sum (G would come first); this
    equation prints the terms of its left side in the order they were given,
    in LaTeX (also through :func:`robolab.to_latex`; one term per line, since
    on one line the equation of a 2-joint arm is already wider than a page),
    in pretty text and in ``str``. Otherwise it is an ordinary ``sympy.Eq``: ``.lhs``, ``.rhs``,
    ``.lhs.doit()``, ``subs`` all work.

    Examples
    --------
    >>> x, y = sp.symbols("x y")
    >>> v = sp.ImmutableMatrix([x, y])
    >>> equation = EquationOfMotion(
    ...     sp.MatAdd(sp.MatMul(sp.ImmutableMatrix([[2, 0], [0, 3]]), v), v), v, evaluate=False
    ... )
    >>> isinstance(equation, sp.Eq)
    True
    >>> print(sp.latex(equation)[:50])
    \begin{aligned} & \left[\begin{matrix}2 & 0\\0 & 3
    """

    def _terms(self) -> tuple[sp.Basic, ...]:
        return self.lhs.args if isinstance(self.lhs, sp.MatAdd) else (self.lhs,)

    def _latex(self, printer: Any) -> str:
        """One term per line (an ``aligned`` block): on one line it is wider than a page."""
        lines = r" \\ &+ ".join(printer._print(term) for term in self._terms())
        return rf"\begin{{aligned}} & {lines} = {printer._print(self.rhs)} \end{{aligned}}"

    def _sympystr(self, printer: Any) -> str:
        left = " + ".join(printer._print(term) for term in self._terms())
        return f"Eq({left}, {printer._print(self.rhs)})"


def _torque_symbols(n: int) -> sp.Matrix:
    return sp.Matrix([sp.Symbol(f"tau_{i}", real=True) for i in range(1, n + 1)])


def _symmetric(matrix: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Simplify the upper triangle and mirror it: symmetric by construction."""
    n = matrix.rows
    out = sp.zeros(n, n)
    memo: dict = {}
    for a in range(n):
        for b in range(a, n):
            out[a, b] = out[b, a] = simplify_trig(matrix[a, b], PIECE_MAX_TERMS, memo)
    return sp.ImmutableMatrix(out)
