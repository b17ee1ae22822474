"""Convert a URDF file into a robolab robot model file.

Usage::

    python -m robolab.models.convert robot.urdf --ee-link LINK [--base-link LINK] \
        [--plausibility-exception URDF_LINK CHECK REASON] -o robots/NAME.json

The chain from the base link to the end-effector link becomes the model's
joints; links fixed to a chain body are lumped into it, side branches with
movable joints (gripper fingers) are locked at q = 0 and lumped too, and
everything the conversion assumed is printed and recorded in the file's
``source.changes`` (see :func:`robolab.models.urdf.serial_chain_from_urdf`). The chain
goes through the plausibility check of :func:`robolab.load_robot` (the triangle inequality
of every body's principal moments), with the URDF's link names: a failure is refused
unless ``--plausibility-exception URDF_LINK inertia_triangle REASON`` accepts it, and the
accepted exception is written into the file. The URDF
is only read: nothing is fetched, meshes are ignored. Like every robot file it
must be a regular UTF-8 file of at most
:data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES`; the output must be a
regular file (or a new one), and not the URDF itself. Anything else — a device, a
FIFO, a directory, an oversized or malformed file, an empty path — ends with exit
status 2 and one ``error:`` line naming the file. The texts given as options are
written into the model file, so each must be one line of at most
:data:`MAX_OPTION_CHARACTERS` characters without control or invisible characters
(stored in Unicode's composed form, NFC); a bad one ends the same way, naming the
option.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> urdf = Path(tempfile.mkdtemp()) / "pendulum.urdf"
>>> _ = urdf.write_text('''<robot name="pendulum"><link name="base"/>
...   <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
...   <inertia ixx="0.08" ixy="0" ixz="0" iyy="0.08" iyz="0" izz="0.001"/></inertial></link>
...   <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/>
...   <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
... </robot>''')
>>> main([str(urdf), "--ee-link", "rod", "-o", str(urdf.with_suffix(".json"))])
wrote ... (1 joint: hinge)
0
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .file_format import shorten
from .library import RobotModelData, save_robot
from .urdf import SerialChain, parse_urdf, serial_chain_from_urdf

__all__ = ["MAX_OPTION_CHARACTERS", "main", "model_from_chain"]

#: Longest text the command line takes for a name, description, citation or link.
MAX_OPTION_CHARACTERS = 1000

#: Unicode categories refused in an option's text: control and format characters
#: (ANSI escapes, NUL, bidi overrides, zero-width spaces), line and paragraph separators,
#: private-use, surrogate and unassigned code points.
_INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def model_from_chain(
    chain: SerialChain,
    *,
    name: str | None = None,
    description: str | None = None,
    citation: str | None = None,
    document: str | None = None,
    gravity: Sequence[float] | None = None,
) -> RobotModelData:
    """A URDF chain as a model file's data, with what is known of it (notes as ``changes``).

    Parameters
    ----------
    chain : SerialChain
        From :func:`robolab.models.urdf.serial_chain_from_urdf` (already a checked
        :class:`RobotModelData`).
    name, description, citation, document : str, optional
        Recorded in the file; defaults say that the URDF is the only source known.
    gravity : array_like, shape (3,), optional
        Gravity in the base frame; default the chain's (the URDF world's gravity,
        ``(0, 0, -9.81)`` unless asked otherwise, written in the base frame).

    Examples
    --------
    >>> from robolab.models.urdf import parse_urdf, serial_chain_from_urdf
    >>> chain = serial_chain_from_urdf(parse_urdf(
    ...     '<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
    ...     'type="continuous"><parent link="a"/><child link="b"/></joint></robot>'))
    >>> model = model_from_chain(chain, citation="nowhere")
    >>> type(model).__name__, model.source["citation"], model.source["changes"][0]
    ('RobotModelData', 'nowhere', "Converted by robolab.models.convert: chain 'a' → 'b'.")
    """
    name = name or chain.name or "robot"
    fields = {f.name: getattr(chain, f.name) for f in dataclasses.fields(RobotModelData)}
    source = dict(chain.source)
    if citation:
        source["citation"] = citation
    if document:
        source["document"] = document
    fields.update(
        name=name,
        description=description
        or f"{name}: {len(chain.joint_names)}-joint chain {chain.base_link} → {chain.ee_link} "
        "converted from URDF",
        gravity=chain.gravity if gravity is None else np.asarray(gravity, dtype=float),
        source=source,
    )
    return RobotModelData(**fields)


def _option_text(value: str | None, option: str, *, normalize: bool = True) -> str | None:
    """An option's text, checked: one visible line of at most MAX_OPTION_CHARACTERS."""
    if value is None:
        return None
    expected = (
        f"expected one line of at most {MAX_OPTION_CHARACTERS} characters without control "
        "or invisible characters"
    )
    if not value.strip():
        raise ValueError(f"{option}: {expected}, got an empty text")
    if len(value) > MAX_OPTION_CHARACTERS:
        raise ValueError(f"{option}: {expected}, got {len(value)} characters")
    bad = next((c for c in value if unicodedata.category(c) in _INVISIBLE), None)
    if bad is not None:
        name = unicodedata.name(bad, f"U+{ord(bad):04X}")
        raise ValueError(f"{option}: {expected}, got {shorten(repr(value), 30)} (it holds {name})")
    return unicodedata.normalize("NFC", value) if normalize else value


