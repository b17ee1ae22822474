"""Live figures, kernel-side: controls, the update call, redraws, Reset, fallbacks and errors."""

from __future__ import annotations

import math

import ipywidgets as widgets
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from widget_support import WIDGET_VIEW, pixels

import robolab
from robolab.support import widgets as _widgets
from robolab.views.drawing.frame_pictures import TRIAD_COLOURS, draw_frame, frame_axes
from robolab.views.widgets.controls import COMPACT_TRACK_WIDTH
from robolab.views.widgets.live_figure import (
    LABEL_WIDTH,
    TRACK_WIDTH,
    LiveFigure,
    angle_slider,
    choice_buttons,
    live_figure,
    matrix_html,
    number_slider,
)

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


class Recorder:
    """An update function that records its calls and moves one frame about z."""

    def __init__(self, ax):
        self.frame = draw_frame(ax, np.eye(4), "b", length=0.8)
        self.calls: list[dict] = []

    def __call__(self, yaw, lift):
        self.calls.append({"yaw": yaw, "lift": lift})
        T = robolab.transl(0.0, 0.0, lift) @ robolab.trotz(yaw)
        self.frame.set_pose(T)
        return f"<p>yaw = {math.degrees(yaw):.0f}&deg;</p>{matrix_html(T, decimals=2)}"


@pytest.fixture
def panel():
    ax = frame_axes((-1, 1), title="a frame about z")
    recorder = Recorder(ax)
    controls = {
        "yaw": angle_slider(30, step=5),
        "lift": number_slider(0.2, 0.0, 0.5, 0.05, unit="m"),
    }
    return live_figure(recorder, ax, controls, title="Turn and lift"), recorder


# --- the panel ----------------------------------------------------------------------------------


def test_update_is_called_once_with_the_controls_as_keyword_arguments(panel):
    live, recorder = panel
    assert recorder.calls == [{"yaw": math.radians(30), "lift": 0.2}]
    assert live.updates == 1
    assert live.controls["yaw"].description == "yaw (°)"
    assert live.controls["lift"].description == "lift (m)"
    assert live.values == {"yaw": math.radians(30), "lift": 0.2}


def test_moving_a_slider_moves_the_artists_and_the_readout(panel):
    live, recorder = panel
    line = recorder.frame.lines[0]
    readout = live.readout.value
    live.controls["yaw"].value = 90  # what a drag or an arrow key does
    assert recorder.frame.lines[0] is line  # moved in place
    x_axis = np.column_stack(line.get_data_3d())
    np.testing.assert_allclose(x_axis, [[0, 0, 0.2], [0, 0.8, 0.2]], atol=1e-12)
    assert live.readout.value != readout
    assert live.readout_text().splitlines()[0] == "yaw = 90°"
    assert live.updates == 2
    live.controls["lift"].index += 1
    assert recorder.calls[-1] == {"yaw": math.radians(90), "lift": 0.25}
    np.testing.assert_allclose(recorder.frame.pose[:3, 3], [0, 0, 0.25], atol=1e-12)


def test_readout_text_of_a_matrix_table(panel):
    live, _ = panel
    live.set_values(yaw=0, lift=0.5)
    assert live.readout_text().splitlines() == [
        "yaw = 0°",
        "1.00  0.00  0.00  0.00",
        "0.00  1.00  0.00  0.00",
        "0.00  0.00  1.00  0.50",
        "0.00  0.00  0.00  1.00",
    ]
    live.set_values(yaw=90)
    assert live.readout_text().splitlines()[1:3] == [
        "0.00  -1.00  0.00  0.00",
        "1.00   0.00  0.00  0.00",
    ]  # columns right-aligned


def test_the_figure_is_redrawn_once_per_change_with_newpixels(panel):
    live, _ = panel
    assert live.canvas_kind == "image"  # test mode
    image = live.figure_widgets[0]
    assert isinstance(image, widgets.Image)
    before = pixels(image.value)
    assert before.shape == (360, 400, 3)  # 5.0 × 4.5 inches at 80 dpi
    live.controls["yaw"].value = 60  # x_b across the line of sight, so it shows
    after = pixels(image.value)
    assert (before != after).any()
    # the frame's x axis is drawn in vermillion, in both pictures
    vermillion = np.array(matplotlib.colors.to_rgb(TRIAD_COLOURS[0])) * 255
    for picture in (before, after):
        assert (np.abs(picture - vermillion).max(axis=2) < 12).sum() > 20


