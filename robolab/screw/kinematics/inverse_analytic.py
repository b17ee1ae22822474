"""Closed-form inverse kinematics: every solution of a planar 2R, a Puma-type or a UR-type arm.

:func:`inverse_kinematics_analytic` recognises the arm's family from its screw axes at
home (never from its name) and solves it with the Paden–Kahan subproblems, rotations
about one or two axes that carry a point to a point or to a given distance (Murray,
Li & Sastry, *A Mathematical Introduction to Robotic Manipulation*, Murray §3.3.2; Lynch &
Park, *Modern Robotics* §6.1):

* **planar 2R** (two parallel revolute axes): the distance from joint 1 to the target
  fixes joint 2 up to its sign (elbow up / down; Spong, Hutchinson & Vidyasagar, *Robot
  Modeling and Control*, §1.3 and §3.3), then joint 1 turns the tip onto the target;
* **6R with a spherical wrist** whose first two axes intersect (Pieper's decoupling,
  the Puma 560; *Modern Robotics* §6.1.1, Spong §3.3): the last three axes meet in the
  wrist centre, which only joints 1–3 move. Its target position is
  ``T M⁻¹ p_w``; joint 3 sets its distance from the shoulder (elbow up / down), joints
  1 and 2 turn it onto the target (shoulder right / left), and the wrist joints 4, 5
  and 6 make up the remaining rotation (wrist flipped or not): up to 2 × 2 × 2 = 8
  solutions;
* **6R with three parallel middle axes** and intersecting axes 5 and 6 (the UR5; the
  decoupling of Hawkins, *Analytic inverse kinematics for the Universal Robots UR-5/UR-10
  arms*, 2013, in screw form): joints 2–4 move the point where axes 5 and 6 cross in a
  plane perpendicular to them, which fixes joint 1 (two solutions); the tool axis's
  component along that plane's normal fixes joint 5 (two), the rest of the rotation
  joint 6; joints 2, 3 and 4 are then a planar 3R arm (elbow up / down): up to 8.

Every solution is checked by forward kinematics before it is returned; the result says
which lie within the joint limits. A pose out of reach raises :class:`OutOfReachError`
saying how far (metres); an arm of another family raises :class:`NoClosedFormError`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...spatial.rigid_body_motions import (
    log3_vector_unchecked,
    matrix_exp6_unchecked,
    transform_inv_unchecked,
    vec_to_se3_unchecked,
)
from ...support.arguments import as_float_array, as_transform, short_traceback_lines
from ..robot import ScrewRobot
from .forward import forward_kinematics_space

__all__ = [
    "FAMILIES",
    "AnalyticInverseKinematicsResult",
    "NoClosedFormError",
    "OutOfReachError",
    "arm_family",
    "inverse_kinematics_analytic",
]

#: The families with a closed form here, as :func:`arm_family` names them.
FAMILIES = ("planar 2R", "6R spherical wrist (Puma type)", "6R three parallel axes (UR type)")
#: Targets farther than this (m) are out of reach without computing (their squares would
#: leave the floats).
FARTHEST_TARGET = 1e100
#: Geometry tolerance (m, and sine of an angle) for recognising intersecting/parallel axes.
GEOMETRY_TOLERANCE = 1e-9
#: Each returned solution reproduces the target to this (m and rad).
VERIFY_TOLERANCE = 1e-9
#: A distance this close to the edge of the workspace counts as on it (round-off).
_EDGE = 1e-12


class NoClosedFormError(ValueError):
    """The arm belongs to none of the :data:`FAMILIES` with a closed form in robolab."""

    def _render_traceback_(self) -> list[str]:
        """IPython shows it in one line, not as a traceback through robolab."""
        return short_traceback_lines(self)


class OutOfReachError(ValueError):
    """The target cannot be reached; ``distance`` says how far out of reach it is (m or rad)."""

    def __init__(self, message: str, distance: float) -> None:
        super().__init__(message)
        self.distance = distance

    def _render_traceback_(self) -> list[str]:
        """IPython shows it in one line, not as a traceback through robolab."""
        return short_traceback_lines(self)


@dataclass(frozen=True)
class AnalyticInverseKinematicsResult:
    """Every closed-form solution of one target, each checked by forward kinematics.

    Attributes
    ----------
    family : str
        One of :data:`FAMILIES`.
    solutions : ndarray, shape (k, n)
        One configuration per row (radians), each angle moved by a multiple of 2π
        into the joint limits where that is possible, otherwise wrapped to (-π, π].
    branches : tuple of str
        A label per row: ``"elbow up"``, ``"shoulder right, elbow down, wrist flipped"``...
    within_limits : ndarray of bool, shape (k,)
        Whether each row lies within the robot's joint limits.
    residuals : ndarray, shape (k,)
        ``max(‖p - p_d‖, ‖log(Rᵀ R_d)‖)`` of each row (m and rad): all below 1e-9.
    """

    family: str
    solutions: NDArray[np.float64]
    branches: tuple[str, ...]
    within_limits: NDArray[np.bool_]
    residuals: NDArray[np.float64]

    @property
    def feasible(self) -> NDArray[np.float64]:
        """The rows within the joint limits."""
        return self.solutions[self.within_limits]

    def __len__(self) -> int:
        return len(self.solutions)

    def __str__(self) -> str:
        lines = [f"{len(self)} solutions ({self.family}), joint angles in degrees:"]
        width = max(len(b) for b in self.branches)
        for row, branch, inside in zip(
            self.solutions, self.branches, self.within_limits, strict=True
        ):
            angles = " ".join(f"{float(np.degrees(a)) + 0.0:7.1f}" for a in row)
            mark = "" if inside else "  (outside the joint limits)"
            lines.append(f"  {branch:<{width}}  {angles}{mark}")
        return "\n".join(lines)


# --- geometry of the screw axes ---------------------------------------------------------------


def _axis(S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Direction ω and the point of a revolute axis nearest the origin (ω × v)."""
    omega = S[:3]
    return omega, np.cross(omega, S[3:])


