"""Screw-form robots for the tests of robolab's Modern Robotics algorithms.

* ``ur5()``: the UR5 of the Modern Robotics book (Lynch & Park, 2017): the
  home-frame link transforms M01..M67, spatial inertias G1..G6 and space screw
  axes Slist given with the book's software for its UR5 examples (chapter 4
  Example 4.5 kinematics with the measured dimensions; the same arrays drive
  the chapter 8 and 11 exercises of the book's Python library).
* ``three_link_book()``: the three-link example of the book's library
  documentation (the first three links of that UR5, with the library's
  screw-axis list, whose first axis has ‖ω‖ = √2); used for the printed digits.
* ``panda_like()``: a 7-DOF arm with the Franka Emika Panda's kinematics
  (Craig's modified DH parameters published by Franka) and inertial
  parameters of realistic size chosen here: full inertia tensors and centre-of-
  mass frames rotated away from the joint frames, so that no term of the
  algorithms is trivially zero.
* ``scara_like()``: a 4-DOF RRPR arm with a prismatic third joint.

These definitions are test data written from the sources above; the
reference numbers the tests compare with come from Pinocchio
(``generate_pinocchio_screw_reference.py``) and from the book.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from robolab import ScrewRobot


def transform(rotation, position) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = rotation
    T[:3, 3] = position
    return T


def rotx(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rotz(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def spatial_inertia(inertia, mass: float) -> np.ndarray:
    G = np.zeros((6, 6))
    G[:3, :3] = inertia
    G[3:, 3:] = mass * np.eye(3)
    return G


# --------------------------------------------------------------------------- the book's UR5

UR5_LINK_FRAMES = np.array(
    [
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.089159], [0, 0, 0, 1]],  # M01
        [[0, 0, 1, 0.28], [0, 1, 0, 0.13585], [-1, 0, 0, 0], [0, 0, 0, 1]],  # M12
        [[1, 0, 0, 0], [0, 1, 0, -0.1197], [0, 0, 1, 0.395], [0, 0, 0, 1]],  # M23
        [[0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0.14225], [0, 0, 0, 1]],  # M34
        [[1, 0, 0, 0], [0, 1, 0, 0.093], [0, 0, 1, 0], [0, 0, 0, 1]],  # M45
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.09465], [0, 0, 0, 1]],  # M56
        [[1, 0, 0, 0], [0, 0, 1, 0.0823], [0, -1, 0, 0], [0, 0, 0, 1]],  # M67
    ],
    dtype=float,
)
UR5_SPATIAL_INERTIAS = np.array(
    [
        np.diag([0.010267495893, 0.010267495893, 0.00666, 3.7, 3.7, 3.7]),  # G1
        np.diag([0.22689067591, 0.22689067591, 0.0151074, 8.393, 8.393, 8.393]),  # G2
        np.diag([0.049443313556, 0.049443313556, 0.004095, 2.275, 2.275, 2.275]),  # G3
        np.diag([0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219]),  # G4
        np.diag([0.111172755531, 0.111172755531, 0.21942, 1.219, 1.219, 1.219]),  # G5
        np.diag([0.0171364731454, 0.0171364731454, 0.033822, 0.1879, 0.1879, 0.1879]),  # G6
    ]
)
UR5_SCREW_AXES = np.array(
    [
        [0, 0, 0, 0, 0, 0],
        [0, 1, 1, 1, 0, 1],
        [1, 0, 0, 0, -1, 0],
        [0, -0.089159, -0.089159, -0.089159, -0.10915, 0.005491],
        [0, 0, 0, 0, 0.81725, 0],
        [0, 0, 0.425, 0.81725, 0, 0.81725],
    ]
)  # Slist: one screw axis per column


def ur5(gravity=(0.0, 0.0, -9.81)) -> ScrewRobot:
    home = np.linalg.multi_dot(list(UR5_LINK_FRAMES))
    return ScrewRobot(
        "UR5 (Modern Robotics)", home, UR5_SCREW_AXES, UR5_LINK_FRAMES, UR5_SPATIAL_INERTIAS,
        gravity=gravity,
    )  # fmt: skip


# --------------------------------------------------------------------------- the book's 3 links

THREE_LINK_FRAMES = np.array(
    [
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.089159], [0, 0, 0, 1]],
        [[0, 0, 1, 0.28], [0, 1, 0, 0.13585], [-1, 0, 0, 0], [0, 0, 0, 1]],
        [[1, 0, 0, 0], [0, 1, 0, -0.1197], [0, 0, 1, 0.395], [0, 0, 0, 1]],
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.14225], [0, 0, 0, 1]],
    ],
    dtype=float,
)
THREE_LINK_INERTIAS = np.array(
    [
        np.diag([0.010267, 0.010267, 0.00666, 3.7, 3.7, 3.7]),
        np.diag([0.22689, 0.22689, 0.0151074, 8.393, 8.393, 8.393]),
        np.diag([0.0494433, 0.0494433, 0.004095, 2.275, 2.275, 2.275]),
    ]
)
THREE_LINK_SCREW_AXES = np.array(
    [[1, 0, 1, 0, 1, 0], [0, 1, 0, -0.089, 0, 0], [0, 1, 0, -0.089, 0, 0.425]]
).T


def three_link_book() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(link_frames, spatial_inertias, screw_axes) of the book library's examples."""
    return THREE_LINK_FRAMES, THREE_LINK_INERTIAS, THREE_LINK_SCREW_AXES


