"""Front-end plumbing shared by the interactive modules (private).

Three questions decide how a widget of robolab shows itself:

1. **Is this a test run?** In *test mode* (``ROBOLAB_TEST_MODE=1``, inside a
   pytest test, or after :func:`set_test_mode`) nothing waits for a browser:
   widgets are built and render once, their outputs are the deterministic text
   and Markdown renderings (no images, no widget views), nothing plays or
   loops. Every callback can still be called kernel-side.
2. **Is there a kernel with a widget front end?** In a plain Python console
   there is none; objects then show as text.
3. **Which matplotlib backend is active?** ``%matplotlib widget`` (ipympl)
   gives a live canvas widget that we update in place; under the default
   inline backend (JupyterLab, classic Notebook, VS Code) the figure is drawn
   with Agg and sent as PNG bytes to an ``ipywidgets.Image``, also in place.
   robolab never switches the backend: a live ipympl figure dies when an
   inline figure is shown in the same notebook.

Display bundles always carry static fallbacks next to the widget view, so an
HTML export without widget state (nbconvert skips views it has no state for)
and nbval (which compares ``text/plain``) still get something that means
what the widget shows.
"""

from __future__ import annotations

import base64
import functools
import html
import io
import math
import os
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # matplotlib loads when the first figure is made, not at import
    from matplotlib.figure import Figure

__all__ = [
    "backend_kind",
    "choose_canvas",
    "cropped",
    "description_width",
    "detach_from_pyplot",
    "draw_live_canvas",
    "figure_png",
    "figure_widget",
    "in_kernel",
    "in_test_mode",
    "is_ipympl_canvas",
    "label_pixels",
    "new_figure",
    "plain_canvas",
    "png_html",
    "set_test_mode",
    "show_figure",
    "widget_bundle",
]

_TEST_MODE: bool | None = None  # None: decided by the environment

WIDGET_VIEW_MIMETYPE = "application/vnd.jupyter.widget-view+json"


def set_test_mode(on: bool | None = True) -> None:
    """Switch robolab's widgets to test mode (``True``), out of it (``False``),
    or back to the environment's choice (``None``).

    In test mode widgets render once, display only deterministic text and
    Markdown, and never play or loop; see :func:`in_test_mode`.

    Examples
    --------
    >>> set_test_mode(True); in_test_mode()
    True
    >>> set_test_mode(None)
    """
    global _TEST_MODE
    if on is not None and not isinstance(on, bool):
        raise TypeError(f"on must be True, False or None, got {on!r}")
    _TEST_MODE = on


def in_test_mode() -> bool:
    """Return True when widgets must not wait for a front end.

    Decided, in order, by :func:`set_test_mode`, by the environment variable
    ``ROBOLAB_TEST_MODE`` (``1`` on, ``0`` off), and otherwise on inside a
    pytest test (``PYTEST_CURRENT_TEST`` is set, also in kernels that nbval
    starts).
    """
    if _TEST_MODE is not None:
        return _TEST_MODE
    flag = os.environ.get("ROBOLAB_TEST_MODE", "").strip().lower()
    if flag in {"1", "true", "yes", "on"}:
        return True
    if flag in {"0", "false", "no", "off"}:
        return False
    return "PYTEST_CURRENT_TEST" in os.environ


def in_kernel() -> bool:
    """Return True inside a Jupyter kernel (a widget front end may be attached)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def backend_kind() -> str:
    """Name the active matplotlib backend's family.

    Returns
    -------
    str
        ``"ipympl"`` for ``%matplotlib widget`` / ``ipympl``, ``"inline"``
        for the inline backend, ``"other"`` for anything else (Agg, a GUI).
    """
    import matplotlib

    name = str(matplotlib.get_backend()).lower()
    if name in {"widget", "ipympl"} or "ipympl" in name:
        return "ipympl"
    if "inline" in name:
        return "inline"
    return "other"


def choose_canvas(canvas: str) -> str:
    """Resolve a ``canvas`` option to ``"ipympl"`` or ``"image"``.

    ``"auto"`` gives the live ipympl canvas when ``%matplotlib widget`` is
    active (and not in test mode), else the PNG image. ``"ipympl"`` is only
    possible under the ipympl backend: importing ipympl would switch the
    notebook's backend, and robolab never does that.
    """
    if canvas not in ("auto", "ipympl", "image"):
        raise ValueError(f"canvas must be one of ['auto', 'ipympl', 'image'], got {canvas!r}")
    live = backend_kind() == "ipympl"
    if canvas == "ipympl" and not live:
        import matplotlib

        raise ValueError(
            "canvas='ipympl' needs the ipympl backend: run %matplotlib widget at the top of the "
            f"notebook (the active backend is {matplotlib.get_backend()!r}; robolab never "
            "switches it, because a live ipympl figure dies when an inline figure is shown)"
        )
    if canvas == "auto":
        return "ipympl" if live and not in_test_mode() else "image"
    return canvas


def new_figure(figsize: tuple[float, float], dpi: float, live: bool) -> Figure:
    """Return a figure that pyplot does not know about (never auto-shown).

    With ``live=True`` its canvas is an ipympl ``Canvas`` widget (only call it
    under the ipympl backend); otherwise a plain Agg canvas whose pixels are
    sent as PNG.
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=figsize, dpi=dpi)
    if live:
        from ipympl.backend_nbagg import Canvas, FigureManager

        with warnings.catch_warnings():
            # ipympl's Toolbar passes its canvas on to traitlets, which warns (ipympl 0.9-0.10).
            warnings.filterwarnings(
                "ignore", message="Passing unrecognized arguments", category=DeprecationWarning
            )
            canvas = Canvas(figure)
            FigureManager(canvas, 0)
        plain_canvas(canvas)
    else:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(figure)
    return figure


