"""Derivations of a DH robot as data: forward kinematics and Lagrangian dynamics step by step.

Each function returns a :class:`robolab.Derivation`, an ordered tuple of
:class:`robolab.Step` (title, one or two sentences, a SymPy equation, the
symbols it introduces), both defined beside this module in :mod:`robolab.dh.derivation`.
A reveal widget shows one step per click, a static rendering shows them all, and the
tests check that the steps are consistent (the sum of the link energies is K, M is
symmetric, Ṁ − 2C is skew-symmetric).

The expressions are the robot's own results (:class:`robolab.DHRobot`), with
joint variables ``q_i(t)``.

Examples
--------
>>> from robolab import DHRobot
>>> from robolab.symbols import q1, q2, l1, l2
>>> arm = DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2))
>>> [step.title for step in arm.forward_kinematics_derivation()][1:]
['Link transform A_1', 'Link transform A_2', 'Pose of frame {1}', 'Pose of frame {2}']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from sympy.printing.pretty.stringpict import prettyForm, stringPict

from ..spatial.transforms import dh_modified, dh_standard
from ..support.progress import Progress
from .derivation import Derivation, Step, to_latex
from .gathered_equation import GatheredEquation
from .simplify import simplify_piece as simplify_trig
from .simplify import simplify_piece_matrix as simplify_matrix

__all__ = [
    "GatheredEquation",
    "MatrixFormEquation",
    "forward_kinematics_derivation",
    "lagrangian_derivation",
]


class MatrixFormEquation(sp.Equality):
    r"""A matrix equation printed short, in named matrices, with each matrix on a line below.

    The equations of motion of a planar 2R arm with M, C and G written out side by side are
    one line of more than 1000 px. This equation prints them as ``M q̈ + C q̇ + G = τ``, then
    ``M = […]``, ``C = […]`` and ``G = […]`` one under the other (an ``aligned`` block in
    LaTeX, stacked lines in text), so that each line is only as wide as one matrix. Only the
    printing changes: ``.lhs`` and ``.rhs`` are the equation as given (for the derivation, the
    robot's :meth:`~robolab.DHRobot.dynamic_model` with every matrix in full), ``short`` is
    the same equation in matrix symbols and ``definitions`` the ``(symbol, matrix)`` pairs.

    Examples
    --------
    >>> from robolab import to_latex
    >>> x, y = sp.symbols("x y")
    >>> A, v = sp.ImmutableMatrix([[2, x], [0, 3]]), sp.ImmutableMatrix([x, y])
    >>> A_, v_, b_ = (sp.MatrixSymbol(name, 2, k) for name, k in (("A", 2), ("v", 1), ("b", 1)))
    >>> equation = MatrixFormEquation(
    ...     sp.MatMul(A, v), sp.ImmutableMatrix([1, 2]), sp.Eq(sp.MatMul(A_, v_), b_),
    ...     [(A_, A), (v_, v)],
    ... )
    >>> equation.lhs == sp.MatMul(A, v), equation.short.lhs == sp.MatMul(A_, v_)
    (True, True)
    >>> for line in to_latex(equation).split(r" \\ "):
    ...     print(line)
    \begin{aligned} A v &= b = \left[\begin{matrix}1\\2\end{matrix}\right]
    A &= \left[\begin{matrix}2 & x\\0 & 3\end{matrix}\right]
    v &= \left[\begin{matrix}x\\y\end{matrix}\right] \end{aligned}
    """

    def __new__(
        cls, lhs: Any, rhs: Any, short: sp.Eq, definitions: Any = (), **options: Any
    ) -> MatrixFormEquation:
        pairs = sp.Tuple(*(sp.Tuple(symbol, matrix) for symbol, matrix in definitions))
        return sp.Basic.__new__(cls, sp.sympify(lhs), sp.sympify(rhs), short, pairs)

    @property
    def short(self) -> sp.Eq:
        """The equation in matrix symbols, ``M q̈ + C q̇ + G = τ``."""
        return self.args[2]

    @property
    def definitions(self) -> tuple[tuple[Any, Any], ...]:
        """The ``(symbol, matrix)`` pairs printed under the short equation, in order."""
        return tuple((symbol, matrix) for symbol, matrix in self.args[3])

    def _terms(self) -> tuple[Any, ...]:
        left = self.short.lhs
        return left.args if isinstance(left, sp.MatAdd) else (left,)  # in the order given

    def _latex(self, printer: Any) -> str:
        short = " + ".join(printer._print(term) for term in self._terms())
        lines = [f"{short} &= {printer._print(self.short.rhs)} = {printer._print(self.rhs)}"]
        lines += [f"{printer._print(s)} &= {printer._print(m)}" for s, m in self.definitions]
        body = r" \\ ".join(lines)
        return rf"\begin{{aligned}} {body} \end{{aligned}}"

    def _pretty(self, printer: Any) -> prettyForm:
        terms = [printer._print(_in_text(term)) for term in self._terms()]
        short = prettyForm(*stringPict.next(*_joined(terms)))
        rows = [
            prettyForm(
                *stringPict.next(
                    short,
                    " = ",
                    printer._print(_in_text(self.short.rhs)),
                    " = ",
                    printer._print(self.rhs),
                )
            )
        ]
        rows += [
            prettyForm(*stringPict.next(printer._print(s), " = ", printer._print(m)))
            for s, m in self.definitions
        ]
        width = max(row.width() for row in rows)  # stack() centres: pad on the right
        rows = [prettyForm(*stringPict.next(row, " " * (width - row.width()))) for row in rows]
        return prettyForm(*stringPict.stack(*rows))


_TEXT_NAMES = {r"\ddot{q}": "q̈", r"\dot{q}": "q̇", r"\tau": "τ"}


def _in_text(expression: Any) -> Any:
    """The short equation's matrix symbols with their text names: ``\\dot{q}`` as q̇."""
    return expression.xreplace(
        {
            symbol: sp.MatrixSymbol(_TEXT_NAMES[symbol.name], *symbol.shape)
            for symbol in expression.atoms(sp.MatrixSymbol)
            if symbol.name in _TEXT_NAMES
        }
    )


def _joined(items: list[Any]) -> list[Any]:
    """``items`` with ``" + "`` between them."""
    return [x for item in items for x in (" + ", item)][1:]


def _matrix_symbol(name: str, rows: int, cols: int) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, rows, cols)


