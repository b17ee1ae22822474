"""Text in 3D axes drawn as markers and path collections, placed so that labels never overlap.

Text objects cost about a millisecond each to draw in a 3D axes (glyph
layout and rendering every time). The views and frame pictures draw their
labels instead as glyph outlines: :func:`text_marker` for a marker that
stamps one text, :class:`Labels3D` for many short texts at 3D points drawn
as one artist.

Labels that never overlap: :func:`place_boxes` chooses, in screen space,
a place beside each anchor clear of the other labels and of given boxes and
lines. :class:`PlacedMarkers` uses it for the frame names of a
:class:`robolab.RobotView`, :func:`place_labels` for any texts of a 3D axes
(chapter pictures): both place again at the draw after the picture changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from mpl_toolkits.mplot3d.art3d import Line3D, Text3D
from numpy.typing import ArrayLike

__all__ = [
    "Labels3D",
    "PlacedMarkerLine",
    "PlacedMarkers",
    "PlacedText3D",
    "PlacedTexts",
    "centred_text_path",
    "place_boxes",
    "place_labels",
    "text_collection",
    "text_marker",
]


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


# --- labels placed beside their anchors, clear of each other and of what is drawn ------------

#: Directions tried around an anchor (counter-clockwise from +x) and the rings tried on each.
_DIRECTIONS = 16
_RINGS = 3
#: Costs of a candidate place, per pixel² of overlap or per pixel of a line under the label.
_BOX_COST = 4.0
_LABEL_COST = 6.0
_LINE_COST = 3.5
_OUTSIDE_COST = 4.0
_RING_COST = 12.0
_INWARD_COST = 40.0
_AXIS_COST = 40.0
_STAY_BONUS = 6.0


def _overlap_areas(centres: np.ndarray, half: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Summed overlap (pixel²) of boxes centred at ``centres`` (m×2, half sizes 2) with boxes."""
    if len(boxes) == 0:
        return np.zeros(len(centres))
    low, high = centres - half, centres + half
    width = np.minimum(high[:, None, 0], boxes[None, :, 2]) - np.maximum(
        low[:, None, 0], boxes[None, :, 0]
    )
    height = np.minimum(high[:, None, 1], boxes[None, :, 3]) - np.maximum(
        low[:, None, 1], boxes[None, :, 1]
    )
    return cast(np.ndarray, (np.maximum(width, 0.0) * np.maximum(height, 0.0)).sum(axis=1))


