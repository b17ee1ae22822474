"""Controllers side by side: the same reference tracked by each, with a model-error slider.

:func:`controller_comparison` returns a :class:`ControllerComparison`, a
:class:`robolab.LiveFigure` of two sliders and one figure of one panel per controller:

* **model error**, the scale of the controller's model masses (1 = exact, 0.8 = 20 %
  too light) and **payload**, a mass at the tool the model does not know: moving
  either simulates every controller again (results are kept, so going back to a value
  is instant) and redraws the panels while the slider moves;
* each panel shows that controller's joint tracking errors θ_d - θ (degrees) over the
  run, on one shared scale, so the panels compare at a glance;
* a read-out table: each controller's RMS and largest error, its peak torque and,
  when the runs have torque limits, whether it asked for more than a limit.

The view draws; it does not simulate (the view layer never imports the dynamics,
docs/architecture.md): you pass ``simulate(model_error, payload)``, which returns a
mapping from controller name to runs with ``times`` (N,), ``errors`` (N, n),
``rms_error``, ``max_error``, ``peak_torques`` (n,) and ``exceeds_limits`` — the
:class:`robolab.TrackingResult` results of :func:`robolab.simulate_tracking`. A
:class:`ValueError` it raises (a diverged run) is shown in the read-out. Like every
live figure, it has a static fallback (the picture and the read-out) where there is
no widget front end.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, require_choice
from .._fast.partial_redraw import PartialRedraw
from ..drawing.options import CANVAS_CHOICES
from ..widgets.controls import number_slider
from ..widgets.kept_runs import KeptRuns
from ..widgets.live_figure import LiveFigure

__all__ = ["ControllerComparison", "controller_comparison"]

#: Panel titles of the controllers of robolab.simulate_tracking.
CONTROLLER_LABELS = {
    "pd": "PD",
    "pd_gravity": "PD + gravity",
    "pd_feedforward": "PD + feed-forward",
    "computed_torque": "computed torque",
}
#: One colour per joint (Okabe–Ito).
JOINT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")

Runs = Mapping[str, Any]

#: Style of the read-out table's cells.
_CELL = "padding:0 10px 0 0;text-align:left"


class ControllerComparison(LiveFigure):
    """Tracking errors of several controllers for a model error and payload.

    Made by :func:`controller_comparison`; controls ``model_error`` and ``payload``.

    Attributes
    ----------
    axes : list of matplotlib.axes.Axes
        One per controller, left to right.
    lines : dict of str to list of Line2D
        Each controller's error lines, one per joint.
    runs : Mapping or None
        What ``simulate`` returned for the values shown (None if it failed).
    error : str or None
        The message of a failed simulation.
    simulations : int
        How many times ``simulate`` ran (a value seen before is not run again).
    """

    def __init__(
        self,
        simulate: Callable[[float, float], Runs],
        controllers: tuple[str, ...],
        *,
        model_errors: tuple[float, float, float],
        payloads: tuple[float, float, float],
        model_error: float,
        payload: float,
        figsize: tuple[float, float],
        canvas: str,
        title: str | None,
    ) -> None:
        self._cache = KeptRuns(simulate, check=self._check_runs)
        if not controllers:
            raise ValueError("controllers must name at least one controller")
        for name in controllers:
            require_choice(name, "controllers", tuple(CONTROLLER_LABELS))
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        self.controllers = tuple(controllers)
        self._partial: PartialRedraw | None = None
        self._partial_lines = 0
        self.runs: Runs | None = None
        self.error: str | None = None
        live = _widgets.choose_canvas(canvas) == "ipympl"
        figure = _widgets.new_figure(as_figure_size(figsize), 100.0, live=live)
        k = len(self.controllers)
        width = 0.86 / k
        self.axes = []
        self.lines: dict[str, list[Any]] = {}
        for i, name in enumerate(self.controllers):
            ax = figure.add_axes((0.09 + i * width, 0.16, width - 0.04, 0.72))
            ax.set_xmargin(0.0)
            ax.set_title(CONTROLLER_LABELS[name], fontsize=10)
            ax.set_xlabel("t (s)")
            ax.grid(alpha=0.3)
            ax.axhline(0.0, color="#888888", lw=0.6)
            if i == 0:
                ax.set_ylabel("error θ_d − θ (°)")
            else:
                ax.tick_params(labelleft=False)
            self.axes.append(ax)
            self.lines[name] = []
        low, high, step = model_errors
        p_low, p_high, p_step = payloads
        controls = {
            "model_error": number_slider(model_error, low, high, step, label="model mass ×"),
            "payload": number_slider(payload, p_low, p_high, p_step, unit="kg", label="payload"),
        }
        super().__init__(self._draw, figure, controls, title=title, canvas=canvas)

    @property
    def simulations(self) -> int:
        """How many times ``simulate`` ran (a setting seen before is not run again)."""
        return self._cache.calls

    def _check_runs(self, runs: Runs) -> None:
        missing = [name for name in self.controllers if name not in runs]
        if missing:
            raise KeyError(f"simulate returned no run of {', '.join(missing)}")

    def _show(self, runs: Runs | None) -> None:
        if runs is None:
            for lines in self.lines.values():
                for line in lines:
                    line.set_data([], [])
            return
        peak = 1e-3
        for name, ax in zip(self.controllers, self.axes, strict=True):
            run = runs[name]
            times = np.asarray(run.times, dtype=float)
            errors = np.degrees(np.asarray(run.errors, dtype=float))
            lines = self.lines[name]
            for j in range(errors.shape[1]):
                if j == len(lines):
                    colour = JOINT_COLOURS[j % len(JOINT_COLOURS)]
                    (line,) = ax.plot([], [], color=colour, lw=1.2, label=f"joint {j + 1}")
                    lines.append(line)
                lines[j].set_data(times, errors[:, j])
            ax.set_xlim(float(times[0]), float(times[-1]))
            peak = max(peak, float(np.abs(errors).max()))
        for ax in self.axes:
            ax.set_ylim(-1.1 * peak, 1.1 * peak)
        if self.axes[0].get_legend() is None:
            self.axes[0].legend(loc="upper right", fontsize=7, frameon=False)

    def _frame_drawer(self, index: int) -> Callable[[], None] | None:
        """A slider step redraws the error curves and the y-axes only (:class:`PartialRedraw`).

        The panels' titles, x-axes, frames and the legend stay as drawn (most of an Agg draw
        of three panels is their text). Made once the curves exist (after the first run);
        a run with more joints than the first makes a new one.
        """
        lines = [line for name in self.controllers for line in self.lines[name]]
        if not lines:
            return None
        if self._partial is None or len(lines) != self._partial_lines:
            legend = self.axes[0].get_legend()
            self._partial = PartialRedraw(
                self.figures[0],
                moving=[*(ax.yaxis for ax in self.axes), *lines],
                over=[spine for ax in self.axes for spine in ax.spines.values()],
                layers=[legend] if legend is not None else [],
            )
            self._partial_lines = len(lines)
        return self._partial.draw

    def _draw(self, model_error: float, payload: float) -> str:
        runs, error = self._cache.run(model_error, payload)
        if runs is not self.runs or self.updates == 0:
            self._show(runs)
        self.runs, self.error = runs, error
        words = html.escape(f"model masses × {model_error:.2f}, unknown payload {payload:g} kg")
        if runs is None:
            return (
                f"<div><b>{words}</b>: no run.</div>"
                f'<div style="color:#a00;max-width:600px">{html.escape(str(error))}</div>'
            )
        limited = any(getattr(runs[name], "torque_limits", None) is not None for name in runs)
        labels = ["controller", "RMS error", "max error", "peak |τ|"]
        if limited:
            labels.append("torque limit")
        header = "".join(f'<th style="{_CELL}">{label}</th>' for label in labels)
        rows = []
        for name in self.controllers:
            run = runs[name]
            values = [
                CONTROLLER_LABELS[name],
                f"{np.degrees(run.rms_error):.3f}°",
                f"{np.degrees(run.max_error):.3f}°",
                f"{float(np.max(run.peak_torques)):.1f} N·m",
            ]
            if limited:
                values.append("exceeded" if run.exceeds_limits else "within")
            cells = "".join(f'<td style="{_CELL}">{value}</td>' for value in values)
            rows.append(f"<tr>{cells}</tr>")
        return (
            f"<div><b>{words}</b></div>"
            f'<table style="border-collapse:collapse"><tr>{header}</tr>{"".join(rows)}</table>'
        )


def controller_comparison(
    simulate: Callable[[float, float], Runs],
    controllers: tuple[str, ...] = ("pd", "pd_gravity", "computed_torque"),
    *,
    model_errors: tuple[float, float, float] = (0.8, 1.2, 0.05),
    payloads: tuple[float, float, float] = (0.0, 2.0, 0.25),
    model_error: float = 1.0,
    payload: float = 0.0,
    figsize: tuple[float, float] = (7.6, 3.0),
    canvas: str = "auto",
    title: str | None = "the same reference, three controllers",
) -> ControllerComparison:
    """Drag the model error or the payload and see every controller's tracking error at once.

    See the module documentation for what is shown. Put it last in a cell.

    Parameters
    ----------
    simulate : callable
        ``simulate(model_error, payload)`` returning a mapping from each name of
        ``controllers`` to a run with ``times`` (N,), ``errors`` (N, n) in radians,
        ``rms_error``, ``max_error``, ``peak_torques`` (n,), ``exceeds_limits`` and
        ``torque_limits`` (a :class:`robolab.TrackingResult`). A ``ValueError`` it
        raises is shown in the read-out.
    controllers : tuple of str
        Panels left to right, from ``"pd"``, ``"pd_gravity"``, ``"pd_feedforward"``,
        ``"computed_torque"``.
    model_errors, payloads : (low, high, step)
        Ranges of the two sliders (mass scale; kg).
    model_error, payload : float
        The initial values.
    figsize : (float, float)
        Inches at 100 dpi (the default, 760 × 300 px, fits a 1024 × 768 screen with
        the sliders and read-out below it).
    canvas : {"auto", "ipympl", "image"}
        See :func:`robolab.teach`.
    title : str, optional

    Returns
    -------
    ControllerComparison

    Examples
    --------
    A stand-in for the simulations: errors that grow with the model error.

    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> def simulate(model_error, payload):
    ...     t = np.linspace(0, 1, 11)
    ...     size = 0.01 + abs(model_error - 1) + 0.01 * payload
    ...     def run(gain):
    ...         e = np.stack([gain * size * np.sin(t)] * 2, axis=1)
    ...         rms = float(np.sqrt((e**2).sum(1).mean()))
    ...         return SimpleNamespace(times=t, errors=e, rms_error=rms,
    ...                                max_error=float(abs(e).max()), peak_torques=np.ones(2),
    ...                                exceeds_limits=False, torque_limits=None)
    ...     return {"pd": run(3.0), "pd_gravity": run(1.0), "computed_torque": run(0.5)}
    >>> panel = controller_comparison(simulate)
    >>> panel.controls["model_error"].value = 0.8  # what the arrow keys do
    >>> print(panel.readout_text().splitlines()[0])
    model masses × 0.80, unknown payload 0 kg
    >>> panel.simulations
    2
    >>> panel.controls["model_error"].value = 1.0
    >>> panel.simulations  # seen before: not simulated again
    2
    """
    return ControllerComparison(
        simulate,
        tuple(controllers),
        model_errors=model_errors,
        payloads=payloads,
        model_error=model_error,
        payload=payload,
        figsize=figsize,
        canvas=canvas,
        title=title,
    )
