"""The powers of a small dense transition, ``state @ T**j`` for ``j = 0..steps``: two
paths that compute the same rows, stepwise (a product per row) or by doubling (a few
squarings), chosen in :func:`dense_powers` by the entries each moves; and the power of one
die's transition, for a number of dice (:func:`one_die_power`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.binomial import FloatArray
from ..core.tuning import CALL_ENTRIES

__all__ = [
    "POWERS",
    "dense_powers",
    "doubling_cost",
    "doubling_plan",
    "doubling_powers",
    "one_die_power",
    "stepwise_powers",
]


def dense_powers(
    state: FloatArray, t: FloatArray, steps: int, method: str | None = None
) -> FloatArray:
    """``state @ T**j`` for ``j = 0..steps``, as rows, for a small dense ``T``: by doubling
    (:func:`doubling_powers`) or a product per row (:func:`stepwise_powers`), whichever
    moves fewer entries, each array operation counted as :data:`CALL_ENTRIES` more: a
    squaring moves ``n**3`` of them, a row's product ``n**2`` (``n`` states). ``method``
    (``"stepwise"`` or ``"doubling"``, :data:`POWERS`) forces one, to test them alike.

    Examples
    --------
    >>> t = np.array([[0.5, 0.5], [0.0, 1.0]])
    >>> dense_powers(np.array([1.0, 0.0]), t, 3).tolist()
    [[1.0, 0.0], [0.5, 0.5], [0.25, 0.75], [0.125, 0.875]]
    """
    if method is None:
        n = state.size
        cheaper = steps * (CALL_ENTRIES + n * n) < doubling_cost(n, steps)
        method = "stepwise" if cheaper else "doubling"
    return POWERS[method](state, t, steps)


def doubling_cost(n: int, steps: int) -> int:
    """The entries :func:`doubling_powers` moves for ``steps`` rows of ``n`` states, each
    array operation counted as :data:`CALL_ENTRIES` more (a squaring ``n**3``)."""
    squarings, products = doubling_plan(steps)
    return squarings * (CALL_ENTRIES + n * n * n) + products * CALL_ENTRIES + steps * n * n


def doubling_plan(steps: int) -> tuple[int, int]:
    """The squarings and the row products :func:`doubling_powers` makes for ``steps``:
    the rows double while they can (``T**2``, ``T**4``, ... up to the largest power of two
    within half the rows), then the rest take one product per bit of their count.

    Examples
    --------
    >>> doubling_plan(12)  # T**2 and T**4; rows 1, 2-3, 4-7, 8-11, 12
    (2, 5)
    """
    if steps == 0:
        return 0, 0
    squarings = (steps + 1).bit_length() - 2
    rest = steps + 1 - (2 << squarings)  # the rows after the doubling ones
    return squarings, squarings + 1 + rest.bit_count()


def stepwise_powers(state: FloatArray, t: FloatArray, steps: int) -> FloatArray:
    """``state @ T**j`` for ``j = 0..steps``, as rows, each row the one before times ``T``."""
    rows = np.empty((steps + 1, state.size))
    rows[0] = state
    views = list(rows)  # the rows as views: no slicing per product
    before = views[0]
    for row in views[1:]:
        before = before.dot(t, row)
    return rows


def doubling_powers(state: FloatArray, t: FloatArray, steps: int) -> FloatArray:
    """``state @ T**j`` for ``j = 0..steps``, as rows, by doubling: with ``k`` rows done,
    the rows ``k - m..k - 1`` times ``T**m`` are the next ``m``, ``m`` the largest power
    of two within both ``k`` and the rows still wanted (``T**m`` squared from the last
    one only while the rows double: the tail takes the smaller powers already made)."""
    rows = np.empty((steps + 1, state.size))
    rows[0] = state
    powers = [t]  # powers[i] = T**(2**i)
    done = 1
    while done <= steps:
        wanted = steps + 1 - done
        m = 1 << ((done if done < wanted else wanted).bit_length() - 1)
        i = m.bit_length() - 1
        if i == len(powers):
            powers.append(powers[-1].dot(powers[-1]))
        rows[done - m : done].dot(powers[i], rows[done : done + m])
        done += m
    return rows


def one_die_power(state: FloatArray, t: FloatArray, dice: int, fail: float) -> FloatArray:
    """``state @ M**dice`` for ``M = (1 - fail) I + fail T`` (a dense ``T``): one product
    of the state per bit of ``dice``, ``M`` squared between them.

    Examples
    --------
    >>> t = np.array([[0.0, 1.0], [0.0, 1.0]])  # a failed save destroys the model
    >>> one_die_power(np.array([1.0, 0.0]), t, 2, 0.5).tolist()  # it stands: 1/4
    [0.25, 0.75]
    """
    n = len(state)
    power = t * fail
    power.ravel()[:: n + 1] += 1.0 - fail  # the diagonal, through a view (.flat copies it)
    v = state
    while True:
        if dice & 1:
            v = v.dot(power)
        dice >>= 1
        if not dice:
            return np.asarray(v, dtype=np.float64)
        power = power.dot(power)


#: The paths of :func:`dense_powers`, by name.
POWERS: dict[str, Callable[[FloatArray, FloatArray, int], FloatArray]] = {
    "stepwise": stepwise_powers,
    "doubling": doubling_powers,
}
