"""Frozen value objects whose hash is computed once.

Weapons, units, contexts and dice are frozen dataclasses, and the keys of the engine's
caches: every lookup hashed them field by field, the objects they hold included. A class
decorated with :func:`hash_once` keeps its hash once asked for it (in the instance's
``__dict__``, as :func:`functools.cached_property` keeps a value), which it may since
nothing it is made of changes; and leaves it out when pickled, since another process
salts the hashes of strings differently.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["hash_once"]

T = TypeVar("T", bound=type)

#: Where an instance keeps its hash.
_KEY = "_hash_once"


def hash_once(cls: T) -> T:
    """Decorate a frozen dataclass (with ``eq``) so that its hash is computed once per
    instance; equality and every other behaviour are the dataclass's own.

    Examples
    --------
    >>> import pickle
    >>> from mathhammer.core.dice import Dice  # a class decorated with it
    >>> d = Dice("D6+1")
    >>> hash(d) == hash(d), "_hash_once" in d.__dict__, d == Dice("d6 + 1")
    (True, True, True)
    >>> "_hash_once" in pickle.loads(pickle.dumps(d)).__dict__
    False
    """
    fields_hash: Any = cls.__hash__
    if fields_hash is None:
        raise TypeError(f"{cls.__name__} is not hashable: give it eq=True, frozen=True")

    def __hash__(self: Any) -> int:
        found: int | None = self.__dict__.get(_KEY)
        if found is None:
            found = fields_hash(self)
            self.__dict__[_KEY] = found
        return found

    def __getstate__(self: Any) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop(_KEY, None)
        return state

    setattr(cls, "__hash__", __hash__)  # noqa: B010 (assigned on the class, not the instance)
    setattr(cls, "__getstate__", __getstate__)  # noqa: B010
    return cls
