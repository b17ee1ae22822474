"""Dynamics of large batches: the structure-of-arrays kernels of ``robolab.screw._fast.batched``.

Batches of ``BATCH_THRESHOLD`` states or more run the joint-aligned recursions of
``robolab.screw._fast.batched``; batches larger than ``BLOCK`` are worked through block by block.
Every result here is checked against Pinocchio (``rnea``, ``crba``, ``aba`` state by state,
on models built in test code by ``tests/reference/pinocchio_screw.py``), with ``BLOCK``
made small so that the batches really split, and unevenly.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw

import robolab
from robolab.screw._fast import batched

ROBOTS = ("ur5", "panda", "puma560")
STATES = 150  # with BLOCK = 64: blocks of 50


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(batched, "BLOCK", 64)


def _states(n: int, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return tuple(rng.uniform(-1.5, 1.5, (STATES, n)) for _ in range(3))


def _pinocchio(robot):
    model, _ = pinocchio_from_screw(robot)
    return model, model.createData()


@pytest.mark.parametrize("name", ROBOTS)
def test_blocked_rnea_crba_and_aba_agree_with_pinocchio(name, small_blocks):
    robot = robolab.load_robot(name)
    n = len(robot.joint_names)
    q, qd, other = _states(n, seed=len(name))
    model, data = _pinocchio(robot)
    torques = robolab.inverse_dynamics_rnea(robot, q, qd, other)
    masses = robolab.mass_matrix_crba(robot, q)
    accelerations = robolab.forward_dynamics_aba(robot, q, qd, other)
    for b in range(STATES):
        expected_tau = pin.rnea(model, data, q[b], qd[b], other[b])
        expected_M = pin.crba(model, data, q[b])
        expected_M = np.triu(expected_M) + np.triu(expected_M, 1).T
        expected_qdd = pin.aba(model, data, q[b], qd[b], other[b])
        np.testing.assert_allclose(torques[b], expected_tau, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(masses[b], expected_M, rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(accelerations[b], expected_qdd, rtol=1e-8, atol=1e-8)


def test_blocks_cover_the_batch_evenly_and_in_order(monkeypatch):
    monkeypatch.setattr(batched, "BLOCK", 64)
    parts = batched._blocks(150)
    assert [(p.start, p.stop) for p in parts] == [(0, 50), (50, 100), (100, 150)]
    assert batched._blocks(64) == [slice(0, 64)]


def test_batched_aba_with_a_tip_wrench_matches_pinocchio_with_an_external_force():
    robot = robolab.load_robot("ur5")
    q, qd, tau = _states(6, seed=7)
    rng = np.random.default_rng(8)
    wrench = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    wrench[:3], wrench[3:] = rng.normal(size=3), rng.normal(size=3)  # [m; f] in {ee}
    got = robolab.forward_dynamics_aba(robot, q, qd, tau, tip_wrench=wrench)
    # Same physics, another algorithm: τ - J_bᵀ F_tip drives the arm without a tip wrench.
    jacobians = np.stack([robolab.jacobian_body(robot, qb) for qb in q])
    model, data = _pinocchio(robot)
    for b in range(STATES):
        free = tau[b] - jacobians[b].T @ wrench
        np.testing.assert_allclose(
            got[b], pin.aba(model, data, q[b], qd[b], free), rtol=1e-8, atol=1e-8
        )


def test_a_singular_mass_matrix_in_a_blocked_batch_is_refused_naming_the_joint(small_blocks):
    arm = robolab.load_robot("ur5")
    inertias = np.array(arm.spatial_inertias)
    inertias[-1] = 0.0  # the last link has no mass: M is singular at every state
    robot = arm.replace(spatial_inertias=inertias)
    q, qd, tau = _states(6, seed=3)
    with pytest.raises(ValueError, match=r"batch index \(0,\).*joint 6"):
        robolab.forward_dynamics_aba(robot, q, qd, tau)


def test_large_batches_keep_their_temporaries_small():
    robot = robolab.load_robot("ur5")
    rng = np.random.default_rng(0)
    count = 20 * batched.BLOCK
    q, qd, qdd = rng.uniform(-1, 1, (3, count, 6))
    robolab.inverse_dynamics_rnea(robot, q[:100], qd[:100], qdd[:100])  # constants cached
    tracemalloc.start()
    try:
        torques = robolab.inverse_dynamics_rnea(robot, q, qd, qdd)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # One block's temporaries (~1.5 kB per state) on top of the (count, 6) result; without
    # blocks the peak is ~1.5 kB per state of the whole batch (here ~30 MB).
    assert peak < torques.nbytes + 4 * 1500 * batched.BLOCK, peak