def test_set_values_and_reset_update_once(panel):
    live, recorder = panel
    live.set_values(yaw=-90, lift=0.4)
    assert live.updates == 2 and live.controls["yaw"].value == -90
    live.reset_button.click()
    assert live.updates == 3
    assert live.values == {"yaw": math.radians(30), "lift": 0.2}
    assert recorder.calls[-1] == {"yaw": math.radians(30), "lift": 0.2}
    with pytest.raises(ValueError, match=r"no control named 'roll'; the controls are yaw, lift"):
        live.set_values(roll=3)


def test_every_callback_is_a_plain_method(panel):
    live, _ = panel
    live.controls["yaw"].value = 0
    live.on_control_change({"owner": live.controls["yaw"], "new": 0})
    assert live.updates == 3
    live.on_reset_click()
    assert live.values["yaw"] == math.radians(30)


def test_pyplot_forgets_the_figures_it_shows_so_no_backend_shows_them_twice():
    ax = frame_axes()
    figure = ax.figure
    assert figure.number in plt.get_fignums()
    live = live_figure(lambda angle: None, ax, {"angle": angle_slider()})
    assert figure.number not in plt.get_fignums()
    assert live.figures == [figure]
    assert live.readout.value == "" and live.readout_text() == ""


def test_text_readout_is_escaped_and_kept():
    live = live_figure(
        lambda n: f"n = {n} < 5" if n < 5 else f"n = {n}",
        None,
        {"n": number_slider(2, 0, 9, 1)},
        readout="text",
    )
    assert live.readout_text() == "n = 2 < 5"
    assert live.readout.value.startswith('<pre class="robolab-live-text"')
    assert "n = 2 &lt; 5" in live.readout.value
    assert live.figures == [] and live.figure_widgets == []


def test_several_figures_and_a_robot_view():
    puma = robolab.load_robot("puma560", form="dh")
    view = robolab.plot_robot(puma, np.zeros(6))
    ax = frame_axes((-1, 1))
    goal = draw_frame(ax, np.eye(4), "e")

    def move(q1, q2):
        q = np.array([q1, q2, 0.0, 0.0, 0.0, 0.0])
        view.update(q, draw=False)
        goal.set_pose(view.end_effector_pose)
        return "p = " + np.array2string(view.end_effector_pose[:3, 3], precision=3)

    live = live_figure(move, [view, ax], {"q1": angle_slider(0), "q2": angle_slider(0)})
    assert live.figures == [view.figure, ax.figure]
    first = [pixels(w.value) for w in live.figure_widgets]
    live.controls["q2"].value = 45
    expected = puma.numeric().forward_kinematics([0, np.radians(45), 0, 0, 0, 0])
    np.testing.assert_allclose(view.end_effector_pose, expected, atol=1e-12)
    np.testing.assert_allclose(goal.pose, expected, atol=1e-12)
    assert live.readout_text() == "p = " + np.array2string(expected[:3, 3], precision=3)
    for before, shown in zip(first, live.figure_widgets, strict=True):
        assert (before != pixels(shown.value)).any()


def test_display_is_static_in_test_mode_and_a_widget_in_a_kernel(panel, kernel_bundle):
    live, _ = panel
    bundle = live._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/plain"].splitlines()[:2] == [
        "Turn and lift at yaw = 30°, lift = 0.20 m",
        "yaw = 30°",
    ]
    page = bundle["text/html"]
    assert "shown at yaw = 30°, lift = 0.20 m; run the notebook" in page
    assert page.count('<img src="data:image/png;base64,') == 1
    assert live.readout.value in page
    bundle = kernel_bundle(live)
    assert bundle[WIDGET_VIEW]["model_id"] == live.widget.model_id
    assert "text/html" in bundle and "text/plain" in bundle