# --------------------------------------------------------------------------- Panda-like


def _modified_dh(a: float, alpha: float, d: float, theta: float = 0.0) -> np.ndarray:
    """Craig: Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)."""
    T = np.eye(4)
    T[:3, :3] = rotx(alpha)
    T[:3, 3] = [a, 0.0, 0.0]
    U = np.eye(4)
    U[:3, :3] = rotz(theta)
    U[:3, 3] = [0.0, 0.0, d]
    return T @ U


# (a_{i-1}, α_{i-1}, d_i) of Franka's published Panda kinematics.
PANDA_DH = [
    (0.0, 0.0, 0.333),
    (0.0, -math.pi / 2, 0.0),
    (0.0, math.pi / 2, 0.316),
    (0.0825, math.pi / 2, 0.0),
    (-0.0825, -math.pi / 2, 0.384),
    (0.0, math.pi / 2, 0.0),
    (0.088, math.pi / 2, 0.0),
]
PANDA_FLANGE = 0.107
# Inertial parameters of realistic size (kg, m, kg·m²), centre of mass in the joint frame.
PANDA_MASSES = [4.97, 0.65, 3.23, 3.59, 1.23, 1.67, 0.74]
PANDA_CENTRES = [
    [0.0039, 0.0021, -0.175],
    [-0.0031, -0.0287, 0.0035],
    [0.0275, 0.0393, -0.0665],
    [-0.0532, 0.1044, 0.0275],
    [-0.012, 0.041, -0.0384],
    [0.0601, -0.0141, -0.0105],
    [0.0105, -0.0043, 0.0616],
]


def _principal_inertia(i: int, mass: float) -> np.ndarray:
    """A full, positive definite inertia tensor (principal moments obey the triangle inequality)."""
    moments = mass * np.array([0.012 + 0.002 * i, 0.010 + 0.001 * i, 0.006 + 0.0015 * i])
    axes = rotz(0.4 + 0.3 * i) @ rotx(0.2 + 0.1 * i)
    return axes @ np.diag(moments) @ axes.T


