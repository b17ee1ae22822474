"""3D robot views: what is drawn, in-place updates, colours, ellipsoids and errors."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

import robolab
from robolab.symbols import q1, q2
from robolab.views.drawing.frame_pictures import TRIAD_COLOURS
from robolab.views.drawing.robot_view import RobotView, plot_robot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


def _random_q(robot, rng):
    limits = np.array(robot.joint_limits, dtype=float)
    return rng.uniform(np.maximum(limits[:, 0], -3.0), np.minimum(limits[:, 1], 3.0))


# --- the triads' colours (tests/views/drawing/test_frame_pictures.py checks them) ----------


def test_triad_axes_are_labelled_and_coloured(puma):
    view = plot_robot(puma)
    for line, label, colour, letter in zip(
        view.triads, view.triad_labels, TRIAD_COLOURS, "xyz", strict=True
    ):
        assert line.get_color() == colour
        assert label.get_color() == colour
        assert label.get_marker() == f"${letter}$"


# --- what is drawn ------------------------------------------------------------------------------


def test_dh_links_go_along_d_then_a_so_the_table_can_be_read_off(puma):
    # Standard DH: link i runs |d_i| along z_{i-1}, then |a_i| along x_i (Puma table of the
    # robot file, Corke & Armstrong-Hélouvry).
    rows = [(float(a), float(d)) for a, _, d, _ in puma.dh_parameters]
    view = plot_robot(puma)
    for q in np.random.default_rng(1).uniform(-2, 2, (5, 6)):
        view.update(q)
        x, y, z = view.links.get_data_3d()
        points = np.column_stack([x, y, z])
        lengths = np.linalg.norm(np.diff(points, axis=0), axis=1)
        expected = [abs(v) for a, d in rows for v in (d, a)]
        np.testing.assert_allclose(lengths[: 2 * puma.dof], expected, atol=1e-12)


def test_dh_joint_axes_are_the_z_axes_of_the_previous_frames(puma):
    q = np.array([0.3, -0.2, 0.5, 1.0, -0.7, 0.4])
    frames = puma.numeric().frames(q)
    skeleton = plot_robot(puma, q).skeleton
    np.testing.assert_allclose(skeleton.joint_axes, frames[:-1, :3, 2], atol=1e-12)
    np.testing.assert_allclose(skeleton.joint_points, frames[:-1, :3, 3], atol=1e-12)


def test_modified_dh_joint_axes_are_the_z_axes_of_their_own_frames():
    robot = robolab.load_robot("puma560", form="dh", convention="modified")
    q = np.array([0.3, -0.2, 0.5, 1.0, -0.7, 0.4])
    frames = robot.numeric().frames(q)
    skeleton = plot_robot(robot, q).skeleton
    np.testing.assert_allclose(skeleton.joint_axes, frames[1:, :3, 2], atol=1e-12)
    standard = plot_robot(robolab.load_robot("puma560", form="dh"), q).skeleton
    np.testing.assert_allclose(skeleton.end_effector_pose, standard.end_effector_pose, atol=1e-9)


@pytest.mark.parametrize("name", ["puma560", "scara", "stanford"])
def test_screw_and_dh_drawings_of_the_same_arm_agree(name):
    dh = robolab.load_robot(name, form="dh")
    screw = robolab.load_robot(name, form="screw")
    rng = np.random.default_rng(7)
    view_dh, view_screw = plot_robot(dh), plot_robot(screw)
    for _ in range(5):
        q = _random_q(dh, rng)
        view_dh.update(q)
        view_screw.update(q)
        a, b = view_dh.skeleton, view_screw.skeleton
        np.testing.assert_allclose(b.end_effector_pose, a.end_effector_pose, atol=1e-9)
        for i, kind in enumerate(dh.joint_types):
            # Same axis direction (up to sign) ...
            assert abs(abs(np.dot(a.joint_axes[i], b.joint_axes[i])) - 1.0) < 1e-9
            if kind == "r":
                # ... and the screw joint's point lies on the DH joint axis.
                offset = b.joint_points[i] - a.joint_points[i]
                np.testing.assert_allclose(np.cross(offset, a.joint_axes[i]), 0.0, atol=1e-9)


def test_screw_and_dh_give_the_same_velocity_ellipsoid():
    q = np.array([0.2, 0.7, -1.1, 0.4, 0.9, -0.3])
    dh = plot_robot(robolab.load_robot("puma560", form="dh"), q, ellipsoid="velocity")
    screw = plot_robot(robolab.load_robot("puma560", form="screw"), q, ellipsoid="velocity")
    np.testing.assert_allclose(screw.ellipsoid_radii, dh.ellipsoid_radii, rtol=1e-9)


def test_prismatic_joints_get_square_markers():
    view = plot_robot(robolab.load_robot("scara", form="dh"))
    assert len(view.prismatic_joints.get_data_3d()[0]) == 1
    assert len(view.revolute_joints.get_data_3d()[0]) == 3
    assert view.prismatic_joints.get_marker() == "s"


def test_frames_option_chooses_the_triads(puma):
    def count(view):
        return np.isfinite(view.triads[0].get_data_3d()[0]).sum() // 2

    assert count(plot_robot(puma, frames="all")) == 7
    assert count(plot_robot(puma, frames="ends")) == 2
    assert count(plot_robot(puma, frames="none")) == 0


def test_coinciding_frames_share_one_name(puma):
    # At q = 0 the Puma's frames {4}, {5}, {6} sit at the wrist centre, {0} and {1} do not.
    view = plot_robot(puma)
    assert "{4,5,6}" in view.frame_label_texts
    assert sum(1 for label in view.frame_labels if label.get_visible()) == len(
        [t for t in view.frame_label_texts if t]
    )


def test_caption_states_the_frame_and_units(puma):
    view = plot_robot(puma)
    assert view.caption_text == "puma560 · standard DH, base frame {0} · metres"


def test_each_view_of_a_figure_has_its_caption_at_its_own_top_left(puma):
    figure = plt.figure(figsize=(9, 4.5), dpi=100)
    views = [
        plot_robot(robot, ax=figure.add_subplot(1, 2, k + 1, projection="3d"))
        for k, robot in enumerate(
            (puma, robolab.load_robot("puma560", form="dh", convention="modified"))
        )
    ]
    for view in views:  # only the captions are drawn: where are their pixels?
        view.axes.set_visible(False)
    figure.canvas.draw()
    rgb = np.asarray(figure.canvas.buffer_rgba())[..., :3]
    ink = np.any(rgb != 255, axis=2)
    height = rgb.shape[0]
    outside = np.ones_like(ink)
    for view in views:
        box = view.axes.bbox  # pixels, origin at the bottom left
        inside = np.zeros_like(ink)
        inside[int(height - box.y1) : int(height - box.y0), int(box.x0) : int(box.x1)] = True
        outside &= ~inside
        rows, columns = np.nonzero(ink & inside)
        assert rows.size > 50  # the caption is drawn inside its own axes...
        assert columns.min() - box.x0 < 12 and rows.min() - (height - box.y1) < 12  # top left
        assert rows.max() - (height - box.y1) < 20  # one line high
    assert not np.any(ink & outside)  # ...and nowhere else
    assert "modified DH" in views[1].caption_text


def test_decorations(puma):
    # Axes3D keeps its 3D-axis switch in _axis3don (set_axis_off has no getter).
    assert not plot_robot(puma).axes._axis3don
    full = plot_robot(puma, decorations="full")
    assert full.axes._axis3don and full.axes.get_xlabel() == "x (m)"


# --- updates in place -------------------------------------------------------------------------


def test_update_moves_the_same_artists_without_new_ones(puma):
    view = plot_robot(puma, ellipsoid="velocity")
    figure, axes = view.figure, view.axes
    artists = (list(axes.lines), list(axes.texts), list(figure.axes), list(figure.artists))
    before = np.column_stack(view.links.get_data_3d()).copy()
    view.update([0.5, 0.2, -0.3, 0.1, 0.4, 0.0])
    assert (list(axes.lines), list(axes.texts), list(figure.axes), list(figure.artists)) == artists
    assert view.figure is figure
    after = np.column_stack(view.links.get_data_3d())
    assert not np.allclose(before, after)
    np.testing.assert_allclose(
        after[-1], puma.numeric().forward_kinematics(view.q)[:3, 3], atol=1e-12
    )


def test_shadow_is_the_links_on_the_floor(puma):
    view = plot_robot(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2])
    x, y, z = view.shadow.get_data_3d()
    lx, ly, _ = view.links.get_data_3d()
    np.testing.assert_allclose(x, lx, atol=1e-12)
    np.testing.assert_allclose(y, ly, atol=1e-12)
    np.testing.assert_allclose(z, view.floor_height, atol=1e-12)
    assert not plot_robot(puma, shadow=False).shadow.get_visible()


# --- ellipsoids ---------------------------------------------------------------------------------


def test_planar_velocity_ellipsoid_area_is_yoshikawas_closed_form():
    # Planar 2R: the in-plane velocity ellipsoid has semi-axes σ1, σ2 with
    # σ1 σ2 = |det J| = l1 l2 |sin q2| (Yoshikawa 1985; Spong et al., section 4.11).
    l1, l2 = 1.0, 0.5
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="2R")
    for qq in ([0.3, 0.8], [1.0, 2.5], [-0.4, -1.2]):
        view = plot_robot(arm, qq, ellipsoid="velocity")
        radii = view.ellipsoid_radii
        assert radii[2] == pytest.approx(0.0, abs=1e-12)  # no velocity out of the plane
        assert radii[0] * radii[1] == pytest.approx(l1 * l2 * abs(np.sin(qq[1])), rel=1e-12)


def test_force_ellipsoid_is_the_reciprocal_of_the_velocity_one():
    # Duality (Yoshikawa): same axes, radii 1/σ; a planar arm resists any force out of its
    # plane without torque, so that radius is infinite and is drawn cut at the reach.
    arm = robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R")
    velocity = plot_robot(arm, [0.3, 0.8], ellipsoid="velocity")
    force = plot_robot(arm, [0.3, 0.8], ellipsoid="force")
    np.testing.assert_allclose(force.ellipsoid_radii[:2], 1.0 / velocity.ellipsoid_radii[:2])
    assert np.isinf(force.ellipsoid_radii[2])
    points = np.column_stack(force.ellipsoid.get_data_3d())
    points = points[np.isfinite(points).all(axis=1)]
    centre = force.end_effector_pose[:3, 3]
    assert np.linalg.norm(points - centre, axis=1).max() <= force.reach * (1 + 1e-12)


def test_drawn_ellipsoid_lies_on_its_surface(puma):
    view = plot_robot(puma, [0.2, 0.7, -1.1, 0.4, 0.9, -0.3], ellipsoid="velocity")
    points = np.column_stack(view.ellipsoid.get_data_3d())
    points = points[np.isfinite(points).all(axis=1)]
    jacobian = puma.numeric().jacobian(view.q)[:3]  # rows [v; ω]: the linear part
    U, sigma, _ = np.linalg.svd(jacobian)
    local = (points - view.end_effector_pose[:3, 3]) @ U / (view.ellipsoid_scale * sigma)
    np.testing.assert_allclose(np.linalg.norm(local, axis=1), 1.0, atol=1e-9)


def test_ellipsoid_switches_on_and_off(puma):
    view = plot_robot(puma, [0.2, 0.7, -1.1, 0.4, 0.9, -0.3])
    assert not view.ellipsoid.get_visible()
    view.set_ellipsoid("force")
    assert view.ellipsoid.get_visible() and view.ellipsoid_kind == "force"
    view.set_ellipsoid(None)
    assert not view.ellipsoid.get_visible()


# --- errors -------------------------------------------------------------------------------------


def test_bad_input_is_named(puma):
    with pytest.raises(TypeError, match=r"robot must be a robolab\.DHRobot or a robolab\.Screw"):
        plot_robot(object())
    with pytest.raises(ValueError, match=r"q must have shape \(6,\), got shape \(5,\)"):
        plot_robot(puma, np.zeros(5))
    with pytest.raises(ValueError, match=r"q contains a non-finite value \(nan\)"):
        plot_robot(puma, [0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match=r"frames must be one of \['all', 'ends', 'none'\]"):
        plot_robot(puma, frames="some")
    with pytest.raises(ValueError, match="ellipsoid must be one of"):
        plot_robot(puma, ellipsoid="torque")
    with pytest.raises(ValueError, match="decorations must be one of"):
        plot_robot(puma, decorations="fancy")
    with pytest.raises(ValueError, match=r"limits must be .* with min < max"):
        plot_robot(puma, limits=(1, -1, 0, 1, 0, 1))
    with pytest.raises(ValueError, match="ax must be a 3D axes"):
        RobotView(puma, ax=plt.figure().add_subplot())
    with pytest.raises(ValueError, match=r"zoom must be a positive number .*, got 0"):
        plot_robot(puma, zoom=0)
    with pytest.raises(ValueError, match=r"elev must be an angle in degrees, got nan"):
        plot_robot(puma, elev=float("nan"))
    view = plot_robot(puma)
    with pytest.raises(ValueError, match=r"q must have shape \(6,\)"):
        view.update([0.0, 0.0])


def test_a_symbolic_length_cannot_be_drawn():
    arm = robolab.DHRobot((robolab.symbols.l1, 0, 0, q1), name="symbolic arm")
    with pytest.raises(ValueError, match="cannot draw 'symbolic arm'"):
        plot_robot(arm)


# --- properties ---------------------------------------------------------------------------------

angles = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)


@given(st.lists(angles, min_size=6, max_size=6))
@settings(max_examples=40)
def test_the_drawing_follows_the_kinematics_at_any_configuration(q):
    # Link lengths are the DH table's whatever q is; the polyline ends at the end-effector;
    # joint axes are unit vectors; the shadow stays on the floor.
    view = _PUMA_VIEW
    view.update(q, draw=False)
    points = np.column_stack(view.links.get_data_3d())
    lengths = np.linalg.norm(np.diff(points, axis=0), axis=1)
    np.testing.assert_allclose(lengths, _PUMA_LENGTHS, atol=1e-12)
    pose = _PUMA.numeric().forward_kinematics(np.array(q))
    np.testing.assert_allclose(points[-1], pose[:3, 3], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(view.skeleton.joint_axes, axis=1), 1.0)
    np.testing.assert_allclose(view.shadow.get_data_3d()[2], view.floor_height, atol=1e-12)


_PUMA = robolab.load_robot("puma560", form="dh")
_PUMA_VIEW = RobotView(_PUMA, ax=Figure().add_subplot(projection="3d"))
_PUMA_LENGTHS = [abs(float(v)) for a, _, d, _ in _PUMA.dh_parameters for v in (d, a)]