def test_ipympl_canvas_is_redrawn_in_place(widget_backend):
    from ipympl.backend_nbagg import Canvas

    figure = _widgets.new_figure((3.0, 3.0), 80.0, live=True)
    ax = frame_axes((-1, 1), ax=figure.add_subplot(projection="3d"))
    frame = draw_frame(ax, np.eye(4), "b")
    live = live_figure(
        lambda yaw: frame.set_pose(robolab.rotz(yaw)),
        ax,
        {"yaw": angle_slider(0)},
        canvas="ipympl",
    )
    assert live.canvas_kind == "ipympl"
    canvas = live.figure_widgets[0]
    assert isinstance(canvas, Canvas) and canvas is figure.canvas
    first = canvas._data_url
    assert first.startswith("data:image/png;base64,")
    live.controls["yaw"].value = 60
    assert canvas._data_url != first


def test_an_agg_figure_under_the_widget_backend_is_sent_as_png(monkeypatch):
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "widget")
    ax = frame_axes()  # made under Agg here: no live canvas to show
    live = live_figure(lambda a: None, ax, {"a": angle_slider()}, canvas="ipympl")
    assert isinstance(live.figure_widgets[0], widgets.Image)


def test_a_plain_ipywidgets_control_is_passed_on_unchanged():
    seen = []
    dropdown = widgets.Dropdown(options=["x", "y", "z"], value="y")
    live = live_figure(lambda axis: seen.append(axis), None, {"axis": dropdown})
    assert dropdown.description == "axis"
    dropdown.value = "z"
    assert seen == ["y", "z"] and live.values == {"axis": "z"}


# --- layout: whole labels, aligned sliders, a read-out that scrolls ------------------------------

#: Labels and their widths in JupyterLab 4.6 (Debian's Chromium, DejaVu Sans at 13 px), measured
#: in the browser as the label's scrollWidth; a 90 px description cut both with "…".
BROWSER_LABEL_WIDTHS = {"elbow angle q2 (degrees) (°)": 187, "shoulder offset d2 (m)": 145}


def test_long_labels_widen_every_label_and_keep_the_sliders_aligned():
    live = live_figure(
        lambda elbow, offset, convention, axis: None,
        None,
        {
            "elbow": angle_slider(30, step=5, label="elbow angle q2 (degrees)"),
            "offset": number_slider(0.2, 0.0, 0.5, 0.05, unit="m", label="shoulder offset d2"),
            "convention": choice_buttons(["standard", "modified"], label="DH convention"),
            "axis": widgets.Dropdown(options=["x", "y"]),
        },
    )
    elbow, offset, convention, axis = live.controls.values()
    assert (elbow.description, offset.description) == tuple(BROWSER_LABEL_WIDTHS)
    assert live.label_width >= max(BROWSER_LABEL_WIDTHS.values())
    # one width for every label, so the tracks and the buttons start at the same place
    assert {w.style.description_width for w in live.controls.values()} == {f"{live.label_width}px"}
    for slider in (elbow, offset):  # the tracks keep their length
        assert slider.layout.width == f"{live.label_width + TRACK_WIDTH}px"
    assert axis.layout.width is None  # a plain widget keeps its own width
    assert "widget-inline-hbox" in convention._dom_classes  # the buttons beside their label


def test_short_labels_keep_the_narrow_layout(panel):
    live, _ = panel
    assert live.label_width == LABEL_WIDTH
    for slider in live.controls.values():
        assert slider.style.description_width == f"{LABEL_WIDTH}px"
        assert slider.layout.width == f"{LABEL_WIDTH + TRACK_WIDTH}px"
        assert slider.layout.max_width == "100%"  # and shorter in a narrow panel


def test_the_panel_sits_beside_a_500_pixel_figure_in_1024_by_768(panel):
    # JupyterLab 4.6 at 1024 x 768 (file browser closed): an output area 844 px wide, measured
    # in Chromium. frame_axes' figures are 500 px wide (ipympl adds 10 for its toolbar).
    live, _ = panel
    controls = live.widget.children[-2]
    least = int(controls.layout.min_width.removesuffix("px"))
    assert least == LABEL_WIDTH + COMPACT_TRACK_WIDTH + 10
    assert 510 + least <= 844
    assert "row wrap" in live.widget.layout.flex_flow  # below the figure only when narrower


