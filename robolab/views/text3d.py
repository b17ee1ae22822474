"""Text in 3D axes drawn as markers and path collections (private).

Text objects cost about a millisecond each to draw in a 3D axes (glyph
layout and rendering every time). The views and frame pictures draw their
labels instead as glyph outlines: :func:`text_marker` for a marker that
stamps one text, :class:`Labels3D` for many short texts at 3D points drawn
as one artist.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.textpath import TextPath

__all__ = ["Labels3D", "centred_text_path", "text_collection", "text_marker"]


@lru_cache(maxsize=512)
def centred_text_path(text: str, fontsize: float) -> tuple[Path, float]:
    """The glyph outlines of ``text`` (mathtext allowed) centred at 0, in points; its width."""
    path = TextPath((0.0, 0.0), text, prop=FontProperties(size=fontsize))
    extents = path.get_extents()
    centre = np.array([extents.x0 + extents.x1, extents.y0 + extents.y1]) / 2.0
    return Path(path.vertices - centre, path.codes), float(extents.width)


@lru_cache(maxsize=256)
def text_marker(text: str, fontsize: float) -> tuple[MarkerStyle, float, float]:
    """A marker that draws ``text``, its marker size and its width in points.

    Text objects cost about a millisecond each to draw (glyph layout and
    rendering every time); a marker is rasterised once and stamped, so the
    labels of a view cost almost nothing per update.
    """
    centred, width = centred_text_path(text, fontsize)
    size = 2.0 * float(np.abs(centred.vertices).max())
    return MarkerStyle(centred), size, width


class Labels3D(PathCollection):
    """Short texts at 3D points drawn as ONE artist: a collection of glyph outlines.

    Each Text or marker line is one more artist to project and draw (about
    0.2–1 ms each in 3D); this draws all its labels in one call. Unlike
    matplotlib's ``Path3DCollection`` it keeps its items in order (that one
    sorts the points by depth but not the paths, which would swap labels).
    """

    def __init__(
        self,
        points: np.ndarray,
        texts: Sequence[str],
        colours: Sequence[str],
        fontsize: float,
        ax: Any,
        zorder: float,
    ) -> None:
        from matplotlib.transforms import IdentityTransform

        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.texts = tuple(texts)
        super().__init__(
            [centred_text_path(text, fontsize)[0] for text in texts],
            sizes=[1.0],  # the outlines are in points already
            offsets=self.points[:, :2],
            offset_transform=ax.transData,
            transform=IdentityTransform(),
            facecolors=list(colours),
            edgecolors="none",
            linewidths=0.0,
            zorder=zorder,
        )

    def set_points(self, points: np.ndarray) -> None:
        """Move the labels (one point per label, in data coordinates)."""
        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.stale = True

    def do_3d_projection(self) -> float:
        from mpl_toolkits.mplot3d import proj3d

        x, y, z = proj3d.proj_transform(*self.points.T, cast(Any, self.axes).M)
        self.set_offsets(np.column_stack([x, y]))
        return float(np.min(z)) if len(z) else np.inf


def text_collection(
    ax: Any,
    points: np.ndarray,
    texts: Sequence[str],
    colours: Sequence[str],
    fontsize: float,
    zorder: float,
) -> Labels3D:
    """Add :class:`Labels3D` to a 3D axes; move them with :meth:`Labels3D.set_points`."""
    labels = Labels3D(points, texts, colours, fontsize, ax, zorder)
    ax.add_collection(labels, autolim=False)
    return labels
