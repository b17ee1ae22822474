"""Grading with the real nbgrader: a chapter as an assignment, two students, autograded scores.

``robolab.lessons.assignments`` writes chapter 1 as an nbgrader source notebook (through its
command line, run from outside the repository, and through ``write_assignments``); the test
runs the commands of docs/teaching.md ("Grading with nbgrader") under ``tmp_path``: in the
teacher's course folder ``nbgrader generate_assignment`` and ``release_assignment`` into an
exchange directory; in each of two students' homes (with the students' ``nbgrader_config.py``
of teaching.md in their Jupyter config folder) ``nbgrader fetch_assignment``, the answers, and
``nbgrader submit --student <name>`` (both students are the same OS user here); back in the
course folder ``nbgrader collect``, ``autograde``, ``export`` and ``generate_feedback``. The
points are read back from the gradebook, the CSV and the feedback HTML. The right answers of
the simulated students come from SciPy's rotations (an outside reference) and from the
teacher's worked solutions; the wrong ones are zeros, a cell that raises, an answer left at
``None`` and a classmate's numbers (which are wrong for a student whose exercises are drawn
from another seed). Expected points are written by hand: 5 of 8 and 2 of 8.

No network: nbgrader's exchange is a plain directory. With ``ROBOLAB_SCREENSHOTS=<folder>``
ada's feedback page is rendered in Chromium (Playwright) as ``nbgrader-feedback.png``: the
scores, then exercise 5 (answered with zeros), its check's message and its failed test.
Measured on 2026-12-02 (2 cores shared with other work, load 3 to 5): the ten nbgrader
commands took 35 s of CPU, about 2 s each to start Python and nbgrader, 12 s of it
``autograde`` running the chapter once per student; the test took 68 s of wall time.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import nbgrader.utils
import numpy as np
import pytest
from chapter_cells import notebook_cells, run_setup_cells
from nbgrader.api import Gradebook
from nbgrader.nbgraderformat import MetadataValidator
from scipy.spatial.transform import Rotation

from robolab.exercises import seed_for
from robolab.lessons import assignments
from robolab.lessons.assignments import chapter_assignment, student_name, write_assignments

CHAPTER = "01-rotations-and-transforms.ipynb"
ASSIGNMENT = "ch01"
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: The students' nbgrader_config.py of docs/teaching.md ("Day one on a hub"), {exchange} filled in.
STUDENT_CONFIG = """\
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "robolab"
c.Exchange.root = {exchange!r}
"""


def _nbgrader(where: Path, *args: str) -> str:
    """Run one nbgrader command in a folder, with ``where/.jupyter`` as its only user config."""
    env = {k: v for k, v in os.environ.items() if k not in {"ROBOLAB_STUDENT", "JUPYTERHUB_USER"}}
    env.update(
        JUPYTER_CONFIG_DIR=str(where / ".jupyter"),
        JUPYTER_DATA_DIR=str(where / ".jupyter" / "data"),  # the exchange's cache is in here
        IPYTHONDIR=str(where / ".ipython"),
        # nbgrader runs `alembic` (its gradebook migrations) from PATH: the environment's own
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
    )
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _by_grade_id(nb: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if "nbgrader" in c.metadata}


def _moving_axes(student: str, exercises: dict) -> list[list[float]]:
    """Exercise 1 of chapter 1 for one student, solved by SciPy: R = Rz(a) Ry(b) Rx(c)."""
    p = exercises["exercise_1"].with_seed(seed_for(student, "01/exercise_1")).parameters
    # intrinsic (moving-axes) z, y, x: SciPy's upper-case sequence
    return Rotation.from_euler("ZYX", [p["a"], p["b"], p["c"]]).as_matrix().tolist()


def _answered(cell: nbformat.NotebookNode, source_cell: nbformat.NotebookNode, how: object) -> str:
    """The source of an answer cell as a simulated student filled it in."""
    variable = cell.source.strip().splitlines()[-1].split("(")[1].rstrip(")")
    check = cell.source.strip().splitlines()[-1]
    if how == "solution":  # the teacher's worked solution, typed in by the student
        return source_cell.source.replace("### BEGIN SOLUTION\n", "").replace(
            "### END SOLUTION\n", ""
        )
    if how == "raises":
        return f"{variable} = np.linalg.inv(np.zeros((3, 3)))\n{check}"
    if how is None:
        return cell.source  # left as handed out: `answer = None`
    return f"{variable} = np.array({json.dumps(how)})\n{check}"


def test_chapter_assignment_metadata_follows_nbgraders_schema():
    """Every chapter converts; nbgrader's own validator accepts the cells; one test per exercise."""
    for path in sorted(NOTEBOOKS.glob("[01]*.ipynb")):
        chapter = nbformat.read(path, as_version=4)
        graded = chapter_assignment(chapter, path.name[:2])
        MetadataValidator().validate_nb(graded)
        solutions = sum("solution" in c.metadata.get("tags", []) for c in chapter.cells)
        cells = _by_grade_id(graded)
        tests = [g for g in cells if g.endswith("_test")]
        assert len(tests) == solutions, path.name
        assert all(cells[g].metadata["nbgrader"]["points"] == 1.0 for g in tests)
        assert not any("solution" in c.metadata.get("tags", []) for c in graded.cells)
        for grade_id in tests:
            assert "### BEGIN HIDDEN TESTS" in cells[grade_id].source
            answer = cells[grade_id.replace("_test", "_answer")]
            assert "### BEGIN SOLUTION" in answer.source, (path.name, grade_id)


