"""The named inputs of a live figure: angle, number and joint sliders, choice buttons.

Each makes a :class:`Control`: an ipywidgets value widget and what its value
means (degrees on the slider, radians for the update function; exact steps,
never a rounding echo). :func:`robolab.live_figure` (:mod:`robolab.views.widgets.live_figure`)
and the teach pendant are built from them; the pendant also shows each joint's
value as Python holds it (:func:`si_text`) and ``q`` as a line of code to copy
(:func:`q_code`, :func:`copy_code_widgets`).

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
import traitlets

from ...support.arguments import as_float_array, require_int, require_str

__all__ = [
    "CODE_FIELD_CLASS",
    "COMPACT_TRACK_WIDTH",
    "COPY_BUTTON_CLASS",
    "LABEL_WIDTH",
    "MAX_STEPS",
    "OWN_KEYS_CLASS",
    "SI_VALUE_WIDTH",
    "TRACK_WIDTH",
    "Control",
    "StepSlider",
    "angle_slider",
    "choice_buttons",
    "copy_code_widgets",
    "joint_slider",
    "joint_units",
    "key_guard",
    "number_slider",
    "q_code",
    "si_text",
    "si_value_label",
]

#: Most positions a slider over exact values may have (each one is sent to the browser).
MAX_STEPS = 5000
#: Narrowest description (label) of a control, in pixels; a panel widens all of them to its
#: longest label (:func:`robolab.support.widgets.description_width`), so none is cut with "…".
LABEL_WIDTH = 90
#: Pixels of a slider beside its label: the track and the value read-out.
TRACK_WIDTH = 310
#: The least a live figure's slider track gives up to sit beside a figure: with a 500-pixel
#: figure the panel still fits a JupyterLab output area 844 pixels wide (1024 × 768).
COMPACT_TRACK_WIDTH = 200
#: Pixels of a joint's value in radians (metres) beside its slider (:func:`si_value_label`).
SI_VALUE_WIDTH = 78
#: CSS class of a control whose keys belong to it, never to the notebook (see :func:`key_guard`).
OWN_KEYS_CLASS = "robolab-own-keys"
#: CSS classes of a "copy" button and of the text field near it whose line it copies.
COPY_BUTTON_CLASS = "robolab-copy-code"
CODE_FIELD_CLASS = "robolab-code-field"

# Notebook 7 (like every Lumino application started without ``bubblingKeydown``) matches its
# keyboard shortcuts in the *capture* phase of ``keydown`` on the document, before a focused
# slider sees the key: ArrowLeft on a slider handle runs "move to the heading above or collapse"
# and folds the chapter. JupyterLab matches in the bubble phase, after the slider has used the
# key. Lumino's CommandRegistry stops looking for a shortcut at an element with the attribute
# ``data-lm-suppress-shortcuts``, but it walks up from the focused element and the notebook's
# selectors end in ``:focus``, so the attribute must be on the focused element itself (a
# slider's handle, not the slider). ipywidgets cannot set attributes: this script (run once per
# page) sets it on the focused element inside a control of class OWN_KEYS_CLASS when that gets
# the focus or a key, from capture listeners on the window, which run before the document's.
_KEY_GUARD_JS = (
    """
