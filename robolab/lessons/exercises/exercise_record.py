"""Which exercises a student has passed: in this kernel, and across chapters if they save it.

Every :meth:`Exercise.check <robolab.lessons.exercises.exercise.Exercise.check>` that a student's
answer passes is noted in this kernel (:func:`record_check`; a worked solution's check is
not a pass). :func:`progress_summary` shows, chapter by chapter, which exercises are passed;
the course index shows it for all chapters.

A pass is saved as it happens, so that the course index (another kernel) shows it: each
pass in a chapter that Jupyter runs (it names the notebook: ``JPY_SESSION_NAME``) is added to a
small JSON file in the student's home, ``~/.robolab/progress.json`` (or the file named by the
environment variable ``ROBOLAB_PROGRESS_FILE``). Nothing is sent anywhere.
:func:`save_progress` writes this kernel's passes at once (also from a console or VS Code,
whose notebook has no name); ``save_progress(False)`` deletes the file and stops saving (a
marker beside it, ``progress.off``, keeps that choice until ``save_progress()``). The file is
written under a lock and replaced in one step (two kernels passing at once lose no pass, and a
reader never sees half a file); a home that cannot be written to, or a file that is too long,
not JSON or not a progress record, is named in one warning per kernel and left alone: a check
never fails because of the file. The file is read as JSON only (never evaluated), at most
:data:`MAX_PROGRESS_BYTES` long. Inside pytest and while nbgrader grades a submission,
nothing is written to the default file.
:func:`progress_summary` and :func:`save_progress` are also ``robolab.progress_summary`` and
``robolab.save_progress``, and in :mod:`robolab.exercises` (the same functions).

Examples
--------
>>> record_check("Reach of a 2R arm", True, chapter="04-forward-kinematics-and-workspace")
>>> passed_here()["04-forward-kinematics-and-workspace"]
['Reach of a 2R arm']
>>> forget_kernel_record()
"""

from __future__ import annotations

import ast
import contextlib
import html
import json
import os
import re
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...support.widgets import in_test_mode

__all__ = [
    "MAX_PROGRESS_BYTES",
    "ProgressFileError",
    "ProgressSummary",
    "forget_kernel_record",
    "passed_here",
    "progress_file",
    "progress_summary",
    "record_check",
    "save_progress",
]

#: The longest progress file read or written (a whole course is about 6 kB).
MAX_PROGRESS_BYTES = 64 * 1024
_FORMAT = "robolab-progress"
_VERSION = 1
_MAX_TEXT = 300  # characters of a chapter name or an exercise title
_UNKNOWN = "(this notebook)"

_passed: dict[str, set[str]] = {}  # this kernel's passes: chapter -> exercise titles
_warned = False


class ProgressFileError(ValueError):
    """A progress file that cannot be used (too long, not JSON, not a progress record)."""


def progress_file() -> Path:
    """Where progress is saved: ``ROBOLAB_PROGRESS_FILE``, or ``~/.robolab/progress.json``."""
    named = os.environ.get("ROBOLAB_PROGRESS_FILE", "").strip()
    return Path(named).expanduser() if named else Path.home() / ".robolab" / "progress.json"


def _opted_out(path: Path) -> Path:
    """The marker of ``save_progress(False)``: no automatic saving while it exists."""
    return path.with_suffix(".off")


