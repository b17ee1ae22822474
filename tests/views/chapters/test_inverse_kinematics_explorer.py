"""The inverse-kinematics explorer: target sliders, ghost branches, numerical error per iteration.

References: the ghost arms' tips and the target pose against ``modern_robotics.FKinSpace``
of the solutions and against the roll-pitch-yaw matrix written out here; the plotted
errors against ``modern_robotics``' error twist of each iterate.
"""

import math

import modern_robotics as mr
import numpy as np
import pytest
from widget_support import WIDGET_VIEW

import robolab as rl
from robolab.views.chapters.inverse_kinematics_explorer import (
    InverseKinematicsExplorer,
    explore_inverse_kinematics,
)

PUMA = rl.load_robot("puma560")
Q0 = [0.3, 0.5, -0.9, 0.6, 0.8, 0.2]


def mr_pose(robot, q):
    return mr.FKinSpace(np.array(robot.home_ee_pose), np.array(robot.screw_axes_space), q)


def rpy(roll, pitch, yaw):
    cr, sr, cp, sp, cy, sy = (f(a) for a in (roll, pitch, yaw) for f in (math.cos, math.sin))
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


@pytest.fixture
def explorer():
    shown = explore_inverse_kinematics(PUMA, Q0)
    yield shown
    import matplotlib.pyplot as plt

    plt.close(shown.view.figure)


def test_sliders_start_at_the_pose_of_q_rounded_to_their_steps(explorer):
    T = mr_pose(PUMA, Q0)
    values = {name: control.value for name, control in explorer.controls.items()}
    np.testing.assert_allclose([values["x"], values["y"], values["z"]], T[:3, 3], atol=0.005)
    target = explorer.target_pose()
    np.testing.assert_allclose(
        target[:3, :3],
        rpy(*np.radians([values["roll"], values["pitch"], values["yaw"]])),
        atol=1e-12,
    )
    np.testing.assert_allclose(explorer.target_frame.pose, target, atol=1e-12)


def test_every_branch_is_drawn_and_reaches_the_target(explorer):
    target = explorer.target_pose()
    solutions = explorer.analytic.solutions
    assert len(solutions) == 8
    shown = explorer.shown_branch()
    assert explorer.analytic.within_limits[shown]
    np.testing.assert_allclose(explorer.view.q, solutions[shown], atol=0)
    np.testing.assert_allclose(mr_pose(PUMA, explorer.view.q), target, atol=1e-9)
    visible = [i for i, ghost in enumerate(explorer.ghosts) if ghost.get_visible()]
    assert visible == [i for i in range(8) if i != shown]
    for i in visible:
        tip = np.array(explorer.ghosts[i].get_data_3d())[:, -1]
        np.testing.assert_allclose(tip, mr_pose(PUMA, solutions[i])[:3, 3], atol=1e-9)
        np.testing.assert_allclose(tip, target[:3, 3], atol=1e-9)


def test_error_plot_shows_each_solver_per_iteration(explorer):
    target = explorer.target_pose()
    B, M = np.array(PUMA.screw_axes_body), np.array(PUMA.home_ee_pose)
    for method, line in explorer.error_lines.items():
        result = explorer.numerical[method]
        assert result.success
        x, y = line.get_data()
        assert list(x) == list(range(result.iterations + 1))
        for theta, error in zip(result.joint_history, y, strict=True):
            V = mr.se3ToVec(mr.MatrixLog6(mr.TransInv(mr.FKinBody(M, B, theta)) @ target))
            assert error == pytest.approx(max(np.linalg.norm(V), 1e-12), abs=1e-6)
    text = explorer.readout_text()
    assert "Closed form: 8 solutions, 2 within the joint limits" in text
    assert "Newton–Raphson: converged in" in text and "damped LS: converged in" in text


