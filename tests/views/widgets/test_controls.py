"""The named inputs of a live figure: angle, number and choice controls, their checks, q as code."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np
import pytest

from robolab.views.widgets.controls import (
    MAX_STEPS,
    Control,
    StepSlider,
    angle_slider,
    choice_buttons,
    number_slider,
    q_code,
)


def test_angle_slider_shows_whole_degrees_and_passes_radians():
    control = angle_slider(30, -90, 90, 5)
    assert isinstance(control.widget, widgets.IntSlider)
    assert (control.widget.min, control.widget.max, control.widget.step) == (-90, 90, 5)
    assert control.widget.value == 30
    assert control.value == math.radians(30)
    control.widget.value = -45
    assert control.value == math.radians(-45)
    assert control.text() == "-45°"


def test_angle_slider_with_half_degrees_steps_over_exact_values():
    control = angle_slider(0.5, -2, 2, 0.5, label="θ")
    assert isinstance(control.widget, widgets.FloatSlider)  # its read-out takes typing
    assert control.widget.description == "θ (°)"
    assert control.widget.value == 0.5 and control.text() == "0.5°"
    control.widget.index += 1  # one arrow-key press in the browser
    assert control.widget.value == 1.0
    assert control.value == math.radians(1.0)


def test_number_slider_values_are_exact_multiples_of_the_step():
    control = number_slider(0.6, 0.0, 1.0, 0.05, unit="m")
    assert isinstance(control.widget, widgets.FloatSlider)  # its read-out takes typing
    values = [value for _, value in control.widget.options]
    assert len(values) == 21
    assert values[3] == 0.15  # not 0.15000000000000002 (3 * 0.05)
    assert values == [round(k * 0.05, 2) for k in range(21)]
    assert [label for label, _ in control.widget.options][:3] == ["0.00", "0.05", "0.10"]
    control.widget.value = 0.35  # a value set from Python stays exactly what it was
    assert control.widget.value == 0.35 and control.value == 0.35
    assert control.text() == "0.35 m"


def test_number_slider_of_whole_numbers_is_an_integer_slider_passing_ints():
    control = number_slider(3, 1, 7, 2)
    assert isinstance(control.widget, widgets.IntSlider)
    assert control.value == 3 and isinstance(control.value, int)
    assert control.text() == "3"
    floats = number_slider(3.0, 1.0, 7.0, 2.0)
    assert isinstance(floats.value, float)  # float arguments give floats


def test_choice_buttons_pass_the_chosen_value():
    control = choice_buttons([("standard DH", "standard"), ("modified DH", "modified")])
    assert isinstance(control.widget, widgets.ToggleButtons)
    assert control.value == "standard"
    control.widget.value = "modified"
    assert control.value == "modified" and control.text() == "modified DH"
    assert choice_buttons(["a", "b"], "b").value == "b"


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: angle_slider(7, step=5), ValueError, r"value must be one of the slider's .*got 7"),
        (
            lambda: number_slider(0.1, 0.0, 1.0, 0.3),
            ValueError,
            r"high - low must be a whole number of steps: \(1.0 - 0.0\) / 0.3 = 3.33333",
        ),
        (lambda: number_slider(0, 0, 1, 0), ValueError, r"step must be positive, got 0"),
        (lambda: number_slider(1, 2, 1, 1), ValueError, r"low must be below high"),
        (
            lambda: number_slider(0.0, 0.0, 1000.0, 0.001, unit="m"),
            ValueError,
            rf"at most {MAX_STEPS} steps, got 1000000 \(from 0.0 to 1000.0 m",
        ),
        (lambda: number_slider("1", 0, 2, 1), TypeError, r"value must be a number, got '1'"),
        (lambda: angle_slider(np.nan), ValueError, r"value must be a finite number"),
        (lambda: choice_buttons([]), ValueError, r"options must hold at least one choice"),
        (lambda: choice_buttons(["a"], "c"), ValueError, r"value must be one of the options"),
        (lambda: Control(object()), TypeError, r"a control must be an ipywidgets value widget"),
    ],
)
def test_bad_controls_are_refused_with_a_message(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_q_code_refuses_what_is_not_a_list_of_numbers():

    assert q_code([1e-9, -1e-9]) == "q = [0.0, 0.0]"  # no -0.0
    with pytest.raises(ValueError, match="one value per joint"):
        q_code(np.zeros((2, 2)))
    with pytest.raises(TypeError):
        q_code(["a"])


def test_a_value_typed_into_a_decimal_sliders_readout_is_taken():
    """The walkthrough typed 0.2 into a read-out: a SelectionSlider ignored it."""
    control = number_slider(-0.4, -1.0, 1.0, 0.05, unit="rad/s")
    slider = control.widget
    assert isinstance(slider, StepSlider) and slider.readout and slider.readout_format == ".2f"
    slider.value = 0.2  # what the browser sends after typing 0.2 and Enter
    assert control.value == 0.2 and control.text() == "0.20 rad/s"
    slider.value = 0.23  # between two positions: the nearest
    assert control.value == 0.25
    slider.value = 7.0  # beyond the end: the end
    assert control.value == 1.0 and slider.index == 40
    slider.value = 3 * 0.05  # a drag's sum arrives exact
    assert control.value == 0.15
    degrees = angle_slider(0.5, -2, 2, 0.5)
    degrees.widget.value = -1.5
    assert degrees.text() == "-1.5°" and degrees.value == math.radians(-1.5)
