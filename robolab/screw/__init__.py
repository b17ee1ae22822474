"""The numeric back end: a :class:`ScrewRobot` (product of exponentials) and the book's
algorithms in chapter order -- kinematics (4), velocity kinematics, the analytical
Jacobian and manipulability (5), numerical and closed-form inverse kinematics (6),
dynamics, the RNEA's steps, integrators and simulation (8), trajectories (9), control
(11) -- each defined once in its chapter module, taking a robot or the book's arrays
first.

Imports only robolab.support and robolab.spatial.
"""

from .control.independent_joint import (
    JointActuator,
    JointResponse,
    JointsResponse,
    StepMetrics,
    simulate_joint,
    simulate_joints,
    step_response_metrics,
)
from .control.laws import computed_torque, simulate_control
from .control.resolved_rate import ResolvedRateResult, joint_limit_gradient, resolved_rate_control
from .control.tracking import (
    CONTROLLERS,
    TrackingRun,
    pd_gravity_torque,
    scaled_inertias,
    simulate_tracking,
    with_payload,
)
from .dynamics.forward import forward_dynamics_aba, forward_dynamics_crba, forward_dynamics_rnea
from .dynamics.rnea import (
    end_effector_forces,
    gravity_forces,
    inverse_dynamics_rnea,
    inverse_dynamics_rnea_textbook,
    kinetic_energy,
    mass_matrix_crba,
    mass_matrix_rnea,
    potential_energy,
    velocity_quadratic_forces,
)
from .dynamics.rnea_steps import RneaLinkStep, RneaSteps, inverse_dynamics_rnea_steps
from .friction import JointFriction
from .kinematics.analytic_jacobian import jacobian_analytic
from .kinematics.forward import forward_kinematics_body, forward_kinematics_space, link_frames_space
from .kinematics.inverse import (
    InverseKinematicsResult,
    inverse_kinematics_body,
    inverse_kinematics_space,
)
from .kinematics.inverse_analytic import (
    AnalyticInverseKinematicsResult,
    NoClosedFormError,
    OutOfReachError,
    arm_family,
    inverse_kinematics_analytic,
)
from .kinematics.jacobian import (
    jacobian_body,
    jacobian_space,
    manipulability,
    manipulability_ellipsoid,
)
from .robot import ScrewRobot
from .simulation.dynamics_trajectory import (
    SimulationDiverged,
    euler_step,
    forward_dynamics_trajectory,
    inverse_dynamics_trajectory,
    runge_kutta4_step,
)
from .simulation.free_motion import Simulation, simulate, total_energy
from .simulation.integrators import INTEGRATORS
from .trajectories.point_to_point import (
    cartesian_trajectory,
    cubic_time_scaling,
    joint_trajectory,
    quintic_time_scaling,
    screw_trajectory,
)
from .trajectories.time_scaling import (
    TrapezoidalProfile,
    minimum_time_profile,
    trapezoidal_profile,
    trapezoidal_time_scaling,
)
from .trajectories.via_points import (
    RestToRestTrajectory,
    ViaPointTrajectory,
    rest_to_rest_trajectory,
    via_point_trajectory,
)

__all__ = [
    "CONTROLLERS",
    "INTEGRATORS",
    "AnalyticInverseKinematicsResult",
    "InverseKinematicsResult",
    "JointActuator",
    "JointFriction",
    "JointResponse",
    "JointsResponse",
    "NoClosedFormError",
    "OutOfReachError",
    "ResolvedRateResult",
    "RestToRestTrajectory",
    "RneaLinkStep",
    "RneaSteps",
    "ScrewRobot",
    "Simulation",
    "SimulationDiverged",
    "StepMetrics",
    "TrackingRun",
    "TrapezoidalProfile",
    "ViaPointTrajectory",
    "arm_family",
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
    "inverse_dynamics_rnea_steps",
    "inverse_dynamics_rnea_textbook",
    "inverse_dynamics_trajectory",
    "inverse_kinematics_analytic",
    "inverse_kinematics_body",
    "inverse_kinematics_space",
    "jacobian_analytic",
    "jacobian_body",
    "jacobian_space",
    "joint_limit_gradient",
    "joint_trajectory",
    "kinetic_energy",
    "link_frames_space",
    "manipulability",
    "manipulability_ellipsoid",
    "mass_matrix_crba",
    "mass_matrix_rnea",
    "minimum_time_profile",
    "pd_gravity_torque",
    "potential_energy",
    "quintic_time_scaling",
    "resolved_rate_control",
    "rest_to_rest_trajectory",
    "runge_kutta4_step",
    "scaled_inertias",
    "screw_trajectory",
    "simulate",
    "simulate_control",
    "simulate_joint",
    "simulate_joints",
    "simulate_tracking",
    "step_response_metrics",
    "total_energy",
    "trapezoidal_profile",
    "trapezoidal_time_scaling",
    "velocity_quadratic_forces",
    "via_point_trajectory",
    "with_payload",
]
