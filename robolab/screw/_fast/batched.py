"""Dynamics of many states at once: RNEA, CRBA and forward dynamics in joint-aligned frames.

This is the engine behind :func:`robolab.inverse_dynamics_rnea`,
:func:`robolab.mass_matrix_crba` and :func:`robolab.forward_dynamics_crba`
when they get a large batch of states (B ≥ ``BATCH_THRESHOLD``). It computes
the same quantities as the readable algorithms and the running sums of
:mod:`robolab.screw._fast.space_frame`
(and the tests check that it does), organised for throughput:

* **Structure of arrays**: every quantity is an array whose *last* axis runs
  over the B states, e.g. a twist is a (6, B) array; each NumPy operation
  then does B multiplications at once.
* **Joint-aligned frames** (as in Featherstone's algorithms and Pinocchio):
  link i carries a frame {J_i} whose z axis lies on joint i's screw axis. The
  transform from {J_{i-1}} to {J_i} is a constant part C_i (applied as one
  BLAS product for all states) followed by the joint's own screw motion about
  z, Rot_z(kθ) with a slide dθ along z, which only mixes the x and y
  components of a twist or wrench.

With S = [0, 0, k, 0, 0, d] the joint's screw axis in {J_i} (k = ‖ω‖, d the
slide per unit of θ; k = 1, d = 0 for an ordinary revolute joint, k = 0 for a
prismatic one), the algorithms are the textbook ones:

RNEA (MR §8.3.2): V_i = X_i V_{i-1} + S θ̇_i,
A_i = X_i A_{i-1} + S θ̈_i + [ad_{V_i}] S θ̇_i (A_0 = [0; -g]),
F_i = G_i A_i - [ad_{V_i}]ᵀ G_i V_i + X_{i+1}ᵀ F_{i+1}, τ_i = Sᵀ F_i.

CRBA: composite inertias Ic_{i-1} = G_{i-1} + X_iᵀ Ic_i X_i, then
M_ij = S_iᵀ X_{i+1}ᵀ ⋯ X_jᵀ Ic_j S_j for i ≤ j.

Forward dynamics: M θ̈ = τ - RNEA(θ, θ̇, 0), solved by a Cholesky
factorisation written out over the small n (its pivots reveal a singular M).
"""

from __future__ import annotations

import itertools
import math
import threading

import numpy as np

from ...spatial.rigid_body_motions import adjoint_representation_unchecked, transform_inv_unchecked
from ..kinematics.forward import running_products

#: Batches at least this large use this module's kernels.
BATCH_THRESHOLD = 48
#: Larger batches are worked through in blocks of this many states, so that the temporaries
#: (about 1.5 kB per state for RNEA) stay in cache and their total stays bounded: the cost per
#: state is then the same for a thousand states as for a million (docs/benchmarks.md).
BLOCK = 1024


