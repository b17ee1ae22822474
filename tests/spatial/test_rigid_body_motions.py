"""Rigid-body motions (Modern Robotics, chapter 3).

References: the worked examples of the book's chapter 3 and of its code
library (the Python ``modern_robotics`` package, used here only as an
independent reference), closed forms, and identities of SE(3) checked with
hypothesis, including angles within 1e-9 of 0 and of π.
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import robolab as rl

# --------------------------------------------------------------------------- strategies

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
vectors3 = st.tuples(finite, finite, finite).map(np.array)


@st.composite
def unit_vectors(draw):
    v = draw(vectors3)
    assume(np.linalg.norm(v) > 1e-3)
    return v / np.linalg.norm(v)


# Angles spread over [0, π], with extra weight right next to 0 and π.
angles = st.one_of(
    st.floats(0.0, math.pi),
    st.floats(0.0, 1e-9),
    st.floats(0.0, 1e-9).map(lambda e: math.pi - e),
    st.floats(0.0, 1e-4),
    st.floats(0.0, 1e-4).map(lambda e: math.pi - e),
)


def rotation(axis, theta):
    """Rodrigues' formula written out by hand (independent of the code under test)."""
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(theta) * K + (1 - math.cos(theta)) * (K @ K)


@st.composite
def transforms(draw):
    T = np.eye(4)
    T[:3, :3] = rotation(draw(unit_vectors()), draw(angles))
    T[:3, 3] = draw(vectors3)
    return T


# --------------------------------------------------------------------------- book examples


class TestBookExamples:
    """Values printed in Modern Robotics (chapter 3) and its code library's documentation."""

    def test_log_of_cyclic_permutation_is_120_degrees_about_111(self):
        # Book, section 3.2.3.3: R = [[0,0,1],[1,0,0],[0,1,0]] has θ = 2π/3, ω̂ = (1,1,1)/√3.
        omega_theta = rl.so3_to_vec(rl.matrix_log3([[0, 0, 1], [1, 0, 0], [0, 1, 0]]))
        omega_hat, theta = rl.axis_angle3(omega_theta)
        assert theta == pytest.approx(2 * math.pi / 3, abs=1e-12)
        np.testing.assert_allclose(omega_hat, np.ones(3) / math.sqrt(3), atol=1e-12)

    def test_matrix_exp3_printed_digits(self):
        R = rl.matrix_exp3([[0, -3, 2], [3, 0, -1], [-2, 1, 0]])
        expected = [
            [-0.69492056, 0.71352099, 0.08929286],
            [-0.19200697, -0.30378504, 0.93319235],
            [0.69297817, 0.6313497, 0.34810748],
        ]
        np.testing.assert_allclose(R, expected, atol=5e-9)

    def test_matrix_exp6_printed_digits(self):
        se3 = [
            [0, 0, 0, 0],
            [0, 0, -1.57079632, 2.35619449],
            [0, 1.57079632, 0, 2.35619449],
            [0, 0, 0, 0],
        ]
        expected = [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]]
        np.testing.assert_allclose(rl.matrix_exp6(se3), expected, atol=1e-7)

    def test_matrix_log6_printed_digits(self):
        se3 = rl.matrix_log6([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]])
        expected = [
            [0, 0, 0, 0],
            [0, 0, -1.57079633, 2.35619449],
            [0, 1.57079633, 0, 2.35619449],
            [0, 0, 0, 0],
        ]
        np.testing.assert_allclose(se3, expected, atol=5e-9)

    def test_screw_axis_of_example_3_26_style_screw(self):
        # A screw through q = (3, 0, 0) along z with pitch 2: S = [0,0,1, 0,-3,2].
        np.testing.assert_array_equal(
            rl.screw_to_axis([3, 0, 0], [0, 0, 1], 2), [0, 0, 1, 0, -3, 2]
        )

    def test_adjoint_printed(self):
        expected = [
            [1, 0, 0, 0, 0, 0],
            [0, 0, -1, 0, 0, 0],
            [0, 1, 0, 0, 0, 0],
            [0, 0, 3, 1, 0, 0],
            [3, 0, 0, 0, 0, -1],
            [0, 0, 0, 0, 1, 0],
        ]
        T = [[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 3], [0, 0, 0, 1]]
        np.testing.assert_array_equal(rl.adjoint_representation(T), expected)

    def test_axis_angle6_pure_translation(self):
        S, theta = rl.axis_angle6([0, 0, 0, 3, 0, 4])
        assert theta == 5.0
        np.testing.assert_allclose(S, [0, 0, 0, 0.6, 0, 0.8], atol=1e-12)


