"""Old names that keep working: a keyword renamed in a signature, said once per call.

robolab settled on one word per idea (``docs/conventions.md``: ``Kp`` not ``kp``,
``duration`` not ``total_time``, ...). Code written with an old keyword still runs: the
decorator :func:`renamed_keywords` passes the value on under the new name and warns with a
:class:`DeprecationWarning` that says what replaced it. Renamed functions and classes are
listed in :data:`robolab._api.RENAMED`, which the face reads the same way.

Examples
--------
>>> import warnings
>>> @renamed_keywords(kp="Kp")
... def gain(Kp):
...     return Kp
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     gain(kp=3.0)
3.0
>>> print(caught[0].message)
gain(kp=...) is now gain(Kp=...); kp still works for now
>>> gain(kp=1.0, Kp=2.0)
Traceback (most recent call last):
...
TypeError: gain() got both kp and Kp (kp is the old name of Kp): give Kp only
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["renamed_keywords"]

_F = TypeVar("_F", bound=Callable[..., Any])


def renamed_keywords(**renames: str) -> Callable[[_F], _F]:
    """Decorator: accept each old keyword ``old`` of ``renames`` as its new name ``renames[old]``.

    A call with an old keyword warns (``DeprecationWarning``, pointing at the caller's
    line) and goes on with the value under the new name; a call with both names is a
    ``TypeError``. The function's signature and docstring show the new names only.
    """

    def decorate(function: _F) -> _F:
        name = function.__qualname__.split(".<locals>.")[-1].removesuffix(".__init__")

        @functools.wraps(function)
        def renamed(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(
                            f"{name}() got both {old} and {new} ({old} is the old name of "
                            f"{new}): give {new} only"
                        )
                    warnings.warn(
                        f"{name}({old}=...) is now {name}({new}=...); {old} still works for now",
                        DeprecationWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        renamed.renamed_keywords = dict(renames)  # type: ignore[attr-defined]
        return renamed  # type: ignore[return-value]

    return decorate
