"""The Newton–Euler pass stepper, kernel-side: its arrows against Pinocchio, its steps and
buttons, its table, its static fallback, its size and its errors.

References: Pinocchio's ``rnea`` on the model of ``reference/pinocchio_screw.py`` (the
velocity of each link's centre of mass in world axes, ``data.oMi[i].act(data.v[i])`` moved
to that point; the force transmitted through joint i, ``data.f[i]`` in world axes, whose
linear part does not depend on the point) and ``mr.FKinSpace`` for the centres of mass.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import modern_robotics as mr
import numpy as np
import pinocchio as pin
import pytest
from reference.pinocchio_screw import pinocchio_from_screw
from widget_support import WIDGET_VIEW

import robolab
from robolab.views.chapters.rnea_stepper import RneaStepper

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")

Q = np.array([0.3, -0.8, 1.2, -0.5, 0.4, 0.2])
QD = np.array([0.5, -0.4, 0.6, 0.3, -0.2, 0.4])
QDD = np.array([0.5, 0.3, -0.2, 0.4, 0.1, -0.3])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def ur5():
    return robolab.load_robot("ur5")


@pytest.fixture
def panel(ur5):
    return robolab.rnea_stepper(ur5, robolab.inverse_dynamics_rnea_steps(ur5, Q, QD, QDD))


def arrows_of(line) -> list[np.ndarray]:
    """The (start, tip) of each arrow a Line3D holds (pieces separated by NaN rows)."""
    points = np.column_stack(line.get_data_3d())
    found, piece = [], []
    for row in points:
        if np.isnan(row).any():
            if len(piece) >= 2:
                found.append(np.array(piece[:2]))
            piece = []
        else:
            piece.append(row)
    if len(piece) >= 2:
        found.append(np.array(piece[:2]))
    return found[0::2]  # each arrow is a shaft, then its two barbs


def pinocchio_world(robot):
    """Per link: centre of mass (by mr.FKinSpace), its velocity and the joint force, in {s}."""
    model, _ = pinocchio_from_screw(robot)
    data = model.createData()
    pin.forwardKinematics(model, data, Q)  # data.oMi (rnea itself does not fill it)
    pin.rnea(model, data, Q, QD, QDD)
    centres, velocities, forces, home = [], [], [], np.eye(4)
    for i in range(robot.n_joints):
        home = home @ robot.link_frames[i]
        centre = mr.FKinSpace(home, robot.screw_axes_space[:, : i + 1], Q[: i + 1])[:3, 3]
        twist = data.oMi[i + 1].act(data.v[i + 1])  # spatial: [v at the origin of {s}; ω]
        centres.append(centre)
        velocities.append(twist.linear + np.cross(twist.angular, centre))
        forces.append(data.oMi[i + 1].act(data.f[i + 1]).linear)
    return np.array(centres), np.array(velocities), np.array(forces)


def test_arrows_start_at_the_centres_and_point_as_pinocchio_says(panel, ur5):
    centres, velocities, forces = pinocchio_world(ur5)
    panel.controls["step"].value = 12  # the whole run
    for line, expected, kind in (
        (panel.velocity_arrows, velocities, "velocity"),
        (panel.force_arrows, forces, "force"),
    ):
        order = range(6) if kind == "velocity" else range(5, -1, -1)  # the backward pass: n..1
        drawn = [i for i in order if np.linalg.norm(expected[i]) > 1e-9]  # no arrow for 0
        assert kind == "force" or drawn == [1, 2, 3, 4, 5]  # link 1's centre is on its axis
        arrows = arrows_of(line)
        assert len(arrows) == len(drawn)
        for arrow, i in zip(arrows, drawn, strict=True):
            np.testing.assert_allclose(arrow[0], centres[i], atol=1e-9)
            np.testing.assert_allclose(
                arrow[1] - arrow[0], panel.scales[kind] * expected[i], atol=1e-9
            )


def test_next_and_back_walk_the_forward_then_the_backward_pass(panel):
    assert panel.values == {"step": 0}
    assert panel.shown() == ([], [])
    assert np.isnan(panel.velocity_arrows.get_data_3d()[0]).all()
    panel.back_button.click()
    assert panel.values == {"step": 0}  # nothing before the start
    for _ in range(7):
        panel.next_button.click()
    assert panel.shown() == ([1, 2, 3, 4, 5, 6], [6])
    assert "Backward pass, link 6" in panel.readout_text()
    assert len(arrows_of(panel.force_arrows)) == 1
    for _ in range(10):
        panel.next_button.click()
    assert panel.values == {"step": 12}  # nothing after the end
    assert "Backward pass, link 1" in panel.readout_text()
    panel.back_button.click()
    assert panel.shown() == ([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2])
    panel.reset_button.click()
    assert panel.values == {"step": 0}


def test_the_table_shows_the_values_known_so_far(panel, ur5):
    steps = robolab.inverse_dynamics_rnea_steps(ur5, Q, QD, QDD)
    panel.controls["step"].value = 2
    lines = panel.readout_text().splitlines()
    assert lines[0].startswith("Step 2 of 12. Forward pass, link 2")
    html = panel.readout.value
    assert f"{steps.links[1].twist[2]:6.2f}".strip() in html
    assert f"{steps.links[0].torque:.2f}" not in html  # no torque before the backward pass
    panel.controls["step"].value = 12
    html = panel.readout.value
    for record in steps.links:
        assert f"{record.torque + 0.0:.2f}" in html


def test_static_fallback_shows_the_whole_run_and_keeps_the_step(ur5, kernel_bundle):
    steps = robolab.inverse_dynamics_rnea_steps(ur5, Q, QD, QDD)
    panel = robolab.rnea_stepper(ur5, steps, step=3)
    bundle = panel._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert "Step 12 of 12" in bundle["text/plain"]
    assert bundle["text/html"].count('<img src="data:image/png;base64,') == 1
    assert panel.values == {"step": 3}
    assert kernel_bundle(panel)[WIDGET_VIEW]["model_id"] == panel.widget.model_id
    assert repr(panel) == "<RneaStepper 'ur5' at step 3 of 12>"


def test_fits_a_small_screen(panel):
    width, height = panel.view.figure.get_size_inches() * panel.view.figure.dpi
    assert width <= 440 and height <= 440
    # the widest table line (monospace, about 0.6 em per character at 11 px) beside the figure
    # fits a 1024-pixel screen's notebook column; on a narrower one the panel goes below it
    cells = max(len(line) for line in panel.readout_text().splitlines()[2:])
    assert cells * 0.6 * 11 + width <= 1024


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"frame": "space"}, ValueError, "steps must be written in the link frames"),
        ({"n": 5}, ValueError, "steps has 5 links, the robot 6 joints"),
        ({"step": 13}, ValueError, "step must be between 0 and 12"),
        ({"step": 1.5}, TypeError, "step"),
        ({"colour": "red"}, TypeError, "unexpected view option 'colour'"),
    ],
)
def test_bad_input(ur5, change, error, words):
    steps = robolab.inverse_dynamics_rnea_steps(ur5, Q, QD, QDD)
    keywords = {}
    if "frame" in change:
        steps = steps.in_frame("space")
    elif "n" in change:
        steps = robolab.inverse_dynamics_rnea_steps(
            robolab.load_robot("planar2r"), [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]
        )
        words = "steps has 2 links, the robot 6 joints"
    else:
        keywords = change
    with pytest.raises(error, match=words):
        robolab.rnea_stepper(ur5, steps, **keywords)


def test_not_a_robot(ur5):
    steps = robolab.inverse_dynamics_rnea_steps(ur5, Q, QD, QDD)
    with pytest.raises(
        TypeError, match=r"robot must be a robolab\.DHRobot or a robolab\.ScrewRobot"
    ):
        RneaStepper(3.5, steps)  # a bundled name or a file path would be loaded


def test_an_arm_with_a_prismatic_joint():
    scara = robolab.load_robot("scara")
    rng = np.random.default_rng(3)
    q, qd, qdd = rng.uniform(-0.5, 0.5, (3, 4))
    q[2] = 0.1  # the quill, within its limits (m)
    steps = robolab.inverse_dynamics_rnea_steps(scara, q, qd, qdd)
    panel = robolab.rnea_stepper(scara, steps, step=8)
    assert panel.values == {"step": 8}
    assert panel.shown() == ([1, 2, 3, 4], [4, 3, 2, 1])
    for record in steps.links:
        assert f"{record.torque + 0.0:.2f}" in panel.readout.value