def _lengths_inside(lines: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Summed length (pixels) of the lines (s×2×2) inside each box (low, high: m×2).

    Liang–Barsky clipping: the times at which each line crosses the sides.
    """
    if len(lines) == 0:
        return np.zeros(len(low))
    start, delta = lines[:, 0], lines[:, 1] - lines[:, 0]
    lengths = np.hypot(delta[:, 0], delta[:, 1])
    # a line parallel to an axis crosses that axis's sides far outside [0, 1]: the same answer
    inverse = 1.0 / np.where(np.abs(delta) < 1e-9, 1e-9, delta)
    t0 = (low[:, None, :] - start[None]) * inverse[None]  # m×s×2: times of crossing the sides
    t1 = (high[:, None, :] - start[None]) * inverse[None]
    near, far = np.minimum(t0, t1), np.maximum(t0, t1)
    enter = np.maximum(np.maximum(near[..., 0], near[..., 1]), 0.0)
    leave = np.minimum(np.minimum(far[..., 0], far[..., 1]), 1.0)
    return cast(np.ndarray, np.maximum(leave - enter, 0.0) @ lengths)


def place_boxes(
    anchors: ArrayLike,
    sizes: ArrayLike,
    *,
    boxes: ArrayLike | None = None,
    segments: ArrayLike | None = None,
    directions: Sequence[ArrayLike] | None = None,
    bounds: ArrayLike | None = None,
    clearance: float = 4.0,
    gap: float = 2.0,
    previous: Sequence[int] | None = None,
) -> tuple[np.ndarray, list[int]]:
    """Centres for labels beside their anchors that overlap neither each other nor obstacles.

    Screen space (pixels, y up). Each label tries places around its anchor,
    sixteen directions on three rings, the first ring just clear of the anchor
    (``clearance``, the radius of its dot or joint marker, plus ``gap``), and
    takes the cheapest: overlap with obstacle ``boxes`` and with the labels
    placed before it (both per pixel², the labels costlier), the length of
    obstacle ``segments`` under it (per pixel), area outside ``bounds``, the distance
    from the anchor, and a direction along one of its own ``directions`` (a
    triad's axes, where its letters are). Two passes (the second re-places
    each label among all the others). ``previous`` (the choices returned by
    the last call) gives a small bonus to staying put, so labels do not jump
    between equally good places as the picture moves.

    Parameters
    ----------
    anchors : array_like, shape (k, 2)
        The points the labels belong to.
    sizes : array_like, shape (k, 2)
        Width and height of each label.
    boxes : array_like, shape (m, 4), optional
        Obstacles as ``(x0, y0, x1, y1)``: letters, markers, other texts.
    segments : array_like, shape (s, 2, 2), optional
        Obstacle lines (start and end points): axes, links.
    directions : sequence of array_like, optional
        Per label, 2D directions (any length, shape (j, 2)) to keep away from.
    bounds : array_like, shape (4,), optional
        ``(x0, y0, x1, y1)`` the labels should stay inside (the axes).
    clearance, gap : float
        Free radius around each anchor, and the space between a label and
        what it avoids (pixels).
    previous : sequence of int, optional
        The choices of the last call (same labels), to keep.

    Returns
    -------
    centres : ndarray, shape (k, 2)
    choices : list of int
        The place taken by each label (pass it back as ``previous``).

    Examples
    --------
    Two labels of equal anchors go to two sides; a box beside the anchor is
    left free:

    >>> centres, _ = place_boxes([[50, 50], [50, 50]], [[20, 10], [20, 10]],
    ...                          boxes=[[56, 40, 90, 60]], bounds=[0, 0, 100, 100])
    >>> bool(abs(centres[0, 1] - centres[1, 1]) >= 10 or abs(centres[0, 0] - centres[1, 0]) >= 20)
    True
    >>> bool(centres[:, 0].max() - 10 < 56)  # neither label covers the box at x ≥ 56
    True
    """
    anchors = np.asarray(anchors, dtype=float).reshape(-1, 2)
    sizes = np.asarray(sizes, dtype=float).reshape(-1, 2)
    count = len(anchors)
    if sizes.shape != (count, 2):
        raise ValueError(f"sizes must have shape ({count}, 2) like anchors, got {sizes.shape}")
    obstacles = np.zeros((0, 4)) if boxes is None else np.asarray(boxes, float).reshape(-1, 4)
    lines = np.zeros((0, 2, 2)) if segments is None else np.asarray(segments, float)
    lines = lines.reshape(-1, 2, 2)
    lines = lines[np.all(np.isfinite(lines), axis=(1, 2))]
    angles = 2.0 * np.pi * np.arange(_DIRECTIONS) / _DIRECTIONS
    units = np.column_stack([np.cos(angles), np.sin(angles)])
    rings = np.repeat(np.arange(_RINGS), _DIRECTIONS)
    unit_of = np.tile(units, (_RINGS, 1))
    padded = obstacles + np.array([-gap, -gap, gap, gap]) * 0.5
    # What does not depend on the other labels is costed once, for all labels together: the
    # candidate places, the obstacles under each, the edges, the distance, the own axes.
    places_per_label = _DIRECTIONS * _RINGS
    halves = 0.5 * sizes + 0.5 * gap
    # the support of a box along u: how far its centre must be for its edge to clear the dot
    reach = halves @ np.abs(unit_of).T + clearance + 0.5 * gap
    step = 0.5 * sizes[:, 1] + gap
    candidates = (
        anchors[:, None, :] + unit_of[None] * (reach + rings[None] * step[:, None])[..., None]
    )
    flat = candidates.reshape(-1, 2)
    flat_halves = np.repeat(halves, places_per_label, axis=0)
    low, high = flat - flat_halves, flat + flat_halves
    near = (
        (padded[:, 0] < high[:, 0].max())
        & (padded[:, 2] > low[:, 0].min())
        & (padded[:, 1] < high[:, 1].max())
        & (padded[:, 3] > low[:, 1].min())
    )
    cost = _BOX_COST * _overlap_areas(flat, flat_halves, padded[near])
    if len(lines):
        starts, ends = lines[:, 0], lines[:, 1]
        near_lines = lines[
            (np.maximum(starts[:, 0], ends[:, 0]) > low[:, 0].min())
            & (np.minimum(starts[:, 0], ends[:, 0]) < high[:, 0].max())
            & (np.maximum(starts[:, 1], ends[:, 1]) > low[:, 1].min())
            & (np.minimum(starts[:, 1], ends[:, 1]) < high[:, 1].max())
        ]
        cost += _LINE_COST * _lengths_inside(near_lines, low, high)
    if bounds is not None:
        x0, y0, x1, y1 = np.asarray(bounds, dtype=float)
        outside = np.clip(x0 - low[:, 0], 0, None) + np.clip(high[:, 0] - x1, 0, None)
        outside += np.clip(y0 - low[:, 1], 0, None) + np.clip(high[:, 1] - y1, 0, None)
        cost += _OUTSIDE_COST * outside * np.repeat(sizes.max(axis=1), places_per_label)
    fixed = cost.reshape(count, places_per_label) + _RING_COST * rings[None]
    if bounds is not None:
        # near an edge, a label goes inwards: the picture keeps its margins
        middle = np.array([x0 + x1, y0 + y1]) / 2.0
        out = (anchors - middle) / np.maximum(np.array([x1 - x0, y1 - y0]) / 2.0, 1.0)
        fixed += (
            _INWARD_COST * np.clip(out @ unit_of.T, 0.0, None) * np.abs(out).max(axis=1)[:, None]
        )
    if directions is not None:  # along one of its own axes (a triad's letters are there)
        longest = max((len(np.reshape(d, (-1, 2))) for d in directions), default=0)
        axes = np.zeros((count, max(longest, 1), 2))
        for i, d in enumerate(directions):
            d = np.asarray(d, dtype=float).reshape(-1, 2)
            axes[i, : len(d)] = d
        norms = np.hypot(axes[..., 0], axes[..., 1])
        axes = np.where(norms[..., None] > 1e-9, axes / np.maximum(norms, 1e-9)[..., None], 0.0)
        along = np.maximum(np.einsum("pc,kjc->kpj", unit_of, axes), 0.0).max(axis=2)
        fixed += _AXIS_COST * along**2
    if previous is not None:
        for i, choice in enumerate(previous[:count]):
            if 0 <= choice < places_per_label:
                fixed[i, choice] -= _STAY_BONUS
    # Labels one after the other, each among those placed before it; a second sweep among all
    # the others if two of them still overlap.
    choices = [int(c) for c in np.argmin(fixed, axis=1)]
    centres = candidates[np.arange(count), choices]
    for sweep in range(2):
        if sweep:
            low, high = centres - 0.5 * sizes, centres + 0.5 * sizes
            apart = (low[:, None] >= high[None]) | (high[:, None] <= low[None])
            if np.all(apart.any(axis=2) | np.eye(count, dtype=bool)):
                break
        for i in range(count):
            others = [j for j in range(count) if j != i and (sweep or j < i)]
            if not others:
                continue
            placed = np.column_stack(
                [centres[others] - 0.5 * sizes[others], centres[others] + 0.5 * sizes[others]]
            )
            cost = fixed[i] + _LABEL_COST * _overlap_areas(candidates[i], halves[i], placed)
            best = int(np.argmin(cost))
            centres[i] = candidates[i][best]
            choices[i] = best
    return centres, choices


def _display_points(axes: Any, points: np.ndarray) -> np.ndarray:
    """Display pixels of 3D points under the axes' projection (as drawn: ``axes.M``)."""
    matrix = axes.M if getattr(axes, "M", None) is not None else axes.get_proj()
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    projected = matrix @ np.vstack([points.T, np.ones(len(points))])
    xy = (projected[:2] / projected[3]).T
    return cast(np.ndarray, axes.transData.transform(xy)) if len(xy) else np.zeros((0, 2))


class PlacedMarkers:
    """Text markers at 3D anchors, each placed beside its anchor when drawn (:func:`place_boxes`).

    ``lines`` are one-point marker lines of a 3D axes (a :func:`text_marker`
    each, as :class:`robolab.RobotView` names its frames); they become
    :class:`PlacedMarkerLine`. :meth:`set_scene` gives the anchors, the
    labels' sizes and what to keep clear of, in data coordinates and points;
    the places are chosen again at the first draw after a new scene or a new
    projection (the view turned, resized, another resolution), so that the
    labels stay clear however the picture is turned.
    """

    def __init__(self, lines: Sequence[Any]) -> None:
        self.lines = list(lines)
        for line in self.lines:
            if not isinstance(line, Line3D):
                raise TypeError(
                    f"lines must be Line3D (ax.plot on 3D axes), got {type(line).__name__}"
                )
            line.__class__ = PlacedMarkerLine  # the same artist, drawn where it is placed
            line.placement = self
        self.anchors = np.zeros((0, 3))
        self.sizes = np.zeros((0, 2))
        self._boxes = (np.zeros((0, 3)), np.zeros((0, 2)))
        self._segments = np.zeros((0, 2, 3))
        self._directions: list[np.ndarray] = []
        self.clearance = 4.0
        self._key: tuple[Any, ...] | None = None
        self._choices: list[int] | None = None
        self.centres = np.zeros((0, 2))  # display pixels, after a draw
        self._data_centres = np.zeros((0, 2))  # the same in the axes' 2D data coordinates

    def set_scene(
        self,
        anchors: np.ndarray,
        sizes: np.ndarray,
        *,
        box_points: np.ndarray,
        box_sizes: np.ndarray,
        segments: np.ndarray,
        directions: Sequence[np.ndarray],
        clearance: float,
    ) -> None:
        """The labels' anchors (k×3) and sizes (k×2, points) and the obstacles, in data units.

        Obstacles: boxes of ``box_sizes`` (points) centred at ``box_points``
        (letters, joint markers), ``segments`` (s×2×3: axes, links); per
        label, the ``directions`` to keep away from as 3D points (its triad's
        letters); ``clearance`` (points) around each anchor.
        """
        self.anchors = np.asarray(anchors, dtype=float).reshape(-1, 3)
        self.sizes = np.asarray(sizes, dtype=float).reshape(-1, 2)
        self._boxes = (np.asarray(box_points, float).reshape(-1, 3), np.asarray(box_sizes, float))
        self._segments = np.asarray(segments, dtype=float).reshape(-1, 2, 3)
        self._directions = [np.asarray(d, dtype=float).reshape(-1, 3) for d in directions]
        self.clearance = float(clearance)
        self._key = None

    def _layout(self, axes: Any) -> None:
        figure = axes.figure
        matrix = axes.M if getattr(axes, "M", None) is not None else axes.get_proj()
        key = (
            np.asarray(matrix).tobytes(),
            figure.dpi,
            tuple(axes.bbox.bounds),
            tuple(axes.viewLim.bounds),
        )
        if key == self._key:
            return
        scale = figure.dpi / 72.0
        points, box_sizes = self._boxes
        parts = [self.anchors, points, self._segments.reshape(-1, 3), *self._directions]
        splits = np.cumsum([len(part) for part in parts])[:-1]
        projected = np.split(_display_points(axes, np.vstack(parts)), splits)  # one projection
        anchors, centres, ends = projected[0], projected[1], projected[2].reshape(-1, 2, 2)
        half = 0.5 * scale * box_sizes.reshape(-1, 2) * np.ones((len(centres), 2))
        boxes = np.column_stack([centres - half, centres + half])
        directions = [tips - anchor for tips, anchor in zip(projected[3:], anchors, strict=True)]
        bbox = axes.bbox
        self.centres, self._choices = place_boxes(
            anchors,
            scale * self.sizes,
            boxes=boxes,
            segments=ends,
            directions=directions,
            bounds=(bbox.x0, bbox.y0, bbox.x1, bbox.y1),
            clearance=scale * self.clearance,
            gap=2.0 * scale,
            previous=self._choices
            if self._choices and len(self._choices) == len(anchors)
            else None,
        )
        self._data_centres = axes.transData.inverted().transform(self.centres)  # one inverse
        self._key = key

    def display_centre(self, line: Any) -> np.ndarray | None:
        """Where ``line`` draws its label (display pixels), or None if it has none."""
        index = self.lines.index(line)
        if index >= len(self.anchors) or not line.get_visible():
            return None
        self._layout(line.axes)
        return cast(np.ndarray, self.centres[index])

    def data_position(self, line: Any) -> np.ndarray | None:
        """Where ``line`` draws its label (the axes' 2D data coordinates), or None if unplaced."""
        index = self.lines.index(line)
        if index >= len(self.anchors):
            return None
        self._layout(line.axes)
        return cast(np.ndarray, self._data_centres[index])


class PlacedMarkerLine(Line3D):
    """A marker label drawn where its :class:`PlacedMarkers` placed it (beside its 3D point).

    Drawn as ``Line3D.draw`` draws: the 2D data set to the place (the axes' 2D data
    coordinates, where ``Line3D.draw`` puts its projected point), then ``Line2D.draw``.
    """

    placement: PlacedMarkers

    def draw(self, renderer: Any) -> None:
        position = self.placement.data_position(self)
        if position is None:
            super().draw(renderer)
            return
        self.set_data([position[0]], [position[1]])
        Line2D.draw(self, renderer)
        self.stale = False


def _obstacles_of(axes: Any, renderer: Any, skip: set[int]) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (m×4, pixels) and segments (s×2×2) of what a 3D axes draws above its background.

    Lines (their segments, or boxes for markers alone), :class:`Labels3D`
    (glyph boxes), scatter points, quiver arrows and other texts; artists at
    ``zorder <= 0`` (floor grids, box edges) and those in ``skip`` are left out.
    """
    from mpl_toolkits.mplot3d.art3d import Line3DCollection, Path3DCollection

    scale = axes.figure.dpi / 72.0
    boxes: list[np.ndarray] = []
    segments: list[np.ndarray] = [np.zeros((0, 2, 2))]
    for line in axes.lines:
        if id(line) in skip or not line.get_visible() or line.get_zorder() <= 0:
            continue
        if isinstance(line, PlacedMarkerLine):  # a robot view's frame name: where it is drawn
            centre = line.placement.display_centre(line)
            if centre is not None:
                half = 0.5 * scale * line.placement.sizes[line.placement.lines.index(line)]
                boxes.append(np.concatenate([centre - half, centre + half])[None])
            continue
        points = np.column_stack([np.asarray(v, dtype=float) for v in line.get_data_3d()])
        pixels = _display_points(axes, points) if len(points) else np.zeros((0, 2))
        if line.get_linestyle() not in ("None", "none", "", " ") and len(pixels) > 1:
            pairs = np.stack([pixels[:-1], pixels[1:]], axis=1)
            segments.append(pairs[np.all(np.isfinite(pairs), axis=(1, 2))])
        if line.get_marker() not in (None, "None", "none", "", " "):
            half = 0.5 * scale * line.get_markersize()
            good = pixels[np.all(np.isfinite(pixels), axis=1)]
            boxes.append(np.column_stack([good - half, good + half]))
    for collection in axes.collections:
        if id(collection) in skip or not collection.get_visible():
            continue
        if collection.get_zorder() <= 0:
            continue
        if isinstance(collection, Labels3D):
            centres = _display_points(axes, collection.points)
            for centre, path in zip(centres, collection.get_paths(), strict=False):
                extents = path.get_extents()
                x0, y0 = centre[0] + scale * extents.x0, centre[1] + scale * extents.y0
                x1, y1 = centre[0] + scale * extents.x1, centre[1] + scale * extents.y1
                boxes.append(np.array([[x0, y0, x1, y1]]))
        elif isinstance(collection, Path3DCollection):
            points = np.column_stack([np.asarray(v, float) for v in collection._offsets3d])
            sizes = np.asarray(collection.get_sizes(), dtype=float)
            half = 0.5 * scale * np.sqrt(sizes if sizes.size else np.array([36.0]))
            pixels = _display_points(axes, points)
            half = np.resize(half, len(pixels))[:, None]
            boxes.append(np.column_stack([pixels - half, pixels + half]))
        elif isinstance(collection, Line3DCollection):
            for segment in collection._segments3d:
                pixels = _display_points(axes, np.asarray(segment, dtype=float))
                if len(pixels) > 1:
                    segments.append(np.stack([pixels[:-1], pixels[1:]], axis=1))
    for text in axes.texts:
        if id(text) in skip or not text.get_visible() or not text.get_text():
            continue
        boxes.append(_text_box(text, renderer)[None])
    return (np.vstack(boxes) if boxes else np.zeros((0, 4))), np.concatenate(segments)


def _text_box(text: Any, renderer: Any, centre: np.ndarray | None = None) -> np.ndarray:
    """(x0, y0, x1, y1) in pixels of a 3D text drawn at its position (or centred at ``centre``)."""
    from matplotlib import cbook

    axes = text.axes
    position = np.array(text.get_position_3d(), dtype=float)
    pixel = _display_points(axes, position[None])[0] if centre is None else centre
    x, y = axes.transData.inverted().transform(pixel)
    with cbook._setattr_cm(text, _x=x, _y=y, _rotation=0.0):
        box = text.get_window_extent(renderer)
    return np.array([box.x0, box.y0, box.x1, box.y1])


class PlacedTexts:
    """Texts of a 3D axes, each drawn beside its 3D position, clear of the rest.

    Made by :func:`place_labels`; ``centres`` holds where they were drawn last
    (display pixels).
    """

    def __init__(self, axes: Any, texts: Sequence[Any], clearance: float) -> None:
        self.axes = axes
        self.texts = list(texts)
        for text in self.texts:
            if not isinstance(text, Text3D) or text.axes is not axes:
                raise TypeError(
                    f"texts must be texts of this 3D axes (ax.text(x, y, z, ...)), got {text!r}"
                )
            text.__class__ = PlacedText3D
            text.placement = self
            text.set_horizontalalignment("center")
            text.set_verticalalignment("center")
        self.clearance = float(clearance)
        self._key: tuple[Any, ...] | None = None
        self._choices: list[int] | None = None
        self.centres = np.zeros((0, 2))  # display pixels, after a draw

    def _state(self) -> tuple[Any, ...]:
        axes, figure = self.axes, self.axes.figure
        matrix = axes.M if getattr(axes, "M", None) is not None else axes.get_proj()
        shown = tuple(
            (tuple(np.round(np.array(t.get_position_3d(), float), 12)), t.get_text())
            for t in self.texts
        )
        others = tuple(
            np.round(np.column_stack(line.get_data_3d()), 9).tobytes() for line in axes.lines
        )
        return (np.asarray(matrix).tobytes(), figure.dpi, tuple(axes.bbox.bounds), shown, others)

    def _layout(self, renderer: Any) -> None:
        state = self._state()
        if state == self._key:
            return
        axes = self.axes
        scale = axes.figure.dpi / 72.0
        boxes, segments = _obstacles_of(axes, renderer, {id(t) for t in self.texts})
        anchors = _display_points(
            axes, np.array([t.get_position_3d() for t in self.texts], dtype=float)
        )
        sizes = np.array(
            [
                np.diff(_text_box(t, renderer, c).reshape(2, 2), axis=0)[0]
                for t, c in zip(self.texts, anchors, strict=True)
            ]
        )
        bbox = axes.bbox
        self.centres, self._choices = place_boxes(
            anchors,
            sizes,
            boxes=boxes,
            segments=segments,
            bounds=(bbox.x0, bbox.y0, bbox.x1, bbox.y1),
            clearance=scale * self.clearance,
            gap=2.0 * scale,
            previous=self._choices,
        )
        self._key = state

    def anchor_pixels(self) -> np.ndarray:
        """Display pixels of the texts' own 3D positions."""
        points = np.array([t.get_position_3d() for t in self.texts], dtype=float)
        return _display_points(self.axes, points)

    def display_position(self, text: Any, renderer: Any) -> np.ndarray:
        """Where ``text`` is drawn (display pixels of its centre)."""
        self._layout(renderer)
        return cast(np.ndarray, self.centres[self.texts.index(text)])


class PlacedText3D(Text3D):
    """A 3D text drawn where its :class:`PlacedTexts` placed it, beside its 3D position."""

    placement: PlacedTexts

    def draw(self, renderer: Any) -> None:
        from matplotlib import cbook
        from matplotlib.text import Text

        if not self.get_visible():
            return
        centre = self.placement.display_position(self, renderer)
        x, y = self.axes.transData.inverted().transform(centre)
        with cbook._setattr_cm(self, _x=x, _y=y, _rotation=0.0):
            Text.draw(self, renderer)
        self.stale = False


def place_labels(ax: Any, texts: Sequence[Any], *, clearance: float = 4.0) -> PlacedTexts:
    """Draw texts of a 3D axes beside their points, clear of each other and of the picture.

    Each text (made by ``ax.text(x, y, z, "name")``) keeps its 3D position
    as an anchor (move it with ``set_position_3d``); at every draw it is
    centred at the best place around the anchor (:func:`place_boxes`): clear
    of the other placed texts, of every line, marker, scatter point, quiver
    arrow, triad letter (:func:`robolab.draw_frame`) and other text of the
    axes above the background (``zorder > 0``), inside the axes, ``clearance``
    points from the anchor. The places are chosen again when the picture
    changes (a slider moved a line, the view turned).

    Parameters
    ----------
    ax : mpl_toolkits.mplot3d.Axes3D
    texts : sequence of Text3D
        Texts of ``ax``; they become :class:`PlacedText3D`, centred.
    clearance : float
        Free radius (points) around each anchor (a dot's radius).

    Returns
    -------
    PlacedTexts

    Examples
    --------
    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1))
    >>> frame = robolab.draw_frame(ax, np.eye(4), "s", length=0.8)
    >>> part = ax.text(0.0, 0.0, 0.0, "part")  # at the origin, on the triad
    >>> labels = place_labels(ax, [part])
    >>> ax.figure.canvas.draw()
    >>> bool(np.linalg.norm(labels.centres[0] - labels.anchor_pixels()[0]) > 5)
    True
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    return PlacedTexts(ax, texts, clearance)
