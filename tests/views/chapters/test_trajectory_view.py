"""The trajectory view (waypoint editor), kernel-side: its curves against independent
planners, its sliders, its scrubbed arm, its limit check, its static fallback and its errors.

References: ``mr.JointTrajectory`` (cubic and quintic rest-to-rest segments), SciPy's
``CubicHermiteSpline`` with Craig's via velocities written out by hand and
``CubicSpline(bc_type="clamped")`` for the two via-point plans, ``mr.FKinSpace`` for the
scrubbed arm's end-effector, and Franka's published joint limits of the Panda
(velocity [2.175]*4 + [2.61]*3 rad/s, acceleration [15, 7.5, 10, 12.5, 15, 20, 20] rad/s²).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pytest
from reference.craig_via_velocities import craig_velocities
from scipy.interpolate import CubicHermiteSpline, CubicSpline
from widget_support import WIDGET_VIEW

import robolab

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")

PANDA_VELOCITY = np.array([2.175] * 4 + [2.61] * 3)
PANDA_ACCELERATION = np.array([15.0, 7.5, 10.0, 12.5, 15.0, 20.0, 20.0])
PANDA_WAYPOINTS = np.radians(
    [
        [0, -30, 0, -150, 0, 120, 45],
        [30, 10, 0, -100, 0, 110, 45],
        [60, 20, 0, -80, 0, 100, 45],
        [90, -20, 0, -130, 0, 110, 45],
    ]
)
TIMES = np.array([0.0, 1.0, 2.0, 3.0])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def panda_view(**keywords):
    return robolab.trajectory_view(
        robolab.load_robot("panda"),
        PANDA_WAYPOINTS,
        TIMES,
        max_velocity=PANDA_VELOCITY,
        max_acceleration=PANDA_ACCELERATION,
        edit=(2, 4),
        joints=(1, 2, 4),
        **keywords,
    )


def plotted(view, row: int, joint_index: int) -> tuple[np.ndarray, np.ndarray]:
    t, values = view.curves[row][joint_index].get_data()
    return np.asarray(t), np.asarray(values)


@pytest.mark.parametrize(("scaling", "order"), [("cubic", 3), ("quintic", 5)])
def test_stop_at_each_curves_are_mrs_joint_trajectories(scaling, order):
    view = panda_view(scaling=scaling)
    t, q2 = plotted(view, 0, 1)
    for j in range(3):
        inside = (t >= TIMES[j]) & (t <= TIMES[j + 1])
        count = int(inside.sum())
        expected = mr.JointTrajectory(PANDA_WAYPOINTS[j], PANDA_WAYPOINTS[j + 1], 1.0, count, order)
        # the samples are evenly spaced and the segments 1 s long: the same times as mr's
        np.testing.assert_allclose(q2[inside], expected[:, 1], atol=1e-9)


def test_via_curves_are_scipys_splines():
    view = panda_view()
    t, _ = plotted(view, 0, 0)
    hermite = CubicHermiteSpline(TIMES, PANDA_WAYPOINTS, craig_velocities(PANDA_WAYPOINTS, TIMES))
    for row in range(3):
        for index, joint in enumerate(view.joints):
            np.testing.assert_allclose(
                plotted(view, row, index)[1], hermite(t, row)[:, joint - 1], atol=1e-9
            )
    view.set_values(scaling="via-acceleration")
    clamped = CubicSpline(TIMES, PANDA_WAYPOINTS, bc_type="clamped")
    np.testing.assert_allclose(plotted(view, 2, 2)[1], clamped(t, 2)[:, 3], atol=1e-9)


def test_the_waypoint_sliders_move_the_via_points():
    view = panda_view(scaling="via-acceleration")
    view.set_values(via1_q2=40, via2_q4=-60)
    assert view.waypoints[1, 1] == pytest.approx(np.radians(40), abs=1e-12)
    assert view.waypoints[2, 3] == pytest.approx(np.radians(-60), abs=1e-12)
    moved = PANDA_WAYPOINTS.copy()
    moved[1, 1], moved[2, 3] = np.radians(40), np.radians(-60)
    t, q4 = plotted(view, 0, 2)
    np.testing.assert_allclose(q4, CubicSpline(TIMES, moved, bc_type="clamped")(t)[:, 3], atol=1e-9)
    assert "q̇" in view.readout_text()


def test_the_time_slider_scrubs_the_arm():
    view = panda_view(scaling="quintic")
    view.controls["t"].value = 1.5
    expected = mr.JointTrajectory(PANDA_WAYPOINTS[1], PANDA_WAYPOINTS[2], 1.0, 3, 5)[1]
    np.testing.assert_allclose(view.view.q, expected, atol=1e-12)
    panda = robolab.load_robot("panda")
    tip = mr.FKinSpace(panda.home_ee_pose, panda.screw_axes_space, expected)
    np.testing.assert_allclose(view.view.end_effector_pose, tip, atol=1e-9)
    assert all(cursor.get_xdata()[0] == 1.5 for cursor in view.cursors)
    assert view.markers[0][1].get_ydata()[0] == pytest.approx(expected[1], abs=1e-12)
    assert "t = 1.50 s" in view.readout_text()


def test_the_readout_flags_a_broken_limit():
    view = panda_view(scaling="cubic")
    assert "within the limits" in view.readout_text()
    # q2 from -30° to 101° in 1 s, cubic: peak 1.5 Δ/T = 3.43 rad/s > 2.175 and 6 Δ/T² > 7.5
    view.set_values(via1_q2=101)
    text = view.readout_text()
    assert "exceeds the limits: q̇2, q̈2" in text
    delta = np.radians(131)
    assert f"{1.5 * delta:.2f} / 2.175" in text and f"{6 * delta:.2f} / 7.5" in text


def test_a_planner_can_be_passed_in():
    calls = []

    def planner(points, times, scaling):
        calls.append(scaling)
        return robolab.rest_to_rest_trajectory(points, times, "quintic")

    view = panda_view(planner=planner, scaling="cubic")
    assert calls and calls[0] == "cubic"
    t, q1 = plotted(view, 0, 0)
    inside = t <= 1.0
    expected = mr.JointTrajectory(PANDA_WAYPOINTS[0], PANDA_WAYPOINTS[1], 1.0, int(inside.sum()), 5)
    np.testing.assert_allclose(q1[inside], expected[:, 0], atol=1e-9)


def test_static_fallback_and_widget(kernel_bundle):
    view = panda_view()
    bundle = view._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/plain"].startswith("panda: trajectory at scaling = cubic through vias")
    assert bundle["text/html"].count('<img src="data:image/png;base64,') == 1
    assert kernel_bundle(view)[WIDGET_VIEW]["model_id"] == view.widget.model_id


def test_fits_a_small_screen():
    # JupyterLab's notebook column is about 850 px wide on a 1024×768 screen: the figure spans
    # it, the controls (label + track) and the read-out share the row below
    view = panda_view()
    width, height = view.figure.get_size_inches() * view.figure.dpi
    assert width <= 850 and view.label_width + 310 + 10 + 400 <= 850
    rows = len(view.controls) + 2  # the title and Reset
    assert height + 34 * rows <= 768 - 100  # and JupyterLab's own bars


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"waypoints": PANDA_WAYPOINTS[:1]}, ValueError, "at least two rows"),
        ({"waypoints": PANDA_WAYPOINTS[:, :3]}, ValueError, r"waypoints must have shape"),
        ({"times": [0.0, 1.0, 1.0, 3.0]}, ValueError, "times must increase strictly"),
        ({"times": [0.0, 1.0, 2.0]}, ValueError, r"times must have shape \(4,\)"),
        ({"times": [0.0, 1.0, 2.0, 3.0005]}, ValueError, "whole number of hundredths"),
        ({"max_velocity": [1.0, 2.0]}, ValueError, r"max_velocity must be a number or one per"),
        ({"max_acceleration": -1.0}, ValueError, "max_acceleration must be positive"),
        ({"edit": (2, 9)}, ValueError, r"edit must be different joint numbers 1..7"),
        ({"joints": "q2"}, TypeError, "joints must be a list of joint numbers"),
        ({"scaling": "linear"}, ValueError, "scaling must be one of"),
        ({"planner": "cubic"}, TypeError, "planner must be a function"),
    ],
)
def test_bad_input(change, error, words):
    arguments = {
        "waypoints": PANDA_WAYPOINTS,
        "times": TIMES,
        "max_velocity": PANDA_VELOCITY,
        "max_acceleration": PANDA_ACCELERATION,
        "edit": (2, 4),
    } | change
    with pytest.raises(error, match=words):
        robolab.trajectory_view(robolab.load_robot("panda"), **arguments)


def test_a_prismatic_joint_gets_metres():
    scara = robolab.load_robot("scara")  # RRPR: joint 3 slides
    waypoints = [[0.0, 0.0, 0.05, 0.0], [0.5, 0.3, 0.1, 0.2], [0.8, 0.5, 0.15, 0.4]]
    view = robolab.trajectory_view(
        scara,
        waypoints,
        [0.0, 1.5, 3.0],
        max_velocity=[2, 2, 0.5, 3],
        max_acceleration=5,
        edit=(2, 3),
        joints=(1, 3),
    )
    assert view.controls["via1_q3"].description == "via 1 q3 (m)"
    assert view.controls["via1_q3"].value == 0.1
    assert [ax.get_ylabel() for ax in view.axes] == [
        "q (rad, m)",
        "q̇ (rad/s, m/s)",
        "q̈ (rad/s², m/s²)",
    ]
    view.set_values(via1_q3=0.12)
    assert view.waypoints[1, 2] == pytest.approx(0.12, abs=1e-12)
    # the plan passes through the new via point (Craig's velocities: SciPy's Hermite cubics)
    moved = np.array(waypoints)
    moved[1, 2] = 0.12
    reference = CubicHermiteSpline(
        [0.0, 1.5, 3.0], moved, craig_velocities(moved, np.array([0.0, 1.5, 3.0]))
    )
    t, q3 = plotted(view, 0, 1)
    np.testing.assert_allclose(q3, reference(t)[:, 2], atol=1e-9)
