"""Code that exists only for speed in the symbolic door, each piece called only by the
readable function it reproduces; :data:`REPRODUCES` names the pairs, and
``tests/dh/_fast/`` holds a test of each.
"""

from ..._api import exports

__all__, __getattr__, __dir__ = exports(__name__)

#: Engine (module.name, below ``robolab.dh._fast``) → the readable function it reproduces.
REPRODUCES: dict[str, str] = {
    "named_dynamics.named_dynamics": "dh.lagrangian.inertia_matrix",
}
