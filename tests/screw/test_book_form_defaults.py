"""The robot-first functions: same numbers as the array forms, defaults taken from the robot.

ModernRoboticsBook.jl's wrappers supply the robot's arrays to the chapter
functions and default gravity to ``robot.gravity`` and the tip wrench to zero;
these tests hold robolab's to the same contract, function by function.
"""

import inspect

import numpy as np
import pytest
from reference.screw_arms import panda_like, ur5

import robolab as rl
from robolab.screw.control import laws, tracking
from robolab.screw.dynamics import energy, mass_matrix
from robolab.screw.dynamics import forward as forward_dynamics
from robolab.screw.dynamics import rnea as dynamics
from robolab.screw.kinematics import forward as kinematics
from robolab.screw.kinematics import jacobian as velocity
from robolab.screw.simulation import dynamics_trajectory as simulation
from robolab.screw.simulation import integrators

BOOK_NAMES = [
    "forward_kinematics_space",
    "forward_kinematics_body",
    "jacobian_space",
    "jacobian_body",
    "inverse_kinematics_space",
    "inverse_kinematics_body",
    "inverse_dynamics_rnea",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "velocity_quadratic_forces",
    "gravity_forces",
    "end_effector_forces",
    "forward_dynamics_aba",
    "forward_dynamics_crba",
    "forward_dynamics_rnea",
    "euler_step",
    "runge_kutta4_step",
    "inverse_dynamics_trajectory",
    "forward_dynamics_trajectory",
    "cubic_time_scaling",
    "quintic_time_scaling",
    "joint_trajectory",
    "screw_trajectory",
    "cartesian_trajectory",
    "computed_torque",
    "simulate_control",
    "link_frames_space",
    "manipulability",
    "manipulability_ellipsoid",
    "ScrewRobot",
]


def test_every_name_of_the_book_is_importable_from_robolab():
    missing = [name for name in BOOK_NAMES if not hasattr(rl, name)]
    assert not missing


@pytest.mark.parametrize(
    "name",
    [
        name
        for name in BOOK_NAMES
        if name
        not in (
            "euler_step",
            "cubic_time_scaling",
            "quintic_time_scaling",
            "joint_trajectory",
            "screw_trajectory",
            "cartesian_trajectory",
            "manipulability",
            "manipulability_ellipsoid",
            "ScrewRobot",
        )
    ],
)
def test_robot_first_functions_take_the_robot_first(name):
    parameters = list(inspect.signature(getattr(rl, name)).parameters)
    assert parameters[0] == "robot"


def arrays(robot):
    return robot.link_frames, robot.spatial_inertias, robot.screw_axes_space


