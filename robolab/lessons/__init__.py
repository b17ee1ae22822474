"""Teaching objects for the notebooks: step-by-step reveals, exercise checkers
(also importable as :mod:`robolab.exercises`), a student's progress and model comparisons.

Top layer below the face: may import support, spatial, screw, dh and models (not views,
which shares its layer).
"""

from .exercises.exercise_record import progress_summary, save_progress
from .model_comparison import ComparedQuantity, ModelComparison, compare_models
from .reveal import Reveal, reveal

__all__ = [
    "ComparedQuantity",
    "ModelComparison",
    "Reveal",
    "compare_models",
    "progress_summary",
    "reveal",
    "save_progress",
]
