"""Tune one joint's PID gains and watch its step response change while the slider moves.

:func:`joint_tuner` returns a :class:`JointTuner`, a :class:`robolab.LiveFigure` of five
sliders (K_p, K_d, K_i, the gear ratio r and the payload) and one figure of two plots:

* left: the link angle q(t) after a set-point step, the target and its ±2 % band, and
  markers at the peak and the settling time;
* right: the motor torque u(t) and its limits ±u_max (where the motor saturates, the loop is
  open and the integral may wind up);
* a read-out: ζ and ω_n of the PD part and the measured rise time (10–90 %), overshoot,
  2 % settling time and steady-state error, or the message of gains that are unstable.

The view draws; it does not simulate (the view layer never imports the control modules,
docs/architecture.md): you pass ``simulate(kp, kd, ki, gear_ratio, payload)``, which
returns anything with ``times``, ``positions``, ``motor_torque``, ``target``,
``torque_limit``, ``damping_ratio``, ``natural_frequency`` and ``metrics`` (with
``rise_time``, ``overshoot``, ``settling_time``, ``steady_state_error``, ``peak_time``) —
a :class:`robolab.JointResult`. A :class:`ValueError` it raises (unstable gains) is
shown in the read-out. Without a widget front end it shows as a static picture and the
read-out.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from matplotlib.ticker import MaxNLocator

from ...support import widgets as _widgets
from ...support.arguments import as_figure_size, as_float_array, require_choice
from ...support.renames import renamed_keywords
from .._fast.partial_redraw import PartialRedraw
from ..drawing.options import CANVAS_CHOICES
from ..widgets.controls import number_slider
from ..widgets.kept_runs import KeptRuns
from ..widgets.live_figure import LiveFigure

__all__ = ["JointTuner", "joint_tuner"]

Range = tuple[float, float, float, float]  # (initial, low, high, step)
RESPONSE_COLOUR, TARGET_COLOUR, TORQUE_COLOUR = "#0072B2", "#000000", "#D55E00"


def _range(value: Range, name: str) -> Range:
    numbers = as_float_array(value, name, (4,))
    initial, low, high, step = (float(x) for x in numbers)
    if not low <= initial <= high or step <= 0:
        raise ValueError(
            f"{name} must be (initial, low, high, step) with low ≤ initial ≤ high "
            f"and step > 0, got {value!r}"
        )
    return initial, low, high, step


def _ms(seconds: float) -> str:
    return "—" if math.isnan(seconds) else f"{seconds * 1000:.0f} ms"


class JointTuner(LiveFigure):
    """Gain, gear-ratio and payload sliders over a live step response (:func:`joint_tuner`).

    Attributes
    ----------
    position_axes, torque_axes : matplotlib.axes.Axes
    response_line, target_line, torque_line : Line2D
    response : object or None
        The run shown (what ``simulate`` returned), None when it failed.
    error : str or None
        The message of the failed run.
    runs : int
        How many times ``simulate`` was called (a setting seen before is not run again).
    """

    @renamed_keywords(kp="Kp", kd="Kd", ki="Ki")
    def __init__(
        self,
        simulate: Callable[[float, float, float, float, float], Any],
        *,
        Kp: Range,
        Kd: Range,
        Ki: Range,
        gear_ratio: Range,
        payload: Range,
        duration: float,
        figsize: tuple[float, float] = (7.6, 3.2),
        canvas: str = "auto",
    ) -> None:
        self._cache = KeptRuns(simulate)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        self.duration = float(as_float_array(duration, "duration", ()))
        if not self.duration > 0:
            raise ValueError(f"duration must be positive, got {self.duration:g}")
        self._partial: PartialRedraw | None = None
        self.response: Any = None
        self.error: str | None = None
        live = _widgets.choose_canvas(canvas) == "ipympl"
        figure = _widgets.new_figure(as_figure_size(figsize), 100.0, live=live)
        self._build_axes(figure)
        sliders = {  # control: (the keyword of its range, unit, label, range)
            "kp": ("Kp", "N·m/rad", "Kp", Kp),
            "kd": ("Kd", "N·m·s/rad", "Kd", Kd),
            "ki": ("Ki", "N·m/(rad·s)", "Ki", Ki),
            "gear_ratio": ("gear_ratio", "", "gear ratio r", gear_ratio),
            "payload": ("payload", "kg", "payload", payload),
        }
        controls = {}
        for name, (keyword, unit, label, spec) in sliders.items():
            initial, low, high, step = _range(spec, keyword)
            controls[name] = number_slider(initial, low, high, step, unit=unit, label=label)
        super().__init__(self._draw, figure, controls, title="one joint: PID step response")

    def _build_axes(self, figure: Any) -> None:
        empty: list[float] = []
        # margins in pixels, whatever the figure's width: room for each y-axis's tick labels
        # and label ("link angle q (rad)" was half cut off at 0.08 of 760 px), and for the
        # last x tick label at the right edge
        pixels = figure.bbox.width
        margin, gap, edge = 80.0 / pixels, 92.0 / pixels, 18.0 / pixels
        width = (1.0 - margin - gap - edge) / 2
        left = figure.add_axes((margin, 0.15, width, 0.75))
        right = figure.add_axes((margin + width + gap, 0.15, width, 0.75))
        self.position_axes, self.torque_axes = left, right
        self.band = left.axhspan(0.0, 0.0, color="#999999", alpha=0.25, lw=0, label="±2 %")
        (self.target_line,) = left.plot(
            empty, empty, "--", color=TARGET_COLOUR, lw=1.0, label="target"
        )
        (self.response_line,) = left.plot(empty, empty, color=RESPONSE_COLOUR, lw=1.8, label="q")
        (self.peak_marker,) = left.plot(empty, empty, "v", color=RESPONSE_COLOUR, ms=6)
        self.settle_cursor = left.axvline(0.0, color="#888888", lw=0.8, ls=":")
        left.set_xlabel("t (s)")
        left.set_ylabel("link angle q (rad)")
        left.set_xlim(0.0, self.duration)
        left.legend(loc="lower right", fontsize=8, frameon=False)
        left.grid(alpha=0.3)
        (self.torque_line,) = right.plot(empty, empty, color=TORQUE_COLOUR, lw=1.2, label="u")
        self.limit_lines = [right.axhline(0.0, color="#444444", lw=0.8, ls="--") for _ in "+-"]
        right.set_xlabel("t (s)")
        right.set_ylabel("motor torque u (N·m)")
        right.set_xlim(0.0, self.duration)
        right.grid(alpha=0.3)
        for axes in (left, right):  # few tick labels: text is most of an Agg draw
            axes.xaxis.set_major_locator(MaxNLocator(4))
            axes.yaxis.set_major_locator(MaxNLocator(4))

    def _frame_drawer(self, index: int) -> Callable[[], None] | None:
        """A slider step redraws the lines and the y-axes only (:class:`PartialRedraw`).

        The x-axes, the axis frames' background and the legend stay as drawn (about
        half of an Agg draw of this figure is their text); the pixels are those of a
        full draw except where the ±2 % band crosses an x-grid line (two grey levels).
        """
        if self._partial is None:
            left, right = self.position_axes, self.torque_axes
            moving = [
                self.band,
                left.yaxis,
                self.target_line,
                self.response_line,
                self.peak_marker,
                self.settle_cursor,
                right.yaxis,
                self.torque_line,
                *self.limit_lines,
            ]
            legend = left.get_legend()
            self._partial = PartialRedraw(
                self.figures[0],
                moving=moving,
                over=[*left.spines.values(), *right.spines.values()],
                layers=[legend] if legend is not None else [],
            )
        return self._partial.draw

    @property
    def runs(self) -> int:
        """How many times ``simulate`` ran (a setting seen before is not run again)."""
        return self._cache.calls

    def _show(self, run: Any) -> None:
        if run is None:
            for line in (self.response_line, self.target_line, self.torque_line, self.peak_marker):
                line.set_data([], [])
            return
        t = np.asarray(run.times, dtype=float)
        q = np.asarray(run.positions, dtype=float)
        u = np.asarray(run.motor_torque, dtype=float)
        target, start = float(run.target), float(q[0])
        step = target - start
        self.response_line.set_data(t, q)
        self.target_line.set_data([0.0, self.duration], [target, target])
        width = 0.02 * abs(step)
        self.band.set_y(target - width)
        self.band.set_height(2 * width)
        peak = float(run.metrics.peak_time)
        self.peak_marker.set_data([peak], [float(np.interp(peak, t, q))])
        settle = float(run.metrics.settling_time)
        self.settle_cursor.set_xdata([settle, settle] if math.isfinite(settle) else [-1, -1])
        low, high = min(float(q.min()), start, target), max(float(q.max()), start, target)
        margin = 0.08 * max(high - low, 1e-9)
        self.position_axes.set_ylim(low - margin, high + margin)
        limit = float(run.torque_limit)
        bound = max(float(np.abs(u).max()), limit if math.isfinite(limit) else 0.0, 1e-9)
        self.torque_line.set_data(t, u)
        for line, sign in zip(self.limit_lines, (1.0, -1.0), strict=True):
            line.set_ydata([sign * limit] * 2 if math.isfinite(limit) else [np.nan] * 2)
        self.torque_axes.set_ylim(-1.1 * bound, 1.1 * bound)

    def _draw(self, kp: float, kd: float, ki: float, gear_ratio: float, payload: float) -> str:
        run, error = self._cache.run(kp, kd, ki, gear_ratio, payload)
        self._show(run)
        self.response, self.error = run, error
        words = html.escape(
            f"Kp = {kp:g}, Kd = {kd:g}, Ki = {ki:g}, r = {gear_ratio:g}, payload {payload:g} kg"
        )
        if run is None:
            return (
                f"<div><b>{words}</b>: no response.</div>"
                f'<div style="color:#a00;max-width:700px">{html.escape(str(error))}</div>'
            )
        m = run.metrics
        saturated = bool(np.any(np.asarray(getattr(run, "saturated", [False]))))
        return (
            f"<div><b>{words}</b></div>"
            f"<div>ζ = {run.damping_ratio:.3f}, ω_n = {run.natural_frequency:.1f} rad/s; "
            f"rise (10–90 %) {_ms(m.rise_time)}, overshoot {m.overshoot:.1f} %, "
            f"settling (2 %) {_ms(m.settling_time)}</div>"
            f"<div>steady-state error {m.steady_state_error:.2e} rad"
            f"{', the motor saturates' if saturated else ''}</div>"
        )


@renamed_keywords(kp="Kp", kd="Kd", ki="Ki")
def joint_tuner(
    simulate: Callable[[float, float, float, float, float], Any],
    *,
    Kp: Range,
    Kd: Range,
    Ki: Range,
    gear_ratio: Range,
    payload: Range,
    duration: float,
    figsize: tuple[float, float] = (7.6, 3.2),
    canvas: str = "auto",
) -> JointTuner:
    """Sliders for K_p, K_d, K_i, the gear ratio and the payload over a live step response.

    See the module documentation for what is shown. Put it last in a cell.

    Parameters
    ----------
    simulate : callable
        ``simulate(kp, kd, ki, gear_ratio, payload)`` returning a
        :class:`robolab.JointResult` (or anything with its attributes); a ``ValueError``
        it raises is shown in the read-out.
    Kp, Kd, Ki, gear_ratio, payload : (initial, low, high, step)
        Each slider's start and range (``high - low`` a whole number of steps); the
        sliders are the controls ``"kp"``, ``"kd"``, ``"ki"``, ``"gear_ratio"`` and
        ``"payload"``. (``kp=``, ``kd=``, ``ki=`` are the old names of the gains.)
    duration : float
        Seconds shown.
    figsize : (float, float)
        Inches at 100 dpi (the default fits a 1024 × 768 screen with the sliders below).
    canvas : {"auto", "ipympl", "image"}
        See :func:`robolab.teach`.

    Returns
    -------
    JointTuner

    Examples
    --------
    A stand-in for a simulation: a first-order response whose time constant is 1/Kp.

    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> def run(kp, kd, ki, gear_ratio, payload):
    ...     t = np.linspace(0.0, 1.0, 1001)
    ...     q = 1 - np.exp(-kp * t)
    ...     metrics = SimpleNamespace(rise_time=2.197 / kp, overshoot=0.0, peak_time=1.0,
    ...                               settling_time=3.912 / kp, steady_state_error=1 - q[-1])
    ...     return SimpleNamespace(times=t, positions=q, motor_torque=kp * (1 - q), target=1.0,
    ...                            torque_limit=np.inf, damping_ratio=1.0,
    ...                            natural_frequency=kp, metrics=metrics)
    >>> panel = joint_tuner(run, Kp=(10, 5, 20, 1), Kd=(0, 0, 1, 0.1), Ki=(0, 0, 1, 0.1),
    ...                     gear_ratio=(100, 50, 150, 10), payload=(0, 0, 5, 0.5), duration=1.0)
    >>> print(panel.readout_text().splitlines()[1])
    ζ = 1.000, ω_n = 10.0 rad/s; rise (10–90 %) 220 ms, overshoot 0.0 %, settling (2 %) 391 ms
    >>> panel.controls["kp"].value = 20  # what the arrow keys do
    >>> panel.runs
    2
    """
    return JointTuner(
        simulate,
        Kp=Kp,
        Kd=Kd,
        Ki=Ki,
        gear_ratio=gear_ratio,
        payload=payload,
        duration=duration,
        figsize=figsize,
        canvas=canvas,
    )
