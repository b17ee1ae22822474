"""Step-by-step reveals, kernel-side: Next, Previous, Show all, the counter, static renderings."""

from __future__ import annotations

import html
import re

import pytest
import sympy as sp
from widget_support import WIDGET_VIEW

import robolab
from robolab import Derivation, Step, reveal, to_latex
from robolab.dh.gathered_equation import GatheredEquation
from robolab.lessons.step_reveal import fitting_latex, step_html
from robolab.symbols import l1, l2, q1, q2


@pytest.fixture(scope="module")
def steps():
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    return arm.forward_kinematics_derivation()


def test_starts_with_one_step_and_next_adds_one(steps):
    shown = reveal(steps)
    assert shown.shown == 1 and len(shown.body.children) == 1
    assert shown.counter_text() == f"Step 1 of {len(steps)}"
    assert shown.previous_button.disabled and not shown.next_button.disabled
    shown.next_button.click()
    assert shown.shown == 2
    assert shown.body.children == tuple(shown.step_widgets[:2])
    assert f"Step 2 of {len(steps)}" in shown.counter.value


def test_previous_and_show_all(steps):
    shown = reveal(steps)
    shown.all_button.click()
    assert shown.shown == len(steps) == len(shown.body.children)
    assert shown.next_button.disabled and shown.all_button.disabled
    shown.previous_button.click()
    assert shown.shown == len(steps) - 1 and not shown.next_button.disabled
    for _ in range(10):
        shown.on_previous_click()
    assert shown.shown == 1  # the first step always stays
    for _ in range(10):
        shown.on_next_click()
    assert shown.shown == len(steps)  # and Next stops at the last one


def test_each_step_shows_title_explanation_and_latex(steps):
    shown = reveal(steps, start=len(steps))
    for number, (step, box) in enumerate(zip(steps, shown.step_widgets, strict=True), start=1):
        assert f"Step {number}/{len(steps)}. {step.title}." in box.value
        # & (matrix columns) and < are entities in HTML; the browser decodes them for MathJax.
        assert f"$$ {html.escape(step.latex(), quote=False)} $$" in box.value
        # The explanation comes first, then the expression.
        assert box.value.index("robolab-step-title") < box.value.index("robolab-step-expression")


def test_html_is_escaped_but_math_is_kept():
    y = sp.Symbol("y")
    step = Step("Compare", "If $a < b$ then <b>this</b> is text.", sp.Lt(y, 1), introduces=(y,))
    text = step_html(step, 1, 1)
    assert "$a &lt; b$" in text and "&lt;b&gt;this&lt;/b&gt;" in text
    assert "new symbol: $y$" in text
    assert "y &lt; 1" in text


def test_new_symbols_are_named_as_such_in_textbook_print():
    r_c1, m_1 = sp.symbols("r_c1 m_1")
    one = step_html(
        Step("Centre of mass", "Where it is.", sp.Eq(r_c1, 1), introduces=(r_c1,)), 1, 2
    )
    assert "<small>new symbol: $r_{c1}$</small>" in one
    assert "<small>introduces" not in one  # the old wording
    two = step_html(Step("Masses", "Two symbols.", sp.Eq(r_c1, m_1), introduces=(r_c1, m_1)), 2, 2)
    assert "<small>new symbols: $r_{c1}$, $m_{1}$</small>" in two
    nothing = step_html(Step("Plain", "Nothing introduced.", sp.Eq(r_c1, 2)), 1, 1)
    assert "new symbol" not in nothing and "robolab-step-introduces" not in nothing


def test_static_rendering_without_a_widget_front_end(steps):
    shown = reveal(steps)
    bundle = shown._repr_mimebundle_()
    # In test mode (and nbval, HTML export, a console) every step is rendered.
    assert WIDGET_VIEW not in bundle
    assert bundle["text/markdown"] == steps.to_markdown()
    assert bundle["text/plain"] == steps.to_text()
    assert bundle["text/plain"].count("Step ") == len(steps)
    assert str(shown) == steps.to_text()


def test_widget_view_in_a_kernel_keeps_the_fallbacks(steps, kernel_bundle):
    shown = reveal(steps)
    bundle = kernel_bundle(shown)
    assert bundle[WIDGET_VIEW]["model_id"] == shown.widget.model_id
    assert bundle["text/markdown"] == steps.to_markdown()


def test_a_plain_sequence_of_steps(steps):
    shown = reveal(list(steps), title="By hand")
    assert shown.derivation.title == "By hand"
    assert len(shown.derivation) == len(steps)
    assert reveal(steps, title="Renamed").derivation.title == "Renamed"