def _shown(path: Path) -> str:
    """A path as a student reads it: ``~/.robolab/progress.json`` rather than the full home."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def _chapter_here() -> str:
    """The notebook this kernel runs (Jupyter Server tells a kernel: ``JPY_SESSION_NAME``)."""
    session = os.environ.get("JPY_SESSION_NAME", "").strip()
    return Path(session).stem if session else _UNKNOWN


def _read(path: Path) -> dict[str, set[str]]:
    """The record in a progress file; :class:`ProgressFileError` naming what is wrong."""
    size = path.stat().st_size
    if size > MAX_PROGRESS_BYTES:
        raise ProgressFileError(
            f"{path} is {size} bytes, more than a progress file's {MAX_PROGRESS_BYTES}"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProgressFileError(f"{path} is not JSON ({error})") from None
    passed = data.get("passed") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != _FORMAT
        or data.get("version") != _VERSION
        or not isinstance(passed, dict)
    ):
        raise ProgressFileError(
            f'{path} is not a robolab progress record ({{"format": "{_FORMAT}", '
            f'"version": {_VERSION}, "passed": {{chapter: [exercise titles]}}}})'
        )
    record: dict[str, set[str]] = {}
    for chapter, titles in passed.items():
        if not isinstance(titles, list) or not all(
            isinstance(t, str) and len(t) <= _MAX_TEXT for t in [chapter, *titles]
        ):
            raise ProgressFileError(
                f"{path}: the entry of {str(chapter)[:60]!r} is not a list of exercise titles"
            )
        record[chapter] = set(titles)
    return record


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold ``path``'s lock file while a kernel reads, merges and writes the record.

    Two kernels that pass at the same moment take turns, so neither loses the other's pass.
    Where there is no ``fcntl`` (Windows) the write is still atomic, only not taken in turns.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl  # lazy, POSIX only: Windows has no fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _write(path: Path, record: dict[str, set[str]]) -> None:
    """Replace the file by ``record`` in one step (a unique temporary file, then a rename)."""
    data = {
        "format": _FORMAT,
        "version": _VERSION,
        "passed": {chapter: sorted(titles) for chapter, titles in sorted(record.items())},
    }
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if len(text.encode()) > MAX_PROGRESS_BYTES:
        raise ProgressFileError(f"the progress record would be longer than {MAX_PROGRESS_BYTES}")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".partial")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(partial, path)  # never a half-written file, even with two kernels
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def _merged(*records: dict[str, set[str]]) -> dict[str, set[str]]:
    merged: dict[str, set[str]] = {}
    for record in records:
        for chapter, titles in record.items():
            merged.setdefault(chapter, set()).update(titles)
    return merged


def _saving_allowed() -> bool:
    """Not while nbgrader grades, not inside pytest unless a file is named explicitly."""
    if os.environ.get("NBGRADER_EXECUTION"):
        return False
    return not in_test_mode() or bool(os.environ.get("ROBOLAB_PROGRESS_FILE", "").strip())


def _saves_automatically(path: Path) -> bool:
    """A pass is saved when the student saves already, or runs a chapter Jupyter names.

    Not after ``save_progress(False)``; not from a script, nbclient or a console, whose
    notebook has no name (the index could not place the pass in a chapter).
    """
    if _opted_out(path).exists():
        return False
    return path.is_file() or bool(os.environ.get("JPY_SESSION_NAME", "").strip())


def record_check(title: str, correct: bool, *, chapter: str | None = None) -> None:
    """Note a student's check of an exercise: a pass is kept in this kernel and saved.

    Called by :meth:`Exercise.check`; never raises because of the progress file (a file it
    cannot use, or a home it cannot write to, is named in one warning and left alone).
    """
    global _warned
    if not correct or not isinstance(title, str):
        return
    chapter = chapter or _chapter_here()
    titles = _passed.setdefault(chapter, set())
    if title in titles:
        return
    titles.add(title)
    if not _saving_allowed():
        return
    path = progress_file()
    try:
        if not _saves_automatically(path):
            return
        with _locked(path):
            saved = _read(path) if path.is_file() else {}
            _write(path, _merged(saved, _passed))  # this kernel's passes, not only this one
    except (OSError, ProgressFileError) as error:
        if not _warned:
            _warned = True
            warnings.warn(
                f"progress not saved ({error}); your answer was checked all the same. Fix or "
                "delete the file, or stop saving with robolab.save_progress(False).",
                stacklevel=3,
            )


def passed_here() -> dict[str, list[str]]:
    """This kernel's passes: chapter (notebook name) -> the exercise titles, sorted."""
    return {chapter: sorted(titles) for chapter, titles in sorted(_passed.items()) if titles}


def forget_kernel_record() -> None:
    """Forget this kernel's passes (the saved file is not touched)."""
    _passed.clear()


def save_progress(on: bool = True) -> str:
    """Save progress across chapters in :func:`progress_file` now (or stop saving it).

    A pass in a chapter is saved as it happens; ``on=True`` also writes this kernel's passes,
    merged with a saved record, at once (from a console or an unnamed notebook too), and
    undoes ``save_progress(False)``. An unusable file is replaced, and the message says so.
    ``on=False`` deletes the file and stops saving until ``save_progress()``.

    Returns
    -------
    str
        What was done, with the file's path.
    """
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, got {on!r}")
    path = progress_file()
    marker = _opted_out(path)
    if not on:
        path.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(
            "robolab.save_progress(False) was run: passes are not saved (save_progress() "
            "saves them again).\n",
            encoding="utf-8",
        )
        if path.is_file():
            path.unlink()
            return f"Progress is no longer saved: {_shown(path)} deleted."
        return f"Progress is not saved ({_shown(path)} does not exist)."
    marker.unlink(missing_ok=True)
    note = ""
    with _locked(path):
        saved: dict[str, set[str]] = {}
        if path.is_file():
            try:
                saved = _read(path)
            except ProgressFileError as error:
                note = f" The old file could not be used ({error}) and was replaced."
        _write(path, _merged(saved, _passed))
    return f"Progress is saved in {_shown(path)} (on this computer only; nothing is sent).{note}"


