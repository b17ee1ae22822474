"""Simulation (Modern Robotics §8.5, the course's chapter 10): the integrators by name and
the book's Euler and RK4 steps (``integrators``), inverse and forward dynamics along a
trajectory (``dynamics_trajectory``), an arm left to itself (``free_motion``) and what a
simulation that diverged says (``divergence``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
