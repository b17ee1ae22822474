"""The named inputs of a live figure: angle and number sliders, choice buttons.

Each makes a :class:`Control`: an ipywidgets value widget and what its value
means (degrees on the slider, radians for the update function; exact steps,
never a rounding echo). :func:`robolab.live_figure` (:mod:`robolab.views.sliders`)
and the teach pendant are built from them.

Examples
--------
>>> yaw = angle_slider(30)
>>> yaw.widget.value, round(yaw.value, 4), yaw.text()
(30, 0.5236, '30°')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np

from ..support.checks import require_str

__all__ = [
    "LABEL_WIDTH",
    "MAX_STEPS",
    "TRACK_WIDTH",
    "Control",
    "angle_slider",
    "choice_buttons",
    "number_slider",
]

#: Most positions a slider over exact values may have (each one is sent to the browser).
MAX_STEPS = 5000
#: Narrowest description (label) of a control, in pixels; a panel widens all of them to its
#: longest label (:func:`robolab.support.widgets.description_width`), so none is cut with "…".
LABEL_WIDTH = 90
#: Pixels of a slider beside its label: the track and the value read-out.
TRACK_WIDTH = 310


# --- controls -----------------------------------------------------------------------------------


class Control:
    """One named input of a live figure: a widget and what its value means.

    Made by :func:`angle_slider`, :func:`number_slider` or
    :func:`choice_buttons`; :func:`live_figure` also wraps a plain ipywidgets
    value widget in one (its value passed on unchanged).

    Parameters
    ----------
    widget : ipywidgets.ValueWidget
        What the student moves.
    to_value : callable, optional
        From the widget's value to the argument of the update function
        (degrees to radians for :func:`angle_slider`); default unchanged.
    describe : callable, optional
        From the widget's value to a short text for read-outs and the
        static rendering (``"30°"``, ``"0.25 m"``); default ``str``.
    unit : str
        Shown after the label on the widget, e.g. ``"°"`` or ``"m"``.
    label : str, optional
        The name shown before the widget; default the control's name in
        :func:`live_figure` (a plain widget keeps its own description).

    Attributes
    ----------
    initial : object
        The widget's value at creation; Reset returns to it.
    """

    def __init__(
        self,
        widget: Any,
        *,
        to_value: Callable[[Any], Any] | None = None,
        describe: Callable[[Any], str] | None = None,
        unit: str = "",
        label: str | None = None,
    ) -> None:
        if not hasattr(widget, "value") or not hasattr(widget, "observe"):
            raise TypeError(
                "a control must be an ipywidgets value widget (IntSlider, Dropdown, ...) or "
                f"made by robolab.angle_slider/number_slider/choice_buttons, got "
                f"{type(widget).__name__}"
            )
        for function, name in ((to_value, "to_value"), (describe, "describe")):
            if function is not None and not callable(function):
                raise TypeError(f"{name} must be a function or None, got {type(function).__name__}")
        unit = require_str(unit, "unit") or ""
        label = require_str(label, "label", optional=True)
        self.widget = widget
        self.unit = unit
        self.label = label
        self.initial = widget.value
        self._to_value = to_value or (lambda value: value)
        self._describe = describe or str

    @property
    def value(self) -> Any:
        """The argument the update function receives now."""
        return self._to_value(self.widget.value)

    def text(self) -> str:
        """The widget's value as a short text (``"30°"``, ``"0.25 m"``, ``"standard"``)."""
        return self._describe(self.widget.value)

    def __repr__(self) -> str:
        return f"<Control {type(self.widget).__name__} at {self.text()}>"


def _decimals(number: float) -> int:
    """Fewest decimals that write ``number`` exactly enough (at most 9)."""
    for decimals in range(10):
        if abs(round(number, decimals) - number) <= 1e-12 * max(1.0, abs(number)):
            return decimals
    return 9


def _is_whole(number: Any) -> bool:
    return isinstance(number, int | np.integer) and not isinstance(number, bool)


def _check_number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def _grid(value: Any, low: Any, high: Any, step: Any, unit: str) -> tuple[list[float], int, int]:
    """The exact slider positions ``low + k·step``, their decimals and the index of ``value``."""
    value_f, low_f, high_f, step_f = (
        _check_number(number, name)
        for number, name in ((value, "value"), (low, "low"), (high, "high"), (step, "step"))
    )
    if step_f <= 0:
        raise ValueError(f"step must be positive, got {step!r}")
    if not low_f < high_f:
        raise ValueError(f"low must be below high, got low = {low!r}, high = {high!r}")
    count = round((high_f - low_f) / step_f)
    tolerance = 1e-9 * max(1.0, abs(high_f), abs(low_f))
    if abs(low_f + count * step_f - high_f) > tolerance:
        raise ValueError(
            f"high - low must be a whole number of steps: ({high!r} - {low!r}) / {step!r} = "
            f"{(high_f - low_f) / step_f:.6g}"
        )
    if count > MAX_STEPS:
        raise ValueError(
            f"a slider may have at most {MAX_STEPS} steps, got {count} "
            f"(from {low!r} to {high!r} {unit} in steps of {step!r}); take a larger step"
        )
    decimals = max(_decimals(step_f), _decimals(low_f))
    positions = [round(low_f + k * step_f, decimals) + 0.0 for k in range(count + 1)]
    index = round((value_f - low_f) / step_f)
    if not (0 <= index <= count) or abs(positions[index] - value_f) > tolerance:
        raise ValueError(
            f"value must be one of the slider's positions {low!r}, {positions[1]!r}, ... "
            f"{high!r} {unit} (from low to high in steps of {step!r}), got {value!r}"
        )
    return positions, decimals, index