# --------------------------------------------------------------------------- cross-checks


@given(unit_vectors(), st.floats(0.01, math.pi - 0.01), vectors3)
def test_agrees_with_modern_robotics_library_away_from_0_and_pi(axis, theta, v):
    """Where the reference library is accurate (not near 0 or π), results agree to 1e-10."""
    se3 = np.zeros((4, 4))
    se3[:3, :3] = rl.vec_to_so3(axis * theta)
    se3[:3, 3] = v
    T = rl.matrix_exp6(se3)
    np.testing.assert_allclose(T, mr.MatrixExp6(se3), atol=1e-10)
    np.testing.assert_allclose(rl.matrix_log6(T), mr.MatrixLog6(T), atol=1e-8)
    np.testing.assert_allclose(rl.matrix_log3(T[:3, :3]), mr.MatrixLog3(T[:3, :3]), atol=1e-8)
    np.testing.assert_allclose(rl.adjoint_representation(T), mr.Adjoint(T), atol=1e-12)
    np.testing.assert_allclose(rl.transform_inv(T), mr.TransInv(T), atol=1e-12)
    np.testing.assert_allclose(rl.ad(np.r_[axis, v]), mr.ad(np.r_[axis, v]), atol=0)


def test_log3_near_0_and_pi_where_the_reference_library_fails():
    """Within 1e-9 of π the book's code returns a wrong axis; within 1e-9 of 0 it returns zero.

    Ours stays within ~1e-15 of the exact exponential coordinates everywhere.
    """
    rng = np.random.default_rng(7)
    worst_ours, worst_reference = 0.0, 0.0
    for _ in range(100):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        theta = math.pi - 1e-9
        R = rotation(axis, theta)
        ours = rl.so3_to_vec(rl.matrix_log3(R))
        worst_ours = max(worst_ours, np.linalg.norm(ours - axis * theta))
        # Be lenient with the reference: also accept the opposite axis, which is off by only 2e-9.
        theirs = rl.so3_to_vec(mr.MatrixLog3(R))
        error = min(np.linalg.norm(theirs - axis * theta), np.linalg.norm(theirs + axis * theta))
        worst_reference = max(worst_reference, error)
    assert worst_ours < 1e-12
    assert worst_reference > 1.0  # documents the known defect of the reference library
    tiny = rotation(np.array([1.0, 0.0, 0.0]), 1e-9)
    np.testing.assert_allclose(rl.so3_to_vec(rl.matrix_log3(tiny)), [1e-9, 0, 0], rtol=1e-12)
    np.testing.assert_array_equal(mr.MatrixLog3(tiny), np.zeros((3, 3)))


# --------------------------------------------------------------------------- identities


@given(unit_vectors(), angles)
def test_exp3_of_log3_is_identity(axis, theta):
    R = rotation(axis, theta)
    np.testing.assert_allclose(rl.matrix_exp3(rl.matrix_log3(R)), R, atol=1e-12)


@given(unit_vectors(), angles)
def test_log3_recovers_axis_and_angle(axis, theta):
    omega_theta = rl.so3_to_vec(rl.matrix_log3(rotation(axis, theta)))
    if theta > math.pi - 1e-6:
        # At π the axis sign is ambiguous: ω̂π and -ω̂π are the same rotation.
        nearer = min(
            np.linalg.norm(omega_theta - axis * theta), np.linalg.norm(omega_theta + axis * theta)
        )
        assert nearer < 1e-7
    else:
        np.testing.assert_allclose(omega_theta, axis * theta, atol=1e-12)


@given(transforms())
def test_exp6_of_log6_is_identity(T):
    np.testing.assert_allclose(rl.matrix_exp6(rl.matrix_log6(T)), T, atol=1e-9)


@given(unit_vectors(), st.floats(0.0, math.pi - 1e-6), vectors3)
def test_log6_of_exp6_recovers_the_twist(axis, theta, v):
    expc6 = np.r_[axis * theta, v]
    np.testing.assert_allclose(
        rl.se3_to_vec(rl.matrix_log6(rl.matrix_exp6(rl.vec_to_se3(expc6)))), expc6, atol=1e-9
    )


@given(transforms(), transforms())
def test_adjoint_of_product_is_product_of_adjoints(T1, T2):
    np.testing.assert_allclose(
        rl.adjoint_representation(T1 @ T2),
        rl.adjoint_representation(T1) @ rl.adjoint_representation(T2),
        atol=1e-9,
    )


