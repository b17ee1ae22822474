"""Straight-line Python for the dynamics of one state, generated once per robot.

The readable forms of the recursive Newton–Euler algorithm (RNEA), the
composite-rigid-body algorithm (CRBA) and forward dynamics are
:func:`~robolab.inverse_dynamics_rnea_steps`,
:func:`~robolab.screw.dynamics.mass_matrix.composite_rigid_body_algorithm` and
:func:`~robolab.screw.dynamics.forward.articulated_body_algorithm`; for one state NumPy
spends most of its time in the overhead of many small calls. This module writes the same
algorithms for one robot as plain Python arithmetic on floats, with the robot's constants
folded in (a zero entry of a constant rotation costs nothing, a one costs no
multiplication), compiles the source once (:mod:`robolab.support.codegen`) and keeps the
functions on the robot's :class:`~robolab.screw.dynamics.model.DynamicsModel`. The tests
check them against the readable forms and the running sums of
:mod:`robolab.screw._fast.space_frame` to 1e-12 on random states
(``tests/screw/_fast/test_compiled.py``, ``tests/screw/_fast/test_reproduces.py``).

The formulation is Featherstone's in joint-aligned frames, as in
:mod:`robolab.screw._fast.batched` and Pinocchio: joint i carries a frame {J_i} whose z axis lies
on its screw axis, so that its screw is S = (0, 0, k, 0, 0, d) (k = 1, d = 0 for a plain
revolute joint; k = 0 for a prismatic one) and its motion is a rotation by kθ about z with
a slide dθ along z. The transform between neighbouring frames is a constant part C_i,
folded into the code, followed by that screw motion.

* RNEA: V_i = X_i V_{i-1} + S θ̇_i, A_i = X_i A_{i-1} + [ad_{V_i}] S θ̇_i + S θ̈_i
  (A_0 = [0; -g]), F_i = G_i A_i - [ad_{V_i}]ᵀ G_i V_i + X_{i+1}ᵀ F_{i+1}, τ_i = Sᵀ F_i.
* CRBA: composite inertias (10 parameters m, h = m c, I about the frame's origin) carried
  from the tip inwards, M_ij = S_iᵀ X_{i+1}ᵀ ⋯ X_jᵀ Ic_j S_j for i ≤ j.
* Forward dynamics: M θ̈ = τ - RNEA(θ, θ̇, 0) by a Cholesky factorisation written out;
  a pivot d with d² ≤ 1e-12 max diag(M) returns ``None`` (the caller then raises the
  error that names the joint).

Examples
--------
>>> import numpy as np

>>> import robolab
>>> from robolab.screw.dynamics.model import robot_model
>>> arm = robolab.load_robot("planar2r")
>>> compiled = robot_model(arm).compiled
>>> compiled.inverse_dynamics(np.zeros(2), np.zeros(2), np.array([1.0, 0.0]),
...                           None, None).round(6)  # the first column of M(0)
array([2.666667, 0.833333])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import isfinite
from typing import Any

import numpy as np

from ...support.codegen import compiled_once
from .batched import frame_with_z  # the same joint-aligned frames as the batched kernels
from .tracing import (
    MATH,
    Matrix,
    Products,
    Scalar,
    Vector,
    Writer,
    add_terms,
    argument_names,
    cholesky_solve,
    combine,
    constant_matrix,
    constant_vector,
    cross_product,
    function_source,
    minus,
    neg,
    rotate,
    twist_by,
    wrench_by_transpose,
)

__all__: list[str] = []

#: Entries of the constant rotations and offsets this close to 0 or ±1 are taken as exact.
_SNAP = 1e-15


def _snap(values: np.ndarray) -> np.ndarray:
    """Round entries within 1e-15 of 0 or ±1 to exactly that (rounding noise of the data)."""
    out = np.array(values, dtype=float)
    for target in (0.0, 1.0, -1.0):
        out[np.abs(out - target) < _SNAP] = target
    return out


# --------------------------------------------------------------------------- per-robot constants


def _inverse(T: np.ndarray) -> np.ndarray:
    R, p = T[:3, :3], T[:3, 3]
    out = np.eye(4)
    out[:3, :3] = R.T
    out[:3, 3] = -R.T @ p
    return out


def _adjoint(T: np.ndarray) -> np.ndarray:
    R, p = T[:3, :3], T[:3, 3]
    skew = np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
    out = np.zeros((6, 6))
    out[:3, :3] = R
    out[3:, 3:] = R
    out[3:, :3] = skew @ R
    return out


class _JointFrames:
    """Constants of the joint-aligned formulation for one robot (see the module notes).

    ``to_child[i]`` = (R, p) of C_i⁻¹, the constant part of the transform that writes a
    twist of {J_{i-1}} in {J_i}; ``rates[i]``, ``slides[i]`` = k, d; ``inertias[i]`` =
    (m, h, I) of link i about the origin of {J_i}; ``tip`` = (R, p) of T_{ee, J_n}.
    """

    def __init__(
        self, link_frames: np.ndarray, spatial_inertias: np.ndarray, screw_axes: np.ndarray
    ) -> None:
        screws = np.asarray(screw_axes, dtype=float)
        n = self.n = screws.shape[1]
        centres = [np.eye(4)]
        for frame in np.asarray(link_frames, dtype=float):
            centres.append(centres[-1] @ frame)
        centres = centres[1:]  # M_0i, i = 1..n+1
        joints = []
        self.rates: list[float] = []
        self.slides: list[float] = []
        for i in range(n):
            omega, v = screws[:3, i], screws[3:, i]
            k = float(np.linalg.norm(omega))
            if k > 0.0:
                joints.append(frame_with_z(omega / k, np.cross(omega, v) / (k * k)))
                self.rates.append(k)
                self.slides.append(float(omega @ v) / k)
            else:
                d = float(np.linalg.norm(v))
                joints.append(frame_with_z(v / d, centres[i][:3, 3]))
                self.rates.append(0.0)
                self.slides.append(d)
        self.to_child = []
        parent = np.eye(4)
        for i in range(n):
            C_inverse = _inverse(_inverse(parent) @ joints[i])
            self.to_child.append((_snap(C_inverse[:3, :3]), _snap(C_inverse[:3, 3])))
            parent = joints[i]
        self.inertias = []
        G_all = np.asarray(spatial_inertias, dtype=float)
        for i in range(n):
            A = _adjoint(_inverse(centres[i]) @ joints[i])
            G = A.T @ G_all[i] @ A
            m = float(G[3, 3])
            h = np.array([G[2, 4], G[0, 5], G[1, 3]])
            inertia = 0.5 * (G[:3, :3] + G[:3, :3].T)
            # Entries 1e-13 of the link's largest are rounding noise of the transforms (e.g.
            # 8e-19 next to 0.2): as zeros they cost no multiplication.
            scale = max(abs(m), float(np.abs(h).max()), float(np.abs(inertia).max()))
            h[np.abs(h) < 1e-13 * scale] = 0.0
            inertia[np.abs(inertia) < 1e-13 * scale] = 0.0
            self.inertias.append((m, h, inertia))
        tip = _inverse(centres[n]) @ joints[n - 1]  # T_{ee, J_n}
        self.tip = (_snap(tip[:3, :3]), _snap(tip[:3, 3]))


# --------------------------------------------------------------------------- the algorithms, traced


class _Trace:
    """Writes the code of one function for one robot; the joint trigonometry is shared."""

    def __init__(self, frames: _JointFrames) -> None:
        self.frames = frames
        self.writer = Writer()
        n = frames.n
        self.cos: list[Scalar] = []
        self.sin: list[Scalar] = []
        self.slide: list[Scalar] = []
        for i in range(n):
            k, d = frames.rates[i], frames.slides[i]
            if k != 0.0:
                angle = f"q{i}" if k == 1.0 else f"{k!r}*q{i}"
                self.writer.line(f"c{i} = cos({angle})")
                self.writer.line(f"s{i} = sin({angle})")
                self.cos.append((1.0, f"c{i}"))
                self.sin.append((1.0, f"s{i}"))
            else:
                self.cos.append(1.0)
                self.sin.append(0.0)
            self.slide.append((d, f"q{i}") if d != 0.0 else 0.0)

    # The joint's screw motion Z(θ) = (Rot_z(kθ), (0, 0, dθ)) and its inverse.
    def _screw_inverse(self, i: int) -> tuple[Matrix, Vector]:
        c, s, t = self.cos[i], self.sin[i], self.slide[i]
        minus_s = neg(s)
        R: Matrix = [[c, s, 0.0], [minus_s, c, 0.0], [0.0, 0.0, 1.0]]
        return R, [0.0, 0.0, neg(t)]

    def twist_to_child(self, i: int, V: Vector) -> Vector:
        """V of {J_{i-1}} written in {J_i}: the constant part, then the joint's screw."""
        R, p = self.frames.to_child[i]
        W = twist_by(self.writer, constant_matrix(R), constant_vector(p), V)
        Rz, pz = self._screw_inverse(i)
        return twist_by(self.writer, Rz, pz, W)

    def wrench_to_parent(self, i: int, F: Vector) -> Vector:
        """F of {J_i} written in {J_{i-1}} (the transpose of :meth:`twist_to_child`)."""
        Rz, pz = self._screw_inverse(i)
        W = wrench_by_transpose(self.writer, Rz, pz, F)
        R, p = self.frames.to_child[i]
        return wrench_by_transpose(self.writer, constant_matrix(R), constant_vector(p), W)

    def inertia_times(self, i: int, V: Vector) -> Products:
        """G_i V = [I ω + h × v; m v - h × ω] as products."""
        m, h, inertia = self.frames.inertias[i]
        hs: Vector = [float(x) for x in h]
        rotational: Matrix = constant_matrix(inertia)
        angular = add_terms(rotate(rotational, V[:3]), cross_product(hs, V[3:]))
        linear = add_terms([[(m, (V[3 + j],))] for j in range(3)], minus(cross_product(hs, V[:3])))
        return angular + linear

    def rnea(self, has_qd: bool, has_qdd: bool, has_gravity: bool, has_tip: bool) -> list[Scalar]:
        frames, writer = self.frames, self.writer
        n = frames.n
        V: Vector = [0.0] * 6
        A: Vector = [0.0] * 6
        if has_gravity:
            A[3:] = [(-1.0, "g0"), (-1.0, "g1"), (-1.0, "g2")]  # the base's fictitious -g
        links: list[tuple[Vector, Vector]] = []
        for i in range(n):
            k, d = frames.rates[i], frames.slides[i]
            V = self.twist_to_child(i, V)
            A = self.twist_to_child(i, A)
            rate: Scalar = (1.0, f"qd{i}") if has_qd else 0.0
            acceleration: Scalar = (1.0, f"qdd{i}") if has_qdd else 0.0
            # [ad_V] S θ̇ with S = (0, 0, k, 0, 0, d), from V before S θ̇ is added.
            A = combine(
                writer,
                [
                    [(1.0, (A[0],)), (k, (rate, V[1]))],
                    [(1.0, (A[1],)), (-k, (rate, V[0]))],
                    [(1.0, (A[2],)), (k, (acceleration,))],
                    [(1.0, (A[3],)), (k, (rate, V[4])), (d, (rate, V[1]))],
                    [(1.0, (A[4],)), (-k, (rate, V[3])), (-d, (rate, V[0]))],
                    [(1.0, (A[5],)), (d, (acceleration,))],
                ],
            )
            V = list(V)
            V[2] = combine(writer, [[(1.0, (V[2],)), (k, (rate,))]])[0]
            V[5] = combine(writer, [[(1.0, (V[5],)), (d, (rate,))]])[0]
            links.append((V, A))
        wrenches: list[Vector] = []
        for i in range(n):
            V, A = links[i]
            forces = self.inertia_times(i, A)
            if has_qd:
                momentum = combine(writer, self.inertia_times(i, V))
                # - [ad_V]ᵀ G V = [ω × h_ω + v × h_v; ω × h_v]
                extra = add_terms(
                    cross_product(V[:3], momentum[:3]), cross_product(V[3:], momentum[3:])
                )
                forces = [forces[j] + extra[j] for j in range(3)] + [
                    forces[3 + j] + cross_product(V[:3], momentum[3:])[j] for j in range(3)
                ]
            wrenches.append(combine(writer, forces))
        torques: list[Scalar] = [0.0] * n
        F = wrenches[n - 1]
        if has_tip:
            R, p = frames.tip
            tip = [(1.0, f"tw{j}") for j in range(6)]
            moved = wrench_by_transpose(writer, constant_matrix(R), constant_vector(p), list(tip))
            F = combine(writer, [[(1.0, (F[j],)), (1.0, (moved[j],))] for j in range(6)])
        for i in range(n - 1, -1, -1):
            k, d = frames.rates[i], frames.slides[i]
            torques[i] = combine(writer, [[(k, (F[2],)), (d, (F[5],))]])[0]
            if i > 0:
                moved = self.wrench_to_parent(i, F)
                F = combine(
                    writer,
                    [[(1.0, (wrenches[i - 1][j],)), (1.0, (moved[j],))] for j in range(6)],
                )
        return torques

    def crba(self) -> list[list[Scalar]]:
        frames, writer = self.frames, self.writer
        n = frames.n
        M: list[list[Scalar]] = [[0.0] * n for _ in range(n)]
        m, h, inertia = frames.inertias[n - 1]
        composite = _parameters(m, h, inertia)
        columns: dict[int, Vector] = {}
        for i in range(n - 1, -1, -1):
            k, d = frames.rates[i], frames.slides[i]
            mass, hx, hy, _hz, _Ixx, _Iyy, Izz, _Ixy, Ixz, Iyz = composite
            # Ic S for S = (0, 0, k, 0, 0, d).
            columns[i] = combine(
                writer,
                [
                    [(k, (Ixz,)), (d, (hy,))],
                    [(k, (Iyz,)), (-d, (hx,))],
                    [(k, (Izz,))],
                    [(-k, (hy,))],
                    [(k, (hx,))],
                    [(d, (mass,))],
                ],
            )
            for j in range(i, n):
                entry = combine(writer, [[(k, (columns[j][2],)), (d, (columns[j][5],))]])[0]
                M[i][j] = M[j][i] = entry
            if i > 0:
                for j in range(i, n):
                    columns[j] = self.wrench_to_parent(i, columns[j])
                m, h, inertia = frames.inertias[i - 1]
                # Ic_{i-1} = G_{i-1} + (Ic_i moved to {J_{i-1}}), the constants added in place.
                composite = self._parameters_to_parent(i, composite, _parameters(m, h, inertia))
        return M

    def _parameters_to_parent(self, i: int, p: list[Scalar], plus: list[Scalar]) -> list[Scalar]:
        """Parameters of a body given in {J_i} at θ_i, re-expressed in {J_{i-1}}, plus ``plus``.

        First the joint's screw motion (a turn φ about z: (h_x, h_y), (I_xz, I_yz) turn by
        φ and ((I_xx - I_yy)/2, I_xy) by 2φ; a slide t along z adds parallel-axis terms),
        then the constant part C_i, folded in.
        """
        writer, frames = self.writer, self.frames
        m, hx, hy, hz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz = p
        if frames.rates[i] != 0.0:
            c, s = self.cos[i], self.sin[i]
            hx, hy, Ixz, Iyz = combine(
                writer,
                [
                    [(1.0, (c, hx)), (-1.0, (s, hy))],
                    [(1.0, (s, hx)), (1.0, (c, hy))],
                    [(1.0, (c, Ixz)), (-1.0, (s, Iyz))],
                    [(1.0, (s, Ixz)), (1.0, (c, Iyz))],
                ],
            )
            c2, s2 = combine(writer, [[(1.0, (c, c)), (-1.0, (s, s))], [(2.0, (c, s))]])
            mean, half = combine(
                writer, [[(0.5, (Ixx,)), (0.5, (Iyy,))], [(0.5, (Ixx,)), (-0.5, (Iyy,))]]
            )
            turned, Ixy = combine(
                writer,
                [[(1.0, (c2, half)), (-1.0, (s2, Ixy))], [(1.0, (s2, half)), (1.0, (c2, Ixy))]],
            )
            Ixx, Iyy = combine(
                writer, [[(1.0, (mean,)), (1.0, (turned,))], [(1.0, (mean,)), (-1.0, (turned,))]]
            )
        if frames.slides[i] != 0.0:
            t = self.slide[i]
            shift = combine(writer, [[(2.0, (t, hz)), (1.0, (m, t, t))]])[0]
            Ixx, Iyy, Ixz, Iyz, hz = combine(
                writer,
                [
                    [(1.0, (Ixx,)), (1.0, (shift,))],
                    [(1.0, (Iyy,)), (1.0, (shift,))],
                    [(1.0, (Ixz,)), (-1.0, (t, hx))],
                    [(1.0, (Iyz,)), (-1.0, (t, hy))],
                    [(1.0, (hz,)), (1.0, (m, t))],
                ],
            )
        # The constant part: T_{J_{i-1}, J_i} = C_i = (R, p) moves the body's contents.
        R_inv, p_inv = self.frames.to_child[i]
        R = R_inv.T
        offset = -R @ p_inv
        moved = [m, hx, hy, hz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]
        return _moved_parameters(writer, moved, R, offset, plus)


