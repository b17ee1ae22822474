"""Labels of the 3D views never overlap: measured in the rendered pixels (issue 17, item 6).

Each label and each triad letter is rendered alone on a blank Agg canvas of the figure's
size, and its box is where that canvas is not transparent: the rasteriser is the reference,
not the placement's own idea of the boxes.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from mpl_toolkits.mplot3d.art3d import Line3D

import robolab
from robolab.views.drawing.robot_view import plot_robot
from robolab.views.drawing.text3d import PlacedMarkers, place_boxes, text_marker
from robolab.views.widgets.teach_pendant import teach

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


def _box_alone(artist, figure):
    """(x0, y0, x1, y1) of the pixels ``artist`` paints alone (rows from the top), or None."""
    width, height = (int(v) for v in figure.bbox.size)
    renderer = RendererAgg(width, height, figure.dpi)
    artist.draw(renderer)
    alpha = np.asarray(renderer.buffer_rgba())[..., 3]
    rows, columns = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
    if rows.size == 0:
        return None
    return (int(columns[0]), int(rows[0]), int(columns[-1]), int(rows[-1]))


def _letter_boxes(view):
    """The box of every triad letter (x, y, z of every frame), each drawn alone."""
    boxes = []
    for line in view.triad_labels:
        xs, ys, zs = (np.array(v, dtype=float) for v in line.get_data_3d())
        try:
            for point in zip(xs, ys, zs, strict=True):
                line.set_data_3d(*([v] for v in point))
                box = _box_alone(line, view.figure)
                if box is not None:
                    boxes.append(box)
        finally:
            line.set_data_3d(xs, ys, zs)
    return boxes


def _label_boxes(view):
    view.figure.canvas.draw()  # places the labels for this picture
    return {
        text: _box_alone(label, view.figure)
        for label, text in zip(view.frame_labels, view.frame_label_texts, strict=True)
        if label.get_visible()
    }


def _intersect(a, b):
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _assert_clear(view, where):
    labels = _label_boxes(view)
    letters = _letter_boxes(view)
    assert len(labels) >= 2, where
    names = sorted(labels)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert not _intersect(labels[first], labels[second]), (where, first, second)
        for letter in letters:
            assert not _intersect(labels[first], letter), (where, first, letter)


def test_the_pendants_labels_are_clear_at_home_and_at_seeded_poses(puma):
    pendant = teach(puma)
    view = pendant.view
    _assert_clear(view, "home")
    rng = np.random.default_rng(17)
    limits = np.array(puma.joint_limits, dtype=float)
    for k in range(5):
        q = rng.uniform(np.maximum(limits[:, 0], -np.pi), np.minimum(limits[:, 1], np.pi))
        pendant.set_q(q)
        _assert_clear(view, f"pose {k}: q = {np.round(q, 2)}")


def test_the_wrist_frames_share_one_label_that_covers_no_letter(puma):
    # At home the Puma's frames {4}, {5}, {6} sit at the wrist centre (one label); the labels
    # are placed away from the coinciding triads' letters, which the old fixed offset covered.
    view = plot_robot(puma)
    assert "{4,5,6}" in view.frame_label_texts
    _assert_clear(view, "home")


def test_labels_are_placed_again_when_the_view_is_turned(puma):
    view = plot_robot(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2])
    _assert_clear(view, "as built")
    for elev, azim in ((10.0, 30.0), (60.0, -140.0), (-20.0, 95.0)):
        view.axes.view_init(elev=elev, azim=azim)  # what dragging the figure does
        _assert_clear(view, f"elev {elev}, azim {azim}")


def test_frames_closer_than_six_percent_of_the_reach_share_a_label():
    # Two frames 3 cm apart on an arm of about 1 m reach: one label {1,2}; frames 30 cm
    # apart keep their own.
    from robolab.symbols import q1, q2, q3

    arm = robolab.DHRobot((0.5, 0, 0, q1), (0.03, 0, 0, q2), (0.5, 0, 0, q3), name="3R")
    view = plot_robot(arm)
    texts = [t for t in view.frame_label_texts if t]
    assert texts == ["{0}", "{1,2}", "{3}"]


@pytest.mark.parametrize("count", [2, 3, 5])
def test_place_boxes_separates_labels_of_one_anchor(count):
    sizes = np.tile([24.0, 10.0], (count, 1))
    centres, choices = place_boxes(np.full((count, 2), 100.0), sizes, bounds=(0, 0, 200, 200))
    assert len(choices) == count
    half = sizes / 2
    for i in range(count):
        # clear of the anchor's dot (radius 4 px)
        assert np.any(np.abs(centres[i] - 100.0) >= half[i] + 4.0 - 1e-9)
        for j in range(i + 1, count):
            assert np.any(np.abs(centres[i] - centres[j]) >= half[i] + half[j] - 1e-9), (i, j)


def test_place_boxes_keeps_off_a_line_and_a_box_and_names_bad_sizes():
    # A line from the anchor to the right and a box above it: the label goes left or down.
    centres, _ = place_boxes(
        [[100.0, 100.0]],
        [[30.0, 12.0]],
        segments=[[[100.0, 100.0], [160.0, 100.0]]],
        boxes=[[80.0, 104.0, 120.0, 140.0]],
    )
    x, y = centres[0]
    assert not (x + 15 > 100 and abs(y - 100) < 6)  # not on the line
    assert not (abs(x - 100) < 35 and y + 6 > 104)  # not on the box
    with pytest.raises(ValueError, match=r"sizes must have shape \(1, 2\)"):
        place_boxes([[0.0, 0.0]], [[1.0, 2.0], [3.0, 4.0]])


def _triad_letter_boxes(ax, figure):
    """Boxes of every Labels3D glyph (triad letters, tick labels), each drawn alone."""
    from robolab.views.drawing.text3d import Labels3D

    boxes = []
    for labels in [c for c in ax.collections if isinstance(c, Labels3D)]:
        points, paths = labels.points.copy(), list(labels.get_paths())
        try:
            for k in range(len(paths)):
                labels.set_paths([paths[k]])
                labels.set_points(points[k : k + 1])
                labels.do_3d_projection()
                box = _box_alone(labels, figure)
                if box is not None:
                    boxes.append(box)
        finally:
            labels.set_paths(paths)
            labels.set_points(points)
    return boxes


def test_place_labels_keeps_a_text_off_the_triads_letters():
    # Chapter 1's worked example: a part at (0.9, -0.05, 0) m in the base frame, 0.1 m from
    # the table frame's origin (0.8, 0, 0); a label at the part's point overlapped y_t and x_t.
    from robolab.views.drawing.text3d import place_labels

    ax = robolab.frame_axes([(0, 1.2), (-0.5, 0.5), (0, 0.8)], unit="m", elev=25, azim=-50)
    table = np.eye(4)
    table[:3, 3] = [0.8, 0.0, 0.0]
    camera = np.diag([1.0, -1.0, -1.0, 1.0])
    camera[:3, 3] = [0.8, 0.0, 0.5]
    for pose, name in [(np.eye(4), "s"), (table, "t"), (camera, "c")]:
        robolab.draw_frame(ax, pose, name, length=0.15)
    ax.scatter(0.9, -0.05, 0.0, color="black", s=30)
    parts = [ax.text(0.9, -0.05, 0.0, "part", fontsize=10), ax.text(0.8, 0, 0, "table")]
    placed = place_labels(ax, parts)
    figure = ax.figure
    figure.canvas.draw()
    letters = _triad_letter_boxes(ax, figure)
    assert len(letters) >= 9  # x, y, z of three frames, and the tick labels
    boxes = [_box_alone(text, figure) for text in parts]
    assert not _intersect(boxes[0], boxes[1])
    for box in boxes:
        for letter in letters:
            assert not _intersect(box, letter), (box, letter)
    # the label stays near its point: within 40 px of the dot
    assert np.linalg.norm(placed.centres[0] - placed.anchor_pixels()[0]) < 40.0
    with pytest.raises(TypeError, match="texts must be texts of this 3D axes"):
        place_labels(ax, ["part"])


@pytest.mark.parametrize(
    ("a", "alpha", "d", "theta"),
    [(0.6, np.pi / 3, 0.4, np.pi / 6), (0.2, -np.pi / 2, 0.8, 1.0), (1.0, 0.0, 0.1, -2.0)],
)
def test_place_labels_in_chapter_twos_one_row_figure(a, alpha, d, theta):
    # The scene of chapter 2's one-row figure (standard DH: along z_{i-1} by d, along x_i by a),
    # frame {i} from Spong's A = Rz(θ) Tz(d) Tx(a) Rx(α), written out here.
    from robolab.views.drawing.text3d import place_labels

    ax = robolab.frame_axes(
        [(-0.3, 0.9), (-0.6, 0.6), (-0.2, 1.0)], unit="m", elev=35, azim=-120, figsize=(5.6, 5.0)
    )
    c, s, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    pose = np.array(
        [[c, -s * ca, s * sa, a * c], [s, c * ca, -c * sa, a * s], [0, sa, ca, d], [0, 0, 0, 1]]
    )
    robolab.draw_frame(ax, np.eye(4), "i-1", length=0.3, style="--")
    robolab.draw_frame(ax, pose, "i", length=0.3)
    origin, corner, end = np.zeros(3), np.array([0.0, 0.0, d]), pose[:3, 3]
    ax.plot(*np.column_stack([origin, corner, end]), color="black", lw=1.4)
    texts = []
    for point, z, name in (
        (origin, np.array([0, 0, 1.0]), "joint $i$"),
        (end, pose[:3, 2], "joint $i{+}1$"),
    ):
        ax.plot(*np.column_stack([point - 0.7 * z, point + 0.9 * z]), ":", color="grey")
        texts.append(ax.text(*(point + 0.95 * z), name, fontsize=9))
    for middle, name in (((origin + corner) / 2, "$d_i$"), ((corner + end) / 2, "$a_i$")):
        texts.append(ax.text(*middle, name, fontsize=11))
    place_labels(ax, texts)
    figure = ax.figure
    figure.canvas.draw()
    boxes = [_box_alone(text, figure) for text in texts]
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not _intersect(box, other), (box, other)
        for letter in _triad_letter_boxes(ax, figure):
            assert not _intersect(box, letter), (i, box, letter)


def test_a_placed_label_draws_the_pixels_of_a_line_at_its_place():
    """A PlacedMarkerLine draws what matplotlib's Line2D draws at the placed centre."""

    def figure_with_label(placed: bool) -> tuple[Figure, object]:
        figure = Figure(figsize=(3, 3), dpi=100)
        FigureCanvasAgg(figure)
        ax = figure.add_subplot(projection="3d")
        marker, size, _ = text_marker("{4,5,6}", 10)
        (line,) = ax.plot([0.2], [0.1], [0.3], ls="none", marker=marker, ms=size, color="k")
        ax.set(xlim=(-1, 1), ylim=(-1, 1), zlim=(-1, 1))
        return figure, line

    figure, line = figure_with_label(placed=True)
    placement = PlacedMarkers([line])
    placement.set_scene(
        np.array([[0.2, 0.1, 0.3]]),
        np.array([[30.0, 10.0]]),
        box_points=np.zeros((0, 3)),
        box_sizes=np.zeros((0, 2)),
        segments=np.zeros((0, 2, 3)),
        directions=[np.zeros((0, 3))],
        clearance=4.0,
    )
    figure.canvas.draw()
    placed = np.asarray(figure.canvas.buffer_rgba()).copy()
    x, y = placement.data_position(line)
    reference, plain = figure_with_label(placed=False)
    plain.__class__ = Line3D  # matplotlib's own drawing, at the placed centre
    plain.draw = lambda renderer, plain=plain: (
        plain.set_data([x], [y]),
        Line2D.draw(plain, renderer),
    )
    reference.canvas.draw()
    assert (np.asarray(reference.canvas.buffer_rgba()) == placed).all()