def _slider(
    value: Any, low: Any, high: Any, step: Any, unit: str, description: str
) -> tuple[Any, int]:
    """An integer slider when everything is whole, else a slider over the exact positions."""
    positions, decimals, index = _grid(value, low, high, step, unit)
    common = {
        "description": description,
        "continuous_update": True,
        "style": {"description_width": f"{LABEL_WIDTH}px"},
        "layout": widgets.Layout(width=f"{LABEL_WIDTH + TRACK_WIDTH}px"),
    }
    if all(float(x).is_integer() for x in (value, low, high, step)):
        slider = widgets.IntSlider(
            value=round(float(value)),
            min=round(float(low)),
            max=round(float(high)),
            step=round(float(step)),
            **common,
        )
    else:
        slider = widgets.SelectionSlider(
            options=[(f"{p:.{decimals}f}", p) for p in positions], index=index, **common
        )
    slider.add_class("robolab-slider")
    return slider, decimals


def _description(label: str | None, unit: str) -> str:
    if not label:
        return ""
    return f"{label} ({unit})" if unit else label


def angle_slider(
    value: float = 0.0,
    low: float = -180.0,
    high: float = 180.0,
    step: float = 1.0,
    *,
    label: str | None = None,
) -> Control:
    """A slider in degrees whose value reaches the update function in radians.

    Whole-degree steps give an integer slider; other steps (``step=0.5``)
    a slider over the exact values ``low + k·step``. Either way the value
    set from Python is the value shown (no rounding echo).

    Parameters
    ----------
    value, low, high, step : float
        Initial value, range and step, in degrees; ``value`` must be one of
        the positions and ``high - low`` a whole number of steps.
    label : str, optional
        Shown before the slider (default: the control's name), followed by
        ``(°)``.

    Examples
    --------
    >>> pitch = angle_slider(20, -90, 90, 5)
    >>> pitch.widget.value, round(pitch.value, 6), pitch.text()
    (20, 0.349066, '20°')
    >>> angle_slider(7, step=5)
    Traceback (most recent call last):
    ...
    ValueError: value must be one of the slider's positions -180.0, -175.0, ... got 7
    """
    label = require_str(label, "label", optional=True)
    slider, decimals = _slider(value, low, high, step, "°", _description(label, "°"))
    return Control(
        slider,
        to_value=lambda degrees: math.radians(degrees),
        describe=lambda degrees: f"{float(degrees):.{decimals}f}°",
        unit="°",
        label=label,
    )


def number_slider(
    value: float,
    low: float,
    high: float,
    step: float,
    *,
    unit: str = "",
    label: str | None = None,
) -> Control:
    """A slider over exact steps (a length in metres, a count, a pitch...).

    When ``value``, ``low``, ``high`` and ``step`` are all Python/NumPy
    integers the slider is an integer slider and the update function gets
    an ``int``; otherwise it gets the float ``low + k·step`` rounded to the
    step's decimals (0.15, not 0.15000000000000002).

    Parameters
    ----------
    value, low, high, step : float
        Initial value, range and step; ``value`` must be one of the
        positions and ``high - low`` a whole number of steps.
    unit : str
        Shown with the label, e.g. ``"m"``.
    label : str, optional
        Shown before the slider (default: the control's name).

    Examples
    --------
    >>> a = number_slider(0.6, 0.0, 1.0, 0.05, unit="m")
    >>> a.value, a.text()
    (0.6, '0.60 m')
    >>> a.widget.index += 1  # one arrow-key press
    >>> a.value
    0.65
    >>> number_slider(3, 1, 6, 1).value
    3
    """
    unit = require_str(unit, "unit") or ""
    label = require_str(label, "label", optional=True)
    slider, decimals = _slider(value, low, high, step, unit, _description(label, unit))
    whole = all(_is_whole(x) for x in (value, low, high, step))
    suffix = f" {unit}" if unit else ""
    return Control(
        slider,
        to_value=(lambda v: int(v)) if whole else (lambda v: float(v)),
        describe=lambda v: f"{float(v):.{decimals}f}{suffix}",
        unit=unit,
        label=label,
    )


def choice_buttons(
    options: Sequence[Any], value: object = None, *, label: str | None = None
) -> Control:
    """Toggle buttons: one of a few options (``"standard"`` or ``"modified"``, say).

    Parameters
    ----------
    options : sequence of str, or of (label, value) pairs
        The choices; the update function receives the chosen value.
    value : optional
        The initial value (default the first option).
    label : str, optional
        Shown before the buttons (default: the control's name).

    Examples
    --------
    >>> convention = choice_buttons(["standard", "modified"])
    >>> convention.value
    'standard'
    >>> convention.widget.value = "modified"
    >>> convention.text()
    'modified'
    """
    label = require_str(label, "label", optional=True)
    if isinstance(options, str | bytes | Mapping) or not isinstance(options, Sequence):
        # a text would give one button per character, a dict its keys
        raise TypeError(
            "options must be a list of choices (or of (label, value) pairs), "
            f"got {type(options).__name__} {options!r}"
        )
    options = list(options)
    if not options:
        raise ValueError("options must hold at least one choice")
    pairs = [option if isinstance(option, tuple) else (str(option), option) for option in options]
    values = [v for _, v in pairs]
    if value is None:
        value = values[0]
    elif value not in values:
        raise ValueError(f"value must be one of the options {values!r}, got {value!r}")
    buttons = widgets.ToggleButtons(
        options=pairs,
        value=value,
        description=label or "",
        style={"description_width": f"{LABEL_WIDTH}px", "button_width": "90px"},
    )
    buttons.add_class("robolab-choice")
    buttons.add_class("widget-inline-hbox")
    names = {repr(v): text for text, v in pairs}
    return Control(buttons, describe=lambda v: names.get(repr(v), str(v)), label=label)
