"""Grading with the real nbgrader: a chapter as an assignment, two students, autograded scores.

``robolab.lessons.assignments`` writes chapter 1 as an nbgrader source notebook; the test
runs the commands of docs/teaching.md ("Grading with nbgrader") in a course folder under
``tmp_path``: ``nbgrader generate_assignment``, two simulated submissions copied into
``submitted/<student>/``, ``nbgrader autograde`` and ``nbgrader export``, and reads the
points back from the gradebook and the CSV. The right answers of the simulated students
come from SciPy's rotations (an outside reference) and from the teacher's worked solutions;
the wrong ones are zeros, a cell that raises, an answer left at ``None`` and a classmate's
numbers (which are wrong for a student whose exercises are drawn from another seed).

No network: nbgrader's exchange is not used (submissions are copied where ``nbgrader
collect`` would put them). About 25 s, most of it autograde running the chapter twice.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from chapter_cells import notebook_cells, run_setup_cells
from scipy.spatial.transform import Rotation

from robolab.exercises import seed_for
from robolab.lessons.assignments import chapter_assignment, student_name, write_assignments

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook
from nbgrader.nbgraderformat import MetadataValidator

CHAPTER = "01-rotations-and-transforms.ipynb"
ASSIGNMENT = "ch01"


def _nbgrader(course: Path, *args: str) -> str:
    """Run one nbgrader command in the course folder, isolated from the user's config."""
    env = {k: v for k, v in os.environ.items() if k not in {"ROBOLAB_STUDENT", "JUPYTERHUB_USER"}}
    env.update(
        JUPYTER_CONFIG_DIR=str(course / ".jupyter"),
        IPYTHONDIR=str(course / ".ipython"),
        # nbgrader runs `alembic` (its gradebook migrations) from PATH: the environment's own
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
    )
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=course,
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
    for path in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[01]*.ipynb")):
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


def test_bad_input_is_named():
    chapter = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / CHAPTER, 4)
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
    monkeypatch.delenv("ROBOLAB_STUDENT")
    monkeypatch.delenv("NBGRADER_EXECUTION")
    assert student_name() == "someone-else"
    monkeypatch.setenv("ROBOLAB_STUDENT", "ada")
    assert student_name() == "ada"


def test_generate_submit_autograde_and_read_scores(tmp_path):
    course = tmp_path / "course"
    written = write_assignments(["01"], course)
    assert written == [course / "source" / ASSIGNMENT / CHAPTER]
    with pytest.raises(FileExistsError):
        write_assignments(["01"], course)

    _nbgrader(course, "generate_assignment", ASSIGNMENT)
    release = nbformat.read(course / "release" / ASSIGNMENT / CHAPTER, as_version=4)
    text = "\n".join(c.source for c in release.cells)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text and "_graded" not in text
    assert "# Solution:" not in text  # the worked solutions are not handed out
    handed_out = _by_grade_id(release)
    source = _by_grade_id(nbformat.read(written[0], as_version=4))
    assert handed_out["exercise_1_answer"].source.startswith("R_answer = None")

    exercises = run_setup_cells(
        notebook_cells(CHAPTER), "%matplotlib widget", "# The exercises of this chapter"
    )
    ada_1, bob_1 = _moving_axes("ada", exercises), _moving_axes("bob", exercises)
    assert not np.allclose(ada_1, bob_1)  # their instances differ
    plans = {  # exercise -> how the student answers; the points each should get
        "ada": {1: ada_1, 2: "solution", 3: "solution", 4: "solution", 5: [0.0, 0.0, 0.0],
                6: "raises", 7: "solution", 8: None},
        "bob": {1: ada_1, 2: "solution", 3: "solution"},  # copies ada's exercise 1
    }  # fmt: skip
    expected = {
        "ada": {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 1, 8: 0},
        "bob": {1: 0, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0},
    }
    for student, plan in plans.items():
        submission = nbformat.read(course / "release" / ASSIGNMENT / CHAPTER, as_version=4)
        cells = _by_grade_id(submission)
        for number, how in plan.items():
            grade_id = f"exercise_{number}_answer"
            cells[grade_id].source = _answered(cells[grade_id], source[grade_id], how)
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(submission, folder / CHAPTER)
        (folder / "timestamp.txt").write_text("2026-12-01 09:00:00.000000 UTC\n")

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