def test_each_exercise_is_drawn_for_the_student_before_anything_shows_it():
    """Chapters define their exercises in one helper cell or each in its own cell: either way
    the line after an exercise's definition draws it for the student, and nothing before
    that (its statement, its data, the answer cell) sees the class's numbers."""
    for path in sorted(NOTEBOOKS.glob("[01]*.ipynb")):
        graded = chapter_assignment(nbformat.read(path, as_version=4), path.name[:2])
        sources = [cell.source for cell in graded.cells]
        student = next(
            i
            for i, c in enumerate(graded.cells)
            if c.metadata.get("nbgrader", {}).get("grade_id") == "student"
        )
        names = sorted({g[: -len("_test")] for g in _by_grade_id(graded) if g.endswith("_test")})
        for name in names:
            defined = [
                (i, n)
                for i, source in enumerate(sources)
                for n, line in enumerate(source.splitlines())
                if line.strip().startswith(f"{name} = ") and "with_seed" not in line
            ]
            assert defined, (path.name, name)
            for i, n in defined:
                assert i > student, (path.name, name)
                following = sources[i].splitlines()[n + 1 :]
                redraw = f'{name} = {name}.with_seed(seed_for(student, "{path.name[:2]}/{name}")'
                # the definition may span lines: the redraw follows it in the same cell
                assert any(line.strip().startswith(redraw) for line in following), (
                    path.name,
                    name,
                )


def test_bad_input_is_named():
    chapter = nbformat.read(NOTEBOOKS / CHAPTER, 4)
    with pytest.raises(ValueError, match="points must be a number"):
        chapter_assignment(chapter, "01", points=-1)
    with pytest.raises(ValueError, match="no cells tagged 'solution'"):
        chapter_assignment(nbformat.v4.new_notebook(), "00")
    with pytest.raises(ValueError, match="neither a chapter number"):
        write_assignments(["rotations"], "unused")
    with pytest.raises(ValueError, match="no chapter 99"):
        write_assignments(["99"], "unused")


def test_student_name_during_autograde(tmp_path, monkeypatch):
    folder = tmp_path / "autograded" / "grace" / ASSIGNMENT
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("ROBOLAB_STUDENT", "the-teacher")  # set in the grader's shell
    monkeypatch.setenv("JUPYTERHUB_USER", "someone-else")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert student_name() == "grace"  # the submission's folder wins
    monkeypatch.delenv("NBGRADER_EXECUTION")
    assert student_name() == "the-teacher"


def _os_user(monkeypatch, name: str) -> None:
    """Pretend this process runs as the OS user ``name`` (what nbgrader asks ``pwd`` for)."""
    real = pwd.getpwuid(os.getuid())
    fake = pwd.struct_passwd((name, *real[1:]))
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: fake)


