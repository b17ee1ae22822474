"""Auto-checked exercises: the :class:`Exercise` (``exercise``), the one check of every kind
of answer (``grading``), its verdict (``check_result``), the checks by kind of answer
(``numeric_answers``, ``symbolic_answers``, ``function_answers``), worked solutions
(``worked_solutions``) and a student's record of passes (``exercise_record``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
