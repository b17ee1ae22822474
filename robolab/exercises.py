"""``robolab.exercises``: the exercise checkers of the course notebooks.

The notebooks import them from here (``from robolab.exercises import Exercise, ...``); they
are defined in :mod:`robolab.lessons.exercises.exercise` and re-exported as the same objects, so
there is one "solutions shown" switch, kept in that module.
"""

from .lessons.exercises.exercise import *  # noqa: F403
from .lessons.exercises.exercise import __all__  # noqa: F401