@pytest.mark.parametrize(
    ("os_user", "hub_user", "expected"),
    [
        ("jupyter-ada", "ada", "jupyter-ada"),  # The Littlest JupyterHub: OS user jupyter-<name>
        ("jovyan", "ada", "ada"),  # Zero to JupyterHub, Binder images: one OS user, jovyan
        ("ada", None, "ada"),  # a laptop or a hub with system users named as the students
    ],
)
def test_student_name_is_the_id_nbgrader_files_the_submission_under(
    monkeypatch, os_user, hub_user, expected
):
    """A kernel on a hub draws the numbers for nbgrader's own student id (utils.get_username)."""
    monkeypatch.delenv("ROBOLAB_STUDENT", raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    if hub_user is None:
        monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    else:
        monkeypatch.setenv("JUPYTERHUB_USER", hub_user)
    _os_user(monkeypatch, os_user)
    assert nbgrader.utils.get_username() == expected  # what `nbgrader submit` files it under
    assert student_name() == expected
    monkeypatch.setenv("ROBOLAB_STUDENT", "zoe")
    assert student_name() == "zoe"


def test_command_line_from_outside_the_repository(tmp_path, monkeypatch, capsys):
    """``python -m robolab.lessons.assignments``: --notebooks, --assignment, --points, ..."""
    monkeypatch.chdir(tmp_path)  # no ./notebooks here
    monkeypatch.setattr(assignments, "NOTEBOOKS", tmp_path / "site-packages" / "notebooks")
    course = tmp_path / "course"
    # a wheel's install (a hub's image) has no notebooks: the error says where it looked
    assert assignments.main(["01", "--course", str(course)]) == 2
    error = capsys.readouterr().err
    assert "./notebooks" in error and str(tmp_path / "site-packages" / "notebooks") in error
    assert "--notebooks" in error and not course.exists()

    args = ["--course", str(course), "--notebooks", str(NOTEBOOKS), "--assignment", "week1"]
    assert assignments.main(["01", "04", *args, "--points", "2", "--same-numbers"]) == 0
    written = sorted((course / "source" / "week1").iterdir())
    assert [p.name for p in written] == [CHAPTER, "04-forward-kinematics-and-workspace.ipynb"]
    assert str(written[0]) in capsys.readouterr().out
    assert (course / "nbgrader_config.py").read_text() == assignments.NBGRADER_CONFIG
    graded = nbformat.read(course / "source" / "week1" / CHAPTER, as_version=4)
    cells = _by_grade_id(graded)
    tests = sorted(g for g in cells if g.endswith("_test"))
    assert len(tests) == 8
    assert all(cells[g].metadata["nbgrader"]["points"] == 2.0 for g in tests)
    assert cells["exercise_1_test"].source.startswith("# Graded (2 points)")
    assert "student" not in cells  # --same-numbers: no cell re-draws the exercises
    notes = [c.source for c in graded.cells if "**Graded assignment.**" in c.source]
    assert len(notes) == 1 and "Everyone in the class gets the same numbers." in notes[0]

    # again without --force: refused, nothing replaced
    assert assignments.main(["01", *args]) == 2
    assert "--force" in capsys.readouterr().err
    assert assignments.main(["01", *args, "--force"]) == 0  # the default: personal numbers
    cells = _by_grade_id(nbformat.read(course / "source" / "week1" / CHAPTER, as_version=4))
    assert cells["exercise_1_test"].metadata["nbgrader"]["points"] == 1.0
    assert "student = student_name()" in cells["student"].source
    setup = "".join(cells[g].source for g in cells if g.startswith("setup_"))
    assert 'exercise_1.with_seed(seed_for(student, "01/exercise_1"), own=True)' in setup

    # a teacher's clone: ./notebooks is found, and no chapters means all of its chapters
    clone = tmp_path / "robolab"
    (clone / "notebooks").mkdir(parents=True)
    shutil.copy(NOTEBOOKS / CHAPTER, clone / "notebooks" / CHAPTER)
    monkeypatch.chdir(clone)
    assert assignments.main(["--course", "course"]) == 0
    assert sorted(p.name for p in (clone / "course" / "source").iterdir()) == [ASSIGNMENT]


#: In the feedback page: every notebook cell before exercise 5's heading and after its test
#: cell hidden, so that the picture shows the scores, then one wrong answer and its failed test.
_ONLY_EXERCISE_5 = """() => {
  const cells = [...document.querySelectorAll("#notebook-container .cell")];
  const heading = (c) => (c.querySelector("h1, h2, h3, h4") || {}).textContent || "";
  const first = cells.findIndex((c) => heading(c).startsWith("Exercise 5"));
  const last = cells.findIndex((c) => c.querySelector('a[name="exercise_5_test"]'));
  cells.forEach((c, i) => { if (i < first || i > last) c.style.display = "none"; });
  return [first, last];
}"""


def _render_feedback(page: Path, png: Path) -> None:
    """Ada's feedback page in headless Chromium, as a PNG (no network: only file:// loads)."""
    from browser.jupyterlab_harness import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            tab.route(
                "**/*",
                lambda route: (
                    route.continue_() if route.request.url.startswith("file:") else route.abort()
                ),
            )
            tab.goto(page.as_uri())
            first, last = tab.evaluate(_ONLY_EXERCISE_5)
            assert 0 < first < last, (first, last)  # exercise 5's heading, then its test cell
            tab.screenshot(path=str(png), full_page=True)
        finally:
            browser.close()


def test_release_fetch_submit_collect_autograde_and_feedback(tmp_path):
    course = tmp_path / "course"  # the teacher's course folder
    exchange = tmp_path / "exchange"  # /srv/nbgrader/exchange on a hub
    written = write_assignments(["01"], course)
    assert written == [course / "source" / ASSIGNMENT / CHAPTER]
    with pytest.raises(FileExistsError):
        write_assignments(["01"], course)
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(f"c.Exchange.root = {str(exchange)!r}\n")

    _nbgrader(course, "generate_assignment", ASSIGNMENT)
    release = nbformat.read(course / "release" / ASSIGNMENT / CHAPTER, as_version=4)
    text = "\n".join(c.source for c in release.cells)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text and "_graded" not in text
    assert "# Solution:" not in text  # the worked solutions are not handed out
    source = _by_grade_id(nbformat.read(written[0], as_version=4))
    _nbgrader(course, "release_assignment", ASSIGNMENT)
    assert (exchange / "robolab" / "outbound" / ASSIGNMENT / CHAPTER).is_file()

    exercises = run_setup_cells(
        notebook_cells(CHAPTER), "%matplotlib widget", "# The exercises of this chapter"
    )
    ada_1, bob_1 = _moving_axes("ada", exercises), _moving_axes("bob", exercises)
    assert not np.allclose(ada_1, bob_1)  # their instances differ
    plans = {  # exercise -> how the student answers; the points each should get
        "ada": {
            1: ada_1,
            2: "solution",
            3: "solution",
            4: "solution",
            5: [0.0, 0.0, 0.0],
            6: "raises",
            7: "solution",
            8: None,
        },
        "bob": {1: ada_1, 2: "solution", 3: "solution"},  # copies ada's exercise 1
    }
    expected = {
        "ada": {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 1, 8: 0},
        "bob": {1: 0, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0},
    }
    for student, plan in plans.items():
        home = tmp_path / "home" / student
        (home / ".jupyter").mkdir(parents=True)  # the students' config (an image's etc/jupyter)
        (home / ".jupyter" / "nbgrader_config.py").write_text(
            STUDENT_CONFIG.format(exchange=str(exchange)), encoding="utf-8"
        )
        _nbgrader(home, "fetch_assignment", ASSIGNMENT)
        fetched = home / ASSIGNMENT / CHAPTER
        submission = nbformat.read(fetched, as_version=4)
        cells = _by_grade_id(submission)
        assert cells["exercise_1_answer"].source.startswith("R_answer = None")
        for number, how in plan.items():
            grade_id = f"exercise_{number}_answer"
            cells[grade_id].source = _answered(cells[grade_id], source[grade_id], how)
        nbformat.write(submission, fetched)
        _nbgrader(home, "submit", ASSIGNMENT, "--student", student)
    inbound = sorted(p.name.split("+")[0] for p in (exchange / "robolab" / "inbound").iterdir())
    assert inbound == ["ada", "bob"]

    _nbgrader(course, "collect", ASSIGNMENT)
    for student in plans:
        assert (course / "submitted" / student / ASSIGNMENT / CHAPTER).is_file()
        assert (course / "submitted" / student / ASSIGNMENT / "timestamp.txt").is_file()
    _nbgrader(course, "autograde", ASSIGNMENT)
    graded = nbformat.read(course / "autograded" / "ada" / ASSIGNMENT / CHAPTER, as_version=4)
    drawn = "".join(o.get("text", "") for o in _by_grade_id(graded)["student"].outputs)
    assert drawn.strip() == "The exercises are drawn for 'ada'."

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student, points in expected.items():
            for number, want in points.items():
                grade = gradebook.find_grade(
                    f"exercise_{number}_test", CHAPTER[:-6], ASSIGNMENT, student
                )
                assert grade.score == want, (student, number)
            submission = gradebook.find_submission(ASSIGNMENT, student)
            assert (submission.score, submission.max_score) == (sum(points.values()), 8.0)

    _nbgrader(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", newline="") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    assert {s: float(rows[s]["score"]) for s in rows} == {"ada": 5.0, "bob": 2.0}

    _nbgrader(course, "generate_feedback", ASSIGNMENT)
    for student, score in {"ada": "5.0 / 8.0", "bob": "2.0 / 8.0"}.items():
        page = course / "feedback" / student / ASSIGNMENT / f"{CHAPTER[:-6]}.html"
        html = page.read_text(encoding="utf-8")
        assert f"(Score: {score})" in html, student
    folder = os.environ.get("ROBOLAB_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        _render_feedback(
            course / "feedback" / "ada" / ASSIGNMENT / f"{CHAPTER[:-6]}.html",
            Path(folder) / "nbgrader-feedback.png",
        )


# ------------------------------------------------------------------ what enters the code


def _chapter(setup: str, student: str, solution: str) -> nbformat.NotebookNode:
    """A one-exercise chapter: the set-up cell, the student's cell, the tagged solution."""
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(setup),
            nbformat.v4.new_code_cell(student),
            nbformat.v4.new_code_cell(solution, metadata={"tags": ["solution"]}),
        ]
    )