def _row(writer: Writer, row: list[Scalar]) -> str:
    return "[" + ", ".join(writer.value(x) for x in row) + "]"


def _parameters(m: float, h: np.ndarray, inertia: np.ndarray) -> list[Scalar]:
    """[m, h_x, h_y, h_z, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz] of a link, as numbers."""
    return [
        m,
        float(h[0]),
        float(h[1]),
        float(h[2]),
        float(inertia[0, 0]),
        float(inertia[1, 1]),
        float(inertia[2, 2]),
        float(inertia[0, 1]),
        float(inertia[0, 2]),
        float(inertia[1, 2]),
    ]


def _moved_parameters(
    writer: Writer, p: list[Scalar], R: np.ndarray, offset: np.ndarray, plus: list[Scalar]
) -> list[Scalar]:
    """Parameters after moving the body's frame contents by r ↦ R r + offset, plus ``plus``.

    R, offset are constants; ``plus`` (another body's parameters, numbers) is added to
    each result in the same line.
    """
    m = p[0]
    h = combine(writer, rotate(constant_matrix(R), p[1:4]))
    Ixx, Iyy, Izz, Ixy, Ixz, Iyz = p[4:]
    I3: Matrix = [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]
    Rc = constant_matrix(R)
    # R I Rᵀ, the six entries of the upper triangle.
    RI = [combine(writer, rotate(Rc, [I3[0][j], I3[1][j], I3[2][j]])) for j in range(3)]
    # RI[j][a] = (R I)_{a j}; (R I Rᵀ)_{ab} = Σ_j (R I)_{aj} R_{bj}
    pairs = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))
    o = [float(x) for x in offset]
    oo = o[0] * o[0] + o[1] * o[1] + o[2] * o[2]
    entries: Products = []
    for a, b in pairs:
        products: list[tuple[float, Sequence[Scalar]]] = [
            (1.0, (RI[j][a], Rc[b][j])) for j in range(3)
        ]
        if a == b:  # (2 o·h + m o·o) on the diagonal
            products += [(2.0 * o[j], (h[j],)) for j in range(3)]
            products.append((oo, (m,)))
        # - h oᵀ - o hᵀ - m o oᵀ
        products += [(-o[b], (h[a],)), (-o[a], (h[b],)), (-o[a] * o[b], (m,))]
        entries.append(products)
    for k, products in enumerate(entries):
        products.append((1.0, (plus[4 + k],)))
    moved = combine(writer, entries)
    h_moved = combine(
        writer, [[(1.0, (h[j],)), (o[j], (m,)), (1.0, (plus[1 + j],))] for j in range(3)]
    )
    mass = combine(writer, [[(1.0, (m,)), (1.0, (plus[0],))]])[0]
    return [mass, *h_moved, *moved]


