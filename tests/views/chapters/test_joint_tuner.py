"""The joint tuner view, kernel-side: what it draws against independent numbers.

References: a hand-written stand-in response (a first-order step y = 1 - e^{-kp t}, whose
10–90 % rise is ln 9 / kp), the run's own arrays (the view must show them, not compute
them), a ValueError of the simulate function shown in the read-out, a real
``simulate_joint`` whose ζ is the closed form (B + K_d)/(2√(K_p J)), and the size limits of
a 1024 × 768 screen.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from widget_support import WIDGET_VIEW

import robolab

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")

RANGES = dict(
    Kp=(10, 5, 20, 1),
    Kd=(0.0, 0.0, 1.0, 0.1),
    Ki=(0.0, 0.0, 1.0, 0.1),
    gear_ratio=(100, 50, 150, 10),
    payload=(0.0, 0.0, 5.0, 0.5),
    duration=1.0,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def first_order(kp, kd, ki, gear_ratio, payload):
    """Not a simulation: a known response; ki > 0.5 stands for unstable gains."""
    if ki > 0.5:
        raise ValueError("unstable gains: raise Kd or lower Ki")
    t = np.linspace(0.0, 1.0, 1001)
    q = 1 - np.exp(-kp * t)
    metrics = SimpleNamespace(
        rise_time=math.log(9) / kp,
        overshoot=0.0,
        peak_time=1.0,
        settling_time=math.log(50) / kp,
        steady_state_error=1 - q[-1],
    )
    return SimpleNamespace(
        times=t,
        positions=q,
        motor_torque=kp * (1 - q) * gear_ratio / 100,
        target=1.0,
        torque_limit=8.0,
        damping_ratio=1.0,
        natural_frequency=float(kp),
        metrics=metrics,
        saturated=kp * (1 - q) > 8.0,
    )


def test_a_gain_slider_redraws_the_response_from_the_run():
    panel = robolab.joint_tuner(first_order, **RANGES)
    x, y = panel.response_line.get_data()
    np.testing.assert_allclose(y, 1 - np.exp(-10 * np.asarray(x)), atol=1e-12)
    panel.controls["kp"].value = 20  # what an arrow key does in the browser
    x, y = panel.response_line.get_data()
    np.testing.assert_allclose(y, 1 - np.exp(-20 * np.asarray(x)), atol=1e-12)
    _, u = panel.torque_line.get_data()
    assert np.abs(u).max() == pytest.approx(20.0, abs=1e-9)
    assert panel.torque_axes.get_ylim()[1] >= 20.0
    assert panel.limit_lines[0].get_ydata()[0] == pytest.approx(8.0, abs=1e-12)
    text = panel.readout_text()
    assert f"rise (10–90 %) {math.log(9) / 20 * 1000:.0f} ms" in text
    assert "the motor saturates" in text
    assert panel.settle_cursor.get_xdata()[0] == pytest.approx(math.log(50) / 20, abs=1e-12)
    assert panel.runs == 2
    panel.controls["kp"].value = 10  # seen before: not simulated again
    assert panel.runs == 2


def test_unstable_gains_are_said_in_the_read_out():
    panel = robolab.joint_tuner(first_order, **RANGES)
    panel.controls["ki"].value = 0.8
    assert panel.response is None
    assert "unstable gains" in panel.readout_text()
    assert len(panel.response_line.get_data()[0]) == 0
    panel.controls["ki"].value = 0.0
    assert panel.error is None and panel.response is not None


def test_a_real_joint_gives_the_closed_form_damping_ratio():
    def run(kp, kd, ki, gear_ratio, payload):
        motor = robolab.JointActuator(2e-4, 1e-3, gear_ratio, 2.5)
        return robolab.simulate_joint(
            motor, link_inertia=2.0 + payload * 0.2, Kp=kp, Kd=kd, Ki=ki, target=0.05, duration=1.0
        )

    panel = robolab.joint_tuner(
        run,
        Kp=(0.3, 0.1, 1.0, 0.1),
        Kd=(0.01, 0.0, 0.04, 0.001),
        Ki=(0.0, 0.0, 2.0, 0.1),
        gear_ratio=(100, 10, 200, 10),
        payload=(0.0, 0.0, 10.0, 0.5),
        duration=1.0,
    )
    panel.controls["payload"].value = 5.0
    J = 2e-4 + 3.0 / 100**2
    zeta = (1e-3 + 0.01) / (2 * math.sqrt(0.3 * J))
    assert f"ζ = {zeta:.3f}" in panel.readout_text()


def test_bad_arguments_and_screen_size():
    with pytest.raises(TypeError, match="simulate must be a function"):
        robolab.joint_tuner("run", **RANGES)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Kp must be"):
        robolab.joint_tuner(first_order, **{**RANGES, "Kp": (30, 5, 20, 1)})
    with pytest.raises(ValueError, match="duration must be positive"):
        robolab.joint_tuner(first_order, **{**RANGES, "duration": 0.0})
    panel = robolab.joint_tuner(first_order, **RANGES)
    width, height = panel.figures[0].get_size_inches() * panel.figures[0].dpi
    assert width <= 1000 and height <= 420
    bundle = panel._repr_mimebundle_()  # the static fallback in test mode: picture and text
    assert WIDGET_VIEW not in bundle and "rise (10–90 %)" in bundle["text/plain"]


def test_the_old_lowercase_gain_keywords_still_work_with_a_warning():
    new = robolab.joint_tuner(first_order, **RANGES)
    for old, name in (("kp", "Kp"), ("kd", "Kd"), ("ki", "Ki")):
        keywords = {key: value for key, value in RANGES.items() if key != name}
        with pytest.warns(DeprecationWarning, match=rf"joint_tuner\({old}=\.\.\.\) is now"):
            panel = robolab.joint_tuner(first_order, **keywords, **{old: RANGES[name]})
        assert panel.values == new.values
    with pytest.warns(DeprecationWarning, match=r"JointTuner\(ki=\.\.\.\) is now JointTuner\(Ki"):
        robolab.JointTuner(first_order, **keywords, ki=RANGES["Ki"])


@pytest.mark.parametrize("figsize", [(7.6, 3.2), (6.0, 3.0)])
def test_the_axis_labels_are_inside_the_figure(figsize):
    """Chapter 12's "link angle q (rad)" was half cut off at the left edge."""
    panel = robolab.joint_tuner(first_order, **RANGES, figsize=figsize)
    panel.controls["payload"].value = 5.0  # torque tick labels as wide as they get here
    figure = panel.position_axes.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    width, height = figure.bbox.width, figure.bbox.height
    left, right = (
        axes.get_tightbbox(renderer) for axes in (panel.position_axes, panel.torque_axes)
    )
    assert left.x0 >= 0 and right.x1 <= width and left.x1 < right.x0, (left, right)
    assert min(left.y0, right.y0) >= 0 and max(left.y1, right.y1) <= height
