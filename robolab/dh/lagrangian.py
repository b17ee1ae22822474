"""The Lagrangian dynamics of a DH robot: energies, M, Christoffel symbols, C, G.

:class:`LagrangianDynamics` holds the dynamics half of :class:`robolab.DHRobot`
(which inherits it); the kinematics and the parameters stay in
:mod:`robolab.dh.robot`. The methods use the robot's kinematics
(``_chain``, ``_axis_frame``), parameters (``_masses``, ``_centres()``,
``_inertias``, ``_gravity``) and helpers (``_cache``, ``_timed``, ``_link``).

How it scales:

* **M from small pieces**: ``M = Σ_i m_i J_vᵀJ_v + J_ωᵀ I_i J_ω`` with link i's
  Jacobian written in its own frame {i}, where it depends only on the joints
  between; each piece is simplified (:func:`robolab.dh.simplify.simplify_piece`)
  and M is symmetric by construction.
* **Christoffel symbols from ∂M/∂q computed once**: the n²(n+1)/2 derivatives
  ∂M_ab/∂q_c (a ≤ b) are cached; ``c_ijk = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``
  and ``C_ij = Σ_k c_ijk q̇_k``, so Ṁ − 2C is skew-symmetric.
* **G from the potential energy**: ``G = ∂P/∂q`` with ``P = −Σ m_i gᵀ r_ci``.

All of it is computed with plain real symbols for q, q̇, q̈ and returned with
the joint variables ``q_i(t)`` and their derivatives.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..support.progress import Progress
from .simplify import (
    PIECE_MAX_TERMS,
    derivative,
    simplify_piece,
    simplify_piece_matrix,
    simplify_trig,
)

__all__ = ["EquationOfMotion", "LagrangianDynamics"]


class LagrangianDynamics:
    """The Lagrangian dynamics methods of :class:`robolab.DHRobot` (Moro's names)."""

    # ----------------------------------------------------------------------------------
    # dynamics (internal symbols; see the public methods below)
    # ----------------------------------------------------------------------------------

    def _link_inertia_matrix(self, i: int) -> sp.ImmutableMatrix:
        """Link i's share of M: m_i J_vᵀJ_v + J_ωᵀ I_i J_ω, Jacobians written in frame {i}."""

        def compute() -> sp.ImmutableMatrix:
            c = self._centres()[i - 1]
            linear, angular = sp.zeros(3, self._n), sp.zeros(3, self._n)
            for j in range(1, i + 1):
                k = self._axis_frame(j)
                Rki, pki = self._chain(k)[i - k]
                z = Rki[2, :].T  # the joint axis in frame {i}
                if self._rows[j - 1].joint_type == "p":
                    linear[:, j - 1] = z
                    continue
                w = Rki * c + pki
                linear[:, j - 1] = simplify_piece_matrix(Rki.T * sp.Matrix([-w[1], w[0], 0]))
                angular[:, j - 1] = z
            share = self._masses[i - 1] * linear.T * linear
            share += angular.T * self._inertias[i - 1] * angular
            return _symmetric(share)

        return self._cache(self._dynamics, ("M_i", i), compute)

    def _inertia_matrix(self) -> sp.ImmutableMatrix:
        def compute() -> sp.ImmutableMatrix:
            n = self._n
            total = sp.zeros(n, n)
            with Progress("M(q)", n + 1) as progress:
                for i in range(1, n + 1):
                    progress.update(i - 1, f"link {i} of {n}")
                    total += self._link_inertia_matrix(i)
                progress.update(n, "adding the links")
                return _symmetric(total)

        return self._cache(self._dynamics, "M", compute)

    def _inertia_derivatives(self) -> dict[tuple[int, int, int], sp.Expr]:
        """∂M_ab/∂q_c (0-based), computed once for a <= b and shared by symmetry."""

        def compute() -> dict[tuple[int, int, int], sp.Expr]:
            n = self._n
            with Progress("∂M/∂q", n + 1) as progress:
                progress.update(0, "M(q)")
                M = self._inertia_matrix()
                derivatives = {}
                for c in range(n):
                    progress.update(c + 1, f"joint {c + 1} of {n}")
                    memo: dict = {}  # shared by the entries: they have common factors
                    for a in range(n):
                        for b in range(a, n):
                            value = derivative(M[a, b], self._q[c], memo)
                            derivatives[a, b, c] = derivatives[b, a, c] = value
            return derivatives

        return self._cache(self._dynamics, "dM", compute)

    def _christoffel(self, i: int, j: int, k: int) -> sp.Expr:
        """c_ijk (0-based) = ½(∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i), symmetric in j, k."""
        j, k = min(j, k), max(j, k)

        def compute() -> sp.Expr:
            D = self._inertia_derivatives()
            return simplify_piece((D[i, j, k] + D[i, k, j] - D[j, k, i]) / 2)

        return self._cache(self._dynamics, ("c", i, j, k), compute)

    def _christoffel_symbols(self) -> None:
        """Compute (and cache) every c_ijk, one row i of C at a time, reporting progress."""
        n = self._n
        with Progress("Christoffel symbols", n + 1) as progress:
            progress.update(0, "∂M/∂q")
            self._inertia_derivatives()
            for i in range(n):
                progress.update(i + 1, f"row {i + 1} of {n}")
                for j in range(n):
                    for k in range(j, n):
                        self._christoffel(i, j, k)

    def _coriolis_matrix(self) -> sp.ImmutableMatrix:
        def compute() -> sp.ImmutableMatrix:
            n = self._n
            self._christoffel_symbols()
            return sp.ImmutableMatrix(
                n,
                n,
                lambda i, j: sum(
                    (self._christoffel(i, j, k) * self._qd[k] for k in range(n)), sp.S.Zero
                ),
            )

        return self._cache(self._dynamics, "C", compute)

    def _link_potential_energy(self, i: int) -> sp.Expr:
        def compute() -> sp.Expr:
            height = (self._gravity.T * self._centre_position(i))[0, 0]
            return simplify_piece(-self._masses[i - 1] * height)

        return self._cache(self._dynamics, ("P_i", i), compute)

    def _potential_energy(self) -> sp.Expr:
        return sp.Add(*[self._link_potential_energy(i) for i in range(1, self._n + 1)])

    def _gravity_vector(self) -> sp.ImmutableMatrix:
        def compute() -> sp.ImmutableMatrix:
            n = self._n
            with Progress("G(q)", n + 1) as progress:
                progress.update(0, "potential energy")
                P = self._potential_energy()
                torques = []
                for i, q in enumerate(self._q, start=1):
                    progress.update(i, f"joint {i} of {n}")
                    torques.append(simplify_piece(P.diff(q)))
            return sp.ImmutableMatrix(torques)

        return self._cache(self._dynamics, "G", compute)

    def _link_kinetic_energy(self, i: int) -> sp.Expr:
        def compute() -> sp.Expr:
            qd = sp.Matrix(self._qd)
            return simplify_piece((qd.T * self._link_inertia_matrix(i) * qd)[0, 0] / 2)

        return self._cache(self._dynamics, ("K_i", i), compute)

    def _reported(self, title: str, compute: Any) -> Any:
        """``compute()`` written with q_i(t), under one progress report (long for 6–7 joints)."""
        with Progress(title, 2) as progress:
            value = compute()
            progress.update(1, "writing it with q_i(t)")
            return self._timed(value)

    # ----------------------------------------------------------------------------------
    # dynamics (public, Moro's names)
    # ----------------------------------------------------------------------------------

    def link_kinetic_energy(self, i: int) -> sp.Expr:
        """Return ``K_i = ½ m_i v_ciᵀ v_ci + ½ ω_iᵀ R_0i I_i R_0iᵀ ω_i`` (a scalar)."""
        return self._timed(self._link_kinetic_energy(self._link(i)))

    def _kinetic_energy(self) -> sp.Expr:
        n = self._n
        with Progress("K", n) as progress:
            terms = []
            for i in range(1, n + 1):
                progress.update(i - 1, f"link {i} of {n}")
                terms.append(self._link_kinetic_energy(i))
        return sp.Add(*terms)

    def kinetic_energy(self) -> sp.Expr:
        """Return the total kinetic energy ``K = Σ K_i = ½ q̇ᵀ M(q) q̇``."""
        return self._reported("K", self._kinetic_energy)

    def link_potential_energy(self, i: int) -> sp.Expr:
        """Return ``P_i = -m_i gᵀ r_ci`` (gravity g in the base frame)."""
        return self._timed(self._link_potential_energy(self._link(i)))

    def potential_energy(self) -> sp.Expr:
        """Return the total potential energy ``P = Σ P_i``."""
        return self._timed(self._potential_energy())

    def lagrangian(self) -> sp.Expr:
        """Return the Lagrangian ``L = K - P``."""
        return self.kinetic_energy() - self.potential_energy()

    def inertia_matrix(self) -> sp.Matrix:
        """Return the n×n inertia (mass) matrix M(q).

        ``M = Σ_i m_i J_v,iᵀ J_v,i + J_ω,iᵀ R_0i I_i R_0iᵀ J_ω,i``, each link's share
        computed in its own frame {i} and simplified before the sum.

        Examples
        --------
        A pendulum of length l with its mass at the tip, ``M = m l² + I_zz``:

        >>> from robolab import DHRobot

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.inertia_matrix()
        Matrix([[I_zz1 + l_1**2*m_1]])
        """
        return self._reported("M(q)", self._inertia_matrix)

    def christoffel_symbols(self, i: int, j: int, k: int, M: Any = None) -> sp.Expr:
        """Return the Christoffel symbol of the first kind c_ijk (indices 1..n).

        ``c_ijk = ½ (∂M_ij/∂q_k + ∂M_ik/∂q_j − ∂M_jk/∂q_i)``, from the cached
        derivatives of the robot's M; pass ``M`` to use another inertia matrix.
        The first index is the equation (row of C), as in Moro; Spong writes
        the same symbol c_jki.

        Examples
        --------
        >>> from robolab import DHRobot
        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
        >>> arm.christoffel_symbols(1, 1, 2)
        -l_1*l_2*m_2*sin(q_2(t))
        """
        i, j, k = (self._link(x, "joint") for x in (i, j, k))
        if M is None or sp.Matrix(M) == self.inertia_matrix():
            return self._timed(self._christoffel(i - 1, j - 1, k - 1))
        M = sp.Matrix(M).xreplace(self._to_internal)
        q = self._q
        value = (
            M[i - 1, j - 1].diff(q[k - 1])
            + M[i - 1, k - 1].diff(q[j - 1])
            - M[j - 1, k - 1].diff(q[i - 1])
        ) / 2
        return self._timed(simplify_piece(value))

    def coriolis_matrix(self) -> sp.Matrix:
        """Return C(q, q̇) with ``C_ij = Σ_k c_ijk q̇_k``; Ṁ − 2C is skew-symmetric.

        >>> from robolab import DHRobot

        >>> from robolab.symbols import q1, q2, l1, l2
        >>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
        >>> arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
        >>> arm.coriolis_matrix()[1, 0]
        l_1*l_2*m_2*sin(q_2(t))*Derivative(q_1(t), t)
        """
        return self._reported("C(q, q̇)", self._coriolis_matrix)

    def gravity_vector(self) -> sp.Matrix:
        """Return the gravity torques ``G(q) = ∂P/∂q`` (n×1), P the potential energy.

        >>> from robolab import DHRobot

        >>> from robolab.symbols import q1, l1, g
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.gravity = (0, -g, 0)
        >>> pendulum.gravity_vector()
        Matrix([[g*l_1*m_1*cos(q_1(t))]])
        """
        return self._reported("G(q)", self._gravity_vector)

    def _torque_symbols(self) -> sp.Matrix:
        return sp.Matrix([sp.Symbol(f"tau_{i}", real=True) for i in range(1, self._n + 1)])

    def dynamic_model(self) -> sp.Eq:
        """Return the unevaluated equation ``M(q) q̈ + C(q, q̇) q̇ + G(q) = τ``.

        The left side is a matrix expression (``.lhs.doit()`` evaluates it);
        the right side holds the torque symbols ``tau_i`` of :mod:`robolab.symbols`.
        It is a SymPy ``Eq`` (an :class:`EquationOfMotion`) that prints its
        three terms in the textbook order M q̈, C q̇, G, in LaTeX as in text.

        >>> from robolab import DHRobot

        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.dynamic_model().rhs
        Matrix([[tau_1]])
        """
        qd = sp.ImmutableMatrix([row.variable.diff(self._time) for row in self._rows])
        qdd = sp.ImmutableMatrix([row.variable.diff(self._time, 2) for row in self._rows])
        M = sp.ImmutableMatrix(self.inertia_matrix())
        C = sp.ImmutableMatrix(self.coriolis_matrix())
        G = sp.ImmutableMatrix(self.gravity_vector())
        left = sp.MatAdd(sp.MatMul(M, qdd), sp.MatMul(C, qd), G)
        return EquationOfMotion(left, sp.ImmutableMatrix(self._torque_symbols()), evaluate=False)

    def dynamic_model_matrix_form(self) -> sp.Eq:
        r"""Return the matrix equation of motion; the same as :meth:`dynamic_model`.

        >>> from robolab import DHRobot, to_latex
        >>> from robolab.symbols import q1, l1
        >>> pendulum = DHRobot((l1, 0, 0, q1))
        >>> pendulum.cm_positions = [(0, 0, 0)]
        >>> pendulum.gravity = (0, -9.81, 0)
        >>> text = to_latex(pendulum.dynamic_model_matrix_form())
        >>> for line in text.split(r" \\ "):  # one term per line
        ...     print(line[:50])
        \begin{aligned} & \left[\begin{matrix}I_{zz1} + l_
        &+ \left[\begin{matrix}0\end{matrix}\right] \left[
        &+ \left[\begin{matrix}9.81 l_{1} m_{1} \cos{\left
        >>> M_term, G_term = text.index("I_{zz1}"), text.index(r"9.81 l_{1} m_{1}")
        >>> M_term < G_term  # SymPy alone would print G first
        True
        """
        return self.dynamic_model()

    def euler_lagrange_equations(self) -> list[sp.Eq]:
        """Return ``d/dt(∂L/∂q̇_i) − ∂L/∂q_i = τ_i``, one equation per joint.

        Derived from the Lagrangian itself (chain rule for d/dt), so they can be
        compared with the matrix form ``M q̈ + C q̇ + G``.
        """
        q, qd, qdd = self._q, self._qd, self._qdd
        n = self._n
        equations = []
        with Progress("Euler–Lagrange equations", n + 1) as progress:
            progress.update(0, "the Lagrangian")
            L = self._kinetic_energy() - self._potential_energy()
            for i, tau in enumerate(self._torque_symbols()):
                progress.update(i + 1, f"joint {i + 1} of {n}")
                momentum = L.diff(qd[i])
                rate = sum(
                    (momentum.diff(q[k]) * qd[k] + momentum.diff(qd[k]) * qdd[k] for k in range(n)),
                    sp.S.Zero,
                )
                left = simplify_piece(rate - L.diff(q[i]))
                equations.append(sp.Eq(self._timed(left), tau))
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


def _symmetric(matrix: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Simplify the upper triangle and mirror it: symmetric by construction."""
    n = matrix.rows
    out = sp.zeros(n, n)
    memo: dict = {}
    for a in range(n):
        for b in range(a, n):
            out[a, b] = out[b, a] = simplify_trig(matrix[a, b], PIECE_MAX_TERMS, memo)
    return sp.ImmutableMatrix(out)