def test_bad_input_is_named(steps):
    with pytest.raises(ValueError, match="steps must hold at least one Step"):
        reveal([])
    with pytest.raises(
        TypeError, match="step 2 of derivation 'Derivation' must be a Step, got int"
    ):
        reveal([steps[0], 3])
    with pytest.raises(TypeError, match="got a single Step"):
        reveal(steps[0])
    with pytest.raises(
        TypeError, match="steps must be a Derivation or a sequence of Step, got int"
    ):
        reveal(5)
    with pytest.raises(ValueError, match=r"start must be a step number 1..5, got 0"):
        reveal(steps, start=0)
    shown = reveal(steps)
    with pytest.raises(ValueError, match=r"count must be 1..5, got 9"):
        shown.show(9)


def test_a_derivation_from_the_dynamics():
    # The planar 2R arm with symbolic masses: the Lagrangian derivation steps reveal fully.
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm.cm_positions = [(0, 0, 0), (0, 0, 0)]
    derivation = arm.lagrangian_derivation()
    shown = reveal(derivation)
    shown.show_all()
    assert len(shown.body.children) == len(derivation) > 5
    assert isinstance(derivation, Derivation)


def test_a_long_equation_is_shown_over_lines_that_fit():
    """A step's sp.Eq wider than a notebook line is printed as aligned lines; a short one as is."""
    from robolab.dh.gathered_equation import LATEX_LINE_COLUMNS, printed_columns

    x = sp.symbols("x1:40")
    wide = sp.Eq(sp.Symbol("y"), sum(sp.sin(v) ** 2 for v in x))
    assert printed_columns(wide) > LATEX_LINE_COLUMNS
    shown = reveal([Step("Wide", "Many terms.", wide), Step("Narrow", "Two.", sp.Eq(x[0], x[1]))])
    wide_html, narrow_html = (box.value for box in shown.step_widgets)
    body = wide_html.split("$$")[1]
    assert body.strip().startswith(r"\begin{aligned} y = {} &")
    lines = body.split(r"\\")
    assert len(lines) >= 3
    # every term is still there, once: the same sum, only printed over several lines
    assert body.count(r"\sin^{2}") == len(x)
    assert "aligned" not in narrow_html.split("$$")[1]


# --- every step of the chapters' reveals fits the output area ------------------------------------
#
# `latex_columns` estimates the width of display LaTeX in columns of about one letter: a matrix is
# as wide as its widest entries, column by column, an `aligned` block as its widest line, a
# subscript counts 0.7, `\cos` 3, an operator with its spacing 2. Measured once against MathJax 2.7
# (CommonHTML, 14 px like JupyterLab's content font, Chromium) over every step of the reveals of
# chapters 2, 4 and 8: 6.8 to 9.2 px a column (7.2 typical; the Jacobians 6.8, the gathered energies
# with their tall brackets 9.2); the old one-line equation of motion of chapter 8 (step 21) came
# to 186 columns and 1339 px. JupyterLab's output area is about 840 px wide in a 1024 px window,
# so 840 / 9.2 = 91 columns: a step is allowed 90.
STEP_COLUMNS = 90

_NO_WIDTH = {"dot", "ddot", "mathsf", "mathrm", "mathbf", "operatorname", "displaystyle", ",", ";"}
_TOKEN = re.compile(r"\\begin\{(\w+)\}|\\end\{\w+\}|(\\\\)|\\([A-Za-z]+|.)|(.)", re.S)


def latex_columns(latex: str) -> float:
    """The estimated width of display LaTeX, in columns (see STEP_COLUMNS)."""
    tokens = []  # (kind, value): begin, end, break, command, char
    for match in _TOKEN.finditer(latex):
        begin, new_line, command, char = match.groups()
        if begin:
            tokens.append(("begin", begin))
        elif new_line:
            tokens.append(("break", ""))
        elif command is not None:
            tokens.append(("command", command))
        elif char is not None:
            tokens.append(("char", char))
        else:
            tokens.append(("end", ""))

    def rows_until_end(i: int, closing: str) -> tuple[list[list[float]], int]:
        rows, cells, width = [], [], 0.0
        while i < len(tokens):
            kind, value = tokens[i]
            if kind == "end" or (kind, value) == ("char", closing):
                i += 1
                break
            if kind == "break" or (kind, value) == ("char", "&"):
                cells.append(width)
                width = 0.0
                if kind == "break":
                    rows.append(cells)
                    cells = []
                i += 1
                continue
            item, i = one(i)
            width += item
        rows.append([*cells, width])
        return rows, i

    def width_of(rows: list[list[float]], environment: str) -> float:
        if environment == "matrix":  # the widest entry of each column, 2 columns between them
            count = max(len(row) for row in rows)
            widest = [max(row[c] if c < len(row) else 0.0 for row in rows) for c in range(count)]
            return sum(widest) + 2 * (count - 1)
        return max(sum(row) for row in rows)  # aligned and the top level: the widest line

    def argument(i: int) -> tuple[float, int]:
        if tokens[i] == ("char", "{"):
            rows, i = rows_until_end(i + 1, "}")
            return width_of(rows, "group"), i
        return one(i)

    def one(i: int) -> tuple[float, int]:
        kind, value = tokens[i]
        if kind == "begin":
            rows, i = rows_until_end(i + 1, "")
            return width_of(rows, value), i
        if kind == "char":
            if value == "{":
                return argument(i)
            if value in "_^":
                width, i = argument(i + 1)
                return 0.7 * width, i
            if value.isspace() or value == "}":
                return 0.0, i + 1
            return (2.0 if value in "+-=<>" else 1.0), i + 1
        if value in ("frac", "tfrac", "dfrac"):
            numerator, i = argument(i + 1)
            denominator, i = argument(i)
            return max(numerator, denominator), i
        if value in ("left", "right"):
            return (0.0 if tokens[i + 1] == ("char", ".") else 1.0), i + 2
        if value in ("cos", "sin", "tan"):
            return 3.0, i + 1
        widths = {"quad": 2.0, "qquad": 4.0}
        return (0.0 if value in _NO_WIDTH else widths.get(value, 1.0)), i + 1

    rows, _ = rows_until_end(0, "")
    return width_of(rows, "top")


