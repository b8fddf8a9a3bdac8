"""A one-die transition ``T`` of the target's states, applied to row vectors: dense for
small units, sparse for large ones, band by band where every transition moves a state
forward by a few places only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.binomial import FloatArray
from ..core.tuning import BAND_ENTRIES, BAND_LIMIT
from .methods import banded

if TYPE_CHECKING:  # imported where a large unit needs it: import time matters
    import scipy.sparse as sp

__all__ = ["Transition"]


class Transition:
    """A one-die transition ``T`` (rows: from, columns: to), applied to row vectors.

    Stored dense for small units, sparse for large ones, and as bands when every
    transition moves a state forward by a few places only (the units whose groups are
    used up in order: damage moves the unit along one line of states).
    """

    def __init__(self, matrix: np.ndarray | sp.spmatrix) -> None:
        self.dense = isinstance(matrix, np.ndarray)
        by_bands = banded(matrix.shape[0])
        self.bands = None if by_bands is False else _bands(matrix)
        self.forced_bands = by_bands is True
        if self.dense:
            self._m = matrix
        else:
            import scipy.sparse as sp

            # a sparse T is stored transposed and applied as (T^t @ x^t)^t
            self._m = sp.csr_matrix(matrix.T)

    @classmethod
    def with_saves(cls, damage: np.ndarray | sp.csr_matrix, saving: np.ndarray) -> Transition:
        """The damage transition with the rows of ``saving`` states replaced by "stay".

        ``saving`` is a bool per state, or, for dice resolved one attack at a time, the
        chance that the state's current model saves a die: its row is then that chance of
        "stay" and the rest of the damage row (:func:`~mathhammer.exact.chain.in_attack_order`).
        """
        if saving.dtype != bool:
            return cls._with_save_chance(damage, saving)
        if isinstance(damage, np.ndarray):
            m = damage.copy()
            m[saving] = 0.0
            idx = np.flatnonzero(saving)
            m[idx, idx] = 1.0
            return cls(m)
        import scipy.sparse as sp

        keep = sp.diags((~saving).astype(float))
        return cls(keep @ damage + sp.diags(saving.astype(float)))

    @classmethod
    def _with_save_chance(
        cls, damage: np.ndarray | sp.csr_matrix, chance: np.ndarray
    ) -> Transition:
        """:meth:`with_saves` for a chance per state: ``diag(1 - c) D + diag(c)``."""
        if isinstance(damage, np.ndarray):
            m = damage * (1.0 - chance)[:, None]
            m[np.diag_indices_from(m)] += chance
            return cls(m)
        import scipy.sparse as sp

        return cls(sp.diags(1.0 - chance) @ damage + sp.diags(chance))

    def _by_bands(self, x: FloatArray) -> bool:
        """Whether ``x`` is moved band by band (see :data:`BAND_ENTRIES`)."""
        if self.bands is None:
            return False
        if self.forced_bands:
            return True
        return not self.dense or len(self.bands) * BAND_ENTRIES <= x.size * len(self.bands[0])

    def apply(self, x: FloatArray) -> FloatArray:
        """``x @ T`` for a vector or for a stack of row vectors (any leading shape)."""
        if self._by_bands(x):
            return self._rows_by_bands(x)
        if self.dense:
            return np.asarray(x @ self._m, dtype=np.float64)
        flat = x.reshape(-1, x.shape[-1])
        return np.asarray((self._m @ flat.T).T).reshape(x.shape)

    def _rows_by_bands(self, x: FloatArray) -> FloatArray:
        """:meth:`apply` band by band: each band moves the states ``d`` places forward."""
        bands = self.bands
        assert bands is not None
        out: FloatArray = x * bands[0]
        for d in range(1, len(bands)):
            out[..., d:] += x[..., :-d] * bands[d, :-d]
        return out

    def power_series(self, coeffs: FloatArray) -> FloatArray:
        """``sum_j coeffs[j] @ T**j`` by Horner's scheme (``coeffs`` stacked on axis 0)."""
        result: FloatArray = coeffs[-1].copy()
        for j in range(len(coeffs) - 2, -1, -1):
            result = self.apply(result) + coeffs[j]
        return result

    def apply_columns(self, x: FloatArray) -> FloatArray:
        """``T^t @ x``: each column of ``x`` (shape ``(S, M)``, or ``(L, S, M)`` for ``L`` such
        arrays) a state distribution, moved one die. The states are on the second-last axis,
        so a stack of ``L`` is one product with no transposed copy (a block-diagonal one
        when ``T`` is sparse)."""
        if self._by_bands(x):
            return self._columns_by_bands(x)
        if self.dense:
            return self._dense_columns(x)
        if x.ndim == 2:
            return np.asarray(self._m @ x, dtype=np.float64)
        stack, states = x.shape[0], x.shape[1]
        flat = x.reshape(stack * states, -1)
        return np.asarray(self._block(stack) @ flat, dtype=np.float64).reshape(x.shape)

    def _columns_by_bands(self, x: FloatArray) -> FloatArray:
        """:meth:`apply_columns` band by band: :meth:`_rows_by_bands` along the states' axis,
        the second-last."""
        assert self.bands is not None
        column = self.bands[:, :, None]
        moved: FloatArray = x * column[0]
        for d in range(1, len(column)):
            moved[..., d:, :] += x[..., :-d, :] * column[d, :-d]
        return moved

    def _dense_columns(self, x: FloatArray) -> FloatArray:
        """:meth:`apply_columns` by a dense ``T``: one product, of the stacked row vectors
        when each array is one column."""
        if x.ndim == 2:
            return np.asarray(self._m.T @ x, dtype=np.float64)
        stack, states, width = x.shape
        if width == 1:  # one product of the stacked row vectors
            return np.asarray(x.reshape(stack, states) @ self._m).reshape(x.shape)
        moved = np.tensordot(x, self._m, axes=(1, 0))  # [stack, width, states]
        return np.ascontiguousarray(moved.transpose(0, 2, 1))

    def _block(self, stack: int) -> sp.csr_matrix:
        """``I_stack (x) T^t``: the first ``stack`` blocks of one block-diagonal matrix, made
        once for the largest stack asked for and cut to size without copying its arrays."""
        import scipy.sparse as sp

        big = self.__dict__.get("_big")
        if big is None or big.shape[0] < stack * self._m.shape[0]:
            size = max(stack, self.__dict__.get("_reserved", 0))
            big = sp.csr_matrix(sp.kron(sp.identity(size, format="csr"), self._m))
            self.__dict__["_big"] = big
        rows = stack * self._m.shape[0]
        end = int(big.indptr[rows])
        return sp.csr_matrix(
            (big.data[:end], big.indices[:end], big.indptr[: rows + 1]), shape=(rows, rows)
        )

    def reserve(self, stack: int) -> None:
        """Make the block-diagonal matrix of :meth:`apply_columns` for stacks of up to
        ``stack`` arrays at once, rather than again as the stacks grow."""
        self.__dict__["_reserved"] = max(stack, self.__dict__.get("_reserved", 0))

    def column_series(self, coeffs: FloatArray) -> FloatArray:
        """``sum_j T^t**j @ coeffs[j]`` by Horner's scheme: :meth:`power_series` for arrays
        whose states are on axis 1 (``coeffs[j]`` of shape ``(S, M)``)."""
        result: FloatArray = coeffs[-1].copy()
        for j in range(len(coeffs) - 2, -1, -1):
            result = self.apply_columns(result)
            result += coeffs[j]
        return result


def _bands(matrix: np.ndarray | sp.spmatrix) -> FloatArray | None:
    """``bands[d, s] = T[s, s + d]`` when every entry of ``T`` lies on such a diagonal with
    ``0 <= d <= BAND_LIMIT``; else None."""
    if isinstance(matrix, np.ndarray):
        rows, cols = np.nonzero(matrix)
        values = matrix[rows, cols]
    else:
        coo = matrix.tocoo()
        rows, cols, values = coo.row, coo.col, coo.data
    offsets = cols - rows
    if offsets.size == 0 or offsets.min() < 0 or offsets.max() > BAND_LIMIT:
        return None
    bands = np.zeros((int(offsets.max()) + 1, matrix.shape[0]))
    np.add.at(bands, (offsets, rows), values)
    return bands
