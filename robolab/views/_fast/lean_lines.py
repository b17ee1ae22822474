"""3D lines that project themselves with one matrix product (the views' moving artists).

A live 3D view redraws about twenty ``Line3D`` artists per slider step. Before
drawing the 2D line, matplotlib's ``Line3D.draw`` checks every point against
the axis scales, applies the scale transforms and builds masked arrays: about
40 % of the time of drawing the line. On axes with linear scales (every robolab
view) none of that changes a pixel, so :class:`LeanLine3D` projects the points
with the axes' projection matrix ``M`` and hands them to ``Line2D.draw`` as it
is: the same numbers, the same pixels (points outside the view of a
perspective projection are dropped, as matplotlib drops them). On other axes
(a log scale, ``axlim_clip``) it draws as a ``Line3D``.

A plain line (no path effects, sketch, dash gaps, steps, mark-every or pixel markers: every
line of the views) then skips ``Line2D.draw``'s caches and stale callbacks too: it draws
with the same graphics contexts, paths and transforms straight away, about a third less
time per line, a pendant step about 0.4 ms less
(``tests/views/_fast/test_lean_lines.py`` compares its pixels with matplotlib's own
drawing, styles the views do not use included).

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

from numbers import Real
from typing import Any

import numpy as np
from matplotlib import cbook
from matplotlib import colors as mcolors
from matplotlib.lines import Line2D
from matplotlib.path import Path
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
        self._draw_2d(renderer, tx, ty)

    def _draw_2d(self, renderer: Any, x: np.ndarray, y: np.ndarray) -> None:
        """Draw the line as the 2D line of points (x, y) in the axes' data coordinates."""
        if self._plain():
            # the 2D data as set_data leaves them (recomputed on first use), without its
            # stale callbacks: the figure is being drawn
            self._xorig, self._yorig = x, y
            self._invalidx = self._invalidy = True
            _draw_plain(self, renderer, np.column_stack([x, y]))
        else:
            self.set_data(x, y)
            Line2D.draw(self, renderer)
        self.stale = False

    def _plain(self) -> bool:
        """Drawn by :func:`_draw_plain`: no path effects, sketch, gaps, steps or mark-every."""
        return bool(
            self.get_visible()
            and not self._path_effects
            and self._sketch is None
            and self._gapcolor is None
            and self._drawstyle in (None, "default")
            and self._markevery is None
            and not self._subslice
            and not (self._marker and cbook._str_equal(self._marker.get_marker(), ","))
        )


def _draw_plain(line: Any, renderer: Any, xy: np.ndarray) -> None:
    """``Line2D.draw`` for a plain line (:meth:`LeanLine3D._plain`) of points ``xy`` (data):
    the same graphics contexts, paths and transforms, without the caches it builds first."""
    renderer.open_group("line2d", line.get_gid())  # what a vector back end groups
    if len(xy):
        _draw_path_and_markers(line, renderer, Path(xy))
    renderer.close_group("line2d")


def _draw_path_and_markers(line: Any, renderer: Any, path: Path) -> None:
    affine = line.get_transform().get_affine()  # linear axes: no non-affine part
    if line._lineStyles[line._linestyle] != "_draw_nothing":
        gc = renderer.new_gc()
        line._set_gc_clip(gc)
        gc.set_url(line.get_url())
        gc.set_antialiased(line._antialiased)
        gc.set_linewidth(line._linewidth)
        dashed = line.is_dashed()
        gc.set_joinstyle(line._dashjoinstyle if dashed else line._solidjoinstyle)
        gc.set_capstyle(line._dashcapstyle if dashed else line._solidcapstyle)
        gc.set_snap(line.get_snap())
        gc.set_foreground(mcolors.to_rgba(line._color, line._alpha), isRGBA=True)
        if line._linewidth > 0:
            gc.set_dashes(*line._dash_pattern)
        else:
            gc.set_dashes(0, None)
        renderer.draw_path(gc, path, affine)
        gc.restore()
    marker = line._marker
    if marker and line._markersize > 0:
        gc = renderer.new_gc()
        line._set_gc_clip(gc)
        gc.set_url(line.get_url())
        gc.set_linewidth(line._markeredgewidth)
        gc.set_antialiased(line._antialiased)
        edge = mcolors.to_rgba(line.get_markeredgecolor(), line._alpha)
        face = mcolors.to_rgba(line._get_markerfacecolor(), line._alpha)
        if cbook._str_equal(line._markeredgecolor, "auto") and not cbook._str_lower_equal(
            line.get_markerfacecolor(), "none"
        ):
            edge = (*edge[:3], face[3])
        gc.set_foreground(edge, isRGBA=True)
        snap = marker.get_snap_threshold()
        if isinstance(snap, Real):
            snap = renderer.points_to_pixels(line._markersize) >= snap
        gc.set_snap(snap)
        gc.set_joinstyle(marker.get_joinstyle())
        gc.set_capstyle(marker.get_capstyle())
        width = renderer.points_to_pixels(line._markersize)
        renderer.draw_markers(
            gc, marker.get_path(), marker.get_transform().scale(width), path, affine, face
        )
        alternative = marker.get_alt_path()
        if alternative:
            renderer.draw_markers(
                gc,
                alternative,
                marker.get_alt_transform().scale(width),
                path,
                affine,
                mcolors.to_rgba(line._get_markerfacecolor(alt=True), line._alpha),
            )
        gc.restore()


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
