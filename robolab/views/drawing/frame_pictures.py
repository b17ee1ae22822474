"""Pictures of coordinate frames: :func:`frame_axes`, :func:`draw_frame`, :class:`FrameTriad`.

Chapter 1's rotations, one DH row, a frame moving along a screw: pictures of
frames without a robot. :func:`frame_axes` makes a 3D box with equal scales
and lean ticks; :func:`draw_frame` draws a pose as a labelled triad
(:class:`FrameTriad`) that :meth:`FrameTriad.set_pose` moves in place.
``draw_frame`` also works on a robot view's ``view.axes`` (a target frame
beside the arm). :func:`robolab.live_figure` puts sliders around such
pictures.

Every triad, here and in the robot views, draws its x, y and z axes in
:data:`TRIAD_COLOURS`.

Examples
--------
>>> import numpy as np, robolab
>>> ax = robolab.frame_axes((-1, 1), title="{b} turned about z")
>>> b = robolab.draw_frame(ax, robolab.rotz(np.pi / 2), "b")
>>> b.pose[:3, 0].round(3) + 0.0  # x_b along y_s
array([0., 1., 0.])
>>> import matplotlib.pyplot as plt; plt.close(ax.figure)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.lines import Line2D
from numpy.typing import ArrayLike

from ...support import widgets as _widgets
from ...support.arguments import as_float_array, require_choice, require_rotation, require_transform
from .text3d import centred_text_path, text_collection, text_marker

__all__ = ["TRIAD_COLOURS", "FrameTriad", "draw_frame", "frame_axes"]

#: Colours of the x, y and z axes of every triad: vermillion (Okabe–Ito),
#: teal and indigo (Paul Tol). Unlike red/green/blue they stay far apart
#: (CIELAB ΔE > 40) under simulated protanopia, deuteranopia and tritanopia;
#: the axes are also labelled x, y, z.
TRIAD_COLOURS: tuple[str, str, str] = ("#D55E00", "#44AA99", "#332288")

_FRAME_AXES_DECORATIONS = ("lean", "full", "none")
_TRIAD_LABEL_CHOICES = ("tips", "origin", "none")
TICK_COLOUR = "#555555"
GRID_COLOUR = "#E0E0E0"
EDGE_COLOUR = "#9A9A9A"


def _axes_box(limits: Any) -> np.ndarray:
    """``limits`` as a (3, 2) array of (low, high) per axis, checked."""
    array = as_float_array(limits, "limits", (None,) if np.ndim(limits) == 1 else (3, 2))
    if array.ndim == 1:
        if array.shape == (2,):
            array = np.tile(array, (3, 1))
        elif array.shape == (6,):
            array = array.reshape(3, 2)
        else:
            raise ValueError(
                "limits must be (low, high) for all three axes, ((xmin, xmax), (ymin, ymax), "
                f"(zmin, zmax)) or (xmin, xmax, ymin, ymax, zmin, zmax), got {array.shape[0]} "
                "numbers"
            )
    bad = np.flatnonzero(array[:, 1] <= array[:, 0])
    if bad.size:
        axis = "xyz"[int(bad[0])]
        low, high = array[bad[0]]
        raise ValueError(f"limits of the {axis} axis must have low < high, got ({low:g}, {high:g})")
    return array


def _tick_label(value: float) -> str:
    return f"{float(np.round(value, 6)) + 0.0:g}"


def _lean_decorations(
    ax: Any, box: np.ndarray, ticks: int, elev: float, azim: float, unit: str | None
) -> None:
    """A light floor grid, a vertical edge and tick labels drawn as cheap artists.

    matplotlib's 3D axes (panes, grids, tick labels as Text) cost about
    20–40 ms per redraw; these lines and text markers cost about 1 ms. The
    labels sit on the edges nearest the viewer for the initial view angles.
    """
    ax.set_axis_off()
    (x0, x1), (y0, y1), (z0, z1) = box
    # Corners nearest to and farthest from the eye, seen from (azim, elev).
    towards_x, towards_y = np.cos(np.radians(azim)), np.sin(np.radians(azim))
    back_x, front_x = (x0, x1) if towards_x >= 0 else (x1, x0)
    back_y, front_y = (y0, y1) if towards_y >= 0 else (y1, y0)
    values = [np.linspace(low, high, ticks) if ticks >= 2 else np.zeros(0) for low, high in box]
    gap = np.full((1, 3), np.nan)
    grid = []
    for x in values[0]:
        grid += [np.array([[x, y0, z0], [x, y1, z0]]), gap]
    for y in values[1]:
        grid += [np.array([[x0, y, z0], [x1, y, z0]]), gap]
    outline = np.array(
        [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0], [x0, y0, z0]], dtype=float
    )
    floor = np.vstack([*grid, outline]) if grid else outline
    (grid_line,) = ax.plot(*floor.T, color=GRID_COLOUR, lw=0.8, zorder=0)
    grid_line.set_gid("robolab-frame-axes-grid")
    (edge,) = ax.plot(
        [back_x, back_x], [back_y, back_y], [z0, z1], color=EDGE_COLOUR, lw=0.8, zorder=0
    )
    edge.set_gid("robolab-frame-axes-edge")
    span = box[:, 1] - box[:, 0]
    out_x = np.sign(front_x - back_x) * 0.07 * span[0]
    out_y = np.sign(front_y - back_y) * 0.07 * span[1]
    positions: list[tuple[np.ndarray, str]] = []
    for x in values[0]:
        positions.append((np.array([x, front_y + out_y, z0]), _tick_label(x)))
    for y in values[1]:
        positions.append((np.array([front_x + out_x, y, z0]), _tick_label(y)))
    for z in values[2]:
        positions.append((np.array([back_x - out_x, back_y + out_y, z]), _tick_label(z)))
    suffix = f" ({unit})" if unit else ""
    middle = box.mean(axis=1)
    names = [
        (np.array([middle[0], front_y + 2.6 * out_y, z0]), "x" + suffix),
        (np.array([front_x + 2.6 * out_x, middle[1], z0]), "y" + suffix),
        (np.array([back_x, back_y, z1 + 0.08 * span[2]]), "z" + suffix),
    ]
    ticks_and_names = text_collection(
        ax,
        np.array([point for point, _ in positions + names]).reshape(-1, 3),
        [text for _, text in positions + names],
        [TICK_COLOUR],
        7.5,
        0.0,
    )
    ticks_and_names.set_gid("robolab-frame-axes-labels")


def frame_axes(
    limits: ArrayLike = (-1.0, 1.0),
    *,
    title: str | None = None,
    elev: float = 20.0,
    azim: float = -60.0,
    ticks: int = 3,
    unit: str | None = None,
    decorations: str = "lean",
    zoom: float | None = None,
    figsize: tuple[float, float] = (5.0, 4.5),
    dpi: float = 80.0,
    ax: Any = None,
) -> Any:
    """A 3D axes for pictures of coordinate frames: equal scales, fixed limits, lean ticks.

    Draw frames on it with :func:`draw_frame`; put it in a
    :func:`robolab.live_figure` to move them with sliders.

    Parameters
    ----------
    limits : (low, high), ((xmin, xmax), (ymin, ymax), (zmin, zmax)) or 6 numbers
        The box shown, the same for all axes or one range per axis; the three
        axes keep equal scales (a unit is as long along x as along z).
    title : str, optional
        Written above the picture.
    elev, azim : float
        Viewing angles in degrees (drag the figure to turn it under
        ``%matplotlib widget``).
    ticks : int
        Labelled ticks per axis, evenly spread from low to high (0: none).
    unit : str, optional
        Appended to the axis names: ``unit="m"`` gives ``x (m)``.
    decorations : {"lean", "full", "none"}
        ``"lean"`` (default, fast): a light floor grid at the ticks, one
        vertical edge, tick labels and axis names as cheap markers (about
        2 ms per redraw). ``"full"``: matplotlib's own 3D axes with the same
        ticks (about 25 ms more per redraw). ``"none"``: nothing but what
        you draw.
    zoom : float, optional
        Enlarge (> 1) or shrink the box within the figure; default 1.2
        (0.9 with ``decorations="full"``, whose labels need the room).
    figsize : (float, float)
        Figure size in inches; ``dpi`` its resolution.
    ax : mpl_toolkits.mplot3d.Axes3D, optional
        Set up this 3D axes instead of making a new figure.

    Returns
    -------
    mpl_toolkits.mplot3d.Axes3D
        ``ax.figure`` is a pyplot figure, shown at the end of the cell by the
        active backend (inline, or a live canvas under ``%matplotlib widget``);
        a :func:`robolab.live_figure` that takes it over shows it itself.

    Examples
    --------
    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1), title="{b} in {a}")
    >>> ax.get_xlim(), ax.get_zlim()
    ((np.float64(-1.0), np.float64(1.0)), (np.float64(-1.0), np.float64(1.0)))
    >>> a = robolab.draw_frame(ax, np.eye(4), "a", style="--")
    >>> b = robolab.draw_frame(ax, robolab.rotz(np.pi / 6), "b")
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    require_choice(decorations, "decorations", _FRAME_AXES_DECORATIONS)
    box = _axes_box(limits)
    if not isinstance(ticks, int | np.integer) or ticks < 0 or ticks == 1:
        raise ValueError(f"ticks must be 0 or a whole number >= 2, got {ticks!r}")
    if ax is None:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=figsize, dpi=dpi)
        ax = figure.add_subplot(projection="3d", computed_zorder=False)
        top = 1.0 - 16.0 / (72.0 * figure.get_figheight()) if title else 1.0  # room for it
        figure.subplots_adjust(left=0.0, right=1.0, bottom=0.0, top=top)
        _widgets.plain_canvas(figure.canvas)  # under %matplotlib widget
    elif getattr(ax, "name", None) != "3d":
        raise ValueError(
            f"ax must be a 3D axes (fig.add_subplot(projection='3d')), got {type(ax).__name__}"
        )
    ax.set_xlim(*box[0])
    ax.set_ylim(*box[1])
    ax.set_zlim(*box[2])
    if zoom is None:
        zoom = 0.9 if decorations == "full" else 1.05
    ax.set_box_aspect(box[:, 1] - box[:, 0], zoom=zoom)
    ax.view_init(elev=elev, azim=azim)
    ax.set_autoscale_on(False)
    if decorations == "lean":
        _lean_decorations(ax, box, int(ticks), elev, azim, unit)
    elif decorations == "none":
        ax.set_axis_off()
    else:
        for axis, (low, high) in zip((ax.xaxis, ax.yaxis, ax.zaxis), box, strict=True):
            axis.set_ticks(np.linspace(low, high, ticks) if ticks else [])
        suffix = f" ({unit})" if unit else ""
        ax.set(xlabel="x" + suffix, ylabel="y" + suffix, zlabel="z" + suffix)
        ax.tick_params(labelsize=7, pad=0)
    if title:
        _figure_title(ax, title)
    return ax