def _eq(left: Any, right: Any) -> sp.Eq:
    return sp.Eq(left, right, evaluate=False)


def forward_kinematics_derivation(robot: Any) -> Derivation:
    """Return the forward kinematics of ``robot`` step by step.

    Steps: the general link transform of the convention, each link transform
    ``A_i = T_{i-1,i}`` with the row's numbers, then the poses
    ``T_0i = T_0,i-1 A_i`` one product at a time, and the end-effector pose
    ``T_0n · tool`` when there is a tool.

    Parameters
    ----------
    robot : DHRobot

    Returns
    -------
    Derivation
    """
    a, alpha, d, theta = sp.symbols("a_i alpha_i d_i theta_i", real=True)
    A = sp.MatrixSymbol("A_i", 4, 4)
    if robot.convention == "standard":
        general = dh_standard(a, alpha, d, theta)
        formula = r"$A_i = T_{i-1,i} = R_z(\theta_i)\,T_z(d_i)\,T_x(a_i)\,R_x(\alpha_i)$"
        rule = "Standard DH (Spong, Corke, Moro)"
    else:
        general = dh_modified(a, alpha, d, theta)
        formula = r"$A_i = T_{i-1,i} = R_x(\alpha_{i-1})\,T_x(a_{i-1})\,R_z(\theta_i)\,T_z(d_i)$"
        rule = "Modified DH (Craig), with a and α of the row meaning $a_{i-1}$, $α_{i-1}$"
    steps = [Step("Link transform", f"{rule}: {formula}.", _eq(A, general), (A,))]
    for i, transform in enumerate(robot.Ts, start=1):
        symbol = _matrix_symbol(f"A_{i}", 4, 4)
        a_i, alpha_i, d_i, theta_i = robot.dh_parameters[i - 1]
        steps.append(
            Step(
                f"Link transform A_{i}",
                f"Row {i} of the table: $a = {to_latex(a_i)}$, $\\alpha = {to_latex(alpha_i)}$, "
                f"$d = {to_latex(d_i)}$, $\\theta = {to_latex(theta_i)}$.",
                _eq(symbol, transform),
                (symbol,),
            )
        )
    for i in range(1, robot.n_joints + 1):
        symbol = _matrix_symbol(f"T_{{0{i}}}", 4, 4)
        explanation = (
            "The first link transform is the pose of frame {1} in the base frame {0}."
            if i == 1
            else f"$T_{{0{i}}} = T_{{0{i - 1}}} A_{i}$; rotations about parallel z axes add up."
        )
        steps.append(
            Step(f"Pose of frame {{{i}}}", explanation, _eq(symbol, robot.T_i0(i)), (symbol,))
        )
    if robot.tool != sp.eye(4):
        symbol = _matrix_symbol("T", 4, 4)
        steps.append(
            Step(
                "End-effector pose",
                f"The constant tool transform follows frame {{{robot.n_joints}}}: "
                f"$T = T_{{0{robot.n_joints}}} T_{{n,ee}}$.",
                _eq(symbol, robot.T),
                (symbol,),
            )
        )
    return Derivation(f"Forward kinematics of {robot.name}", steps)


