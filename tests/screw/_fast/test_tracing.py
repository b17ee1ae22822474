"""Straight-line Python written from traced scalars (``screw/_fast/tracing.py``).

The folding rules (a zero factor drops a term, ±1 costs no multiplication, equal sums are
written once), dead-line removal, the inlining of sums read once (the same operations in
the same order, so the same numbers) and the written-out Cholesky solve, checked against
NumPy on random numbers.
"""

import math

import numpy as np

from robolab.screw._fast import tracing


def test_constants_fold_and_equal_sums_are_written_once():
    writer = tracing.Writer()
    x, y = (1.0, "x"), (1.0, "y")
    first = tracing.combine(writer, [[(1.0, (x, y)), (0.0, (x,)), (1.0, (2.0, x))]])
    again = tracing.combine(writer, [[(2.0, (x,)), (1.0, (y, x))]])  # the same sum
    assert first == again
    assert writer.lines == ["    t1 = 2.0*x + x*y"]
    assert tracing.combine(writer, [[(1.0, (x,))], [(1.0, (3.0,)), (-1.0, (3.0,))]]) == [x, 0.0]
    assert tracing.neg((2.0, "x")) == (-2.0, "x") and tracing.neg(1.5) == -1.5


def test_dead_lines_are_dropped_and_single_uses_inlined_with_the_same_numbers():
    writer = tracing.Writer()
    a, b = (1.0, "a"), (1.0, "b")
    (unused,) = tracing.combine(writer, [[(1.0, (a, a)), (1.0, (b,))]])
    (s,) = tracing.combine(writer, [[(1.0, (a,)), (1.0, (b,))]])
    (p,) = tracing.combine(writer, [[(1.0, (s, s)), (-3.0, (a,))]])
    source = tracing.function_source("f", ["a", "b"], writer, writer.value(p))
    assert unused[1] not in source  # nothing reads it
    f = tracing.compile_source("f", ["a", "b"], writer, writer.value(p))
    assert f.source == source
    for a_value, b_value in np.random.default_rng(0).uniform(-5, 5, (20, 2)):
        total = a_value + b_value
        assert f(a_value, b_value) == total * total - 3.0 * a_value  # bit for bit


def test_twists_and_wrenches_move_as_the_adjoint_and_its_transpose():
    rng = np.random.default_rng(1)
    angle = 0.7
    c, s = math.cos(angle), math.sin(angle)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    p = rng.normal(size=3)
    adjoint = np.zeros((6, 6))
    adjoint[:3, :3] = adjoint[3:, 3:] = R
    adjoint[3:, :3] = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]]) @ R
    writer = tracing.Writer()
    names = [(1.0, f"v{i}") for i in range(6)]
    Rc, pc = tracing.constant_matrix(R), tracing.constant_vector(p)
    twist = tracing.twist_by(writer, Rc, pc, names)
    wrench = tracing.wrench_by_transpose(writer, Rc, pc, names)
    header = [f"v{i}" for i in range(6)]
    result = "[" + ", ".join(writer.value(x) for x in twist + wrench) + "]"
    both = tracing.compile_source("both", header, writer, result)
    V = rng.normal(size=6)
    values = np.array(both(*V))
    np.testing.assert_allclose(values[:6], adjoint @ V, atol=1e-14)
    np.testing.assert_allclose(values[6:], adjoint.T @ V, atol=1e-14)


def test_the_written_cholesky_solve_equals_numpy_and_refuses_a_singular_matrix():
    n = 4
    writer = tracing.Writer()
    M = [[(1.0, f"m{i}{j}") for j in range(n)] for i in range(n)]
    x = tracing.cholesky_solve(writer, M, [(1.0, f"b{i}") for i in range(n)])
    header = [f"m{i}{j}" for i in range(n) for j in range(n)] + [f"b{i}" for i in range(n)]
    solve = tracing.compile_source("solve", header, writer, f"[{', '.join(map(writer.value, x))}]")
    rng = np.random.default_rng(2)
    A = rng.normal(size=(n, n))
    spd, b = A @ A.T + n * np.eye(n), rng.normal(size=n)
    np.testing.assert_allclose(solve(*spd.ravel(), *b), np.linalg.solve(spd, b), rtol=1e-12)
    singular = spd.copy()
    singular[:, 2] = singular[2, :] = 0.0
    assert solve(*singular.ravel(), *b) is None
    assert "sqrt(" in solve.source and solve.__globals__["sqrt"] is math.sqrt