# --------------------------------------------------------------------------- compiling

#: The generated functions other than the RNEA's, by the first entry of their key.
_FUNCTION_NAMES = {"mass": "crba", "mass_rnea": "crba_rnea", "forward": "forward_dynamics"}


class CompiledDynamics:
    """The generated functions of one robot, written and compiled on first use.

    A function is named by its key: an RNEA variant (has θ̇, has θ̈, has gravity, has a
    tip wrench), ``("mass",)`` (the CRBA), ``("mass_rnea",)`` (M and τ with θ̇, θ̈ and
    gravity) or ``("forward", has gravity, has a tip wrench)``; ``functions`` keeps them.
    """

    def __init__(
        self, link_frames: np.ndarray, spatial_inertias: np.ndarray, screw_axes: np.ndarray
    ) -> None:
        self.frames = _JointFrames(link_frames, spatial_inertias, screw_axes)
        self.n = self.frames.n
        self.functions: dict[tuple[object, ...], Callable[..., Any]] = {}

    # -- writing
    def function(self, key: tuple[object, ...]) -> Callable[..., Any]:
        """The generated function ``key``, written and compiled the first time it is asked for."""
        function = self.functions.get(key)  # the common case, kept cheap
        if function is None:
            name = "rnea" if len(key) == 4 else _FUNCTION_NAMES[str(key[0])]
            function = compiled_once(
                self.functions, key, name, lambda: self._source(name, key), MATH
            )
        return function

    def _source(self, name: str, key: tuple[object, ...]) -> str:
        n = self.n
        trace = _Trace(self.frames)
        writer = trace.writer
        header = argument_names(n, ["q"])
        if name == "rnea":
            has_qd, has_qdd, has_gravity, has_tip = (bool(flag) for flag in key)
            torques = trace.rnea(has_qd, has_qdd, has_gravity, has_tip)
            header += argument_names(n, ["qd"] * has_qd + ["qdd"] * has_qdd)
            header += ["g0", "g1", "g2"] if has_gravity else []
            header += [f"tw{j}" for j in range(6)] if has_tip else []
            result = "[" + ", ".join(writer.value(t) for t in torques) + "]"
        elif name == "crba":
            M = trace.crba()
            result = "[" + ", ".join(_row(writer, row) for row in M) + "]"
        elif name == "crba_rnea":  # M and τ(θ, θ̇, θ̈, g), sharing the trigonometry
            torques = trace.rnea(True, True, True, False)
            M = trace.crba()
            header += [*argument_names(n, ["qd", "qdd"]), "g0", "g1", "g2"]
            rows = ", ".join(_row(writer, row) for row in M)
            result = f"[{rows}], [{', '.join(writer.value(t) for t in torques)}]"
        else:  # ("forward", has_gravity, has_tip)
            has_gravity, has_tip = bool(key[1]), bool(key[2])
            torques = trace.rnea(True, False, has_gravity, has_tip)
            M = trace.crba()
            header += argument_names(n, ["qd", "tau"])
            header += ["g0", "g1", "g2"] if has_gravity else []
            header += [f"tw{j}" for j in range(6)] if has_tip else []
            rhs = [
                combine(writer, [[(1.0, ((1.0, f"tau{i}"),)), (-1.0, (torques[i],))]])[0]
                for i in range(n)
            ]
            x = cholesky_solve(writer, M, rhs)
            result = "[" + ", ".join(writer.value(v) for v in x) + "]"
        return function_source(name, header, writer, result)

    # -- calling (one state: q, qd, ... of shape (n,), checked by the caller)
    def inverse_dynamics(
        self,
        q: np.ndarray,
        qd: np.ndarray | None,
        qdd: np.ndarray | None,
        gravity: np.ndarray | None,
        tip_wrench: np.ndarray | None,
    ) -> np.ndarray | None:
        """τ(θ, θ̇, θ̈) + g + J_bᵀF_tip for one state; ``None`` stands for zero.

        Returns None where a number is not finite (``math.cos`` refuses ±inf, and an
        overflow may give inf where NumPy's order of operations gives NaN): the caller
        then uses the NumPy kernel, so that a diverging simulation fails as it always did.
        """
        key = (qd is not None, qdd is not None, gravity is not None, tip_wrench is not None)
        arguments = q.tolist()
        if qd is not None:
            arguments += qd.tolist()
        if qdd is not None:
            arguments += qdd.tolist()
        if gravity is not None:
            arguments += gravity.tolist()
        if tip_wrench is not None:
            arguments += tip_wrench.tolist()
        try:
            torques = self.function(key)(*arguments)
        except ValueError:  # cos or sin of ±inf (a diverging simulation)
            return None
        return np.array(torques) if isfinite(sum(torques)) else None

    def call(self, key: tuple[object, ...], arguments: list[float]) -> np.ndarray | None:
        """The generated function ``key`` on checked floats, as an array; None as above.

        ``key`` is an RNEA variant (has θ̇, θ̈, gravity, tip wrench), ``("mass",)`` or
        ``("forward", has gravity, False)``; ``arguments`` in the function's order.
        """
        function = self.functions.get(key) or self.function(key)
        try:
            result = function(*arguments)
        except ValueError:
            return None
        if result is None:
            return None
        array = np.array(result)
        return array if isfinite(array.sum()) else None

    def mass_matrix(self, q: np.ndarray) -> np.ndarray | None:
        """M(θ) for one state, exactly symmetric (None as for :meth:`inverse_dynamics`)."""
        try:
            M = self.function(("mass",))(*q.tolist())
        except ValueError:
            return None
        return np.array(M) if isfinite(sum(map(sum, M))) else None

    def mass_matrix_and_inverse_dynamics(
        self, q: np.ndarray, qd: np.ndarray, qdd: np.ndarray, gravity: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """M(θ) and τ(θ, θ̇, θ̈) with gravity, for one state (or None)."""
        try:
            M, torques = self.function(("mass_rnea",))(
                *q.tolist(), *qd.tolist(), *qdd.tolist(), *gravity.tolist()
            )
        except ValueError:
            return None
        if not isfinite(sum(torques) + sum(map(sum, M))):
            return None
        return np.array(M), np.array(torques)

    def forward_dynamics(
        self,
        q: np.ndarray,
        qd: np.ndarray,
        tau: np.ndarray,
        gravity: np.ndarray | None,
        tip_wrench: np.ndarray | None,
    ) -> np.ndarray | None:
        """θ̈ = M⁻¹(τ - c - g - J_bᵀF_tip) for one state, or None if M(θ) is singular.

        (None also where θ is not finite; the caller then takes the NumPy path.)
        """
        key = ("forward", gravity is not None, tip_wrench is not None)
        arguments = q.tolist() + qd.tolist() + tau.tolist()
        if gravity is not None:
            arguments += gravity.tolist()
        if tip_wrench is not None:
            arguments += tip_wrench.tolist()
        try:
            result = self.function(key)(*arguments)
        except ValueError:
            return None
        return None if result is None or not isfinite(sum(result)) else np.array(result)