_SETUP = (
    "from robolab.exercises import Exercise\nexercise_1 = Exercise('Pi', 'Pi?', solve=lambda: 3.14)"
)
_STUDENT = "answer = None\nexercise_1.check(answer)"
_SOLUTION = "exercise_1.check_solution(3.14)"


@pytest.mark.parametrize(
    "chapter_id",
    [
        '01", own=True); import os; os.system("touch /tmp/pwned"); x = ("',  # issue 29, item 1
        "01'); __import__('os').system('id') #",
        "01\n__import__('os')",
        "01\\",
        "٠١",  # Arabic-Indic digits: str.isdigit() says yes
        "0１",  # a full-width digit
        "1",
        "001",
        "",
    ],
)
def test_a_chapter_id_is_two_digits_and_nothing_else(chapter_id):
    with pytest.raises(ValueError, match="chapter_id must be a chapter's two-digit number"):
        chapter_assignment(_chapter(_SETUP, _STUDENT, _SOLUTION), chapter_id)


def test_the_seed_label_is_a_python_string_literal():
    graded = chapter_assignment(_chapter(_SETUP, _STUDENT, _SOLUTION), "07")
    setup = _by_grade_id(graded)["setup_0"].source
    calls = [
        node
        for node in ast.walk(ast.parse(setup))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "seed_for"
    ]
    assert len(calls) == 1
    student, label = calls[0].args
    assert isinstance(student, ast.Name) and student.id == "student"
    assert isinstance(label, ast.Constant) and label.value == "07/exercise_1"
    with pytest.raises(TypeError, match="chapter_id must be a chapter's two-digit number"):
        chapter_assignment(_chapter(_SETUP, _STUDENT, _SOLUTION), 7)


