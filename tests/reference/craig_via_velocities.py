"""Craig's rule for the velocities at via points (Introduction to Robotics ch. 7), by hand.

At rest at the two ends; at an interior via point the mean of the slopes of the two
neighbouring segments when they have the same sign, zero when the motion turns back.
"""

from __future__ import annotations

import numpy as np


def craig_velocities(points: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Via velocities of ``points`` (k, n) reached at ``times`` (k,) by Craig's rule."""
    velocities = np.zeros_like(points)
    for j in range(1, len(points) - 1):
        before = (points[j] - points[j - 1]) / (times[j] - times[j - 1])
        after = (points[j + 1] - points[j]) / (times[j + 1] - times[j])
        velocities[j] = np.where(before * after > 0, (before + after) / 2, 0.0)
    return velocities
