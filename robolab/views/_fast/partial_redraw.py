"""Redraw only what moves in a 2D figure: a saved background, the moving artists on it.

Most of an Agg draw of a figure of plots is text: tick labels, axis labels, a legend.
When a slider changes the data and the y-limits but not the x-axes, only the y-axes
and the lines need drawing again. :class:`PartialRedraw` keeps

* a **background**: the figure drawn once without the moving artists, the artists
  drawn *over* them (spines) and the *layers* (legends);
* the **moving** artists (lines, patches, a y-axis with its ticks, grid and label),
  drawn over the background in the order given, then the *over* artists;
* each **layer** pre-drawn alone on a transparent canvas and blended over the
  result (``over`` compositing), which is what drawing it last does, up to one
  level of rounding per channel.

Each frame therefore is the figure's own drawing order with the background's
artists first: identical pixels except where a moving artist that matplotlib
draws *below* a background artist crosses it (the joint tuner's ±2 % band, drawn
over the x-grid lines instead of under them: a difference of two grey levels).
The background and the layers are drawn again when the figure's size, its
resolution, an axes' position or its x-limits change (a resize, a zoom or pan in
ipympl's toolbar), and for 3D axes when their projection changes (the view turned).

Examples
--------
>>> import numpy as np
>>> from matplotlib.figure import Figure
>>> from matplotlib.backends.backend_agg import FigureCanvasAgg
>>> figure = Figure(figsize=(4, 3)); canvas = FigureCanvasAgg(figure)
>>> ax = figure.add_subplot(); (line,) = ax.plot([0, 1], [0, 1], label="y")
>>> legend = ax.legend(loc="lower right")
>>> redraw = PartialRedraw(figure, moving=[ax.yaxis, line], over=list(ax.spines.values()),
...                        layers=[legend])
>>> line.set_ydata([0, 0.5]); _ = ax.set_ylim(0, 0.6)
>>> redraw.draw()  # the new line and y-axis, into the canvas's buffer
>>> redraw.backgrounds_drawn
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure

__all__ = ["PartialRedraw", "projection_key"]


class _Layer:
    """One artist pre-drawn on a transparent canvas, kept as the pixels it covers."""

    def __init__(self, artist: Any, figure: Figure) -> None:
        width, height = (int(v) for v in figure.bbox.size)  # as FigureCanvasAgg.get_renderer
        renderer = RendererAgg(width, height, figure.dpi)
        artist.draw(renderer)
        rgba = np.asarray(renderer.buffer_rgba())
        alpha = rgba[..., 3]
        rows, columns = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
        if rows.size == 0:
            self.region: tuple[slice, slice] | None = None
            return
        self.region = (
            slice(int(rows[0]), int(rows[-1]) + 1),
            slice(int(columns[0]), int(columns[-1]) + 1),
        )
        part = rgba[self.region].astype(np.uint32)
        a = part[..., 3:4]
        self._colour = part[..., :3] * a + 127  # premultiplied, with the rounding term
        self._keep = 255 - a

    def blend(self, buffer: np.ndarray) -> None:
        """Blend the layer over an RGBA buffer (``over``: colour·α + below·(1 − α))."""
        if self.region is None:
            return
        below = buffer[self.region]
        below[..., :3] = (below[..., :3] * self._keep + self._colour) // 255


class PartialRedraw:
    """A figure redrawn as background + moving artists + layers (see the module documentation).

    Parameters
    ----------
    figure : Figure
        With an Agg-based canvas (Agg, ipympl).
    moving : sequence of Artist
        Drawn on every frame, in this order (lines, patches, a y-axis).
    over : sequence of Artist
        Drawn on every frame after ``moving`` (the spines, which matplotlib draws over
        the lines).
    layers : sequence of Artist
        Drawn once alone and blended over every frame (legends: the most costly text).

    Attributes
    ----------
    backgrounds_drawn : int
        How many times the background was drawn (once, then after each change of size,
        resolution, axes position or x-limits).
    """

    def __init__(
        self,
        figure: Figure,
        *,
        moving: Sequence[Any],
        over: Sequence[Any] = (),
        layers: Sequence[Any] = (),
    ) -> None:
        if not isinstance(figure.canvas, FigureCanvasAgg):
            raise TypeError(
                f"figure must have an Agg-based canvas, got {type(figure.canvas).__name__}"
            )
        self.figure = figure
        self.moving = list(moving)
        self.over = list(over)
        self.layers = list(layers)
        self.backgrounds_drawn = 0
        self._key: tuple[Any, ...] | None = None
        self._background: Any = None
        self._layers: list[_Layer] = []

    @property
    def _canvas(self) -> FigureCanvasAgg:
        canvas = self.figure.canvas
        if not isinstance(canvas, FigureCanvasAgg):  # a canvas swapped since
            raise TypeError(f"figure must have an Agg-based canvas, got {type(canvas).__name__}")
        return canvas

    def _state(self) -> tuple[Any, ...]:
        figure = self.figure
        axes = []
        for ax in figure.axes:
            view: Any = tuple(ax.get_xlim())
            if callable(getattr(ax, "get_proj", None)):  # 3D axes: angles, limits, zoom
                view = projection_key(ax)
            axes.append((tuple(ax.get_position().bounds), view))
        return (tuple(figure.bbox.bounds), figure.dpi, tuple(axes))

    def _draw_background(self) -> None:
        hidden = [a for a in (*self.moving, *self.over, *self.layers) if a.get_visible()]
        for artist in hidden:
            artist.set_visible(False)
        try:
            FigureCanvasAgg.draw(self._canvas)
            self._background = self._canvas.copy_from_bbox(self.figure.bbox)
        finally:
            for artist in hidden:
                artist.set_visible(True)
        self._layers = [_Layer(a, self.figure) for a in self.layers if a.get_visible()]
        self.backgrounds_drawn += 1

    def draw(self) -> None:
        """Draw the frame into the canvas's Agg buffer (no pixels sent)."""
        canvas = self._canvas
        state = self._state()
        if state != self._key or self._background is None:
            self._draw_background()
            self._key = state
        else:
            canvas.restore_region(self._background)
        renderer = canvas.get_renderer()
        for artist in (*self.moving, *self.over):
            artist.draw(renderer)
        buffer = np.asarray(renderer.buffer_rgba())
        for layer in self._layers:
            layer.blend(buffer)


def projection_key(ax: Any) -> Any:
    """What the projection of 3D axes is made of: equal keys, equal ``ax.get_proj()``.

    The inputs that matplotlib's ``Axes3D.get_proj`` reads (view angles, vertical axis,
    focal length, distance, box aspect with its zoom, limits and scales), 25x cheaper
    to collect than the projection itself (4 against 100 µs, a pendant step is about
    5 ms); the projection itself for a matplotlib without one of them.
    ``tests/views/_fast/test_partial_redraw.py`` checks that every way of changing the view
    changes it.
    """
    try:
        return (
            ax.elev,
            ax.azim,
            ax.roll,
            ax._vertical_axis,
            ax._focal_length,
            ax._dist,
            tuple(np.asarray(ax._box_aspect, dtype=float).tolist()),
            ax.get_w_lims(),
            ax.get_xscale(),
            ax.get_yscale(),
            ax.get_zscale(),
        )
    except AttributeError:
        return np.asarray(ax.get_proj()).tobytes()
