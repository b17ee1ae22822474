"""Pixels to the browser: robolab's PNG encoder and ipympl diff images, read back by Pillow.

Pillow is the outside reference: every PNG robolab sends must decode to exactly the
pixels drawn, and the diff images of a live canvas, composited the way ipympl's front
end does it (each image drawn over the previous frame at the top-left corner, a "full"
image on a cleared canvas), must rebuild every frame that Agg drew.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

import robolab
from robolab.support import widgets as _widgets
from robolab.views._fast.pixels import diff_png, encode_png, speed_up_live_canvas
from robolab.views.widgets.live_figure import angle_slider, live_figure

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _decoded(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)))


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("shape", [(1, 1), (7, 13), (120, 95)])
def test_encode_png_decodes_to_the_same_pixels(shape, channels):
    rng = np.random.default_rng(sum(shape) + channels)
    pixels = rng.integers(0, 256, (*shape, channels), dtype=np.uint8)
    pixels[: shape[0] // 2] = 255  # flat background and noise, as in a drawing
    decoded = Image.open(io.BytesIO(encode_png(pixels)))
    assert decoded.mode == ("RGB" if channels == 3 else "RGBA")
    assert decoded.size == (shape[1], shape[0])
    np.testing.assert_array_equal(np.asarray(decoded), pixels)


def test_encode_png_takes_a_strided_slice_of_a_buffer():
    rgba = np.random.default_rng(1).integers(0, 256, (40, 30, 4), dtype=np.uint8)
    np.testing.assert_array_equal(_decoded(encode_png(rgba[..., :3])), rgba[..., :3])


@pytest.mark.parametrize(
    "pixels, words",
    [
        (np.zeros((4, 4)), "shape (4, 4) of float64"),
        (np.zeros((4, 4, 2), np.uint8), "shape (4, 4, 2) of uint8"),
        (np.zeros((0, 4, 3), np.uint8), "shape (0, 4, 3) of uint8"),
        (np.zeros((4, 4, 3), np.int16), "shape (4, 4, 3) of int16"),
    ],
)
def test_encode_png_refuses_what_is_not_an_image(pixels, words):
    with pytest.raises(ValueError, match=r"pixels must be an array of shape \(height, width, 3"):
        encode_png(pixels)
    with pytest.raises(ValueError, match=f"got {words}".replace("(", r"\(").replace(")", r"\)")):
        encode_png(pixels)


def _over(frame: np.ndarray, png: bytes) -> np.ndarray:
    """Draw a diff image over an RGBA frame at (0, 0), as the browser's canvas does."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    base = Image.fromarray(frame, "RGBA")
    base.alpha_composite(image, (0, 0))
    return np.asarray(base)


def test_diff_png_over_the_previous_frame_gives_the_new_one():
    rng = np.random.default_rng(2)
    before = rng.integers(0, 256, (50, 60, 4), dtype=np.uint8)
    before[..., 3] = 255
    after = before.copy()
    after[10:20, 5:35] = rng.integers(0, 256, (10, 30, 4), dtype=np.uint8)
    after[..., 3] = 255
    png = diff_png(before.view(np.uint32)[..., 0], after.view(np.uint32)[..., 0])
    assert Image.open(io.BytesIO(png)).size == (35, 20)  # cut at the last changed column, row
    np.testing.assert_array_equal(_over(before, png), after)
    same = diff_png(after.view(np.uint32)[..., 0], after.view(np.uint32)[..., 0])
    assert Image.open(io.BytesIO(same)).size == (1, 1)
    np.testing.assert_array_equal(_over(after, same), after)


def _recording(canvas):
    sent: list[tuple[str, bytes]] = []
    canvas.syncing_data_url = False  # as once a browser has attached
    canvas.send_binary = lambda data: sent.append((canvas._current_image_mode, data))
    return sent


