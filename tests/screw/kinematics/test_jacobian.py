"""Velocity kinematics (Modern Robotics, chapter 5): space and body Jacobians, manipulability.

References: the printed examples of the book library's JacobianSpace and
JacobianBody; ``modern_robotics`` at random configurations; Pinocchio's frame
Jacobians (WORLD = space Jacobian, LOCAL = body Jacobian) for the arms of
``reference/screw_arms.py``. Pinocchio orders twists [v; ω]; the reference file
stores its Jacobians with the rows swapped to robolab's [ω; v] (see
``reference/generate_pinocchio_screw_reference.py``). Finite differences of
the forward kinematics check V = J θ̇ independently of any library.
"""

from pathlib import Path

import modern_robotics as mr
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.screw_arms import ARMS, book_angles, panda_like, twists, ur5

import robolab as rl
from robolab.screw.kinematics import jacobian as vk

REFERENCE = np.load(Path(__file__).parents[2] / "reference" / "pinocchio_screw_reference.npz")
S_LIBRARY = np.array(
    [[0, 0, 1, 0, 0.2, 0.2], [1, 0, 0, 2, 0, 3], [0, 1, 0, 0, 2, 1], [1, 0, 0, 0.2, 0.3, 0.4]]
).T
THETA_LIBRARY = [0.2, 1.1, 0.1, 1.2]


def test_book_library_examples():
    expected_space = [
        [0, 0.98006658, -0.09011564, 0.95749426],
        [0, 0.19866933, 0.4445544, 0.28487557],
        [1, 0, 0.89120736, -0.04528405],
        [0, 1.95218638, -2.21635216, -0.51161537],
        [0.2, 0.43654132, -2.43712573, 2.77535713],
        [0.2, 2.96026613, 3.23573065, 2.22512443],
    ]
    expected_body = [
        [-0.04528405, 0.99500417, 0, 1],
        [0.74359313, 0.09304865, 0.36235775, 0],
        [-0.66709716, 0.03617541, -0.93203909, 0],
        [2.32586047, 1.66809, 0.56410831, 0.2],
        [-1.44321167, 2.94561275, 1.43306521, 0.3],
        [-2.06639565, 1.82881722, -1.58868628, 0.4],
    ]
    np.testing.assert_allclose(
        vk.jacobian_space(S_LIBRARY, THETA_LIBRARY), expected_space, atol=5e-9
    )
    np.testing.assert_allclose(vk.jacobian_body(S_LIBRARY, THETA_LIBRARY), expected_body, atol=5e-9)


@pytest.mark.parametrize("name", sorted(ARMS))
def test_jacobians_match_pinocchio(name):
    robot = ARMS[name]()
    q = REFERENCE[f"{name}__q"]
    np.testing.assert_allclose(
        rl.jacobian_space(robot, q), REFERENCE[f"{name}__jacobian_space"], atol=1e-12
    )
    np.testing.assert_allclose(
        rl.jacobian_body(robot, q), REFERENCE[f"{name}__jacobian_body"], atol=1e-12
    )


@settings(max_examples=30)
@given(data=st.data(), n=st.integers(1, 7))
def test_jacobians_match_modern_robotics(data, n):
    S = data.draw(twists(n))
    theta = np.array([data.draw(book_angles) for _ in range(n)])
    np.testing.assert_allclose(vk.jacobian_space(S, theta), mr.JacobianSpace(S, theta), atol=1e-10)
    np.testing.assert_allclose(vk.jacobian_body(S, theta), mr.JacobianBody(S, theta), atol=1e-10)


def test_jacobians_give_the_twist_of_the_forward_kinematics():
    # [V_s] = Ṫ T⁻¹ and [V_b] = T⁻¹ Ṫ, with Ṫ by central differences along θ̇.
    robot = panda_like()
    rng = np.random.default_rng(3)
    q, qd = rng.uniform(-2, 2, 7), rng.uniform(-1, 1, 7)
    h = 1e-6
    T = rl.forward_kinematics_space(robot, q)
    T_dot = (
        rl.forward_kinematics_space(robot, q + h * qd)
        - rl.forward_kinematics_space(robot, q - h * qd)
    ) / (2 * h)
    V_s = mr.se3ToVec(T_dot @ mr.TransInv(T))
    V_b = mr.se3ToVec(mr.TransInv(T) @ T_dot)
    np.testing.assert_allclose(rl.jacobian_space(robot, q) @ qd, V_s, atol=1e-8)
    np.testing.assert_allclose(rl.jacobian_body(robot, q) @ qd, V_b, atol=1e-8)


def test_body_jacobian_is_the_space_jacobian_seen_from_the_end_effector():
    robot = ur5()
    q = np.random.default_rng(4).uniform(-3, 3, (5, 6))
    J_s, J_b = rl.jacobian_space(robot, q), rl.jacobian_body(robot, q)
    for i in range(5):
        T_bs = mr.TransInv(rl.forward_kinematics_space(robot, q[i]))
        np.testing.assert_allclose(J_b[i], mr.Adjoint(T_bs) @ J_s[i], atol=1e-12)
        np.testing.assert_allclose(J_s[i], rl.jacobian_space(robot, q[i]), atol=1e-15)


