"""The ruleset's checks read once over the six faces, and rolled dice counted through them.

A check of a pool is a function of one die's natural result (the exact engine reads it
over the six faces too), so the Monte Carlo applies it once to the faces 1-6 and then
looks every rolled die up in that table: one indexed read per die instead of the check's
several comparisons, with the same outcome for every die. Entry 0 of every table is a
die a trial does not have (:data:`NO_DIE`): it counts as nothing.

Counts per trial are row sums of small integers, taken as one matrix-vector product in
floating point: exact, as every partial sum is an integer the float type holds exactly
(below 2**24 in float32; wider rows use float64).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..rules.base import CRITICAL, FACES, SUCCESS

__all__ = [
    "NO_DIE",
    "count_pairs",
    "count_where",
    "face_counts",
    "faces_table",
    "is_prefix",
    "lookup",
    "most_dice",
    "pair_table",
    "prefix_mask",
    "row_sums",
    "sorted_dice",
]

#: The face of a die a trial does not have (see :func:`mathhammer.montecarlo.rolls.rolled`).
NO_DIE = 0


def faces_table(function: Callable[[Any], Any], dtype: Any = np.int64) -> np.ndarray:
    """``function`` applied to the faces 1-6, as a table indexed by the face (entry 0, no
    die, is 0).

    Examples
    --------
    >>> faces_table(lambda f: np.asarray(f) >= 5, bool).tolist()
    [False, False, False, False, False, True, True]
    """
    out = np.zeros(len(FACES) + 1, dtype=dtype)
    out[1:] = np.asarray(function(np.asarray(FACES)))
    return out


def lookup(table: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """``table[faces]``: each die's entry of a table of the faces (``np.take``).

    Faces are int8 (:func:`~mathhammer.montecarlo.rolls.d6`), and ``np.take`` widens every
    one to an index of 8 bytes before it reads the table. A table whose entries are
    whole numbers from 0 to 255 (booleans, categories, the packed counts of
    :func:`pair_table` for rows of fewer than 127 dice) is read instead by translating
    the faces' bytes (one pass over a byte per die), then cast to the table's type:
    about twice as quick, and the same values.

    Examples
    --------
    >>> faces = np.array([[1, 6, 0], [3, 3, 2]], dtype=np.int8)
    >>> lookup(np.array([0, 0, 0, 1, 1, 1, 128], dtype=np.float32), faces).tolist()
    [[0.0, 128.0, 0.0], [1.0, 1.0, 0.0]]
    >>> lookup(np.array([0.0, 0.5, 1, 1, 1, 1, 1]), faces).tolist()  # not bytes: np.take
    [[0.5, 1.0, 0.0], [1.0, 1.0, 1.0]]
    """
    if faces.dtype == np.int8 and len(table) <= 128:
        codes = table.astype(np.uint8)
        if np.array_equal(codes, table):
            translation = codes.tobytes().ljust(256, b"\0")
            out = np.frombuffer(faces.tobytes().translate(translation), dtype=np.uint8)
            return out.reshape(faces.shape).astype(table.dtype)
    return np.take(table, faces)


def is_prefix(table: np.ndarray) -> bool:
    """True when the faces a table marks are the lowest faces, 1 up to some face: then
    the marked dice of a trial come first once its dice are sorted.

    Examples
    --------
    >>> is_prefix(np.array([0, 1, 1, 0, 0, 0, 0])), is_prefix(np.array([0, 1, 0, 1, 0, 0, 0]))
    (True, False)
    """
    marked = np.asarray(table[1:], dtype=bool)
    return bool(np.all(marked[:-1] >= marked[1:]))


def row_sums(values: np.ndarray) -> np.ndarray:
    """The sum of each row of a float array of small integers, as int64.

    Examples
    --------
    >>> row_sums(np.array([[1, 0, 1], [0, 0, 0]], dtype=np.float32)).tolist()
    [2, 0]
    """
    ones = np.ones(values.shape[1], dtype=values.dtype)
    return (values @ ones).astype(np.int64)


def count_where(faces: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The dice of each trial whose table entry is true (``faces`` holds :data:`NO_DIE`
    where a trial has no die).

    Examples
    --------
    >>> faces = np.array([[1, 6, 6], [2, 0, 0]], dtype=np.int8)
    >>> count_where(faces, faces_table(lambda f: np.asarray(f) == 6, bool)).tolist()
    [2, 0]
    """
    return row_sums(lookup(np.asarray(table, dtype=np.float32), faces))


