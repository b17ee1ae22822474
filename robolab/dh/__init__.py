"""The symbolic front door: a :class:`DHRobot` (``robot``) built from a DH table of SymPy
expressions (``table``, ``parameters``), holding one immutable description (``model``);
its kinematics (``kinematics``) and Lagrangian dynamics (``lagrangian``; for long arms the
named pieces of ``_fast/named_dynamics``), the factors of its Jacobian's determinant
(``singularities``), compiled numeric functions (``numeric``), step-by-step derivations
(``derivation``: ``Derivation`` and ``Step``; ``worked_derivations``: the two derivations),
long equations over lines (``gathered_equation``), standard ↔ modified DH
(``standard_modified``), the screw form (``to_screw``), the trigonometric simplifier
(``simplify``) and the standard symbols (``symbols``).

Imports robolab.support, robolab.spatial and (to build screw models) robolab.screw.
"""

from .._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
