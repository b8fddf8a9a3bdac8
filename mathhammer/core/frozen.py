"""Frozen value objects and cache keys: a hash computed once, and a faster ``__init__``.

Weapons, units, contexts and dice are frozen dataclasses and the keys of the engine's
caches. A class decorated with :func:`hash_once` keeps its hash once asked for it (in the
instance's ``__dict__``), which it may since nothing it is made of changes, and leaves it
out when pickled, since another process salts the hashes of strings differently. The value
objects an attack makes by the dozen (its plan's checks, its results) are built by
:func:`fast_init`, which writes the fields into the new instance's ``__dict__`` where a
frozen dataclass's ``__init__`` calls ``object.__setattr__`` per field; :class:`once` is
:func:`functools.cached_property` without its lock. Rows that keep them: S2-S6, S4 and S5,
S1-S6 of ``benchmarks/bench_perf.py`` (docs/performance.md, section 2). A cache key made of
them is a :class:`HashedKey`, whose hash the interpreter keeps, so that looking it up again
calls no ``__hash__`` of theirs; a long-lived value stands in such keys as its own key
(:data:`HASHED`). Row that keeps them: BATCH-compare.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

__all__ = ["HASHED", "HashedKey", "fast_init", "hash_once", "once"]

T = TypeVar("T", bound=type)
V = TypeVar("V")

#: Where an instance keeps its hash (the attribute ``__hash__`` reads).
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
        try:  # an attribute read costs less than a call of __dict__.get (a hash read is hot)
            found: int = self._hash_once
        except AttributeError:  # the first hash of this instance
            found = self.__dict__[_KEY] = fields_hash(self)
        return found

    def __getstate__(self: Any) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop(_KEY, None)
        state.pop("hashed", None)  # a key of the value itself (:data:`HASHED`)
        return state

    setattr(cls, "__hash__", __hash__)  # noqa: B010 (assigned on the class, not the instance)
    setattr(cls, "__getstate__", __getstate__)  # noqa: B010
    return cls


#: The default of a parameter whose field has a default factory (as the dataclass's own).
_FACTORY = object()


def fast_init(cls: T) -> T:
    """Give a frozen dataclass an ``__init__`` that writes the fields into the instance's
    ``__dict__`` (where the dataclass's own calls ``object.__setattr__`` once a field):
    the same parameters, defaults, default factories and ``__post_init__`` call, and the
    same instance. Decorate the dataclass (``@fast_init`` above ``@dataclass(frozen=True)``).

    Raises
    ------
    TypeError
        For a class that is not a frozen dataclass with a ``__dict__``, or whose
        ``__init__`` is not the dataclass's (its own, ``init=False``, or ``InitVar`` fields).

    Examples
    --------
    >>> from dataclasses import dataclass, field
    >>> @fast_init
    ... @dataclass(frozen=True)
    ... class Box:
    ...     size: int
    ...     tags: tuple[str, ...] = ()
    ...     seen: list[int] = field(default_factory=list)
    >>> Box(2), Box(3, tags=("a",)) == Box(3, ("a",), [])
    (Box(size=2, tags=(), seen=[]), True)
    >>> Box(2).size = 4
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'size'
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init or "__slots__" in vars(cls):
        raise TypeError(f"{cls.__name__} must be a frozen dataclass with its own __init__")
    fields = dataclasses.fields(cls)
    original: Any = vars(cls)["__init__"]
    given = list(inspect.signature(original).parameters)[1:]  # after the instance
    if given != [f.name for f in fields if f.init]:  # InitVar parameters, or a hand-written one
        raise TypeError(f"{cls.__name__}.__init__ takes other parameters than its fields")
    taken = {f.name for f in fields}
    if taken & {"_FACTORY", "__fast_self__"} or any(
        n.startswith(("_default_", "_factory_")) for n in taken
    ):
        raise TypeError(f"{cls.__name__} has a field named as fast_init's own names")
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    values: list[str] = []
    for f in fields:
        value = f.name
        if f.default is not dataclasses.MISSING:
            if not f.init:
                continue  # read from the class, as the dataclass leaves it
            names[f"_default_{f.name}"] = f.default
            default = f"_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            default = "_FACTORY"
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}"
            if not f.init:
                value = f"_factory_{f.name}()"
        elif not f.init:
            continue  # left unset, as the dataclass leaves it
        else:
            default = ""
        if f.init:
            parameter = f"{f.name}={default}" if default else f.name
            (keyword if f.kw_only else positional).append(parameter)
        values.append(f"{f.name!r}: {value}")
    me = "__fast_self__" if "self" in taken else "self"  # as the dataclass names it
    body = [f"    {me}.__dict__.update({{{', '.join(values)}}})"]
    if hasattr(cls, "__post_init__"):
        body.append(f"    {me}.__post_init__()")
    signature = ", ".join([me, *positional, *(["*", *keyword] if keyword else [])])
    exec(f"def __init__({signature}):\n" + "\n".join(body), names)  # noqa: S102
    init = names["__init__"]
    init.__qualname__ = original.__qualname__
    init.__module__ = original.__module__
    init.__annotations__ = dict(original.__annotations__)
    init.__doc__ = original.__doc__
    setattr(cls, "__init__", init)  # noqa: B010
    return cls


