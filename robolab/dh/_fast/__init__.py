"""Code that exists only for speed in the symbolic door, each piece called only by the
readable function it reproduces; :data:`REPRODUCES` names the pairs, and
``tests/dh/_fast/`` holds a test of each.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.dh._fast``) → the readable function it reproduces.
#: ``named_dynamics.program_of`` (M, ∂M/∂q and G of a long arm as one program of named
#: pieces) is called only by ``lagrangian.DerivedDynamics.program``: for M, ∂M/∂q, C and G
#: when ``DerivedDynamics.shared``, the first line of each readable step, says so, and for
#: ``DHRobot.numeric()`` to compile.
REPRODUCES: dict[str, str] = {
    "named_dynamics.program_of": "dh.lagrangian.mass_matrix",
}