@pytest.mark.parametrize(
    ("points", "error", "message"),
    [
        (float("inf"), ValueError, "finite"),
        (float("nan"), ValueError, "finite"),
        (-0.5, ValueError, "got -0.5"),
        (10**400, ValueError, "finite"),  # an int beyond any float
        ("2", TypeError, "got str"),
        (True, TypeError, "got bool"),
        (None, TypeError, "got NoneType"),
    ],
)
def test_points_are_a_finite_number_at_least_zero(points, error, message):
    with pytest.raises(error, match=f"points must be a number ≥ 0.*{message}"):
        chapter_assignment(_chapter(_SETUP, _STUDENT, _SOLUTION), "01", points=points)
    with pytest.raises(error, match=f"points must be a number ≥ 0.*{message}"):
        write_assignments(["01"], "unused", points=points)


def test_numpy_and_fraction_points_are_written_as_json_numbers():
    from fractions import Fraction

    for points, written in ((np.float64(0.5), 0.5), (Fraction(3, 2), 1.5), (2, 2.0)):
        graded = chapter_assignment(_chapter(_SETUP, _STUDENT, _SOLUTION), "01", points=points)
        text = nbformat.writes(graded)
        assert json.loads(text)["cells"][4]["metadata"]["nbgrader"]["points"] == written


@pytest.mark.parametrize(
    ("setup", "student", "solution", "message"),
    [
        # the check shares its line: the solution's `answer = 3.14` would be lost
        (
            _SETUP,
            _STUDENT,
            "answer = 3.14; exercise_1.check_solution(answer)",
            "on a line of its own",
        ),
        # a worked solution that ends with the student's check would show a student's tick
        (_SETUP, _STUDENT, "exercise_1.check(3.14)", "must end with `exercise_N.check_solution"),
        (_SETUP, "answer = None; exercise_1.check(answer)", _SOLUTION, "on a line of its own"),
        # the definition shares its line with a use: the use would see the class's numbers
        (_SETUP + "; print(exercise_1)", _STUDENT, _SOLUTION, "on lines of its own"),
        # names that become nbgrader ids and code
        (
            _SETUP.replace("exercise_1", "übung_1"),
            _STUDENT.replace("exercise_1", "übung_1"),
            _SOLUTION.replace("exercise_1", "übung_1"),
            "must be an ASCII name",
        ),
        (_SETUP, "student = None\nexercise_1.check(student)", _SOLUTION, "assigns student, a name"),
        (_SETUP + "\nseed_for = None", _STUDENT, _SOLUTION, "assigns seed_for"),
        # nbgrader's markers would cut a cell (and hand out the rest of a solution)
        (
            _SETUP,
            _STUDENT,
            "answer = 3.14  ### END SOLUTION\nexercise_1.check_solution(answer)",
            "'END SOLUTION', one of nbgrader's region markers",
        ),
        (_SETUP + "\n# BEGIN HIDDEN TESTS", _STUDENT, _SOLUTION, "'BEGIN HIDDEN TESTS'"),
        # defined only inside a block: it could not be drawn for the student
        (
            _SETUP.replace("\nexercise_1 = ", "\nif True:\n    exercise_1 = ") + "\nother = 1",
            _STUDENT,
            _SOLUTION,
            "defines none of",
        ),
    ],
)
def test_a_chapter_that_could_not_be_graded_as_written_is_refused(
    setup, student, solution, message
):
    with pytest.raises(ValueError, match=message):
        chapter_assignment(_chapter(setup, student, solution), "01")


def test_a_chapter_with_nbgrader_metadata_or_two_answers_for_one_exercise_is_refused():
    chapter = _chapter(_SETUP, _STUDENT, _SOLUTION)
    chapter.cells[0].metadata["nbgrader"] = {"grade_id": "setup_0", "locked": True}
    with pytest.raises(ValueError, match="cell 0 of chapter 01 already has nbgrader metadata"):
        chapter_assignment(chapter, "01")
    chapter = _chapter(_SETUP, _STUDENT, _SOLUTION)
    chapter.cells += [nbformat.from_dict(dict(c)) for c in chapter.cells[1:]]
    for position, cell in enumerate(chapter.cells):
        cell["id"] = f"c{position}"
    with pytest.raises(ValueError, match="more than one answer cell for exercise_1"):
        chapter_assignment(chapter, "01")


