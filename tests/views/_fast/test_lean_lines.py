"""robolab.views._fast.lean_lines: a LeanLine3D draws the pixels matplotlib's Line3D draws.

Its projection (one matrix product, no scale masks) is checked against matplotlib's own
``Line3D.draw`` for every style the views use and a few they do not, in orthographic and
perspective projections, and on axes where it must draw as a ``Line3D``.
"""

from __future__ import annotations

import matplotlib
import matplotlib.patheffects as path_effects
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
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
    ("-", {"drawstyle": "steps-mid"}),  # styles the views do not use
    ("o-", {"markevery": 2}),
    (",", {}),
    ("-", {"path_effects": [path_effects.withStroke(linewidth=4, foreground="w")]}),
]


def _lines(rng: np.random.Generator, count: int = 6) -> np.ndarray:
    points = rng.uniform(-1, 1, (count, 3))
    points[2] = np.nan  # a gap, as the views separate segments
    return points


def _pixels(lean_lines: bool, focal_length: float | None) -> np.ndarray:
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
    ax.set(xlim=(-1, 1), ylim=(-1, 1), zlim=(-1, 1))
    figure.canvas.draw()
    return np.asarray(figure.canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("focal_length", [None, 0.3], ids=["orthographic", "perspective"])
def test_lean_lines_draw_matplotlibs_pixels(focal_length):
    reference = _pixels(lean_lines=False, focal_length=focal_length)
    assert (_pixels(lean_lines=True, focal_length=focal_length) == reference).all()


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


def test_an_svg_of_lean_lines_is_matplotlibs_svg():
    """Vector back ends see the same groups, paths and markers (savefig of a view)."""
    import io

    def svg(lean_lines: bool) -> str:
        figure = Figure(figsize=(3, 3), dpi=100)
        FigureCanvasAgg(figure)
        ax = figure.add_subplot(projection="3d")
        rng = np.random.default_rng(3)
        for fmt, options in STYLES:
            (line,) = ax.plot(*_lines(rng).T, fmt, gid=f"line {fmt}", **options)
            if lean_lines:
                lean(line)
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "lean"}):  # the same ids in both files
            figure.savefig(buffer, format="svg", metadata={"Date": None})
        return buffer.getvalue()

    assert svg(lean_lines=True) == svg(lean_lines=False)


def test_a_line_on_a_log_axis_draws_as_a_line3d():
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(projection="3d")
    (line,) = ax.plot([1, 10], [1, 2], [1, 2], "o-")
    reference = ax.plot([1, 10], [1, 2], [1, 2], "o-")[0]
    ax.set_xscale("log")
    lean(line)
    figure.canvas.draw()
    np.testing.assert_array_equal(line.get_data(), reference.get_data())


def test_only_3d_lines_are_made_lean():
    figure = Figure()
    with pytest.raises(TypeError, match=r"line must be a Line3D .* got Line2D"):
        lean(figure.add_subplot().plot([0, 1])[0])