if (!window.__robolabKeyGuard) {
  window.__robolabKeyGuard = true;
  const own = (event) => {
    const target = event.target;
    const control = target instanceof Element ? target.closest('.OWN_KEYS') : null;
    if (control && !target.hasAttribute('data-lm-suppress-shortcuts')) {
      target.setAttribute('data-lm-suppress-shortcuts', 'true');
    }
  };
  window.addEventListener('focusin', own, true);
  window.addEventListener('keydown', own, true);
  // a copy button puts the line of the nearest code field on the clipboard
  window.addEventListener('click', (event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest('.COPY_BUTTON') : null;
    let box = button && button.parentElement;
    while (box && !box.querySelector('.CODE_FIELD input')) box = box.parentElement;
    const field = box && box.querySelector('.CODE_FIELD input');
    if (field) {
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => {});
    }
  }, true);
}
""".replace("OWN_KEYS", OWN_KEYS_CLASS)
    .replace("COPY_BUTTON", COPY_BUTTON_CLASS)
    .replace("CODE_FIELD", CODE_FIELD_CLASS)
)


# --- controls -----------------------------------------------------------------------------------


def key_guard() -> widgets.Output:
    """An invisible widget that keeps the keys of robolab's controls away from the notebook.

    Put it in a panel whose controls have the CSS class :data:`OWN_KEYS_CLASS`
    (:class:`robolab.LiveFigure` does both). When it renders, a small script
    marks the focused element of such a control (a slider's handle) with
    ``data-lm-suppress-shortcuts`` (the attribute Lumino's command registry
    honours) as soon as it gets the focus, so that
    the arrow keys on a slider move the slider in Notebook 7 too instead of
    moving to or folding a heading. The same script makes a button of class
    :data:`COPY_BUTTON_CLASS` copy the line of the nearest :data:`CODE_FIELD_CLASS`
    text field to the clipboard. The script is an ``application/javascript``
    output of an ``ipywidgets.Output``, whose outputs ipywidgets renders as
    trusted; where nothing runs it (an HTML export, test mode) nothing changes.

    Examples
    --------
    >>> guard = key_guard()
    >>> guard.layout.display, "data-lm-suppress-shortcuts" in guard.outputs[0]["data"][
    ...     "application/javascript"]
    ('none', True)
    """
    guard = widgets.Output(layout=widgets.Layout(display="none"))
    guard.outputs = (
        {
            "output_type": "display_data",
            "data": {"application/javascript": _KEY_GUARD_JS, "text/plain": ""},
            "metadata": {},
        },
    )
    guard.add_class("robolab-key-guard")
    return guard


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


class StepSlider(widgets.FloatSlider):
    """A decimal slider over the exact positions ``low + k·step``; its read-out takes typing.

    An ipywidgets ``FloatSlider`` (the browser's read-out is editable: type a value, press
    Enter) whose value is always one of the positions, rounded to the step's decimals: a
    drag's ``3 × 0.05`` arrives as 0.15, a typed 0.23 snaps to the nearest position, a typed
    value beyond the ends to the end (the browser then shows the value kept). ``index``
    is the position's number, ``options`` the (label, value) pairs, as on a
    ``SelectionSlider``, whose read-out ignored what was typed.

    Examples
    --------
    >>> slider = StepSlider([0.0, 0.05, 0.1, 0.15], 2, index=1)
    >>> slider.value, slider.readout_format
    (0.05, '.2f')
    >>> slider.index += 2
    >>> slider.value
    0.15
    >>> slider.value = 0.1 + 0.0000001  # typed into the read-out, or a drag's 2 × 0.05
    >>> slider.value, slider.index
    (0.1, 2)
    """

    def __init__(self, positions: Sequence[float], decimals: int, index: int, **kwargs: Any):
        self._positions = [float(p) for p in positions]
        self._decimals = int(decimals)
        step = self._positions[1] - self._positions[0] if len(self._positions) > 1 else 1.0
        super().__init__(
            value=self._positions[index],
            min=self._positions[0],
            max=self._positions[-1],
            step=round(step, self._decimals),
            readout_format=f".{self._decimals}f",
            **kwargs,
        )

    def _nearest(self, value: float) -> int:
        positions = self._positions
        span = positions[-1] - positions[0]
        if not span:
            return 0
        k = round((value - positions[0]) / span * (len(positions) - 1))
        return min(max(k, 0), len(positions) - 1)

    @traitlets.validate("value")
    def _validate_value(self, proposal: Any) -> float:
        value = float(proposal["value"])
        if not math.isfinite(value):
            return float(self.value)  # junk typed into the read-out: keep the value
        return self._positions[self._nearest(value)]

    @property
    def index(self) -> int:
        """The number of the position shown (0 at ``low``)."""
        return self._nearest(float(self.value))

    @index.setter
    def index(self, index: int) -> None:
        self.value = self._positions[min(max(int(index), 0), len(self._positions) - 1)]

    @property
    def options(self) -> tuple[tuple[str, float], ...]:
        """The positions with their read-out texts, low to high."""
        return tuple((f"{p:.{self._decimals}f}", p) for p in self._positions)


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
        slider = StepSlider(positions, decimals, index, **common)
    slider.add_class("robolab-slider")
    return slider, decimals


def slider_description(label: str | None, unit: str) -> str:
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
    slider, decimals = _slider(value, low, high, step, "°", slider_description(label, "°"))
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
    slider, decimals = _slider(value, low, high, step, unit, slider_description(label, unit))
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


# --- joints: degrees or millimetres on the slider, radians or metres in Python ------------------


def joint_units(kind: str) -> tuple[str, float]:
    """The slider's unit of a joint and the factor from its SI value (rad, m) to that unit.

    Examples
    --------
    >>> joint_units("revolute")[0], joint_units("prismatic")
    ('deg', ('mm', 1000.0))
    """
    if kind == "revolute":
        return "deg", 180.0 / np.pi
    if kind == "prismatic":
        return "mm", 1000.0
    raise ValueError(f"kind must be 'revolute' or 'prismatic', got {kind!r}")


def joint_slider(
    value: float,
    limits: Any,
    kind: str,
    *,
    label: str,
    tooltip: str,
    widths: tuple[int, int],
    label_above: bool = False,
) -> Control:
    """An integer slider of one joint: whole degrees (mm) shown, radians (m) passed on.

    ``value`` and ``limits`` (low, high) are in radians or metres; the slider
    covers the whole degrees (millimetres) inside the limits. ``widths`` is
    (label, track) in pixels. ``label_above=True``: the slider has no description (its
    panel shows ``label`` above it, a long joint name), the track gets ``widths``' sum.

    Examples
    --------
    >>> import numpy as np
    >>> elbow = joint_slider(0.5, (-np.pi, np.pi), "revolute", label="q2 (deg)",
    ...                      tooltip="joint 2", widths=(80, 250))
    >>> elbow.widget.value, elbow.widget.min, round(elbow.value, 4), elbow.text()
    (29, -180, 0.5061, '29 deg')
    """
    unit, factor = joint_units(kind)
    low = int(np.ceil(float(limits[0]) * factor - 1e-6))
    high = int(np.floor(float(limits[1]) * factor + 1e-6))
    label_width, track_width = (0, sum(widths)) if label_above else widths
    slider = widgets.IntSlider(
        value=int(np.clip(np.round(value * factor), low, high)),
        min=low,
        max=high,
        step=1,
        description="" if label_above else label,
        description_allow_html=False,
        continuous_update=True,
        tooltip=f"{tooltip}, in {unit}",
        style={"description_width": f"{label_width}px"},
        # under its name, a slider row of 22 px: the pendant's column stays as tall as its view
        layout=widgets.Layout(
            width=f"{label_width + track_width}px", height="22px" if label_above else None
        ),
    )
    slider.add_class("robolab-joint-slider")
    return Control(
        slider,
        to_value=lambda shown: shown / factor,
        describe=lambda shown: f"{shown} {unit}",
        unit=unit,
        label=label,
    )


def si_text(value: float, kind: str) -> str:
    """A joint value as Python holds it, for beside its slider: ``0.5236 rad``, ``0.2500 m``.

    Examples
    --------
    >>> si_text(np.pi / 6, "revolute"), si_text(-1e-9, "prismatic")
    ('0.5236 rad', '0.0000 m')
    """
    unit = "rad" if kind == "revolute" else "m"
    return f"{float(np.round(value, 4)) + 0.0:.4f} {unit}"


def si_value_label() -> widgets.Label:
    """The label beside a joint slider that shows :func:`si_text`."""
    label = widgets.Label(layout=widgets.Layout(width=f"{SI_VALUE_WIDTH}px", margin="0 0 0 2px"))
    label.add_class("robolab-si-value")
    return label


def q_code(q: Any, decimals: int = 4) -> str:
    """A configuration as a line of Python to paste into a cell: ``q = [0.0, -0.7854]``.

    Parameters
    ----------
    q : array_like, shape (n,)
        Joint values (radians / metres).
    decimals : int
        Decimals kept (4: 1e-4 rad is 0.006°, 1e-4 m is 0.1 mm).

    Examples
    --------
    >>> q_code(np.radians([0, -45, 90.0]))
    'q = [0.0, -0.7854, 1.5708]'
    >>> q_code([[0.0]])
    Traceback (most recent call last):
    ...
    ValueError: q must be one value per joint (1-dimensional), got shape (1, 1)
    """
    values = as_float_array(q, "q")
    if values.ndim != 1:
        raise ValueError(f"q must be one value per joint (1-dimensional), got shape {values.shape}")
    decimals = require_int(decimals, "decimals")
    return "q = [" + ", ".join(repr(float(np.round(v, decimals)) + 0.0) for v in values) + "]"


def copy_code_widgets(
    description: str, what: str, width: int
) -> tuple[widgets.Button, widgets.Text]:
    """A "copy" button and the text field whose line it copies (in the browser, by
    :func:`key_guard`'s script); the caller fills the field and handles the click.

    Examples
    --------
    >>> button, field = copy_code_widgets("Copy q", "q (radians)", 300)
    >>> button.description, field.layout.width, COPY_BUTTON_CLASS in button._dom_classes
    ('Copy q', '300px', True)
    """
    button = widgets.Button(
        description=description,
        icon="copy",
        tooltip=f"copy {what} as a line of Python",
        layout=widgets.Layout(width="96px"),
    )
    button.add_class(COPY_BUTTON_CLASS)
    field = widgets.Text(
        tooltip=f"{what} as a line of Python: select and copy, or press {description}",
        layout=widgets.Layout(width=f"{width}px"),
    )
    field.add_class(CODE_FIELD_CLASS)
    return button, field
