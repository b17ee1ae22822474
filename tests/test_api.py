"""robolab/_api.py: the one table of public names, and how the face and the layers read it."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import warnings

import pytest

import robolab
from robolab import _api

#: Public names of robolab at 0e9125a (before the house was rebuilt), kept here, outside the
#: package's own table: every one of them must still import from ``robolab``.
_NAMES_BEFORE_TEXT = (
    "ComparedQuantity ControllerComparison DHRobot Derivation DropTheArm FrameTriad INTEGRATORS "
    "AnalyticInverseKinematicsResult InverseKinematicsExplorer InverseKinematicsResult "
    "JointActuator JointFriction JointResponse JointTuner JointsResponse LiveFigure "
    "ManipulabilityMap ModelComparison NoClosedFormError OutOfReachError ResolvedRateResult "
    "RestToRestTrajectory Reveal RneaLinkStep RneaStepper RneaSteps RobotAnimation "
    "RobotModelData RobotView ScrewRobot Simulation SimulationDiverged SingularityFactors Step "
    "StepMetrics TeachPendant TrackingRun TrajectoryView TrapezoidalProfile TwistView "
    "ViaPointTrajectory ad adjoint_representation adjoint_transpose angle_slider animate "
    "arm_family axis_angle3 axis_angle6 cartesian_trajectory check_plausibility choice_buttons "
    "compare_models computed_torque controller_comparison cubic_time_scaling dh_modified "
    "dh_standard distance_to_se3 distance_to_so3 draw_frame drop_the_arm end_effector_forces "
    "euler_step exercises explore_inverse_kinematics forward_dynamics_aba forward_dynamics_crba "
    "forward_dynamics_rnea forward_dynamics_trajectory forward_kinematics_body "
    "forward_kinematics_space frame_axes gravity_forces in_test_mode inverse_dynamics_rnea "
    "inverse_dynamics_rnea_steps inverse_dynamics_rnea_textbook inverse_dynamics_trajectory "
    "inverse_kinematics_analytic inverse_kinematics_body inverse_kinematics_space is_se3 is_so3 "
    "jacobian_analytic jacobian_body jacobian_space joint_limit_gradient joint_trajectory "
    "joint_tuner kinetic_energy link_frames_space list_robots live_figure load_robot "
    "manipulability manipulability_ellipsoid manipulability_map mass_matrix_crba "
    "mass_matrix_rnea matrix_exp3 matrix_exp6 matrix_html matrix_log3 matrix_log6 "
    "minimum_time_profile near_zero normalize number_slider pd_gravity_torque plot_robot "
    "potential_energy progress_summary project_to_se3 project_to_so3 quaternion_multiply "
    "quaternion_to_rotation quintic_time_scaling read_robot_model resolved_rate_control "
    "rest_to_rest_trajectory reveal rnea_stepper rotation_position_to_transform "
    "rotation_to_quaternion rotation_to_rpy rotation_to_zyz rotx roty rotz rpy_rate_matrix "
    "rpy_to_rotation runge_kutta4_step save_progress save_robot scaled_inertias screw_to_axis "
    "screw_trajectory se3_to_vec set_test_mode simulate simulate_control simulate_joint "
    "simulate_joints simulate_tracking singularity_factors so3_to_vec step_response_metrics "
    "symbols teach to_latex to_text total_energy trajectory_view transform_inv "
    "transform_to_rotation_position transl trapezoidal_profile trapezoidal_time_scaling trotx "
    "troty trotz twist_from_pose_rate twist_view vec_to_se3 vec_to_so3 velocity_quadratic_forces "
    "via_point_trajectory with_payload wrench_transform zyz_to_rotation"
)
NAMES_BEFORE = tuple(_NAMES_BEFORE_TEXT.split())


def test_the_list_kept_here_is_the_old_face():
    assert len(NAMES_BEFORE) == len(set(NAMES_BEFORE)) == 171


@pytest.mark.parametrize("name", NAMES_BEFORE)
def test_every_name_of_before_still_imports_from_robolab(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # a renamed name says so: fine
        value = getattr(robolab, name)
    assert value is not None
    assert name in robolab.__all__ or name in _api.RENAMED


def test_a_renamed_name_gives_the_new_object_and_says_what_replaced_it():
    for old, new in _api.RENAMED.items():
        with pytest.warns(DeprecationWarning, match=rf"robolab\.{old} is now robolab\.{new}"):
            assert getattr(robolab, old) is getattr(robolab, new)


def test_home_of_and_names_of():
    assert _api.home_of("load_robot") == "models.library"
    with pytest.raises(KeyError):
        _api.home_of("no_such_name")
    assert "ScrewRobot" in _api.names_of("robolab") and "ScrewRobot" in _api.names_of(
        "robolab.screw"
    )
    assert "ScrewRobot" not in _api.names_of("robolab.views")
    assert _api.names_of("robolab.screw.kinematics") == []  # a chapter folder


def test_every_layer_lists_exactly_its_names_and_resolves_them():
    for name_of_layer in {s for layer in _api.LAYERS for s in layer} - {"conventions", "_api"}:
        package = importlib.import_module(f"robolab.{name_of_layer}")
        assert package.__all__ == _api.names_of(f"robolab.{name_of_layer}")
        for name in package.__all__:
            assert getattr(package, name) is getattr(
                importlib.import_module(f"robolab.{_api.home_of(name)}"), name
            )


def test_an_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        robolab.no_such_name  # noqa: B018
    with pytest.raises(AttributeError, match=r"'robolab\.screw' has no attribute 'nothing'"):
        robolab.screw.nothing  # noqa: B018


def test_a_module_is_reached_as_an_attribute_on_first_use():
    code = (
        "import json, sys, robolab\n"
        "before = 'robolab.screw.kinematics.jacobian' in sys.modules\n"
        "module = robolab.screw.kinematics.jacobian\n"
        "print(json.dumps([before, module.__name__]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(run.stdout) == [False, "robolab.screw.kinematics.jacobian"]
