"""Closed forms and a plain-NumPy DH Jacobian for the singularity tests (chapter 6).

Written from the textbooks, not from robolab: the geometric Jacobian of Spong,
Hutchinson & Vidyasagar, *Robot Modeling and Control*, §4.6 (column i is
[z_{i-1} × (o_n − o_{i-1}); z_{i-1}] for a revolute joint, [z_{i-1}; 0] for a
prismatic one), with the standard DH link transform of §3.2.

The Puma 560 numbers are Corke & Armstrong-Hélouvry's (1994), the table of Corke's
Robotics Toolbox (mdl_puma560.m) with d1 = 0.67183 m.
"""

from __future__ import annotations

import numpy as np

#: Corke's Puma 560, standard DH (a, alpha, d), all joints revolute (theta = q).
PUMA_A2, PUMA_A3, PUMA_D3, PUMA_D4, PUMA_D1 = 0.4318, 0.0203, 0.15005, 0.4318, 0.67183
PUMA_ROWS = [
    (0.0, np.pi / 2, PUMA_D1),
    (PUMA_A2, 0.0, 0.0),
    (PUMA_A3, -np.pi / 2, PUMA_D3),
    (0.0, np.pi / 2, PUMA_D4),
    (0.0, -np.pi / 2, 0.0),
    (0.0, 0.0, 0.0),
]


def dh_standard(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Rz(θ) Tz(d) Tx(a) Rx(α) (Spong §3.2)."""
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array(
        [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [0.0, sa, ca, d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def frames(rows, q, prismatic=()) -> list[np.ndarray]:
    """T_00 … T_0n for standard DH rows (a, alpha, d); joint i adds q_i to θ (or to d)."""
    T, out = np.eye(4), [np.eye(4)]
    for i, ((a, alpha, d), qi) in enumerate(zip(rows, q, strict=True)):
        if i in prismatic:
            T = T @ dh_standard(a, alpha, d + qi, 0.0)
        else:
            T = T @ dh_standard(a, alpha, d, qi)
        out.append(T)
    return out


def geometric_jacobian(rows, q, prismatic=()) -> np.ndarray:
    """6×n Jacobian [v; ω] of the origin of frame {n}, base frame (Spong §4.6)."""
    Ts = frames(rows, q, prismatic)
    o_n = Ts[-1][:3, 3]
    columns = []
    for i in range(len(rows)):
        z, o = Ts[i][:3, 2], Ts[i][:3, 3]
        if i in prismatic:
            columns.append(np.concatenate([z, np.zeros(3)]))
        else:
            columns.append(np.concatenate([np.cross(z, o_n - o), z]))
    return np.array(columns).T


def puma_factors(q) -> dict[str, float]:
    """The Puma's singularity factors derived by hand (the wrist centre is o_4 = o_6, d6 = 0).

    In frame {1} the wrist centre is at x = a2 c2 + a3 c23 - d4 s23 (its reach in the arm's
    plane) and z = -d3; the forearm adds (a3 c3 - d4 s3, a3 s3 + d4 c3) to the elbow in
    frame {2}. Then det J11 = a2 · (a2 c2 + a3 c23 - d4 s23) · (a3 s3 + d4 c3), which
    vanishes when the wrist centre is in the plane of z0 and the upper arm (shoulder) or
    on the line of the upper arm (elbow: a3 s3 + d4 c3 = 0, the component of the forearm
    across the upper arm; Craig §4.7 solves a3 c3 - d4 s3 = K, whose two elbow branches
    merge where K² = a3² + d4², the same condition). det J22 = s5 (axes z3, z4, z5).
    """
    _, q2, q3, _, q5, _ = q
    a2, a3, d4 = PUMA_A2, PUMA_A3, PUMA_D4
    return {
        "shoulder": a2 * np.cos(q2) + a3 * np.cos(q2 + q3) - d4 * np.sin(q2 + q3),
        "elbow": a3 * np.sin(q3) + d4 * np.cos(q3),
        "wrist": np.sin(q5),
        "constant": a2,
    }


def planar_2r_jacobian(q1: float, q2: float, l1: float = 1.0, l2: float = 1.0) -> np.ndarray:
    """The 2×2 linear Jacobian of the planar 2R arm (Spong §4.10)."""
    return np.array(
        [
            [-l1 * np.sin(q1) - l2 * np.sin(q1 + q2), -l2 * np.sin(q1 + q2)],
            [l1 * np.cos(q1) + l2 * np.cos(q1 + q2), l2 * np.cos(q1 + q2)],
        ]
    )