def _figure_title(ax: Any, title: str) -> None:
    """The title as a text marker above the axes (an axes title costs ~9 ms per redraw).

    The marker is centred over the axes' horizontal extent in the figure and
    shrunk to fit its width.
    """
    figure = ax.figure
    box = ax.get_position(original=True)
    if box.y1 < 1.0 and ax.figure.subplotpars.top == box.y1:  # frame_axes made room above
        box = box.from_extents(box.x0, box.y0, box.x1, 1.0)
    width_points = box.width * figure.get_figwidth() * 72.0
    size = 10.0
    _, _, text_width = text_marker(title, size)
    if text_width > 0.96 * width_points:
        size *= 0.96 * width_points / text_width
    size = round(size, 1)
    marker, marker_size, _ = text_marker(title, size)
    text_height = 2.0 * float(np.abs(centred_text_path(title, size)[0].vertices[:, 1]).max())
    height_points = figure.get_figheight() * 72.0
    y = box.y1 - (0.5 * text_height + 4.0) / height_points
    label = Line2D(
        [box.x0 + 0.5 * box.width],
        [y],
        transform=figure.transFigure,
        ls="none",
        marker=marker,
        ms=marker_size,
        mew=0.0,
        color="#222222",
    )
    label.set_gid("robolab-frame-axes-title")
    figure.add_artist(label)


