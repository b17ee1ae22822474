"""The symbolic front door: a :class:`DHRobot` built from a DH table of SymPy expressions,
its kinematics (``kinematics``) and Lagrangian dynamics (``lagrangian``), the factors of its
Jacobian's determinant (``singularities``), compiled numeric functions (``numeric``),
step-by-step derivations (``derivation``, ``worked_derivations``), long equations over lines
(``gathered_equation``), standard ↔ modified DH (``standard_modified``), the screw form
(``to_screw``) and the standard symbols (``symbols``).

Imports robolab.support, robolab.spatial and (to build screw models) robolab.screw.
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
