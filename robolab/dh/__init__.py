"""The symbolic front door: a :class:`DHRobot` built from a DH table of SymPy expressions,
its Lagrangian dynamics, the factors of its Jacobian's determinant, compiled numeric
functions, step-by-step derivations, the conversion between conventions and to a screw
model, and the standard symbols.

Imports robolab.support, robolab.spatial and (to build screw models) robolab.screw.
"""

from .derivation import Derivation, Step, to_latex, to_text
from .robot import DHRobot
from .singularities import SingularityFactors, singularity_factors

__all__ = [
    "DHRobot",
    "Derivation",
    "SingularityFactors",
    "Step",
    "singularity_factors",
    "to_latex",
    "to_text",
]
