"""Arguments of the distribution methods, checked: numbers, counts and probabilities.

Each helper returns the value in the form the numerics need, or raises a
:class:`~mathhammer.errors.DistributionError` that names the argument and the value.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..errors import DistributionError, field_error
from .binomial import FloatArray

__all__ = ["as_count", "as_numbers", "as_probability", "float_or_array"]


def as_numbers(value: Any, field: str) -> FloatArray:
    """``value`` as an array of floats, refusing what is not a number (text, bools, NaN).

    Examples
    --------
    >>> as_numbers([1, 2.5], "k").tolist()
    [1.0, 2.5]
    >>> as_numbers("3", "k")
    Traceback (most recent call last):
    ...
    mathhammer.errors.DistributionError: k must be a number or an array of numbers; got '3'
    """
    arr = _real_objects(np.asarray(value))
    if arr.dtype.kind not in "iuf":
        raise field_error(DistributionError, field, "a number or an array of numbers", value)
    arr = arr.astype(np.float64, copy=False)
    if np.any(np.isnan(arr)):
        raise field_error(DistributionError, field, "a number, not NaN", value)
    return arr


def _real_objects(arr: np.ndarray) -> np.ndarray:
    """An array of Python objects that are all real numbers (Fractions, and Python ints too
    large for int64; not bools) as floats; any other array as it is."""
    if arr.dtype.kind == "O" and all(
        isinstance(x, numbers.Real) and not isinstance(x, bool) for x in arr.ravel()
    ):
        return arr.astype(np.float64)
    return arr


def float_or_array(out: FloatArray) -> float | FloatArray:
    """A Python float for a scalar argument, the float array otherwise (as scipy.stats).

    Examples
    --------
    >>> float_or_array(np.array(0.5)), float_or_array(np.array([0.5])).tolist()
    (0.5, [0.5])
    """
    return float(out) if out.ndim == 0 else out


def as_count(value: object, field: str) -> int:
    """``value`` as an int >= 0; a bool, a float or a negative number is refused.

    Examples
    --------
    >>> as_count(np.int64(3), "times")
    3
    >>> as_count(2.0, "times")
    Traceback (most recent call last):
    ...
    mathhammer.errors.DistributionError: times must be an integer >= 0; got 2.0
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise field_error(DistributionError, field, "an integer >= 0", value)
    if value < 0:
        raise field_error(DistributionError, field, "an integer >= 0", value)
    return int(value)


def as_probability(value: object, field: str) -> float:
    """``value`` as a float in [0, 1].

    Examples
    --------
    >>> as_probability("0.25", "p")
    0.25
    >>> as_probability(1.5, "p")
    Traceback (most recent call last):
    ...
    mathhammer.errors.DistributionError: p must be a probability in [0, 1]; got 1.5
    """
    try:
        p = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise field_error(DistributionError, field, "a probability in [0, 1]", value) from None
    if not 0.0 <= p <= 1.0:
        raise field_error(DistributionError, field, "a probability in [0, 1]", value)
    return p