def test_the_redraw_follows_the_definition_past_a_form_feed_and_a_line_separator():
    """str.splitlines() breaks lines at \\f and U+2028 inside a string, Python does not."""
    setup = "note = 'a\fb\u2028c'\n" + _SETUP + "\nafter = exercise_1"
    graded = chapter_assignment(_chapter(setup, _STUDENT, _SOLUTION), "01")
    source = _by_grade_id(graded)["setup_0"].source
    lines = source.split("\n")
    assert lines[0] == "note = 'a\fb\u2028c'"
    assert lines[2].startswith("exercise_1 = Exercise(")
    assert (
        lines[3]
        == 'exercise_1 = exercise_1.with_seed(seed_for(student, "01/exercise_1"), own=True)'
    )
    assert lines[4] == "after = exercise_1"
    assert ast.literal_eval(ast.parse(source).body[0].value) == "a\fb\u2028c"


def test_the_chapter_is_checked_as_a_notebook_and_not_modified():
    chapter = _chapter(_SETUP, _STUDENT, _SOLUTION)
    before = json.dumps(chapter, sort_keys=True)
    chapter_assignment(chapter, "01")
    assert json.dumps(chapter, sort_keys=True) == before
    with pytest.raises(TypeError, match="chapter must be a notebook"):
        chapter_assignment("01-rotations-and-transforms.ipynb", "01")
    broken = _chapter(_SETUP, _STUDENT, _SOLUTION)
    broken.cells[1].source = 5
    with pytest.raises(
        ValueError, match=r"chapter 01: not a valid Jupyter notebook .* at \$\.cells\[1\]"
    ):
        chapter_assignment(broken, "01")
    looped = _chapter(_SETUP, _STUDENT, _SOLUTION)
    looped.metadata["self"] = looped.metadata  # a cycle nests forever
    with pytest.raises(ValueError, match="nested more than 64 levels deep"):
        chapter_assignment(looped, "01")
    shared: list = []
    for _ in range(60):  # 61 levels, but 2**60 values once written out
        shared = [shared, shared]
    wide = _chapter(_SETUP, _STUDENT, _SOLUTION)
    wide.metadata["shared"] = shared
    with pytest.raises(ValueError, match="more than 2097153 values"):
        chapter_assignment(wide, "01")
    odd = _chapter(_SETUP, _STUDENT, _SOLUTION)
    odd.metadata["tags"] = {1, 2}
    with pytest.raises(ValueError, match="not JSON data"):
        chapter_assignment(odd, "01")


