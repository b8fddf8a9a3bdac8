"""A command re-roll: one die of a pool's hit or wound roll rolled again (docs/rules.md D30).

One die's outcome is a kernel ``k[x, y]`` (:mod:`~mathhammer.exact.kernels`). Of it, a die
whose first roll stands and failed has mass ``f`` at ``(0, 0)``, one whose first roll
stands and succeeded (not critically) mass ``s`` at ``(1, 0)``; a die rolled again has
kernel ``r``. Of ``n`` dice, those with no such failure sum to ``(k - f)**n`` (powers by
convolution, on kernels that no longer sum to one), so with ``P = k**n`` the dice of the
:class:`~mathhammer.rules.base.CommandReroll` policy are::

    (k - f)**n + (P - (k - f)**n) * r                          a failed die re-rolled
    (k - f - s)**n + (P - (k - f)**n) * r
        + ((k - f)**n - (k - f - s)**n) / z * r                or else a success too

where ``/ z`` moves every outcome of the last part down by the success taken away (each
holds at least one), and ``* r`` adds the re-rolled die. Exact: the remaining dice are the
rest of the ``n``, whatever their order.
"""

from __future__ import annotations

import numpy as np

from ..core.binomial import FloatArray
from ..core.convolution import convolve2d
from ..rules.base import FAIL, SUCCESS, CommandReroll, Outcome, RollCheck
from .kernels import kernel

__all__ = ["CommandPieces", "command_rows", "command_series", "thin_with_command"]


class CommandPieces:
    """One die of a step under a command re-roll: its kernel ``k``, the kernels without
    the dice that may be re-rolled, and the kernel ``r`` of a die rolled again."""

    def __init__(
        self,
        check: RollCheck,
        mapping: dict[Outcome, FloatArray | tuple[int, int]],
        command: CommandReroll,
    ) -> None:
        self.k = kernel(check.probabilities(), mapping)
        kept = check.kept()
        self.no_fail = self.k.copy()
        self.no_fail[0, 0] -= kept[FAIL]
        self.fish = command.fish and self.k.shape[0] > 1
        self.neither = self.no_fail.copy()
        if self.fish:
            self.neither[1, 0] -= kept[SUCCESS]
        self.r = kernel(check.rerolled(), mapping)


def command_rows(n: int, pieces: CommandPieces) -> list[FloatArray]:
    """``rows[j]``: the outcome of ``j`` dice with the command re-roll, ``j = 0..n``."""
    rows = []
    power = all_fail = all_neither = np.ones((1, 1))
    for j in range(n + 1):
        if j:
            power = convolve2d(power, pieces.k)
            all_fail = convolve2d(all_fail, pieces.no_fail)
            if pieces.fish:
                all_neither = convolve2d(all_neither, pieces.neither)
        rows.append(_one(power, all_fail, all_neither, pieces))
    return rows


def _one(
    power: FloatArray, no_fail: FloatArray, neither: FloatArray, pieces: CommandPieces
) -> FloatArray:
    shape = (power.shape[0] + pieces.r.shape[0] - 1, power.shape[1] + pieces.r.shape[1] - 1)
    out = np.zeros(shape)
    kept = neither if pieces.fish else no_fail
    out[: kept.shape[0], : kept.shape[1]] += kept
    failed = power.copy()
    failed[: no_fail.shape[0], : no_fail.shape[1]] -= no_fail
    if pieces.fish:
        succeeded = no_fail.copy()
        succeeded[: neither.shape[0], : neither.shape[1]] -= neither
        failed[: succeeded.shape[0] - 1] += succeeded[1:]  # one success taken away
    moved = convolve2d(failed, pieces.r)
    out[: moved.shape[0], : moved.shape[1]] += moved
    return np.maximum(out, 0.0)  # rounding of the differences


def command_series(count: FloatArray, pieces: CommandPieces) -> FloatArray:
    """``sum_n count[n] rows[n]``: the pool's outcome over ``N ~ count`` dice."""
    rows = command_rows(len(count) - 1, pieces)
    out = np.zeros(rows[-1].shape)
    for n, weight in enumerate(count):
        if weight:
            out[: rows[n].shape[0], : rows[n].shape[1]] += weight * rows[n]
    return out


def thin_with_command(hits: FloatArray, pieces: CommandPieces) -> FloatArray:
    """``to_save[k, m]`` from the pool's ``hits[x, y]``: the ``x`` hits roll to wound with
    the command re-roll, the ``y`` automatic wounds join ``k``."""
    xmax, ymax = hits.shape[0] - 1, hits.shape[1] - 1
    rows = command_rows(xmax, pieces)
    out = np.zeros((rows[-1].shape[0] + ymax, rows[-1].shape[1]))
    for x in range(xmax + 1):
        for y in np.flatnonzero(hits[x]):
            row = rows[x]
            out[y : y + row.shape[0], : row.shape[1]] += hits[x, y] * row
    return out
