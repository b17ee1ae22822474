"""Generate ``pinocchio_screw_reference.npz``: Pinocchio on the arms of ``screw_arms.py``.

For each arm (the book's UR5, a Panda-like 7-DOF arm, a SCARA-like arm with a
prismatic joint) Pinocchio gets a model built from the screw form by
``pinocchio_screw.py``: one joint frame per joint with its z axis on the
joint's screw axis, the link's inertia placed from the centre-of-mass frame,
an operational frame at the end-effector. At 25 seeded random states it stores

* ``pose``: the end-effector pose T_sb (4×4);
* ``jacobian_space``, ``jacobian_body``: the frame Jacobians in WORLD (twist
  at the world origin, i.e. the space Jacobian) and LOCAL (body Jacobian)
  reference frames. **Pinocchio orders twists [v; ω]**; they are stored
  reordered to robolab's [ω; v];
* ``tau`` = rnea(q, q̇, q̈) with gravity, ``tau_tip`` the same with the tip
  wrench F_tip (applied *by* the end-effector, in its frame, so Pinocchio's
  external force on the last body is -F_tip, stored [m; f] like robolab);
* ``mass_matrix`` (crba, symmetrised), ``coriolis`` = rnea(q, q̇, 0) without
  gravity, ``gravity_torques`` = computeGeneralizedGravity;
* ``acceleration`` = aba(q, q̇, τ_applied), ``acceleration_tip`` with F_tip.

Gravity is tilted, (0.5, -1.0, -9.6) m/s², to exercise every component.
Every number is stored rounded to 12 significant digits: the last bits of a
floating-point result differ between CPUs and BLAS kernels, 12 digits do not,
and the tests compare to 1e-9. Run from the repository root::

    .venv/bin/python tests/reference/generate_pinocchio_screw_reference.py          # rewrite
    .venv/bin/python tests/reference/generate_pinocchio_screw_reference.py --check  # compare

``--check`` recomputes everything and compares it with the committed file
(numbers to 1e-10 relative; the ``about`` record with its date is not compared).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import sys
from pathlib import Path

import numpy as np
import pinocchio as pin

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from pinocchio_screw import pinocchio_from_screw  # noqa: E402
from screw_arms import ARMS  # noqa: E402

OUTPUT = HERE / "pinocchio_screw_reference.npz"
GRAVITY = np.array([0.5, -1.0, -9.6])
STATES = 25
SEED = 20240604


def _swap(matrix: np.ndarray) -> np.ndarray:
    """[v; ω] rows (Pinocchio) → [ω; v] rows (robolab)."""
    return np.vstack([matrix[3:], matrix[:3]])


def reference(robot, rng: np.random.Generator) -> dict[str, np.ndarray]:
    model, frame = pinocchio_from_screw(robot, GRAVITY)
    data = model.createData()
    n = robot.n_joints
    lower = np.array([max(lo, -np.pi) for lo, _ in robot.joint_limits])
    upper = np.array([min(hi, np.pi) for _, hi in robot.joint_limits])
    out: dict[str, list] = {key: [] for key in (
        "q", "qd", "qdd", "tau_applied", "tip_wrench", "pose", "jacobian_space",
        "jacobian_body", "tau", "tau_tip", "mass_matrix", "coriolis", "gravity_torques",
        "acceleration", "acceleration_tip",
    )}  # fmt: skip
    zero_gravity = model.copy()
    zero_gravity.gravity = pin.Motion.Zero()
    zero_data = zero_gravity.createData()
    for _ in range(STATES):
        q = rng.uniform(lower, upper)
        qd = rng.uniform(-2.0, 2.0, n)
        qdd = rng.uniform(-3.0, 3.0, n)
        tau_applied = rng.uniform(-20.0, 20.0, n)
        tip = rng.uniform(-5.0, 5.0, 6)  # [m; f] applied by the end-effector, in its frame
        # The environment pushes the last body with -F_tip; Pinocchio wants it in the joint frame.
        placement = model.frames[frame].placement
        external = [pin.Force.Zero() for _ in range(model.njoints)]
        external[-1] = placement.act(pin.Force(-tip[3:], -tip[:3]))

        pin.framesForwardKinematics(model, data, q)
        out["pose"].append(data.oMf[frame].homogeneous.copy())
        pin.computeJointJacobians(model, data, q)
        out["jacobian_space"].append(
            _swap(pin.getFrameJacobian(model, data, frame, pin.ReferenceFrame.WORLD))
        )
        out["jacobian_body"].append(
            _swap(pin.getFrameJacobian(model, data, frame, pin.ReferenceFrame.LOCAL))
        )
        out["tau"].append(pin.rnea(model, data, q, qd, qdd).copy())
        out["tau_tip"].append(pin.rnea(model, data, q, qd, qdd, external).copy())
        M = pin.crba(model, data, q).copy()
        out["mass_matrix"].append(np.triu(M) + np.triu(M, 1).T)
        out["coriolis"].append(pin.rnea(zero_gravity, zero_data, q, qd, np.zeros(n)).copy())
        out["gravity_torques"].append(pin.computeGeneralizedGravity(model, data, q).copy())
        out["acceleration"].append(pin.aba(model, data, q, qd, tau_applied).copy())
        out["acceleration_tip"].append(pin.aba(model, data, q, qd, tau_applied, external).copy())
        for key, value in (("q", q), ("qd", qd), ("qdd", qdd), ("tau_applied", tau_applied),
                           ("tip_wrench", tip)):  # fmt: skip
            out[key].append(value)
    return {key: np.array(values) for key, values in out.items()}


DIGITS = 12


def rounded(array: np.ndarray) -> np.ndarray:
    """Every entry rounded to ``DIGITS`` significant digits (|x| < 1e-13 becomes 0)."""
    flat = [0.0 if abs(x) < 1e-13 else float(f"{x:.{DIGITS - 1}e}") for x in array.ravel()]
    return np.array(flat, dtype=float).reshape(array.shape) + 0.0


def compute() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(SEED)
    arrays: dict[str, np.ndarray] = {"gravity": GRAVITY}
    for name, factory in ARMS.items():
        for key, value in reference(factory(), rng).items():
            arrays[f"{name}__{key}"] = rounded(value)
    return arrays


def differences(arrays: dict[str, np.ndarray]) -> list[str]:
    """What differs between freshly computed ``arrays`` and the committed file."""
    with np.load(OUTPUT) as committed:
        stored = {key: committed[key] for key in committed.files if key != "about"}
    problems = sorted(set(stored) ^ set(arrays))
    for key in sorted(set(stored) & set(arrays)):
        if stored[key].shape != arrays[key].shape or not np.allclose(
            stored[key], arrays[key], rtol=1e-10, atol=1e-12
        ):
            problems.append(key)
    return problems


def main(argv: list[str] | None = None) -> int:
    arrays = compute()
    if "--check" in (sys.argv[1:] if argv is None else argv):
        problems = differences(arrays)
        if problems:
            print(
                f"out of date: {', '.join(problems)}; rerun {Path(__file__).name}", file=sys.stderr
            )
            return 1
        return 0
    about = {
        "generator": "tests/reference/generate_pinocchio_screw_reference.py",
        "pinocchio": importlib.metadata.version("pin"),
        "numpy": np.__version__,
        "date": datetime.date.today().isoformat(),
        "seed": SEED,
        "twist_order": "[omega; v] (Pinocchio's [v; omega] reordered)",
    }
    arrays["about"] = np.array(json.dumps(about))
    np.savez_compressed(OUTPUT, **arrays)
    print(f"wrote {OUTPUT.relative_to(HERE.parents[1])} ({OUTPUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
