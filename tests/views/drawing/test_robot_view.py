"""3D robot views: what is drawn, in-place updates, colours, ellipsoids and errors."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgb
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


# --- colours --------------------------------------------------------------------------------

# Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of
# color vision deficiency", IEEE TVCG 15(6): simulation matrices at severity 1.0, applied to
# linear RGB (as published on the authors' page and reproduced by colorspacious).
MACHADO_2009 = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def _cielab(linear_rgb):
    """CIELAB (D65) of a linear sRGB colour (IEC 61966-2-1 matrix, CIE 1976 formulas)."""
    to_xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    )
    t = to_xyz @ linear_rgb / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _smallest_difference(colours, matrix):
    def simulated(colour):
        c = np.array(to_rgb(colour))
        linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return _cielab(np.clip(np.asarray(matrix) @ linear, 0.0, 1.0))

    return min(
        np.linalg.norm(simulated(a) - simulated(b)) for a, b in itertools.combinations(colours, 2)
    )


@pytest.mark.parametrize("condition", sorted(MACHADO_2009))
def test_triad_colours_stay_apart_under_colour_vision_deficiency(condition):
    assert _smallest_difference(TRIAD_COLOURS, MACHADO_2009[condition]) > 40.0


def test_the_colour_test_rejects_red_green_blue():
    # The classic triad fails for protanopes: red and green nearly merge (ΔE ≈ 10).
    assert _smallest_difference(("red", "green", "blue"), MACHADO_2009["protanopia"]) < 20.0


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


def test_the_box_holds_every_reachable_point(puma):
    view = plot_robot(puma)
    rng = np.random.default_rng(3)
    low, high = view.limits[:, 0], view.limits[:, 1]
    for _ in range(50):
        points = view.skeleton_of(_random_q(puma, rng)).link_points
        assert np.all(points >= low - 1e-9) and np.all(points <= high + 1e-9)


def _drawn_pixels(view):
    """Where the view's figure is not white, after an Agg draw (the caption hidden)."""
    view.caption.set_visible(False)
    view.figure.canvas.draw()
    view.caption.set_visible(True)
    rgb = np.asarray(view.figure.canvas.buffer_rgba())[..., :3]
    return np.any(rgb != 255, axis=2)


@pytest.mark.parametrize(
    ("name", "form"), [("puma560", "dh"), ("ur5", "screw"), ("panda", "screw"), ("scara", "dh")]
)
def test_the_arm_fills_the_figure_at_every_configuration_without_leaving_it(name, form):
    robot = robolab.load_robot(name, form=form)
    view = plot_robot(robot)
    rng = np.random.default_rng(7)
    limits = view._adapter.shown_limits  # a prismatic placeholder range cut to 1 m
    union = np.zeros(view.figure.canvas.get_width_height()[::-1], dtype=bool)
    for _ in range(12):
        q = rng.uniform(np.maximum(limits[:, 0], -np.pi), np.minimum(limits[:, 1], np.pi))
        view.update(q, draw=False)
        drawn = _drawn_pixels(view)
        # Nothing is cut off at the edges of the figure (3D artists are clipped to the axes).
        assert not (drawn[0].any() or drawn[-1].any() or drawn[:, 0].any() or drawn[:, -1].any())
        union |= drawn
    rows, columns = np.flatnonzero(union.any(axis=1)), np.flatnonzero(union.any(axis=0))
    height, width = union.shape
    spans = ((rows[-1] - rows[0]) / height, (columns[-1] - columns[0]) / width)
    assert max(spans) > 0.8, spans  # 0.69 for the UR5 with matplotlib's box zoom 1.2
    # Centred left to right; the top keeps a band for the caption.
    assert abs(columns[0] - (width - 1 - columns[-1])) < 0.05 * width
    assert rows[0] > 8


def test_the_picture_is_centred_for_any_view_angles(puma):
    view = plot_robot(puma, elev=60, azim=30)
    drawn = _drawn_pixels(view)
    columns = np.flatnonzero(drawn.any(axis=0))
    assert abs(columns[0] - (drawn.shape[1] - 1 - columns[-1])) < 0.05 * drawn.shape[1]
    assert view.axes.elev == 60 and view.axes.azim == 30