class FrameTriad:
    """A coordinate frame drawn as three coloured axes, moved in place by :meth:`set_pose`.

    Made by :func:`draw_frame` (which explains the options). The x, y and z
    axes are drawn in :data:`TRIAD_COLOURS`; their labels are text markers,
    and all the labels of a triad are one artist, so a triad adds about
    0.7 ms to a redraw and moving it costs microseconds.

    Attributes
    ----------
    axes : Axes3D
        Where it is drawn.
    lines : tuple of 3 Line3D
        The x, y and z axes (from the origin to ``length`` along each axis).
    labels : Path3DCollection or None
        The tip labels (three) or the name at the origin (one), drawn as
        one artist; None with ``labels="none"``.
    label_texts : tuple of str
        What the labels say (mathtext), e.g. ``("$x_{b}$", "$y_{b}$", "$z_{b}$")``.
    label_points : ndarray, shape (k, 3)
        Where the labels are, in the coordinates of the axes.
    name : str
    length : float
    """

    def __init__(
        self,
        ax: Any,
        T: Any = None,
        name: str = "",
        *,
        length: float | None = None,
        style: str = "-",
        labels: str = "tips",
        linewidth: float = 2.2,
        fontsize: float = 10.0,
        zorder: float = 6.0,
    ) -> None:
        if getattr(ax, "name", None) != "3d":
            raise ValueError(
                f"ax must be a 3D axes (robolab.frame_axes() or a RobotView's view.axes), "
                f"got {type(ax).__name__}"
            )
        require_choice(labels, "labels", _TRIAD_LABEL_CHOICES)
        if not isinstance(name, str):
            raise TypeError(f"name must be a string such as 'b', got {name!r}")
        if length is None:
            spans = [abs(high - low) for low, high in (ax.get_xlim(), ax.get_ylim(), ax.get_zlim())]
            length = 0.3 * min(spans)
        if not (isinstance(length, float | int) and np.isfinite(length) and length > 0):
            raise ValueError(f"length must be a positive number, got {length!r}")
        self.axes = ax
        self.name = name
        self.length = float(length)
        self.labels_shown = labels
        empty = np.zeros(0)
        self.lines = tuple(
            ax.plot(
                empty,
                empty,
                empty,
                style,
                color=colour,
                lw=linewidth,
                solid_capstyle="round",
                zorder=zorder,
            )[0]
            for colour in TRIAD_COLOURS
        )
        bare = name.strip("{}")
        if labels == "tips":
            texts = [f"${letter}_{{{bare}}}$" if bare else f"${letter}$" for letter in "xyz"]
            colours: tuple[str, ...] = TRIAD_COLOURS
        elif labels == "origin":
            texts, colours = [f"{{{bare}}}"], ("#222222",)
        else:
            texts, colours = [], ()
        self.labels = (
            text_collection(ax, np.zeros((len(texts), 3)), texts, colours, fontsize, zorder + 1)
            if texts
            else None
        )
        self.label_texts = tuple(texts)
        self.label_points = np.zeros((len(texts), 3))
        self._pose = np.eye(4)
        self.set_pose(np.eye(4) if T is None else T)

    @property
    def pose(self) -> np.ndarray:
        """The pose drawn, ``T`` (4×4, in the coordinates of the axes)."""
        return self._pose.copy()

    def set_pose(self, T: ArrayLike, *, draw: bool = False) -> None:
        """Move the triad to pose ``T``, in place (no new artists).

        Parameters
        ----------
        T : array_like, shape (4, 4) or (3, 3)
            A homogeneous transform, or a rotation matrix (origin at 0).
        draw : bool
            Ask the canvas to redraw (``draw_idle``). A
            :func:`robolab.live_figure` redraws by itself after its update
            function, so the default is False.
        """
        array = as_float_array(T, "T", (None, None))
        if array.shape == (3, 3):
            require_rotation(array, "T")
            pose = np.eye(4)
            pose[:3, :3] = array
        elif array.shape == (4, 4):
            require_transform(array, "T")
            pose = array.copy()
        else:
            raise ValueError(
                f"T must be a 4×4 transform or a 3×3 rotation matrix, got shape {array.shape}"
            )
        self._pose = pose
        origin = pose[:3, 3]
        tips = origin + self.length * pose[:3, :3].T  # row k: tip of axis k
        for line, tip in zip(self.lines, tips, strict=True):
            line.set_data_3d(*np.column_stack([origin, tip]))
        if self.labels_shown == "tips":
            self.label_points = origin + 1.18 * self.length * pose[:3, :3].T
        elif self.labels_shown == "origin":
            self.label_points = (origin - 0.16 * self.length * np.ones(3) / np.sqrt(3.0))[None]
        if self.labels is not None:
            self.labels.set_points(self.label_points)
        if draw:
            self.axes.figure.canvas.draw_idle()

    def _artists(self) -> tuple[Any, ...]:
        return (*self.lines, self.labels) if self.labels is not None else self.lines

    def set_visible(self, visible: bool) -> None:
        """Show or hide the triad and its labels."""
        for artist in self._artists():
            artist.set_visible(bool(visible))

    def remove(self) -> None:
        """Take the triad off its axes."""
        for artist in self._artists():
            artist.remove()
        self.lines, self.labels = (), None

    def __repr__(self) -> str:
        origin = ", ".join(f"{float(np.round(v, 3)) + 0.0:g}" for v in self._pose[:3, 3])
        return f"<FrameTriad {{{self.name.strip('{}')}}} at origin ({origin})>"


