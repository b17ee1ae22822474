"""Everything that draws: 3D robot views, frame pictures, sliders and live figures, the
teach pendant and animations, over one drawable protocol for DH and screw robots.

Imports support, spatial, the kinematic modules of screw (robot, kinematics,
velocity_kinematics, kinematic_chain) and dh's DHRobot (to tell the two kinds of robot
apart, once): never screw's dynamics, simulation, control or robot_first.
"""

from .animation import RobotAnimation, animate
from .drawable import DrawableRobot, RobotAdapter, Snapshot
from .frame_pictures import FrameTriad, draw_frame, frame_axes
from .options import ViewOptions
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
    "DrawableRobot",
    "FrameTriad",
    "LiveFigure",
    "RobotAdapter",
    "RobotAnimation",
    "RobotView",
    "Snapshot",
    "TeachPendant",
    "ViewOptions",
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
