"""Everything that draws: 3D robot views, frame pictures, sliders and live figures, the
teach pendant, animations and the chapters' widgets, over one drawable protocol for DH
and screw robots.

Imports support, spatial, the kinematic modules of screw (robot, kinematics, velocity
and inverse kinematics, manipulability, kinematic_chain, trajectories) and dh's DHRobot
(to tell the two kinds of robot apart, once): never screw's dynamics, rnea_steps,
simulation, integrators, control or robot_first (views of dynamics get data or a
function from the notebook).
"""

from .chapters.controller_comparison import ControllerComparison, controller_comparison
from .chapters.drop_the_arm import DropTheArm, drop_the_arm
from .chapters.inverse_kinematics_explorer import (
    InverseKinematicsExplorer,
    explore_inverse_kinematics,
)
from .chapters.joint_tuner import JointTuner, joint_tuner
from .chapters.manipulability_map import ManipulabilityMap, manipulability_map
from .chapters.rnea_stepper import RneaStepper, rnea_stepper
from .chapters.trajectory_view import TrajectoryView, trajectory_view
from .chapters.twist_view import TwistView, twist_view
from .drawing.drawable import DrawableRobot, RobotAdapter, Snapshot
from .drawing.frame_pictures import FrameTriad, draw_frame, frame_axes
from .drawing.options import ViewOptions
from .drawing.robot_view import RobotView, plot_robot
from .widgets.animation import RobotAnimation, animate
from .widgets.live_figure import (
    LiveFigure,
    angle_slider,
    choice_buttons,
    live_figure,
    matrix_html,
    number_slider,
)
from .widgets.teach_pendant import TeachPendant, teach

__all__ = [
    "ControllerComparison",
    "DrawableRobot",
    "DropTheArm",
    "FrameTriad",
    "InverseKinematicsExplorer",
    "JointTuner",
    "LiveFigure",
    "ManipulabilityMap",
    "RneaStepper",
    "RobotAdapter",
    "RobotAnimation",
    "RobotView",
    "Snapshot",
    "TeachPendant",
    "TrajectoryView",
    "TwistView",
    "ViewOptions",
    "angle_slider",
    "animate",
    "choice_buttons",
    "controller_comparison",
    "draw_frame",
    "drop_the_arm",
    "explore_inverse_kinematics",
    "frame_axes",
    "joint_tuner",
    "live_figure",
    "manipulability_map",
    "matrix_html",
    "number_slider",
    "plot_robot",
    "rnea_stepper",
    "teach",
    "trajectory_view",
    "twist_view",
]
