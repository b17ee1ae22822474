"""Numbers are numbers (issue item 4) and widget builders check their arguments (item 10).

Every numeric argument refuses text, booleans, complex values, None, dicts,
sets and other objects with a ``TypeError`` naming the argument and what was
expected; wrong shapes and non-finite numbers stay ``ValueError``. Real
numbers of every kind are accepted: ints, floats, NumPy scalars and arrays,
``Fraction``, ``Decimal`` and real SymPy numbers (``sympy.pi / 2``). The checks themselves
(``robolab.support.arguments``) are tested in tests/support/test_arguments.py; here, every
door that takes numbers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import robolab as rl
from robolab.symbols import l1, m1, q1, q2

# ------------------------------------------------------------------ the three cases of the issue


@pytest.fixture(scope="module")
def planar():
    return rl.load_robot("planar2r")


@pytest.fixture(scope="module")
def planar_dh():
    return rl.load_robot("planar2r", form="dh")


def test_a_complex_joint_vector_is_refused_not_cut_to_its_real_part(planar, planar_dh):
    q = np.array([0.5 + 3j])
    message = r"joint_positions must be numeric, got a complex array \(dtype complex128\)"
    with pytest.raises(TypeError, match=message):
        rl.forward_kinematics_space(planar, np.array([0.5 + 3j, 0.0]))
    with pytest.raises(TypeError, match=r"q must be numeric, got a complex array"):
        planar_dh.numeric().forward_kinematics(np.array([0.5 + 3j, 0.0]))
    pendulum = rl.DHRobot((1.0, 0, 0, q1))
    with pytest.raises(TypeError, match=r"q must be numeric, got a complex array"):
        pendulum.numeric().forward_kinematics(q)
    with pytest.raises(TypeError, match=r"got the complex number \(0\.5\+3j\) at index \(0,\)"):
        rl.forward_kinematics_space(planar, [0.5 + 3j, 0.0])


def test_joint_limits_given_as_text_are_refused_not_read_as_characters(planar, planar_dh):
    robot = rl.load_robot("planar2r", form="dh")
    with pytest.raises(
        TypeError,
        match=r"joint_limits, joint 1: expected a pair of numbers \(lower, upper\), "
        r"got the text '12'",
    ):
        robot.joint_limits = ["12", (0, 1)]
    assert robot.joint_limits == planar_dh.joint_limits  # unchanged
    with pytest.raises(TypeError, match=r"joint_limits must be numeric, got the text '12'"):
        planar.replace(joint_limits=["12", (0, 1)])


def test_masses_given_as_a_dict_are_refused_not_read_as_its_keys():
    robot = rl.load_robot("planar2r", form="dh")
    with pytest.raises(
        TypeError, match=r"masses: expected a list with one entry per link \(2\), got dict"
    ):
        robot.masses = {3.0: "a", 4.0: "b"}
    assert [float(m) for m in robot.masses] == [1.0, 1.0]


# ------------------------------------------------------------------ the numeric algorithms


@pytest.mark.parametrize(
    "call",
    [
        lambda r: rl.forward_kinematics_space(r, [0.1, "0.2"]),
        lambda r: rl.forward_kinematics_body(r, [True, 0.0]),
        lambda r: rl.jacobian_space(r, {0: 0.1, 1: 0.2}),
        lambda r: rl.inverse_dynamics_rnea(r, [0.0, 0.0], [0.0, None], [0.0, 0.0]),
        lambda r: rl.mass_matrix_crba(r, np.array([0, 1], dtype=bool)),
        lambda r: rl.gravity_forces(r, [0.0, 0.0], gravity=[0, 0, "-9.81"]),
        lambda r: rl.forward_dynamics_aba(r, [0.0, 0.0], [0.0, 0.0], [0.0, 1j]),
    ],
)
def test_robot_first_algorithms_refuse_what_is_not_numbers(planar, call):
    with pytest.raises(TypeError, match=r"must be numeric, got"):
        call(planar)


def test_sympy_numbers_are_accepted_where_numbers_are_expected(planar):
    np.testing.assert_allclose(
        rl.forward_kinematics_space(planar, [sp.pi / 2, 0]),
        rl.forward_kinematics_space(planar, [np.pi / 2, 0.0]),
        atol=1e-15,
    )
    with pytest.raises(TypeError, match=r"with free symbols l_1"):
        rl.forward_kinematics_space(planar, [l1, 0])


# ------------------------------------------------------------------ ScrewRobot fields


def screw_fields(**changes):
    T = np.eye(4)
    T[0, 3] = 1.0
    fields = {
        "name": "R",
        "home_ee_pose": T,
        "screw_axes_space": [[0], [0], [1], [0], [0], [0]],
        "link_frames": [T, np.eye(4)],
        "spatial_inertias": [np.diag([0, 0, 0, 1.0, 1.0, 1.0])],
    }
    fields.update(changes)
    return fields


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"gravity": [0, 0, "-9.81"]}, r"gravity must be numeric, got the text '-9.81'"),
        ({"gravity": [0, 0, True]}, r"gravity must be numeric, got the boolean True"),
        ({"gravity": [0, 0, -9.81j]}, r"gravity must be numeric, got the complex number"),
        ({"gravity": None}, r"gravity must be numeric, got None"),
        ({"home_ee_pose": "identity"}, r"home_ee_pose must be numeric, got the text"),
        ({"screw_axes_space": np.ones((6, 1), dtype=bool)}, r"screw_axes_space must be numeric"),
        ({"link_frames": {0: np.eye(4), 1: np.eye(4)}}, r"link_frames must be a sequence of 2"),
        ({"link_frames": "MM"}, r"link_frames must be a sequence of 2 transforms"),
        ({"spatial_inertias": {0: np.eye(6)}}, r"spatial_inertias must be a sequence of 1"),
        (
            {"spatial_inertias": [np.diag([0, 0, 0, 1, 1, 1.0]).astype(complex)]},
            r"spatial_inertias\[0\] \(link 1\) must be numeric, got a complex array",
        ),
        ({"joint_limits": [("-1", "1")]}, r"joint_limits must be numeric, got the text '-1'"),
        ({"joint_limits": [(False, True)]}, r"joint_limits must be numeric, got the boolean"),
        ({"joint_limits": {0: (-1, 1)}}, r"joint_limits must be 1 pairs \(lower, upper\)"),
        ({"joint_types": [1]}, r"joint_types\[0\] \(joint 'joint1'\) must be 'revolute' or"),
    ],
)
def test_screw_robot_fields_refuse_what_is_not_numbers(changes, message):
    with pytest.raises(TypeError, match=message):
        rl.ScrewRobot(**screw_fields(**changes))


def test_screw_robot_setters_and_copies_refuse_too(planar):
    with pytest.raises(TypeError, match=r"gravity must be numeric, got the text"):
        planar.with_gravity("down")
    with pytest.raises(TypeError, match=r"gravity must be numeric, got the boolean"):
        planar.replace(gravity=[0, False, -9.81])
    assert planar.replace(joint_limits=[(-np.inf, np.inf), (Fraction(-1), 1)]).joint_limits == (
        (-np.inf, np.inf),
        (-1.0, 1.0),
    )


# ------------------------------------------------------------------ DHRobot: rows, setters, numeric


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("0.5", 0, 0, q1)], r"row 1, a: expected a number or a SymPy expression, got the text"),
        ([(True, 0, 0, q1)], r"row 1, a: expected a number or a SymPy expression, got the boolean"),
        ([(0.5j, 0, 0, q1)], r"row 1, a: expected a real number .*, got the complex number 0.5j"),
        ([(m1 * sp.I, 0, 0, q1)], r"row 1, a: expected a real value, got I\*m₁"),
        ([(None, 0, 0, q1)], r"row 1, a: expected a number or a SymPy expression, got NoneType"),
        ([({1: 2}, 0, 0, q1)], r"row 1, a: expected a number or a SymPy expression, got dict"),
        ([{"a": 1, "alpha": 0, "d": 0, "theta": q1}], r"row 1: expected a tuple \(a, alpha"),
        ([5], r"row 1: expected a tuple \(a, alpha, d, theta\[, joint_type\]\), got int 5"),
    ],
)
def test_dh_rows_refuse_what_is_not_numbers(rows, message):
    with pytest.raises(TypeError, match=message):
        rl.DHRobot(*rows)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "masses",
            [1.0, "2"],
            r"link 2, mass: expected a number or a SymPy expression, got the text",
        ),
        ("masses", [1.0, True], r"link 2, mass: expected a number .*, got the boolean True"),
        (
            "masses",
            [1.0, 2j],
            r"link 2, mass: expected a real number .*, got the complex number 2j",
        ),
        ("masses", [1.0, None], r"link 2, mass: expected a number .*, got NoneType None"),
        ("masses", "12", r"masses: expected a list with one entry per link \(2\), got str '12'"),
        ("masses", {1.0, 2.0}, r"masses: expected a list with one entry per link \(2\), got set"),
        ("cm_positions", [(0, 0, 0), "xyz"], r"link 2, centre of mass: expected 3 coordinates"),
        ("cm_positions", [(0, 0, 0), {0: 1}], r"link 2, centre of mass: expected 3 coordinates"),
        ("cm_positions", [(0, 0, 0), (0, 0, True)], r"link 2, centre of mass, z: expected a num"),
        ("inertia_tensors", [np.eye(3), "I"], r"link 2, inertia tensor: expected a 3×3 matrix"),
        ("inertia_tensors", [np.eye(3), None], r"link 2, inertia tensor: expected a 3×3 matrix"),
        ("inertia_tensors", [np.eye(3), np.eye(3, dtype=bool)], r"link 2, inertia tensor: expec"),
        ("inertia_tensors", [np.eye(3), np.eye(3) * 1j], r"link 2, inertia tensor: expected a r"),
        ("gravity", "down", r"gravity: expected 3 coordinates \(x, y, z\) in the base frame"),
        ("gravity", (0, 0, "-9.81"), r"gravity, z: expected a number or a SymPy expression"),
        ("gravity", {"x": 0, "y": 0, "z": -9.81}, r"gravity: expected 3 coordinates"),
        ("joint_limits", [(0, 1), (False, True)], r"joint_limits, joint 2: expected a pair of num"),
        ("joint_limits", [(0, 1), (0, 1j)], r"joint_limits, joint 2: .*got the complex number 1j"),
        ("joint_limits", [(0, 1), (0, l1)], r"joint_limits, joint 2: .*SymPy expression l_1"),
        ("joint_limits", [(0, 1), None], r"joint_limits, joint 2: expected a pair of numbers"),
        ("qis_range", [(0, 1), {0: 1, 1: 2}], r"qis_range, joint 2: expected a pair of numbers"),
    ],
)
def test_dh_setters_refuse_what_is_not_numbers(field, value, message):
    robot = rl.DHRobot((1.0, 0, 0, q1), (1.0, 0, 0, q2))
    with pytest.raises(TypeError, match=message):
        setattr(robot, field, value)


def test_dh_setters_keep_accepting_sympy_expressions_and_real_numbers():
    robot = rl.DHRobot((l1, 0, 0, q1), (1.0, 0, 0, q2))
    robot.masses = [m1, Fraction(3, 2)]
    assert robot.masses == [m1, sp.Rational(3, 2)]
    robot.gravity = (0, Decimal("-9.81"), np.float32(0))
    robot.joint_limits = [(-sp.pi, sp.pi), (np.int8(-1), Fraction(1, 2))]
    assert robot.joint_limits[1] == (-1.0, 0.5)


@pytest.mark.parametrize(
    ("values", "error", "message"),
    [
        ({"l_1": "0.5"}, TypeError, r"values\['l_1'\]: expected a real number, got the text '0.5'"),
        ({"l_1": True}, TypeError, r"values\['l_1'\]: expected a real number, got the boolean"),
        ({"l_1": 0.5j}, TypeError, r"values\['l_1'\]: expected a real number, got the complex"),
        ({"l_1": None}, TypeError, r"values\['l_1'\]: expected a real number, got None"),
        ({"l_1": [0.5]}, TypeError, r"values\['l_1'\]: expected a real number, got list"),
        ({"l_1": m1}, TypeError, r"values\['l_1'\]: expected a real number, got the SymPy exp"),
        ([("l_1", 0.5)], TypeError, r"values: expected a mapping"),
        ({"l_1": float("inf")}, ValueError, r"values\['l_1'\]: expected a finite number"),
    ],
)
def test_dh_numeric_values_must_be_real_numbers(values, error, message):
    robot = rl.DHRobot((l1, 0, 0, q1))
    with pytest.raises(error, match=message):
        robot.numeric(values)


def test_dh_numeric_values_accept_real_numbers_of_every_kind():
    robot = rl.DHRobot((l1, 0, 0, q1))
    for value in (0.5, Fraction(1, 2), Decimal("0.5"), np.float32(0.5), sp.Rational(1, 2)):
        assert robot.numeric({"l_1": value}).forward_kinematics([0.0])[0, 3] == 0.5


@pytest.mark.parametrize(
    "q",
    [
        [True, False],
        ["0.1", 0.0],
        np.array([0.1, 0.2], dtype=complex),
        np.array(["0.1", "0.2"]),
        [None, 0.0],
        {0: 0.1, 1: 0.2},
    ],
)
def test_dh_numeric_functions_refuse_what_is_not_numbers(planar_dh, q):
    fast = planar_dh.numeric()
    with pytest.raises(TypeError, match=r"q must be numeric, got"):
        fast.forward_kinematics(q)
    with pytest.raises(TypeError, match=r"must be numeric, got"):
        fast.inverse_dynamics([0.0, 0.0], q, [0.0, 0.0])


# ------------------------------------------------------------------ widget builders (item 10)


@pytest.fixture(scope="module")
def pendant(planar):
    return rl.teach(planar)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"q": ["0.1", 0.0]}, TypeError, r"q must be numeric, got the text '0.1'"),
        ({"q": [True, 0.0]}, TypeError, r"q must be numeric, got the boolean True"),
        ({"ellipsoid": True}, TypeError, r"ellipsoid must be one of \[None, 'velocity', 'force'\]"),
        (
            {"singularity_warning": 1},
            TypeError,
            r"singularity_warning must be True or False, got int",
        ),
        ({"singularity_threshold": True}, TypeError, r"singularity_threshold must be a number"),
        ({"singularity_threshold": "0.1"}, TypeError, r"singularity_threshold must be a number"),
        ({"singularity_threshold": np.nan}, ValueError, r"singularity_threshold must be a number"),
        ({"frames": 3}, TypeError, r"frames must be one of \['all', 'ends', 'none'\] \(a str\)"),
        ({"shadow": "yes"}, TypeError, r"shadow must be True or False, got str 'yes'"),
        ({"elev": True}, TypeError, r"elev must be an angle in degrees \(a number\), got bool"),
        ({"azim": "north"}, TypeError, r"azim must be an angle in degrees \(a number\), got str"),
        ({"limits": [0, 1, 0, 1, 0, "1"]}, TypeError, r"limits must be numeric, got the text"),
        ({"zoom": True}, TypeError, r"zoom must be a positive number .*, got bool True"),
        ({"zoom": 1j}, TypeError, r"zoom must be a positive number .*, got complex 1j"),
        ({"figsize": "large"}, TypeError, r"figsize must be a pair \(width, height\)"),
        ({"figsize": (4, True)}, TypeError, r"figsize\[1\] \(height\) must be a real number"),
        ({"figsize": (4, -1)}, ValueError, r"figsize\[1\] \(height\) must be a positive number"),
        ({"figsize": (4, 4, 4)}, ValueError, r"figsize must be a pair .*, got 3 values"),
        ({"canvas": None}, TypeError, r"canvas must be one of \['auto', 'ipympl', 'image'\]"),
    ],
)
def test_teach_checks_every_argument(planar, options, error, message):
    with pytest.raises(error, match=message):
        rl.teach(planar, **options)


@pytest.mark.parametrize(
    ("index", "value", "error", "message"),
    [
        (True, 10, TypeError, r"index must be an int, got the boolean True"),
        (1.0, 10, TypeError, r"index must be an int, got float 1.0"),
        ("1", 10, TypeError, r"index must be an int, got str '1'"),
        (np.int64(1), "10", TypeError, r"slider_value must be a real number, got the text '10'"),
        (1, False, TypeError, r"slider_value must be a real number, got the boolean False"),
        (2, 10, IndexError, r"index must be a joint index 0\.\.1, got 2"),
    ],
)
def test_teach_methods_check_their_arguments(pendant, index, value, error, message):
    with pytest.raises(error, match=message):
        pendant.set_joint(index, value)
    with pytest.raises(TypeError, match=r"q must be numeric, got a complex array"):
        pendant.set_q(np.array([0.1, 0.2], dtype=complex))


def test_plot_robot_and_its_view_check_their_arguments(planar):
    import matplotlib.pyplot as plt

    with pytest.raises(TypeError, match=r"frame_names must be True or False, got int 0"):
        rl.plot_robot(planar, frame_names=0)
    with pytest.raises(TypeError, match=r"decorations must be one of \['lean', 'full'\] \(a str\)"):
        rl.plot_robot(planar, decorations=["full"])
    with pytest.raises(TypeError, match=r"figsize must be a pair"):
        rl.plot_robot(planar, figsize=5)
    view = rl.plot_robot(planar)
    try:
        with pytest.raises(TypeError, match=r"q must be numeric, got the text"):
            view.update(["0", "0"])
        with pytest.raises(TypeError, match=r"draw must be True or False, got str"):
            view.update([0.0, 0.0], draw="no")
        with pytest.raises(TypeError, match=r"ellipsoid must be one of .* \(a str or None\)"):
            view.set_ellipsoid(1)
        with pytest.raises(TypeError, match=r"q must be numeric, got None"):
            view.skeleton_of(None)
    finally:
        plt.close(view.figure)


@pytest.fixture(scope="module")
def steps():
    return rl.DHRobot((l1, 0, 0, q1)).forward_kinematics_derivation()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"title": 3}, TypeError, r"title must be a str or None, got int 3"),
        ({"title": b"FK"}, TypeError, r"title must be a str or None, got bytes"),
        ({"start": True}, TypeError, r"start must be an int, got the boolean True"),
        ({"start": 1.0}, TypeError, r"start must be an int, got float 1.0"),
        ({"start": "2"}, TypeError, r"start must be an int, got str '2'"),
        ({"start": 9}, ValueError, r"start must be a step number 1\.\.3, got 9"),
    ],
)
def test_reveal_checks_its_arguments(steps, options, error, message):
    with pytest.raises(error, match=message):
        rl.reveal(steps, **options)


def test_reveal_methods_check_their_arguments(steps):
    shown = rl.reveal(steps, title="Forward kinematics")
    with pytest.raises(TypeError, match=r"count must be an int, got the boolean True"):
        shown.show(True)
    with pytest.raises(TypeError, match=r"count must be an int, got float 2.0"):
        shown.show(2.0)
    shown.show(np.int64(2))
    assert shown.shown == 2


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"trajectory": [["0", "0"]]}, TypeError, r"trajectory must be numeric, got the text"),
        ({"trajectory": np.zeros((2, 2), dtype=bool)}, TypeError, r"trajectory must be numeric"),
        ({"times": [0.0, "1"]}, TypeError, r"times must be numeric, got the text '1'"),
        ({"fps": True}, TypeError, r"fps must be a real number, got the boolean True"),
        ({"fps": "25"}, TypeError, r"fps must be a real number, got the text '25'"),
        ({"speed": None}, TypeError, r"speed must be a real number, got None"),
        ({"speed": 0}, ValueError, r"speed must be a positive number, got 0"),
        ({"trail": "dotted"}, TypeError, r"trail must be True or False, got str"),
        ({"shadow": None}, TypeError, r"shadow must be True or False, got NoneType"),
        ({"frames": False}, TypeError, r"frames must be one of"),
        ({"elev": [25]}, TypeError, r"elev must be an angle in degrees \(a number\), got list"),
        ({"zoom": "2"}, TypeError, r"zoom must be a positive number"),
        ({"figsize": {"w": 4, "h": 4}}, TypeError, r"figsize must be a pair"),
        ({"canvas": 1}, TypeError, r"canvas must be one of"),
    ],
)
def test_animate_checks_every_argument(planar, options, error, message):
    arguments = {"trajectory": np.zeros((2, 2)), "times": None} | options
    trajectory, times = arguments.pop("trajectory"), arguments.pop("times")
    with pytest.raises(error, match=message):
        rl.animate(planar, trajectory, times, **arguments)


def test_animation_methods_check_their_arguments(planar, tmp_path):
    animation = rl.animate(planar, np.zeros((3, 2)), fps=2)
    for call, message in [
        (lambda: animation.show_frame(True), r"index must be an int, got the boolean True"),
        (lambda: animation.show_frame(1.0), r"index must be an int, got float 1.0"),
        (lambda: animation.snapshot_indices(2.5), r"count must be an int, got float 2.5"),
        (lambda: animation.strip(True), r"count must be an int, got the boolean True"),
        (lambda: animation.strip(2, panel_size="2"), r"panel_size must be a real number"),
        (lambda: animation.save_gif(tmp_path / "a.gif", every=1.0), r"every must be an int"),
        (lambda: animation.save_gif(tmp_path / "a.gif", dpi=True), r"dpi must be a real number"),
        (lambda: animation.save_gif(3), r"path must be a file path, got int 3"),
    ]:
        with pytest.raises(TypeError, match=message):
            call()
    animation.show_frame(np.int64(2))
    assert animation.index == 2


def show(a):
    return f"a = {a:.2f}"


@pytest.mark.parametrize(
    ("controls", "options", "error", "message"),
    [
        (None, {}, TypeError, r"controls must be a dict of at least one name and slider"),
        ([("a", "slider")], {}, TypeError, r"controls must be a dict .*, got list"),
        ({1: rl.angle_slider()}, {}, TypeError, r"control names must be Python names .*got int 1"),
        (
            {"a": rl.angle_slider()},
            {"title": 5},
            TypeError,
            r"title must be a str or None, got int",
        ),
        ({"a": rl.angle_slider()}, {"readout": None}, TypeError, r"readout must be one of"),
        ({"a": rl.angle_slider()}, {"canvas": True}, TypeError, r"canvas must be one of"),
    ],
)
def test_live_figure_checks_its_arguments(controls, options, error, message):
    with pytest.raises(error, match=message):
        rl.live_figure(show, None, controls, **options)


def test_live_figure_methods_and_controls_check_their_arguments():
    panel = rl.live_figure(show, None, {"a": rl.angle_slider(0, step=15)})
    with pytest.raises(TypeError, match=r"a must be a number \(the slider's units\), got the bool"):
        panel.set_values(a=True)
    with pytest.raises(TypeError, match=r"a must be a number \(the slider's units\), got the text"):
        panel.set_values(a="30")
    panel.set_values(a=30)
    assert panel.values["a"] == pytest.approx(np.pi / 6)
    for call, message in [
        (lambda: rl.angle_slider(True), r"value must be a number, got True"),
        (lambda: rl.angle_slider(0, label=3), r"label must be a str or None, got int 3"),
        (lambda: rl.number_slider(0, 0, 1, 1, unit=None), r"unit must be a str, got NoneType"),
        (lambda: rl.number_slider(0, 0, 1, True), r"step must be a number, got True"),
        (lambda: rl.choice_buttons("abc"), r"options must be a list of choices"),
        (lambda: rl.choice_buttons({"a": 1}), r"options must be a list of choices"),
        (lambda: rl.choice_buttons(["a"], label=1), r"label must be a str or None"),
        (lambda: rl.matrix_html([["1", "2"]]), r"matrix must be numeric, got the text '1'"),
        (lambda: rl.matrix_html([[True, 0.0]]), r"matrix must be numeric, got the boolean"),
        (lambda: rl.matrix_html(np.eye(2), decimals=2.0), r"decimals must be an int, got float"),
        (lambda: rl.matrix_html(np.eye(2), decimals=True), r"decimals must be an int, got the b"),
    ]:
        with pytest.raises(TypeError, match=message):
            call()
    with pytest.raises(ValueError, match=r"decimals must be 0 or more, got -1"):
        rl.matrix_html(np.eye(2), decimals=-1)


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("1.5", TypeError, r"values\['l_1'\] must be a real number, got the text"),
        (True, TypeError, r"values\['l_1'\] must be a real number, got the boolean True"),
        (float("nan"), ValueError, r"values\['l_1'\] must be a finite number"),
    ],
)
def test_compare_models_values_are_real_numbers(value, error, message):
    from robolab import compare_models
    from robolab.symbols import l1, q1

    arm = rl.DHRobot((l1, 0, 0, q1))
    with pytest.raises(error, match=message):
        compare_models(arm, arm.to_modified(), values={"l_1": value}, dynamics=False)


# ------------------------------------------------------------------ issue 29, items 5, 7, 8:
# simulations, integrators, trajectories, friction, control and inverse kinematics. Each
# case is a clear error now (its type and words below); before, most gave NaN, finite
# garbage, a hang, a NumPy warning or a message without the argument's name.

_ZERO2 = np.zeros(2)
_HOLD = np.zeros((20, 2))


def _planar():
    return rl.load_robot("planar2r")


def _fdt(torques=None, timestep=0.01, resolution=1, **keywords):
    torques = np.zeros((3, 2)) if torques is None else torques
    return rl.forward_dynamics_trajectory(
        _planar(), [0.1, 0.2], _ZERO2, torques, timestep, resolution, **keywords
    )


def _simulate(**keywords):
    arguments = {"duration": 1.0, "timestep": 0.01, **keywords}
    return rl.simulate(_planar(), [0.1, 0.2], **arguments)


def _control(Kp=1.0, Kd=1.0, resolution=1, tip=None, rows=20, **keywords):
    hold = np.zeros((rows, 2))
    return rl.simulate_control(
        _planar(),
        [0.1, 0.2],
        _ZERO2,
        tip,
        hold,
        hold,
        hold,
        _planar(),
        Kp,
        0,
        Kd,
        0.01,
        resolution,
        **keywords,
    )


def _tracking(**keywords):
    return rl.simulate_tracking(_planar(), _planar(), _HOLD, _HOLD, _HOLD, 0.01, 10, 5, **keywords)


def _motor():
    return rl.JointActuator(200e-6, 0.817e-3, 107.815, 1.2)


def _joint(**keywords):
    arguments = {"link_inertia": 1.2, "Kp": 0.5, "Kd": 0.01, "target": 0.1, "duration": 0.1}
    return rl.simulate_joint(_motor(), **(arguments | keywords))


def _target():
    return rl.forward_kinematics_space(_planar(), [0.5, 1.0])


def _friction(**keywords):
    return _planar().replace(friction=rl.JointFriction(**keywords))


ISSUE_29_DOORS = [
    # integrators and single steps (item 8)
    (lambda: rl.runge_kutta4_step(_planar(), [0.1, 0.2], _ZERO2, _ZERO2, 100.0),
     rl.SimulationDiverged, r"Runge–Kutta step of 100 s diverged: .* reached .* ran away"),
    (lambda: rl.runge_kutta4_step(_planar(), [0.1, 0.2], _ZERO2, _ZERO2, 1e300),
     ValueError, r"timestep must be at most 1e\+09 s"),
    (lambda: rl.runge_kutta4_step(_planar(), [0.1, 0.2], _ZERO2, [1e150, 0], 0.01),
     ValueError, r"joint_torques holds 1e\+150 at index \(0,\)"),
    (lambda: rl.runge_kutta4_step(
        _planar(), [0.1, 0.2], _ZERO2, _ZERO2, 0.01, tip_wrench=[1e99] * 6),
     ValueError, r"tip_wrench holds 1e\+99 at index \(0,\)"),
    (lambda: rl.runge_kutta4_step(_planar(), [0.1, 0.2], _ZERO2, _ZERO2, 1e-12),
     ValueError, r"timestep must be at least 1e-09 s"),
    (lambda: rl.euler_step([0.0], [1.0], [1.0], 1e300),
     ValueError, r"timestep must be at most 1e\+09 s"),
    (lambda: rl.euler_step([0.0], [0.0], [1e9], 0.01),
     rl.SimulationDiverged, r"Euler step of 0.01 s diverged: joint 1's velocity reached 1e\+07"),
    # forward_dynamics_trajectory (items 7, 8)
    (lambda: _fdt(np.full((10, 2), 1e150), integrator="rk45"),
     ValueError, r"joint_torque_traj holds 1e\+150 at index \(0, 0\)"),
    (lambda: _fdt(tip_wrench_traj=[1e150] * 6, integrator="rk45"),
     ValueError, r"tip_wrench_traj holds 1e\+150"),
    (lambda: _fdt(np.zeros((2, 2)), 100.0, integrator="rk4"),
     rl.SimulationDiverged, r"diverged at step 1 \(t = 100 s\): joint 1's velocity reached"),
    (lambda: _fdt(resolution=10**12),
     ValueError, r"integration steps, more than the budget of 1,000,000 a call"),
    (lambda: _fdt(resolution=10**9, integrator="rk45"),
     ValueError, r"more than the budget of 1,000,000"),
    (lambda: _fdt(np.zeros((2_000_000, 2))), ValueError, r"1,999,999 timesteps × integration"),
    (lambda: _fdt(timestep=1e-300), ValueError, r"timestep must be at least 1e-09 s"),
    (lambda: _fdt(resolution=10**6, timestep=1e-4, torques=np.zeros((2, 2))),
     ValueError, r"timestep / integration_resolution = 1e-10 s must be at least 1e-09 s"),
    (lambda: _fdt(resolution=2.0), TypeError, r"integration_resolution must be an int ≥ 1"),
    (lambda: rl.forward_dynamics_trajectory(
        _planar(), [0.1, 0.2], [1e7, 0], np.zeros((3, 2)), 0.01, 1),
     ValueError, r"joint_velocities holds 1e\+07 at index \(0,\): an initial joint speed"),
    (lambda: rl.forward_dynamics_trajectory(
        _friction(coulomb=1.0, smoothing=1e-9), [0.1, 0.2], _ZERO2, np.zeros((3, 2)), 0.1, 1,
        integrator="rk45"),
     ValueError, r"friction smoothing ε must lie in \[1e-06, 1000\]"),
    # simulate (items 7, 8)
    (lambda: _simulate(integrator="rk45", joint_torques=[1e150, 0]),
     ValueError, r"joint_torques holds 1e\+150"),
    (lambda: _simulate(integrator="rk45", rtol=1e-300), ValueError, r"rtol must lie in \[1e-13"),
    (lambda: _simulate(integrator="rk45", rtol=10), ValueError, r"rtol must lie in .* got 10"),
    (lambda: _simulate(integrator="rk45", atol=5.0), ValueError, r"atol must lie in \(0, 1\)"),
    (lambda: _simulate(integrator="rk4", rtol="x"), TypeError, r"rtol must be a real number"),
    (lambda: _simulate(duration=10, timestep=10, integrator="rk4"),
     rl.SimulationDiverged, r"velocity reached .* ran away"),
    (lambda: _simulate(duration=5, timestep=1, integrator="euler"),
     rl.SimulationDiverged, r"diverged at step 4 \(t = 4 s\): joint 1's velocity reached"),
    (lambda: rl.simulate(_planar(), [0.1, 0.2], [1e300, 0], duration=0.02, timestep=0.01),
     ValueError, r"joint_velocities holds 1e\+300"),
    (lambda: _simulate(timestep=1e-12, duration=1e-11), ValueError, r"at least 1e-09 s"),
    # friction (items 7, 8)
    (lambda: rl.JointFriction(coulomb=1.0).torques(None),
     TypeError, r"joint_velocities must be numeric, got None"),
    (lambda: rl.JointFriction(coulomb=1.0).torques("a"),
     TypeError, r"joint_velocities must be numeric, got the text 'a'"),
    (lambda: rl.JointFriction(coulomb=1.0).torques([np.nan]),
     ValueError, r"joint_velocities contains a non-finite value"),
    (lambda: rl.JointFriction(viscous=[1.0, 2.0]).torques([1.0, 2.0, 3.0]),
     ValueError, r"joint_velocities must have shape \(2,\) or \(\.\.\., 2\)"),
    (lambda: rl.JointFriction(viscous=10.0).torques([1e308]),
     ValueError, r"the friction torque overflows at joint_velocities\[0\] = 1e\+308"),
    (lambda: rl.JointFriction(coulomb=1.0, smoothing=1e-9), ValueError, r"got 1e-09: below it"),
    (lambda: rl.JointFriction(coulomb=1.0, smoothing=1e300), ValueError, r"got 1e\+300: above"),
    (lambda: rl.JointFriction(viscous=1e300), ValueError, r"b must be at most 1e\+06"),
    (lambda: rl.JointFriction(viscous=[1.0], coulomb=[1.0, 2.0]), ValueError, r"as many"),
    # trajectories (item 8)
    (lambda: rl.via_point_trajectory([0, 1, 2], [0, 1e-300, 2e-300]),
     ValueError, r"are 1e-300 s apart: via times must be at least 1e-09 s apart"),
    (lambda: rl.via_point_trajectory([0, 1, 2], [0, 1e300, 2e300]),
     ValueError, r"times must span at most 1e\+09 s"),
    (lambda: rl.via_point_trajectory([0, 1], [1e9, 1e9 + 1e-7]),
     ValueError, r"count the times from the first via point"),
    (lambda: rl.via_point_trajectory([-1e308, 1e308], [0, 1]),
     ValueError, r"points\[0\] and points\[1\] differ by more than the largest float"),
    (lambda: rl.via_point_trajectory([0, 1], [0, 1])(0.5, 1.0),
     TypeError, r"derivative must be an int"),
    (lambda: rl.rest_to_rest_trajectory([0, 1], [0, 1e-300], "trapezoidal"),
     ValueError, r"via times must be at least 1e-09 s apart"),
    (lambda: rl.cubic_time_scaling(1e-300, 0.0, 2), ValueError, r"duration must be at least"),
    (lambda: rl.quintic_time_scaling(1e300, 0.0), ValueError, r"duration must be at most"),
    (lambda: rl.cubic_time_scaling(2.0, 1.0, 2.0), TypeError, r"derivative must be an int"),
    (lambda: rl.trapezoidal_profile(velocity=1e-300, acceleration=1e-300),
     ValueError, r"the duration of the profile .* must be at most 1e\+09 s"),
    (lambda: rl.trapezoidal_profile(duration=1e300, acceleration=1e300),
     ValueError, r"duration must be at most 1e\+09 s"),
    (lambda: rl.trapezoidal_time_scaling(1e-12, 0.0, velocity=1.5e12),
     ValueError, r"duration must be at least 1e-09 s"),
    (lambda: rl.minimum_time_profile([0], [1e-300], 1, 1),
     ValueError, r"the fastest motion from joint_position_start .* at least 1e-09 s"),
    (lambda: rl.minimum_time_profile([0], [1], 1e-300, 1e-300),
     ValueError, r"the fastest motion .* must be at most 1e\+09 s"),
    (lambda: rl.joint_trajectory([0], [1], 1.0, 10**10, 3), ValueError, r"n_points must be at"),
    (lambda: rl.joint_trajectory([], [], 1.0, 3, 3), ValueError, r"at least one joint"),
    (lambda: rl.joint_trajectory([0], [1], 1e-300, 3, 3), ValueError, r"at least 1e-09 s"),
    (lambda: rl.screw_trajectory(np.eye(4), np.eye(4), 1.0, 10**9, 3),
     ValueError, r"n_points must be at most 1,000,000"),
    (lambda: rl.cartesian_trajectory(np.eye(4), np.eye(4), 1e10, 3, 3),
     ValueError, r"duration must be at most 1e\+09 s"),
    # control (item 5 and the sweep)
    (lambda: _control(1e6, 1e3, rows=100),
     rl.SimulationDiverged, r"velocity reached .* ran away\); .* or lower Kp and Kd"),
    (lambda: _control(resolution=10**12), ValueError, r"more than the budget of 1,000,000"),
    (lambda: _control(tip=[1e150] * 6), ValueError, r"tip_wrench_traj holds 1e\+150"),
    (lambda: _control(Kp=-1.0), ValueError, r"Kp = -1 at joint 1: Kp must be zero or positive"),
    (lambda: _tracking(integration_resolution="2"), TypeError, r"integration_resolution must be"),
    (lambda: _tracking(integration_resolution=2.5), TypeError, r"integration_resolution must be"),
    (lambda: _tracking(integration_resolution=10**12), ValueError, r"more than the budget"),
    (lambda: rl.scaled_inertias(_planar(), 1e308), ValueError, r"factor must lie in \[0.001"),
    (lambda: rl.with_payload(_planar(), 1e308), ValueError, r"at most 1e\+06 kg"),
    (lambda: _joint(timestep=1e-300), ValueError, r"steps is too many \(at most 10,000,000"),
    (lambda: _joint(duration=1e300), ValueError, r"steps is too many"),
    (lambda: _joint(target=1e308), ValueError, r"target must be at most 1e\+06 rad in size"),
    (lambda: rl.JointActuator(1e-4, gear_ratio=1e308), ValueError, r"gear_ratio must be at least"),
    (lambda: rl.simulate_joints(_planar(), None, Kp=0.5, Kd=0.02, target=[0.3, -0.2], duration=1.0),
     TypeError, r"actuators must be a list of 2 JointActuator objects"),
    (lambda: rl.simulate_joints(
        _planar(), [rl.JointActuator(1e-4, 1e-4, 100.0, 5.0)] * 2, Kp=0.5, Kd=0.02,
        target=[0.3, -0.2], duration=1000.0, timestep=0.001),
     ValueError, r"steps is too many \(at most 100,000"),
    (lambda: rl.resolved_rate_control(_planar(), [0.2, 0.5], _target(), max_steps=10**9),
     ValueError, r"max_steps must be at most 100,000"),
    (lambda: rl.resolved_rate_control(_planar(), [0.2, 0.5], _target(), damping=1e300),
     ValueError, r"damping must be 0 \(none\) or lie in \[1e-06, 1e\+06\]"),
    (lambda: rl.resolved_rate_control(_planar(), [0.2, 0.5], _target(), damping=1e-300),
     ValueError, r"damping must be 0 \(none\) or lie in"),
    (lambda: rl.resolved_rate_control(_planar(), [0.2, 0.5], _target(), timestep=1e-300),
     ValueError, r"timestep must be at least 1e-09 s"),
    (lambda: rl.resolved_rate_control(_planar(), [0.2, 0.5], _target(), linear_tolerance=1e-300),
     ValueError, r"linear_tolerance must be at least 1e-15"),
    # inverse kinematics (budgets)
    (lambda: rl.inverse_kinematics_space(_planar(), _target(), [0.3, 0.8], max_iterations=10**9),
     ValueError, r"max_iterations must be at most 100,000 \(the iteration budget\)"),
    (lambda: rl.inverse_kinematics_space(_planar(), _target(), [0.3, 0.8], 1e-300, 1e-300),
     ValueError, r"angular_tolerance must be at least 1e-15"),
    (lambda: rl.inverse_kinematics_body(
        _planar(), _target(), [0.3, 0.8], method="damped_least_squares", damping=1e-300),
     ValueError, r"damping must lie in \[1e-06, 1e\+06\]"),
    (lambda: rl.inverse_kinematics_body(
        _planar(), _target(), [0.3, 0.8], method="damped_least_squares", damping=1e300),
     ValueError, r"damping must lie in"),
    (lambda: rl.inverse_kinematics_body(_planar(), _target(), [0.3, 0.8], angular_tolerance=7.0),
     ValueError, r"angular_tolerance must be at most 3\.14159"),
    (lambda: rl.inverse_kinematics_analytic(_planar(), [1e300, 0, 0]),
     rl.OutOfReachError, r"the target is 1e\+300 m from the origin of the space frame"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "error", "message"), ISSUE_29_DOORS)
def test_issue_29_simulation_trajectory_friction_and_control_doors(call, error, message):
    with pytest.raises(error, match=message):
        call()
