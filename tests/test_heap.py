"""The batches' garbage-collection pause (mathhammer.core.heap)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from mathhammer.core import heap
from mathhammer.core.heap import settled_heap


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def collector_off() -> Iterator[None]:
    """No automatic collection in between: only the test's own ``gc.collect()``."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("collector_off")
def test_objects_made_before_are_set_aside_and_given_back() -> None:
    assert gc.get_freeze_count() == 0
    alive = _cycle()  # garbage already: a cycle nobody refers to
    with settled_heap():
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert alive() is not None  # set aside: not collected inside the block
        fresh = _cycle()
        gc.collect()
        assert fresh() is None  # made inside: collected as usual
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None  # given back: collected after the block, not lost


def test_nested_blocks_share_one_freeze_and_an_error_gives_it_back() -> None:
    with pytest.raises(RuntimeError, match="inner"), settled_heap():
        with settled_heap():
            pass
        assert gc.get_freeze_count() > 0  # the outer block's freeze holds
        raise RuntimeError("inner")
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("collector_off")
def test_a_process_that_froze_objects_itself_is_left_as_it_is() -> None:
    # Read through what is collected, not the freeze count: a frozen object that dies
    # (its last reference dropped anywhere in the process) leaves the count meanwhile.
    frozen_garbage = _cycle()
    gc.freeze()
    try:
        made_after_the_freeze = _cycle()
        with settled_heap():
            gc.collect()
            assert frozen_garbage() is not None  # the process's freeze holds inside
            assert made_after_the_freeze() is None  # and the block froze nothing more
        gc.collect()
        assert frozen_garbage() is not None  # nor did the block unfreeze on leaving
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    gc.collect()
    assert frozen_garbage() is None


def test_no_middle_or_full_collection_inside_a_block_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    middle, full = (gc.get_stats()[g]["collections"] for g in (1, 2))
    young_before = gc.get_stats()[0]["collections"]
    kept: list[tuple[int, list[int]]] = []
    with settled_heap():
        young = max(before[0], heap.YOUNG_COLLECTION)
        none = heap.NO_FULL_COLLECTION
        assert gc.get_threshold() == (young, none, none)
        with settled_heap():  # a nested block changes nothing more
            assert gc.get_threshold() == (young, none, none)
        for _ in range(300_000):  # long-lived objects, as a cache keeps: tracked tuples
            kept.append((len(kept), [0]))
        assert gc.get_stats()[0]["collections"] > young_before  # the young ones are walked
        assert [gc.get_stats()[g]["collections"] for g in (1, 2)] == [middle, full]
    assert gc.get_threshold() == before
    assert len(kept) == 300_000


@pytest.mark.usefixtures("collector_off")
def test_what_a_block_kept_joins_the_oldest_generation_and_is_collected_there() -> None:
    with settled_heap():
        node = Node()
        node.other = Node()
        node.other.other = node
        alive = weakref.ref(node)
        gc.collect(0)  # a young collection it survives: now in the middle generation
        del node  # garbage from now on, a cycle
        gc.collect(0)
        assert alive() is not None  # not young any more
    gc.collect(1)
    assert alive() is not None  # not in the middle generation either: the oldest
    gc.collect()
    assert alive() is None  # collected by the next full collection, not lost


def test_a_process_that_froze_objects_keeps_its_thresholds() -> None:
    before = gc.get_threshold()
    gc.freeze()
    try:
        with settled_heap():
            assert gc.get_threshold() == before
    finally:
        gc.unfreeze()
