"""Everything that draws: 3D robot views, frame pictures, sliders and live figures, the
teach pendant and animations, over one drawable interface for DH and screw robots.

Imports support, spatial and the kinematic modules of screw (kinematics,
velocity_kinematics, kinematic_chain): never dynamics, simulation, control or robot_first.
"""

from .animation import RobotAnimation, animate
from .frame_pictures import FrameTriad, draw_frame, frame_axes
from .robot_view import RobotView, plot_robot
from .sliders import (
    LiveFigure,
    angle_slider,
    choice_buttons,
    live_figure,
    matrix_html,
    number_slider,
)
from .teach_pendant import TeachPendant, teach

__all__ = [
    "FrameTriad",
    "LiveFigure",
    "RobotAnimation",
    "RobotView",
    "TeachPendant",
    "angle_slider",
    "animate",
    "choice_buttons",
    "draw_frame",
    "frame_axes",
    "live_figure",
    "matrix_html",
    "number_slider",
    "plot_robot",
    "teach",
]
