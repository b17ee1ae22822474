"""Dynamics (Modern Robotics ch. 8): inverse dynamics by Newton-Euler (``rnea``: the
recursion link by link, and its fast form), the mass matrix (``mass_matrix``), the links'
energies (``energy``), forward dynamics (``forward``) and what they all read, a robot's
constants and its kinematics at θ (``model``). Their fast engines are in
:mod:`robolab.screw._fast`."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
