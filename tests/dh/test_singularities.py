"""The singularity factors of det J (robolab.dh.singularities).

References robolab did not compute: det J of a plain-NumPy geometric Jacobian (Spong §4.6)
and the closed forms derived by hand in ``reference/singular_arms.py`` for Corke's Puma 560;
Spong's elbow manipulator (§4.10: det J11 = a2 a3 s3 (a2 c2 + a3 c23)); the Stanford arm
(det J11 ∝ d3² s2); the geometry of each singularity (the wrist centre's place).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from reference.singular_arms import (
    PUMA_A2,
    PUMA_A3,
    PUMA_D1,
    PUMA_D3,
    PUMA_D4,
    PUMA_ROWS,
    frames,
    geometric_jacobian,
    puma_factors,
)

import robolab as rl
from robolab.symbols import q1, q2, q3, q4, q5, q6


@pytest.fixture(scope="module")
def puma():
    return rl.singularity_factors(rl.load_robot("puma560", form="dh"))


def test_puma_factors_are_the_closed_forms(puma):
    rng = np.random.default_rng(60)
    for q in rng.uniform(-np.pi, np.pi, (20, 6)):
        reference = puma_factors(q)
        values = puma.evaluate(q)
        for name in ("shoulder", "elbow", "wrist"):
            assert values[name] == pytest.approx(reference[name], abs=1e-12), name
        assert float(puma.constant) == pytest.approx(reference["constant"], abs=1e-15)


def test_puma_factors_multiply_to_det_j_of_an_independent_jacobian(puma):
    rng = np.random.default_rng(61)
    for q in rng.uniform(-np.pi, np.pi, (20, 6)):
        values = puma.evaluate(q)
        product = float(puma.constant) * values["shoulder"] * values["elbow"] * values["wrist"]
        assert product == pytest.approx(np.linalg.det(geometric_jacobian(PUMA_ROWS, q)), abs=1e-12)


def test_the_modified_table_gives_the_same_factors(puma):
    craig = rl.singularity_factors(rl.load_robot("puma560", form="dh", convention="modified"))
    rng = np.random.default_rng(62)
    for q in rng.uniform(-np.pi, np.pi, (5, 6)):
        a, b = puma.evaluate(q), craig.evaluate(q)
        for name in a:
            assert abs(a[name]) == pytest.approx(abs(b[name]), abs=1e-12)


def test_the_puma_elbow_singularity_is_the_arm_stretched_or_folded():
    # a3 s3 + d4 c3 = 0: the wrist centre on the line of the upper arm, at the largest or
    # smallest distance from the shoulder (chapter 4's law of cosines).
    forearm = np.hypot(PUMA_A3, PUMA_D4)
    shoulder = np.array([0.0, 0.0, PUMA_D1])
    for elbow, distance in (
        (np.arctan2(-PUMA_D4, PUMA_A3), np.hypot(PUMA_A2 + forearm, PUMA_D3)),
        (np.arctan2(PUMA_D4, -PUMA_A3), np.hypot(PUMA_A2 - forearm, PUMA_D3)),
    ):
        q = np.array([0.3, 0.7, elbow, 0.2, 0.9, 0.1])
        assert puma_factors(q)["elbow"] == pytest.approx(0.0, abs=1e-15)
        centre = frames(PUMA_ROWS, q)[4][:3, 3]
        assert np.linalg.norm(centre - shoulder) == pytest.approx(distance, abs=1e-12)
        assert np.linalg.det(geometric_jacobian(PUMA_ROWS, q)) == pytest.approx(0.0, abs=1e-12)


def test_the_puma_shoulder_singularity_puts_the_wrist_centre_over_the_shoulder():
    # a2 c2 + a3 c23 - d4 s23 = 0: the wrist centre at the shoulder offset d3 from z0.
    q3 = 0.4
    q2 = sp.nsolve(
        PUMA_A2 * sp.cos(sp.Symbol("x"))
        + PUMA_A3 * sp.cos(sp.Symbol("x") + q3)
        - PUMA_D4 * sp.sin(sp.Symbol("x") + q3),
        sp.Symbol("x"),
        0.5,
    )
    q = np.array([1.1, float(q2), q3, 0.2, 0.9, 0.1])
    centre = frames(PUMA_ROWS, q)[4][:3, 3]
    assert np.hypot(centre[0], centre[1]) == pytest.approx(PUMA_D3, abs=1e-12)
    assert np.linalg.det(geometric_jacobian(PUMA_ROWS, q)) == pytest.approx(0.0, abs=1e-12)


def test_the_wrist_centre_is_o4(puma):
    q = np.array([0.3, -0.5, 1.2, 0.4, -0.7, 2.0])
    centre = sp.lambdify([list(puma.joint_variables)], puma.wrist_centre)(q)
    np.testing.assert_allclose(np.ravel(centre), frames(PUMA_ROWS, q)[4][:3, 3], atol=1e-12)


def test_spongs_elbow_manipulator():
    a2, a3, d1, d6 = sp.symbols("a_2 a_3 d_1 d_6", positive=True)
    arm = rl.DHRobot(
        (0, sp.pi / 2, d1, q1),
        (a2, 0, 0, q2),
        (a3, 0, 0, q3),
        (0, -sp.pi / 2, 0, q4),
        (0, sp.pi / 2, 0, q5),
        (0, 0, d6, q6),
    )
    factors = rl.singularity_factors(arm)
    spong = a2 * a3 * sp.sin(q3) * (a2 * sp.cos(q2) + a3 * sp.cos(q2 + q3)) * sp.sin(q5)
    assert sp.simplify(factors.determinant**2 - spong**2) == 0
    assert sp.simplify(factors.elbow**2 - sp.sin(q3) ** 2) == 0
    assert sp.simplify(factors.wrist**2 - sp.sin(q5) ** 2) == 0


def test_the_stanford_arm():
    robot = rl.load_robot("stanford", form="dh")
    factors = rl.singularity_factors(robot)
    rows = robot.dh_parameters  # plain numbers once q is 0
    numeric_rows = []
    for i, (a, alpha, d, _theta) in enumerate(rows):
        d_value = 0.0 if i == 2 else float(d)
        numeric_rows.append((float(a), float(alpha), d_value))
    rng = np.random.default_rng(63)
    for q in rng.uniform(0.2, 1.2, (5, 6)):
        values = factors.evaluate(q)
        product = float(factors.constant) * values["shoulder"] * values["elbow"] * values["wrist"]
        J = geometric_jacobian(numeric_rows, q, prismatic=(2,))
        assert product == pytest.approx(np.linalg.det(J), abs=1e-12)
        assert values["elbow"] == pytest.approx(q[2] ** 2, abs=1e-12)


def test_det_j_is_that_of_dhrobot_j(puma):
    # det J does not depend on the reference point (the end-effector origin or p_c).
    robot = rl.load_robot("puma560", form="dh")
    J = robot.numeric().jacobian
    q = np.array([0.1, 0.2, -1.3, 0.7, 0.5, 0.2])
    values = puma.evaluate(q)
    product = float(puma.constant) * values["shoulder"] * values["elbow"] * values["wrist"]
    assert product == pytest.approx(np.linalg.det(np.asarray(J(q), dtype=float)), abs=1e-12)


def test_str_lists_the_factors(puma):
    text = str(puma)
    assert text.splitlines()[0] == "det J of puma560 = constant · shoulder · elbow · wrist"
    assert "sin(q_5(t))" in text


def ur5_like_dh():
    return rl.DHRobot(
        (0, sp.pi / 2, 0.089159, q1),
        (-0.425, 0, 0, q2),
        (-0.39225, 0, 0, q3),
        (0, sp.pi / 2, 0.10915, q4),
        (0, -sp.pi / 2, 0.09465, q5),
        (0, 0, 0.0823, q6),
        name="ur5 (DH)",
    )


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: rl.load_robot("puma560"), TypeError, "needs a DHRobot"),
        (lambda: rl.load_robot("planar2r", form="dh"), ValueError, "planar2r has 2 joints"),
        (ur5_like_dh, ValueError, "ur5 \\(DH\\) has no spherical wrist: the axes of joints 4, 5"),
        (
            lambda: rl.DHRobot(
                (0, sp.pi / 2, 1, q1),
                (1, 0, 0, q2),
                (1, 0, 0, q3),
                (0, 0, 0, q4),
                (0, sp.pi / 2, 0, q5),
                (0, 0, 0, q6),
            ),
            ValueError,
            "axes of joints 4 and 5 are parallel",
        ),
        (
            lambda: rl.DHRobot(
                (0, sp.pi / 2, 1, q1),
                (1, 0, 0, q2),
                (1, 0, 0, q3),
                (0, 0, q4, 0, "p"),
                (0, sp.pi / 2, 0, q5),
                (0, 0, 0, q6),
            ),
            ValueError,
            "joints 4, 5 and 6 must be revolute",
        ),
    ],
)
def test_arms_without_a_spherical_wrist_are_refused(make, error, message):
    with pytest.raises(error, match=message):
        rl.singularity_factors(make())


def test_evaluate_checks_the_configuration(puma):
    with pytest.raises(ValueError, match="q"):
        puma.evaluate([0.0, 1.0])
    with pytest.raises(ValueError, match="q"):
        puma.evaluate([0.0, 1.0, np.nan, 0, 0, 0])


def test_the_factors_are_derived_once_per_chain():
    robot = rl.load_robot("puma560", form="dh")
    first = rl.singularity_factors(robot)
    assert rl.singularity_factors(robot) is first
    functions = first.functions()
    assert first.functions() == functions  # compiled once
    grid = np.linspace(-1.0, 1.0, 7)
    values = functions["elbow"]([0.0, grid, grid, 0.0, 0.0, 0.0])
    np.testing.assert_allclose(values, PUMA_A3 * np.sin(grid) + PUMA_D4 * np.cos(grid), atol=1e-12)
