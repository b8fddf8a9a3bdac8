"""Internal: a bodyguard unit with the CHARACTER units leading it, and the defence effects
of a unit's rules on its groups (:func:`guarded`); :mod:`mathhammer.units.datasheet` gives
both with its datasheets.

Examples
--------
>>> guard = Unit.of("Guard", 5, 4, 3, 2)
>>> boss = Unit("Boss", [ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
>>> attach_leaders(guard, boss).name
'Guard led by Boss'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from ..model.effects import Effect, guards
from ..model.profiles import ModelGroup, Unit

__all__ = ["attach_leaders", "guarded", "led_name"]

T = TypeVar("T")


def led_name(bodyguard: str, leaders: Sequence[str]) -> str:
    """The name of a bodyguard unit with the units attached to it.

    >>> led_name("Boyz", ["Warboss"]), led_name("Boyz", [])
    ('Boyz led by Warboss', 'Boyz')
    """
    return f"{bodyguard} led by {', '.join(leaders)}" if leaders else bodyguard


def attach_leaders(bodyguard: Unit, *leaders: Unit, name: str | None = None) -> Unit:
    """One target of a bodyguard unit and the CHARACTER units leading it.

    The leaders' models become CHARACTER groups after the bodyguard's groups; the unit has
    every keyword of every part (docs/rules.md D35), Stealth only if every part has, and
    the rules on attacks against it (``Unit.rules``) of every part.

    Examples
    --------
    >>> guard = Unit.of("Guard", 5, 4, 3, 2)
    >>> boss = Unit("Boss", [ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
    >>> led = attach_leaders(guard, boss)
    >>> [g.label for g in led.groups], led.name
    (['5x W2 Sv3+', 'Boss'], 'Guard led by Boss')
    """
    parts = (bodyguard, *leaders)
    label = name or led_name(bodyguard.name, [u.name for u in leaders])
    # a defence that worsens AP or re-rolls saves covers the whole unit, from the
    # bodyguard or a leader
    return Unit(
        label,
        [*bodyguard.groups, *_leader_groups(leaders)],
        _union(u.keywords for u in parts),
        stealth=all(u.stealth for u in parts),
        worsen_ap=max(u.worsen_ap for u in parts),
        reroll_saves=_best_reroll(parts),
        rules=_union(u.rules for u in parts),
    )


def _leader_groups(leaders: Sequence[Unit]) -> list[ModelGroup]:
    """Every model of the leading units as a CHARACTER allocation group of its own."""
    return [
        replace(g, character=True, count=1)
        for u in leaders
        for g in u.groups
        for _ in range(g.count)
    ]


def _best_reroll(units: Sequence[Unit]) -> str | None:
    """The best save re-roll any of the units has (failed saves include the 1s)."""
    rerolls = {u.reroll_saves for u in units}
    return next((r for r in ("failures", "ones", "command") if r in rerolls), None)


def _union(items: Iterable[Iterable[T]]) -> tuple[T, ...]:
    """Every item of every part, once each, in order of first appearance."""
    return tuple(dict.fromkeys(item for part in items for item in part))


def guarded(unit: Unit, effects: Sequence[Effect]) -> Unit:
    """The unit with the defence effects of its rules: those on each attack as its rules
    (:func:`~mathhammer.model.effects.guards`), added to any it has; an unconditional
    Feel No Pain, damage reduction or halving from a leader "while leading" (the unit's
    own are its profiles' already) or an army rule (``Effect.units``) as every group's, the
    better of it and the group's.

    Examples
    --------
    >>> from mathhammer.model.effects import Effect
    >>> led = guarded(Unit.of("Boyz", 10, 5, 5, 1), [Effect("fnp", 5, scope="led"),
    ...               Effect("target_ap", 1, source="Krumpin'")])
    >>> led.groups[0].fnp, [str(r) for r in led.rules]
    (5, ["Krumpin' (-1 AP to attacks that target it)"])
    """
    rules = guards(effects)
    groups, stealth = _shared_defence(unit, effects)
    if (rules, groups, stealth) == ((), unit.groups, unit.stealth):
        return unit  # nothing to add
    return replace(unit, groups=groups, rules=(*unit.rules, *rules), stealth=stealth)


#: The better of a group's value and an effect's, by the kind of effect (and the field).
_BETTER: dict[str, Callable[[int, int], int]] = {
    "fnp": min,
    "fnp_mortal": min,
    "invuln": min,
    "damage_reduction": max,
}


def _shared_defence(unit: Unit, effects: Sequence[Effect]) -> tuple[tuple[ModelGroup, ...], bool]:
    """The unit's groups and Stealth, improved by the effects that every group shares
    (:func:`_shared`)."""
    shared = [e for e in effects if _shared(e)]
    groups = tuple(_improved_groups(unit.groups, shared))
    return groups, unit.stealth or any(e.kind == "stealth" for e in shared)


def _shared(effect: Effect) -> bool:
    """True for a defence effect that improves the groups here: unconditional, on no one
    attack, and from a leader "while leading", an army rule or some models' rules (the
    unit's own are its profiles' fields already)."""
    own = effect.scope != "led" and not effect.units and not effect.models
    return not (own or effect.conditions or effect.attacks)


def _improved_groups(groups: Sequence[ModelGroup], effects: Sequence[Effect]) -> list[ModelGroup]:
    """The groups with each effect applied, in order, to those it covers."""
    out = list(groups)
    for effect in effects:
        out = [_improved(g, effect) if _covers(effect, g) else g for g in out]
    return out


def _covers(effect: Effect, group: ModelGroup) -> bool:
    """True if the effect is for the group's models (D41: named ones, or the CHARACTERs)."""
    return group.character if effect.models == "character" else effect.for_model(group.label)


def _improved(group: ModelGroup, effect: Effect) -> ModelGroup:
    """The group with the better of its value and the effect's (halved damage as it is)."""
    if effect.kind == "halve_damage":
        return replace(group, halve_damage=True)
    better = _BETTER.get(effect.kind)
    value = effect.value
    if better is None or not isinstance(value, int):
        return group
    current = getattr(group, effect.kind)
    best: dict[str, Any] = {effect.kind: value if current is None else better(current, value)}
    return replace(group, **best)