def _drawn_links(view):
    """Pixel positions of the drawn link polyline (a Line3D holds its projection after a draw)."""
    view.figure.canvas.draw()
    return view.axes.transData.transform(np.column_stack(view.links.get_data()))


def test_zoom_magnifies_the_picture_about_the_arm(puma):
    q = np.radians([20, -30, 40, 0, 45, 0])
    fitted, closer = plot_robot(puma, q), plot_robot(puma, q, zoom=1.5)
    assert (fitted.zoom, closer.zoom) == (1.0, 1.5)
    before, after = _drawn_links(fitted), _drawn_links(closer)
    base, hand = 0, len(before) - 1
    ratio = np.linalg.norm(after[hand] - after[base]) / np.linalg.norm(before[hand] - before[base])
    assert ratio == pytest.approx(1.5, rel=0.03)
    # Every point moves away from one fixed point, f = (after - 1.5 before) / (1 - 1.5), which
    # lies on the arm: the close-up keeps the arm where it was.
    fixed = (after - 1.5 * before) / (1.0 - 1.5)
    np.testing.assert_allclose(fixed[base], fixed[hand], atol=6.0)
    low, high = before.min(axis=0), before.max(axis=0)
    assert np.all(fixed[hand] > low - 20) and np.all(fixed[hand] < high + 20)
    assert np.all(closer.limits[:, 0] <= fitted.limits[:, 0] + 1e-9)  # the box only grows
    assert np.all(closer.limits[:, 1] >= fitted.limits[:, 1] - 1e-9)


def test_zoom_with_given_limits_keeps_the_box(puma):
    box = (-1, 1, -1, 1, 0, 1.5)
    fitted, closer = plot_robot(puma, limits=box), plot_robot(puma, limits=box, zoom=1.5)
    assert closer.box_zoom == pytest.approx(1.5 * fitted.box_zoom)
    np.testing.assert_allclose(closer.limits, fitted.limits, atol=1e-12)


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


def test_explicit_limits_are_used(puma):
    view = plot_robot(puma, limits=(-1, 1, -2, 2, 0, 3))
    assert view.axes.get_xlim() == (-1, 1) and view.axes.get_zlim() == (0, 3)


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


# --- pictures of frames: frame_axes and draw_frame ----------------------------------------------


def _labels_of(ax, gid):
    return [c for c in ax.collections if c.get_gid() == gid]


@pytest.mark.parametrize(
    "limits",
    [(-0.5, 1.5), [(-0.5, 1.5)] * 3, (-0.5, 1.5, -0.5, 1.5, -0.5, 1.5), np.array([-0.5, 1.5])],
)
def test_frame_axes_limits_in_every_form(limits):
    ax = robolab.frame_axes(limits)
    for get in (ax.get_xlim, ax.get_ylim, ax.get_zlim):
        assert get() == pytest.approx((-0.5, 1.5))


def test_frame_axes_keep_equal_scales():
    ax = robolab.frame_axes([(0, 1), (-0.5, 0.5), (0, 2)])
    aspect = np.asarray(ax.get_box_aspect())
    np.testing.assert_allclose(aspect / aspect[0], [1.0, 1.0, 2.0])


def test_lean_frame_axes_label_ticks_and_axes_in_one_artist():
    ax = robolab.frame_axes([(0, 1), (-0.5, 0.5), (0, 1)], unit="m", ticks=3)
    (labels,) = _labels_of(ax, "robolab-frame-axes-labels")
    assert labels.texts == (
        *("0", "0.5", "1"),
        *("-0.5", "0", "0.5"),
        *("0", "0.5", "1"),
        *("x (m)", "y (m)", "z (m)"),
    )
    grid = [line for line in ax.lines if line.get_gid() == "robolab-frame-axes-grid"]
    assert len(grid) == 1


def test_full_frame_axes_use_matplotlib_ticks():
    ax = robolab.frame_axes((-1, 1), decorations="full", ticks=5, unit="m")
    assert not _labels_of(ax, "robolab-frame-axes-labels")
    np.testing.assert_allclose(ax.get_xticks(), [-1, -0.5, 0, 0.5, 1], atol=1e-12)
    assert ax.get_zlabel() == "z (m)"