def panda_like(gravity=(0.0, 0.0, -9.81)) -> ScrewRobot:
    joints = []  # home poses of the joint frames
    T = np.eye(4)
    for a, alpha, d in PANDA_DH:
        T = T @ _modified_dh(a, alpha, d)
        joints.append(T)
    ee = joints[-1] @ transform(rotz(-math.pi / 4), [0.0, 0.0, PANDA_FLANGE])
    screws = np.array([np.r_[J[:3, 2], -np.cross(J[:3, 2], J[:3, 3])] for J in joints]).T
    centres = [
        J @ transform(rotz(0.3 * (i + 1)) @ rotx(0.25), c)  # rotated centre-of-mass frames
        for i, (J, c) in enumerate(zip(joints, PANDA_CENTRES, strict=True))
    ]
    chain = [np.eye(4), *centres, ee]
    link_frames = [np.linalg.solve(chain[i], chain[i + 1]) for i in range(8)]
    inertias = [spatial_inertia(_principal_inertia(i, m), m) for i, m in enumerate(PANDA_MASSES)]
    limits = [(-2.8973, 2.8973), (-1.7628, 1.7628), (-2.8973, 2.8973), (-3.0718, -0.0698),
              (-2.8973, 2.8973), (-0.0175, 3.7525), (-2.8973, 2.8973)]  # fmt: skip
    return ScrewRobot(
        "Panda-like", ee, screws, link_frames, inertias, gravity=gravity, joint_limits=limits
    )


# --------------------------------------------------------------------------- SCARA-like (RRPR)


def scara_like(gravity=(0.0, 0.0, -9.81)) -> ScrewRobot:
    screws = np.array(
        [
            [0, 0, 1, 0, 0, 0],
            [0, 0, 1, 0, -0.4, 0],
            [0, 0, 0, 0, 0, -1],  # prismatic, down
            [0, 0, -1, 0, 0.7, 0],
        ],
        dtype=float,
    ).T
    ee = transform(np.diag([1.0, -1.0, -1.0]), [0.7, 0.0, 0.2])
    centres = [
        transform(rotz(0.1), [0.2, 0.0, 0.3]),
        transform(rotz(-0.2) @ rotx(0.1), [0.55, 0.02, 0.3]),
        transform(np.eye(3), [0.7, 0.0, 0.25]),
        transform(rotz(0.5), [0.7, 0.01, 0.18]),
    ]
    chain = [np.eye(4), *centres, ee]
    link_frames = [np.linalg.solve(chain[i], chain[i + 1]) for i in range(5)]
    masses = [5.0, 3.0, 1.0, 0.5]
    inertias = [spatial_inertia(_principal_inertia(i, m), m) for i, m in enumerate(masses)]
    limits = [(-2.5, 2.5), (-2.5, 2.5), (0.0, 0.2), (-math.pi, math.pi)]
    return ScrewRobot(
        "SCARA-like", ee, screws, link_frames, inertias, gravity=gravity, joint_limits=limits
    )


ARMS = {"ur5": ur5, "panda_like": panda_like, "scara_like": scara_like}


# --------------------------------------------------------------------------- random screw axes

finite = st.floats(-3.0, 3.0, allow_nan=False)

# Joint positions where the book's code is exact: its MatrixExp6 treats ‖ω‖θ < 1e-6 as zero
# (returning the identity rotation), an error of up to 1e-6 that robolab does not make.
book_angles = st.floats(-4.0, 4.0).filter(lambda angle: angle == 0.0 or abs(angle) > 1e-3)


@st.composite
def twists(draw, n):
    """n twists [ω; v]: revolute (unit ω), pitched, non-unit or prismatic, as the book allows."""
    columns = []
    for _ in range(n):
        kind = draw(st.sampled_from(["revolute", "pitched", "scaled", "prismatic"]))
        omega = np.array([draw(finite) for _ in range(3)])
        point = np.array([draw(finite) for _ in range(3)])
        if kind == "prismatic" or np.linalg.norm(omega) < 1e-3:
            v = omega if np.linalg.norm(omega) > 1e-3 else np.array([0.0, 0.0, 1.0])
            columns.append(np.r_[0.0, 0.0, 0.0, v / np.linalg.norm(v)])
            continue
        omega = omega / np.linalg.norm(omega)
        pitch = draw(finite) if kind == "pitched" else 0.0
        scale = draw(st.floats(0.2, 3.0)) if kind == "scaled" else 1.0
        columns.append(scale * np.r_[omega, np.cross(point, omega) + pitch * omega])
    return np.array(columns).T
