"""The numeric back end: a :class:`ScrewRobot` (product of exponentials) and the book's
algorithms in chapter order -- kinematics (4), velocity kinematics (5), inverse
kinematics (6), dynamics and simulation (8), trajectories (9), control (11) -- as array
forms in the chapter modules and robot-first forms in :mod:`robolab.screw.robot_first`.

Imports only robolab.support and robolab.spatial.
"""

from .inverse_kinematics import InverseKinematicsResult
from .robot import ScrewRobot
from .robot_first import (
    computed_torque,
    end_effector_forces,
    forward_dynamics_aba,
    forward_dynamics_crba,
    forward_dynamics_rnea,
    forward_dynamics_trajectory,
    forward_kinematics_body,
    forward_kinematics_space,
    gravity_forces,
    inverse_dynamics_rnea,
    inverse_dynamics_trajectory,
    inverse_kinematics_body,
    inverse_kinematics_space,
    jacobian_body,
    jacobian_space,
    kinetic_energy,
    link_frames_space,
    mass_matrix_crba,
    mass_matrix_rnea,
    potential_energy,
    runge_kutta4_step,
    simulate_control,
    velocity_quadratic_forces,
)
from .simulation import SimulationDiverged, euler_step
from .trajectory_generation import (
    cartesian_trajectory,
    cubic_time_scaling,
    joint_trajectory,
    quintic_time_scaling,
    screw_trajectory,
)
from .velocity_kinematics import manipulability, manipulability_ellipsoid

__all__ = [
    "InverseKinematicsResult",
    "ScrewRobot",
    "SimulationDiverged",
    "cartesian_trajectory",
    "computed_torque",
    "cubic_time_scaling",
    "end_effector_forces",
    "euler_step",
    "forward_dynamics_aba",
    "forward_dynamics_crba",
    "forward_dynamics_rnea",
    "forward_dynamics_trajectory",
    "forward_kinematics_body",
    "forward_kinematics_space",
    "gravity_forces",
    "inverse_dynamics_rnea",
    "inverse_dynamics_trajectory",
    "inverse_kinematics_body",
    "inverse_kinematics_space",
    "jacobian_body",
    "jacobian_space",
    "joint_trajectory",
    "kinetic_energy",
    "link_frames_space",
    "manipulability",
    "manipulability_ellipsoid",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "potential_energy",
    "quintic_time_scaling",
    "runge_kutta4_step",
    "screw_trajectory",
    "simulate_control",
    "velocity_quadratic_forces",
]