def _scale(width: int) -> tuple[int, type[np.floating[Any]]]:
    """The base packing two counts of at most ``width`` into one exact float sum (below
    127 dice, small enough that an entry ``1 + scale`` is one byte: :func:`lookup`)."""
    if width < 127:
        return 128, np.float32
    if width < 4095:  # 4096 * width + width < 2**24: exact in float32
        return 4096, np.float32
    return 2**21, np.float64  # MAX_TRIAL_DICE < 2**21; 2**42 is exact in float64


def pair_table(categories: np.ndarray, width: int) -> tuple[np.ndarray, int]:
    """A table of categories packed for :func:`count_pairs`, and its scale: 1 for a
    success, ``scale`` for a critical, 0 for a failure (and for no die).

    Examples
    --------
    >>> table, scale = pair_table(np.array([0, 0, 1, 1, 1, 1, 2]), width=10)
    >>> table.tolist(), scale
    ([0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 128.0], 128)
    >>> pair_table(np.array([0, 0, 1, 1, 1, 1, 2]), width=200)[1]
    4096
    """
    scale, dtype = _scale(width)
    out = (categories == SUCCESS) + scale * (categories == CRITICAL)
    out[0] = 0
    return out.astype(dtype), scale


def count_pairs(values: np.ndarray, scale: int) -> tuple[np.ndarray, np.ndarray]:
    """The successes and criticals of each trial, from its dice looked up in a
    :func:`pair_table`.

    Examples
    --------
    >>> table, scale = pair_table(np.array([0, 0, 1, 1, 1, 1, 2]), width=3)
    >>> faces = np.array([[1, 3, 6], [6, 0, 0]], dtype=np.int8)
    >>> [c.tolist() for c in count_pairs(np.take(table, faces), scale)]
    [[1, 0], [1, 1]]
    """
    sums = row_sums(values)
    return sums % scale, sums // scale


def most_dice(counts: np.ndarray) -> int:
    """The most dice any trial has: the width of the rectangle of their faces (0 for no
    trials).

    Examples
    --------
    >>> most_dice(np.array([0, 2, 3])), most_dice(np.array([], dtype=np.int64))
    (3, 0)
    """
    return int(counts.max()) if counts.size else 0


def prefix_mask(counts: np.ndarray, width: int) -> np.ndarray:
    """Row ``t``: ``counts[t]`` ones then zeros, ``width`` columns in all (int8).

    Examples
    --------
    >>> prefix_mask(np.array([0, 2, 3]), 3).tolist()
    [[0, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    if width <= _PREFIXES.shape[1]:  # copying rows of a table beats comparing
        return np.take(_PREFIXES[:, :width], counts, axis=0)
    return (np.arange(width, dtype=np.int32) < counts.astype(np.int32)[:, None]).view(np.int8)


#: Row c: c ones then zeros (:func:`prefix_mask` for up to 256 columns).
_PREFIXES = np.tri(257, 256, -1, dtype=np.int8)
_PREFIXES.setflags(write=False)


def face_counts(faces: np.ndarray) -> np.ndarray:
    """Each trial's dice showing 1 or less, 2 or less, ... 6 or less: ``(trials, 6)``.

    Examples
    --------
    >>> face_counts(np.array([[2, 2, 5], [6, 0, 0]], dtype=np.int8)).tolist()
    [[0, 2, 2, 2, 3, 3], [0, 0, 0, 0, 0, 1]]
    """
    scale, dtype = _scale(faces.shape[1])
    out = np.empty((len(faces), 6), dtype=np.int64)
    for low in (1, 3, 5):  # two counts packed per pass
        table = np.zeros(len(FACES) + 1, dtype=dtype)
        table[1 : low + 1] = 1 + scale
        table[low + 1] = scale
        out[:, low - 1], out[:, low] = count_pairs(lookup(table, faces), scale)
    return out


def sorted_dice(faces: np.ndarray) -> np.ndarray:
    """Each trial's dice in ascending order, then 7 where it has no more dice: what
    sorting the faces, with 7 for no die, gives, built from :func:`face_counts`.

    The die at position ``k`` is 7 less the number of faces ``f`` with more than ``k``
    dice showing ``f`` or less.

    Examples
    --------
    >>> sorted_dice(np.array([[5, 2, 2], [6, 0, 0]], dtype=np.int8)).tolist()
    [[2, 2, 5], [6, 7, 7]]
    """
    out = np.full(faces.shape, 7, dtype=np.int8)
    for at_most in face_counts(faces).T:
        out -= prefix_mask(at_most, faces.shape[1])
    return out
