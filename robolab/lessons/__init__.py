"""Teaching objects for the notebooks: step-by-step reveals (``step_reveal``), exercises and
their checks (``exercises/``, also importable as :mod:`robolab.exercises`), chapters as
nbgrader assignments (``assignments``) and model comparisons (``model_comparison``).

Top layer below the face: may import support, spatial, screw, dh and models (not views,
which shares its layer).
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
