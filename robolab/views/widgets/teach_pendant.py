"""A teach pendant that works inside notebooks: one slider per joint, a live 3D view.

:func:`teach` returns a :class:`TeachPendant`: an ipywidgets panel with

* one slider per joint, limited to the model's joint limits; revolute joints
  in whole degrees, prismatic joints in whole millimetres (integer sliders:
  a float slider rounds a value set from Python to its step and sends the
  rounded value back, which fights the kernel), each with the value in
  radians (metres) beside it;
* the 3D view of :func:`robolab.plot_robot`, moved in place;
* a read-out of the end-effector pose (the 4×4 transform, the position and
  the roll–pitch–yaw angles) and of the joint values, with their frames and
  units;
* a reset button, a "copy q" button and a text field holding ``q`` as a
  line of Python (``q = [0.3491, 0.5236, ...]``, radians and metres), a
  choice of manipulability ellipsoid (velocity or force) and a singularity
  warning.

The figure sits left of the controls. The default size (a 400 × 400 pixel
view beside a column of about 420 pixels, 570 pixels high for a six-joint arm)
fits a JupyterLab at 1024 × 768 with the file browser closed (an output area
844 pixels wide, 647 high), or at 1300 pixels with it open (868 wide);
``compact=False`` gives the larger view of earlier versions (500 pixels), for
a wide screen, with the controls below it on a small one.

How it draws depends on the matplotlib backend that is active in the
notebook, and robolab never changes it (a live ipympl figure dies as soon as
an inline figure is shown):

* ``%matplotlib widget`` (ipympl): the figure is a live canvas widget, moved
  in place and redrawn on every slider step; drag it to turn the view.
* the inline backend (the default in JupyterLab, classic Notebook, VS Code
  and Binder): the figure is drawn with Agg and its PNG bytes replace those
  of an ``ipywidgets.Image``, also in place.
* without a widget front end (test mode, nbval, HTML export, a console) the
  pendant shows its read-out as text (and, outside test mode, a picture).

The pendant is a :class:`robolab.LiveFigure` whose controls are the joint
sliders: a slider step runs the live figure's update path once, which moves
the view to one :class:`robolab.views.drawing.drawable.Snapshot` of the arm (frames,
pose, Jacobian and its singular value decomposition, each computed once) and
reads the pose, the ellipsoid and the singularity check from it.

Every callback is a method that a test can call kernel-side, or trigger by
setting a slider's ``value`` or calling ``reset_button.click()``; the
artists and the read-out can then be read back.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from numpy.typing import ArrayLike

from ...spatial.transforms import rotation_to_rpy
from ...support import widgets as _widgets
from ...support.arguments import (
    as_figure_size,
    as_float_array,
    as_real_number,
    require_bool,
    require_choice,
    require_int,
)
from ...support.renames import renamed_keywords
from ..drawing.drawable import Decomposition, RobotAdapter, RobotLike
from ..drawing.options import CANVAS_CHOICES, ELLIPSOID_CHOICES, ViewOptions
from ..drawing.robot_view import RobotView
from .controls import (
    SI_VALUE_WIDTH,
    Control,
    copy_code_widgets,
    joint_slider,
    joint_units,
    q_code,
    si_text,
    si_value_label,
)
from .live_figure import LiveFigure
from .singularity_readout import (
    clean_number,
    format_vector,
    margin_html,
    regular_sentence,
    singularity_margin,
    singularity_sentence,
)

__all__ = ["TeachPendant", "teach"]

_ELLIPSOID_OPTIONS = ("off", "velocity", "force")
#: Narrowest joint label (pixels); wider names widen every label (no name is cut with "…").
JOINT_LABEL_WIDTH = 80
#: Pixels of a joint slider beside its label: the track and the value; down to
#: ``JOINT_TRACK_MIN_WIDTH`` for long names, so that the controls still fit beside the view
#: in a notebook output 840 pixels wide (JupyterLab at 1024 × 768).
JOINT_TRACK_WIDTH = 250
JOINT_TRACK_MIN_WIDTH = 150
#: A name wider than this (pixels, the UR5's ``shoulder_pan_joint (deg)``) goes above its
#: slider, which then has the whole width: beside it the track was 54 pixels at 1024 × 768.
JOINT_LABEL_BESIDE_MAX = 120
#: Figure sizes (inches at 100 dpi) of the compact (default) and the large pendant.
COMPACT_FIGSIZE = (4.0, 4.0)
LARGE_FIGSIZE = (5.0, 5.0)


class TeachPendant(LiveFigure):
    """Sliders, a 3D view and a pose read-out for one robot (made by :func:`teach`).

    A :class:`robolab.LiveFigure` whose controls are the joint sliders (named
    ``q1`` … ``qn`` in :attr:`controls`); the view options come as one
    :class:`robolab.views.ViewOptions` (``options=``) or as the keywords of
    :func:`teach`.

    Attributes
    ----------
    view : RobotView
        The 3D view; its artists are moved in place.
    q0 : ndarray, shape (n,)
        The configuration the pendant was opened at (its ``q``); Reset returns here.
    sliders : list of ipywidgets.IntSlider
        One per joint: degrees (revolute) or millimetres (prismatic).
    si_labels : list of ipywidgets.Label
        Beside each slider, the joint's value in radians (revolute) or metres.
    reset_button : ipywidgets.Button
    copy_button : ipywidgets.Button
        Copies :attr:`q_text`'s line to the clipboard (in the browser).
    q_text : ipywidgets.Text
        ``q`` as a line of Python (:func:`q_code`), to select and copy.
    ellipsoid_buttons : ipywidgets.ToggleButtons
        ``"off"``, ``"velocity"`` or ``"force"``.
    readout : ipywidgets.HTML
        The end-effector pose and the joint values.
    warning : ipywidgets.HTML
        The singularity warning (empty when switched off).
    figure_widget : ipywidgets.DOMWidget
        The ipympl canvas or the ``ipywidgets.Image`` showing the figure.
    widget : ipywidgets.Box
        The whole panel.
    canvas_kind : str
        ``"ipympl"`` or ``"image"``.
    """

    label_minimum = JOINT_LABEL_WIDTH
    reset_tooltip = "back to the initial configuration"

    @renamed_keywords(q0="q")
    def __init__(
        self,
        robot: RobotLike,
        q: Any = None,
        *,
        options: ViewOptions | None = None,
        ellipsoid: str | None = None,
        singularity_warning: bool = True,
        singularity_threshold: float = 1e-2,
        figsize: tuple[float, float] | None = None,
        canvas: str = "auto",
        compact: bool = True,
        base_link: str | None = None,
        ee_link: str | None = None,
        **view_options: Any,
    ) -> None:
        options = ViewOptions.from_keywords(options, view_options)
        require_choice(canvas, "canvas", CANVAS_CHOICES)
        canvas = _widgets.choose_canvas(canvas)
        require_choice(ellipsoid, "ellipsoid", ELLIPSOID_CHOICES)
        singularity_warning = require_bool(singularity_warning, "singularity_warning")
        words = "a number between 0 and 1 (a ratio of singular values)"
        try:
            threshold = as_real_number(singularity_threshold, "singularity_threshold")
        except TypeError:
            raise TypeError(
                f"singularity_threshold must be {words}, got "
                f"{type(singularity_threshold).__name__} {singularity_threshold!r}"
            ) from None
        except ValueError:
            threshold = float("nan")
        if not 0 < threshold < 1:
            raise ValueError(
                f"singularity_threshold must be {words}, got {singularity_threshold!r}"
            )
        self.compact = require_bool(compact, "compact")
        if figsize is None:
            figsize = COMPACT_FIGSIZE if self.compact else LARGE_FIGSIZE
        figsize = as_figure_size(figsize)
        robot = RobotAdapter.load(robot, base_link=base_link, ee_link=ee_link)
        self._adapter = RobotAdapter.of(robot)
        self.robot = robot
        self.q0 = self._adapter.home() if q is None else self._adapter.check_q(q)
        self._check_inside_limits(self.q0)
        self.singularity_threshold = threshold
        # The configuration shown, exact. The joint sliders show it rounded to whole degrees
        # or millimetres (integer sliders: see the module documentation), so they cannot hold
        # it: set_q and Reset put exact values here (and move the sliders to their rounding),
        # a slider step sets its joint here from its whole value (set_joint). _draw, the
        # read-outs and the Copy-q line read this array, never the sliders' values.
        self._q = self.q0.copy()

        figure = _widgets.new_figure(figsize, 100.0, live=canvas == "ipympl")
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=1.0)
        self.view = RobotView(self._adapter, self._q, ax=ax, options=options)
        self._build_pendant_widgets(ellipsoid, singularity_warning)
        # The live figure observes the sliders, builds the panel (_layout) and draws once.
        super().__init__(self._draw, self.view, self._joint_controls(), canvas=canvas)

    # --- construction -----------------------------------------------------------------------

    def _check_inside_limits(self, q: np.ndarray, name: str = "q") -> None:
        limits = self._adapter.shown_limits
        revolute = np.array([kind == "revolute" for kind in self._adapter.joint_kinds])
        inside = (limits[:, 0] - 1e-9 <= q) & (q <= limits[:, 1] + 1e-9)
        for i in np.flatnonzero(~inside):
            lo, hi = limits[i]
            unit = "rad" if revolute[i] else "m"
            message = (
                f"{name}[{i}] (joint {i + 1}, {self._adapter.joint_names[i]}) = {q[i]:g} {unit} "
                f"is outside the joint limits [{lo:g}, {hi:g}] {unit}"
            )
            in_radians = np.radians(q)
            if revolute.any() and np.all(
                ~revolute | ((limits[:, 0] <= in_radians) & (in_radians <= limits[:, 1]))
            ):
                message += "; it looks like degrees: angles are in radians (np.radians converts)"
            raise ValueError(message)

    def _slider_units(self, index: int) -> tuple[str, float]:
        """Unit name and factor from the joint's SI value to the slider's integer."""
        return joint_units(self._adapter.joint_kinds[index])

    def _build_pendant_widgets(self, ellipsoid: str | None, singularity_warning: bool) -> None:
        limits = self._adapter.shown_limits
        labels = [
            f"{name} ({self._slider_units(i)[0]})"
            for i, name in enumerate(self._adapter.joint_names)
        ]
        # one label width for all, the longest name whole (ipywidgets cuts with "…")
        label_width = _widgets.description_width(labels, minimum=JOINT_LABEL_WIDTH)
        track_width = max(
            JOINT_TRACK_MIN_WIDTH, JOINT_LABEL_WIDTH + JOINT_TRACK_WIDTH - label_width
        )
        self._labels_above = label_width > JOINT_LABEL_BESIDE_MAX
        if self._labels_above:  # long names: each above its slider, the track at full length
            label_width, track_width = 0, JOINT_LABEL_WIDTH + JOINT_TRACK_WIDTH
        self._joint_specs = [
            joint_slider(
                self.q0[i],
                limits[i],
                kind,
                label=label,
                tooltip=f"joint {i + 1}: {self._adapter.joint_names[i]}, {kind}",
                widths=(label_width, track_width),
                label_above=self._labels_above,
            )
            for i, (kind, label) in enumerate(zip(self._adapter.joint_kinds, labels, strict=True))
        ]
        self.sliders: list[widgets.IntSlider] = [spec.widget for spec in self._joint_specs]
        self.si_labels = [si_value_label() for _ in self.sliders]
        self._panel_width = max(410, label_width + track_width + SI_VALUE_WIDTH + 12)
        self.copy_button, self.q_text = copy_code_widgets(
            "Copy q", "q (radians / metres)", label_width + track_width + SI_VALUE_WIDTH
        )
        self.copy_button.on_click(self.on_copy_click)
        self.ellipsoid_buttons = widgets.ToggleButtons(
            options=list(_ELLIPSOID_OPTIONS),
            value="off" if ellipsoid is None else ellipsoid,
            tooltips=[
                "no manipulability ellipsoid",
                "velocity ellipsoid of the end-effector origin (linear part of J)",
                "force ellipsoid of the end-effector origin (linear part of J)",
            ],
            style={"button_width": "74px"},
        )
        self.ellipsoid_buttons.observe(self.on_ellipsoid_change, names="value")
        self.view.set_ellipsoid(ellipsoid, draw=False)
        self.singularity_checkbox = widgets.Checkbox(
            value=singularity_warning, description="Singularity warning", indent=False
        )
        self.singularity_checkbox.observe(self.on_singularity_toggle, names="value")
        self.warning = widgets.HTML()
        self.warning.add_class("robolab-warning")

    def _joint_controls(self) -> dict[str, Control]:
        """The sliders as live-figure controls ``q1`` … ``qn`` (values in radians / metres)."""
        return {f"q{i + 1}": spec for i, spec in enumerate(self._joint_specs)}

    def _layout(self) -> widgets.Box:
        """The pendant's panel: the figure, and beside it sliders, buttons, warning, read-out."""
        self.figure_widget = self.figure_widgets[0]
        self.readout = widgets.HTML()
        self.readout.add_class("robolab-readout")
        header = widgets.HTML(
            f"<b>{html.escape(self._adapter.name)}</b>: drag a slider or use the arrow keys.",
            layout=widgets.Layout(margin="0 0 2px 0"),
        )
        header.add_class("robolab-teach-header")
        rows: list[widgets.Widget] = [
            widgets.HBox([slider, label], layout=widgets.Layout(align_items="center"))
            for slider, label in zip(self.sliders, self.si_labels, strict=True)
        ]
        if self._labels_above:
            self.joint_labels = [
                widgets.HTML(
                    "<span style='font-size:12px;line-height:12px'>"
                    f"{html.escape(spec.label or '')}</span>",
                    layout=widgets.Layout(margin="0 0 0 4px", height="12px"),
                )
                for spec in self._joint_specs
            ]
            rows = [
                widgets.VBox([name, row], layout=widgets.Layout(overflow="visible"))
                for name, row in zip(self.joint_labels, rows, strict=True)
            ]
        controls = widgets.VBox(
            [
                header,
                *rows,
                widgets.HBox([self.reset_button, self.copy_button]),
                self.q_text,
                widgets.HBox(
                    [
                        widgets.Label("Ellipsoid", layout=widgets.Layout(width="62px")),
                        self.ellipsoid_buttons,
                    ]
                ),
                self.singularity_checkbox,
                self.warning,
                self.readout,
            ],
            layout=widgets.Layout(width=f"{self._panel_width}px"),
        )
        controls.add_class("robolab-teach-controls")
        widget = widgets.HBox(
            [self.figure_widget, controls],
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        widget.add_class("robolab-teach")
        return widget

    # --- callbacks (plain methods: call them, or set a slider's value) ----------------------

    def on_control_change(self, change: dict[str, Any]) -> None:
        """Observer of the joint sliders (the live figure's): see :meth:`on_slider_change`."""
        self.on_slider_change(change)

    def on_slider_change(self, change: dict[str, Any]) -> None:
        """Slider observer: the joint of ``change["owner"]`` moved to ``change["new"]``."""
        if self._syncing:
            return
        index = self.sliders.index(change["owner"])
        self.set_joint(index, change["new"])

    def on_ellipsoid_change(self, change: dict[str, Any]) -> None:
        """Ellipsoid-choice observer: ``"off"``, ``"velocity"`` or ``"force"``."""
        kind = change["new"]
        self.view.set_ellipsoid(None if kind == "off" else kind, draw=False)
        self.refresh()

    def on_singularity_toggle(self, change: dict[str, Any]) -> None:
        """Singularity-checkbox observer."""
        self.refresh()

    def on_copy_click(self, _button: Any = None) -> None:
        """Copy-button handler: :attr:`q_text` shows :meth:`q_code` of the exact ``q``.

        The browser copies the field's line to the clipboard when the button
        is clicked (a script of :func:`robolab.views.widgets.controls.key_guard`);
        where the clipboard is refused, the line stays selectable in the field.
        """
        self.q_text.value = self.q_code()

    def q_code(self) -> str:
        """The configuration shown as a line of Python (see :func:`q_code`).

        Examples
        --------
        >>> import robolab
        >>> pendant = robolab.teach(robolab.load_robot("planar2r"))
        >>> pendant.sliders[1].value = -45
        >>> pendant.q_code()
        'q = [0.0, -0.7854]'
        >>> pendant.q_text.value
        'q = [0.0, -0.7854]'
        """
        return q_code(self._q)

    # --- state ------------------------------------------------------------------------------

    @property
    def q(self) -> np.ndarray:
        """Current configuration in radians (revolute) and metres (prismatic)."""
        return self._q.copy()

    def set_joint(self, index: int, slider_value: float) -> None:
        """Set joint ``index`` (0-based) from a slider value (degrees or millimetres).

        Parameters
        ----------
        index : int
            The joint, 0..n-1 (an ``int``: a float or a bool is a ``TypeError``).
        slider_value : float
            Degrees (revolute) or millimetres (prismatic), a real number.

        Examples
        --------
        >>> import robolab
        >>> pendant = robolab.teach(robolab.load_robot("planar2r"))
        >>> pendant.set_joint(1, 90)
        >>> pendant.q.round(4)
        array([0.    , 1.5708])
        >>> pendant.set_joint(True, 90)
        Traceback (most recent call last):
        ...
        TypeError: index must be an int, got the boolean True
        """
        index = require_int(index, "index")
        if not 0 <= index < self._adapter.dof:
            raise IndexError(f"index must be a joint index 0..{self._adapter.dof - 1}, got {index}")
        value = as_real_number(slider_value, "slider_value")
        _, factor = self._slider_units(index)
        self._q[index] = value / factor
        self.refresh()

    def set_q(self, q: ArrayLike) -> None:
        """Move to configuration ``q`` (radians / metres) and show it; the sliders follow.

        The sliders show ``q`` rounded to whole degrees or millimetres; the
        pendant keeps and draws the exact values.
        """
        q = as_float_array(q, "q", (self._adapter.dof,))
        self._check_inside_limits(q, "q")
        self._q = q.copy()
        values = {}
        for i, slider in enumerate(self.sliders):
            _, factor = self._slider_units(i)
            values[f"q{i + 1}"] = int(np.clip(np.round(q[i] * factor), slider.min, slider.max))
        self.set_values(**values)  # the sliders follow, with one update and one redraw

    def reset(self) -> None:
        """Back to the initial configuration :attr:`q0` (the ``q`` the pendant was opened at)."""
        self.set_q(self.q0)

    def _draw(self, **_joints: float) -> None:
        """The live figure's update: the view to :attr:`q` (the exact values, not the sliders').

        The sliders' values (``_joints``, whole degrees or millimetres) are not read: the
        exact configuration is ``self._q`` (see ``__init__``), which a slider step has
        already set. One snapshot of the arm (:attr:`RobotView.snapshot`): the read-out, the
        ellipsoid and the singularity check all read it, so a slider step
        computes one Jacobian and one singular value decomposition.
        """
        self.view.update(self._q, draw=False)
        self.warning.value = self.singularity_html() if self.singularity_checkbox.value else ""
        for i, label in enumerate(self.si_labels):
            label.value = si_text(self._q[i], self._adapter.joint_kinds[i])
        self.q_text.value = self.q_code()

    # --- read-outs --------------------------------------------------------------------------

    def singular_values(self) -> np.ndarray:
        """Singular values of the robot's Jacobian at the current configuration (descending).

        For a DH robot this is ``J`` (rows [v; ω], base frame), for a screw
        robot ``J_s`` (rows [ω; v], space frame); the two have the same rank.
        """
        return self._decomposition().jacobian_sigma.copy()

    def singularity_margin(self) -> tuple[float, str]:
        """How far from a singularity: the smallest ratio ``σ_r / σ_1`` and what it measures.

        Two Jacobians are watched: the whole ``J`` (moving and turning) and
        its linear part (moving the end-effector origin, base frame), each
        with ``r`` its rank at a generic configuration. The linear part
        catches the positioning singularities of arms with fewer than six
        joints (a stretched planar 2R arm keeps a full-rank 6×2 ``J``).

        Returns
        -------
        margin : float
            ``min(σ_r/σ_1)`` over the two; 0 at a singularity.
        which : str
            ``"J"`` or ``"the linear part of J"``.
        """
        return singularity_margin(self._decomposition(), self._adapter.generic_ranks())

    def _decomposition(self) -> Decomposition:
        """The SVD of J and of its linear part at the configuration shown (computed once)."""
        return self.view.snapshot.decomposition

    def near_singularity(self) -> bool:
        """True when :meth:`singularity_margin` is below ``singularity_threshold``."""
        return self.singularity_margin()[0] < self.singularity_threshold

    def pose(self) -> dict[str, np.ndarray]:
        """The read-out as numbers: ``T`` (4×4), ``position`` (m), ``rpy`` (rad), ``q``."""
        T = self.view.end_effector_pose
        return {
            "T": T,
            "position": T[:3, 3].copy(),
            "rpy": rotation_to_rpy(T[:3, :3]),
            "q": self.q,
        }

    def _frames(self) -> tuple[str, str]:
        names = self._adapter.frame_names
        return names[0], names[-1]

    def _joint_text(self) -> list[str]:
        parts = []
        for i, value in enumerate(self._q):
            if self._adapter.joint_kinds[i] == "revolute":
                parts.append(
                    f"{self._adapter.joint_names[i]} = {clean_number(np.degrees(value), 1):.1f}°"
                )
            else:
                parts.append(f"{self._adapter.joint_names[i]} = {clean_number(value, 4):.4f} m")
        return parts

    def readout_text(self) -> str:
        """The read-out as plain text (also the pendant's text rendering)."""
        pose = self.pose()
        base, end = self._frames()
        rows = [
            "  [" + "  ".join(f"{clean_number(v, 3):7.3f}" for v in row) + "]" for row in pose["T"]
        ]
        lines = [
            f"Teach pendant: {self._adapter.name} ({self._adapter.description})",
            f"pose of the end-effector frame {end} in {base} (metres):",
            *rows,
            f"position = {format_vector(pose['position'], 4)} m, in {base}",
            f"roll, pitch, yaw = {format_vector(np.degrees(pose['rpy']), 2)} deg "
            "(R = Rz(yaw) Ry(pitch) Rx(roll))",
            "joints: " + ", ".join(self._joint_text()),
        ]
        if self.view.ellipsoid_kind is not None:
            lines.append(self._ellipsoid_text())
        if self.singularity_checkbox.value:
            margin, which = self.singularity_margin()
            if margin < self.singularity_threshold:
                lines.append(self._singularity_sentence(margin, which))
        return "\n".join(lines)

    def _singularity_sentence(self, margin: float, which: str) -> str:
        """What is lost at or near a singularity, in words (see :func:`singularity_sentence`)."""
        return singularity_sentence(
            self._decomposition(),
            self._adapter.generic_ranks(),
            margin,
            which,
            self.singularity_threshold,
            self._frames()[0],
        )

    def _ellipsoid_text(self) -> str:
        kind = self.view.ellipsoid_kind
        radii = self.view.ellipsoid_radii
        shown = ", ".join("∞" if not np.isfinite(r) else f"{clean_number(r, 3):.3f}" for r in radii)
        unit = "m/s per unit joint speed" if kind == "velocity" else "N per unit joint torque"
        return (
            f"{kind} ellipsoid of the end-effector origin (linear part of J, base frame): "
            f"radii {shown} {unit}; drawn {self.view.ellipsoid_scale:.3g} m per unit"
        )

    def readout_html(self) -> str:
        """The read-out as HTML (the ``readout`` widget's value)."""
        pose = self.pose()
        base, end = self._frames()
        cells = "".join(
            "<tr>" + "".join(f"<td>{clean_number(v, 3):.3f}</td>" for v in row) + "</tr>"
            for row in pose["T"]
        )
        style = (
            "<style>.robolab-readout td{padding:0 6px;text-align:right;font-family:monospace}"
            ".robolab-readout{font-size:12px;line-height:1.35}</style>"
        )
        parts = [
            style,
            '<div class="robolab-readout">',
            f"<div>pose of the end-effector frame {end} in {base} (metres):</div>",
            f'<table class="robolab-pose">{cells}</table>',
            f'<div class="robolab-position">position = {format_vector(pose["position"], 4)} m, '
            f"in {base}</div>",
            f"<div>roll, pitch, yaw = {format_vector(np.degrees(pose['rpy']), 2)}° "
            "<small>(R = Rz(yaw) Ry(pitch) Rx(roll))</small></div>",
            "<div>joints: " + html.escape(", ".join(self._joint_text())) + "</div>",
        ]
        if self.view.ellipsoid_kind is not None:
            parts.append(f"<div><small>{html.escape(self._ellipsoid_text())}</small></div>")
        parts.append("</div>")
        return "".join(parts)

    def singularity_html(self) -> str:
        """The singularity line (HTML): a warning near a singularity, else the margin."""
        margin, which = self.singularity_margin()  # from the snapshot's one SVD
        if margin < self.singularity_threshold:
            return margin_html(self._singularity_sentence(margin, which), near=True)
        return margin_html(regular_sentence(margin, which, self.singularity_threshold))

    # --- display ----------------------------------------------------------------------------

    def static_png(self) -> bytes:
        """The picture of the static rendering: the view without its caption, margins cut away.

        The caption's words (robot, convention, frame) head the read-out
        beside it; the live figure keeps its caption and size.
        """
        caption = self.view.caption
        shown = caption.get_visible()
        caption.set_visible(False)
        try:
            return _widgets.figure_png(self.view.figure, crop=True)
        finally:
            caption.set_visible(shown)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        text = self.readout_text()
        page = (
            _widgets.png_html(self.static_png(), self._adapter.name)
            + f"<pre>{html.escape(text)}</pre>"
        )
        return _widgets.widget_bundle(self.widget, {"text/plain": text, "text/html": page})

    def __repr__(self) -> str:
        return f"<TeachPendant of {self._adapter.name!r}, {self.canvas_kind} canvas>"


@renamed_keywords(q0="q")
def teach(
    robot: RobotLike,
    q: Sequence[float] | np.ndarray | None = None,
    *,
    ellipsoid: str | None = None,
    singularity_warning: bool = True,
    singularity_threshold: float = 1e-2,
    frames: str = "all",
    shadow: bool = True,
    elev: float = 25.0,
    azim: float = -55.0,
    limits: Sequence[float] | None = None,
    zoom: float = 1.0,
    figsize: tuple[float, float] | None = None,
    canvas: str = "auto",
    compact: bool = True,
    base_link: str | None = None,
    ee_link: str | None = None,
) -> TeachPendant:
    """Open a teach pendant: joint sliders, a live 3D view and the end-effector pose.

    Put it last in a cell (or ``display`` it). Works under the inline backend
    and under ``%matplotlib widget``; see the module documentation.

    Parameters
    ----------
    robot : DHRobot or ScrewRobot, or str or path-like
        The arm to move (numeric parameters), or what :func:`robolab.load_robot` loads
        it from: a bundled robot's name, a model file's or a URDF's path
        (``robolab.teach("my_arm.urdf", ee_link="tool0")``).
    q : array_like, shape (n,), optional
        Initial configuration in radians / metres (default zero, moved into
        the limits); Reset returns here. (``q0=`` is its old name.)
    ellipsoid : {None, "velocity", "force"}
        Manipulability ellipsoid shown at start (there is a switch).
    singularity_warning : bool
        Show a warning near a singularity (see
        :meth:`TeachPendant.singularity_margin`): "At a singularity" when
        ``σ_r/σ_1`` is round-off (below 1e-12, shown as ``< 1e-12``), else
        "Near a singularity", with the motion that is lost and, when there
        is a single one, the joint velocity that moves the end-effector least.
    singularity_threshold : float
        Ratio ``σ_r/σ_1`` of singular values of the Jacobian below which the
        arm counts as near a singularity (default 0.01).
    frames : {"all", "ends", "none"}
        Which frames get triads (see :func:`robolab.plot_robot`).
    shadow : bool
        Draw the shadow on the floor.
    elev, azim : float
        Viewing angles in degrees (see :func:`robolab.plot_robot`).
    limits : (xmin, xmax, ymin, ymax, zmin, zmax), optional
        Axis limits in metres; default a box around the whole workspace.
    zoom : float
        Magnification: 1 (default) fits the whole workspace into the
        figure; 1.5 magnifies about the arm at ``q`` (see
        :func:`robolab.plot_robot`).
    figsize : (float, float), optional
        Figure size in inches at 100 dpi; default 400 × 400 pixels
        (``compact=True``) or 500 × 500.
    canvas : {"auto", "ipympl", "image"}
        ``"auto"`` follows the active backend (ipympl canvas under
        ``%matplotlib widget``, otherwise a PNG image widget); ``"ipympl"``
        is refused under any other backend (robolab never switches it).
    base_link, ee_link : str, optional
        For a URDF's path: the base link and the end-effector link that choose the chain
        (:func:`robolab.load_robot`).
    compact : bool
        True (default): a view and controls that fit side by side in a
        JupyterLab at 1024 × 768 (file browser closed) or 1300 pixels wide
        (file browser open). False: the larger 500-pixel view, for wide
        screens (the controls go below it on a small one).

    Returns
    -------
    TeachPendant

    Examples
    --------
    Kernel-side, exactly what a browser does (in a notebook, show ``pendant``):

    >>> import robolab
    >>> puma = robolab.load_robot("puma560", form="dh")
    >>> pendant = robolab.teach(puma)
    >>> pendant.sliders[1].value = 30  # joint 2 to 30 degrees
    >>> pendant.q.round(4)
    array([0.    , 0.5236, 0.    , 0.    , 0.    , 0.    ])
    >>> print(pendant.readout_text().splitlines()[6])
    position = (0.1756, -0.1500, 1.2718) m, in {0}
    >>> pendant.reset_button.click()
    >>> pendant.near_singularity()  # q5 = 0: the wrist axes 4 and 6 line up
    True
    """
    return TeachPendant(
        robot,
        q,
        options=ViewOptions(frames, shadow, elev, azim, limits, zoom),
        ellipsoid=ellipsoid,
        singularity_warning=singularity_warning,
        singularity_threshold=singularity_threshold,
        figsize=figsize,
        canvas=canvas,
        compact=compact,
        base_link=base_link,
        ee_link=ee_link,
    )
