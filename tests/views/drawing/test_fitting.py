"""Fitting a robot view to its axes (WorkspaceFit): the box holds the workspace, the arm fills
the figure at every configuration and is centred for any view angles, zoom magnifies about
the arm, given limits are kept."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import robolab
from robolab.views.drawing.robot_view import plot_robot


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


def test_explicit_limits_are_used(puma):
    view = plot_robot(puma, limits=(-1, 1, -2, 2, 0, 3))
    assert view.axes.get_xlim() == (-1, 1) and view.axes.get_zlim() == (0, 3)