ROBOT = panda_like(gravity=(0.3, -0.2, -9.7))
RNG = np.random.default_rng(12)
Q, QD, QDD, TAU = RNG.uniform(-1.5, 1.5, (4, 7))
TIP = RNG.normal(size=6)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (
            lambda r: rl.forward_kinematics_space(r, Q),
            lambda r: kinematics.forward_kinematics_space(r.home_ee_pose, r.screw_axes_space, Q),
        ),
        (
            lambda r: rl.forward_kinematics_body(r, Q),
            lambda r: kinematics.forward_kinematics_body(r.home_ee_pose, r.screw_axes_body, Q),
        ),
        (
            lambda r: rl.link_frames_space(r, Q),
            lambda r: kinematics.link_frames_space(r.link_frames, r.screw_axes_space, Q),
        ),
        (
            lambda r: rl.jacobian_space(r, Q),
            lambda r: velocity.jacobian_space(r.screw_axes_space, Q),
        ),
        (lambda r: rl.jacobian_body(r, Q), lambda r: velocity.jacobian_body(r.screw_axes_body, Q)),
        (
            lambda r: rl.inverse_dynamics_rnea(r, Q, QD, QDD),
            lambda r: dynamics.inverse_dynamics_rnea(
                Q, QD, QDD, r.gravity, np.zeros(6), *arrays(r)
            ),
        ),
        (
            lambda r: rl.inverse_dynamics_rnea(r, Q, QD, QDD, [0, 0, -1], TIP),
            lambda r: dynamics.inverse_dynamics_rnea(Q, QD, QDD, [0, 0, -1], TIP, *arrays(r)),
        ),
        (
            lambda r: rl.mass_matrix_crba(r, Q),
            lambda r: mass_matrix.mass_matrix_crba(Q, *arrays(r)),
        ),
        (
            lambda r: rl.mass_matrix_rnea(r, Q),
            lambda r: mass_matrix.mass_matrix_rnea(Q, *arrays(r)),
        ),
        (
            lambda r: rl.velocity_quadratic_forces(r, Q, QD),
            lambda r: dynamics.velocity_quadratic_forces(Q, QD, *arrays(r)),
        ),
        (
            lambda r: rl.gravity_forces(r, Q),
            lambda r: dynamics.gravity_forces(Q, r.gravity, *arrays(r)),
        ),
        (
            lambda r: rl.end_effector_forces(r, Q, TIP),
            lambda r: dynamics.end_effector_forces(Q, TIP, *arrays(r)),
        ),
        (
            lambda r: rl.kinetic_energy(r, Q, QD),
            lambda r: energy.kinetic_energy(Q, QD, *arrays(r)),
        ),
        (
            lambda r: rl.potential_energy(r, Q),
            lambda r: energy.potential_energy(Q, r.gravity, *arrays(r)),
        ),
        (
            lambda r: rl.forward_dynamics_crba(r, Q, QD, TAU),
            lambda r: forward_dynamics.forward_dynamics_crba(
                Q, QD, TAU, r.gravity, np.zeros(6), *arrays(r)
            ),
        ),
        (
            lambda r: rl.forward_dynamics_aba(r, Q, QD, TAU, tip_wrench=TIP),
            lambda r: forward_dynamics.forward_dynamics_aba(Q, QD, TAU, r.gravity, TIP, *arrays(r)),
        ),
        (
            lambda r: rl.forward_dynamics_rnea(r, Q, QD, TAU),
            lambda r: forward_dynamics.forward_dynamics_rnea(
                Q, QD, TAU, r.gravity, np.zeros(6), *arrays(r)
            ),
        ),
        (
            lambda r: rl.runge_kutta4_step(r, Q, QD, TAU, 0.01),
            lambda r: integrators.runge_kutta4_step(
                Q, QD, TAU, r.gravity, np.zeros(6), *arrays(r), 0.01
            ),
        ),
        (
            lambda r: rl.inverse_dynamics_trajectory(r, [Q, QD], [QD, Q], [QDD, TAU]),
            lambda r: simulation.inverse_dynamics_trajectory(
                [Q, QD], [QD, Q], [QDD, TAU], r.gravity, None, *arrays(r)
            ),
        ),
        (
            lambda r: rl.forward_dynamics_trajectory(r, Q, QD, [TAU] * 4, 0.01, 3),
            lambda r: simulation.forward_dynamics_trajectory(
                Q, QD, [TAU] * 4, r.gravity, None, *arrays(r), 0.01, 3
            ),
        ),
        (
            lambda r: rl.computed_torque(r, Q, QD, TAU, QD, Q, QDD, 20, 10, 18),
            lambda r: laws.computed_torque(
                Q, QD, TAU, r.gravity, *arrays(r), QD, Q, QDD, 20, 10, 18
            ),
        ),
        (
            lambda r: rl.simulate_control(
                r, Q, QD, None, [Q] * 3, [QD] * 3, [QDD] * 3, r, 20, 10, 18, 0.01, 2
            ),
            lambda r: tracking.simulate_control(
                Q,
                QD,
                r.gravity,
                None,
                *arrays(r),
                [Q] * 3,
                [QD] * 3,
                [QDD] * 3,
                r.gravity,
                r.link_frames,
                r.spatial_inertias,
                20,
                10,
                18,
                0.01,
                2,
            ),
        ),
    ],
)
def test_robot_first_form_equals_the_array_form(ours, theirs):
    for a, b in zip(np.atleast_1d(ours(ROBOT)), np.atleast_1d(theirs(ROBOT)), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_gravity_comes_from_the_robot_unless_given():
    robot = ur5()
    q = np.array([0.2, -0.7, 0.9, 0.1, 0.4, -0.3])
    wall = robot.with_gravity([9.81, 0, 0])
    np.testing.assert_allclose(
        rl.gravity_forces(wall, q), rl.gravity_forces(robot, q, [9.81, 0, 0]), atol=1e-10
    )
    np.testing.assert_allclose(
        rl.inverse_dynamics_rnea(wall, q, np.zeros(6), np.zeros(6)),
        rl.gravity_forces(wall, q),
        atol=1e-10,
    )
    np.testing.assert_allclose(
        rl.forward_dynamics_crba(wall, q, np.zeros(6), rl.gravity_forces(wall, q)),
        np.zeros(6),
        atol=1e-10,
    )
    zero = robot.with_gravity([0, 0, 0])
    assert rl.potential_energy(zero, q) == 0.0


def test_robot_first_forms_are_fast_paths_that_cache_per_robot():
    robot = ur5()
    assert "dynamics" not in robot._cache
    rl.mass_matrix_crba(robot, np.zeros(6))
    assert "dynamics" in robot._cache
    model = robot._cache["dynamics"]
    rl.inverse_dynamics_rnea(robot.with_gravity([0, 0, -1]), np.zeros(6), np.zeros(6), np.zeros(6))
    assert robot._cache["dynamics"] is model
