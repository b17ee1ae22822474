"""Code that exists only for speed in the views, each piece called only by the drawing it
reproduces; :data:`REPRODUCES` names the pairs (matplotlib's own drawing and PNG encoding
are the readable versions), and ``tests/views/_fast/`` holds a test of each.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.views._fast``) → the matplotlib drawing it reproduces;
#: beside each, the test in ``tests/views/_fast/test_<module>.py`` that compares the two.
REPRODUCES: dict[str, str] = {
    # test_every_frame_has_the_pixels_of_a_full_draw (and of the tuner's, the pendant's frames)
    "partial_redraw.PartialRedraw": "matplotlib: FigureCanvasAgg.draw of the whole figure",
    # test_encode_png_decodes_to_the_pixels_of_matplotlibs_png
    "pixels.encode_png": "matplotlib: FigureCanvasAgg.print_png",
    # test_the_diff_images_show_what_matplotlibs_diff_images_show
    "pixels.speed_up_live_canvas": "matplotlib: FigureCanvasWebAggCore.get_diff_image",
    # test_lean_lines_draw_matplotlibs_pixels, test_an_svg_of_lean_lines_is_matplotlibs_svg
    "lean_lines.LeanLine3D": "matplotlib: Line3D.draw",
}
