"""Animations of robot motions that work inline: play, scrub, export.

:func:`animate` turns a trajectory (one configuration per row, with its
times) into precomputed frames and returns a :class:`RobotAnimation`: the 3D
view of :func:`robolab.plot_robot`, a play button and a time scrubber. The
play button runs in the browser (an ``ipywidgets.Play`` linked to the
scrubber on the JavaScript side), so no timer or loop ever blocks the
kernel; each new frame index moves the artists of the one figure in place.

For handouts, :meth:`RobotAnimation.strip` draws a row of snapshots as a
static figure (save it as PDF or PNG) and :meth:`RobotAnimation.save_gif`
writes an animated GIF. Without a widget front end (test mode, nbval, an HTML
export) the animation shows as that strip and a text summary.

Examples
--------
>>> import numpy as np, robolab
>>> from robolab.symbols import q1, q2
>>> arm = robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R arm")
>>> times = np.linspace(0.0, 2.0, 21)
>>> motion = np.column_stack([np.sin(times), np.cos(times)])
>>> anim = robolab.animate(arm, motion, times, fps=10)
>>> anim.frame_count, float(anim.times[-1])
(21, 2.0)
>>> anim.slider.value = 20  # what the scrubber does in the browser
>>> np.allclose(anim.view.q, motion[-1])
True
"""

from __future__ import annotations

import html
import io
import os
from pathlib import Path
from typing import Any, cast

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ...support import widgets as _widgets
from ...support.arguments import (
    as_figure_size,
    as_float_array,
    as_real_number,
    require_bool,
    require_choice,
    require_int,
)
from ..drawing.drawable import RobotAdapter, RobotLike
from ..drawing.options import CANVAS_CHOICES, ENDS_ONLY, ViewOptions
from ..drawing.robot_view import RobotView
from .controls import OWN_KEYS_CLASS, key_guard

__all__ = ["RobotAnimation", "animate"]


def _frame_times(times: np.ndarray, fps: float) -> np.ndarray:
    """Frame times from the first to the last sample, ``1/fps`` apart (the last one included)."""
    duration = float(times[-1] - times[0])
    count = int(np.floor(duration * fps + 1e-9)) + 1
    frames = times[0] + np.arange(count) / fps
    if frames[-1] < times[-1] - 1e-12:
        frames = np.append(frames, times[-1])
    return frames


