"""The twist view, kernel-side: its Jacobians and twists against the Modern Robotics library
and Pinocchio, its arrows, its frame choice, its static fallback and its errors.

References: ``mr.JacobianSpace`` / ``mr.JacobianBody`` (rows [ω; v]), Pinocchio's frame
Jacobian in ``LOCAL_WORLD_ALIGNED`` (rows [v; ω], the frame origin's velocity in world
axes: the DH J of the base frame) and ``WORLD`` (rows [v; ω] of the spatial twist:
J_s with its halves swapped), and Spong's closed form of the planar 2R Jacobian.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw
from widget_support import WIDGET_VIEW

import robolab
from robolab.views.chapters.twist_view import TwistView
from robolab.views.widgets.controls import TRACK_WIDTH

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def swap(J: np.ndarray) -> np.ndarray:
    """[v; ω] rows ↔ [ω; v] rows."""
    return np.vstack([J[3:], J[:3]])


def tip_of(line) -> np.ndarray:
    """The tip of an arrow drawn by the view (its second point)."""
    x, y, z = line.get_data_3d()
    return np.array([x[1], y[1], z[1]])


def test_planar_2r_matches_spongs_closed_form_and_mr():
    arm = robolab.load_robot("planar2r")  # l1 = l2 = 1 m
    q, qdot = np.array([0.3, 1.2]), np.array([0.55, -0.35])
    view = robolab.twist_view(arm, q, qdot)
    s1, c1, s12, c12 = np.sin(q[0]), np.cos(q[0]), np.sin(q.sum()), np.cos(q.sum())
    spong = np.array([[-s1 - s12, -s12], [c1 + c12, c12], [0, 0], [0, 0], [0, 0], [1, 1]])
    np.testing.assert_allclose(view.jacobians["base"], spong, atol=1e-12)
    S, B = arm.screw_axes_space, arm.screw_axes_body
    np.testing.assert_allclose(view.jacobians["space"], mr.JacobianSpace(S, q), atol=1e-12)
    np.testing.assert_allclose(view.jacobians["body"], mr.JacobianBody(B, q), atol=1e-12)
    np.testing.assert_allclose(view.twist("base"), spong @ qdot, atol=1e-12)


@pytest.mark.parametrize("form", ["dh", "screw"])
def test_puma_jacobians_of_both_forms_match_pinocchio(form):
    screw = robolab.load_robot("puma560")
    robot = robolab.load_robot("puma560", form=form) if form == "dh" else screw
    q = np.array([0.4, -0.3, 0.6, 0.2, -0.9, 1.1])
    view = robolab.twist_view(robot, q, [0.5, -0.2, 0.3, 0.1, 0.0, -0.45])
    model, frame = pinocchio_from_screw(screw)
    data = model.createData()
    aligned = pin.computeFrameJacobian(model, data, q, frame, pin.LOCAL_WORLD_ALIGNED)
    pin.computeJointJacobians(model, data, q)
    pin.updateFramePlacements(model, data)
    world = pin.getFrameJacobian(model, data, frame, pin.WORLD)
    local = pin.getFrameJacobian(model, data, frame, pin.LOCAL)
    np.testing.assert_allclose(view.jacobians["base"], aligned, atol=1e-10)
    np.testing.assert_allclose(view.jacobians["space"], swap(world), atol=1e-10)
    np.testing.assert_allclose(view.jacobians["body"], swap(local), atol=1e-10)
    np.testing.assert_allclose(view.twist("space"), swap(world) @ view.qdot, atol=1e-10)


def test_arrows_follow_the_sliders():
    arm = robolab.load_robot("puma560", form="dh")
    q = np.radians([20, 30, -60, 0, 45, 0])
    view = robolab.twist_view(arm, q, [0.5, 0, 0, 0, 0, 0], arrow_scale=0.5)
    hand = view.view.end_effector_pose[:3, 3]
    updates = view.updates
    view.controls["qd2"].value = 0.3  # what an arrow key does
    assert view.updates == updates + 1
    np.testing.assert_allclose(view.qdot, [0.5, 0.3, 0, 0, 0, 0])
    base = view.twist("base")
    np.testing.assert_allclose(tip_of(view.velocity_arrow), hand + 0.5 * base[:3], atol=1e-12)
    np.testing.assert_allclose(tip_of(view.omega_arrow), hand + 0.5 * base[3:], atol=1e-12)
    # the space frame also draws v_s at the origin of {s}; the others do not
    origin_tip = tip_of(view.origin_arrow)
    np.testing.assert_allclose(origin_tip, 0.5 * view.twist("space")[3:], atol=1e-12)
    view.controls["frame"].value = "body"
    assert np.isnan(view.origin_arrow.get_data_3d()[0]).all()
    view.reset_button.click()
    np.testing.assert_allclose(view.qdot, [0.5, 0, 0, 0, 0, 0])


def test_a_wrist_joint_turns_the_hand_without_moving_it():
    # The Puma's wrist axes meet at the origin of {6} (Spong ch. 4): ṗ = 0 for q̇4 alone.
    view = robolab.twist_view(
        robolab.load_robot("puma560", form="dh"), np.radians([0, 30, -60, 0, 45, 0])
    )
    view.controls["qd4"].value = 1.0
    np.testing.assert_allclose(view.twist("base")[:3], 0.0, atol=1e-12)
    assert np.linalg.norm(view.twist("base")[3:]) == pytest.approx(1.0, abs=1e-12)
    assert np.isnan(view.velocity_arrow.get_data_3d()[0]).all()  # nothing drawn for ṗ = 0


def test_frame_choice_changes_the_readout_not_the_picture():
    view = robolab.twist_view(
        robolab.load_robot("ur5"), np.radians([0, -60, 90, -120, -90, 0]), [0.2] * 6
    )
    first_lines = {}
    for frame in ("space", "body", "base"):
        view.controls["frame"].value = frame
        first_lines[frame] = view.readout_text().splitlines()[0]
    assert first_lines == {
        "space": "J_s, rows [ω; v], space frame {s}:",
        "body": "J_b, rows [ω; v], end-effector frame:",
        "base": "J, rows [v; ω], base frame {0}:",
    }
    assert "ṗ in m/s, then ω in rad/s" in view.readout_text()


def test_static_fallback_and_widget(kernel_bundle):
    view = robolab.twist_view(robolab.load_robot("planar2r"), [0.0, 1.0], [0.5, 0.5])
    bundle = view._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/plain"].startswith("planar2r: joint velocities at qd1 = 0.50 rad/s")
    assert bundle["text/html"].count('<img src="data:image/png;base64,') == 1
    assert kernel_bundle(view)[WIDGET_VIEW]["model_id"] == view.widget.model_id


def test_fits_a_small_screen():
    view = robolab.twist_view(robolab.load_robot("puma560", form="dh"), np.zeros(6))
    width, height = view.view.figure.get_size_inches() * view.view.figure.dpi
    # the notebook column of a 1024-pixel screen (sidebar collapsed) is about 840 pixels wide:
    # the figure and the panel (its narrowest width) side by side, and not taller than 768
    assert width + view.label_width + TRACK_WIDTH + 10 <= 840
    assert height <= 450


@pytest.mark.parametrize(
    ("args", "keywords", "error", "words"),
    [
        ((np.zeros(2), [2.0, 0.0]), {}, ValueError, r"qdot\[0\] \(joint 1\) = 2 rad/s is outside"),
        ((np.zeros(2), [0.0]), {}, ValueError, "qdot must have shape"),
        ((np.zeros(3),), {}, ValueError, "q must have shape"),
        ((np.zeros(2),), {"frame": "world"}, ValueError, "frame must be one of"),
        ((np.zeros(2),), {"colour": "red"}, TypeError, "unexpected view option 'colour'"),
        ((np.zeros(2),), {"arrow_scale": -1.0}, ValueError, "arrow_scale"),
        ((np.zeros(2),), {"arrow_scale": "big"}, TypeError, "arrow_scale must be a real number"),
    ],
)
def test_bad_input(args, keywords, error, words):
    with pytest.raises(error, match=words):
        robolab.twist_view(robolab.load_robot("planar2r"), *args, **keywords)


def test_not_a_robot():
    with pytest.raises(
        TypeError, match=r"robot must be a robolab\.DHRobot or a robolab\.ScrewRobot"
    ):
        TwistView(3.5, np.zeros(6))  # a bundled name or a file path would be loaded
