"""The options of a 3D robot view, checked once and passed along: :class:`ViewOptions`.

:func:`robolab.plot_robot`, :func:`robolab.teach` and :func:`robolab.animate` take the
same six keywords for the picture (which frames, the shadow, the two view angles, the
box, the zoom); each builds one :class:`ViewOptions` from them, which the pendant and
the animation hand to their :class:`robolab.RobotView` (and the animation to the
panels of its strip).

Examples
--------
>>> options = ViewOptions(frames="ends", elev=40)
>>> options.frames, options.elev, options.zoom
('ends', 40.0, 1.0)
>>> ViewOptions(zoom=0)
Traceback (most recent call last):
...
ValueError: zoom must be a positive number (1 fits the workspace, 2 is twice as close), got 0
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from ...support.arguments import as_float_array, as_real_number, require_bool, require_choice

__all__ = ["CANVAS_CHOICES", "ELLIPSOID_CHOICES", "ENDS_ONLY", "FRAME_CHOICES", "ViewOptions"]

FRAME_CHOICES = ("all", "ends", "none")
ELLIPSOID_CHOICES = (None, "velocity", "force")
#: The ``canvas`` options of the widget builders (teach, animate, live_figure).
CANVAS_CHOICES = ("auto", "ipympl", "image")


def _view_angle(value: Any, name: str) -> float:
    """A viewing angle in degrees: a real number (TypeError), finite (ValueError)."""
    try:
        return as_real_number(value, name)
    except TypeError:
        raise TypeError(
            f"{name} must be an angle in degrees (a number), got {type(value).__name__} {value!r}"
        ) from None
    except ValueError:
        raise ValueError(f"{name} must be an angle in degrees, got {value!r}") from None


def _zoom(value: Any) -> float:
    """The magnification: a positive real number."""
    words = "a positive number (1 fits the workspace, 2 is twice as close)"
    try:
        return as_real_number(value, "zoom", positive=True)
    except TypeError:
        raise TypeError(f"zoom must be {words}, got {type(value).__name__} {value!r}") from None
    except ValueError:
        raise ValueError(f"zoom must be {words}, got {value!r}") from None


def _box(limits: Any) -> tuple[float, ...] | None:
    """Axis limits (xmin, xmax, ymin, ymax, zmin, zmax) as six floats, or None."""
    if limits is None:
        return None
    box = as_float_array(limits, "limits", (6,)).reshape(3, 2)
    if np.any(box[:, 1] <= box[:, 0]):
        raise ValueError(
            "limits must be (xmin, xmax, ymin, ymax, zmin, zmax) with min < max, "
            f"got {tuple(box.ravel())}"
        )
    return tuple(float(x) for x in box.ravel())


@dataclass(frozen=True)
class ViewOptions:
    """How a 3D robot view looks: the six options shared by plot_robot, teach and animate.

    Checked when made (the messages name the keyword). See
    :func:`robolab.plot_robot` for what each one does.

    Attributes
    ----------
    frames : {"all", "ends", "none"}
        Triads of every frame, of the base and end-effector only, or none.
    shadow : bool
        The links' shadow on the floor.
    elev, azim : float
        Viewing angles in degrees.
    limits : tuple of 6 float, or None
        Axis limits in metres (xmin, xmax, ymin, ymax, zmin, zmax); None:
        fitted to the workspace.
    zoom : float
        Magnification (1 fits the workspace).
    """

    frames: str = "all"
    shadow: bool = True
    elev: float = 25.0
    azim: float = -55.0
    limits: Any = None
    zoom: float = 1.0

    def __post_init__(self) -> None:
        require_choice(self.frames, "frames", FRAME_CHOICES)
        checked = {
            "shadow": require_bool(self.shadow, "shadow"),
            "elev": _view_angle(self.elev, "elev"),
            "azim": _view_angle(self.azim, "azim"),
            "limits": _box(self.limits),
            "zoom": _zoom(self.zoom),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @property
    def box(self) -> np.ndarray | None:
        """:attr:`limits` as a 3×2 array (rows x, y, z; columns min, max), or None."""
        return None if self.limits is None else np.array(self.limits).reshape(3, 2)

    @classmethod
    def from_keywords(
        cls,
        options: ViewOptions | None,
        keywords: dict[str, Any],
        default: ViewOptions | None = None,
    ) -> ViewOptions:
        """``options`` with the given keywords replaced: how every widget takes its view options.

        A widget takes ``options=`` (one :class:`ViewOptions`) or the six keywords, or
        both (the keywords win); without ``options`` it starts from its own ``default``
        (all defaults when None).

        Examples
        --------
        >>> ViewOptions.from_keywords(ViewOptions(frames="ends"), {"zoom": 2}).zoom
        2.0
        >>> ViewOptions.from_keywords(None, {"elev": 40}, default=ViewOptions(frames="ends"))
        ViewOptions(frames='ends', shadow=True, elev=40.0, azim=-55.0, limits=None, zoom=1.0)
        >>> ViewOptions.from_keywords(None, {"colour": "red"})
        Traceback (most recent call last):
        ...
        TypeError: unexpected view option 'colour'; the view options are frames, shadow, ...
        """
        for name, given in (("options", options), ("default", default)):
            if given is not None and not isinstance(given, ViewOptions):
                raise TypeError(
                    f"{name} must be a robolab.views.ViewOptions, got {type(given).__name__}"
                )
        names = [field.name for field in fields(cls)]
        for name in keywords:
            if name not in names:
                raise TypeError(
                    f"unexpected view option {name!r}; the view options are {', '.join(names)}"
                )
        start = options or default or cls()
        if not keywords:
            return start  # passed along as it is
        return replace(start, **keywords)


#: The default view of the animations and the chapter widgets: the base and end-effector
#: triads only, so that what the widget draws over the arm stands out.
ENDS_ONLY = ViewOptions(frames="ends")
