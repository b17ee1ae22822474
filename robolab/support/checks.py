"""Input checks shared by every module: clear errors instead of silent NaN.

Every public function of robolab validates what the user typed before it
computes anything. The helpers here turn an argument into a float array of
the expected shape and raise :class:`ValueError` with a message that names
the argument, what was expected and what was given.

A shape is written as a tuple whose entries are an ``int`` (that exact size)
or ``None`` (any size). With ``batch=True`` any number of leading axes is
accepted in front of it, so ``(4, 4)`` with ``batch=True`` accepts a single
transform or a stack of shape ``(B, 4, 4)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Tolerance used to decide whether a matrix is a rotation or a transform.
ROTATION_TOLERANCE = 1e-6


def _format_shape(shape: Sequence[int | None], batch: bool) -> str:
    dims = ", ".join("n" if d is None else str(d) for d in shape)
    if batch:
        return f"(..., {dims})"
    return f"({dims},)" if len(shape) == 1 else f"({dims})"


def as_float_array(
    value: object,
    name: str,
    shape: Sequence[int | None] | None = None,
    *,
    batch: bool = False,
) -> np.ndarray:
    """Return ``value`` as a finite float array, or raise a helpful ``ValueError``.

    Parameters
    ----------
    value : array_like
        What the user passed.
    name : str
        The argument's name as the user knows it, used in messages.
    shape : tuple of (int or None), optional
        Expected shape; ``None`` entries accept any size.
    batch : bool
        Accept any number of leading (batch) axes in front of ``shape``.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> as_float_array([1, 2, 3], "omega", (3,))
    array([1., 2., 3.])
    >>> as_float_array([1, 2], "omega", (3,))
    Traceback (most recent call last):
    ...
    ValueError: omega must have shape (3,), got shape (2,)
    """
    if isinstance(value, str | bytes):
        raise ValueError(f"{name} must be numeric, got the text {value!r}")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"{name} must be numeric (a number or an array of numbers), got {_describe(value)}"
        ) from error
    if shape is not None:
        expected = tuple(shape)
        rank_ok = array.ndim >= len(expected) if batch else array.ndim == len(expected)
        trailing = array.shape[array.ndim - len(expected) :] if rank_ok else ()
        ok = rank_ok and all(
            want is None or got == want for got, want in zip(trailing, expected, strict=True)
        )
        if not ok:
            raise ValueError(
                f"{name} must have shape {_format_shape(expected, batch)}, got shape {array.shape}"
            )
    require_finite(array, name)
    return array


def require_finite(array: np.ndarray, name: str) -> None:
    """Raise ``ValueError`` if ``array`` holds NaN or infinity, naming the first bad entry.

    Examples
    --------
    >>> require_finite(np.array([0.0, np.nan]), "q")
    Traceback (most recent call last):
    ...
    ValueError: q contains a non-finite value (nan) at index (1,); expected finite numbers
    """
    finite = np.isfinite(array)
    if not finite.all():
        index = tuple(int(i) for i in np.argwhere(~finite)[0])
        raise ValueError(
            f"{name} contains a non-finite value ({array[index]}) at index {index}; "
            "expected finite numbers"
        )


def require_rotation(R: np.ndarray, name: str, tolerance: float = ROTATION_TOLERANCE) -> None:
    """Raise ``ValueError`` unless every 3×3 matrix in ``R`` is a proper rotation.

    Examples
    --------
    >>> require_rotation(np.diag([1.0, 1.0, -1.0]), "R")
    Traceback (most recent call last):
    ...
    ValueError: R must be a rotation matrix (orthonormal with det +1), but det(R) = -1
    """
    gram_error = np.abs(np.swapaxes(R, -1, -2) @ R - np.eye(3)).max(axis=(-2, -1))
    det = np.linalg.det(R)
    bad = (gram_error > tolerance) | (np.abs(det - 1.0) > tolerance)
    if np.any(bad):
        where = ""
        if R.ndim > 2:
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            where = f" at batch index {index}"
            gram_error, det = gram_error[index], det[index]
        if abs(float(det) + 1.0) < 1e-3 and gram_error < 1e-3:
            problem = f"det({name}) = -1"
        else:
            problem = f"max |{name}ᵀ{name} - I| = {float(gram_error):.3g}, det = {float(det):.6g}"
        raise ValueError(
            f"{name} must be a rotation matrix (orthonormal with det +1), but {problem}{where}"
        )


def require_transform(T: np.ndarray, name: str, tolerance: float = ROTATION_TOLERANCE) -> None:
    """Raise ``ValueError`` unless every 4×4 matrix in ``T`` is a rigid-body transform.

    Examples
    --------
    >>> T = np.eye(4); T[3, 2] = 0.5
    >>> require_transform(T, "T")
    Traceback (most recent call last):
    ...
    ValueError: T must be a homogeneous transform with bottom row [0, 0, 0, 1], got [0, 0, 0.5, 1]
    """
    bottom = T[..., 3, :]
    wrong = np.abs(bottom - np.array([0.0, 0.0, 0.0, 1.0])).max(axis=-1) > tolerance
    if np.any(wrong):
        row = bottom[tuple(np.argwhere(wrong)[0])] if T.ndim > 2 else bottom
        raise ValueError(
            f"{name} must be a homogeneous transform with bottom row [0, 0, 0, 1], "
            f"got [{', '.join(f'{float(x):g}' for x in row)}]"
        )
    require_rotation(T[..., :3, :3], f"the rotation part of {name}", tolerance)


def as_transform(value: object, name: str, *, batch: bool = False) -> np.ndarray:
    """Return ``value`` as a float array of 4×4 rigid-body transforms, or raise ``ValueError``.

    :func:`as_float_array` with shape (4, 4) (and ``batch``) followed by
    :func:`require_transform`.

    Examples
    --------
    >>> as_transform(np.eye(4), "T_sb").shape
    (4, 4)
    >>> as_transform(np.eye(3), "T_sb")
    Traceback (most recent call last):
    ...
    ValueError: T_sb must have shape (4, 4), got shape (3, 3)
    """
    T = as_float_array(value, name, (4, 4), batch=batch)
    require_transform(T, name)
    return T


def require_choice(value: object, name: str, choices: Sequence[object]) -> None:
    """Raise ``ValueError`` unless ``value`` is one of ``choices``.

    Examples
    --------
    >>> require_choice("dashed", "style", ("-", "--"))
    Traceback (most recent call last):
    ...
    ValueError: style must be one of ['-', '--'], got 'dashed'
    """
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


def _describe(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"
