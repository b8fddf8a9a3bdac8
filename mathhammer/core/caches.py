"""The package's bounded caches, in one registry, so that they can be cleared together.

Results that depend only on values (a binomial table, a pool's hit and wound
distributions against a target profile) are cached with :func:`functools.lru_cache`
and a ``maxsize``, or with :class:`~mathhammer.core.lru.SizedCache` when their sizes
vary; every such cache is registered here. :func:`clear` empties them all:
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

from typing import Any, Protocol, TypeVar

__all__ = ["clear", "register", "registered"]


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