def lagrangian_derivation(robot: Any) -> Derivation:
    """Return the Lagrangian dynamics of ``robot`` step by step.

    Steps, in order: each link's centre of mass r_ci and Jacobian J_ci; each
    link's kinetic and potential energy; K, P and the Lagrangian L = K − P;
    every entry M_jk (j <= k) with the links it comes from, and M; every
    non-zero Christoffel symbol c_ijk (j <= k, c_ikj = c_ijk) with its
    defining formula; C; G; the equation of motion M q̈ + C q̇ + G = τ; and the
    checks: M symmetric, q̇ᵀMq̇ = 2K (positive definite), Ṁ − 2C skew-symmetric.

    Parameters
    ----------
    robot : DHRobot
        With centres of mass set (the other parameters may be symbolic).

    Returns
    -------
    Derivation
    """
    n = robot.n_joints
    q, qd = robot.qs, [robot.q_dot(i) for i in range(1, n + 1)]
    with Progress("Lagrangian derivation", 6) as progress:
        progress.update(0, "centres of mass and Jacobians")
        steps = _link_steps(robot)
        progress.update(1, "energies and the Lagrangian")
        steps += _energy_steps(robot, qd)
        progress.update(2, "inertia matrix")
        M = robot.mass_matrix()
        steps += _inertia_steps(robot, M)
        progress.update(3, "Christoffel symbols")
        christoffel, others = _christoffel_steps(robot)
        steps += christoffel
        progress.update(4, "C, G and the equations of motion")
        C_symbol, G_symbol = _matrix_symbol("C", n, n), _matrix_symbol("G", n, 1)
        C, G = robot.coriolis_matrix(), robot.gravity_forces()
        steps += [
            Step(
                "Coriolis matrix",
                f"$C_{{ij}} = \\sum_k c_{{ijk}} \\dot q_k${others}.",
                _eq(C_symbol, C),
                (C_symbol,),
            ),
            Step(
                "Gravity vector",
                "$G_i = \\partial P / \\partial q_i$.",
                _eq(G_symbol, G),
                (G_symbol,),
            ),
            Step(
                "Equations of motion",
                "Lagrange's equations $\\frac{d}{dt} \\partial L/\\partial \\dot q - \\partial L/"
                "\\partial q = \\tau$ in matrix form, with M, C and G of the steps above.",
                _equations_of_motion(robot, M, C, G),
                tuple(sp.Symbol(f"tau_{i}", real=True) for i in range(1, n + 1)),
            ),
        ]
        progress.update(5, "checks")
        kinetic = next(step for step in steps if step.title == "Kinetic energy").expression.rhs
        steps += _property_checks(robot, M, C, kinetic, q, qd)
    return Derivation(f"Lagrangian dynamics of {robot.name}", steps)