def figure_png(figure: Figure, *, draw: bool = True, crop: bool = False) -> bytes:
    """Return the figure's pixels as PNG bytes (Agg, fast compression).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure with an Agg-based canvas (Agg or ipympl).
    draw : bool
        Render first; pass False when the canvas was just drawn.
    crop : bool
        Cut away the empty margins (rows and columns of the background
        colour), keeping :data:`CROP_MARGIN` pixels around what is drawn;
        for static pictures (a live figure keeps its size).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):  # ipympl's canvas is one too
        raise TypeError(f"figure_png needs an Agg-based canvas, got {type(canvas).__name__}")
    if draw:
        # Agg's own draw: an ipympl canvas would also push the pixels to its front end.
        FigureCanvasAgg.draw(canvas)
    rgb = np.asarray(canvas.buffer_rgba())[..., :3]
    if crop:
        rgb = cropped(rgb)
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgb)).save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


#: Pixels kept around the drawing by :func:`cropped`.
CROP_MARGIN = 6


def cropped(rgb: np.ndarray, margin: int = CROP_MARGIN) -> np.ndarray:
    """An image (H, W, 3) without its empty margins: the background is the corner pixel's colour.

    ``margin`` pixels of background stay around the drawing; an empty image
    is returned whole.
    """
    background = rgb[0, 0]
    used = np.any(rgb != background, axis=2)
    rows, columns = np.flatnonzero(used.any(axis=1)), np.flatnonzero(used.any(axis=0))
    if rows.size == 0:
        return rgb
    top, bottom = max(int(rows[0]) - margin, 0), min(int(rows[-1]) + margin + 1, rgb.shape[0])
    left, right = max(int(columns[0]) - margin, 0), min(int(columns[-1]) + margin + 1, rgb.shape[1])
    return rgb[top:bottom, left:right]


def widget_bundle(widget: Any, static: Mapping[str, object]) -> dict[str, Any]:
    """Return the display bundle of a robolab widget.

    ``static`` holds the fallbacks (``text/plain`` at least, ``text/markdown``
    or ``text/html`` where useful). In test mode or outside a kernel only the
    fallbacks are returned; otherwise the widget view comes first and the
    fallbacks ride along for HTML export and nbval.
    """
    if in_test_mode() or not in_kernel():
        return dict(static)
    bundle = dict(static)
    view = widget._repr_mimebundle_()
    if view and WIDGET_VIEW_MIMETYPE in view:
        bundle[WIDGET_VIEW_MIMETYPE] = view[WIDGET_VIEW_MIMETYPE]
    return bundle


def draw_live_canvas(figure: Figure) -> None:
    """Redraw an ipympl figure now and push its pixels to the browser (no round trip).

    Before the browser has opened the canvas, ipympl keeps the picture in the
    model's ``_data_url``; drawing through ipympl then would store it without
    its ``data:`` prefix and the front end could not show it, so the picture
    is stored here in full.
    """
    canvas: Any = figure.canvas  # an ipympl Canvas (ipympl has no type annotations)
    if getattr(canvas, "syncing_data_url", False):
        png = base64.b64encode(figure_png(figure)).decode("ascii")
        canvas._data_url = f"data:image/png;base64,{png}"
    else:
        canvas.draw()


def figure_widget(figure: Figure, canvas_kind: str) -> Any:
    """The widget that shows ``figure`` in a panel, redrawn by :func:`show_figure`.

    With ``canvas_kind="ipympl"`` and a live canvas it is the figure's ipympl
    canvas (made plain by :func:`plain_canvas`);
    otherwise an ``ipywidgets.Image`` of the figure's size that receives PNG
    pixels. Either keeps its size in the panel and has the CSS class
    ``robolab-figure``.
    """
    import ipywidgets as widgets

    width, height = (round(float(v)) for v in figure.bbox.size)
    if canvas_kind == "ipympl" and is_ipympl_canvas(figure.canvas):
        shown = plain_canvas(figure.canvas)
        shown.layout = widgets.Layout(flex="0 0 auto", width=f"{width + 10}px")
    else:
        shown = widgets.Image(
            format="png", width=width, height=height, layout=widgets.Layout(flex="0 0 auto")
        )
    shown.add_class("robolab-figure")
    return shown


def show_figure(figure: Figure, shown: Any) -> None:
    """Redraw ``figure`` into the widget made for it by :func:`figure_widget`."""
    if is_ipympl_canvas(shown):
        draw_live_canvas(figure)
    else:
        shown.value = figure_png(figure)


def png_html(png: bytes, alt: str) -> str:
    """An ``<img>`` element holding PNG bytes, for the static HTML renderings."""
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"/>'


#: Font size of ipywidgets' descriptions in JupyterLab (``--jp-widgets-font-size``), in pixels.
LABEL_FONT_PX = 13.0
#: Room added to a measured label: 15 % (other fonts) and 6 pixels (rounding, the cursor).
LABEL_SLACK = (1.15, 6.0)


@functools.lru_cache(maxsize=512)
def label_pixels(label: str) -> float:
    """Width of ``label`` in pixels as an ipywidgets description shows it (an upper estimate).

    Measured in DejaVu Sans at :data:`LABEL_FONT_PX`: JupyterLab's font on
    Linux, and wider than the system fonts of Windows and macOS. Characters
    that DejaVu Sans lacks (Chinese, say) count one em each.
    """
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family="DejaVu Sans", size=LABEL_FONT_PX)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        width = TextToPath().get_text_width_height_descent(label, font, ismath=False)[0]
    if any("missing from font" in str(warning.message) for warning in caught):
        width = max(width, LABEL_FONT_PX * len(label))
    return float(width)


def description_width(labels: Iterable[str], minimum: int = 90) -> int:
    """Pixels of ``style.description_width`` that show every one of ``labels`` whole.

    ipywidgets cuts a description longer than its width with "…"; giving
    every control of a panel this width shows each label in full and keeps
    the sliders aligned. At least ``minimum`` pixels.

    Examples
    --------
    >>> description_width(["x (m)", "yaw (°)"])
    90
    >>> description_width(["elbow angle q2 (degrees)"]) > 180
    True
    """
    widest = max((label_pixels(label) for label in labels if label), default=0.0)
    factor, extra = LABEL_SLACK
    return max(int(minimum), math.ceil(widest * factor + extra))


def plain_canvas(canvas: Any) -> Any:
    """An ipympl canvas without "Figure" label, header, footer or resize handle; returned.

    Its toolbar sits on the left. A canvas of another kind is returned unchanged.
    """
    if is_ipympl_canvas(canvas):
        canvas._figure_label = ""  # its static HTML would say "Figure" above the picture
        canvas.header_visible = False
        canvas.footer_visible = False
        canvas.resizable = False
        canvas.toolbar_position = "left"
    return canvas


def is_ipympl_canvas(canvas: object) -> bool:
    """True for an ipympl canvas widget (checked without importing ipympl)."""
    return type(canvas).__module__.startswith("ipympl")


def detach_from_pyplot(figure: Figure) -> None:
    """Make pyplot forget ``figure`` without closing it, so no backend shows it by itself.

    Both the inline backend and ipympl show every figure pyplot knows at the
    end of a cell; a widget that shows a figure itself would then appear
    twice. ``plt.close`` is no way out under ipympl: it closes the canvas
    widget, and the live figure with it. The figure keeps its canvas (an
    ipympl canvas stays live) and can be drawn as before, but pyplot no longer
    redraws it by itself when an artist changes.
    """
    from matplotlib._pylab_helpers import Gcf

    for number, manager in list(Gcf.figs.items()):
        if manager.canvas.figure is figure:
            del Gcf.figs[number]
    # pyplot also redraws a stale figure in interactive mode (draw_idle at every artist change:
    # a second full draw per step under ipympl and under inline); the widget draws it itself.
    figure.stale_callback = None
