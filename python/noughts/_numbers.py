"""Whole numbers given by callers, checked once for every entry point.

An int is accepted wherever an int is asked for, and so is any other integer
type (numpy's ``np.int64``, anything with ``__index__``), but not a bool, a
float or a string. Out-of-range values raise InvalidOptionError, never the
TypeError or OverflowError the C++ side would give.
"""

from __future__ import annotations

import operator
from typing import Any

from noughts.errors import InvalidOptionError

__all__ = ["as_int", "whole_number"]


def as_int(value: Any) -> int | None:
    """``value`` as a Python int if it is an integer (not a bool), else None."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def whole_number(name: str, value: Any, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an int, checked to lie in minimum..maximum (either bound may be None)."""
    number = as_int(value)
    if number is None:
        raise InvalidOptionError(f"{name} must be a whole number, not {value!r}")
    if minimum is not None and number < minimum:
        raise InvalidOptionError(f"{name} must be >= {minimum}, not {number}")
    if maximum is not None and number > maximum:
        raise InvalidOptionError(f"{name} must be <= {maximum}, not {number}")
    return number