def _equations_of_motion(
    robot: Any, M: sp.MatrixBase, C: sp.MatrixBase, G: sp.MatrixBase
) -> MatrixFormEquation:
    """``M q̈ + C q̇ + G = τ`` (the robot's :meth:`dynamic_model`), then M, C and G below it."""
    n = robot.n_joints
    model = robot.dynamic_model()
    names = [_matrix_symbol(name, n, cols) for name, cols in (("M", n), ("C", n), ("G", 1))]
    qdd, qd, tau = (_matrix_symbol(name, n, 1) for name in (r"\ddot{q}", r"\dot{q}", r"\tau"))
    short = sp.MatAdd(sp.MatMul(names[0], qdd), sp.MatMul(names[1], qd), names[2], evaluate=False)
    return MatrixFormEquation(
        model.lhs,
        model.rhs,
        _eq(short, tau),
        zip(
            names,
            (sp.ImmutableMatrix(M), sp.ImmutableMatrix(C), sp.ImmutableMatrix(G)),
            strict=True,
        ),
    )


def _link_steps(robot: Any) -> list[Step]:
    """Centre of mass r_ci and Jacobian J_ci of every link."""
    n = robot.n_joints
    steps: list[Step] = []
    axis = "z_{j-1}, o_{j-1}" if robot.convention == "standard" else "z_j, o_j"
    for i in range(1, n + 1):
        r = _matrix_symbol(f"r_{{c{i}}}", 3, 1)
        steps.append(
            Step(
                f"Centre of mass of link {i}",
                f"$r_{{c{i}}} = T_{{0{i}}} [c_{i}; 1]$: the centre of mass given in frame {{{i}}} "
                "written in the base frame.",
                _eq(r, robot.r_cm(i)),
                (r,),
            )
        )
        J = _matrix_symbol(f"J_{{c{i}}}", 6, n)
        later = list(range(i + 1, n + 1))
        unmoved = (
            ""
            if not later
            else f"; {_numbered(later, 'joint')} {_verb(later, 'does', 'do')} not move link {i}, "
            f"so {_verb(later, 'its column is', 'their columns are')} zero"
        )
        steps.append(
            Step(
                f"Jacobian of link {i}",
                f"Rows $[v; \\omega]$: column j is $[z \\times (r_{{c{i}}} - o);\\ z]$ for a "
                f"revolute joint (axis ${axis}$) and $[z;\\ 0]$ for a prismatic one{unmoved}.",
                _eq(J, robot.J_cm_i(i)),
                (J,),
            )
        )
    return steps


def _energy_steps(robot: Any, qd: list[sp.Expr]) -> list[Step]:
    """Each link's K_i and P_i, then K, P and L = K − P, gathered by joint velocities."""
    n = robot.n_joints
    steps: list[Step] = []
    for i in range(1, n + 1):
        K_i = sp.Symbol(f"K_{i}")
        steps.append(
            Step(
                f"Kinetic energy of link {i}",
                f"$K_{i} = \\tfrac12 m_{i} v_{{c{i}}}^T v_{{c{i}}} + \\tfrac12 \\omega_{i}^T "
                f"R_{{0{i}}} I_{i} R_{{0{i}}}^T \\omega_{i}$ with $v_{{c{i}}}$ and $\\omega_{i}$ "
                f"from $J_{{c{i}}} \\dot q$.",
                GatheredEquation(K_i, robot.link_kinetic_energy(i), qd),
                (K_i,),
            )
        )
        P_i = sp.Symbol(f"P_{i}")
        steps.append(
            Step(
                f"Potential energy of link {i}",
                f"$P_{i} = -m_{i} g^T r_{{c{i}}}$ with gravity g in the base frame.",
                GatheredEquation(P_i, robot.link_potential_energy(i), qd),
                (P_i,),
            )
        )
    K, P, L = sp.Symbol("K"), sp.Symbol("P"), sp.Symbol("L")
    kinetic, potential = robot.kinetic_energy(), robot.potential_energy()
    return [
        *steps,
        Step(
            "Kinetic energy",
            "The sum of the link kinetic energies, gathered by joint velocities: "
            "$K = \\tfrac12 \\dot q^T M(q) \\dot q$, so the brackets are the entries $M_{jk}$ "
            "of the inertia matrix.",
            GatheredEquation(K, kinetic, qd),
            (K,),
        ),
        Step(
            "Potential energy",
            "The sum of the link potential energies.",
            GatheredEquation(P, potential, qd),
            (P,),
        ),
        Step(
            "Lagrangian",
            "$L = K - P$ with K and P of the two steps above: "
            "$L = \\tfrac12 \\dot q^T M(q) \\dot q - P(q)$.",
            GatheredEquation(L, kinetic - potential, qd),
            (L,),
        ),
    ]