def test_frame_axes_title_is_drawn_above():
    ax = robolab.frame_axes(title="Frame {b} in {a}")
    titles = [a for a in ax.figure.artists if a.get_gid() == "robolab-frame-axes-title"]
    assert len(titles) == 1
    (x,), (y,) = titles[0].get_data()
    assert x == pytest.approx(0.5) and y > 0.9


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"limits": (1, 0)}, r"limits of the x axis must have low < high, got \(1, 0\)"),
        ({"limits": (0, 1, 2)}, r"limits must be \(low, high\) for all three axes"),
        ({"limits": [(0, 1), (0, 1), (1, 1)]}, r"limits of the z axis must have low < high"),
        ({"ticks": 1}, r"ticks must be 0 or a whole number >= 2, got 1"),
        ({"decorations": "box"}, r"decorations must be one of \['lean', 'full', 'none'\]"),
        ({"ax": "axes"}, r"ax must be a 3D axes"),
    ],
)
def test_frame_axes_refuse_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        robolab.frame_axes(**kwargs)


def test_a_triad_draws_the_columns_of_the_rotation_from_the_origin():
    ax = robolab.frame_axes((-2, 2))
    T = robolab.rotation_position_to_transform(
        robolab.rpy_to_rotation(0.3, -0.4, 1.1), [0.5, -0.2, 0.3]
    )
    triad = robolab.draw_frame(ax, T, "b", length=0.7)
    for k, (line, colour) in enumerate(zip(triad.lines, TRIAD_COLOURS, strict=True)):
        assert line.get_color() == colour
        points = np.column_stack(line.get_data_3d())
        np.testing.assert_allclose(points, [T[:3, 3], T[:3, 3] + 0.7 * T[:3, k]], atol=1e-12)
    assert triad.labels.texts == ("$x_{b}$", "$y_{b}$", "$z_{b}$")
    np.testing.assert_allclose(triad.label_points, T[:3, 3] + 1.18 * 0.7 * T[:3, :3].T)
    np.testing.assert_array_equal(
        triad.labels.get_facecolors()[:, :3], [to_rgb(c) for c in TRIAD_COLOURS]
    )


def test_set_pose_moves_the_same_artists():
    ax = robolab.frame_axes((-1, 1))
    triad = robolab.draw_frame(ax, np.eye(4), "b", length=1.0)
    artists = (len(ax.lines), len(ax.collections))
    lines, labels = triad.lines, triad.labels
    triad.set_pose(robolab.rotz(np.pi / 2))  # a rotation matrix: origin at 0
    assert triad.lines is lines and triad.labels is labels
    assert (len(ax.lines), len(ax.collections)) == artists
    np.testing.assert_allclose(np.column_stack(lines[0].get_data_3d())[1], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(labels.points[0], [0, 1.18, 0], atol=1e-12)
    np.testing.assert_allclose(triad.pose[:3, :3], robolab.rotz(np.pi / 2), atol=1e-12)


def test_triad_labels_at_the_origin_or_none():
    ax = robolab.frame_axes((-1, 1))
    named = robolab.draw_frame(ax, robolab.transl(0.2, 0, 0), "θ1", labels="origin", length=0.5)
    assert named.labels.texts == ("{θ1}",)
    assert named.label_points.shape == (1, 3)
    bare = robolab.draw_frame(ax, np.eye(4), labels="none")
    assert bare.labels is None and bare.label_texts == ()
    assert repr(named) == "<FrameTriad {θ1} at origin (0.2, 0, 0)>"


def test_triad_default_length_follows_the_axes():
    ax = robolab.frame_axes([(0, 2), (0, 2), (0, 1)])
    assert robolab.draw_frame(ax).length == pytest.approx(0.3)


def test_triad_is_drawn_in_the_pixels_and_moves():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    ax = robolab.frame_axes((-1, 1), decorations="none")
    triad = robolab.draw_frame(ax, np.eye(4), "b", length=0.9, labels="none")
    canvas = FigureCanvasAgg(ax.figure)

    def pixels():
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[..., :3].astype(float)

    def count(picture, colour):
        return int((np.abs(picture - np.array(to_rgb(colour)) * 255).max(axis=2) < 12).sum())

    before = pixels()
    assert all(count(before, colour) > 20 for colour in TRIAD_COLOURS)
    triad.set_pose(robolab.roty(np.pi / 2))
    assert (pixels() != before).any()
    triad.set_visible(False)
    hidden = pixels()
    assert all(count(hidden, colour) == 0 for colour in TRIAD_COLOURS)
    triad.remove()
    assert ax.lines == [] or all(line.get_gid() for line in ax.lines)


def test_a_triad_on_a_robot_view_sits_on_the_end_effector(puma):
    view = plot_robot(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2])
    goal = robolab.draw_frame(view.axes, view.end_effector_pose, "goal", length=0.1)
    for line in goal.lines:  # every axis starts at the end-effector origin
        np.testing.assert_allclose(line.get_data_3d()[0][0], view.end_effector_pose[0, 3])
        np.testing.assert_allclose(
            np.column_stack(line.get_data_3d())[0], view.end_effector_pose[:3, 3]
        )
    np.testing.assert_allclose(goal.pose, view.end_effector_pose, atol=1e-12)


