"""Plausibility of a robot file's inertial data: every link's mass and principal moments.

:func:`check_plausibility` names each finding; a file accepts a finding only with a
recorded reason (:class:`robolab.spatial.inertia.PlausibilityException`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..spatial.inertia import link_inertia_problem

__all__ = ["PlausibilityFinding", "check_plausibility"]


@dataclass(frozen=True)
class PlausibilityFinding:
    """A failed plausibility check; ``accepted`` is the recorded reason, or None."""

    link: int
    check: str
    detail: str
    accepted: str | None

    def __str__(self) -> str:
        verdict = f"accepted: {self.accepted}" if self.accepted else "NOT ACCEPTED"
        return f"link {self.link}, {self.check}: {self.detail} ({verdict})"


def check_plausibility(model: Any) -> list[PlausibilityFinding]:
    """Run the per-link plausibility checks and return every failure.

    Checks (links numbered 1..n):

    * ``mass``: ``m_i > 0``;
    * ``inertia_triangle``: the principal moments of ``I_c`` satisfy the
      triangle inequality ``I_a ≤ I_b + I_c`` for every permutation (true for
      every real body; equality for a thin rod or plate), decided by
      :func:`robolab.spatial.inertia.link_inertia_problem` as in every other check.

    A failure that the model accepts in ``plausibility_exceptions`` carries its
    reason in ``accepted``. (Negative masses and indefinite inertias never get
    here: reading the file refuses them, and so does every robot.) A
    :class:`robolab.ScrewRobot` or :class:`robolab.DHRobot` refuses an
    inertia that breaks the triangle inequality unless it is accepted this
    way, so a robot's report lists only accepted failures (and zero masses).

    Parameters
    ----------
    model : RobotModelData, ScrewRobot or DHRobot
        A DH robot needs numeric masses and inertia tensors.

    Examples
    --------
    >>> from robolab import load_robot, read_robot_model
    >>> for finding in check_plausibility(read_robot_model("puma560")):
    ...     print(finding.link, finding.check, finding.accepted is not None)
    1 mass True
    1 inertia_triangle True
    3 inertia_triangle True
    >>> print(check_plausibility(load_robot("stanford"))[0])  # doctest: +ELLIPSIS
    link 5, inertia_triangle: principal moments 0, 0.0004, 0.003 kg·m²: ... (accepted: Published...
    """
    if hasattr(model, "spatial_inertias"):
        inertias = np.asarray(model.spatial_inertias, dtype=float)
        masses, tensors = inertias[:, 3, 3], inertias[:, :3, :3]
    elif hasattr(model, "inertia_tensors") and hasattr(model, "masses"):
        try:
            masses = np.array([float(m) for m in model.masses])
            tensors = np.array([np.array(t.tolist(), dtype=float) for t in model.inertia_tensors])
        except TypeError:
            raise ValueError(
                "check_plausibility needs numeric masses and inertia tensors; "
                "this DH robot's are symbolic"
            ) from None
    else:
        raise TypeError(
            f"model must be a RobotModelData, a ScrewRobot or a DHRobot, got {type(model).__name__}"
        )
    exceptions = getattr(model, "plausibility_exceptions", ())
    accepted = {(e.link, e.check): e.reason for e in exceptions}
    findings = []
    for i, (mass, tensor) in enumerate(zip(masses, tensors, strict=True)):
        link = i + 1
        if not mass > 0:
            findings.append(
                PlausibilityFinding(link, "mass", f"m = {mass:g} kg", accepted.get((link, "mass")))
            )
        problem = link_inertia_problem(None, tensor)
        if problem is not None and problem.check == "inertia_triangle":
            findings.append(
                PlausibilityFinding(
                    link,
                    "inertia_triangle",
                    problem.found,
                    accepted.get((link, "inertia_triangle")),
                )
            )
    return findings