def _intersection(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> np.ndarray | None:
    """The common point of two non-parallel lines, or None if they miss each other."""
    (w1, _), (w2, _) = a, b
    if np.linalg.norm(np.cross(w1, w2)) < GEOMETRY_TOLERANCE:
        return None
    return _common_point([a, b])


def _common_point(axes: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """The point on every line of ``axes`` (least squares), or None if there is none."""
    A = sum(np.eye(3) - np.outer(w, w) for w, _ in axes)
    b = sum((np.eye(3) - np.outer(w, w)) @ r for w, r in axes)
    point = np.linalg.lstsq(A, b, rcond=None)[0]
    for w, r in axes:
        if np.linalg.norm(np.cross(w, point - r)) > GEOMETRY_TOLERANCE * max(1.0, np.abs(r).max()):
            return None
    return point


def _parallel(w1: np.ndarray, w2: np.ndarray) -> bool:
    return bool(np.linalg.norm(np.cross(w1, w2)) < GEOMETRY_TOLERANCE)


def arm_family(robot: ScrewRobot) -> str | None:
    """The closed-form family of ``robot`` from its screw axes at home, or None.

    ``"planar 2R"``: two revolute joints with parallel, distinct axes and the tip off
    the second axis. ``"6R spherical wrist (Puma type)"``: six revolute joints, axes 1
    and 2 intersecting, axes 4, 5 and 6 meeting in one point (the wrist centre), axis
    3 neither through the shoulder point nor through the wrist centre.
    ``"6R three parallel axes (UR type)"``: six revolute joints, axes 2, 3 and 4
    parallel and distinct, axis 1 not parallel to them, axes 5 and 6 intersecting,
    axis 5 not parallel to axis 4.

    Examples
    --------
    >>> import robolab
    >>> arm_family(robolab.load_robot("puma560")), arm_family(robolab.load_robot("planar2r"))
    ('6R spherical wrist (Puma type)', 'planar 2R')
    >>> arm_family(robolab.load_robot("ur5"))  # its wrist axes do not meet in one point
    '6R three parallel axes (UR type)'
    >>> arm_family(robolab.load_robot("panda")) is None  # seven joints
    True
    """
    if not isinstance(robot, ScrewRobot):
        raise TypeError(
            f"robot must be a robolab.ScrewRobot (robolab.load_robot('puma560')), "
            f"got {type(robot).__name__}"
        )
    if any(kind != "revolute" for kind in robot.joint_types):
        return None
    axes = [_axis(np.asarray(S)) for S in robot.screw_axes_space.T]
    if robot.n_joints == 2:
        (w1, r1), (w2, r2) = axes
        tip = robot.home_ee_pose[:3, 3]
        apart = np.linalg.norm(np.cross(w1, r2 - r1)) > GEOMETRY_TOLERANCE
        tip_off = np.linalg.norm(np.cross(w2, tip - r2)) > GEOMETRY_TOLERANCE
        return "planar 2R" if _parallel(w1, w2) and apart and tip_off else None
    if robot.n_joints == 6:
        return _six_joint_family(axes)
    return None


def _six_joint_family(axes: list[tuple[np.ndarray, np.ndarray]]) -> str | None:
    """The Puma type (spherical wrist, shoulder axes crossing), the UR type, or None."""
    if _is_ur_type(axes):
        return FAMILIES[2]
    shoulder = _intersection(axes[0], axes[1])
    if shoulder is None or _parallel(axes[3][0], axes[4][0]):
        return None
    if _parallel(axes[4][0], axes[5][0]):
        return None
    wrist = _common_point(axes[3:])
    if wrist is None:
        return None
    w3, r3 = axes[2]
    for point in (shoulder, wrist):
        if np.linalg.norm(np.cross(w3, point - r3)) < GEOMETRY_TOLERANCE:
            return None
    return FAMILIES[1]


def _is_ur_type(axes: list[tuple[np.ndarray, np.ndarray]]) -> bool:
    (w1, _), (w2, r2), (w3, r3), (w4, r4), (w5, _), _ = axes
    if not (_parallel(w2, w3) and _parallel(w3, w4)) or _parallel(w1, w2):
        return False
    for a, b in ((r2, r3), (r3, r4), (r2, r4)):
        if np.linalg.norm(np.cross(w2, b - a)) < GEOMETRY_TOLERANCE:  # the same line
            return False
    return _intersection(axes[4], axes[5]) is not None and not _parallel(w4, w5)


# --- the Paden–Kahan subproblems (Murray, Li & Sastry §3.3.2) ---------------------------------


def _perpendicular(w: np.ndarray, u: np.ndarray) -> np.ndarray:
    return u - w * (w @ u)


def _subproblem_1(w: np.ndarray, r: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    """θ with exp([ξ]θ) p = q for a rotation about (ω, r); 0 when p lies on the axis."""
    u, v = _perpendicular(w, p - r), _perpendicular(w, q - r)
    if np.linalg.norm(u) < GEOMETRY_TOLERANCE or np.linalg.norm(v) < GEOMETRY_TOLERANCE:
        return 0.0
    return math.atan2(float(w @ np.cross(u, v)), float(u @ v))


def _subproblem_2(
    w1: np.ndarray, w2: np.ndarray, r: np.ndarray, p: np.ndarray, q: np.ndarray
) -> list[tuple[float, float]]:
    """(θ1, θ2) with exp([ξ1]θ1) exp([ξ2]θ2) p = q, the axes meeting at r (0, 1 or 2 pairs)."""
    u, v = p - r, q - r
    c = float(w1 @ w2)
    alpha = (c * (w2 @ u) - w1 @ v) / (c * c - 1.0)
    beta = (c * (w1 @ v) - w2 @ u) / (c * c - 1.0)
    cross = np.cross(w1, w2)
    gamma_squared = (u @ u - alpha**2 - beta**2 - 2 * alpha * beta * c) / (cross @ cross)
    if gamma_squared < -_EDGE * max(1.0, float(u @ u)):
        return []
    gammas = (0.0,) if gamma_squared <= 0 else (math.sqrt(gamma_squared), -math.sqrt(gamma_squared))
    pairs = []
    for gamma in gammas:
        z = alpha * w1 + beta * w2 + gamma * cross + r
        pairs.append((_subproblem_1(w1, r, z, q), _subproblem_1(w2, r, p, z)))
    return pairs


def _subproblem_3(
    w: np.ndarray, r: np.ndarray, p: np.ndarray, q: np.ndarray, delta: float
) -> tuple[list[float], float]:
    """θ with ‖exp([ξ]θ) p − q‖ = δ, and how far δ lies outside the reachable range (m)."""
    u, v = _perpendicular(w, p - r), _perpendicular(w, q - r)
    delta_squared = delta**2 - float(w @ (p - q)) ** 2
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    theta0 = math.atan2(float(w @ np.cross(u, v)), float(u @ v))
    planar = math.sqrt(max(delta_squared, 0.0))
    low, high = abs(nu - nv), nu + nv
    if delta_squared < 0 or planar < low - _EDGE * high or planar > high + _EDGE * high:
        # Distance to the reachable range of δ (the rim distance √(d² + h²)).
        height = abs(float(w @ (p - q)))
        nearest = math.hypot(min(max(planar, low), high), height)
        return [], abs(delta - nearest)
    cosine = (nu**2 + nv**2 - planar**2) / (2 * nu * nv)
    spread = math.acos(min(1.0, max(-1.0, cosine)))
    return ([theta0] if spread == 0.0 else [theta0 + spread, theta0 - spread]), 0.0


def _subproblem_4(
    w: np.ndarray, v: np.ndarray, n: np.ndarray, c: float
) -> tuple[list[float], float]:
    """θ with n · R(ω, θ) v = c (a turned vector's component), and by how much c is out.

    With v = v∥ + v⊥ about ω, n · R v = n · v∥ + A cos θ + B sin θ, A = n · v⊥,
    B = n · (ω × v⊥): two solutions, one, or none when |c − n · v∥| > √(A² + B²).
    """
    along = w * (w @ v)
    across = v - along
    A, B = float(n @ across), float(n @ np.cross(w, across))
    rest, size = c - float(n @ along), math.hypot(A, B)
    if size < GEOMETRY_TOLERANCE or abs(rest) > size * (1 + 1e-12) + _EDGE:
        return [], abs(rest) - size
    base, spread = math.atan2(B, A), math.acos(min(1.0, max(-1.0, rest / size)))
    return ([base] if spread == 0.0 else [base + spread, base - spread]), 0.0


def _exp(S: np.ndarray, theta: float) -> np.ndarray:
    return matrix_exp6_unchecked(vec_to_se3_unchecked(S * theta))


def _moved(T: np.ndarray, point: np.ndarray) -> np.ndarray:
    return T[:3, :3] @ point + T[:3, 3]


# --- the two families ---------------------------------------------------------------------------


def _solve_planar_2r(robot: ScrewRobot, position: np.ndarray) -> list[tuple[np.ndarray, str]]:
    S = np.asarray(robot.screw_axes_space)
    (w1, r1), (w2, r2) = _axis(S[:, 0]), _axis(S[:, 1])
    tip = robot.home_ee_pose[:3, 3]
    out_of_plane = float(w1 @ (position - tip))
    if abs(out_of_plane) > GEOMETRY_TOLERANCE:
        raise OutOfReachError(
            f"the target is {abs(out_of_plane):.4g} m out of the plane the planar 2R arm's tip "
            "moves in",
            abs(out_of_plane),
        )
    angles, outside = _subproblem_3(w2, r2, tip, r1, float(np.linalg.norm(position - r1)))
    if not angles:
        raise OutOfReachError(
            f"the target is out of reach of the planar 2R arm by {outside:.4g} m (its distance "
            f"from joint 1 is {np.linalg.norm(_perpendicular(w1, position - r1)):.4g} m)",
            outside,
        )
    solutions = []
    for theta2 in angles:
        theta1 = _subproblem_1(w1, r1, _moved(_exp(S[:, 1], theta2), tip), position)
        solutions.append(np.array([theta1, theta2]))
    return [(q, _elbow_2r(q, w1)) for q in solutions]


def _elbow_2r(q: np.ndarray, w1: np.ndarray) -> str:
    """``"elbow up"`` when the second link turns clockwise about ω (θ2 < 0), as in Spong."""
    return "elbow up" if math.remainder(float(q[1]), 2 * math.pi) < 0 else "elbow down"


def _solve_puma(robot: ScrewRobot, target: np.ndarray) -> list[tuple[np.ndarray, str]]:
    S = np.asarray(robot.screw_axes_space)
    axes = [_axis(S[:, i]) for i in range(6)]
    shoulder = _intersection(axes[0], axes[1])
    wrist = _common_point(axes[3:])
    assert shoulder is not None and wrist is not None  # arm_family said so
    M = np.asarray(robot.home_ee_pose)
    to_wrist = target @ transform_inv_unchecked(M)  # = e1 e2 ... e6
    wrist_target = _moved(to_wrist, wrist)  # only joints 1-3 move the wrist centre
    w3, r3 = axes[2]
    elbows, outside = _subproblem_3(
        w3, r3, wrist, shoulder, float(np.linalg.norm(wrist_target - shoulder))
    )
    if not elbows:
        raise OutOfReachError(
            f"the wrist centre of the target is out of reach by {outside:.4g} m (it is "
            f"{np.linalg.norm(wrist_target - shoulder):.4g} m from the shoulder)",
            outside,
        )
    (w1, _), (w2, _) = axes[0], axes[1]
    (w4, _), (w5, _), (w6, _) = axes[3], axes[4], axes[5]
    on_6 = wrist + w6  # a point on axis 6 (off axis 5): joint 6 leaves it where it is
    off_6 = wrist + _unit_perpendicular(w6)
    solutions = []
    for theta3 in elbows:
        elbow_point = _moved(_exp(S[:, 2], theta3), wrist)
        for theta1, theta2 in _subproblem_2(w1, w2, shoulder, elbow_point, wrist_target):
            arm = _exp(S[:, 0], theta1) @ _exp(S[:, 1], theta2) @ _exp(S[:, 2], theta3)
            rest = transform_inv_unchecked(arm) @ to_wrist  # e4 e5 e6
            for theta4, theta5 in _subproblem_2(w4, w5, wrist, on_6, _moved(rest, on_6)):
                e45 = _exp(S[:, 3], theta4) @ _exp(S[:, 4], theta5)
                theta6 = _subproblem_1(
                    w6, wrist, off_6, _moved(transform_inv_unchecked(e45) @ rest, off_6)
                )
                q = np.array([theta1, theta2, theta3, theta4, theta5, theta6])
                solutions.append((q, _branch(robot, q, shoulder, wrist)))
    return solutions


def _solve_ur(robot: ScrewRobot, target: np.ndarray) -> list[tuple[np.ndarray, str]]:
    S = np.asarray(robot.screw_axes_space)
    axes = [_axis(S[:, i]) for i in range(6)]
    (w1, r1), (w2, r2), (w3, r3), (w4, r4), (w5, _), (w6, _) = axes
    M = np.asarray(robot.home_ee_pose)
    TM = target @ transform_inv_unchecked(M)  # = e1 e2 ... e6
    crossing = _intersection(axes[4], axes[5])
    assert crossing is not None  # arm_family said so
    # Joints 5 and 6 leave the crossing point of their axes alone; joints 2-4 move it in a
    # plane perpendicular to ω2, so its ω2-coordinate stays: that fixes θ1.
    point = _moved(TM, crossing)
    shoulders, outside = _subproblem_4(w1, w2, point - r1, float(w2 @ (crossing - r1)))
    if not shoulders:
        raise OutOfReachError(
            f"the target is out of reach: the crossing of axes 5 and 6 would have to be "
            f"{outside:.4g} m farther from axis 1",
            outside,
        )
    shoulder = r2 + w2 * (w2 @ (_closest_on(axes[0], axes[1]) - r2))
    solutions, shortfalls = [], []
    for theta1 in shoulders:
        e1 = _exp(S[:, 0], theta1)
        G = e1[:3, :3].T @ TM[:3, :3]  # R2 R3 R4 R5 R6, R2 R3 R4 a turn about ω2
        # ω2 · R5 ω6 = ω2 · G ω6 fixes θ5 (the wrist flip).
        wrists, _ = _subproblem_4(w5, w6, w2, float(w2 @ (G @ w6)))
        for theta5 in wrists:
            R5 = _exp(S[:, 4], theta5)[:3, :3]
            theta6 = _subproblem_1(w6, np.zeros(3), G.T @ w2, R5.T @ w2)
            e56 = _exp(S[:, 4], theta5) @ _exp(S[:, 5], theta6)
            K = transform_inv_unchecked(e1) @ TM @ transform_inv_unchecked(e56)  # e2 e3 e4
            reach = _moved(K, r4)  # joint 4 leaves its own axis alone: a planar 2R problem
            elbows, outside = _subproblem_3(w3, r3, r4, r2, float(np.linalg.norm(reach - r2)))
            shortfalls.append(outside)
            for theta3 in elbows:
                theta2 = _subproblem_1(w2, r2, _moved(_exp(S[:, 2], theta3), r4), reach)
                e23 = _exp(S[:, 1], theta2) @ _exp(S[:, 2], theta3)
                off_4 = r4 + _unit_perpendicular(w4)
                theta4 = _subproblem_1(
                    w4, r4, off_4, _moved(transform_inv_unchecked(e23) @ K, off_4)
                )
                q = np.array([theta1, theta2, theta3, theta4, theta5, theta6])
                solutions.append((q, _branch(robot, q, shoulder, r4, point)))
    if not solutions:
        outside = min(shortfalls)
        raise OutOfReachError(
            f"the target is out of reach by {outside:.4g} m: joints 2 and 3 cannot span the "
            "distance from axis 2 to axis 4 it needs",
            outside,
        )
    return solutions


def _closest_on(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The point of line ``b`` nearest line ``a`` (lines not parallel)."""
    (w1, r1), (w2, r2) = a, b
    n = np.cross(w1, w2)
    t = float(np.cross(r1 - r2, w1) @ n) / float(n @ n)
    return r2 + t * w2


def _unit_perpendicular(w: np.ndarray) -> np.ndarray:
    helper = np.eye(3)[int(np.argmin(np.abs(w)))]
    u = np.cross(w, helper)
    return u / np.linalg.norm(u)


def _branch(
    robot: ScrewRobot,
    q: np.ndarray,
    shoulder: np.ndarray,
    wrist: np.ndarray,
    reached: np.ndarray | None = None,
) -> str:
    """Shoulder right/left, elbow up/down, wrist flipped or not, read off the geometry.

    ``wrist`` is a point of link 3 at home (the Puma's wrist centre, a point of the UR's
    axis 4), ``reached`` the target point whose side of the shoulder decides right or
    left (default: ``wrist`` carried by joints 1-3; for the UR the crossing of axes 5
    and 6 at the target).

    The two shoulder solutions turn the waist by θ1 or by about θ1 + π and lean the upper
    arm the other way. Shoulder *right*: the wrist centre lies in front of the shoulder
    along the arm's forward direction (across axes 1 and 2, towards the wrist at home)
    turned by θ1; *left*: behind it, the upper arm reaching over its own back (for the
    Puma this puts the shoulder offset on the other side of the line to the wrist).
    Elbow *up*: the elbow (the point of axis 3 nearest the shoulder point, carried
    along) lies above the shoulder–wrist line in the arm's plane, read in the sense of
    the shoulder branch. Wrist *flipped*: θ5 < 0 (wrapped).
    """
    S = np.asarray(robot.screw_axes_space)
    w1, w2 = S[:3, 0], S[:3, 1]
    forward_home = np.cross(w2, w1)  # across both shoulder axes, pointing to the wrist at home
    forward_home /= np.linalg.norm(forward_home)
    if forward_home @ (wrist - shoulder) < 0:
        forward_home = -forward_home
    turn1 = _exp(S[:, 0], q[0])
    arm_pose = turn1 @ _exp(S[:, 1], q[1]) @ _exp(S[:, 2], q[2])
    wrist_now = _moved(arm_pose, wrist)
    seen = wrist_now if reached is None else reached
    front = float((turn1[:3, :3] @ forward_home) @ (seen - shoulder)) >= 0
    w3, r3 = _axis(S[:, 2])
    elbow_home = r3 + w3 * (w3 @ (shoulder - r3))
    elbow_now = _moved(turn1 @ _exp(S[:, 1], q[1]), elbow_home)
    normal = turn1[:3, :3] @ np.cross(forward_home, w1)  # the arm plane's normal, "front" sense
    side = float(np.cross(elbow_now - shoulder, wrist_now - shoulder) @ normal)
    up = side < 0 if front else side > 0
    flipped = math.remainder(float(q[4]), 2 * math.pi) < 0
    return (
        f"shoulder {'right' if front else 'left'}, elbow {'up' if up else 'down'}, "
        f"wrist {'flipped' if flipped else 'not flipped'}"
    )


# --- the public function ------------------------------------------------------------------------


def _into_limits(q: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Each angle moved by a multiple of 2π into its limits if possible, else into (-π, π]."""
    out = np.array([math.remainder(float(a), 2 * math.pi) for a in q])
    for i, (low, high) in enumerate(limits):
        for k in (0, 1, -1, 2, -2):
            shifted = out[i] + 2 * math.pi * k
            if low - 1e-12 <= shifted <= high + 1e-12:
                out[i] = shifted
                break
    return out


def _joint_summary(joint_types: tuple[str, ...]) -> str:
    """``"7 revolute joints"`` or ``"4 joints: 3 revolute, 1 prismatic"``."""
    counts = {kind: joint_types.count(kind) for kind in dict.fromkeys(joint_types)}
    if len(counts) == 1:
        return f"{len(joint_types)} {joint_types[0]} joints"
    return f"{len(joint_types)} joints: " + ", ".join(f"{n} {k}" for k, n in counts.items())


def _branch_rank(label: str) -> tuple[bool, bool, bool]:
    """Shoulder right before left, elbow up before down, the wrist not flipped first."""
    return ("left" in label, "down" in label, "wrist flipped" in label)


def _residual(robot: ScrewRobot, q: np.ndarray, target: np.ndarray, position_only: bool) -> float:
    reached = forward_kinematics_space(robot, q)
    distance = float(np.linalg.norm(reached[:3, 3] - target[:3, 3]))
    if position_only:
        return distance
    angle = float(np.linalg.norm(log3_vector_unchecked(reached[:3, :3].T @ target[:3, :3])))
    return max(distance, angle)


def inverse_kinematics_analytic(
    robot: ScrewRobot, target: ArrayLike
) -> AnalyticInverseKinematicsResult:
    """Every closed-form solution of ``target`` for a planar 2R, a Puma-type or a UR-type arm.

    Parameters
    ----------
    robot : ScrewRobot
        An arm of one of :data:`FAMILIES`, recognised from its screw axes
        (:func:`arm_family`), e.g. ``robolab.load_robot("puma560")``.
    target : array_like, shape (4, 4) or (3,)
        The end-effector pose T_sd in the space frame, or, for the planar 2R arm
        (whose tip position fixes its configuration), the tip position alone.

    Returns
    -------
    AnalyticInverseKinematicsResult
        Up to 2 (planar 2R) or 8 (Puma and UR types) distinct solutions, each reproducing
        the target to 1e-9 (checked here by forward kinematics), with branch
        labels and which of them lie within the joint limits. At a singular target
        (a wrist centre on axis 1, a straight wrist) the free angle is set to 0.

    Raises
    ------
    NoClosedFormError
        For an arm of another family (the message names the supported ones).
    OutOfReachError
        For a target out of reach; its message and ``distance`` say by how much
        (metres; for a 2R arm's pose whose orientation cannot go with its position,
        radians).

    Examples
    --------
    >>> import numpy as np, robolab
    >>> from robolab.screw.kinematics.inverse_analytic import inverse_kinematics_analytic
    >>> arm = robolab.load_robot("planar2r")
    >>> result = inverse_kinematics_analytic(arm, [1.2, 0.8, 0.0])
    >>> print(result)
    2 solutions (planar 2R), joint angles in degrees:
      elbow up       77.5   -87.7
      elbow down    -10.2    87.7
    >>> puma = robolab.load_robot("puma560")
    >>> T = robolab.forward_kinematics_space(puma, [0.3, 0.5, -0.9, 0.6, 0.8, 0.2])
    >>> result = inverse_kinematics_analytic(puma, T)
    >>> len(result), int(result.within_limits.sum()), bool(result.residuals.max() < 1e-9)
    (8, 2, True)
    >>> inverse_kinematics_analytic(arm, [2.5, 0.0, 0.0])
    Traceback (most recent call last):
    ...
    robolab...OutOfReachError: the target is out of reach of the planar 2R arm by 0.5 m ...
    >>> ur5 = robolab.load_robot("ur5")
    >>> T = robolab.forward_kinematics_space(ur5, [0.3, -1.0, 1.2, 0.4, 0.9, 0.2])
    >>> inverse_kinematics_analytic(ur5, T).family, len(inverse_kinematics_analytic(ur5, T))
    ('6R three parallel axes (UR type)', 8)
    >>> inverse_kinematics_analytic(robolab.load_robot("panda"), T)
    Traceback (most recent call last):
    ...
    robolab...NoClosedFormError: robolab has no closed-form inverse kinematics for 'panda' ...
    """
    family = arm_family(robot)
    if family is None:
        raise NoClosedFormError(
            f"robolab has no closed-form inverse kinematics for {robot.name!r} "
            f"({_joint_summary(robot.joint_types)}); the supported "
            "families are a planar 2R arm (two parallel revolute axes), a 6R arm with a "
            "spherical wrist whose first two axes intersect (Puma type) and a 6R arm with "
            "three parallel middle axes (UR type). Use "
            "inverse_kinematics_space/body (numerical) instead"
        )
    array = as_float_array(target, "target")
    position_only = array.shape == (3,)
    if position_only and family != "planar 2R":
        raise ValueError(
            f"target must be a 4×4 pose for a {family} arm (a position alone leaves the "
            "orientation free), got shape (3,)"
        )
    pose = np.eye(4)
    if position_only:
        pose[:3, 3] = array
    else:
        pose = as_transform(array, "target")
    distance = math.hypot(*pose[:3, 3])
    if distance > FARTHEST_TARGET:
        raise OutOfReachError(
            f"the target is {distance:.4g} m from the origin of the space frame: out of reach of "
            f"any arm (robolab solves for targets within {FARTHEST_TARGET:g} m)",
            distance,
        )
    if family == "planar 2R":
        found = _solve_planar_2r(robot, pose[:3, 3])
    elif family == FAMILIES[1]:
        found = _solve_puma(robot, pose)
    else:
        found = _solve_ur(robot, pose)
    limits = np.array(robot.joint_limits, dtype=float)
    rows: list[np.ndarray] = []
    labels, residuals = [], []
    for q, label in found:
        q = _into_limits(q, limits)
        residual = _residual(robot, q, pose, position_only)
        duplicate = any(
            np.abs(np.remainder(q - r + np.pi, 2 * np.pi) - np.pi).max() < 1e-9 for r in rows
        )
        if residual <= VERIFY_TOLERANCE and not duplicate:
            rows.append(q)
            labels.append(label)
            residuals.append(residual)
    if not rows and family == "planar 2R" and found:
        angle = min(_residual(robot, q, pose, False) for q, _ in found)
        raise OutOfReachError(
            f"the planar 2R arm reaches the target's position only with other orientations: "
            f"the nearest is {angle:.4g} rad away (pass the position alone to get both)",
            angle,
        )
    if not rows:  # pragma: no cover - every subproblem answer is exact up to round-off
        raise OutOfReachError("no solution passed the forward-kinematics check", math.nan)
    order = sorted(range(len(rows)), key=lambda i: _branch_rank(labels[i]))
    solutions = np.array([rows[i] for i in order])
    labels, residuals = [labels[i] for i in order], [residuals[i] for i in order]
    inside = np.all(
        (solutions >= limits[:, 0] - 1e-12) & (solutions <= limits[:, 1] + 1e-12), axis=1
    )
    return AnalyticInverseKinematicsResult(
        family, solutions, tuple(labels), inside, np.array(residuals)
    )
