"""Sliders that drive a figure and a read-out: :func:`live_figure`.

Many pictures of the course are "a few numbers, a figure, a read-out": the
roll, pitch and yaw angles of a frame, the four parameters of one DH row,
the angle along a screw axis. :func:`live_figure` builds that panel around

* **named controls**: :func:`angle_slider` (the slider shows degrees, your
  function receives radians), :func:`number_slider` (exact steps: integer
  sliders, or a slider over the exact values ``low + k·step``) and
  :func:`choice_buttons`, or any ipywidgets value widget;
* **your update function**, called with the controls' values as keyword
  arguments whenever one of them moves. It moves the artists in place
  (:meth:`robolab.FrameTriad.set_pose`, :meth:`robolab.RobotView.update`
  with ``draw=False``, ``line.set_data_3d``...) and returns the read-out, as
  HTML (default) or plain text;
* **one or more figures**, redrawn once per change (an ipympl canvas under
  ``%matplotlib widget``, otherwise Agg pixels sent as PNG to an
  ``ipywidgets.Image``), and a **Reset** button.

Why exact steps: a float slider rounds a value set from Python to its step
and sends the rounded value back, which fights the kernel; integer sliders
and sliders over a list of exact values never do.

Without a widget front end (test mode, nbval, an HTML export, a console)
the panel shows as a static picture with the values and the read-out, as
HTML and as text. Every callback is a plain method: set a control's
``value`` or click ``reset_button`` kernel-side, then read the artists and
:meth:`LiveFigure.readout_text` back.

Examples
--------
>>> import numpy as np, robolab
>>> ax = robolab.frame_axes((-1, 1), title="{b} turned about z")
>>> frame = robolab.draw_frame(ax, np.eye(4), "b")
>>> def turn(yaw):
...     frame.set_pose(robolab.rotz(yaw))
...     return f"yaw = {np.degrees(yaw):.0f}°, x_b = {robolab.rotz(yaw)[:, 0].round(3) + 0.0}"
>>> panel = robolab.live_figure(turn, ax, {"yaw": robolab.angle_slider(30)})
>>> panel.readout_text()
'yaw = 30°, x_b = [0.866 0.5   0.   ]'
>>> panel.controls["yaw"].value = 90  # what a drag or an arrow key does in the browser
>>> frame.pose[:3, 0].round(3) + 0.0
array([0., 1., 0.])
>>> panel.reset_button.click()
>>> panel.values  # what turn() receives: radians
{'yaw': 0.5235987755982988}
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ...support import widgets as _widgets
from ...support.arguments import (
    as_float_array,
    require_bool,
    require_choice,
    require_int,
    require_str,
    scalar_problem,
)
from .._fast.pixels import encode_png, speed_up_live_canvas
from ..drawing.options import CANVAS_CHOICES
from .controls import (
    COMPACT_TRACK_WIDTH,
    LABEL_WIDTH,
    MAX_STEPS,
    OWN_KEYS_CLASS,
    TRACK_WIDTH,
    Control,
    angle_slider,
    choice_buttons,
    key_guard,
    number_slider,
    slider_description,
)

__all__ = [
    "LABEL_WIDTH",
    "MAX_STEPS",
    "TRACK_WIDTH",
    "Control",
    "LiveFigure",
    "angle_slider",
    "choice_buttons",
    "live_figure",
    "matrix_html",
    "number_slider",
]

_READOUT_CHOICES = ("html", "text")


# --- read-outs ----------------------------------------------------------------------------------


def matrix_html(matrix: ArrayLike, decimals: int = 3) -> str:
    """A small matrix as an HTML table (monospace, right-aligned, no ``-0.000``).

    Examples
    --------
    >>> table = matrix_html([[1.0, -1e-17], [0.5, 2.0]], decimals=2)
    >>> table.count("<tr>"), table.count("<td"), "-0.00" in table
    (2, 4, False)
    >>> print(table.split("<tr>")[1])
    <td style="padding:0 6px;text-align:right">1.00</td><td ...>0.00</td></tr>
    """
    array = as_float_array(matrix, "matrix")  # text, booleans, complex values: TypeError
    decimals = require_int(decimals, "decimals")
    if decimals < 0:
        raise ValueError(f"decimals must be 0 or more, got {decimals}")
    if array.ndim == 1:
        array = array[None]
    if array.ndim != 2:
        raise ValueError(f"matrix must be 1- or 2-dimensional, got shape {array.shape}")
    cell = '<td style="padding:0 6px;text-align:right">'
    rows = "".join(
        "<tr>"
        + "".join(f"{cell}{float(np.round(v, decimals)) + 0.0:.{decimals}f}</td>" for v in row)
        + "</tr>"
        for row in array
    )
    return (
        '<table class="robolab-matrix" style="font-family:monospace;font-size:12px;'
        f'border-collapse:collapse">{rows}</table>'
    )


def _table_to_text(match: re.Match[str]) -> str:
    """A table as lines of right-aligned columns."""
    rows = [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"(?is)<t[dh]\b[^>]*>(.*?)</t[dh]\s*>", row)
        ]
        for row in re.findall(r"(?is)<tr\b[^>]*>(.*?)</tr\s*>", match.group(0))
    ]
    rows = [row for row in rows if row]
    if not rows:
        return "\n"
    widths = [max(len(row[k]) for row in rows if k < len(row)) for k in range(max(map(len, rows)))]
    lines = ["  ".join(cell.rjust(widths[k]) for k, cell in enumerate(row)) for row in rows]
    return "\n" + "\n".join(lines) + "\n"


def _html_to_text(fragment: str) -> str:
    """Plain text of a small HTML read-out: block ends become line breaks, tables aligned."""
    text = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", "", fragment)
    text = re.sub(r"(?is)<table\b.*?</table\s*>", _table_to_text, text)
    text = re.sub(r"(?i)<br\s*/?>|</(p|div|tr|li|h[1-6]|table|pre)\s*>", "\n", text)
    text = re.sub(r"(?i)</t[dh]\s*>", "  ", text)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


# --- the panel ----------------------------------------------------------------------------------


def _show_pixels(figure: Figure, shown: Any, draw: Callable[[], None] | None = None) -> None:
    """Redraw ``figure`` into the widget made for it by ``figure_widget``, and send the pixels.

    An ipympl canvas draws and sends its diff image (see
    :func:`robolab.views._fast.pixels.speed_up_live_canvas`); for an
    ``ipywidgets.Image`` the figure is drawn with Agg and its RGB pixels
    are sent as PNG (:func:`robolab.views._fast.pixels.encode_png`: level 1, no
    row filter, about 3× faster than Pillow's encoder at the same size).
    ``draw``, when given, draws the frame into the Agg buffer instead of a
    full draw (a :class:`robolab.views._fast.partial_redraw.PartialRedraw`).
    """
    canvas = figure.canvas
    live = _widgets.is_ipympl_canvas(shown)
    if (
        draw is None
        or not isinstance(canvas, FigureCanvasAgg)
        or (live and getattr(canvas, "syncing_data_url", False))  # no browser yet: a full frame
    ):
        if live:
            _widgets.draw_live_canvas(figure)
        elif isinstance(canvas, FigureCanvasAgg):
            FigureCanvasAgg.draw(canvas)
            shown.value = encode_png(np.asarray(canvas.buffer_rgba())[..., :3])
        else:
            _widgets.show_figure(figure, shown)  # says what it needs
        return
    draw()
    if live:
        canvas.blit()  # WebAgg: the diff image of the buffer to the browser
    else:
        shown.value = encode_png(np.asarray(canvas.buffer_rgba())[..., :3])


def _check_control_value(widget: Any, value: Any, name: str) -> None:
    """A value for a control of the same kind as the one it holds: a number for a slider
    (not a bool, which is an int to Python), True/False for a checkbox."""
    current = widget.value
    if isinstance(current, bool):
        require_bool(value, name)
    elif isinstance(current, int | float) and (problem := scalar_problem(value)) is not None:
        what = problem[0]
        raise TypeError(f"{name} must be a number (the slider's units), got {what}")


def _figures_of(figures: Any) -> list[Figure]:
    if figures is None:
        return []
    items = list(figures) if isinstance(figures, list | tuple) else [figures]
    found = []
    for index, item in enumerate(items):
        figure = item if isinstance(item, Figure) else getattr(item, "figure", None)
        if not isinstance(figure, Figure):
            raise TypeError(
                f"figures[{index}] must be a matplotlib Figure, an Axes (robolab.frame_axes) or a "
                f"robolab.RobotView, got {type(item).__name__}"
            )
        found.append(figure)
    return found


class LiveFigure:
    """Named controls, figures redrawn in place and a read-out (made by :func:`live_figure`).

    Attributes
    ----------
    controls : dict of str to ipywidgets.ValueWidget
        The sliders and buttons by name; setting a ``value`` is what the
        browser does.
    figures : list of matplotlib.figure.Figure
    figure_widgets : list of ipywidgets.DOMWidget
        The ipympl canvas or ``ipywidgets.Image`` showing each figure.
    readout : ipywidgets.HTML
        Scrolls sideways when it is wider than the panel.
    reset_button : ipywidgets.Button
    widget : ipywidgets.Box
        The whole panel.
    label_width : int
        Pixels of every control's label (``style.description_width``): the
        longest label of the panel fits whole, at least :data:`LABEL_WIDTH`.
    canvas_kind : str
        ``"ipympl"`` or ``"image"``.
    updates : int
        How many times the update function ran.
    """

    #: Narrowest control label (pixels) and the Reset button's tooltip; a subclass (the
    #: teach pendant) sets its own, and its own panel in :meth:`_layout`.
    label_minimum = LABEL_WIDTH
    reset_tooltip = "back to the initial values"

    def __init__(
        self,
        update: Callable[..., str | None],
        figures: Any,
        controls: Mapping[str, Any],
        *,
        title: str | None = None,
        readout: str = "html",
        canvas: str = "auto",
    ) -> None:
        if not callable(update):
            raise TypeError(f"update must be a function, got {type(update).__name__}")
        require_choice(readout, "readout", _READOUT_CHOICES)
        title = require_str(title, "title", optional=True)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        words = "a dict of at least one name and slider, e.g. {'yaw': robolab.angle_slider(30)}"
        if not isinstance(controls, Mapping):
            raise TypeError(f"controls must be {words}, got {type(controls).__name__}")
        if not controls:
            raise ValueError(f"controls must be {words}")
        self._specs: dict[str, Control] = {}
        for name, control in controls.items():
            if not isinstance(name, str):
                raise TypeError(
                    f"control names must be Python names (they become keyword arguments of "
                    f"update), got {type(name).__name__} {name!r}"
                )
            if not name.isidentifier():
                raise ValueError(
                    f"control names must be Python names (they become keyword arguments of "
                    f"update), got {name!r}"
                )
            spec = control if isinstance(control, Control) else Control(control)
            if spec.label is None and not getattr(spec.widget, "description", ""):
                spec.widget.description = slider_description(name, spec.unit)
            self._specs[name] = spec
        self.label_width = self._align_labels()
        self._check_signature(update)
        self._update = update
        self.readout_format = readout
        self.title = title
        self.canvas_kind = _widgets.choose_canvas(canvas)
        self.figures = _figures_of(figures)
        self._shown_items = list(figures) if isinstance(figures, list | tuple) else [figures]
        self.updates = 0
        self._readout_value = ""
        self._syncing = False
        self._build_widgets()
        self.refresh()

    def _check_signature(self, update: Callable[..., Any]) -> None:
        try:
            parameters = inspect.signature(update).parameters
        except (TypeError, ValueError):  # builtins without a signature: let the call decide
            return
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
            return
        accepted = {
            name
            for name, p in parameters.items()
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        }
        missing = [name for name in self._specs if name not in accepted]
        required = [
            name
            for name, p in parameters.items()
            if p.default is inspect.Parameter.empty
            and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            and name not in self._specs
        ]
        label = getattr(update, "__name__", "update")
        if missing:
            raise ValueError(
                f"{label}() has no parameter named {', '.join(map(repr, missing))}: it is called "
                f"with the controls as keyword arguments ({', '.join(self._specs)})"
            )
        if required:
            raise ValueError(
                f"{label}() needs {', '.join(map(repr, required))}, which no control gives "
                f"(controls: {', '.join(self._specs)})"
            )

    def _align_labels(self) -> int:
        """Give every control the description width of the longest label; return it (pixels).

        ipywidgets cuts a label longer than its description width with "…";
        one width for all keeps the sliders' tracks aligned, and robolab's
        sliders grow by as much so their tracks keep their length.
        """
        width = _widgets.description_width(
            (str(getattr(spec.widget, "description", "")) for spec in self._specs.values()),
            minimum=self.label_minimum,
        )
        for spec in self._specs.values():
            widget = spec.widget
            if hasattr(getattr(widget, "style", None), "description_width"):
                widget.style.description_width = f"{width}px"
            if "robolab-slider" in widget._dom_classes:
                widget.layout.width = f"{width + TRACK_WIDTH}px"
                widget.layout.max_width = "100%"  # shorter beside a figure on a small screen
        return width

    def _build_widgets(self) -> None:
        for figure in self.figures:
            _widgets.detach_from_pyplot(figure)
        self.figure_widgets = [
            _widgets.figure_widget(figure, self.canvas_kind) for figure in self.figures
        ]
        for shown in self.figure_widgets:
            if _widgets.is_ipympl_canvas(shown):
                speed_up_live_canvas(shown)  # smaller diff images, made 3× faster
        for widget in self.controls.values():
            widget.observe(self.on_control_change, names="value")
            widget.add_class(OWN_KEYS_CLASS)  # arrow keys move it, in Notebook 7 too
        self.reset_button = widgets.Button(
            description="Reset", icon="undo", tooltip=self.reset_tooltip
        )
        self.reset_button.on_click(self.on_reset_click)
        self.widget = self._layout()
        self.widget.children = (*self.widget.children, key_guard())

    def _layout(self) -> widgets.Box:
        """The read-out widget and the whole panel: figures, then controls and read-out."""
        # A read-out wider than the panel (two matrices side by side) scrolls sideways in its
        # own box; the panel takes the rest of the row, its sliders down to a compact track
        # (COMPACT_TRACK_WIDTH) so that it stays beside a 500-pixel figure at 1024 × 768.
        self.readout = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="100%"))
        self.readout.add_class("robolab-live-readout")
        header = [widgets.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        panel = widgets.VBox(
            [*header, *self.controls.values(), self.reset_button, self.readout],
            layout=widgets.Layout(
                flex="1 1 320px", min_width=f"{self.label_width + COMPACT_TRACK_WIDTH + 10}px"
            ),
        )
        widget = widgets.HBox(
            [*self.figure_widgets, panel],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        widget.add_class("robolab-live-figure")
        return widget

    # --- callbacks (plain methods: call them, or set a control's value) ----------------------

    def on_control_change(self, change: dict[str, Any]) -> None:
        """Observer of every control: a value moved, so update, read out and redraw."""
        if not self._syncing:
            self.refresh()

    def on_reset_click(self, _button: Any = None) -> None:
        """Reset-button handler: every control back to its initial value."""
        self.reset()

    # --- state --------------------------------------------------------------------------------

    @property
    def controls(self) -> dict[str, Any]:
        """The sliders and buttons by name; setting a ``value`` is what the browser does."""
        return {name: spec.widget for name, spec in self._specs.items()}

    @property
    def values(self) -> dict[str, Any]:
        """What the update function receives now (angles in radians), by control name."""
        return {name: spec.value for name, spec in self._specs.items()}

    def set_values(self, **values: Any) -> None:
        """Set several controls at once (in the units the sliders show), with one redraw.

        Examples
        --------
        ``panel.set_values(roll=0, pitch=90)`` moves two sliders and calls
        the update function once.
        """
        unknown = [name for name in values if name not in self._specs]
        if unknown:
            raise ValueError(
                f"no control named {', '.join(map(repr, unknown))}; the controls are "
                f"{', '.join(self._specs)}"
            )
        for name, value in values.items():
            _check_control_value(self._specs[name].widget, value, name)
        self._syncing = True
        try:
            for name, value in values.items():
                self._specs[name].widget.value = value
        finally:
            self._syncing = False
        self.refresh()

    def reset(self) -> None:
        """Every control back to its initial value; one update and one redraw."""
        self.set_values(**{name: spec.initial for name, spec in self._specs.items()})

    def _frame_drawer(self, index: int) -> Callable[[], None] | None:
        """What draws a frame of figure ``index`` into its canvas: None for a full Agg draw.

        A view whose slider steps leave most of a figure as it was returns
        the ``draw`` of a :class:`robolab.views._fast.partial_redraw.PartialRedraw`;
        a :class:`robolab.RobotView` given as a figure offers its own
        (:meth:`robolab.RobotView.frame_drawer`).
        """
        drawer = getattr(self._shown_items[index], "frame_drawer", None)  # a RobotView's
        return drawer() if callable(drawer) else None

    def refresh(self) -> None:
        """Call the update function with the current values, show its read-out and redraw."""
        result = self._update(**self.values)
        self.updates += 1
        self._readout_value = "" if result is None else str(result)
        shown_figures = zip(self.figures, self.figure_widgets, strict=True)
        for index, (figure, shown) in enumerate(shown_figures):
            # the pixels first: the browser decodes them while the read-out is made
            _show_pixels(figure, shown, self._frame_drawer(index))
        self.readout.value = self.readout_html()

    # --- read-outs ----------------------------------------------------------------------------

    def values_text(self) -> str:
        """The controls as a line of text: ``roll = 30°, pitch = 20°``."""
        return ", ".join(f"{name} = {spec.text()}" for name, spec in self._specs.items())

    def readout_html(self) -> str:
        """The read-out as HTML (the ``readout`` widget's value)."""
        if self.readout_format == "text":
            return (
                '<pre class="robolab-live-text" style="font-size:12px;line-height:1.35;margin:0">'
                f"{html.escape(self._readout_value)}</pre>"
            )
        if not self._readout_value:
            return ""
        # ipywidgets' HTML has a line height of a whole widget row (28 px): tighten it
        return f'<div style="line-height:1.4;font-size:13px">{self._readout_value}</div>'

    def readout_text(self) -> str:
        """The read-out as plain text (HTML tags removed, table cells spaced)."""
        if self.readout_format == "text":
            return self._readout_value
        return _html_to_text(self._readout_value)

    # --- display ------------------------------------------------------------------------------

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        name = self.title or "Live figure"
        text = f"{name} at {self.values_text()}"
        readout = self.readout_text()
        pictures = "".join(
            _widgets.png_html(_widgets.figure_png(figure), name) for figure in self.figures
        )
        page = (
            f'<div class="robolab-live-static"><p><em>{html.escape(name)}, shown at '
            f"{html.escape(self.values_text())}; run the notebook to move the sliders.</em></p>"
            f"<div>{pictures}</div>{self.readout_html()}</div>"
        )
        plain = f"{text}\n{readout}" if readout else text
        return _widgets.widget_bundle(self.widget, {"text/plain": plain, "text/html": page})

    def __repr__(self) -> str:
        name = f" {self.title!r}" if self.title else ""
        return f"<LiveFigure{name} at {self.values_text()}>"


def live_figure(
    update: Callable[..., str | None],
    figures: Any,
    controls: Mapping[str, Any],
    *,
    title: str | None = None,
    readout: str = "html",
    canvas: str = "auto",
) -> LiveFigure:
    """Sliders that call ``update`` and redraw figures in place, with a read-out and Reset.

    Put it last in a cell (or ``display`` it). Works under ``%matplotlib
    widget`` (live canvases) and under the inline backend (PNG images), and
    shows a static picture with the values and the read-out where there is
    no widget front end.

    Parameters
    ----------
    update : callable
        ``update(**values) -> str | None``, called once at the start and
        after every change with one keyword argument per control (angles in
        radians). It moves the artists in place (do not ask them to draw:
        the panel redraws every figure once afterwards) and returns the
        read-out: HTML (``readout="html"``, see :func:`matrix_html`) or
        plain text (``readout="text"``); None for no read-out.
    figures : Figure, Axes, RobotView, a list of them, or None
        What to redraw after each update. A pyplot figure (from
        :func:`robolab.frame_axes` or :func:`robolab.plot_robot`) is taken
        over by the panel: pyplot forgets it, so the backend does not show
        it a second time.
    controls : dict of str to Control or ipywidgets value widget
        Names (the keyword arguments of ``update``) and their controls, in
        the order shown: :func:`angle_slider`, :func:`number_slider`,
        :func:`choice_buttons`, or any ipywidgets value widget (its value is
        passed on unchanged; prefer integer or exact-step sliders).
    title : str, optional
        A line above the controls.
    readout : {"html", "text"}
        What ``update`` returns.
    canvas : {"auto", "ipympl", "image"}
        ``"auto"`` keeps a figure's live ipympl canvas under ``%matplotlib
        widget`` and sends PNG pixels otherwise (see :func:`robolab.teach`).

    Returns
    -------
    LiveFigure

    See Also
    --------
    robolab.frame_axes, robolab.draw_frame : pictures of frames to put in it.
    robolab.teach : the same idea for the joints of a robot.

    Examples
    --------
    Two sliders, a figure and a matrix read-out:

    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1))
    >>> fixed = robolab.draw_frame(ax, np.eye(4), "s", style="--")
    >>> moving = robolab.draw_frame(ax, np.eye(4), "b")
    >>> def show(yaw, lift):
    ...     T = robolab.transl(0, 0, lift) @ robolab.trotz(yaw)
    ...     moving.set_pose(T)
    ...     return robolab.matrix_html(T, decimals=2)
    >>> panel = robolab.live_figure(
    ...     show, ax, {"yaw": robolab.angle_slider(0, step=15),
    ...                "lift": robolab.number_slider(0.0, 0.0, 0.5, 0.1, unit="m")})
    >>> panel.set_values(yaw=90, lift=0.3)
    >>> print(panel.readout_text())
    0.00  -1.00  0.00  0.00
    1.00   0.00  0.00  0.00
    0.00   0.00  1.00  0.30
    0.00   0.00  0.00  1.00
    >>> print(repr(panel))
    <LiveFigure at yaw = 90°, lift = 0.3 m>
    """
    return LiveFigure(update, figures, controls, title=title, readout=readout, canvas=canvas)
