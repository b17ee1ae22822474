"""robolab: learn and teach robot-arm kinematics and dynamics in Jupyter.

The package face only re-exports; every algorithm lives in a module named
after what it holds (see README.md, "Where things are").
"""

from . import exercises, symbols
from ._widgets import in_test_mode, set_test_mode
from .animation import RobotAnimation, animate
from .derivation import Derivation, Step
from .dh_robot import DHRobot
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
from .teach import TeachPendant, teach
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
from .view import RobotView, plot_robot

__version__ = "0.1.0"
