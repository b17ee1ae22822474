"""Partial redraws: a saved background, the moving artists and a blended legend give the
pixels of matplotlib's own full draw (the reference), frame after frame."""

from __future__ import annotations

import io
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from widget_support import pixels

from robolab.views._fast.partial_redraw import PartialRedraw
from robolab.views.chapters.joint_tuner import joint_tuner

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _full(figure) -> np.ndarray:
    FigureCanvasAgg.draw(figure.canvas)
    return np.asarray(figure.canvas.buffer_rgba()).copy()


def _partial(redraw) -> np.ndarray:
    redraw.draw()
    return np.asarray(redraw.figure.canvas.buffer_rgba()).copy()


def _plot():
    figure = Figure(figsize=(4.0, 3.0), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    t = np.linspace(0.0, 2.0, 201)
    (line,) = ax.plot(t, np.sin(t), lw=1.8, label="q")
    ax.set_xlim(0.0, 2.0)
    ax.grid(alpha=0.3)
    legend = ax.legend(loc="lower right", frameon=False)
    redraw = PartialRedraw(
        figure, moving=[ax.yaxis, line], over=list(ax.spines.values()), layers=[legend]
    )
    return figure, ax, t, line, redraw


def test_every_frame_has_the_pixels_of_a_full_draw():
    figure, ax, t, line, redraw = _plot()
    for k, gain in enumerate((1.0, 3.0, 0.2, -2.0, 8.0)):  # new data, new y-ticks and labels
        line.set_ydata(gain * np.sin(3 * t))
        ax.set_ylim(-abs(gain) - 0.1, abs(gain) + 0.1)
        quick = _partial(redraw)
        full = _full(figure)
        difference = np.abs(quick.astype(int) - full.astype(int))
        assert difference.max() <= 1, k  # the blended legend: one level of rounding at most
        rows, columns = np.nonzero(difference.max(axis=2))
        box = ax.get_legend().get_window_extent()  # display pixels, y up
        assert np.all((columns >= box.x0 - 2) & (columns <= box.x1 + 2)), k
        assert np.all(
            (figure.bbox.height - rows >= box.y0 - 2) & (figure.bbox.height - rows <= box.y1 + 2)
        ), k
    assert redraw.backgrounds_drawn == 1


def test_the_background_is_drawn_again_after_a_resize_or_new_x_limits():
    figure, ax, _, _, redraw = _plot()
    _partial(redraw)
    ax.set_xlim(0.5, 1.5)  # a zoom in the toolbar
    quick = _partial(redraw)
    assert redraw.backgrounds_drawn == 2
    assert np.abs(quick.astype(int) - _full(figure).astype(int)).max() <= 1
    figure.set_size_inches(5.0, 3.0)
    quick = _partial(redraw)
    assert redraw.backgrounds_drawn == 3
    assert quick.shape == (300, 500, 4)
    assert np.abs(quick.astype(int) - _full(figure).astype(int)).max() <= 1
    _partial(redraw)
    assert redraw.backgrounds_drawn == 3


def test_a_partial_redraw_needs_an_agg_canvas():
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    figure = Figure()
    FigureCanvasSVG(figure)
    with pytest.raises(
        TypeError, match="figure must have an Agg-based canvas, got FigureCanvasSVG"
    ):
        PartialRedraw(figure, moving=[])


def _first_order(kp, kd, ki, gear_ratio, payload):
    t = np.linspace(0.0, 1.0, 1001)
    q = 0.05 * (1 - np.exp(-kp * t) * np.cos(kd * t))
    metrics = SimpleNamespace(
        rise_time=2.2 / kp,
        overshoot=0.0,
        peak_time=0.9,
        settling_time=3.9 / kp,
        steady_state_error=0.05 - q[-1],
    )
    return SimpleNamespace(
        times=t,
        positions=q,
        motor_torque=kp * (0.05 - q) * gear_ratio,
        target=0.05,
        torque_limit=2.5,
        damping_ratio=1.0,
        natural_frequency=kp,
        metrics=metrics,
    )


def test_the_joint_tuner_sends_the_pixels_of_a_full_draw():
    from robolab.support import widgets as _widgets

    _widgets.set_test_mode(False)
    try:
        tuner = joint_tuner(
            _first_order,
            Kp=(10, 5, 40, 1),
            Kd=(0, 0, 30, 1),
            Ki=(0, 0, 1, 0.1),
            gear_ratio=(100, 50, 150, 10),
            payload=(0, 0, 5, 0.5),
            duration=1.0,
            canvas="image",
        )
    finally:
        _widgets.set_test_mode(None)
    figure = tuner.figures[0]
    for name, value in (("kp", 20), ("kd", 12), ("kp", 6), ("gear_ratio", 150)):
        tuner.controls[name].value = value
        sent = pixels(tuner.figure_widgets[0].value)
        full = _full(figure)[..., :3]
        difference = np.abs(sent.astype(int) - full.astype(int)).max(axis=2)
        # the band is drawn over the x-grid lines, not under them: two grey levels there
        assert difference.max() <= 2, name
        assert np.count_nonzero(difference) < 300, name
    assert tuner._partial is not None and tuner._partial.backgrounds_drawn == 1


def test_the_joint_tuner_on_a_live_canvas_sends_diffs_of_its_partial_frames(widget_backend):
    from PIL import Image

    from robolab.support import widgets as _widgets

    _widgets.set_test_mode(False)
    try:
        tuner = joint_tuner(
            _first_order,
            Kp=(10, 5, 40, 1),
            Kd=(0, 0, 30, 1),
            Ki=(0, 0, 1, 0.1),
            gear_ratio=(100, 50, 150, 10),
            payload=(0, 0, 5, 0.5),
            duration=1.0,
            canvas="ipympl",
        )
    finally:
        _widgets.set_test_mode(None)
    canvas = tuner.figures[0].canvas
    canvas.syncing_data_url = False  # as once a browser has attached
    sent = []
    canvas.send_binary = lambda data: sent.append((canvas._current_image_mode, data))
    canvas._force_full = True
    shown = None
    for value in (20, 30, 8):
        tuner.controls["kp"].value = value
        mode, png = sent[-1]
        image = Image.open(io.BytesIO(png)).convert("RGBA")
        if shown is None:
            assert mode == "full"
            shown = image
        else:
            assert mode == "diff"
            shown.alpha_composite(image, (0, 0))  # what the browser's canvas does
        drawn = np.asarray(canvas.get_renderer().buffer_rgba())
        np.testing.assert_array_equal(np.asarray(shown), drawn)
        full = _full(tuner.figures[0])
        assert np.abs(drawn.astype(int) - full.astype(int)).max() <= 2
    assert len(sent) == 3 and tuner._partial.backgrounds_drawn == 1


def test_the_teach_pendant_sends_the_pixels_of_a_full_draw():
    import robolab
    from robolab.support import widgets as _widgets

    puma = robolab.load_robot("puma560", form="dh")
    _widgets.set_test_mode(False)
    try:
        pendant = robolab.teach(
            puma,
            np.radians([20, 30, -60, 10, 45, 0]),
            canvas="image",
            ellipsoid="velocity",
            zoom=1.5,
        )
    finally:
        _widgets.set_test_mode(None)
    figure = pendant.view.figure
    for joint, value in ((0, 60), (2, -100), (4, 5), (0, -150)):
        pendant.sliders[joint].value = value
        sent = pixels(pendant.figure_widget.value)
        full = _full(figure)[..., :3]
        assert np.abs(sent.astype(int) - full.astype(int)).max() <= 1  # the caption's blend
    assert pendant.view._partial.backgrounds_drawn == 1
    pendant.view.axes.view_init(elev=40, azim=10)  # turned (a drag in ipympl)
    pendant.sliders[1].value = 45
    assert pendant.view._partial.backgrounds_drawn == 2
    full = _full(figure)[..., :3]
    assert np.abs(pixels(pendant.figure_widget.value).astype(int) - full.astype(int)).max() <= 1


def test_a_view_with_artists_of_its_own_is_drawn_whole():
    import robolab

    view = robolab.plot_robot(robolab.load_robot("planar2r"))
    assert view.frame_drawer() is not None
    view.axes.plot([0.0], [0.0], [0.5], "x")  # a target a notebook may move in its update
    assert view.frame_drawer() is None


#: Every way a notebook or a drag in ipympl changes the view of 3D axes (applied in turn).
_VIEW_CHANGES = {
    "elevation": lambda ax: ax.view_init(elev=50, azim=ax.azim),
    "azimuth": lambda ax: ax.view_init(elev=ax.elev, azim=10),
    "roll": lambda ax: ax.view_init(elev=ax.elev, azim=ax.azim, roll=20),
    "vertical axis": lambda ax: ax.view_init(elev=ax.elev, azim=ax.azim, vertical_axis="y"),
    "x limits": lambda ax: ax.set_xlim3d(-2, 2),
    "y limits": lambda ax: ax.set_ylim3d(-1, 3),
    "z limits": lambda ax: ax.set_zlim3d(0, 4),
    "zoom": lambda ax: ax.set_box_aspect(None, zoom=1.4),
    "box aspect": lambda ax: ax.set_box_aspect((1, 2, 1)),
    "perspective": lambda ax: ax.set_proj_type("persp", focal_length=0.5),
    "focal length": lambda ax: ax.set_proj_type("persp", focal_length=0.8),
    "orthographic": lambda ax: ax.set_proj_type("ortho"),
    "equal aspect": lambda ax: ax.set_aspect("equal"),
    "nothing": lambda ax: None,
}


def test_the_projection_key_changes_exactly_when_the_projection_does():
    """PartialRedraw keys 3D axes by the inputs of get_proj (cheaper than get_proj itself):
    equal keys must mean equal projections, or a turned view would keep an old background."""
    from robolab.views._fast.partial_redraw import projection_key

    figure = Figure(figsize=(4.0, 4.0), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot(projection="3d")
    ax.plot([0, 1], [0, 1], [0, 1])
    seen: dict = {}
    for name, change in _VIEW_CHANGES.items():
        key_before, projection_before = projection_key(ax), ax.get_proj().tobytes()
        change(ax)
        key, projection = projection_key(ax), ax.get_proj().tobytes()
        assert isinstance(key, tuple), "a key of the inputs, not the projection"
        assert (key != key_before) == (projection != projection_before), name
        assert seen.setdefault(key, projection) == projection, name


def test_the_pendant_redraws_its_background_when_the_view_is_zoomed_or_set_in_perspective():
    import robolab
    from robolab.support import widgets as _widgets

    _widgets.set_test_mode(False)
    try:
        pendant = robolab.teach(robolab.load_robot("puma560", form="dh"), canvas="image")
    finally:
        _widgets.set_test_mode(None)
    figure, axes = pendant.view.figure, pendant.view.axes
    for step, change in enumerate((_VIEW_CHANGES["zoom"], _VIEW_CHANGES["perspective"])):
        change(axes)
        pendant.sliders[0].value += 5
        assert pendant.view._partial.backgrounds_drawn == 2 + step
        full = _full(figure)[..., :3]
        assert np.abs(pixels(pendant.figure_widget.value).astype(int) - full.astype(int)).max() <= 1