def draw_frame(
    ax: Any,
    T: ArrayLike | None = None,
    name: str = "",
    *,
    length: float | None = None,
    style: str = "-",
    labels: str = "tips",
    linewidth: float = 2.2,
    fontsize: float = 10.0,
    zorder: float = 6.0,
) -> FrameTriad:
    """Draw the frame of pose ``T`` as a labelled triad; :meth:`FrameTriad.set_pose` moves it.

    The columns of the rotation part of ``T`` are drawn from its origin as
    the x, y and z axes, coloured :data:`TRIAD_COLOURS` (vermillion, teal,
    indigo: apart for readers with any common colour-vision deficiency).

    Parameters
    ----------
    ax : Axes3D
        A 3D axes: :func:`frame_axes`, or a robot view's ``view.axes``
        (a target frame beside the arm, say).
    T : array_like, shape (4, 4) or (3, 3), optional
        Pose in the coordinates of the axes (a rotation matrix puts the
        origin at 0); default the identity.
    name : str
        The frame's name: ``"b"`` labels the axis tips ``x_b, y_b, z_b``.
    length : float, optional
        Length of each axis; default 30 % of the smallest axis range.
    style : str
        Line style: ``"-"`` (solid) or ``"--"`` (dashed, e.g. a fixed frame).
    labels : {"tips", "origin", "none"}
        Axis names at the tips, the frame's name ``{b}`` next to the origin
        (for many frames in one picture), or no labels.
    linewidth, fontsize, zorder : float
        Line width (points), label size (points), drawing order.

    Returns
    -------
    FrameTriad

    Examples
    --------
    >>> import numpy as np, robolab
    >>> ax = robolab.frame_axes((-1, 1))
    >>> b = robolab.draw_frame(ax, np.eye(4), "b", length=1.0)
    >>> b.set_pose(robolab.trotz(np.pi / 2) @ robolab.transl(0.5, 0, 0))
    >>> x_axis = np.array(b.lines[0].get_data_3d())  # from the origin to the tip of x_b
    >>> x_axis.T.round(3) + 0.0
    array([[0. , 0.5, 0. ],
           [0. , 1.5, 0. ]])
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    return FrameTriad(
        ax,
        T,
        name,
        length=length,
        style=style,
        labels=labels,
        linewidth=linewidth,
        fontsize=fontsize,
        zorder=zorder,
    )
