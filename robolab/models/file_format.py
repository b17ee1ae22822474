"""The robot file format: its constants and limits, the data classes, bounded file access.

:class:`RobotModelData` is the one record between a file and a robot (a model file, a
URDF chain; it turns into a :class:`robolab.ScrewRobot` or a :class:`robolab.DHRobot`);
:class:`ModelFileDHTable` is one of its DH tables (the numbers of a file's ``dh``
section; not the display :class:`robolab.dh.table.DHTable` of a DHRobot).
Files are read only if they are regular files of at most :data:`MAX_ROBOT_FILE_BYTES`
bytes. Reading and checking a file's JSON is
:mod:`robolab.models.reading`, writing it :mod:`robolab.models.writing`; the format is
documented in ``robots/README.md`` and ``robots/robot.schema.json``.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..conventions import DH_CONVENTIONS
from ..screw.friction import JointFriction
from ..screw.robot import ScrewRobot
from ..spatial.inertia import PlausibilityException
from ..spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ..support.arguments import as_float_array

__all__ = ["MAX_ROBOT_FILE_BYTES", "SCHEMA_VERSION", "UNITS", "ModelFileDHTable", "RobotModelData"]


#: Version of the file format written by this module (``schema_version`` in the files).
SCHEMA_VERSION = 1


#: The only units the format accepts (SI, radians).
UNITS = {"length": "m", "angle": "rad", "mass": "kg", "time": "s"}


#: Largest robot file robolab reads, in bytes: model files (:func:`read_robot_model`,
#: :func:`load_robot`) and URDF files (:func:`robolab.models.urdf.parse_urdf`,
#: ``python -m robolab.models.convert``). 4 MiB is generous: the bundled Panda model is 11 kB,
#: its URDF 15 kB. A larger file, and anything that is not a regular file (a directory,
#: a device such as ``/dev/zero``, a FIFO), is refused before it is read.
#:
#: >>> MAX_ROBOT_FILE_BYTES
#: 4194304
MAX_ROBOT_FILE_BYTES = 4 * 1024 * 1024


TOP_KEYS = (
    "schema_version",
    "name",
    "description",
    "source",
    "units",
    "gravity",
    "n_joints",
    "joint_names",
    "joint_types",
    "joint_limits",
    "home_ee_pose",
    "screw_axes_space",
    "screw_axes_body",
    "link_frames",
    "spatial_inertias",
    "plausibility_exceptions",
    "friction",
    "dh",
)


#: Keys a file may leave out (screw_axes_body is then computed from the space screw axes).
OPTIONAL_KEYS = ("screw_axes_body", "plausibility_exceptions", "friction", "dh")

#: Keys of the optional ``friction`` object (robolab.JointFriction's parameters).
FRICTION_KEYS = ("viscous", "coulomb", "smoothing")


# A file without schema_version is read as a ModernRoboticsBook.jl model (its robots/models/).
EXCHANGE_KEYS = (
    "name",
    "n_joints",
    "home_ee_pose",
    "screw_axes_space",
    "screw_axes_body",
    "link_frames",
    "spatial_inertias",
    "joint_names",
    "joint_types",
    "joint_limits",
)


DH_KEYS = ("rows", "masses", "cm_positions", "inertia_tensors", "tool")


SOURCE_KEYS = ("citation", "document", "changes")


@dataclass(frozen=True)
class ModelFileDHTable:
    """One Denavit–Hartenberg table of a model file, with the link inertial data in its frames.

    (Named apart from :class:`robolab.dh.table.DHTable`, the checked table of a
    :class:`robolab.DHRobot` and its display.)

    Attributes
    ----------
    convention : {"standard", "modified"}
        See ``docs/conventions.md``.
    rows : tuple of (a, alpha, d, theta, joint_type)
        Constant parts of each row; the joint variable ``q_i`` is added to
        ``theta`` for a revolute joint (``"r"``) and to ``d`` for a prismatic one
        (``"p"``). In the modified convention row i holds ``a_{i-1}, α_{i-1}``.
    masses : ndarray, shape (n,)
    cm_positions : ndarray, shape (n, 3)
        Centre of mass of link i in frame {i}.
    inertia_tensors : ndarray, shape (n, 3, 3)
        Inertia of link i about its centre of mass, axes of frame {i}.
    tool : ndarray, shape (4, 4) or None
        Fixed transform ``T_n,ee`` after frame {n}.
    """

    convention: str
    rows: tuple[tuple[float, float, float, float, str], ...]
    masses: np.ndarray
    cm_positions: np.ndarray
    inertia_tensors: np.ndarray
    tool: np.ndarray | None = None


@dataclass(frozen=True)
class RobotModelData:
    """Everything a robot model file holds, as validated plain arrays.

    The screw part follows the Modern Robotics book: ``screw_axes_space`` has
    shape (6, n) (one column ``[ω; v]`` per joint; the file stores n rows),
    ``link_frames`` (n + 1, 4, 4) are ``M_{i-1,i}`` between centre-of-mass
    frames, ``spatial_inertias`` (n, 6, 6) are ``G_i = [[I_c, 0], [0, m 1]]``.

    Build robots from it with :meth:`to_screw` and :meth:`to_dh`.
    """

    name: str
    description: str
    home_ee_pose: np.ndarray
    screw_axes_space: np.ndarray
    link_frames: np.ndarray
    spatial_inertias: np.ndarray
    gravity: np.ndarray
    joint_names: tuple[str, ...]
    joint_types: tuple[str, ...]
    joint_limits: np.ndarray
    source: dict[str, Any]
    plausibility_exceptions: tuple[PlausibilityException, ...] = ()
    dh: dict[str, ModelFileDHTable] = field(default_factory=dict)
    #: Body screw axes ``B = [Ad_{M⁻¹}] S``, shape (6, n): computed when not given,
    #: kept as read from a file (so that writing it back is exact).
    screw_axes_body: np.ndarray | None = None
    #: True when :mod:`robolab.screw.validation` has passed the screw data: the readers
    #: (:func:`read_robot_model`, :func:`robolab.models.urdf.serial_chain_from_urdf`) set
    #: it, and :meth:`to_screw` then does not check the arrays again
    #: (:meth:`robolab.ScrewRobot.from_checked`). A record built by hand is checked by
    #: ``ScrewRobot(...)`` as any other robot.
    checked: bool = field(default=False, compare=False, repr=False)
    #: Joint friction (viscous, smoothed Coulomb), :class:`robolab.JointFriction`, or None:
    #: the optional ``friction`` object of a file. Only the screw robot uses it
    #: (:meth:`to_screw`); a DH robot has no friction.
    friction: JointFriction | None = None
    #: What a conversion assumed (a URDF chain's lumped links, frozen joints, tilted base);
    #: the robots made from the record carry them (:meth:`robolab.ScrewRobot.summary`).
    #: A file keeps them in its ``source``'s ``changes``.
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.screw_axes_body is None:
            body = (
                adjoint_representation_unchecked(transform_inv_unchecked(self.home_ee_pose))
                @ self.screw_axes_space
            )
            object.__setattr__(self, "screw_axes_body", body)

    @property
    def n_joints(self) -> int:
        """Number of joints n."""
        return len(self.joint_names)

    @property
    def masses(self) -> np.ndarray:
        """Link masses read from the spatial inertias, shape (n,)."""
        return self.spatial_inertias[:, 3, 3].copy()

    def to_screw(self, gravity: Sequence[float] | None = None):
        """Return the model as a :class:`robolab.ScrewRobot` (gravity defaults to the file's).

        The file's ``plausibility_exceptions`` go with it: the robot accepts
        the published idealisations they name (and no other). The arrays of a
        :attr:`checked` record are not checked a second time.

        Examples
        --------
        >>> from robolab.models.reading import read_robot_model
        >>> read_robot_model("planar2r").to_screw().joint_names
        ('joint1', 'joint2')
        """

        arguments = (
            self.name,
            self.home_ee_pose,
            self.screw_axes_space,
            self.link_frames,
            self.spatial_inertias,
            self._gravity(gravity),
            self.joint_names,
            self.joint_types,
            [tuple(limits) for limits in self.joint_limits.tolist()],
            self.plausibility_exceptions,
        )
        # the reader checked the arrays of a checked record: only what it leaves is checked
        robot = (
            ScrewRobot.from_checked(*arguments, notes=self.notes)
            if self.checked
            else ScrewRobot(*arguments, notes=self.notes)
        )
        return robot if self.friction is None else robot.replace(friction=self.friction)

    def to_dh(self, convention: str | None = None, gravity: Sequence[float] | None = None):
        """Return the model as a symbolic :class:`robolab.DHRobot` with the file's numbers.

        Joint variables are ``q1 .. qn`` from :mod:`robolab.symbols`; every
        other entry is a SymPy number built from the parsed float (multiples
        of π/12 become exact multiples of ``sympy.pi``, integers exact
        integers), never by evaluating text.

        Parameters
        ----------
        convention : {"standard", "modified"}, optional
            Which table to use; default ``"standard"`` when the file has it,
            else the only table there is.
        gravity : array_like, shape (3,), optional
            Overrides the file's gravity.
        """
        # lazy: SymPy (under robolab.dh) loads only when a symbolic model is asked for
        from ..dh import symbols
        from ..dh.robot import DHRobot

        table = self._dh_table(convention)

        rows = []
        for i, (a, alpha, d, theta, letter) in enumerate(table.rows):
            q = getattr(symbols, f"q{i + 1}")
            if letter == "r":
                rows.append((_sym(a), _sym(alpha, angle=True), _sym(d), _offset(q, theta), "r"))
            else:
                alpha_s, theta_s = _sym(alpha, angle=True), _sym(theta, angle=True)
                rows.append((_sym(a), alpha_s, _offset(q, d, angle=False), theta_s, "p"))
        tool = None if table.tool is None else _sym_matrix(table.tool)
        robot = DHRobot(*rows, convention=table.convention, tool=tool, name=self.name)
        robot.plausibility_exceptions = self.plausibility_exceptions  # before the inertias
        robot.masses = [_sym(m) for m in table.masses]
        robot.cm_positions = [[_sym(x) for x in r] for r in table.cm_positions]
        robot.inertia_tensors = [_sym_matrix(inertia) for inertia in table.inertia_tensors]
        robot.gravity = [_sym(g) for g in self._gravity(gravity)]
        robot.joint_limits = [tuple(limits) for limits in self.joint_limits.tolist()]
        return robot

    def _gravity(self, gravity: Sequence[float] | None) -> np.ndarray:
        if gravity is None:
            return self.gravity.copy()
        return _array(gravity, "gravity", (3,))

    def _dh_table(self, convention: str | None) -> ModelFileDHTable:
        if not self.dh:
            raise ValueError(
                f"robot {self.name!r} has no DH table (its file has no 'dh' section); "
                "load it with form='screw'"
            )
        if convention is None:
            convention = "standard" if "standard" in self.dh else next(iter(self.dh))
        if convention not in DH_CONVENTIONS:
            raise ValueError(f"convention must be 'standard' or 'modified', got {convention!r}")
        if convention not in self.dh:
            raise ValueError(
                f"robot {self.name!r} has no {convention} DH table; it has: {sorted(self.dh)}"
            )
        return self.dh[convention]


def bundled_files() -> list[Any]:
    folder = resources.files("robolab.robots")
    return sorted(
        (
            entry
            for entry in folder.iterdir()
            if entry.name.endswith(".json") and not entry.name.endswith(".schema.json")
        ),
        key=lambda entry: entry.name,
    )


def read_source(name_or_path: str | os.PathLike) -> tuple[str, str]:
    if not isinstance(name_or_path, str | os.PathLike):
        raise TypeError(
            f"name_or_path must be a robot name or a file path, got {type(name_or_path).__name__}"
        )
    text = os.fspath(name_or_path)
    if not isinstance(name_or_path, os.PathLike):
        for entry in bundled_files():
            if entry.name == f"{text}.json":
                return entry.read_text(encoding="utf-8"), entry.name
    looks_like_path = (
        isinstance(name_or_path, os.PathLike)
        or os.sep in text
        or "/" in text
        or bool(Path(text).suffix)
        or _exists(text)
    )
    if looks_like_path:
        path = Path(text)
        expected = "a .json model file or a .urdf file"
        return read_bounded_text(path, "robot model file", expected), str(path)
    names = ", ".join(entry.name.removesuffix(".json") for entry in bundled_files())
    raise ValueError(
        f"unknown robot {shorten(text)!r}; the bundled robots are: {names} "
        "(or pass the path of a .json model file or a .urdf file)"
    )


def _exists(text: str) -> bool:
    try:
        return os.path.exists(text)
    except ValueError:  # an embedded NUL character: no such file
        return False


def file_kind(text: str) -> str:
    """``"urdf"`` or ``"json"``: what a robot file holds, judged by its content.

    A URDF is XML: its first character, after white space and a byte-order mark, is
    ``<``. Anything else is read as a model file, whose JSON reader names what is wrong
    with it. The file's name plays no part.

    Examples
    --------
    >>> file_kind('  <?xml version="1.0"?><robot name="r"/>'), file_kind('{"name": "arm"}')
    ('urdf', 'json')
    """
    return "urdf" if text.lstrip(" \t\r\n\ufeff").startswith("<") else "json"


#: What ``os.stat`` says a path is, for the error refusing anything but a regular file.
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _file_kind(mode: int) -> str:
    for test, kind in _FILE_KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def read_bounded_text(path: Path, what: str, expected: str) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_ROBOT_FILE_BYTES` bytes.

    ``what`` names the file in errors ("robot model file", "URDF file"),
    ``expected`` says what should have been given ("a .json model file").
    Anything else is refused before a byte is read: ``os.stat`` must say it
    is a regular file (a symbolic link counts as what it points to) no larger
    than the limit. The file is opened with ``O_NONBLOCK`` (a FIFO swapped in
    after the check cannot block the open), checked again on the open
    descriptor, and at most limit + 1 bytes are read, so a file that grows in
    the meantime is refused too.
    """
    limit = MAX_ROBOT_FILE_BYTES
    prefix = f"cannot read {what} {shorten(str(path), keep=100)}"
    try:
        info = os.stat(path)
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    except ValueError as error:  # an embedded NUL character
        raise ValueError(f"{prefix}: {error}") from None

    def refuse_kind(mode: int) -> None:
        if not stat.S_ISREG(mode):
            link = " (through a symbolic link)" if path.is_symlink() else ""
            raise ValueError(
                f"{prefix}: it is {_file_kind(mode)}{link}, not a regular file; expected {expected}"
            )

    def refuse_size(size: str) -> None:
        raise too_large(prefix, size, expected)

    refuse_kind(info.st_mode)
    if info.st_size > limit:
        refuse_size(f"has {info.st_size} bytes")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    with open(descriptor, "rb", closefd=True) as file:
        refuse_kind(os.fstat(descriptor).st_mode)  # replaced since the check?
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise ValueError(f"{prefix}: {error.strerror}") from None
    if len(data) > limit:
        refuse_size("grew while it was read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{prefix}: it is not UTF-8 text (byte {data[error.start]:#04x} at offset "
            f"{error.start}: {error.reason}); expected {expected} saved as UTF-8"
        ) from None


def too_large(prefix: str, size: str, expected: str) -> ValueError:
    """The error for a file or a text larger than :data:`MAX_ROBOT_FILE_BYTES` (one wording).

    Examples
    --------
    >>> print(too_large("URDF text", "has 5000000 bytes", "URDF text"))
    URDF text: it has 5000000 bytes, more than the 4194304 bytes robolab reads \
(robolab.models.file_format.MAX_ROBOT_FILE_BYTES); expected URDF text no larger than that
    """
    return ValueError(
        f"{prefix}: it {size}, more than the {MAX_ROBOT_FILE_BYTES} bytes robolab reads "
        f"(robolab.models.file_format.MAX_ROBOT_FILE_BYTES); expected {expected} "
        "no larger than that"
    )


def check_text_size(text: str, what: str, expected: str) -> None:
    """Refuse ``text`` (given instead of a file) beyond :data:`MAX_ROBOT_FILE_BYTES` in UTF-8.

    The limit and the words are a file's (:func:`read_bounded_text`): the same robot is
    read, or refused, whether it comes as a file or as text.

    Examples
    --------
    >>> check_text_size("<robot/>", "URDF text", "URDF text")
    >>> check_text_size("é" * 3_000_000, "URDF text", "URDF text")
    Traceback (most recent call last):
    ...
    ValueError: URDF text: it has 6000000 bytes, more than the 4194304 bytes robolab reads \
(robolab.models.file_format.MAX_ROBOT_FILE_BYTES); expected URDF text no larger than that
    """
    limit = MAX_ROBOT_FILE_BYTES
    if len(text) > limit:  # at least one byte a character: too large without counting
        raise too_large(what, f"has {len(text)} characters (as many bytes or more)", expected)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise too_large(what, f"has {size} bytes", expected)


def write_text(path: Path, text: str) -> None:
    """Write a model file; a FIFO, device or directory in its place is refused, never waited on."""
    prefix = f"cannot write robot model file {path}"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise ValueError(
            f"{prefix}: it is {_file_kind(mode)}, not a regular file; expected the path of "
            "a .json file to write"
        )
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    try:
        # O_NONBLOCK: a FIFO that appeared since the check fails to open instead of waiting.
        descriptor = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as error:
        raise ValueError(f"{prefix}: {error.strerror}") from None
    with open(descriptor, "wb", closefd=True) as file:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{prefix}: it is {_file_kind(mode)}, not a regular file")
        file.write(text.encode("utf-8"))


def shorten(text: str, keep: int = 12) -> str:
    """``text``, its middle left out when long (``100000000000…000000000000 (5001 digits)``)."""
    if len(text) <= 2 * keep + 10:
        return text
    digits = text.lstrip("+-")
    count = f"{len(digits)} digits" if digits.isdigit() else f"{len(text)} characters"
    return f"{text[:keep]}…{text[-keep:]} ({count})"


def _sym(value: float, angle: bool = False):
    """An exact SymPy number for a parsed float (k·π/12 for angles, integers exactly)."""
    import sympy as sp

    value = float(value)
    if value.is_integer():
        return sp.Integer(int(value))
    if angle:
        k = round(value / (math.pi / 12))
        if k != 0 and float(sp.pi * k / 12) == value:
            return sp.pi * sp.Rational(k, 12)
    return sp.Float(value)


def _offset(q, value: float, angle: bool = True):
    return q + _sym(value, angle=angle) if value != 0 else q


def _sym_matrix(array: np.ndarray):
    import sympy as sp

    return sp.Matrix([[_sym(x) for x in row] for row in np.asarray(array)])


def _array(value: Any, name: str, shape: tuple[int, ...]) -> np.ndarray:

    return as_float_array(value, name, shape)
