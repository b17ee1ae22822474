"""The teach pendant, kernel-side: every callback, the read-out, both canvases, test mode."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from widget_support import WIDGET_VIEW, pixels

import robolab
from robolab.spatial.transforms import rotation_to_rpy
from robolab.support import widgets as _widgets
from robolab.symbols import q1, q2
from robolab.views.widgets.teach_pendant import TeachPendant, teach

pytestmark = pytest.mark.usefixtures("ipympl_imported_once")


@pytest.fixture(scope="module")
def puma():
    return robolab.load_robot("puma560", form="dh")


@pytest.fixture(scope="module")
def scara():
    return robolab.load_robot("scara", form="dh")


def test_one_slider_per_joint_with_the_models_limits_in_degrees(puma):
    pendant = teach(puma)
    assert len(pendant.sliders) == 6
    for slider, (low, high) in zip(pendant.sliders, puma.joint_limits, strict=True):
        assert isinstance(slider.value, int)  # integer sliders: no float echo
        assert slider.min == int(np.ceil(np.degrees(low) - 1e-6))
        assert slider.max == int(np.floor(np.degrees(high) + 1e-6))
        assert slider.description.endswith("(deg)")


def test_prismatic_joints_slide_in_millimetres(scara):
    pendant = teach(scara)
    slider = pendant.sliders[2]
    low, high = scara.joint_limits[2]
    assert slider.description == "q3 (mm)"
    assert (slider.min, slider.max) == (round(low * 1000), round(high * 1000))
    slider.value = slider.min + 25
    assert pendant.q[2] == pytest.approx(low + 0.025)


def test_placeholder_prismatic_range_is_cut_to_a_metre():
    arm = robolab.DHRobot((0.5, 0, 0, q1), (0, 0, q2, 0, "p"), name="RP")  # limits (0, 1000) m
    pendant = teach(arm)
    assert (pendant.sliders[1].min, pendant.sliders[1].max) == (0, 1000)


def test_moving_a_slider_moves_the_view_and_the_readout(puma):
    pendant = teach(puma)
    links = pendant.view.links
    before_points = np.column_stack(links.get_data_3d()).copy()
    before_readout = pendant.readout.value
    pendant.sliders[1].value = 30  # what dragging the slider does, kernel-side
    assert pendant.q[1] == pytest.approx(np.radians(30))
    assert pendant.view.links is links
    assert not np.allclose(np.column_stack(links.get_data_3d()), before_points)
    assert pendant.readout.value != before_readout
    pose = puma.numeric().forward_kinematics(pendant.q)
    np.testing.assert_allclose(pendant.pose()["T"], pose, atol=1e-12)
    assert "position = ({:.4f}, {:.4f}, {:.4f}) m".format(*pose[:3, 3]) in pendant.readout_text()


def test_readout_has_pose_rpy_and_joints_with_units(puma):
    pendant = teach(puma, [0.1, 0.2, -0.3, 0.4, 0.5, 0.6])
    text = pendant.readout_text()
    T = puma.numeric().forward_kinematics(pendant.q)
    rpy = np.degrees(rotation_to_rpy(T[:3, :3]))
    assert "pose of the end-effector frame {6} in {0} (metres):" in text
    assert "roll, pitch, yaw = ({:.2f}, {:.2f}, {:.2f}) deg".format(*rpy) in text
    assert "(R = Rz(yaw) Ry(pitch) Rx(roll))" in text
    assert "q2 = 11.5°" in text
    html = pendant.readout_html()
    assert html.count("<tr>") == 4 and "{0}" in html


def test_kernel_set_values_are_not_echoed_back(puma):
    # set_q moves the sliders to whole degrees but keeps (and draws) the exact values.
    pendant = teach(puma)
    q = np.array([0.123456, -0.5, 0.25, 1.0, -1.0, 0.75])
    pendant.set_q(q)
    np.testing.assert_array_equal(pendant.q, q)
    assert [s.value for s in pendant.sliders] == [round(np.degrees(v)) for v in q]
    np.testing.assert_allclose(pendant.view.q, q)


def test_reset_button_returns_to_the_first_q(puma):
    q0 = np.radians([10, 20, -30, 0, 40, 0])
    pendant = teach(puma, q0)
    pendant.sliders[0].value = 90
    pendant.sliders[4].value = -20
    pendant.reset_button.click()
    np.testing.assert_allclose(pendant.q, q0, atol=1e-12)
    assert [s.value for s in pendant.sliders] == [10, 20, -30, 0, 40, 0]


def test_ellipsoid_buttons(puma):
    pendant = teach(puma, [0.2, 0.7, -1.1, 0.4, 0.9, -0.3])
    assert pendant.ellipsoid_buttons.value == "off" and not pendant.view.ellipsoid.get_visible()
    pendant.ellipsoid_buttons.value = "velocity"
    assert pendant.view.ellipsoid.get_visible()
    assert "velocity ellipsoid of the end-effector origin" in pendant.readout_text()
    pendant.ellipsoid_buttons.value = "force"
    assert pendant.view.ellipsoid_kind == "force"
    assert "N per unit joint torque" in pendant.readout_text()
    pendant.ellipsoid_buttons.value = "off"
    assert not pendant.view.ellipsoid.get_visible()


def test_singularity_warning_at_the_pumas_wrist_singularity(puma):
    # q5 = 0 lines up the axes of joints 4 and 6: the Jacobian loses rank.
    pendant = teach(puma, [0.2, 0.7, -1.1, 0.4, 0.0, -0.3])
    assert pendant.near_singularity()
    assert "At a singularity" in pendant.warning.value
    pendant.sliders[4].value = 1
    assert "Near a singularity" in pendant.warning.value
    pendant.sliders[4].value = 45
    assert not pendant.near_singularity()
    assert "Away from singularities" in pendant.warning.value
    pendant.sliders[4].value = 0
    pendant.singularity_checkbox.value = False
    assert pendant.warning.value == ""


def test_long_joint_names_are_shown_whole_and_aligned(puma):
    # the UR5's URDF names: "shoulder_pan_joint (deg)" was cut to 100 px with "…", then
    # squeezed the track to 54 px at 1024 x 768; now each long name is above its slider
    pendant = teach(robolab.load_robot("ur5"))
    assert "shoulder_pan_joint (deg)" in pendant.joint_labels[0].value
    assert {slider.description for slider in pendant.sliders} == {""}
    assert pendant.sliders[0].tooltip.startswith("joint 1: shoulder_pan_joint")
    widths = {slider.layout.width for slider in pendant.sliders}
    assert widths == {"330px"}  # the whole track (the Puma's label + track), aligned
    controls = pendant.widget.children[1]
    assert controls.layout.width == f"{max(410, 330 + 90)}px"
    # the controls still fit beside the 400-pixel view in JupyterLab at 1024 x 768 (an
    # output 844 px wide)
    assert int(controls.layout.width.removesuffix("px")) + 410 <= 844
    short = teach(puma)
    assert short.sliders[0].style.description_width == "80px"  # "q1 (deg)" beside
    assert short.sliders[0].layout.width == "330px" and not hasattr(short, "joint_labels")


def test_singular_values_are_those_of_the_robots_jacobian(puma):
    pendant = teach(puma, q=[0.1, 0.2, -0.3, 0.4, 0.5, 0.6])
    J = np.asarray(puma.numeric().jacobian(pendant.q), dtype=float)  # rows [v; ω]
    expected = np.linalg.svd(J, compute_uv=False)
    np.testing.assert_allclose(pendant.singular_values(), expected, rtol=1e-12, atol=1e-12)
    assert expected[0] > expected[-1] > 0.0  # a regular configuration


def test_stretched_planar_arm_is_singular():
    arm = robolab.DHRobot((1.0, 0, 0, q1), (0.5, 0, 0, q2), name="2R")
    pendant = teach(arm, [0.4, 0.0])
    assert pendant.near_singularity()
    pendant.sliders[1].value = 60
    assert not pendant.near_singularity()


def test_image_canvas_gets_newpixels(puma):
    pendant = teach(puma, canvas="image")
    assert pendant.canvas_kind == "image"
    before = pixels(pendant.figure_widget.value)
    assert before.shape == (400, 400, 3)  # compact (the default)
    pendant.sliders[0].value = 60
    assert (before != pixels(pendant.figure_widget.value)).any()


def test_view_options_reach_the_view(puma):
    pendant = teach(puma, elev=40, azim=10, zoom=1.3)
    ax = pendant.view.axes
    assert (ax.elev, ax.azim) == (40, 10)
    assert pendant.view.zoom == 1.3
    assert pendant.view.box_zoom > pendant.view.fitted_box_zoom
    boxed = teach(puma, limits=(-1, 1, -1, 1, 0, 1.5))
    assert boxed.view.axes.get_xlim() == (-1, 1) and boxed.view.axes.get_zlim() == (0, 1.5)
    with pytest.raises(ValueError, match="zoom must be a positive number"):
        teach(puma, zoom=-1)


def test_static_picture_has_narrow_margins_and_no_caption(puma):
    pendant = teach(puma)
    static = pixels(pendant.static_png())
    full = pixels(pendant.figure_widget.value)
    assert static.shape[0] < full.shape[0] and static.shape[1] <= full.shape[1]
    ink = np.any(static != 255, axis=2)
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    margins = (
        rows[0],
        static.shape[0] - 1 - rows[-1],
        columns[0],
        static.shape[1] - 1 - columns[-1],
    )
    assert all(margin == _widgets.CROP_MARGIN for margin in margins), margins
    # The caption's words head the text beside the picture instead.
    assert pendant.readout_text().startswith("Teach pendant: puma560 (standard DH, base frame {0})")
    assert pendant.view.caption.get_visible()  # the live figure keeps it


def test_cropped_keeps_a_margin_and_an_empty_picture_whole():
    picture = np.full((40, 60, 3), 255, dtype=np.uint8)
    assert _widgets.cropped(picture).shape == (40, 60, 3)
    picture[10:20, 30:35] = 0
    assert _widgets.cropped(picture, margin=2).shape == (14, 9, 3)
    assert _widgets.cropped(picture, margin=50).shape == (40, 60, 3)


def test_ipympl_canvas_is_updated_in_place(puma, widget_backend):
    from ipympl.backend_nbagg import Canvas

    pendant = teach(puma, canvas="ipympl")
    assert isinstance(pendant.figure_widget, Canvas)
    figure = pendant.view.figure
    # Before a browser attaches, the picture waits in the model as a complete data URL.
    assert pendant.figure_widget._data_url.startswith("data:image/png;base64,")
    first = pendant.figure_widget._data_url
    pendant.sliders[2].value = 40
    assert pendant.view.figure is figure
    assert pendant.figure_widget._data_url != first


@pytest.mark.parametrize(
    ("backend", "kind"),
    [("module://ipympl.backend_nbagg", "ipympl"), ("widget", "ipympl"), ("inline", "image")],
)
def test_canvas_follows_the_active_backend(puma, monkeypatch, backend, kind):
    monkeypatch.setattr(matplotlib, "get_backend", lambda: backend)
    _widgets.set_test_mode(False)
    try:
        assert teach(puma).canvas_kind == kind
    finally:
        _widgets.set_test_mode(None)


def test_a_live_canvas_needs_the_widget_backend(puma, monkeypatch):
    monkeypatch.setattr(
        matplotlib, "get_backend", lambda: "module://matplotlib_inline.backend_inline"
    )
    with pytest.raises(
        ValueError, match=r"canvas='ipympl' needs the ipympl backend: run %matplotlib"
    ):
        teach(puma, canvas="ipympl")


def test_test_mode_never_uses_a_live_canvas(puma, monkeypatch):
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "widget")
    assert _widgets.in_test_mode()  # inside pytest
    assert teach(puma).canvas_kind == "image"


def test_display_is_static_in_test_mode_and_a_widget_in_a_kernel(puma, kernel_bundle):
    pendant = teach(puma)
    bundle = pendant._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle
    assert bundle["text/plain"] == pendant.readout_text()
    assert bundle["text/html"].startswith('<img src="data:image/png;base64,')
    bundle = kernel_bundle(pendant)
    assert bundle[WIDGET_VIEW]["model_id"] == pendant.widget.model_id
    assert "text/plain" in bundle


def test_every_callback_is_a_plain_method(puma):
    pendant = teach(puma)
    pendant.on_slider_change({"owner": pendant.sliders[3], "new": 45})
    assert pendant.q[3] == pytest.approx(np.radians(45))
    pendant.on_ellipsoid_change({"new": "velocity"})
    assert pendant.view.ellipsoid_kind == "velocity"
    pendant.on_reset_click()
    np.testing.assert_allclose(pendant.q, 0.0, atol=1e-12)
    pendant.on_singularity_toggle({"new": False})


def test_screw_robot_pendant():
    ur5 = robolab.load_robot("ur5")
    pendant = teach(ur5)
    assert pendant.joint_labels[0].value.endswith("(deg)</span>")  # its long name is above
    pendant.sliders[1].value = -45
    assert "pose of the end-effector frame {b} in {s}" in pendant.readout_text()


def test_bad_input_is_named(puma):
    with pytest.raises(ValueError, match=r"q\[1\] \(joint 2, q2\) = 5 rad is outside"):
        teach(puma, [0, 5, 0, 0, 0, 0])
    with pytest.raises(
        ValueError, match=r"q\[0\] .* = 20 rad is outside .*; it looks like degrees"
    ):
        teach(puma, [20, 90, -60, 0, 45, 0])
    with pytest.raises(ValueError, match=r"q\[0\] \(joint 1, q1\) = -4 rad is outside"):
        teach(puma).set_q([-4, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"q must have shape \(6,\), got shape \(2,\)"):
        teach(puma, [0, 0])
    with pytest.raises(ValueError, match="canvas must be one of"):
        teach(puma, canvas="svg")
    with pytest.raises(ValueError, match="ellipsoid must be one of"):
        teach(puma, ellipsoid="both")
    with pytest.raises(ValueError, match="singularity_threshold must be a number between 0 and 1"):
        teach(puma, singularity_threshold=2)
    pendant = teach(puma)
    with pytest.raises(IndexError, match=r"index must be a joint index 0\.\.5, got 6"):
        pendant.set_joint(6, 10)


# --- one snapshot per slider step (robolab/views/drawing/drawable.py) ---------------------------


@pytest.mark.parametrize(
    ("form", "q0", "ellipsoid"),
    [
        ("dh", [0.2, 0.7, -1.1, 0.4, 0.02, -0.3], "velocity"),  # near the wrist singularity
        ("screw", [0.2, 0.7, -1.1, 0.4, 0.02, -0.3], "force"),
        ("dh", [0.1, 0.2, -0.3, 0.4, 0.5, 0.6], None),
    ],
)
def test_a_slider_step_computes_one_jacobian_and_one_svd(monkeypatch, form, q0, ellipsoid):
    from robolab.dh.numeric import NumericDHRobot
    from robolab.screw.kinematics.chain import KinematicChain

    pendant = teach(robolab.load_robot("puma560", form=form), q0, ellipsoid=ellipsoid)
    counts = {"jacobian": 0, "svd": 0}
    dh = form == "dh"
    owner, name = (NumericDHRobot, "jacobian") if dh else (KinematicChain, "jacobian_space")
    jacobian, svd = getattr(owner, name), np.linalg.svd

    def counted_jacobian(self, q):
        counts["jacobian"] += 1
        return jacobian(self, q)

    def counted_svd(*args, **kwargs):
        counts["svd"] += 1
        return svd(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted_jacobian)
    monkeypatch.setattr(np.linalg, "svd", counted_svd)
    pendant.sliders[0].value = 30
    assert counts == {"jacobian": 1, "svd": 1}
    # everything shown was read from that one snapshot
    assert pendant.warning.value and pendant.readout.value
    if ellipsoid is not None:
        assert pendant.view.ellipsoid.get_visible()
    if form == "dh" and ellipsoid == "velocity":
        assert "Near a singularity" in pendant.warning.value


def test_the_pendant_is_a_live_figure_of_its_joint_sliders(puma):
    pendant = teach(puma)
    assert isinstance(pendant, robolab.LiveFigure)
    assert list(pendant.controls) == [f"q{i}" for i in range(1, 7)]
    assert [pendant.controls[f"q{i + 1}"] for i in range(6)] == pendant.sliders
    updates = pendant.updates
    pendant.sliders[1].value = 30  # one step: one run of the live figure's update path
    assert pendant.updates == updates + 1
    assert pendant.values["q2"] == pytest.approx(np.radians(30))
    pendant.set_q(np.radians([10, 20, -30, 0, 40, 0]))  # six sliders move: one update
    assert pendant.updates == updates + 2
    assert pendant.reset_button.tooltip == "back to the initial configuration"


def test_the_snapshot_keeps_its_own_configuration(puma):
    pendant = teach(puma, singularity_warning=False)  # no Jacobian needed: none computed yet
    shot = pendant.view.snapshot
    pendant.sliders[0].value = 45  # the pendant's q moves on; the old snapshot does not
    assert shot.q[0] == 0.0 and pendant.view.snapshot.q[0] == pytest.approx(np.radians(45))
    np.testing.assert_allclose(
        shot.jacobian, puma.numeric().jacobian(np.zeros(6)), atol=1e-12
    )  # computed on first use, still at its own q


# --- small screens, radians beside degrees, copy q, keys (issue 17) ----------------------------


def test_the_default_pendant_is_compact_enough_for_1024_by_768(puma):
    # JupyterLab 4.6 at 1024 x 768, file browser closed: an output area 844 px wide and a
    # notebook 647 px high (measured in Chromium); the view and the controls share one row
    pendant = teach(puma, canvas="image")
    assert pendant.compact is True
    assert (pendant.figure_widget.width, pendant.figure_widget.height) == ("400", "400")
    controls = pendant.widget.children[1]
    assert 400 + int(controls.layout.width.removesuffix("px")) <= 844
    large = teach(puma, canvas="image", compact=False)
    assert (large.figure_widget.width, large.figure_widget.height) == ("500", "500")
    assert teach(puma, canvas="image", figsize=(3, 3)).figure_widget.width == "300"
    with pytest.raises(TypeError, match="compact must be"):
        teach(puma, compact="yes")


def test_radians_and_metres_beside_the_sliders(scara):
    pendant = teach(scara)
    pendant.sliders[0].value = 30
    pendant.sliders[2].value = pendant.sliders[2].min + 125
    assert pendant.si_labels[0].value == f"{math.radians(30):.4f} rad" == "0.5236 rad"
    low = scara.joint_limits[2][0]
    assert pendant.si_labels[2].value == f"{low + 0.125:.4f} m"
    kinds = [label.value.split()[-1] for label in pendant.si_labels]
    assert kinds == ["rad", "rad", "m", "rad"]


def test_q_as_code_is_a_line_of_python_that_gives_q_back(puma):
    pendant = teach(puma, np.radians([20, 30, -60, 0, 45, 0]))
    line = pendant.q_text.value
    assert line == "q = [0.3491, 0.5236, -1.0472, 0.0, 0.7854, 0.0]"
    namespace: dict[str, object] = {}
    exec(line, namespace)  # what a student does with the copied line
    np.testing.assert_allclose(namespace["q"], np.radians([20, 30, -60, 0, 45, 0]), atol=5e-5)
    pendant.sliders[0].value = -45
    assert pendant.q_text.value.startswith("q = [-0.7854, ")
    pendant.q_text.value = "edited"
    pendant.copy_button.click()  # the kernel side of Copy q: the field shows q again
    assert pendant.q_text.value == pendant.q_code()
    assert "robolab-copy-code" in pendant.copy_button._dom_classes
    assert "robolab-code-field" in pendant.q_text._dom_classes


def test_the_sliders_keep_their_keys_in_notebook_7(puma):
    from robolab.views.widgets.controls import OWN_KEYS_CLASS

    pendant = teach(puma)
    assert all(OWN_KEYS_CLASS in slider._dom_classes for slider in pendant.sliders)
    guard = pendant.widget.children[-1]
    script = guard.outputs[0]["data"]["application/javascript"]
    # the attribute Lumino's CommandRegistry honours, set from a capture listener on the window
    assert "data-lm-suppress-shortcuts" in script and OWN_KEYS_CLASS in script
    assert "window.addEventListener('keydown', own, true)" in script
    assert guard.layout.display == "none"


def test_q0_is_the_old_name_of_q(puma):
    q = [0.1, 0.2, -0.3, 0.4, 0.5, 0.6]
    with pytest.warns(DeprecationWarning, match=r"teach\(q0=\.\.\.\) is now teach\(q=\.\.\.\)"):
        pendant = teach(puma, q0=q)
    np.testing.assert_array_equal(pendant.q, teach(puma, q).q)
    np.testing.assert_array_equal(pendant.q0, q)
    with pytest.warns(DeprecationWarning, match=r"TeachPendant\(q0=\.\.\.\) is now"):
        TeachPendant(puma, q0=q)


def test_the_pendant_loads_a_urdf_by_its_path_with_the_chain_chosen():
    # Issue 28: rl.teach("my_arm.urdf", ee_link="tool0"), as load_robot takes it.
    from pathlib import Path

    urdf = Path(__file__).resolve().parents[2] / "data" / "urdf" / "branch.urdf"
    pendant = teach(urdf, ee_link="tcp")
    assert isinstance(pendant.robot, robolab.ScrewRobot)
    assert pendant.robot.joint_names == ("j1", "j2", "j3")
    assert len(pendant.sliders) == 3
    assert teach("planar2r").robot.n_joints == 2
    with pytest.raises(ValueError, match=r"leaves .*ee_link="):
        teach(urdf)
    with pytest.raises(TypeError, match="base_link and ee_link choose the chain of a URDF"):
        teach(robolab.load_robot("planar2r"), ee_link="tcp")
