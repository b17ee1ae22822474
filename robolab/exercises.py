"""``robolab.exercises``: the exercise checkers of the course notebooks.

The notebooks import them from here (``from robolab.exercises import Exercise, ...``); each
is defined in one module of ``robolab/lessons/exercises/`` (:mod:`robolab._api` says which)
and given here as the same object, so there is one "solutions shown" switch, kept in
:mod:`robolab.lessons.exercises.exercise`.

>>> from robolab.exercises import Exercise, check_numeric
>>> import robolab.lessons.exercises.exercise as module
>>> Exercise is module.Exercise
True
>>> check_numeric([1.0, 2.0], [1.0, 2.0]).correct
True
"""

from ._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