def test_a_wide_readout_scrolls_sideways_instead_of_being_cut(panel):
    live, _ = panel
    assert live.readout.layout.overflow == "auto"
    controls = live.widget.children[-2]  # the last is the invisible key guard
    assert live.readout in controls.children
    assert controls.layout.max_width is None  # nothing cuts the panel to a fixed width
    # the panel is never narrower than its sliders at their compact length (they shorten to
    # fit it: max_width 100 %); a wider read-out scrolls inside it
    least = live.label_width + COMPACT_TRACK_WIDTH
    assert int(controls.layout.min_width.removesuffix("px")) >= least


@pytest.mark.parametrize(
    ("update", "controls", "kwargs", "error", "message"),
    [
        (
            lambda roll: None,
            {"pitch": angle_slider()},
            {},
            ValueError,
            r"<lambda>\(\) has no parameter named 'pitch': it is called with the controls as "
            r"keyword arguments \(pitch\)",
        ),
        (
            lambda roll, pitch: None,
            {"roll": angle_slider()},
            {},
            ValueError,
            r"<lambda>\(\) needs 'pitch', which no control gives \(controls: roll\)",
        ),
        (lambda a: None, {}, {}, ValueError, r"controls must be a dict of at least one name"),
        (lambda a: None, {"a b": angle_slider()}, {}, ValueError, r"must be Python names"),
        (
            lambda a: None,
            {"a": angle_slider()},
            {"readout": "latex"},
            ValueError,
            r"readout must be one of \['html', 'text'\], got 'latex'",
        ),
        ("show", {"a": angle_slider()}, {}, TypeError, r"update must be a function, got str"),
    ],
)
def test_bad_panels_are_refused_with_a_message(update, controls, kwargs, error, message):
    with pytest.raises(error, match=message):
        live_figure(update, None, controls, **kwargs)


def test_figures_must_be_figures():
    with pytest.raises(TypeError, match=r"figures\[1\] must be a matplotlib Figure, an Axes"):
        live_figure(lambda a: None, [frame_axes(), "figure"], {"a": angle_slider()})


def test_update_with_extra_keyword_arguments_is_accepted():
    seen = []
    live_figure(lambda **values: seen.append(values), None, {"a": angle_slider(10)})
    assert seen == [{"a": math.radians(10)}]


def test_matrix_html_rounds_without_negative_zero():
    table = matrix_html([[1.0, -1e-17, -0.5]], decimals=1)
    assert table.count("<tr>") == 1
    cells = [cell.split(">")[1] for cell in table.split("<td")[1:]]
    assert [cell.split("<")[0] for cell in cells] == ["1.0", "0.0", "-0.5"]
    with pytest.raises(ValueError, match=r"matrix must be 1- or 2-dimensional, got shape"):
        matrix_html(np.zeros((2, 2, 2)))


def test_live_figure_is_a_class_with_a_function_in_front():
    assert isinstance(
        live_figure(lambda a: None, None, {"a": angle_slider()}),
        LiveFigure,
    )


def test_one_draw_per_step_even_when_pyplot_is_interactive():
    # pyplot redraws a stale figure in interactive mode; a live figure draws it itself, once.
    with plt.ion():
        ax = frame_axes((-1, 1))
        frame = draw_frame(ax, np.eye(4), "b")
        live = live_figure(
            lambda yaw: frame.set_pose(robolab.rotz(yaw)), ax, {"yaw": angle_slider(0)}
        )
        draws = []
        ax.figure.canvas.mpl_connect("draw_event", lambda event: draws.append(event))
        for value in (10, 20, 30):
            live.controls["yaw"].value = value
    assert len(draws) == 3
    assert ax.figure.stale_callback is None


def test_every_control_keeps_its_keys_and_the_panel_carries_the_key_guard(panel):
    # Notebook 7 matches shortcuts before a focused slider sees the key (issue 17): each
    # control gets the class the guard's script looks for, and the panel ends with the guard
    from robolab.views.widgets.controls import OWN_KEYS_CLASS

    live, _ = panel
    assert all(OWN_KEYS_CLASS in widget._dom_classes for widget in live.controls.values())
    guard = live.widget.children[-1]
    assert isinstance(guard, widgets.Output)
    assert "robolab-key-guard" in guard._dom_classes
    assert "data-lm-suppress-shortcuts" in guard.outputs[0]["data"]["application/javascript"]
