"""Closed-form dynamics of robolab's bundled planar 2R (Spong, Hutchinson & Vidyasagar §7.4.2).

Two uniform links of 1 kg and 1 m (centres at 0.5 m, I = m l²/12 about them) in a vertical
plane, g = 9.81, and optionally a point payload at the tip; written out from the book's
formulas, independent of robolab.
"""

from __future__ import annotations

import numpy as np

G = 9.81


def link_two(payload: float) -> tuple[float, float, float]:
    """Mass, centre distance and inertia about the centre of link 2 carrying the payload."""
    m2 = 1.0 + payload
    lc2 = (0.5 + payload) / m2
    I2 = 1.0 / 12 + 1.0 * (lc2 - 0.5) ** 2 + payload * (1.0 - lc2) ** 2
    return m2, lc2, I2


def mass_matrix(q: np.ndarray, payload: float = 0.0) -> np.ndarray:
    m2, lc2, I2 = link_two(payload)
    c2 = np.cos(q[1])
    d11 = 0.25 + 1.0 / 12 + m2 * (1 + lc2**2 + 2 * lc2 * c2) + I2
    d12 = m2 * (lc2**2 + lc2 * c2) + I2
    d22 = m2 * lc2**2 + I2
    return np.array([[d11, d12], [d12, d22]])


def coriolis(q: np.ndarray, qd: np.ndarray, payload: float = 0.0) -> np.ndarray:
    """c(θ, θ̇) with h = −m₂ l₁ l_c2 sin θ₂ (SHV §7.4.2)."""
    m2, lc2, _ = link_two(payload)
    h = -m2 * lc2 * np.sin(q[1])
    return np.array([h * qd[1] ** 2 + 2 * h * qd[0] * qd[1], -h * qd[0] ** 2])


def gravity(q: np.ndarray, payload: float = 0.0) -> np.ndarray:
    c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
    return G * np.array([(1.5 + payload) * c1 + (0.5 + payload) * c12, (0.5 + payload) * c12])