@given(transforms())
def test_inverse(T):
    np.testing.assert_allclose(rl.transform_inv(T) @ T, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(
        rl.adjoint_representation(rl.transform_inv(T)),
        np.linalg.inv(rl.adjoint_representation(T)),
        atol=1e-9,
    )


@given(transforms(), st.tuples(*[finite] * 6).map(np.array))
def test_adjoint_conjugates_twist_matrices(T, V):
    """[Ad_T V] = T [V] T⁻¹, the defining property of the adjoint."""
    lhs = rl.vec_to_se3(rl.adjoint_representation(T) @ V)
    rhs = T @ rl.vec_to_se3(V) @ np.linalg.inv(T)
    np.testing.assert_allclose(lhs, rhs, atol=1e-9)


@given(st.tuples(*[finite] * 6).map(np.array), st.tuples(*[finite] * 6).map(np.array))
def test_ad_is_the_lie_bracket(V1, V2):
    bracket = rl.vec_to_se3(V1) @ rl.vec_to_se3(V2) - rl.vec_to_se3(V2) @ rl.vec_to_se3(V1)
    np.testing.assert_allclose(rl.vec_to_se3(rl.ad(V1) @ V2), bracket, atol=1e-9)


def test_exp_and_log_are_continuous_through_zero():
    for eps in [0.0, 1e-15, 1e-9, 1e-5, 9.99e-3, 1.001e-2]:
        V = np.array([eps, 0, 0, 1.0, 2.0, 3.0])
        T = rl.matrix_exp6(rl.vec_to_se3(V))
        np.testing.assert_allclose(rl.se3_to_vec(rl.matrix_log6(T)), V, atol=1e-13)
        # First-order closed form: p = v + (ω × v)/2 for small ω.
        np.testing.assert_allclose(
            T[:3, 3], V[3:] + np.cross(V[:3], V[3:]) / 2, atol=eps**2 + 1e-15
        )


def test_batched_equals_looped():
    rng = np.random.default_rng(3)
    V = rng.normal(size=(5, 6)) * 2
    T = rl.matrix_exp6(rl.vec_to_se3(V))
    assert T.shape == (5, 4, 4)
    for k in range(5):
        np.testing.assert_allclose(T[k], rl.matrix_exp6(rl.vec_to_se3(V[k])), atol=1e-14)
        np.testing.assert_allclose(rl.matrix_log6(T)[k], rl.matrix_log6(T[k]), atol=1e-14)
    assert rl.adjoint_representation(T).shape == (5, 6, 6)


# --------------------------------------------------------------------------- bad input


BAD_INPUT = [
    ("matrix_log3", np.eye(4), r"R must have shape \(\.\.\., 3, 3\), got shape \(4, 4\)"),
    ("matrix_log3", np.diag([1.0, 1.0, -1.0]), r"R must be a rotation matrix.*det\(R\) = -1"),
    ("matrix_log3", 2 * np.eye(3), r"R must be a rotation matrix.*max \|RᵀR - I\| = 3"),
    (
        "matrix_log3",
        [[np.nan, 0, 0], [0, 1, 0], [0, 0, 1]],
        r"R contains a non-finite value \(nan\) at index \(0, 0\)",
    ),
    ("matrix_exp6", np.eye(4), r"rotation block of se3mat must be skew-symmetric"),
    ("matrix_exp3", [[0, 1, 0], [1, 0, 0], [0, 0, 0]], r"so3mat must be skew-symmetric"),
    ("vec_to_so3", [1, 2], r"omega must have shape \(\.\.\., 3\), got shape \(2,\)"),
    ("vec_to_se3", "abc", r"V must be numeric, got the text 'abc'"),
    ("transform_inv", np.ones((4, 4)), r"T must be a homogeneous transform with bottom row"),
    (
        "matrix_log6",
        [[1, 0, 0, np.inf], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        r"T contains a non-finite value \(inf\) at index \(0, 3\)",
    ),
    ("axis_angle3", [0, 0, 0], r"zero rotation has no axis"),
    ("normalize", [0, 0, 0], r"v must be a non-zero vector"),
]


@pytest.mark.parametrize(("function", "argument", "message"), BAD_INPUT)
def test_bad_input_is_named(function, argument, message):
    error = TypeError if "must be numeric" in message else ValueError  # text is not a number
    with pytest.raises(error, match=message):
        getattr(rl, function)(argument)


def test_bad_input_with_several_arguments_is_named():
    with pytest.raises(ValueError, match=r"s must be a unit vector, got \|s\| = 2"):
        rl.screw_to_axis([0, 0, 0], [0, 0, 2], 0)
    with pytest.raises(ValueError, match=r"p must have shape \(\.\.\., 3\), got shape \(2,\)"):
        rl.rotation_position_to_transform(np.eye(3), [1, 2])
