"""Pixels to the browser, quickly: a plain PNG encoder and ipympl's diff image (private).

A live figure sends new pixels on every slider step: PNG bytes for an
``ipywidgets.Image`` (the inline backend) or, on an ipympl canvas, a "diff
image" whose unchanged pixels are transparent. Pillow's encoder (what
matplotlib's ``get_diff_image`` and :func:`robolab.support.widgets.figure_png`
use) tries every PNG row filter and, in matplotlib, compresses at level 6:
4–7 ms for a 500×500 figure, as long as drawing it. The drawings of a live
figure are mostly flat background, which ``zlib`` at level 1 compresses well
without any row filter, in a third of the time.

* :func:`encode_png`: RGB or RGBA pixels as PNG bytes (filter "none" on every
  row, ``zlib`` level 1). Any PNG decoder reads them back exactly.
* :func:`diff_png`: the diff image of two frames, cut to the rows and columns
  up to the last changed pixel: ipympl's front end draws a diff image over the
  previous frame at its top-left corner, so pixels below and right of every
  change need not be sent.
* :func:`speed_up_live_canvas`: an ipympl canvas that sends those diff images
  (its ``get_diff_image``, replaced on that one canvas; the protocol, the
  full frames and the state kept between frames are matplotlib's).

Examples
--------
>>> import io, numpy as np
>>> from PIL import Image
>>> pixels = np.zeros((3, 4, 3), np.uint8); pixels[1, 2] = (255, 128, 0)
>>> png = encode_png(pixels)
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> bool((np.asarray(Image.open(io.BytesIO(png))) == pixels).all())
True
"""

from __future__ import annotations

import struct
import types
import zlib
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["diff_png", "encode_png", "speed_up_live_canvas"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPES = {3: 2, 4: 6}  # channels -> PNG colour type (truecolour, truecolour + alpha)
#: zlib level of the live pixels: 1 (fastest) is within 20 % of level 6's size on drawings.
LEVEL = 1


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_png(pixels: NDArray[np.uint8], level: int = LEVEL) -> bytes:
    """PNG bytes of an image of shape (height, width, 3) or (height, width, 4), ``uint8``.

    8 bits per channel, no row filter, ``zlib`` at ``level`` (0–9).

    Examples
    --------
    >>> len(encode_png(np.full((500, 500, 4), 255, np.uint8))) < 10_000  # of 1 MB
    True
    >>> rgba = np.zeros((2, 3, 4), np.uint8); rgba[..., 1] = 200
    >>> encode_png(rgba[..., :3]) == encode_png(np.ascontiguousarray(rgba[..., :3]))
    True
    >>> encode_png(np.zeros((2, 2)))
    Traceback (most recent call last):
    ...
    ValueError: pixels must be an array of shape (height, width, 3 or 4) of uint8, got ... float64
    """
    array = np.asarray(pixels)
    if (
        array.dtype != np.uint8
        or array.ndim != 3
        or array.shape[2] not in _COLOUR_TYPES
        or 0 in array.shape
    ):
        raise ValueError(
            "pixels must be an array of shape (height, width, 3 or 4) of uint8, got shape "
            f"{array.shape} of {array.dtype}"
        )
    height, width, channels = array.shape
    rows = np.empty((height, width * channels + 1), np.uint8)
    rows[:, 0] = 0  # filter type "none"
    target = rows[:, 1:].reshape(height, width, channels)  # a view into the rows
    if array.flags.c_contiguous:
        target[...] = array
    else:  # e.g. the RGB of an RGBA buffer: plane by plane is 4x faster than one strided copy
        for channel in range(channels):
            target[..., channel] = array[..., channel]
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPES[channels], 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows.data.cast("B"), level)),
            _chunk(b"IEND", b""),
        )
    )


def diff_png(previous: NDArray[np.uint32], current: NDArray[np.uint32]) -> bytes:
    """The diff image of two frames (one ``uint32`` per RGBA pixel, same shape), as PNG.

    Changed pixels keep their colour, the others are transparent black;
    the image stops at the last changed row and column (a 1×1 transparent
    image when nothing changed), to be drawn over the previous frame at its
    top-left corner.

    Examples
    --------
    >>> before = np.zeros((4, 5), np.uint32); after = before.copy(); after[1, 2] = 0xFF0000FF
    >>> import io; from PIL import Image
    >>> image = Image.open(io.BytesIO(diff_png(before, after)))
    >>> image.size, image.mode  # (width, height): columns 0-2, rows 0-1
    ((3, 2), 'RGBA')
    """
    changed = previous != current
    rows = np.flatnonzero(changed.any(axis=1))
    if rows.size == 0:
        return encode_png(np.zeros((1, 1, 4), np.uint8))
    columns = np.flatnonzero(changed.any(axis=0))
    bottom, right = int(rows[-1]) + 1, int(columns[-1]) + 1
    region = np.where(changed[:bottom, :right], current[:bottom, :right], np.uint32(0))
    return encode_png(region.view(np.uint8).reshape(bottom, right, 4))


def _diff_image(canvas: Any) -> bytes | None:
    """Matplotlib's ``get_diff_image`` (WebAgg canvas) with :func:`diff_png`, :func:`encode_png`."""
    if not canvas._png_is_old:
        return None
    pixels = np.asarray(canvas.get_renderer().buffer_rgba())
    frame = pixels.view(np.uint32).squeeze(2)
    last = canvas._last_buff
    if canvas._force_full or frame.shape != last.shape or (pixels[:, :, 3] != 255).any():
        canvas.set_image_mode("full")
        png = encode_png(pixels)
    else:
        canvas.set_image_mode("diff")
        png = diff_png(last, frame)
    canvas._last_buff = frame.copy()
    canvas._force_full = False
    canvas._png_is_old = False
    return png


def speed_up_live_canvas(canvas: Any) -> bool:
    """Make an ipympl (WebAgg) canvas send :func:`diff_png` images; True when it did.

    Only that canvas changes (its ``get_diff_image``); a canvas of another
    kind, or of a matplotlib whose WebAgg canvas keeps other state, is left
    alone (False).
    """
    needed = ("_png_is_old", "_force_full", "_last_buff", "set_image_mode", "get_diff_image")
    if not type(canvas).__module__.startswith("ipympl") or not all(
        hasattr(canvas, name) for name in needed
    ):
        return False
    canvas.get_diff_image = types.MethodType(_diff_image, canvas)
    return True
