"""robolab: learn and teach robot-arm kinematics and dynamics in Jupyter.

The package face only re-exports; every algorithm lives in a module named
after what it holds (see README.md, "Where things are").
"""

from . import exercises, symbols
from ._widgets import in_test_mode, set_test_mode
from .animation import RobotAnimation, animate
from .derivation import Derivation, Step, to_latex, to_text
from .dh_robot import DHRobot
from .frame_pictures import FrameTriad, draw_frame, frame_axes
from .inverse_kinematics import InverseKinematicsResult
from .model_comparison import ComparedQuantity, ModelComparison, compare_models
from .reveal import Reveal, reveal
from .rigid_body_motions import (
    ad,
    adjoint_representation,
    axis_angle3,
    axis_angle6,
    distance_to_se3,
    distance_to_so3,
    is_se3,
    is_so3,
    matrix_exp3,
    matrix_exp6,
    matrix_log3,
    matrix_log6,
    near_zero,
    normalize,
    project_to_se3,
    project_to_so3,
    rotation_position_to_transform,
    screw_to_axis,
    se3_to_vec,
    so3_to_vec,
    transform_inv,
    transform_to_rotation_position,
    vec_to_se3,
    vec_to_so3,
)
from .robot_library import (
    RobotModelData,
    check_plausibility,
    list_robots,
    load_robot,
    read_robot_model,
    save_robot,
)
from .screw_robot import ScrewRobot
from .screw_robot_algorithms import (
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
from .simulation import euler_step
from .sliders import (
    LiveFigure,
    angle_slider,
    choice_buttons,
    live_figure,
    matrix_html,
    number_slider,
)
from .teach import TeachPendant, teach
from .trajectory_generation import (
    cartesian_trajectory,
    cubic_time_scaling,
    joint_trajectory,
    quintic_time_scaling,
    screw_trajectory,
)
from .transforms import (
    dh_modified,
    dh_standard,
    rotation_to_rpy,
    rotx,
    roty,
    rotz,
    rpy_to_rotation,
    transl,
    trotx,
    troty,
    trotz,
)
from .velocity_kinematics import manipulability, manipulability_ellipsoid
from .view import RobotView, plot_robot

__version__ = "0.1.0"
