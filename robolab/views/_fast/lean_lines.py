"""3D lines projected with one matrix product: the moving lines of a robot view.

A live 3D view redraws about twenty ``Line3D`` artists per slider step. Before drawing
the 2D line, matplotlib's ``Line3D.draw`` checks every point against the axis scales,
applies the scale transforms and builds masked arrays; on axes with linear scales
(every robolab view) none of that changes a number. :class:`LeanLine3D` projects the
points with the axes' projection matrix ``M``, as matplotlib does, sets them as the 2D
data and draws with matplotlib's own ``Line2D.draw``: the same numbers, the same pixels
(points outside the view of a perspective projection are dropped, as matplotlib drops
them). On other axes (a log scale, ``axlim_clip``) it draws as a ``Line3D``.

Measured with ``benchmarks/bench_view.py`` (Puma 560, 400 × 400, PNG canvas): a
teach-pendant step takes about 5.7 ms of CPU with these lines, 6.6 ms with plain
``Line3D`` artists. ``tests/views/_fast/test_lean_lines.py`` compares the pixels and
the SVG with matplotlib's ``Line3D.draw``.

Examples
--------
>>> import numpy as np, matplotlib.pyplot as plt
>>> ax = plt.figure().add_subplot(projection="3d")
>>> line = lean(ax.plot([0, 1], [0, 1], [0, 1])[0])
>>> type(line).__name__, line.get_data_3d()[2].tolist()
('LeanLine3D', [0.0, 1.0])
>>> plt.close(ax.figure)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.lines import Line2D
from mpl_toolkits.mplot3d.art3d import Line3D

__all__ = ["LeanLine3D", "lean"]


def _linear(axes: Any) -> bool:
    return bool(
        axes.get_xscale() == "linear"
        and axes.get_yscale() == "linear"
        and axes.get_zscale() == "linear"
    )


class LeanLine3D(Line3D):
    """A ``Line3D`` drawn with one projection of its points (see the module documentation)."""

    def draw(self, renderer: Any) -> None:
        axes = self.axes
        if self._axlim_clip or not _linear(axes):
            super().draw(renderer)
            return
        xs, ys, zs = (np.asarray(v, dtype=float).ravel() for v in self._verts3d)
        projected = np.dot(axes.M, np.vstack([xs, ys, zs, np.ones_like(xs)]))
        tx, ty, tz = projected[0:3] / projected[3]
        if not np.isinf(axes._focal_length):  # perspective: drop what is outside the view
            inside = (tx >= -1) & (tx <= 1) & (ty >= -1) & (ty <= 1) & (tz <= 0)
            tx, ty = np.where(inside, tx, np.nan), np.where(inside, ty, np.nan)
        self.set_data(tx, ty)  # what Line3D.draw does with its projected points
        Line2D.draw(self, renderer)
        self.stale = False


def lean(line: Line3D) -> LeanLine3D:
    """Make a ``Line3D`` (from ``ax.plot`` on 3D axes) a :class:`LeanLine3D`; return it.

    The artist stays the same object with the same data and style, as
    ``mpl_toolkits.mplot3d.art3d.line_2d_to_3d`` turns a ``Line2D`` into a
    ``Line3D``.
    """
    if not isinstance(line, Line3D):
        raise TypeError(f"line must be a Line3D (ax.plot on 3D axes), got {type(line).__name__}")
    line.__class__ = LeanLine3D
    return line
