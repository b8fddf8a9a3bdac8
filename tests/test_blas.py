"""BLAS on one thread while a layout's chain runs (mathhammer.core.blas): every loaded BLAS
pinned within a block, and given back the threads it had after it, also when blocks nest
or overlap across threads (issue 14: two BLAS threads made the chain 10-40x slower on a
busy machine)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import mathhammer as mh
from mathhammer.core.blas import blas_threads, one_thread


@pytest.fixture
def two_threads() -> Iterator[None]:
    """Every BLAS on two threads for the test (numpy's own is one of them)."""
    with threadpool_limits(limits=2, user_api="blas"):
        assert blas_threads() and set(blas_threads()) == {2}
        yield


@pytest.mark.usefixtures("two_threads")
def test_a_block_runs_on_one_thread_and_gives_the_threads_back() -> None:
    with one_thread():
        assert set(blas_threads()) == {1}
        with one_thread():  # nested: the inner block's end restores nothing
            pass
        assert set(blas_threads()) == {1}
        np.ones((300, 300)) @ np.ones((300, 300))
    assert set(blas_threads()) == {2}
    with pytest.raises(ZeroDivisionError), one_thread():  # an error in the block
        _ = 1 / 0
    assert set(blas_threads()) == {2}


@pytest.mark.usefixtures("two_threads")
def test_a_block_in_another_thread_runs_with_the_main_thread_s_setting() -> None:
    # the OpenBLAS measured ignores a count set from another thread: a block there neither
    # pins nor restores (a restore there left the main thread's BLAS on one thread for good)
    seen: list[list[int]] = []

    def other() -> None:
        with one_thread():
            seen.append(blas_threads())

    for pinned in (False, True):
        worker = threading.Thread(target=other)
        if pinned:
            with one_thread():
                worker.start()
                worker.join(10)
        else:
            worker.start()
            worker.join(10)
        assert set(blas_threads()) == {2}
    assert [set(threads) for threads in seen] == [{2}, {1}]


@pytest.mark.usefixtures("two_threads")
def test_an_attack_on_a_layout_leaves_the_threads_as_they_were() -> None:
    unit = mh.Unit(
        "Squad",
        [mh.ModelGroup(4, 4, 3, 2, name="Troops"), mh.ModelGroup(1, 4, 3, 4, name="Sergeant")],
    )
    result = mh.attack([(mh.Weapon("Gun", 2, 3, 4, -1, "D3"), 10)], unit)
    assert result.killed.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert set(blas_threads()) == {2}
