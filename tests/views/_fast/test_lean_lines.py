"""robolab.views._fast.lean_lines: a LeanLine3D draws the pixels matplotlib's Line3D draws.

Its plain-line path (``_draw_plain``: the graphics contexts of ``Line2D.draw`` without the
caches it builds) is checked against matplotlib's own ``Line3D.draw`` for every style the
views use and a few they do not, in orthographic and perspective projections.
"""

from __future__ import annotations

import matplotlib
import matplotlib.patheffects as path_effects
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from mpl_toolkits.mplot3d.art3d import Line3D

from robolab.views._fast.lean_lines import LeanLine3D, lean

#: (format, keyword arguments) of ax.plot: what the views draw, then what they do not.
STYLES = [
    ("o-", {"color": "k", "lw": 3}),  # links
    ("-", {"color": "0.6", "lw": 2, "alpha": 0.5}),  # a floor shadow
    ("o", {"mfc": "white", "mec": "C0", "ms": 9, "mew": 1.5}),  # joints
    ("s", {"mfc": "none", "ms": 7}),  # prismatic joints
    ("--", {"color": "C2", "lw": 1.2}),  # dashed joint axes
    (":", {"color": "C3", "lw": 0}),  # zero width: nothing
    ("none", {"marker": "$x$", "ms": 11, "color": "C1"}),  # a triad's letter
    ("-", {"color": "r", "lw": 2, "solid_capstyle": "round", "solid_joinstyle": "miter"}),
    ("o-", {"fillstyle": "left", "mfcalt": "y"}),  # an alternative marker path
    ("o", {"mfc": (0.0, 0.0, 1.0, 0.3), "ms": 10}),  # an "auto" edge takes the face's alpha
    ("-", {"drawstyle": "steps-mid"}),  # not plain: matplotlib's own draw
    ("o-", {"markevery": 2}),
    (",", {}),
    ("-", {"path_effects": [path_effects.withStroke(linewidth=4, foreground="w")]}),
]


def _lines(rng: np.random.Generator, count: int = 6) -> np.ndarray:
    points = rng.uniform(-1, 1, (count, 3))
    points[2] = np.nan  # a gap, as the views separate segments
    return points


def _pixels(lean_lines: bool, focal_length: float | None, plain: bool = True) -> np.ndarray:
    figure = Figure(figsize=(3, 3), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(projection="3d")
    if focal_length is not None:
        ax.set_proj_type("persp", focal_length=focal_length)
    rng = np.random.default_rng(3)
    for fmt, options in STYLES:
        (line,) = ax.plot(*_lines(rng).T, fmt, **options)
        if lean_lines:
            lean(line)
            if not plain:
                line._plain = lambda: False  # the path through Line2D.draw
    ax.set(xlim=(-1, 1), ylim=(-1, 1), zlim=(-1, 1))
    figure.canvas.draw()
    return np.asarray(figure.canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("focal_length", [None, 0.3], ids=["orthographic", "perspective"])
def test_lean_lines_draw_matplotlibs_pixels(focal_length):
    reference = _pixels(lean_lines=False, focal_length=focal_length)
    assert (_pixels(lean_lines=True, focal_length=focal_length) == reference).all()
    assert (_pixels(True, focal_length, plain=False) == reference).all()


def test_only_plain_lines_take_the_short_path():
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(projection="3d")
    plain = []
    for fmt, options in STYLES:
        (line,) = ax.plot([0, 1], [0, 1], [0, 1], fmt, **options)
        plain.append(lean(line)._plain())
    # the last four: steps, markevery, pixel markers, path effects
    assert plain == [True] * (len(STYLES) - 4) + [False] * 4


def test_the_2d_data_follow_the_projection_after_a_draw():
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(projection="3d")
    (line,) = ax.plot([0, 1], [0, 1], [0, 1], "o-")
    reference = Line3D([0, 1], [0, 1], [0, 1])
    ax.add_line(reference)
    lean(line)
    figure.canvas.draw()
    assert isinstance(line, LeanLine3D)
    np.testing.assert_allclose(line.get_data(), reference.get_data(), rtol=0, atol=1e-12)


def test_a_placed_label_draws_the_pixels_of_a_line_at_its_place():
    """text3d.PlacedMarkerLine draws through the same short path, at its placed centre."""
    from robolab.views.drawing.text3d import PlacedMarkers, text_marker

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


def test_an_svg_of_lean_lines_is_matplotlibs_svg():
    """Vector back ends see the same groups, paths and markers (savefig of a view)."""
    import io

    def svg(lean_lines: bool) -> str:
        figure = Figure(figsize=(3, 3), dpi=100)
        FigureCanvasAgg(figure)
        ax = figure.add_subplot(projection="3d")
        rng = np.random.default_rng(3)
        for fmt, options in STYLES[:9]:
            (line,) = ax.plot(*_lines(rng).T, fmt, gid=f"line {fmt}", **options)
            if lean_lines:
                lean(line)
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "lean"}):  # the same ids in both files
            figure.savefig(buffer, format="svg", metadata={"Date": None})
        return buffer.getvalue()

    assert svg(lean_lines=True) == svg(lean_lines=False)
