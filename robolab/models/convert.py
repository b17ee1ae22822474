"""Convert a URDF file into a robolab robot model file.

Usage::

    python -m robolab.models.convert robot.urdf --ee-link LINK [--base-link LINK] \
        -o robots/NAME.json

The chain from the base link to the end-effector link becomes the model's
joints; links fixed to a chain body are lumped into it, side branches with
movable joints (gripper fingers) are locked at q = 0 and lumped too, and
everything the conversion assumed is printed and recorded in the file's
``source.changes`` (see :func:`robolab.models.urdf.serial_chain_from_urdf`). The URDF
is only read: nothing is fetched, meshes are ignored. Like every robot file it
must be a regular UTF-8 file of at most
:data:`robolab.models.file_format.MAX_ROBOT_FILE_BYTES`; the output must be a
regular file (or a new one). Anything else — a device, a FIFO, a directory, an
oversized or malformed file — ends with exit status 2 and one ``error:`` line
naming the file.

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
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..conventions import DEFAULT_GRAVITY
from .library import RobotModelData, save_robot
from .urdf import SerialChain, parse_urdf, serial_chain_from_urdf

__all__ = ["main", "model_from_chain"]


def model_from_chain(
    chain: SerialChain,
    *,
    name: str | None = None,
    description: str | None = None,
    citation: str | None = None,
    document: str | None = None,
    gravity: Sequence[float] = DEFAULT_GRAVITY,
) -> RobotModelData:
    """A URDF chain as a model file's data, with what is known of it (notes as ``changes``).

    Parameters
    ----------
    chain : SerialChain
        From :func:`robolab.models.urdf.serial_chain_from_urdf` (already a checked
        :class:`RobotModelData`).
    name, description, citation, document : str, optional
        Recorded in the file; defaults say that the URDF is the only source known.
    gravity : array_like, shape (3,)
        Gravity in the base frame.

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
        gravity=np.asarray(gravity, dtype=float),
        source=source,
    )
    return RobotModelData(**fields)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success, 2 on an error)."""
    parser = argparse.ArgumentParser(
        prog="python -m robolab.models.convert",
        description="Convert a URDF serial chain into a robolab robot model file (JSON).",
    )
    parser.add_argument("urdf", type=Path, help="the .urdf file to read")
    parser.add_argument(
        "--ee-link", required=True, help="the end-effector link; says which chain to keep"
    )
    parser.add_argument("--base-link", help="the fixed base link (default: the URDF's root)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the .json file to write")
    parser.add_argument("--name", help="model name (default: the URDF's robot name)")
    parser.add_argument("--description", help="one-line description for list_robots()")
    parser.add_argument("--citation", help="where the URDF's numbers come from")
    args = parser.parse_args(argv)
    try:
        chain = serial_chain_from_urdf(parse_urdf(args.urdf), args.ee_link, args.base_link)
        model = model_from_chain(
            chain,
            name=args.name,
            description=args.description,
            citation=args.citation,
            document=f"URDF file {args.urdf.name}",
        )
        path = save_robot(model, args.output, tidy=True)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    joints = ", ".join(chain.joint_names)
    count = len(chain.joint_names)
    print(f"wrote {path} ({count} joint{'s' if count != 1 else ''}: {joints})")
    for note in chain.notes:
        print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