@pytest.mark.parametrize(
    ("T", "error", "message"),
    [
        (np.diag([1.0, 1.0, -1.0, 1.0]), ValueError, r"the rotation part of T must be a rotation"),
        (np.eye(3) * 2, ValueError, r"T must be a rotation matrix"),
        (np.eye(2), ValueError, r"T must be a 4×4 transform or a 3×3 rotation matrix, got shape"),
        (np.full((4, 4), np.nan), ValueError, r"T contains a non-finite value"),
    ],
)
def test_bad_poses_are_refused(T, error, message):
    ax = robolab.frame_axes()
    with pytest.raises(error, match=message):
        robolab.draw_frame(ax, T)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"labels": "axes"}, ValueError, r"labels must be one of \['tips', 'origin', 'none'\]"),
        ({"length": -1.0}, ValueError, r"length must be a positive number, got -1.0"),
        ({"name": 3}, TypeError, r"name must be a string such as 'b', got 3"),
    ],
)
def test_bad_triad_options_are_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        robolab.draw_frame(robolab.frame_axes(), np.eye(4), **kwargs)


def test_a_triad_needs_a_3d_axes():
    figure = Figure()
    with pytest.raises(ValueError, match=r"ax must be a 3D axes \(robolab.frame_axes\(\)"):
        robolab.draw_frame(figure.add_subplot(), np.eye(4))


def test_view_options_are_one_dataclass_passed_along(puma):
    from robolab.views.drawing.options import ViewOptions

    options = ViewOptions(frames="ends", elev=40, zoom=1.2, limits=(-1, 1, -1, 1, 0, 1.5))
    view = RobotView(puma, ax=Figure().add_subplot(projection="3d"), options=options)
    assert view.options is options and view.frames_shown == "ends"
    assert view.axes.get_xlim() == (-1, 1) and view.axes.elev == 40
    # the public functions keep their keywords and build the same options
    assert plot_robot(puma, frames="ends", elev=40, zoom=1.2, limits=options.limits).options == (
        options
    )
    pendant = robolab.teach(puma, frames="ends", elev=40, zoom=1.2, limits=options.limits)
    assert pendant.view.options == options
    anim = robolab.animate(puma, np.zeros((2, 6)), elev=40)
    assert anim.view.options is anim.options and anim.options == ViewOptions(frames="ends", elev=40)
    # keywords replace those of options= (the classes take both)
    closer = RobotView(puma, ax=Figure().add_subplot(projection="3d"), options=options, zoom=2)
    assert closer.options == ViewOptions(
        frames="ends", elev=40, zoom=2, limits=(-1, 1, -1, 1, 0, 1.5)
    )
    with pytest.raises(TypeError, match=r"unexpected view option 'colour'; the view options are"):
        RobotView(puma, ax=Figure().add_subplot(projection="3d"), colour="red")
    with pytest.raises(ValueError, match=r"limits must be .* with min < max"):
        ViewOptions(limits=(1, -1, -1, 1, 0, 1))
