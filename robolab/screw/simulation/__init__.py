"""Simulation (Modern Robotics §8.5, the course's chapter 10): the integrators by name
(``integrators``), inverse and forward dynamics along a trajectory (``dynamics_trajectory``)
and an arm left to itself (``free_motion``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
