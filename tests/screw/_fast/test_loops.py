"""The generated loop of simulate_tracking equals its readable NumPy loop.

:mod:`robolab.screw._fast.loops` writes the time loop of one controller out for the
number of joints (chapter 13's widget); the NumPy loop of
:func:`robolab.screw.control.tracking.simulate_tracking` stays the readable form and
runs where the generated one gives up. Both are run here on the same problems, every
controller, integrator, resolution, friction, torque limits and a payload the model does
not know, and must agree to rounding (the outside anchors, ``modern_robotics`` and the
closed forms, are in ``tests/screw/control/test_tracking.py``).
"""

import numpy as np
import pytest

import robolab as rl
from robolab.screw._fast import loops as tracking_loop
from robolab.screw.control import tracking as mbc
from robolab.screw.friction import JointFriction


def _reference(n, N=500, dt=0.001):
    t = dt * np.arange(N)
    s = [rl.quintic_time_scaling(0.4, np.minimum(t, 0.4), derivative=k) for k in range(3)]
    goal = np.linspace(0.6, -0.4, n)
    return [np.outer(s[k] * (1 if k == 0 else t <= 0.4), goal) for k in range(3)], dt


def _both(monkeypatch, robot, model, **options):
    n = robot.n_joints
    (q, qd, qdd), dt = _reference(n)
    args = (robot, model, q, qd, qdd, dt, 100.0, 20.0)
    fast = mbc.simulate_tracking(*args, **options)
    with monkeypatch.context() as patch:
        patch.setattr(mbc, "track_generated", lambda *a, **k: None)  # the NumPy loop
        slow = mbc.simulate_tracking(*args, **options)
    return fast, slow


CASES = [
    ("planar2r", {}),
    ("planar2r", {"integrator": "euler", "integration_resolution": 3}),
    ("planar2r", {"integrator": "rk4", "Ki": 50.0, "torque_limits": 15.0}),
    ("ur5", {}),
    ("ur5", {"integrator": "rk4", "torque_limits": [60, 60, 30, 10, 10, 10]}),
    ("planar3r", {"integration_resolution": 2, "Ki": 20.0}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_generated_loop_equals_numpy_loop(monkeypatch, name, options):
    arm = rl.load_robot(name)
    truth = mbc.with_payload(arm, 0.5)
    fast, slow = _both(monkeypatch, truth, mbc.scaled_inertias(arm, 0.9),
                       controllers=mbc.CONTROLLERS, **options)  # fmt: skip
    for controller in mbc.CONTROLLERS:
        a, b = fast[controller], slow[controller]
        np.testing.assert_allclose(a.joint_positions, b.joint_positions, rtol=0, atol=1e-10)
        np.testing.assert_allclose(a.joint_velocities, b.joint_velocities, rtol=0, atol=1e-8)
        np.testing.assert_allclose(a.joint_torques, b.joint_torques, rtol=1e-9, atol=1e-8)
        np.testing.assert_allclose(a.peak_torques, b.peak_torques, rtol=1e-9, atol=1e-8)


def test_friction_of_the_true_robot_in_both_loops(monkeypatch):
    arm = rl.load_robot("planar2r")
    rough = arm.replace(friction=JointFriction(viscous=[0.5, 0.2], coulomb=[1.0, 0.5]))
    fast, slow = _both(monkeypatch, rough, arm, controllers=("pd", "computed_torque"))
    for controller in ("pd", "computed_torque"):
        np.testing.assert_allclose(
            fast[controller].joint_positions, slow[controller].joint_positions, atol=1e-10
        )


def test_the_generated_loop_is_used_and_kept():
    tracking_loop._LOOPS.clear()
    arm = rl.load_robot("planar2r")
    (q, qd, qdd), dt = _reference(2, N=20)
    mbc.simulate_tracking(arm, arm, q, qd, qdd, dt, 100.0, 20.0, controllers=("pd", "pd_gravity"))
    assert set(tracking_loop._LOOPS) == {
        (2, "pd", "semi_implicit_euler", 1, False, False),
        (2, "pd_gravity", "semi_implicit_euler", 1, False, False),
    }


def test_a_run_away_falls_back_to_the_numpy_loop_and_its_message():
    arm = rl.load_robot("planar2r")
    (q, qd, qdd), _ = _reference(2, N=300)
    with pytest.raises(rl.SimulationDiverged, match="the pd controller's closed loop diverged"):
        mbc.simulate_tracking(arm, arm, q, qd, qdd, 0.05, 1e5, 1e3, controllers=("pd",))
