"""A least-recently-used cache bounded by the size of what it holds, not only by its count.

:func:`functools.lru_cache` bounds the number of results; that is enough when every
result is small. A binomial table, or the joint distribution of a pool's wounds, grows
as the square of the pool: a cache of a few such arrays can hold hundreds of megabytes.
:class:`SizedCache` takes each value's size (its array entries) when it is stored and
gives back the least recently used values until both bounds hold; a value larger than
the whole budget is not stored. Keys are values (floats, ints, tuples, frozen
dataclasses); the values should be immutable (read-only arrays), since every caller gets
the same object. Register an instance with :func:`mathhammer.core.caches.register` so
that ``mathhammer.clear_caches()`` empties it.

Examples
--------
>>> cache: SizedCache[str, int] = SizedCache(max_size=10, max_items=3, name="example")
>>> cache.put("a", 1, size=4)
>>> cache.put("b", 2, size=4)
>>> cache.get("a")
1
>>> cache.put("c", 3, size=4)  # 12 > 10: "b", the least recently used, goes
>>> cache.get("b") is None, cache.get("a"), cache.cache_info()
(True, 1, CacheInfo(items=2, size=8))
>>> cache.put("big", 0, size=11)  # larger than the budget: not stored
>>> cache.get("big") is None
True
>>> cache
SizedCache('example', items=2, size=8 of 10)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, NamedTuple, TypeVar

__all__ = ["CacheInfo", "SizedCache"]

K = TypeVar("K")
V = TypeVar("V")


class CacheInfo(NamedTuple):
    """What a :class:`SizedCache` holds: its values and the sum of their sizes."""

    items: int
    size: int


class SizedCache(Generic[K, V]):
    """A thread-safe LRU mapping holding at most ``max_items`` values of total size
    ``max_size`` (in whatever unit :meth:`put` is given: array entries here)."""

    def __init__(self, max_size: int, max_items: int, name: str = "") -> None:
        for bound, value in (("max_size", max_size), ("max_items", max_items)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{bound} must be an integer >= 1; got {value!r}")
        self.max_size = max_size
        self.max_items = max_items
        self.name = name
        self._values: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value stored under ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V, size: int) -> None:
        """Store ``value`` under ``key``, replacing any value there, then give back the
        least recently used values until both bounds hold. A value larger than
        ``max_size`` is not stored (and any older value under ``key`` is dropped)."""
        entry = (value, size)
        with self._lock:
            # one lookup of a new key (a key may hash in Python, as a frozen dataclass does)
            old = self._values.setdefault(key, entry)
            if old is not entry:  # replaced: the older value's size given back, the key last
                self._size -= old[1]
                del self._values[key]
                self._values[key] = entry
            if size > self.max_size:  # not stored
                del self._values[key]
                return
            self._size += size
            while self._size > self.max_size or len(self._values) > self.max_items:
                _, (_, dropped) = self._values.popitem(last=False)
                self._size -= dropped

    def cache_clear(self) -> None:
        """Empty the cache."""
        with self._lock:
            self._values.clear()
            self._size = 0

    def __repr__(self) -> str:
        items, size = self.cache_info()
        return f"SizedCache({self.name!r}, items={items}, size={size} of {self.max_size})"

    def cache_info(self) -> CacheInfo:
        """The number of values held and the sum of their sizes."""
        with self._lock:
            return CacheInfo(len(self._values), self._size)