# --------------------------------------------------------------------------- manipulability


def planar_linear_jacobian(t1, t2, l1=1.0, l2=1.0):
    return np.array(
        [
            [-l1 * np.sin(t1) - l2 * np.sin(t1 + t2), -l2 * np.sin(t1 + t2)],
            [l1 * np.cos(t1) + l2 * np.cos(t1 + t2), l2 * np.cos(t1 + t2)],
        ]
    )


@settings(max_examples=30)
@given(t1=st.floats(-3, 3), t2=st.floats(-3, 3), l1=st.floats(0.1, 2), l2=st.floats(0.1, 2))
def test_manipulability_of_the_planar_2r_arm_is_l1_l2_sin_theta2(t1, t2, l1, l2):
    # Book, section 5.4: for the 2R arm det J = L1 L2 sin θ2, zero when stretched or folded.
    value = vk.manipulability(planar_linear_jacobian(t1, t2, l1, l2))
    assert value == pytest.approx(abs(l1 * l2 * np.sin(t2)), abs=1e-12)


def test_manipulability_batched_and_rectangular():
    rng = np.random.default_rng(5)
    J = rng.normal(size=(4, 6, 7))
    values = vk.manipulability(J)
    assert values.shape == (4,)
    for i in range(4):
        assert values[i] == pytest.approx(np.sqrt(np.linalg.det(J[i] @ J[i].T)), rel=1e-10)
    assert vk.manipulability(rng.normal(size=(6, 3))) == 0.0  # k > n: never full rank
    assert rl.manipulability is vk.manipulability


def test_velocity_ellipsoid_axes_and_radii_are_those_of_j_jt():
    J = np.random.default_rng(6).normal(size=(3, 6))
    radii, axes = vk.manipulability_ellipsoid(J)
    assert np.all(np.diff(radii) <= 0)  # largest first
    np.testing.assert_allclose(axes.T @ axes, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(J @ J.T @ axes, axes * radii**2, atol=1e-12)
    force_radii, force_axes = vk.manipulability_ellipsoid(J, kind="force")
    np.testing.assert_allclose(force_radii, 1 / radii, rtol=1e-12)
    np.testing.assert_array_equal(force_axes, axes)
    # The volume of the velocity ellipsoid is the manipulability (times that of a unit ball).
    assert np.prod(radii) == pytest.approx(vk.manipulability(J), rel=1e-12)


def test_ellipsoid_at_a_singularity_and_of_a_tall_block():
    stretched = planar_linear_jacobian(0.0, 0.0)  # both links along x: no velocity along x
    radii, axes = vk.manipulability_ellipsoid(stretched)
    assert radii[1] == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(abs(axes[:, 1] @ [1.0, 0.0]), 1.0, atol=1e-12)
    force_radii, _ = vk.manipulability_ellipsoid(stretched, kind="force")
    assert np.isinf(force_radii[1]) and np.isfinite(force_radii[0])
    tall_radii, tall_axes = vk.manipulability_ellipsoid(np.ones((3, 2)))
    assert tall_radii.shape == (3,) and tall_axes.shape == (3, 3)
    assert tall_radii[2] == 0.0


def test_ellipsoid_batched():
    J = np.random.default_rng(7).normal(size=(2, 5, 3, 7))
    radii, axes = vk.manipulability_ellipsoid(J)
    assert radii.shape == (2, 5, 3) and axes.shape == (2, 5, 3, 3)
    single = vk.manipulability_ellipsoid(J[1, 2])
    np.testing.assert_allclose(radii[1, 2], single[0])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: vk.jacobian_space(S_LIBRARY, [1, 2, 3]),
            r"joint_positions must have shape \(4,\) or \(\.\.\., 4\) for 4 joints, "
            r"got shape \(3,\)",
        ),
        (
            lambda: vk.jacobian_body(S_LIBRARY.T, THETA_LIBRARY),
            r"body_screw_axes must have shape \(6, n\), got shape \(4, 6\)",
        ),
        (
            lambda: vk.jacobian_space(S_LIBRARY, [0, 0, np.nan, 0]),
            "joint_positions contains a non-finite value",
        ),
        (lambda: vk.manipulability([1.0, 2.0]), r"jacobian must have shape \(\.\.\., n, n\)"),
        (lambda: vk.manipulability([[1.0, np.inf]]), "jacobian contains a non-finite value"),
        (
            lambda: vk.manipulability_ellipsoid(np.eye(3), kind="speed"),
            "kind must be 'velocity' or 'force', got 'speed'",
        ),
        (lambda: rl.jacobian_body(ur5(), np.zeros(7)), r"must have shape \(6,\) or \(\.\.\., 6\)"),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()
