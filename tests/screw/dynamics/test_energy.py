"""The links' energies (Modern Robotics, section 8.1): ``screw/dynamics/energy.py``.

Identities: K = ½ θ̇ᵀ M(θ) θ̇ with the mass matrix, g(θ) = ∂P/∂θ with the gravity torques
(central differences), the robot-first and the book's forms equal, and batches equal to
one state at a time.
"""

import numpy as np
import pytest
from reference.screw_arms import panda_like, ur5

import robolab as rl
from robolab.screw.dynamics import energy


def random_states(count, n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-3, 3, (count, n)), rng.uniform(-2, 2, (count, n))


def test_kinetic_energy_is_half_qd_m_qd():
    robot = panda_like()
    q, qd = (x[0] for x in random_states(1, 7, seed=2))
    assert rl.kinetic_energy(robot, q, qd) == pytest.approx(
        0.5 * qd @ rl.mass_matrix_crba(robot, q) @ qd, rel=1e-12
    )


def test_gravity_torques_are_the_gradient_of_the_potential_energy():
    robot = panda_like(gravity=(0.5, -1.0, -9.6))
    q = random_states(1, 7, seed=3)[0][0]
    h = 1e-6
    gradient = [
        (rl.potential_energy(robot, q + h * e) - rl.potential_energy(robot, q - h * e)) / (2 * h)
        for e in np.eye(7)
    ]
    np.testing.assert_allclose(rl.gravity_forces(robot, q), gradient, atol=1e-7)


def test_energies_batched_and_array_forms():
    robot = ur5()
    q, qd = random_states(4, 6, seed=4)
    arrays = (robot.link_frames, robot.spatial_inertias, robot.screw_axes_space)
    K = rl.kinetic_energy(robot, q, qd)
    P = rl.potential_energy(robot, q)
    assert K.shape == (4,) and P.shape == (4,)
    for i in range(4):
        assert energy.kinetic_energy(q[i], qd[i], *arrays) == pytest.approx(K[i], rel=1e-12)
        assert energy.potential_energy(q[i], robot.gravity, *arrays) == pytest.approx(
            P[i], rel=1e-12
        )
    assert isinstance(rl.kinetic_energy(robot, q[0], qd[0]), float)
    assert isinstance(rl.potential_energy(robot, q[0]), float)
