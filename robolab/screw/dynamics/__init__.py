"""Dynamics (Modern Robotics ch. 8): inverse dynamics by Newton-Euler (``rnea``, with the
recursion's intermediate values in ``rnea_steps``), the mass matrix (``mass_matrix``),
forward dynamics (``forward``) and the per-robot constants they share (``kernel``)."""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)