class once(Generic[V]):  # noqa: N801 (a decorator, named as the standard one it stands for)
    """:func:`functools.cached_property` without its lock: the value computed on first
    access is written into the instance's ``__dict__``, where later reads find it before
    this descriptor. Python 3.11's takes a lock on every first access, some 60 bytecode
    instructions where this one runs 10: a cold attack reads six (a plan's and its pools'),
    7 % of the interpreter's work on S1 (docs/performance.md, section 2). Two threads that
    both compute a value compute the same one: the values depend only on frozen fields.
    Rows that keep it: S1-S6 of ``benchmarks/bench_perf.py``.

    Examples
    --------
    >>> class Square:
    ...     def __init__(self, side: int) -> None:
    ...         self.side = side
    ...     @once
    ...     def area(self) -> int:
    ...         print("computed")
    ...         return self.side**2
    >>> s = Square(3)
    >>> s.area
    computed
    9
    >>> s.area, "area" in vars(s)
    (9, True)
    """

    def __init__(self, func: Callable[[Any], V]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[V]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> V | once[V]:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value


class HashedKey(frozenset[tuple[Any, ...]]):
    """A key of immutable values whose hash is computed once, by the interpreter: the
    frozenset of one tuple, its ``parts``. A frozenset keeps its hash once computed, so
    that a cache looking the key up (or storing it) again pays no call of a value
    object's ``__hash__`` (about 2,000 machine instructions each from C: BATCH-compare).
    Keys are equal when their parts are. Pickled by its parts: another process hashes
    strings differently.

    Examples
    --------
    >>> key = HashedKey((1, "a"))
    >>> key == HashedKey((1, "a")), key.parts, {key: 0}[HashedKey((1, "a"))]
    (True, (1, 'a'), 0)
    """

    __slots__ = ("parts",)

    #: The values the key is made of, in order.
    parts: tuple[Any, ...]

    def __new__(cls, parts: tuple[Any, ...]) -> HashedKey:
        key = super().__new__(cls, (parts,))
        key.parts = parts  # a slot: read without a call
        return key

    def __repr__(self) -> str:
        return f"HashedKey({self.parts!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return HashedKey, (self.parts,)


def _hashed(value: Any) -> HashedKey:
    return HashedKey((value,))


#: The value as a part of a cache key, hashed once by the interpreter: a class decorated
#: with :func:`hash_once` whose long-lived values are parts of the engine's hottest keys
#: (a unit, a target, a dice expression) declares ``hashed = HASHED``, and a key holds
#: ``value.hashed`` where it would hold the value. Its ``__hash__`` is then called once per
#: value, not once per key made of it (BATCH-compare, S3). Not for values made afresh per
#: attack (a context): the key would be made for one use, and kept with the value.
HASHED: once[HashedKey] = once(_hashed)
