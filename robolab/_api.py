"""The one table of robolab's public names: each module and the public names it defines.

``robolab`` (the face) and every subpackage (``robolab.screw``, ``robolab.views``, ...) are
built from it: their ``__all__``, ``dir()`` and the names they import on first use (PEP 562).
A public name is written in two places, where it is defined and here; and the table is the
index of where things are: ``forward_dynamics_aba`` is under ``"screw.dynamics.forward"``,
the file ``robolab/screw/dynamics/forward.py``.

A new public name goes into :data:`FACE` (then it is ``robolab.<name>`` and
``robolab.<subpackage>.<name>``) or :data:`SUBPACKAGE` (only ``robolab.<subpackage>.<name>``),
under the module that defines it. ``tests/contracts/test_architecture.py`` checks that every
entry resolves to an object defined in that module and that no module is named like a name.

This module imports nothing of robolab, so every layer may read it.

Examples
--------
>>> home_of("inverse_dynamics_rnea")
'screw.dynamics.rnea'
>>> "ScrewRobot" in names_of("robolab.screw") and "ScrewRobot" in names_of("robolab")
True
>>> "CONTROLLERS" in names_of("robolab.screw"), "CONTROLLERS" in names_of("robolab")
(True, False)
>>> names_of("robolab.screw.kinematics")  # a chapter folder: its modules only
[]
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable
from typing import Any

#: Module (below ``robolab``) → the public names it defines that are also on the face.
FACE: dict[str, tuple[str, ...]] = {
    "support.widgets": ("in_test_mode", "set_test_mode"),
    "spatial.orientations": (
        "quaternion_multiply",
        "quaternion_to_rotation",
        "rotation_to_quaternion",
        "rotation_to_zyz",
        "zyz_to_rotation",
    ),
    "spatial.pose_rates": ("rpy_rate_matrix", "twist_from_pose_rate"),
    "spatial.projections": (
        "distance_to_se3",
        "distance_to_so3",
        "is_se3",
        "is_so3",
        "project_to_se3",
        "project_to_so3",
    ),
    "spatial.rigid_body_motions": (
        "ad",
        "adjoint_representation",
        "axis_angle3",
        "axis_angle6",
        "matrix_exp3",
        "matrix_exp6",
        "matrix_log3",
        "matrix_log6",
        "near_zero",
        "normalize",
        "rotation_position_to_transform",
        "screw_to_axis",
        "se3_to_vec",
        "so3_to_vec",
        "transform_inv",
        "transform_to_rotation_position",
        "vec_to_se3",
        "vec_to_so3",
    ),
    "spatial.transforms": (
        "dh_modified",
        "dh_standard",
        "rotation_to_rpy",
        "rotx",
        "roty",
        "rotz",
        "rpy_to_rotation",
        "transl",
        "trotx",
        "troty",
        "trotz",
    ),
    "spatial.wrenches": ("adjoint_transpose", "wrench_transform"),
    "screw.control.independent_joint": (
        "JointActuator",
        "JointResult",
        "JointsResult",
        "simulate_joint",
        "simulate_joints",
        "step_response_metrics",
        "StepMetrics",
    ),
    "screw.control.laws": ("computed_torque", "pd_gravity_torque"),
    "screw.control.resolved_rate": (
        "joint_limit_gradient",
        "resolved_rate_control",
        "ResolvedRateResult",
    ),
    "screw.control.tracking": (
        "scaled_inertias",
        "simulate_control",
        "simulate_tracking",
        "TrackingResult",
        "with_payload",
    ),
    "screw.dynamics.forward": (
        "forward_dynamics_aba",
        "forward_dynamics_crba",
        "forward_dynamics_rnea",
    ),
    "screw.dynamics.energy": ("kinetic_energy", "potential_energy"),
    "screw.dynamics.mass_matrix": ("mass_matrix_crba", "mass_matrix_rnea"),
    "screw.dynamics.rnea": (
        "end_effector_forces",
        "gravity_forces",
        "inverse_dynamics_rnea",
        "inverse_dynamics_rnea_steps",
        "inverse_dynamics_rnea_textbook",
        "RneaLinkStep",
        "RneaSteps",
        "velocity_quadratic_forces",
    ),
    "screw.friction": ("JointFriction",),
    "screw.kinematics.analytic_jacobian": ("jacobian_analytic",),
    "screw.kinematics.forward": (
        "forward_kinematics_body",
        "forward_kinematics_space",
        "link_frames_space",
    ),
    "screw.kinematics.inverse": (
        "inverse_kinematics_body",
        "inverse_kinematics_space",
        "InverseKinematicsResult",
    ),
    "screw.kinematics.inverse_analytic": (
        "AnalyticInverseKinematicsResult",
        "arm_family",
        "inverse_kinematics_analytic",
        "NoClosedFormError",
        "OutOfReachError",
    ),
    "screw.kinematics.jacobian": ("jacobian_body", "jacobian_space"),
    "screw.kinematics.manipulability": ("manipulability", "manipulability_ellipsoid"),
    "screw.robot": ("ScrewRobot",),
    "screw.simulation.divergence": ("SimulationDiverged",),
    "screw.simulation.dynamics_trajectory": (
        "forward_dynamics_trajectory",
        "inverse_dynamics_trajectory",
    ),
    "screw.simulation.free_motion": ("simulate", "SimulationResult", "total_energy"),
    "screw.simulation.integrators": ("euler_step", "INTEGRATORS", "runge_kutta4_step"),
    "screw.trajectories.point_to_point": (
        "cartesian_trajectory",
        "joint_trajectory",
        "screw_trajectory",
    ),
    "screw.trajectories.time_scaling": (
        "cubic_time_scaling",
        "minimum_time_profile",
        "quintic_time_scaling",
        "trapezoidal_profile",
        "trapezoidal_time_scaling",
        "TrapezoidalProfile",
    ),
    "screw.trajectories.via_points": (
        "rest_to_rest_trajectory",
        "RestToRestTrajectory",
        "via_point_trajectory",
        "ViaPointTrajectory",
    ),
    "dh.derivation": ("Derivation", "Step", "to_latex", "to_text"),
    "dh.gathered_equation": ("GatheredEquation",),
    "dh.robot": ("DHRobot",),
    "dh.singularities": ("singularity_factors", "SingularityFactors"),
    "models.file_format": ("RobotModelData",),
    "models.library": ("list_robots", "load_robot", "save_robot"),
    "models.plausibility": ("check_plausibility",),
    "models.reading": ("read_robot_model",),
    "views.chapters.controller_comparison": ("controller_comparison", "ControllerComparison"),
    "views.chapters.drop_the_arm": ("drop_the_arm", "DropTheArm"),
    "views.chapters.inverse_kinematics_explorer": (
        "explore_inverse_kinematics",
        "InverseKinematicsExplorer",
    ),
    "views.chapters.joint_tuner": ("joint_tuner", "JointTuner"),
    "views.chapters.manipulability_map": ("manipulability_map", "ManipulabilityMap"),
    "views.chapters.rnea_stepper": ("rnea_stepper", "RneaStepper"),
    "views.chapters.trajectory_view": ("trajectory_view", "TrajectoryView"),
    "views.chapters.twist_view": ("twist_view", "TwistView"),
    "views.drawing.frame_pictures": ("draw_frame", "frame_axes", "FrameTriad"),
    "views.drawing.robot_view": ("plot_robot", "RobotView"),
    "views.drawing.text3d": ("place_labels",),
    "views.widgets.animation": ("animate", "RobotAnimation"),
    "views.widgets.controls": ("angle_slider", "choice_buttons", "number_slider"),
    "views.widgets.live_figure": ("live_figure", "LiveFigure", "matrix_html"),
    "views.widgets.teach_pendant": ("teach", "TeachPendant"),
    "lessons.exercises.exercise_record": ("progress_summary", "save_progress"),
    "lessons.model_comparison": ("compare_models", "ComparedQuantity", "ModelComparison"),
    "lessons.step_reveal": ("Reveal", "reveal"),
}

#: Module → public names reachable from their subpackage only (``robolab.screw.CONTROLLERS``).
SUBPACKAGE: dict[str, tuple[str, ...]] = {
    "screw.control.tracking": ("CONTROLLERS",),
    "views.drawing.drawable": ("DrawableRobot", "RobotAdapter", "Snapshot"),
    "views.drawing.options": ("ViewOptions",),
    # the exercise checkers, also the face module robolab.exercises (robolab/exercises.py)
    "lessons.exercises.check_result": ("CheckResult", "NoAnswerYet"),
    "lessons.exercises.exercise": (
        "Exercise",
        "ExerciseCheck",
        "seed_for",
        "show_solutions",
        "Solution",
        "solutions_shown",
    ),
    "lessons.exercises.function_answers": ("check_function",),
    "lessons.exercises.grading": ("check",),
    "lessons.exercises.numeric_answers": ("check_numeric",),
    "lessons.exercises.symbolic_answers": ("check_expression",),
    "lessons.exercises.worked_solutions": ("WorkedSolutionCheck",),
}

#: Old public names → the names that replaced them (docs/conventions.md). The face and the
#: subpackages still give the object for an old name, with a DeprecationWarning.
RENAMED: dict[str, str] = {
    "JointResponse": "JointResult",
    "JointsResponse": "JointsResult",
    "Simulation": "SimulationResult",
    "TrackingRun": "TrackingResult",
}

#: The two modules of the face itself, the paths the notebooks import.
FACE_MODULES = ("exercises", "symbols")

#: Modules of the face that give the names of one folder (the notebooks import exercises
#: from ``robolab.exercises``): module → folder below robolab.
DOORS = {"robolab.exercises": "lessons.exercises"}

#: The layers, lowest first (docs/architecture.md): a module imports only its own layer and
#: those below it; views and lessons share the top layer and do not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("conventions", "_api"),
    ("support",),
    ("spatial",),
    ("screw",),
    ("dh",),
    ("models",),
    ("views", "lessons"),
)

_HOME = {
    name: module
    for table in (FACE, SUBPACKAGE)
    for module, names in table.items()
    for name in names
}


def home_of(name: str) -> str:
    """The module (below ``robolab``) that defines the public ``name``; KeyError if none."""
    return _HOME[name]


def names_of(package: str) -> list[str]:
    """The public names of ``package``, sorted: the face's (``"robolab"``), a layer's
    (``"robolab.screw"``) or those of a door of the face (``"robolab.exercises"``, the
    names of ``lessons/exercises/``). A chapter folder (``robolab.screw.kinematics``) has
    none of its own: its modules are reached as attributes, and no name shadows a module."""
    if package == "robolab":
        return sorted([*(n for names in FACE.values() for n in names), *FACE_MODULES])
    if package in DOORS:
        folder = DOORS[package] + "."
        return sorted(name for name, module in _HOME.items() if module.startswith(folder))
    prefix = package.removeprefix("robolab.")
    if "." in prefix:
        return []
    return sorted(name for name, module in _HOME.items() if module.split(".")[0] == prefix)


def exports(package: str) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``__all__``, ``__getattr__`` and ``__dir__`` of ``package``, read from the table.

    A name is imported from its module the first time it is asked for, and kept as an
    attribute of the package; a submodule (``robolab.screw.dynamics``) is imported when it
    is asked for as an attribute.
    """
    public = names_of(package)
    homes = {name: _HOME[name] for name in public if name in _HOME}

    def __getattr__(name: str) -> Any:
        module = sys.modules[package]
        if name in RENAMED and RENAMED[name] in homes:
            new = RENAMED[name]
            warnings.warn(
                f"{package}.{name} is now {package}.{new}; {name} still works for now",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(importlib.import_module(f"robolab.{homes[new]}"), new)
        if name in homes:
            value = getattr(importlib.import_module(f"robolab.{homes[name]}"), name)
        elif not name.startswith("__"):
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(module, name, value)  # the next lookup is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *public})

    return public, __getattr__, __dir__