def _inertia_steps(robot: Any, M: sp.Matrix) -> list[Step]:
    """Every entry M_jk (j <= k) with the links it comes from, then M."""
    n = robot.n_joints
    steps: list[Step] = []
    for j in range(1, n + 1):
        for k in range(j, n + 1):
            symbol = sp.Symbol(f"M_{{{j}{k}}}")
            velocities = (
                f"\\partial \\dot q_{j}^2"
                if j == k
                else f"\\partial \\dot q_{j} \\partial \\dot q_{k}"
            )
            steps.append(
                Step(
                    f"Inertia matrix entry M_{j}{k}",
                    f"$M_{{{j}{k}}} = \\partial^2 K / {velocities}$, "
                    f"entry ({j}, {k}) of $\\sum_i m_i J_{{v,ci}}^T J_{{v,ci}} + J_{{\\omega,i}}^T "
                    f"R_{{0i}} I_i R_{{0i}}^T J_{{\\omega,i}}$. "
                    + _contributors(j, k, n, M[j - 1, k - 1] == 0),
                    GatheredEquation(symbol, M[j - 1, k - 1]),
                    (symbol,),
                )
            )
    M_symbol = _matrix_symbol("M", n, n)
    steps.append(
        Step(
            "Inertia matrix",
            "Collecting the entries: $K = \\tfrac12 \\dot q^T M(q) \\dot q$.",
            _eq(M_symbol, M),
            (M_symbol,),
        )
    )
    return steps


def _christoffel_steps(robot: Any) -> tuple[list[Step], str]:
    """Every non-zero c_ijk (j <= k), and the clause saying how many vanish."""
    n = robot.n_joints
    steps: list[Step] = []
    vanishing = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            for k in range(j, n + 1):
                value = robot.christoffel_symbols(i, j, k)
                if value == 0:
                    vanishing += 1 if j == k else 2
                    continue
                symbol = sp.Symbol(f"c_{{{i}{j}{k}}}")
                twin = f"; $c_{{{i}{k}{j}}} = c_{{{i}{j}{k}}}$" if j != k else ""
                steps.append(
                    Step(
                        f"Christoffel symbol c_{i}{j}{k}",
                        f"$c_{{{i}{j}{k}}} = \\tfrac12 (\\partial M_{{{i}{j}}}/\\partial q_{k} + "
                        f"\\partial M_{{{i}{k}}}/\\partial q_{j} - \\partial M_{{{j}{k}}}/"
                        f"\\partial q_{i})${twin}.",
                        GatheredEquation(symbol, value),
                        (symbol,),
                    )
                )
    if vanishing == 0:
        others = ""
    elif vanishing == n**3:
        others = "; every Christoffel symbol is zero, so C = 0"
    elif vanishing == 1:
        others = f"; the remaining one of the {n**3} Christoffel symbols is zero"
    else:
        others = f"; the remaining {vanishing} of the {n**3} Christoffel symbols are zero"
    return steps, others


def _numbered(numbers: list[int], noun: str) -> str:
    """``link 3``, ``links 2 and 3``, ``links 1, 2 and 3``."""
    if len(numbers) == 1:
        return f"{noun} {numbers[0]}"
    listed = ", ".join(str(x) for x in numbers[:-1])
    return f"{noun}s {listed} and {numbers[-1]}"


def _verb(numbers: list[int], singular: str, plural: str) -> str:
    return singular if len(numbers) == 1 else plural


def _contributors(j: int, k: int, n: int, zero: bool) -> str:
    """Which links contribute to M_jk (j <= k): those that joint k moves, links k..n.

    One sentence of correct English for every case: one link or several,
    every link or only the later ones, and an entry that comes out zero.
    """
    joints = f"joint {k}" if j == k else f"both joints {j} and {k}"
    links = list(range(k, n + 1))
    if n == 1:
        if zero:
            return "The only link, link 1, moves with joint 1, and its term is zero."
        return "The only link, link 1, moves with joint 1 and contributes."
    if k == 1:
        subject, every = ("Both links", "both") if n == 2 else (f"All {n} links", "all of them")
        if zero:
            return f"{subject} move with joint 1, but their terms add up to zero."
        return f"{subject} move with joint 1, so {every} contribute."
    if len(links) == 1:
        if zero:
            return f"Only link {k} moves with {joints}, and its term is zero."
        return f"Only link {k} moves with {joints}, so it alone contributes."
    moving = f"Only {_numbered(links, 'link')} move with {joints}"
    if zero:
        return f"{moving}, and their terms add up to zero."
    return f"{moving}, so only they contribute."


