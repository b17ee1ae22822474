"""The front-end plumbing of the widgets (robolab.support.widgets): test mode, the backend and
the canvas it allows, figures drawn to PNG pixels, display bundles."""

from __future__ import annotations

import io

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from PIL import Image

import robolab
from robolab.support import widgets

# --- front-end detection and test mode ---------------------------------------------------------


def test_test_mode_switch_and_environment(monkeypatch):
    assert widgets.in_test_mode()  # PYTEST_CURRENT_TEST is set inside a test
    monkeypatch.setenv("ROBOLAB_TEST_MODE", "0")
    assert not widgets.in_test_mode()
    monkeypatch.setenv("ROBOLAB_TEST_MODE", "1")
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert widgets.in_test_mode()
    monkeypatch.delenv("ROBOLAB_TEST_MODE")
    assert not widgets.in_test_mode()
    robolab.set_test_mode(True)
    try:
        assert robolab.in_test_mode()
    finally:
        robolab.set_test_mode(None)
    with pytest.raises(TypeError, match="on must be True, False or None"):
        robolab.set_test_mode("yes")


@pytest.mark.parametrize(
    ("backend", "kind"),
    [
        ("module://ipympl.backend_nbagg", "ipympl"),
        ("ipympl", "ipympl"),
        ("widget", "ipympl"),
        ("module://matplotlib_inline.backend_inline", "inline"),
        ("inline", "inline"),
        ("agg", "other"),
        ("qtagg", "other"),
    ],
)
def test_backend_kind(monkeypatch, backend, kind):
    monkeypatch.setattr(matplotlib, "get_backend", lambda: backend)
    assert widgets.backend_kind() == kind


def test_outside_a_kernel_objects_show_as_text():
    assert not widgets.in_kernel()
    assert widgets.widget_bundle(None, {"text/plain": "x"}) == {"text/plain": "x"}


# --- the canvas -----------------------------------------------------------------------------------


def test_the_canvas_option_resolves_to_what_the_backend_allows(monkeypatch):
    assert matplotlib.get_backend().lower() == "agg"  # tests/conftest.py
    assert widgets.choose_canvas("auto") == widgets.choose_canvas("image") == "image"
    with pytest.raises(ValueError, match=r"canvas='ipympl' needs the ipympl backend: run %matplot"):
        widgets.choose_canvas("ipympl")
    with pytest.raises(ValueError, match=r"canvas must be one of \['auto', 'ipympl', 'image'\]"):
        widgets.choose_canvas("svg")
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "module://ipympl.backend_nbagg")
    assert widgets.choose_canvas("auto") == "image"  # in test mode nothing is live
    widgets.set_test_mode(False)
    try:
        assert widgets.choose_canvas("auto") == widgets.choose_canvas("ipympl") == "ipympl"
    finally:
        widgets.set_test_mode(None)


def test_an_ipympl_canvas_is_made_plain_and_any_other_left_alone():
    class Canvas:  # stands in for ipympl's canvas widget, recognised by its module
        __module__ = "ipympl.backend_nbagg"

    canvas = Canvas()
    assert widgets.is_ipympl_canvas(canvas) and widgets.plain_canvas(canvas) is canvas
    assert (canvas._figure_label, canvas.header_visible, canvas.footer_visible) == (
        "",
        False,
        False,
    )
    assert (canvas.resizable, canvas.toolbar_position) == (False, "left")
    agg = FigureCanvasAgg(Figure())
    assert not widgets.is_ipympl_canvas(agg)
    assert widgets.plain_canvas(agg) is agg and not hasattr(agg, "header_visible")


# --- figures and pixels ---------------------------------------------------------------------------


def test_a_new_figure_is_an_agg_figure_pyplot_does_not_know():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    figure = widgets.new_figure((3.0, 2.0), 50.0, live=False)
    assert isinstance(figure.canvas, FigureCanvasAgg)
    assert tuple(figure.bbox.size) == (150.0, 100.0)
    assert plt.get_fignums() == before


def test_a_figure_pyplot_made_is_detached_from_it():
    import matplotlib.pyplot as plt

    figure = plt.figure()
    number = figure.number
    widgets.detach_from_pyplot(figure)
    assert number not in plt.get_fignums()
    assert figure.stale_callback is None


def test_cropping_keeps_the_drawing_and_a_margin():
    rgb = np.full((10, 12, 3), 255, dtype=np.uint8)
    rgb[4:6, 6:8] = 0
    cropped = widgets.cropped(rgb, margin=1)
    assert cropped.shape == (4, 4, 3)  # rows 3..6, columns 5..8
    assert (cropped[1:3, 1:3] == 0).all() and (cropped[0] == 255).all()
    assert widgets.cropped(rgb, margin=10).shape == rgb.shape  # the margin stops at the edge
    empty = np.zeros((3, 4, 3), dtype=np.uint8)
    assert widgets.cropped(empty) is empty


def test_a_figure_becomes_png_bytes_cropped_on_request():
    figure = widgets.new_figure((2.0, 2.0), 50.0, live=False)
    figure.add_axes((0.4, 0.4, 0.2, 0.2)).set_axis_off()
    figure.axes[0].add_patch(Rectangle((0, 0), 1, 1, color="black"))  # 20 pixels wide
    whole = Image.open(io.BytesIO(widgets.figure_png(figure)))
    assert whole.format == "PNG" and whole.size == (100, 100)
    cropped = Image.open(io.BytesIO(widgets.figure_png(figure, crop=True)))
    assert cropped.size == (32, 32)  # the square and 6 pixels (CROP_MARGIN) around it
    with pytest.raises(TypeError, match=r"figure_png needs an Agg-based canvas, got FigureCanvasB"):
        widgets.figure_png(Figure())


def test_png_bytes_become_an_img_element():
    assert widgets.png_html(b"abc", 'a "b" <c>') == (
        '<img src="data:image/png;base64,YWJj" alt="a &quot;b&quot; &lt;c&gt;"/>'
    )


#: Label widths measured in Chromium (JupyterLab's 13 px font), in px.
BROWSER_LABEL_WIDTHS = {"elbow angle q2 (degrees) (°)": 187, "shoulder offset d2 (m)": 145}


def test_description_width_fits_the_widest_label():
    for label, shown in BROWSER_LABEL_WIDTHS.items():
        assert shown <= widgets.description_width([label, "x"]) <= 1.3 * shown + 10
    assert widgets.description_width([]) == widgets.description_width(["", "x"]) == 90
    assert widgets.description_width(["x"], minimum=100) == 100
    # characters DejaVu Sans lacks count one em (13 px) each, without a warning
    assert widgets.description_width(["关节角度关节角度关节"]) >= 10 * 13
