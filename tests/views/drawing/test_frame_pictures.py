"""Pictures of frames: the triad colours (apart under colour-vision deficiency), frame_axes,
draw_frame and FrameTriad."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

import robolab
from robolab.views.drawing.frame_pictures import TRIAD_COLOURS
from robolab.views.drawing.robot_view import plot_robot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


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
