"""Regenerate the bundled robot model files in robots/ from their published sources.

Run from the repository root::

    .venv/bin/python tools/generate_models.py          # rewrite every robots/*.json
    .venv/bin/python tools/generate_models.py --check  # fail if a file would change

Every number below is typed in from the source named beside it (see
``robots/README.md`` for the full citations and every change made). The
script converts each source into the file format:

* DH sources (planar2r, planar3r, scara, stanford, puma560): the screw form is
  computed from the standard DH table at q = 0 (joint i's screw axis is z_{i-1}
  through o_{i-1}; the centre-of-mass frame {i} is frame {i} moved to the centre
  of mass; ``G_i = diag(I_c, m 1)``), and the modified (Craig) table of the
  same kinematics is derived exactly (see :func:`standard_to_modified`);
* ur5: the Modern Robotics book's ``M_{i-1,i}``, ``G_i`` and screw axes as
  published; the home pose is their product ``M = M_01 ... M_67``;
* panda: the committed URDF ``robots/urdf/panda.urdf`` is converted with
  :func:`robolab.models.urdf.serial_chain_from_urdf` (hand and fingers lumped into
  link 7); its URDF link frames are Franka's modified DH frames, so the same
  lumped inertias also give the modified and standard DH tables.

The files are written with ``tidy=True``: every number rounded to 12
significant digits (whole degrees exactly), far above the last-bit noise of
the BLAS kernel that computed it, so the files do not depend on the CPU.
``--check`` (and the rewrite) compare what matters: the same keys, strings and
shapes, and every number equal to within ``rel 1e-10`` (a real change of a
source number is far larger; a number that lands on a rounding boundary on
some CPU moves by at most one unit in the 12th digit). Tests check every file
against Pinocchio, independently of this script.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

from robolab.models.library import (
    ModelFileDHTable,
    PlausibilityException,
    RobotModelData,
    format_robot_json,
)
from robolab.models.urdf import parse_urdf, serial_chain_from_urdf
from robolab.spatial.transforms import dh_modified, dh_standard, rotx, transl, trotx

ROBOTS = Path(__file__).resolve().parent.parent / "robots"
PI = math.pi
DEG = PI / 180
INCH = 0.0254
PANDA_URDF_SHA256 = "63792d2679f22c4e41cda2c4d9d903644e628970ad0656b9eec8485113941555"


# --------------------------------------------------------------------------- DH conversions


def dh_frames_at_zero(table: ModelFileDHTable) -> list[np.ndarray]:
    """Poses T_0i of frames {0}..{n} at q = 0."""
    transform = dh_standard if table.convention == "standard" else dh_modified
    frames = [np.eye(4)]
    for a, alpha, d, theta, _ in table.rows:
        frames.append(frames[-1] @ np.asarray(transform(a, alpha, d, theta), dtype=float))
    return frames


def screw_form_from_dh(table: ModelFileDHTable) -> dict[str, np.ndarray]:
    """Home pose, space screw axes, link frames and spatial inertias of a DH table."""
    frames = dh_frames_at_zero(table)
    n = len(table.rows)
    axes = np.zeros((6, n))
    for i, row in enumerate(table.rows):
        # Joint i moves about/along z_{i-1} (standard) or z_i (modified).
        frame = frames[i] if table.convention == "standard" else frames[i + 1]
        z, origin = frame[:3, 2], frame[:3, 3]
        if row[4] == "r":
            axes[:, i] = np.concatenate([z, -np.cross(z, origin)])
        else:
            axes[:, i] = np.concatenate([np.zeros(3), z])
    tool = np.eye(4) if table.tool is None else table.tool
    home = frames[n] @ tool
    com_frames = [np.eye(4)]
    inertias = np.zeros((n, 6, 6))
    for i in range(n):
        com_frames.append(frames[i + 1] @ transl(*table.cm_positions[i]))
        inertias[i, :3, :3] = table.inertia_tensors[i]
        inertias[i, 3:, 3:] = table.masses[i] * np.eye(3)
    com_frames.append(home)
    link_frames = np.array([np.linalg.inv(com_frames[k]) @ com_frames[k + 1] for k in range(n + 1)])
    link_frames[:, 3] = (0.0, 0.0, 0.0, 1.0)
    return {
        "home_ee_pose": home,
        "screw_axes_space": axes,
        "link_frames": link_frames,
        "spatial_inertias": inertias,
    }


def _rigid(a: float, alpha: float) -> np.ndarray:
    """Tx(a) Rx(α)."""
    return transl(a, 0.0, 0.0) @ trotx(alpha)


def standard_to_modified(table: ModelFileDHTable) -> ModelFileDHTable:
    """The modified (Craig) table of the same kinematics and inertial data.

    Modified frame {i} is standard frame {i} moved back by its own row's twist
    and length: ``T^mod_0i = T^std_0i (Tx(a_i) Rx(α_i))⁻¹`` (z along joint i,
    origin on joint i's axis). So row i of the modified table holds
    ``a_{i-1}, α_{i-1}`` of the standard table (``a_0 = α_0 = 0``) with the same
    ``d_i, θ_i``; the last row's ``Tx(a_n) Rx(α_n)`` moves into the tool; a
    centre of mass becomes ``Tx(a_i) Rx(α_i) r`` and an inertia
    ``Rx(α_i) I Rx(α_i)ᵀ``.
    """
    rows, cms, inertias = [], [], []
    previous = (0.0, 0.0)
    for i, (a, alpha, d, theta, letter) in enumerate(table.rows):
        rows.append((previous[0], previous[1], d, theta, letter))
        previous = (a, alpha)
        X = _rigid(a, alpha)
        cms.append((X @ np.append(table.cm_positions[i], 1.0))[:3])
        R = rotx(alpha)
        inertias.append(R @ table.inertia_tensors[i] @ R.T)
    tool = np.eye(4) if table.tool is None else table.tool
    tool = _rigid(*previous) @ tool
    return ModelFileDHTable(
        "modified",
        tuple(rows),
        table.masses.copy(),
        np.array(cms),
        np.array(inertias),
        None if np.allclose(tool, np.eye(4), atol=0) else tool,
    )


def modified_to_standard(table: ModelFileDHTable) -> ModelFileDHTable:
    """The standard table of the same kinematics (inverse of :func:`standard_to_modified`).

    Needs ``a_0 = α_0 = 0`` (the standard table has no base transform); the
    last standard row gets ``a_n = α_n = 0`` and the same tool.
    """
    a0, alpha0 = table.rows[0][:2]
    if a0 != 0 or alpha0 != 0:
        raise ValueError("a_0 and α_0 must be 0 to express the table in standard DH")
    n = len(table.rows)
    rows, cms, inertias = [], [], []
    for i, (_, _, d, theta, letter) in enumerate(table.rows):
        a, alpha = (table.rows[i + 1][0], table.rows[i + 1][1]) if i + 1 < n else (0.0, 0.0)
        rows.append((a, alpha, d, theta, letter))
        X_inv = np.linalg.inv(_rigid(a, alpha))
        cms.append((X_inv @ np.append(table.cm_positions[i], 1.0))[:3])
        R = rotx(alpha)
        inertias.append(R.T @ table.inertia_tensors[i] @ R)
    return ModelFileDHTable(
        "standard", tuple(rows), table.masses.copy(), np.array(cms), np.array(inertias), table.tool
    )


def model_from_standard_dh(
    table: ModelFileDHTable, *, with_modified: bool = True, **metadata
) -> RobotModelData:
    """A model whose screw part is computed from a standard DH table."""
    dh = {"standard": table}
    if with_modified:
        dh["modified"] = standard_to_modified(table)
    return RobotModelData(**screw_form_from_dh(table), dh=dh, **metadata)


def rod_inertia(mass: float, length: float) -> np.ndarray:
    """Uniform slender rod along x about its centre: diag(0, m L²/12, m L²/12)."""
    moment = mass * length**2 / 12
    return np.diag([0.0, moment, moment])


def cylinder_inertia(mass: float, radius: float, length: float) -> np.ndarray:
    """Solid cylinder along z about its centre: diag(m(3r² + L²)/12, same, m r²/2)."""
    side = mass * (3 * radius**2 + length**2) / 12
    return np.diag([side, side, mass * radius**2 / 2])


# --------------------------------------------------------------------------- models


def planar2r() -> RobotModelData:
    rows = ((1.0, 0.0, 0.0, 0.0, "r"), (1.0, 0.0, 0.0, 0.0, "r"))
    table = ModelFileDHTable(
        "standard",
        rows,
        masses=np.array([1.0, 1.0]),
        cm_positions=np.array([[-0.5, 0.0, 0.0], [-0.5, 0.0, 0.0]]),
        inertia_tensors=np.array([rod_inertia(1.0, 1.0), rod_inertia(1.0, 1.0)]),
    )
    return model_from_standard_dh(
        table,
        name="planar2r",
        description=(
            "Planar 2R arm in a vertical plane: two uniform 1 m, 1 kg links (Spong's planar elbow)"
        ),
        gravity=np.array([0.0, -9.81, 0.0]),
        joint_names=("joint1", "joint2"),
        joint_types=("revolute", "revolute"),
        joint_limits=np.array([[-PI, PI], [-PI, PI]]),
        source={
            "citation": (
                "M. W. Spong, S. Hutchinson and M. Vidyasagar, Robot Modeling and Control, "
                "Wiley, 2006, chapter 7 (the planar elbow manipulator); numbers as in P. Corke's "
                "Robotics Toolbox model mdl_twolink (a1 = a2 = 1 m, m1 = m2 = 1 kg, centre of "
                "mass at mid-link)"
            ),
            "document": "mdl_twolink.m (Robotics Toolbox for MATLAB, release 10)",
            "changes": [
                "Each link is a uniform slender rod: I_c = diag(0, m l²/12, m l²/12) in frame "
                "{i} (mdl_twolink has point masses, I = 0).",
                "The arm moves in the x0-y0 plane with gravity (0, -9.81, 0), i.e. y0 points "
                "up, as in Spong's figure (mdl_twolink instead rotates the base by Rx(π/2)).",
                "Joint limits (-π, π): the DH model's default (none are published).",
            ],
        },
    )


def planar3r() -> RobotModelData:
    rows = tuple((1.0, 0.0, 0.0, 0.0, "r") for _ in range(3))
    table = ModelFileDHTable(
        "standard",
        rows,
        masses=np.ones(3),
        cm_positions=np.array([[-0.5, 0.0, 0.0]] * 3),
        inertia_tensors=np.array([rod_inertia(1.0, 1.0)] * 3),
    )
    return model_from_standard_dh(
        table,
        name="planar3r",
        description="Planar 3R arm in a vertical plane: three uniform 1 m, 1 kg links",
        gravity=np.array([0.0, -9.81, 0.0]),
        joint_names=("joint1", "joint2", "joint3"),
        joint_types=("revolute",) * 3,
        joint_limits=np.array([[-PI, PI]] * 3),
        source={
            "citation": (
                "Kinematics of P. Corke's Robotics Toolbox model mdl_planar3 (three revolute "
                "links, a = 1 m each, standard DH); links modelled like Spong's planar elbow "
                "(M. W. Spong, S. Hutchinson and M. Vidyasagar, Robot Modeling and Control, "
                "Wiley, 2006, chapter 7) extended by a third link"
            ),
            "document": "mdl_planar3.m (Robotics Toolbox for MATLAB, release 10)",
            "changes": [
                "mdl_planar3 is kinematic only; each link is given a mass of 1 kg as a uniform "
                "slender rod: centre of mass at mid-link, I_c = diag(0, m l²/12, m l²/12).",
                "The arm moves in the x0-y0 plane with gravity (0, -9.81, 0) (y0 up).",
                "Joint limits (-π, π): the DH model's default (none are published).",
            ],
        },
    )


def scara() -> RobotModelData:
    a1, a2, d1 = 0.325, 0.275, 0.387
    quill = cylinder_inertia(1.0, 0.015, 0.3)
    flange = cylinder_inertia(0.5, 0.04, 0.02)
    table = ModelFileDHTable(
        "standard",
        (
            (a1, 0.0, d1, 0.0, "r"),
            (a2, PI, 0.0, 0.0, "r"),
            (0.0, 0.0, 0.0, 0.0, "p"),
            (0.0, 0.0, 0.0, 0.0, "r"),
        ),
        masses=np.array([5.0, 3.0, 1.0, 0.5]),
        cm_positions=np.array(
            [[-a1 / 2, 0.0, 0.0], [-a2 / 2, 0.0, 0.0], [0.0, 0.0, -0.15], [0.0, 0.0, 0.01]]
        ),
        inertia_tensors=np.array([rod_inertia(5.0, a1), rod_inertia(3.0, a2), quill, flange]),
    )
    return model_from_standard_dh(
        table,
        name="scara",
        description=(
            "SCARA (RRPR) with the Adept Cobra 600's dimensions and idealised link inertias"
        ),
        gravity=np.array([0.0, 0.0, -9.81]),
        joint_names=("joint1", "joint2", "joint3", "joint4"),
        joint_types=("revolute", "revolute", "prismatic", "revolute"),
        joint_limits=np.array(
            [[-50 * DEG, 50 * DEG], [-88 * DEG, 88 * DEG], [0.0, 0.21], [-PI, PI]]
        ),
        source={
            "citation": (
                "Kinematics and joint limits: P. Corke, Robotics Toolbox for MATLAB, model "
                "mdl_cobra600 (Adept Cobra 600: d1 = 0.387 m, a1 = 0.325 m, a2 = 0.275 m, "
                "α2 = π, standard DH); SCARA structure as in M. W. Spong, S. Hutchinson and "
                "M. Vidyasagar, Robot Modeling and Control, Wiley, 2006, chapter 3 (the SCARA "
                "manipulator, RRPR)"
            ),
            "document": "mdl_cobra600.m (Robotics Toolbox for MATLAB, release 10)",
            "changes": [
                "mdl_cobra600 has no inertial data; the links are textbook idealisations chosen "
                "for teaching, not Adept data: links 1 and 2 are uniform slender rods of 5 kg "
                "and 3 kg (centre of mass at mid-link, I_c = diag(0, m l²/12, m l²/12)); link 3 "
                "(the quill) is a solid cylinder of 1 kg, radius 15 mm, length 0.3 m whose "
                "centre is 0.15 m above the quill tip; link 4 (the tool flange) is a solid disc "
                "of 0.5 kg, radius 40 mm, thickness 20 mm, centred 10 mm below the tip.",
                "Joint 4 has no published limit: (-π, π), the DH model's default.",
            ],
        },
    )


def stanford() -> RobotModelData:
    masses = np.array([9.29, 5.01, 4.25, 1.08, 0.630, 0.51])
    # I = [Ixx, Iyy, Izz] about the centre of mass, axes of frame {i} (products are 0).
    moments = [
        [0.276, 0.255, 0.071],
        [0.108, 0.018, 0.100],
        [2.51, 2.51, 0.006],
        [0.002, 0.001, 0.001],
        [0.003, 0.0004, 0.0],
        [0.013, 0.013, 0.0003],
    ]
    # Centres of mass in frame {i}; four entries corrected, see "changes" below.
    cm_positions = np.array(
        [
            [0.0, 0.0175, -0.1105],
            [0.0, -0.1054, 0.0],  # toolbox: -1.054
            [0.0, 0.0, -0.6447],  # toolbox: -6.447
            [0.0, 0.092, -0.054],
            [0.0, 0.00566, 0.003],  # toolbox: 0.566
            [0.0, 0.0, 0.1554],  # toolbox: 1.554
        ]
    )
    table = ModelFileDHTable(
        "standard",
        (
            (0.0, -PI / 2, 0.412, 0.0, "r"),
            (0.0, PI / 2, 0.154, 0.0, "r"),
            (0.0, 0.0, 0.0, -PI / 2, "p"),
            (0.0, -PI / 2, 0.0, 0.0, "r"),
            (0.0, PI / 2, 0.0, 0.0, "r"),
            (0.0, 0.0, 0.263, 0.0, "r"),
        ),
        masses=masses,
        cm_positions=cm_positions,
        inertia_tensors=np.array([np.diag(m) for m in moments]),
    )
    limit = 170 * DEG
    return model_from_standard_dh(
        table,
        name="stanford",
        description=("Stanford arm (RRPRRR), Corke's Robotics Toolbox model (Paul 1981 dynamics)"),
        gravity=np.array([0.0, 0.0, -9.81]),
        joint_names=tuple(f"joint{i}" for i in range(1, 7)),
        joint_types=("revolute", "revolute", "prismatic", "revolute", "revolute", "revolute"),
        joint_limits=np.array(
            [
                [-limit, limit],
                [-limit, limit],
                [12 * INCH, 50 * INCH],
                [-limit, limit],
                [-90 * DEG, 90 * DEG],
                [-limit, limit],
            ]
        ),
        plausibility_exceptions=(
            PlausibilityException(
                5,
                "inertia_triangle",
                "Published moments (Paul 1981, as in Corke's toolbox) Ixx = 0.003, Iyy = 0.0004, "
                "Izz = 0 kg·m² violate the triangle inequality (no rigid body has them); kept "
                "as published because they are the only data, they are positive semi-definite "
                "and M(q) stays positive definite.",
            ),
        ),
        source={
            "citation": (
                "P. Corke, Robotics Toolbox for MATLAB, model mdl_stanford (kinematics from "
                "Stanford AIM-177, Fig. 2.3; dynamics from R. P. Paul, Robot Manipulators: "
                "Mathematics, Programming and Control, MIT Press, 1981, Tables 6.5 and 6.6; "
                "joint limits from Dobrotin & Scheinman, IJCAI 1973)"
            ),
            "document": "mdl_stanford.m (Robotics Toolbox for MATLAB, release 10)",
            "changes": [
                "Centres of mass: the toolbox's values for links 2, 3 and 6 (-1.054, -6.447, "
                "1.554 m) and link 5's y (0.566 m) put centres of mass metres outside an arm "
                "whose reach is about 1.3 m. They read as Paul's centimetre values converted "
                "with the wrong factor (links 1 and 4 and link 5's z are converted cm → m "
                "correctly); they are divided by 10 (links 2, 3, 6) and 100 (link 5 y) to "
                "-0.1054, -0.6447, 0.1554 and 0.00566 m. Not checked against Paul's book itself.",
                "Inertias are used as the toolbox uses them (about the centre of mass, axes of "
                "frame {i}).",
                "Motor inertias Jm and gear ratios G (all 1) are left out: M(q) holds the rigid "
                "links only.",
                "Link 3 has a = 0 as in the MATLAB model (the Python toolbox's Stanford() has "
                "a3 = 0.0203, a value of the Puma 560).",
                "Joint 3's stroke 12..50 in (0.3048..1.27 m) as in the toolbox.",
            ],
        },
    )


def puma560() -> RobotModelData:
    base_height = 26.45 * INCH  # mounting surface to shoulder axis, pedestal included
    moments = [
        [0.0, 0.35, 0.0],
        [0.13, 0.524, 0.539],
        [0.066, 0.086, 0.0125],
        [1.8e-3, 1.3e-3, 1.8e-3],
        [0.3e-3, 0.4e-3, 0.3e-3],
        [0.15e-3, 0.15e-3, 0.04e-3],
    ]
    table = ModelFileDHTable(
        "standard",
        (
            (0.0, PI / 2, base_height, 0.0, "r"),
            (0.4318, 0.0, 0.0, 0.0, "r"),
            (0.0203, -PI / 2, 0.15005, 0.0, "r"),
            (0.0, PI / 2, 0.4318, 0.0, "r"),
            (0.0, -PI / 2, 0.0, 0.0, "r"),
            (0.0, 0.0, 0.0, 0.0, "r"),
        ),
        masses=np.array([0.0, 17.4, 4.8, 0.82, 0.34, 0.09]),
        cm_positions=np.array(
            [
                [0.0, 0.0, 0.0],
                [-0.3638, 0.006, 0.2275],
                [-0.0203, -0.0141, 0.070],
                [0.0, 0.019, 0.0],
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 0.032],
            ]
        ),
        inertia_tensors=np.array([np.diag(m) for m in moments]),
    )
    reason_link1 = (
        "Corke & Armstrong-Hélouvry 1994 (as in Corke's toolbox) give link 1 only its moment "
        "about the joint 1 axis, 0.35 kg·m² (Iyy in frame {1}, whose y axis is joint 1's axis), "
        "and m1 = 0: Armstrong found no value for the mass and it does not enter τ1. Link 1 "
        "only ever rotates about joint 1's fixed axis, so this moment is all that its "
        "dynamics needs."
    )
    return model_from_standard_dh(
        table,
        name="puma560",
        description=(
            "Puma 560, Corke & Armstrong-Hélouvry 1994 parameters; standard and modified DH"
        ),
        gravity=np.array([0.0, 0.0, -9.81]),
        joint_names=tuple(f"joint{i}" for i in range(1, 7)),
        joint_types=("revolute",) * 6,
        joint_limits=np.array(
            [[-160, 160], [-45, 225], [-225, 45], [-110, 170], [-100, 100], [-266, 266]]
        )
        * DEG,
        plausibility_exceptions=(
            PlausibilityException(1, "mass", reason_link1),
            PlausibilityException(1, "inertia_triangle", reason_link1),
            PlausibilityException(
                3,
                "inertia_triangle",
                "The 1994 consensus moments of link 3 (Ixx = 0.066, Iyy = 0.086, Izz = 0.0125 "
                "kg·m², compiled from several published sources) violate the triangle "
                "inequality by 0.0075 kg·m², so no single rigid body has them; kept as "
                "published (positive definite, and M(q) stays positive definite).",
            ),
        ),
        source={
            "citation": (
                "P. Corke and B. Armstrong-Hélouvry, A search for consensus among model "
                "parameters reported for the PUMA 560 robot, Proc. IEEE ICRA, San Diego, 1994, "
                "pp. 1608-1613, as used by P. Corke's Robotics Toolbox (mdl_puma560.m; Python "
                "roboticstoolbox models/DH/Puma560.py); joint limits from Wang & Chen, IEEE "
                "Trans. Robotics and Automation 7(4), 1991"
            ),
            "document": "mdl_puma560.m (Robotics Toolbox for MATLAB, release 10, params of 8/95)",
            "changes": [
                "d1 = 26.45 in = 0.67183 m: the shoulder axis above the mounting surface, "
                "pedestal included (mdl_puma560.m has d1 = 0; the Python toolbox rounds it to "
                "0.672 m).",
                "Motor (armature) inertias Jm, gear ratios G, viscous friction B and Coulomb "
                "friction Tc are left out: M(q) holds the rigid links only.",
                "The modified-DH table is not Armstrong, Khatib & Burdick's (mdl_puma560akb.m, "
                "whose link offsets and frames differ); it is derived exactly from the standard "
                "table above, so both describe the same robot: Craig's frame placement (z_i on "
                "joint i), row i holding a_{i-1}, α_{i-1} of the standard table, d_i and θ_i "
                "unchanged; centres of mass r → Tx(a_i) Rx(α_i) r and inertias "
                "I → Rx(α_i) I Rx(α_i)ᵀ. It keeps Paul's sign of the twists (Corke's "
                "convention), so it differs from Craig's printed Puma table in the sign of α_1 "
                "and in the lengths (Corke's 1994 consensus values).",
            ],
        },
    )


def ur5() -> RobotModelData:
    # Modern Robotics (Lynch & Park), the UR5's dynamic model: M_{i-1,i}, G_i, S_i.
    link_frames = np.array(
        [
            [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.089159], [0, 0, 0, 1]],
            [[0, 0, 1, 0.28], [0, 1, 0, 0.13585], [-1, 0, 0, 0], [0, 0, 0, 1]],
            [[1, 0, 0, 0], [0, 1, 0, -0.1197], [0, 0, 1, 0.395], [0, 0, 0, 1]],
            [[0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0.14225], [0, 0, 0, 1]],
            [[1, 0, 0, 0], [0, 1, 0, 0.093], [0, 0, 1, 0], [0, 0, 0, 1]],
            [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.09465], [0, 0, 0, 1]],
            [[1, 0, 0, 0], [0, 0, 1, 0.0823], [0, -1, 0, 0], [0, 0, 0, 1]],
        ],
        dtype=float,
    )
    diagonals = [
        [0.010267495893, 0.010267495893, 0.00666, 3.7, 3.7, 3.7],
        [0.22689067591, 0.22689067591, 0.0151074, 8.393, 8.393, 8.393],
        [0.049443313556, 0.049443313556, 0.004095, 2.275, 2.275, 2.275],
        [0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219],
        [0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219],
        [0.0171364731454, 0.0171364731454, 0.033822, 0.1879, 0.1879, 0.1879],
    ]
    screw_rows = np.array(
        [
            [0, 0, 1, 0, 0, 0],
            [0, 1, 0, -0.089159, 0, 0],
            [0, 1, 0, -0.089159, 0, 0.425],
            [0, 1, 0, -0.089159, 0, 0.81725],
            [0, 0, -1, -0.10915, 0.81725, 0],
            [0, 1, 0, 0.005491, 0, 0.81725],
        ],
        dtype=float,
    )
    home = np.linalg.multi_dot(list(link_frames))
    return RobotModelData(
        name="ur5",
        description="UR5 of the Modern Robotics course software (Lynch & Park): M_i, G_i, screws",
        home_ee_pose=home,
        screw_axes_space=screw_rows.T.copy(),
        link_frames=link_frames,
        spatial_inertias=np.array([np.diag(d) for d in diagonals]),
        gravity=np.array([0.0, 0.0, -9.81]),
        joint_names=(
            "shoulder_pan_joint",
            "shoulder_lift_joint",
            "elbow_joint",
            "wrist_1_joint",
            "wrist_2_joint",
            "wrist_3_joint",
        ),
        joint_types=("revolute",) * 6,
        joint_limits=np.array([[-2 * PI, 2 * PI]] * 6),
        source={
            "citation": (
                "K. M. Lynch and F. C. Park, Modern Robotics: Mechanics, Planning, and Control, "
                "Cambridge University Press, 2017: the UR5 model used with chapter 8 (Dynamics "
                "of Open Chains) and the book's Coursera course 'Robot Dynamics' and capstone "
                "(the UR5 parameters Mlist, Glist, Slist distributed with the book's software)"
            ),
            "document": (
                "Modern Robotics UR5 parameters: M01..M67, G1..G6, Slist (the 'UR5-parameters' "
                "listing of the book's course material)"
            ),
            "changes": [
                "None to M_{i-1,i}, G_i and the screw axes. home_ee_pose is their product "
                "M = M01 M12 ... M67, which the book's listing leaves implicit.",
                "Joint names are Universal Robots' (shoulder_pan_joint ...); joint limits "
                "±2π rad (±360°, the UR5 data sheet) since the book gives none.",
                "These are the dynamics parameters of the book's course material, with the "
                "UR5's official DH lengths (d1 = 89.159 mm ...); the book's Example 4.5 draws "
                "the UR5 with rounded lengths (W1 = 109 mm, H1 = 89 mm ...) and is not this "
                "model.",
            ],
        },
    )


def panda() -> RobotModelData:
    urdf_path = ROBOTS / "urdf" / "panda.urdf"
    digest = hashlib.sha256(urdf_path.read_bytes()).hexdigest()
    if digest != PANDA_URDF_SHA256:
        raise SystemExit(f"{urdf_path} changed (sha256 {digest}); update the source record")
    chain = serial_chain_from_urdf(parse_urdf(urdf_path), ee_link="panda_hand_tcp")
    # Franka's documented (modified, Craig) DH parameters; the URDF link frames are these frames.
    rows = (
        (0.0, 0.0, 0.333, 0.0, "r"),
        (0.0, -PI / 2, 0.0, 0.0, "r"),
        (0.0, PI / 2, 0.316, 0.0, "r"),
        (0.0825, PI / 2, 0.0, 0.0, "r"),
        (-0.0825, -PI / 2, 0.384, 0.0, "r"),
        (0.0, PI / 2, 0.0, 0.0, "r"),
        (0.088, PI / 2, 0.0, 0.0, "r"),
    )
    # Flange 0.107 m along z7, hand turned by -π/4, tool centre point 0.1034 m further.
    tool = transl(0.0, 0.0, 0.107) @ _rotz4(-PI / 4) @ transl(0.0, 0.0, 0.1034)
    kinematic = ModelFileDHTable(
        "modified", rows, np.zeros(7), np.zeros((7, 3)), np.zeros((7, 3, 3)), tool
    )
    frames = dh_frames_at_zero(kinematic)
    cms, inertias = [], []
    C = np.eye(4)
    for i in range(7):
        C = C @ chain.link_frames[i]  # centre-of-mass frame {i} in the base frame
        T_link_com = np.linalg.inv(frames[i + 1]) @ C
        if not np.allclose(T_link_com[:3, :3], np.eye(3), atol=1e-12):
            raise SystemExit("URDF link frames are not the DH frames")
        cms.append(T_link_com[:3, 3])
        inertias.append(chain.spatial_inertias[i, :3, :3])
    modified = ModelFileDHTable(
        "modified",
        rows,
        chain.spatial_inertias[:, 3, 3].copy(),
        np.array(cms),
        np.array(inertias),
        tool,
    )
    dh_screw = screw_form_from_dh(modified)
    for key in ("home_ee_pose", "screw_axes_space"):
        if not np.allclose(dh_screw[key], getattr(chain, key), atol=1e-12):
            raise SystemExit(f"Franka's DH table and the URDF disagree on {key}")
    return RobotModelData(
        name="panda",
        description=(
            "Franka Emika Panda, 7 joints, Gaz et al. 2019 inertias, hand and fingers lumped "
            "into link 7"
        ),
        home_ee_pose=chain.home_ee_pose,
        screw_axes_space=chain.screw_axes_space,
        link_frames=chain.link_frames,
        spatial_inertias=chain.spatial_inertias,
        gravity=np.array([0.0, 0.0, -9.81]),
        joint_names=chain.joint_names,
        joint_types=chain.joint_types,
        joint_limits=chain.joint_limits,
        dh={"modified": modified, "standard": modified_to_standard(modified)},
        source={
            "citation": (
                "Kinematics: Franka Emika, Robot and interface specifications, Denavit-Hartenberg "
                "parameters (modified DH, Craig) of the Panda and franka_description's URDF. "
                "Inertial parameters: C. Gaz, M. Cognetti, A. Oliva, P. Robuffo Giordano and "
                "A. De Luca, Dynamic identification of the Franka Emika Panda robot with "
                "retrieval of feasible parameters using penalty-based optimization, IEEE "
                "Robotics and Automation Letters 4(4), 2019, pp. 4147-4154, as included in "
                "franka_ros/franka_description (Apache-2.0); hand 0.73 kg and fingers 0.015 kg "
                "each from the same URDF"
            ),
            "document": (
                "robots/urdf/panda.urdf: panda_description/urdf/panda.urdf of the PyPI package "
                "example-robot-data 6.0.0 (upstream franka_ros noetic-devel "
                "franka_description), sha256 " + PANDA_URDF_SHA256
            ),
            "changes": [
                "Converted with robolab.models.urdf.serial_chain_from_urdf("
                "ee_link='panda_hand_tcp'): "
                # the file keeps no friction (below): the chain's friction note does not apply
                + "; ".join(n for n in chain.notes if not n.startswith("joint friction from"))
                + ".",
                "The end effector is panda_hand_tcp, the tool centre point 0.1034 m past the "
                "hand (hand turned -π/4 about the flange axis, flange 0.107 m past frame {7}).",
                "panda_link0's inertia belongs to the fixed base and is not in the model; the "
                "URDF's joint damping, friction and effort/velocity limits are not used.",
                "dh.modified: Franka's DH table with the lumped inertial data in the DH frames "
                "(the URDF link frames are these frames); dh.standard derived from it exactly "
                "(standard frame {i} = modified frame {i} moved by Tx(a_i) Rx(α_i) of the next "
                "row).",
            ],
        },
    )


def _rotz4(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    T = np.eye(4)
    T[:2, :2] = [[c, -s], [s, c]]
    return T


MODELS = {
    "planar2r": planar2r,
    "planar3r": planar3r,
    "scara": scara,
    "stanford": stanford,
    "puma560": puma560,
    "ur5": ur5,
    "panda": panda,
}


def same_content(old: object, new: object, rel: float = 1e-10, abs_: float = 1e-12) -> bool:
    """Whether two parsed model files hold the same model (numbers to ``rel``/``abs_``).

    >>> same_content({"a": [1.0, "r"]}, {"a": [1.0 + 1e-14, "r"]})
    True
    >>> same_content({"a": [1.0]}, {"a": [1.001]}), same_content({"a": 1}, {"b": 1})
    (False, False)
    """
    if isinstance(old, bool) or isinstance(new, bool):
        return old is new
    if isinstance(old, int | float) and isinstance(new, int | float):
        return math.isclose(old, new, rel_tol=rel, abs_tol=abs_)
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(
            same_content(old[key], new[key], rel, abs_) for key in old
        )
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(
            same_content(a, b, rel, abs_) for a, b in zip(old, new, strict=True)
        )
    return type(old) is type(new) and old == new


def up_to_date(path: Path, text: str) -> bool:
    """Whether the file at ``path`` already holds the model that ``text`` describes."""
    if not path.exists():
        return False
    return same_content(json.loads(path.read_text(encoding="utf-8")), json.loads(text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a file would change")
    parser.add_argument("names", nargs="*", help="models to write (default: all)")
    args = parser.parse_args(argv)
    stale = []
    for name in args.names or MODELS:
        text = format_robot_json(MODELS[name](), tidy=True)
        path = ROBOTS / f"{name}.json"
        if up_to_date(path, text):
            continue  # never rewrite a file for a difference in the 12th digit
        if args.check:
            stale.append(path.name)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROBOTS.parent)}")
    if stale:
        print(f"out of date: {', '.join(stale)}; run tools/generate_models.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
