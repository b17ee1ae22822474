"""Helpers of the widget tests (teach pendant, live figures, reveals, animations).

The fixtures that go with them (``ipympl_imported_once``, ``widget_backend``,
``kernel_bundle``) are in ``conftest.py``.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

#: The MIME type under which a notebook front end finds a widget to display.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def pixels(png: bytes) -> np.ndarray:
    """The RGB pixels of a PNG image, shape (height, width, 3)."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