def test_out_of_reach_target_is_reported_not_solved(explorer):
    explorer.set_values(x=1.0, y=0.0, z=1.0)
    assert explorer.analytic is None
    assert not any(ghost.get_visible() for ghost in explorer.ghosts)
    text = explorer.readout_text()
    assert "out of reach by" in text
    assert "Newton–Raphson: failed after 20 iterations" in text
    assert all(not result.success for result in explorer.numerical.values())


def test_arm_without_closed_form_shows_the_numerical_solvers():
    shown = explore_inverse_kinematics(
        rl.load_robot("panda"), [0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8]
    )
    assert shown.family is None and shown.analytic is None
    assert "has no closed form in robolab" in shown.readout_text()
    assert not any(ghost.get_visible() for ghost in shown.ghosts)
    assert shown.numerical["newton"].success
    ur5 = explore_inverse_kinematics(rl.load_robot("ur5"), [0.3, -1.0, 1.2, 0.4, 0.9, 0.2])
    assert len(ur5.analytic) == 8 and "UR type" in ur5.analytic.family


def test_planar_2r_branches_follow_the_position_and_home_is_fine():
    arm = rl.load_robot("planar2r")
    shown = explore_inverse_kinematics(arm, [0.4, 0.9])
    assert len(shown.analytic) == 2  # the position alone: both elbows
    for row in shown.analytic.solutions:
        tip = mr_pose(arm, row)[:3, 3]
        np.testing.assert_allclose(tip, shown.target_pose()[:3, 3], atol=1e-9)
    home = explore_inverse_kinematics(PUMA)  # q = 0: a straight wrist (θ5 = 0)
    assert home.analytic is not None and len(home.analytic) >= 4


def test_fits_a_small_screen_and_has_a_static_fallback(explorer, kernel_bundle):
    width, height = explorer.view.figure.get_size_inches() * explorer.view.figure.dpi
    assert width <= 820 and height <= 340  # with the sliders below: a 1024×768 screen
    bundle = explorer._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/html"].count('<img src="data:image/png;base64,') == 1
    assert "run the notebook to move the sliders" in bundle["text/html"]
    assert WIDGET_VIEW in kernel_bundle(explorer)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: explore_inverse_kinematics(rl.load_robot("puma560", form="dh")),
            TypeError,
            "robot must be a robolab.ScrewRobot",
        ),
        (lambda: explore_inverse_kinematics(PUMA, damping=-1.0), ValueError, "damping"),
        (lambda: explore_inverse_kinematics(PUMA, [0.0] * 5), ValueError, r"q must have shape"),
        (
            lambda: explore_inverse_kinematics(PUMA, initial_guess=[0.0]),
            ValueError,
            "initial_guess",
        ),
    ],
)
def test_bad_input_is_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_is_a_live_figure(explorer):
    assert isinstance(explorer, InverseKinematicsExplorer) and isinstance(explorer, rl.LiveFigure)


def test_q0_is_the_old_name_of_q():
    with pytest.warns(DeprecationWarning, match=r"explore_inverse_kinematics\(q0=\.\.\.\) is now"):
        old = explore_inverse_kinematics(PUMA, q0=Q0)
    np.testing.assert_array_equal(old.q0, Q0)
    assert old.values == explore_inverse_kinematics(PUMA, q=Q0).values
    with pytest.warns(DeprecationWarning, match=r"InverseKinematicsExplorer\(q0=\.\.\.\) is now"):
        InverseKinematicsExplorer(PUMA, q0=Q0)


def test_the_frames_asked_for_are_drawn():
    """The explorer's own default (frames="ends") does not override the options given."""
    every = explore_inverse_kinematics(PUMA, Q0, frames="all")
    assert every.view.options.frames == "all"
    assert InverseKinematicsExplorer(PUMA, Q0).view.options.frames == "ends"
    given = rl.views.ViewOptions(frames="none", elev=10.0)
    assert InverseKinematicsExplorer(PUMA, Q0, options=given).view.options == given