def test_the_student_name_is_composed_unicode(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setenv("ROBOLAB_STUDENT", "Jose\u0301")  # as macOS stores a folder name
    assert student_name() == "Jos\u00e9"


@pytest.mark.parametrize(
    ("chapters", "error", "message"),
    [
        ("01", TypeError, "chapters must be a list"),  # would be the chapters 0 and 1
        ([1], TypeError, "each chapter must be a number such as '04'"),
        (["٣"], ValueError, "one or two digits 0-9"),
        (["4", "04"], ValueError, "named more than once"),
        ([], ValueError, "no chapters given"),
    ],
)
def test_a_bad_chapter_list_is_named(chapters, error, message):
    with pytest.raises(error, match=message):
        write_assignments(chapters, "unused", notebooks=NOTEBOOKS)


def test_assignment_and_folder_names(tmp_path):
    for assignment in ("-rf", "a b", "week/1", "a" * 65, "wéek"):
        with pytest.raises(ValueError, match="assignment must be letters, digits"):
            write_assignments(["01"], tmp_path, assignment=assignment, notebooks=NOTEBOOKS)
    with pytest.raises(ValueError, match="course must be a folder's path, got ''"):
        write_assignments(["01"], "", notebooks=NOTEBOOKS)
    with pytest.raises(TypeError, match="notebooks must be a folder's path, got int"):
        write_assignments(["01"], tmp_path, notebooks=1)
    assert not any(tmp_path.iterdir())


def test_a_fifo_or_link_in_place_of_a_source_notebook_is_replaced_not_written_through(tmp_path):
    course = tmp_path / "course"
    target = course / "source" / ASSIGNMENT / CHAPTER
    target.parent.mkdir(parents=True)
    os.mkfifo(target)  # written through, it would block until someone reads it
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep", encoding="utf-8")
    (course / "nbgrader_config.py").symlink_to(tmp_path / "missing.py")  # a dangling link
    with pytest.raises(FileExistsError, match="--force"):
        write_assignments(["01"], course, notebooks=NOTEBOOKS)
    assert write_assignments(["01"], course, notebooks=NOTEBOOKS, overwrite=True) == [target]
    assert target.is_file() and not target.is_symlink()
    assert nbformat.read(target, as_version=4).cells[0].cell_type == "markdown"
    assert not (tmp_path / "missing.py").exists()  # the teacher's link is left alone
    target.unlink()
    target.symlink_to(elsewhere)
    write_assignments(["01"], course, notebooks=NOTEBOOKS, overwrite=True)
    assert elsewhere.read_text(encoding="utf-8") == "keep" and not target.is_symlink()
    assert [p.name for p in target.parent.iterdir()] == [CHAPTER]  # no temporary file left


# ------------------------------------------------------------------ the command line, run


def _bad_notebooks(folder: Path) -> dict[str, tuple[Path, str]]:
    """Chapter files a hostile or careless hand could give: file → what the error must say."""
    good = json.loads((NOTEBOOKS / CHAPTER).read_text(encoding="utf-8"))
    deep = {**good, "metadata": {"x": json.loads("[" * 900 + "]" * 900)}}
    cases = {
        "21-missing.ipynb": (None, "No such file or directory"),
        "22-latin1.ipynb": (b"\xff\xfe{}", "it is not UTF-8 text"),
        "23-truncated.ipynb": (b'{"cells": [', "not valid JSON (line 1, column 12"),
        "24-list.ipynb": (b"[1, 2]", "expected a chapter notebook NN-title.ipynb"),
        "25-infinity.ipynb": (b'{"nbformat": Infinity}', "Infinity is not valid JSON"),
        "26-nesting.ipynb": (
            b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            "nested too deeply to read",
        ),
        "27-deep.ipynb": (json.dumps(deep).encode(), "nested more than 64 levels deep"),
        "28-huge.ipynb": (b" " * (4 * 1024 * 1024 + 1), "more than the 4194304 bytes"),
        "29-version3.ipynb": (
            b'{"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": []}',
            "got nbformat 3",
        ),
        "30-cell.ipynb": (
            b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
            b'"cells": [{"cell_type": "code"}]}',
            "(nbformat 4.5 schema) at $.cells[0]: 'metadata' is a required property",
        ),
        "31-kind.ipynb": (
            b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": '
            b'[{"cell_type": "weird", "metadata": {}, "source": ""}]}',
            "at $.cells[0].cell_type: expected one of code, markdown, raw for cell_type",
        ),
        "32-folder.ipynb": ("folder", "it is a directory, not a regular file"),
    }
    made = {}
    for name, (content, message) in cases.items():
        path = folder / name
        if content == "folder":
            path.mkdir()
        elif content is not None:
            path.write_bytes(content)
        made[name] = (path, message)
    return made


def _run(module: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_command_line_ends_bad_chapter_files_with_one_line(tmp_path):
    """Each bad file: exit status 2, one `error:` line naming the file and what was expected,
    nothing written (issue 29, item 9: raw nbformat, codec, AttributeError, RecursionError)."""
    for name, (path, message) in _bad_notebooks(tmp_path).items():
        done = _run("robolab.lessons.assignments", str(path), "--course", "course", cwd=tmp_path)
        lines = done.stderr.splitlines()
        assert done.returncode == 2, (name, done.stderr[-2000:])
        assert len(lines) == 1 and lines[0].startswith("error: "), (name, done.stderr[-2000:])
        assert name in lines[0] and message in lines[0], (name, lines[0])
        assert not (tmp_path / "course").exists(), name


_BAD_OPTIONS = [
    (["--points", "inf"], "argument --points: expected a finite number ≥ 0"),
    (["--points", "1e999"], "argument --points: expected a finite number ≥ 0"),
    (["--points", "-1"], "argument --points: expected a finite number ≥ 0"),
    (["--points", "one"], "argument --points: expected a finite number ≥ 0"),
    (["٣"], "error: a chapter number is one or two digits 0-9"),
    (["01", "1"], "is named more than once"),
    (["--assignment", "a;b"], "error: assignment must be letters, digits"),
    (["--course", ""], "error: --course must be a folder's path, got ''"),
    (["--notebooks", ""], "error: --notebooks must be a folder's path, got ''"),
]


def _option_run(args: list[str]) -> list[str]:
    """The command line's arguments for one case of _BAD_OPTIONS."""
    chapters = [] if any(a.isdigit() for a in args) else ["01"]
    course = [] if "--course" in args else ["--course", "course"]
    notebooks = [] if "--notebooks" in args else ["--notebooks", str(NOTEBOOKS)]
    return [*chapters, *args, *course, *notebooks]


@pytest.mark.parametrize(("args", "message"), _BAD_OPTIONS[::4])
def test_the_command_line_ends_bad_options_with_one_line(tmp_path, args, message):
    done = _run("robolab.lessons.assignments", *_option_run(args), cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Infinity" not in done.stdout
    last = done.stderr.splitlines()[-1]
    assert message in last, last
    if not args[0].startswith("--points"):  # argparse prints its usage above its error
        assert len(done.stderr.splitlines()) == 1, done.stderr
    assert not (tmp_path / "course").exists()


@pytest.mark.parametrize(("args", "message"), _BAD_OPTIONS)
def test_bad_options_are_named_in_one_line(tmp_path, monkeypatch, capsys, args, message):
    """The same cases, in this process (the subprocess test above runs every fourth)."""
    monkeypatch.chdir(tmp_path)
    try:
        status = assignments.main(_option_run(args))
    except SystemExit as exit:  # argparse's errors
        status = exit.code
    assert status == 2
    error = capsys.readouterr().err
    assert message in error.splitlines()[-1], error
    assert not (tmp_path / "course").exists()


def test_the_command_line_names_a_course_folder_it_cannot_write(tmp_path):
    (tmp_path / "course").write_text("a file, not a folder", encoding="utf-8")
    done = _run(
        "robolab.lessons.assignments",
        "01",
        "--course",
        "course",
        "--notebooks",
        str(NOTEBOOKS),
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: cannot write course/source/ch01/01-rotations-and-transforms")
    assert "Not a directory" in line and "expected a course folder that can be written to" in line


# ------------------------------------------------------------------ hints, slips, the same verdict

_STAGED_SETUP = """\
import numpy as np
from robolab.exercises import Exercise
exercise_1 = Exercise(
    "The hand's x",
    "A link of {l:.2f} m at q = {q:.2f} rad: the hand's x (m)?",
    solve=lambda l, q: l * np.cos(q),
    generate=lambda rng: {"l": rng.uniform(0.5, 1.0), "q": rng.uniform(2.0, 3.0)},
    hint=["Which side of the triangle is x?", "Project the link on the x-axis."],
    slips={"That is y, not x: the other projection.": lambda l, q: l * np.sin(q)},
    angles=["q"],
    kind="model",
)"""
_STAGED_STUDENT = "answer = None  # a number, metres\nexercise_1.check(answer)"
_STAGED_SOLUTION = (
    "# Solution: x = l cos q.\n"
    "p = exercise_1.parameters\n"
    "exercise_1.check_solution(p['l'] * np.cos(p['q']))"
)


def _graded_namespace(monkeypatch, student: str) -> tuple[dict, nbformat.NotebookNode]:
    """The assignment of a one-exercise chapter, its read-only cells run for ``student``."""
    monkeypatch.setenv("ROBOLAB_STUDENT", student)
    graded = chapter_assignment(_chapter(_STAGED_SETUP, _STAGED_STUDENT, _STAGED_SOLUTION), "05")
    namespace: dict = {}
    cells = _by_grade_id(graded)
    for grade_id in ("student", "setup_0"):
        exec(cells[grade_id].source, namespace)  # the teacher's cells, as the kernel runs them
    return namespace, graded


def _hidden_test(graded: nbformat.NotebookNode, namespace: dict, answer: object) -> bool:
    """Run the autograder's hidden test on ``answer``: True when it passes."""
    source = _by_grade_id(graded)["exercise_1_test"].source
    assert "### BEGIN HIDDEN TESTS" in source
    namespace["answer"] = answer
    try:
        exec(source, namespace)
    except AssertionError:
        return False
    return True


def test_an_assignment_keeps_the_staged_hints_and_the_slips(monkeypatch):
    """Item 5 of issue 26: the student's own numbers, with the chapter's hints and slips."""
    namespace, _ = _graded_namespace(monkeypatch, "ada")
    exercise = namespace["exercise_1"]
    assert exercise.seed == seed_for("ada", "05/exercise_1") and exercise._own
    assert exercise.kind == "model" and "(modelling)" in exercise._repr_markdown_()
    assert exercise.hints == ("Which side of the triangle is x?", "Project the link on the x-axis.")
    length, q = exercise.parameters["l"], exercise.parameters["q"]
    unanswered = str(exercise.check(None))
    assert "Hint" not in unanswered  # no hint before a try
    slip = str(exercise.check(length * np.sin(q)))
    assert "That is y, not x" in slip and f"{length * np.cos(q):.4g}" not in slip
    degrees = str(exercise.check(length * np.cos(np.degrees(q))))
    assert "degrees" in degrees and "Project the link" in degrees  # the second hint, 2nd try
    wrong = str(exercise.check(0.123))
    assert "Which side" in wrong and "Project the link" in wrong


@pytest.mark.parametrize("student", ["ada", "alan"])
def test_the_hidden_test_grades_what_the_notebooks_check_accepts(monkeypatch, student):
    """The same verdict in the notebook and in the autograder, on the student's numbers."""
    namespace, graded = _graded_namespace(monkeypatch, student)
    exercise = namespace["exercise_1"]
    length, q = exercise.parameters["l"], exercise.parameters["q"]
    right = length * np.cos(q)  # written here, not by robolab
    answers = [
        right,
        right * (1 + 1e-9),  # within the check's tolerance
        [right],  # a one-entry list is a number to the check
        length * np.sin(q),  # the slip
        length * np.cos(np.degrees(q)),  # degrees
        -right,
        None,  # not answered
        "0.5",  # text
    ]
    for answer in answers:
        accepted = exercise.with_seed(exercise.seed).check(answer).correct
        assert _hidden_test(graded, namespace, answer) == accepted, answer
    assert _hidden_test(graded, namespace, right) and not _hidden_test(graded, namespace, None)
    solution = _by_grade_id(graded)["exercise_1_answer"].source
    assert "### BEGIN SOLUTION" in solution and "answer = p['l'] * np.cos(p['q'])" in solution