def _paths(urdf_text: str, output_text: str) -> tuple[Path, Path]:
    """The two paths; an empty one (``Path("")`` is the current folder) and writing over the
    URDF are refused."""
    for text, option in ((urdf_text, "the URDF file"), (output_text, "-o/--output")):
        if not text.strip():
            raise ValueError(f"{option}: expected a file's path, got {text!r}")
    urdf, output = Path(urdf_text), Path(output_text)
    try:
        same = os.path.samefile(urdf, output)
    except (OSError, ValueError):  # one of them is not there (yet): not the same file
        same = False
    if same:
        raise ValueError(
            f"-o/--output {output} is the URDF file being read; expected a new .json path"
        )
    return urdf, output


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success, 2 on an error).

    An error prints one ``error:`` line on stderr naming the file or option and what was
    expected (argparse's own errors, a missing or unknown option, end with such a line
    after the usage).
    """
    parser = argparse.ArgumentParser(
        prog="python -m robolab.models.convert",
        description="Convert a URDF serial chain into a robolab robot model file (JSON).",
    )
    parser.add_argument("urdf", help="the .urdf file to read")
    parser.add_argument(
        "--ee-link", required=True, help="the end-effector link; says which chain to keep"
    )
    parser.add_argument("--base-link", help="the fixed base link (default: the URDF's root)")
    parser.add_argument("-o", "--output", required=True, help="the .json file to write")
    parser.add_argument("--name", help="model name (default: the URDF's robot name)")
    parser.add_argument("--description", help="one-line description for list_robots()")
    parser.add_argument("--citation", help="where the URDF's numbers come from")
    parser.add_argument(
        "--plausibility-exception",
        nargs=3,
        action="append",
        metavar=("URDF_LINK", "CHECK", "REASON"),
        help="accept a failed plausibility check of the chain body holding URDF_LINK "
        "(CHECK: inertia_triangle or mass), with the REASON recorded in the file; repeatable",
    )
    args = parser.parse_args(argv)
    try:
        urdf, output = _paths(args.urdf, args.output)
        ee_link = _option_text(args.ee_link, "--ee-link", normalize=False)
        base_link = _option_text(args.base_link, "--base-link", normalize=False)
        name = _option_text(args.name, "--name")
        description = _option_text(args.description, "--description")
        citation = _option_text(args.citation, "--citation")
        exceptions = [
            (
                _option_text(link, "--plausibility-exception URDF_LINK", normalize=False),
                check,
                _option_text(reason, "--plausibility-exception REASON"),
            )
            for link, check, reason in args.plausibility_exception or ()
        ]
        chain = serial_chain_from_urdf(
            parse_urdf(urdf), ee_link, base_link, plausibility_exceptions=exceptions
        )
        model = model_from_chain(
            chain,
            name=name,
            description=description,
            citation=citation,
            document=f"URDF file {urdf.name}",
        )
        path = save_robot(model, output, tidy=True)
    except (ValueError, TypeError, OSError) as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    joints = ", ".join(chain.joint_names)
    count = len(chain.joint_names)
    print(f"wrote {path} ({count} joint{'s' if count != 1 else ''}: {joints})")
    for note in chain.notes:
        print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
