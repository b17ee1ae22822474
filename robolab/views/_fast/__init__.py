"""Code that exists only for speed in the views, each piece called only by the drawing it
reproduces; :data:`REPRODUCES` names the pairs (matplotlib's own drawing and PNG encoding
are the readable versions), and ``tests/views/_fast/`` holds a test of each.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.views._fast``) → what it reproduces.
REPRODUCES: dict[str, str] = {
    "partial_redraw.PartialRedraw": "matplotlib: FigureCanvasBase.draw of the whole figure",
    "pixels.encode_png": "matplotlib: FigureCanvasAgg.print_png",
    "lean_lines.LeanLine3D": "matplotlib: Line3D.draw",
}
