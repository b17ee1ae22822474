"""Auto-checked exercises: the one place of the exercise checker.

* ``exercise``: :class:`Exercise` (a question with seeded numbers, a solution and staged
  feedback), :class:`Solution`, :func:`seed_for`, :func:`show_solutions`;
* ``grading``: :func:`check`, the one check of every kind of answer, and the slips an
  exercise's author declares;
* ``check_result``: :class:`CheckResult`, the verdict, and the text helpers of the checks;
* the checks by kind of answer: ``numeric_answers`` (:func:`check_numeric`),
  ``symbolic_answers`` (:func:`check_expression`), ``function_answers``
  (:func:`check_function`);
* ``worked_solutions``: :class:`WorkedSolutionCheck`, what a solution cell's check shows;
* ``exercise_record``: a student's record of passes (:func:`progress_summary`,
  :func:`save_progress`).

The notebooks import these names from :mod:`robolab.exercises`, which re-exports the same
objects (the names are those of :mod:`robolab._api` under ``lessons.exercises``).
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
