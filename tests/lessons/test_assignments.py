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