class RobotAnimation:
    """Precomputed frames of a robot motion with play, scrub and export (see :func:`animate`).

    Attributes
    ----------
    configurations : ndarray, shape (F, n)
        The configuration of every frame (radians / metres).
    times : ndarray, shape (F,)
        The time of every frame (seconds).
    view : RobotView
        The 3D view, moved in place.
    play : ipywidgets.Play
        Runs in the browser and drives ``slider``.
    slider : ipywidgets.IntSlider
        The frame index (the time scrubber).
    time_label : ipywidgets.HTML
    figure_widget : ipywidgets.DOMWidget
        ipympl canvas or ``ipywidgets.Image``.
    widget : ipywidgets.VBox
        The figure, the controls and a key guard
        (:func:`robolab.views.widgets.controls.key_guard`: the scrubber is of class
        :data:`robolab.views.widgets.controls.OWN_KEYS_CLASS`, so its arrow keys move it
        in Notebook 7 too instead of folding the notebook's headings).
    options : ViewOptions
        The options of the view and of the strip's panels (``options=``, or
        the keywords of :func:`animate`; ``frames="ends"`` unless given).
    """

    def __init__(
        self,
        robot: RobotLike,
        trajectory: Any,
        times: Any = None,
        *,
        options: ViewOptions | None = None,
        fps: float = 25.0,
        speed: float = 1.0,
        trail: bool = True,
        figsize: tuple[float, float] = (5.0, 5.0),
        canvas: str = "auto",
        **view_options: Any,
    ) -> None:
        self.options = ViewOptions.from_keywords(options, view_options, default=ENDS_ONLY)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        canvas = _widgets.choose_canvas(canvas)
        fps = as_real_number(fps, "fps", positive=True)
        speed = as_real_number(speed, "speed", positive=True)
        trail = require_bool(trail, "trail")
        figsize = as_figure_size(figsize)
        self._adapter = RobotAdapter.of(robot)
        n = self._adapter.dof
        samples = as_float_array(trajectory, "trajectory", (None, n))
        if len(samples) == 0:
            raise ValueError(
                f"trajectory must hold at least one configuration (shape (N, {n})), got none"
            )
        if times is None:
            sample_times = np.arange(len(samples)) / float(fps)
        else:
            sample_times = as_float_array(times, "times", (len(samples),))
            steps = np.diff(sample_times)
            if np.any(steps <= 0):
                index = int(np.argmax(steps <= 0))
                raise ValueError(
                    f"times must increase strictly; times[{index + 1}] = "
                    f"{sample_times[index + 1]:g} follows times[{index}] = {sample_times[index]:g}"
                )
        self.fps = float(fps)
        self.speed = float(speed)
        self.times = _frame_times(sample_times, self.fps) if len(samples) > 1 else sample_times
        # Frames between samples are interpolated linearly, joint by joint.
        self.configurations = np.column_stack(
            [np.interp(self.times, sample_times, samples[:, j]) for j in range(n)]
        ).reshape(len(self.times), n)

        self.canvas_kind = canvas
        figure = _widgets.new_figure(figsize, 100.0, live=canvas == "ipympl")
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
        self.view = RobotView(self._adapter, self.configurations[0], ax=ax, options=self.options)
        self.skeletons = [self.view.skeleton_of(q) for q in self.configurations]
        self.trail = None
        if trail:
            path = np.array([s.end_effector_pose[:3, 3] for s in self.skeletons])
            (self.trail,) = ax.plot(
                path[:, 0], path[:, 1], path[:, 2], color="#999999", lw=1.0, ls=":", zorder=2
            )
        self._build_widgets()
        self.show_frame(0)

    @property
    def frame_count(self) -> int:
        return len(self.times)

    def _build_widgets(self) -> None:
        last = self.frame_count - 1
        interval = max(1, round(1000.0 / (self.fps * self.speed)))
        self.play = widgets.Play(
            value=0, min=0, max=last, step=1, interval=interval, description="Play", repeat=False
        )
        self.slider = widgets.IntSlider(
            value=0,
            min=0,
            max=last,
            step=1,
            description="frame",
            continuous_update=True,
            readout=False,
            layout=widgets.Layout(width="320px"),
        )
        self.slider.add_class("robolab-frame-slider")
        self.slider.add_class(OWN_KEYS_CLASS)  # arrow keys scrub, in Notebook 7 too
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.slider.observe(self.on_frame_change, names="value")
        self.time_label = widgets.HTML()
        self.figure_widget = _widgets.figure_widget(self.view.figure, self.canvas_kind)
        controls = widgets.HBox([self.play, self.slider, self.time_label])
        # The key guard keeps the scrubber's arrow keys from the notebook's shortcuts.
        self.widget = widgets.VBox([self.figure_widget, controls, key_guard()])
        self.widget.add_class("robolab-animation")

    # --- callbacks ----------------------------------------------------------------------------

    def on_frame_change(self, change: dict[str, Any]) -> None:
        """Scrubber observer (the play button moves the scrubber in the browser)."""
        self.show_frame(int(change["new"]))

    def show_frame(self, index: int) -> None:
        """Move the view to frame ``index`` (0-based; an ``int``, not a float or a bool).

        Examples
        --------
        >>> import numpy as np, robolab
        >>> anim = robolab.animate(robolab.load_robot("planar2r"), np.zeros((3, 2)), fps=2)
        >>> anim.show_frame(2); anim.index
        2
        >>> anim.show_frame(1.0)
        Traceback (most recent call last):
        ...
        TypeError: index must be an int, got float 1.0
        """
        index = require_int(index, "index")
        if not 0 <= index < self.frame_count:
            raise IndexError(f"index must be a frame 0..{self.frame_count - 1}, got {index}")
        self.index = index
        self.view.show_skeleton(self.configurations[index], self.skeletons[index], draw=False)
        self.time_label.value = (
            f"t = {self.times[index]:.3f} s "
            f"<small>(frame {index + 1} of {self.frame_count})</small>"
        )
        _widgets.show_figure(self.view.figure, self.figure_widget)

    # --- exports ------------------------------------------------------------------------------

    def snapshot_indices(self, count: int) -> np.ndarray:
        """Indices of ``count`` frames evenly spread from the first to the last."""
        count = require_int(count, "count")
        if count < 1:
            raise ValueError(f"count must be a positive whole number, got {count!r}")
        return np.unique(np.round(np.linspace(0, self.frame_count - 1, count)).astype(int))

    def strip(self, count: int = 5, *, panel_size: float = 2.4) -> Figure:
        """A row of ``count`` snapshots as a static figure, for handouts.

        Parameters
        ----------
        count : int
            Number of snapshots, evenly spread in time (first and last included).
        panel_size : float
            Size of each panel in inches.

        Returns
        -------
        matplotlib.figure.Figure
            Not managed by pyplot: save it with ``fig.savefig("motion.pdf")``;
            it displays as a picture in a notebook.
        """
        indices = self.snapshot_indices(count)
        panel_size = as_real_number(panel_size, "panel_size", positive=True)
        figure = _widgets.new_figure(
            (panel_size * len(indices), panel_size + 0.5), 100.0, live=False
        )
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=0.86, wspace=0.0)
        for column, index in enumerate(indices):
            ax = figure.add_subplot(
                1, len(indices), column + 1, projection="3d", computed_zorder=False
            )
            panel = RobotView(
                self._adapter,
                self.configurations[index],
                ax=ax,
                options=self.options,
                frame_names=False,
            )
            panel.caption.set_visible(False)
            if self.trail is not None:
                path = np.array([s.end_effector_pose[:3, 3] for s in self.skeletons])
                ax.plot(path[:, 0], path[:, 1], path[:, 2], color="#999999", lw=0.8, ls=":")
            ax.set_title(f"t = {self.times[index]:.2f} s", fontsize=9, pad=0)
        figure.suptitle(
            f"{self._adapter.name} · {self._adapter.description} · metres", fontsize=8, y=0.995
        )
        return figure

    def save_gif(self, path: str | Path, *, every: int = 1, dpi: float = 80.0) -> Path:
        """Write the animation as an animated GIF (every ``every``-th frame, real-time pace).

        Returns
        -------
        pathlib.Path
            The file written.
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image

        every = require_int(every, "every")
        if every < 1:
            raise ValueError(f"every must be a positive whole number, got {every!r}")
        dpi = as_real_number(dpi, "dpi", positive=True)
        if not isinstance(path, str | os.PathLike):
            raise TypeError(f"path must be a file path, got {type(path).__name__} {path!r}")
        path = Path(path)
        if path.suffix.lower() != ".gif":
            raise ValueError(f"path must end in .gif, got {str(path)!r}")
        figure = self.view.figure
        original_dpi = figure.dpi
        current = self.index
        images = []
        try:
            figure.set_dpi(dpi)
            for index in range(0, self.frame_count, every):
                self.view.show_skeleton(
                    self.configurations[index], self.skeletons[index], draw=False
                )
                canvas = cast(FigureCanvasAgg, figure.canvas)  # ipympl and static canvases are Agg
                FigureCanvasAgg.draw(canvas)
                rgb = np.asarray(canvas.buffer_rgba())[..., :3]
                images.append(
                    Image.fromarray(rgb).quantize(colors=64, method=Image.Quantize.MEDIANCUT)
                )
        finally:
            figure.set_dpi(original_dpi)
            self.show_frame(current)
        duration = max(20, round(1000.0 * every / (self.fps * self.speed)))
        images[0].save(
            path, save_all=True, append_images=images[1:], duration=duration, loop=0, optimize=False
        )
        return path

    # --- display ------------------------------------------------------------------------------

    def summary(self) -> str:
        return (
            f"Animation of {self._adapter.name}: {self.frame_count} frames from "
            f"t = {self.times[0]:.3f} s to {self.times[-1]:.3f} s at {self.fps:g} frames/s "
            f"({self._adapter.description}, metres)"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        buffer = io.BytesIO()
        self.strip().savefig(buffer, format="png", dpi=72)
        page = (
            _widgets.png_html(buffer.getvalue(), self.summary())
            + f"<pre>{html.escape(self.summary())}</pre>"
        )
        return _widgets.widget_bundle(
            self.widget, {"text/plain": self.summary(), "text/html": page}
        )

    def __repr__(self) -> str:
        return f"<RobotAnimation of {self._adapter.name!r}, {self.frame_count} frames>"


def animate(
    robot: RobotLike,
    trajectory: ArrayLike,
    times: ArrayLike | None = None,
    *,
    fps: float = 25.0,
    speed: float = 1.0,
    frames: str = "ends",
    shadow: bool = True,
    trail: bool = True,
    elev: float = 25.0,
    azim: float = -55.0,
    limits: ArrayLike | None = None,
    zoom: float = 1.0,
    figsize: tuple[float, float] = (5.0, 5.0),
    canvas: str = "auto",
) -> RobotAnimation:
    """Animate a robot along a trajectory: play button, time scrubber, static and GIF export.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot
    trajectory : array_like, shape (N, n)
        One configuration per row (radians / metres).
    times : array_like, shape (N,), optional
        Strictly increasing sample times in seconds; default ``k / fps``.
    fps : float
        Frames per second of the animation. The trajectory is resampled at
        these frame times (linear interpolation between samples), so a
        simulation with a 1 ms step plays at a sensible rate.
    speed : float
        Playback speed (1 = real time).
    frames, shadow : see :func:`robolab.plot_robot` (``frames="ends"`` by default).
    trail : bool
        Draw the end-effector's path as a dotted line.
    elev, azim, limits, zoom : see :func:`robolab.plot_robot` (view angles, box, magnification).
    figsize : (float, float)
        Inches at 100 dpi.
    canvas : {"auto", "ipympl", "image"}
        As for :func:`robolab.teach`.

    Returns
    -------
    RobotAnimation

    Examples
    --------
    >>> import numpy as np, robolab
    >>> puma = robolab.load_robot("puma560", form="dh")
    >>> times = np.linspace(0.0, 2.0, 5)
    >>> motion = np.outer(times, [0.5, 0.2, -0.3, 0.0, 0.4, 0.0])  # radians
    >>> anim = robolab.animate(puma, motion, times, fps=10)
    >>> anim.frame_count, anim.play.interval  # 21 frames, 100 ms apart
    (21, 100)
    >>> anim.slider.value = 10  # scrub to t = 1 s
    >>> anim.view.q.round(2)
    array([ 0.5,  0.2, -0.3,  0. ,  0.4,  0. ])
    >>> handout = anim.strip(4)  # a matplotlib Figure: handout.savefig("motion.pdf")
    """
    return RobotAnimation(
        robot,
        trajectory,
        times,
        options=ViewOptions(frames, shadow, elev, azim, limits, zoom),
        fps=fps,
        speed=speed,
        trail=trail,
        figsize=figsize,
        canvas=canvas,
    )
