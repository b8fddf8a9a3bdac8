"""The package's bounded caches, in one registry, so that they can be cleared together.

Results that depend only on values (a binomial table, a pool's hit and wound
distributions against a target profile) are cached with :func:`functools.lru_cache`
and a ``maxsize``; every such cache is registered here. :func:`clear` empties them all:
for a benchmark that times the computation rather than the lookup, or to give the
memory back after a large batch.

Examples
--------
>>> from functools import lru_cache
>>> @register
... @lru_cache(maxsize=8)
... def square(x: int) -> int:
...     return x * x
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear()
>>> square.cache_info().currsize
0
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Protocol, TypeVar

__all__ = ["BoundedCache", "clear", "register", "registered"]


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...


F = TypeVar("F", bound=_Clearable)

_REGISTRY: list[_Clearable] = []


def register(cached: F) -> F:
    """Register a cache (anything with ``cache_clear()``, e.g. an ``lru_cache``); return it."""
    if not callable(getattr(cached, "cache_clear", None)):
        raise TypeError(f"cached must have a cache_clear() method; got {cached!r}")
    if cached not in _REGISTRY:
        _REGISTRY.append(cached)
    return cached


def registered() -> tuple[Any, ...]:
    """The registered caches, in the order they were registered."""
    return tuple(_REGISTRY)


def clear() -> None:
    """Empty every registered cache."""
    for cached in _REGISTRY:
        cached.cache_clear()


class BoundedCache:
    """A least-recently-used mapping bounded by the number of entries and their total size.

    Each entry is stored with its size in bytes (as the caller estimates it); the oldest
    entries are dropped while there are more than ``maxsize`` of them or their sizes sum
    past ``maxbytes``, and an entry larger than ``maxbytes / 8`` is not stored at all.

    Parameters
    ----------
    maxsize : int
        The most entries kept.
    maxbytes : int
        The most bytes kept, summed over the entries' sizes.

    Examples
    --------
    >>> cache = register(BoundedCache(maxsize=2, maxbytes=800))
    >>> cache.put("a", 1, 10); cache.put("b", 2, 10); cache.get("a")
    1
    >>> cache.put("c", 3, 10)  # "b" is the least recently used: dropped
    >>> cache.get("b") is None, cache.get("c"), len(cache)
    (True, 3, 2)
    >>> cache.put("d", 4, 101)  # more than an eighth of the bytes: not kept
    >>> cache.get("d") is None
    True
    >>> clear(); len(cache)
    0
    """

    def __init__(self, maxsize: int, maxbytes: int) -> None:
        if maxsize < 1 or maxbytes < 1:
            raise ValueError(f"maxsize and maxbytes must be >= 1; got {maxsize}, {maxbytes}")
        self.maxsize = maxsize
        self.maxbytes = maxbytes
        self._entries: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()  # threads may share it: one change at a time

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        """The sizes of the entries kept, summed."""
        return self._bytes

    def get(self, key: Any) -> Any:
        """The value stored under ``key`` (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Any, value: Any, nbytes: int) -> None:
        """Store ``value`` under ``key``, dropping the least recently used entries."""
        if nbytes > self.maxbytes // 8:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, nbytes)
            self._bytes += nbytes
            while len(self._entries) > self.maxsize or self._bytes > self.maxbytes:
                _, (_, size) = self._entries.popitem(last=False)
                self._bytes -= size

    def cache_clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0
