"""``robolab.exercises``: the exercise checkers of the course notebooks.

The notebooks import them from here (``from robolab.exercises import Exercise, ...``); each
is defined in one module of :mod:`robolab.lessons.exercises` and re-exported here as the
same object (so there is one "solutions shown" switch, kept in
:mod:`robolab.lessons.exercises.exercise`). These are the public names of
``robolab.lessons.exercises``, as :mod:`robolab._api` lists them:

>>> import robolab.lessons.exercises
>>> sorted(__all__) == robolab.lessons.exercises.__all__
True
>>> all(globals()[name] is getattr(robolab.lessons.exercises, name) for name in __all__)
True
"""

from .lessons.exercises.check_result import CheckResult
from .lessons.exercises.exercise import (
    Exercise,
    Solution,
    seed_for,
    show_solutions,
    solutions_shown,
)
from .lessons.exercises.exercise_record import progress_summary, save_progress
from .lessons.exercises.function_answers import check_function
from .lessons.exercises.grading import check
from .lessons.exercises.numeric_answers import check_numeric
from .lessons.exercises.symbolic_answers import check_expression
from .lessons.exercises.worked_solutions import WorkedSolutionCheck

__all__ = [
    "CheckResult",
    "Exercise",
    "Solution",
    "WorkedSolutionCheck",
    "check",
    "check_expression",
    "check_function",
    "check_numeric",
    "progress_summary",
    "save_progress",
    "seed_for",
    "show_solutions",
    "solutions_shown",
]
