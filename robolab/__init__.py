"""robolab: learn and teach robot-arm kinematics and dynamics in Jupyter.

The package face only re-exports. The code lives in subpackages, one layer each, imports
going one way (see docs/architecture.md):

    conventions → support → spatial → screw → dh → models → views, lessons → robolab

and ``robolab.exercises`` and ``robolab.symbols`` are the two module paths the notebooks use.

``import robolab`` loads none of them (PEP 562): a name is imported from its subpackage the
first time it is used, so a numeric script does not pay for SymPy, matplotlib and ipywidgets,
and ``robolab.__all__``, ``dir(robolab)`` and tab completion list every name all the same.

Examples
--------
>>> import robolab
>>> "load_robot" in robolab.__all__ and "load_robot" in dir(robolab)
True
>>> robolab.rotz(0.0).shape
(3, 3)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: The public names by the subpackage that defines them (each subpackage's ``__all__``
#: holds at least these; ``tests/contracts/test_architecture.py`` checks that every one resolves).
_HOMES: dict[str, tuple[str, ...]] = {
    "dh": (
        "Derivation",
        "DHRobot",
        "SingularityFactors",
        "Step",
        "singularity_factors",
        "to_latex",
        "to_text",
    ),
    "lessons": (
        "ComparedQuantity",
        "ModelComparison",
        "Reveal",
        "compare_models",
        "progress_summary",
        "reveal",
        "save_progress",
    ),
    "models": (
        "RobotModelData",
        "check_plausibility",
        "list_robots",
        "load_robot",
        "read_robot_model",
        "save_robot",
    ),
    "screw": (
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
    ),
    "spatial": (
        "ad",
        "adjoint_representation",
        "adjoint_transpose",
        "axis_angle3",
        "axis_angle6",
        "dh_modified",
        "dh_standard",
        "distance_to_se3",
        "distance_to_so3",
        "is_se3",
        "is_so3",
        "matrix_exp3",
        "matrix_exp6",
        "matrix_log3",
        "matrix_log6",
        "near_zero",
        "normalize",
        "project_to_se3",
        "project_to_so3",
        "quaternion_multiply",
        "quaternion_to_rotation",
        "rotation_position_to_transform",
        "rotation_to_quaternion",
        "rotation_to_rpy",
        "rotation_to_zyz",
        "rotx",
        "roty",
        "rotz",
        "rpy_rate_matrix",
        "rpy_to_rotation",
        "screw_to_axis",
        "se3_to_vec",
        "so3_to_vec",
        "transform_inv",
        "transform_to_rotation_position",
        "transl",
        "trotx",
        "troty",
        "trotz",
        "twist_from_pose_rate",
        "vec_to_se3",
        "vec_to_so3",
        "wrench_transform",
        "zyz_to_rotation",
    ),
    "support": (
        "in_test_mode",
        "set_test_mode",
    ),
    "views": (
        "ControllerComparison",
        "DropTheArm",
        "FrameTriad",
        "InverseKinematicsExplorer",
        "JointTuner",
        "LiveFigure",
        "ManipulabilityMap",
        "RneaStepper",
        "RobotAnimation",
        "RobotView",
        "TeachPendant",
        "TrajectoryView",
        "TwistView",
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
    ),
}
#: Modules of the face itself: the two paths the notebooks import.
_MODULES = ("exercises", "symbols")
#: The layers, reachable as attributes too (``robolab.screw.robot`` after ``import robolab``).
_SUBPACKAGES = ("conventions", "support", "spatial", "screw", "dh", "models", "views", "lessons")

_HOME_OF = {name: home for home, names in _HOMES.items() for name in names}

__all__ = sorted([*_HOME_OF, *_MODULES])


def __getattr__(name: str) -> Any:
    """Import a public name from its subpackage on first use (PEP 562)."""
    if name in _MODULES or name in _SUBPACKAGES:
        value: Any = importlib.import_module(f"{__name__}.{name}")
    elif name in _HOME_OF:
        value = getattr(importlib.import_module(f"{__name__}.{_HOME_OF[name]}"), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_SUBPACKAGES})


if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ loads them
    from . import exercises as exercises
    from . import symbols as symbols
    from .dh import *  # noqa: F403
    from .lessons import *  # noqa: F403
    from .models import *  # noqa: F403
    from .screw import *  # noqa: F403
    from .spatial import *  # noqa: F403
    from .support import *  # noqa: F403
    from .views import *  # noqa: F403
