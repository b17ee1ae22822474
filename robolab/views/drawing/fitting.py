"""Fitting a 3D robot view to its axes: the box and the zoom that make the workspace fill it.

matplotlib centres the box of a 3D axes and scales it to leave room for ticks,
which leaves an arm small and low in its picture. :class:`WorkspaceFit` (a base
of :class:`robolab.RobotView`) projects the workspace for the view angles,
extends the box on one side so that the picture is centred, and sets the zoom
so that it just fits below the caption; a zoom above 1 then magnifies about
the arm.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .drawable import RobotAdapter, Skeleton, Snapshot

__all__ = ["WorkspaceFit"]

#: Space (points) around the caption and between the picture and the edges of its axes.
CAPTION_PAD = 4.0
_FIT_PAD_POINTS = 6.0
#: Triads are TRIAD_SIZE × reach long; their x, y, z labels sit 1.3 triad lengths out.
TRIAD_SIZE = 0.12
LABEL_REACH = 1.3 * TRIAD_SIZE


class WorkspaceFit:
    """The fitting steps of a view (mixed into :class:`robolab.RobotView`).

    Uses the view's ``axes``, ``figure``, ``limits``, ``reach``, ``zoom``,
    ``decorations``, ``frames_shown``, ``caption_height``, ``snapshot``,
    ``_adapter``, ``_floor_points`` and ``_shown_frames``; sets ``limits``,
    ``box_zoom`` and ``fitted_box_zoom``.
    """

    _adapter: RobotAdapter
    _floor_points: np.ndarray
    snapshot: Snapshot

    axes: Any
    figure: Any
    limits: np.ndarray
    reach: float
    zoom: float
    decorations: str
    frames_shown: str
    caption_height: float
    box_zoom: float
    fitted_box_zoom: float

    def _shown_frames(self, skeleton: Skeleton) -> tuple[np.ndarray, tuple[str, ...]]:
        raise NotImplementedError  # the view's frames option

    def _set_box(self, box_zoom: float) -> None:
        ax = self.axes
        ax.set_xlim(*self.limits[0])
        ax.set_ylim(*self.limits[1])
        ax.set_zlim(*self.limits[2])
        ax.set_box_aspect(self.limits[:, 1] - self.limits[:, 0], zoom=box_zoom)
        self.box_zoom = float(box_zoom)

    def _content(self, explicit_limits: bool) -> np.ndarray:
        """The points that must stay in the picture, whatever the configuration."""
        if self.decorations == "full":  # the box itself is drawn, with ticks
            box = self.limits
            return np.array(list(itertools.product(box[0], box[1], box[2])), dtype=float)
        links = self._adapter.workspace_points()
        # Where the triads and their labels reach: origin + 1.3 triad lengths along each axis.
        frames = self._adapter.workspace_frames()
        if self.frames_shown == "ends":
            frames = frames[:, [0, -1]]
        elif self.frames_shown == "none":
            frames = frames[:, :0]
        origins = frames[..., :3, 3]
        tips = origins[..., None, :] + LABEL_REACH * self.reach * np.swapaxes(
            frames[..., :3, :3], -1, -2
        )
        floor = self._floor_points[np.all(np.isfinite(self._floor_points), axis=1)]
        points = np.vstack([links, tips.reshape(-1, 3), floor])
        if explicit_limits:
            points = np.clip(points, self.limits[:, 0], self.limits[:, 1])
        return points

    def _projected(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions of 3D points (display coordinates of the figure)."""
        from mpl_toolkits.mplot3d import proj3d

        ax = self.axes
        ax.apply_aspect()
        x, y, _ = proj3d.proj_transform(*points.T, ax.get_proj())
        return ax.transData.transform(np.column_stack([x, y]))

    def _room(self) -> np.ndarray:
        """The pixel rectangle (x0, y0, x1, y1) the picture may fill: the axes minus the caption."""
        box = self.axes.bbox
        pad = _FIT_PAD_POINTS * self.figure.dpi / 72.0
        band = (self.caption_height + 2 * CAPTION_PAD) * self.figure.dpi / 72.0
        return np.array([box.x0 + pad, box.y0 + pad, box.x1 - pad, box.y1 - band])

    def _screen_jacobian(self) -> np.ndarray:
        """Pixels per metre of a point at the box centre moving along x, y, z (2 × 3)."""
        centre = self.limits.mean(axis=1)
        step = 1e-3 * self.reach
        base = self._projected(centre[None])[0]
        return np.column_stack(
            [(self._projected((centre + step * unit)[None])[0] - base) / step for unit in np.eye(3)]
        )

    def _move_box(self, miss: np.ndarray) -> None:
        """Extend the box on one side per axis so that the picture moves by ``-miss`` pixels."""
        # Moving the box centre by w moves the picture by -J w (the box centre stays at the
        # centre of the axes); extending one side of an axis by 2 w moves the centre by w.
        shift = np.linalg.pinv(self._screen_jacobian()) @ miss
        self.limits = self.limits.copy()
        for axis in range(3):
            self.limits[axis, 1 if shift[axis] > 0 else 0] += 2.0 * shift[axis]

    def _arm_centre(self) -> np.ndarray:
        """Pixel position of the middle of the arm as drawn now (links and triad tips)."""
        frames = self._shown_frames(self.snapshot.skeleton)[0]
        tips = frames[:, None, :3, 3] + LABEL_REACH * self.reach * np.swapaxes(
            frames[:, :3, :3], -1, -2
        )
        points = np.vstack([self.snapshot.skeleton.link_points, tips.reshape(-1, 3)])
        pixels = self._projected(points)
        return 0.5 * (pixels.min(axis=0) + pixels.max(axis=0))

    def _magnify_about_the_arm(self, box_zoom: float) -> None:
        """Apply ``self.zoom`` about the arm at the first configuration, not the axes centre.

        The arm keeps its place in the picture while it grows, so a close-up
        (``zoom > 1``) still shows it whole; the box is extended to move the
        picture, as when centring the workspace.
        """
        self._set_box(box_zoom)
        fixed = self._arm_centre()
        wanted = self.zoom * float(np.linalg.norm(self._screen_jacobian(), 2))
        current = box_zoom * self.zoom
        for _ in range(12):
            self._set_box(current)
            miss = self._arm_centre() - fixed
            ratio = wanted / float(np.linalg.norm(self._screen_jacobian(), 2))
            if np.all(np.abs(miss) < 0.5) and abs(ratio - 1.0) < 2e-3:
                break
            if np.any(np.abs(miss) >= 0.5):
                self._move_box(miss)
            current *= wanted / float(np.linalg.norm(self._screen_jacobian(), 2))
        self._set_box(current)

    def _fit(self, explicit_limits: bool) -> None:
        """Choose the box (unless given) and matplotlib's zoom so that the workspace fills the axes.

        matplotlib centres the box of a 3D axes in the axes and scales it to
        leave room for ticks, which leaves an arm small and low in its
        picture. The workspace (link polylines at many configurations, the
        floor disc, room for the triads) is projected for the view angles;
        without explicit ``limits`` the box is first extended on one side so
        that the projected workspace is centred in the free part of the axes
        (the box still holds every reachable point); then the zoom is set
        so that the workspace just fits. ``zoom`` then magnifies about the
        arm at its first configuration (about the axes centre when the
        limits are given, since the box stays as given).
        """
        content = self._content(explicit_limits)
        centring = not explicit_limits and self.decorations == "lean"
        fill = 0.97 if self.decorations == "lean" else 0.8
        box_zoom = 1.0
        for _ in range(12):
            self._set_box(box_zoom)
            room = self._room()
            pixels = self._projected(content)
            low, high = pixels.min(axis=0), pixels.max(axis=0)
            miss = 0.5 * (low + high) - 0.5 * (room[:2] + room[2:])
            if centring and np.any(np.abs(miss) > 0.5):
                self._move_box(miss)
                continue
            # matplotlib scales the picture about the centre of the axes.
            bbox = self.axes.bbox
            centre = np.array([bbox.x0 + bbox.x1, bbox.y0 + bbox.y1]) / 2.0
            ratios = np.concatenate(
                [
                    (centre - room[:2]) / np.maximum(centre - low, 1e-9),
                    (room[2:] - centre) / np.maximum(high - centre, 1e-9),
                ]
            )
            factor = fill * float(ratios.min())
            if abs(factor - 1.0) < 2e-3:
                break
            box_zoom *= factor
        self.fitted_box_zoom = box_zoom
        if centring and self.zoom != 1.0:
            self._magnify_about_the_arm(box_zoom)
        else:
            self._set_box(box_zoom * self.zoom)
