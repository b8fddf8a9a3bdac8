"""The closed form for a target of one model group: failed saves, then damage along a line.

Against one group every save die meets a model with the same save, so the sorted-dice
chain of :mod:`mathhammer.exact.chain` needs no order: each die to save fails with the
same probability ``q`` whatever the state, and the failed saves are a binomial thinning
of the dice, ``U = thin(dice, q)``, drawn before the damage. The unit's state is one
number, the wounds lost since the attack began (``0..S``, the group's wounds left; ``S``
is "destroyed"), and each failed save moves it forward by ``min(E, wounds left on the
current model)``: a banded transition ``T``. The state after a pool is
``sum_j P(U = j) state T**j``; the vectors ``state T**j`` stop changing once every state
reached is "destroyed", which happens after ``S`` failed saves when every failed save
costs at least one wound, and they are taken as "destroyed" once the unit stands with
probability below :data:`~mathhammer.exact.chain.TRIM_MASS` (the mass moved reported with
the trimmed mass).

Three shorter ways give the same states: a damage that is certain (every failed save
takes ``d`` wounds, no Feel No Pain) moves each state along one path, read off the wounds
left on each model; up to :data:`SQUARING_STATES` states the powers of ``T`` are taken all
at once, by doubling (``T**k`` squared while the rows double: a few small matrix products
instead of a step per failed save) or a step per failed save, whichever the count of
array operations and entries says costs less (:func:`dense_powers`); and a number of dice
that is certain, ``n``, whose failed saves are Binomial(``n``, ``q``), takes the state to
``state ((1 - q) I + q T)**n`` (the binomial theorem), by squaring, where that costs less
(:meth:`Line.apply_dice`).

This is what the general engine computes on such a target (the same states, in the same
order, and the same trimming of negligible counts of dice): it is checked against it
case by case (``tests/test_single_group.py``; the shorter ways against the walk of the
models and the powers step by step in ``tests/test_plain_stages.py``). It applies to
pools without devastating wounds or any effect that depends on the state; the engine
decides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.binomial import FloatArray, binomial_row, binomial_thin
from ..core.caches import register
from ..core.frozen import HashedKey
from ..core.sums import ordered_sum
from ..core.tuning import (
    CALL_ENTRIES,
    CHUNK_ENTRIES,
    PRODUCT_SHARE,
    PYTHON_SUM,
    SMALL_ROW,
    SQUARING_STATES,
    TRANSITIONS_KEPT,
    TRIM_MASS,
)
from ..model.unit import ModelGroup
from . import methods
from .compound import compound, skew
from .counts import trim_counts
from .powers import dense_powers, doubling_cost, one_die_power

__all__ = ["Line", "failed_saves"]

#: The most a row of powers can lose or gain in summing (the rows are stochastic): the
#: unit stands with probability at most ``settle`` only where "destroyed" holds all but
#: ``settle`` of the mass, within this, so that the others are summed only then.
_ROUNDING = 1e-12

#: A step of :meth:`Line._powers`: row ``r`` of its block times ``T``, into ``out``.
_Step = Callable[[int, FloatArray], FloatArray]


class Line:
    """The states of a one-group target: wounds lost since the attack began, ``0..size``.

    Examples
    --------
    >>> from mathhammer.model.unit import ModelGroup
    >>> line = Line(ModelGroup(3, 4, 3, 2, wounds_lost=1))
    >>> line.size, line.killed.tolist(), line.left.tolist()
    (5, [0, 1, 1, 2, 2, 3], [1, 2, 1, 2, 1, 0])
    """

    def __init__(self, group: ModelGroup) -> None:
        wounds, first = group.wounds, group.wounds - group.wounds_lost
        #: the state in which the group is destroyed
        self.size = first + (group.count - 1) * wounds
        lost = np.arange(self.size + 1)
        # each array operation costs as much as a few dozen bytecodes on a short line: the
        # fewest of them (S1-S6)
        if wounds == 1:  # one more model destroyed in each state
            destroyed = lost
            left = np.zeros(self.size + 1, dtype=np.int64)
            left[:-1] = 1
        else:  # counted as if the first model were whole (the wounds it lost before
            # added): the quotient by the wounds is the models destroyed, the remainder
            # the wounds lost on the current model
            shift = wounds - first
            destroyed, on_current = np.divmod(np.arange(shift, shift + self.size + 1), wounds)
            left = wounds - on_current
            left[-1] = 0  # destroyed: no current model
        #: the wounds left on the current model in each state (0 once destroyed)
        self.left = left
        #: models destroyed in each state
        self.killed = destroyed
        self._most_left = wounds if group.count > 1 else first
        #: each state's wounds lost, as a one-group layout's positions (read-only)
        self.positions = lost[:, None]
        self.positions.setflags(write=False)
        self._transitions: dict[bytes, FloatArray] = {}
        #: whether the transition is a dense matrix (a small line) rather than bands
        self.dense = methods.dense(self.size + 1)
        # whether the powers of T are taken all at once (dense_powers): a small dense line
        self._all_powers = self.dense and self.size + 1 <= SQUARING_STATES

    def left_list(self) -> list[int]:
        """:attr:`left` as a list."""
        return self.left.tolist()

    @staticmethod
    @register
    @lru_cache(maxsize=256)
    def of(groups_key: HashedKey) -> Line:
        """The shared (cached) line of a one-group unit, by its :attr:`Unit.groups_key
        <mathhammer.model.unit.Unit.groups_key>`: lines are immutable once built."""
        (group,) = groups_key.parts
        return Line(group)

    def transition(self, damage: FloatArray) -> FloatArray:
        """The one-failed-save transition for a damage pmf (after Feel No Pain): the
        dense ``T`` of a small line (:attr:`dense`), else ``bands[d, s] = T[s, s + d]``.

        A model with ``r`` wounds left that would lose ``E >= r`` is destroyed; the
        excess is lost. Kept for the line's last few damage pmfs; read-only.
        """
        key = damage.tobytes()
        found = self._transitions.get(key)
        if found is None:
            if len(self._transitions) >= TRANSITIONS_KEPT:
                self._transitions.clear()
            found = self._transition(damage)
            found.setflags(write=False)
            self._transitions[key] = found
        return found

    def _transition(self, damage: FloatArray) -> FloatArray:
        top = max(min(len(damage) - 1, self._most_left), 1)
        # values[:top + 1]: P(E = d), the amounts capped at top; values[top + 1 + d]:
        # P(E >= d); the last entry 0
        pmf = damage.tolist()  # a few amounts: summed in Python floats, as cumsum sums
        exact = pmf[:top]
        exact.append(_summed(pmf, damage, top))  # P(E >= top)
        tails = [0.0] * (top + 2)
        for d in range(top, -1, -1):
            tails[d] = tails[d + 1] + exact[d]
        values = np.array(exact + tails)
        # by_left[w, d]: a model with w wounds left loses min(E, w) (every state with w
        # wounds left moves alike)
        by_left = values[_capped(self._most_left, top)]
        rows = by_left.take(self.left, 0)  # rows[s, d] = T[s, s + d]
        if not self.dense:
            return np.ascontiguousarray(rows.T)  # bands[d, s]
        # T[s, s + d], contiguous (a product with it costs less than with a strided view):
        # nothing passes "destroyed", as rows[s, d] is 0 past the wounds the unit has left
        return skew(rows, self.size + 1)

    def steps(self, damage: FloatArray, dice: int) -> int:
        """The failed saves that can still change the state: ``dice``, or ``size`` when
        every failed save costs a wound."""
        return min(dice, self.size) if damage[0] == 0.0 else dice

    def work(self, damage: FloatArray, dice: int) -> int:
        """The most work of a pool's chain, for at most ``dice`` failed saves (what
        :data:`LINE_WORK` bounds): per failed save, one matrix product of a small line,
        or an operation per band."""
        states = self.size + 1
        width = min(len(damage), self._most_left + 1)
        calls, entries = (1, states * states) if self.dense else (width, width * states)
        return self.steps(damage, dice) * (calls * CALL_ENTRIES + entries)

    def apply(
        self,
        state: FloatArray,
        failed: FloatArray,
        damage: FloatArray,
        trimmed: list[float] | None = None,
    ) -> FloatArray:
        """The state after a pool whose failed saves have the pmf ``failed``, each losing
        ``damage`` (a pmf) from the current model.

        Given a list ``trimmed``, the counts of negligible probability are cut from the
        top of ``failed`` (:func:`~mathhammer.exact.chain.trim_counts`), the powers of
        ``T`` end once the unit stands with probability at most
        :data:`~mathhammer.exact.chain.TRIM_MASS` (the rest of ``failed`` then destroys
        it), and the mass cut and the mass so moved are appended to it.

        Examples
        --------
        >>> line = Line(ModelGroup(2, 4, 3, 1))
        >>> start = np.array([1.0, 0.0, 0.0])
        >>> line.apply(start, np.array([0.25, 0.5, 0.25]), np.array([0.0, 1.0])).tolist()
        [0.25, 0.5, 0.25]
        """
        amount = _certain(damage)
        if amount is not None:  # every failed save takes the same: one path per state
            return self._apply_certain(state, failed, amount)
        return self._series(state, failed, damage, trimmed)

    def apply_dice(
        self, state: FloatArray, dice: int, fail: float, damage: FloatArray
    ) -> FloatArray | None:
        """The state after ``dice`` dice to save, each failing with probability ``fail``
        and then losing ``damage`` (a pmf) from the current model; None where
        :meth:`apply` of their failed saves costs less.

        The failed saves are Binomial(``dice``, ``fail``), and ``I`` commutes with ``T``:
        by the binomial theorem ``sum_j C(dice, j) fail**j (1 - fail)**(dice - j) T**j =
        M**dice``, ``M = (1 - fail) I + fail T`` (one die's transition), and the state
        after them is ``state M**dice``, by squaring: ``log2(dice)`` products of two small
        matrices and one vector product per bit, where :meth:`apply` takes the powers of
        ``T`` row by row and sums them. Taken for a small dense line (:attr:`dense`, at
        most :data:`SQUARING_STATES` states) when the count of array operations and
        entries says it costs less (as :func:`dense_powers` decides); a certain damage
        moves each state along one path, as :meth:`apply` moves it, through the dice's
        binomial row. Nothing is trimmed.

        Examples
        --------
        >>> line = Line(ModelGroup(2, 4, 3, 2))  # two W2 models, D2 damage: 1 or 2 wounds
        >>> after = line.apply_dice(np.eye(5)[0], 3, 0.5, np.array([0.0, 0.5, 0.5]))
        >>> failed = np.array([1.0, 3.0, 3.0, 1.0]) / 8  # Binomial(3, 1/2)
        >>> bool(np.allclose(after, line.apply(np.eye(5)[0], failed, np.array([0.0, 0.5, 0.5]))))
        True
        """
        amount = _certain(damage)
        if amount is not None:  # one path a state, as apply walks it: the dice's row read
            return self._apply_certain(state, binomial_row(dice, fail), amount)
        if dice < 1 or not self._all_powers:
            return None
        # against the powers row by row, then by doubling (as dense_powers counts them;
        # the doubling's counted only when the rows cost more)
        n = state.size
        cost = _squaring_cost(dice, n)
        steps = self.steps(damage, dice)
        if cost >= steps * (CALL_ENTRIES + n * n) or cost >= doubling_cost(n, steps):
            return None
        return one_die_power(state, self.transition(damage), dice, fail)

    def apply_devastating(
        self,
        state: FloatArray,
        failed: FloatArray,
        damage: FloatArray,
        mortal: FloatArray,
        trimmed: list[float] | None = None,
    ) -> FloatArray:
        """The state after a pool whose failed saves and devastating wounds have the joint
        pmf ``failed[j, m]``: the ``j`` failed saves each lose ``damage`` from the current
        model, then the ``m`` devastating wounds each lose ``mortal`` (their mortal wounds
        damage one model at most, the rest are lost: the transition of a failed save of
        that damage).

        ``sum_m (sum_j failed[j, m] state T**j) M**m``: the inner sums as :meth:`apply`
        makes them (trimmed alike), the outer one by Horner's scheme.

        Examples
        --------
        Two W2 models, one failed save of D1, then no devastating wound or one of 2
        mortal wounds: they destroy the wounded model, and the wound past it is lost.

        >>> line = Line(ModelGroup(2, 4, 3, 2))
        >>> failed = np.array([[0.0, 0.0], [0.5, 0.5]])
        >>> line.apply_devastating(np.eye(5)[0], failed, np.array([0.0, 1.0]),
        ...                        np.array([0.0, 0.0, 1.0])).tolist()
        [0.0, 0.5, 0.5, 0.0, 0.0]
        """
        after = self._series(state, failed, damage, trimmed)  # after[m]: the failed saves'
        t = self.transition(mortal)
        out: FloatArray = after[-1].copy()
        for m in range(len(after) - 2, -1, -1):
            out = self._step(out, t, np.empty(state.size))
            out += after[m]
        return out

    def _series(
        self,
        state: FloatArray,
        failed: FloatArray,
        damage: FloatArray,
        trimmed: list[float] | None,
    ) -> FloatArray:
        """``sum_j failed[j] state T**j`` (each column of a two-dimensional ``failed``
        apart: one row of the result per column), trimmed as :meth:`apply` says."""
        failed, settle = _trimmed_failed(failed, trimmed)
        steps = self.steps(damage, len(failed) - 1)
        if self._all_powers:  # every power at once: no settling
            powers = dense_powers(state, self.transition(damage), steps)
            after = failed[: steps + 1].T.dot(powers)
            if steps + 1 < len(failed):  # failed saves past the unit's end
                after[..., -1] += np.add.reduce(failed[steps + 1 :], axis=0)
            return np.asarray(after)
        return self._settled_series(state, failed, damage, steps, settle, trimmed)

    def _settled_series(
        self,
        state: FloatArray,
        failed: FloatArray,
        damage: FloatArray,
        steps: int,
        settle: float,
        trimmed: list[float] | None,
    ) -> FloatArray:
        """:meth:`_series` by blocks of powers (:meth:`_powers`), ended once the unit stands
        with probability at most ``settle``; the mass then still standing is reported in
        ``trimmed``."""
        after = np.zeros((*failed.shape[1:], state.size))
        last, standing = 0, 0.0
        for j0, block in self._powers(state, damage, steps, settle):
            after += failed[j0 : j0 + len(block)].T.dot(block)
            last, standing = j0 + len(block) - 1, float(block[-1, :-1].sum())
        beyond = failed[last + 1 :].sum(axis=0)
        after[..., -1] += beyond  # the unit was destroyed by then (or all but ``standing``)
        if trimmed is not None and last < steps:
            trimmed.append(standing * float(np.sum(beyond)))
        return after

    def _apply_certain(self, state: FloatArray, failed: FloatArray, amount: int) -> FloatArray:
        """:meth:`apply` when every failed save takes ``amount`` wounds (at least one) from
        the current model: state ``s`` moves to ``s + min(amount, left[s])``, so each state
        the attack starts from has one path, and the state after ``j`` failed saves is
        read from it (exactly: nothing is trimmed). After :attr:`size` failed saves every
        path has reached "destroyed"."""
        steps = min(len(failed) - 1, self.size)
        (starts,) = state.nonzero()
        if len(starts) == 1:  # one path: walked and summed in Python floats
            return self._one_path(int(starts[0]), float(state[starts[0]]), failed, amount, steps)
        table = np.arange(self.size + 1) + np.minimum(self.left, amount)
        paths = np.empty((steps + 1, len(starts)), dtype=np.int64)
        paths[0] = starts
        for j in range(1, steps + 1):
            paths[j] = table[paths[j - 1]]
        weights = np.multiply.outer(failed[: steps + 1], state[starts])
        after = np.bincount(paths.ravel(), weights=weights.ravel(), minlength=state.size)
        if steps + 1 < len(failed):  # failed saves past every path's end
            after[-1] += float(np.add.reduce(failed[steps + 1 :])) * float(np.add.reduce(state))
        return np.asarray(after, dtype=np.float64)

    def _one_path(
        self, at: int, weight: float, failed: FloatArray, amount: int, steps: int
    ) -> FloatArray:
        """:meth:`_apply_certain` from the one state ``at`` (with probability ``weight``):
        the path walked and summed in Python floats."""
        left = self.left_list()
        counts = failed.tolist()
        # each count's mass added where the path stands, in order (as np.bincount adds)
        out = [0.0] * (self.size + 1)
        out[at] = counts[0] * weight  # times 1.0: the count itself, exactly
        for j in range(1, steps + 1):
            here = left[at]
            at += amount if amount < here else here  # min(amount, here), without a call
            out[at] += counts[j] * weight
        if steps + 1 < len(counts):  # failed saves past every path's end
            out[-1] += _summed(counts, failed, steps + 1) * weight
        return np.array(out)

    def unsaved(self, state: FloatArray, failed: FloatArray, damage: FloatArray) -> FloatArray:
        """The pmf of the failed saves resolved before the unit was destroyed (those that
        inflicted damage), from ``state``, for ``failed`` failed saves (a pmf) of
        ``damage`` each.

        The ``c``-th failed save counts when there are ``c`` and the unit still stands
        after ``c - 1``: ``P(count >= c) = P(U >= c) * P(alive after c - 1)``, the failed
        saves being drawn before, and independently of, the damage.

        Examples
        --------
        >>> line = Line(ModelGroup(1, 4, 3, 1))  # one W1 model: at most one counts
        >>> line.unsaved(np.array([1.0, 0.0]), np.array([0.25, 0.5, 0.25]), np.array([0.0, 1.0]))
        array([0.25, 0.75])
        """
        steps = self.steps(damage, len(failed) - 1)
        alive = np.zeros(steps + 1)  # alive[j]: P(the unit stands after j failed saves)
        for j0, block in self._powers(state, damage, steps, TRIM_MASS):
            alive[j0 : j0 + len(block)] = 1.0 - block[:, -1]
        at_least = failed[::-1].cumsum()[::-1]  # at_least[c] = P(U >= c)
        survived = np.ones(len(failed))
        survived[1:] = alive[np.minimum(np.arange(len(failed) - 1), steps)]
        tail = at_least * survived
        out: FloatArray = np.append(tail[:-1] - tail[1:], tail[-1])
        # when every failed save costs a wound, at most ``size`` of them can count
        return np.maximum(out[: steps + 1], 0.0)

    def _powers(
        self, state: FloatArray, damage: FloatArray, steps: int, settle: float = 0.0
    ) -> Iterator[tuple[int, FloatArray]]:
        """``state @ T**j`` for ``j = 0..steps``, as blocks of consecutive ``j`` (each
        block ``(j0, rows)``, at most :data:`~mathhammer.exact.cost.CHUNK_ENTRIES` entries;
        a block is overwritten by the next).

        With ``settle > 0`` the powers end early, at the first ``j`` after which the unit
        stands with probability at most ``settle``: the later ones differ from "destroyed"
        by at most that mass (the unit standing only grows less likely).
        """
        t = self.transition(damage)
        if self._all_powers:
            yield 0, dense_powers(state, t, steps)
        else:
            yield from self._stepped_powers(state, t, steps, settle)

    def _stepped_powers(
        self, state: FloatArray, t: FloatArray, steps: int, settle: float
    ) -> Iterator[tuple[int, FloatArray]]:
        """:meth:`_powers` a step at a time, each row the one before times ``T``, into a
        block of rows that the next block overwrites."""
        rows = max(1, min(steps + 1, CHUNK_ENTRIES // state.size))
        block, step = (_dense_stepper if self.dense else _band_stepper)(t, rows, state.size)
        near = float(np.add.reduce(state)) - settle - _ROUNDING  # see _ROUNDING
        v = state
        for j0 in range(0, steps + 1, rows):
            count = min(rows, steps + 1 - j0)
            block[0] = v
            for r in range(1, count):
                step(r - 1, block[r])
                if settle and block[r, -1] >= near and np.add.reduce(block[r, :-1]) <= settle:
                    yield j0, block[: r + 1]
                    return
            yield j0, block[:count]
            if j0 + count <= steps:
                v = step(count - 1, np.empty(state.size))

    def _step(self, v: FloatArray, t: FloatArray, out: FloatArray) -> FloatArray:
        """``out = v @ T``."""
        if self.dense:
            return v.dot(t, out)
        np.multiply(v, t[0], out=out)
        for d in range(1, len(t)):
            out[d:] += v[:-d] * t[d, :-d]
        return out


def _dense_stepper(t: FloatArray, rows: int, size: int) -> tuple[FloatArray, _Step]:
    """A block of ``rows`` powers of ``size`` states, and the step of a dense ``T`` that
    makes row ``r`` times ``T`` into ``out``."""
    block = np.empty((rows, size))

    def step(r: int, out: FloatArray) -> FloatArray:  # row ``r`` times T
        product: FloatArray = block[r].dot(t, out)
        return product

    return block, step


def _band_stepper(t: FloatArray, rows: int, size: int) -> tuple[FloatArray, _Step]:
    """:func:`_dense_stepper` of bands ``t[d, s] = T[s, s + d]``: each row after a pad of
    zeros, read through windows as wide as the bands."""
    pad = len(t) - 1
    padded = np.zeros((rows, pad + size))
    item = padded.itemsize
    windows = as_strided(padded, (rows, size, pad + 1), (padded.strides[0], item, item))
    weights = _window_weights(t)

    def step(r: int, out: FloatArray) -> FloatArray:
        return np.einsum("sk,sk->s", windows[r], weights, out=out)

    return padded[:, pad:], step


def _squaring_cost(dice: int, n: int) -> int:
    """What :meth:`Line.apply_dice` counts for ``M**dice`` by squaring on ``n`` states: M
    made (two operations), its squarings and a product per bit, less what :meth:`Line.apply`
    spends besides the powers (the failed saves' binomial row, in Python floats up to
    :data:`SMALL_ROW` dice: a die about a quarter of an operation; its cut; the rows'
    sum)."""
    square = n * n
    cost = (dice.bit_length() - 1) * (CALL_ENTRIES + square * n // PRODUCT_SHARE)
    cost += 2 * CALL_ENTRIES + dice.bit_count() * (CALL_ENTRIES + square)
    return cost - (4 * CALL_ENTRIES + min(dice, SMALL_ROW) * CALL_ENTRIES // 4)


def _summed(values: list[float], array: FloatArray, start: int) -> float:
    """The sum of ``values[start:]`` (``values``: ``array`` as a list) as ``np.add.reduce``
    gives it: in Python floats up to :data:`~mathhammer.core.tuning.PYTHON_SUM` entries
    (:func:`~mathhammer.core.sums.ordered_sum`), else by numpy."""
    if len(values) - start <= PYTHON_SUM:
        return ordered_sum(values[start:])
    return float(np.add.reduce(array[start:]))


def _trimmed_failed(failed: FloatArray, trimmed: list[float] | None) -> tuple[FloatArray, float]:
    """The failed saves' pmf as :meth:`Line.apply` takes it, and the mass below which the
    unit is taken as destroyed: untouched with no ``trimmed``; else trimmed
    (:func:`~mathhammer.exact.counts.trim_counts`, the cut appended to ``trimmed``), or,
    when its last count holds too much to cut, as it is (0.0 appended)."""
    if trimmed is None:
        return failed, 0.0
    if failed.ndim == 1 and failed[-1] > TRIM_MASS:
        trimmed.append(0.0)  # as trim_counts: its last count holds too much to cut
        return failed, TRIM_MASS
    kept, cut = trim_counts(failed.reshape(len(failed), -1))
    trimmed.append(cut)
    return kept.reshape((len(kept), *failed.shape[1:])), TRIM_MASS


@lru_cache(maxsize=256)
def _capped(most: int, top: int) -> np.ndarray:
    """Where :meth:`Line._transition` reads ``by_left[w, d]`` (``w = 0..most`` wounds left,
    ``d = 0..top`` lost) in its values: ``P(E = d)`` below ``w`` (index ``d``), ``P(E >= w)``
    at it (index ``top + 1 + w``), nothing past it (the last, zero). Read-only.

    An index pattern of two small numbers, as a table of binomial coefficients is one of
    one: made once and kept, not one of the caches ``mathhammer.clear_caches()`` empties.

    Examples
    --------
    >>> _capped(2, 2).tolist()  # 3 + w on the diagonal, 6 above it
    [[3, 6, 6], [0, 4, 6], [0, 1, 5]]
    """
    w = np.arange(most + 1)[:, None]
    d = np.arange(top + 1)
    out = np.where(d < w, d, np.where(d == w, top + 1 + w, 2 * top + 2))
    out.setflags(write=False)
    return out


def _window_weights(bands: FloatArray) -> FloatArray:
    """The bands ``bands[d, s] = T[s, s + d]`` of a transition as the weights of a step
    read through windows: ``out[s] = sum_k window[s, k] * weights[s, k]``, where
    ``window[s, k]`` is the state ``s - (width - 1 - k)`` (zero before the first), so
    ``weights[s, k] = T[s - d, s]`` with ``d = width - 1 - k``.

    Examples
    --------
    >>> _window_weights(np.array([[0.5, 0.5, 1.0], [0.5, 0.5, 0.0]])).tolist()
    [[0.0, 0.5], [0.5, 0.5], [0.5, 1.0]]
    """
    width, size = bands.shape
    weights = np.zeros((size, width))
    for d in range(width):
        weights[d:, width - 1 - d] = bands[d, : size - d]
    return weights


def _certain(damage: FloatArray) -> int | None:
    """The wounds a failed save takes when that is certain and at least one, else None."""
    values = damage.tolist()  # a few amounts: read as Python floats
    if len(values) > 1 and values[-1] == 1.0 and not any(values[:-1]):
        return len(values) - 1
    return None


def failed_saves(attacks: FloatArray, die: FloatArray, fail: float) -> FloatArray:
    """The pmf of failed saves: each of ``N ~ attacks`` dice sends ``die`` (a pmf) dice to
    the save step, and each of those fails with probability ``fail``.

    Examples
    --------
    >>> failed_saves(np.array([0.0, 0.0, 1.0]), np.array([0.5, 0.5]), 0.5).tolist()
    [0.5625, 0.375, 0.0625]
    """
    if len(die) == 2:  # one die to save at most: a Bernoulli die
        one = float(die[1]) * fail
        per_die = np.array([1.0 - one, one])
    else:
        per_die = binomial_thin(die, fail)
    return compound(attacks, per_die)
