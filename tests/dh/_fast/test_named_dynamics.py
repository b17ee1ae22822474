"""M, ∂M/∂q, C and G from named pieces against the readable Lagrangian derivation.

The pair of ``robolab.dh._fast.REPRODUCES``: ``named_dynamics.program_of`` and
``robolab.dh.lagrangian.mass_matrix`` (with ∂M/∂q, C and G, which
``DerivedDynamics`` takes from the same program). The readable derivation (every piece
expanded and simplified, ``shared=False``) and the named pieces (composite rigid bodies
differentiated piece by piece, ``shared=True``) are two derivations of the same quantities:

* symbolically equal on small arms with every parameter symbolic (Spong's planar
  2R and elbow, a SCARA with a prismatic joint, a modified-convention RPR arm);
* numerically equal to 1e-9 relative at random states on longer numeric arms
  (a generic spatial 5R with full inertia tensors, the Puma 560) where expanding
  the difference would not pay;
* the 7-joint Franka Panda against Pinocchio's CRBA, gravity and non-linear
  effects (the readable route takes too long for a test there).
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import sympy as sp
from reference.dh_arms import moro_arm, pinocchio_model

from robolab import DHRobot, symbols
from robolab.dh._fast.named_dynamics import dynamics_program
from robolab.dh.kinematics import DerivedKinematics
from robolab.dh.lagrangian import READABLE_MAX_JOINTS, DerivedDynamics
from robolab.dh.simplify import replace_shared
from robolab.symbols import inertia_tensor, q1, q2, q3
from robolab.symbols import l1 as l_1
from robolab.symbols import l2 as l_2


def _routes(robot: DHRobot) -> tuple[DerivedDynamics, DerivedDynamics]:
    """The readable and the named route for the same description (fresh, not the cached one)."""
    kinematics = DerivedKinematics.of(robot.model.chain)
    inertial = robot.model.inertial
    return (
        DerivedDynamics(kinematics, inertial, shared=False),
        DerivedDynamics(kinematics, inertial, shared=True),
    )


def _vanishes(expr: sp.Expr) -> bool:
    """True if ``expr`` is zero as a trigonometric polynomial (an exact test).

    The two routes write angle sums differently (cos(q2 + q3) against products of
    cos q2, sin q3, ...), so the sums are expanded and every sin x, cos x becomes a
    pair of symbols s, c; ``expr`` vanishes iff its remainder on the Gröbner basis
    ``{s² + c² − 1}`` (one pair per angle: leading terms s² are coprime) is zero.
    """
    expanded = sp.expand(sp.expand_trig(expr))
    if expanded == 0:
        return True
    angles = sorted({f.args[0] for f in expanded.atoms(sp.sin, sp.cos)}, key=str)
    sines = sp.symbols(f"s0:{len(angles)}")
    cosines = sp.symbols(f"c0:{len(angles)}")
    mapping = {sp.sin(x): s for x, s in zip(angles, sines, strict=True)}
    mapping.update({sp.cos(x): c for x, c in zip(angles, cosines, strict=True)})
    polynomial = sp.expand(expanded.xreplace(mapping))
    if polynomial == 0:
        return True
    basis = [s**2 + c**2 - 1 for s, c in zip(sines, cosines, strict=True)]
    others = sorted(polynomial.free_symbols - set(sines) - set(cosines), key=str)
    _, remainder = sp.reduced(polynomial, basis, *sines, *cosines, *others, order="lex")
    return remainder == 0


def _small_arms() -> list[DHRobot]:
    arms = []
    for name in ("planar_rr", "elbow_rrr", "scara_rrp"):
        robot = moro_arm(name)
        robot.inertia_tensors = [inertia_tensor(i, diagonal=False) for i in (1, 2, 3)[: robot.dof]]
        arms.append(robot)
    rpr = DHRobot(
        (0, 0, l_1, q1), (0, -sp.pi / 2, q2, 0, "p"), (l_2, sp.pi / 2, 0, q3), convention="modified"
    )
    rpr.cm_positions = None  # symbolic placeholders x_ci, y_ci, z_ci
    rpr.inertia_tensors = [inertia_tensor(i, diagonal=False) for i in (1, 2, 3)]
    arms.append(rpr)
    return arms


@pytest.mark.parametrize("robot", _small_arms(), ids=lambda r: r.name)
def test_named_pieces_equal_the_readable_derivation_symbolically(robot):
    readable, named = _routes(robot)
    n = robot.dof
    M_readable, M_named = readable.inertia_matrix(), named.inertia_matrix()
    for a in range(n):
        for b in range(n):
            assert _vanishes(M_named[a, b] - M_readable[a, b]), (a, b)
    D_readable, D_named = readable.inertia_derivatives(), named.inertia_derivatives()
    for key, value in D_readable.items():
        assert _vanishes(D_named[key] - value), key
    for i in range(n):
        for j in range(n):
            for k in range(n):
                difference = named.christoffel(i, j, k) - readable.christoffel(i, j, k)
                assert _vanishes(difference), (i, j, k)
    G = named.gravity_vector() - readable.gravity_vector()
    assert all(_vanishes(entry) for entry in G)


def generic_arm(n: int, seed: int = 7) -> DHRobot:
    """A spatial arm with every a, d non-zero, α = ±π/2, offset centres of mass, full tensors."""
    rng = np.random.default_rng(seed)
    joints = [getattr(symbols, f"q{i}") for i in range(1, n + 1)]  # q_i(t)
    rows = []
    for i in range(n):
        a, d = round(float(rng.uniform(0.1, 0.5)), 3), round(float(rng.uniform(0.05, 0.3)), 3)
        rows.append((a, sp.pi / 2 if i % 2 == 0 else -sp.pi / 2, d, joints[i]))
    robot = DHRobot(*rows, name=f"generic {n}R")
    robot.masses = [round(float(x), 2) for x in rng.uniform(1, 5, n)]
    robot.cm_positions = [tuple(round(float(x), 3) for x in rng.uniform(-0.05, 0.05, 3))] * n
    tensors = []
    for _ in range(n):
        d, o = rng.uniform(0.02, 0.05, 3), rng.uniform(-0.002, 0.002, 3)
        tensors.append(np.array([[d[0], o[0], o[1]], [o[0], d[1], o[2]], [o[1], o[2], d[2]]]))
    robot.inertia_tensors = [np.round(t, 4) for t in tensors]
    robot.gravity = (0, 0, -9.81)
    return robot


def _puma() -> DHRobot:
    from robolab.models.library import load_robot

    return load_robot("puma560", form="dh")


def _at(expressions, point):
    """The entries at ``point``, each shared subexpression evaluated once."""
    memo: dict = {}
    return np.array([float(replace_shared(sp.sympify(e), point, memo)) for e in expressions])


def _relative_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-300))


@pytest.mark.parametrize("make", [lambda: generic_arm(5), _puma], ids=["generic 5R", "Puma 560"])
def test_named_pieces_equal_the_readable_derivation_numerically(make):
    robot = make()
    readable, named = _routes(robot)
    n, chain = robot.dof, robot.model.chain
    M = (readable.inertia_matrix(), named.inertia_matrix())
    C = (readable.coriolis_matrix(), named.coriolis_matrix())
    G = (readable.gravity_vector(), named.gravity_vector())
    rng = np.random.default_rng(3)
    for _ in range(3):
        point = dict(zip(chain.q, rng.uniform(-np.pi, np.pi, n), strict=True))
        point.update(zip(chain.qd, rng.uniform(-2, 2, n), strict=True))
        for pair in (M, C, G):
            expected, got = _at(pair[0], point), _at(pair[1], point)
            assert _relative_error(got, expected) < 1e-9


@pytest.fixture(scope="module")
def panda() -> DHRobot:
    from robolab.models.library import load_robot

    return load_robot("panda", form="dh")


def test_panda_from_named_pieces_against_pinocchio(panda):
    n = panda.dof
    rows = [(float(a), float(alpha), float(d), 0.0, "r") for a, alpha, d, _ in panda.dh_parameters]
    cms = [np.array(c, dtype=float).ravel() for c in panda.cm_positions]
    inertias = [np.array(panda.I_cm(i), dtype=float) for i in range(1, n + 1)]
    masses = [float(m) for m in panda.masses]
    model, _ = pinocchio_model(rows, panda.convention, masses, cms, inertias)
    data = model.createData()
    fast = panda.numeric()
    chain = panda.model.chain
    M_symbolic, G_symbolic = panda.inertia_matrix(), panda.gravity_vector()
    C_symbolic = panda.coriolis_matrix()
    rng = np.random.default_rng(5)
    for state in range(3):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, n), rng.uniform(-2, 2, n), rng.uniform(-3, 3, n)
        M = pin.crba(model, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        G = pin.computeGeneralizedGravity(model, data, q)
        Cqd = pin.nonLinearEffects(model, data, q, qd) - G
        np.testing.assert_allclose(fast.inertia_matrix(q), M, atol=1e-10)
        np.testing.assert_allclose(fast.gravity_vector(q), G, atol=1e-10)
        np.testing.assert_allclose(fast.coriolis_matrix(q, qd) @ qd, Cqd, atol=1e-10)
        np.testing.assert_allclose(
            fast.inverse_dynamics(q, qd, qdd), pin.rnea(model, data, q, qd, qdd), atol=1e-10
        )
        if state == 0:  # the symbolic results (with q_i(t)) written out at the same state
            point = dict(zip(panda.qs, q, strict=True))
            point.update({panda.q_dot(i + 1): v for i, v in enumerate(qd)})
            np.testing.assert_allclose(_at(M_symbolic, point).reshape(n, n), M, atol=1e-10)
            np.testing.assert_allclose(_at(G_symbolic, point), G, atol=1e-10)
            np.testing.assert_allclose(_at(C_symbolic, point).reshape(n, n) @ qd, Cqd, atol=1e-10)
    assert chain.dof == 7


def test_the_route_is_readable_for_short_or_light_arms_and_named_otherwise(panda):
    def route(robot):
        return DerivedDynamics.of(robot.model).shared

    assert not route(moro_arm("elbow_rrr"))  # up to READABLE_MAX_JOINTS: readable
    assert not route(generic_arm(READABLE_MAX_JOINTS))
    assert not route(_puma())  # six joints, but its M expands to a few hundred terms
    assert route(generic_arm(5)) and route(panda)  # thousands of terms: named pieces
    # the Puma keeps its compact expanded M (Corke's numbers: M_66 = I_zz6 = 4e-5)
    assert _puma().inertia_matrix()[5, 5] == pytest.approx(4e-5, rel=1e-12)


def test_panda_mdot_minus_2c_is_skew_symmetric(panda):
    fast = panda.numeric()
    rng = np.random.default_rng(11)
    h = 1e-6
    for _ in range(3):
        q, qd = rng.uniform(-np.pi, np.pi, 7), rng.uniform(-2, 2, 7)
        M_dot = (fast.inertia_matrix(q + h * qd) - fast.inertia_matrix(q - h * qd)) / (2 * h)
        N = M_dot - 2 * fast.coriolis_matrix(q, qd)
        np.testing.assert_allclose(N + N.T, 0, atol=1e-7)


def test_numeric_functions_of_a_readable_arm_equal_its_symbolic_results():
    # a 4-joint arm takes the readable route: its compiled (named-piece) functions must
    # give the numbers of its expanded M, C, G
    robot = generic_arm(4, seed=3)
    assert robot.dof <= READABLE_MAX_JOINTS
    fast = robot.numeric()
    M, C, G = robot.inertia_matrix(), robot.coriolis_matrix(), robot.gravity_vector()
    rng = np.random.default_rng(8)
    for _ in range(3):
        q, qd = rng.uniform(-np.pi, np.pi, 4), rng.uniform(-2, 2, 4)
        point = dict(zip(robot.qs, q, strict=True))
        point.update({robot.q_dot(i + 1): v for i, v in enumerate(qd)})
        np.testing.assert_allclose(fast.inertia_matrix(q).ravel(), _at(M, point), atol=1e-12)
        np.testing.assert_allclose(fast.coriolis_matrix(q, qd).ravel(), _at(C, point), atol=1e-12)
        np.testing.assert_allclose(fast.gravity_vector(q), _at(G, point), atol=1e-12)


def test_the_program_grows_gently_with_the_joints():
    # the size of the named form (count_ops of every piece), not a time: about n³
    sizes = [dynamics_program(generic_arm(n).model).operations() for n in (3, 5, 7)]
    assert sizes[1] < 6 * sizes[0] and sizes[2] < 4 * sizes[1]
    assert sizes[2] < 10_000  # the expanded Christoffel symbols of this arm: millions


def test_values_replace_symbolic_parameters_in_the_program():
    robot = DHRobot((l_1, 0, 0, q1), (l_2, 0, 0, q2))
    robot.cm_positions = [(0, 0, 0), (0, 0, 0)]
    values = {symbol: 1.0 for symbol in robot.model.symbolic_parameters()}
    program = dynamics_program(robot.model, values)
    names = {s for _, e in program.assignments for s in e.free_symbols}
    assert not names & set(values)  # only names and the joint symbols remain
    # M_22 = m_2 l_2² + I_zz2 = 2 with every parameter 1
    assert float(program.expression(program.mass_matrix[1, 1])) == pytest.approx(2.0, rel=1e-15)