def _turning_frame():
    """A live figure on an ipympl canvas: a frame turned by a yaw slider."""
    figure = _widgets.new_figure((3.0, 2.5), 100.0, live=True)
    ax = figure.add_subplot(projection="3d")
    frame = robolab.draw_frame(ax, np.eye(4), "b")

    def turn(yaw):
        frame.set_pose(robolab.rotz(yaw))

    robolab.set_test_mode(False)
    try:
        return live_figure(turn, ax, {"yaw": angle_slider(30)}, canvas="ipympl")
    finally:
        robolab.set_test_mode(None)


YAWS = (40, 50, 120, -170)


def test_a_live_canvas_sends_diff_images_that_rebuild_every_frame(widget_backend):
    panel = _turning_frame()
    canvas = panel.figures[0].canvas
    sent = _recording(canvas)
    shown = None
    for yaw in YAWS:
        panel.controls["yaw"].value = yaw
        mode, png = sent[-1]
        drawn = np.asarray(canvas.get_renderer().buffer_rgba())
        if shown is None:
            assert mode == "full"
            shown = _decoded(png)
        else:
            assert mode == "diff"
            assert len(png) < len(encode_png(drawn))
            shown = _over(shown, png)
        np.testing.assert_array_equal(shown, drawn)
    canvas._force_full = True  # what a resize asks for
    panel.controls["yaw"].value = 0
    assert sent[-1][0] == "full"
    np.testing.assert_array_equal(
        _decoded(sent[-1][1]), np.asarray(canvas.get_renderer().buffer_rgba())
    )


def _frames_shown(sped_up: bool) -> list[np.ndarray]:
    """What the browser shows of the turning frame: each image drawn over the last."""
    panel = _turning_frame()
    canvas = panel.figures[0].canvas
    if not sped_up:
        del canvas.get_diff_image  # matplotlib's own, of the canvas's class
    sent = _recording(canvas)
    shown: list[np.ndarray] = []
    for yaw in YAWS:
        panel.controls["yaw"].value = yaw
        mode, png = sent[-1]
        shown.append(_decoded(png).copy() if mode == "full" else _over(shown[-1], png))
    return shown


def test_the_diff_images_show_what_matplotlibs_diff_images_show(widget_backend):
    """speed_up_live_canvas reproduces matplotlib's get_diff_image (WebAgg): the same frames."""
    for ours, matplotlibs in zip(_frames_shown(True), _frames_shown(False), strict=True):
        np.testing.assert_array_equal(ours, matplotlibs)


def test_encode_png_decodes_to_the_pixels_of_matplotlibs_png():
    """encode_png reproduces FigureCanvasAgg.print_png: the same pixels, decoded."""
    ax = robolab.frame_axes((-1, 1))
    robolab.draw_frame(ax, robolab.rotz(0.4), "b")
    figure = ax.figure
    matplotlibs = io.BytesIO()
    figure.canvas.print_png(matplotlibs)  # draws the figure, writes RGBA
    ours = encode_png(np.asarray(figure.canvas.buffer_rgba()))
    np.testing.assert_array_equal(_decoded(ours), _decoded(matplotlibs.getvalue()))


def test_only_ipympl_canvases_are_sped_up():
    figure = plt.figure()
    assert speed_up_live_canvas(figure.canvas) is False
    assert "get_diff_image" not in vars(figure.canvas)


def test_the_image_widget_gets_the_pixels_agg_drew():
    ax = robolab.frame_axes((-1, 1))
    frame = robolab.draw_frame(ax, np.eye(4), "b")

    def turn(yaw):
        frame.set_pose(robolab.rotz(yaw))

    panel = live_figure(turn, ax, {"yaw": angle_slider(30)}, canvas="image")
    panel.controls["yaw"].value = 75
    figure = panel.figures[0]
    drawn = np.asarray(figure.canvas.buffer_rgba())[..., :3]
    np.testing.assert_array_equal(_decoded(panel.figure_widgets[0].value), drawn)
