"""Frozen value objects: hashes computed once (:func:`hash_once`) and the fast ``__init__`` of
frozen dataclasses (:func:`fast_init`), against the dataclass's own."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import InitVar, dataclass, field
from functools import cached_property
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.core.frozen import _FACTORY, HASHED, HashedKey, fast_init, hash_once
from mathhammer.exact.steps import PlainSteps
from mathhammer.model.draft import Situation
from mathhammer.model.pools import Pool
from mathhammer.results.attack import AttackResult
from mathhammer.results.parts import GroupResult, PoolResult
from mathhammer.results.state import UnitState
from mathhammer.rules.base import PoolChecks, RollCheck
from mathhammer.rules.plan import AttackPlan, PlannedPool, plan_attack


def _shapes() -> list[type]:
    """Dataclasses of every kind of field: positional, defaults, default factories, keyword
    only, not in ``__init__``, and a ``__post_init__`` that derives a field."""

    @dataclass(frozen=True)
    class Plain:
        a: int
        b: str

    @dataclass(frozen=True)
    class Defaults:
        a: int
        b: tuple[int, ...] = ()
        c: list[int] = field(default_factory=list)
        d: float = 0.5

    @dataclass(frozen=True)
    class KeywordOnly:
        a: int
        b: int = field(default=2, kw_only=True)
        c: list[int] = field(default_factory=lambda: [7], kw_only=True)

    @dataclass(frozen=True)
    class Derived:
        a: int
        twice: int = field(init=False, default=0)
        seen: list[int] = field(init=False, default_factory=list)
        never: int = field(init=False, repr=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.a)

    @dataclass(frozen=True, eq=False)
    class NoEq:
        a: int
        b: int = 1

    return [Plain, Defaults, KeywordOnly, Derived, NoEq]


_CALLS: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "Plain": [((1, "x"), {}), ((), {"a": 2, "b": "y"}), ((3,), {"b": "z"})],
    "Defaults": [
        ((1,), {}),
        ((1, (2,)), {}),
        ((1,), {"c": [4], "d": 2.0}),
        ((1, (), [5], 0.1), {}),
    ],
    "KeywordOnly": [((1,), {}), ((1,), {"b": 5}), ((1,), {"c": [], "b": 0})],
    "Derived": [((4,), {}), ((), {"a": -1})],
    "NoEq": [((1,), {}), ((1, 2), {})],
}


def _fast_twin(cls: type) -> type:
    """The same dataclass again, then given :func:`fast_init`."""
    fields = [
        (f.name, f.type, field(default=f.default, default_factory=f.default_factory,
                               init=f.init, kw_only=f.kw_only, repr=f.repr))
        for f in dataclasses.fields(cls)
    ]  # fmt: skip
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    namespace = {"__post_init__": cls.__post_init__} if hasattr(cls, "__post_init__") else {}
    twin = dataclasses.make_dataclass(
        cls.__name__, fields, frozen=True, eq=params.eq, namespace=namespace
    )
    return fast_init(twin)


@pytest.mark.parametrize("cls", _shapes(), ids=lambda c: c.__name__)
def test_fast_init_makes_the_dataclass_instance(cls: type) -> None:
    """Every call gives the instance the dataclass's own ``__init__`` gives: the same
    ``__dict__`` (keys in the same order), a fresh default factory value per instance."""
    fast = _fast_twin(cls)
    for args, kwargs in _CALLS[cls.__name__]:
        ours, theirs = fast(*args, **kwargs), cls(*args, **kwargs)
        assert list(vars(ours).items()) == list(vars(theirs).items())
        assert repr(ours).partition("(")[2] == repr(theirs).partition("(")[2]
    if cls.__name__ == "Defaults":
        one, two = fast(1), fast(1)
        assert one.c == [] and one.c is not two.c


@pytest.mark.parametrize("cls", _shapes(), ids=lambda c: c.__name__)
def test_fast_init_refuses_as_the_dataclass_does(cls: type) -> None:
    fast = _fast_twin(cls)
    for bad in [(), (1, 2, 3, 4, 5, 6)]:
        with pytest.raises(TypeError):
            cls(*bad)
        with pytest.raises(TypeError):
            fast(*bad)
    with pytest.raises(TypeError):
        fast(1, nonsense=2)
    if cls.__name__ == "KeywordOnly":
        with pytest.raises(TypeError):
            fast(1, 2)  # b is keyword-only


@pytest.mark.parametrize("cls", _shapes(), ids=lambda c: c.__name__)
def test_fast_init_keeps_the_signature(cls: type) -> None:
    fast = _fast_twin(cls)
    theirs = inspect.signature(cls.__init__).parameters  # type: ignore[misc]
    ours = inspect.signature(fast.__init__).parameters  # type: ignore[misc]
    assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()]
    for name, p in theirs.items():
        factory = p.default is not inspect.Parameter.empty and "factory" in repr(p.default)
        assert ours[name].default is (_FACTORY if factory else p.default)


@fast_init
@dataclass(frozen=True)
class Box:
    a: int
    b: tuple[int, ...] = ()
    c: list[int] = field(default_factory=list)


@hash_once
@dataclass(frozen=True)
class Square:
    side: int

    @cached_property
    def area(self) -> int:
        """The area."""
        CALLS.append(self.side)
        return self.side**2


CALLS: list[int] = []


def test_fast_init_stays_frozen_and_pickles() -> None:
    fast = Box
    box = fast(1, (2,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.a = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(box, protocol=5)).__dict__ == box.__dict__
    assert dataclasses.replace(box, a=5) == fast(5, (2,))
    assert box == fast(1, (2,), []) and box != fast(1, (2,), [3])


def test_fast_init_refuses_other_classes() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclass(frozen=True)
    class WithInitVar:
        a: int
        b: InitVar[int] = 0

    @dataclass(frozen=True, init=False)
    class OwnInit:
        a: int

        def __init__(self, a: str) -> None:
            object.__setattr__(self, "a", int(a))

    class NotADataclass:
        pass

    for cls in (Mutable, Slotted, WithInitVar, OwnInit, NotADataclass):
        with pytest.raises(TypeError):
            fast_init(cls)


#: The package's classes made by :func:`fast_init`: an attack makes them by the dozen.
FAST = (
    AttackPlan, AttackResult, GroupResult, PlainSteps, PlannedPool, Pool, PoolChecks,
    PoolResult, RollCheck, Situation, UnitState,
)  # fmt: skip


def test_package_classes_use_fast_init() -> None:
    for cls in FAST:
        # made by fast_init (the dataclass's own __init__ reads the module's globals)
        assert cls.__init__.__globals__.get("_FACTORY") is _FACTORY, cls
        names = [f.name for f in dataclasses.fields(cls) if f.init]
        assert list(inspect.signature(cls.__init__).parameters)[1:] == names


def test_package_instances_rebuild_equal() -> None:
    """Every fast-init instance an attack makes, rebuilt from its fields, is the same."""
    gun = mh.Weapon("Gun", 2, 3, 4, -1, "D3", "[SUSTAINED HITS 1]")
    target = mh.Unit.of("Squad", 5, 4, 3, 2)
    result = mh.attack([(gun, 5)], target)
    plan = plan_attack([(gun, 5)], target)
    step = plan.steps[0]
    assert isinstance(step, PlannedPool)
    found: list[Any] = [result, *result.pools, *result.groups, result.state, plan, step,
                        step.pool, step.checks, step.checks.wound]  # fmt: skip
    for obj in found:
        fields = dataclasses.fields(obj)
        rebuilt = type(obj)(**{f.name: getattr(obj, f.name) for f in fields if f.init})
        for f in fields:  # the fields given, the same; those made by __post_init__, equal
            again, before = getattr(rebuilt, f.name), getattr(obj, f.name)
            assert again is before if f.init else again == before, f.name
        if type(obj).__dataclass_params__.eq:
            assert rebuilt == obj


# ------------------------------------------------------------- cached values
def test_a_cached_value_is_computed_once_per_instance() -> None:
    CALLS.clear()
    a, b = Square(3), Square(4)
    assert (a.area, a.area, b.area, a.area) == (9, 9, 16, 9)
    assert CALLS == [3, 4]
    assert Square.area.__doc__ == "The area."
    assert isinstance(vars(Square)["area"], cached_property)
    assert pickle.loads(pickle.dumps(a)).area == 9  # the value travels in __dict__
    assert a == Square(3) and hash(a) == hash(Square(3))  # not a field: equality unchanged


def test_fast_init_refuses_fields_named_as_its_own() -> None:
    for name in ("_FACTORY", "_default_x", "_factory_y"):
        cls = dataclasses.make_dataclass("Clash", [(name, int)], frozen=True)
        with pytest.raises(TypeError, match="fast_init's own names"):
            fast_init(cls)
    named_self = fast_init(dataclasses.make_dataclass("Me", [("self", int)], frozen=True))
    assert named_self(self=3).self == 3


def test_a_hashed_key_is_equal_and_hashed_by_its_parts() -> None:
    gun = mh.Weapon("Gun", 2, 3, 4, -1, 1)
    a, b = HashedKey((1, "a", gun)), HashedKey((1, "a", mh.Weapon("Gun", 2, 3, 4, -1, 1)))
    assert a == b and hash(a) == hash(b) and {a: 0}[b] == 0
    assert a.parts == (1, "a", gun) and repr(HashedKey((1,))) == "HashedKey((1,))"
    assert a != HashedKey(("a", 1, gun)) and a != HashedKey((1, "a"))
    assert HashedKey((HashedKey((1,)), 2)) != HashedKey(((1,), 2))  # a key is not its parts
    assert pickle.loads(pickle.dumps(a)) == a and type(pickle.loads(pickle.dumps(a))) is HashedKey
    with pytest.raises(TypeError):
        HashedKey(([1],))  # hashed on making it: an unhashable part is refused at once


@pytest.mark.parametrize(
    ("value", "other"),
    [
        (mh.Unit.of("Squad", 5, 4, 3, 2), mh.Unit.of("Squad", 5, 4, 3, 1)),
        (mh.targets.get("Line infantry"), mh.targets.get("Elite infantry")),
    ],
)
def test_a_key_part_is_made_once_and_stands_for_its_value(value: Any, other: Any) -> None:
    """``hashed`` (:data:`HASHED`) is the value's own one-part key, made once per
    instance, equal for equal values and left out of a pickle (its hash would travel)."""
    assert type(value).__dict__["hashed"] is HASHED
    key = value.hashed
    assert key.parts == (value,) and value.hashed is key
    twin = pickle.loads(pickle.dumps(value))
    assert "hashed" not in vars(twin) and twin.hashed == key and hash(twin.hashed) == hash(key)
    assert other != value and other.hashed != key