# --- the summary ----------------------------------------------------------------------------

_CHAPTER_FILE = re.compile(r"^\d\d-[a-z0-9-]+\.ipynb$")


def _chapter_titles(notebook: Path) -> list[str]:
    """The titles of the exercises a chapter defines: ``Exercise("title", ...)`` calls."""
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    titles = []
    for cell in cells:
        source = "".join(cell.get("source", ""))
        if cell.get("cell_type") != "code" or "Exercise(" not in source:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Exercise"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                titles.append(node.args[0].value)
    return titles


def _link(chapter: str) -> str:
    name = html.escape(chapter)
    return f"<a href='{name}.ipynb'>{name}</a>" if _CHAPTER_FILE.match(chapter + ".ipynb") else name


@dataclass(frozen=True, repr=False)
class ProgressSummary:
    """Chapter by chapter: the exercises passed (this kernel and the saved file) of how many."""

    rows: tuple[tuple[str, tuple[str, ...], int], ...]  # chapter, passed titles, total
    saved: str  # a sentence on the saved file

    def __str__(self) -> str:
        lines = [f"{c}: {len(p)} of {n or '?'} passed" for c, p, n in self.rows]
        return "\n".join([*lines, self.saved])

    __repr__ = __str__  # the plain-text view of a notebook output

    def _repr_html_(self) -> str:
        body = "".join(
            f"<tr><td>{_link(chapter)}</td>"
            f"<td style='text-align:right'>{len(passed)} of "
            f"{total or '?'}</td><td>{html.escape(', '.join(passed))}</td></tr>"
            for chapter, passed, total in self.rows
        )
        return (
            "<table><thead><tr><th>chapter</th><th>passed</th><th>exercises passed</th>"
            f"</tr></thead><tbody>{body}</tbody></table><p>{html.escape(self.saved)}</p>"
        )


def progress_summary(notebooks: str | Path | None = None) -> ProgressSummary:
    """Which exercises are passed, per chapter: this kernel's passes and the saved ones.

    Parameters
    ----------
    notebooks : str or Path, optional
        The folder of the chapter notebooks, to list every chapter and count its exercises;
        by default the current folder if it holds chapters (the index's), else none. A
        chapter's saved titles that it no longer has (a renamed exercise) are not shown.

    Returns
    -------
    ProgressSummary
        Displays as a table in a notebook, as lines of text elsewhere.
    """
    folder = Path.cwd() if notebooks is None else Path(notebooks)
    chapters = sorted(p for p in folder.glob("[0-9][0-9]-*.ipynb") if _CHAPTER_FILE.match(p.name))
    path = progress_file()
    saved: dict[str, set[str]] = {}
    if path.is_file():
        try:
            saved = _read(path)
            note = f"Saved progress: {_shown(path)} (on this computer only)."
        except (OSError, ProgressFileError) as error:
            note = (
                f"The saved progress could not be read: {error}. "
                "robolab.save_progress() replaces it."
            )
    elif _opted_out(path).exists():
        note = (
            "Progress is not saved (robolab.save_progress(False) was run): this shows this "
            "kernel's passes only; robolab.save_progress() saves them again."
        )
    else:
        note = (
            "No saved progress yet: a chapter saves each exercise you pass in "
            f"{_shown(path)} (on this computer only; nothing is sent)."
        )
    record = _merged(saved, _passed)
    rows = []
    for chapter in chapters:
        titles = _chapter_titles(chapter)
        passed = record.pop(chapter.stem, set())
        # a title the chapter no longer has (a renamed exercise) is not shown
        ordered = [t for t in titles if t in passed] if titles else sorted(passed)
        rows.append((chapter.stem, tuple(ordered), len(titles)))
    rows += [(chapter, tuple(sorted(passed)), 0) for chapter, passed in sorted(record.items())]
    return ProgressSummary(tuple(rows), note)
