"""Kinematics (Modern Robotics ch. 4-6): the chain prepared once (``chain``), forward
kinematics (``forward``), Jacobians (``jacobian``, ``analytic_jacobian``), manipulability
(``manipulability``), numerical and closed-form inverse kinematics (``inverse``,
``inverse_analytic``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