def _vanishes(residual: sp.MatrixBase, reference: sp.MatrixBase, robot: Any) -> bool:
    """True if ``residual`` is exactly zero, or zero at random points up to round-off.

    Float coefficients can leave terms of order 1e-17 after exact cancellation,
    and big arms keep nested (unexpanded) expressions; then the residual is
    evaluated at three random values of every symbol and must stay below 1e-9
    times the size of ``reference``.
    """
    residual, reference = sp.Matrix(residual), sp.Matrix(reference)
    if all(entry == 0 for entry in residual):
        return True
    rng = np.random.default_rng(0)
    derivatives = residual.atoms(sp.Derivative) | reference.atoms(sp.Derivative)
    functions = [*sorted(derivatives, key=sp.default_sort_key), *robot.qs]
    for _ in range(3):
        point = {f: float(rng.uniform(-1, 1)) for f in functions}
        residual_at, reference_at = residual.xreplace(point), reference.xreplace(point)
        free = residual_at.free_symbols | reference_at.free_symbols
        values = {s: float(rng.uniform(0.5, 2)) for s in free}
        error = np.abs(np.array(residual_at.xreplace(values).evalf().tolist(), dtype=float)).max()
        size = np.abs(np.array(reference_at.xreplace(values).evalf().tolist(), dtype=float)).max()
        if error > 1e-9 * (1.0 + size):
            return False
    return True


def _property_checks(
    robot: Any, M: sp.Matrix, C: sp.Matrix, kinetic: sp.Expr, q: list, qd: list
) -> list[Step]:
    n = robot.n_joints
    asymmetry = M - M.T
    velocity = sp.Matrix(qd)
    quadratic = sp.Matrix([simplify_trig((velocity.T * M * velocity)[0, 0] - 2 * kinetic)])
    rate = sp.zeros(n, n)
    for k in range(n):
        rate += M.diff(q[k]) * qd[k]
    N = simplify_matrix(rate - 2 * C)
    skew = simplify_matrix(N + N.T)
    N_symbol = _matrix_symbol("N", n, n)
    verdict = {True: "holds", False: "FAILS"}
    return [
        Step(
            "Check: M is symmetric",
            f"$M - M^T = 0$ ({verdict[_vanishes(asymmetry, M, robot)]}).",
            _eq(sp.MatAdd(_matrix_symbol("M", n, n), -_matrix_symbol("M", n, n).T), asymmetry),
        ),
        Step(
            "Check: M is positive definite",
            "$\\dot q^T M \\dot q = 2K$, a sum of $m_i |v_{ci}|^2$ and $\\omega_i^T I_i \\omega_i$ "
            f"terms, positive when every joint moves some mass or inertia "
            f"({verdict[_vanishes(quadratic, sp.Matrix([kinetic]), robot)]}).",
            GatheredEquation(
                sp.MatMul(velocity.T, _matrix_symbol("M", n, n), velocity), 2 * kinetic, qd
            ),
        ),
        Step(
            "Check: Ṁ − 2C is skew-symmetric",
            "$N = \\dot M - 2C$ has $N + N^T = 0$ "
            f"({verdict[_vanishes(skew, rate, robot)]}), so $\\dot q^T N \\dot q = 0$: the energy "
            "balance $\\frac{d}{dt}(K + P) = \\dot q^T \\tau$, in which the power of the "
            "velocity terms, $\\dot q^T C \\dot q = \\tfrac12 \\dot q^T \\dot M \\dot q \\ne 0$, "
            "balances the change of $K$ as the inertia changes with $q$. The skew symmetry "
            "itself needs $C$ built from the Christoffel symbols (another $C$ with the same "
            "$C \\dot q$ keeps the balance, not the skew symmetry).",
            _eq(N_symbol, N),
            (N_symbol,),
        ),
    ]
