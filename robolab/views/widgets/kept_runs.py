"""A simulation's runs kept by their arguments: a setting seen before is shown at once.

The chapter widgets that simulate (:class:`robolab.DropTheArm`, :class:`robolab.JointTuner`,
:class:`robolab.ControllerComparison`) call the notebook's ``simulate`` once per setting
of their controls and keep what it returned in a :class:`KeptRuns`: going back to a
setting costs nothing. A :class:`ValueError` that ``simulate`` raises (a diverged
simulation, unstable gains) is kept as its message, which the widget shows in its
read-out instead of a run.

Examples
--------
>>> def simulate(gain, load):
...     if gain <= 0:
...         raise ValueError(f"gain must be positive, got {gain}")
...     return load / gain
>>> kept = KeptRuns(simulate)
>>> kept.run(2.0, 1.0), kept.run(2.0, 1.0), kept.calls  # the second is kept
((0.5, None), (0.5, None), 1)
>>> kept.run(0.0, 1.0)
(None, 'gain must be positive, got 0.0')
>>> kept.clear(); kept.run(2.0, 1.0), kept.calls  # forgotten: run again
((0.5, None), 3)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["KeptRuns"]


class KeptRuns(dict[tuple[Any, ...], tuple[Any, str | None]]):
    """What ``simulate`` gave for each tuple of arguments, each run once (see the module).

    A dict from the arguments to ``(result, None)``, or ``(None, message)`` when
    ``simulate`` raised a :class:`ValueError`; ``clear()`` forgets every run.

    Parameters
    ----------
    simulate : callable
        Called as ``simulate(*arguments)``.
    check : callable, optional
        Called with each new result before it is kept; what it raises is not kept (a
        result the widget cannot show is the notebook's mistake, not a failed run).

    Attributes
    ----------
    calls : int
        How many times ``simulate`` ran.
    """

    def __init__(
        self,
        simulate: Callable[..., Any],
        check: Callable[[Any], None] | None = None,
    ) -> None:
        super().__init__()
        if not callable(simulate):
            raise TypeError(f"simulate must be a function, got {type(simulate).__name__}")
        self.simulate = simulate
        self.check = check
        self.calls = 0

    def run(self, *arguments: Any) -> tuple[Any, str | None]:
        """``(result, None)`` or ``(None, message)`` of ``simulate(*arguments)``, run once."""
        if arguments not in self:
            self.calls += 1
            try:
                result = self.simulate(*arguments)
            except ValueError as error:  # SimulationDiverged is a ValueError
                self[arguments] = (None, str(error))
            else:
                if self.check is not None:
                    self.check(result)
                self[arguments] = (result, None)
        return self[arguments]