def test_latex_columns_measure_matrices_and_lines():
    assert latex_columns("x + y") == 4
    # a matrix: its widest entry in each column, not the sum of its rows
    matrix = r"\left[\begin{matrix}a b c & d\\e & f g h\end{matrix}\right]"
    assert latex_columns(matrix) == 1 + 3 + 2 + 3 + 1
    # an aligned block: its widest line
    assert latex_columns(r"\begin{aligned} x &= y \\ x &= a + b + c \end{aligned}") == 10
    # l, the subscript c2, cos, "(", q, the subscript 2, ")"
    assert latex_columns(r"l_{c2} \cos{\left(q_{2} \right)}") == pytest.approx(
        1 + 0.7 * 2 + 3 + 1 + 1 + 0.7 + 1
    )


def chapter_reveals() -> dict[str, list[Step]]:
    """The steps of every reveal in the chapters (grep `reveal(` in notebooks/: 2, 4 and 8)."""
    from robolab.symbols import d1, g, l3, lc1, lc2, lc3, q3

    planar_3r = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), (l3, 0, 0, q3), name="planar 3R")
    planar_2r = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    arm.gravity = (0, -g, 0)
    elbow = robolab.DHRobot(
        (0, sp.pi / 2, d1, q1), (l2, 0, 0, q2), (l3, 0, 0, q3), name="elbow manipulator"
    )
    elbow.cm_positions = [(0, 0, 0), (lc2 - l2, 0, 0), (lc3 - l3, 0, 0)]
    elbow.gravity = (0, 0, -g)
    shown = ("Inertia matrix entry", "Christoffel symbol", "Gravity vector")
    return {
        "chapter 2, cell 19": list(planar_3r.forward_kinematics_derivation()),
        "chapter 4, cell 15": list(planar_2r.forward_kinematics_derivation()),
        "chapter 8, cell 24": list(arm.lagrangian_derivation()),
        "chapter 8, cell 48": [
            s for s in elbow.lagrangian_derivation() if s.title.startswith(shown)
        ],
    }


def test_every_step_of_the_chapters_reveals_fits_the_output_area():
    reveals = chapter_reveals()
    too_wide = [
        (where, step.title, round(latex_columns(fitting_latex(step))))
        for where, steps in reveals.items()
        for step in steps
        if latex_columns(fitting_latex(step)) > STEP_COLUMNS
    ]
    assert too_wide == []
    # the bound can fail: the equations of motion on one line, as the reveal showed them before
    (motion,) = [s for s in reveals["chapter 8, cell 24"] if s.title == "Equations of motion"]
    one_line = to_latex(GatheredEquation(motion.expression.lhs, motion.expression.rhs))
    assert latex_columns(one_line) > 2 * STEP_COLUMNS


def test_the_equations_of_motion_are_shown_short_then_m_c_and_g():
    from robolab.symbols import g, lc1, lc2

    arm = robolab.DHRobot((l1, 0, 0, q1), (l2, 0, 0, q2), name="planar 2R")
    arm.cm_positions = [(lc1 - l1, 0, 0), (lc2 - l2, 0, 0)]
    arm.gravity = (0, -g, 0)
    (motion,) = [s for s in arm.lagrangian_derivation() if s.title == "Equations of motion"]
    body = html.unescape(step_html(motion, 21, 24).split("$$")[1]).strip()
    inside = body.removeprefix(r"\begin{aligned}").removesuffix(r"\end{aligned}").strip()
    lines = inside.split(r" \\ ")
    assert lines[0].startswith(r"M \ddot{q} + C \dot{q} + G &= \tau = ")
    assert [line.split(" &= ")[0].strip() for line in lines[1:]] == ["M", "C", "G"]
    assert latex_columns(body) < STEP_COLUMNS < latex_columns(to_latex(arm.dynamic_model().lhs))