def _blocks(count: int) -> list[slice]:
    """Slices of at most ``BLOCK`` states covering ``range(count)``, in even sizes."""
    pieces = -(-count // BLOCK)
    edges = np.linspace(0, count, pieces + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(edges)]


def _rows(values: np.ndarray | None, block: slice) -> np.ndarray | None:
    return None if values is None else values[block]


def frame_with_z(z: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """A pose whose z axis is the unit vector ``z``, placed at ``origin``."""
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    T = np.eye(4)
    T[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    T[:3, 3] = origin
    return T


class JointFrameModel:
    """Per-robot constants of the joint-aligned formulation (see the module notes)."""

    def __init__(
        self, link_frames: np.ndarray, spatial_inertias: np.ndarray, screw_axes: np.ndarray
    ) -> None:
        screws = np.asarray(screw_axes, dtype=float)
        n = self.n = screws.shape[1]
        centres = running_products(np.array(link_frames, dtype=float))  # M_0i, i = 1..n+1
        joints = np.empty((n, 4, 4))
        self.rates = np.zeros(n)  # k: radians of turn per unit of θ
        self.slides = np.zeros(n)  # d: metres of slide along z per unit of θ
        for i in range(n):
            omega, v = screws[:3, i], screws[3:, i]
            k = float(np.linalg.norm(omega))
            if k > 0.0:
                z = omega / k
                joints[i] = frame_with_z(z, np.cross(omega, v) / (k * k))
                self.rates[i], self.slides[i] = k, float(omega @ v) / k
            else:
                d = float(np.linalg.norm(v))
                joints[i] = frame_with_z(v / d, centres[i, :3, 3])
                self.slides[i] = d
        self.turning = self.rates != 0.0
        self.sliding = self.slides != 0.0
        parents = np.concatenate([np.eye(4)[None], joints[:-1]])
        # X_i = Ad(Screw_i(θ)⁻¹) Ad(C_i⁻¹), C_i = T_{s,J_{i-1}}⁻¹ T_{s,J_i} at home.
        constant = transform_inv_unchecked(parents) @ joints  # C_i
        self.parent_adjoints = adjoint_representation_unchecked(
            transform_inv_unchecked(constant)
        )  # (n, 6, 6)
        self.parent_adjoints_t = np.ascontiguousarray(self.parent_adjoints.swapaxes(-1, -2))
        centre_to_joint = transform_inv_unchecked(centres[:n]) @ joints  # T_{C_i, J_i}
        A = adjoint_representation_unchecked(centre_to_joint)
        self.inertias = A.swapaxes(-1, -2) @ np.asarray(spatial_inertias, dtype=float) @ A
        tip = transform_inv_unchecked(centres[n]) @ joints[n - 1]  # T_{ee, J_n}
        self.tip_transpose = adjoint_representation_unchecked(
            tip
        ).T.copy()  # F in {J_n} = Ad(T_{ee,J_n})ᵀ F_tip
        # For the CRBA: link inertias as 10 parameters, and the constant part of moving a
        # composite inertia from {J_i} (at θ_i = 0) to {J_{i-1}}, a 10×10 matrix.
        self.parameters = _inertia_parameters(self.inertias)  # (n, 10)
        self.parameter_maps = np.stack([_parameter_map(C) for C in constant])


# --------------------------------------------------------------------------- work arrays

# The kernels write into work arrays kept between calls: fresh temporaries of a few hundred kB
# come back from the OS as new pages (glibc maps them, or trims freed heap), and at B = 1,000
# the faults (330 per RNEA call) cost as much as the arithmetic. One set per thread, kernel and n.
_LOCAL = threading.local()
_VIEWS_KEPT = 8  # block sizes whose views are kept per kernel (blocks come in two sizes)


def _work(kind: str, n: int, B: int, layout) -> dict[str, np.ndarray]:
    """This thread's work arrays (named shapes ``layout(n, B)``) of kernel ``kind``: contiguous
    views into one buffer kept between calls, grown as needed; contents left from the last call."""
    spaces = _LOCAL.__dict__.setdefault("spaces", {})
    entry = spaces.get((kind, n))
    if entry is None:
        entry = spaces[kind, n] = [np.empty(0), {}]
    views = entry[1].get(B)
    if views is None:
        shapes = layout(n, B)
        total = sum(math.prod(shape) for shape in shapes.values())
        if entry[0].size < total:
            entry[0], entry[1] = np.empty(total), {}  # views of the old buffer are dropped
        elif len(entry[1]) >= _VIEWS_KEPT:
            entry[1].clear()
        views, start = {}, 0
        for name, shape in shapes.items():
            size = math.prod(shape)
            views[name] = entry[0][start : start + size].reshape(shape)
            start += size
        entry[1][B] = views
    return views


def work_array_bytes() -> int:
    """Bytes of work arrays this thread's batched kernels keep between calls (for benchmarks)."""
    spaces = _LOCAL.__dict__.get("spaces", {})
    return sum(int(buffer.nbytes) for buffer, _ in spaces.values())


# --------------------------------------------------------------------------- joint screw motions


class Joints:
    """cos kθ, sin kθ and dθ of every joint for a batch of θ (joint axis first, (n, B)).

    Over ``BLOCK`` states, they are computed block by block in :meth:`block`."""

    def __init__(self, model: JointFrameModel, q: np.ndarray | None) -> None:
        self.model = model
        self.q = q
        if q is None or q.shape[0] > BLOCK:  # filled in by block()
            return
        theta = q.T  # (n, B)
        angle = model.rates[:, None] * theta
        self.cos = np.cos(angle)
        self.sin = np.sin(angle)
        self.slide = model.slides[:, None] * theta

    def block(self, states: slice) -> Joints:
        """The same for the states ``states`` of the batch only."""
        if self.q is not None and self.q.shape[0] > BLOCK:
            return Joints(self.model, self.q[states])
        part = Joints(self.model, None)
        part.cos, part.sin, part.slide = (
            self.cos[:, states],
            self.sin[:, states],
            self.slide[:, states],
        )
        return part

    def twist_to_child(
        self, i: int, V: np.ndarray, out: np.ndarray | None = None, scratch=None
    ) -> np.ndarray:
        """Ad(Screw_i(θ)⁻¹) V for twists V of shape (6, ..., B): a twist of {J_{i-1}'} in {J_i}.

        Written into ``out`` (of V's shape, not V itself) if given; ``scratch``, of the
        shape of ``V[0::3]``, holds an intermediate product.
        """
        out = np.empty(V.shape) if out is None else out
        x, y = V[0::3], V[1::3]  # (ω_x, v_x) and (ω_y, v_y)
        if self.model.turning[i]:
            c, s = self.cos[i], self.sin[i]
            scratch = np.empty(x.shape) if scratch is None else scratch
            ox, oy = out[0::3], out[1::3]
            np.multiply(x, c, out=ox)  # c x + s y
            np.multiply(y, s, out=scratch)
            ox += scratch
            np.multiply(y, c, out=oy)  # c y - s x
            np.multiply(x, s, out=scratch)
            oy -= scratch
        else:
            out[0::3], out[1::3] = x, y
        out[2::3] = V[2::3]
        if self.model.sliding[i]:
            t = self.slide[i]
            out[3] += t * out[1]
            out[4] -= t * out[0]
        return out

    def wrench_to_parent(
        self, i: int, F: np.ndarray, out: np.ndarray | None = None, scratch=None
    ) -> np.ndarray:
        """Ad(Screw_i(θ)⁻¹)ᵀ F for wrenches F of shape (6, ..., B) (the transpose of the above).

        ``out`` and ``scratch`` as for :meth:`twist_to_child`.
        """
        out = np.empty(F.shape) if out is None else out
        if self.model.sliding[i]:
            t = self.slide[i]
            mx = F[0] - t * F[4]
            my = F[1] + t * F[3]
            x = np.stack([mx, F[3]])
            y = np.stack([my, F[4]])
        else:
            x, y = F[0::3], F[1::3]
        if self.model.turning[i]:
            c, s = self.cos[i], self.sin[i]
            scratch = np.empty(x.shape) if scratch is None else scratch
            ox, oy = out[0::3], out[1::3]
            np.multiply(x, c, out=ox)  # c x - s y
            np.multiply(y, s, out=scratch)
            ox -= scratch
            np.multiply(y, c, out=oy)  # s x + c y
            np.multiply(x, s, out=scratch)
            oy += scratch
        else:
            out[0::3], out[1::3] = x, y
        out[2::3] = F[2::3]
        return out


def _constant_product(matrix: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """matrix (6, 6) times each vector of an array (6, ..., B), as one BLAS product."""
    shape = vectors.shape
    return (matrix @ vectors.reshape(6, -1)).reshape(shape)


def _constant_product_into(matrix: np.ndarray, vectors: np.ndarray, out: np.ndarray) -> None:
    """``out[...] = matrix @ vectors`` over axis 0, for contiguous (6, ..., B) arrays."""
    np.matmul(matrix, vectors.reshape(6, -1), out=out.reshape(6, -1))


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a × b for arrays of shape (3, ...)."""
    return np.stack(
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    )


def _add_cross(
    out: np.ndarray, a: np.ndarray | list[np.ndarray], b: np.ndarray | list[np.ndarray], scratch
) -> None:
    """``out += a × b`` for (3, ...) arrays; a[j], b[j] may be pairs like ``V[j::3]`` = (ω_j, v_j):
    then ω × b_ω, and v × b_v, are added. ``scratch``: two arrays of ``a[0]``'s shape."""
    first, second = scratch
    for j in range(3):
        k, m = (j + 1) % 3, (j + 2) % 3
        np.multiply(a[k], b[m], out=first)
        np.multiply(a[m], b[k], out=second)
        first -= second
        if first.ndim > out[j].ndim:
            for term in first:
                out[j] += term
        else:
            out[j] += first


# --------------------------------------------------------------------------- the algorithms


def rnea(
    model: JointFrameModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    joints: Joints | None = None,
) -> np.ndarray:
    """Inverse dynamics of B states, q of shape (B, n); ``None`` stands for zero. Returns (B, n)."""
    if q.shape[0] <= BLOCK:
        torques = np.empty((model.n, q.shape[0]))
        _rnea_block(model, q, qd, qdd, gravity, tip_wrench, joints, torques)
        return torques.T
    torques = np.empty(q.shape)
    for part in _blocks(q.shape[0]):
        out = _work("rnea-torques", model.n, part.stop - part.start, _torques_layout)["torques"]
        _rnea_block(
            model,
            q[part],
            _rows(qd, part),
            _rows(qdd, part),
            gravity,
            _rows(tip_wrench, part),
            None if joints is None else joints.block(part),
            out,
        )
        torques[part] = out.T
    return torques


def _torques_layout(n: int, B: int) -> dict[str, tuple[int, ...]]:
    return {"torques": (n, B)}


def _rnea_layout(n: int, B: int) -> dict[str, tuple[int, ...]]:
    # [V_0, A_0], P_i [V_{i-1}, A_{i-1}], [V_i, A_i], G_i [V_i, A_i], and scratch arrays.
    return {
        "base": (6, 2, B),
        "moved": (6, 2, B),
        "states": (n, 6, 2, B),
        "products": (n, 6, 2, B),
        "pairs": (2, 2, 2, B),
        "links": (2, 2, n, B),
        "force": (6, B),
        "rotated": (6, B),
        "row": (2, B),
    }


def _rnea_block(
    model: JointFrameModel,
    q: np.ndarray,
    qd: np.ndarray | None,
    qdd: np.ndarray | None,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    joints: Joints | None,
    torques: np.ndarray,
) -> None:
    """The RNEA of at most ``BLOCK`` states, written into ``torques`` (n, B)."""
    n = model.n
    B = q.shape[0]
    work = _work("rnea", n, B, _rnea_layout)
    joints = joints or Joints(model, q)
    k, d = model.rates, model.slides
    qd_t = None if qd is None else qd.T
    qdd_t = None if qdd is None else qdd.T
    # Forward pass on stacked [V, A], shape (6, 2, B); each link's G [V, A] on the way.
    state, moved, states, products = work["base"], work["moved"], work["states"], work["products"]
    state.fill(0.0)
    if gravity is not None:
        state[3:, 1] = -np.asarray(gravity)[:, None]
    scratch = work["pairs"][0]
    for i in range(n):
        _constant_product_into(model.parent_adjoints[i], state, moved)
        state = joints.twist_to_child(i, moved, out=states[i], scratch=scratch)
        V, A = state[:, 0], state[:, 1]
        if qd_t is not None:
            # [ad_V] S θ̇ with S = (0, 0, k, 0, 0, d): k θ̇ (ω_y, -ω_x, 0, v_y, -v_x, 0) + d θ̇ (0, 0,
            # 0, ω_y, -ω_x, 0), from V before S θ̇ is added (the same, as [ad_S] S = 0).
            turn = k[i] * qd_t[i]
            change = work["row"]
            np.multiply(turn, V[1::3], out=change)
            A[0::3] += change
            np.multiply(turn, V[0::3], out=change)
            A[1::3] -= change
            if model.sliding[i]:
                slide = d[i] * qd_t[i]
                A[3] += slide * V[1]
                A[4] -= slide * V[0]
                V[5] += slide
            V[2] += turn
        if qdd_t is not None:
            A[2] += k[i] * qdd_t[i]
            if model.sliding[i]:
                A[5] += d[i] * qdd_t[i]
        _constant_product_into(model.inertias[i], state, products[i])
    # Component-first views (6, n, B) of all links: V_i, G_i V_i, and G_i A_i, which gathers
    # the wrenches.
    velocities = states[:, :, 0].transpose(1, 0, 2)
    momenta = products[:, :, 0].transpose(1, 0, 2)
    wrenches = products[:, :, 1].transpose(1, 0, 2)
    if qd_t is not None:
        # - [ad_V]ᵀ G V = [ω × h_ω + v × h_v; ω × h_v] for all links at once.
        pairs = [velocities[j::3] for j in range(3)]  # (ω_j, v_j), (2, n, B)
        _add_cross(wrenches[:3], pairs, [momenta[j::3] for j in range(3)], work["links"])
        _add_cross(wrenches[3:], velocities[:3], momenta[3:], work["links"][:, 0])
    # Backward pass.
    F, rotated = work["force"], work["rotated"]
    F[...] = wrenches[:, n - 1]
    if tip_wrench is not None:
        F += _constant_product(model.tip_transpose, np.asarray(tip_wrench).T)
    for i in range(n - 1, -1, -1):
        if model.sliding[i]:
            torques[i] = k[i] * F[2] + d[i] * F[5]
        else:
            np.multiply(k[i], F[2], out=torques[i])
        if i > 0:
            joints.wrench_to_parent(i, F, out=rotated, scratch=work["row"])
            np.matmul(model.parent_adjoints_t[i], rotated, out=F)
            F += wrenches[:, i - 1]


# Rigid-body inertias as 10 numbers: [m, h_x, h_y, h_z, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz],
# with h = m c the first moment and I the rotational inertia about the frame's origin, so
# that G = [[I, [h]], [[h]ᵀ, m 1]]. A sum of such inertias (links welded together) is one.
_MASS, _H, _I = 0, slice(1, 4), slice(4, 10)


def _inertia_parameters(G: np.ndarray) -> np.ndarray:
    """The 10 parameters of spatial inertias G (..., 6, 6) (about each frame's origin)."""
    return np.stack(
        [
            G[..., 3, 3],
            -G[..., 1, 5],
            G[..., 0, 5],
            -G[..., 0, 4],
            G[..., 0, 0],
            G[..., 1, 1],
            G[..., 2, 2],
            G[..., 0, 1],
            G[..., 0, 2],
            G[..., 1, 2],
        ],
        axis=-1,
    )


def _moved_parameters(parameters: np.ndarray, R: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Inertia parameters of a body after moving its frame contents by (R, p): r ↦ R r + p."""
    m, h = parameters[0], R @ parameters[_H]
    Ixx, Iyy, Izz, Ixy, Ixz, Iyz = parameters[_I]
    rotated = R @ np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]]) @ R.T
    # Parallel-axis terms of the shift p (with h already rotated).
    moved = rotated + (2.0 * p @ h + m * p @ p) * np.eye(3) - np.outer(h, p) - np.outer(p, h)
    moved -= m * np.outer(p, p)
    return np.array(
        [
            m,
            *(h + m * p),
            moved[0, 0],
            moved[1, 1],
            moved[2, 2],
            moved[0, 1],
            moved[0, 2],
            moved[1, 2],
        ]
    )


def _parameter_map(T: np.ndarray) -> np.ndarray:
    """The 10×10 matrix that re-expresses inertia parameters given in {b} in {a}, T = T_ab."""
    R, p = T[:3, :3], T[:3, 3]
    return np.column_stack([_moved_parameters(e, R, p) for e in np.eye(10)])


def _screw_moved(
    joints: Joints, i: int, parameters: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """Inertia parameters (10, B) in {J_i} at θ_i re-expressed in {J_i} at θ_i = 0.

    The joint turns the body by φ about z and slides it by t along z. Under the turn,
    (h_x, h_y) and (I_xz, I_yz) rotate by φ, and ((I_xx - I_yy)/2, I_xy) by 2φ; the slide
    adds the parallel-axis terms. Written into ``out`` (not ``parameters``) if given.
    """
    model = joints.model
    if out is None:
        out = parameters.copy()
    else:
        out[...] = parameters
    if model.turning[i]:
        c, s = joints.cos[i], joints.sin[i]
        x, y = parameters[1::7], parameters[2::7]  # (h_x, I_xz) and (h_y, I_yz)
        out[1::7] = c * x - s * y
        out[2::7] = s * x + c * y
        c2 = c * c - s * s
        s2 = 2.0 * c * s
        mean = 0.5 * (parameters[4] + parameters[5])
        half = 0.5 * (parameters[4] - parameters[5])
        Ixy = parameters[7]
        turned = c2 * half - s2 * Ixy
        out[7] = s2 * half + c2 * Ixy
        out[4] = mean + turned
        out[5] = mean - turned
    if model.sliding[i]:
        m, hz, t = parameters[0], parameters[3], joints.slide[i]
        shift = t * (2.0 * hz + m * t)
        out[4] += shift
        out[5] += shift
        out[8] -= t * out[1]
        out[9] -= t * out[2]
        out[3] = hz + m * t
    return out


def crba(model: JointFrameModel, q: np.ndarray, joints: Joints | None = None) -> np.ndarray:
    """Mass matrices of B states, q of shape (B, n). Returns (B, n, n), exactly symmetric.

    Composite inertias are kept as 10 inertia parameters (see ``_inertia_parameters``):
    moving them to the parent frame is a rotation about z plus one constant 10×10 product.
    """
    n = model.n
    if q.shape[0] <= BLOCK:
        M = np.empty((n, n, q.shape[0]))
        _crba_block(model, q, joints, M)
        return M.transpose(2, 0, 1)
    M = np.empty((q.shape[0], n, n))
    for part in _blocks(q.shape[0]):
        out = _work("crba-matrices", n, part.stop - part.start, _matrices_layout)["M"]
        _crba_block(model, q[part], None if joints is None else joints.block(part), out)
        M[part] = out.transpose(2, 0, 1)
    return M


def _matrices_layout(n: int, B: int) -> dict[str, tuple[int, ...]]:
    return {"M": (n, n, B)}


def _crba_layout(n: int, B: int) -> dict[str, tuple[int, ...]]:
    # columns: Ic_j S_j for j ≥ i, written in {J_i}; rotated, pairs: for the joint's motion.
    return {
        "columns": (6, n, B),
        "rotated": (6 * n * B,),
        "pairs": (2 * n * B,),
        "screwed": (10, B),
        "moved": (10, B),
        "composite": (10, B),
    }


def _crba_block(model: JointFrameModel, q: np.ndarray, joints: Joints | None, M) -> None:
    """The CRBA of at most ``BLOCK`` states, written into ``M`` (n, n, B)."""
    n = model.n
    B = q.shape[0]
    work = _work("crba", n, B, _crba_layout)
    joints = joints or Joints(model, q)
    k, d = model.rates, model.slides
    composite = np.broadcast_to(model.parameters[n - 1][:, None], (10, B))
    columns = work["columns"]
    flat_columns = columns.reshape(6, n * B)
    for i in range(n - 1, -1, -1):
        # Ic S for S = (0, 0, k, 0, 0, d): k (I_xz, I_yz, I_zz, -h_y, h_x, 0) + d (h_y, -h_x, 0, 0,
        # 0, m), from the parameters [m, h_x, h_y, h_z, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz].
        column = columns[:, i]
        np.multiply(k[i], composite[8], out=column[0])
        np.multiply(k[i], composite[9], out=column[1])
        np.multiply(k[i], composite[6], out=column[2])
        np.multiply(-k[i], composite[2], out=column[3])
        np.multiply(k[i], composite[1], out=column[4])
        column[5] = 0.0
        if model.sliding[i]:
            column[0] += d[i] * composite[2]
            column[1] -= d[i] * composite[1]
            np.multiply(d[i], composite[0], out=column[5])
        row = M[i, i:]
        np.multiply(k[i], columns[2, i:], out=row)
        if model.sliding[i]:
            row += d[i] * columns[5, i:]
        M[i + 1 :, i] = row[1:]
        if i > 0:
            count = (n - i) * B
            rotated = work["rotated"][: 6 * count].reshape(6, n - i, B)
            scratch = work["pairs"][: 2 * count].reshape(2, n - i, B)
            joints.wrench_to_parent(i, columns[:, i:], out=rotated, scratch=scratch)
            np.matmul(
                model.parent_adjoints_t[i], rotated.reshape(6, count), out=flat_columns[:, i * B :]
            )
            screwed = _screw_moved(joints, i, composite, out=work["screwed"])
            np.matmul(model.parameter_maps[i], screwed, out=work["moved"])
            composite = work["composite"]
            np.add(model.parameters[i - 1][:, None], work["moved"], out=composite)


def cholesky_solve(M: np.ndarray, rhs: np.ndarray, pivot_tolerance: float) -> tuple:
    """Solve M x = rhs for B small SPD systems, M (B, n, n), rhs (B, n), by Cholesky.

    Returns (x, bad) with ``bad`` the (batch index, joint) of the first pivot
    d with d² ≤ pivot_tolerance · max diag(M), or None.
    """
    B, n, _ = M.shape
    if B > BLOCK:
        x = np.empty(rhs.shape)
        for part in _blocks(B):
            x[part], bad = cholesky_solve(M[part], rhs[part], pivot_tolerance)
            if bad is not None:
                return None, (bad[0] + part.start, bad[1])
        return x, None
    A = M.transpose(1, 2, 0)  # (n, n, B)
    scale = np.max(np.diagonal(M, axis1=1, axis2=2), axis=1)
    L = _work("cholesky", n, B, _matrices_layout)["M"]  # only its lower triangle is used
    for j in range(n):
        pivot = A[j, j] - np.einsum("kb,kb->b", L[j, :j], L[j, :j]) if j else A[j, j].copy()
        bad = pivot <= pivot_tolerance * scale
        if bad.any():
            return None, (int(np.argmax(bad)), j)
        np.sqrt(pivot, out=L[j, j])
        if j + 1 < n:
            below = A[j + 1 :, j] - np.einsum("ikb,kb->ib", L[j + 1 :, :j], L[j, :j])
            np.divide(below, L[j, j], out=L[j + 1 :, j])
    y = np.empty((n, B))
    b = rhs.T
    for i in range(n):
        y[i] = (b[i] - np.einsum("kb,kb->b", L[i, :i], y[:i])) / L[i, i]
    x = np.empty((n, B))
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - np.einsum("kb,kb->b", L[i + 1 :, i], x[i + 1 :])) / L[i, i]
    return x.T, None


def _to_parent_into(
    model: JointFrameModel, joints: Joints, i: int, inertia: np.ndarray, work: dict, out
) -> None:
    """``out`` = X_iᵀ I X_i for symmetric 6×6 matrices I (6, 6, B) given in {J_i}, X_i = J_i P_i.

    Both sides go through the joint's screw motion (``wrench_to_parent``) and the
    constant P_i, one side at a time: Xᵀ I X = Xᵀ (Xᵀ I)ᵀ for a symmetric I.
    ``work["rotated"]`` and ``work["half"]`` (6, 6, B) hold the intermediate results,
    ``work["pairs"]`` (2, 6, B) the joint motion's; ``inertia`` and ``out`` are none of them.
    """
    P_t, rotated, half, scratch = (
        model.parent_adjoints_t[i],
        work["rotated"],
        work["half"],
        work["pairs"],
    )
    joints.wrench_to_parent(i, inertia, out=rotated, scratch=scratch)
    _constant_product_into(P_t, rotated, half)  # Xᵀ I
    joints.wrench_to_parent(i, half.swapaxes(0, 1), out=rotated, scratch=scratch)
    _constant_product_into(P_t, rotated, out)


def _aba_layout(n: int, B: int) -> dict[str, tuple[int, ...]]:
    # products: c_i = [ad_{V_i}] S θ̇_i; bias: p_i = -[ad_{V_i}]ᵀ G_i V_i.
    return {
        "products": (6, n, B),
        "bias": (6, n, B),
        "U": (6, n, B),
        "D": (n, B),
        "u": (n, B),
        "articulated": (6, 6, B),
        "reduced": (6, 6, B),
        "rotated": (6, 6, B),
        "half": (6, 6, B),
        "pairs": (2, 6, B),
    }


def aba(
    model: JointFrameModel,
    q: np.ndarray,
    qd: np.ndarray,
    tau: np.ndarray,
    gravity: np.ndarray | None,
    tip_wrench: np.ndarray | None,
    pivot_tolerance: float,
) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Forward dynamics of B states by the articulated-body algorithm (Featherstone 2008, §7.3).

    q, qd, tau of shape (B, n). Returns (θ̈ of shape (B, n), None), or (partial, (batch
    index, joint)) at the first joint whose articulated inertia along its axis,
    D_i = Sᵀ IA_i S, is not above ``pivot_tolerance`` times the largest entry of IA_i.
    In the joint-aligned frames S = (0, 0, k, 0, 0, d), so IA S and D are read off entries
    of IA, and the articulated inertias move to the parent as the CRBA's composites do.
    """
    if q.shape[0] > BLOCK:
        qdd = np.empty(q.shape)
        for part in _blocks(q.shape[0]):
            qdd[part], bad = aba(
                model,
                q[part],
                qd[part],
                tau[part],
                gravity,
                _rows(tip_wrench, part),
                pivot_tolerance,
            )
            if bad is not None:
                return qdd, (bad[0] + part.start, bad[1])
        return qdd, None
    n = model.n
    B = q.shape[0]
    work = _work("aba", n, B, _aba_layout)
    joints = Joints(model, q)
    k, d = model.rates, model.slides
    qd_t, tau_t = qd.T, tau.T
    # Pass 1 (outward): twists V_i, velocity products c_i = [ad_{V_i}] S θ̇_i, and the bias
    # forces p_i = -[ad_{V_i}]ᵀ G_i V_i, as in the RNEA.
    V = np.zeros((6, B))
    products, bias = work["products"], work["bias"]
    for i in range(n):
        V = joints.twist_to_child(i, _constant_product(model.parent_adjoints[i], V))
        c = products[:, i]
        turn = k[i] * qd_t[i]
        np.multiply(turn, V[1::3], out=c[0::3])
        np.multiply(-turn, V[0::3], out=c[1::3])
        c[2::3] = 0.0
        if model.sliding[i]:
            slide = d[i] * qd_t[i]
            c[3] += slide * V[1]
            c[4] -= slide * V[0]
            V[5] += slide
        V[2] += turn
        h = model.inertias[i] @ V
        bias[:3, i] = _cross(V[:3], h[:3]) + _cross(V[3:], h[3:])
        bias[3:, i] = _cross(V[:3], h[3:])
    if tip_wrench is not None:
        bias[:, n - 1] += _constant_product(model.tip_transpose, np.asarray(tip_wrench).T)
    # Pass 2 (inward): articulated inertias IA_i and forces pA_i; U = IA S, D = Sᵀ U.
    U, D, u = work["U"], work["D"], work["u"]
    articulated = np.broadcast_to(model.inertias[n - 1][:, :, None], (6, 6, B))
    reduced = work["reduced"]
    force = bias[:, n - 1]
    for i in range(n - 1, -1, -1):
        np.multiply(k[i], articulated[:, 2], out=U[:, i])
        if model.sliding[i]:
            U[:, i] += d[i] * articulated[:, 5]
        D[i] = k[i] * U[2, i] + d[i] * U[5, i]
        u[i] = tau_t[i] - k[i] * force[2] - d[i] * force[5]
        scale = np.abs(articulated, out=work["rotated"]).max(axis=(0, 1))
        bad = D[i] <= pivot_tolerance * scale
        if bad.any():
            return np.full(q.shape, np.nan), (int(np.argmax(bad)), i)
        if i > 0:
            ratio = U[:, i] / D[i]
            np.multiply(U[:, i][:, None], ratio[None, :], out=reduced)
            np.subtract(articulated, reduced, out=reduced)
            passed = force + np.einsum("ijb,jb->ib", reduced, products[:, i]) + ratio * u[i]
            articulated = work["articulated"]
            _to_parent_into(model, joints, i, reduced, work, articulated)
            articulated += model.inertias[i - 1][:, :, None]
            force = bias[:, i - 1] + _constant_product(
                model.parent_adjoints_t[i], joints.wrench_to_parent(i, passed)
            )
    # Pass 3 (outward): accelerations from the base's fictitious -g.
    A = np.zeros((6, B))
    if gravity is not None:
        A[3:] = -np.asarray(gravity)[:, None]
    qdd = np.empty((n, B))
    for i in range(n):
        A = joints.twist_to_child(i, _constant_product(model.parent_adjoints[i], A))
        A += products[:, i]
        qdd[i] = (u[i] - np.einsum("ab,ab->b", U[:, i], A)) / D[i]
        A[2] += k[i] * qdd[i]
        if model.sliding[i]:
            A[5] += d[i] * qdd[i]
    return qdd.T, None
