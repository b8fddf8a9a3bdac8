"""Selecting weapons and targets: attacking models, declarations, selection rules.

An :class:`Attacker` is a unit of models carrying weapons. A list of :class:`Use`
declarations says which models use which weapon against which target, all before any
die is rolled. The selection rules are checked here: when shooting, a model that is not
a MONSTER or VEHICLE fires either its [PISTOL]/[CLOSE-QUARTERS] sidearms or its other
guns; when fighting, each model uses exactly one melee weapon, plus its [EXTRA ATTACKS]
weapons; a melee weapon may split its attacks across engaged targets (docs/rules.md §2.1-§2.3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from ..core.dice import Dice
from ..errors import MathhammerError, OptionError, ProfileError, field_error
from ..model.abilities import Cleave, ExtraAttacks, Hazardous, NoEffect
from ..model.context import Context, Modifiers
from ..model.fields import text_field
from ..model.profiles import Unit, Weapon, normalise_keywords
from .loadout import Loadout, _check_optional, _is_int

__all__ = [
    "PHASES",
    "Attacker",
    "Models",
    "Use",
    "Declaration",
    "check_phase_name",
    "from_loadout",
    "is_extra_attacks",
    "is_sidearm",
    "per_target",
    "split_weapon",
]

#: A declaration: which models (a group by position or name) use which weapon.
Declaration = tuple[int | str, str | Weapon]


T = TypeVar("T")

PHASES = ("shooting", "fight")
_SIDEARMS = frozenset({"PISTOL", "CLOSE-QUARTERS"})
#: The keywords of a model that fires its sidearms and its other guns alike.
_BIG = frozenset({"MONSTER", "VEHICLE"})


@dataclass(frozen=True, init=False)
class Models:
    """Identical models of an attacking unit and the weapons each one carries.

    ``modifiers`` and ``context`` are a buff on these models alone (a leader's on the
    unit it joined): every weapon they carry is :meth:`~mathhammer.model.profiles.Weapon.buffed`
    with it, so their attacks form pools apart from the same weapons of other models.

    Examples
    --------
    >>> bolter = Weapon("Bolter", 2, 3, 4, 0, 1)
    >>> Models(9, [bolter], name="Marines").weapon("Bolter") is bolter
    True
    >>> from mathhammer.model.context import Modifiers
    >>> Models(4, [bolter], modifiers=Modifiers(hit=1)).weapons[0].buff_text
    'hit +1'
    """

    count: int
    weapons: tuple[Weapon, ...]
    name: str
    keywords: tuple[str, ...]

    def __init__(
        self,
        count: int,
        weapons: Weapon | Iterable[Weapon],
        name: str = "",
        keywords: str | Iterable[str] = (),
        modifiers: Modifiers | None = None,
        context: Context | None = None,
    ) -> None:
        if not _is_count(count):
            raise field_error(ProfileError, "Models.count", "an integer >= 1", count)
        checked = _one_or_more(weapons, Weapon, "Models.weapons", "one or more Weapons")
        checked = _buffed(checked, modifiers, context)
        _check_distinct([w.name for w in checked], "Models.weapons", "weapons with distinct names")
        text_field("Models", "name", name)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "weapons", checked)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "keywords", normalise_keywords(keywords))

    @property
    def label(self) -> str:
        """The name, or the weapons carried when unnamed."""
        return self.name or "/".join(w.name for w in self.weapons)

    def weapon(self, key: str | Weapon) -> Weapon:
        """One of the weapons carried, by name or by the Weapon itself."""
        for w in self.weapons:
            if key in (w, w.name):
                return w
        raise field_error(
            ProfileError,
            f"weapon of {self.label!r}",
            f"one of {[w.name for w in self.weapons]}",
            key if isinstance(key, str) else key.name,
        )


@dataclass(frozen=True, init=False)
class Attacker:
    """An attacking unit: groups of identical models and their weapons."""

    name: str
    models: tuple[Models, ...]

    def __init__(self, name: str, models: Models | Iterable[Models]) -> None:
        checked = _one_or_more(models, Models, "Attacker.models", "one or more Models")
        _check_distinct([m.label for m in checked], "Attacker.models", "distinct names")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "models", checked)

    def group(self, key: int | str) -> Models:
        """A group of models by position or name."""
        if _is_int(key) and 0 <= key < len(self.models):
            return self.models[key]
        labels = [m.label for m in self.models]
        if key in labels:
            return self.models[labels.index(key)]
        raise field_error(ProfileError, "Use.models", f"one of {labels}", key)


@dataclass(frozen=True, init=False)
class Use:
    """A declaration: these models use this weapon against this target (or these targets).

    Parameters
    ----------
    models : int or str
        The group of models, by position or name.
    weapon : str or Weapon
        The weapon, by name or itself.
    target : Unit, optional
        The one target of the weapon.
    split : mapping of Unit to int, optional
        Melee only: how many of each model's attacks go to each engaged target, instead
        of ``target``; at least one each, no more targets than A, summing to A.
    count : int, optional
        How many of the group's models use the weapon (all of them by default).
    """

    models: int | str
    weapon: str | Weapon
    target: Unit | None
    split: tuple[tuple[Unit, int], ...] | None
    count: int | None

    def __init__(
        self,
        models: int | str,
        weapon: str | Weapon,
        target: Unit | None = None,
        split: Mapping[Unit, int] | Iterable[tuple[Unit, int]] | None = None,
        count: int | None = None,
    ) -> None:
        if (target is None) == (split is None):
            raise ProfileError("Use needs a target= or a split= (melee), not both or neither")
        _check_optional("Use.target", target, Unit, "a Unit")
        pairs = None if split is None else _split_pairs(split)
        object.__setattr__(self, "models", models)
        object.__setattr__(self, "weapon", weapon)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "split", pairs)
        object.__setattr__(self, "count", count)

    def assignments(self) -> tuple[tuple[Unit, int | None], ...]:
        """(target, attacks per model or None for the weapon's A) pairs."""
        if self.split is None:  # then a target is given: __init__ sees to it
            return ((cast(Unit, self.target), None),)
        return self.split


def _is_count(value: object, most: float = math.inf) -> bool:
    """True for an integer (not a bool) from 1 to ``most``."""
    return _is_int(value) and 1 <= value <= most


def _buffed(
    weapons: tuple[Weapon, ...], modifiers: Modifiers | None, context: Context | None
) -> tuple[Weapon, ...]:
    """The weapons with the buff on their models alone (as they are without one)."""
    if modifiers is None and context is None:
        return weapons
    return tuple(w.buffed(modifiers, context) for w in weapons)


def _one_or_more(value: Any, kind: type[T], field: str, constraint: str) -> tuple[T, ...]:
    """One item of ``kind``, or an iterable of one or more, as a tuple."""
    checked = (value,) if isinstance(value, kind) else tuple(value)
    if not checked or not all(isinstance(v, kind) for v in checked):
        raise field_error(ProfileError, field, constraint, value)
    return checked


def _check_distinct(
    names: list[str], field: str, constraint: str, error: type[MathhammerError] = ProfileError
) -> None:
    """Refuse a name given twice, with an ``error`` (a ProfileError by default)."""
    if len(set(names)) != len(names):
        raise field_error(error, field, constraint, names)


def _split_pairs(
    split: Mapping[Unit, int] | Iterable[tuple[Unit, int]],
) -> tuple[tuple[Unit, int], ...]:
    """The ``(target, attacks)`` pairs of a split, each target a Unit given at least one
    attack."""
    pairs = tuple(split.items() if isinstance(split, Mapping) else split)
    for unit, n in pairs:
        _check_split_target(unit, n)
    return pairs


def _check_split_target(unit: object, n: object) -> None:
    """Refuse a target of a split that is not a Unit, or that gets no attack."""
    if not isinstance(unit, Unit):
        raise field_error(ProfileError, "Use.split", "Unit keys", unit)
    if not _is_count(n):
        raise field_error(
            ProfileError,
            f"Use.split[{unit.name!r}]",
            "an integer >= 1",
            n,
            "every target of a split gets at least one attack",
        )


def _partition(items: Iterable[T], test: Callable[[T], bool]) -> tuple[list[T], list[T]]:
    """The items that fail ``test`` and those that pass it, each in order.

    >>> _partition([1, 2, 3, 4], lambda n: n % 2 == 0)
    ([1, 3], [2, 4])
    """
    failed: list[T] = []
    passed: list[T] = []
    for item in items:
        (passed if test(item) else failed).append(item)
    return failed, passed


def check_phase_name(field: str, phase: object) -> None:
    """Refuse a phase that is not one of :data:`PHASES`, as ``field``."""
    if phase not in PHASES:
        raise field_error(OptionError, field, f"one of {list(PHASES)}", phase)


def is_sidearm(weapon: Weapon) -> bool:
    """A [PISTOL] or [CLOSE-QUARTERS] weapon."""
    return any(isinstance(a, NoEffect) and a.name in _SIDEARMS for a in weapon.abilities)


def is_extra_attacks(weapon: Weapon) -> bool:
    """An [EXTRA ATTACKS] weapon: used on top of the model's one melee weapon."""
    return any(isinstance(a, ExtraAttacks) for a in weapon.abilities)


def split_weapon(weapon: Weapon, attacks: int, first: bool = True) -> Weapon:
    """The weapon as used against one target of a split: its declared attacks, and no
    [CLEAVE] (which needs every attack of the weapon at one unit). Its one [HAZARDOUS]
    roll is made with the first target's pool only."""
    dropped = (Cleave,) if first else (Cleave, Hazardous)
    kept = tuple(a for a in weapon.abilities if not isinstance(a, dropped))
    return replace(weapon, attacks=Dice.parse(attacks), abilities=kept)


def _check_selection(attacker: Attacker, uses: Sequence[Use], phase: str) -> None:
    """Enforce the weapon-selection rules (docs/rules.md §2.2), naming models and weapons."""
    per_group: dict[str, dict[str, int]] = {}
    for use in uses:
        group, weapon, n = _checked_use(attacker, use, phase)
        _tally(per_group.setdefault(group.label, {}), group, weapon, n)
    check = _GROUP_CHECKS[phase]
    for label, used in per_group.items():
        check(attacker.group(label), used)


def _checked_use(attacker: Attacker, use: Use, phase: str) -> tuple[Models, Weapon, int]:
    """The group, weapon and number of models of one declaration, refused when the number
    is not from 1 to the group's, the weapon is not of the phase, or its split is wrong."""
    group, weapon, n = _declared(attacker, use)
    if not _is_count(n, group.count):
        raise field_error(
            ProfileError, f"Use.count for {group.label!r}", f"from 1 to {group.count}", n
        )
    _check_phase(group, weapon, phase)
    if use.split is not None:
        _check_split(group, weapon, use, phase)
    return group, weapon, n


def _declared(attacker: Attacker, use: Use) -> tuple[Models, Weapon, int]:
    """The group, the weapon and the number of models a declaration names."""
    group = attacker.group(use.models)
    weapon = group.weapon(use.weapon)
    return group, weapon, group.count if use.count is None else use.count


#: What a model cannot do with a weapon in a phase, by the phase and the weapon's melee.
_WRONG_WEAPON = {
    ("shooting", True): "shoot with the melee weapon",
    ("fight", False): "fight with the ranged weapon",
}


def _check_phase(group: Models, weapon: Weapon, phase: str) -> None:
    """Refuse a melee weapon when shooting and a ranged one when fighting."""
    wrong = _WRONG_WEAPON.get((phase, weapon.melee))
    if wrong is not None:
        raise ProfileError(f"{group.label!r} cannot {wrong} {weapon.name!r}")


def _tally(used: dict[str, int], group: Models, weapon: Weapon, n: int) -> None:
    """Count ``n`` more of the group's models using the weapon; refuse more uses than
    models (each model's weapon has one target, or one split)."""
    used[weapon.name] = used.get(weapon.name, 0) + n
    if used[weapon.name] > group.count:
        raise ProfileError(
            f"{group.label!r}: {used[weapon.name]} uses of {weapon.name!r} declared for "
            f"{group.count} models; each model's weapon has one target (or one split)"
        )


def _check_split(group: Models, weapon: Weapon, use: Use, phase: str) -> None:
    """Refuse a split that is not melee, or not all of a constant A over distinct targets."""
    a = _split_attacks(group, weapon, phase)
    pairs = use.assignments()
    total = sum(n for _, n in pairs if n is not None)
    _refuse(
        group,
        (len(pairs) > a, f"{weapon.name!r} (A{a}) cannot split across {len(pairs)} targets"),
        (total != a, f"the split of {weapon.name!r} must use all its {a} attacks; got {total}"),
        (
            len({u.name for u, _ in pairs}) != len(pairs),
            f"the split of {weapon.name!r} names a target twice",
        ),
    )


def _split_attacks(group: Models, weapon: Weapon, phase: str) -> int:
    """The attacks of a weapon that may be split: melee, with a constant A."""
    _refuse(
        group,
        (phase != "fight", "only melee attacks can be split across targets"),
        (
            not weapon.attacks.is_constant,
            f"{weapon.name!r} has random attacks ({weapon.attacks}); "
            "a random A cannot be split across targets",
        ),
    )
    return int(weapon.attacks)


def _refuse(group: Models, *problems: tuple[bool, str]) -> None:
    """Raise a ProfileError naming the group for the first of the ``(found, message)``
    problems found."""
    for found, message in problems:
        if found:
            raise ProfileError(f"{group.label!r}: {message}")


def _check_sidearms(group: Models, used: Mapping[str, int]) -> None:
    """Refuse a model (not a MONSTER or VEHICLE) firing both its sidearms and other guns:
    more models declared with the most used of each than the group has."""
    if _BIG & set(group.keywords):
        return
    others, sidearms = _partition(used, lambda w: is_sidearm(group.weapon(w)))
    # with none of one kind, the other alone is at most the group (_tally saw to it)
    most_sidearm, most_other = _most_used(used, sidearms), _most_used(used, others)
    if most_sidearm + most_other > group.count:
        raise ProfileError(
            f"{group.label!r}: a model fires either its [PISTOL]/[CLOSE-QUARTERS] weapons "
            f"({', '.join(sidearms)}) or its other weapons ({', '.join(others)}), not both; "
            f"{most_sidearm} + {most_other} models declared for {group.count}"
        )


def _most_used(used: Mapping[str, int], names: Sequence[str]) -> int:
    """The most models declared with any one of the weapons named (0 for none)."""
    return max((used[w] for w in names), default=0)


def _check_melee(group: Models, used: Mapping[str, int]) -> None:
    """Refuse a fight where the models do not each use exactly one melee weapon (besides
    their [EXTRA ATTACKS] weapons)."""
    main, _ = _partition(used, lambda w: is_extra_attacks(group.weapon(w)))
    declared = sum(used[w] for w in main)
    if declared != group.count:
        raise ProfileError(
            f"{group.label!r}: each model fights with exactly one melee weapon (plus its "
            f"[EXTRA ATTACKS] weapons); {declared} declared for {group.count} models "
            f"({', '.join(main) or 'none'})"
        )


#: The check of each group's weapons in a phase, once every declaration is tallied.
_GROUP_CHECKS = {"shooting": _check_sidearms, "fight": _check_melee}


def per_target(
    attacker: Attacker, uses: Sequence[Use], phase: str
) -> dict[str, tuple[Unit, list[tuple[Weapon, int]]]]:
    """The pools of one declaration, by target name: each target and the weapons (split
    ones cut to their attacks) with the number of models using each against it."""
    check_phase_name("phase", phase)
    uses = _checked_uses(uses)
    _check_selection(attacker, uses, phase)
    out: dict[str, tuple[Unit, list[tuple[Weapon, int]]]] = {}
    for use in uses:
        group, weapon, n = _declared(attacker, use)
        for k, (target, attacks) in enumerate(use.assignments()):
            pool = _pool(out, target)
            weapon_here = weapon if attacks is None else split_weapon(weapon, attacks, k == 0)
            pool.append((weapon_here, n))
    return out


def _checked_uses(uses: Sequence[Use]) -> list[Use]:
    """The declarations as a list: one or more, each a :class:`Use`."""
    uses = list(uses)
    if not uses:
        raise field_error(ProfileError, "uses", "at least one Use", uses)
    if not all(isinstance(u, Use) for u in uses):
        raise field_error(ProfileError, "uses", "Use declarations", uses)
    return uses


def _pool(
    out: dict[str, tuple[Unit, list[tuple[Weapon, int]]]], target: Unit
) -> list[tuple[Weapon, int]]:
    """The weapons against ``target`` so far (none for a new one); another target of the
    same name is refused."""
    known = out.get(target.name)
    if known is not None and known[0] != target:
        raise ProfileError(f"two different targets are named {target.name!r}")
    return out.setdefault(target.name, (target, []))[1]


def from_loadout(loadout: Loadout) -> tuple[Attacker, list[Declaration], Context | None] | None:
    """A loadout as an attacking unit for :func:`plan_army`: a group of models per weapon
    (mortal-wound steps left out), each a declaration, with the loadout's context; None
    when it has no weapon. Identical weapon lines (a roster stores each model as its own
    selection) are one group: they are declared together.

    Examples
    --------
    >>> import mathhammer as mh
    >>> rifle, plasma = mh.Weapon("Rifle", 2, 3, 4), mh.Weapon("Rifle", 1, 3, 7, -2, 2)
    >>> squad = mh.Loadout("Squad", [(rifle, 4), (plasma, 1), (rifle, 5)])
    >>> attacker, declared, _ = from_loadout(squad)
    >>> [(m.label, m.count) for m in attacker.models], declared
    ([('Rifle #1', 9), ('Rifle #2', 1)], [('Rifle #1', 'Rifle'), ('Rifle #2', 'Rifle')])
    """
    lines = _merged_lines(loadout.weapon_counts)
    if not lines:
        return None
    labels = _numbered_names([w.name for w, _ in lines])
    groups = [Models(n, [w], name=label) for (w, n), label in zip(lines, labels, strict=True)]
    declared: list[Declaration] = [(g.name, g.weapons[0].name) for g in groups]
    return Attacker(loadout.name, groups), declared, loadout.context


def _merged_lines(weapon_counts: Iterable[tuple[Weapon, int]]) -> list[tuple[Weapon, int]]:
    """Identical weapons as one line, their counts added, in order of first appearance."""
    merged: dict[Weapon, int] = {}
    for weapon, count in weapon_counts:
        merged[weapon] = merged.get(weapon, 0) + count
    return list(merged.items())


def _numbered_names(names: list[str]) -> list[str]:
    """Each name, numbered where names repeat (``"Rifle #1"``, ``"Rifle #2"``)."""
    return [
        name if names.count(name) == 1 else f"{name} #{names[: i + 1].count(name)}"
        for i, name in enumerate(names)
    ]
