"""What the dynamics algorithms read (``screw/dynamics/model.py``): a robot's constants,
cached once per robot, its kinematics at θ, and the checks of gravity and tip wrench.

References: ``modern_robotics`` (``JacobianSpace``, ``FKinSpace``, ``Adjoint``) for the
kinematics at θ; the definitions for the constants (G'_k = [Ad_{M_0k⁻¹}]ᵀ G_k [Ad_{M_0k⁻¹}],
L_kᵀ L_k = G'_k).
"""

import modern_robotics as mr
import numpy as np
import pytest
from reference.screw_arms import panda_like, scara_like, three_link_book

import robolab as rl
from robolab.screw.book_form import BookArrays
from robolab.screw.dynamics.model import (
    DynamicsModel,
    KinematicState,
    dynamics_model,
    gravity_of,
    model_of,
    robot_model,
    tip_of,
    tip_wrench_space,
)

FRAMES, INERTIAS, SCREWS = three_link_book()


def test_the_constants_are_the_inertias_in_frames_at_home():
    model = dynamics_model(FRAMES, INERTIAS, SCREWS)
    assert model.n == 3
    home = np.eye(4)
    for k in range(3):
        home = home @ FRAMES[k]
        to_link = mr.Adjoint(mr.TransInv(home))
        np.testing.assert_allclose(
            model.home_inertias[k], to_link.T @ INERTIAS[k] @ to_link, atol=1e-12
        )
        roots = model.inertia_roots[k]
        np.testing.assert_allclose(roots.T @ roots, model.home_inertias[k], atol=1e-12)
        np.testing.assert_allclose(model.home_centres[k], home[:3, 3], atol=0)
    np.testing.assert_array_equal(model.masses, INERTIAS[:, 3, 3])
    np.testing.assert_array_equal(model.mask[:, 0], np.tril(np.ones((3, 3))))
    assert model.inertia_shape(2).shape == (3, 1, 1, 6, 6)
    assert model.link_mask(1).shape == (3, 1, 1, 3)


def test_models_are_cached_by_robot_and_by_the_numbers_of_the_arrays():
    robot = panda_like()
    assert robot_model(robot) is robot_model(robot) is model_of(robot)
    first = dynamics_model(FRAMES, INERTIAS, SCREWS)
    assert dynamics_model(FRAMES.copy(), INERTIAS.copy(), SCREWS.copy()) is first
    assert dynamics_model(FRAMES, 2 * INERTIAS, SCREWS) is not first
    book = BookArrays(link_frames=FRAMES, spatial_inertias=INERTIAS, screw_axes=SCREWS)
    assert model_of(book) is first
    assert isinstance(first, DynamicsModel)


def test_bad_arrays_and_robots_are_refused_with_messages():
    with pytest.raises(ValueError, match=r"spatial_inertias must hold 3 matrices"):
        dynamics_model(FRAMES, INERTIAS[:2], SCREWS)
    with pytest.raises(ValueError, match=r"link_frames must hold n \+ 1 = 4 transforms"):
        dynamics_model(list(FRAMES[:3]), INERTIAS, SCREWS)
    with pytest.raises(TypeError, match="arm must be a ScrewRobot, got str"):
        model_of("ur5", name="arm")


@pytest.mark.parametrize("make", [panda_like, scara_like])
def test_kinematics_at_theta_are_the_space_jacobian_and_the_link_adjoints(make):
    robot = make()
    model = robot_model(robot)
    n = model.n
    rng = np.random.default_rng(n)
    q = rng.uniform(-2, 2, (4, n))
    state = KinematicState.at(model, q)
    assert state.batch_ndim == 1 and state.jacobians.shape == (n, 4, 6, n)
    qd = rng.uniform(-1, 1, (4, n))
    twists = state.link_twists(qd)
    for b in range(4):
        J = mr.JacobianSpace(robot.screw_axes_space, q[b])
        np.testing.assert_allclose(state.axes[:, b], J.T, atol=1e-12)
        for k in range(n):
            P = mr.FKinSpace(np.eye(4), robot.screw_axes_space[:, : k + 1], q[b, : k + 1])
            to_link = mr.Adjoint(mr.TransInv(P))
            np.testing.assert_allclose(state.inverse_adjoints[k, b], to_link, atol=1e-12)
            # V'_k: link k's twist (joints 1..k) written in {k'}
            np.testing.assert_allclose(
                twists[k, b], to_link @ J[:, : k + 1] @ qd[b, : k + 1], atol=1e-12
            )
    one = KinematicState.at(model, q[0])
    assert one.batch_ndim == 0
    np.testing.assert_allclose(one.jacobians, state.jacobians[:, 0], atol=1e-12)


def test_the_tip_wrench_in_the_space_frame():
    robot = panda_like()
    model = robot_model(robot)
    q = np.linspace(-1, 1, 7)
    tip = np.array([0.1, -0.2, 0.3, 1.0, 2.0, -3.0])
    T_ee = rl.forward_kinematics_space(robot, q)  # {n+1} in {s}
    expected = mr.Adjoint(mr.TransInv(T_ee)).T @ tip  # F_s = [Ad_{T_{n+1,s}}]ᵀ F_tip
    np.testing.assert_allclose(
        tip_wrench_space(model, KinematicState.at(model, q), tip), expected, atol=1e-12
    )


def test_gravity_and_tip_wrench_checks():
    robot = panda_like(gravity=(0.0, -9.81, 0.0))
    np.testing.assert_array_equal(gravity_of(robot, None), [0.0, -9.81, 0.0])
    np.testing.assert_array_equal(gravity_of(robot, [0, 0, -1]), [0.0, 0.0, -1.0])
    book = BookArrays(
        gravity=[0, 0, -9.8], link_frames=FRAMES, spatial_inertias=INERTIAS, screw_axes=SCREWS
    )
    np.testing.assert_array_equal(gravity_of(book, None), [0.0, 0.0, -9.8])
    with pytest.raises(ValueError, match=r"gravity must have shape \(3,\)"):
        gravity_of(robot, [0, 1])
    q = np.zeros((2, 7))
    assert tip_of(q, None) is None
    assert tip_of(q, np.ones(6)).shape == (6,)
    assert tip_of(q, np.ones((2, 6))).shape == (2, 6)
    with pytest.raises(ValueError, match=r"tip_wrench must have shape \(6,\) or \(2, 6\)"):
        tip_of(q, np.ones((3, 6)))
